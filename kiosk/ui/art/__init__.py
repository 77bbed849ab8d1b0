"""Tiles, treasures and pawns, rendered once into a texture atlas.

Why an atlas: the board has 49 tiles plus the spare, each with corridors and a
treasure icon of a dozen strokes. Drawing those as hundreds of shapes would
have to move every stroke when a row slides; drawn once into a texture (at
twice the display size, then sampled down from the nearest mipmap level — cheap
antialiasing; see bake.py for why not plain linear or trilinear),
each tile is one sprite, and sliding a row is moving eight sprites. All of it
is GLES 3 compatible (framebuffer object, RGBA8 texture, glGenerateMipmap).

Tiles (art/tiles.py): sandy paths between hedges on tiles with an edge and a
shadow; fixed tiles are riveted stone. Treasures and pawns are the built-in
pictures (kiosk/ui/art/pictures.py) or an installed theme's treasures; our
drawings (treasures.py, ``pawn_pen``) in high contrast and when the pictures
cannot be read. Pawns: playing pieces standing on the tile (base, body, head,
drop shadow), a colour plus a head shape per seat (red ball, yellow cone, green
cube, blue diamond) for colour-blind players.
``high_contrast`` bakes the palette for low vision (white paths, black walls,
thicker outlines).
"""

from __future__ import annotations

from typing import Any

import pyglet

from kiosk.ui.art import (
    bake as _bake_module,
    pen as _pen_module,
    pictures as _pictures_module,
    theme_art as _theme_art_module,
    tiles as _tiles_module,
)
from kiosk.ui.art import treasures as _treasures_module
from kiosk.core.seat_marks import BOARD_SEATS, SEATS
from kiosk.ui.art.bake import bake, source_digest
from kiosk.ui.art.pen import OUTLINE, Pen
from kiosk.ui.art.tiles import HIGH_CONTRAST, NORMAL, TILE_BODY
from kiosk.ui.art.pictures import pawn_art
from kiosk.ui.art.theme_art import picture_art, theme_art
from kiosk.ui.art.tiles import draw_tile as _draw_tile
from kiosk.ui.art.treasures import DRAWINGS, treasure_pen

WALL = NORMAL.wall  # a hedge: what a tile shows off its path
CORRIDOR = NORMAL.path  # the sandy path
MEDALLION = (255, 250, 238)
MEDALLION_RIM = (205, 160, 60)
MEDALLION_PICTURE = 0.74  # the picture's share of its medallion's drawing (an ivory ring shows round it)
# high contrast: a dark, wider rim sets the medallion off the near-white path, and the treasure's
# own outline is twice as thick (pen.py draws size * 0.035 otherwise)
MEDALLION_RIM_HC = (16, 16, 20)
TREASURE_OUTLINE_HC = 0.07

SEAT_COLORS = {i: SEATS[i].rgb for i in range(BOARD_SEATS)}  # kiosk/core/seat_marks.py
SEAT_SHAPES = {i: SEATS[i].symbol for i in range(BOARD_SEATS)}  # a pawn's head
COLOR_NAMES = {i: SEATS[i].name for i in range(BOARD_SEATS)}
SIDE_BITS = {"N": 1, "E": 2, "S": 4, "W": 8}


def mask_of(openings: str) -> int:
    return sum(SIDE_BITS[ch] for ch in openings)


def _shade(color: tuple[int, ...], k: float) -> tuple[int, int, int]:
    """`color` darkened (k < 1) or lightened towards white (k > 1)."""
    r, g, b = (int(c * k) if k <= 1 else min(255, int(c + (255 - c) * (k - 1))) for c in color[:3])
    return (r, g, b)


