"""The glyphs' pixels made by slicing (kiosk/ui/shell/window.py ``_fast_glyph_pixels``) are the
bytes pyglet's own loop makes: white, with the glyph's grey levels as alpha."""

from __future__ import annotations

import ctypes
import random

import pyglet
import pytest

pyglet.options["headless"] = True
pyglet.options["shadow_window"] = False


def test_the_sliced_glyph_pixels_are_pyglets_own():
    freetype = pytest.importorskip("pyglet.font.freetype")
    from kiosk.ui.shell.window import _fast_glyph_pixels

    renderer = freetype.FreeTypeGlyphRenderer
    slow = renderer._expand_to_rgba
    _fast_glyph_pixels()
    fast = renderer._expand_to_rgba
    if getattr(slow, "fast", False):  # made fast already (a UI opened earlier in this process)
        slow = slow.__closure__[0].cell_contents if slow.__closure__ else slow
    assert getattr(fast, "fast", False)
    grey = bytes(random.Random(3).randrange(256) for _ in range(999))
    data = (ctypes.c_ubyte * len(grey))(*grey)
    assert fast(None, data, "R", "BGRA") == slow(None, data, "R", "BGRA")
    assert fast(None, data, "R", "BGRA")[:8] == bytes([255, 255, 255, grey[0], 255, 255, 255, grey[1]])
