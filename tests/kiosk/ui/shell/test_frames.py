"""The UI's frames and its kiosk duties, offscreen: the frame cache draws what a full redraw draws,
frames are skipped only when nothing changed, a turned screen maps touches back, kiosk mode cannot
be left by keys or the window manager, the idle countdown ends a forgotten game, a game with a
person in it opens on the board, the setup's hint choice reaches the board, refusals are
translated, and the operator's corner hold works from any screen without stealing a game's taps.

Runs on an offscreen EGL context (libegl1 + Mesa); skips with the reason when none can be made.
"""

from __future__ import annotations

import functools
import os
import subprocess
from dataclasses import replace
import sys
from pathlib import Path

import pytest

from kiosk.core.clock import VirtualClock
from kiosk.core.config import Config
from kiosk.core.events import GameAbandoned, GameSetup, IllegalInput, NewGame, Quit, SuspendGame
from kiosk.games.labyrinth.events import PushArrow, SelectArrow, Stay, TapCell

from tests.support.offscreen import offscreen_window
from tests.games.labyrinth.test_play import MiniKiosk
from tests.kiosk.ui.screens.test_screens import Now
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display

ROOT = Path(__file__).resolve().parents[4]


#: One offscreen window per size, kept for the whole run (closing an EGL window takes seconds).
window_of = functools.cache(offscreen_window)


@pytest.fixture
def make():
    made = []

    def factory(size=(1280, 800), kiosk=None, **kw):
        from kiosk.ui.shell.window import UI
        from kiosk.ui.shell.runner import Offscreen

        kiosk = kiosk or MiniKiosk()
        now = Now()
        kw.setdefault("first", "play")
        kw.setdefault("layout", "upright")
        ui = UI(kiosk, window_of(size), clock=now, **kw)
        ui.k, ui.clock, ui.off = kiosk, now, Offscreen(ui, kiosk)
        made.append(ui)
        return ui

    yield factory
    for ui in made:
        ui.close()
        if hasattr(ui.k, "session"):
            ui.k.sessions["labyrinth"].close()


def start(ui, kinds="human,human", seed=3, **kw):
    ui.post(NewGame(GameSetup.of(kinds, seed=seed, **kw)))
    ui.off.settle()
    assert ui.screen.board.model.started


def pixels(ui):
    """The frame now in the window, as (width, height, rgb bytes), rows bottom-up like GL."""
    import pyglet

    ui.window.switch_to()
    img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    rgba = img.get_data("RGBA", img.width * 4)
    rgb = bytearray(img.width * img.height * 3)
    for k in range(3):
        rgb[k::3] = rgba[k::4]
    return img.width, img.height, bytes(rgb)


def rgb_at(px, x, y):
    """Pixel at window position (x, y), origin bottom-left."""
    w, h, data = px
    i = (int(y) * w + int(x)) * 3
    return tuple(data[i : i + 3])


def differing(a, b, tol=24) -> int:
    assert a[:2] == b[:2]
    da, db = a[2], b[2]
    return sum(
        1
        for i in range(0, len(da), 3)
        if max(abs(da[i] - db[i]), abs(da[i + 1] - db[i + 1]), abs(da[i + 2] - db[i + 2])) > tol
    )


def send(ui, *event):
    """A window event as the platform delivers it: queued, then dispatched by the event loop."""
    ui.window.dispatch_event(*event)
    ui.window.dispatch_events()


def full_redraw(ui):
    """The same frame drawn the old way: every layer, no cache."""
    ui.cache.broken = "test"
    try:
        ui.draw()
        return pixels(ui)
    finally:
        ui.cache.broken = None  # the cache itself was left as it was


