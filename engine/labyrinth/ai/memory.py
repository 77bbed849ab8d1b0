"""What a computer player remembers between its own turns: repeated positions and what the
opponents' moves give away about their hidden targets.

A person at the table notices when the same position comes back again and again,
and watches where the others walk. Both are public information (the board, the
pawns, the number of cards left), so a player that remembers them still never
sees a hidden card. :class:`Memory` is fed one :class:`engine.labyrinth.ai.base.View` per
decision of its own player and keeps:

* **repetitions**: how often each position occurred at this player's turns, and how
  often each position it produced by its own move (board, spare, pawns) occurred.
  The strong levels penalise moves that recreate a position, so two strong
  players do not push the same arrow back and forth for ever;
* **progress**: how many of its own turns passed since it last collected, and on
  how many of its turns it led on collections (how the game is going);
* **beliefs**: per opponent, a weight for every treasure that could be its target.
  An opponent who could have reached a treasure and did not take it is unlikely to
  hold it; one who ended far from a treasure though it could have come closer is
  less likely to hold it. The weights restart when that opponent collects (a new
  card). The player that moved just before this one is observed exactly: the board
  now is the board after its shift, so the cells it could walk to are those joined
  to its pawn now; with two players the position after one's own move is also
  remembered, which tells which treasures *any* of its shifts would have reached;
* **plans** (when asked for, ``Memory(read_plans=True)``): a player who plans ahead
  ends its turn where one of its next shifts would reach its target, as many of them
  as it can. For every treasure the player moving just before could hold, the cell it
  ended on is graded against the best cell it could have walked to for that treasure
  (:data:`READY_TRUE`, :data:`READY_OTHER`). How much the grade counts depends on how
  much that player has shown it plans: each card it collects is shown, so the grades
  its collected treasure got on the turns before are evidence for or against
  planning (a log-odds per opponent, starting even). A player who does not plan
  soon makes the reading count for nothing.

Nothing here reads a clock or a hidden card; the same sequence of views gives the
same memory, so decisions stay reproducible per seed.
"""

from __future__ import annotations

from engine.labyrinth.ai.base import View
from collections.abc import Iterable
from math import exp, log

from engine.labyrinth.ai.bits import (
    CARRY,
    LINES,
    OPPOSITE,
    ROTATIONS,
    Board,
    Line,
    cells_of,
    dilate,
    flood,
    ready_cells,
    shifted,
    tiles_before,
)
from engine.labyrinth.maze import SIZE, Maze

# Likelihood of the observed move for a treasure the opponent could have taken and did not
# (the levels here always take a reachable target; a person may overlook it) ...
MISSED_IN_REACH = 0.05
# ... for a treasure that another of its shifts would have brought within reach ...
MISSED_BY_SHIFT = 0.05
# ... and per step it ended further from a treasure than it could have (walls ignored).
STEP_LIKELIHOOD = 0.75
FLOOR = 0.15  # a far end never rules a treasure out completely (it may plan two turns ahead)

# Reading plans: the grade of the cell a player ended on, for a treasure T, against the best
# cell it could have walked to -- how many of its next shifts would reach T from there:
# no cell could be ready for T, it ended unready though it could have been ready, it
# ended with under half of the best count, with less than the best, or with the best.
NO_READY, UNREADY, LOW, PARTIAL, BEST = range(5)
# How often each grade occurs for a planner's true target, and for the other treasures it
# could hold. Measured over 16 games of `expert` against `hard` (2 players, 2,960 grades):
# `hard` ended on a best cell for its target 84% of the time and never unready; READY_TRUE
# is that mixed with a tenth of READY_OTHER, as a planner sometimes has other concerns (a
# block, an opponent's reply), so one odd turn does not outweigh many good ones.
READY_TRUE = (0.03, 0.025, 0.01, 0.15, 0.785)
READY_OTHER = (0.236, 0.190, 0.044, 0.228, 0.302)
PLAN_EVIDENCE_CAP = 6.0  # log-odds: a few cards settle the reading, a habit can still change
PLAN_PRIOR = 0.0  # log-odds that a player plans, before any of its cards is shown


#: A position as far as repetition goes (:func:`position_key`).
PositionKey = tuple[Board, int, tuple[int, ...]]
#: What tells one game from another in :meth:`Memory.observe`: players, own seat, the rule switches.
GameKey = tuple[int, int, bool, bool]


def position_key(board: Board, spare_mask: int, cells: Iterable[int]) -> PositionKey:
    """A position as far as repetition goes: the open sides, the spare's openings and the pawns."""
    return (board, spare_mask, tuple(cells))


