"""The quick game (issue 32): fewer treasures per player, a variant the board game declares.

Played headless to the end, killed with SIGKILL and resumed in it; the classic deal and every
existing seed are unchanged; old configs, saves and event logs read as before.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.labyrinth import Game, Rules
from engine.labyrinth.record import rules_from_text, rules_text
from engine.records import read_record
from kiosk import games
from kiosk.core import config as cfg
from kiosk.core.events import GameSetup, Message, NewGame
from kiosk.core.kiosk import setup_from_config
from tests.support.power_cut import kiosk_env

ROOT = Path(__file__).resolve().parents[3]


def events_of(path: Path) -> list[dict]:
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    out = []
    for line in lines:
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # the last line, half written when read
            break
    return out


def kiosk(*args: object) -> list[str]:
    return [sys.executable, "-m", "kiosk", "--display", "none", "--log-level", "warning", *map(str, args)]


def test_the_classic_deal_and_every_seed_are_unchanged():
    for players in (1, 2, 3, 4):
        for seed in range(6):
            classic = Game.new(players=players, seed=seed)
            assert classic.rules.treasures == 0 and "treasures" not in classic.to_dict()["rules"]
            assert [len(p.cards) for p in classic.players] == [24 // players] * players
    quick = Game.new(players=2, seed=4, rules=Rules(treasures=3))
    classic = Game.new(players=2, seed=4)
    assert [p.cards for p in quick.players] == [p.cards[:3] for p in classic.players]  # the same deck, fewer
    assert quick.to_dict()["board"] == classic.to_dict()["board"]
    assert Game.from_dict(quick.to_dict()).to_dict() == quick.to_dict()
    assert Rules(treasures=5).per_player(4) == 5 and Rules(treasures=5).per_player(1) == 5
    assert rules_from_text(rules_text(Rules(treasures=3, open_cards=True)), 0) == Rules(treasures=3, open_cards=True)
    assert games.get("labyrinth").variant_words(quick) == ("treasures_3",)
    assert games.get("labyrinth").variant_words(classic) == ()


def test_old_configs_saves_and_event_logs_read_as_before(tmp_path):
    path = tmp_path / "kiosk.toml"
    path.write_text("[game]\nopen_cards = true\nreturn_home = false\n")
    config = cfg.load(path)
    # a config that names no deal gets its preset's: the public preset's quick game
    assert config.game.variants == {"open_cards": True, "return_home": False, "treasures": 3}
    setup = setup_from_config(config)
    assert setup.variants == {"open_cards": True, "return_home": False, "treasures": 3}
    path.write_text('[kiosk]\npreset = "home"\n[game]\nopen_cards = true\nreturn_home = false\n')
    assert setup_from_config(cfg.load(path)).variants == {"open_cards": True, "return_home": False}
    assert cfg.load(None).to_raw()["game"]["open_cards"] is False  # written back under the same keys
    path.write_text("[game]\ntreasures = 4\n")
    with pytest.raises(cfg.ConfigError, match=r"\[game\] treasures = 4 must be one of 0, 3, 5"):
        cfg.load(path)
    # a save of the classic rules, as older kiosks wrote it: no treasures field, and none written back
    old = Game.new(players=3, seed=2).to_dict()
    assert set(old["rules"]) == {"open_cards", "return_home", "turn_limit"}
    assert Game.from_dict(old).to_dict() == old
    # an event log line from before the variants were declared
    line = {
        "type": "new_game",
        "source": "ui",
        "setup": {"seats": [{"kind": "human", "seat": None}], "open_cards": True, "return_home": True, "game": ""},
    }
    read = Message.from_dict(line)
    assert isinstance(read, NewGame) and read.setup.variants == {"open_cards": True}
    assert read.setup.variant("return_home") is True and read.setup.variant("treasures") == 0
    with pytest.raises(ValueError, match="treasures must be one of"):
        GameSetup.of("human", treasures=4)
    with pytest.raises(ValueError, match="no treasures variant"):
        GameSetup.of("human,easy", game="cards", treasures=3)


def test_a_quick_game_of_three_treasures_is_played_headless_to_the_end(tmp_path):
    state, events = tmp_path / "state", tmp_path / "events.jsonl"
    args = ("--players", "hard,medium", "--treasures", 3, "--seed", 5, "--fast", "--games", 1)
    r = subprocess.run(
        kiosk(*args, "--state-dir", state, "--events-out", events),
        env=kiosk_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    seen = events_of(events)
    started = next(e for e in seen if e["type"] == "game_started")
    assert [p["cards_left"] for p in started["players"]] == [3, 3]
    over = next(e for e in seen if e["type"] == "game_over")
    assert len(over["winners"]) == 1
    found = [e for e in seen if e["type"] == "treasure_found"]
    assert len([e for e in found if e["player"] == over["winners"][0]]) == 3
    (record_file,) = (state / "records").glob("*")
    record = read_record(record_file.read_text())
    assert record.tags["Rules"] == "treasures-3"
    assert record.final().phase == "over" and record.final().rules.treasures == 3


def test_a_quick_game_survives_sigkill_and_resumes_in_it(tmp_path):
    state, first, second = tmp_path / "state", tmp_path / "first.jsonl", tmp_path / "second.jsonl"
    # at the kiosk's own pace (no --fast), so the game is still running when it is killed
    proc = subprocess.Popen(
        kiosk("--players", "hard,medium", "--treasures", 3, "--seed", 7, "--state-dir", state, "--events-out", first),
        env=kiosk_env(),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while not any(e["type"] == "board_shifted" for e in events_of(first)):
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "no push came"
            time.sleep(0.05)
        time.sleep(0.3)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = json.loads((state / "current-game.json").read_text())
    game = Game.from_dict(saved["state"])
    assert game.rules.treasures == 3 and game.phase != "over"
    # restarted without --treasures: the save says it is a quick game
    r = subprocess.run(
        kiosk("--fast", "--games", 1, "--state-dir", state, "--events-out", second),
        env=kiosk_env(),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    seen = events_of(second)
    resumed = next(e for e in seen if e["type"] == "game_started")
    assert resumed["resumed"] is True and resumed["turns"] == game.turns
    assert [p["cards_left"] for p in resumed["players"]] == [p.cards_left for p in game.players]
    over = next(e for e in seen if e["type"] == "game_over")
    winner = game.players[over["winners"][0]]
    found_after = [e for e in seen if e["type"] == "treasure_found" and e["player"] == over["winners"][0]]
    assert len(winner.found) + len(found_after) == 3


def test_the_setup_offers_the_quick_game_and_starts_it(tmp_path):
    from kiosk.core.testing import MiniKiosk
    from kiosk.ui.shell.window import UI
    from tests.kiosk.ui.screens.test_screens import Now, tap_widget, window_of

    path = tmp_path / "kiosk.toml"
    path.write_text("[game]\ntreasures = 5\n")  # the operator's default for a public place
    kiosk = MiniKiosk(config=cfg.load(path))
    ui = UI(kiosk, window_of((800, 480)), layout="tabletop", language="en", first="setup", clock=Now())
    try:
        panel = ui.screen.panel
        assert panel.choices.treasures == 5 and panel.treasures_button.text == "Treasures: 5"
        tap_widget(ui, panel.treasures_button)
        assert panel.choices.treasures == 3 and panel.treasures_button.text == "Treasures: 3"
        tap_widget(ui, panel.treasures_button)
        assert panel.choices.treasures == 0 and panel.treasures_button.text == "Treasures: all"
        tap_widget(ui, panel.treasures_button)
        tap_widget(ui, panel.treasures_button)  # 5, then 3
        tap_widget(ui, ui.screen.start_button)
        game = kiosk.sessions["labyrinth"].game
        assert game is not None and game.rules.treasures == 3
        assert all(p.cards_left == 3 for p in game.players)
    finally:
        ui.close()
        kiosk.close()
