"""The card game in headless mode through the real command line: AI games, scripts, saves, resume.

Every event a run writes is checked against the engine: the game is replayed
on ``CardGame.new(players=P, seed=S)`` and each announced turn, placement,
join, take, discard and result must agree.
"""

from __future__ import annotations

import json

import pytest

from engine.cards import CardGame, Discard, Place, Take
from engine.cards.ai import make_ai

from tests.kiosk.core.test_headless import kiosk, read_events


def check_against_engine(events) -> list[CardGame]:
    """Replay every card game in the stream on the engine, checking each event; returns the games."""
    games: list[CardGame] = []
    game = None
    for e in events:
        t = e.type
        if t == "card_game_started":
            if e.resumed:
                assert game is not None and e.seed == game.seed
            else:
                game = CardGame.new(players=len(e.players), seed=e.seed, first=e.current)
                games.append(game)
            assert {(c.cell, c.card, c.rotation) for c in e.layout} == {
                (cell, p.card, p.rotation) for cell, p in game.layout.items()
            }
            assert (e.current, e.phase, e.turns, e.pile) == (game.current, game.phase, game.turns, len(game.draw_pile))
            assert [p.hand_size for p in e.players] == [len(h) for h in game.hands]
        elif t == "card_turn_changed":
            assert (e.player, e.phase, e.turn, e.pile) == (game.current, game.phase, game.turns, len(game.draw_pile))
            assert set(e.cells) == (set(game.legal_cells()) if e.phase == "place" else set())
            assert set(e.takeable) == set(game.takeable())
        elif t == "card_laid":
            assert e.player == game.current
            place = Place(e.card, e.rotation, tuple(e.cell))
            joined = {k: v for k, v in game.preview(place).items() if v}
            game.apply(place)
            assert {tr: set(cs) for tr, cs in e.joined} == {tr: set(cs) for tr, cs in joined.items()}
            assert set(e.takeable) == set(game.takeable())
        elif t == "cards_taken":
            assert e.player == game.current and game.phase == "take"
            assert [game.layout[tuple(c)].card for c in e.cells] == list(e.cards)
            game.apply(Take(frozenset(e.cards)))
            assert e.score == len(game.taken[e.player])
        elif t == "card_discarded":
            assert e.player == game.current
            game.apply(Discard(e.card))
        elif t == "hand_changed":
            assert e.size == len(game.hands[e.player])
        elif t == "card_game_over":
            assert game.phase == "over"
            assert (tuple(e.winners), tuple(e.scores), e.turns, e.termination) == (
                tuple(game.winners),
                tuple(game.scores),
                game.turns,
                game.outcome.termination,
            )
    return games


def test_ai_card_games_run_to_the_end_each_as_the_engine_plays_its_seed(tmp_path):
    events_file, state = tmp_path / "events.jsonl", tmp_path / "state"
    r = kiosk(
        "--game",
        "cards",
        "--players",
        "hard,easy,random",
        "--seed",
        7,
        "--games",
        2,
        "--fast",
        "--events-out",
        events_file,
        "--state-dir",
        state,
    )
    assert r.returncode == 0, r.stderr
    events = read_events(events_file)
    games = check_against_engine(events)
    assert [g.seed for g in games] == [7, 8] and all(g.phase == "over" for g in games)
    assert sum(e.type == "card_game_over" for e in events) == 2
    assert not [e for e in events if e.type in ("illegal_input", "game_started")]
    # the AI seats played through the same commands as people, and no hand card was named before it was laid
    assert {e.source for e in events if e.type in ("select_hand_card", "lay_card")} == {"ai"}
    history = [json.loads(line) for line in (state / "history.jsonl").read_text().splitlines()]
    assert [(h["game"], h["seats"], h["turns"]) for h in history] == [
        ("cards", ["hard", "easy", "random"], g.turns) for g in games
    ]
    assert not (state / "current-game.json").exists()


