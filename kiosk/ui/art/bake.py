"""Drawing a set of pictures once into one texture, cut into regions (both atlases use it).

The board's Atlas (tiles, treasures, pawns) and the card game's CardAtlas
(faces, back, icons) are built the same way: each drawing gets a square slot
with a margin, all of them are drawn as shapes into a framebuffer-backed
texture in one batch, mipmaps are made (cheap antialiasing when sampled
down), and each slot becomes a region anchored at its centre, for a Sprite.

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

import math
from typing import Callable, Hashable, Sequence

import pyglet
from pyglet import gl
from pyglet.math import Mat4


def bake(keys: Sequence[Hashable], px: int, pad: int, window,
         draw: Callable[[object, Hashable, float, float], list]) -> tuple[pyglet.image.Texture, dict]:
    """Draw every key `px` pixels big into one texture; returns it and its regions by key.

    `draw(batch, key, cx, cy)` adds the drawing of `key` centred at (cx, cy) to the
    batch and returns its shapes (kept alive until the batch has been drawn).
    `window` is the one whose GL context is current (its projection is borrowed).
    """
    slot = px + 2 * pad
    cols = max(1, min(len(keys), 4096 // slot, math.ceil(math.sqrt(len(keys)))))
    rows = math.ceil(len(keys) / cols)
    width, height = cols * slot, rows * slot
    texture = pyglet.image.Texture.create(width, height, min_filter=gl.GL_LINEAR_MIPMAP_NEAREST,
                                          mag_filter=gl.GL_LINEAR)
    batch = pyglet.graphics.Batch()
    keep = []
    centres = {}
    for i, key in enumerate(keys):
        cx = (i % cols) * slot + pad + px / 2
        cy = (i // cols) * slot + pad + px / 2
        centres[key] = (cx, cy)
        keep += draw(batch, key, cx, cy)
    render(texture, window, batch, width, height)
    del keep
    regions = {}
    for key, (cx, cy) in centres.items():
        region = texture.get_region(int(cx - px / 2), int(cy - px / 2), px, px)
        region.anchor_x = region.anchor_y = px // 2
        regions[key] = region
    return texture, regions


def render(texture, window, batch, width: int, height: int) -> None:
    """Draw `batch` into `texture` (width x height) through a framebuffer, then make its mipmaps.

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
            raise RuntimeError(f"cannot draw the art into a {width}x{height} texture: framebuffer "
                               f"incomplete (status 0x{status:x})")
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
    finally:
        gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, previous.value)
        gl.glDeleteFramebuffers(1, fbo)
    gl.glBindTexture(gl.GL_TEXTURE_2D, texture.id)
    gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
