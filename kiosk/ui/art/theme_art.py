"""A theme's pictures on the GPU (an installed theme's or the built-in ones): one texture, drawn
into the atlases in place of our drawings.

The board's Atlas and the card game's CardAtlas bake a theme's treasure as
they bake ours -- the medallion first, then the picture on it -- so the play
screens show a themed treasure exactly where and how big they show a drawn one.
The 49 pictures (kiosk/themes: PICTURE_PX square, decoded at install time) go
into one texture in a 7 x 7 grid, with mipmaps: they are drawn at a half or a
third of their size, and plain linear filtering would skip texels.
"""

from __future__ import annotations

import math

import pyglet
from pyglet import gl

from kiosk.themes import PICTURE_PX, Theme
from kiosk.themes.pack import pixel_order
from kiosk.ui.art.pictures import in_context, load as load_pictures, mipmapped_texture


class ThemeArt:
    """The pictures of an installed theme as texture regions anchored at their centre."""

    def __init__(self, theme: Theme):
        self.theme = theme
        keys = pixel_order()
        cols = math.ceil(math.sqrt(len(keys)))
        rows = math.ceil(len(keys) / cols)
        px = PICTURE_PX
        width, height = cols * px, rows * px
        empty = bytes(px * 4)
        lines = []  # the grid's pixel rows, top first
        for r in range(rows):
            pictures = [theme.picture(*keys[r * cols + c]) if r * cols + c < len(keys) else None for c in range(cols)]
            for y in range(px):
                lines.append(b"".join(p[y * px * 4 : (y + 1) * px * 4] if p is not None else empty for p in pictures))
        self.texture = mipmapped_texture(width, height, lines)
        self._wordmark: pyglet.image.Texture | None = None
        self._regions = {}
        for i, key in enumerate(keys):
            r, c = divmod(i, cols)
            region = self.texture.get_region(c * px, height - (r + 1) * px, px, px)
            region.anchor_x = region.anchor_y = px // 2
            self._regions[key] = region

    def wordmark(self):
        """The theme's wordmark as a texture anchored at its centre, or None when the pack has none."""
        if self.theme.wordmark is None:
            return None
        if self._wordmark is None:
            w, h, rgba = self.theme.wordmark
            rows = [rgba[y * w * 4 : (y + 1) * w * 4] for y in range(h)]
            rows.reverse()  # pyglet's rows go bottom first
            texture = pyglet.image.Texture.create(w, h, min_filter=gl.GL_LINEAR_MIPMAP_LINEAR, mag_filter=gl.GL_LINEAR)
            texture.blit_into(pyglet.image.ImageData(w, h, "RGBA", b"".join(rows)), 0, 0, 0)
            gl.glBindTexture(gl.GL_TEXTURE_2D, texture.id)
            gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
            texture.anchor_x, texture.anchor_y = w // 2, h // 2
            self._wordmark = texture
        return self._wordmark

    def sprite(
        self, kind: str, treasure: str, cx: float, cy: float, size: float, batch, group=None
    ) -> pyglet.sprite.Sprite:
        """Picture `treasure` of `kind` as a sprite `size` px wide centred at (cx, cy)."""
        s = pyglet.sprite.Sprite(self._regions[(kind, treasure)], cx, cy, batch=batch, group=group)
        s.scale = size / PICTURE_PX
        return s

    def rim(self, kind: str, treasure: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
        """A picture's main colour (a card medallion's rim), measured at install time."""
        return self.theme.rims.get(f"{kind}/{treasure}", default)


def picture_art(theme: Theme | None) -> ThemeArt | None:
    """The treasures' pictures to show: an installed theme's, else the built-in illustrations
    (kiosk/ui/art/pictures.py); None when neither can be used (our drawings are shown)."""
    art = theme_art(theme)
    if art is not None:
        return art
    builtin = load_pictures()
    return None if builtin is None else theme_art(builtin.theme)


def theme_art(theme: Theme | None) -> ThemeArt | None:
    """The GPU pictures of `theme` (made once per theme and GL object space); None when built in."""
    if theme is None or theme.builtin:
        return None
    return in_context(theme.cache, "art", lambda: ThemeArt(theme))


__all__ = ["ThemeArt", "picture_art", "theme_art"]
