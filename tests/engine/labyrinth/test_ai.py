"""The computer players: legal and reproducible, hard collects and denies, nobody cheats."""

from __future__ import annotations

import random

import pytest

from engine import IllegalAction
from engine.labyrinth import Game, Move, Rules, Shift
from engine.labyrinth.ai import LEVELS, EasyAI, ExpertAI, FairAI, HardAI, MediumAI, RandomAI, make_ai
from engine.labyrinth.ai.base import View
from engine.labyrinth.ai.expert import ROUND_MORE, ROUND_PLANS, ROUND_RANK, ROUND_SAFE, ROUND_UNGUARDED
from engine.labyrinth.maze import CELLS
from engine.labyrinth.ai.bits import CARRY, LINES, ROTATIONS, flood, pawns_before, shifted, tiles_after, tiles_before


def positions(count: int, players: int = 2, rules: Rules | None = None, seed: int = 0):
    """Shift-phase positions from games played by random players (varied, reproducible)."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        game = Game.new(players=players, seed=seed * 1000 + k, rules=rules)
        walker = RandomAI(seed * 1000 + k)
        for _ in range(rng.randrange(0, 30)):
            shift, move = walker.choose(game)
            game.apply(shift)
            game.apply(move)
            if game.phase == "over":
                break
        if game.phase == "shift":
            out.append(game)
    return out


def can_collect(game: Game) -> bool:
    """Brute force through the public API: does any legal shift let the pawn reach a target?"""
    for shift in game.legal_shifts():
        g = game.copy()
        g.apply(shift)
        for cell in g.reachable():
            t = g.board[cell].treasure
            if t is not None and t in g.targets():
                return True
            if not g.player.cards and g.rules.return_home and cell == g.player.home:
                return True
    return False


def collected(game: Game, shift: Shift, move: Move) -> bool:
    g = game.copy()
    me = g.current
    before = g.players[me].cards_left
    g.apply(shift)
    g.apply(move)
    return g.players[me].cards_left < before or g.winner == me


# ----------------------------------------------------------------- the bitboard tools
def test_bit_helpers_agree_with_the_engine_maze():
    rng = random.Random(3)
    game = Game.new(players=2, seed=11)
    maze = game.maze
    for _ in range(60):
        name = rng.choice(list(LINES))
        rotation, mask = rng.choice(ROTATIONS[maze.spare_mask])
        line = LINES[name]
        treasure_cell = rng.randrange(49)
        pawn = rng.randrange(49)
        board = shifted(tuple(maze._open), line, mask)
        tb, ts = tiles_after(1 << treasure_cell, False, line)
        after = maze.copy()
        marker = after.treasures[treasure_cell]
        after.shift(name, mask)
        assert board == tuple(after._open)
        carried = CARRY[name].get(pawn, pawn)
        assert flood(1 << carried, board) == after.reach_bits(carried)
        if marker >= 0:
            if ts:
                assert after.spare_treasure == marker
            else:
                assert after.treasures[tb.bit_length() - 1] == marker
        # the inverses undo the forward moves
        if not ts:
            assert tiles_before(tb, line) == (1 << treasure_cell, False)
        assert (pawns_before(1 << carried, line) >> pawn) & 1
        maze = after


# ----------------------------------------------------------------- every level
@pytest.mark.parametrize("level", sorted(LEVELS))
def test_every_level_returns_a_legal_turn(level):
    for players in (1, 2, 4):
        for game in positions(6, players=players, seed=players):
            shift, move = make_ai(level, seed=5).choose(game)
            game.apply(shift)  # raises IllegalAction if not legal
            game.apply(move)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_seed_same_decisions(level):
    games = positions(8, players=3, seed=7)
    first = [make_ai(level, seed=42).choose(g) for g in games]
    again = [make_ai(level, seed=42).choose(g) for g in games]
    assert first == again


def test_unknown_level_is_refused_with_the_names():
    with pytest.raises(ValueError, match="random, easy, medium, hard, expert, fair"):
        make_ai("grandmaster")


def test_choose_outside_the_shift_phase_is_refused():
    game = Game.new(players=2, seed=1)
    game.apply(Shift("N1"))
    with pytest.raises(IllegalAction, match="shift phase"):
        HardAI(1).choose(game)


# ----------------------------------------------------------------- collecting
@pytest.mark.parametrize("cls", [HardAI, MediumAI])
def test_collects_whenever_any_shift_allows_it(cls):
    checked = 0
    for rules in (Rules(), Rules(open_cards=True), Rules(return_home=False)):
        for game in positions(40, players=2, rules=rules, seed=13):
            if can_collect(game):
                checked += 1
                assert collected(game, *cls(3).choose(game)), game.to_dict()
    assert checked >= 10


def test_hard_walks_home_when_all_cards_are_found():
    for game in positions(30, players=2, seed=21):
        me = game.player
        me.found.extend(me.cards)
        me.cards.clear()
        if can_collect(game):
            shift, move = HardAI(2).choose(game)
            game.apply(shift)
            game.apply(move)
            assert game.winner == game.players.index(me)


def test_easy_sometimes_overlooks_but_mostly_collects():
    hits = total = 0
    for game in positions(60, players=2, seed=17):
        if can_collect(game):
            total += 1
            hits += collected(game, *EasyAI(total).choose(game))
    assert total >= 10
    assert 0.3 * total <= hits < total


# ----------------------------------------------------------------- no cheating
def _shuffle_hidden(game: Game, rng: random.Random) -> Game:
    """The same position with every card the player to act cannot see shuffled."""
    g = game.copy()
    me = g.current
    hidden = []
    for i, p in enumerate(g.players):
        keep = min(1, len(p.cards)) if i == me else 0
        hidden.extend(p.cards[keep:])
    rng.shuffle(hidden)
    for i, p in enumerate(g.players):
        keep = min(1, len(p.cards)) if i == me else 0
        n = len(p.cards) - keep
        p.cards[keep:] = hidden[:n]
        hidden = hidden[n:]
    return g


@pytest.mark.parametrize("level", ["hard", "medium", "easy"])
def test_decisions_ignore_hidden_cards(level):
    rng = random.Random(5)
    for game in positions(12, players=3, seed=31):
        a = make_ai(level, seed=9).choose(game)
        b = make_ai(level, seed=9).choose(_shuffle_hidden(game, rng))
        assert a == b


def test_view_holds_only_known_cards():
    game = Game.new(players=2, seed=4)
    view = View(game)
    from engine.labyrinth.tiles import TREASURES

    assert [TREASURES[t] for t in view.targets] == game.player.cards[:1]
    open_view = View(Game.new(players=2, seed=4, rules=Rules(open_cards=True)))
    assert [TREASURES[t] for t in open_view.targets] == game.player.cards
    assert len(view.unknown) == 23


# ----------------------------------------------------------------- threat and denial
def _opponent_home_threat(game: Game, shift: Shift) -> bool:
    """Brute force: after `shift` (and any move), can the next player reach home with some shift?"""
    g = game.copy()
    g.apply(shift)
    g.apply(Move(g.player.position))
    home = g.player.home
    for s in g.legal_shifts():
        h = g.copy()
        h.apply(s)
        if home in h.reachable():
            return True
    return False


def test_hard_measures_an_opponent_heading_home_exactly():
    ai = HardAI(1)
    checked = 0
    for game in positions(10, players=2, seed=41):
        opp = game.players[1 - game.current]
        opp.found.extend(opp.cards)
        opp.cards.clear()
        view = View(game)
        ai._unknown = view.treasure_bits(view.unknown)
        from engine.labyrinth.ai.base import first_ply

        for o in list(first_ply(view))[::5]:
            threat = ai._threat(view, o, 1 - game.current)
            assert threat == float(_opponent_home_threat(game, Shift(o[0].name, o[1])))
            checked += 1
    assert checked > 20


def test_hard_blocks_an_opponent_about_to_win_when_it_cannot_collect():
    blocked = 0
    for game in positions(80, players=2, seed=43):
        opp = game.players[1 - game.current]
        opp.found.extend(opp.cards)
        opp.cards.clear()
        if can_collect(game):
            continue
        outcomes = {s: _opponent_home_threat(game, s) for s in game.legal_shifts()}
        if all(outcomes.values()) or not any(outcomes.values()):
            continue
        shift, _ = HardAI(0).choose(game)
        assert not outcomes[shift], "hard left the way home open although it could block it"
        blocked += 1
    assert blocked >= 3


def test_hard_respects_a_clock_and_still_answers():
    ticks = iter(range(10**6))
    ai = HardAI(3, clock=lambda: next(ticks), time_limit=0.5)  # every reading is 'too late'
    for game in positions(5, players=2, seed=51):
        shift, move = ai.choose(game)
        game.apply(shift)
        game.apply(move)


@pytest.mark.parametrize("level", ["expert", "fair"])
def test_expert_levels_keep_the_kiosk_clock_cap(level):
    """With a clock that always reads 'too late', expert and fair (here three collections behind,
    so playing expert turns) skip the threat pass and the refinements (apart from one measured
    option each) and still answer legally: far less work than without the clock."""
    capped = free = 0
    for game in positions(6, players=4, seed=52):
        if level == "fair":
            _behind_by_three(game)
        ai = make_ai(level, seed=3, clock=iter(range(10**6)).__next__, time_limit=0.5)
        shift, move = ai.choose(game)
        capped += ai.work
        unlimited = make_ai(level, seed=3)
        unlimited.choose(game)
        free += unlimited.work
        game.apply(shift)
        game.apply(move)
    assert capped < 0.7 * free


def _behind_by_three(game: Game) -> None:
    """Let the next player collect three cards more than the player to act."""
    opp = game.players[(game.current + 1) % len(game.players)]
    opp.found.extend(opp.cards[:3])
    del opp.cards[:3]


def test_hard_plans_its_next_turn():
    """Where the target cannot be reached now, hard ends the move where a next shift reaches it
    far more often than medium does (two-turn search versus greedy distance)."""

    def ready(game, shift, move):
        g = game.copy()
        g.apply(shift)
        g.apply(move)
        g.current = game.current  # the same player's next turn, board unchanged
        g.last_insertion = None
        return can_collect(g)

    hard = medium = total = 0
    for game in positions(40, players=2, seed=61):
        if can_collect(game):
            continue
        total += 1
        hard += ready(game, *HardAI(1).choose(game))
        medium += ready(game, *MediumAI(1).choose(game))
    assert total >= 15
    assert hard > medium and hard >= 0.6 * total


# ----------------------------------------------------------------- expert and fair
def _play_into(game: Game, ais: dict, turns: int) -> None:
    """Play `turns` turns with the given AIs per seat (others: medium), stopping at the end."""
    for _ in range(turns):
        if game.phase != "shift":
            return
        ai = ais.get(game.current) or MediumAI(game.current)
        shift, move = ai.choose(game)
        game.apply(shift)
        game.apply(move)


@pytest.mark.parametrize("level, players", [("expert", 2), ("fair", 2), ("expert", 4)])
def test_same_seed_and_budget_same_decisions_over_a_game(level, players):
    """The memory (repetitions, beliefs) makes decisions depend on the game so far: replaying
    the same game with the same seed and budget gives the same decisions all the way (also
    with four players, where more opponents are read and spoiled)."""
    runs = []
    for _ in range(2):
        game = Game.new(players=players, seed=77)
        ais = {
            0: make_ai(level, seed=3, budget=4000),
            1: make_ai("hard", seed=4),
            2: make_ai("hard", seed=5),
            3: make_ai("hard", seed=6),
        }
        moves = []
        for _turn in range(24):
            if game.phase != "shift":
                break
            shift, move = ais[game.current].choose(game)
            moves.append((shift, move))
            game.apply(shift)
            game.apply(move)
        runs.append(moves)
    assert runs[0] == runs[1] and len(runs[0]) >= 10


def test_expert_budget_is_the_work_limit():
    """A smaller budget stops the refinement sooner (deterministically, no clock involved)."""
    spent = {}
    for budget in (300, 30000):
        total = 0
        for game in positions(12, players=2, seed=71):
            ai = ExpertAI(1, budget=budget)
            ai.choose(game)
            total += ai.work
        spent[budget] = total
    assert spent[300] < spent[30000]


@pytest.mark.parametrize("level", ["expert", "fair"])
def test_new_levels_ignore_hidden_cards(level):
    rng = random.Random(6)
    for game in positions(10, players=3, seed=33):
        a = make_ai(level, seed=9).choose(game)
        b = make_ai(level, seed=9).choose(_shuffle_hidden(game, rng))
        assert a == b


@pytest.mark.parametrize("level", ["hard", "expert", "fair"])
def test_what_is_remembered_from_earlier_turns_is_public(level):
    """After watching eight turns, the AI's memory (beliefs about targets, repetitions) still
    holds nothing hidden: reshuffling every hidden card now changes no decision."""
    rng = random.Random(8)
    checked = 0
    for seed in range(4):
        game = Game.new(players=2, seed=300 + seed)
        watcher = make_ai(level, seed=1)
        _play_into(game, {0: watcher}, 8)
        if game.phase != "shift" or game.current != 0:
            continue
        twin = make_ai(level, seed=1)
        replay = Game.new(players=2, seed=300 + seed)
        _play_into(replay, {0: twin}, 8)
        assert watcher.choose(game) == twin.choose(_shuffle_hidden(replay, rng))
        checked += 1
    assert checked >= 2


def test_expert_reads_targets_from_the_opponents_moves():
    """Against a player that always takes a reachable target, the treasures it walked past are
    (almost) ruled out: expert's belief puts far more weight on the true target than a guess."""
    from engine.labyrinth.tiles import TREASURES

    index = {t: i for i, t in enumerate(TREASURES)}
    gain = total = 0
    for seed in range(4):
        game = Game.new(players=2, seed=400 + seed)
        expert = ExpertAI(1)
        for _turn in range(30):
            if game.phase != "shift":
                break
            if game.current == 0:
                shift, move = expert.choose(game)
                opp = game.players[1]
                weights = expert.memory.weights(1)
                if opp.cards and game.turns > 2 and sum(weights.values()):
                    p = weights.get(index[opp.cards[0]], 0.0) / sum(weights.values())
                    gain += p * len(weights)  # 1.0 on average for a uniform guess
                    total += 1
            else:
                shift, move = MediumAI(2).choose(game)
            game.apply(shift)
            game.apply(move)
    assert total >= 20
    assert gain / total > 2.0


