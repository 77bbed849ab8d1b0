"""Texts of one layer drawn on one page of the text cache (kiosk/ui/kit/text_cache.py) are drawn in one
call, whatever their sizes, and though every button and tray makes its own (equal) layer. On a
software renderer each draw call costs the main thread ~25 us, and a tray's redraw in the frame
cache drew every text of both trays of its side.

Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.ui.kit.layout import Rect

from tests.support.mini_ui import play_table
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


def _text_groups(batch) -> list:
    """The text groups a batch draws (sprites of the text cache's pages), one draw call each."""
    from kiosk.ui.kit.text_cache import CACHE

    pages = {p.texture.id for p in CACHE.pages}
    return [g for g in batch.group_map if getattr(getattr(g, "texture", None), "id", None) in pages]


def test_two_texts_under_equal_layers_are_one_draw():
    window_of((800, 480)).switch_to()
    import pyglet

    from kiosk.ui.kit.widgets import Frame, label

    batch, tray = pyglet.graphics.Batch(), pyglet.graphics.Group(order=20)
    frame = Frame(Rect(0, 0, 400, 200))
    # each under a layer of its own making, as two buttons of one tray make them
    a = label("Stay", frame, 50, 50, 14, batch, pyglet.graphics.Group(order=1, parent=tray))
    b = label("Hint", frame, 150, 50, 20, batch, pyglet.graphics.Group(order=1, parent=tray))
    assert len(_text_groups(batch)) == 1
    # a text of another layer is drawn apart (over or under the others, as asked)
    c = label("Undo", frame, 250, 50, 14, batch, pyglet.graphics.Group(order=2, parent=tray))
    assert len(_text_groups(batch)) == 2
    for lab in (a, b, c):
        lab.delete()


def test_the_trays_texts_of_one_size_and_layer_are_drawn_together():
    with play_table(window_of((800, 480))) as ui:
        ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
        ui.off.settle()
        for batch in ui.screen.side_batches:
            groups = _text_groups(batch)
            assert groups, "the trays show texts"
            kinds = {(g.texture.id, g.order, g.parent) for g in groups}
            assert len(kinds) == len(groups), "two texts of one page and layer drawn apart"