class Memory:
    """One player's memory over a game; restarts by itself when a new game begins."""

    def __init__(self, read_plans: bool = False) -> None:
        self.read_plans = read_plans
        self._reset()

    def _reset(self) -> None:
        """Forget everything: a new game began."""
        self._game: GameKey | None = None
        self.turns = -1
        self.visits: dict[PositionKey, int] = {}  # positions at this player's turns
        self.produced: dict[PositionKey, int] = {}  # positions right after this player's moves
        self.loop = 0  # earlier visits of the position now
        self.stuck = 0  # own turns since the last own collection
        self.turns_seen = 0  # own turns so far ...
        self.turns_ahead = 0  # ... and how many of them it led on collections
        self.beliefs: dict[int, dict[int, float]] = {}
        self._cards_left: list[int] = []
        self._pending: tuple[Maze, int, str] | None = None  # the position after the own last move (2 players)
        self.plans: dict[int, float] = {}  # per opponent: log-odds that it plans ahead
        self._grades: dict[int, list[dict[int, int]]] = {}  # its grades per turn since its last card
        self._unknown: set[int] = set()

    # ------------------------------------------------------------------ per decision
    def observe(self, view: View) -> None:
        """Take in the position at the start of one's own turn."""
        game = (view.players, view.me, view.open_cards, view.return_home)
        fresh = (
            game != self._game
            or view.turns <= self.turns
            or any(a > b for a, b in zip(view.cards_left, self._cards_left))
        )
        if fresh:
            self._reset()
            self._game = game
        else:
            self._learn(view)
            if self.read_plans:
                self._judge_plans(view)
        candidates = set(view.unknown)
        self._unknown = candidates
        for j in view.order_after_me():
            old = self.beliefs.get(j)
            if old is None or (not fresh and view.cards_left[j] != self._cards_left[j]):
                old = dict.fromkeys(candidates, 1.0)  # a new card: anything it could be
            kept = {t: w for t, w in old.items() if t in candidates}
            if not kept or sum(kept.values()) <= 0.0:
                kept = dict.fromkeys(candidates, 1.0)
            self.beliefs[j] = kept
        if not fresh and view.cards_left[view.me] == self._cards_left[view.me]:
            self.stuck += 1
        else:
            self.stuck = 0
        self.turns_seen += 1
        others = view.order_after_me()
        if others and min(view.remaining(j) for j in others) > view.remaining(view.me):
            self.turns_ahead += 1
        key = position_key(view.board, view.maze.spare_mask, view.cells)
        self.loop = self.visits.get(key, 0)
        self.visits[key] = self.loop + 1
        self.turns = view.turns
        self._cards_left = list(view.cards_left)
        self._pending = None

    def chose(self, view: View, line: Line, mask: int, cell: int, board: Board) -> None:
        """Remember the own decision: the position it produces, and (2 players) what the
        opponent faces next, to read its reply at the next turn."""
        spare_after = view.maze.masks[line.out_cell]
        cells = [CARRY[line.name].get(c, c) for c in view.cells]
        cells[view.me] = cell
        key = position_key(board, spare_after, cells)
        self.produced[key] = self.produced.get(key, 0) + 1
        if view.players == 2:
            maze = view.maze.copy()
            maze.shift(line.name, mask)
            self._pending = (maze, cells[1 - view.me], OPPOSITE[line.name])

    def repeats(self, view: View, line: Line, cell: int, board: Board) -> int:
        """How often the position after this shift and move was produced before."""
        if not self.produced:
            return 0
        cells = [CARRY[line.name].get(c, c) for c in view.cells]
        cells[view.me] = cell
        return self.produced.get(position_key(board, view.maze.masks[line.out_cell], cells), 0)

    def faced(self) -> tuple[Maze, int, str] | None:
        """Two players: the position the opponent faces after the own last move (maze, its pawn,
        the insertion it may not use)."""
        return self._pending

    def weights(self, j: int) -> dict[int, float]:
        """Treasure -> weight of it being opponent j's target (not normalised)."""
        return self.beliefs.get(j, {})

    # ------------------------------------------------------------------ reading a move
    def _learn(self, view: View) -> None:
        """Update the belief about the player who moved just before this one."""
        prev = (view.me - 1) % view.players
        if prev == view.me or prev not in self.beliefs:
            return
        if view.cards_left[prev] != self._cards_left[prev]:
            return  # it collected: its move was about the old card, the belief restarts
        belief = self.beliefs[prev]
        self._learn_from_walk(view, prev, belief)
        if self.read_plans:
            self._learn_from_plan(view, prev, belief)
        pending = self._pending
        if pending is not None and view.players == 2 and view.turns == self.turns + 2:
            _learn_from_shifts(pending, belief)

    @staticmethod
    def _learn_from_walk(view: View, prev: int, belief: dict[int, float]) -> None:
        """Where it walked: a treasure it stands on or could reach is unlikely to be its target."""
        where = view.maze.treasures
        cell_of = {t: c for c, t in enumerate(where) if t >= 0}
        end = view.cells[prev]
        area = flood(1 << end, view.board)  # where it could walk after its shift
        for t in belief:
            c = cell_of.get(t)
            if c is None:
                continue  # in the spare: nothing to read
            if c == end:
                belief[t] = 0.0  # ending on one's target collects it: not its target
            elif (area >> c) & 1:
                belief[t] *= MISSED_IN_REACH
            else:
                far = _distance(1 << end, c) - _distance(area, c)
                belief[t] *= max(FLOOR, STEP_LIKELIHOOD**far)

    def planner(self, j: int) -> float:
        """How sure it is that opponent j plans ahead (0..1; one half before any evidence)."""
        return 1.0 / (1.0 + exp(-self.plans.get(j, PLAN_PRIOR)))

    def _learn_from_plan(self, view: View, prev: int, belief: dict[int, float]) -> None:
        """Where it stood for its next turn: weigh each treasure by how well that cell suits it,
        as much as the player has shown it plans."""
        grades = plan_grades(view, prev, belief)
        self._grades.setdefault(prev, []).append(grades)
        q = self.planner(prev)
        for t, g in grades.items():
            belief[t] *= q * READY_TRUE[g] / READY_OTHER[g] + (1.0 - q)

    def _judge_plans(self, view: View) -> None:
        """An opponent collected: its card is shown, so the grades that treasure got on the turns
        before tell whether it plans (evidence for the reading above)."""
        changed = [j for j in view.order_after_me() if view.cards_left[j] != self._cards_left[j]]
        found = self._unknown - set(view.unknown) - set(view.targets)
        for j in changed:
            turns = self._grades.pop(j, [])
            if len(changed) != 1 or len(found) != 1:
                continue  # several found at once: whose was which is not known
            t = next(iter(found))
            odds = self.plans.get(j, PLAN_PRIOR)
            for grades in turns:
                g = grades.get(t)
                if g is not None:
                    odds += log(READY_TRUE[g] / READY_OTHER[g])
            self.plans[j] = max(-PLAN_EVIDENCE_CAP, min(PLAN_EVIDENCE_CAP, odds))


