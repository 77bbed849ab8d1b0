"""Texts drawn once (the model: Kivy's Label, a text rendered once into a texture).

pyglet lays a text out glyph by glyph in Python (~1 ms here, ~5 ms on a Pi 4 a line) each time a Label
is made or changed. Here each distinct text (a :class:`Spec`: words, face, size, weight, wrap width,
alignment, anchors, line spacing) is laid out once and drawn in white into a page of an 8-bit atlas;
every use is then a sprite of that region: placing, turning (0/90/180/270), tinting (the colour is the
sprite's) and showing or hiding it cost only the sprite.

The same pixels as a Label: it is drawn into the page at the same fraction of a pixel from its anchor
as on screen, its coverage kept exactly (white on clear black: the red channel is the glyphs' alpha,
blended as pyglet blends glyphs), and read back through a swizzle (rgb 1, alpha = red), so the sprite
shader's ``texture * tint`` is the text shader's ``glyph * colour``, blended alike, sampled at texel
centres. Only overlapping glyphs can differ, by a rounding step (composed in the page, then blended).

Memory is bounded: pages of ``PAGE`` px square, a byte a pixel, at most ``budget`` bytes; then the page
used least recently that shows no text is freed. :meth:`TextCache.warm` draws a screen's vocabulary
while the screen changes, not in its first frames.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Any, Iterable

import pyglet
from pyglet.math import Mat4

PAGE = 1024  # px square; one byte a pixel (1 MiB)
BUDGET = 8 * PAGE * PAGE  # bytes of atlas pages kept before the least recently used free page goes
GAP = 1  # px between regions on a page


@dataclass(frozen=True)
class Spec:
    """What makes a text's pixels (not its place, turn or colour)."""

    text: str
    font_name: str
    size: float  # points
    bold: bool = False
    width: int | None = None  # the layout's width (wrapping when multiline)
    multiline: bool = False
    align: str = "left"
    anchor_x: str = "center"
    anchor_y: str = "center"
    line_spacing: float | None = None


@dataclass
class _Page:
    texture: Any
    fbo: Any
    allocator: Any  # pyglet.image.atlas.Allocator
    used_at: int = 0  # the cache's clock when a text of it was last taken
    showing: int = 0  # texts of it alive now


@dataclass
class _Entry:
    region: Any  # a TextureRegion whose anchor is the text's anchor point
    content_width: float
    content_height: float
    page: _Page


