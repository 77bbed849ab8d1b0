"""The hardware adapters' exception base: one ``except HardwareError`` catches what they raise.

A setting that cannot work (a pin given twice, a colour out of range, an unknown ring driver) is
a :class:`HardwareSettingError`, a ``ValueError`` as before, so the kiosk's config checks keep
catching it; a mistake of the calling code (a seat the ring does not have, a button name that
does not exist) is a :class:`HardwareContractError`, a ``TypeError``; a device that is missing or
went away is ``hardware.ring.driver.RingUnavailable``.
"""

from __future__ import annotations


class HardwareError(Exception):
    """Base of every exception the hardware adapters raise on purpose."""


class HardwareSettingError(HardwareError, ValueError):
    """A setting (from the config file or the command line) the hardware cannot work with."""


class HardwareContractError(HardwareError, TypeError):
    """The calling code broke a documented contract: a programmer's mistake, never bad input."""
