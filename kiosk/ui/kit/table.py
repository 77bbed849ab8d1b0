"""The furniture of docs/art.md: the walnut table behind every screen, and the oak's colours.

A few shapes that go into a screen's still layer (the frame cache, frame_cache.py), made once per
size, never per frame: the table is the screens' clear colour (free) plus thin seams and grain
lines; a full-screen textured layer would cost ~3 ms a frame at 1280x800 on llvmpipe on the
screens that draw in full. A game's board frame is made of the oak (the board game's:
kiosk/games/labyrinth/screens/frame.py).
"""

from __future__ import annotations

import random
from typing import Any

from pyglet import shapes

Colour = tuple[int, int, int] | tuple[int, int, int, int]

TABLE = (46, 34, 27)  # the walnut table: every screen's background
SEAM = (34, 25, 20)  # between two planks
GRAIN = (58, 43, 34)  # the wood's grain, a shade lighter than the plank
PLANK_PX = 96  # a plank's width at 800x480
FRAME = (156, 108, 60)  # honey oak
FRAME_LIGHT = (204, 156, 96)  # its edges turned to the light (top, left)
FRAME_SHADE = (100, 66, 38)  # and away from it
RECESS = (60, 39, 26)  # the holes of the arrows, the well the tiles lie in


def table_grain(width: int, height: int, scale: float, batch: Any, group: Any) -> list[shapes.ShapeBase]:
    """Planks running along the long side (the same seen from either long side of the table):
    a seam between two and a few faint grain lines in each, the same every time (a fixed seed)."""
    rng = random.Random(7)
    out: list[shapes.ShapeBase] = []
    plank = max(24.0, PLANK_PX * scale)
    seam = max(1.0, round(2 * scale))
    y = plank * 0.62  # the seams do not line up with the middle of the screen
    while y < height:
        out.append(shapes.Line(0, y, width, y, thickness=seam, color=SEAM, batch=batch, group=group))
        y += plank
    y = 0.0
    while y < height + plank:
        for _ in range(3):
            gy = y + plank * rng.uniform(0.15, 0.85)
            x0 = rng.uniform(-0.2, 0.6) * width
            x1 = x0 + rng.uniform(0.35, 0.8) * width
            tilt = rng.uniform(-0.08, 0.08) * plank
            line = shapes.Line(x0, gy, x1, gy + tilt, thickness=max(1.0, scale), color=GRAIN, batch=batch, group=group)
            out.append(line)
        y += plank
    return out
