"""Plug-ins announced in entry-point groups: the one scanner of the kiosk.

Games (``labyrinth_kiosk.games``, kiosk/games), LED-ring drivers
(``labyrinth_kiosk.ring_drivers``, hardware/ring/drivers.py) and gpiozero's pin
libraries (``gpiozero_pin_factories``, hardware/pins.py) are all found here,
through ``importlib.metadata``: the distributions on ``sys.path`` are read once
per process, and the first one on the path wins a name, as Python's own import does.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from importlib.metadata import EntryPoint


@functools.cache
def _every() -> Any:  # EntryPoints, or on Python 3.11 SelectableGroups: both select by group
    # imported on the first question only: a command that asks for no plug-in never pays for it
    from importlib import metadata  # noqa: PLC0415 -- the entry points scanned on the first question only

    return metadata.entry_points()


def announced(group: str) -> dict[str, EntryPoint]:
    """The entry points of `group` by name (the first on ``sys.path`` wins)."""
    found: dict[str, EntryPoint] = {}
    for ep in _every().select(group=group):
        found.setdefault(ep.name, ep)
    return found


def forget() -> None:
    """Read the distributions again at the next question (a test that installs a plug-in)."""
    _every.cache_clear()