# ---------------------------------------------------------------- the frame cache
def test_cached_frames_show_what_a_full_redraw_shows(make):
    ui = make(layout="tabletop")
    start(ui, "human,human,human")
    g = ui.k.sessions["labyrinth"].game
    checks = []

    def check(label):
        ui.draw()
        cached = pixels(ui)
        checks.append((label, differing(cached, full_redraw(ui))))

    check("start")
    arrow = "N1" if g.forbidden != "N1" else "N3"
    ui.post(SelectArrow(arrow))
    ui.off.settle()
    check("preview")
    ui.post(PushArrow(arrow))
    ui.off.frame()
    ui.off.frame()
    check("mid-slide")  # the row is live, the rest from the cache
    ui.off.settle()
    check("move phase")  # dimmed cells (a partial update of the board)
    renders, partial = ui.cache.renders, ui.cache.partial
    ui.post(Stay())
    ui.off.settle()
    check("next turn")
    assert ui.cache.partial > partial, "panel and board changes redraw only their rectangles"
    assert ui.cache.renders - renders < 10
    w, h = ui.window.width, ui.window.height
    for label, n in checks:
        assert n < w * h * 0.001, f"{label}: {n} pixels differ from a full redraw"


def test_frames_are_drawn_only_while_something_changes(make):
    ui = make()
    start(ui)
    # the active pawn's ring pulses (a step at 15 Hz: within four frames of 60 Hz) ...
    assert any(ui.step(1 / 60) for _ in range(4))
    ui.off.run_for(10)  # ... for a few seconds, then holds still
    drawn = ui.frames
    skipped = ui.skipped
    for _ in range(30):
        assert ui.step(1 / 60) is False
    assert ui.frames == drawn and ui.skipped == skipped + 30
    before = ui.cache.renders
    ui.post(SelectArrow("E3"))  # something happens: frames again, the cache in part
    assert ui.step(1 / 60)
    assert ui.cache.renders == before + 1 and ui.cache.partial >= 1
    # a still frame is still right: the screenshot of a skipped frame is the last drawn one
    ui.off.run_for(10)
    assert ui.step(1 / 60) is False
    still = pixels(ui)
    assert differing(still, full_redraw(ui)) < ui.window.width * ui.window.height * 0.001


# ---------------------------------------------------------------- a screen mounted turned
@pytest.mark.parametrize("rotation", [90, 180, 270])
def test_turned_screen_draws_turned_and_maps_touches_back(make, rotation):
    from kiosk.ui.shell.window import rotation_view

    size = (480, 800) if rotation in (90, 270) else (800, 480)
    ui = make(size=size, rotation=rotation)
    assert (ui.layout.width, ui.layout.height) == (800, 480)  # the picture is laid out upright
    W, H = size
    m = rotation_view(rotation, W, H)
    for lx, ly in ((10, 20), (790, 5), (400, 470)):
        x, y, _, _ = m @ __import__("pyglet").math.Vec4(lx, ly, 0, 1)
        assert 0 <= x <= W and 0 <= y <= H
        assert ui.to_logical(x, y) == pytest.approx((lx, ly))
    start(ui)
    ui.off.settle()
    # the arrow N3 where the panel shows it: a press+release there (window pixels) selects N3
    lx, ly = geometry.arrow_rect(ui.layout, "N3").center
    x, y, _, _ = m @ __import__("pyglet").math.Vec4(lx, ly, 0, 1)
    ui.draw()
    px = pixels(ui)
    r, g, b = rgb_at(px, x, y)
    assert r > 200 and g > 150 and b < 120, f"the amber arrow N3 is drawn at the turned place, got {(r, g, b)}"
    send(ui, "on_mouse_press", x, y, 1, 0)
    send(ui, "on_mouse_release", x, y, 1, 0)
    ui.off.settle()
    assert ui.k.sessions["labyrinth"].preview == "N3"
    # tap-px counts screenshot pixels (top-left origin) of the turned picture
    lx, ly = geometry.cell_center(ui.layout, 0, 0)
    x, y, _, _ = m @ __import__("pyglet").math.Vec4(lx, ly, 0, 1)
    before = len(ui.k.of(TapCell))
    ui.tap_px(x, H - 1 - y)
    ui.off.settle()
    assert ui.k.of(TapCell)[before:] and ui.k.of(TapCell)[-1].cell == (0, 0)


