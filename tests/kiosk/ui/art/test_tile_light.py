"""The board's tiles are lit from one side (docs/art.md, "Direction"): measured on the baked atlas.

A straight tile (a path from top to bottom) is drawn big from the atlas onto an offscreen window:
the sand along the path's left side lies in the shadow of the hedge there, darker than the sand on
its right; the hedge's face along the path's right side catches the light, lighter than the verge
on its left. In high contrast the path stays one flat colour (low vision reads flat shapes best).
"""

from __future__ import annotations

import statistics

import pytest

from tests.kiosk.ui.screens.test_screens import make_ui, pixels, rgb_at

pytestmark = pytest.mark.display

SIDE = 400  # px: the tile as drawn for the test


def _lum(c) -> float:
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]


def _column(px, x: float, y0: float, y1: float) -> float:
    """The median lightness of the pixels at x from y0 to y1 (a median: a pebble is not the sand)."""
    return statistics.median(_lum(rgb_at(px, round(x), y)) for y in range(round(y0), round(y1)))


def _straight_tile(u):
    """The N-S tile drawn SIDE px big centred at (400, 240); returns the frame's pixels."""
    import pyglet

    u.step(0.05)
    u.window.switch_to()
    batch = pyglet.graphics.Batch()
    sprite = pyglet.sprite.Sprite(u.atlas.tile("NS"), 400, 240, batch=batch)
    sprite.scale = SIDE / u.atlas.px
    pyglet.gl.glClearColor(0.1, 0.1, 0.1, 1)
    u.window.clear()
    batch.draw()
    px = pixels(u)
    del sprite
    return px


def _sides(px) -> tuple[float, float, float, float]:
    """(sand on the left, sand on the right, verge on the left, hedge face on the right) of the path,
    along the upper arm (clear of the crossing's middle)."""
    cx, hw = 400, SIDE * 0.18  # the path's half-width (kiosk/ui/art/tiles.py)
    y0, y1 = 240 + SIDE * 0.22, 240 + SIDE * 0.44
    return (
        _column(px, cx - hw + SIDE * 0.03, y0, y1),
        _column(px, cx + hw - SIDE * 0.03, y0, y1),
        _column(px, cx - hw - SIDE * 0.018, y0, y1),
        _column(px, cx + hw + SIDE * 0.045, y0, y1),
    )


def test_a_tiles_path_is_lit_from_the_top_left():
    u = make_ui(size=(800, 480), first="setup")
    try:
        sand_left, sand_right, verge_left, face_right = _sides(_straight_tile(u))
        assert sand_right - sand_left > 15, (
            f"the sand in the hedge's shadow ({sand_left:.0f}) vs lit ({sand_right:.0f})"
        )
        assert face_right - verge_left > 40, f"the hedge's lit face ({face_right:.0f}) vs the verge ({verge_left:.0f})"
    finally:
        u.close()
        u.k.sessions["labyrinth"].close()


def test_in_high_contrast_the_path_stays_flat():
    u = make_ui(size=(800, 480), first="setup")
    try:
        u.set_high_contrast(True)
        sand_left, sand_right, _, _ = _sides(_straight_tile(u))
        assert abs(sand_right - sand_left) < 3
        assert sand_left > 230  # near white
    finally:
        u.close()
        u.k.sessions["labyrinth"].close()
