"""The turn cue ("<colour>'s turn") on the board game's play screen, offscreen.

It is said in the language of the moment (a change of language mid-game, and the layout audit's
walk over the languages, lay it out again), it lies on the person's own panel, facing them, and
never covers the board or its arrows, from every seat's side, at 800x480 and 1280x800; every
language's text fits its band.

Runs on an offscreen EGL context; skips with the reason when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core import testing
from kiosk.core.events import GameSetup, NewGame
from kiosk.ui.art import COLOR_NAMES
from kiosk.ui.kit import widgets
from kiosk.ui.kit.i18n import LANGUAGES, Translator

from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


def make_ui(size=(800, 480), layout="tabletop"):
    from kiosk.ui.shell.runner import Offscreen
    from kiosk.ui.shell.window import UI

    kiosk = testing.MiniKiosk()
    ui = UI(kiosk, window_of(size), layout=layout, first="play")
    ui.k, ui.off = kiosk, Offscreen(ui, kiosk)
    return ui


@pytest.fixture
def ui():
    made = make_ui()
    yield made
    made.close()
    made.k.close()


def drawn_texts(ui, change) -> list[str]:
    """The texts laid out (or moved back into view) while `change()` runs, as the layout audit records them."""
    from kiosk.ui.audit.layout import collect

    previous = widgets.RECORDER
    rec = widgets.RECORDER = widgets.Recorder()
    try:
        change()
        return [it["text"] for it in collect(ui, rec) if it["kind"] == "text"]
    finally:
        widgets.RECORDER = previous


def test_a_language_change_mid_game_says_the_cue_again(ui):
    ui.post(NewGame(GameSetup.of("human,human", seed=2)))
    ui.off.settle()
    screen = ui.screen
    assert screen.cue.showing
    seat = ui.k.sessions["labyrinth"].game.players[0].seat
    german = Translator("de")
    expected = german.t("play.turn_of", colour=german.t(f"colour.{COLOR_NAMES[seat]}"))
    texts = drawn_texts(ui, lambda: ui.set_language("de"))
    assert expected in [
        t.replace("\n", " ") for t in texts
    ]  # it used to stay "Red's turn", made once when the turn began
    assert screen.cue.showing  # a language change is not a touch: the cue still waits for one
    ui.off.frame()
    assert screen.cue_label().text.replace("\n", " ") == expected


def test_the_audit_walk_lays_the_cue_out_in_each_language(ui):
    from kiosk.ui.audit.layout import relabel

    ui.post(NewGame(GameSetup.of("human,human", seed=2)))
    ui.off.settle()
    seat = ui.k.sessions["labyrinth"].game.players[0].seat
    for lang in ("et", "nl"):
        tr = Translator(lang)
        expected = tr.t("play.turn_of", colour=tr.t(f"colour.{COLOR_NAMES[seat]}"))

        def again(lang=lang):
            ui.translator.set_language(lang)
            relabel(ui.screen, ui.layout, False)  # what the walk does for each further language

        assert expected in [t.replace("\n", " ") for t in drawn_texts(ui, again)], lang


def _each_seat_cued(ui):
    """Yield (seat, facing) with each of four people's turn cue showing in turn."""
    L = ui.layout
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=5)))
    ui.off.settle()
    session = ui.k.sessions["labyrinth"]
    for _ in range(4):
        g = session.game
        seat = g.players[g.current].seat
        assert ui.screen.cue.showing
        yield seat, L.facing(seat)
        from kiosk.games.labyrinth.events import SelectArrow, Stay

        arrow = next(a for a in ("N1", "E3", "S5", "W1", "N3") if a != g.forbidden)
        ui.post(SelectArrow(arrow))
        ui.post(SelectArrow(arrow))
        ui.off.settle()
        ui.post(Stay())
        ui.off.settle()
        ui.off.run_for(4)  # past a computer's pause, the walk and the panels' move


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_cue_lies_on_the_persons_own_panel_never_on_the_board(size):
    ui = make_ui(size)
    try:
        L = ui.layout
        seen = set()
        for seat, facing in _each_seat_cued(ui):
            seen.add(seat)
            screen = ui.screen
            area = screen.cue_area()
            assert area is not None
            ring = L.ring  # the board and its arrows
            assert area.right <= ring.x or area.x >= ring.right, (seat, area, ring)
            panel = L.panel(seat, seat)
            assert panel.contains(*area.center) and area.w <= panel.w and area.h <= panel.h
            cue_label = screen.cue_label()
            assert cue_label is not None and int(cue_label.rotation) % 360 == facing  # turned to its reader
            assert cue_label.content_width <= area.w  # fits across the band
        assert seen == {0, 1, 2, 3}
    finally:
        ui.close()
        ui.k.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_languages_cue_fits_its_band(lang):
    """Each colour's cue in `lang`, at 800x480 (the narrowest panels) with its band at least the title size."""
    from kiosk.ui.kit import typeface

    ui = make_ui()
    try:
        ui.set_language(lang)
        L = ui.layout
        for _seat, _facing in _each_seat_cued(ui):
            lab = ui.screen.cue_label()
            area = ui.screen.cue_area()
            assert lab.content_width <= area.w and lab.content_height <= area.h, (lab.text, area)
            assert lab.font_size >= L.font(typeface.TITLE) - 0.01, lab.text
            assert "\n" not in lab.text.replace("\n", "", 1)  # two lines at most
    finally:
        ui.close()
        ui.k.close()
