"""The in-game menu offscreen: from every seat's side of both games, facing whoever opened it.

Through the real UI, bus and sessions (kiosk.core.testing.MiniKiosk): a tap on a menu button
opens the sheet turned to that button's edge; Continue closes it; "How to play" comes
back to the same position; new game and end game each need a second tap; a visitor's
volume stays under the operator's; a game of computers only stops with one touch.
Screenshots go to the test's tmp dir (and ``$KIOSK_SHOTS`` when set, to look at them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.core import testing
from kiosk.core.config import Config
from kiosk.core.events import AbandonGame, GameSetup, NewGame

from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

GAMES = {"labyrinth": ("play", "human,medium,human"), "cards": ("cards_play", "human,easy,human")}


class Now:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


_windows: dict = {}


@pytest.fixture(scope="module", autouse=True)
def _close_windows():
    yield
    for w in _windows.values():
        w.close()
    _windows.clear()


@pytest.fixture
def make():
    made = []

    def factory(game="labyrinth", kinds=None, layout="tabletop", language="en", size=(800, 480)):
        from kiosk.ui.shell.window import UI

        if size not in _windows:
            _windows[size] = offscreen_window(size)
        kiosk = testing.MiniKiosk(config=Config())
        ui = UI(kiosk, _windows[size], layout=layout, language=language, first="setup", clock=Now())
        ui.k = kiosk
        made.append(ui)
        screen, default = GAMES[game]
        ui.post(NewGame(GameSetup.of(kinds or default, seed=2, game=game)))
        ui.goto(screen)
        steps(ui)
        return ui

    yield factory
    for ui in made:
        ui.close()
        ui.k.close()


def steps(ui, n=6):
    for _ in range(n):
        ui.step(0.05)


def tap(ui, x, y):
    ui.tap(x, y)
    steps(ui, 2)


def button(ui, text):
    for w in ui.menu.widgets:
        if text in w.text:
            return w
    raise AssertionError(f"no {text!r} in the menu: {[w.text for w in ui.menu.widgets]}")


def shot(ui, tmp_path, name) -> Path:
    ui.draw()
    path = ui.screenshot(tmp_path / f"{name}.png")
    if os.environ.get("KIOSK_SHOTS"):
        ui.screenshot(Path(os.environ["KIOSK_SHOTS"]) / f"{name}.png")
    return path


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_the_menu_opens_from_each_edge_facing_whoever_opened_it(make, tmp_path, game, language):
    ui = make(game, language=language)
    spots = ui.menu._spots
    edges = {angle for _, angle in spots}
    assert edges == {0, 180}, f"{game}: a menu button at both long edges of the table"
    for k, (rect, angle) in enumerate(spots):
        assert rect.w >= ui.layout.touch and rect.h >= ui.layout.touch  # a finger wide
        assert 0 <= rect.x and rect.right <= ui.layout.width and 0 <= rect.y and rect.top <= ui.layout.height
        tap(ui, *rect.center)
        assert ui.menu.open and ui.menu.angle == angle  # it faces the side it was opened from
        texts = [w.text for w in ui.menu.widgets]
        assert any(ui.t("menu.continue") in t for t in texts) and ui.t("howto.title") in texts
        assert ui.t("menu.new_game") in texts and ui.t("menu.end_game") in texts
        for w in ui.menu.widgets:  # every button of the sheet a finger wide, turned with it
            assert w.rect.w >= ui.layout.touch - 1 and w.rect.h >= ui.layout.touch - 1
            assert w.frame.angle == angle
        shot(ui, tmp_path, f"menu_{game}_{language}_{k}")
        tap(ui, *button(ui, ui.t("menu.continue")).rect.center)
        assert not ui.menu.open
    assert ui.screen.name == GAMES[game][0]
    assert ui.k.sessions[game].game is not None and not ui.k.of(AbandonGame)


@pytest.mark.parametrize("game", GAMES)
def test_end_game_needs_a_second_tap_then_stops_it(make, game):
    ui = make(game)
    rect, _ = ui.menu._spots[0]
    tap(ui, *rect.center)
    end = button(ui, ui.t("menu.end_game"))
    tap(ui, *end.rect.center)
    assert ui.menu.open and not ui.k.of(AbandonGame)  # one tap only asks
    assert button(ui, ui.t("menu.end_game_confirm"))
    tap(ui, *button(ui, ui.t("menu.end_game_confirm")).rect.center)
    assert ui.screen.name == "attract" and not ui.menu.open
    assert ui.k.sessions[game].game is None and len(ui.k.of(AbandonGame)) == 1


def test_a_tap_beside_the_sheet_closes_it_and_plays_nothing(make):
    ui = make("labyrinth")
    game = ui.k.sessions["labyrinth"].game
    before = game.to_dict()
    rect, _ = ui.menu._spots[2]
    tap(ui, *rect.center)
    arrow = ui.layout.arrow_rect("N3")  # an arrow beside the sheet, under the dimmed screen
    sheet = ui.menu._sheet_rect()
    assert not sheet.contains(*arrow.center)
    tap(ui, *arrow.center)
    assert not ui.menu.open
    assert ui.k.sessions["labyrinth"].game.to_dict() == before  # the closing tap did not play


def test_new_game_needs_a_second_tap_and_keeps_the_seats(make):
    ui = make("labyrinth")
    first = ui.k.sessions["labyrinth"].game_id
    tap(ui, *ui.menu._spots[3][0].center)
    tap(ui, *button(ui, ui.t("menu.new_game")).rect.center)
    assert ui.k.sessions["labyrinth"].game_id == first
    tap(ui, *button(ui, ui.t("menu.new_game_confirm")).rect.center)
    news = ui.k.of(NewGame)
    assert len(news) == 2 and news[1].setup.kinds == ("human", "medium", "human") and news[1].setup.seed is None
    assert ui.k.sessions["labyrinth"].game_id != first and ui.screen.name == "play"


def test_new_game_goes_straight_to_the_new_board_not_through_the_attract_screen(make):
    """Tried as a new user would: "New game" showed the old board, then flashed the attract screen."""
    ui = make("labyrinth")
    visited: list[str] = []
    goto = ui.goto
    ui.goto = lambda name, **kw: (visited.append(name), goto(name, **kw))[1]
    tap(ui, *ui.menu._spots[3][0].center)
    tap(ui, *button(ui, ui.t("menu.new_game")).rect.center)
    tap(ui, *button(ui, ui.t("menu.new_game_confirm")).rect.center)
    steps(ui)
    assert visited == [] and ui.screen.name == "play"
    game = ui.k.sessions["labyrinth"].game
    model = ui.screen.board.model
    assert [t.openings for t in model.tiles] == [game.board[divmod(i, 7)].openings for i in range(49)]


@pytest.mark.parametrize("game", GAMES)
def test_how_to_play_from_the_menu_comes_back_to_the_same_position(make, game):
    ui = make(game)
    session = ui.k.sessions[game]
    before = session.game.to_dict()
    rect, angle = ui.menu._spots[-1]
    tap(ui, *rect.center)
    tap(ui, *button(ui, ui.t("howto.title")).rect.center)
    howto = ui.screen
    assert howto.name == ("howto" if game == "labyrinth" else "cards_howto")
    assert howto.edge == ("S" if angle == 0 else "N")  # the guide faces the person who asked
    back = [w for w in howto.widgets if ui.t("common.back") in w.text][0]
    tap(ui, *back.rect.center)
    assert ui.screen.name == GAMES[game][0]
    assert session.game.to_dict() == before  # the same game, the same position


def test_a_visitors_sound_stays_under_the_operators_volume(make):
    from kiosk.sound import Sound, SoundSettings

    ui = make("labyrinth")
    ui.sound = Sound(None, SoundSettings(volume=60), start=False)
    ui.screen_listeners.append(ui.sound.screen_shown)  # as kiosk/ui/shell/runner.py wires it
    tap(ui, *ui.menu._spots[0][0].center)
    louder = [w for w in ui.menu.widgets if w.text == "+"][0]
    assert not louder.enabled  # at the operator's volume already
    tap(ui, *[w for w in ui.menu.widgets if w.text == "\u2212"][0].rect.center)
    assert ui.sound.playing_volume == 50
    tap(ui, *[w for w in ui.menu.widgets if w.text == "+"][0].rect.center)
    tap(ui, *[w for w in ui.menu.widgets if w.text == "+"][0].rect.center)
    assert ui.sound.playing_volume == 60  # the second tap could not go above it
    off = [w for w in ui.menu.widgets if w.text.startswith("\u266a")][0]
    tap(ui, *off.rect.center)
    assert ui.sound.visitor_muted and not ui.sound.audible and ui.sound.volume == 60
    ui.goto("attract")  # the next visitor hears the operator's volume again
    assert ui.sound.audible and ui.sound.playing_volume == 60


@pytest.mark.parametrize("game", GAMES)
def test_a_game_of_computers_only_stops_with_one_touch(make, tmp_path, game):
    ui = make(game, kinds="easy,easy" if game == "cards" else "medium,easy")
    assert ui.screen.name == GAMES[game][0]
    spots = ui.menu._spots
    assert spots and ui.menu.computers_only
    shot(ui, tmp_path, f"stop_{game}")
    tap(ui, *spots[-1][0].center)  # one touch, from either side
    assert ui.screen.name == "attract"
    assert ui.k.sessions[game].game is None and len(ui.k.of(AbandonGame)) == 1
