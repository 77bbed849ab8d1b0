"""The seats told apart without colour (kiosk/ui/audit/colour_vision.py, kiosk/core/seat_marks.py,
kiosk/ui/art/seat_symbols.py).

The simulation (Machado et al. 2009, full severity) and CAM02-UCS agree with the colorspacious
package (1.1.2; the figures below were computed with it, it is not needed here); the old seat
colours fail the rule with the issue's figures, today's pass in every look; each seat's symbol has
a silhouette of its own.
"""

from __future__ import annotations

import itertools

import pytest

from kiosk.core.seat_marks import BOARD_SEATS, BY_NAME, SEAT_RGB, SEATS
from kiosk.ui.audit import colour_vision as cv
from kiosk.ui.audit import layout as la

#: The seat colours before issue 44.
OLD = ((226, 54, 54), (250, 206, 40), (46, 172, 84), (54, 116, 236), (168, 92, 230), (40, 200, 180))

#: colorspacious 1.1.2: deltaE(a, b, input_space=sRGB1 or {"name": "sRGB1+CVD", "cvd_type": ..., "severity": 100})
REFERENCE = {
    ((226, 54, 54), (46, 172, 84)): (58.80, 24.92, 8.19, 69.82),
    ((54, 116, 236), (168, 92, 230)): (26.49, 1.94, 8.37, 40.89),
    ((250, 206, 40), (54, 116, 236)): (73.60, 71.70, 75.45, 60.47),
    ((184, 0, 0), (56, 171, 92)): (61.27, 37.57, 21.67, 73.32),
}


def test_the_difference_agrees_with_colorspacious():
    for (a, b), want in REFERENCE.items():
        got = tuple(cv.difference(a, b, vision) for vision in cv.VISIONS)
        assert got == pytest.approx(want, abs=0.02), (a, b)
    # cspace_convert(sRGB1 -> CAM02-UCS)
    assert cv.ucs((226, 54, 54)) == pytest.approx((56.829, 33.804, 16.840), abs=0.01)
    assert cv.ucs((54, 116, 236)) == pytest.approx((52.048, -7.864, -32.726), abs=0.01)
    # cspace_convert(red, sRGB1+CVD deuteranomaly 100 -> sRGB1) * 255: red as a deutan sees it
    assert cv.seen((226, 54, 54), "deutan") == pytest.approx((149.49, 134.30, 46.92), abs=0.6)


def test_the_simulation_keeps_greys_grey():
    for vision in cv.VISIONS[1:]:
        for grey in (0, 128, 255):
            assert cv.seen((grey, grey, grey), vision) == pytest.approx((grey,) * 3, abs=1)
        assert cv.difference((0, 0, 0), (255, 255, 255), vision) > 95


def test_the_old_seat_colours_fail_with_the_issues_figures():
    problems = cv.problems([("default", OLD[:BOARD_SEATS], OLD)])
    assert any("board seats 0 (226, 54, 54) and 2" in p and "8.2 apart seen deutan" in p for p in problems)
    assert any("cards seats 3 (54, 116, 236) and 4" in p and "1.9 apart seen protan" in p for p in problems)
    assert all(p.startswith("seats/default: seat_colours: ") for p in problems)


def test_the_seat_colours_pass_in_every_look():
    looks = cv.looks()
    assert [name for name, _, _ in looks][:2] == ["default", "high contrast"]
    assert "theme ocean" in [name for name, _, _ in looks]  # the theme that comes with the kiosk
    assert cv.problems(looks) == []
    for vision in cv.VISIONS:
        assert cv.closest(SEAT_RGB[:BOARD_SEATS], vision)[0] >= cv.BOARD_MIN
        assert cv.closest(SEAT_RGB, vision)[0] >= cv.CARDS_MIN


def test_the_layout_audit_reports_seat_colours_too_much_alike():
    report = {"entries": [], "looks": [("theme sea", OLD[:BOARD_SEATS], OLD)]}
    assert any(p.startswith("seats/theme sea: seat_colours:") for p in la.problems_of(report))
    assert la.problems_of({"entries": [], "looks": cv.looks()}) == []


def test_each_seat_keeps_its_hue():
    """A red seat stays red to everyone else: the new colours moved in lightness, not in hue."""
    import math

    for old, new in zip(OLD, SEAT_RGB):
        (_, a0, b0), (_, a1, b1) = cv.ucs(old), cv.ucs(new)
        turn = abs((math.degrees(math.atan2(b1, a1) - math.atan2(b0, a0)) + 180) % 360 - 180)
        assert turn <= 10, (old, new, turn)
    assert BY_NAME["red"].rgb == SEAT_RGB[0] and BY_NAME["turquoise"].rgb == SEAT_RGB[5]


def test_every_seat_has_a_symbol_of_its_own():
    from kiosk.ui.art import SEAT_SHAPES
    from kiosk.ui.art.seat_symbols import SHAPES

    symbols = [s.symbol for s in SEATS]
    assert len(set(symbols)) == len(SEATS) and set(symbols) <= set(SHAPES)
    assert [SEAT_SHAPES[i] for i in range(BOARD_SEATS)] == symbols[:BOARD_SEATS]  # the pawns' heads


@pytest.mark.display
def test_the_tokens_are_told_apart_by_their_shape_alone():
    """Each seat's token drawn big: the silhouettes (any pixel not the background) differ pairwise in a
    good share of their pixels, so the shape says whose without the colour."""
    import pyglet

    from kiosk.ui.art.seat_symbols import draw_token

    from tests.support.offscreen import Pixels, offscreen_window

    box = 80
    window = offscreen_window((box * len(SEATS), box * 2))
    window.switch_to()
    batch = pyglet.graphics.Batch()
    keep = []
    for seat in range(len(SEATS)):
        keep += draw_token(batch, seat, seat * box + box / 2, box / 2, box * 0.4)
        keep += draw_token(batch, seat, seat * box + box / 2, box * 1.5, box * 0.4, rotation=180, outline=True)
    window.clear()
    batch.draw()
    px = Pixels()
    bg = px(1, 1)

    def mask(seat: int, row: int) -> set[tuple[int, int]]:
        return {(x, y) for x in range(box) for y in range(box) if px(seat * box + x, row * box + y) != bg}

    masks = [mask(seat, 0) for seat in range(len(SEATS))]
    for i, j in itertools.combinations(range(len(SEATS)), 2):
        differ = len(masks[i] ^ masks[j]) / len(masks[i] | masks[j])
        assert differ > 0.15, (SEATS[i].symbol, SEATS[j].symbol, differ)
    # the far side's token is turned to its reader: the triangle points the other way
    up, down = masks[1], mask(1, 1)
    assert sum(y for _, y in up) / len(up) < box / 2 < sum(y for _, y in down) / len(down)
    # in its seat's colour
    for seat in range(len(SEATS)):
        r, g, b = px(seat * box + box / 2 + 4, box / 2 - 4)
        assert cv.difference((r, g, b), SEATS[seat].rgb) < 8, (seat, (r, g, b))
    window.close()