def _true_target_share(memory, game: Game, j: int) -> float | None:
    from engine.labyrinth.tiles import TREASURES

    opp = game.players[j]
    weights = memory.weights(j)
    if not opp.cards or not sum(weights.values()):
        return None
    return weights.get(TREASURES.index(opp.cards[0]), 0.0) / sum(weights.values())


def test_expert_reads_a_planners_target_from_where_it_stands():
    """`hard` cannot be read by what it walks past alone (it collects every other turn), but it
    ends where its next shifts reach its target. expert learns from the shown cards that this
    opponent plans, and then, on the turns after one where hard did not collect, puts far
    more weight on hard's true target than a memory without the plan reading that watched
    the very same turns."""
    from engine.labyrinth.ai.memory import Memory
    from engine.labyrinth.maze import ROTATED

    reading, blind, planners = [], [], []
    for seed in range(3):
        game = Game.new(players=2, seed=700 + seed)
        expert, hard = ExpertAI(1), HardAI(2)
        shadow = Memory(read_plans=False)  # sees the same views and the same own moves
        collected = True
        while game.phase == "shift" and game.turns < 120:
            if game.current == 0:
                view = View(game)
                shadow.observe(view)
                shift, move = expert.choose(game)
                line = LINES[shift.insertion]
                mask = ROTATED[view.maze.spare_mask][shift.rotation]
                shadow.chose(view, line, mask, move.cell[0] * 7 + move.cell[1], shifted(view.board, line, mask))
                share, share_blind = (_true_target_share(m, game, 1) for m in (expert.memory, shadow))
                if share is not None and share_blind is not None and not collected:
                    reading.append(share)
                    blind.append(share_blind)
            else:
                left = game.players[1].cards_left
                shift, move = hard.choose(game)
            game.apply(shift)
            game.apply(move)
            if game.current == 0:
                collected = game.players[1].cards_left != left
        planners.append(expert.memory.planner(1))
    assert len(reading) >= 15
    assert sum(reading) > 1.3 * sum(blind), (sum(reading) / len(reading), sum(blind) / len(blind))
    assert sum(planners) / len(planners) > 0.75  # hard's shown cards said: it plans


