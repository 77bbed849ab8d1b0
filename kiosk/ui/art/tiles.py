"""The maze tiles as illustrations: earth paths between hedges, on a tile with an edge and a shadow.

One style for every tile, drawn once into the atlas (see ``Atlas``): a square
tile with a soft drop shadow and a bevelled edge (light top-left, dark
bottom-right) so the grid and the spare read as physical pieces; on it, hedge
walls (dark green, with leaf clumps) and a sandy path with darker verges and a
few pebbles. Fixed tiles (the ones printed on the board) are stone: grey rock
walls with a rivet in each corner, so they read as part of the board, not as
pieces that slide.

The high-contrast palette (``[display] high_contrast``) keeps the shapes and
makes the path almost white, the walls almost black and the path's outline
thick, for visitors with low vision.

Every leaf and pebble is placed by a seeded random generator per opening mask,
so a tile looks the same each time and on every screen.
"""

from __future__ import annotations

import random
from typing import Any
from dataclasses import dataclass

import pyglet

from kiosk.ui.kit.table import Colour


@dataclass(frozen=True)
class Palette:
    shadow: Colour
    edge_light: Colour
    edge_dark: Colour
    wall: Colour  # hedge
    leaf_dark: Colour
    leaf_light: Colour
    stone: Colour  # fixed tiles' walls
    stone_dark: Colour
    stone_light: Colour
    rivet: Colour
    path: Colour
    path_shade: Colour  # the sand in the hedges' shadow (their upper and left side)
    verge: Colour  # the path's darker border
    lip: Colour | None  # the hedges' lit faces along the path's lower and right side
    painted: bool  # washes of light and shade, brush strokes and shadows under leaves and pebbles
    pebble: Colour
    outline: float  # the path's border, as a fraction of the tile


NORMAL = Palette(
    shadow=(0, 0, 0, 90),
    edge_light=(150, 196, 110),
    edge_dark=(22, 48, 26),
    wall=(62, 124, 62),
    leaf_dark=(44, 96, 48),
    leaf_light=(104, 168, 84),
    stone=(128, 126, 132),
    stone_dark=(84, 82, 92),
    stone_light=(184, 182, 188),
    rivet=(226, 186, 84),
    path=(244, 218, 156),
    path_shade=(198, 158, 98),
    verge=(124, 88, 50),
    lip=(150, 200, 104),
    painted=True,
    pebble=(214, 188, 136),
    outline=0.025,
)
HIGH_CONTRAST = Palette(
    shadow=(0, 0, 0, 140),
    edge_light=(230, 230, 230),
    edge_dark=(0, 0, 0),
    wall=(12, 40, 16),
    leaf_dark=(6, 28, 10),
    leaf_light=(24, 62, 28),
    stone=(34, 34, 40),
    stone_dark=(10, 10, 14),
    stone_light=(80, 80, 90),
    rivet=(255, 210, 60),
    path=(255, 248, 222),
    path_shade=(255, 248, 222),  # no shading: the path stays one flat bright colour for low vision
    verge=(0, 0, 0),
    lip=None,
    painted=False,
    pebble=(236, 226, 196),
    outline=0.06,
)


#: the tile's own square within its drawing: the paths run on to the drawing's edge (so that they
#: meet the next tile's across the gap on the board), the shadow falls a little outside it
TILE_BODY = 0.90


def _rect(out: list[Any], batch: Any, group: Any, x: float, y: float, w: float, h: float, color: Colour) -> None:
    out.append(pyglet.shapes.Rectangle(x, y, w, h, color=color, batch=batch, group=group))


def _circle(out: list[Any], batch: Any, group: Any, x: float, y: float, r: float, color: Colour) -> None:
    out.append(pyglet.shapes.Circle(x, y, r, color=color, batch=batch, group=group))


def draw_tile(
    batch: Any,
    cx: float,
    cy: float,
    size: float,
    openings: str,
    *,
    fixed: bool = False,
    palette: Palette = NORMAL,
    layered: bool = False,
    group: Any = None,
) -> list[Any]:
    """A tile with walls and a path (no treasure), centred at (cx, cy), `size` px square.

    `layered` puts each layer (shadow, tile, walls, path, details) in its own ordered group:
    for the atlas bake, where a batch would otherwise draw all circles before all rectangles.
    """
    out: list[Any] = []
    groups = [pyglet.graphics.Group(order=k, parent=group) if layered else group for k in range(9)]
    g_shadow, g_tile, g_wall, g_paint, g_leaf, g_verge, g_path, g_sand, g_detail = groups
    rnd = random.Random(sum(ord(ch) * (k + 3) for k, ch in enumerate(openings)) + (101 if fixed else 0))
    t = size * TILE_BODY  # the tile, a little inset in its cell
    inner = _body(out, batch, (g_shadow, g_tile, g_wall), cx, cy, size, t, fixed, palette)
    _light(out, batch, g_paint, inner, palette.stone if fixed else palette.wall, palette)
    _walls(out, batch, (g_paint, g_leaf), inner, fixed, palette, rnd)
    _path(out, batch, (g_verge, g_path, g_sand), cx, cy, size, openings, palette, rnd)
    _details(out, batch, g_detail, cx, cy, size, t, openings, fixed, palette, rnd)
    return out


