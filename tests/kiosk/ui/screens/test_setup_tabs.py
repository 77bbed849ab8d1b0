"""A fourth game's tab on the setup screen: the tabs of any number of games fit (two rows when one
is too narrow), and the layout audit finds nothing wrong at any size, in either layout, in the
widest language. The fourth game is the test race (tests/support/race/), registered here only."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk import games
from kiosk.ui.audit import layout as la
from kiosk.ui.kit.layout import SIZES
from tests.support.offscreen import offscreen_window
from tests.support.race.engine import NAME
from tests.support.race.kiosk import GAME


@pytest.fixture
def four_games():
    games.register_game(GAME)
    assert len(games.all_games()) == 4
    yield
    games.unregister_game(NAME)


def _setup_of(game: str) -> la.State:
    return la.State("setup", f"{game}-tab", game, la.setup_state(game, lambda choices: None))


def _game_picker(env: la.Env) -> None:
    """The board game's setup, whose corner seats leave the tabs no room at 800x480: its one button
    naming the chosen game opens the list of all four."""
    la.setup_state(games.default(), lambda choices: None)(env)
    screen = env.ui.screen
    name = screen._title(games.get(games.default()))
    chosen = [w for w in screen.widgets if getattr(w, "text", "") == name + "  \u25be"]
    assert chosen, "four tabs beside the corner seats: one button names the chosen game"
    chosen[0].tap()
    assert screen.picking == "game" and len(screen._picker) == 4


@pytest.mark.display
def test_a_fourth_games_tab_passes_the_layout_audit_at_every_size(four_games):
    states = [
        _setup_of(games.default()),
        _setup_of(NAME),
        la.State("setup", "game-picker", games.default(), _game_picker),
    ]
    shots = Path(os.environ["UI_SHOTS_DIR"]) if os.environ.get("UI_SHOTS_DIR") else None
    env = la.Env(offscreen_window((800, 480)))
    try:
        report = la.walk(sizes=SIZES, languages=[la.WIDEST], states=states, env=env, shots=shots)
        tabs = {it["text"] for e in report["entries"] for it in e["items"] if it["kind"] == "button" and it.get("text")}
    finally:
        env.close()
    assert la.problems_of(report) == []
    assert GAME.title in tabs  # the race's tab is there to tap