def test_plan_reading_counts_for_little_against_a_player_who_does_not_plan():
    """`easy` walks about without planning: its shown cards soon say so, and the reading's
    weight (how sure expert is that it plans) falls below an even guess."""
    game = Game.new(players=2, seed=77)
    expert, easy = ExpertAI(1), EasyAI(3)
    while game.phase == "shift" and game.turns < 60:
        shift, move = (expert if game.current == 0 else easy).choose(game)
        game.apply(shift)
        game.apply(move)
    assert expert.memory.planner(1) < 0.5


def _heading_home(game: Game, player: int) -> None:
    p = game.players[player]
    p.found.extend(p.cards)
    p.cards.clear()


def test_blocks_before_collecting_when_the_opponent_would_win():
    """The opponent only needs to get home. When every collecting shift leaves its way home
    open and some shift closes it, hard and expert block instead of collecting a card that
    does not win."""
    blocked = 0
    for game in positions(120, players=2, seed=47):
        _heading_home(game, 1 - game.current)
        if len(game.player.cards) < 2 or not can_collect(game):
            continue
        collecting = [s for s in game.legal_shifts() if _collects_with(game, s)]
        if not all(_opponent_home_threat(game, s) for s in collecting):
            continue
        open_after = {s: _opponent_home_threat(game, s) for s in game.legal_shifts()}
        if all(open_after.values()):
            continue
        for level in ("hard", "expert"):
            shift, _move = make_ai(level, seed=0).choose(game)
            assert not open_after[shift], f"{level} collected and left the opponent its way home"
        blocked += 1
    assert blocked >= 3