def _body(
    out: list[Any],
    batch: Any,
    groups: tuple[Any, Any, Any],
    cx: float,
    cy: float,
    s: float,
    t: float,
    fixed: bool,
    p: Palette,
) -> tuple[float, float, float]:
    """The soft shadow (three translucent squares offset down-right) and the tile with a bevelled
    edge; returns the wall area inside the edge as (x, y, side)."""
    g_shadow, g_tile, g_wall = groups
    x0, y0 = cx - t / 2, cy - t / 2
    for k, a in ((3, 40), (2, 50), (1, 60)):
        off = s * 0.012 * k
        _rect(
            out,
            batch,
            g_shadow,
            x0 + off * 1.2,
            y0 - off * 1.6,
            t + off * 0.5,
            t,
            (0, 0, 0, a if p is NORMAL else a + 30),
        )
    base = p.stone if fixed else p.wall
    dark = p.stone_dark if fixed else p.edge_dark
    light = p.stone_light if fixed else p.edge_light
    bevel = s * 0.03
    _rect(out, batch, g_tile, x0, y0, t, t, dark)
    _rect(out, batch, g_tile, x0, y0 + bevel, t - bevel, t - bevel, light)
    _rect(out, batch, g_wall, x0 + bevel, y0 + bevel, t - 2 * bevel, t - 2 * bevel, base)
    return (x0 + bevel, y0 + bevel, t - 2 * bevel)


def _mix(color: Colour, towards: Colour, t: float) -> tuple[int, int, int]:
    """`color` moved the share `t` of the way to `towards`, opaque. (The bake draws into a texture:
    a translucent shape there would make the texel itself translucent, and the table show through.)"""
    r, g, b = (round(a + (b - a) * t) for a, b in zip(color[:3], towards[:3]))
    return (r, g, b)


LAMP = (255, 250, 214)  # the light's colour, what a lit surface moves towards
DUSK = (16, 10, 4)  # what a shaded one moves towards


def _light(out: list[Any], batch: Any, group: Any, inner: tuple[float, float, float], base: Colour, p: Palette) -> None:
    """The light across the tile, as paint: a wash lighter towards the top-left and one darker towards
    the bottom-right, each a few nested discs a little further from the base colour."""
    if not p.painted:
        return
    ix, iy, iw = inner
    for (u, v), towards, most in (((0.3, 0.7), LAMP, 0.24), ((0.72, 0.28), DUSK, 0.24)):
        for k, r in enumerate((0.3, 0.21, 0.12)):
            color = _mix(base, towards, most * (k + 1) / 3)
            _circle(out, batch, group, ix + u * iw, iy + v * iw, iw * r, color)


def _walls(
    out: list[Any],
    batch: Any,
    groups: tuple[Any, Any],
    inner: tuple[float, float, float],
    fixed: bool,
    p: Palette,
    rnd: random.Random,
) -> None:
    """Wall texture: blocks on stone, each with a lit top and a shaded foot; on hedges a leaf clump
    in each corner (the path never covers those) and a few more, each with its shadow down-right and
    a dab of light up-left -- few shapes, as each costs time in the bake at start-up."""
    g_under, g_over = groups
    ix, iy, iw = inner
    if fixed:
        for _ in range(6):
            bx, by = ix + rnd.uniform(0.05, 0.8) * iw, iy + rnd.uniform(0.05, 0.8) * iw
            bw, bh = iw * rnd.uniform(0.12, 0.2), iw * 0.07
            _rect(out, batch, g_under, bx, by, bw, bh, p.stone_dark)
            _rect(out, batch, g_over, bx, by + bh * 0.55, bw - iw * 0.015, bh * 0.45, p.stone_light)
        return
    corners = [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)]
    spots = corners + [(rnd.uniform(0.1, 0.9), rnd.uniform(0.1, 0.9)) for _ in range(4)]
    for k, (u, v) in enumerate(spots):
        lx, ly = ix + (u + rnd.uniform(-0.06, 0.06)) * iw, iy + (v + rnd.uniform(-0.06, 0.06)) * iw
        r = iw * rnd.uniform(0.08, 0.12)
        if p.painted:
            _circle(out, batch, g_under, lx + r * 0.3, ly - r * 0.4, r, _mix(p.wall, DUSK, 0.35))
        _circle(out, batch, g_over, lx, ly, r, p.leaf_dark if k % 2 else p.wall)
        _circle(out, batch, g_over, lx - r * 0.3, ly + r * 0.3, r * 0.5, p.leaf_light)