class TextCache:
    """Atlas pages of texts drawn once, for one GL context."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.pages: list[_Page] = []
        self.entries: dict[Spec, _Entry] = {}
        self.clock = 0
        self.drawn = 0  # texts laid out and rasterised (tests, bench)
        self._context: Any = None  # the GL context the pages, their framebuffers and the batch were made in
        self._batch: Any = None
        self._shaders: Any = ()

    @property
    def bytes(self) -> int:
        return sum(int(p.texture.width * p.texture.height) for p in self.pages)

    def take(self, spec: Spec) -> _Entry:
        """`spec`'s region (drawn now if it is not yet), counted as showing until :meth:`release`."""
        entry = self.entries.get(spec) if self._context is pyglet.gl.current_context else None
        if entry is None:
            entry = self._draw([spec])[0]
        self.clock += 1
        entry.page.used_at = self.clock
        entry.page.showing += 1
        return entry

    @staticmethod
    def release(entry: _Entry) -> None:
        entry.page.showing -= 1

    def warm(self, specs: Iterable[Spec]) -> int:
        """Draw the texts of `specs` not drawn yet (a screen's vocabulary, while it changes); how many."""
        if self._context is not pyglet.gl.current_context:
            self._reset()
        todo = list(dict.fromkeys(s for s in specs if s not in self.entries))
        if todo:
            self._draw(todo)
        return len(todo)

    # ------------------------------------------------------------------ drawing
    def _reset(self) -> None:
        """A new GL context (another window, in tests): start afresh. Keyed by the context, not by the
        object space two windows' contexts share: a page's framebuffer and the batch's vertex arrays
        belong to the context that made them, and drawing them in another crashed the driver. The
        batch the texts are laid out in, and pyglet's text shaders, are held for the context's life: pyglet
        keeps a shader only while something holds it, and a batch of a label's own made its buffers anew."""
        from pyglet.text.layout import base

        self.pages, self.entries, self._context = [], {}, pyglet.gl.current_context
        self._batch = pyglet.graphics.Batch()
        self._shaders = (base.get_default_layout_shader(), base.get_default_decoration_shader())

    def _draw(self, specs: list[Spec]) -> list[_Entry]:
        from pyglet import gl  # (importing pyglet.gl opens a window: only once the UI chose its platform)

        if self._context is not pyglet.gl.current_context:
            self._reset()
        window = _window()
        saved_fbo, viewport, scissor, clear = gl.GLint(0), (gl.GLint * 4)(), (gl.GLint * 4)(), (gl.GLfloat * 4)()
        gl.glGetIntegerv(gl.GL_FRAMEBUFFER_BINDING, saved_fbo)
        gl.glGetIntegerv(gl.GL_VIEWPORT, viewport)
        gl.glGetIntegerv(gl.GL_SCISSOR_BOX, scissor)
        gl.glGetFloatv(gl.GL_COLOR_CLEAR_VALUE, clear)
        scissoring = gl.glIsEnabled(gl.GL_SCISSOR_TEST)
        projection, view = (window.projection, window.view) if window is not None else (None, None)
        if view is not None and view != Mat4():
            window.view = Mat4()  # a screen turned in software (kiosk/ui/shell/window.py): not its texts' pixels
        out = []
        try:
            gl.glEnable(gl.GL_SCISSOR_TEST)
            gl.glClearColor(0.0, 0.0, 0.0, 0.0)
            bound = None
            for spec in specs:
                label = _layout(spec, self._batch)
                x0, y0, w, h = _ink_box(label, spec)
                page, x, y = self._room(w + GAP, h + GAP)
                if page is not bound:
                    bound = page
                    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, page.fbo)
                    gl.glViewport(0, 0, page.texture.width, page.texture.height)
                    if window is not None:
                        window.projection = Mat4.orthogonal_projection(
                            0, page.texture.width, 0, page.texture.height, -255, 255
                        )
                gl.glScissor(x, y, w, h)
                gl.glClear(gl.GL_COLOR_BUFFER_BIT)
                label.position = (x - x0, y - y0, 0)
                self._batch.draw()
                label.delete()
                region = page.texture.get_region(x, y, w, h)
                region.anchor_x, region.anchor_y = -x0, -y0
                entry = _Entry(region, float(label.content_width), float(label.content_height), page)
                self.entries[spec] = entry
                out.append(entry)
                self.drawn += 1
        finally:
            gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, saved_fbo.value)
            gl.glViewport(*viewport)
            gl.glScissor(*scissor)
            gl.glClearColor(*clear)
            if not scissoring:
                gl.glDisable(gl.GL_SCISSOR_TEST)
            if window is not None:
                window.projection = projection
                if view != Mat4():
                    window.view = view
        return out

    def _room(self, w: int, h: int) -> tuple[_Page, int, int]:
        """A place `w` x `h` on a page: on one that has it, else a new page (the least recently used
        page that shows nothing is freed first when the budget is spent)."""
        from pyglet.image.atlas import AllocatorException

        for page in reversed(self.pages):
            try:
                x, y = page.allocator.alloc(w, h)
                return page, x, y
            except AllocatorException:
                continue
        side_w, side_h = max(PAGE, w), max(PAGE, h)  # a text larger than a page gets a page of its own
        free = [p for p in self.pages if p.showing <= 0]
        if free and self.bytes + side_w * side_h > self.budget:  # (when every page shows a text, it grows)
            old = min(free, key=lambda p: p.used_at)
            self.entries = {s: e for s, e in self.entries.items() if e.page is not old}
            self.pages.remove(old)
            _delete_page(old)
        page = _new_page(side_w, side_h)
        self.pages.append(page)
        x, y = page.allocator.alloc(w, h)
        return page, x, y