def _collects_with(game: Game, shift: Shift) -> bool:
    g = game.copy()
    g.apply(shift)
    return any(g.board[c].treasure in g.targets() for c in g.reachable() if g.board[c].treasure)


@pytest.mark.parametrize("level", ["hard", "expert"])
def test_a_recurring_position_is_not_answered_the_same_way_for_ever(level):
    """A constructed loop: the same position comes back at the AI's turn again and again (as
    when both players push the same arrows). A player without memory answers it the same way
    every time; hard and expert penalise recreating a position they produced before, so they
    try something else within a few repetitions."""
    looping = 0
    for game in positions(8, players=2, seed=53):
        if can_collect(game):
            continue
        fresh = {make_ai(level, seed=1).choose(game) for _ in range(2)}
        assert len(fresh) == 1  # without memory: the same answer every time
        ai = make_ai(level, seed=1)
        answers = []
        for k in range(5):
            again = game.copy()
            again.turns = game.turns + 2 * k  # the same position, turns later
            answers.append(ai.choose(again))
        assert ai.memory.loop == 4
        assert len(set(answers)) >= 2, "answered a recurring position the same way five times"
        assert max(answers.count(a) for a in answers) <= 3
        looping += 1
    assert looping >= 3


def test_a_standoff_of_blocks_does_not_last_for_ever():
    """Measured in `labyrinth-sim` (fair against hard): from turn 58 `hard` had all its cards
    and stood one step from its corner; `fair`, two cards short, blocked that step every turn
    with a differently turned spare, so no position ever repeated and the game reached the
    300-turn cap. Blocking a winning move keeps its full weight while the blocker still
    collects; after STANDOFF_GRACE own turns without a collection it fades to nothing over
    STANDOFF_FADE more, and the block is no longer played for its own sake."""
    from engine.labyrinth.ai.hard import STANDOFF_FADE, STANDOFF_GRACE

    checked = 0
    for game in positions(80, players=2, seed=43):
        opp = 1 - game.current
        game.players[opp].found.extend(game.players[opp].cards)
        game.players[opp].cards.clear()
        if can_collect(game):
            continue
        outcomes = {s: _opponent_home_threat(game, s) for s in game.legal_shifts()}
        if all(outcomes.values()) or not any(outcomes.values()):
            continue
        ai = HardAI(0)
        weights = []
        for k in range(STANDOFF_GRACE + STANDOFF_FADE + 2):
            again = game.copy()
            again.turns = game.turns + 2 * k  # its turns go by, its cards stay the same
            shift, _ = ai.choose(again)
            weights.append(ai._deny_weight(View(again), opp))
            if k < STANDOFF_GRACE:
                assert not outcomes[shift], "it left the way home open while still collecting"
        assert ai.memory.stuck == STANDOFF_GRACE + STANDOFF_FADE + 1
        full = weights[0]
        assert full > 0 and weights[: STANDOFF_GRACE + 1] == [full] * (STANDOFF_GRACE + 1)
        fading = weights[STANDOFF_GRACE:]
        assert all(a > b for a, b in zip(fading, fading[1:-1])) and fading[-1] == fading[-2] == 0.0
        checked += 1
        if checked == 3:
            break
    assert checked == 3


