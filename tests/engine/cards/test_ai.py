"""AI players of the card game: legal, deterministic, blind to hidden cards, and ranked."""

from __future__ import annotations

import itertools
import random

import pytest

from engine.cards import CardGame, play_game
from engine.cards.ai import LEVELS, EasyAI, HardAI, RandomAI, make_ai


def midgame(seed: int, players: int = 3, turns: int = 8) -> CardGame:
    game = CardGame.new(players=players, seed=seed)
    rng = random.Random(seed)
    while game.turns < turns and game.phase != "over":
        game.apply(rng.choice(game.legal_actions()))
    return game


def scrambled(game: CardGame, seed: int) -> CardGame:
    """The same game as the current player sees it, with the hidden cards (other hands and
    the draw pile) dealt differently."""
    other = game.copy()
    me = other.current
    hidden = other.draw_pile + [c for s, h in enumerate(other.hands) if s != me for c in h]
    random.Random(seed).shuffle(hidden)
    for s in range(other.players):
        if s != me:
            k = len(other.hands[s])
            other.hands[s], hidden = hidden[:k], hidden[k:]
    other.draw_pile = hidden
    assert other.hands[me] == game.hands[me] and other != game
    return other


@pytest.mark.parametrize("level", LEVELS)
def test_make_ai_gives_each_level(level):
    ai = make_ai(level, 1)
    assert ai.level == level
    assert type(ai) is {"random": RandomAI, "easy": EasyAI, "hard": HardAI}[level]


def test_unknown_level_is_refused():
    with pytest.raises(ValueError, match="unknown AI level 'expert'"):
        make_ai("expert")


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_decisions(level):
    game = midgame(5)
    a, b = make_ai(level, 9), make_ai(level, random.Random(9))
    for _ in range(6):
        if game.phase == "over":
            break
        choice = a.choose(game)
        assert b.choose(game) == choice
        game.apply(choice)


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_decisions_do_not_depend_on_hidden_cards(level):
    checked = 0
    for seed in range(6):
        game = midgame(seed, players=3, turns=6 + seed)
        if game.phase == "over":
            continue
        choice = make_ai(level, 4).choose(game)
        for k in range(3):
            assert make_ai(level, 4).choose(scrambled(game, k)) == choice
        checked += 1
    assert checked >= 4


def test_the_hard_ai_uses_the_turn_it_is_given():
    game = midgame(2)
    choice = make_ai("hard", 0).choose(game)
    assert choice in game.legal_actions()


def test_choosing_in_a_finished_game_is_an_error():
    result_game = CardGame.new(players=2, seed=1)
    rng = random.Random(1)
    while result_game.phase != "over":
        result_game.apply(rng.choice(result_game.legal_actions()))
    with pytest.raises(ValueError, match="over"):
        RandomAI(1).choose(result_game)


def test_play_game_reports_the_game_and_times_each_decision_with_the_callers_clock():
    ticks = itertools.count()
    result = play_game([make_ai("easy", 1), make_ai("random", 2)], seed=7, timer=lambda: next(ticks))
    assert result["game"] == "cards" and result["players"] == 2 and result["levels"] == ["easy", "random"]
    assert result["illegal"] is None and not result["capped"] and result["end"]
    assert result["winners"] and max(result["scores"]) == result["scores"][result["winners"][0]]
    assert result["taken"] == sum(result["scores"]) and result["placements"] == 46 - result["discards"]
    assert 0 < result["scoring_turns"] <= result["placements"]
    decisions = result["decisions"]
    assert len(decisions) >= result["turns"] and all(d["seconds"] == 1 for d in decisions)
    assert {d["phase"] for d in decisions} <= {"place", "take", "discard"}
    assert play_game([make_ai("easy", 1), make_ai("random", 2)], seed=7)["decisions"] == []


def test_play_game_stops_at_the_turn_cap():
    result = play_game([make_ai("random", 1), make_ai("random", 2)], seed=3, turn_cap=5)
    assert result["capped"] and result["turns"] == 5 and result["winners"] == []


def test_play_game_reports_an_illegal_ai_move_instead_of_looping():
    class Stubborn(RandomAI):
        level = "stubborn"

        def place(self, game):
            from engine.cards import Place

            return Place(game.hand[0], 0, (50, 50))

    result = play_game([Stubborn(1), make_ai("random", 2)], seed=3)
    assert result["illegal"].startswith("seat 0 (stubborn): Cell (50, 50) is not next to the layout")


def wins(levels: list[str], games: int, seed0: int) -> list[float]:
    """Wins per level (ties share), with seats rotated so each level sits everywhere."""
    total = [0.0] * len(levels)
    n = len(levels)
    for g in range(games):
        k = g % n
        seated = levels[k:] + levels[:k]
        result = play_game([make_ai(lv, seed0 + 10 * g + i) for i, lv in enumerate(seated)], seed=seed0 + g)
        for w in result["winners"]:
            total[(w + k) % n] += 1 / len(result["winners"])
    return total


def test_hard_clearly_beats_easy_and_easy_beats_random():
    hard, easy = wins(["hard", "easy"], 12, 1000)
    assert hard >= 9, (hard, easy)
    easy, rnd = wins(["easy", "random"], 10, 2000)
    assert easy >= 9, (easy, rnd)
    hard, rnd = wins(["hard", "random"], 6, 3000)
    assert hard == 6
