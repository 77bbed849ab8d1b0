"""The board's oak frame (docs/art.md): the ring of arrow slots round the 7x7 cells, one cell wide.

A few shapes in the play screen's still layer (the frame cache), made once per size, never per
frame: the arrows are holes in it, the pawns' home corners have brass rosettes, and it casts a
shadow on the table (light from the top-left, as the pieces' shading in kiosk/ui/art/pen.py). The
wood's colours are the table's (kiosk/ui/kit/table.py).
"""

from __future__ import annotations

import random
from typing import Any

from pyglet import shapes

from kiosk.games.labyrinth import geometry
from kiosk.games.labyrinth.geometry import ARROWS
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.kit.table import FRAME, FRAME_LIGHT, FRAME_SHADE, RECESS, Colour

BRASS = (216, 172, 82)
BRASS_SHADE = (146, 108, 44)
BRASS_GLINT = (255, 236, 180)
WELL_SHADOW = (30, 20, 14)  # the well's walls turned away from the light
SHADOW = (0, 0, 0, 120)  # the frame's shadow on the table
HC_RIM = (255, 255, 255)  # high contrast: the frame is black, its holes rimmed in white
CORNERS = ((-1, -1), (-1, 7), (7, 7), (7, -1))  # the ring's corner cells (row, col), seat 0's first


ARROW_OF_CELL = 0.42  # an arrow's half-width: 0.84 of its slot across (about 8.5 mm on a 7-inch 800x480)
SHADOW_OF_CELL = 0.07  # how far the frame's shadow falls to the right (and 1.4 times that down)


def frame_extent(layout: Layout) -> Rect:
    """Where the frame and its shadow lie: the arrow ring and the shadow's strips beside it."""
    ring, off = layout.ring, layout.cell * SHADOW_OF_CELL
    return Rect(ring.x, ring.y - off * 1.4, ring.w + off, ring.h + off * 1.4)


def board_frame(layout: Layout, batch: Any, group: Any, high_contrast: bool = False) -> list[shapes.ShapeBase]:
    """The oak frame over the ring of `layout` (the board's 7x7 cells lie in its well): a shadow on
    the table, bevelled edges, a recess with a lip for each of the 12 arrows and a brass rosette at
    each corner. High contrast: black, with white-rimmed holes and no shadow."""
    c, ring = layout.cell, layout.ring
    radius = c * 0.16
    out: list[shapes.ShapeBase] = []
    if not high_contrast:  # the shadow shows only beside the frame: two strips, not a layer under it all
        off = c * SHADOW_OF_CELL
        out.append(
            shapes.Rectangle(ring.right, ring.y - off * 1.4, off, ring.h - off, color=SHADOW, batch=batch, group=group)
        )
        out.append(
            shapes.Rectangle(
                ring.x + off, ring.y - off * 1.4, ring.w, off * 1.4, color=SHADOW, batch=batch, group=group
            )
        )
    out += _bands(layout, radius, (0, 0, 0) if high_contrast else FRAME, batch, group)
    if not high_contrast:
        out += _bevels(ring, radius, max(2.0, c * 0.06), batch, group)
        out += _oak_grain(ring, c, batch, group)
    out += _well(layout, batch, group, high_contrast)
    out += _holes(layout, batch, group, high_contrast)
    out += _rosettes(layout, batch, group, high_contrast)
    return out


def _bands(layout: Layout, radius: float, color: Colour, batch: Any, group: Any) -> list[shapes.ShapeBase]:
    """The frame's wood: four bands round the board (the tiles cover the middle, so it is not painted
    under them: each pixel drawn once costs on a software renderer), its outer corners rounded."""
    ring, board = layout.ring, layout.board
    return [
        rounded(Rect(ring.x, board.top, ring.w, ring.top - board.top), radius, color, batch, group),
        rounded(Rect(ring.x, ring.y, ring.w, board.y - ring.y), radius, color, batch, group),
        shapes.Rectangle(
            ring.x, board.y - radius, board.x - ring.x, board.h + 2 * radius, color=color, batch=batch, group=group
        ),
        shapes.Rectangle(
            board.right,
            board.y - radius,
            ring.right - board.right,
            board.h + 2 * radius,
            color=color,
            batch=batch,
            group=group,
        ),
    ]


