"""The ocean theme installed and shown offscreen: the board game's play screen, the card game's, the
attract screen's wordmark and the operator menu's theme button. PNGs go to pytest's tmp dir, or
$UI_SHOTS_DIR to look at them."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from kiosk.tools import cli
from kiosk.core import testing
from kiosk.core.config import Config, apply_overrides
from kiosk.core.events import GameSetup, NewGame

from tests.kiosk.ui.screens.test_screens import Now, _button, pixels, save_png, tap_widget, window_of
from tests.kiosk.ui.screens.test_screens import _close_windows  # noqa: F401  (closes the module's windows)

pytestmark = pytest.mark.display

OCEAN = Path(__file__).resolve().parents[2] / "kiosk" / "themes" / "ocean"
OCEAN_RIM = (0x2A, 0x7F, 0xB8)  # the pack's medallion_rim
DRAWN_RIM = (205, 160, 60)  # kiosk/ui/art MEDALLION_RIM


@pytest.fixture(scope="module")
def state(tmp_path_factory) -> Path:
    state = tmp_path_factory.mktemp("state")
    assert cli.main(["--state-dir", str(state), "--install-theme", str(OCEAN), "--log-level", "error"]) == 0
    return state


def open_ui(state, theme="ocean", size=(800, 480), first="attract"):
    from kiosk.ui.shell.window import UI

    config = apply_overrides(Config(), {"display.theme": theme, "paths.state_dir": str(state)})
    kiosk = testing.MiniKiosk(config=config)
    ui = UI(kiosk, window_of(size), layout="tabletop", first=first, clock=Now())
    ui.k = kiosk
    return ui


def census(px, colour, tol=6, rect=None) -> int:
    """How many pixels of the frame (inside `rect` = (x, y, w, h) if given) are `colour` (within `tol`)."""
    w, h, data = px
    x0, y0, rw, rh = rect or (0, 0, w, h)
    n = 0
    for y in range(int(y0), int(y0 + rh), 2):
        row = data[(y * w + int(x0)) * 3 : (y * w + int(x0 + rw)) * 3]
        for i in range(0, len(row), 6):
            if (
                abs(row[i] - colour[0]) <= tol
                and abs(row[i + 1] - colour[1]) <= tol
                and abs(row[i + 2] - colour[2]) <= tol
            ):
                n += 1
    return n


def run(u, seconds=2.0, dt=0.1):
    for _ in range(int(seconds / dt)):
        u.step(dt)


def test_the_board_game_shows_the_ocean_treasures_and_their_names(state, shots_dir):
    u = open_ui(state)
    try:
        assert u.theme.id == "ocean"
        u.post(NewGame(GameSetup.of("human,human", seed=3)))
        run(u)
        assert u.screen.name == "play"
        u.render(force=True)
        px = pixels(u)
        save_png(shots_dir / "ocean-board-800x480.png", px)
        board = u.layout.board
        rect = (board.x, board.y, board.w, board.h)
        assert census(px, OCEAN_RIM, rect=rect) > 150  # the theme's medallions on the tiles
        assert census(px, DRAWN_RIM, rect=rect) < 20  # none of our drawn ones
        game = u.k.sessions["labyrinth"].game
        target = game.players[0].cards[0]
        assert u.t(f"treasure.{target}") == u.theme.name("board", target, "en")  # the theme's name ...
        assert u.t(f"treasure.{target}") != u.translator.inner.t(f"treasure.{target}")  # ... not ours
        # the same game with our own drawings: the other way round
        u.set_theme("builtin")
        run(u, 0.5)
        u.render(force=True)
        px = pixels(u)
        save_png(shots_dir / "drawn-board-800x480.png", px)
        assert census(px, DRAWN_RIM, rect=rect) > 150
        assert census(px, OCEAN_RIM, rect=rect) < 20
    finally:
        u.close()
        u.k.close()


def test_the_card_game_shows_the_ocean_treasures(state, shots_dir):
    u = open_ui(state)
    try:
        u.post(NewGame(GameSetup.of("human,easy", seed=3, game="cards")))
        run(u)
        screen = u.screen
        assert screen.name != "attract"
        u.render(force=True)
        px = pixels(u)
        save_png(shots_dir / "ocean-cards-800x480.png", px)
        assert screen.atlas is not None and screen.atlas.theme is u.theme
        # the same cards with our own drawings: only the treasures differ
        u.set_theme("builtin")
        run(u, 0.5)
        u.render(force=True)
        drawn = pixels(u)
        save_png(shots_dir / "drawn-cards-800x480.png", drawn)
        assert screen.atlas.theme.builtin
        w, h, a = px
        b = drawn[2]
        changed = sum(1 for i in range(0, len(a), 3) if abs(a[i] - b[i]) + abs(a[i + 1] - b[i + 1]) > 60)
        assert changed > 2000  # the treasures' pictures (about 20 medallions of 25 px)
        assert changed < w * h // 10  # ... and nothing else: the same layout, cards and texts
    finally:
        u.close()
        u.k.close()


def test_the_attract_screen_shows_the_theme_wordmark(state, shots_dir):
    u = open_ui(state)
    try:
        run(u, 1.0)
        u.render(force=True)
        px = pixels(u)
        save_png(shots_dir / "ocean-attract-800x480.png", px)
        # the pack's wordmark: a yellow sun over blue waves, where the drawn emblem has tiles and a pawn
        assert census(px, (250, 206, 50), tol=8) > 40
    finally:
        u.close()
        u.k.close()


def test_the_operator_menu_switches_between_the_themes(state, shots_dir):
    u = open_ui(state, theme="builtin")
    try:
        assert u.theme.builtin
        u.goto("operator")
        u.screen.open_page("settings")
        tap_widget(u, _button(u, "Theme: Built in"))
        assert u.theme.id == "ocean"
        u.render(force=True)
        save_png(shots_dir / "ocean-operator-800x480.png", pixels(u))
        tap_widget(u, _button(u, "Theme: Ocean"))
        assert u.theme.builtin
    finally:
        u.close()
        u.k.close()


def test_a_configured_theme_that_is_not_installed_shows_the_drawn_art(state, caplog):
    with caplog.at_level(logging.WARNING, logger="kiosk.themes"):
        u = open_ui(state, theme="nowhere")
    try:
        assert u.theme.builtin
        assert any("showing the built-in theme" in r.getMessage() for r in caplog.records)
    finally:
        u.close()
        u.k.close()
