"""Level `fair`: a computer player for mixed tables that plays to keep the game close.

Families asked for an opponent that neither crushes a child nor bores a grown-up.
`fair` looks at the score each turn -- how many collections it still needs
against the opponent closest to winning -- and sets its strength by it:

* **behind**: it plays as `expert` (search, denial, blocking a player about to win);
* **level**: it matches the opponents' pace. It counts how often the leading
  opponent has collected per turn so far (public: cards left and turns played)
  and plays an `expert` turn with the probability that gives about that pace
  (an `expert` collects on about PACE_EXPERT of its turns); its other turns are
  *kind* turns;
* **ahead**: kind turns only. A kind turn plays the shift that most helps the
  opponent furthest behind reach its target (belief-weighted, as `expert` reads
  targets) and then walks its own pawn towards its target without taking it:
  `fair` waits for the others to catch up.

Kind turns speed the trailing player up instead of slowing the game down, so
games stay about as long as the opponent's own games (docs/ai.md has the
measured win rates and game lengths against easy, medium and hard). Same seed,
same decisions.
"""

from __future__ import annotations

from typing import Callable

from engine.tiles import TREASURES

from .base import View, first_ply
from .bits import cells_of
from .expert import ExpertAI
from .greedy import distance

EVEN_DENIAL = 0.5     # denial weight of its expert turns when level on collections
PACE_EXPERT = 0.55    # collections per turn of an expert against an expert (measured)
PACE_PRIOR = (2, 5)   # the opponents' pace starts as 2 collections in 5 turns


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

    @staticmethod
    def pace(view: View) -> float:
        """The leading opponent's collections per turn so far (public), from a modest prior."""
        others = view.order_after_me()
        if not others:
            return PACE_EXPERT
        j = min(others, key=view.remaining)
        found = len(TREASURES) // view.players - view.cards_left[j]
        turns = view.turns // view.players
        return (found + PACE_PRIOR[0]) / (turns + PACE_PRIOR[1])

    def decide(self, view: View) -> tuple[str, int, int]:
        gap = self.lead(view)
        if gap > 0 or (gap == 0 and self.rng.random() >= self.pace(view) / PACE_EXPERT):
            self.kind_turns += 1
            return self._kind(view)
        self.denial = 1.0 if gap < 0 else EVEN_DENIAL
        return super().decide(view)

    def _kind(self, view: View) -> tuple[str, int, int]:
        """The shift that most helps the trailing opponent; then a greedy move of its own."""
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
        # Towards its own target but not onto it (with every reachable cell a target: stay).
        pawn = options[k][4]
        walk = reach & ~tb or (1 << pawn)
        _d, near = distance(walk, tb)
        near_cells = cells_of(near)
        cell = near_cells[self.rng.randrange(len(near_cells))]
        self.memory.chose(view, line, mask, cell, board)
        return line.name, rotation, cell
