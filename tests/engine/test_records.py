"""Game records (engine.records, docs/notation.md): written while playing, read back by replaying.

The round trip is checked on a few hundred whole games of both kinds (every
player count each game allows, every variant); damaged records must be
refused with the turn named.
"""

from __future__ import annotations

import re

import pytest

from engine.labyrinth import Game, Rules
from engine.labyrinth.ai import make_ai
from engine.cards import CardGame, CardRules
from engine.cards.ai import make_ai as card_ai
from engine.records import Recorder, RecordError, read_record
from kiosk.tools.sim.sweep import derive

VARIANTS = [Rules(), Rules(open_cards=True), Rules(return_home=False), Rules(open_cards=True, return_home=False)]


def play_maze(players: int, seed: int, rules: Rules, levels=None, cap: int = 200) -> tuple[Game, Recorder]:
    levels = levels or [("medium", "easy")[(seed + k) % 2] for k in range(players)]
    game = Game.new(players=players, seed=derive(seed, "maze", players), rules=rules, first=seed % players)
    recorder = Recorder(game, levels, date="2026-11-30")
    ais = [make_ai(level, seed=derive(seed, "ai", k)) for k, level in enumerate(levels)]
    while game.phase != "over" and game.turns < cap:
        shift, move = ais[game.current].choose(game)
        for action in (shift, move):
            game.apply(action)
            recorder.apply(action)
    return game, recorder


def play_cards(players: int, seed: int, levels=None, rules=None) -> tuple[CardGame, Recorder]:
    levels = levels or ["easy" if k == seed % players else "random" for k in range(players)]
    game = CardGame.new(players=players, seed=derive(seed, "cards", players), first=seed % players, rules=rules)
    recorder = Recorder(game, levels)
    ais = [card_ai(level, derive(seed, "ai", k)) for k, level in enumerate(levels)]
    while game.phase != "over":
        action = ais[game.current].choose(game)
        game.apply(action)
        recorder.apply(action)
    return game, recorder


def test_a_few_hundred_maze_games_replay_to_the_same_final_state():
    games = 0
    for players in (1, 2, 3, 4):
        for v, rules in enumerate(VARIANTS):
            for seed in range(12 if players > 1 else 6):
                game, recorder = play_maze(players, seed * 4 + v, rules)
                text = recorder.text()
                record = read_record(text)
                assert record.final() == game, (players, rules, seed)
                assert record.text() == text  # writing what was read changes nothing
                games += 1
    assert games >= 150


def test_maze_records_of_hard_players_replay():
    for players in (2,):
        game, recorder = play_maze(players, 7, Rules(), levels=["hard"] * players)
        assert game.phase == "over"
        assert read_record(recorder.text()).final() == game


def test_card_games_of_two_to_six_players_replay_to_the_same_final_state():
    games = 0
    for players in range(2, 7):
        for seed in range(6):
            # The stricter reading of taking (the cards left stay one group) on every other game.
            rules = CardRules(keep_connected=seed % 2 == 1)
            game, recorder = play_cards(players, seed, rules=rules)
            assert ("keep-connected" in recorder.text()) == rules.keep_connected
            text = recorder.text()
            record = read_record(text)
            assert record.final() == game, (players, seed)
            assert record.text() == text
            games += 1
    game, recorder = play_cards(3, 99, levels=["hard", "hard", "easy"])
    assert read_record(recorder.text()).final() == game
    assert games == 30


def test_the_header_says_who_played_and_how_it_ended():
    game, recorder = play_maze(2, 3, Rules(open_cards=True), levels=["medium", "easy"])
    record = read_record(recorder.text())
    tags = record.tags
    assert tags["Game"] == "labyrinth" and tags["Rules"] == "open-cards"
    assert tags["Players"] == "red:medium green:easy" and record.levels == ["medium", "easy"]
    assert tags["Seed"] == str(game.seed) and tags["Date"] == "2026-11-30"
    assert tags["Result"] == game.players[game.winner].color and tags["End"] == "home"
    assert tags["Turns"] == str(game.turns) == str(len(record.turns))
    lines = [line for line in recorder.text().splitlines() if re.match(r"\d+\. ", line)]
    assert lines[-1].endswith(" wins")
    collected = " ".join(lines).count(" +")
    assert collected == sum(len(p.found) for p in game.players)