def card_script(kinds: list[str], seed: int, people: str = "hard") -> tuple[str, CardGame]:
    """A script for the human seats of a card game (decisions by the `people` AI) and the game it gives.

    The computer seats are simulated with the kiosk's own seeding (seed*10 + seat), so the whole game
    is known in advance: `ready` before a person who follows another person, and `card`, `rotate`,
    `lay`, `take` / `take none` and `discard` for each decision.
    """
    game = CardGame.new(players=len(kinds), seed=seed)
    ais = [make_ai(people if k == "human" else k, seed * 10 + i) for i, k in enumerate(kinds)]
    lines = [f"# card game {','.join(kinds)}, seed {seed}; people play like the {people} AI"]
    last_person = None
    last_turn = None
    while game.phase != "over":
        p = game.current
        action = ais[p].choose(game)
        if kinds[p] == "human":
            if game.turns != last_turn and last_person is not None and last_person != p:
                lines.append("ready")
            last_person, last_turn = p, game.turns
            if isinstance(action, Place):
                lines.append(f"card {game.hand.index(action.card)}")
                lines += ["rotate"] * action.rotation
                lines.append(f"lay {action.cell[0]} {action.cell[1]}")
            elif isinstance(action, Take):
                lines.append("take " + (" ".join(map(str, sorted(action.cards))) or "none"))
            else:
                lines.append(f"discard {game.hand.index(action.card)}")
        game.apply(action)
    return "\n".join(lines) + "\n", game


def test_a_scripted_card_game_of_two_people_and_a_computer_plays_to_the_end(tmp_path):
    kinds = ["human", "easy", "human"]
    text, expected = card_script(kinds, seed=5)
    assert "ready" in text.split() and "take" in text and "rotate" in text.split()
    script = tmp_path / "cards.txt"
    script.write_text(text)
    events_file, state = tmp_path / "events.jsonl", tmp_path / "state"
    r = kiosk(
        "--game",
        "cards",
        "--players",
        ",".join(kinds),
        "--seed",
        5,
        "--script",
        script,
        "--events-out",
        events_file,
        "--fast",
        "--state-dir",
        state,
        "--games",
        1,
    )
    assert r.returncode == 0, r.stderr
    events = read_events(events_file)
    (game,) = check_against_engine(events)
    assert game == expected and game.phase == "over"
    assert not [e for e in events if e.type == "illegal_input"]
    assert sum(e.type == "hand_over" for e in events) == text.split().count("ready")
    assert {e.source for e in events if e.type == "lay_card"} == {"script", "ai"}


@pytest.mark.parametrize(
    "game, line, message",
    [
        ("cards", "tap 2 4", "line 2: 'tap 2 4': `tap` is an input of the labyrinth game"),
        ("labyrinth", "lay 1 2", "line 2: 'lay 1 2': `lay` is an input of the cards game"),
        ("cards", "lay 1", "line 2: 'lay 1': write `lay X Y`"),
        ("cards", "take", "line 2: 'take': write `take ID ...`"),
        ("cards", "card first", "line 2: 'card first': the hand position must be a whole number"),
        ("cards", "ready now", "line 2: 'ready now': `ready` takes nothing after it"),
    ],
)
def test_a_bad_card_script_line_is_named_with_its_number(tmp_path, game, line, message):
    script = tmp_path / "bad.txt"
    script.write_text(f"wait 1\n{line}\n")
    players = "human,easy" if game == "cards" else "human"
    r = kiosk("--game", game, "--players", players, "--seed", 1, "--script", script, "--fast")
    assert r.returncode == 2
    assert message in r.stderr


def test_card_seats_are_checked_on_the_command_line(tmp_path):
    r = kiosk("--game", "cards", "--players", "human,medium", "--fast")
    assert r.returncode == 2 and "seat kind 'medium' is not one of human, random, easy, hard" in r.stderr
    r = kiosk("--game", "cards", "--players", "human", "--fast")
    assert r.returncode == 2 and "the cards game is for 2 to 6 players" in r.stderr
