"""A third game, declared only in this module, runs in the kiosk like the two built-in ones.

The game is a trivial race (test-only): each turn the player to act rolls a
die (from the game's seed) and moves on; the first past square 12 wins; with
a turn limit, the furthest ahead wins, ties share. Everything the kiosk needs
is declared here -- engine state, messages, session, script word and a
GameType -- and reaches the kiosk through the ``labyrinth_kiosk.games``
entry-point group, as a separately installed game would (a dist-info folder
on the path of the kiosk's process). The kiosk then plays it headless from a
script: setup, play, save after every roll, SIGKILL, resume from the save,
game over -- and nothing outside this module names the race.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.outcome import most
from engine.records import read_record
from kiosk import games
from kiosk.core.events import GameSetup, SeatSetup
from tests.support.race.engine import NAME, Race
from tests.support.race.kiosk import GAME

ROOT = Path(__file__).resolve().parents[2]
RACE_MODULE = "tests.support.race.kiosk"

# ----------------------------------------------------------------- the proof


def entry_point_dir(tmp_path: Path) -> Path:
    """A dist-info folder announcing this module's GAME in the kiosk's entry-point group."""
    site = tmp_path / "site"
    info = site / "race_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{games.ENTRY_POINT_GROUP}]\n{NAME} = {RACE_MODULE}:GAME\n")
    return site


def kiosk_env(site: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


def kiosk(site: Path, *args: Any, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *map(str, args)],
        env=kiosk_env(site),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay(seed: int, players: int, upto: int | None = None) -> Race:
    """The race the engine plays from `seed` (first player 0), `upto` turns or to the end."""
    race = Race.new(players, seed)
    while race.outcome is None and (upto is None or race.turns < upto):
        race.apply("roll")
    return race


@pytest.fixture
def registered():
    """The race in this process's registry (for the in-process checks), gone afterwards."""
    games.register_game(GAME)
    yield GAME
    games.unregister_game(NAME)


def test_the_race_is_found_through_the_entry_point_group(tmp_path):
    site = entry_point_dir(tmp_path)
    code = "from kiosk import games; g = games.get('race'); print(g.title, g.players, g.seat_kinds, games.names()[-1])"
    r = subprocess.run(
        [sys.executable, "-c", code], env=kiosk_env(site), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Dice race (2, 3) ('human', 'dice') race"  # after the built-in games


def test_the_kiosk_plays_the_race_headless_from_setup_to_game_over(tmp_path):
    site = entry_point_dir(tmp_path)
    script = tmp_path / "race.txt"
    script.write_text("roll\n" * 30)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        site,
        "--display",
        "none",
        "--game",
        NAME,
        "--players",
        "human,dice",
        "--seed",
        5,
        "--fast",
        "--first",
        0,
        "--script",
        script,
        "--events-out",
        events,
        "--games",
        1,
        "--simulate",
        "--state-dir",
        tmp_path / "state",
    )
    assert r.returncode == 0, r.stderr
    # saved after every roll, its record kept beside the save and filed at the end: and no error on the way
    assert "ERROR" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    (filed,) = (tmp_path / "state" / "records").glob("*-race-*.txt")
    record = read_record(filed.read_text(encoding="utf-8"))
    assert record.kind == NAME and record.final().to_dict() == replay(5, 2).to_dict()
    log = events_of(events)
    types = [e["type"] for e in log]
    assert types.index("new_game") < types.index("race_started") < types.index("race_over")
    expected = replay(5, 2)
    over = next(e for e in log if e["type"] == "race_over")
    assert over["winners"] == list(expected.winners) and over["turns"] == expected.turns
    assert over["termination"] == "won"
    rolls = [(e["player"], e["rolled"]) for e in log if e["type"] == "race_rolled"]
    assert len(rolls) == expected.turns and [p for p, _ in rolls] == [t % 2 for t in range(expected.turns)]
    assert "rolls" in r.stderr  # the headless narrator tells the race's own events


def test_a_turn_limit_ends_the_race_with_the_furthest_ahead_winning(tmp_path):
    site = entry_point_dir(tmp_path)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        site,
        "--display",
        "none",
        "--game",
        NAME,
        "--players",
        "dice,dice,dice",
        "--seed",
        9,
        "--fast",
        "--first",
        0,
        "--turn-limit",
        2,
        "--events-out",
        events,
        "--games",
        1,
    )
    assert r.returncode == 0, r.stderr
    over = next(e for e in events_of(events) if e["type"] == "race_over")
    expected = replay(9, 3, upto=2)
    assert over["turns"] == 2 and over["termination"] == "turn_limit"
    assert tuple(over["winners"]) == most(expected.positions)


def test_in_process_the_race_is_a_game_like_the_others(registered):
    assert NAME in games.names()
    setup = GameSetup(seats=(SeatSetup("human"), SeatSetup("dice")), game=NAME)
    assert setup.kinds == ("human", "dice")
    with pytest.raises(ValueError, match="seat kind 'hard'"):
        GameSetup(seats=(SeatSetup("human"), SeatSetup("hard")), game=NAME)
    with pytest.raises(ValueError, match="no open_cards variant"):
        GameSetup(seats=(SeatSetup("human"), SeatSetup("dice")), game=NAME, variants={"open_cards": True})
