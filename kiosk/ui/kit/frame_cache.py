"""The picture of what stands still, kept in an offscreen framebuffer and copied in one blit.

A software renderer (Mesa llvmpipe here) and a Pi's GPU both pay per pixel:
one full-screen layer costs ~3.4 ms at 1280x800 on llvmpipe, and a play
screen is many layers (board, 49 tiles, treasures, panels). Most of it changes
only when something happens (a push, a move, a panel update), so the UI draws
those layers once into a colour renderbuffer and, every frame, copies it to the
window with ``glBlitFramebuffer`` (a straight copy: no shader, no blending)
before drawing the few things that move. The cache has the window's colour
depth and holds the picture upside down (see ``render``): for llvmpipe that
copy is then a plain memory copy, ~0.2 ms of CPU at 1280x800 instead of ~9 ms.

The cache is a single buffer that is never swapped, so it can be updated in
part: a change to one player's panel redraws only that panel's rectangle
(``glScissor``), a push only the board's; the rasteriser skips what lies
outside, so such an update costs a fraction of a full redraw.

Only OpenGL ES 3.0 / OpenGL 3.0 calls: ``glRenderbufferStorage(GL_RGBA8 or GL_RGB565)``,
``glFramebufferRenderbuffer``, ``glBlitFramebuffer``, ``glGetFramebufferAttachmentParameteriv``
(the Pi 4/5 give GLES 3.1; tests/kiosk/ui/shell/test_gles.py refuses every other entry point). The window must not be
multisampled: OpenGL ES refuses a blit into a multisampled framebuffer (the
app asks for no multisampling).
Alpha is never written into the cache (it stays 1 from the clear), so the
copied picture is opaque whatever was blended into it, as a screenshot expects.
"""

from __future__ import annotations

from typing import Any

import logging
from typing import Callable, Sequence

from pyglet import gl
from pyglet.math import Mat4, Vec3

log = logging.getLogger(__name__)


class FrameCache:
    """One colour renderbuffer the size of the window's framebuffer."""

    def __init__(self) -> None:
        self.size: tuple[int, int] = (0, 0)
        self.valid = False  # holds a picture that matches the screen
        self.renders = 0  # how often the static layers were drawn (tests, bench)
        self.partial = 0  # of those, how many only in part (a dirty rectangle)
        self.broken: str | None = None  # why the cache cannot be used (then the UI draws directly)
        self._fbo = gl.GLuint(0)
        self._rb = gl.GLuint(0)
        self.format = gl.GL_RGBA8  # the window's colour depth (see _window_format)
        self.flipped = False  # the picture is kept upside down (see render)

    def _make(self, width: int, height: int) -> bool:
        self.delete()
        status: int | str  # GL's answer, or why there is none
        try:
            fmt = self.format = _window_format()
            gl.glGenFramebuffers(1, self._fbo)
            gl.glGenRenderbuffers(1, self._rb)
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, self._rb)
            gl.glRenderbufferStorage(gl.GL_RENDERBUFFER, fmt, width, height)
            gl.glBindRenderbuffer(gl.GL_RENDERBUFFER, 0)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._fbo)
            gl.glFramebufferRenderbuffer(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_RENDERBUFFER, self._rb)
            status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        except gl.GLException as exc:  # a driver without framebuffer objects
            status = str(exc)
        if status != gl.GL_FRAMEBUFFER_COMPLETE:
            self.broken = f"framebuffer incomplete ({status})"
            log.warning("no frame cache (%s): every frame is drawn in full", self.broken)
            self.delete()
            return False
        self.size = (width, height)
        self.valid = False
        return True

    def render(
        self,
        size: tuple[int, int],
        clear_rgb: tuple[int, int, int],
        draw: Callable[[], None],
        areas: list[tuple[int, int, int, int]] | None = None,
        window: Any = None,
        draw_in: Callable[[tuple[int, int, int, int]], None] | None = None,
    ) -> bool:
        """Draw the static layers (`draw`) into the cache: all of it, or only inside `areas`
        (x, y, w, h in framebuffer pixels; only when the cache is valid). False if there is no
        usable cache.

        With `window` (whose projection the drawing uses) the picture is drawn upside down and
        :meth:`blit` turns it back: Mesa keeps a window's pixels bottom row first, a framebuffer
        object's top row first, so this copy is a plain memory copy for llvmpipe (~0.4 ms at
        1280x800 instead of ~5 ms through its blit shader); any other driver just flips it.

        `draw_in(area)`, if given, draws what lies in one area (the layers that touch it) instead
        of all of `draw`: the still layers' draw calls cost the CPU whatever the area's size."""
        if self.broken:
            return False
        if size != self.size and not self._make(*size):
            return False
        if not self.valid or (window is not None) != self.flipped:
            areas = None
        if areas:
            areas = merge_areas(areas)
        old_projection = None
        if window is not None:
            old_projection = window.projection
            window.projection = Mat4.from_scale(Vec3(1.0, -1.0, 1.0)) @ old_projection
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, self._fbo)
        try:
            gl.glViewport(0, 0, *size)
            gl.glClearColor(clear_rgb[0] / 255, clear_rgb[1] / 255, clear_rgb[2] / 255, 1.0)
            for area in areas or (None,):
                if area is not None:
                    x, y, w, h = area
                    gl.glEnable(gl.GL_SCISSOR_TEST)
                    gl.glScissor(x, size[1] - y - h if window is not None else y, w, h)
                gl.glClear(gl.GL_COLOR_BUFFER_BIT)
                gl.glColorMask(True, True, True, False)  # keep alpha at 1 (see module docstring)
                try:
                    if area is not None and draw_in is not None:
                        draw_in(area)
                    else:
                        draw()
                finally:
                    gl.glColorMask(True, True, True, True)
                    gl.glDisable(gl.GL_SCISSOR_TEST)
        finally:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
            if old_projection is not None:
                window.projection = old_projection
        self.flipped = window is not None
        self.valid = True
        self.renders += 1
        if areas:
            self.partial += 1
        return True

    def blit(self) -> None:
        """Copy the cached picture to the window's (back) buffer, pixel for pixel."""
        w, h = self.size
        gl.glBindFramebuffer(gl.GL_READ_FRAMEBUFFER, self._fbo)
        gl.glBindFramebuffer(gl.GL_DRAW_FRAMEBUFFER, 0)
        top, bottom = (0, h) if self.flipped else (h, 0)  # the source's rows, top to bottom
        gl.glBlitFramebuffer(0, bottom, w, top, 0, 0, w, h, gl.GL_COLOR_BUFFER_BIT, gl.GL_NEAREST)
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)

    def delete(self) -> None:
        if self._fbo.value:
            gl.glDeleteFramebuffers(1, self._fbo)
            self._fbo = gl.GLuint(0)
        if self._rb.value:
            gl.glDeleteRenderbuffers(1, self._rb)
            self._rb = gl.GLuint(0)
        self.size = (0, 0)
        self.valid = False


