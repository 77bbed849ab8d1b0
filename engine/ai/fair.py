"""Level `fair`: a computer player for mixed tables that plays to keep the game close.

Families asked for an opponent that neither crushes a child nor bores a grown-up.
`fair` looks at the score each turn -- its lead in collections over the opponent
closest to winning (negative when behind) -- and at how the game has gone so far
(on how many of its turns it led), and mixes two kinds of turn:

* an **expert turn** (search, denial, blocking a player about to win): always
  when behind, never when ahead, and when level with a probability that falls
  with the share of its earlier turns on which it led (its *firmness*:
  LEVEL_STRENGTH times one minus twice that share, in [0, 1]). Its expert
  turns spoil the leader's chances with the firmness as weight and block a
  player about to win only while the firmness is at least BLOCK_FROM. So it is
  stronger when behind, gentler when ahead, and matched to the table: against
  players it keeps leading (a child) it plays fewer and kinder expert turns
  than against players it trails;
* a **kind turn**: the shift that most helps the opponent furthest behind reach
  its target (belief-weighted, as `expert` reads targets), then its own pawn as
  `medium` would move it under that shift (onto its target if it can).

Both kinds of turn keep collecting, and kind turns speed the trailing player up,
so games stay as short as the opponent's own games (docs/ai.md has the measured
win rates and game lengths against easy, medium and hard). Same seed, same
decisions.
"""

from __future__ import annotations

from typing import Callable

from .base import View, first_ply
from .bits import cells_of
from .expert import ExpertAI
from .greedy import distance

# How the game has gone: the share of its earlier turns on which it led, from a prior of 1 in 3.
# When level on collections, the chance of an expert turn is LEVEL_STRENGTH * (1 - 2 * share);
# expert turns spoil the leader with weight LEVEL_STRENGTH * (1 - 2 * share) (at most 1) and
# block a player about to win only while that weight is at least BLOCK_FROM: a table it has
# mostly led gets a gentler `fair`, one it has trailed a full-strength one.
AHEAD_PRIOR = (1, 3)
LEVEL_STRENGTH = 1.5
BLOCK_FROM = 0.5


class FairAI(ExpertAI):
    """Expert when behind, kind when ahead (see the module docstring)."""

    level = "fair"

    def __init__(self, seed: int | None = None, budget: int = 30000,
                 clock: Callable[[], float] | None = None, time_limit: float = 0.25):
        super().__init__(seed, budget=budget, clock=clock, time_limit=time_limit)
        self.kind_turns = 0    # how many kind turns it played (for tests and tuning)

    @staticmethod
    def lead(view: View) -> int:
        """Collections the closest opponent still needs minus its own (positive: ahead)."""
        others = view.order_after_me()
        if not others:
            return 0
        return min(view.remaining(j) for j in others) - view.remaining(view.me)

    def strength(self, view: View) -> float:
        """The chance that this turn is an expert turn (the rest are kind turns)."""
        if view.players == 1:
            return 1.0          # solo: nobody to be kind to
        gap = self.lead(view)
        if gap != 0:
            return 1.0 if gap < 0 else 0.0
        return self.firmness()

    def firmness(self) -> float:
        """LEVEL_STRENGTH * (1 - 2 * share of turns led), in [0, 1]: how hard it plays when
        level, and how much its expert turns spoil and block."""
        return min(1.0, max(0.0, LEVEL_STRENGTH * (1.0 - 2.0 * self.led())))

    def led(self) -> float:
        """The share of its earlier turns (in this game) on which it led on collections."""
        memory = self.memory
        return (memory.turns_ahead + AHEAD_PRIOR[0]) / (memory.turns_seen + AHEAD_PRIOR[1])

    def decide(self, view: View) -> tuple[str, int, int]:
        strength = self.strength(view)
        if strength < 1.0 and self.rng.random() >= strength:
            self.kind_turns += 1
            return self._kind(view)
        self.denial = self.firmness()
        return super().decide(view)

    def _threats(self, view: View, options) -> tuple[list[float], list[float]]:
        total, danger = super()._threats(view, options)
        if self.denial < BLOCK_FROM:
            danger = [0.0] * len(danger)      # gentle: lets a player it has mostly led win
        return total, danger

    def _kind(self, view: View) -> tuple[str, int, int]:
        """The shift that most helps the trailing opponent; then its own pawn as `medium` would
        move it under that shift (onto its target if it can, else closest to it)."""
        self.work = 0
        self.memory.observe(view)
        self._unknown = view.treasure_bits(view.unknown)
        self._prepare_beliefs(view)
        options = list(first_ply(view))
        others = view.order_after_me()
        trailing = max(others, key=lambda j: (view.remaining(j), -others.index(j)))
        help_ = [self._threat(view, o, trailing) for o in options]
        best = max(help_)
        pool = [k for k, h in enumerate(help_) if h >= best - 1e-9]
        k = pool[self.rng.randrange(len(pool))]
        line, rotation, mask, board, _pawn, reach, tb, _ts = options[k]
        _d, near = distance(reach, tb)
        near_cells = cells_of(near)
        cell = near_cells[self.rng.randrange(len(near_cells))]
        self.memory.chose(view, line, mask, cell, board)
        return line.name, rotation, cell
