"""Screens that stand still draw nothing until they change (the setup, the operator menu, a result that
does not move), yet still come back to start on time.

Time is the kiosk's virtual clock, moved by what the window loop's pacer says it may sleep: no real
waiting, no timing luck. Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.config import Config
from kiosk.core.testing import MiniKiosk

from tests.kiosk.ui.shell.test_pacer import run
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


@pytest.fixture
def made():
    uis = []

    def make(first: str = "setup"):
        from kiosk.ui.shell.runner import Pacer
        from kiosk.ui.shell.window import UI

        kiosk = MiniKiosk(config=Config())
        ui = UI(kiosk, window_of((800, 480)), clock=kiosk.clock.now, first=first, layout="tabletop")
        uis.append((ui, kiosk))
        return ui, kiosk, Pacer(ui, kiosk, clock=kiosk.clock.now)

    yield make
    for ui, kiosk in uis:
        ui.close()
        kiosk.close()


def _cards_result():
    from kiosk.games.cards.events import CardGameOver

    return CardGameOver((0,), (9, 4), 40, ("human", "hard"))


@pytest.mark.parametrize(
    "name, kw",
    [("setup", {}), ("operator", {}), ("cards_gameover", {"event": _cards_result()})],
)
def test_a_still_screen_draws_nothing_until_a_touch_changes_it(made, name, kw):
    ui, kiosk, pacer = made()
    ui.goto(name, **kw)
    run(pacer, 1.0)  # the screen is shown
    assert not ui.screen.animating
    drawn, steps = pacer.drawn, pacer.steps
    run(pacer, 10.0)
    assert pacer.drawn == drawn  # ten seconds of nobody touching it: not one frame
    assert pacer.steps - steps < 60  # and the loop slept (at 60 Hz it would have turned 600 times)
    widget = next(w for w in ui.screen.widgets if getattr(w, "enabled", True))
    ui.finger_down(*widget.rect.center)
    run(pacer, 0.1)
    assert pacer.drawn > drawn  # a finger on a button: drawn (its pressed colour)


def test_the_board_games_confetti_falls_for_a_while_then_the_result_stands_still(made):
    from kiosk.games.labyrinth.events import GameOver
    from kiosk.games.labyrinth.screens.gameover import CONFETTI_S

    ui, kiosk, pacer = made()
    ui.goto("gameover", event=GameOver((0,), 5, (("owl",), ()), ("human", "human")))
    pieces = [piece for piece, *_ in ui.screen._confetti]
    assert pieces
    start = [(p.x, p.y) for p in pieces]
    run(pacer, 1.0)
    assert ui.screen.animating and pacer.drawn > 30  # it falls, drawn every frame
    assert [(p.x, p.y) for p in pieces] != start
    run(pacer, CONFETTI_S)
    assert not ui.screen.animating
    rest, drawn = [(p.x, p.y) for p in pieces], pacer.drawn
    run(pacer, 20.0)
    assert pacer.drawn == drawn  # lying still: not one frame in twenty seconds
    assert [(p.x, p.y) for p in pieces] == rest
    assert ui.screen.name == "gameover"  # (the idle time has not run out)


def test_no_confetti_piece_shows_over_the_words_of_the_result(made):
    """The confetti falls over the whole table but never in front of a word or the crown: the
    headline (both ways up) and the lines under it stay readable all the while it falls."""
    from kiosk.games.labyrinth.events import GameOver
    from kiosk.ui.kit.text_cache import Text

    ui, kiosk, pacer = made()
    ui.goto("gameover", event=GameOver((0,), 5, (("owl",), ()), ("human", "human")))
    screen = ui.screen
    head = [s for s in screen._shapes if isinstance(s, Text) and s.y > ui.layout.height * 0.55]
    assert len(head) >= 3  # the near headline, its line, the far side's copy
    boxes = [
        (t.x - t.content_width / 2, t.y - t.content_height / 2, t.x + t.content_width / 2, t.y + t.content_height / 2)
        for t in head
    ]
    pieces = [piece for piece, *_ in screen._confetti]
    hidden = shown = 0
    for _ in range(40):
        run(pacer, 0.2)
        for p in pieces:
            over = any(x0 <= p.x <= x1 and y0 <= p.y <= y1 for x0, y0, x1, y1 in boxes)
            assert not (over and p.visible)
            hidden += over
            shown += p.visible
    assert hidden and shown > len(pieces) * 20  # pieces did pass behind the words, and most still show


def test_the_still_setup_still_goes_back_to_start_on_time(made):
    ui, kiosk, pacer = made()
    run(pacer, 1.0)
    idle = ui.screen._idle_s()
    assert ui.screen.wake_in() == pytest.approx(idle - ui.screen.quiet)
    run(pacer, idle + 0.5)
    assert ui.screen.name == "attract"


def test_a_replay_left_alone_wakes_the_loop_for_its_next_position():
    from types import SimpleNamespace

    from kiosk.ui.screens.playback import ReplaySteps

    class Still:
        def wake_in(self) -> float | None:
            return None  # the screen itself has nothing coming

    class Replay(ReplaySteps, Still):
        kiosk = SimpleNamespace(playback=object())

    r = Replay()
    assert r.wake_in() is None  # no autoplay: only an input moves it on
    r.autoplay_s, r._since = 2.0, 0.5
    assert r.wake_in() == pytest.approx(1.5)
