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
from dataclasses import dataclass

import pyglet


@dataclass(frozen=True)
class Palette:
    shadow: tuple
    edge_light: tuple
    edge_dark: tuple
    wall: tuple  # hedge
    leaf_dark: tuple
    leaf_light: tuple
    stone: tuple  # fixed tiles' walls
    stone_dark: tuple
    stone_light: tuple
    rivet: tuple
    path: tuple
    verge: tuple  # the path's darker border
    pebble: tuple
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
    path=(248, 226, 172),
    verge=(150, 112, 66),
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
    verge=(0, 0, 0),
    pebble=(236, 226, 196),
    outline=0.06,
)


#: the tile's own square within its drawing: the paths run on to the drawing's edge (so that they
#: meet the next tile's across the gap on the board), the shadow falls a little outside it
TILE_BODY = 0.90


def _rect(out, batch, group, x, y, w, h, color):
    out.append(pyglet.shapes.Rectangle(x, y, w, h, color=color, batch=batch, group=group))


def _circle(out, batch, group, x, y, r, color):
    out.append(pyglet.shapes.Circle(x, y, r, color=color, batch=batch, group=group))


def draw_tile(
    batch,
    cx: float,
    cy: float,
    size: float,
    openings: str,
    *,
    fixed: bool = False,
    palette: Palette = NORMAL,
    layered: bool = False,
    group=None,
) -> list:
    """A tile with walls and a path (no treasure), centred at (cx, cy), `size` px square.

    `layered` puts each layer (shadow, tile, walls, path, details) in its own ordered group:
    for the atlas bake, where a batch would otherwise draw all circles before all rectangles.
    """
    out: list = []
    groups = [pyglet.graphics.Group(order=k, parent=group) if layered else group for k in range(6)]
    g_shadow, g_tile, g_wall, g_verge, g_path, g_detail = groups
    rnd = random.Random(sum(ord(ch) * (k + 3) for k, ch in enumerate(openings)) + (101 if fixed else 0))
    t = size * TILE_BODY  # the tile, a little inset in its cell
    inner = _body(out, batch, (g_shadow, g_tile, g_wall), cx, cy, size, t, fixed, palette)
    _walls(out, batch, g_wall, inner, fixed, palette, rnd)
    _path(out, batch, (g_verge, g_path), cx, cy, size, openings, palette)
    _details(out, batch, g_detail, cx, cy, size, t, openings, fixed, palette, rnd)
    return out


def _body(out, batch, groups, cx, cy, s, t, fixed, p) -> tuple[float, float, float]:
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


def _walls(out, batch, group, inner, fixed, p, rnd) -> None:
    """Wall texture: blocks on stone; on hedges a leaf clump in each corner (the path never covers
    those) and a few more -- few shapes, as each costs time in the bake at start-up."""
    ix, iy, iw = inner
    if fixed:
        for _ in range(6):
            bx, by = ix + rnd.uniform(0.05, 0.8) * iw, iy + rnd.uniform(0.05, 0.8) * iw
            _rect(out, batch, group, bx, by, iw * rnd.uniform(0.12, 0.2), iw * 0.05, p.stone_dark)
        return
    corners = [(0.2, 0.2), (0.8, 0.2), (0.2, 0.8), (0.8, 0.8)]
    spots = corners + [(rnd.uniform(0.1, 0.9), rnd.uniform(0.1, 0.9)) for _ in range(6)]
    for k, (u, v) in enumerate(spots):
        lx, ly = ix + (u + rnd.uniform(-0.06, 0.06)) * iw, iy + (v + rnd.uniform(-0.06, 0.06)) * iw
        _circle(out, batch, group, lx, ly, iw * rnd.uniform(0.07, 0.1), p.leaf_dark if k % 2 else p.leaf_light)


def _path(out, batch, groups, cx, cy, s, openings, p) -> None:
    """The path: a verge (darker border) under the sand, from the centre out through each opening."""
    half = s / 2
    w = s * 0.36
    hw = w / 2
    arms_of = {
        "N": lambda g: (cx - hw - g, cy, w + 2 * g, half),
        "S": lambda g: (cx - hw - g, cy - half, w + 2 * g, half),
        "E": lambda g: (cx, cy - hw - g, half, w + 2 * g),
        "W": lambda g: (cx - half, cy - hw - g, half, w + 2 * g),
    }
    for grow, color, group in ((s * max(0.035, p.outline), p.verge, groups[0]), (0.0, p.path, groups[1])):
        _rect(out, batch, group, cx - hw - grow, cy - hw - grow, w + 2 * grow, w + 2 * grow, color)
        for side in openings:
            _rect(out, batch, group, *arms_of[side](grow), color)


def _details(out, batch, group, cx, cy, s, t, openings, fixed, p, rnd) -> None:
    """Pebbles on the path (few, small: the treasure sits in the middle); rivets on stone tiles,
    fastened to the board."""
    spots = [(0, 0.32), (0, -0.32), (0.32, 0), (-0.32, 0)]
    for (dx, dy), side in zip(spots, "NSEW"):
        if side in openings:
            for _ in range(2):
                px = cx + (dx + rnd.uniform(-0.1, 0.1)) * s
                py = cy + (dy + rnd.uniform(-0.1, 0.1)) * s
                _circle(out, batch, group, px, py, s * rnd.uniform(0.012, 0.02), p.pebble)
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
