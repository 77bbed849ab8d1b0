"""The menu screens offscreen: attract, setup, how-to, game over, operator, and the idle overlay.

Every screen is rendered at the five kiosk sizes in both layouts (PNGs in a tmp
dir) and checked: widgets inside the window, finger-sized, not overlapping, and
pixels where the key things must be. Taps drive them through the real UI, bus
and session: setup posts the right NewGame, the operator gesture and PIN,
the idle countdown with an injected clock, the how-to steps, play again.

Runs on an offscreen EGL context; skips with the reason when none can be made.
"""

from __future__ import annotations

import pytest

from kiosk.core import testing
from kiosk.core.config import Config
from kiosk.core.events import AbandonGame, ButtonPressed, GameSetup, NewGame, Quit, SuspendGame
from kiosk.games.labyrinth.events import GameOver

from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

SIZES = ((800, 480), (1024, 600), (1280, 800), (1920, 1080), (720, 1280))
SCREENS = ("attract", "setup", "howto", "gameover", "operator")


def MiniKiosk():
    """The shared stand-in kiosk (kiosk.core.testing) with a default config, as the screens read it."""
    return testing.MiniKiosk(config=Config())


class Now:
    """An injected clock for the UI (idle, gesture, PIN lock)."""

    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


_windows: dict = {}


def window_of(size):
    if size not in _windows:
        _windows[size] = offscreen_window(size)
    return _windows[size]


@pytest.fixture(scope="module", autouse=True)
def _close_windows():
    yield
    for w in _windows.values():
        w.close()
    _windows.clear()


def make_ui(size=(800, 480), layout="upright", first="setup", language="en"):
    from kiosk.ui.shell.window import UI

    kiosk = MiniKiosk()
    now = Now()
    ui = UI(kiosk, window_of(size), layout=layout, language=language, first=first, clock=now)
    ui.k, ui.clock = kiosk, now
    return ui


@pytest.fixture
def ui():
    made = []

    def factory(**kw):
        u = make_ui(**kw)
        made.append(u)
        return u

    yield factory
    for u in made:
        u.close()
        u.k.sessions["labyrinth"].close()


def pixels(ui):
    """The last frame as (width, height, rgb bytes), rows bottom-up like GL."""
    import pyglet

    ui.window.switch_to()
    img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    rgba = img.get_data("RGBA", img.width * 4)  # the buffer's own format: no slow conversion
    rgb = bytearray(img.width * img.height * 3)
    for k in range(3):  # drop alpha with C-speed slicing
        rgb[k::3] = rgba[k::4]
    return img.width, img.height, bytes(rgb)


def save_png(path, px):
    """Write the frame as a PNG with zlib (pyglet's pure-Python encoder is too slow for 1920x1080)."""
    import struct
    import zlib

    w, h, data = px
    stride = w * 3
    raw = b"".join(b"\x00" + data[(h - 1 - y) * stride : (h - y) * stride] for y in range(h))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw, 1))
        + chunk(b"IEND", b"")
    )
    return path


def rgb_at(px, x, y):
    w, h, data = px
    i = (int(y) * w + int(x)) * 3
    return tuple(data[i : i + 3])


def colours_in(px, rect, step=3):
    x0, y0, rw, rh = (int(v) for v in rect)
    return {
        rgb_at(px, x, y)
        for x in range(max(0, x0), min(px[0], x0 + rw), step)
        for y in range(max(0, y0), min(px[1], y0 + rh), step)
    }


def check_widgets(ui):
    """Every widget inside the window, at least a finger wide, none overlapping another."""
    L = ui.layout
    ws = [w for w in ui.screen.widgets if w.visible]
    assert ws, f"{ui.screen.name}: no widgets"
    for w in ws:
        r = w.rect
        assert r.x >= -0.5 and r.y >= -0.5 and r.right <= L.width + 0.5 and r.top <= L.height + 0.5, (
            f"{ui.screen.name}: widget {getattr(w, 'text', w)!r} {r} outside {L.width}x{L.height}"
        )
        assert r.w >= L.touch - 0.5 and r.h >= L.touch - 0.5, (
            f"{ui.screen.name}: widget {getattr(w, 'text', w)!r} {r} smaller than {L.touch}px"
        )
    for i, a in enumerate(ws):
        for b in ws[i + 1 :]:
            ra, rb = a.rect, b.rect
            overlap_w = min(ra.right, rb.right) - max(ra.x, rb.x)
            overlap_h = min(ra.top, rb.top) - max(ra.y, rb.y)
            assert overlap_w <= 1 or overlap_h <= 1, (
                f"{ui.screen.name}: {getattr(a, 'text', a)!r} overlaps {getattr(b, 'text', b)!r}"
            )


