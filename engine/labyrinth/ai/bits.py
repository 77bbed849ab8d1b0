"""Bitboard tools the AI searches with: a shift, a flood fill and their inverses on plain ints.

The engine's :class:`engine.labyrinth.maze.Maze` keeps, per side, a 49-bit board of the
cells open on that side. A search only needs those four ints, so here a board is
the tuple ``(n, e, s, w)`` and a shift builds a new tuple without copying tile
lists. Three more things move with a shift and have their own helpers:

* tiles (a treasure rides on its tile; the tile pushed out becomes the spare,
  the spare enters at the entry cell) -- :func:`tiles_after`, :func:`tiles_before`;
* pawns (a pawn pushed out lands on the entry cell) -- :data:`CARRY`,
  :func:`pawns_before`;
* the spare's openings (the tile pushed out) -- :func:`tile_mask_after`.

Every function here is pure and works on ints, so one search step costs a few
microseconds; the per-level players in this package are built from them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.labyrinth.maze import (
    INSERTION_LINES,
    INSERTIONS,
    NOT_LAST_COL,
    OPPOSITE,
    ROTATED,
    SIZE,
    ALL_BITS,
)

__all__ = [
    "INSERTIONS",
    "OPPOSITE",
    "LINES",
    "CARRY",
    "ROTATIONS",
    "shifted",
    "flood",
    "tiles_after",
    "tiles_before",
    "pawns_before",
    "bits_of",
    "cells_of",
    "tile_mask_after",
    "dilate",
    "each_ready",
    "ready_cells",
    "serving",
    "each_reply",
]


#: A search's board: per side (n, e, s, w), the 49-bit board of the cells open on that side.
Board = tuple[int, int, int, int]


class Line:
    """One insertion's geometry, precomputed: the cells it pushes and the bit tricks to move them."""

    __slots__ = ("name", "cells", "bits", "keep", "entry", "out", "ls", "rs", "entry_cell", "out_cell")

    def __init__(self, name: str):
        cells, step = INSERTION_LINES[name]
        self.name = name
        self.cells = cells
        self.bits = sum(1 << c for c in cells)
        self.keep = ALL_BITS & ~self.bits
        self.entry_cell, self.out_cell = cells[0], cells[-1]
        self.entry, self.out = 1 << cells[0], 1 << cells[-1]
        # Moving a bit one cell along the push direction is (b << ls) >> rs.
        self.ls, self.rs = (step, 0) if step > 0 else (0, -step)


LINES: dict[str, Line] = {name: Line(name) for name in INSERTIONS}

# Where a pawn standing on a cell ends up after a shift (pushed out -> lands on the entry cell).
CARRY: dict[str, dict[int, int]] = {
    name: {line.cells[k]: line.cells[(k + 1) % SIZE] for k in range(SIZE)} for name, line in LINES.items()
}

# The distinct orientations of a tile: (rotation in quarter turns, resulting openings mask).
# A straight tile has 2, corners and T-junctions 4, so a search skips duplicate shifts.
ROTATIONS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((r, m) for r, m in enumerate(ROTATED[mask]) if m not in ROTATED[mask][:r]) for mask in range(16)
)


def shifted(board: tuple[int, int, int, int], line: Line, mask: int) -> tuple[int, int, int, int]:
    """The (n, e, s, w) open-side boards after pushing a tile with openings `mask` in at `line`."""
    bits, keep, ls, rs, entry = line.bits, line.keep, line.ls, line.rs, line.entry
    n, e, s, w = board
    n = (n & keep) | ((((n & bits) << ls) >> rs) & bits) | (entry if mask & 1 else 0)
    e = (e & keep) | ((((e & bits) << ls) >> rs) & bits) | (entry if mask & 2 else 0)
    s = (s & keep) | ((((s & bits) << ls) >> rs) & bits) | (entry if mask & 4 else 0)
    w = (w & keep) | ((((w & bits) << ls) >> rs) & bits) | (entry if mask & 8 else 0)
    return n, e, s, w


def flood(start: int, board: tuple[int, int, int, int]) -> int:
    """Every cell connected by a continuous path to any cell of the bitboard `start`."""
    n, e, s, w = board
    east = e & (w >> 1) & NOT_LAST_COL
    south = s & (n >> SIZE)
    west = east << 1
    north = south << SIZE
    reach = start
    while True:
        grown = (
            reach
            | ((reach & east) << 1)
            | ((reach & west) >> 1)
            | ((reach & south) << SIZE)
            | ((reach & north) >> SIZE)
        )
        if grown == reach:
            return reach
        reach = grown


