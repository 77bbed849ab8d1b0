"""Texts drawn once (kiosk/ui/kit/text_cache.py): a text shows the very pixels a pyglet Label draws,
whichever way it is turned; the same text again, in another colour or place, is not drawn again; the
atlas stays within its budget by freeing the page used least recently that shows nothing.

Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import ctypes
import functools

import pytest

from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)
SIZE = (400, 300)


def _pixels() -> bytes:
    from pyglet import gl

    buf = (ctypes.c_ubyte * (SIZE[0] * SIZE[1] * 4))()
    gl.glReadPixels(0, 0, SIZE[0], SIZE[1], gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    return bytes(buf)


def _drawn(make) -> bytes:
    """The window's pixels with what `make(batch)` makes drawn over a walnut background."""
    import pyglet
    from pyglet import gl

    window = window_of(SIZE)
    window.switch_to()
    gl.glClearColor(0.26, 0.19, 0.15, 1.0)
    window.clear()
    batch = pyglet.graphics.Batch()
    made = make(batch)
    batch.draw()
    out = _pixels()
    made.delete()
    return out


CASES = [
    ("Red's turn", 16, True, 0, "center", "center", None, False),
    ("Tap an arrow twice to push", 12, False, 180, "left", "center", None, False),
    ("Halte gedrückt, um dein Ziel zu sehen", 11, True, 90, "center", "top", 120, True),
    ("\u21b6 Undo", 13, True, 270, "right", "bottom", None, False),
    ("jgÅ \u261d", 20, False, 0, "left", "baseline", None, False),
]


@pytest.mark.parametrize("text, size, bold, angle, ax, ay, width, multiline", CASES)
def test_a_text_shows_the_pixels_of_a_pyglet_label(text, size, bold, angle, ax, ay, width, multiline):
    window_of(SIZE).switch_to()
    import pyglet

    from kiosk.ui.kit.text_cache import Text
    from kiosk.ui.kit.typeface import font_for
    from kiosk.ui.kit.widgets import label_spec

    color = (250, 200, 100, 255)
    extra = dict(width=width, multiline=multiline, align="center") if width else {}
    label = _drawn(
        lambda batch: pyglet.text.Label(
            text,
            font_name=font_for(text),
            font_size=size,
            weight="bold" if bold else "normal",
            x=200,
            y=150,
            anchor_x=ax,
            anchor_y=ay,
            rotation=angle,
            color=color,
            batch=batch,
            **extra,
        )
    )
    spec = label_spec(text, size, bold, width, multiline, "center", ax, ay)
    drawn_once = _drawn(lambda batch: Text(spec, 200, 150, angle, color, batch, None))
    assert label != _drawn(lambda batch: Text(spec, 201, 150, angle, color, batch, None))  # (it shows at all)
    assert drawn_once == label


def test_the_same_text_again_elsewhere_in_another_colour_is_not_drawn_again():
    window_of(SIZE).switch_to()
    import pyglet

    from kiosk.ui.kit.text_cache import CACHE
    from kiosk.ui.kit.layout import Rect
    from kiosk.ui.kit.widgets import Frame, label

    batch = pyglet.graphics.Batch()
    first = label("Stay here", Frame(Rect(0, 0, 400, 300)), 100, 100, 14, batch)
    drawn = CACHE.drawn
    again = label("Stay here", Frame(Rect(0, 0, 400, 300), 180), 50, 80, 14, batch, color=(255, 0, 0))
    again.color = (0, 255, 0, 128)
    again.visible = False
    assert CACHE.drawn == drawn
    again.text = "Stay there"  # other words: drawn once more
    assert CACHE.drawn == drawn + 1
    for lab in (first, again):
        lab.delete()


def test_the_cache_frees_the_least_recently_used_page_that_shows_nothing():
    window_of(SIZE).switch_to()
    import pyglet

    from kiosk.ui.kit import text_cache
    from kiosk.ui.kit.text_cache import Spec, Text, TextCache

    cache = TextCache(budget=2 * text_cache.PAGE * text_cache.PAGE)
    big = [Spec(f"{k:03d} wide", "DejaVu Sans", 100.0) for k in range(40)]  # a few a page
    batch = pyglet.graphics.Batch()
    real, text_cache.CACHE = text_cache.CACHE, cache
    try:
        shown = Text(big[0], 0, 0, 0, (255, 255, 255), batch, None)  # keeps the first page
        cache.warm(big)
        assert cache.bytes <= cache.budget
        assert shown._entry.page in cache.pages and big[0] in cache.entries  # a page that shows a text stays
        assert big[-1] in cache.entries and len(cache.entries) < len(big)  # the others were freed for it
        before = cache.drawn
        assert cache.warm(big[-3:]) == 0 and cache.drawn == before  # warm: only what is not drawn yet
        shown.delete()
    finally:
        text_cache.CACHE = real


def test_a_text_first_drawn_on_a_screen_turned_in_software_is_not_turned_in_the_atlas():
    """A screen mounted the other way round is turned by the window's view (kiosk/ui/shell/window.py):
    a text first drawn then shows, once the view is turned back, as a label does unturned."""
    window = window_of(SIZE)
    window.switch_to()
    import pyglet

    from kiosk.ui.kit.text_cache import Text
    from kiosk.ui.kit.typeface import font_for
    from kiosk.ui.kit.widgets import label_spec
    from kiosk.ui.shell.window import rotation_view

    text, color = "Turned screen, upright text", (240, 240, 240, 255)
    view = window.view
    window.view = rotation_view(180, *SIZE)
    made = Text(label_spec(text, 14), 200, 150, 0, color, pyglet.graphics.Batch(), None)  # drawn now
    window.view = view
    made.delete()
    label = _drawn(
        lambda batch: pyglet.text.Label(
            text,
            font_name=font_for(text),
            font_size=14,
            x=200,
            y=150,
            anchor_x="center",
            anchor_y="center",
            color=color,
            batch=batch,
        )
    )
    assert _drawn(lambda batch: Text(label_spec(text, 14), 200, 150, 0, color, batch, None)) == label