def _bevels(ring: Rect, radius: float, edge: float, batch: Any, group: Any) -> list[shapes.ShapeBase]:
    """The frame's outer edges: lit at the top and left, shaded at the bottom and right."""
    lo, hi = ring.x + radius, ring.right - radius
    bottom, top = ring.y + radius, ring.top - radius
    half = edge / 2
    sides = (
        ((lo, ring.top - half, hi, ring.top - half), FRAME_LIGHT),
        ((ring.x + half, bottom, ring.x + half, top), FRAME_LIGHT),
        ((lo, ring.y + half, hi, ring.y + half), FRAME_SHADE),
        ((ring.right - half, bottom, ring.right - half, top), FRAME_SHADE),
    )
    return [shapes.Line(*pts, thickness=edge, color=color, batch=batch, group=group) for pts, color in sides]


def _oak_grain(ring: Rect, c: float, batch: Any, group: Any) -> list[shapes.ShapeBase]:
    """A few grain lines along each side of the frame (a fixed seed: the same every time)."""
    rng = random.Random(11)
    out: list[shapes.ShapeBase] = []
    for side in "NSWE":
        for _ in range(3):
            t = rng.uniform(0.2, 0.8) * c
            a, b = rng.uniform(0.05, 0.4), rng.uniform(0.6, 0.95)
            pts = {
                "N": (ring.x + a * ring.w, ring.top - t, ring.x + b * ring.w, ring.top - t),
                "S": (ring.x + a * ring.w, ring.y + t, ring.x + b * ring.w, ring.y + t),
                "W": (ring.x + t, ring.y + a * ring.h, ring.x + t, ring.y + b * ring.h),
                "E": (ring.right - t, ring.y + a * ring.h, ring.right - t, ring.y + b * ring.h),
            }[side]
            out.append(shapes.Line(*pts, thickness=max(1.0, c * 0.02), color=FRAME_SHADE, batch=batch, group=group))
    return out


def _well(layout: Layout, batch: Any, group: Any, high_contrast: bool) -> list[shapes.ShapeBase]:
    """The recess the tiles lie in; its walls: the top and left ones in shadow, the others lit."""
    c = layout.cell
    well = layout.board.grow(c * 0.06)
    out: list[shapes.ShapeBase] = [  # only its rim shows: the tiles cover the rest
        shapes.Box(*well, thickness=c * 0.07, color=(0, 0, 0) if high_contrast else RECESS, batch=batch, group=group)
    ]
    if high_contrast:
        return out
    lip = max(1.0, c * 0.04)
    half = lip / 2
    walls = (
        ((well.x, well.top - half, well.right, well.top - half), WELL_SHADOW),
        ((well.x + half, well.y, well.x + half, well.top), WELL_SHADOW),
        ((well.x, well.y - half, well.right, well.y - half), FRAME_LIGHT),
        ((well.right + half, well.y, well.right + half, well.top), FRAME_LIGHT),
    )
    out += [shapes.Line(*pts, thickness=lip, color=color, batch=batch, group=group) for pts, color in walls]
    return out


