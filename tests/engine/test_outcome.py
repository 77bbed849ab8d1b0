"""Both engines end the same way (docs/rules.md section 3): an Outcome with a Termination,
the same property names, the kiosk's turn limit, and saves of format 1 still load."""

from __future__ import annotations

import pytest

from engine import InvalidState, Outcome, Termination
from engine.labyrinth import Game, Move, Rules, Shift
from engine.labyrinth.ai import make_ai
from engine.cards import CardGame, CardRules
from engine.cards.ai import make_ai as make_card_ai


def play_board(game: Game, level: str = "easy", cap: int = 2000) -> Game:
    ais = [make_ai(level, seed=seat) for seat in range(game.num_players)]
    while game.outcome is None and game.turns < cap:
        shift, move = ais[game.current].choose(game)
        game.apply(shift)
        game.apply(move)
    return game


def play_cards(game: CardGame, cap: int = 500) -> CardGame:
    ais = [make_card_ai("easy", seed=seat) for seat in range(game.num_players)]
    while game.outcome is None and game.turns < cap:
        game.apply(ais[game.current].choose(game))
    return game


# ---------------------------------------------------------------- the same shape on both engines


@pytest.mark.parametrize("game", [Game.new(players=3, seed=1), CardGame.new(players=3, seed=1)], ids=["board", "cards"])
def test_both_engines_answer_the_same_questions(game):
    assert game.num_players == 3
    assert game.outcome is None and game.winners == ()
    actions = game.legal_actions()
    assert actions
    game.apply(actions[0])  # a legal action is accepted


def test_board_legal_actions_follow_the_phase():
    game = Game.new(players=2, seed=4)
    assert game.legal_actions() == game.legal_shifts() and len(game.legal_actions()) == 48
    game.apply(Shift("N1"))
    assert game.legal_actions() == game.legal_moves()
    assert all(isinstance(a, Move) for a in game.legal_actions())


def test_a_board_game_won_at_home_says_so():
    game = play_board(Game.new(players=1, seed=3, rules=Rules(return_home=False)), level="hard")
    assert game.outcome == Outcome(Termination.HOME, (0,))
    assert game.winner == 0 and game.winners == (0,)


def test_a_card_game_played_out_ends_by_its_own_rules():
    game = play_cards(CardGame.new(players=2, seed=8))
    assert game.outcome.termination in (Termination.CARDS_PLAYED, Termination.BLOCKED)
    best = max(game.scores)
    assert game.winners == tuple(i for i, s in enumerate(game.scores) if s == best)


# ---------------------------------------------------------------- the turn limit


@pytest.mark.parametrize("limit", [1, 5, 12])
def test_the_board_game_ends_when_the_turn_limit_is_reached(limit):
    game = play_board(Game.new(players=3, seed=11, rules=Rules(turn_limit=limit)))
    assert game.phase == "over" and game.turns == limit
    assert game.outcome.termination is Termination.TURN_LIMIT
    found = [len(p.found) for p in game.players]
    assert game.winners == tuple(i for i, n in enumerate(found) if n == max(found))


def test_at_the_turn_limit_ties_share_the_win():
    game = play_board(Game.new(players=4, seed=2, rules=Rules(turn_limit=1)))
    # one turn: at most the first player found something; nobody else did
    found = [len(p.found) for p in game.players]
    if max(found) == 0:
        assert game.winners == (0, 1, 2, 3)
    else:
        assert game.winners == (0,)
    assert game.winner == (game.winners[0] if len(game.winners) == 1 else None)


def test_a_win_on_the_last_allowed_turn_is_a_win_at_home():
    free = play_board(Game.new(players=1, seed=3, rules=Rules(return_home=False)), level="hard")
    limited = play_board(
        Game.new(players=1, seed=3, rules=Rules(return_home=False, turn_limit=free.turns)), level="hard"
    )
    assert limited.turns == free.turns
    assert limited.outcome == Outcome(Termination.HOME, (0,))


@pytest.mark.parametrize("limit", [1, 4, 9])
def test_the_card_game_ends_at_the_turn_limit_with_the_usual_scoring(limit):
    game = play_cards(CardGame.new(players=3, seed=5, rules=CardRules(turn_limit=limit)))
    assert game.turns == limit and game.phase == "over"
    assert game.outcome.termination is Termination.TURN_LIMIT
    best = max(game.scores)
    assert game.winners == tuple(i for i, s in enumerate(game.scores) if s == best)


