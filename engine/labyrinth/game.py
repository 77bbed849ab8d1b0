"""The sliding-maze game: state, legal actions, apply (docs/rules.md section 1).

In the spirit of python-chess and OpenSpiel: one mutable state object with
``legal_shifts()``, ``reachable()``, ``apply(action)``, ``copy()`` and
``to_dict()`` / ``from_dict()``. An illegal action raises :class:`IllegalAction`
with a message a person can read and leaves the state unchanged.

A turn is two actions: a :class:`Shift` (mandatory) and then a :class:`Move`
(to any reachable cell, or the pawn's own cell to stay).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, Sequence

from engine.errors import IllegalAction
from engine.outcome import Outcome, Termination, most
from engine.labyrinth.maze import CELLS, INSERTIONS, OPPOSITE, ROTATED, SIZE, Maze, bits_to_cells, mask_of, openings_of
from engine.labyrinth.parts import FORMAT_VERSION, GAME_NAME, MAX_PLAYERS, MIN_PLAYERS, Phase, Player, Rules
from engine.labyrinth.tiles import DEFAULT_SEATS, FIXED_TILES, SEATS, TREASURES, movable_tiles
from engine.labyrinth.validate import game_from_dict

_TREASURE_INDEX = {t: i for i, t in enumerate(TREASURES)}


@dataclass(frozen=True)
class Shift:
    """Rotate the spare by `rotation` clockwise quarter turns, then push it in at `insertion`."""

    insertion: str
    rotation: int = 0


@dataclass(frozen=True)
class Move:
    """Move the current pawn to `cell` (row, col); the pawn's own cell means stay."""

    cell: tuple[int, int]


@dataclass(frozen=True)
class Tile:
    """A tile as a view sees it: its openings (NESW order) and its treasure, if any."""

    openings: str
    treasure: str | None = None

    def rotated(self, turns: int) -> "Tile":
        return Tile(openings_of(ROTATED[mask_of(self.openings)][turns % 4]), self.treasure)


_TILE_CACHE: dict[tuple[int, int], Tile] = {}


def _tile(mask: int, treasure: int) -> Tile:
    key = (mask, treasure)
    tile = _TILE_CACHE.get(key)
    if tile is None:
        tile = _TILE_CACHE[key] = Tile(openings_of(mask), TREASURES[treasure] if treasure >= 0 else None)
    return tile


class Board(Mapping[tuple[int, int], Tile]):
    """Read-only view of the 49 cells: ``board[(r, c)] -> Tile``."""

    __slots__ = ("_maze",)

    def __init__(self, maze: Maze):
        self._maze = maze

    def __getitem__(self, cell: tuple[int, int]) -> Tile:
        r, c = cell
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise KeyError(cell)
        i = r * SIZE + c
        return _tile(self._maze.masks[i], self._maze.treasures[i])

    def __iter__(self) -> Iterator[tuple[int, int]]:
        return iter(CELLS)

    def __len__(self) -> int:
        return SIZE * SIZE


