"""The kiosk's exception base, so one ``except KioskError`` catches every error it raises on purpose.

Each error also keeps the built-in base its callers already catch: a bad config file is a
``ConfigError(KioskError, ValueError)``, a file refused for safety an ``UnsafeFile(KioskError,
OSError)``. Bad input (a config value, a script line, a damaged save) is a ``ValueError``
subclass; a mistake of the calling code (a game registered twice, seat kinds that do not match
the players) is a :class:`ContractError`, a ``TypeError``, so no handler of bad input hides it.
The engine's errors (engine.errors) and the hardware's (hardware.errors) have bases of their own:
those packages import nothing from the kiosk.
"""

from __future__ import annotations


class KioskError(Exception):
    """Base of every exception the kiosk raises on purpose."""


class ContractError(KioskError, TypeError):
    """The calling code broke a documented contract: a programmer's mistake, never bad input."""
