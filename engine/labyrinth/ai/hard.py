"""Level `hard`: collect whenever possible, otherwise search two turns ahead and deny the leader.

How it decides (all on bitboards, see :mod:`engine.labyrinth.ai.bits`):

1. **Collect now.** Every distinct shift (44 at most, fewer when the spare is a
   straight) is tried; if the target is reachable after any of them, the AI
   collects. Among the collecting shifts it prefers the one that leaves it best
   placed for its next card and the leading opponent worst placed.
2. **Own next turn.** Otherwise, for every shift and every reachable cell it
   counts how many of its next-turn shifts would reach the target from there
   (one flood fill from the target per next shift, mapped back through the
   shift, serves every cell at once). Cells from which no shift works are
   scored by their distance to the nearest cell from which one does.
3. **The opponents' replies.** The best candidates are then re-scored against
   every shift the next opponent may play before the AI's next turn (which may
   push the target away, carry the pawn, or forbid an insertion): the score is
   the share of replies after which the target is still reachable. This is the
   expensive part and runs best-first while the work budget (and, if a clock is
   given, the time limit) lasts: an anytime search, not a fixed depth.
4. **Denial.** Opponents' targets are hidden, so the AI models the leading
   opponent's target as any treasure it could have (not yet found, not one of
   its own known cards) -- or, once that opponent holds no cards, its start
   corner. The threat of a shift is the chance that the opponent can then
   collect on its next turn; it is subtracted with the same weight as the AI's
   own chance (more with more at stake: a collection that wins the game).

5. **Block before collecting.** When every collecting shift leaves an opponent
   who needs one more collection a chance to win next turn that another shift
   would cut (by BLOCK_MARGIN or more), it plays among the safest shifts instead
   (collecting if one of them allows it). A winning collection always comes first.
6. **Games end.** A move that recreates a position it produced before loses
   REPEAT per earlier time, and the longer it goes without collecting (or the
   more often the position at its turn has been seen), the more its distance
   term counts and the less its non-winning denial does (:mod:`engine.labyrinth.ai.memory`).
   Blocking a winning move fades too once it has gone STANDOFF_GRACE turns without
   collecting: a standoff that only blocks never ends.

It never reads hidden cards: it works on a :class:`engine.labyrinth.ai.base.View`.
"""

from __future__ import annotations

from math import comb
from typing import TYPE_CHECKING, Callable

from engine.labyrinth.ai.base import AI, Deadline, View, first_ply
from engine.labyrinth.ai.memory import Memory
from engine.labyrinth.ai.bits import (
    CARRY,
    LINES,
    OPPOSITE,
    ROTATIONS,
    cells_of,
    dilate,
    each_reply,
    flood,
    ready_cells,
    serving,
    shifted,
    tiles_after,
    tiles_before,
)

if TYPE_CHECKING:
    from engine.labyrinth.ai.base import Ply
    from engine.labyrinth.ai.bits import Board

#: (score, option index, cell) of a candidate plan, best first once sorted.
Scored = list[tuple[float, int, int]]

# Scores: a probability of collecting next turn is in [0, 1]; cells from which
# no next shift works get a small negative score by distance, so any real
# chance beats them and the threat term still tells them apart.
NEAR_STEP = 0.03
WIN_STAKE = 3.0  # a collection that wins the game counts this much more
# Games must end: a move that recreates a position the AI produced before loses this much per
# earlier time; after STUCK_GRACE own turns without a collection, each further turn makes the
# distance term STUCK_PUSH stronger and the (non-winning) denial STUCK_EASE weaker.
REPEAT = 0.35
STUCK_GRACE = 4
STUCK_PUSH = 0.25
STUCK_EASE = 0.15
# Block before collecting when that cuts an opponent's chance to win next turn by this much.
BLOCK_MARGIN = 0.2
# A standoff: blocking an opponent's winning move turn after turn while collecting nothing itself
# only puts off the end (and the turn limit gives the game to the player ahead). After
# STANDOFF_GRACE own turns without a collection, the weight of a winning threat fades to nothing
# over STANDOFF_FADE more. Measured: a player collects every 2 own turns on average.
STANDOFF_GRACE = 10
STANDOFF_FADE = 10


