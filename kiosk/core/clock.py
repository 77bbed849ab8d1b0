"""Clocks for the main loop: real time for people, virtual time for fast headless runs.

The session paces AI turns and animations with ``clock.call_later(delay, fn)``;
the main loop calls ``clock.run_due()`` every tick, so every callback runs on
the main thread. With :class:`RealClock` delays are wall-clock seconds; with
:class:`VirtualClock` time only moves when the loop says so (``advance``), and a
headless loop that has nothing else to do jumps straight to the next timer —
a game with "human-eye" pacing then runs as fast as the CPU allows, yet every
event keeps its place in time (the logs show when it would have happened).
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from typing import Callable


class Timer:
    """A scheduled callback; ``cancel()`` stops it if it has not run yet."""

    __slots__ = ("when", "fn", "cancelled")

    def __init__(self, when: float, fn: Callable[[], None]):
        self.when = when
        self.fn = fn
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class Clock:
    """Time plus a timer queue run on the main thread. Subclasses say what ``now()`` is."""

    virtual = False

    def __init__(self) -> None:
        self._timers: list[tuple[float, int, Timer]] = []
        self._seq = itertools.count()
        self._lock = threading.Lock()

    def now(self) -> float:
        raise NotImplementedError

    def call_at(self, when: float, fn: Callable[[], None]) -> Timer:
        timer = Timer(when, fn)
        with self._lock:
            heapq.heappush(self._timers, (when, next(self._seq), timer))
        return timer

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        """Run `fn` on the main thread once `delay` seconds have passed on this clock."""
        return self.call_at(self.now() + max(0.0, delay), fn)

    def next_due(self) -> float | None:
        """When the next live timer is due, or None."""
        with self._lock:
            while self._timers and self._timers[0][2].cancelled:
                heapq.heappop(self._timers)
            return self._timers[0][0] if self._timers else None

    def pending_timers(self) -> int:
        with self._lock:
            return sum(1 for _, _, t in self._timers if not t.cancelled)

    def run_due(self) -> int:
        """Run every timer due by now, in order (main thread). Returns how many ran."""
        ran = 0
        now = self.now()
        while True:
            with self._lock:
                if not self._timers or self._timers[0][0] > now:
                    break
                _, _, timer = heapq.heappop(self._timers)
            if not timer.cancelled:
                timer.cancelled = True
                timer.fn()
                ran += 1
        return ran

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass (really, or virtually)."""
        raise NotImplementedError


class RealClock(Clock):
    """Monotonic wall-clock time."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        if seconds > 0:
            time.sleep(seconds)


class VirtualClock(Clock):
    """Time that moves only when told: ``advance(dt)``, ``advance_to(t)``, ``sleep(dt)``."""

    virtual = True

    def __init__(self, start: float = 0.0) -> None:
        super().__init__()
        self._now = start

    def now(self) -> float:
        return self._now

    def advance(self, seconds: float) -> None:
        if seconds > 0:
            self._now += seconds

    def advance_to(self, when: float) -> None:
        if when > self._now:
            self._now = when

    sleep = advance