#: two changed rectangles are drawn as their bounding box when it is at most this many times their
#: summed area: one pass instead of two (each is a pass over the still layers), but not many more
#: pixels (a software renderer's main thread pays for each, ~1.5 ms for the whole board here)
MERGE_SLACK = 1.3


def joined(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float, float] | None:
    """The bounding box of rectangles `a` and `b` (x, y, w, h) if it is better drawn as one area than
    as the two (one inside the other, or within MERGE_SLACK of their summed area), else None."""
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    x0, y0 = min(ax, bx), min(ay, by)
    x1, y1 = max(ax + aw, bx + bw), max(ay + ah, by + bh)
    box = (x1 - x0) * (y1 - y0)
    if box == aw * ah or box == bw * bh or box <= MERGE_SLACK * (aw * ah + bw * bh):
        return (x0, y0, x1 - x0, y1 - y0)
    return None


def merge_areas(areas: list[tuple[int, int, int, int]]) -> list[tuple[int, int, int, int]]:
    """Fewer rectangles for the same update: each one costs a pass over the whole still batch,
    so a rectangle inside another goes, and two become their bounding box when it is at most
    MERGE_SLACK times their summed area (they overlap or nearly touch; drawing a little more is
    always right). E.g. [(0, 0, 10, 100), (0, 0, 10, 30), (50, 0, 10, 10)] -> the first and
    the last; [(0, 0, 10, 10), (5, 0, 10, 10)] -> [(0, 0, 15, 10)]."""
    out: list[Sequence[float]] = [tuple(a) for a in areas]
    merged = True
    while merged:
        merged = False
        for i in range(len(out)):
            for j in range(i + 1, len(out)):
                box = joined(out[i], out[j])
                if box is not None:
                    out[i] = box
                    del out[j]
                    merged = True
                    break
            if merged:
                break
    return out  # type: ignore[return-value]


def _window_format() -> int:
    """The cache's pixel format: the window's own colour depth.

    A window of 16-bit colour (RGB 5-6-5: what EGL gives the offscreen window when no depth is
    asked for) gets a 5-6-5 cache: the copy to the window then converts nothing, which saves
    llvmpipe about a fifth of the copy, and the picture is the same (it ends up in 5-6-5 in any
    case). Any other window (the Pi's 8-bit-per-channel screen): RGBA8, as before.
    """
    ctx = gl.current_context
    api = getattr(getattr(ctx, "config", None), "opengl_api", "gl")
    attachment = gl.GL_BACK if api == "gles" else gl.GL_BACK_LEFT
    bits = []
    try:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
        for name in (
            gl.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE,
            gl.GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE,
            gl.GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE,
        ):
            value = gl.GLint(0)
            gl.glGetFramebufferAttachmentParameteriv(gl.GL_FRAMEBUFFER, attachment, name, value)
            bits.append(value.value)
    except gl.GLException:  # a driver that will not say: the usual format
        return gl.GL_RGBA8
    return gl.GL_RGB565 if bits == [5, 6, 5] else gl.GL_RGBA8
