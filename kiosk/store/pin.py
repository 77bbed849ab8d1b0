"""The operator PIN's guard: wrong tries lock the keypad for longer and longer, across restarts.

A 4-digit PIN has 10,000 values. A fixed 30 s lock after 3 wrong tries lets
a patient visitor try them all in about 33 hours; here every wrong try after
the first three doubles the lock (30 s, 1 min, 2 min ... capped at
:data:`MAX_LOCK_S`), so after a dozen wrong tries each further guess costs
hours: 10,000 guesses would take years. Only the right PIN resets the count.

Unplugging the kiosk must not reset it either: the count and the end of the
lock are kept in ``operator-pin.json`` in the state directory (written
atomically). The end is stored as wall-clock time, because the in-run clock
(monotonic) restarts with the process; a Pi without a real-time clock may
jump in time at boot, so on loading the remaining lock is capped at the
length the count calls for -- a clock jump can shorten a lock, never make it
longer than the rule says.

A state directory that cannot be written (read-only, full) must not forget the
wrong tries either: what could not be written is remembered in memory for the
life of the process (:data:`_UNWRITTEN`), and a guard made later (the operator
screen opened again) counts against the stricter of the file and the memory.
"""

from __future__ import annotations

import hmac
import json
import logging
import math
import os
import time
from pathlib import Path
from typing import Callable

from kiosk.store.persistence import atomic_write

log = logging.getLogger(__name__)

FREE_TRIES = 3  # wrong PINs before the first lock
FIRST_LOCK_S = 30.0  # the first lock; each further wrong PIN doubles it
MAX_LOCK_S = 4 * 3600.0  # the cap
STATE_NAME = "operator-pin.json"
MAX_STATE_BYTES = 4096  # the file is a few dozen bytes; anything bigger is not ours
#: The lock-outs the state directory refused, by file: (failures, end of the lock on the wall clock).
_UNWRITTEN: dict[Path, tuple[int, float]] = {}


def lock_length(failures: int) -> float:
    """Seconds the keypad stays locked after `failures` wrong PINs in a row (0 before the first lock)."""
    if failures < FREE_TRIES:
        return 0.0
    doublings = failures - FREE_TRIES
    if doublings >= 64:  # 2**64 * 30 s is far past the cap; avoid huge floats
        return MAX_LOCK_S
    return min(FIRST_LOCK_S * float(2**doublings), MAX_LOCK_S)


class PinGuard:
    """Checks PINs and keeps the lock-out; `clock` is the run's clock (the UI's ``now``),
    `wall` the wall clock used only to carry the lock over a restart."""

    def __init__(
        self,
        state_dir: Path | str | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ):
        self.path = Path(state_dir) / STATE_NAME if state_dir is not None else None
        self.clock = clock
        self.wall = wall
        self.failures = 0
        self.locked_until = 0.0  # on `clock`
        self._load()
        self._remember_unwritten()

    def _remember_unwritten(self) -> None:
        """Count against the stricter of the file and what this process could not write into it."""
        unwritten = _UNWRITTEN.get(self.path) if self.path is not None else None
        if unwritten is None:
            return
        failures, until = unwritten
        left = min(max(0.0, until - self.wall()), lock_length(failures))
        if failures > self.failures:
            self.failures = failures
        if left > self.remaining():
            self.locked_until = self.clock() + left

    # ------------------------------------------------------------ checking
    def remaining(self) -> float:
        """Seconds until the keypad takes PINs again (0 when it does now)."""
        return max(0.0, self.locked_until - self.clock())

    @property
    def locked(self) -> bool:
        return self.remaining() > 0

    def check(self, entered: str, pin: str) -> str:
        """ "ok", "wrong" (and maybe locked now) or "locked" (not even looked at)."""
        if self.locked:
            return "locked"
        if hmac.compare_digest(entered.encode(), str(pin).encode()):
            if self.failures:
                self.failures = 0
                self.locked_until = 0.0
                self._save()
            return "ok"
        self.failures += 1
        length = lock_length(self.failures)
        if length:
            self.locked_until = self.clock() + length
            log.warning("operator menu: %d wrong PINs in a row; keypad locked for %s", self.failures, _human(length))
        else:
            log.warning("operator menu: wrong PIN (%d in a row)", self.failures)
        self._save()
        return "wrong"

    # ------------------------------------------------------------ keeping it
    def _load(self) -> None:
        if self.path is None:
            return
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
        except FileNotFoundError:
            return
        except OSError as e:
            log.warning("cannot read %s (%s): keeping the keypad locked once to be safe", self.path, e)
            self._assume_locked()
            return
        try:
            import stat

            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise ValueError("not a regular file")
            data = os.read(fd, MAX_STATE_BYTES + 1)
            if len(data) > MAX_STATE_BYTES:
                raise ValueError("too big")
            obj = json.loads(data)
            failures, until = obj["failures"], obj["locked_until"]
            if type(failures) is not int or not 0 <= failures <= 10**9:
                raise ValueError(f"failures = {failures!r}")
            if type(until) not in (int, float) or not math.isfinite(until):
                raise ValueError(f"locked_until = {until!r}")
        except (ValueError, KeyError, TypeError, OSError, RecursionError) as e:
            log.warning("%s is unusable (%s): keeping the keypad locked once to be safe", self.path, e)
            self._assume_locked()
            return
        finally:
            os.close(fd)
        self.failures = failures
        left = min(max(0.0, float(until) - self.wall()), lock_length(failures))
        self.locked_until = self.clock() + left if left > 0 else 0.0
        if left > 0:
            log.warning("operator keypad still locked for %s after %d wrong PINs", _human(left), failures)

    def _assume_locked(self) -> None:
        self.failures = FREE_TRIES
        self.locked_until = self.clock() + lock_length(FREE_TRIES)

    def _save(self) -> None:
        if self.path is None:
            return
        until = self.wall() + self.remaining() if self.locked else 0.0
        data = json.dumps({"failures": self.failures, "locked_until": round(until, 3)}).encode()
        try:
            atomic_write(self.path, data)
        except OSError as e:
            log.error("cannot keep the PIN lock-out in %s (kept in memory meanwhile): %s", self.path, e)
            _UNWRITTEN[self.path] = (self.failures, until)
            return
        _UNWRITTEN.pop(self.path, None)


def _human(seconds: float) -> str:
    s = int(math.ceil(seconds))
    if s < 120:
        return f"{s} s"
    if s < 7200:
        return f"{s // 60} min"
    return f"{s / 3600:.1f} h"
