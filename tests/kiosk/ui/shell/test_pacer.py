"""The window loop's pacing (kiosk/ui/shell/runner.py Pacer): asleep while nothing moves, yet woken in time
for everything that still has to happen: a message posted from another thread, a kiosk timer, the
watchdog's ping, the idle question, a refusal running out; and an animation that starts after a
sleep starts at its beginning.

Time is the kiosk's virtual clock (the UI's clock too), moved by the test by what the pacer says
it may sleep: no real waiting, no timing luck. Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools
import threading

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, SelectArrow, TapCell
from kiosk.core.sdnotify import Watchdog
from kiosk.core.testing import MiniKiosk

from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


class WatchedKiosk(MiniKiosk):
    """The test kiosk with a systemd watchdog kicked on every tick, as kiosk.core.kiosk.Kiosk does."""

    def __init__(self, interval: float | None = None) -> None:
        super().__init__()
        self.pings: list[float] = []
        self.watchdog = Watchdog(_Notifier(interval, self), clock=self.clock.now) if interval else None

    def tick(self, budget: float | None = None) -> int:
        n = super().tick(budget)
        if self.watchdog is not None:
            self.watchdog.kick()
        return n


class _Notifier:
    enabled = True

    def __init__(self, interval: float | None, kiosk: WatchedKiosk) -> None:
        self.watchdog_interval_s = interval
        self.kiosk = kiosk

    def watchdog(self) -> bool:
        self.kiosk.pings.append(self.kiosk.clock.now())
        return True


@pytest.fixture
def made():
    uis = []

    def make(kiosk=None, longest_s=600.0):
        from kiosk.ui.shell.window import UI
        from kiosk.ui.shell.runner import Pacer

        kiosk = kiosk or WatchedKiosk()
        ui = UI(kiosk, window_of((800, 480)), clock=kiosk.clock.now, first="play", layout="tabletop")
        woken: list[int] = []
        pacer = Pacer(ui, kiosk, notify=lambda: woken.append(1), clock=kiosk.clock.now, longest_s=longest_s)
        pacer.woken = woken
        uis.append((ui, kiosk))
        return ui, kiosk, pacer

    yield make
    for ui, kiosk in uis:
        ui.close()
        kiosk.sessions["labyrinth"].close()


def run(pacer, seconds: float) -> None:
    """Turn the loop for `seconds` of virtual time, sleeping as long as it says it may."""
    clock = pacer.kiosk.clock
    end = clock.now() + seconds
    while clock.now() < end:
        wait = pacer.turn()
        clock.advance(min(max(wait, 1e-4), end - clock.now()))


def started(make, **kw):
    ui, kiosk, pacer = make(**kw)
    kiosk.bus.post(NewGame(GameSetup.of("human,human", seed=3)))
    run(pacer, 12)  # the game starts, the pulses of its first turn hold still after a few seconds
    assert ui.screen.board.model.started and not ui.screen.animating
    return ui, kiosk, pacer


def test_a_still_game_sleeps_and_draws_nothing(made):
    ui, kiosk, pacer = started(made, longest_s=1.0)
    steps, drawn = pacer.steps, pacer.drawn
    run(pacer, 20)
    assert pacer.drawn == drawn  # 20 s of a person thinking: not one frame
    assert pacer.steps - steps <= 21  # the loop woke about once a second (its safety net), not 1,200 times


def test_a_post_from_another_thread_wakes_the_loop_and_is_shown_at_the_next_frame(made):
    ui, kiosk, pacer = started(made)
    kiosk.bus.on_post = pacer.wake
    assert pacer.turn() > 60  # asleep: nothing is due until the idle question
    poster = threading.Thread(target=lambda: kiosk.bus.post(SelectArrow("N3")))
    poster.start()
    poster.join()
    assert pacer.woken  # the platform loop was told
    drawn = pacer.drawn
    run(pacer, 2 / 60)
    assert ui.screen.board.model.preview == "N3" and pacer.drawn > drawn


def test_an_animation_after_a_sleep_starts_at_its_beginning(made):
    ui, kiosk, pacer = started(made)
    kiosk.bus.post(PushArrow("N1"))  # (no wake: as if the loop noticed only after a long sleep)
    kiosk.clock.advance(5.0)
    pacer.turn()
    board = ui.screen.board
    assert board.busy  # the slide has one frame behind it, not five seconds
    run(pacer, 3)
    assert not board.busy


def test_the_loop_wakes_for_a_kiosk_timer(made):
    ui, kiosk, pacer = started(made)
    fired: list[float] = []
    kiosk.clock.call_later(7.3, lambda: fired.append(kiosk.clock.now()))
    due = kiosk.clock.now() + 7.3
    pacer.wake()  # (timers are set during a step, which then looks again; here one is set from outside)
    run(pacer, 10)
    assert fired and abs(fired[0] - due) < 1e-3


def test_the_loop_wakes_for_the_watchdog(made):
    ui, kiosk, pacer = started(made, kiosk=WatchedKiosk(interval=4.0))
    first = len(kiosk.pings)
    run(pacer, 40)
    gaps = [b - a for a, b in zip(kiosk.pings[first - 1 :], kiosk.pings[first:])]
    assert len(gaps) >= 9 and max(gaps) <= 4.0 + 1e-3


def test_the_idle_question_and_a_refusal_running_out_are_on_time(made):
    ui, kiosk, pacer = started(made)
    kiosk.bus.post(TapCell((3, 3)))  # before pushing: refused, and the panel says why for TOAST_S
    run(pacer, 0.5)
    screen = ui.screen
    assert screen.toast and screen.wake_in() is not None
    until = screen.toast_until
    drawn = pacer.drawn
    run(pacer, until - kiosk.clock.now() + 0.1)
    assert pacer.drawn > drawn  # the panel was drawn again without its message
    assert not screen._panel_state(0).toast
    timeout = ui.idle.timeout
    run(pacer, timeout)
    assert ui.idle.showing  # "are you still there?" came while the loop slept


def test_attract_plays_its_demo_at_its_own_pace_under_the_pacer(made):
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.runner import Pacer

    kiosk = WatchedKiosk()
    ui = UI(kiosk, window_of((800, 480)), clock=kiosk.clock.now, first="attract", layout="tabletop")
    try:
        ui.screen.demo_seed = 5
        ui.goto("attract")
        pacer = Pacer(ui, kiosk, clock=kiosk.clock.now)
        run(pacer, 30)
        assert ui.screen.demo.session.game.turns >= 3  # its pauses between moves do not stall it
    finally:
        ui.close()


def test_pulses_are_drawn_at_a_low_rate_then_hold_still(made):
    from kiosk.games.labyrinth.screens.board import PULSE_HZ, PULSE_S

    ui, kiosk, pacer = started(made)
    kiosk.bus.post(SelectArrow("N3"))  # news: the preview frame and the active ring pulse again
    drawn, steps = pacer.drawn, pacer.steps
    run(pacer, PULSE_S + 2)
    frames = pacer.drawn - drawn
    assert PULSE_HZ * PULSE_S / 2 < frames <= PULSE_HZ * PULSE_S + 10  # not 60 a second
    assert pacer.steps - steps <= PULSE_HZ * (PULSE_S + 2) + 10  # and the loop slept in between
    drawn = pacer.drawn
    run(pacer, 10)
    assert pacer.drawn == drawn  # then still


def test_attract_keeps_its_still_board_in_the_frame_cache_and_shows_what_a_full_redraw_shows(made):
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.runner import Offscreen

    from tests.kiosk.ui.shell.test_frames import differing, full_redraw, pixels

    kiosk = WatchedKiosk()
    ui = UI(kiosk, window_of((800, 480)), clock=kiosk.clock.now, first="attract", layout="tabletop")
    try:
        ui.screen.demo_seed = 5
        ui.goto("attract")
        off = Offscreen(ui, kiosk)
        renders = ui.cache.renders
        for _ in range(12):  # pushes and walks of the demo, checked every second
            off.run_for(1.0)
            ui.draw()
            cached = pixels(ui)
            assert differing(cached, full_redraw(ui)) < 800 * 480 * 0.001
        assert ui.cache.renders > renders  # the still board is drawn into the cache, not every frame
        assert ui.skipped > 0  # and a still moment draws nothing
    finally:
        ui.close()


@pytest.mark.parametrize("screen", ["attract", "howto"])
def test_a_screen_playing_to_passers_by_moves_at_its_own_pace_and_a_touch_is_shown_at_once(screen):
    """The attract demo and a how-to move at their Screen.motion_hz (30), not the loop's 60 Hz,
    yet the first frame after a touch comes one 60 Hz frame later, not one of theirs."""
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.runner import FRAME_S, Pacer

    kiosk = WatchedKiosk()
    ui = UI(kiosk, window_of((800, 480)), clock=kiosk.clock.now, first="attract", layout="tabletop")
    try:
        ui.screen.demo_seed = 5
        ui.goto(screen)
        pacer = Pacer(ui, kiosk, clock=kiosk.clock.now)
        hz = ui.screen.motion_hz
        assert hz < 1 / FRAME_S
        run(pacer, 1)
        drawn, start = pacer.drawn, kiosk.clock.now()
        run(pacer, 6)
        rate = (pacer.drawn - drawn) / (kiosk.clock.now() - start)
        assert hz * 0.6 < rate <= hz + 1  # it still moves, at its own pace
        drawn = pacer.drawn
        while pacer.drawn == drawn:  # up to its next frame: then the one after is 1/hz away
            kiosk.clock.advance(max(pacer.turn(), 1e-4))
        assert pacer.turn() > FRAME_S
        ui._frame_due = True  # what a touch does (UI.finger_down)
        assert pacer.turn() <= FRAME_S + 1e-9
    finally:
        ui.close()
