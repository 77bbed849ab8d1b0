"""Invariants of the card game over random play (hypothesis), and the deck table's rules."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards import CARDS, TREASURES, CardGame, CardRules, Place, Take, Termination, play_game
from engine.cards.ai import make_ai
from engine.cards.deck import DECK_TABLE, build_deck, parse_card, rotate_sides
from engine.cards.paths import Survey, edge_groups, edge_neighbours, joined_cards, layout_problem, removal_problem


# ---------------------------------------------------------------- the deck
def test_deck_composition():
    assert len(CARDS) == 50 and len(TREASURES) == 25 == len(set(TREASURES))
    counts = Counter(name for card in CARDS for name in card.names)
    assert set(counts) == set(TREASURES) and set(counts.values()) == {4}
    pairs = [frozenset(card.names) for card in CARDS]
    assert all(len(p) == 2 for p in pairs) and len(set(pairs)) == 50  # no pair twice
    for card in CARDS:
        assert 1 <= len(card.segments) <= 2
        assert all(0 <= seg < len(card.segments) for _, seg in card.treasures)
        sides = "".join(card.segments)
        assert len(sides) == len(set(sides)) and card.openings


def test_rotation_is_clockwise():
    assert rotate_sides("NE", 1) == "ES" and rotate_sides("NE", 3) == "NW" and rotate_sides("NESW", 2) == "NESW"
    assert CARDS[8].rotated(1).segments == ("ES", "NW")


@pytest.mark.parametrize(
    "row, words",
    [
        ("NX:anchor,acorn", "letters of NESW"),
        ("EN:anchor,acorn", "in order"),
        ("NE:anchor ES:acorn", "two segments"),
        ("N:anchor E:acorn S:bell", "one or two path segments"),
        ("NE:anchor,anchor", "two different treasures"),
        ("NE:anchor", "two different treasures"),
        ("NE:anchor,dragon", "unknown treasure"),
    ],
)
def test_bad_table_rows_are_refused(row, words):
    with pytest.raises(ValueError, match=words):
        parse_card(7, row)


def test_a_table_with_a_treasure_on_too_many_cards_is_refused():
    table = list(DECK_TABLE)
    table[1] = "NES:anchor,apple"  # anchor 5 times, acorn 3 times
    with pytest.raises(ValueError, match="not on exactly 4 cards: acorn, anchor"):
        build_deck(tuple(table))


# ---------------------------------------------------------------- random play
def check_invariants(game: CardGame) -> None:
    places = [p.card for p in game.layout.values()] + game.draw_pile + game.discards
    places += [c for h in game.hands for c in h] + [c for t in game.taken for c in t]
    assert sorted(places) == list(range(50)), "card conservation"
    assert len(game.layout) >= 2
    assert all(edge_neighbours(game.layout, cell) for cell in game.layout), "a lone card"
    if game.rules.keep_connected:
        assert len(edge_groups(game.layout)) == 1
    assert all(len(h) <= 2 for h in game.hands)
    if game.draw_pile and game.phase in ("place", "discard"):
        assert all(len(h) == 2 for h in game.hands)
    data = game.to_dict()
    again = CardGame.from_dict(json.loads(json.dumps(data)))
    assert again == game and again.to_dict() == data
    if game.phase == "over":
        assert game.winners and game.outcome is not None
    else:
        assert not game.winners
        if game.phase != "take":  # a player may lay their last card and then take
            assert game.hands[game.current]


def random_game(seed: int, players: int, keep_connected: bool, levels: list[str]):
    """Play a whole game with the given AI levels, checking invariants at every step."""
    rng = random.Random(seed)
    game = CardGame.new(
        players=players, seed=seed, rules=CardRules(keep_connected=keep_connected), first=rng.randrange(players)
    )
    ais = [make_ai(levels[i % len(levels)], seed + i) for i in range(players)]
    check_invariants(game)
    steps = 0
    while game.phase != "over":
        steps += 1
        assert steps < 200, "the game does not end"
        if game.phase == "place":
            survey = Survey(game.layout)
            action = ais[game.current].choose(game)
            expected = survey.matches(action.card, action.rotation, action.cell)
            seat = game.current
            game.apply(action)
            # Asking before laying gives what the layout walk finds after laying.
            assert joined_cards(game.layout, action.cell) == expected
            if game.phase == "take":
                assert game.current == seat and game.joined() == expected
                takes = game.legal_takes()
                assert takes[-1] == Take() and len(takes) > 1
                for take in takes:
                    assert game.take_problem(take.cards) is None
                    gone = {c for c, p in game.layout.items() if p.card in take.cards}
                    assert removal_problem(game.layout, gone, keep_connected) is None
                    assert layout_problem(set(game.layout) - gone, keep_connected) is None
            elif game.phase != "over":
                assert (
                    game.current != seat
                    or game.players == 1
                    or not any(game.hands[s] for s in range(game.players) if s != seat)
                )
        else:
            game.apply(ais[game.current].choose(game))
        check_invariants(game)
    return game


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 6),
    keep_connected=st.booleans(),
    levels=st.lists(st.sampled_from(["random", "easy"]), min_size=1, max_size=3),
)
def test_invariants_hold_over_random_play(seed, players, keep_connected, levels):
    game = random_game(seed, players, keep_connected, levels)
    assert sum(game.scores) == sum(len(t) for t in game.taken)
    assert game.outcome.termination in (Termination.CARDS_PLAYED, Termination.BLOCKED)


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_invariants_hold_with_the_hard_ai(seed, players):
    random_game(seed, players, False, ["hard", "random"])


def test_refused_actions_never_change_the_state():
    rng = random.Random(3)
    game = CardGame.new(players=3, seed=3)
    while game.phase != "over":
        before = game.to_dict()
        bogus = [Place(99, 0, (0, 0)), Place(game.hand[0], 1, (40, 40)), Take({99}), Take({-1, 3})]
        for action in bogus:
            try:
                game.apply(action)
            except ValueError:
                assert game.to_dict() == before
            else:  # pragma: no cover - would be a rules bug
                raise AssertionError(f"{action} was accepted")
        game.apply(rng.choice(game.legal_actions()))


def test_same_seed_same_game():
    runs = [play_game([make_ai("easy", 1), make_ai("random", 2), make_ai("hard", 3)], seed=42) for _ in range(2)]
    assert runs[0] == runs[1]
    other = play_game([make_ai("easy", 1), make_ai("random", 2), make_ai("hard", 3)], seed=43)
    assert other != runs[0]
