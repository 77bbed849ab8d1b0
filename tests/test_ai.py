"""The computer players: legal and reproducible, hard collects and denies, nobody cheats."""

from __future__ import annotations

import random

import pytest

from engine import Game, IllegalAction, Move, Rules, Shift
from engine.ai import LEVELS, EasyAI, HardAI, MediumAI, RandomAI, make_ai
from engine.ai.base import View
from engine.ai.bits import CARRY, LINES, ROTATIONS, flood, pawns_before, shifted, tiles_after, tiles_before


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
            game.apply(shift)      # raises IllegalAction if not legal
            game.apply(move)


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_seed_same_decisions(level):
    games = positions(8, players=3, seed=7)
    first = [make_ai(level, seed=42).choose(g) for g in games]
    again = [make_ai(level, seed=42).choose(g) for g in games]
    assert first == again


def test_unknown_level_is_refused_with_the_names():
    with pytest.raises(ValueError, match="random, easy, medium, hard"):
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
        keep = 1 if i == me else 0
        hidden.extend(p.cards[keep:])
    rng.shuffle(hidden)
    for i, p in enumerate(g.players):
        keep = 1 if i == me else 0
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
    from engine.tiles import TREASURES
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
        from engine.ai.base import first_ply
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
    ai = HardAI(3, clock=lambda: next(ticks), time_limit=0.5)   # every reading is 'too late'
    for game in positions(5, players=2, seed=51):
        shift, move = ai.choose(game)
        game.apply(shift)
        game.apply(move)


def test_hard_plans_its_next_turn():
    """Where the target cannot be reached now, hard ends the move where a next shift reaches it
    far more often than medium does (two-turn search versus greedy distance)."""
    def ready(game, shift, move):
        g = game.copy()
        g.apply(shift)
        g.apply(move)
        g.current = game.current   # the same player's next turn, board unchanged
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
