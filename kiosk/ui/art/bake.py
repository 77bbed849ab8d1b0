"""Drawing a set of pictures once into one texture, cut into regions (both atlases use it).

The board's Atlas (tiles, treasures, pawns) and the card game's CardAtlas
(faces, back, icons) are built the same way: each drawing gets a square slot
with a margin, all of them are drawn as shapes into a framebuffer-backed
texture in one batch, mipmaps are made (cheap antialiasing when sampled
down), and each slot becomes a region anchored at its centre, for a Sprite.

The board's atlas is kept on disk once baked (``cache_name``; $XDG_CACHE_HOME/labyrinth-kiosk/atlas,
named by size and a hash of the drawing code): the next start-up loads its pixels instead of
making ~1500 shapes in Python. Only OpenGL ES 3.0 calls: ``glReadPixels`` (RGBA bytes) to keep it,
a texture upload and ``glGenerateMipmap`` to load it.

Filtering: ``GL_LINEAR_MIPMAP_NEAREST`` (bilinear within the one mipmap level
nearest the drawn size). Tiles are drawn at half the baked size and treasures at
about a quarter, so plain ``GL_LINEAR`` skips texels: at 800x480 it broke the
treasures' outlines and medallion rims (and they would shimmer in a sliding row).
Trilinear (``GL_LINEAR_MIPMAP_LINEAR``) looked the same as mipmap-nearest in
screenshots at 800x480 and 1920x1080 but costs more: drawing the board's batch
on llvmpipe took 14-16 ms trilinear, 10.5-10.7 ms mipmap-nearest, 11.5-11.8 ms
linear at 1280x800 (20-26 ms at 1920x1080).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from pathlib import Path
from typing import Callable, Hashable, Sequence

import pyglet
from pyglet import gl
from pyglet.math import Mat4

log = logging.getLogger(__name__)


def bake(
    keys: Sequence[Hashable],
    px: int,
    pad: int,
    window,
    draw: Callable[[object, Hashable, float, float], list],
    cache_name: str | None = None,
) -> tuple[pyglet.image.Texture, dict]:
    """Draw every key `px` pixels big into one texture; returns it and its regions by key.

    `draw(batch, key, cx, cy)` adds the drawing of `key` centred at (cx, cy) to the
    batch and returns its shapes (kept alive until the batch has been drawn).
    `window` is the one whose GL context is current (its projection is borrowed).
    With `cache_name` (a name that changes with the drawings and the size), the baked pixels
    are kept on disk (``cache_dir()``) and the next start-up loads them instead of drawing:
    making a thousand shapes in Python is most of a start-up's time on a Pi.
    """
    slot = px + 2 * pad
    cols = max(1, min(len(keys), 4096 // slot, math.ceil(math.sqrt(len(keys)))))
    rows = math.ceil(len(keys) / cols)
    width, height = cols * slot, rows * slot
    texture = pyglet.image.Texture.create(
        width, height, min_filter=gl.GL_LINEAR_MIPMAP_NEAREST, mag_filter=gl.GL_LINEAR
    )
    centres = {}
    for i, key in enumerate(keys):
        centres[key] = ((i % cols) * slot + pad + px / 2, (i // cols) * slot + pad + px / 2)
    path = cache_dir() / f"{cache_name}-{width}x{height}.rgba" if cache_name else None
    if path is None or not _load(texture, path, width, height):
        batch = pyglet.graphics.Batch()
        keep = []
        for key, (cx, cy) in centres.items():
            keep += draw(batch, key, cx, cy)
        pixels = render(texture, window, batch, width, height, read_back=path is not None)
        del keep
        if path is not None and pixels is not None:
            _store(path, pixels)
    regions = {}
    for key, (cx, cy) in centres.items():
        region = texture.get_region(int(cx - px / 2), int(cy - px / 2), px, px)
        region.anchor_x = region.anchor_y = px // 2
        regions[key] = region
    return texture, regions


def cache_dir() -> Path:
    """Where baked atlases are kept between runs ($XDG_CACHE_HOME, as the systemd unit sets it)."""
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "labyrinth-kiosk" / "atlas"


def source_digest(*files) -> str:
    """A short hash of the drawing code's files: a cached atlas is used only by the code that drew it."""
    h = hashlib.sha1()
    for f in files:
        h.update(Path(f).read_bytes())
    return h.hexdigest()[:12]


def _load(texture, path: Path, width: int, height: int) -> bool:
    try:
        data = path.read_bytes()
    except OSError:
        return False
    if len(data) != width * height * 4:
        return False
    texture.blit_into(pyglet.image.ImageData(width, height, "RGBA", data), 0, 0, 0)
    gl.glBindTexture(gl.GL_TEXTURE_2D, texture.id)
    gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
    return True


def _store(path: Path, pixels: bytes) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        for old in path.parent.glob(path.name.split("-", 2)[0] + "-*"):
            if old.name != path.name and old.stat().st_mtime < time.time() - 7 * 86400:
                old.unlink()  # atlases of older versions or other sizes, after a week
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(pixels)
        tmp.replace(path)
    except OSError as exc:  # a read-only cache only costs the bake next time
        log.debug("atlas not cached (%s)", exc)


def render(texture, window, batch, width: int, height: int, read_back: bool = False) -> bytes | None:
    """Draw `batch` into `texture` (width x height) through a framebuffer, then make its mipmaps;
    with `read_back`, return the drawn pixels (RGBA rows, bottom first) for the disk cache.

    The texture is attached with ``glFramebufferTexture2D`` (OpenGL ES 3.0, GL 3.0), not with
    pyglet's ``Framebuffer.attach_texture``: that calls ``glFramebufferTexture``, which only
    OpenGL ES 3.2 has, and a Raspberry Pi 4/5 offers ES 3.1.
    """
    previous = gl.GLint(0)
    gl.glGetIntegerv(gl.GL_FRAMEBUFFER_BINDING, previous)
    fbo = gl.GLuint(0)
    gl.glGenFramebuffers(1, fbo)
    try:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
        gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, texture.id, 0)
        status = gl.glCheckFramebufferStatus(gl.GL_FRAMEBUFFER)
        if status != gl.GL_FRAMEBUFFER_COMPLETE:
            raise RuntimeError(
                f"cannot draw the art into a {width}x{height} texture: framebuffer incomplete (status 0x{status:x})"
            )
        viewport = (gl.GLint * 4)()
        gl.glGetIntegerv(gl.GL_VIEWPORT, viewport)
        gl.glViewport(0, 0, width, height)
        gl.glClearColor(0, 0, 0, 0)
        gl.glClear(gl.GL_COLOR_BUFFER_BIT)
        if window is not None:
            old_proj, old_view = window.projection, window.view
            window.projection = Mat4.orthogonal_projection(0, width, 0, height, -255, 255)
            window.view = Mat4()
        try:
            batch.draw()
        finally:
            gl.glViewport(*viewport)
            if window is not None:
                window.projection, window.view = old_proj, old_view
        pixels = None
        if read_back:
            buf = (gl.GLubyte * (width * height * 4))()
            gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
            gl.glReadPixels(0, 0, width, height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
            pixels = bytes(buf)
    finally:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, previous.value)
        gl.glDeleteFramebuffers(1, fbo)
    gl.glBindTexture(gl.GL_TEXTURE_2D, texture.id)
    gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
    return pixels