def test_stepping_through_gives_every_position():
    game, recorder = play_maze(2, 5, Rules())
    record = read_record(recorder.text())
    states = [state for _, state in record.replay()]
    assert len(states) == game.turns
    assert [s.turns for s in states] == list(range(1, game.turns + 1))
    assert states[-1] == game


def test_an_unfinished_game_is_recorded_as_unfinished():
    game, recorder = play_maze(2, 1, Rules(), cap=10)
    assert game.phase != "over"
    text = recorder.text()
    assert '[Result "*"]' in text
    assert read_record(text).final() == game


def test_a_game_without_a_seed_or_resumed_midway_carries_its_start_position():
    game = Game.new(players=2, seed=None)
    ai = make_ai("medium", seed=1)
    for _ in range(3):
        for action in ai.choose(game):
            game.apply(action)
    recorder = Recorder(game, ["medium", "medium"])  # starts at turn 4
    for _ in range(4):
        for action in ai.choose(game):
            game.apply(action)
            recorder.apply(action)
    text = recorder.text()
    assert "[Start " in text and "\n4. " in text
    assert read_record(text).final() == game


# ----------------------------------------------------------------- damaged records


@pytest.fixture(scope="module")
def maze_text() -> str:
    _, recorder = play_maze(2, 11, Rules(), levels=["medium", "easy"])
    return recorder.text()


def _turn_line(text: str, n: int) -> str:
    return next(line for line in text.splitlines() if line.startswith(f"{n}. "))


def _swap_colour(line: str) -> str:
    number, colour, rest = line.split(" ", 2)
    return f"{number} {'green' if colour == 'red' else 'red'} {rest}"


def _refused(text: str) -> RecordError:
    with pytest.raises(RecordError) as exc:
        read_record(text)
    return exc.value


def test_an_unreachable_cell_is_refused_naming_the_turn(maze_text):
    line = _turn_line(maze_text, 6)
    colour, insertion, openings, cell, *marks = line.split()[1:]
    # Some cell that is not reachable after that shift.
    record = read_record(maze_text)
    before = record.start()
    for turn in record.turns[:5]:
        for action in turn.actions:
            before.apply(action)
    before.apply(record.turns[5].actions[0])
    far = next(f"{r},{c}" for r in range(7) for c in range(7) if (r, c) not in before.reachable())
    damaged = maze_text.replace(line, f"6. {colour} {insertion} {openings} {far}")
    error = _refused(damaged)
    assert error.turn == 6 and "cannot reach" in str(error) and str(error).startswith("turn 6 ")


def test_a_push_back_is_refused(maze_text):
    previous = _turn_line(maze_text, 8).split()[2]
    opposite = {"N": "S", "S": "N", "E": "W", "W": "E"}[previous[0]] + previous[1]
    line = _turn_line(maze_text, 9)
    words = line.split()
    damaged = maze_text.replace(line, " ".join([words[0], words[1], opposite, *words[3:]]))
    error = _refused(damaged)
    assert error.turn == 9 and "push straight back" in str(error)


