"""The panels' texts are kept and moved, not laid out again (kiosk/ui/shell/label_pool.py): a second
round of turns makes no new text, a push's landing uses the texts laid out ahead while the
person thought, the texts shown sit in their panel and the kept ones show nothing.

Runs on an offscreen EGL context (libegl1 + Mesa); skips with the reason when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, Stay

from tests.support.offscreen import offscreen_window
from tests.support.mini_ui import play_table

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)
# a moment of thought, in frames: longer than the pushed-out tile's flight (0.45 s), as the texts
# are laid out ahead only in loop turns that draw nothing (Screen.prepare_ahead)
THINK_FRAMES = 40


@pytest.fixture
def ui():
    with play_table(window_of((800, 480))) as made:
        yield made


def _turn(ui) -> None:
    """The current person pushes at the first arrow allowed and stays; a moment of thought first."""
    game = ui.k.sessions["labyrinth"].game
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    arrow = next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)
    ui.post(PushArrow(arrow))
    ui.off.settle()
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    ui.post(Stay())
    ui.off.settle()


def _start(ui) -> None:
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    assert ui.screen.board.model.started


def test_a_second_round_moves_the_texts_of_the_first(ui):
    _start(ui)
    pool = ui.screen.labels
    for _ in range(4):
        _turn(ui)
    made, reused = pool.made, pool.reused
    for _ in range(4):
        _turn(ui)
    assert pool.made == made, "every text of the second round was laid out in the first"
    assert pool.reused > reused


def test_a_push_lands_with_the_texts_laid_out_while_the_person_thought(ui):
    _start(ui)
    pool = ui.screen.labels
    for _ in range(THINK_FRAMES):  # the first person thinks: the first move phase is laid out meanwhile
        ui.off.frame()
    game = ui.k.sessions["labyrinth"].game
    assert game.phase == "shift"
    made = pool.made
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    assert game.phase == "move"
    assert ui.screen.panels[game.current].state.phase == "move"  # the panel shows the move phase
    assert pool.made == made, "the move phase's texts were laid out ahead"


def test_shown_texts_sit_in_their_panel_and_kept_texts_show_nothing(ui):
    _start(ui)
    for _ in range(3):
        _turn(ui)
    screen = ui.screen
    shown = set()
    for panel in screen.panels.values():
        r = panel.frame.rect
        for lab in panel.texts:
            assert lab.visible, lab.text
            assert r.x <= lab.x <= r.right and r.y <= lab.y <= r.top, (lab.text, (lab.x, lab.y), r)
            shown.add(id(lab))
    kept = [lab for _key, lab in screen.labels._free.values()]
    assert kept, "texts of earlier panels are kept for reuse"
    assert not any(lab.visible for lab in kept)
    assert not shown & {id(lab) for lab in kept}


def test_a_changed_text_is_not_kept_and_the_oldest_go_beyond_the_limit(ui):
    import pyglet

    from kiosk.ui.shell.label_pool import LabelPool
    from kiosk.ui.kit.layout import Rect
    from kiosk.ui.kit.widgets import Frame

    batch = pyglet.graphics.Batch()
    frame = Frame(Rect(0, 0, 200, 100), 180)
    pool = LabelPool(keep=2)
    a = pool.take("one", frame, 10, 10, 12, batch)
    assert pool.fresh and a.rotation == 180 and (a.x, a.y) == (190, 90)
    pool.give_back(a)
    again = pool.take("one", frame, 50, 20, 12, batch)
    assert again is a and not pool.fresh and a.visible and (a.x, a.y) == (150, 80)
    other = pool.take("one", frame, 50, 20, 14, batch)  # another size: another text
    assert other is not a and pool.fresh
    a.color = (255, 0, 0, 255)
    pool.give_back(a, changed=True)  # its key no longer says what it is
    assert pool.take("one", frame, 0, 0, 12, batch) is not a
    texts = [pool.take(w, frame, 0, 0, 12, batch) for w in ("x", "y", "z")]
    for lab in texts:
        pool.give_back(lab)
    assert len(pool._free) == 2 and texts[0]._vertex_lists == []  # the oldest was deleted
    assert pool.take("z", frame, 0, 0, 12, batch) is texts[2]


def test_a_new_game_lays_out_its_own_coming_panels(ui):
    _start(ui)
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    pool = ui.screen.labels
    pool.clear()  # nothing kept from the first game: the second lays out its own
    ui.post(NewGame(GameSetup.of("human,human", seed=8)))
    ui.off.settle()
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    game = ui.k.sessions["labyrinth"].game
    assert len(game.players) == 2 and game.phase == "shift"
    made = pool.made
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    assert game.phase == "move"
    assert pool.made == made, "the new game's move phase was laid out ahead"
