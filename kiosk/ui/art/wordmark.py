"""The product's wordmark: our own name (kiosk/product.py) on a burgundy plaque, crowned by three maze tiles.

Drawn from the atlas (three tiles in a row, a path running through them, a
pawn on the middle one) and two bold text lines with a dark drop shadow, so
it costs a handful of sprites and labels on the attract screen. It faces the
reader of its ``Frame`` (turned 180 degrees for the far side of a table).
A theme (kiosk/themes) may bring its own mark for the emblem and a colour for the name.
"""

from __future__ import annotations

from typing import Any

import pyglet

from kiosk.product import PRODUCT_NAME
from kiosk.ui.kit.menu import fit_box
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.widgets import Frame, box, label
from kiosk.ui.art.theme_art import theme_art

WORD_COLOR = (255, 226, 150)
SHADOW = (10, 12, 18)
PLAQUE = (99, 32, 25)  # the name's sign: burgundy (docs/art.md; a colour a 16-bit framebuffer keeps)
PLAQUE_RIM = (214, 170, 80)  # its brass rim


def draw_wordmark(ui, frame: Frame, batch, group, keep: list) -> None:
    """Fill `frame` (its local box) with the emblem on top and the name below; a theme's wordmark
    picture (kiosk/themes) takes the emblem's place, its colour the name's."""
    atlas = ui.atlas
    w, h = frame.w, frame.h
    tile = min(w / 3.3, h * 0.34)
    scale = tile / atlas.px
    emblem_v = h - tile * 0.6
    art = theme_art(getattr(ui, "theme", None))
    mark = art.wordmark() if art is not None else None
    word_color = art.theme.colour("wordmark", WORD_COLOR) if art is not None else WORD_COLOR
    # the plaque: a burgundy sign with a gold rim under the emblem, which sits on its top edge
    plaque = pyglet.graphics.Group(order=-1, parent=group)
    sign = Rect(w * 0.02, 0, w * 0.96, emblem_v)
    rim = max(2.0, tile * 0.05)
    keep.append(box(frame, sign.grow(rim), PLAQUE_RIM, batch, plaque, radius=tile * 0.2))
    keep.append(box(frame, sign, PLAQUE, batch, plaque, radius=tile * 0.18))
    if mark is not None:
        x, y = frame.point(w / 2, emblem_v)
        s = pyglet.sprite.Sprite(mark, x, y, batch=batch, group=group)
        s.scale = min(w * 0.9 / mark.width, tile * 1.15 / mark.height)
        s.rotation = 180 if frame.angle == 180 else 0
        keep.append(s)
    else:
        for k, (openings, fixed) in enumerate((("ES", True), ("EW", False), ("WS", True))):
            x, y = frame.point(w / 2 + (k - 1) * tile, emblem_v)
            s = pyglet.sprite.Sprite(atlas.tile(openings, fixed=fixed), x, y, batch=batch, group=group)
            s.scale = scale
            s.rotation = 180 if frame.angle == 180 else 0
            keep.append(s)
        x, y = frame.point(w / 2, emblem_v)
        pawn = pyglet.sprite.Sprite(
            atlas.pawn(0), x, y, batch=batch, group=pyglet.graphics.Group(order=1, parent=group)
        )
        pawn.scale = tile * 0.5 / atlas.px
        pawn.rotation = 180 if frame.angle == 180 else 0
        keep.append(pawn)
    # two lines in a column; one line in a wide, low box (portrait: between the band and the buttons)
    words = PRODUCT_NAME.upper().split() if w < 2.2 * h else [PRODUCT_NAME.upper()]
    text_top = emblem_v - tile * 0.65
    line_h = min(text_top / len(words), w * 0.3)
    front = pyglet.graphics.Group(order=2, parent=group)
    for i, word in enumerate(words):
        size = fit_box(word, line_h * 0.62, w * 0.9, line_h * 0.86)  # the shadow stays inside too
        v = text_top - line_h * (i + 0.5)
        off = max(1, round(size * 0.1))
        keep.append(label(word, frame, w / 2 + off, v - off, size, batch, group, color=SHADOW, bold=True))
        keep.append(label(word, frame, w / 2, v, size, batch, front, color=word_color, bold=True))


def draw_name_line(ui: Any, frame: Frame, batch: Any, group: Any, keep: list[Any]) -> None:
    """The name alone on one line, as big as `frame` allows, with its shadow (the attract screen's
    banners, which are the plaque's burgundy already): a theme's colour for the name."""
    art = theme_art(getattr(ui, "theme", None))
    word_color = art.theme.colour("wordmark", WORD_COLOR) if art is not None else WORD_COLOR
    w, h = frame.w, frame.h
    word = PRODUCT_NAME.upper()
    size = fit_box(word, h * 0.72, w, h * 0.95)
    off = max(1, round(size * 0.08))
    front = pyglet.graphics.Group(order=2, parent=group)
    keep.append(label(word, frame, w / 2 + off, h / 2 - off, size, batch, group, color=SHADOW, bold=True))
    keep.append(label(word, frame, w / 2, h / 2, size, batch, front, color=word_color, bold=True))