def test_fair_plays_as_expert_when_far_behind_at_a_table_it_has_trailed():
    checked = 0
    for game in positions(20, players=2, seed=57):
        me, opp = game.player, game.players[1 - game.current]
        if len(me.cards) < 3 or len(me.cards) != len(opp.cards):
            continue
        opp.found.extend(opp.cards[:3])  # the opponent is three collections ahead
        del opp.cards[:3]
        for planner in (True, False):
            fair = FairAI(4)
            fair.memory.turns_seen = 12  # it has trailed all game: full firmness
            assert fair.firmness() == 1.0
            if not planner:
                fair.reading.plans = fair.reading.closest = 1  # the table walks, does not plan ...
                fair.turn_kind = lambda view: 3.0  # ... and this is one of its expert turns
            # It spoils the leader as far as the table reads above medium (not at all
            # against a player who does not plan: that one is outrun), and blocks a win.
            spoil = fair.spoiling()
            assert (spoil > 0.5) if planner else (spoil == 0.0)
            expert = ExpertAI(4, denial=spoil)
            expert.duel_denial = fair.duel_denial  # fair's own weights are its whole denial
            assert fair.choose(game) == expert.choose(game)
            checked += 1
    assert checked >= 20


def test_fair_helps_when_ahead():
    """Far ahead at a table read as medium, fair plays kind turns: its shift gives the opponent at least as
    good a chance to collect as any other shift (so at least as good as expert's), and its
    own pawn still takes its target when that shift allows it (games keep moving)."""
    from engine.labyrinth.ai.base import first_ply

    checked = took = 0
    for game in positions(40, players=2, seed=59):
        me, opp = game.player, game.players[1 - game.current]
        if len(opp.cards) < 3 or len(me.cards) != len(opp.cards):
            continue
        me.found.extend(me.cards[:2])
        del me.cards[:2]
        fair = FairAI(4)
        fair.reading.plans = fair.reading.closest = 2  # closest, never ready: medium, minus two
        shift, move = fair.choose(game)
        assert fair.kind_turns == 1
        view = View(game)
        fair._prepare_beliefs(view)
        chance = {(o[0].name, o[1]): fair._threat(view, o, 1 - game.current) for o in first_ply(view)}
        # (every AI returns rotations from the distinct orientations first_ply lists)
        assert chance[shift.insertion, shift.rotation] == max(chance.values())
        g = game.copy()
        g.apply(shift)
        if any(g.board[c].treasure in g.targets() for c in g.reachable() if g.board[c].treasure):
            assert collected(game, shift, move)
            took += 1
        checked += 1
    assert checked >= 10 and took >= 1


def test_fair_strength_follows_the_score():
    """At the table's strength when level or one behind (whoever has led so far), stronger from
    two behind (a whole kind three behind), a kind gentler per collection ahead (no expert turns),
    unless the table plays as well as it does."""
    game = Game.new(players=2, seed=5)
    fair = FairAI(1)
    reading = fair.reading
    reading.chances, reading.plans, reading.ready, reading.closest = 4, 6, 3, 6  # reads as medium
    table = fair.table_strength()
    assert 1.7 < table < 2.3
    level = fair.turn_kind(View(game))
    fair.memory.turns_seen, fair.memory.turns_ahead = 12, 8  # having led does not ease it
    assert fair.turn_kind(View(game)) == level == table
    me, opp = game.player, game.players[1 - game.current]
    kinds = []
    for _behind in range(3):
        opp.found.append(opp.cards.pop())
        kinds.append(fair.turn_kind(View(game)))
    assert kinds[0] == table < kinds[1] < kinds[2] == table + 1.0
    assert fair.strength(View(game)) == kinds[2] - 2.0 > 0.0
    ahead = []
    for _ahead in range(5):
        me.found.append(me.cards.pop())
        ahead.append(fair.turn_kind(View(game)))
    assert ahead[:3] == kinds[::-1][1:] + [table]
    assert table > ahead[3] > ahead[4] >= 0.0 and fair.strength(View(game)) == 0.0
    reading.ready, reading.closest = 6, 0  # now reads as a planner
    assert fair.table_strength() > 2.9 and fair.strength(View(game)) > 0.8  # no gift to it