def _path_rects(
    cx: float, cy: float, s: float, openings: str, grow: float, lit: float = 0.0
) -> list[tuple[float, float, float, float]]:
    """The path's rectangles (its crossing and an arm to each opening), grown by `grow` on every side;
    `lit` > 0 cuts that much off their top and left sides (the part the hedges there shade)."""
    half, hw = s / 2, s * 0.18
    w = 2 * hw + 2 * grow
    x, y = cx - hw - grow, cy - hw - grow
    arms = {
        "N": (x, cy, w, half),
        "S": (x, cy - half, w, half),
        "E": (cx, y, half, w),
        "W": (cx - half, y, half, w),
    }
    rects = [(x, y, w, w)] + [arms[side] for side in openings]
    # an arm running off the tile keeps its far end; only a side along a hedge is cut
    return [(rx + lit, ry, rw - lit, rh - lit) for rx, ry, rw, rh in rects]


def _path(
    out: list[Any],
    batch: Any,
    groups: tuple[Any, Any, Any],
    cx: float,
    cy: float,
    s: float,
    openings: str,
    p: Palette,
    rnd: random.Random,
) -> None:
    """The path, sunk between the hedges and lit from the top-left: the hedges' lit faces show as a
    light lip along its lower and right sides, a darker verge borders it, and the sand under the
    hedges on its upper and left sides lies in their shadow."""
    g_verge, g_path, g_sand = groups
    grow = s * max(0.035, p.outline)
    lip = s * 0.02
    if p.lip is not None:
        for rx, ry, rw, rh in _path_rects(cx, cy, s, openings, grow):
            _rect(out, batch, g_verge, rx, ry - lip, rw + lip, rh + lip, p.lip)
    for rect in _path_rects(cx, cy, s, openings, grow):
        _rect(out, batch, g_verge, *rect, p.verge)
    for rect in _path_rects(cx, cy, s, openings, 0.0):
        _rect(out, batch, g_path, *rect, p.path_shade)
    for rect in _path_rects(cx, cy, s, openings, 0.0, lit=s * 0.06):
        _rect(out, batch, g_path, *rect, p.path)
    # a broad brush stroke of light along each arm's lit side: the sand painted, not printed
    for side in openings if p.painted else "":
        dx, dy = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}[side]
        off = s * rnd.uniform(0.02, 0.07) * (1 if dx else -1)  # towards the lower right
        a, b = s * rnd.uniform(0.06, 0.14), s * rnd.uniform(0.36, 0.46)
        x0, y0 = cx + dx * a - dy * off, cy + dy * a + dx * off
        x1, y1 = cx + dx * b - dy * off, cy + dy * b + dx * off
        light = _mix(p.path, LAMP, 0.6)
        out.append(pyglet.shapes.Line(x0, y0, x1, y1, s * 0.08, color=light, batch=batch, group=g_sand))


def _details(
    out: list[Any],
    batch: Any,
    group: Any,
    cx: float,
    cy: float,
    s: float,
    t: float,
    openings: str,
    fixed: bool,
    p: Palette,
    rnd: random.Random,
) -> None:
    """Pebbles on the path (few, small: the treasure sits in the middle); rivets on stone tiles,
    fastened to the board."""
    spots = [(0, 0.32), (0, -0.32), (0.32, 0), (-0.32, 0)]
    for (dx, dy), side in zip(spots, "NSEW"):
        if side in openings:
            for _ in range(2):
                px = cx + (dx + rnd.uniform(-0.1, 0.1)) * s
                py = cy + (dy + rnd.uniform(-0.1, 0.1)) * s
                r = s * rnd.uniform(0.014, 0.022)
                _circle(out, batch, group, px + r * 0.4, py - r * 0.5, r, p.path_shade)  # its shadow
                _circle(out, batch, group, px, py, r, p.pebble)
    if fixed:
        for dx in (-1, 1):
            for dy in (-1, 1):
                _circle(out, batch, group, cx + dx * t * 0.39, cy + dy * t * 0.39, s * 0.028, p.rivet)
                _circle(
                    out,
                    batch,
                    group,
                    cx + dx * t * 0.39 - s * 0.006,
                    cy + dy * t * 0.39 + s * 0.006,
                    s * 0.012,
                    (255, 240, 190),
                )