def pawn_pen(seat: int, high_contrast: bool = False) -> Pen:
    """A pawn standing on the tile, seen from the front and a little above: a drop shadow, a round
    base, a flared body and a head in the seat's shape (red ball, yellow cone, green cube, blue
    diamond), all solid in the seat's colour with a dark outline. Taller than wide and with no disc
    behind it, it reads as a playing piece, not as a treasure medallion; the head's shape (not only
    the colour) tells seats apart for colour-blind players."""
    p = Pen()
    color = SEAT_COLORS[seat]
    shade = tuple(int(c * 0.62) for c in color)  # the side turned away from the light
    sheen = tuple(min(255, int(c + (255 - c) * 0.65)) for c in color)
    shape = SEAT_SHAPES[seat]
    p.ellipse(0.16, -0.8, 0.76, 0.2, (0, 0, 0, 170 if high_contrast else 120), False)  # shadow on the tile
    p.ellipse(0.0, -0.7, 0.7, 0.26, shade)  # the base's rim
    p.ellipse(0.0, -0.62, 0.62, 0.19, color, False)  # the base's top
    p.poly([(-0.52, -0.6), (0.52, -0.6), (0.24, 0.1), (-0.24, 0.1)], color)  # the body
    p.poly([(0.2, -0.6), (0.52, -0.6), (0.24, 0.1), (0.1, 0.1)], shade, False)
    p.ellipse(0.0, 0.08, 0.38, 0.12, shade)  # the collar
    hy = 0.5  # the head's centre
    if shape == "circle":
        p.circle(0.0, hy, 0.48, color)
        p.ellipse(-0.17, hy + 0.17, 0.17, 0.1, sheen, False, angle=30)
    elif shape == "triangle":
        p.poly([(-0.62, 0.06), (0.62, 0.06), (0.0, 1.0)], color)
        p.poly([(0.0, 0.06), (0.62, 0.06), (0.0, 1.0)], shade, False)
        p.poly([(-0.28, 0.2), (-0.12, 0.2), (-0.04, 0.66)], sheen, False)
    elif shape == "square":
        p.rect(-0.47, hy - 0.46, 0.94, 0.94, color)
        p.poly([(0.17, hy - 0.46), (0.47, hy - 0.46), (0.47, hy + 0.48), (0.17, hy + 0.48)], shade, False)
        p.rect(-0.34, hy + 0.12, 0.19, 0.22, sheen, False)
    else:
        p.poly([(0.0, hy - 0.54), (0.58, hy), (0.0, hy + 0.5), (-0.58, hy)], color)
        p.poly([(0.0, hy - 0.54), (0.58, hy), (0.0, hy + 0.5)], shade, False)
        p.poly([(-0.32, hy + 0.02), (-0.16, hy + 0.02), (-0.05, hy + 0.32)], sheen, False)
    return p


def draw_tile(
    batch,
    cx: float,
    cy: float,
    size: float,
    openings: str,
    group=None,
    *,
    fixed: bool = False,
    high_contrast: bool = False,
    layered: bool = False,
) -> list:
    """A tile's walls and path as shapes (no treasure), centred at (cx, cy) (kiosk/ui/art/tiles.py)."""
    return _draw_tile(
        batch,
        cx,
        cy,
        size,
        openings,
        fixed=fixed,
        layered=layered,
        group=group,
        palette=HIGH_CONTRAST if high_contrast else NORMAL,
    )


def draw_treasure(
    batch,
    name: str,
    cx: float,
    cy: float,
    size: float,
    group=None,
    medallion: bool = True,
    ordered: bool = False,
    theme=None,
    high_contrast: bool = False,
) -> list:
    """Treasure `name` on a light medallion unless `medallion` is False: its picture (an installed
    `theme`'s, on the theme's medallion colours, else the built-in illustration, kiosk/ui/art/pictures.py)
    or, in high contrast or when the pictures cannot be read, our drawing as shapes (in high contrast
    with a dark rim and thicker outlines: bold silhouettes read best for low vision)."""
    out: list[Any] = []  # shapes, or the picture's sprite
    art = theme_art(theme) if high_contrast else picture_art(theme)
    if medallion:
        rim = art.theme.colour("medallion_rim", MEDALLION_RIM) if art is not None else MEDALLION_RIM
        face = art.theme.colour("medallion", MEDALLION) if art is not None else MEDALLION
        if high_contrast:
            discs = [(0.0, 0.5, MEDALLION_RIM_HC), (0.0, 0.42, face)]
        else:  # set into the tile: its hollow's wall towards the light (top-left) in shade
            discs = [
                (0.0, 0.5, rim),
                (0.0, 0.41, _shade(face, 0.92)),
                (0.012, 0.398, face),
            ]
        for off, r, color in discs:
            out.append(
                pyglet.shapes.Circle(cx + off * size, cy - off * size, size * r, color=color, batch=batch, group=group)
            )
        size *= 0.78 if high_contrast else MEDALLION_PICTURE
    if art is not None:
        out.append(art.sprite("board", name, cx, cy, size, batch, pyglet.graphics.Group(order=50, parent=group)))
        return out
    outline = max(1.5, size * TREASURE_OUTLINE_HC) if high_contrast else None
    out.extend(treasure_pen(name).draw(batch, cx, cy, size, group=group, ordered=ordered, outline_px=outline))
    return out