def _fair_reading_against(level: str, games: int) -> list[float]:
    """The strength fair reads from `level`'s moves at the end of some 2-player games."""
    out = []
    for g in range(games):
        game = Game.new(players=2, seed=600 + g)
        fair = FairAI(g, budget=2000)
        other = make_ai(level, seed=g + 1)
        while game.phase == "shift" and game.turns < 120:
            ai = fair if game.current == g % 2 else other
            shift, move = ai.choose(game)
            game.apply(shift)
            game.apply(move)
        out.append(fair.table_strength())
    return out


def test_fair_reads_how_well_the_opponent_plays():
    """From the revealed cards, fair judges the opponent's earlier turns: a player that walks
    past its treasure reads weaker than one that always ends ready for it (easy < medium <
    hard on the 1-3 scale), and the reading restarts with a new game."""
    easy = _fair_reading_against("easy", 3)
    medium = _fair_reading_against("medium", 3)
    hard = _fair_reading_against("hard", 2)
    assert sum(easy) / len(easy) < 1.7 < min(medium) <= max(medium) < 2.3 < 2.5 < min(hard)
    from engine.labyrinth.ai.reading import Reading

    fresh = Reading()
    assert 2.5 < fresh.strength() < 3.0  # no evidence yet: the prior, a likely planner
    fresh.plans = fresh.closest = 1
    assert fresh.strength() < 2.0  # one unready turn outweighs it


def test_fair_is_gentle_when_ahead_with_kind_turns_not_weaker_ones():
    """Ahead of a table read as medium, its turns are the table's own or kind turns, never easy
    ones (which only slowed the game down), with the same average kind as the score asks for."""
    from engine.labyrinth.ai.fair import EASY, KIND, MEDIUM

    game = Game.new(players=2, seed=5)
    game.player.found.append(game.player.cards.pop())  # one collection ahead
    fair = FairAI(3)
    reading = fair.reading
    reading.chances, reading.plans, reading.ready, reading.closest = 4, 6, 3, 6
    view = View(game)
    table, level = fair.table_strength(), fair.turn_kind(view)
    assert level < table - 0.5
    kinds = [fair._settle(view) for _ in range(400)]
    assert set(kinds) <= {KIND, int(table), int(table) + 1}  # kind turns or the table's own
    assert kinds.count(KIND) > 100 and kinds.count(EASY) < 40 and kinds.count(MEDIUM) > 100
    average = sum(kinds) / len(kinds)
    assert abs(average - level) < 0.25


def test_closest_steps_is_zero_exactly_where_the_target_can_be_reached():
    """The walk-towards measure the reading uses agrees with the reach test: no steps left
    exactly when some shift lets the pawn stand on the treasure."""
    from engine.labyrinth.ai.reading import can_reach, closest_steps

    seen = set()
    for game in positions(12, players=2, seed=61):
        view = View(game)
        if not view.targets:
            continue
        pawn, treasure = view.cells[view.me], view.targets[0]
        reach = can_reach(game.maze, pawn, treasure, view.banned)
        steps = closest_steps(game.maze, pawn, treasure, view.banned)
        assert (steps == 0) == reach and 0 <= steps < 13
        seen.add(reach)
    assert seen == {True, False}


def test_the_reading_judges_only_turns_whose_target_was_revealed():
    """The reading never counts a turn before the card it was played for is shown: while the
    opponent has not collected, nothing is judged; its first collection is."""
    game = Game.new(players=2, seed=9)
    fair = FairAI(1, budget=2000)
    opponent = MediumAI(2)
    judged = []
    while game.phase == "shift" and game.turns < 60:
        if game.current == 0:
            shift, move = fair.choose(game)
            judged.append((game.players[1].cards_left, fair.reading.chances + fair.reading.plans))
        else:
            shift, move = opponent.choose(game)
        game.apply(shift)
        game.apply(move)
    assert any(left < 12 for left, _n in judged)
    assert all(n == 0 for left, n in judged if left == 12)
    assert all(n > 0 for left, n in judged if left < 12)


def test_with_four_players_expert_leaves_a_block_to_the_player_between():
    """Two seats on, a player only needs to get home; the player between plays first and can
    block it too. Where hard gives up a collection to block it, expert collects: it leaves the
    block to the player in between."""
    contrasted = 0
    for game in positions(60, players=4, seed=61):
        _heading_home(game, (game.current + 2) % 4)
        if not can_collect(game):
            continue
        shift, move = HardAI(0).choose(game)
        if collected(game, shift, move):
            continue  # hard did not block here
        shift, move = ExpertAI(0).choose(game)
        assert collected(game, shift, move), "expert blocked a player it does not play just before"
        contrasted += 1
    assert contrasted >= 3


def _send_home(game: Game, i: int, rng: random.Random) -> None:
    """Player i holds no cards and stands two to five steps from home."""
    _heading_home(game, i)
    hr, hc = game.players[i].home
    game.players[i].cell = rng.choice([r * 7 + c for r, c in CELLS if 2 <= abs(r - hr) + abs(c - hc) <= 5])


