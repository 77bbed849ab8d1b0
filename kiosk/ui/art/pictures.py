"""The built-in pictures: treasures, card symbols and pawns as illustrations, read from PNGs.

The files in picture_set/ are made by a maintainer (kiosk/ui/art/make_pictures.py: Noto Color
Emoji drawn by FreeType, pawns from SVG by librsvg) and committed; the kiosk only reads them,
in pure Python (kiosk/themes/png.py), so the Pi needs no font renderer, Pillow or librsvg.
Their rows are stored unfiltered, which that reader decodes in about 0.02 s for all 53 here
(rows filtered as Pillow saves them took 0.8 s). Missing or damaged files give one warning
and our drawings (kiosk/ui/art/treasures.py, pawn_pen), never a crash.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, TypeVar

import pyglet
from pyglet import gl

from kiosk.themes import Theme, png
from kiosk.themes.pack import PICTURE_PX, pixel_order

log = logging.getLogger(__name__)

T = TypeVar("T")

SET = Path(__file__).resolve().parent / "picture_set"
PAWN_PX = 256  # pawns are shown up to a tile's width, twice a treasure's
SEATS = 4
RIMS = "rims.json"  # the card medallions' rim colours, measured by make_pictures.py


def files(folder: Path = SET) -> list[Path]:
    """Every picture file of the set, in the order its decoded pixels are kept."""
    return [folder / kind / f"{name}.png" for kind, name in pixel_order()] + [
        folder / "pawns" / f"{seat}.png" for seat in range(SEATS)
    ]


@dataclass
class Pictures:
    """The decoded set: treasures as a Theme's pixels (so ThemeArt shows them), pawns apart."""

    theme: Theme
    pawns: list[bytes]  # PAWN_PX square RGBA, top row first, by seat
    digest: str


def _decode(path: Path, data: bytes, px: int) -> bytes:
    try:
        width, height, rgba = png.decode_rgba(data)
    except png.PngError as exc:
        raise png.PngError(f"{path}: {exc}") from None
    if (width, height) != (px, px):
        raise png.PngError(f"{path}: {width}x{height} pixels, not {px}x{px}")
    return rgba


def load() -> Pictures | None:
    """The built-in pictures decoded (once per process), or None, with one warning saying why,
    when a file is missing or damaged."""
    return _load(SET)


@functools.cache
def _load(folder: Path) -> Pictures | None:
    paths = files(folder)
    treasures = len(paths) - SEATS
    try:
        blobs = [p.read_bytes() for p in paths]
        rims_raw = json.loads((folder / RIMS).read_text())
        data = b"".join(
            _decode(path, blob, PICTURE_PX if i < treasures else PAWN_PX)
            for i, (path, blob) in enumerate(zip(paths, blobs))
        )
    except (OSError, ValueError) as exc:  # PngError is a ValueError
        log.warning("built-in pictures unusable (%s); showing the drawn treasures and pawns", exc)
        return None
    h = hashlib.sha1()
    for blob in blobs:
        h.update(blob)
    digest = h.hexdigest()[:12]
    split = treasures * PICTURE_PX * PICTURE_PX * 4
    pawn = PAWN_PX * PAWN_PX * 4
    rims = {str(k): (int(v[0]), int(v[1]), int(v[2])) for k, v in rims_raw.items()}
    theme = Theme("pictures", pixels=data[:split], rims=rims, digest=digest)
    return Pictures(theme, [data[split + s * pawn : split + (s + 1) * pawn] for s in range(SEATS)], digest)


class PawnArt:
    """The four pawn pictures in one texture (2 x 2), as regions anchored at their centre."""

    def __init__(self, pawns: list[bytes]):
        px = PAWN_PX
        width = height = 2 * px
        lines = []  # top first
        for r in range(2):
            row = pawns[2 * r : 2 * r + 2]
            for y in range(px):
                lines.append(b"".join(p[y * px * 4 : (y + 1) * px * 4] for p in row))
        self.texture = mipmapped_texture(width, height, lines)
        self.regions = []
        for seat in range(SEATS):
            r, c = divmod(seat, 2)
            region = self.texture.get_region(c * px, height - (r + 1) * px, px, px)
            region.anchor_x = region.anchor_y = px // 2
            self.regions.append(region)

    def sprite(
        self,
        seat: int,
        cx: float,
        cy: float,
        size: float,
        batch: pyglet.graphics.Batch | None,
        group: pyglet.graphics.Group | None = None,
        rotation: float = 0.0,
    ) -> pyglet.sprite.Sprite:
        """Pawn `seat` `size` px tall centred at (cx, cy), turned `rotation` degrees counter-clockwise."""
        s = pyglet.sprite.Sprite(self.regions[seat], cx, cy, batch=batch, group=group)
        s.scale = size / PAWN_PX
        s.rotation = -rotation  # pyglet turns sprites clockwise
        return s


def pawn_art() -> PawnArt | None:
    """The pawn pictures on the GPU (made once, in the current GL context), or None (drawn pawns)."""
    pictures = load()
    if pictures is None:
        return None
    return in_context(pictures.theme.cache, "pawns", lambda: PawnArt(pictures.pawns))


def in_context(cache: dict[str, Any], key: str, make: Callable[[], T]) -> T:
    """`cache[key]`, made again by `make` when the current GL context does not share the objects of
    the one it was made in: the built-in pictures outlive a window (a kiosk's own, a test's), and a
    texture of a closed window's context draws black."""
    space = getattr(gl.current_context, "object_space", None)
    held = cache.get(key)
    if held is None or held[0] is not space:
        held = cache[key] = (space, make())
    return held[1]


def digest() -> str:
    """What the baked atlas depends on: the set's checksum, or "drawn" when it cannot be used."""
    pictures = load()
    return "drawn" if pictures is None else pictures.digest


__all__ = ["PAWN_PX", "PawnArt", "Pictures", "SET", "digest", "files", "in_context", "load", "pawn_art"]


def mipmapped_texture(width: int, height: int, rows_top_first: list[bytes]) -> pyglet.image.Texture:
    """An RGBA texture of pixel rows given top first (pyglet's go bottom first), with its mipmaps:
    pictures drawn smaller than their pixels stay smooth (the pawns, a theme's grid)."""
    texture = pyglet.image.Texture.create(width, height, min_filter=gl.GL_LINEAR_MIPMAP_LINEAR, mag_filter=gl.GL_LINEAR)
    data = b"".join(reversed(rows_top_first))
    texture.blit_into(pyglet.image.ImageData(width, height, "RGBA", data), 0, 0, 0)
    gl.glBindTexture(gl.GL_TEXTURE_2D, texture.id)
    gl.glGenerateMipmap(gl.GL_TEXTURE_2D)
    return texture
