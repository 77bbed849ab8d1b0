"""Screens that stand still draw nothing until they change (the setup, the operator menu, a result that
does not move), yet still come back to start on time; work ahead (``Screen.prepare_ahead``) is done
only in loop turns that draw no frame, and the loop keeps turning while some is left.

Time is the kiosk's virtual clock, moved by what the window loop's pacer says it may sleep: no real
waiting, no timing luck. Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.config import Config
from kiosk.core.testing import MiniKiosk
from kiosk.ui.shell.screen import SCREENS, Screen

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
    import pyglet

    from kiosk.games.labyrinth.events import GameOver

    ui, kiosk, pacer = made()
    ui.goto("gameover", event=GameOver((0,), 5, (("owl",), ()), ("human", "human")))
    screen = ui.screen
    head = [s for s in screen._shapes if isinstance(s, pyglet.text.Label) and s.y > ui.layout.height * 0.55]
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


class _Ahead(Screen):
    """A screen with `work` pieces of work ahead; it moves while `moving` says so."""

    name = "ahead_test"

    def __init__(self, ui):
        super().__init__(ui)
        self.moving = True
        self.work = 3
        self.done_in_drawn_frames = 0

    @property
    def animating(self) -> bool:
        return self.moving

    def prepare_ahead(self) -> bool:
        if self.ui._frame_due or self.moving:  # (a frame would be drawn: it must not come here)
            self.done_in_drawn_frames += 1
        self.work = max(0, self.work - 1)
        return self.work > 0


def test_work_ahead_is_done_only_in_turns_that_draw_nothing_and_keeps_the_loop_turning(made):
    SCREENS["ahead_test"] = _Ahead
    try:
        ui, kiosk, pacer = made()
        screen = ui.goto("ahead_test")
        run(pacer, 0.5)
        assert screen.work == 3  # it moves: every turn draws, none does work ahead
        screen.moving = False
        waits = []
        while screen.work > 0 and len(waits) < 60:
            waits.append(pacer.turn())
            kiosk.clock.advance(max(waits[-1], 1e-4))
        assert screen.work == 0 and not ui.work_ahead
        assert screen.done_in_drawn_frames == 0
        assert max(waits[:-1]) <= 1 / 60 + 1e-6  # while work was left, no sleep longer than a frame
        assert waits[-1] > 0.5  # the turn that did the last piece lets the loop sleep
        steps = pacer.steps
        run(pacer, 5.0)
        assert pacer.steps - steps <= 6  # none left: asleep again (the safety net wakes it once a second)
    finally:
        del SCREENS["ahead_test"]


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


def test_the_attract_screen_reads_measures_and_letters_each_invitation_in_turns_of_their_own(made, monkeypatch):
    """The attract screen's work ahead ("touch to play" in every language): reading a language's
    catalog, measuring its words and rendering their letters are each a loop turn's piece, never two
    in one (all three took ~15 ms here in one turn: a touch then waited for it)."""
    import pyglet

    from kiosk.ui.kit import i18n, menu
    from kiosk.ui.kit.i18n import LANGUAGES

    ui, kiosk, pacer = made(first="attract")
    screen = ui.screen
    kinds: list[str] = []
    real_parse, real_measure = i18n.parse_po, menu.measure
    font_class = type(pyglet.font.load(screen._invites[0].font_name, 12))
    real_glyphs = font_class.get_glyphs

    def parse(*a, **kw):
        kinds.append("read")
        return real_parse(*a, **kw)

    def measure(*a, **kw):
        kinds.append("measure")
        return real_measure(*a, **kw)

    def glyphs(font, text):
        kinds.append("letters")
        return real_glyphs(font, text)

    i18n.load_catalog.cache_clear()  # every language read again
    monkeypatch.setattr(i18n, "parse_po", parse)
    monkeypatch.setattr(menu, "measure", measure)
    monkeypatch.setattr(font_class, "get_glyphs", glyphs)
    pieces = []
    for _ in range(200):
        kinds.clear()
        more = screen.prepare_ahead()
        pieces.append(set(kinds))
        if not more:
            break
    assert not screen.prepare_ahead()
    assert all(len(kinds) <= 1 for kinds in pieces), pieces
    assert sum("read" in kinds for kinds in pieces) >= len(LANGUAGES) - 1  # (one is the screen's own)
    assert sum("letters" in kinds for kinds in pieces) >= len(LANGUAGES) - 1
    for language in LANGUAGES:
        text = screen._invite(language)
        assert text in screen._fits and text in screen._lettered, language