@pytest.mark.parametrize("rules", [Rules, CardRules])
@pytest.mark.parametrize("bad", [-1, 2.5, "3", True, None])
def test_a_bad_turn_limit_is_refused(rules, bad):
    with pytest.raises(ValueError, match="turn_limit"):
        rules(turn_limit=bad)


def test_no_turn_limit_by_default():
    assert Rules().turn_limit == 0 and CardRules().turn_limit == 0


# ---------------------------------------------------------------- saves


@pytest.mark.parametrize(
    "make",
    [
        lambda: play_board(Game.new(players=2, seed=6, rules=Rules(turn_limit=7))),
        lambda: play_cards(CardGame.new(players=2, seed=6, rules=CardRules(turn_limit=7))),
        lambda: Game.new(players=2, seed=6, rules=Rules(turn_limit=7)),
    ],
    ids=["board-over", "cards-over", "board-running"],
)
def test_the_turn_limit_and_the_outcome_survive_a_save(make):
    game = make()
    data = game.to_dict()
    assert data["version"] == 2 and data["rules"]["turn_limit"] == 7
    back = type(game).from_dict(data)
    assert back == game and back.rules.turn_limit == 7 and back.outcome == game.outcome


def test_a_version_1_board_save_still_loads():
    game = play_board(Game.new(players=1, seed=3, rules=Rules(return_home=False)), level="hard")
    data = game.to_dict()
    old = {**data, "version": 1, "winner": 0, "rules": {"open_cards": False, "return_home": False}}
    del old["outcome"]
    back = Game.from_dict(old)
    assert back.outcome == Outcome(Termination.HOME, (0,)) and back.rules.turn_limit == 0
    running = Game.new(players=2, seed=1).to_dict()
    old = {**running, "version": 1, "winner": None, "rules": {"open_cards": False, "return_home": True}}
    del old["outcome"]
    assert Game.from_dict(old).outcome is None


@pytest.mark.parametrize(
    "sentence,termination",
    [
        ("every card has been played", Termination.CARDS_PLAYED),
        ("a full round passed in which no card could be laid", Termination.BLOCKED),
    ],
)
def test_a_version_1_card_save_still_loads(sentence, termination):
    game = play_cards(CardGame.new(players=2, seed=8))
    data = game.to_dict()
    old = {**data, "version": 1, "end": sentence, "rules": {"keep_connected": False}}
    del old["outcome"]
    back = CardGame.from_dict(old)
    assert back.outcome.termination is termination and back.winners == game.winners


@pytest.mark.parametrize(
    "damage,words",
    [
        (lambda d: d["rules"].update(turn_limit=-2), "turn_limit"),
        (lambda d: d["rules"].update(turn_limit="7"), "turn_limit"),
        (lambda d: d.update(outcome={"termination": "home", "winners": [1]}), "outcome"),
        (lambda d: d["rules"].update(turn_limit=1), "fewer turns than the turn limit"),
    ],
)
def test_a_running_save_with_a_bad_limit_or_outcome_is_refused(damage, words):
    game = Game.new(players=2, seed=6, rules=Rules(turn_limit=7))
    for _ in range(2):
        game.apply(game.legal_actions()[0])
        game.apply(game.legal_actions()[0])
    data = game.to_dict()
    damage(data)
    with pytest.raises(InvalidState, match=words):
        Game.from_dict(data)


def wrong_winners(data):
    right = data["outcome"]["winners"]
    data["outcome"]["winners"] = [0] if right != [0] else [1]


@pytest.mark.parametrize(
    "damage,words",
    [
        (lambda d: d["outcome"].update(termination="blocked"), "cannot end by blocked"),
        (wrong_winners, "most treasures"),
        (lambda d: d["outcome"].update(termination="checkmate"), "unknown termination"),
        (lambda d: d.update(outcome=None), "outcome"),
    ],
)
def test_a_finished_board_save_with_a_wrong_outcome_is_refused(damage, words):
    data = play_board(Game.new(players=2, seed=6, rules=Rules(turn_limit=3))).to_dict()
    damage(data)
    with pytest.raises(InvalidState, match=words):
        Game.from_dict(data)


@pytest.mark.parametrize(
    "change,words",
    [
        (lambda d: d["outcome"].update(termination="home"), "cannot end by home"),
        (lambda d: d["outcome"].update(winners=[0, 1, 5]), "out of 2 players"),
    ],
)
def test_a_finished_card_save_with_a_wrong_outcome_is_refused(change, words):
    data = play_cards(CardGame.new(players=2, seed=8)).to_dict()
    change(data)
    with pytest.raises(InvalidState, match=words):
        CardGame.from_dict(data)
