"""The documented [game] keys do what they say: game, turn_limit, first_player (docs/keys.md,
docs/rules.md section 3)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.core import config as cfg
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.events import GameEnded, GameSetup
from kiosk.games.cards.events import CardGameOver
from kiosk.games.labyrinth.events import GameOver

ROOT = Path(__file__).resolve().parents[3]


def run_kiosk(config: cfg.Config, games: int = 1) -> list:
    """Play `games` auto-played games of the kiosk set up from `config` alone; their end events."""
    kiosk = Kiosk(config, KioskOptions(fast=True, ring="none", auto_play=True, games=games))
    ended: list = []
    kiosk.bus.subscribe(GameEnded, ended.append)
    kiosk.start()
    for _ in range(200_000):
        if kiosk.stopping:
            break
        kiosk.tick(budget=None)
        if not kiosk.bus.pending() and not kiosk.thinking:
            kiosk.clock.advance_to(kiosk.clock.next_due() or kiosk.clock.now())
    kiosk.close()
    return ended


def load(tmp_path: Path, text: str) -> cfg.Config:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return cfg.load(path)


def test_game_and_turn_limit_choose_the_game_and_end_it(tmp_path):
    config = load(tmp_path, '[game]\ngame = "cards"\nseats = ["easy", "hard"]\nturn_limit = 3\n')
    [end] = run_kiosk(config)
    assert isinstance(end, CardGameOver)
    assert end.turns == 3 and end.termination.value == "turn_limit"
    best = max(end.scores)
    assert end.winners == tuple(i for i, s in enumerate(end.scores) if s == best)


def test_a_board_game_with_a_turn_limit_is_won_by_the_most_treasures(tmp_path):
    config = load(tmp_path, '[game]\nseats = ["easy", "random", "easy"]\nturn_limit = 7\n')
    [end] = run_kiosk(config)
    assert isinstance(end, GameOver) and end.turns <= 7
    found = [len(f) for f in end.found]
    if end.termination.value == "turn_limit":
        assert end.turns == 7 and end.winners == tuple(i for i, n in enumerate(found) if n == max(found))


def test_the_command_line_takes_game_and_turn_limit_from_the_config(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[game]\ngame = "cards"\nseats = ["easy", "easy"]\nturn_limit = 4\n')
    events = tmp_path / "events.jsonl"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "--config",
            str(path),
            "--display",
            "none",
            "--fast",
            "--games",
            "1",
            "--events-out",
            str(events),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
    over = [json.loads(line) for line in events.read_text().splitlines() if '"card_game_over"' in line]
    assert len(over) == 1 and over[0]["turns"] == 4 and over[0]["termination"] == "turn_limit"


def test_first_player_random_really_varies_and_a_number_is_kept(tmp_path):
    kiosk = Kiosk(cfg.Config(), KioskOptions(fast=True, ring="none"))
    try:
        firsts = {kiosk.first_player(4) for _ in range(200)}
    finally:
        kiosk.close()
    assert firsts == {0, 1, 2, 3}  # "random" (the default) reaches every seat
    fixed = Kiosk(
        load(tmp_path, '[game]\nseats = ["human", "hard", "easy"]\nfirst_player = 2\n'),
        KioskOptions(fast=True, ring="none", random_first=True),
    )
    try:
        assert {fixed.first_player(3) for _ in range(20)} == {2}
        assert fixed.next_setup().first == 2
    finally:
        fixed.close()


def test_random_first_gives_each_auto_game_its_own_first_player():
    kiosk = Kiosk(
        cfg.Config(), KioskOptions(fast=True, ring="none", random_first=True, setup=GameSetup.of("easy,easy,easy,easy"))
    )
    try:
        firsts = {kiosk.next_setup().first for _ in range(100)}
    finally:
        kiosk.close()
    assert len(firsts) > 1


@pytest.mark.parametrize(
    "text, message",
    [
        ('[game]\ngame = "chess"\n', "game"),
        ("[game]\nturn_limit = -1\n", "turn_limit = -1 must be at least 0"),
    ],
)
def test_bad_game_keys_are_refused(tmp_path, text, message):
    with pytest.raises(cfg.ConfigError, match=message):
        load(tmp_path, text)


def test_the_default_game_does_not_depend_on_which_game_was_imported_first():
    code = "import kiosk.games.cards.session; from kiosk import games; print(games.default(), games.names())"
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split()[0] == "labyrinth"
