"""The puzzles' screens offscreen at 800x480 (tabletop): chosen on the setup screen by its tab and a
grade, played through taps on the board game's play screen, ending on the result with its stars.

Runs on an offscreen EGL context (libegl1 + Mesa); skips with the reason when none can be made.
"""

from __future__ import annotations

import datetime

import pytest

from engine.puzzles import best_turn
from kiosk.core.events import GameSetup, NewGame
from kiosk.games.puzzles import pack
from kiosk.games.puzzles.events import PuzzleOver, PuzzleStarted
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display


@pytest.fixture
def ui(tmp_path):
    u = _ui(tmp_path, (800, 480))
    yield u
    u.close()
    u.k.close()


def _ui(tmp_path, size):
    """A kiosk on the setup screen of a `size` tabletop screen, its bus messages kept in ``seen``."""
    window = offscreen_window(size)
    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.ui.shell.runner import Offscreen
    from kiosk.ui.shell.window import UI

    kiosk = Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=tmp_path))
    seen: list = []
    kiosk.bus.subscribe_all(seen.append)
    u = UI(kiosk, window, layout="tabletop", first="setup", clock=kiosk.clock.now)
    u.off = Offscreen(u, kiosk, frame_s=0.2)
    u.k, u.seen = kiosk, seen
    return u


def _tap_text(ui, text: str) -> None:
    widget = next(w for w in ui.screen.widgets if text in getattr(w, "text", ""))
    ui.tap(*widget.rect.center)


def test_a_hard_puzzle_chosen_on_the_setup_screen_is_played_by_taps_to_its_stars(ui):
    _tap_text(ui, ui.t("setup.puzzles"))
    _tap_text(ui, ui.t("puzzles.grade_hard"))
    assert ui.screen.panel.choices.mode == "hard"
    _tap_text(ui, ui.t("setup.start"))
    ui.off.settle()
    assert ui.screen.name == "puzzle_play"
    (new,) = [m for m in ui.seen if isinstance(m, NewGame)]
    assert new.setup.game == "puzzles" and pack.by_seed(new.setup.seed).grade == "hard"
    started = [m for m in ui.seen if isinstance(m, PuzzleStarted)][-1]
    assert started.grade == "hard"
    screen = ui.screen
    assert ui.t("puzzles.grade_hard") in screen.info_lines()[1]
    game = ui.k.sessions["puzzles"].game
    L = screen.layout
    while game.outcome is None:
        shift, move = best_turn(game.copy(), game.target)
        for _ in range(shift.rotation):
            ui.post(screen.commands.rotate(1))  # what the panel's turn button posts
        arrow = L.arrow_rect(shift.insertion).center
        ui.tap(*arrow)
        ui.tap(*arrow)  # the same arrow again pushes
        ui.off.settle()
        cell = L.cell_center(*move.cell)
        ui.tap(*cell)
        ui.tap(*cell)  # the second tap on the chosen cell walks there
        ui.off.settle()
    (over,) = [m for m in ui.seen if isinstance(m, PuzzleOver)]
    assert over.stars == 3 and over.grade == "hard" and not [m for m in ui.seen if type(m).__name__ == "IllegalInput"]
    for _ in range(10):  # the result follows the last walk after a pause (on the kiosk's virtual clock)
        if ui.screen.name == "puzzle_over":
            break
        ui.k.clock.advance(0.5)
        ui.off.frame()
    assert ui.screen.name == "puzzle_over" and ui.screen.event.stars == 3
    # "Next puzzle": another puzzle of the same grade
    _tap_text(ui, ui.t("puzzles.next"))
    ui.off.settle()
    nxt = [m for m in ui.seen if isinstance(m, PuzzleStarted)][-1]
    assert ui.screen.name == "puzzle_play" and nxt.grade == "hard" and nxt is not started


