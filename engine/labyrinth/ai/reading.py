"""Reading an opponent's strength from its moves, in hindsight, from public information only.

A grown-up at a family table soon sees how well the others play: does the child
walk past its treasure? does the other grown-up always seem to be one step from
the next one? The same can be read at the table without seeing anyone's cards,
because a collected card is shown: once an opponent collects treasure T, T was
its target on every one of its turns since its previous collection, and those
turns can be judged:

* **missed**: on a turn where some legal shift would have let it reach T, it did
  not collect (a careless or young player; `easy` overlooks targets);
* **ready**: on a turn where it could not collect, it ended its move where one of
  its next shifts would reach T (a player who plans a turn ahead, as `hard` does;
  `medium` only walks as close as the walls-ignored distance allows);
* **closest**: on such a turn, it ended as close to T (walls ignored) as any
  shift and walk allowed (a player who walks towards its treasure but does not
  plan, as `medium`; `easy` often settles for less, `hard` for a ready cell).

:class:`Reading` keeps these counts for the next opponent of a 2-player game (where
the position it faced is known exactly: the one left by one's own move) and turns
them into an estimated strength on the scale easy = 1, medium = 2, hard = 3: the
expected level when each of three reference players (easy, medium, hard) is
weighted by its prior and by how likely it was to play the judged turns so. At
first hard is thought the likeliest (falling behind a planner early costs the
game, being ahead of a weaker player is made up by gentler turns). A few turns
settle it, because one turn says a lot (a planner ends ready 95% of the time,
`medium` about half), where an average of rates behind a prior takes most of a
game. With more players it stays at the prior (2.7). Nothing hidden is read:
the positions are the ones seen at the table and T is the revealed card.
"""

from __future__ import annotations

from math import exp, log

from engine.labyrinth.maze import Maze

from engine.labyrinth.ai.base import View, plies
from engine.labyrinth.ai.bits import serving
from engine.labyrinth.ai.greedy import distance

# Reference players (docs/ai.md): the share of collectable turns it misses (easy 0.21 over 30
# games against `medium`; medium and hard missed none, SLIP allows the odd one), and of the
# non-collecting turns the share that end ready and the share that end closest, read by `fair`
# over 30 games against each (ready: easy 0.42, medium 0.40, hard 0.97; closest: easy 0.67,
# medium 1.00, hard 0.09).
MISS_EASY = 0.2
SLIP = 0.02
READY_WALKER = 0.4
READY_HARD = 0.95
CLOSEST_EASY = 0.67
CLOSEST_HARD = 0.1
# easy, medium, hard: (misses, ready, closest)
REFERENCE = (
    (MISS_EASY, READY_WALKER, CLOSEST_EASY),
    (SLIP, READY_WALKER, 1.0 - SLIP),
    (SLIP, READY_HARD, CLOSEST_HARD),
)
# Prior weights of easy, medium and hard: a stranger is taken to plan until it shows otherwise
# (one turn it ends unready takes hard's weight down tenfold against medium's); strength 2.7.
PRIOR = (1.0, 1.0, 8.0)
EVEN = (1.0, 1.0, 1.0)  # no leaning: what the turns seen so far show (2 without evidence)


def tile_of(maze: Maze, treasure: int) -> tuple[int, bool]:
    """(the cell bit of `treasure`'s tile or 0, whether it is the spare)."""
    cells = [c for c, t in enumerate(maze.treasures) if t == treasure]
    return (1 << cells[0] if cells else 0), maze.spare_treasure == treasure


def can_reach(maze: Maze, pawn: int, treasure: int, banned: str | None) -> bool:
    """Whether a pawn on `pawn` could stand on `treasure`'s tile after some legal shift."""
    bits, in_spare = tile_of(maze, treasure)
    if not bits and not in_spare:
        return False
    need = 1 << pawn
    return bool(serving(maze.open_sides, bits, in_spare, maze.spare_mask, banned, need)[0] & need)


