"""The exhaustive search behind every puzzle: the fewest turns from a position to the target.

A turn is the board game's shift then walk (docs/rules.md section 1). The search
works on the board engine's bitboards (engine.labyrinth.ai.bits) and keeps, for
a sequence of shifts, the *set* of cells the pawn can stand on after its walks:
the boards depend only on the shifts, and the walk of each turn may end anywhere
that set's flood fill reaches, so "some sequence of walks ends on the target" is
exactly "the set meets the target". That makes the search a tree over shifts
alone (about 44 per turn, fewer where a straight tile's rotations coincide),
with no branching over walks: three turns are some 85 000 flood fills.

Positions met again at the same or a smaller remaining depth are skipped (a
table of failed searches), so shifts that commute are searched once.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.labyrinth.ai.bits import LINES, OPPOSITE, ROTATIONS, Line, flood, shifted, tiles_after
from engine.labyrinth.game import Game, Move, Shift
from engine.labyrinth.maze import CELLS, SIZE
from engine.labyrinth.tiles import TREASURES

#: The puzzles' one computer level: it plays a shortest solution (and gives the hints).
LEVELS = ("solver",)
#: The deepest search the kiosk makes: puzzles are generated with an optimum of at most this.
MAX_DEPTH = 3

Board = tuple[int, int, int, int]


@dataclass(frozen=True)
class Position:
    """What the search needs of a position: open sides, the spare, the target's tile, the pawn."""

    board: Board
    spare: int  # the spare's openings mask, as it lies
    target: int  # bitboard of the target's tile (0 while it is the spare)
    target_spare: bool  # the target's tile is the spare
    pawns: int  # bitboard of the cells the pawn may stand on
    banned: str | None  # the insertion the no-push-back rule forbids


def position(game: Game, target: str) -> Position:
    """The search's view of `game` (its current player in the shift phase) heading for `target`."""
    maze = game.maze
    idx = TREASURES.index(target)
    on = maze.treasures.index(idx) if idx in maze.treasures else -1
    return Position(
        maze.open_sides,
        maze.spare_mask,
        (1 << on) if on >= 0 else 0,
        on < 0,
        1 << game.player.cell,
        game.forbidden,
    )


def _mask_at(board: Board, cell: int) -> int:
    n, e, s, w = board
    return ((n >> cell) & 1) | (((e >> cell) & 1) << 1) | (((s >> cell) & 1) << 2) | (((w >> cell) & 1) << 3)


def _carried(pawns: int, line: Line) -> int:
    """Where pawns stand after the shift along `line` (a pawn pushed out lands on the entry cell)."""
    moved = (((pawns & line.bits) << line.ls) >> line.rs) & line.bits
    return (pawns & line.keep) | moved | (line.entry if pawns & line.out else 0)


def step(pos: Position, name: str, mask: int, walk: int | None = None) -> Position:
    """The position after pushing a tile turned to `mask` in at `name`, then walking anywhere
    (`walk` None: the whole flood fill) or to the cells of the bitboard `walk`."""
    line = LINES[name]
    board = shifted(pos.board, line, mask)
    target, target_spare = tiles_after(pos.target, pos.target_spare, line)
    pawns = flood(_carried(pos.pawns, line), board) if walk is None else walk
    return Position(board, _mask_at(pos.board, line.out_cell), target, target_spare, pawns, OPPOSITE[name])


def shifts(pos: Position) -> list[tuple[str, int, int]]:
    """Every distinct shift of `pos`: (insertion, rotation, the inserted tile's mask)."""
    return [(name, r, mask) for name in LINES if name != pos.banned for r, mask in ROTATIONS[pos.spare]]


class Search:
    """Bounded searches from positions, sharing one table of failures."""

    def __init__(self) -> None:
        self._failed: dict[Position, int] = {}
        self.nodes = 0  # flood fills made (the cost the bench and the generator report)

    def within(self, pos: Position, depth: int) -> bool:
        """True when the pawn can end a walk on the target in at most `depth` turns from `pos`."""
        if depth <= 0:
            return False
        known = self._failed.get(pos)
        if known is not None and known >= depth:
            return False
        board, spare, target, target_spare, pawns = pos.board, pos.spare, pos.target, pos.target_spare, pos.pawns
        children: list[Position] = []
        for name, line in LINES.items():
            if name == pos.banned:
                continue
            target2, spare2_target = tiles_after(target, target_spare, line)
            carried = _carried(pawns, line)
            out_mask = _mask_at(board, line.out_cell)
            for _r, mask in ROTATIONS[spare]:
                board2 = shifted(board, line, mask)
                reach = flood(carried, board2)
                self.nodes += 1
                if reach & target2:
                    return True
                if depth > 1:
                    children.append(Position(board2, out_mask, target2, spare2_target, reach, OPPOSITE[name]))
        for child in children:
            if self.within(child, depth - 1):
                return True
        self._failed[pos] = max(depth, self._failed.get(pos, 0))
        return False

    def optimum(self, pos: Position, limit: int = MAX_DEPTH) -> int | None:
        """The fewest turns to the target (1 to `limit`), or None when it takes more."""
        for depth in range(1, limit + 1):
            if self.within(pos, depth):
                return depth
        return None

    def good_first_shifts(self, pos: Position, best: int) -> list[tuple[str, int]]:
        """The first shifts (insertion, rotation) after which the target can still be reached in
        `best` turns in all: the puzzle's grade counts them (few: a hard puzzle)."""
        good = []
        for name, r, mask in shifts(pos):
            after = step(pos, name, mask)
            if after.pawns & after.target or self.within(after, best - 1):
                good.append((name, r))
        return good


def optimum(game: Game, target: str, limit: int = MAX_DEPTH) -> int | None:
    """The fewest turns from `game` (current player, shift phase) to a walk ending on `target`."""
    return Search().optimum(position(game, target), limit)


def best_turn(game: Game, target: str, limit: int = MAX_DEPTH + 2) -> tuple[Shift, Move]:
    """A shift and a walk from which the target is reached in the fewest turns (the solver seat,
    and a hint). Beyond `limit` turns: the shift that brings the pawn closest to the target."""
    pos = position(game, target)
    search = Search()
    best = search.optimum(pos, limit)
    for name, r, mask in shifts(pos):
        after = step(pos, name, mask)
        cells = after.pawns
        if best is None:
            continue
        if after.pawns & after.target:
            return Shift(name, r), Move(CELLS[(after.pawns & after.target).bit_length() - 1])
        for cell in _cells(cells):
            if search.within(step(pos, name, mask, walk=1 << cell), best - 1):
                return Shift(name, r), Move(CELLS[cell])
    return _closest(game, target)


def _cells(bits: int) -> list[int]:
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _closest(game: Game, target: str) -> tuple[Shift, Move]:
    """No solution in reach: the shift and walk that end nearest the target's tile."""
    pos = position(game, target)
    best: tuple[int, Shift, Move] | None = None
    for name, r, mask in shifts(pos):
        after = step(pos, name, mask)
        goal = after.target.bit_length() - 1 if after.target else LINES[name].out_cell
        gr, gc = divmod(goal, SIZE)
        for cell in _cells(after.pawns):
            cr, cc = divmod(cell, SIZE)
            d = abs(cr - gr) + abs(cc - gc)
            if best is None or d < best[0]:
                best = (d, Shift(name, r), Move(CELLS[cell]))
    assert best is not None  # a position always has shifts
    return best[1], best[2]
