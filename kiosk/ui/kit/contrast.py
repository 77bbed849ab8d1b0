"""Text contrast for the layout audit: each text's colour against what is drawn behind it.

Why: a word in a seat's colour on a grey panel (the setup's corner "Join" labels, red on grey
~2.4:1) is hard to read on a table in daylight, and such a pair is only found by measuring it.
The ratio is WCAG 2's (relative luminance of sRGB colours); the audit asks for
:data:`MIN_RATIO` (4.5:1) and :data:`MIN_RATIO_LARGE` (3:1) for text of :data:`LARGE_PX` and
more at 800x480 (scaled with the screen, like the type sizes).

"Behind it, as drawn": :class:`Backdrop` draws the screen once more with its texts hidden into a
framebuffer of the layout's size and reads it back, and a text's background is the colour most of
its box shows there (a text on a picture gets the picture's main colour).
"""

from __future__ import annotations

import ctypes
import functools
from collections import Counter
from typing import Any, Iterable

MIN_RATIO = 4.5
MIN_RATIO_LARGE = 3.0
LARGE_PX = 24  # at 800x480: text this size and larger needs only MIN_RATIO_LARGE
SAMPLES = 24  # points sampled across a text's box, per axis at most


def luminance(rgb: Iterable[float]) -> float:
    """Relative luminance of an sRGB colour (0-255 per channel), WCAG 2."""

    def lin(c: float) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(c) for c in list(rgb)[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ratio(fg: Iterable[float], bg: Iterable[float]) -> float:
    """The contrast ratio of two colours, 1 (none) to 21 (black on white)."""
    a, b = luminance(fg), luminance(bg)
    hi, lo = max(a, b), min(a, b)
    return (hi + 0.05) / (lo + 0.05)


#: The lightest colour a text in a player's colour is set on (the setup's join chips: a wooden token
#: not chosen, kiosk/ui/kit/menu.py TOGGLE_OFF); darker panels only raise its contrast.
TEXT_BG = (104, 82, 64)


@functools.lru_cache(maxsize=64)
def text_shade(rgb: tuple[int, ...], behind: tuple[int, ...] = TEXT_BG) -> tuple[int, int, int]:
    """`rgb` lightened towards white (its hue kept) until it reads at :data:`MIN_RATIO` on `behind`:
    the colour a player's name or label is written in (a seat's own red or blue is too dark)."""
    r, g, b = (int(c) for c in rgb[:3])
    for k in range(21):
        t = k / 20
        shade = (round(r + (255 - r) * t), round(g + (255 - g) * t), round(b + (255 - b) * t))
        if ratio(shade, behind) >= MIN_RATIO:
            return shade
    return (255, 255, 255)


def needed(font_px: float | None, scale: float) -> float:
    """The ratio a text of `font_px` needs on a screen `scale` times 800x480's."""
    return MIN_RATIO_LARGE if font_px is not None and font_px >= LARGE_PX * scale - 0.05 else MIN_RATIO


class Backdrop:
    """The screen drawn without `texts` at the layout's size, read back once (origin bottom-left)."""

    def __init__(self, ui: Any, texts: list[Any]):
        from pyglet import gl
        from pyglet.math import Mat4

        L = ui.layout
        self.w, self.h = int(L.width), int(L.height)
        window, screen = ui.window, ui.screen
        window.switch_to()
        fbo, rb = gl.GLuint(0), gl.GLuint(0)
        gl.glGenFramebuffers(1, fbo)
        gl.glGenRenderbuffers(1, rb)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, rb)
        gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, gl.GL_RGBA8, self.w, self.h)
        gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, rb)
        shown = [t for t in texts if getattr(t, "visible", True)]
        projection = window.projection
        self.data = (ctypes.c_ubyte * (self.w * self.h * 4))()
        try:
            for t in shown:
                t.visible = False
            window.projection = Mat4.orthogonal_projection(0, self.w, 0, self.h, -255, 255)
            gl.glViewport(0, 0, self.w, self.h)
            bg = screen.background
            gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
            gl.glClear(gl.GL_COLOR_BUFFER_BIT)
            screen.draw()
            ui.draw_overlays()
            gl.glReadPixels(0, 0, self.w, self.h, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, self.data)
        finally:
            for t in shown:
                t.visible = True
            window.projection = projection
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
            gl.glDeleteFramebuffers(1, fbo)
            gl.glDeleteRenderbuffers(1, rb)
            width, height = window.get_framebuffer_size()
            gl.glViewport(0, 0, width, height)

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        x = min(self.w - 1, max(0, int(x)))
        y = min(self.h - 1, max(0, int(y)))
        i = (y * self.w + x) * 4
        d = self.data
        return (d[i], d[i + 1], d[i + 2])

    def behind(self, rect: Any) -> tuple[int, int, int]:
        """The colour most of `rect` (x, y, w, h; screen pixels) shows behind the text."""
        x, y, w, h = rect
        nx, ny = max(1, min(SAMPLES, int(w))), max(1, min(SAMPLES, int(h)))
        seen = Counter(self.pixel(x + (i + 0.5) * w / nx, y + (j + 0.5) * h / ny) for i in range(nx) for j in range(ny))
        return seen.most_common(1)[0][0]
