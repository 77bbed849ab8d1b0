"""Headless mode through the real command line: scripts, events file, saves, several games.

The events a run writes are checked against the engine: every shift, walk and
found treasure is replayed on ``Game.new(players=P, seed=S)`` and must agree,
tile by tile and cell by cell.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.labyrinth import Game, Move, Rules, Shift
from engine.labyrinth.ai import make_ai
from kiosk.core.config import Config
from kiosk.core.events import Message

ROOT = Path(__file__).resolve().parents[3]
#: the deal a kiosk with no config file plays: its preset's (the public preset's quick game)
KIOSK_RULES = Rules(treasures=Config().game.variants["treasures"])


def kiosk(*args, timeout=120):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", "--display", "none", *map(str, args)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def read_events(path: Path) -> list:
    lines = path.read_text().splitlines()
    data = [json.loads(line) for line in lines]
    assert all("type" in d for d in data)
    return [Message.from_dict(d) for d in data]


def check_against_engine(events, rules=KIOSK_RULES) -> list[Game]:
    """Replay every game in the stream on the engine, checking each event; returns the games."""
    games: list[Game] = []
    game = None
    for e in events:
        t = e.type
        if t == "game_started":
            game = Game.new(players=len(e.players), seed=e.seed, rules=rules)
            games.append(game)
            assert [tile.openings for tile in e.board] == [
                game.board[(r, c)].openings for r in range(7) for c in range(7)
            ]
            assert e.spare.openings == game.spare.openings
            assert [p.position for p in e.players] == [p.position for p in game.players]
        elif t == "turn_changed":
            assert (e.player, e.phase, e.forbidden) == (game.current, game.phase, game.forbidden)
            if e.phase == "move":
                assert set(e.reachable) == set(game.reachable())
        elif t == "board_shifted":
            assert e.player == game.current
            inserted = game.spare.rotated(e.rotation)
            before = [p.position for p in game.players]
            game.apply(Shift(e.insertion, e.rotation))
            assert (e.inserted.openings, e.inserted.treasure) == (inserted.openings, inserted.treasure)
            assert (e.pushed_out.openings, e.pushed_out.treasure) == (game.spare.openings, game.spare.treasure)
            assert game.board[e.line[0]] == inserted
            moved = {c.player: c.end for c in e.pawns}
            assert [moved.get(i, before[i]) for i in range(len(before))] == [p.position for p in game.players]
            assert e.forbidden == game.forbidden
        elif t == "pawn_moved":
            assert e.player == game.current and e.path[0] == game.player.position
            reach = game.reachable()
            assert all(c in reach for c in e.path)
            for a, b in zip(e.path, e.path[1:]):
                assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
            found = list(game.player.found)
            mover = game.player
            game.apply(Move(e.path[-1]))
            new = mover.found[len(found) :]
            following = events[events.index(e) + 1 : events.index(e) + 1 + len(new)]
            assert [(f.type, f.treasure) for f in following] == [("treasure_found", x) for x in new]
        elif t == "game_over":
            assert game.phase == "over"
            assert (e.winner, e.turns) == (game.winner, game.turns)
            assert [list(f) for f in e.found] == [p.found for p in game.players]
    return games


def solo_script(seed: int, level="medium") -> tuple[str, Game]:
    """A script that plays a whole solo game (decisions by an engine AI), and the game it must give."""
    game = Game.new(players=1, seed=seed, rules=KIOSK_RULES)
    ai = make_ai(level, seed=seed)
    lines = [f"# solo game, seed {seed}, decisions by the {level} AI"]
    while game.phase != "over":
        shift, move = ai.choose(game)
        lines.append(f"button {shift.insertion}")
        lines += ["button rotate"] * shift.rotation
        lines.append(f"button {shift.insertion}      # again: push")
        game.apply(shift)
        if move.cell == game.player.position:
            lines.append("stay" if game.turns % 2 else f"tap {move.cell[0]} {move.cell[1]}")
        else:
            lines.append(f"tap {move.cell[0]} {move.cell[1]}")
        game.apply(move)
        if game.turns == 3:
            lines.append("wait 500")
    return "\n".join(lines) + "\n", game


def test_a_scripted_solo_game_plays_to_the_end(tmp_path):
    text, expected = solo_script(seed=23)
    script = tmp_path / "inputs.txt"
    script.write_text(text)
    events_file, state = tmp_path / "events.jsonl", tmp_path / "state"
    r = kiosk(
        "--players",
        "human",
        "--seed",
        23,
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
    assert sum(e.type == "game_over" for e in events) == 1
    assert not [e for e in events if e.type == "illegal_input"]
    # the buttons went through the mock pins and the adapter: one press event per script line
    presses = [e for e in events if e.type == "button_pressed"]
    assert len(presses) == sum(1 for line in text.splitlines() if line.startswith("button"))
    # finished: no save left to resume, one line of history
    assert not (state / "current-game.json").exists()
    history = (state / "history.jsonl").read_text().splitlines()
    assert len(history) == 1 and json.loads(history[0])["turns"] == expected.turns


def test_a_person_against_the_hard_ai_until_the_script_ends(tmp_path):
    script = tmp_path / "inputs.txt"
    script.write_text(
        "button N3\nbutton rotate\nbutton N3\nstay\n"
        "# second turn: whichever arrow is allowed\n"
        "button E3\nbutton E3\nbutton W3\nbutton W3\nstay\n"
    )
    events_file, state = tmp_path / "events.jsonl", tmp_path / "state"
    r = kiosk(
        "--players",
        "human,hard",
        "--seed",
        3,
        "--script",
        script,
        "--events-out",
        events_file,
        "--fast",
        "--state-dir",
        state,
    )
    assert r.returncode == 0, r.stderr
    events = read_events(events_file)
    games = check_against_engine(events)
    game = games[0]
    shifts = [e for e in events if e.type == "board_shifted"]
    assert [e.player for e in shifts][:3] == [0, 1, 0]
    assert shifts[0].insertion == "N3" and shifts[0].rotation == 1
    assert {e.source for e in events if e.type == "select_arrow"} == {"button", "ai"}
    assert [e.source for e in events if e.type == "select_arrow"][:3] == ["button", "button", "ai"]
    # the run ended with the script, at the person's next turn; the save is that state
    assert events[-1].type == "kiosk_stopping"
    saved = json.loads((state / "current-game.json").read_text())
    assert saved["game"] == "labyrinth" and saved["meta"]["kinds"] == ["human", "hard"]
    assert Game.from_dict(saved["state"]) == game


def test_several_ai_games_each_reproducible_from_the_seed(tmp_path):
    events_file = tmp_path / "events.jsonl"
    r = kiosk("--players", "easy,medium,random", "--seed", 5, "--games", 2, "--events-out", events_file, "--fast")
    assert r.returncode == 0, r.stderr
    events = read_events(events_file)
    games = check_against_engine(events)
    assert [g.seed for g in games] == [5, 6]
    assert all(g.phase == "over" for g in games)
    assert sum(e.type == "game_over" for e in events) == 2


def test_a_saved_game_is_resumed_on_the_next_start(tmp_path):
    script = tmp_path / "a.txt"
    script.write_text("button W1\nbutton W1\n")  # shift, but no walk yet
    state = tmp_path / "state"
    r = kiosk("--players", "human,easy", "--seed", 8, "--script", script, "--fast", "--state-dir", state)
    assert r.returncode == 0, r.stderr
    saved = Game.from_dict(json.loads((state / "current-game.json").read_text())["state"])
    assert saved.phase == "move"
    script.write_text("stay\n")
    events_file = tmp_path / "events.jsonl"
    r = kiosk(
        "--players",
        "human,easy",
        "--seed",
        99,
        "--script",
        script,
        "--fast",
        "--state-dir",
        state,
        "--events-out",
        events_file,
    )
    assert r.returncode == 0, r.stderr
    events = read_events(events_file)
    assert events[0].type == "game_started" and events[0].resumed and events[0].seed == 8
    assert [e.type for e in events if e.type in ("stay", "pawn_moved")][:2] == ["stay", "pawn_moved"]


@pytest.mark.parametrize(
    "line, message",
    [
        ("button Q7", "line 2: 'button Q7': unknown button 'Q7'"),
        ("tap 9 1", "line 2: 'tap 9 1': row and column must be 0-6"),
        ("jump", "line 2: 'jump': unknown input 'jump'"),
        ("wait soon", "line 2: 'wait soon': the wait must be a whole number"),
        ("tap-px 10 10", "line 2: 'tap-px 10 10': `tap-px` needs a display"),
    ],
)
def test_a_bad_script_line_is_named_with_its_number(tmp_path, line, message):
    script = tmp_path / "bad.txt"
    script.write_text(f"button N1\n{line}\n")
    r = kiosk("--players", "human", "--seed", 1, "--script", script, "--fast")
    assert r.returncode == 2
    assert message in r.stderr


def test_a_button_without_a_pin_is_a_clear_error(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text('[buttons]\nrotate_pin = "none"\n')
    script = tmp_path / "s.txt"
    script.write_text("button N1\nbutton rotate\n")
    r = kiosk("--config", config, "--players", "human", "--seed", 1, "--script", script, "--fast")
    if "configuration error" in r.stderr:
        pytest.skip(f"this config cannot leave the rotate button out: {r.stderr.strip()}")
    assert r.returncode == 2
    assert "line 2" in r.stderr and "rotate is not fitted" in r.stderr


def test_without_a_script_a_human_seat_ends_a_fast_run(tmp_path):
    r = kiosk("--players", "human,easy", "--seed", 1, "--fast")
    assert r.returncode == 0
    assert "no script input is left" in r.stderr
