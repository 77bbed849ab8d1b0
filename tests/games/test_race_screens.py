"""The test race on the kiosk's screens, added without editing a file outside its folder
(tests/support/race/): its tab and setup panel, its play screen to game over, and its record
stepped by ``labyrinth-replay --display offscreen``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from engine.records import read_record
from kiosk import games
from tests.games.test_third_game import ROOT, entry_point_dir, kiosk, kiosk_env
from tests.kiosk.ui.screens.test_screens import _close_windows, make_ui, pixels, save_png, tap_widget  # noqa: F401
from tests.support.race.engine import GOAL, NAME
from tests.support.race.kiosk import GAME

SHOTS = Path("/tmp") / "race-screens"  # looked at by eye (not an assertion)


@pytest.fixture
def race_ui():
    games.register_game(GAME)
    ui = make_ui(size=(800, 480), layout="tabletop", first="setup")
    yield ui
    ui.close()
    for session in ui.k.sessions.values():
        session.close()
    games.unregister_game(NAME)


def _shot(ui, name: str) -> None:
    ui.render(force=True)
    SHOTS.mkdir(exist_ok=True)
    save_png(SHOTS / f"{name}.png", pixels(ui))


def _widget(ui, text: str):
    return next(w for w in ui.screen.widgets if getattr(w, "text", None) == text)


def _choose_game(ui, title: str) -> None:
    """Tap the game's tab; with four games on a small screen the tabs give way to one button that opens
    the game picker (kiosk/ui/screens/setup.py), where the game is tapped instead."""
    if not any(getattr(w, "text", None) == title for w in ui.screen.widgets):
        ui.screen._open_picker("game")
    tap_widget(ui, _widget(ui, title))


def test_the_race_is_played_offscreen_from_its_setup_panel_to_game_over(race_ui):
    from tests.support.race.screens import RaceSetup

    ui = race_ui
    _choose_game(ui, GAME.title)  # its tab, titled by its declaration (or the game picker's entry)
    setup = ui.screen
    assert setup.game == NAME and isinstance(setup.panel, RaceSetup)
    tap_widget(ui, setup.panel.kind_buttons[1]["human"])  # two people race
    assert setup.choices.kinds[:2] == ["human", "human"]
    assert not any(getattr(w, "text", "").endswith(ui.t("howto.title")) for w in setup.widgets)  # it has no guide
    _shot(ui, "setup")
    tap_widget(ui, setup.start_button)
    assert ui.screen.name == "race_play"
    _shot(ui, "play")
    for _ in range(200):
        if ui.screen.name != "race_play":
            break
        assert ui.screen.roll_button is not None  # a person is to act: Roll is offered
        tap_widget(ui, ui.screen.roll_button)
        ui.step(0.05)
    assert ui.screen.name == "race_gameover"
    game = ui.k.sessions[NAME].game
    (winner,) = game.winners
    assert game.positions[winner] >= GOAL
    assert ui.screen.headline.text.startswith(("Red", "Yellow")[winner])
    _shot(ui, "gameover")


def test_its_record_is_stepped_by_labyrinth_replay_display(tmp_path):
    site = entry_point_dir(tmp_path)
    script = tmp_path / "race.txt"
    script.write_text("roll\n" * 30)
    r = kiosk(
        site,
        *("--display", "none", "--game", NAME, "--players", "human,dice", "--seed", 5, "--fast", "--first", 0),
        *("--script", script, "--games", 1, "--state-dir", tmp_path / "state"),
    )
    assert r.returncode == 0, r.stderr
    (filed,) = (tmp_path / "state" / "records").glob("*-race-*.txt")
    turns = len(read_record(filed.read_text(encoding="utf-8")).turns)
    shots = tmp_path / "shots"
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk.tools.replay",
            "--display",
            "offscreen",
            "--screenshot-dir",
            str(shots),
            str(filed),
        ],
        env=kiosk_env(site),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert r.returncode == 0, r.stderr
    pictures = sorted(shots.glob("*.png"))
    assert len(pictures) == turns + 1 and pictures[0].name.endswith("start.png")
    # the tokens move: the start and the end differ, and no two neighbours are one picture
    data = [p.read_bytes() for p in pictures]
    assert data[0] != data[-1]
    assert all(a != b for a, b in zip(data, data[1:]))
