"""What a computer player may know, and the interface every level shares.

An AI never reads the :class:`engine.Game` directly while it thinks: ``choose``
first builds a :class:`View` holding only what the player to act could know at
the table (RULES.md: each player knows only the top card of their own pile;
with open cards, all of their own cards), and the search works on the view.
So an AI cannot peek at an opponent's hidden target or at its own next card by
accident; tests check that shuffling hidden cards never changes a decision.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator

from engine.errors import IllegalAction
from engine.labyrinth.game import Game, Move, Shift
from engine.labyrinth.parts import Phase
from engine.labyrinth.maze import CELLS, SIZE, Maze
from engine.labyrinth.tiles import TREASURES

from engine.labyrinth.ai.bits import (
    CARRY,
    LINES,
    OPPOSITE,
    ROTATIONS,
    Board,
    Line,
    bits_of,
    flood,
    shifted,
    tiles_after,
)

#: One shift of a search (:func:`plies`): line, rotation, inserted mask, board after, pawn cell
#: after, pawn reach, target cells after, target in spare after.
Ply = tuple[Line, int, int, Board, int, int, int, bool]

_T_INDEX = {t: i for i, t in enumerate(TREASURES)}


class View:
    """The position as the player to act sees it. Cells are indices r * 7 + c; sets are bitboards."""

    __slots__ = (
        "maze",
        "board",
        "me",
        "players",
        "cells",
        "homes",
        "cards_left",
        "banned",
        "targets",
        "target_bits",
        "target_in_spare",
        "unknown",
        "return_home",
        "open_cards",
        "turns",
    )

    def __init__(self, game: Game):
        if game.phase != Phase.SHIFT:
            raise IllegalAction(
                f"An AI chooses a turn at the start of it (shift phase); the game is in the {game.phase!r} phase."
            )
        rules = game.rules
        self.open_cards = rules.open_cards
        self.return_home = rules.return_home
        self.maze = game.maze.copy()
        self.board = self.maze.open_sides
        self.turns = game.turns  # turns played so far (public: tells a new game from the next turn)
        self.me = game.current
        self.players = len(game.players)
        self.cells = [p.cell for p in game.players]
        self.homes = [p.home[0] * SIZE + p.home[1] for p in game.players]
        self.cards_left = [p.cards_left for p in game.players]
        self.banned = OPPOSITE[game.last_insertion] if game.last_insertion else None
        me = game.players[self.me]
        # Known targets: the top card only, or every own card with open cards.
        known = me.cards if rules.open_cards else me.cards[:1]
        self.targets = [_T_INDEX[t] for t in known]
        found = {_T_INDEX[t] for p in game.players for t in p.found}
        # Treasures that may be on someone's hidden card (an opponent's target, or one's own next card).
        self.unknown = [i for i in range(len(TREASURES)) if i not in found and i not in self.targets]
        self.target_bits, self.target_in_spare = self.aim()

    def aim(self, maze: Maze | None = None) -> tuple[int, bool]:
        """Where the targets are (on this view's maze, or on `maze`: the maze later in a round a
        search plays out): the cells of the known cards and whether one is the spare, or once
        all are collected the start corner (a fixed tile, never moves)."""
        if self.targets:
            return self.treasure_bits(self.targets, maze)
        return (1 << self.homes[self.me]) if self.return_home else 0, False

    def treasure_bits(self, treasures: Iterable[int], maze: Maze | None = None) -> tuple[int, bool]:
        """Cells holding any of the treasures, and whether one of them is the spare (on this
        view's maze, or on `maze`)."""
        maze = self.maze if maze is None else maze
        wanted = set(treasures)
        bits = bits_of(i for i, t in enumerate(maze.treasures) if t in wanted)
        return bits, maze.spare_treasure in wanted

    def remaining(self, player: int) -> int:
        """How many collections the player still needs to win (cards, plus the way home)."""
        return self.cards_left[player] + (1 if self.return_home else 0)

    @property
    def next_player(self) -> int:
        """The player who plays right after the player to act (the one whose reply comes first)."""
        return (self.me + 1) % self.players

    def order_after_me(self) -> list[int]:
        """The other players in the order they play after the player to act."""
        return [(self.me + k) % self.players for k in range(1, self.players)]

    def seen_by(self, player: int, maze: Maze, cells: list[int], last_insertion: str, target: int | None) -> "View":
        """The view of another player at a later point of this round (`maze` and `cells` as
        they are then), its target assumed to be `target` (None: heading home). Built from
        what this view knows, so a search that plays the round out learns nothing hidden."""
        view = View.__new__(View)
        view.open_cards, view.return_home, view.turns = self.open_cards, self.return_home, self.turns
        view.maze, view.board = maze, maze.open_sides
        view.me, view.players, view.cells, view.homes = player, self.players, cells, self.homes
        view.cards_left, view.banned = self.cards_left, OPPOSITE[last_insertion]
        # Hidden from that player: every card not found yet, this view's own cards included.
        hidden = sorted(self.unknown + self.targets)
        view.targets = [] if target is None else [target]
        view.unknown = [t for t in hidden if t != target]
        view.target_bits, view.target_in_spare = view.aim()
        return view


class Deadline:
    """One decision's thinking time, read once as the decision begins. Every part of the search,
    and every opponent a search plays out, asks this same deadline, so that together they keep
    to one budget (the kiosk's clock cap; see docs/ai.md). `stop` says the answer is no longer
    wanted (the move it answers was taken back): the search then ends as if out of time.
    Without a clock and a stop it never passes: the search ends by its work budget alone."""

    __slots__ = ("clock", "ends", "stop")

    def __init__(
        self, clock: Callable[[], float] | None, seconds: float, stop: Callable[[], bool] | None = None
    ) -> None:
        self.clock = clock
        self.ends = clock() + seconds if clock is not None else 0.0
        self.stop = stop

    def passed(self) -> bool:
        if self.stop is not None and self.stop():
            return True
        return self.clock is not None and self.clock() >= self.ends


class AI:
    """Base class: ``choose(game) -> (Shift, Move)`` for the player to act.

    The returned Move is a cell the pawn can reach after the Shift is applied
    (possibly its own cell, meaning stay), so ``game.apply(shift); game.apply(move)``
    is always legal. The same seed gives the same decisions.
    """

    level = "base"
    #: the level searches, and takes ``clock`` and ``time_limit`` to cap its thinking by time
    #: (the kiosk's safety cap on a slow Pi; the search itself stops after a fixed amount of work)
    clock_capped = False

    def __init__(self, seed: int | None = None):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(
        self, game: Game, time_limit: float | None = None, stop: Callable[[], bool] | None = None
    ) -> tuple[Shift, Move]:
        """The turn for the player to act. The levels that search (``clock_capped``) think for
        `time_limit` seconds at most (default: their own) and end early once `stop()` is true."""
        view = View(game)
        self.start_clock(time_limit, stop)
        insertion, rotation, cell = self.decide(view)
        return Shift(insertion, rotation), Move(CELLS[cell])

    def start_clock(self, time_limit: float | None, stop: Callable[[], bool] | None) -> None:
        """The next decision's deadline (the levels that search read it; the others think at once)."""

    def decide(self, view: View) -> tuple[str, int, int]:
        """(insertion, rotation, destination cell index) for the position seen in `view`."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def first_ply(view: View) -> Iterator[Ply]:
    """Every distinct legal shift with the player's pawn after it (:func:`plies` from the view)."""
    return plies(
        view.board, view.maze.spare_mask, view.cells[view.me], view.target_bits, view.target_in_spare, view.banned
    )


def plies(
    board: Board, spare: int, cell: int, target_bits: int, target_in_spare: bool, banned: str | None
) -> Iterator[Ply]:
    """Every distinct legal shift (not `banned`) with a pawn on `cell` after it.

    Yields (line, rotation, inserted mask, board after, pawn cell after, pawn reach,
    target cells after, target in spare after).
    """
    for name, line in LINES.items():
        if name == banned:
            continue
        pawn = CARRY[name].get(cell, cell)
        tb, ts = tiles_after(target_bits, target_in_spare, line)
        for rotation, mask in ROTATIONS[spare]:
            after = shifted(board, line, mask)
            yield line, rotation, mask, after, pawn, flood(1 << pawn, after), tb, ts


def manhattan(a: int, b: int) -> int:
    ra, ca = divmod(a, SIZE)
    rb, cb = divmod(b, SIZE)
    return abs(ra - rb) + abs(ca - cb)