def plan_grades(view: View, j: int, treasures: Iterable[int]) -> dict[int, int]:
    """For each treasure (on the board or the spare), the grade of player j's cell now for a
    player planning to collect it next turn (the board now is the board after j's shift;
    the spare is the tile j pushed out, which j's own next shift would insert)."""
    maze = view.maze
    board, spare = view.board, maze.spare_mask
    end = view.cells[j]
    area = cells_of(flood(1 << end, board))
    cell_of = {t: c for c, t in enumerate(maze.treasures) if t >= 0}
    grades = {}
    for t in treasures:
        c = cell_of.get(t)
        tb, ts = (1 << c if c is not None else 0), maze.spare_treasure == t
        if not tb and not ts:
            continue
        counts = dict.fromkeys(area, 0)
        for ready in ready_cells(board, tb, ts, spare):
            for m in area:
                if (ready >> m) & 1:
                    counts[m] += 1
        best, mine = max(counts.values()), counts[end]
        if not best:
            grades[t] = NO_READY
        elif not mine:
            grades[t] = UNREADY
        elif mine == best:
            grades[t] = BEST
        else:
            grades[t] = PARTIAL if 2 * mine >= best else LOW
    return grades


def _learn_from_shifts(pending: tuple[Maze, int, str], belief: dict[int, float]) -> None:
    """Two players: a treasure any of its shifts would have reached was not its target, likely."""
    maze, pawn, banned = pending
    board = maze.open_sides
    seen, seen_spare = 0, False
    for name, line in LINES.items():
        if name == banned:
            continue
        p = CARRY[name].get(pawn, pawn)
        for _r, mask in ROTATIONS[maze.spare_mask]:
            bits, spare = tiles_before(flood(1 << p, shifted(board, line, mask)), line)
            seen |= bits
            seen_spare = seen_spare or spare
    reached = {maze.treasures[c] for c in cells_of(seen)}
    if seen_spare:
        reached.add(maze.spare_treasure)
    for t in belief:
        if t in reached:
            belief[t] *= MISSED_BY_SHIFT


def _distance(bits: int, cell: int) -> int:
    """Steps (walls ignored) from the nearest cell of `bits` to `cell`."""
    ring, d, goal = bits, 0, 1 << cell
    while not ring & goal and d < 2 * SIZE:
        ring = dilate(ring)
        d += 1
    return d


__all__ = ["Memory", "plan_grades", "position_key"]