def draw_pawn(
    batch,
    seat: int,
    cx: float,
    cy: float,
    size: float,
    group=None,
    ordered: bool = True,
    high_contrast: bool = False,
    rotation: float = 0.0,
) -> list:
    """A pawn turned by `rotation` degrees (180: standing up for the far side): the built-in picture
    (kiosk/ui/art/pictures.py) as a sprite, or -- in high contrast, where its thick outline reads
    better, or when the pictures cannot be read -- our drawing as shapes; `ordered` (the default)
    keeps the drawing's shading and sheen over its body, which a batch might draw first."""
    art = None if high_contrast else pawn_art()
    if art is not None:
        return [art.sprite(seat, cx, cy, size, batch, group, rotation)]
    return pawn_pen(seat, high_contrast).draw(
        batch,
        cx,
        cy,
        size,
        group=group,
        outline_px=max(1.5, size * (0.12 if high_contrast else 0.08)),
        ordered=ordered,
        rotation=rotation,
    )


class Atlas:
    """Every drawing rendered once at `px` pixels (twice the display size) into one texture.

    ``tile(openings)``, ``treasure(name)``, ``pawn(seat)`` return texture regions
    anchored at their centre; show them with a Sprite scaled by ``display / px``.
    Needs the window whose GL context is current (its projection is borrowed).
    """

    def __init__(self, px: int, window, high_contrast: bool = False, theme=None):
        self.window = window
        self.high_contrast = high_contrast
        self.theme = theme  # kiosk/themes: an installed theme's treasures; None: ours
        self.px = px = max(16, int(px))
        self.pad = pad = max(4, px // 8)
        # tiles with two or more openings (all the game has); fixed ones are only corners and T's
        movable = [m for m in range(16) if bin(m).count("1") >= 2]
        fixed = [m for m in movable if bin(m).count("1") == 3 or m not in (5, 10)]
        fixed = [m for m in fixed if m != 15]
        names = (
            [("tile", m) for m in movable]
            + [("fixed", m) for m in fixed]
            + [("treasure", n) for n in DRAWINGS]
            + [("pawn", s) for s in range(4)]
            + [("glow", 0)]
        )
        themed = "" if theme is None or theme.builtin else "-" + theme.digest
        self._faces: dict = {}  # tile_face's cut regions
        self.texture, self._regions = bake(
            names,
            px,
            pad,
            window,
            self._draw,
            cache_name=f"board-{px}-{'hc' if high_contrast else 'n-' + _pictures_module.digest()}-{_DIGEST}{themed}",
        )

    def _draw(self, batch, key, cx: float, cy: float) -> list:
        px = self.px
        kind, what = key
        if kind in ("tile", "fixed"):
            if not what:
                return []
            openings = "".join(ch for ch, bit in SIDE_BITS.items() if what & bit)
            return draw_tile(
                batch, cx, cy, px, openings, fixed=kind == "fixed", high_contrast=self.high_contrast, layered=True
            )
        if kind == "treasure":
            return draw_treasure(
                batch, what, cx, cy, px, ordered=True, theme=self.theme, high_contrast=self.high_contrast
            )
        if kind == "pawn":
            return draw_pawn(batch, what, cx, cy, px * 0.98, ordered=True, high_contrast=self.high_contrast)
        # a soft glow disc used for highlights: concentric translucent circles
        return [
            pyglet.shapes.Circle(cx, cy, px / 2 * k / 8, color=(255, 255, 255, 40), batch=batch)
            for k in range(8, 0, -1)
        ]

    def tile(self, openings: str, fixed: bool = False):
        region = self._regions.get(("fixed" if fixed else "tile", mask_of(openings)))
        return region if region is not None else self._regions[("tile", 15)]  # no such tile in the game

    def tile_face(self, openings: str, fixed: bool = False):
        """The tile cut to its own square: no path running on past its edge and no shadow, for a
        tile shown alone (the spare in a player's panel). Same scale as ``tile``."""
        key = ("face", fixed, mask_of(openings))
        region = self._faces.get(key)
        if region is None:
            whole = self.tile(openings, fixed)
            side = int(self.px * TILE_BODY)
            cut = (self.px - side) // 2
            region = self._faces[key] = whole.get_region(cut, cut, side, side)
            region.anchor_x = region.anchor_y = side // 2
        return region

    def treasure(self, name: str):
        return self._regions[("treasure", name)]

    def pawn(self, seat: int):
        return self._regions[("pawn", seat)]

    @property
    def glow(self):
        return self._regions[("glow", 0)]


__all__ = [
    "Atlas",
    "draw_tile",
    "draw_treasure",
    "draw_pawn",
    "pawn_pen",
    "treasure_pen",
    "SEAT_COLORS",
    "SEAT_SHAPES",
    "COLOR_NAMES",
    "CORRIDOR",
    "WALL",
    "OUTLINE",
    "DRAWINGS",
]

# a cached atlas (kiosk/ui/art/bake.py) belongs to this version of the drawings
_DIGEST = source_digest(
    __file__,
    _bake_module.__file__,
    _pen_module.__file__,
    _pictures_module.__file__,
    _tiles_module.__file__,
    _treasures_module.__file__,
    _theme_art_module.__file__,
)
