"""The board game's 7x7 board on screen: its cells and the ring of 12 arrow slots around them.

The layout (kiosk/ui/kit/layout.py) gives the square in the middle of the table (``Layout.ring``,
one cell wide all round, and ``Layout.board`` in it); this is where the board game's cells and
arrows lie in it, so the screens and the tests can ask "where is arrow N3?". Row 0 is the top row.
"""

from __future__ import annotations

from engine.labyrinth.maze import INSERTIONS

from kiosk.ui.kit.layout import Layout, Rect

#: The arrows, named as the insertions they push at (N1 .. W5).
ARROWS = INSERTIONS


def cell_rect(layout: Layout, row: int, col: int) -> Rect:
    """The square of board cell (row, col). Works outside 0-6 too (the arrow slots)."""
    b, c = layout.board, layout.cell
    return Rect(b.x + col * c, b.top - (row + 1) * c, c, c)


def cell_center(layout: Layout, row: float, col: float) -> tuple[float, float]:
    b, c = layout.board, layout.cell
    return (b.x + (col + 0.5) * c, b.top - (row + 0.5) * c)


def cell_at(layout: Layout, x: float, y: float) -> tuple[int, int] | None:
    """The board cell under (x, y), or None off the board."""
    b = layout.board
    if not b.contains(x, y):
        return None
    col = int((x - b.x) // layout.cell)
    row = int((b.top - y) // layout.cell)
    return (min(row, 6), min(col, 6))


def arrow_cell(name: str) -> tuple[int, int]:
    """The virtual cell just outside the board where arrow `name` sits (and the spare previews)."""
    side, k = name[0], int(name[1])
    return {"N": (-1, k), "S": (7, k), "W": (k, -1), "E": (k, 7)}[side]


def arrow_rect(layout: Layout, name: str) -> Rect:
    return cell_rect(layout, *arrow_cell(name))


def arrow_at(layout: Layout, x: float, y: float) -> str | None:
    """The arrow slot under (x, y), or None."""
    for name in ARROWS:
        if arrow_rect(layout, name).contains(x, y):
            return name
    return None
