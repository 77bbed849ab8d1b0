"""Random legal play never breaks the invariants; saves round-trip at every step."""

import json
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import InvalidState
from engine.labyrinth import TREASURES, Game, Move, Rules, Shift
from engine.labyrinth.maze import CELLS


def check_invariants(game):
    tiles = [game.board[c] for c in game.board] + [game.spare]
    assert len(tiles) == 50
    assert Counter(t.treasure for t in tiles if t.treasure) == Counter(TREASURES)
    dealt = [t for p in game.players for t in p.cards + p.found]
    assert sorted(dealt) == sorted(TREASURES)
    for p in game.players:
        assert p.position in game.board
    reach = {cell: game.reachable(cell) for cell in CELLS}
    for a, cells in reach.items():
        for b in cells:
            assert a in reach[b], f"{b} reachable from {a} but not back"


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    seed=st.integers(0, 2**32),
    open_cards=st.booleans(),
    return_home=st.booleans(),
    choices=st.lists(st.integers(0, 10**6), min_size=10, max_size=60),
)
def test_random_legal_play_keeps_invariants_and_round_trips(players, seed, open_cards, return_home, choices):
    game = Game.new(players=players, seed=seed, rules=Rules(open_cards=open_cards, return_home=return_home))
    for i, pick in enumerate(choices):
        if game.phase == "over":
            break
        if game.phase == "shift":
            shifts = game.legal_shifts()
            game.apply(shifts[pick % len(shifts)])
        else:
            cells = sorted(game.reachable())
            game.apply(Move(cells[pick % len(cells)]))
        restored = Game.from_dict(json.loads(json.dumps(game.to_dict())))
        assert restored == game
        assert restored.to_dict() == game.to_dict()
        if i % 5 == 0:
            check_invariants(game)
    check_invariants(game)


def test_copy_is_independent():
    game = Game.new(players=2, seed=1)
    twin = game.copy()
    twin.apply(Shift("N1"))
    twin.apply(Move(twin.player.position))
    assert game.phase == "shift" and game.turns == 0 and twin.turns == 1
    assert game != twin
    assert game.copy() == game


def test_a_random_game_ends_with_a_winner():
    import random

    rng = random.Random(3)
    game = Game.new(players=1, seed=3, rules=Rules(return_home=False))
    while game.phase != "over":
        shifts = game.legal_shifts()
        best = None
        for s in shifts:
            trial = game.copy()
            trial.apply(s)
            spot = trial.treasure_cell(trial.player.target)
            if spot in trial.reachable():
                best = (s, spot)
                break
        if best:
            game.apply(best[0])
            game.apply(Move(best[1]))
        else:
            game.apply(rng.choice(shifts))
            game.apply(Move(rng.choice(sorted(game.reachable()))))
        assert game.turns < 2000
    assert game.winner == 0 and game.players[0].cards_left == 0
    assert Game.from_dict(game.to_dict()) == game


# ---------------------------------------------------------------- damaged saves are refused


def saved():
    game = Game.new(players=3, seed=5)
    game.apply(Shift("W3", 1))
    return game.to_dict()


@pytest.mark.parametrize(
    "damage,message",
    [
        (lambda d: d.update(version=99), "version"),
        (lambda d: d.update(game="chess"), "not a labyrinth"),
        (lambda d: d.pop("board"), "missing board"),
        (lambda d: d.update(board=d["board"][:-1]), "49 tiles"),
        (lambda d: d["board"].__setitem__(0, ["NS", None]), "fixed tile"),
        (
            lambda d: d["board"].__setitem__(1, [d["board"][1][0], "bat" if d["board"][1][1] != "bat" else "rat"]),
            "movable tiles",
        ),
        (lambda d: d["board"].__setitem__(1, ["NESW", None]), "2 or 3 openings"),
        (lambda d: d["board"].__setitem__(1, ["SN", None]), "NESW order"),
        (lambda d: d.update(phase="dance"), "phase"),
        (lambda d: d.update(current=7), "current"),
        (lambda d: d["players"][0].update(position=[9, 0]), "off the board"),
        (lambda d: d["players"][0]["cards"].append("bat"), "exactly once"),
        (lambda d: d["players"][0].update(seat=1, color="yellow"), "share a seat"),
        (lambda d: d["players"][0].update(seat=1), "plays yellow"),
        (lambda d: d.update(outcome={"termination": "home", "winners": [0]}), "outcome"),
        (lambda d: d.update(last_insertion="Q9"), "insertion"),
        (lambda d: d.update(rules={"open_cards": "yes"}), "rules"),
    ],
)
def test_damaged_saves_are_refused_with_a_reason(damage, message):
    data = saved()
    damage(data)
    with pytest.raises(InvalidState, match=message):
        Game.from_dict(data)


def test_refuses_non_object():
    with pytest.raises(InvalidState):
        Game.from_dict([1, 2, 3])