@pytest.mark.parametrize("size", [(800, 480), (480, 800)], ids=("landscape", "portrait"))
def test_a_puzzle_faces_the_person_who_started_it_and_the_board_game_keeps_its_seats(tmp_path, size, monkeypatch):
    """The setup faces the near edge: the puzzle's panel and its info lie on the near side, upright
    for that person, though the pawn starts at the far corner; a board game's panels stay at their seats."""
    u = _ui(tmp_path, size)
    # the puzzle of the day starts at any corner: play a day whose pawn starts at the far one (seat 0),
    # whatever the date the suite runs on
    day = datetime.date(2026, 1, 1)
    while pack.of_day(day).seat != 0:
        day += datetime.timedelta(days=1)
    from kiosk.games.puzzles.screens.setup_panel import PuzzleSetup  # after the window: pyglet is set up

    monkeypatch.setattr(PuzzleSetup, "today", staticmethod(lambda: day))  # the setup's "puzzle of the day"
    try:
        _tap_text(u, u.t("setup.puzzles"))
        _tap_text(u, u.t("setup.start"))
        u.off.settle()
        screen, L = u.screen, u.layout
        assert screen.name == "puzzle_play" and L.tabletop
        m = screen.board.model
        assert m.seats == [0] and tuple(m.positions[0]) == (0, 0)  # the pawn on its far corner
        panel, info = screen.panels[0].frame, screen.info_frame()
        assert info is not None
        middle = L.height / 2
        for frame in (panel, info):
            assert frame.angle == 0 and frame.rect.center[1] < middle  # the near half, upright for the near edge
        assert not _overlap(panel.rect, info.rect)
        assert screen.facing(0) == 0  # what the idle and seat overlays turn their texts by

        u.post(NewGame(GameSetup.of("human,human,human,human", seed=3)))
        u.off.settle()
        screen = u.screen
        assert screen.name == "play"
        m = screen.board.model
        active = m.seats[m.current]
        assert sorted(m.seats) == [0, 1, 2, 3]
        for idx, seat in enumerate(m.seats):
            frame = screen.panels[idx].frame
            assert (frame.rect, frame.angle) == (L.panel(seat, active), L.facing(seat))
            assert screen.facing(idx) == L.facing(seat)
    finally:
        u.close()
        u.k.close()


def _overlap(a, b) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_a_puzzle_started_at_the_right_corner_shows_its_goal_in_words_and_says_your_turn(tmp_path, language):
    """Tried as a new user would: a puzzle whose pawn starts at a right-hand corner showed no info
    panel (drawn, but never into the frame cache), its turn cue named a colour though one person
    plays, and the goal was nowhere in words."""
    from tests.kiosk.ui.screens.test_screens import colours_in, pixels

    seed = next(p.seed for grade in pack.pack().values() for p in grade if p.seat in (1, 2))
    window = offscreen_window((800, 480))
    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.core.events import SeatSetup
    from kiosk.ui.shell.runner import Offscreen
    from kiosk.ui.shell.window import UI

    setup = GameSetup(seats=(SeatSetup("human"),), seed=seed, game="puzzles")
    kiosk = Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=tmp_path, setup=setup, start_game=True))
    kiosk.start()
    u = UI(kiosk, window, layout="tabletop", language=language, clock=kiosk.clock.now)
    try:
        Offscreen(u, kiosk, frame_s=0.2).settle()
        screen = u.screen
        assert screen.name == "puzzle_play" and screen.board.model.seats[0] in (1, 2)
        started = screen.started
        treasure = u.t(f"treasure.{started.target}")
        key = "puzzles.goal_one" if started.optimum == 1 else "puzzles.goal"
        assert screen.info_lines()[0] == u.t(key, treasure=treasure, n=started.optimum)
        assert screen._cue_text(0) == u.t("puzzles.your_turn")
        info = screen.info_frame()
        u.draw()
        light = [c for c in colours_in(pixels(u), info.rect, step=2) if min(c) > 200]
        assert light, "the info panel's words are drawn"
        lines = [item for item in screen._line if hasattr(item, "content_height")]
        assert len(lines) == 3 and info.angle == 0
        tops = [item.y for item in lines]  # anchored at their tops, stacked downwards
        for item, below in zip(lines, lines[1:]):
            assert below.y <= item.y - item.content_height  # none over another
        assert max(tops) <= info.rect.top and lines[-1].y - lines[-1].content_height >= info.rect.y
    finally:
        u.close()
        kiosk.close()
