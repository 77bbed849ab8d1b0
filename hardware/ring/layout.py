"""Where each seat's segment lies on the LED ring.

The ring sits around the board; each seat (a corner of the board, clockwise
from the top-left) owns the arc of LEDs facing it. A segment is
``(first LED, count)`` and may wrap past the last LED back to LED 0.
"""

from __future__ import annotations

from dataclasses import dataclass

from hardware.errors import HardwareContractError, HardwareSettingError

Segment = tuple[int, int]


@dataclass(frozen=True)
class RingLayout:
    """LED count, seat count, and the segment of every seat.

    By default the ring is cut into ``seat_count`` equal arcs (as equal as the
    LED count allows); seat 0's arc starts at LED ``offset`` and the seats
    follow clockwise. ``reverse=True`` when the LED numbering runs
    anticlockwise seen from above (seat 0 then still starts at ``offset`` and
    its arc runs towards lower LED numbers). ``segments`` places every seat's
    arc by hand instead: one ``(first, count)`` per seat.
    """

    led_count: int
    seat_count: int = 4
    offset: int = 0
    reverse: bool = False
    segments: tuple[Segment, ...] | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.led_count, int) or self.led_count < 1:
            raise HardwareSettingError(f"ring led_count must be a whole number of at least 1, not {self.led_count!r}")
        if not isinstance(self.seat_count, int) or self.seat_count < 1:
            raise HardwareSettingError(f"ring seat_count must be a whole number of at least 1, not {self.seat_count!r}")
        if self.segments is None:
            if self.seat_count > self.led_count:
                raise HardwareSettingError(f"ring has {self.led_count} LEDs, too few for {self.seat_count} seats")
            if not isinstance(self.offset, int):
                raise HardwareSettingError(f"ring offset must be a whole number, not {self.offset!r}")
            return
        segments = tuple(tuple(s) for s in self.segments)
        if len(segments) != self.seat_count:
            raise HardwareSettingError(f"ring seat_segments lists {len(segments)} segments for {self.seat_count} seats")
        for seat, segment in enumerate(segments):
            if len(segment) != 2 or not all(isinstance(v, int) and not isinstance(v, bool) for v in segment):
                raise HardwareSettingError(
                    f"ring seat_segments[{seat}] must be [first LED, count], not {list(segment)!r}"
                )
            first, count = segment
            if not 0 <= first < self.led_count or not 1 <= count <= self.led_count:
                raise HardwareSettingError(
                    f"ring seat_segments[{seat}] = {list(segment)} does not fit a ring of "
                    f"{self.led_count} LEDs (first 0-{self.led_count - 1}, count 1-{self.led_count})"
                )
        object.__setattr__(self, "segments", segments)

    def segment(self, seat: int) -> Segment:
        """``(first LED, count)`` of ``seat``'s arc; ``first`` is in range."""
        if not isinstance(seat, int) or not 0 <= seat < self.seat_count:
            raise HardwareContractError(f"seat {seat!r} is not on a ring of {self.seat_count} seats")
        if self.segments is not None:
            return self.segments[seat]
        n, k = self.led_count, self.seat_count
        begin = (seat * n + k // 2) // k  # rounded i*n/k, no floats
        end = ((seat + 1) * n + k // 2) // k
        count = end - begin
        if not self.reverse:
            return ((self.offset + begin) % n, count)
        # Mirror around `offset`: the arc covers offset-begin down to offset-end+1.
        return ((self.offset - end + 1) % n, count)

    def leds_of(self, seat: int) -> list[int]:
        """The LED indices of ``seat``'s arc, in LED order from its first."""
        first, count = self.segment(seat)
        return [(first + i) % self.led_count for i in range(count)]