def _window() -> Any:
    """The window whose context is current (its projection is the one the label's shader reads)."""
    ctx = pyglet.gl.current_context
    for window in list(pyglet.app.windows):
        if getattr(window, "context", None) is ctx:
            return window
    return None


def _new_page(w: int, h: int) -> _Page:
    from pyglet import gl
    from pyglet.image.atlas import Allocator

    texture = pyglet.image.Texture.create(
        w, h, internalformat=gl.GL_R8, fmt=gl.GL_RED, min_filter=gl.GL_NEAREST, mag_filter=gl.GL_NEAREST
    )
    gl.glBindTexture(texture.target, texture.id)
    for channel, source in (
        (gl.GL_TEXTURE_SWIZZLE_R, gl.GL_ONE),
        (gl.GL_TEXTURE_SWIZZLE_G, gl.GL_ONE),
        (gl.GL_TEXTURE_SWIZZLE_B, gl.GL_ONE),
        (gl.GL_TEXTURE_SWIZZLE_A, gl.GL_RED),
    ):
        gl.glTexParameteri(texture.target, channel, source)
    gl.glBindTexture(texture.target, 0)
    fbo = gl.GLuint(0)
    gl.glGenFramebuffers(1, fbo)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)  # (TextCache._draw binds the page it draws on, and back)
    gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, texture.target, texture.id, 0)
    return _Page(texture, fbo.value, Allocator(w, h))


def _delete_page(page: _Page) -> None:
    from pyglet import gl

    gl.glDeleteFramebuffers(1, gl.GLuint(page.fbo))
    page.texture.delete()


def _layout(spec: Spec, batch: Any) -> pyglet.text.Label:
    """`spec` laid out by pyglet in white (the sprite tints it), alone in `batch`."""
    kw: dict[str, Any] = {}
    if spec.width is not None:
        kw = dict(width=spec.width, multiline=spec.multiline)
        if spec.multiline:
            kw["align"] = spec.align
    label = pyglet.text.Label(
        spec.text,
        font_name=spec.font_name,
        font_size=spec.size,
        weight="bold" if spec.bold else "normal",
        anchor_x=spec.anchor_x,  # type: ignore[arg-type]
        anchor_y=spec.anchor_y,  # type: ignore[arg-type]
        color=(255, 255, 255, 255),
        batch=batch,
        **kw,
    )
    if spec.line_spacing is not None:
        label.set_style("line_spacing", spec.line_spacing)
    return label


def _ink_box(label: pyglet.text.Label, spec: Spec) -> tuple[int, int, int, int]:
    """Whole pixels round where `label` draws, from its anchor point: (x0, y0, w, h). Its layout box
    grown by a margin for glyphs that reach past their advance (bold, a "j"'s tail, a long word)."""
    cw, ch = float(label.content_width), float(label.content_height)
    box_w = float(spec.width) if spec.multiline and spec.width else cw
    left = float(label._get_left_anchor())  # noqa: SLF001  (pyglet's own anchor arithmetic, not restated)
    bottom = float(label._get_bottom_anchor())  # noqa: SLF001
    over = max(0.0, cw - box_w)
    pad = 2 + math.ceil(spec.size * 4 / 3 * 0.15)
    x0 = math.floor(left - over - pad)
    y0 = math.floor(bottom - pad)
    x1 = math.ceil(left + box_w + over + pad)
    y1 = math.ceil(bottom + ch + pad)
    return x0, y0, max(1, x1 - x0), max(1, y1 - y0)


#: the one cache of the process (pages follow the current GL context)
CACHE = TextCache()