@pytest.mark.parametrize(
    "change, turn, message",
    [
        (lambda t: t.replace(_turn_line(t, 4), ""), 4, "numbered 5"),  # a lost line
        (lambda t: t.replace(_turn_line(t, 3), _swap_colour(_turn_line(t, 3))), 3, "'s turn"),
        (
            lambda t: t.replace(_turn_line(t, 5), _turn_line(t, 5).split(" ", 1)[0] + " green X9 ES 0,0"),
            5,
            "not an insertion point",
        ),
        (lambda t: t.replace(_turn_line(t, 7), _turn_line(t, 7) + " +dragon"), 7, "the turn gives"),
        (lambda t: t.replace(_turn_line(t, 2), " ".join(_turn_line(t, 2).split()[:3])), 2, "a turn needs"),
        (lambda t: t.rsplit("\n", 2)[0] + "\n", None, "turns are missing"),  # cut short
    ],
)
def test_damage_is_refused_naming_the_turn(maze_text, change, turn, message):
    damaged = change(maze_text)
    error = _refused(damaged)
    assert message in str(error)
    if turn is not None:
        assert error.turn == turn and f"turn {turn}" in str(error)
    else:
        assert error.turn == len(read_record(maze_text).turns)


def test_impossible_openings_are_refused(maze_text):
    line = _turn_line(maze_text, 10)
    words = line.split()
    spare = words[3]
    wrong = "NES" if len(spare) != 3 else "NS"
    error = _refused(maze_text.replace(line, " ".join([*words[:3], wrong, *words[4:]])))
    assert error.turn == 10 and "cannot be turned to show" in str(error)


def test_a_turn_after_the_end_is_refused(maze_text):
    record = read_record(maze_text)
    n = len(record.turns) + 1
    error = _refused(maze_text + f"{n}. green N1 ES 0,0\n")
    assert error.turn == n and "already over" in str(error)


def test_a_damaged_card_game_is_refused_naming_the_turn():
    _, recorder = play_cards(3, 4, levels=["hard", "easy", "random"])
    text = recorder.text()
    taking = next(line for line in text.splitlines() if " take " in line)
    n = int(taking.split(".")[0])
    error = _refused(text.replace(taking, taking.split(" take ")[0] + " take anchor-acorn"))
    assert error.turn == n
    line = _turn_line(text, 2)
    words = line.split()
    error = _refused(text.replace(line, " ".join([*words[:2], "lamp-moon", *words[3:]])))
    assert error.turn == 2 and "not a card" in str(error)


def test_header_problems_are_named():
    assert "no [Game" in str(_refused("1. red N1 ES 0,0\n"))
    assert "not known" in str(_refused('[Game "chess"]\n'))
    assert "Seed" in str(_refused('[Game "labyrinth"]\n[Players "red:hard green:easy"]\n'))
    assert "not a pawn colour" in str(_refused('[Game "labyrinth"]\n[Players "pink:hard"]\n[Seed "1"]\n'))
    assert "unknown rule" in str(_refused('[Game "labyrinth"]\n[Rules "fast"]\n[Players "red:x"]\n[Seed "1"]\n'))


def test_a_record_may_begin_in_the_middle_of_a_turn():
    """A kiosk game resumed after its shift, with no record to continue: the first line is '- -' and a cell."""
    from engine.labyrinth import Move

    game = Game.new(players=2, seed=6)
    shift, _ = make_ai("medium", seed=1).choose(game)
    game.apply(shift)
    recorder = Recorder(game, ["human", "medium"])
    stay = Move(game.player.position)
    game.apply(stay)
    recorder.apply(stay)
    for action in make_ai("medium", seed=2).choose(game):
        game.apply(action)
        recorder.apply(action)
    text = recorder.text()
    assert "\n1. red - - " in text
    assert read_record(text).final() == game
    cards = CardGame.new(players=2, seed=3)
    while cards.phase != "take":
        cards.apply(card_ai("easy", 1).choose(cards))
    recorder = Recorder(cards, ["human", "easy"])
    while len(recorder.turns) < 2 or cards.phase == "take":  # whole turns: the record holds no half turn
        action = card_ai("easy", 2).choose(cards)
        cards.apply(action)
        recorder.apply(action)
    text = recorder.text()
    assert re.search(r"\n\d+\. p\d - ", text)
    assert read_record(text).final() == cards
