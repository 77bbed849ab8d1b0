"""Each seat's symbol (kiosk/core/seat_marks.py), drawn by code: what tells the seats apart without colour.

A circle, a triangle, a square, a diamond, a cross and a heart, as plain polygons in a unit box
(-1 to 1, y up, drawn by kiosk/ui/art/pen.py). :func:`draw_token` is a seat's painted wooden piece
in the shape of its symbol (a darker side below it, a glint at the top-left, lit as the pieces are:
docs/art.md), used for the card game's score chips and results and the board game's panel edge;
the board game's pawns wear the same four shapes as their heads (kiosk/ui/art pawn_pen, pictures).
All strokes are polygons, so one group draws them in the order made.
"""

from __future__ import annotations

import math
from typing import Any

from kiosk.core.seat_marks import SEATS
from kiosk.ui.art.pen import Pen

Points = list[tuple[float, float]]


def _round(r: float, n: int = 28, x: float = 0.0, y: float = 0.0) -> Points:
    return [(x + r * math.cos(i * math.tau / n), y + r * math.sin(i * math.tau / n)) for i in range(n)]


def _heart() -> Points:
    pts = []
    for i in range(40):
        t = i * math.tau / 40
        hx = 16 * math.sin(t) ** 3
        hy = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((hx / 17, (hy + 2.5) / 15.5))
    return pts[::-1]  # counter-clockwise, as the others


_ARM = 0.32  # half the cross's arm
#: Each symbol's outline in the unit box, counter-clockwise; about the same ink each, so none looks bigger.
SHAPES: dict[str, Points] = {
    "circle": _round(0.86),
    "triangle": [(-0.98, -0.72), (0.98, -0.72), (0.0, 0.96)],
    "square": [(-0.76, -0.76), (0.76, -0.76), (0.76, 0.76), (-0.76, 0.76)],
    "diamond": [(0.0, -1.0), (0.74, 0.0), (0.0, 1.0), (-0.74, 0.0)],
    "cross": [
        (-_ARM, -0.95),
        (_ARM, -0.95),
        (_ARM, -_ARM),
        (0.95, -_ARM),
        (0.95, _ARM),
        (_ARM, _ARM),
        (_ARM, 0.95),
        (-_ARM, 0.95),
        (-_ARM, _ARM),
        (-0.95, _ARM),
        (-0.95, -_ARM),
        (-_ARM, -_ARM),
    ],
    "heart": _heart(),
}


def symbol_of(seat: int) -> str:
    return SEATS[seat % len(SEATS)].symbol


def token_pen(seat: int, outline: bool = False, rotation: float = 0.0) -> Pen:
    """Seat `seat`'s token: its symbol in its colour (turned by `rotation` degrees), a darker copy
    below-right (its side) and a glint at the top-left -- the light stays where it is, whichever way
    the symbol faces; `outline`: a dark outline round it (high contrast, or on a light ground)."""
    mark = SEATS[seat % len(SEATS)]
    r, g, b = mark.rgb
    shade = (r * 3 // 5, g * 3 // 5, b * 3 // 5)
    glint = (r + (255 - r) // 2, g + (255 - g) // 2, b + (255 - b) // 2)
    shape = [_turn(pt, rotation) for pt in SHAPES[mark.symbol]]
    p = Pen()
    p.poly([(x + 0.08, y - 0.14) for x, y in shape], shade, outline)
    p.poly([(x * 0.92, y * 0.92) for x, y in shape], mark.rgb, outline)
    p.poly(_round(0.2, 12, -0.3, 0.3), glint, False)
    return p


def draw_token(
    batch: Any,
    seat: int,
    x: float,
    y: float,
    r: float,
    group: Any = None,
    *,
    rotation: float = 0.0,
    outline: bool = False,
) -> list[Any]:
    """Seat `seat`'s token (:func:`token_pen`) of radius `r` centred at (x, y), in `batch`."""
    return token_pen(seat, outline, rotation).draw(batch, x, y, 2 * r, group=group, outline_px=max(1.5, r * 0.2))


def seat_token(
    frame: Any, u: float, v: float, r: float, seat: int, batch: Any, group: Any, outline: bool = False
) -> list[Any]:
    """Seat `seat`'s token of radius `r` at (u, v) of `frame` (kiosk/ui/kit/widgets.py), turned with the
    frame to its reader."""
    x, y = frame.point(u, v)
    return draw_token(batch, seat, x, y, r, group, rotation=frame.angle, outline=outline)


def _turn(pt: tuple[float, float], degrees: float) -> tuple[float, float]:
    c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    return (pt[0] * c - pt[1] * s, pt[0] * s + pt[1] * c)
