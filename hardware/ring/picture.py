"""What the LED ring should show, as a plain value, and how it looks per LED.

A :class:`RingPicture` is everything a driver needs to bring a ring up to
date: one value, compared by equality, so a driver resends only when it
changes (or after a reconnect). :func:`render_frame` turns a picture into LED
colours at a moment in time; the drivers that stream pixels (Adalight) and the
virtual ring use it, the others (WLED, the line protocol) let the device run
the animation itself.
"""

from __future__ import annotations

import colorsys
from collections.abc import Iterable
from dataclasses import dataclass

from hardware.errors import HardwareSettingError

RGB = tuple[int, int, int]
BLACK: RGB = (0, 0, 0)
RED: RGB = (255, 0, 0)

#: The kinds of picture.
OFF, SEGMENT, FLASH, CELEBRATE, IDLE = "off", "segment", "flash", "celebrate", "idle"
KINDS = (OFF, SEGMENT, FLASH, CELEBRATE, IDLE)

#: A pattern: (lit, dark) LEDs, repeated along an arc or round the ring from its first LED.
Pattern = tuple[int, int]
SOLID: Pattern = (1, 0)
CHASE: Pattern = (1, 2)  # a celebration's running lights, when the winner's pattern is not given
PATTERN_MAX = 8  # LEDs in one repeat (lit + dark): longer ones would not show on an arc

FLASH_PERIOD = 0.2  # seconds: a flash blinks on for half of each period
CELEBRATE_STEP = 0.1  # seconds per step of the running chase
IDLE_CYCLE = 12.0  # seconds for the rainbow to go once round


def check_colour(colour: Iterable[object]) -> RGB:
    """An ``(r, g, b)`` tuple of 0-255 ints, or ValueError naming the value."""
    try:
        r, g, b = colour
    except (TypeError, ValueError):
        raise HardwareSettingError(f"a colour is (red, green, blue), not {colour!r}") from None
    return (_channel(r, colour), _channel(g, colour), _channel(b, colour))


def check_pattern(pattern: Iterable[object]) -> Pattern:
    """A ``(lit, dark)`` pair of whole numbers, at least one LED lit, at most PATTERN_MAX in a repeat."""
    try:
        lit, dark = pattern
    except (TypeError, ValueError):
        raise HardwareSettingError(f"a ring pattern is (lit, dark), not {pattern!r}") from None
    if (
        any(isinstance(v, bool) or not isinstance(v, int) for v in (lit, dark))
        or not 1 <= lit  # type: ignore[operator]
        or not 0 <= dark  # type: ignore[operator]
        or lit + dark > PATTERN_MAX  # type: ignore[operator]
    ):
        raise HardwareSettingError(
            f"a ring pattern is (lit, dark) LEDs, lit at least 1, together at most {PATTERN_MAX}, not {pattern!r}"
        )
    return (lit, dark)  # type: ignore[return-value]


def lit_in(pattern: Pattern, i: int) -> bool:
    """Whether LED `i` of a run (counted from its first) is lit in `pattern`."""
    lit, dark = pattern
    return i % (lit + dark) < lit


def _channel(value: object, colour: Iterable[object]) -> int:
    """One of a colour's values, checked to be a whole number 0-255."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 255:
        raise HardwareSettingError(f"colour values are whole numbers 0-255, not {colour!r}")
    return value


@dataclass(frozen=True)
class RingPicture:
    """One state of the ring.

    - ``off``: all dark.
    - ``segment``: ``count`` LEDs from ``start`` (wrapping) in ``colour``,
      the rest dark (the current player's seat), in ``pattern`` (the seat's
      lit and dark LEDs, repeated from ``start``) or solid.
    - ``flash``: the whole ring blinks ``colour`` for ``seconds``.
    - ``celebrate``: ``pattern`` (or lit one, dark two) running round the
      whole ring in ``colour`` (the winner's).
    - ``idle``: a slow rainbow drifting round the ring.

    ``since`` is the clock time an animation began (0 for still pictures, so
    equal still pictures compare equal); ``brightness`` is 0-255.
    """

    kind: str = OFF
    colour: RGB = BLACK
    start: int = 0
    count: int = 0
    seconds: float = 0.0
    since: float = 0.0
    brightness: int = 255
    pattern: Pattern | None = None  # None: the kind's plain look (a solid arc, the CHASE)

    @property
    def repeat(self) -> Pattern:
        """The pattern shown: ``pattern``, or the kind's plain one."""
        return self.pattern or (CHASE if self.kind == CELEBRATE else SOLID)

    @property
    def animated(self) -> bool:
        return self.kind in (FLASH, CELEBRATE, IDLE)


def _scale(colour: RGB, brightness: int) -> RGB:
    if brightness >= 255:
        return colour
    return tuple((c * brightness + 127) // 255 for c in colour)  # type: ignore[return-value]


def render_frame(picture: RingPicture, led_count: int, now: float, apply_brightness: bool = True) -> list[RGB]:
    """The colour of every LED of a ``led_count`` ring showing ``picture`` at ``now``."""
    frame = [BLACK] * led_count
    elapsed = max(0.0, now - picture.since)
    kind = picture.kind
    if kind == SEGMENT:
        for i in range(min(picture.count, led_count)):
            if lit_in(picture.repeat, i):
                frame[(picture.start + i) % led_count] = picture.colour
    elif kind == FLASH:
        if (elapsed % FLASH_PERIOD) < FLASH_PERIOD / 2:
            frame = [picture.colour] * led_count
    elif kind == CELEBRATE:
        step = int(elapsed / CELEBRATE_STEP)
        frame = [picture.colour if lit_in(picture.repeat, i + step) else BLACK for i in range(led_count)]
    elif kind == IDLE:
        drift = elapsed / IDLE_CYCLE
        for i in range(led_count):
            r, g, b = colorsys.hsv_to_rgb((i / led_count + drift) % 1.0, 1.0, 0.6)
            frame[i] = (round(r * 255), round(g * 255), round(b * 255))
    if apply_brightness:
        frame = [_scale(c, picture.brightness) for c in frame]
    return frame
