"""Turns a button's raw contact edges into clean presses.

Cheap arcade micro-switches chatter: one push produces a burst of low/high
edges a few milliseconds apart, and so does letting go. gpiozero can filter
bounce in its pin libraries, but its mock pins do not simulate bounce, so a
filter there could never be tested. This one works on the edges alone, with an
injectable clock, so the same code runs on the Pi and in the tests.

Rule (leading edge with a quiet window): a press edge counts as a new press
only when the contact has been quiet, with no edge of either kind, for at least
``window`` seconds before it. The first edge of a burst is reported at once (no
added latency); the rest of the burst, and the chatter on release, fall inside
the window and are dropped. Missed edges (two presses seen without the release
between them) do no harm, because only the time since the last edge matters.
"""

from __future__ import annotations

import threading
import time
from typing import Callable

from hardware.errors import HardwareSettingError

DEFAULT_BOUNCE_SECONDS = 0.030


class Debouncer:
    """Debounces many independent contacts, each keyed by a name."""

    def __init__(self, window: float = DEFAULT_BOUNCE_SECONDS, clock: Callable[[], float] = time.monotonic) -> None:
        if not window >= 0:
            raise HardwareSettingError(f"bounce window must be 0 or more seconds, not {window!r}")
        self.window = float(window)
        self._clock = clock
        self._last_edge: dict[str, float] = {}
        self._lock = threading.Lock()

    def edge(self, name: str, pressed: bool) -> bool:
        """Record one raw edge of contact ``name``; True when it is a new press."""
        now = self._clock()
        with self._lock:
            last = self._last_edge.get(name)
            self._last_edge[name] = now
        if not pressed:
            return False
        return last is None or now - last >= self.window

    def forget(self, name: str) -> None:
        """Drop what is known about ``name`` (its next press always counts)."""
        with self._lock:
            self._last_edge.pop(name, None)
