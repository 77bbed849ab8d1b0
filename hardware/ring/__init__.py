"""The LED ring around the board: whose turn, illegal input, a win, idle.

:class:`Ring` takes plain values from the kiosk (a seat and a colour, a
flash, a celebration) and keeps the device in step from its own worker thread:

- Calls never block and never raise for device trouble: they store the
  *desired picture* in one slot (the latest wins, nothing queues up) and wake
  the worker. Invalid arguments (a seat that does not exist) raise
  ``ValueError`` at once.
- The worker opens the device, sends the picture, renders animation frames
  for drivers that stream pixels, and reads replies. When the device is absent
  or unplugged it closes it and retries with exponential back-off, 0.25 s
  doubling up to 1.5 s, so after a replug the ring shows the *current* picture
  within 2 s. One log line when the ring goes away, one when it is back.
- :meth:`Ring.close` stops the worker (turning the ring off first by default).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Callable, Literal, TypedDict, Unpack

from hardware.errors import HardwareContractError, HardwareSettingError
from hardware.ring import drivers
from hardware.ring.driver import RingDriver, RingUnavailable
from hardware.ring.layout import RingLayout, Segment
from hardware.ring.picture import (
    CELEBRATE,
    FLASH,
    IDLE,
    OFF,
    RED,
    RGB,
    SEGMENT,
    Pattern,
    RingPicture,
    check_colour,
    check_pattern,
)

log = logging.getLogger("hardware.ring")


def backoff_delays(first: float, cap: float) -> Iterator[float]:
    """Reconnect delays: ``first``, doubling each failure, never above ``cap``."""
    delay = first
    while True:
        yield min(delay, cap)
        delay = min(delay * 2, cap)


def _check_brightness(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
        raise HardwareSettingError(f"ring brightness must be a whole number 0-255, not {value!r}")
    return value


class Ring:
    """Drives one LED ring through ``driver`` from a background thread.

    ``layout`` maps seats to LED arcs (default: ``driver.led_count`` LEDs,
    4 seats). ``flash_seconds`` is the default length of :meth:`flash`.
    ``clock`` gives animation time. ``backoff_min``/``backoff_max`` bound the
    reconnect delay; ``poll_interval`` is how often the worker reads replies
    and notices an unplugged device while nothing changes.
    """

    def __init__(
        self,
        driver: RingDriver,
        layout: RingLayout | None = None,
        *,
        brightness: int = 255,
        flash_seconds: float = 0.4,
        clock: Callable[[], float] = time.monotonic,
        backoff_min: float = 0.25,
        backoff_max: float = 1.5,
        poll_interval: float = 0.1,
    ) -> None:
        self.driver = driver
        self.layout = layout or RingLayout(driver.led_count)
        if self.layout.led_count != driver.led_count:
            raise HardwareContractError(
                f"ring layout has {self.layout.led_count} LEDs but the {driver.name} driver has {driver.led_count}"
            )
        self.flash_seconds = float(flash_seconds)
        self._clock = clock
        self._backoff = (float(backoff_min), float(backoff_max))
        self._poll_interval = float(poll_interval)
        self._brightness = _check_brightness(brightness)

        self._cond = threading.Condition()
        self._stop = threading.Event()
        self._steady = RingPicture(OFF, brightness=self._brightness)
        self._flash: RingPicture | None = None
        self._flash_until = 0.0
        self._version = 1
        self._applied = 0
        self._connected = False
        self._closed = False
        self._thread = threading.Thread(target=self._run, name=f"led-ring-{driver.name}", daemon=True)
        self._thread.start()

    # --- what the kiosk calls (any thread, never blocks) --------------------

    def show_seat(self, seat: int, colour: RGB, pattern: Pattern | None = None) -> None:
        """Light the arc facing ``seat`` in ``colour`` and ``pattern`` (the seat's lit and dark LEDs); the rest
        dark."""
        start, count = self.layout.segment(seat)
        self.show_segment(start, count, colour, pattern)

    def show_segment(self, start: int, count: int, colour: RGB, pattern: Pattern | None = None) -> None:
        """Light ``count`` LEDs from ``start`` (wrapping) in ``colour`` and ``pattern`` (None: solid); the rest
        dark."""
        colour = check_colour(colour)
        pattern = None if pattern is None else check_pattern(pattern)
        n = self.layout.led_count
        if not (isinstance(start, int) and isinstance(count, int) and 0 <= count <= n):
            raise HardwareContractError(f"segment ({start!r}, {count!r}) does not fit a ring of {n} LEDs")
        self._set_steady(RingPicture(SEGMENT, colour, start % n, count, pattern=pattern))

    def flash(self, colour: RGB = RED, seconds: float | None = None) -> None:
        """Blink the whole ring briefly (illegal input), then back to the picture."""
        colour = check_colour(colour)
        seconds = self.flash_seconds if seconds is None else float(seconds)
        if not seconds > 0:
            raise HardwareContractError(f"a flash lasts more than 0 seconds, not {seconds!r}")
        with self._cond:
            now = self._clock()
            self._flash = RingPicture(FLASH, colour, seconds=seconds, since=now, brightness=self._brightness)
            self._flash_until = now + seconds
            self._changed()

    def celebrate(self, colour: RGB, pattern: Pattern | None = None) -> None:
        """A running chase in ``colour`` (and the winner's ``pattern``) round the whole ring (a win), until
        told otherwise."""
        pattern = None if pattern is None else check_pattern(pattern)
        self._set_steady(RingPicture(CELEBRATE, check_colour(colour), pattern=pattern))

    def idle(self) -> None:
        """A slow rainbow drifting round the ring (nobody is playing)."""
        self._set_steady(RingPicture(IDLE))

    def off(self) -> None:
        """All dark."""
        self._set_steady(RingPicture(OFF))

    def set_brightness(self, brightness: int) -> None:
        """0-255, applied to the current and all later pictures."""
        with self._cond:
            self._brightness = _check_brightness(brightness)
            self._steady = replace(self._steady, brightness=self._brightness)
            self._changed()

    @property
    def picture(self) -> RingPicture:
        """The picture asked for (a running flash not included)."""
        with self._cond:
            return self._steady

    @property
    def connected(self) -> bool:
        """True while the device is open and answering."""
        return self._connected

    def sync(self, timeout: float = 2.0) -> bool:
        """Wait until the device shows the latest request; False on timeout.

        For tests and headless runs; the kiosk's main loop never needs it.
        """
        deadline = time.monotonic() + timeout
        with self._cond:
            while not (self._connected and self._applied >= self._version):
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    return False
                self._cond.wait(left)
            return True

    def close(self, turn_off: bool = True, timeout: float = 1.0) -> None:
        """Stop the worker; with ``turn_off`` the ring goes dark first (if connected)."""
        if self._closed:
            return
        if turn_off and self._connected:
            self.off()
            self.sync(timeout=min(timeout, 0.5))
        with self._cond:
            self._closed = True
            self._stop.set()
            self._cond.notify_all()
        self._thread.join(timeout)
        if self._thread.is_alive():  # pragma: no cover - a driver hung in a write
            log.warning("LED ring worker did not stop within %.1f s", timeout)

    def __enter__(self) -> "Ring":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- internals ---------------------------------------------------------

    def _set_steady(self, picture: RingPicture) -> None:
        with self._cond:
            picture = replace(picture, brightness=self._brightness)
            if picture.animated:
                if replace(self._steady, since=0.0) == picture:
                    return  # already running: do not restart the animation
                picture = replace(picture, since=self._clock())
            if picture == self._steady:
                return
            self._steady = picture
            self._changed()

    def _changed(self) -> None:
        self._version += 1
        self._cond.notify_all()

    def _current(self, now: float) -> tuple[RingPicture, float | None]:
        """The picture to show at ``now`` and seconds until that changes by itself."""
        if self._flash is not None:
            left = self._flash_until - now
            if left > 0:
                return self._flash, left
            self._flash = None
        return self._steady, None

    def _run(self) -> None:
        delays = None  # back-off schedule of the current outage
        outage_logged = False  # one warning per outage, the rest at debug level
        announced = False  # "connected" logged for this connection
        try:
            while not self._stop.is_set():
                if not self._connected:
                    try:
                        self.driver.open()
                    except Exception as exc:
                        delays = delays or backoff_delays(*self._backoff)
                        outage_logged = self._log_outage("not available", exc, outage_logged)
                        self._stop.wait(next(delays))
                        continue
                    with self._cond:
                        self._connected = True
                        self._cond.notify_all()
                    announced = False

                with self._cond:
                    now = self._clock()
                    picture, flash_left = self._current(now)
                    version = self._version
                try:
                    wake = self.driver.show(picture, now)
                    self.driver.poll()
                except Exception as exc:
                    self._disconnect()
                    delays = delays or backoff_delays(*self._backoff)
                    outage_logged = self._log_outage("lost", exc, outage_logged)
                    self._stop.wait(next(delays))
                    continue
                if not announced:
                    # Only a connection that took a picture counts as back.
                    log.info("LED ring connected: %s", self.driver.describe())
                    announced, outage_logged, delays = True, False, None

                with self._cond:
                    self._applied = max(self._applied, version)
                    self._cond.notify_all()
                    if self._version == version and not self._stop.is_set():
                        timeout = min(t for t in (self._poll_interval, wake, flash_left) if t is not None)
                        self._cond.wait(max(timeout, 0.002))
        finally:
            self._disconnect()

    def _disconnect(self) -> None:
        with self._cond:
            self._connected = False
            self._cond.notify_all()
        try:
            self.driver.close()
        except Exception:  # pragma: no cover
            log.exception("closing the LED ring failed")

    def _log_outage(self, what: str, exc: Exception, already_logged: bool) -> bool:
        """Log a failure: a warning for the first of an outage, debug after."""
        expected = isinstance(exc, RingUnavailable)
        detail = exc if expected else f"{type(exc).__name__}: {exc}"
        if already_logged:
            log.debug("LED ring still unavailable: %s", detail)
        else:
            log.warning(
                "LED ring %s (%s): %s. The kiosk carries on without it and keeps retrying.",
                what,
                self.driver.describe(),
                detail,
                exc_info=not expected,
            )
        return True


class NoRing:
    """The ``driver = "none"`` choice: the same calls as :class:`Ring`, no effect."""

    driver = None
    connected = False

    def __init__(self, layout: RingLayout | None = None) -> None:
        self.layout = layout
        self.picture = RingPicture(OFF)

    def show_seat(self, seat: int, colour: RGB, pattern: Pattern | None = None) -> None:
        if self.layout is not None:
            self.layout.segment(seat)  # same argument check as Ring
        self.show_segment(0, 0, colour, pattern)

    def show_segment(self, start: int, count: int, colour: RGB, pattern: Pattern | None = None) -> None:
        check_colour(colour)
        if pattern is not None:
            check_pattern(pattern)

    def flash(self, colour: RGB = RED, seconds: float | None = None) -> None:
        check_colour(colour)

    def celebrate(self, colour: RGB, pattern: Pattern | None = None) -> None:
        self.show_segment(0, 0, colour, pattern)

    def idle(self) -> None:
        pass

    def off(self) -> None:
        pass

    def set_brightness(self, brightness: int) -> None:
        _check_brightness(brightness)

    def sync(self, timeout: float = 2.0) -> bool:
        return True

    def close(self, turn_off: bool = True, timeout: float = 1.0) -> None:
        pass

    def __enter__(self) -> "NoRing":
        return self

    def __exit__(self, *exc: object) -> None:
        pass


class RingOptions(TypedDict, total=False):
    """The keyword arguments :func:`make_ring` passes on to :class:`Ring`."""

    flash_seconds: float
    clock: Callable[[], float]
    backoff_min: float
    backoff_max: float
    poll_interval: float


def make_ring(
    driver: str = "none",
    port: str | None = None,
    *,
    baud: int = 115200,
    led_count: int = 24,
    seat_count: int = 4,
    offset: int = 0,
    reverse: bool = False,
    seat_segments: Sequence[Segment] | Literal["auto"] | None = None,
    brightness: int = 160,
    **ring_options: Unpack[RingOptions],
) -> "Ring | NoRing":
    """Build the ring the config asks for (keys as in the ``[ring]`` section).

    ``driver``: ``none`` or the name of an installed driver (hardware/ring/drivers.py: the kiosk's
    own are ``virtual``, ``wled``, ``adalight`` and ``line``).
    ``seat_segments``: ``None`` (or ``"auto"``) for equal arcs, else one
    ``[first, count]`` per seat. Raises ``ValueError`` for bad values; a
    missing device is not an error (the ring connects when it appears).
    """
    if seat_segments == "auto":
        seat_segments = None
    layout = RingLayout(
        led_count,
        seat_count,
        offset,
        bool(reverse),  # it checks the segments
        tuple(seat_segments) if seat_segments else None,
    )
    _check_brightness(brightness)
    if driver == drivers.NONE:
        return NoRing(layout)
    device = drivers.driver_class(driver).build(led_count, port, baud)
    return Ring(device, layout, brightness=brightness, **ring_options)