def enter(ui, name):
    if name == "gameover":
        ui.post(NewGame(GameSetup.of("human,hard,easy", seed=5)))
        ui.step(0.02)
        found = (("owl", "bat"), ("map", "ring", "crown", "keys", "gold", "sword", "book", "skull"), ())
        ui.goto("gameover", event=GameOver((1,), 27, found, ("human", "hard", "easy")))
    elif name == "operator":
        ui.goto("operator")
    else:
        ui.goto(name)
    for _ in range(3):
        ui.step(0.05)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_renders_at_every_size_and_layout(ui, size, tmp_path):
    for layout in ("tabletop", "upright"):
        u = ui(size=size, layout=layout, first="setup")
        for name in SCREENS:
            enter(u, name)
            px = pixels(u)
            path = save_png(tmp_path / f"{name}_{size[0]}x{size[1]}_{layout}.png", px)
            assert path.stat().st_size > 2000
            assert (px[0], px[1]) == size
            check_widgets(u)
            # something is drawn beyond the background everywhere
            assert len(colours_in(px, (0, 0, size[0], size[1]), step=17)) > 6, f"{name} looks empty"
            if name == "setup":
                start = u.screen.start_button.rect
                r, g, b = rgb_at(px, start.cx - start.w * 0.42, start.cy)
                assert g > r + 40 and g > b + 30, f"the Start button is not green at {size} {layout}"
            if name == "operator":
                ok = _button(u, "OK").rect
                r, g, b = rgb_at(px, ok.x + ok.w * 0.1, ok.cy)
                assert g > r + 40, "the keypad's OK key is not green"
            if name == "attract":
                ring = u.layout.ring
                cols = colours_in(px, ring, step=max(3, int(ring.w // 120)))
                assert any(c[0] > 220 and c[1] > 210 and c[2] > 180 for c in cols), (
                    "no demo board (corridors) behind the invitation"
                )
            if name == "howto":
                st = u.screen.stage_rect
                sx, sy = st.x * u.layout.scale, st.y * u.layout.scale
                cols = colours_in(
                    px,
                    (sx, sy, st.w * u.layout.scale, st.h * u.layout.scale),
                    step=max(3, int(st.w * u.layout.scale // 150)),
                )
                assert any(c[0] > 220 and c[1] > 210 and c[2] > 180 for c in cols), "no corridors on the stage"


def _button(ui, text_part):
    for w in ui.screen.widgets:
        if text_part in getattr(w, "text", ""):
            return w
    raise AssertionError(
        f"no button with {text_part!r} on {ui.screen.name}: {[getattr(w, 'text', '') for w in ui.screen.widgets]}"
    )


def tap_widget(ui, w):
    ui.tap(*w.rect.center)
    ui.step(0.02)


def test_setup_start_posts_the_chosen_game(ui):
    u = ui(size=(800, 480), first="setup")
    scr = u.screen
    tap_widget(u, _button(u, "3"))  # three players
    assert scr.choices.players == 3
    assert scr.choices.kinds[:3] == ["human", "medium", "medium"]
    assert list(scr.panel.kind_buttons[0]) == ["human", "computer", "fair"]  # each choice its own button
    tap_widget(u, scr.panel.kind_buttons[0]["computer"])  # first seat: the computer ...
    assert scr.choices.kinds[0] == "medium"
    hard = [w for w in u.screen.widgets if getattr(w, "text", "") == "\u2605\u2605\u2605"]
    tap_widget(u, hard[0])  # ... hard
    tap_widget(u, scr.panel.kind_buttons[1]["fair"])  # second seat: family ...
    assert scr.choices.kinds[1] == "fair"
    tap_widget(u, scr.panel.kind_buttons[1]["human"])  # ... -> a person
    assert scr.choices.kinds[1] == "human"
    open_cards = [w for w in u.screen.widgets if getattr(w, "on", None) is not None][0]
    tap_widget(u, open_cards)
    tap_widget(u, u.screen.start_button)
    news = u.k.of(NewGame)
    assert len(news) == 1
    setup = news[0].setup
    assert setup.kinds == ("hard", "human", "medium")
    assert [s.seat for s in setup.seats] == [3, 1, 2]  # nobody joined: people at the near edge first
    assert (
        setup.variant("open_cards") and setup.variant("return_home") and setup.variant("treasures") == 3
    )  # the public preset's quick game
    assert u.screen.name == "play"
    assert u.k.sessions["labyrinth"].game is not None and len(u.k.sessions["labyrinth"].game.players) == 3


def test_setup_language_picker_switches_every_text(ui):
    u = ui(size=(1280, 800), first="setup")
    tap_widget(u, _button(u, "English"))
    assert u.screen.picking_language
    tap_widget(u, _button(u, "Eesti"))
    assert u.translator.language == "et"
    assert not u.screen.picking_language
    assert u.screen.start_button.text.startswith("Alusta")
    assert "Mängijad" in [getattr(x, "text", "") for x in u.screen._shapes]
    # back on the attract screen the kiosk's own language returns for the next visitor
    u.goto("attract")
    assert u.translator.language == "en"


def test_operator_gesture_wrong_pin_refused_right_pin_opens(ui):
    u = ui(size=(800, 480), first="attract")
    L = u.layout
    corner = (5, L.height - 5)
    u.finger_down(*corner)
    u.clock.t += 1.0
    u.step(0.02)
    assert u.screen.name == "attract"  # not yet
    u.clock.t += 2.1
    u.step(0.02)
    assert u.screen.name == "operator"
    u.finger_up(*corner)  # the lift of the holding finger taps nothing here
    assert u.screen.page == "pin" and u.screen.entered == ""
    scr = u.screen

    def type_pin(pin):
        for d in pin:
            tap_widget(u, [w for w in scr.widgets if w.text == d][0])
        tap_widget(u, _button(u, "OK"))

    type_pin("1234")
    assert scr.page == "pin" and scr.message == "Wrong PIN"
    type_pin("2580")
    assert scr.page == "hardware"
    assert u.k.button_test == [True]
    u.post(ButtonPressed("N3"))
    u.step(0.02)
    assert "N3" in scr.pressed
    tap_widget(u, _button(u, "Test the ring"))
    assert u.k.ring and len(u.k.ring[0]) == 3
    tap_widget(u, _button(u, "Statistics"))
    assert scr.page == "stats" and u.k.button_test[-1] is False
    tap_widget(u, _button(u, "Quit"))
    assert not u.k.of(Quit)  # one tap only arms it
    tap_widget(u, _button(u, "Tap again"))
    assert u.k.of(Quit)[0].reason == "operator"


def test_operator_locks_after_three_wrong_pins(ui):
    u = ui(size=(800, 480), first="operator")
    scr = u.screen
    scr._armed = True
    for _ in range(3):
        for d in "9999":
            scr.key(d)
        scr.key("ok")
    assert scr.locked
    for d in "2580":
        scr.key(d)
    scr.key("ok")
    assert scr.page == "pin"  # locked: even the right PIN is ignored
    u.clock.t += 31
    u.step(0.02)
    for d in "2580":
        scr.key(d)
    scr.key("ok")
    assert scr.page == "hardware"


def test_idle_countdown_returns_to_attract(ui, tmp_path):
    from kiosk.ui.overlays.idle import IdleWatch

    u = ui(size=(1024, 600), layout="tabletop", first="setup")
    u.post(NewGame(GameSetup.of("human,medium", seed=2)))
    u.goto("play")
    u.step(0.02)
    watch = IdleWatch(u, timeout=30, countdown=10)
    watch.update()
    u.clock.t += 29
    watch.update()
    assert not watch.showing
    u.clock.t += 1.5
    watch.update()
    assert watch.showing
    u.draw()
    watch.draw()
    px = pixels(u)
    save_png(tmp_path / "idle_1024x600_tabletop.png", px)
    assert rgb_at(px, 512, 300 - 6)[0] > 200  # the amber countdown disc in the middle
    assert watch.finger_down(100, 100)  # a tap hides it and counts as input
    watch.update()
    assert not watch.showing
    u.clock.t += 31
    watch.update()
    assert watch.showing
    u.clock.t += 5
    watch.update()
    assert watch.showing and watch._number.text == "5"
    u.clock.t += 5.1
    watch.update()
    assert u.screen.name == "attract"
    u.step(0.02)
    assert u.k.of(SuspendGame)[-1].reason == "idle"  # set aside: the attract screen offers to continue it
    assert u.k.sessions["labyrinth"].game is None and u.k.sessions["labyrinth"].set_aside is not None


def test_idle_ignores_computer_turns(ui):
    from kiosk.ui.overlays.idle import IdleWatch

    u = ui(size=(800, 480), first="setup")
    u.post(NewGame(GameSetup.of("medium,medium", seed=2)))
    u.goto("play")
    u.step(0.02)
    watch = IdleWatch(u, timeout=5, countdown=5)
    u.clock.t += 100
    watch.update()
    assert not watch.showing


def test_attract_cycles_languages_and_tap_opens_setup(ui):
    u = ui(size=(800, 480), first="attract")
    scr = u.screen
    texts = [scr._invites[0].text]
    for _ in range(3):
        u.step(3.05)
        texts.append(scr._invites[0].text)
    assert texts == ["Touch to play", "Zum Spielen antippen", "Touche pour jouer", "Tocca per giocare"]
    u.tap(u.layout.width / 2, u.layout.height / 2)
    assert u.screen.name == "setup"


def test_attract_demo_is_a_real_game_between_computers(ui):
    import time
    from kiosk.games.labyrinth.events import BoardShifted

    u = ui(size=(800, 480), first="attract")
    scr = u.screen
    scr.demo.close()
    scr._start_demo()
    shifts = []
    scr.demo.bus.subscribe(BoardShifted, shifts.append)
    deadline = time.monotonic() + 15
    while len(shifts) < 2 and time.monotonic() < deadline:
        u.step(0.25)
        time.sleep(0.005)
    assert len(shifts) >= 2, "the demo game did not move"
    assert scr.demo.session.kinds == ("medium", "easy", "medium", "easy")
    assert u.k.sessions["labyrinth"].game is None  # the kiosk's own session stays free
    u.goto("setup")
    assert scr.demo is None  # hidden: demo stopped


def test_howto_advances_by_itself_and_by_taps(ui):
    from kiosk.games.labyrinth.screens.howto import STEPS
    from kiosk.ui.screens.guide import STEP_S

    u = ui(size=(720, 1280), first="setup")
    tap_widget(u, _button(u, "How to play"))
    scr = u.screen
    assert scr.name == "howto" and scr.step == 0
    u.step(STEP_S + 0.05)
    assert scr.step == 1
    u.tap(u.layout.width / 2, u.layout.height / 2)  # a tap on the stage: next
    assert scr.step == 2
    for _ in range(len(STEPS) - 3):
        tap_widget(u, _button(u, "Next"))
    assert scr.step == len(STEPS) - 1
    tap_widget(u, _button(u, "Let's play"))
    # opened from the setup, "Let's play!" starts the game with the seats set there
    assert u.screen.name == "play"
    (news,) = u.k.of(NewGame)
    assert news.setup.kinds == u.screen_named("setup").choices.game_setup().kinds
    assert u.k.sessions["labyrinth"].game is not None


def test_gameover_play_again_keeps_seats_and_rules(ui):
    u = ui(size=(1280, 800), first="setup")
    enter(u, "gameover")
    u.post(AbandonGame("test: the shown game is over"))  # as after a real GameOver: nothing left running
    u.step(0.02)
    assert "Yellow wins!" in [getattr(s, "text", "") for s in u.screen._shapes]
    tap_widget(u, _button(u, "Play again"))
    news = u.k.of(NewGame)
    assert len(news) == 2
    assert news[1].setup.kinds == ("human", "hard", "easy") and news[1].setup.seed is None
    assert u.screen.name == "play"
    enter(u, "gameover")
    tap_widget(u, _button(u, "Back to start"))
    assert u.screen.name == "attract"


def test_computer_thinking_notice_clears_when_the_computer_has_played(ui):
    """A visitor who presses during the computer's turn is told it is thinking; once the next
    turn begins that notice is no longer true, so it goes at once instead of lingering."""
    from kiosk.core.events import IllegalInput
    from kiosk.games.labyrinth.events import TurnChanged

    u = ui(size=(800, 480), first="setup")
    u.post(NewGame(GameSetup.of("hard,human", seed=2)))
    u.goto("play")
    u.step(0.02)
    play = u.screen
    computer = play.board.model.current
    assert play.board.model.kinds[computer] != "human"
    play.on_event(IllegalInput("please wait", "select_arrow", computer, "N3"))
    thinking = play.t("play.computer_thinking")
    assert play.toast == thinking
    person = 1 - computer
    play.on_event(TurnChanged(person, "shift", 1, None, "human"))
    assert play.toast == ""
    play.on_event(IllegalInput("no", "select_arrow", person, "N3"))  # a person's refusal stays
    assert play.toast and play.toast != thinking
    play.on_event(TurnChanged(computer, "shift", 2, None, "hard"))
    assert play.toast