def _race(games: list[Game], seed: int, runners: tuple[int, ...]) -> list[Game]:
    """The positions with the players `runners` seats on from the one to act (0: that player
    itself) sent home (`_send_home`), where the player to act cannot collect this turn."""
    rng = random.Random(seed)
    out = []
    for game in games:
        for i in sorted((game.current + k) % len(game.players) for k in runners):
            _send_home(game, i, rng)
        if not can_collect(game):
            out.append(game)
    return out


EVERYONE, OTHERS = (0, 1, 2, 3), (1, 2, 3)


def _rounds_played(ai: ExpertAI) -> list[tuple[object, int, float]]:
    """Record every plan expert plays the round out for: (option, cell, value)."""
    seen: list[tuple[object, int, float]] = []
    play = ai._round

    def spy(view, o, cell):
        value = play(view, o, cell)
        seen.append((o, cell, value))
        return value

    ai._round = spy  # type: ignore[method-assign]
    return seen


@pytest.mark.parametrize("runner", [0, 2])
def test_in_the_race_home_expert_plays_the_round_out_on_public_knowledge(runner):
    """Heading home (runner 0: the player to act), or collecting while an opponent two seats on
    heads home (runner 2), expert models the opponents' turns on what the table knows:
    shuffling the cards it cannot see never changes its decision, though it played rounds out."""
    rng = random.Random(7)
    rounds = 0
    for game in _race(positions(12, players=4, seed=63 + runner), 63 + runner, (runner,)):
        ai = ExpertAI(9)
        seen = _rounds_played(ai)
        a = ai.choose(game)
        rounds += len(seen)
        assert a == ExpertAI(9).choose(_shuffle_hidden(game, rng))
    assert rounds >= 10


def test_fair_plays_the_round_out_only_while_it_may_block():
    """At a table of four, fair's expert turns play the round out in the race home as expert's
    do only while it may block a player about to win: not at a table it has mostly led."""
    rounds = {True: 0, False: 0}
    for game in _race(positions(12, players=4, seed=67), 67, (2,)):
        for firm in (True, False):
            fair = FairAI(4)
            fair.turn_kind = lambda view: 3.0  # an expert turn
            fair.memory.turns_seen = 12
            fair.memory.turns_ahead = 0 if firm else 12
            seen = _rounds_played(fair)
            fair.choose(game)
            rounds[firm] += len(seen)
    assert rounds[False] == 0 < rounds[True]


