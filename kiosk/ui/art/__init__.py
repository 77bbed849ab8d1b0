"""Our own drawings: tiles, treasures and pawns, rendered once into a texture atlas.

Why an atlas: the board has 49 tiles plus the spare, each with corridors and a
treasure icon of a dozen strokes. Drawing those as hundreds of shapes would
have to move every stroke when a row slides; drawn once into a texture (at
twice the display size, then sampled down from the nearest mipmap level — cheap
antialiasing; see bake.py for why not plain linear or trilinear),
each tile is one sprite, and sliding a row is moving eight sprites. All of it
is GLES 3 compatible (framebuffer object, RGBA8 texture, glGenerateMipmap).

Tiles: corridors are light (cream) on dark stone walls, one bold shape per
opening, so the paths read at a glance. Pawns: a colour plus a shape per seat
(red circle, yellow triangle, green square, blue diamond) for colour-blind players.
"""

from __future__ import annotations

import pyglet

from .bake import bake
from .pen import OUTLINE, Pen
from .treasures import DRAWINGS, treasure_pen

WALL = (44, 52, 66)
WALL_EDGE = (30, 35, 45)
WALL_LIGHT = (58, 68, 84)
CORRIDOR = (243, 233, 207)
MEDALLION = (255, 250, 238)
MEDALLION_RIM = (205, 160, 60)

SEAT_COLORS = {0: (226, 54, 54), 1: (250, 206, 40), 2: (46, 172, 84), 3: (54, 116, 236)}
SEAT_SHAPES = {0: "circle", 1: "triangle", 2: "square", 3: "diamond"}
COLOR_NAMES = {0: "red", 1: "yellow", 2: "green", 3: "blue"}
SIDE_BITS = {"N": 1, "E": 2, "S": 4, "W": 8}


def mask_of(openings: str) -> int:
    return sum(SIDE_BITS[ch] for ch in openings)


def pawn_pen(seat: int) -> Pen:
    """A pawn seen from above: the seat's shape in its colour, with a dark outline and a light dot."""
    p = Pen()
    color = SEAT_COLORS[seat]
    shape = SEAT_SHAPES[seat]
    if shape == "circle":
        p.circle(0, 0, 0.8, color)
    elif shape == "triangle":
        p.poly([(-0.9, -0.72), (0.9, -0.72), (0, 0.9)], color)
    elif shape == "square":
        p.rect(-0.72, -0.72, 1.44, 1.44, color)
    else:
        p.poly([(0, -0.95), (0.95, 0), (0, 0.95), (-0.95, 0)], color)
    p.circle(0, -0.05 if shape == "triangle" else 0, 0.22, (255, 255, 255), False)
    return p


def draw_tile(batch, cx: float, cy: float, size: float, openings: str, group=None) -> list:
    """A tile's walls and corridors as shapes (no treasure), centred at (cx, cy)."""
    s = size
    half = s / 2
    out = [pyglet.shapes.Rectangle(cx - half, cy - half, s, s, color=WALL_EDGE, batch=batch, group=group)]
    inset = s * 0.035
    out.append(pyglet.shapes.Rectangle(cx - half + inset, cy - half + inset, s - 2 * inset, s - 2 * inset,
                                       color=WALL, batch=batch, group=group))
    # a faint bevel so tiles read as pieces
    out.append(pyglet.shapes.Rectangle(cx - half + inset, cy + half - inset - s * 0.05, s - 2 * inset, s * 0.05,
                                       color=WALL_LIGHT, batch=batch, group=group))
    w = s * 0.40                     # corridor width
    hw = w / 2
    out.append(pyglet.shapes.Rectangle(cx - hw, cy - hw, w, w, color=CORRIDOR, batch=batch, group=group))
    for side in openings:
        if side == "N":
            r = (cx - hw, cy, w, half)
        elif side == "S":
            r = (cx - hw, cy - half, w, half)
        elif side == "E":
            r = (cx, cy - hw, half, w)
        else:
            r = (cx - half, cy - hw, half, w)
        out.append(pyglet.shapes.Rectangle(*r, color=CORRIDOR, batch=batch, group=group))
    return out


def draw_treasure(batch, name: str, cx: float, cy: float, size: float, group=None, medallion: bool = True,
                  ordered: bool = False) -> list:
    """Treasure `name` as shapes, on a light medallion unless `medallion` is False."""
    out = []
    if medallion:
        out.append(pyglet.shapes.Circle(cx, cy, size * 0.5, color=MEDALLION_RIM, batch=batch, group=group))
        out.append(pyglet.shapes.Circle(cx, cy, size * 0.45, color=MEDALLION, batch=batch, group=group))
        size *= 0.78
    out.extend(treasure_pen(name).draw(batch, cx, cy, size, group=group, ordered=ordered))
    return out


def draw_pawn(batch, seat: int, cx: float, cy: float, size: float, group=None, ordered: bool = False) -> list:
    return pawn_pen(seat).draw(batch, cx, cy, size, group=group, outline_px=max(1.5, size * 0.08),
                               ordered=ordered)


class Atlas:
    """Every drawing rendered once at `px` pixels (twice the display size) into one texture.

    ``tile(openings)``, ``treasure(name)``, ``pawn(seat)`` return texture regions
    anchored at their centre; show them with a Sprite scaled by ``display / px``.
    Needs the window whose GL context is current (its projection is borrowed).
    """

    def __init__(self, px: int, window):
        self.window = window
        self.px = px = max(16, int(px))
        self.pad = pad = max(4, px // 8)
        names = [("tile", m) for m in range(16)] + [("treasure", n) for n in DRAWINGS] + \
                [("pawn", s) for s in range(4)] + [("glow", 0)]
        self.texture, self._regions = bake(names, px, pad, window, self._draw)

    def _draw(self, batch, key, cx: float, cy: float) -> list:
        px = self.px
        kind, what = key
        if kind == "tile":
            if not what:
                return []
            openings = "".join(ch for ch, bit in SIDE_BITS.items() if what & bit)
            return draw_tile(batch, cx, cy, px, openings)
        if kind == "treasure":
            return draw_treasure(batch, what, cx, cy, px, ordered=True)
        if kind == "pawn":
            return draw_pawn(batch, what, cx, cy, px * 0.98, ordered=True)
        # a soft glow disc used for highlights: concentric translucent circles
        return [pyglet.shapes.Circle(cx, cy, px / 2 * k / 8, color=(255, 255, 255, 40), batch=batch)
                for k in range(8, 0, -1)]

    def tile(self, openings: str):
        return self._regions[("tile", mask_of(openings))]

    def treasure(self, name: str):
        return self._regions[("treasure", name)]

    def pawn(self, seat: int):
        return self._regions[("pawn", seat)]

    @property
    def glow(self):
        return self._regions[("glow", 0)]


__all__ = ["Atlas", "draw_tile", "draw_treasure", "draw_pawn", "pawn_pen", "treasure_pen",
           "SEAT_COLORS", "SEAT_SHAPES", "COLOR_NAMES", "CORRIDOR", "WALL", "OUTLINE", "DRAWINGS"]
