"""Level `fair`: a computer player for mixed tables that plays about as well as the table does.

Families asked for an opponent that neither crushes a child nor bores a grown-up.
`fair` mirrors the player it faces: each turn it plays as one of four *turn
kinds*, weakest first

0. a **kind turn**: the shift that most helps the opponent furthest behind reach
   its target (belief-weighted, as `expert` reads targets), then its own pawn as
   `medium` would move it under that shift (onto its target if it can);
1. an **easy turn** and 2. a **medium turn**: as those levels decide;
3. an **expert turn**: as `expert` (search, denial, blocking a player about to win),
   spoiling the leader with its *firmness* as weight (below).

Which kind is the sum of two things, the fractional part settled by a die roll:

* how well the opponents play, read from their moves in hindsight
  (:mod:`engine.labyrinth.ai.reading`, public information only): 1 for a player who walks
  past its treasures (`easy`), 2 for one who collects when it can but does not
  plan (`medium`), 3 for one who ends ready for its next card (`hard`). Until
  the table has shown otherwise it is taken to plan: falling behind a strong
  player early cannot be made up, being ahead of a weak one is (below); and
* the score: level or one collection behind nothing (it plays at the table's
  strength), +BEHIND_STEP (a half) for each further one behind (at most +1);
  -1 per collection ahead (at most -2), times how far the table has *shown* it
  plays below expert (the reading without the leaning prior, at most 1): a
  table that has shown it plans gets no gift, a child not yet read does. Ahead,
  that step down comes as kind turns mixed into the table's own, the same kind
  on average: easy turns only slowed it and made games longer than the table's.

Its expert turns block a player about to win only while its *firmness*
(`LEVEL_STRENGTH * (1 - 2 * share of its turns it led)`, in [0, 1]) is at least
BLOCK_FROM: a table it has mostly led gets a gentler `fair`. They spoil the
leader with the firmness as weight, times how far the table reads above medium:
a table that does not plan is outrun, not spoiled (spoiling a `medium` player
made the games longer than `medium`'s own).

So it is stronger when behind and gentler when ahead, around the level of the
table: a child gets an `easy`-like opponent that lets it back in, a grown-up a
stronger one. docs/ai.md has the measured win rates and game lengths. Same seed,
same decisions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from engine.labyrinth.maze import ROTATED

from engine.labyrinth.ai.base import Deadline, View, first_ply
from engine.labyrinth.ai.bits import LINES, cells_of, shifted
from engine.labyrinth.ai.expert import ExpertAI
from engine.labyrinth.ai.greedy import EasyAI, MediumAI, distance
from engine.labyrinth.ai.reading import EVEN, Reading

if TYPE_CHECKING:
    from engine.labyrinth.ai.base import Ply

# How the game has gone: the share of its earlier turns on which it led, from a prior of 1 in 3.
# Its firmness is LEVEL_STRENGTH * (1 - 2 * share), in [0, 1]: expert turns spoil the leader
# with the firmness as weight and block a player about to win only while it is at least
# BLOCK_FROM: a table it has mostly led gets a gentler `fair`.
AHEAD_PRIOR = (1, 3)
LEVEL_STRENGTH = 1.5
BLOCK_FROM = 0.5
# Level or one collection behind it plays at the table's strength (an earlier version that
# eased off when level lost to `hard` almost every game: medium turns against it lose), each
# further one behind makes it this much stronger (at most one kind): an expert turn beats
# medium far more surely than medium beats easy, so a little goes a long way. Ahead: this
# much gentler per collection, at most two kinds, scaled down when the table reads above medium.
BEHIND_STEP = 0.5
AHEAD_STEP = 1.0
KIND, EASY, MEDIUM, EXPERT = range(4)


class FairAI(ExpertAI):
    """As strong as the table, stronger when behind, gentler when ahead (see the module docstring)."""

    level = "fair"
    duel_denial = 1.0  # its firmness already sets how much it spoils

    def __init__(
        self,
        seed: int | None = None,
        budget: int = 30000,
        clock: Callable[[], float] | None = None,
        time_limit: float = 0.25,
    ):
        super().__init__(seed, budget=budget, clock=clock, time_limit=time_limit)
        self.kind_turns = 0  # how many kind turns it played (for tests and tuning)
        self.reading = Reading()  # how well the opponent plays, read from its moves
        self._blocking = True  # this expert turn may block a player about to win
        self._easy = EasyAI(seed)
        self._medium = MediumAI(seed)

    @staticmethod
    def lead(view: View) -> int:
        """Collections the closest opponent still needs minus its own (positive: ahead)."""
        others = view.order_after_me()
        if not others:
            return 0
        return min(view.remaining(j) for j in others) - view.remaining(view.me)

    def table_strength(self) -> float:
        """How well the opponent plays, read from its moves: 1 easy, 2 medium, 3 hard."""
        return self.reading.strength()

    def turn_kind(self, view: View) -> float:
        """The turn kind to play (KIND .. EXPERT; a fraction is settled by a die roll)."""
        if view.players == 1:
            return EXPERT  # solo: nobody to be kind to
        gap = self.lead(view)
        table = self.table_strength()
        if gap > 0:  # gentler only as far as the table has shown it plays below expert
            shown = self.reading.strength(EVEN)
            band = -min(2.0, AHEAD_STEP * gap) * min(1.0, EXPERT - shown)
        else:
            band = min(1.0, BEHIND_STEP * max(0, -gap - 1))
        return min(float(EXPERT), max(float(KIND), table + band))

    def strength(self, view: View) -> float:
        """The chance that this turn is an expert turn."""
        return max(0.0, self.turn_kind(view) - MEDIUM)

    def firmness(self) -> float:
        """LEVEL_STRENGTH * (1 - 2 * share of turns led), in [0, 1]: how much its expert
        turns spoil and block."""
        return min(1.0, max(0.0, LEVEL_STRENGTH * (1.0 - 2.0 * self.led())))

    def spoiling(self) -> float:
        """How much its expert turns spoil the leader beyond blocking a win: as far as the table
        reads above medium (at most 1). A table that does not plan is outrun, not spoiled."""
        return min(1.0, max(0.0, self.table_strength() - MEDIUM))

    def led(self) -> float:
        """The share of its earlier turns (in this game) on which it led on collections."""
        memory = self.memory
        return (memory.turns_ahead + AHEAD_PRIOR[0]) / (memory.turns_seen + AHEAD_PRIOR[1])

    def decide(self, view: View, deadline: Deadline | None = None) -> tuple[str, int, int]:
        self._arm(deadline)
        self.reading.observe(view)
        kind = self._settle(view)
        if kind == EXPERT:
            firmness = self.firmness()
            self._blocking = firmness >= BLOCK_FROM
            self.denial = firmness * self.spoiling()
            choice = super().decide(view, self._deadline)
        elif kind == KIND:
            self.kind_turns += 1
            choice = self._kind(view)
        else:
            choice = self._simple(view, self._easy if kind == EASY else self._medium)
        faced = self.memory.faced()
        if faced is not None:
            # With one collection left to win, the opponent's best turn is a block, not its card.
            self.reading.chose(*faced, judged=view.remaining(view.me) > 1)
        return choice

    def _settle(self, view: View) -> int:
        """The kind of this turn: the turn kind, its fraction settled by a die roll. Ahead, the
        gentleness comes as kind turns mixed into the table's own (the same average kind): a
        kind turn helps the trailing player and costs its own race little, where easy turns
        only slowed it and made the games longer than the table's own."""
        level = self.turn_kind(view)
        table = self.table_strength()
        if level < table and self.lead(view) > 0:
            if self.rng.random() < (table - level) / table:
                return KIND
            level = table
        kind = int(level)
        if level > kind and self.rng.random() < level - kind:
            kind += 1
        return kind

    def _simple(self, view: View, player: EasyAI | MediumAI) -> tuple[str, int, int]:
        """A turn as `easy` or `medium` would play it (the memory still takes it in)."""
        self.work = 0
        self.memory.observe(view)
        name, rotation, cell = player.decide(view)
        line = LINES[name]
        mask = ROTATED[view.maze.spare_mask][rotation]
        self.memory.chose(view, line, mask, cell, shifted(view.board, line, mask))
        return name, rotation, cell

    def _threats(self, view: View, options: list[Ply]) -> tuple[list[float], list[float]]:
        total, danger = super()._threats(view, options)
        if not self._blocking:
            danger = [0.0] * len(danger)  # gentle: lets a player it has mostly led win
        return total, danger

    def _racing(self, view: View) -> bool:
        """Gentle: no round played out in the race home either (that is how `expert` blocks a
        player heading home two seats away); with two players never (its duel stays as measured)."""
        return self._blocking and view.players > 2 and super()._racing(view)

    def _kind(self, view: View) -> tuple[str, int, int]:
        """The shift that most helps the trailing opponent (of those, one that lets its own pawn
        get closest to its target); then its own pawn as `medium` would move it under that
        shift (onto its target if it can, else closest to it)."""
        self.work = 0
        self.memory.observe(view)
        self._unknown = view.treasure_bits(view.unknown)
        self._prepare_beliefs(view)
        options = list(first_ply(view))
        others = view.order_after_me()
        trailing = max(others, key=lambda j: (view.remaining(j), -others.index(j)))
        help_: list[float] = []
        for o in options:
            # out of time (the decision's deadline): the shifts not looked at are left out
            help_.append(-1.0 if help_ and self._deadline.passed() else self._threat(view, o, trailing))
        best = max(help_)
        pool = [k for k, h in enumerate(help_) if h >= best - 1e-9]
        # of those, one that brings its own pawn closest: the kindness need not cost its race
        walks = {k: distance(options[k][5], options[k][6]) for k in pool}
        fewest = min(steps for steps, _near in walks.values())
        pool = [k for k in pool if walks[k][0] == fewest]
        k = pool[self.rng.randrange(len(pool))]
        line, rotation, mask, board = options[k][:4]
        near = walks[k][1]
        near_cells = cells_of(near)
        cell = near_cells[self.rng.randrange(len(near_cells))]
        self.memory.chose(view, line, mask, cell, board)
        return line.name, rotation, cell