def _holes(layout: Layout, batch: Any, group: Any, high_contrast: bool) -> list[shapes.ShapeBase]:
    """The 12 arrows' holes cut into the frame: a lit lip at the lower right, the wall at the upper left
    in shade, and the arrow's shadow on the hole's floor."""
    c = layout.cell
    out: list[shapes.ShapeBase] = []
    for name in ARROWS:
        hole = geometry.arrow_rect(layout, name).inset(c * 0.07)
        if high_contrast:
            out.append(rounded(hole, c * 0.14, HC_RIM, batch, group))
            out.append(rounded(hole.inset(max(2.0, c * 0.05)), c * 0.1, (0, 0, 0), batch, group))
        else:
            lip = max(1.0, c * 0.04)  # two thin lines, not a second layer under the hole
            edge = c * 0.12
            low, right = hole.y - lip / 2, hole.right + lip / 2
            out.append(
                shapes.Line(hole.x + edge, low, hole.right - edge, low, lip, FRAME_LIGHT, batch=batch, group=group)
            )
            out.append(
                shapes.Line(right, hole.y + edge, right, hole.top - edge, lip, FRAME_LIGHT, batch=batch, group=group)
            )
            # carved: the hole's wall towards the light in shade, its floor below, and the gold
            # arrow's shadow on the floor (the arrow itself is the board's, drawn over it)
            wall = c * 0.06
            out.append(rounded(hole, c * 0.14, WELL_SHADOW, batch, group))
            floor = Rect(hole.x + wall, hole.y, hole.w - wall, hole.h - wall)
            out.append(rounded(floor, c * 0.12, RECESS, batch, group))
            arrow = arrow_points(layout, name)
            mx, my = sum(x for x, _ in arrow) / 3, sum(y for _, y in arrow) / 3
            pts = [(mx + (x - mx) * 0.94 + c * 0.03, my + (y - my) * 0.94 - c * 0.04) for x, y in arrow]
            out.append(shapes.Triangle(*pts[0], *pts[1], *pts[2], color=WELL_SHADOW, batch=batch, group=group))
    return out


def _rosettes(layout: Layout, batch: Any, group: Any, high_contrast: bool) -> list[shapes.ShapeBase]:
    """A brass rosette in each corner of the frame (a plain white disc in high contrast)."""
    c = layout.cell
    out: list[shapes.ShapeBase] = []
    for row, col in CORNERS:
        x, y = geometry.cell_center(layout, row, col)
        if high_contrast:
            out.append(shapes.Circle(x, y, c * 0.2, color=HC_RIM, batch=batch, group=group))
            continue
        for dx, dy, r, color in (
            (0.03, -0.04, 0.24, FRAME_SHADE),  # its shadow on the frame
            (0.0, 0.0, 0.24, BRASS),
            (0.0, 0.0, 0.15, BRASS_SHADE),
            (-0.02, 0.02, 0.1, BRASS),
            (-0.05, 0.05, 0.035, BRASS_GLINT),
        ):
            out.append(shapes.Circle(x + dx * c, y + dy * c, r * c, color=color, batch=batch, group=group))
    return out


def arrow_points(layout: Layout, name: str) -> list[tuple[float, float]]:
    """The corners of arrow `name`'s triangle, pointing into the board (the board draws it in gold)."""
    cx, cy = geometry.arrow_rect(layout, name).center
    s = layout.cell * ARROW_OF_CELL
    side = name[0]
    if side == "N":
        return [(cx - s, cy + s * 0.5), (cx + s, cy + s * 0.5), (cx, cy - s * 0.7)]
    if side == "S":
        return [(cx - s, cy - s * 0.5), (cx + s, cy - s * 0.5), (cx, cy + s * 0.7)]
    if side == "W":
        return [(cx - s * 0.5, cy - s), (cx - s * 0.5, cy + s), (cx + s * 0.7, cy)]
    return [(cx + s * 0.5, cy - s), (cx + s * 0.5, cy + s), (cx - s * 0.7, cy)]


def rounded(r: Rect, radius: float, color: Colour, batch: Any, group: Any) -> shapes.ShapeBase:
    """A rounded rectangle (its radius at most half its shorter side)."""
    radius = min(radius, r.w / 2, r.h / 2)
    return shapes.RoundedRectangle(r.x, r.y, r.w, r.h, radius, segments=6, color=color, batch=batch, group=group)
