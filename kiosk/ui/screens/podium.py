"""The podium every game's result screen can stand its players on (docs/art.md "Game over").

Each player gets a wooden block, side by side with the best in the middle (2-1-3-4...), the
winners' the tallest and rimmed in gold; players who did equally well share a step. What stands on
a block and what is written on its front is each game's own (the board game: a pawn and the
treasures found; the card game: a seat token and the cards taken). Sizes are design units of
kiosk/ui/kit/menu.py's Canvas (800x480).
"""

from __future__ import annotations

from typing import Any, Hashable, Sequence

from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import Canvas, panel
from kiosk.ui.kit.widgets import ACCENT, PANEL_EDGE, Frame, box

GAP = 10.0  # between two blocks
BLOCK_W = 230  # a block's widest
NAME_W = 130  # a colour name and the winner's star at the body size ("Vermelho  \u2605")
BLOCK_TOP = (150, 112, 76)  # a block's lit top edge


def places(keys: Sequence[Hashable]) -> list[int]:
    """Each player's step (0: the top) from sort keys, smaller first; equal keys share a step."""
    steps = sorted(set(keys))  # type: ignore[type-var]
    return [steps.index(k) for k in keys]


def fits(n: int, width: float) -> bool:
    """Whether `n` blocks side by side in `width` units leave each room for a name at the body size."""
    return (width - GAP * (n - 1)) / max(1, n) >= NAME_W + 12


def block_width(area: Rect, n: int) -> float:
    """A block's width for `n` players in `area` (one player alone: most of it)."""
    return min(BLOCK_W, (area.w - GAP * (n - 1)) / n) if n > 1 else area.w * 0.8


def blocks(area: Rect, steps: Sequence[int], standing: float, shortest: float) -> list[Rect]:
    """Each player's block in `area` (units), in player order: the best in the middle, then
    alternating outwards by step; `standing` units above the tallest are left for what stands on
    it, and the lowest step is `shortest` units tall (the rest between them in equal steps)."""
    n = len(steps)
    ranked = sorted(range(n), key=lambda i: (steps[i], i))
    order = [ranked[1], ranked[0], *ranked[2:]] if n > 1 else ranked
    bw = block_width(area, n)
    x0 = area.x + (area.w - (bw * n + GAP * (n - 1))) / 2
    tallest = area.h - standing
    step = max(0.0, (tallest - shortest) / max(1, max(steps, default=0)))
    out = [Rect(0, 0, 0, 0)] * n
    for k, i in enumerate(order):
        out[i] = Rect(x0 + k * (bw + GAP), area.y, bw, tallest - step * steps[i])
    return out


def draw_block(c: Canvas, frame: Frame, block: Rect, winner: bool, batch: Any, group: Any) -> list[Any]:
    """One wooden block (units): a tray's wood with its rim gold for a winner, its top turned to the light."""
    out = panel(frame, c.r(*block), batch, group, edge=ACCENT if winner else PANEL_EDGE, radius=c.px(10))
    lit = Rect(block.x + 4, block.top - 8, block.w - 8, 4)
    out.append(box(frame, c.r(*lit), BLOCK_TOP, batch, group, radius=c.px(2)))
    return out