def tiles_after(bits: int, in_spare: bool, line: Line) -> tuple[int, bool]:
    """Where a set of tiles lies after a shift: (cells, whether one of them is now the spare)."""
    moved = (((bits & line.bits) << line.ls) >> line.rs) & line.bits
    return (bits & line.keep) | moved | (line.entry if in_spare else 0), bool(bits & line.out)


def tiles_before(bits: int, line: Line) -> tuple[int, bool]:
    """The inverse: which cells' tiles (and whether the spare) end up on `bits` after the shift."""
    back = (((bits & line.bits) << line.rs) >> line.ls) & line.bits
    return (bits & line.keep) | back, bool(bits & line.entry)


def pawns_before(bits: int, line: Line) -> int:
    """The cells from which a pawn is carried onto `bits` by the shift."""
    back = (((bits & line.bits) << line.rs) >> line.ls) & line.bits
    return (bits & line.keep) | back | (line.out if bits & line.entry else 0)


def tile_mask_after(masks: list[int], line: Line, inserted: int, cell: int) -> int:
    """The openings of the tile on `cell` after pushing `inserted` in at `line` (masks: before)."""
    if not (line.bits >> cell) & 1:
        return masks[cell]
    if cell == line.entry_cell:
        return inserted
    k = line.cells.index(cell)
    return masks[line.cells[k - 1]]


def each_reply(masks: list[int], line: Line, inserted: int) -> Iterator[tuple[Line, int, tuple[tuple[int, int], ...]]]:
    """The next player's answers to pushing `inserted` in at `line` (masks: before it): every
    line but the one that undoes the push, with the tile that line would push out and the
    distinct rotations of the tile it pushes in (the one this push pushed out)."""
    spare = masks[line.out_cell]
    undo = OPPOSITE[line.name]
    for name, reply in LINES.items():
        if name != undo:
            yield reply, tile_mask_after(masks, line, inserted, reply.out_cell), ROTATIONS[spare]


def each_ready(
    board: tuple[int, int, int, int], tb: int, ts: bool, spare: int, banned: str | None = None
) -> Iterator[int]:
    """For each shift of the next turn (every line but `banned`, each distinct rotation of the
    spare), in turn: the cells from which a pawn would reach one of the tiles (tb, and the
    spare's if ts) after that shift -- one flood fill from the tiles, mapped back through the
    shift. 0 where the tiles are not on the board after that shift (no flood fill made; a
    flood fill never gives 0: it holds the tiles' own cells)."""
    for name, line in LINES.items():
        if name == banned:
            continue
        tb2, _ = tiles_after(tb, ts, line)
        for _r, mask in ROTATIONS[spare]:
            yield pawns_before(flood(tb2, shifted(board, line, mask)), line) if tb2 else 0


def ready_cells(
    board: tuple[int, int, int, int], tb: int, ts: bool, spare: int, banned: str | None = None
) -> list[int]:
    """:func:`each_ready` for every next shift, as a list."""
    return list(each_ready(board, tb, ts, spare, banned))


def serving(
    board: tuple[int, int, int, int], tb: int, ts: bool, spare: int, banned: str | None, need: int
) -> tuple[int, int]:
    """The cells from which a pawn would reach one of the tiles after some shift of the next
    turn (:func:`each_ready`), found shift by shift until every cell of `need` is among them;
    and the flood fills that took."""
    served = floods = 0
    for ready in each_ready(board, tb, ts, spare, banned):
        if ready:
            served |= ready
            floods += 1
            if served & need == need:
                break
    return served, floods


def bits_of(cells: Iterable[int]) -> int:
    """A bitboard from cell indices."""
    b = 0
    for c in cells:
        b |= 1 << c
    return b


def cells_of(bits: int) -> list[int]:
    """Cell indices of a bitboard, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def dilate(bits: int) -> int:
    """Grow a bitboard by one step in the four directions, ignoring walls (a distance ring)."""
    return (
        bits
        | ((bits << 1) & ~_COL0 & ALL_BITS)
        | ((bits >> 1) & NOT_LAST_COL)
        | ((bits << SIZE) & ALL_BITS)
        | (bits >> SIZE)
    )


_COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
