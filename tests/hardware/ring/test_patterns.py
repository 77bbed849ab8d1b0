"""Each seat's own pattern on the LED ring, as well as its colour (docs/ring-protocol.md).

A seat's arc is its colour in (lit, dark) LEDs repeated from its first LED; the celebration runs the
winner's pattern round the ring. Every driver shows it: the pixel drivers through render_frame,
WLED by its segments' grouping and spacing, the line protocol from version 2 on (a version 1
device gets the lines it knows: the colour alone).
"""

from __future__ import annotations

import pytest

from hardware.errors import HardwareSettingError
from hardware.ring import NoRing, Ring, RingLayout
from hardware.ring.line import LineDriver, line_commands
from hardware.ring.picture import CELEBRATE, CHASE, SEGMENT, RingPicture, check_pattern, render_frame
from hardware.ring.virtual import VirtualRing
from hardware.ring.wled import wled_state

RED = (255, 0, 0)


def _lit(frame):
    return [i for i, c in enumerate(frame) if c != (0, 0, 0)]


def test_an_arc_shows_its_pattern_from_its_first_led():
    solid = RingPicture(SEGMENT, RED, 22, 6, brightness=255)
    assert _lit(render_frame(solid, 24, 0.0)) == [0, 1, 2, 3, 22, 23]
    dashes = RingPicture(SEGMENT, RED, 22, 6, pattern=(2, 1))  # LEDs 22 23 . 1 2 .
    assert _lit(render_frame(dashes, 24, 0.0)) == [1, 2, 22, 23]
    dots = RingPicture(SEGMENT, RED, 0, 6, pattern=(1, 1))
    assert _lit(render_frame(dots, 24, 0.0)) == [0, 2, 4]


def test_the_celebration_runs_the_winners_pattern():
    plain = RingPicture(CELEBRATE, RED)  # no pattern: the chase it always was, one lit in three
    assert plain.repeat == CHASE and len(_lit(render_frame(plain, 24, 0.0))) == 8
    own = RingPicture(CELEBRATE, RED, pattern=(3, 1))
    first, later = render_frame(own, 24, 0.0), render_frame(own, 24, 0.1)
    assert len(_lit(first)) == 18 and first != later


def test_the_seats_patterns_tell_every_arc_apart():
    """On the board game's 6-LED arcs and the card game's 4-LED ones alike, no two seats look the same."""
    from kiosk.core.seat_marks import SEATS

    patterns = [s.ring for s in SEATS]
    for arc in (6, 4):
        shown = {tuple(_lit(render_frame(RingPicture(SEGMENT, RED, 0, arc, pattern=p), 24, 0.0))) for p in patterns}
        assert len(shown) == len(SEATS), arc
    assert all(check_pattern(p) == p for p in patterns)


def test_a_pattern_is_checked():
    for bad in ((0, 1), (1, -1), (5, 4), (1,), "ab", (1.0, 1), (True, 0)):
        with pytest.raises(HardwareSettingError):
            check_pattern(bad)
    with pytest.raises(HardwareSettingError):
        NoRing(RingLayout(24)).show_seat(0, RED, (0, 3))


def test_the_ring_takes_a_seats_pattern():
    with Ring(VirtualRing(24), RingLayout(24, 4), poll_interval=0.01) as ring:
        ring.show_seat(1, RED, (1, 2))
        assert ring.sync()
        assert (ring.picture.start, ring.picture.count, ring.picture.pattern) == (6, 6, (1, 2))
        assert _lit(ring.driver.frame()) == [6, 9]
        ring.celebrate(RED, (2, 2))
        assert ring.picture.kind == CELEBRATE and ring.picture.pattern == (2, 2)


def test_the_line_protocol_sends_the_pattern_from_version_2():
    seg = RingPicture(SEGMENT, (0, 0, 255), 18, 6, brightness=160, pattern=(1, 2))
    assert line_commands(seg) == ["BRI 160", "SEG 18 6 0 0 255 1 2"]
    assert line_commands(seg, version=1) == ["BRI 160", "SEG 18 6 0 0 255"]
    assert line_commands(RingPicture(SEGMENT, (0, 0, 255), 18, 6))[-1] == "SEG 18 6 0 0 255"  # solid: as in version 1
    won = RingPicture(CELEBRATE, (255, 200, 0), pattern=(2, 1))
    assert line_commands(won)[-1] == "CELEBRATE 255 200 0 2 1"
    assert line_commands(won, version=1)[-1] == "CELEBRATE 255 200 0"


class _Line(LineDriver):
    """The line driver with its writes kept, not sent."""

    def __init__(self):
        super().__init__("loop://", 24)
        self.sent: list[str] = []

    def write(self, data: bytes) -> None:
        self.sent += data.decode().splitlines()


def test_the_line_driver_sends_a_pattern_only_to_a_device_that_speaks_version_2():
    seg = RingPicture(SEGMENT, (0, 0, 255), 18, 6, pattern=(1, 2))
    driver = _Line()
    driver.show(seg, 0.0)  # no greeting yet: the lines every version knows
    assert driver.sent[-1] == "SEG 18 6 0 0 255"
    driver.on_data(b"RING 1 24\n")
    driver.show(seg, 0.1)
    assert driver.sent[-1] == "SEG 18 6 0 0 255"
    driver.on_data(b"RING 2 24\n")  # a greeting: the picture is sent again, now with its pattern
    driver.show(seg, 0.2)
    assert driver.sent[-1] == "SEG 18 6 0 0 255 1 2"


def test_wled_groups_and_spaces_the_seats_arc():
    seg = RingPicture(SEGMENT, (0, 0, 255), 6, 6, brightness=160, pattern=(2, 1))
    segs = wled_state(seg, 24)["seg"]
    lit = [s for s in segs if s.get("col", [[0, 0, 0]])[0] != [0, 0, 0]]
    assert [(s["start"], s["stop"], s["grp"], s["spc"]) for s in lit] == [(6, 12, 2, 1)]
    # every segment the kiosk sets says its grouping: none keeps an earlier picture's pattern
    assert all((s["grp"], s["spc"]) == (1, 0) for s in segs if "fx" in s and s not in lit)
    plain = wled_state(RingPicture(SEGMENT, (0, 0, 255), 6, 6), 24)["seg"]
    assert all((s["grp"], s["spc"]) == (1, 0) for s in plain if "fx" in s)
    won = wled_state(RingPicture(CELEBRATE, (0, 0, 255), pattern=(1, 3)), 24)["seg"][0]
    assert (won["grp"], won["spc"]) == (1, 3)