class _OfSpec:
    """A text's setting that makes its pixels: setting it takes the region of the new :class:`Spec`."""

    def __init__(self, field: str, convert: Any = None) -> None:
        self.field, self.convert = field, convert

    def __get__(self, text: Any, owner: Any = None) -> Any:
        return getattr(text._spec, self.field)

    def __set__(self, text: Text, value: Any) -> None:
        text._set(**{self.field: value if self.convert is None else self.convert(value)})


class _OfSprite:
    """A text's property that is its sprite's: its place, turn, opacity."""

    def __set_name__(self, owner: Any, name: str) -> None:
        self.name = name

    def __get__(self, text: Any, owner: Any = None) -> Any:
        return getattr(text._sprite, self.name)

    def __set__(self, text: Text, value: Any) -> None:
        setattr(text._sprite, self.name, value)


class Text:
    """A text drawn once (:data:`CACHE`) shown by a sprite, with what the screens used of a pyglet
    Label. Changing what makes its pixels (words, size, width, styles) takes another region, drawn
    once too; between :meth:`begin_update` and :meth:`end_update` only one, at the end."""

    text = _OfSpec("text")
    font_size = _OfSpec("size", float)
    font_name = _OfSpec("font_name")
    width = _OfSpec("width", lambda w: None if w is None else max(1, int(w)))
    multiline = _OfSpec("multiline", bool)
    anchor_x = _OfSpec("anchor_x")
    anchor_y = _OfSpec("anchor_y")
    x = _OfSprite()
    y = _OfSprite()
    position = _OfSprite()
    rotation = _OfSprite()
    opacity = _OfSprite()

    def __init__(self, spec: Spec, x: float, y: float, rotation: float, color: Any, batch: Any, group: Any) -> None:
        self._spec = spec
        self._entry = CACHE.take(spec)
        self._updating = self._deleted = False
        self._sprite: Any = pyglet.sprite.Sprite(self._entry.region, x, y, batch=batch, group=group)
        self._sprite.rotation = rotation
        self.color = color

    def _set(self, **changes: Any) -> None:
        self._spec = replace(self._spec, **changes)
        if not self._updating:
            self._retake()

    def _retake(self) -> None:
        """Show the region of the spec as it is now (if it is not what shows)."""
        if self._deleted or CACHE.entries.get(self._spec) is self._entry:
            return
        entry = CACHE.take(self._spec)
        CACHE.release(self._entry)
        self._entry = entry
        self._sprite.image = entry.region

    def begin_update(self) -> None:
        self._updating = True

    def end_update(self) -> None:
        self._updating = False
        self._retake()

    def get_style(self, name: str) -> Any:
        return {"align": self._spec.align, "line_spacing": self._spec.line_spacing}[name]

    def set_style(self, name: str, value: Any) -> None:
        if name not in ("align", "line_spacing"):
            raise ValueError(f"a drawn text has no style {name!r}")
        self._set(**{name: value})

    @property
    def content_width(self) -> float:
        self._retake()  # (measured as it is now, within an update too)
        return self._entry.content_width

    @property
    def content_height(self) -> float:
        self._retake()
        return self._entry.content_height

    @property
    def color(self) -> tuple[int, int, int, int]:
        return (*self._sprite.color[:3], self._sprite.opacity)

    @color.setter
    def color(self, value: Any) -> None:
        self._sprite.color = tuple(value[:3])
        self._sprite.opacity = value[3] if len(value) > 3 else 255

    @property
    def visible(self) -> bool:
        return not self._deleted and bool(self._sprite.visible)

    @visible.setter
    def visible(self, on: bool) -> None:
        if not self._deleted:
            self._sprite.visible = on

    @property
    def batch(self) -> Any:
        return None if self._deleted else self._sprite.batch

    _batch = batch  # the layout audit asks pyglet's private name

    @property
    def group(self) -> Any:
        return self._sprite.group

    def delete(self) -> None:
        if not self._deleted:
            self._deleted = True
            self._sprite.delete()
            CACHE.release(self._entry)