class Game:
    """The whole state of one game. Create with :meth:`Game.new` or :meth:`Game.from_dict`."""

    __slots__ = ("rules", "maze", "players", "current", "phase", "last_insertion", "outcome", "turns", "seed")
    rules: Rules
    maze: Maze
    players: list[Player]
    current: int
    phase: Phase
    last_insertion: str | None
    outcome: Outcome | None
    turns: int
    seed: int | None

    # ---------------------------------------------------------------- setup
    @classmethod
    def new(
        cls,
        players: int = 4,
        seed: int | None = None,
        rules: Rules | None = None,
        seats: Sequence[int] | None = None,
        first: int = 0,
    ) -> "Game":
        """Set up a game (docs/rules.md 'Setup'). Every random choice comes from `seed`.

        `seats` picks the start corners (default: diagonal for 2 players);
        `first` is the index of the player who starts.
        """
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        seats = tuple(DEFAULT_SEATS[players] if seats is None else seats)
        if len(seats) != players or len(set(seats)) != players or not all(s in range(4) for s in seats):
            raise ValueError(f"seats {seats!r}: need {players} different seats out of 0-3")
        if not 0 <= first < players:
            raise ValueError(f"first player {first} does not exist with {players} players")
        rng = random.Random(seed)
        masks = [0] * (SIZE * SIZE)
        treasures = [-1] * (SIZE * SIZE)
        for (r, c), openings, treasure in FIXED_TILES:
            masks[r * SIZE + c] = mask_of(openings)
            treasures[r * SIZE + c] = _TREASURE_INDEX[treasure] if treasure else -1
        loose = movable_tiles()
        rng.shuffle(loose)
        free = [i for i, (r, c) in enumerate(CELLS) if r % 2 or c % 2]
        for i, (openings, treasure) in zip(free, loose):
            masks[i] = ROTATED[mask_of(openings)][rng.randrange(4)]
            treasures[i] = _TREASURE_INDEX[treasure] if treasure else -1
        spare_openings, spare_treasure = loose[-1]
        maze = Maze(
            masks,
            treasures,
            ROTATED[mask_of(spare_openings)][rng.randrange(4)],
            _TREASURE_INDEX[spare_treasure] if spare_treasure else -1,
        )
        rules = rules or Rules()
        deck = list(TREASURES)
        rng.shuffle(deck)
        share = len(deck) // players  # the classic deal: the whole deck shared out
        per = rules.per_player(players)  # a quick game: the first `per` of each player's share
        pawns = []
        for k, seat in enumerate(seats):
            home = SEATS[seat][1]
            pawns.append(Player(seat, home[0] * SIZE + home[1], deck[k * share : k * share + per], []))
        game = cls.__new__(cls)
        game.rules = rules
        game.maze = maze
        game.players = pawns
        game.current = first
        game.phase = Phase.SHIFT
        game.last_insertion = None
        game.outcome = None
        game.turns = 0
        game.seed = seed
        return game

    # ------------------------------------------------------------ reading
    @property
    def num_players(self) -> int:
        """How many play (``players`` lists their pawns)."""
        return len(self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning players' indexes once the game is over (ties share); () before."""
        return () if self.outcome is None else self.outcome.winners

    @property
    def winner(self) -> int | None:
        """The single winner, or None while running or when the win is shared."""
        return None if self.outcome is None else self.outcome.winner

    @property
    def board(self) -> Board:
        return Board(self.maze)

    @property
    def spare(self) -> Tile:
        return _tile(self.maze.spare_mask, self.maze.spare_treasure)

    @property
    def forbidden(self) -> str | None:
        """The insertion that would push back the previous one (the 'no push-back' rule)."""
        return OPPOSITE[self.last_insertion] if self.last_insertion else None

    @property
    def player(self) -> Player:
        """The player to act."""
        return self.players[self.current]

    def targets(self, index: int | None = None) -> frozenset[str]:
        """The treasures that player `index` (default: current) collects by ending a move on them."""
        p = self.players[self.current if index is None else index]
        if not p.cards:
            return frozenset()
        return frozenset(p.cards) if self.rules.open_cards else frozenset(p.cards[:1])

    def treasure_cell(self, treasure: str) -> tuple[int, int] | None:
        """Where a treasure's tile lies now, or None while it is the spare."""
        idx = _TREASURE_INDEX[treasure]
        try:
            return CELLS[self.maze.treasures.index(idx)]
        except ValueError:
            return None

    def legal_shifts(self) -> list[Shift]:
        """Every legal shift: each allowed insertion with each of the 4 spare rotations."""
        if self.phase != Phase.SHIFT:
            return []
        banned = self.forbidden
        return [Shift(name, rot) for name in INSERTIONS if name != banned for rot in range(4)]

    def reachable(self, cell: tuple[int, int] | None = None) -> frozenset[tuple[int, int]]:
        """Cells connected by a continuous path to `cell` (default: the current pawn)."""
        start = self.player.cell if cell is None else cell[0] * SIZE + cell[1]
        return bits_to_cells(self.maze.reach_bits(start))

    def legal_moves(self) -> list[Move]:
        if self.phase != Phase.MOVE:
            return []
        return [Move(c) for c in sorted(self.reachable())]

    def legal_actions(self) -> list[Shift | Move]:
        """Every legal action now: the shifts in phase "shift", the moves in phase "move"."""
        return self.legal_shifts() + self.legal_moves()

    def path_to(self, cell: tuple[int, int]) -> list[tuple[int, int]] | None:
        """A shortest walk of the current pawn to `cell` (both ends included), or None."""
        route = self.maze.path(self.player.cell, cell[0] * SIZE + cell[1])
        return None if route is None else [CELLS[i] for i in route]

    # ------------------------------------------------------------ acting
    def apply(self, action: Shift | Move) -> None:
        """Play a Shift or a Move for the current player. Raises IllegalAction if not allowed."""
        if self.phase == Phase.OVER:
            raise IllegalAction("The game is over: no more moves.")
        if isinstance(action, Shift):
            self._shift(action)
        elif isinstance(action, Move):
            self._move(action)
        else:
            raise IllegalAction(f"{action!r} is not a shift or a move.")

    def _shift(self, shift: Shift) -> None:
        if self.phase != Phase.SHIFT:
            raise IllegalAction("The spare has been pushed in already: now move the pawn (or stay).")
        name = shift.insertion
        if name not in OPPOSITE:
            raise IllegalAction(f"{name!r} is not an insertion point; use one of {' '.join(INSERTIONS)}.")
        if not isinstance(shift.rotation, int) or isinstance(shift.rotation, bool):
            raise IllegalAction(f"Rotation must be a whole number of quarter turns, not {shift.rotation!r}.")
        if name == self.forbidden:
            raise IllegalAction(
                f"{name} would push straight back the tile just pushed in at "
                f"{self.last_insertion}: choose another arrow."
            )
        self._push(name, shift.rotation)
        self.phase = Phase.MOVE

    def _push(self, name: str, rotation: int) -> None:
        """Shift the maze and carry pawns along (a pawn pushed out lands on the new tile)."""
        maze = self.maze
        maze.shift(name, ROTATED[maze.spare_mask][rotation % 4])
        line = _LINE_POSITIONS[name]
        for p in self.players:
            k = line.get(p.cell)
            if k is not None:
                p.cell = _LINES[name][(k + 1) % SIZE]
        self.last_insertion = name

    def _move(self, move: Move) -> None:
        if self.phase != Phase.MOVE:
            raise IllegalAction("First push the spare tile in at one of the arrows.")
        cell = move.cell
        if not isinstance(cell, tuple) or len(cell) != 2 or not all(isinstance(v, int) and 0 <= v < SIZE for v in cell):
            raise IllegalAction(f"{cell!r} is not a cell of the 7 x 7 board.")
        p = self.player
        goal = cell[0] * SIZE + cell[1]
        if not (self.maze.reach_bits(p.cell) >> goal) & 1:
            raise IllegalAction(f"The pawn cannot reach {cell}: no open path leads there.")
        p.cell = goal
        self._end_move(p)

    def _end_move(self, p: Player) -> None:
        """Collect a target the pawn ends on, check for a win, pass the turn."""
        here = self.maze.treasures[p.cell]
        if here >= 0:
            treasure = TREASURES[here]
            if treasure in self.targets():
                p.cards.remove(treasure)
                p.found.append(treasure)
                if not p.cards and not self.rules.return_home:
                    return self._finish(Termination.HOME, (self.current,))
        if not p.cards and self.rules.return_home and p.cell == p.home[0] * SIZE + p.home[1]:
            return self._finish(Termination.HOME, (self.current,))
        if self.rules.turn_limit and self.turns + 1 >= self.rules.turn_limit:
            return self._finish(Termination.TURN_LIMIT, most([len(q.found) for q in self.players]))
        self.turns += 1
        self.current = (self.current + 1) % len(self.players)
        self.phase = Phase.SHIFT

    def _finish(self, termination: Termination, winners: tuple[int, ...]) -> None:
        """End the game (the turn that ended it counts as played; `current` stays its player)."""
        self.turns += 1
        self.outcome = Outcome(termination, winners)
        self.phase = Phase.OVER

    # ------------------------------------------------------------ copies and saves
    def copy(self) -> "Game":
        """An independent copy (cheap: for AI search)."""
        new = Game.__new__(Game)
        new.rules = self.rules
        new.maze = self.maze.copy()
        new.players = [p.copy() for p in self.players]
        new.current = self.current
        new.phase = self.phase
        new.last_insertion = self.last_insertion
        new.outcome = self.outcome
        new.turns = self.turns
        new.seed = self.seed
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable, versioned snapshot; ``Game.from_dict`` restores it exactly."""
        m = self.maze
        return {
            "game": GAME_NAME,
            "version": FORMAT_VERSION,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "board": [[openings_of(m.masks[i]), TREASURES[t] if t >= 0 else None] for i, t in enumerate(m.treasures)],
            "spare": [openings_of(m.spare_mask), TREASURES[m.spare_treasure] if m.spare_treasure >= 0 else None],
            "players": [
                {
                    "seat": p.seat,
                    "color": p.color,
                    "position": list(p.position),
                    "cards": p.cards[:],
                    "found": p.found[:],
                }
                for p in self.players
            ],
            "current": self.current,
            "phase": self.phase,
            "last_insertion": self.last_insertion,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
            "turns": self.turns,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Game":
        """Restore a snapshot; raises InvalidState naming the problem if it breaks the rules."""
        return game_from_dict(cls, data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return (
            f"<Game {len(self.players)}p turn {self.turns} {self.phase} current={self.current} winners={self.winners}>"
        )


from engine.labyrinth.maze import INSERTION_LINES as _IL  # noqa: E402

_LINES = {name: cells for name, (cells, _) in _IL.items()}
_LINE_POSITIONS = {name: {cell: k for k, cell in enumerate(cells)} for name, cells in _LINES.items()}
