"""The 7 x 7 maze: tiles as small integers, shifting, and reachability on bitboards.

This is the hot path of the AI and the simulation (44 shifts per position, each
followed by a reachability search), so it works on plain ints:

* a tile's openings are a 4-bit mask, N=1 E=2 S=4 W=8;
* cell (r, c) is index r * 7 + c, and a set of cells is a 49-bit integer;
* for each side the maze keeps a bitboard of the cells open on that side, updated
  incrementally by a shift, so connectivity is a handful of integer operations
  and a flood fill needs no per-cell Python loop.
"""

from __future__ import annotations

SIZE = 7
CELLS: tuple[tuple[int, int], ...] = tuple((r, c) for r in range(SIZE) for c in range(SIZE))
ALL_BITS = (1 << (SIZE * SIZE)) - 1

N, E, S, W = 1, 2, 4, 8
SIDES = "NESW"
SIDE_BITS = (N, E, S, W)
OPPOSITE_SIDE = {N: S, E: W, S: N, W: E}
# Step to the neighbour on each side, as an index difference.
SIDE_STEP = {N: -SIZE, E: 1, S: SIZE, W: -1}

_COL0 = sum(1 << (r * SIZE) for r in range(SIZE))
NOT_LAST_COL = ALL_BITS & ~(_COL0 << (SIZE - 1))


def mask_of(openings: str) -> int:
    """'NES' -> 7. Raises ValueError on letters other than N, E, S, W."""
    mask = 0
    for ch in openings:
        i = SIDES.find(ch)
        if i < 0:
            raise ValueError(f"openings {openings!r}: only the letters N, E, S, W are allowed")
        mask |= SIDE_BITS[i]
    return mask


def openings_of(mask: int) -> str:
    """7 -> 'NES' (always in NESW order)."""
    return "".join(ch for ch, bit in zip(SIDES, SIDE_BITS) if mask & bit)


def rotate_mask(mask: int, turns: int) -> int:
    """Rotate a 4-bit openings mask by clockwise quarter turns (N->E->S->W->N)."""
    turns %= 4
    return ((mask << turns) | (mask >> (4 - turns))) & 15


ROTATED = tuple(tuple(rotate_mask(m, t) for t in range(4)) for m in range(16))


def _insertions() -> dict[str, tuple[tuple[int, ...], int]]:
    """Each insertion's line of cells, in push order (entry cell first), and the index step."""
    table: dict[str, tuple[tuple[int, ...], int]] = {}
    for k in (1, 3, 5):
        table[f"N{k}"] = (tuple(r * SIZE + k for r in range(SIZE)), SIZE)
        table[f"E{k}"] = (tuple(k * SIZE + c for c in reversed(range(SIZE))), -1)
        table[f"S{k}"] = (tuple(r * SIZE + k for r in reversed(range(SIZE))), -SIZE)
        table[f"W{k}"] = (tuple(k * SIZE + c for c in range(SIZE)), 1)
    return table


INSERTION_LINES = _insertions()
INSERTIONS: tuple[str, ...] = tuple(f"{side}{k}" for side in "NESW" for k in (1, 3, 5))
OPPOSITE: dict[str, str] = {name: "SWNE"["NESW".index(name[0])] + name[1] for name in INSERTIONS}
# Bitboard of each insertion's line, for the incremental bitboard update.
_LINE_BITS = {name: sum(1 << i for i in cells) for name, (cells, _) in INSERTION_LINES.items()}