# ---------------------------------------------------------------- kiosk mode
def test_kiosk_mode_cannot_be_closed_by_keys_or_the_window_manager(make):
    from pyglet.window import key

    ui = make(display="fullscreen")
    start(ui)
    win = ui.window
    for symbol, mods in (
        (key.Q, key.MOD_CTRL),
        (key.W, key.MOD_CTRL),
        (key.F4, key.MOD_ALT),
        (key.ESCAPE, 0),
        (key.ESCAPE, key.MOD_SHIFT),
    ):
        send(ui, "on_key_press", symbol, mods)
    send(ui, "on_close")
    send(ui, "on_hide")
    ui.off.settle()
    assert not ui.k.of(Quit)
    assert not win.has_exit
    assert ui.screen.name == "play" and ui.k.sessions["labyrinth"].game is not None
    # the operator menu's quit (behind the PIN) is the way out
    ui.goto("operator")
    for d in "2580":
        ui.screen.key(d)
    ui.screen.key("ok")
    ui.screen.quit()
    ui.screen.quit()
    ui.off.settle()
    assert ui.k.of(Quit)[-1].reason == "operator"


def test_a_desktop_window_closes(make):
    from pyglet.window import key

    ui = make(display="window")
    send(ui, "on_close")
    ui.off.settle()
    assert ui.k.of(Quit)
    send(ui, "on_key_press", key.Q, key.MOD_CTRL)
    ui.off.settle()
    assert len(ui.k.of(Quit)) == 2
    assert not ui.window.has_exit  # the kiosk decides when to stop, pyglet's default never runs


# ---------------------------------------------------------------- idle
def test_forgotten_game_shows_the_countdown_then_attract_and_is_archived(make, tmp_path):
    from kiosk.core.kiosk import Kiosk, KioskOptions

    base = Config()
    config = replace(
        base, kiosk=replace(base.kiosk, idle_timeout_s=30, idle_countdown_s=10, continue_s=0)
    )  # continue_s 0: archived at once
    kiosk = Kiosk(
        config,
        KioskOptions(
            fast=True,
            mock_pins=True,
            ring="virtual",
            state_dir=tmp_path,
            setup=GameSetup.of("human,medium", seed=4),
            start_game=True,
        ),
        clock=VirtualClock(),
    )
    kiosk.seen = []
    kiosk.bus.subscribe_all(kiosk.seen.append)
    kiosk.start()
    try:
        ui = make(size=(1024, 600), kiosk=kiosk, layout="tabletop", first=None)
        ui.off.settle()
        assert ui.screen.name == "play"
        assert (tmp_path / "current-game.json").exists()
        ui.clock.t += 29
        ui.step(0.02)
        assert not ui.idle.showing
        ui.clock.t += 2
        ui.step(0.02)
        assert ui.idle.showing
        ui.screenshot(tmp_path / "idle.png")
        px = pixels(ui)
        assert rgb_at(px, 512, 300 - 6)[0] > 200  # the amber countdown disc
        # a touch dismisses it and is used up (no move)
        taps = len([e for e in kiosk.seen if isinstance(e, TapCell)])
        x, y = geometry.cell_center(ui.layout, 3, 3)
        ui.tap(x, y)
        ui.step(0.02)
        assert not ui.idle.showing
        assert len([e for e in kiosk.seen if isinstance(e, TapCell)]) == taps
        ui.clock.t += 31
        ui.step(0.02)
        assert ui.idle.showing
        ui.clock.t += 10.5
        ui.step(0.02)
        ui.off.settle()
        assert ui.screen.name == "attract"
        assert [e for e in kiosk.seen if isinstance(e, SuspendGame)][-1].reason == "idle"
        assert [e for e in kiosk.seen if isinstance(e, GameAbandoned)]
        assert kiosk.sessions["labyrinth"].game is None
        assert not (tmp_path / "current-game.json").exists()
        assert list((tmp_path / "archive").iterdir()), "the abandoned game is archived"
    finally:
        kiosk.close()


# ---------------------------------------------------------------- start-up
def test_a_running_game_with_a_person_opens_on_the_board(make):
    kiosk = MiniKiosk()
    kiosk.sessions["labyrinth"].start(GameSetup.of("human,hard", seed=3))  # as a resume does, before the UI exists
    ui = make(kiosk=kiosk, first=None)
    assert ui.screen.name == "play"
    assert ui.screen.board.model.started
    demo = make(first=None)  # nothing running: the attract screen
    assert demo.screen.name == "attract"