def closest_steps(maze: Maze, pawn: int, treasure: int, banned: str | None) -> int:
    """The fewest steps (walls ignored) between `treasure`'s tile and a cell the pawn can walk
    to after some legal shift: where a player who walks towards its target would end."""
    bits, in_spare = tile_of(maze, treasure)
    return min(
        distance(ply[5], ply[6])[0] for ply in plies(maze.open_sides, maze.spare_mask, pawn, bits, in_spare, banned)
    )


def _log_likelihood(hits: int, of: int, rate: float) -> float:
    """Log-chance that a player who does something at `rate` did it `hits` times in `of`."""
    return hits * log(rate) + (of - hits) * log(1.0 - rate)


class Reading:
    """Hindsight counts of one opponent's play (2 players); restart with a new game."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        self.chances = 0  # turns on which its (later revealed) target was collectable
        self.misses = 0  # ... and it did not collect
        self.plans = 0  # turns on which it could not collect ...
        self.ready = 0  # ... and ended ready to collect next turn
        self.closest = 0  # ... and ended as close to it as it could (walls ignored)
        # positions it faced since its last card, and whether that turn may be judged
        self._faced: list[tuple[Maze, int, str | None, bool]] = []
        self._left: list[tuple[Maze, int]] = []  # positions its moves left
        self._unknown: set[int] = set()
        self._cards = -1
        self._turns = -1

    def observe(self, view: View) -> None:
        """At the start of one's own turn: take in the opponent's last move."""
        if view.players != 2:
            return
        j = 1 - view.me
        if view.turns <= self._turns or view.cards_left[j] > self._cards >= 0:
            self._reset()  # a new game began
        self._turns = view.turns
        unknown = set(view.unknown)
        if self._cards >= 0 and self._faced:
            self._left.append((view.maze.copy(), view.cells[j]))
            if view.cards_left[j] < self._cards:
                found = (self._unknown - unknown) - set(view.targets)
                if len(found) == 1:
                    self._judge(found.pop())
                self._faced, self._left = [], []
        self._unknown = unknown
        self._cards = view.cards_left[j]

    def chose(self, maze_after: Maze, opponent_cell: int, banned: str | None, judged: bool = True) -> None:
        """After one's own move: the position the opponent faces now. `judged` False: a turn
        that says nothing about its play (it had to block a player about to win, not collect)."""
        if self._cards >= 0:
            self._faced.append((maze_after, opponent_cell, banned, judged))

    def _judge(self, treasure: int) -> None:
        last = len(self._faced) - 1
        for k, (maze, pawn, banned, judged) in enumerate(self._faced):
            if k == last:
                self.chances += 1  # the turn it collected
                break
            if not judged:
                continue
            if can_reach(maze, pawn, treasure, banned):
                self.chances += 1
                self.misses += 1
            elif k < len(self._left):
                self.plans += 1
                left_maze, cell = self._left[k]
                self.ready += can_reach(left_maze, cell, treasure, None)
                steps, _near = distance(1 << cell, tile_of(left_maze, treasure)[0])
                self.closest += steps <= closest_steps(maze, pawn, treasure, banned)

    def strength(self, prior: tuple[float, float, float] = PRIOR) -> float:
        """Estimated strength: 1 plays like easy, 2 like medium, 3 like hard (no evidence: 2.7).

        The expected level under the posterior over the three reference players (from PRIOR):
        each judged turn multiplies a level's weight by how likely that level plays it so."""
        counts = ((self.misses, self.chances), (self.ready, self.plans), (self.closest, self.plans))
        logs = [
            log(weight) + sum(_log_likelihood(k, n, rate) for (k, n), rate in zip(counts, rates))
            for rates, weight in zip(REFERENCE, prior)
        ]
        top = max(logs)
        weights = [exp(x - top) for x in logs]
        return sum(level * w for level, w in enumerate(weights, 1)) / sum(weights)
