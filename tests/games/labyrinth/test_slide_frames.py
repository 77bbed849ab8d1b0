"""A push's frames do no avoidable building (kiosk/games/labyrinth/screens/board.py): the sliding row
is drawn by sprites kept in the live batch for it (the row's still sprites are hidden, not moved
between batches), and the forbidden arrow's cross and the pushed row's marks are made once and
moved from push to push. Each of those cost the push's first or last frame a few tenths of a ms.

Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, Stay

from tests.support.mini_ui import play_table
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


@pytest.fixture
def ui():
    with play_table(window_of((800, 480))) as made:
        made.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
        made.off.settle()
        yield made


def _push(ui, unlike: str | None = None) -> str:
    """Push at the first arrow allowed (and not `unlike`)."""
    game = ui.k.sessions["labyrinth"].game
    arrow = next(a for a in ("N1", "E3", "S5", "W1", "N5") if a not in (game.forbidden, unlike))
    ui.post(PushArrow(arrow))
    return arrow


def test_a_push_moves_no_sprite_between_batches(ui, monkeypatch):
    import pyglet

    board = ui.screen.board
    migrated: list[object] = []
    real = pyglet.graphics.Batch.migrate

    def migrate(batch, *args, **kw):
        migrated.append(args[0])
        return real(batch, *args, **kw)

    monkeypatch.setattr(pyglet.graphics.Batch, "migrate", migrate)
    _push(ui)
    ui.off.frame()  # the row starts to slide
    riding = [tile for tile, _ in board._riders if tile.visible]
    assert len(riding) == 7, "the row slides on the riders"
    hidden = [i for i, spr in enumerate(board._tile_sprites) if not spr.visible]
    assert len(hidden) == 7, "and its still sprites are hidden"
    ui.off.settle()
    assert migrated == []
    assert all(spr.visible for spr in board._tile_sprites)  # landed: the still sprites show again
    assert not any(tile.visible or icon.visible for tile, icon in board._riders)


def test_the_landed_rows_show_the_tiles_and_treasures_of_the_board(ui):
    board = ui.screen.board
    atlas = board.ui.atlas
    last = None
    for _ in range(3):
        last = _push(ui, unlike=last)
        ui.off.settle()
        ui.post(Stay())
        ui.off.settle()
    for i, spr in enumerate(board._tile_sprites):
        tile = board.model.tiles[i]
        assert spr.visible and spr.image in (atlas.tile(tile.openings), atlas.tile(tile.openings, fixed=True))
        treasure = board._treasure_sprites[i]
        assert (treasure is not None) == bool(tile.treasure)
        if treasure is not None:
            assert treasure.visible and treasure.image is atlas.treasure(tile.treasure)


def test_the_cross_and_the_push_marks_are_made_once_and_moved(ui):
    board = ui.screen.board
    first_arrow = _push(ui)
    ui.off.settle()
    crosses, marks = list(board._crosses), list(board._push_marks)
    first = board._crossed
    assert len(crosses) == 2 and len(marks) == 3 and all(obj.visible for obj in crosses + marks)
    ui.post(Stay())
    ui.off.settle()
    _push(ui, unlike=first_arrow)
    ui.off.settle()
    assert board._crossed != first  # the cross is at another arrow now
    assert board._crosses == crosses and all(a is b for a, b in zip(board._crosses, crosses))
    assert all(a is b for a, b in zip(board._push_marks, marks))
    L = board.layout
    cx, cy = L.arrow_rect(board._crossed).center
    for line in board._crosses:  # each line crosses the arrow's centre
        assert abs((line.x + line.x2) / 2 - cx) < 1 and abs((line.y + line.y2) / 2 - cy) < 1