class Maze:
    """49 tiles plus the spare. Tiles are (openings mask, treasure index or -1)."""

    __slots__ = ("masks", "treasures", "spare_mask", "spare_treasure", "_open")

    def __init__(self, masks: list[int], treasures: list[int], spare_mask: int, spare_treasure: int):
        self.masks = masks
        self.treasures = treasures
        self.spare_mask = spare_mask
        self.spare_treasure = spare_treasure
        self._open = self._bitboards()

    def _bitboards(self) -> list[int]:
        """Per side (N, E, S, W), the bitboard of cells open on that side. Derived from masks."""
        boards = [0, 0, 0, 0]
        for i, m in enumerate(self.masks):
            bit = 1 << i
            if m & N:
                boards[0] |= bit
            if m & E:
                boards[1] |= bit
            if m & S:
                boards[2] |= bit
            if m & W:
                boards[3] |= bit
        return boards

    def copy(self) -> "Maze":
        new = Maze.__new__(Maze)
        new.masks = self.masks[:]
        new.treasures = self.treasures[:]
        new.spare_mask = self.spare_mask
        new.spare_treasure = self.spare_treasure
        new._open = self._open[:]
        return new

    def shift(self, insertion: str, spare_mask: int) -> None:
        """Push the spare (already in orientation `spare_mask`) in at `insertion`.

        The tile pushed out at the far end becomes the new spare, in the
        orientation it had on the board.
        """
        cells, step = INSERTION_LINES[insertion]
        masks, treasures = self.masks, self.treasures
        out = cells[-1]
        out_mask, out_treasure = masks[out], treasures[out]
        for k in range(len(cells) - 1, 0, -1):
            masks[cells[k]] = masks[cells[k - 1]]
            treasures[cells[k]] = treasures[cells[k - 1]]
        entry = cells[0]
        masks[entry] = spare_mask
        treasures[entry] = self.spare_treasure
        self.spare_mask, self.spare_treasure = out_mask, out_treasure
        line = _LINE_BITS[insertion]
        keep = ALL_BITS & ~line
        entry_bit = 1 << entry
        boards = self._open
        for side in range(4):
            board = boards[side]
            moved = board & line
            moved = (moved << step) if step > 0 else (moved >> -step)
            moved &= line
            if spare_mask & SIDE_BITS[side]:
                moved |= entry_bit
            boards[side] = (board & keep) | moved

    @property
    def open_sides(self) -> tuple[int, int, int, int]:
        """Bitboards of the cells open to the N, E, S and W (read-only; for fast searches)."""
        n, e, s, w = self._open
        return n, e, s, w

    def connections(self) -> tuple[int, int]:
        """(cells joined to their east neighbour, cells joined to their south neighbour)."""
        n, e, s, w = self._open
        return e & (w >> 1) & NOT_LAST_COL, s & (n >> SIZE)

    def reach_bits(self, start: int) -> int:
        """Bitboard of every cell connected to cell index `start` by a continuous path."""
        east, south = self.connections()
        reach = 1 << start
        while True:
            grown = (
                reach
                | ((reach & east) << 1)
                | ((reach >> 1) & east)
                | ((reach & south) << SIZE)
                | ((reach >> SIZE) & south)
            )
            if grown == reach:
                return reach
            reach = grown

    def path(self, start: int, goal: int) -> list[int] | None:
        """A shortest path of cell indices from start to goal (both included), or None."""
        if start == goal:
            return [start]
        masks = self.masks
        came = {start: start}
        frontier = [start]
        while frontier:
            nxt = []
            for i in frontier:
                m = masks[i]
                r, c = divmod(i, SIZE)
                for side, step in ((N, -SIZE), (E, 1), (S, SIZE), (W, -1)):
                    if not m & side:
                        continue
                    if (
                        (side == N and r == 0)
                        or (side == S and r == SIZE - 1)
                        or (side == W and c == 0)
                        or (side == E and c == SIZE - 1)
                    ):
                        continue
                    j = i + step
                    if j in came or not masks[j] & OPPOSITE_SIDE[side]:
                        continue
                    came[j] = i
                    if j == goal:
                        route = [j]
                        while route[-1] != start:
                            route.append(came[route[-1]])
                        return route[::-1]
                    nxt.append(j)
            frontier = nxt
        return None


def bits_to_cells(bits: int) -> frozenset[tuple[int, int]]:
    """A bitboard as a frozenset of (row, col)."""
    cells = []
    while bits:
        low = bits & -bits
        cells.append(CELLS[low.bit_length() - 1])
        bits ^= low
    return frozenset(cells)
