"""A ring without hardware: it records the pictures it was sent.

Used in headless runs (the events file and tests can check what the ring
showed) and in tests of the :class:`~hardware.ring.Ring` controller itself:
``unplug()`` and ``plug()`` stand in for a cable being pulled.
"""

from __future__ import annotations

import threading
import time

from hardware.ring.driver import RingDriver, RingUnavailable
from hardware.ring.picture import RGB, RingPicture, render_frame


class VirtualRing(RingDriver):
    """Records every distinct picture as ``(clock time, picture)``."""

    name = "virtual"

    def __init__(self, led_count: int = 24, *, history_limit: int = 10_000) -> None:
        super().__init__(led_count)
        self._lock = threading.Lock()
        self._history: list[tuple[float, RingPicture]] = []
        self._limit = history_limit
        self._plugged = True
        self._open = False
        self._last: RingPicture | None = None
        self.opens = 0
        #: When set, ``show`` waits for it (tests: a device that hangs).
        self.hold: threading.Event | None = None

    def open(self) -> None:
        with self._lock:
            if not self._plugged:
                raise RingUnavailable("the virtual ring is unplugged")
            self._open = True
            self._last = None
            self.opens += 1

    def show(self, picture: RingPicture, now: float) -> float | None:
        hold = self.hold
        if hold is not None:
            hold.wait()
        with self._lock:
            if not (self._plugged and self._open):
                raise RingUnavailable("the virtual ring is unplugged")
            if picture != self._last:
                self._last = picture
                self._history.append((now, picture))
                del self._history[: -self._limit]
        return None

    def poll(self) -> None:
        with self._lock:
            if not self._plugged:
                raise RingUnavailable("the virtual ring is unplugged")

    def close(self) -> None:
        with self._lock:
            self._open = False

    def unplug(self) -> None:
        with self._lock:
            self._plugged = False

    def plug(self) -> None:
        with self._lock:
            self._plugged = True

    @property
    def picture(self) -> RingPicture | None:
        """The picture shown now (None before the first one arrived)."""
        with self._lock:
            return self._history[-1][1] if self._history else None

    def history(self) -> list[tuple[float, RingPicture]]:
        with self._lock:
            return list(self._history)

    def frame(self, now: float | None = None) -> list[RGB]:
        """The LED colours the ring would show at ``now`` (default: now)."""
        picture = self.picture or RingPicture()
        return render_frame(picture, self.led_count, time.monotonic() if now is None else now)