class HardAI(AI):
    """The strongest level. `budget` is the search work limit in flood fills (deterministic);
    `clock` (a function returning seconds, e.g. ``time.monotonic``) with `time_limit`
    (seconds) additionally stops the refinement when time runs out. `denial` scales how
    much the leading opponent's chance counts against its own (1.0: equally; 0: ignore)."""

    level = "hard"
    clock_capped = True
    future_weight = 0.5  # when collecting: weight of the chance to collect the next card next turn

    def __init__(
        self,
        seed: int | None = None,
        budget: int = 9000,
        clock: Callable[[], float] | None = None,
        time_limit: float = 0.25,
        denial: float = 1.0,
    ):
        super().__init__(seed)
        self.denial = denial  # weight of the leader's chance against one's own (1.0: the same)
        self.budget = budget
        self.clock = clock
        self.time_limit = time_limit
        self.work = 0  # flood fills spent on the last decision (for benchmarks)
        self._unknown = (0, False)
        self._next: Deadline | None = None  # the next decision's deadline, from choose
        self._deadline = Deadline(None, 0.0)  # the decision's: every part of the search asks it
        self.memory = Memory()  # repeated positions and own progress over the game

    # ------------------------------------------------------------------ decision
    def start_clock(self, time_limit: float | None, stop: Callable[[], bool] | None) -> None:
        self._next = Deadline(self.clock, self.time_limit if time_limit is None else time_limit, stop)

    def decide(self, view: View, deadline: Deadline | None = None) -> tuple[str, int, int]:
        """The decision, within `deadline` (a search playing a round out passes its own, shared),
        else the one `choose` started, else this player's own time limit from now."""
        self._arm(deadline)
        self.work = 0
        self.memory.observe(view)
        self._unknown = view.treasure_bits(view.unknown)
        options = list(first_ply(view))
        threat, danger = self._threats(view, options)

        collect = [(k, c) for k, o in enumerate(options) for c in cells_of(o[5] & o[6])]
        allowed = None
        if collect and not self._collection_wins(view):
            # Block before collecting: if every collection leaves an opponent a winning move
            # that some other shift would take away, block instead (RULES: the game ends at once).
            safest = min(danger)
            if min(danger[k] for k, _c in collect) > safest + BLOCK_MARGIN:
                allowed = {k for k, d in enumerate(danger) if d <= safest + 1e-9}
                collect = [(k, c) for k, c in collect if k in allowed]
        if collect:
            choice = self._best_collection(view, options, collect, threat)
        else:
            choice = self._plan(view, options, threat, allowed)
        k, m = choice
        line, rotation, mask, board = options[k][:4]
        self.memory.chose(view, line, mask, m, board)
        return line.name, rotation, m

    def _plan(self, view: View, options: list[Ply], threat: list[float], allowed: set[int] | None) -> tuple[int, int]:
        """No collection this turn: the (option, cell) that sets up the best next turn."""
        masks = view.maze.masks
        solo = view.players == 1
        stake_me = self._stake(view, view.me)
        near_step = NEAR_STEP * (1.0 + STUCK_PUSH * max(0, self.memory.stuck - STUCK_GRACE))
        memory = self.memory
        base: Scored = []
        counts: dict[int, tuple[dict[int, int], int]] = {}  # option -> (own next shifts per cell, of n)
        penalty: dict[tuple[int, int], float] = {}
        for k, (line, _rot, _mask, board, _pawn, reach, tb, ts) in enumerate(options):
            if allowed is not None and k not in allowed:
                continue
            if base and self._deadline.passed():
                break  # out of time (the kiosk's clock cap): the shifts not looked at are left out
            spare = masks[line.out_cell]
            banned = OPPOSITE[line.name] if solo else None
            uses, union = self._next_turn_sets(board, tb, ts, spare, banned)
            cells = cells_of(reach)
            per: dict[int, int] = {}
            for m in cells:
                per[m] = sum((u >> m) & 1 for u in uses)
                if memory.produced:
                    again = memory.repeats(view, line, m, board)
                    if again:
                        penalty[k, m] = REPEAT * again
            n = max(1, len(uses))
            counts[k] = (per, n)
            for m in cells:
                if per[m]:
                    value = stake_me * (per[m] / n)
                else:
                    value = -near_step * self._steps(1 << m, union, tb)
                base.append((value - threat[k] - penalty.get((k, m), 0.0), k, m))
        base.sort(key=lambda t: -t[0])

        # Best-first refinement against the next opponent's replies, within the budget:
        # the options with a real chance to collect next turn, best first.
        order: list[int] = []
        for score, k, m in base:
            if score + threat[k] + penalty.get((k, m), 0.0) > 0 and k not in order:
                order.append(k)
        if solo or not order:
            return self._choose_plan(view, options, base)
        refined: Scored = []
        done: set[int] = set()
        for k in order:
            if refined and self.work >= self.budget:
                break
            o = options[k]
            replied = self._replies(view, o, self._reply_weights(view, o))
            if replied is None:
                break  # out of time halfway through this option's replies
            done.add(k)
            n_replies, hits = replied
            per, n = counts[k]
            for m, h in hits.items():
                # Surviving the reply counts most; more own ways to collect breaks ties
                # (they also survive the other opponents' shifts better).
                value = stake_me * (h / n_replies + 0.1 * per[m] / n)
                refined.append((value - threat[k] - penalty.get((k, m), 0.0), k, m))
        # Options without a chance to collect next turn compete on their base score (the
        # distance term and the threat, e.g. a shift that blocks an opponent about to win);
        # options left unrefined for lack of time are dropped (their score is not comparable).
        if not done:
            return self._choose_plan(view, options, base)  # out of time before any was refined
        refined += [b for b in base if b[1] not in done and b[1] not in order]
        refined.sort(key=lambda t: -t[0])
        return self._choose_plan(view, options, refined)

    def _choose_plan(self, view: View, options: list[Ply], scored: Scored) -> tuple[int, int]:
        """The plan among the scored (option, cell) pairs, best first: the best one."""
        return self._pick(scored)

    # ------------------------------------------------------------------ pieces
    def _arm(self, deadline: Deadline | None) -> None:
        """Read the decision's deadline once, as it begins (see :meth:`decide`)."""
        self._deadline = deadline or self._next or Deadline(self.clock, self.time_limit)
        self._next = None

    def _pick(self, scored: Scored) -> tuple[int, int]:
        best = scored[0][0]
        ties = [(k, m) for s, k, m in scored if s >= best - 1e-9]
        return ties[self.rng.randrange(len(ties))] if len(ties) > 1 else ties[0]

    @staticmethod
    def _steps(cell_bit: int, union: int, tb: int) -> int:
        """Steps (walls ignored) from a cell to the nearest cell that one shift would serve."""
        goal, extra = (union, 0) if union else (tb, 13)
        if not goal:
            return 26
        ring, d = goal, 0
        while not ring & cell_bit and d < 13:
            ring = dilate(ring)
            d += 1
        return d + extra

    def _next_turn_sets(self, board: Board, tb: int, ts: bool, spare: int, banned: str | None) -> tuple[list[int], int]:
        """For each next shift: the cells from which the pawn would reach the target after it."""
        uses = ready_cells(board, tb, ts, spare, banned)
        union = 0
        for u in uses:
            if u:  # a flood fill was made (never empty: it holds the target's tile)
                self.work += 1
                union |= u
        return uses, union

    def _reply_weights(self, view: View, o: Ply) -> list[float] | None:
        """How likely each reply of the next opponent is (in `_replies`' order); None: all alike."""
        return None

    def _replies(self, view: View, o: Ply, weights: list[float] | None = None) -> tuple[float, dict[int, float]] | None:
        """Against each reply of the next opponent: from which of this option's cells the
        target is still reachable on the AI's next turn. Returns (replies, hits per cell),
        each reply counted with its weight (default 1); None when the deadline passed first."""
        line_o, _rot, mask_o, board, _pawn, reach, tb, ts = o
        masks = view.maze.masks
        cells = cells_of(reach)
        hits = dict.fromkeys(cells, 0.0)
        replies = 0.0
        index = -1
        for line_r, spare_r, rotations in each_reply(masks, line_o, mask_o):
            tb_r, ts_r = tiles_after(tb, ts, line_r)
            carry = CARRY[line_r.name]
            need = 0
            for m in cells:
                need |= 1 << carry.get(m, m)
            banned = OPPOSITE[line_r.name]
            if self._deadline.passed():
                return None
            for _rr, mask_r in rotations:
                index += 1
                weight = 1.0 if weights is None else weights[index]
                if weight <= 0.0:
                    continue
                replies += weight
                served = self._serving(shifted(board, line_r, mask_r), tb_r, ts_r, spare_r, banned, need)
                for m in cells:
                    if (served >> carry.get(m, m)) & 1:
                        hits[m] += weight
        return max(replies, 1e-9), hits

    def _serving(self, board: Board, tb: int, ts: bool, spare: int, banned: str | None, need: int) -> int:
        """:func:`engine.labyrinth.ai.bits.serving`, its flood fills counted as work."""
        served, floods = serving(board, tb, ts, spare, banned, need)
        self.work += floods
        return served

    def _best_collection(
        self, view: View, options: list[Ply], collect: list[tuple[int, int]], threat: list[float]
    ) -> tuple[int, int]:
        """Several ways to collect: prefer the one best for the next card and worst for the leader."""
        if self._collection_wins(view):
            return collect[0]
        masks = view.maze.masks
        stake_next = self._stake(view, view.me, after_collect=True)
        scored: Scored = []
        for k, m in collect:
            if scored and self._deadline.passed():
                break  # out of time: the ways to collect not looked at are left out
            line, _rot, _mask, board, _pawn, _reach, tb, ts = options[k]
            spare = masks[line.out_cell]
            if view.open_cards and view.cards_left[view.me] > 1:
                future = self._share(board, spare, m, tb & ~(1 << m), ts, None, 1)
            elif view.cards_left[view.me] == 1 and view.return_home:
                future = self._share(board, spare, m, 1 << view.homes[view.me], False, None, 1)
            else:
                # The next card is hidden: any treasure it could be, equally likely.
                pb, ps = tiles_after(*self._unknown, line)
                future = self._share(board, spare, m, pb, ps, None, 1)
            scored.append((stake_next * self.future_weight * future - threat[k], k, m))
        scored.sort(key=lambda t: -t[0])
        return self._pick(scored)

    def _share(
        self, board: Board, spare: int, pawn: int, tbits: int, tspare: bool, banned: str | None, holding: int
    ) -> float:
        """Chance that a player on `pawn` collects next turn when its target is any one of the
        treasures in (tbits, tspare), equally likely; `holding` cards of them with open cards."""
        total = tbits.bit_count() + (1 if tspare else 0)
        if not total:
            return 0.0
        got_bits, got_spare = self._reached_next_turn(board, spare, pawn, tbits, tspare, banned)
        got = (got_bits & tbits).bit_count() + (1 if got_spare and tspare else 0)
        if holding <= 1:
            return got / total
        holding = min(holding, total)
        return 1.0 - comb(total - got, holding) / comb(total, holding)

    def _reached_next_turn(
        self, board: Board, spare: int, pawn: int, tbits: int, tspare: bool, banned: str | None
    ) -> tuple[int, bool]:
        """Which of the treasure tiles (tbits, and the spare if tspare) a pawn on `pawn` could stand
        on after any one shift of the next turn: their cells before that shift, and whether the
        spare's tile is among them. Each flood fill counts as one unit of work."""
        got_bits, got_spare = 0, False
        for name, line in LINES.items():
            if name == banned:
                continue
            tb2, _ = tiles_after(tbits, tspare, line)
            p2 = CARRY[name].get(pawn, pawn)
            for _r, mask in ROTATIONS[spare]:
                hit = flood(1 << p2, shifted(board, line, mask)) & tb2
                self.work += 1
                if hit:
                    back, from_spare = tiles_before(hit, line)
                    got_bits |= back
                    got_spare = got_spare or from_spare
        return got_bits, got_spare

    def _threat(self, view: View, o: Ply, j: int | None) -> float:
        """Chance that opponent `j` collects on its next turn after this option, from what is known."""
        if j is None:
            return 0.0
        line = o[0]
        board = o[3]
        pawn = CARRY[line.name].get(view.cells[j], view.cells[j])
        spare = view.maze.masks[line.out_cell]
        banned = OPPOSITE[line.name] if j == view.next_player else None
        if view.cards_left[j] == 0:
            return self._share(board, spare, pawn, 1 << view.homes[j], False, banned, 1)
        pb, ps = tiles_after(*self._unknown, line)
        holding = view.cards_left[j] if view.open_cards else 1
        return self._share(board, spare, pawn, pb, ps, banned, holding)

    @staticmethod
    def _leader(view: View) -> int | None:
        """The opponent closest to winning (ties: the one who plays sooner)."""
        others = view.order_after_me()
        if not others:
            return None
        return min(others, key=view.remaining)

    @staticmethod
    def _stake(view: View, j: int, after_collect: bool = False) -> float:
        """How much player j's next collection is worth: more when it wins the game."""
        left = view.remaining(j) - (1 if after_collect else 0)
        return WIN_STAKE if left == 1 else 1.0

    def _deny_weight(self, view: View, j: int | None) -> float:
        if j is None:
            return 0.0
        share = 1.0 if view.players == 2 else 0.6
        stake = self._stake(view, j)
        memory = self.memory
        if stake <= 1.0:
            # Not a winning collection: the longer the AI itself makes no progress (or the
            # position repeats), the less it spends its turns on spoiling the leader's.
            stake /= 1.0 + STUCK_EASE * max(0, memory.stuck - STUCK_GRACE) + memory.loop
        else:
            stake *= max(0.0, 1.0 - max(0, memory.stuck - STANDOFF_GRACE) / STANDOFF_FADE)
        return self.denial * share * stake

    def _opponent_weight(self, view: View, j: int, leader: int | None) -> float:
        """How much denying opponent j weighs: only the leader is spoiled."""
        return self._deny_weight(view, j) if j == leader else 0.0

    def _threats(self, view: View, options: list[Ply]) -> tuple[list[float], list[float]]:
        """Per option: the weighted threat to subtract from its score (the leader's chance to
        collect), and the chance that some opponent wins the game on its next turn."""
        n = len(options)
        total, danger = [0.0] * n, [0.0] * n
        leader = self._leader(view)
        for j in view.order_after_me():
            weight = self._opponent_weight(view, j, leader)
            wins = self._guards(view, j)
            if not weight and not wins:
                continue
            seen: list[float] = []
            for k, o in enumerate(options):
                if seen and self._deadline.passed():
                    # Out of time (kiosk clock cap): the options not measured get the average.
                    t = sum(seen) / len(seen)
                else:
                    t = self._threat(view, o, j)
                    seen.append(t)
                total[k] += weight * t
                if wins and t > danger[k]:
                    danger[k] = t
        return total, danger

    def _guards(self, view: View, j: int) -> bool:
        """Whether opponent j's winning move is blocked before collecting (step 5): any j
        one collection from winning."""
        return view.remaining(j) == 1

    @staticmethod
    def _collection_wins(view: View) -> bool:
        left = view.cards_left[view.me]
        return left == 0 or (left == 1 and not view.return_home)
