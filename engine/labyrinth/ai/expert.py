"""Level `expert`: hard's search with the hidden targets handled as beliefs, not as a uniform guess.

`hard` treats an opponent's hidden target as any treasure still in play, all
equally likely, and the next opponent's replies as all equally likely. A
person watching the table knows better: whoever could have reached a treasure
and walked elsewhere does not hold it. `expert` keeps that as a belief per
opponent (:class:`engine.labyrinth.ai.memory.Memory`, public information only) and
searches an expectimax over it:

1. **Collect now**, as `hard` (and, as `hard`, it first blocks when every
   collection would leave an opponent a winning move that another shift takes away).
2. **Own next turn**, as `hard`: for every shift and cell, the share of its next
   shifts that reach the target, with a distance term (stronger the longer it has
   not collected) and a penalty for recreating a position it produced before.
3. **The next opponent's reply, by chance node over its target**: for each
   target the opponent may hold (weighted by the belief), the replies that would
   let it collect are the ones it plays; with none, any reply is as likely. The
   score of a cell is the weighted share of replies after which the AI's own
   target is still reachable on its next turn. Best-first within the work budget.
4. **Denial with beliefs**: the threat of a shift is the belief-weighted chance
   that the leader (and, with more players, the next player) collects on its
   next turn -- sharp when its moves have given its target away.
5. **At a table of three or four**: a player one collection from winning is
   blocked only when `expert` plays just before it (the players between block
   it too), and spoiling an ordinary collection counts half: it helps the
   other opponents as much as `expert`.
6. **The race home** (once it or an opponent holds no cards): the block that
   counts is the last one before a player's turn, two or three shifts away at
   a table of three or four. So it plays the round out for its best few plans:
   each opponent moves as `hard` would on what the table knows (its hidden
   target: the likeliest by the belief), and the plan kept is one after which
   nobody gets home first and its own target (home, or its card) is in reach
   for most shifts. When none of them is both, the best plan of each further
   shift is played out too: the block two seats away is seldom among the plans
   that score best for its own target.
7. **Squares no shift can guard**: a plan after which the player right after it,
   heading home, stands where no shift of its next turn keeps it from home
   scores little (ROUND_UNGUARDED): that runner has won, whatever was blocked now.

Deterministic for a seed and budget (``budget`` counts flood fills); ``clock``
and ``time_limit`` add the kiosk's wall-clock cap, as for `hard`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from engine.labyrinth.maze import ROTATED

from engine.labyrinth.ai.base import View
from engine.labyrinth.ai.bits import (
    CARRY,
    LINES,
    OPPOSITE,
    ROTATIONS,
    cells_of,
    each_reply,
    flood,
    ready_cells,
    shifted,
    tiles_after,
    tiles_before,
)
from engine.labyrinth.ai.hard import HardAI
from engine.labyrinth.ai.memory import Memory

if TYPE_CHECKING:
    from engine.labyrinth.ai.base import Ply
    from engine.labyrinth.ai.bits import Board, Line
    from engine.labyrinth.ai.hard import Scored
    from engine.labyrinth.maze import Maze

NEXT_SHARE = 0.25  # with 3-4 players: weight of the next player's chance when it is not the leader
# With three or four players, spoiling the leader's ordinary (not winning) collection helps the
# other opponents as much as `expert`, so it counts this much of `hard`'s weight.
TABLE_DENIAL = 0.5
# With three or four players, a player one collection from winning is blocked by every player
# who plays before it. `expert` leaves that block to the players between them when there are
# any: the threat counts PASS_ON of its weight and does not stop a collection. Measured (expert
# against three `hard`): a player heading home got there on only 17% of its turns.
PASS_ON = 0.2
# In the race home with three or four players: how many of the best plans are played out over
# the round (each costs a `hard` decision per opponent, on a quarter of the budget).
ROUND_PLANS = 4
# When none of those keeps every opponent from getting home first with its own target in reach,
# the best plan of each further shift is played out too, up to ROUND_MORE of them. A plan after
# which nobody gets home first counts ROUND_SAFE even when its own target is then out of reach (it
# keeps the game going); one after which an opponent gets home counts nothing.
ROUND_MORE = 8
ROUND_SAFE = 0.5
# A plan after which the player right after it, heading home, stands where no shift of `expert`'s
# next turn keeps it from home (unless that turn wins first): a loss one turn later than one that
# lets it home now, so it counts this little, below any plan that keeps the race open.
ROUND_UNGUARDED = 0.25
# Between plans that fare alike over the round, the better scored one is kept: each rank down the
# score order costs this much (less than one more of its next shifts reaching its target).
ROUND_RANK = 0.001
# With two players the leader's chance counts this much more than in `hard`: once its moves have
# given its target away, a block hits the real target, so blocking is worth more. Measured
# against `hard` over the same 80 paired deals twice: 115 of 160 wins at 1.0, 121 at 1.5
# (and 50 of the first 80 at 2.0, where it neglects its own cards).
DUEL_DENIAL = 1.5


class ExpertAI(HardAI):
    """The strongest level: belief-weighted expectimax over the opponents' targets and replies."""

    level = "expert"
    duel_denial = DUEL_DENIAL

    def __init__(
        self,
        seed: int | None = None,
        budget: int = 30000,
        clock: Callable[[], float] | None = None,
        time_limit: float = 0.25,
        denial: float = 1.0,
    ):
        super().__init__(seed, budget=budget, clock=clock, time_limit=time_limit, denial=denial)
        self.memory = Memory(read_plans=True)
        self._belief: dict[int, tuple[int, dict[int, float], float, float]] = {}

    # ------------------------------------------------------------------ beliefs
    def _prepare_beliefs(self, view: View) -> None:
        """Per opponent: candidate cells, weight per cell, weight of the spare, total weight."""
        where = view.maze.treasures
        spare_t = view.maze.spare_treasure
        self._belief = {}
        for j in view.order_after_me():
            w = self.memory.weights(j)
            cellw = {c: w[t] for c, t in enumerate(where) if t >= 0 and w.get(t, 0.0) > 0.0}
            sw = w.get(spare_t, 0.0) if spare_t >= 0 else 0.0
            bits = 0
            for c in cellw:
                bits |= 1 << c
            self._belief[j] = (bits, cellw, sw, sum(cellw.values()) + sw)

    def _threats(self, view: View, options: list[Ply]) -> tuple[list[float], list[float]]:
        self._prepare_beliefs(view)
        return super()._threats(view, options)

    def _deny_weight(self, view: View, j: int | None) -> float:
        weight = super()._deny_weight(view, j)
        if view.players == 2:
            return weight * self.duel_denial
        return weight if j is None or view.remaining(j) == 1 else weight * TABLE_DENIAL

    def _opponent_weight(self, view: View, j: int, leader: int | None) -> float:
        """The leader is spoiled as by hard; the next player too, more lightly (it replies first).
        A winning threat of a player who is not next is mostly left to the players between."""
        if j == leader:
            weight = self._deny_weight(view, j)
        elif j == view.next_player:
            weight = self._deny_weight(view, j) * NEXT_SHARE / 0.6
        else:
            return 0.0
        if view.remaining(j) == 1 and j != view.next_player:
            weight *= PASS_ON  # the players between block it too
        return weight

    def _guards(self, view: View, j: int) -> bool:
        """Block before collecting only against the next player (or the only opponent)."""
        return view.remaining(j) == 1 and j == view.next_player

    def _threat(self, view: View, o: Ply, j: int | None) -> float:
        """Belief-weighted chance that opponent j collects on its next turn after this option."""
        if j is None:
            return 0.0
        if view.cards_left[j] == 0:
            return super()._threat(view, o, j)  # heading home: the target is known exactly
        bits, cellw, sw, total = self._belief[j]
        if total <= 0.0:
            return 0.0
        line, board = o[0], o[3]
        pawn = CARRY[line.name].get(view.cells[j], view.cells[j])
        spare = view.maze.masks[line.out_cell]
        banned = OPPOSITE[line.name] if j == view.next_player else None
        tb, ts = tiles_after(bits, sw > 0.0, line)
        got, got_spare = self._reached_next_turn(board, spare, pawn, tb, ts, banned)
        before, from_entry = tiles_before(got & tb, line)
        w = sum(cellw.get(c, 0.0) for c in cells_of(before & bits))
        if from_entry:
            w += sw
        if got_spare:
            w += cellw.get(line.out_cell, 0.0)
        p = min(1.0, w / total)
        holding = view.cards_left[j] if view.open_cards else 1
        return 1.0 - (1.0 - p) ** holding if holding > 1 else p

    # ------------------------------------------------------------------ the race home: the round
    def _choose_plan(self, view: View, options: list[Ply], scored: Scored) -> tuple[int, int]:
        """In the race home at a table of three or four (`expert` or an opponent holds no
        cards): of the best plans, the one that fares best when the round is played out (ties:
        the better scored)."""
        choice = self._pick(scored)
        if not self._racing(view):
            return choice
        best, best_value, found = choice, -1.0, False
        for rank, (k, m) in enumerate(self._round_plans(choice, scored)):
            if rank >= ROUND_PLANS and found:
                break  # one keeps everyone from home, its target in reach: enough
            value = None if self._deadline.passed() else self._round(view, options[k], m)
            if value is None:
                break  # the kiosk's clock cap: keep the best of the rounds played out in time
            found = found or value >= ROUND_SAFE + 1.0
            fared = value - ROUND_RANK * rank
            if fared > best_value:
                best, best_value = (k, m), fared
        return best

    def _racing(self, view: View) -> bool:
        """Whether the round is played out: in the race home (someone holds no cards)."""
        return view.players > 1 and view.return_home and 0 in view.cards_left

    @staticmethod
    def _round_plans(choice: tuple[int, int], scored: Scored) -> list[tuple[int, int]]:
        """The plans worth playing the round out for, in order: the choice (so ties among the best
        scored stay broken as without the round), the next ROUND_PLANS - 1 in score order, then
        the best of each shift not among them, up to ROUND_MORE."""
        plans = [choice]
        for _score, k, m in scored:
            if len(plans) == ROUND_PLANS:
                break
            if (k, m) not in plans:
                plans.append((k, m))
        shifts = {k for k, _m in plans}
        more: list[tuple[int, int]] = []
        for _score, k, m in scored:
            if len(more) == ROUND_MORE:
                break
            if k not in shifts:
                shifts.add(k)
                more.append((k, m))
        return plans + more

    def _round(self, view: View, o: Ply, cell: int) -> float | None:
        """Play the round out after this plan, every opponent moving as `hard` on what the table
        knows: 0 if one of them gets home first, else ROUND_SAFE, plus 1 if some shift of the
        next turn takes `expert` to its target (its card, or home) and a little for each further one.
        None when the deadline passes first (an opponent cut short is no model of its turn); the
        opponents think within this decision's deadline, not a time of their own."""
        maze = view.maze.copy()
        cells = view.cells[:]

        def play(player: int, insertion: str, mask: int, to: int) -> None:
            maze.shift(insertion, mask)
            cells[:] = [CARRY[insertion].get(c, c) for c in cells]
            cells[player] = to

        last = o[0].name
        play(view.me, last, o[2], cell)
        for j in view.order_after_me():
            target = None
            if view.cards_left[j]:
                weights = self.memory.weights(j)
                target = max(weights, key=weights.__getitem__) if weights else None
                if target is None:
                    continue  # nothing left it could hold: no model of its turn
            if self._deadline.passed():
                return None
            model = HardAI(0, budget=self.budget // 4)
            seen = view.seen_by(j, maze.copy(), cells[:], last, target)
            last, rotation, to = model.decide(seen, deadline=self._deadline)
            self.work += model.work
            if self._deadline.passed():
                return None
            play(j, last, ROTATED[maze.spare_mask][rotation], to)
            if not view.cards_left[j] and to == view.homes[j]:
                return 0.0
        tb, ts = view.aim(maze)  # its card has moved with the round's shifts
        uses = ready_cells(maze.open_sides, tb, ts, maze.spare_mask, OPPOSITE[last])
        self.work += len(uses)
        ways = sum((u >> cells[view.me]) & 1 for u in uses)
        runner = view.next_player
        if not view.cards_left[runner] and not (ways and view.remaining(view.me) == 1):
            guarded = self._guarded(view, maze, cells, last, runner)
            if not guarded:
                return None if guarded is None else ROUND_UNGUARDED
        return ROUND_SAFE + (1.0 if ways else 0.0) + 0.1 * ways / max(1, len(uses))

    def _guarded(self, view: View, maze: Maze, cells: list[int], last: str, j: int) -> bool | None:
        """Whether some shift of `expert`'s next turn (after the round, `last` pushed last) keeps
        player j, heading home and playing right after it, from home on j's turn: a runner on a
        square no single shift can guard has won. None when the deadline passes first."""
        board, masks, home = maze.open_sides, maze.masks, 1 << view.homes[j]
        for name, line in LINES.items():
            if name == OPPOSITE[last]:
                continue
            if self._deadline.passed():
                return None
            pawn = CARRY[name].get(cells[j], cells[j])
            for _r, mask in ROTATIONS[maze.spare_mask]:
                after = shifted(board, line, mask)
                if not self._share(after, masks[line.out_cell], pawn, home, False, OPPOSITE[name], 1):
                    return True
        return False

    # ------------------------------------------------------------------ collecting, looking further
    def _best_collection(
        self, view: View, options: list[Ply], collect: list[tuple[int, int]], threat: list[float]
    ) -> tuple[int, int]:
        """Several ways to collect: hard's choice, refined best-first within the budget by what
        the next opponent's reply (weighted as in the chance node) leaves of the chance to
        collect the next card on the next turn."""
        if self._collection_wins(view) or len(collect) == 1 or view.players == 1:
            return super()._best_collection(view, options, collect, threat)
        stake = self._stake(view, view.me, after_collect=True) * self.future_weight
        scored: Scored = []
        for k, m in collect:
            if scored and self._deadline.passed():
                break  # out of time (the decision's one deadline): the others are left out
            line, _rot, _mask, board, _pawn, _reach, tb, ts = options[k]
            bits, spare, holding = self._next_targets(view, line, tb, m)
            now = self._share(board, view.maze.masks[line.out_cell], m, bits, spare, None, holding)
            scored.append((stake * now - threat[k], k, m))
        scored.sort(key=lambda t: -t[0])
        refined: list[tuple[float, int, int]] = []
        for _score, k, m in scored:
            if refined and self.work >= self.budget:
                break
            o = options[k]
            bits, spare, holding = self._next_targets(view, o[0], o[6], m)
            after = self._share_after_reply(view, o, m, bits, spare, holding)
            if after is None:
                break  # out of time halfway through
            refined.append((stake * after - threat[k], k, m))
        refined.sort(key=lambda t: -t[0])
        return self._pick(refined or scored)

    def _next_targets(self, view: View, line: Line, tb: int, cell: int) -> tuple[int, bool, int]:
        """After collecting on `cell`: the treasures the next target may be (bits after this
        shift, in the spare), and how many of them the player holds (open cards)."""
        if view.open_cards and view.cards_left[view.me] > 1:
            return tb & ~(1 << cell), False, 1
        if view.cards_left[view.me] == 1 and view.return_home:
            return 1 << view.homes[view.me], False, 1
        bits, spare = tiles_after(*self._unknown, line)
        return bits, spare, 1

    def _share_after_reply(self, view: View, o: Ply, cell: int, bits: int, spare: bool, holding: int) -> float | None:
        """The chance to collect the next target on the next turn from `cell`, averaged over the
        next opponent's replies (weighted as in the chance node); None if the deadline passed first."""
        line_o, _rot, mask_o, board = o[:4]
        masks = view.maze.masks
        weights = self._reply_weights(view, o)
        total = got = 0.0
        index = -1
        for line_r, tile_r, rotations in each_reply(masks, line_o, mask_o):
            bits_r, spare_r = tiles_after(bits, spare, line_r)
            pawn = CARRY[line_r.name].get(cell, cell)
            banned = OPPOSITE[line_r.name]
            if self._deadline.passed():
                return None
            for _r, mask_r in rotations:
                index += 1
                w = 1.0 if weights is None else weights[index]
                if w <= 0.0:
                    continue
                total += w
                got += w * self._share(shifted(board, line_r, mask_r), tile_r, pawn, bits_r, spare_r, banned, holding)
        return got / total if total else 0.0

    # ------------------------------------------------------------------ the chance node
    def _reply_weights(self, view: View, o: Ply) -> list[float] | None:
        """The next opponent's replies weighted by its belief: for each target it may hold,
        the replies that collect it share that target's weight; with none, all replies do."""
        if view.players == 1:
            return None
        j = view.next_player
        line_o, _rot, mask_o, board = o[:4]
        maze = view.maze.copy()
        maze.shift(line_o.name, mask_o)
        pawn = CARRY[line_o.name].get(view.cells[j], view.cells[j])
        home = view.cards_left[j] == 0
        if home:
            if not view.return_home:
                return None
            probs = {-2: 1.0}
        else:
            w = self.memory.weights(j)
            total = sum(w.values())
            if total <= 0.0:
                return None
            probs = {t: v / total for t, v in w.items() if v > 0.0}
        reached = self._reached_by_replies(view, j, maze, board, line_o, mask_o, pawn, home)
        return _share_out(probs, reached)

    def _reached_by_replies(
        self, view: View, j: int, maze: Maze, board: Board, line_o: Line, mask_o: int, pawn: int, home: bool
    ) -> list[set[int]]:
        """For each reply of opponent j, the treasures (or -2 for home) it would reach."""
        where, spare_t = maze.treasures, maze.spare_treasure
        reached: list[set[int]] = []
        for line_r, _out, rotations in each_reply(view.maze.masks, line_o, mask_o):
            p = CARRY[line_r.name].get(pawn, pawn)
            for _r, mask_r in rotations:
                reach = flood(1 << p, shifted(board, line_r, mask_r))
                self.work += 1
                if home:
                    reached.append({-2} if (reach >> view.homes[j]) & 1 else set())
                    continue
                back, from_spare = tiles_before(reach, line_r)
                got = {where[c] for c in cells_of(back)}
                if from_spare:
                    got.add(spare_t)
                reached.append(got)
        return reached


def _share_out(probs: dict[int, float], reached: list[set[int]]) -> list[float]:
    """Each target's weight shared by the replies that collect it; an uncollectable one by all."""
    n = len(reached)
    weights = [0.0] * n
    spread = 0.0
    for t, p in probs.items():
        takers = [i for i in range(n) if t in reached[i]]
        if takers:
            share = p / len(takers)
            for i in takers:
                weights[i] += share
        else:
            spread += p
    if spread:
        share = spread / n
        weights = [x + share for x in weights]
    return weights
