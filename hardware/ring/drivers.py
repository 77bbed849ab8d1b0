"""The LED-ring drivers, found by name in an entry-point group, as gpiozero finds its pin factories.

``[ring] driver = NAME`` names an entry point of the group ``labyrinth_kiosk.ring_drivers``: a
:class:`~hardware.ring.driver.RingDriver` subclass. The kiosk's own drivers are declared there in
its pyproject.toml; a driver shipped as its own package adds one line to its own::

    [project.entry-points."labyrinth_kiosk.ring_drivers"]
    neon = "neon_ring:NeonDriver"

``none`` (no ring) is not a driver: it needs nothing installed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hardware import plugins
from hardware.errors import HardwareSettingError
from hardware.ring.driver import RingDriver

#: The entry-point group a ring driver is announced in.
ENTRY_POINT_GROUP = "labyrinth_kiosk.ring_drivers"
#: The ``[ring] driver`` of a kiosk without a ring.
NONE = "none"

if TYPE_CHECKING:  # pragma: no cover
    from importlib.metadata import EntryPoint


def _announced() -> dict[str, "EntryPoint"]:
    return plugins.announced(ENTRY_POINT_GROUP)


def forget() -> None:
    """Read the group again at the next question (a test that installs a driver of its own)."""
    plugins.forget()


def names() -> tuple[str, ...]:
    """Every ``[ring] driver`` there is: ``none``, then the drivers installed, by name."""
    return (NONE, *sorted(_announced()))


def driver_class(name: str) -> type[RingDriver]:
    """The driver `name`; one line naming the known ones if there is none of that name."""
    ep = _announced().get(name)
    if ep is None:
        known = ", ".join(names())
        raise HardwareSettingError(f"unknown ring driver {name!r}: use one of {known}")
    cls = ep.load()
    if not (isinstance(cls, type) and issubclass(cls, RingDriver)):
        raise HardwareSettingError(f"ring driver {name!r} ({ep.value}) is not a RingDriver class")
    return cls


def needs_port(name: str) -> bool:
    """The driver `name` talks to a device on a serial port (``[ring] port`` must say which)."""
    return name != NONE and driver_class(name).needs_port