def _cli(*args, cwd):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )


def test_command_line_offscreen_opens_on_the_board_with_players_and_after_a_resume(tmp_path):
    script = tmp_path / "s.txt"
    script.write_text("button E3\nbutton E3\n")
    state = tmp_path / "state"
    run = _cli(
        "--display",
        "offscreen",
        "--size",
        "800x480",
        "--players",
        "human,hard",
        "--seed",
        "3",
        "--script",
        str(script),
        "--screenshot-dir",
        str(tmp_path / "a"),
        "--state-dir",
        str(state),
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stderr
    if "no offscreen OpenGL" in run.stderr or "cannot open an OpenGL" in run.stderr:
        pytest.skip("no offscreen OpenGL context")
    assert "demo closed" not in run.stderr, "no attract demo was started first"
    assert (state / "current-game.json").exists()
    (tmp_path / "w.txt").write_text("wait 100\n")
    resumed = _cli(
        "--display",
        "offscreen",
        "--size",
        "800x480",
        "--script",
        str(tmp_path / "w.txt"),
        "--screenshot-dir",
        str(tmp_path / "b"),
        "--state-dir",
        str(state),
        cwd=tmp_path,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert "resumed" in resumed.stderr and "demo closed" not in resumed.stderr
    shots = sorted((tmp_path / "b").glob("*.png"))
    assert shots and shots[0].stat().st_size > 10_000


# ---------------------------------------------------------------- hints
def test_the_setup_hint_choice_reaches_the_board(make):
    ui = make(first="setup")
    setup = ui.screen
    setup.choices.hints = True  # classic rules, hints switched on by hand
    setup.start()
    ui.off.settle()
    assert ui.screen.name == "play"
    assert ui.k.sessions["labyrinth"].setup.hints is True
    assert ui.screen.hints_enabled
    assert ui.screen.panels[0].state.hints
    ui.goto("setup")
    ui.screen.choices.hints = False
    ui.screen.choices.open_cards = True  # children's variant, hints switched off by hand
    ui.screen.start()
    ui.off.settle()
    assert not ui.screen.hints_enabled


def test_hint_default_follows_the_variant_and_the_config(make):
    ui = make()
    start(ui, "human,human")
    assert not ui.screen.hints_enabled  # classic rules: off
    start(ui, "human,human", open_cards=True)
    assert ui.screen.hints_enabled  # children's variant: on
    start(ui, "human,human", return_home=False)
    assert ui.screen.hints_enabled
    base = Config()
    config = replace(base, game=replace(base.game, hints=False))
    kiosk = MiniKiosk()
    kiosk.config = config
    forced = make(kiosk=kiosk)
    start(forced, "human,human", open_cards=True)
    assert not forced.screen.hints_enabled  # the operator forced them off


def test_setup_round_trips_through_json_with_hints():
    from kiosk.core.events import Message

    cmd = NewGame(GameSetup.of("human,easy", seed=2, hints=True))
    assert Message.from_dict(cmd.to_dict()) == cmd
    assert Message.from_dict(NewGame(GameSetup.of("human")).to_dict()).setup.hints is None


# ---------------------------------------------------------------- refusals
def test_refusals_have_codes_and_are_translated(make):
    ui = make(language="de")
    start(ui, "human,human")
    ui.post(TapCell((9, 9)))  # tapping before pushing: the play screen explains
    ui.post(PushArrow("N1"))
    ui.off.settle()
    cell = next((r, c) for r in range(7) for c in range(7) if (r, c) not in ui.k.sessions["labyrinth"].game.reachable())
    ui.post(TapCell(cell))
    ui.off.settle()
    refusal = ui.k.of(IllegalInput)[-1]
    assert refusal.code == "unreachable"
    text = ui.screen._reason_text(refusal)
    assert text == ui.t("refusal.unreachable") and "Weg" in text
    for code in ("no_game", "push_back", "not_a_cell", "computer_turn", "refused"):
        assert ui.translator.has(f"refusal.{code}")


# ---------------------------------------------------------------- the operator's corner
def test_corner_hold_opens_the_operator_menu_from_any_screen_but_never_steals_play(make):
    ui = make(size=(800, 480), layout="tabletop", first="setup")
    corner = (3, ui.layout.height - 3)
    ui.finger_down(*corner)
    ui.clock.t += 3.1
    ui.step(0.02)
    assert ui.screen.name == "operator"
    ui.finger_up(*corner)
    ui.step(0.02)
    assert ui.screen.name == "operator" and ui.screen.page == "pin"
    ui.screen.go_back()
    assert ui.screen.name == "setup"
    # during a game: a short tap in the corner is a tap, a hold on a control is that control's
    start(ui, "human,human", open_cards=True)  # hints on: seat 0's panel has a hint button up there
    assert ui.screen.name == "play"
    zone = ui.gesture.zone()
    claimed = [
        (x, y)
        for x in range(int(zone.x) + 2, int(zone.right), 6)
        for y in range(int(zone.y) + 2, int(zone.top), 6)
        if ui.screen.claims(x, y)
    ]
    free = [
        (x, y)
        for x in range(int(zone.x) + 2, int(zone.right), 6)
        for y in range(int(zone.y) + 2, int(zone.top), 6)
        if not ui.screen.claims(x, y)
    ]
    assert free, "part of the corner is free for the gesture"
    if claimed:
        ui.finger_down(*claimed[0])
        ui.clock.t += 4
        ui.step(0.02)
        assert ui.screen.name == "play"
        ui.finger_up(*claimed[0])
        ui.off.settle()
    ui.finger_down(*free[0])
    ui.clock.t += 1
    ui.step(0.02)
    ui.finger_up(*free[0])
    ui.clock.t += 5
    ui.step(0.02)
    assert ui.screen.name == "play"  # a short touch never opens it
    ui.finger_down(*free[0])
    ui.clock.t += 3.1
    ui.step(0.02)
    assert ui.screen.name == "operator"
    ui.finger_up(*free[0])
    arrow = "E3" if ui.k.sessions["labyrinth"].game.forbidden != "E3" else "W3"
    ui.post(PushArrow(arrow))  # the game moves on behind the menu
    ui.off.settle()
    # the menu's Back says where it goes: to the game, which still runs ("Back to start" went there too)
    for d in "2580":
        ui.screen.key(d)
    ui.screen.key("ok")
    texts = [getattr(w, "text", "") for w in ui.screen.widgets]
    assert any(ui.t("operator.back_to_game") in text for text in texts)
    assert not any(ui.t("gameover.back") in text for text in texts)
    ui.screen.go_back()
    assert ui.screen.name == "play" and ui.k.sessions["labyrinth"].game is not None
    ui.off.settle()
    ui.draw()
    assert differing(pixels(ui), full_redraw(ui)) < ui.window.width * ui.window.height * 0.001, (
        "the cached picture caught up with what happened behind the menu"
    )


def test_a_partial_update_draws_few_rectangles():
    """Each rectangle costs a pass over the whole still batch: one inside another goes, two that
    (nearly) touch become one, two far apart stay two (their box would be mostly untouched)."""
    from kiosk.ui.kit.frame_cache import merge_areas

    assert merge_areas([(0, 0, 10, 100), (0, 0, 10, 30), (50, 0, 10, 10)]) == [(0, 0, 10, 100), (50, 0, 10, 10)]
    assert merge_areas([(0, 0, 10, 10), (5, 0, 10, 10)]) == [(0, 0, 15, 10)]
    # the two left panels' rectangles a turn change gave, and the right one with its own part
    panels = [(5, 401, 241, 395), (1035, 5, 241, 791), (1035, 5, 241, 285), (5, 5, 241, 394)]
    assert sorted(merge_areas(panels)) == [(5, 5, 241, 791), (1035, 5, 241, 791)]
    assert merge_areas([(0, 0, 100, 100), (500, 500, 100, 100)]) == [(0, 0, 100, 100), (500, 500, 100, 100)]