def _played_round(game: Game, o, cell: int) -> Game:
    """The game after a plan of the player to act and the round after it, every opponent playing
    as expert models it (`hard` on a quarter of expert's budget), up to the player's next turn."""
    g = game.copy()
    g.apply(Shift(o[0].name, o[1]))
    g.apply(Move(CELLS[cell]))
    while g.phase != "over" and g.current != game.current:
        s, m = HardAI(0, budget=30000 // 4).choose(g)
        g.apply(s)
        g.apply(m)
    return g


def _foresees_its_rounds(games: list[Game]) -> tuple[int, int]:
    """Play out, in the game, every round expert played out for a plan (its opponents as it
    models them: `hard` on a quarter of its budget), and check its foresight: 0 if an opponent
    got home first, ROUND_UNGUARDED when no shift of its next turn can then guard home from the runner
    after it, else at least ROUND_SAFE and ROUND_SAFE + 1 exactly when its target is then in reach. It keeps a plan that fares best (the better scored of two that fare alike).
    Returns (rounds checked, rounds with the target in reach)."""
    open_after = checked = 0
    for game in games:
        ai = ExpertAI(0)
        seen = _rounds_played(ai)
        shift, move = ai.choose(game)
        for o, cell, value in seen:
            g = _played_round(game, o, cell)
            if g.phase == "over":
                assert value == 0.0
            elif value == ROUND_UNGUARDED:  # the runner after it stands where no shift can guard home
                assert not _guardable(g)
            else:
                assert value >= ROUND_SAFE
                assert (value >= ROUND_SAFE + 1.0) == can_collect(g)
                open_after += value >= ROUND_SAFE + 1.0
            checked += 1
        fared = [v - ROUND_RANK * rank for rank, (_o, _c, v) in enumerate(seen)]
        kept = [
            f
            for (o, cell, _v), f in zip(seen, fared)
            if (o[0].name, o[1], CELLS[cell]) == (shift.insertion, shift.rotation, move.cell)
        ]
        assert kept and kept[0] == max(fared)
    return checked, open_after


def test_heading_home_at_a_table_of_four_expert_foresees_the_round_it_models():
    """With every player heading home (every target public) and opponents who play as expert
    models them, the round it plays out for a plan is the round the game then plays."""
    games = _race(positions(30, players=4, seed=64), 2, EVERYONE)
    checked, open_after = _foresees_its_rounds(games)
    assert checked >= 20 and 0 < open_after < checked


def test_collecting_while_the_others_race_home_expert_foresees_the_round_it_models():
    """Still collecting while every opponent heads home, expert plays the round out too (the
    race home has begun), tracking its own card as the shifts move it; against opponents who
    play as it models them, it foresees that round exactly."""
    games = _race(positions(30, players=4, seed=66), 4, OTHERS)
    checked, open_after = _foresees_its_rounds(games)
    assert checked >= 20 and 0 < open_after < checked


def test_heading_home_expert_looks_at_further_shifts_when_its_best_plans_let_someone_home():
    """Heading home, when none of its best plans keeps every opponent from getting home first
    with its own way home open, expert plays the round out for the best plan of further shifts
    (one per shift), and stops at the first that does."""
    looked_further = 0
    for game in _race(positions(30, players=4, seed=64), 2, EVERYONE):
        ai = ExpertAI(0)
        seen = _rounds_played(ai)
        ai.choose(game)
        first, further = seen[:ROUND_PLANS], seen[ROUND_PLANS:]
        if not further:
            continue
        looked_further += 1
        assert all(v < ROUND_SAFE + 1.0 for _o, _c, v in first + further[:-1])
        shifts = [(o[0].name, o[1]) for o, _c, _v in further]
        assert len(set(shifts)) == len(shifts) <= ROUND_MORE
        assert not set(shifts) & {(o[0].name, o[1]) for o, _c, _v in first}
    assert looked_further >= 3


def _guardable(game: Game) -> bool:
    """Brute force through the public API, the player to act's turn: whether some shift of it
    (then staying) leaves the next player, heading home, no shift that takes it home."""
    for shift in game.legal_shifts():
        g = game.copy()
        g.apply(shift)
        g.apply(Move(g.player.position))
        if g.phase == "over" or not can_collect(g):
            return True
    return False


def test_at_two_players_expert_keeps_a_runner_off_the_squares_no_shift_can_guard():
    """Two players, the opponent heading home: expert plays its turn and the opponent's reply
    out (the opponent as `hard`) and marks a plan after which no shift of its next turn keeps
    the opponent from home: a square no single shift can guard. Checked against the game played
    that way, by brute force; and it never keeps such a plan when another keeps the race open."""
    unguarded = checked = 0
    for game in _race(positions(16, players=2, seed=83), 83, (1,)):
        ai = ExpertAI(0)
        seen = _rounds_played(ai)
        shift, move = ai.choose(game)
        for o, cell, value in seen:
            g = _played_round(game, o, cell)
            if g.phase == "over":
                assert value == 0.0
                continue
            assert (value == ROUND_UNGUARDED) == (not _guardable(g))
            unguarded += value == ROUND_UNGUARDED
            checked += 1
        kept = [v for o, c, v in seen if (o[0].name, o[1], CELLS[c]) == (shift.insertion, shift.rotation, move.cell)]
        if any(v >= ROUND_SAFE for _o, _c, v in seen):
            assert kept and kept[0] >= ROUND_SAFE
    assert checked >= 20 and unguarded >= 2


class FloodClock:
    """A clock that advances `step` seconds with every flood fill (the unit of a search's work),
    wherever in the search it happens: a decision's time is then its work, as on a slow board
    with nothing else running, and no test depends on the machine's speed."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, step: float) -> None:
        from engine.labyrinth.ai import base, bits, expert, fair, hard, memory

        self.now = 0.0
        real = bits.flood

        def counting(start: int, board: tuple[int, int, int, int]) -> int:
            self.now += step
            return real(start, board)

        for module in (bits, base, hard, expert, fair, memory):
            if getattr(module, "flood", None) is real:
                monkeypatch.setattr(module, "flood", counting)

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("level, players", [("hard", 2), ("expert", 2), ("expert", 4), ("fair", 4)])
def test_a_decision_keeps_to_its_one_budget(monkeypatch, level, players):
    """One budget per decision, shared by every part of the search (the threat pass, the
    refinements, the ways to collect, every opponent played out in the round): no decision
    overruns it by more than 10%, in play and in the race home at a table of four, with a
    clock that advances with the work (a Pi 4's 15 us a flood fill) and a budget far below
    what the search would like (a third to a tenth of its own work budget)."""
    clock = FloodClock(monkeypatch, 15e-6)
    limit = 0.06  # 4000 flood fills
    games = positions(10, players=players, seed=81)
    if players == 4:
        games += _race(positions(10, players=4, seed=82), 82, (0, 2))
    capped = 0
    for game in games:
        if level == "fair":
            _behind_by_three(game)  # expert turns
        ai = make_ai(level, seed=5, clock=clock, time_limit=1.0)
        for _turn in range(3):
            if game.phase != "shift":
                break
            began = clock()
            shift, move = ai.choose(game, time_limit=limit)
            spent = clock() - began
            assert spent <= 1.1 * limit, f"{level} thought {spent / limit:.0%} of its budget"
            capped += spent >= limit
            game.apply(shift)
            game.apply(move)
    assert capped >= 5  # the budget did cut decisions short


def test_heading_home_expert_skips_the_round_when_the_kiosk_clock_says_time_is_up():
    """On the kiosk the round is played out only while there is time: with a clock that always
    reads 'too late' expert keeps its best scored plan, a legal turn."""
    for game in _race(positions(8, players=4, seed=65), 3, (0,)):
        ai = ExpertAI(0, clock=iter(range(10**6)).__next__, time_limit=0.5)
        seen = _rounds_played(ai)
        shift, move = ai.choose(game)
        assert not seen
        game.apply(shift)
        game.apply(move)
