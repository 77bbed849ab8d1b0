"""Themes: a museum dresses the games in its own collection (docs/themes.md).

A theme replaces the treasures' pictures and names -- the 24 of the board game,
the 25 of the card game -- and may set the medallions' colours and a wordmark.
The built-in theme is the kiosk's own pictures (kiosk/ui/art/pictures.py): the default,
and what is shown whenever a chosen theme cannot be used. A pack is checked
and installed with ``labyrinth-kiosk --install-theme PATH`` (kiosk/themes/pack.py)
into ``<state dir>/themes/<id>/``; ``[display] theme = "<id>"`` or the operator
menu chooses it.

An installed theme keeps its pictures decoded (``pixels.rgba``, with their
SHA-256 in ``installed.json``), so a start-up reads one file instead of
decoding 49 PNGs on the Pi. :func:`load` checks it again on every start: a
theme whose files went missing or were damaged since it was installed gives
one warning in the log and the built-in theme, never a crash (a crash would
restart the kiosk into the same files).

This package imports no pyglet (the pictures' textures: kiosk/ui/art/theme_art.py).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kiosk import games
from kiosk.errors import KioskError
from kiosk.store.safeio import SMALL_LIMIT, read_bounded, read_json
from kiosk.themes.pack import (
    BUILTIN_ID,
    INSTALLED,
    kinds,
    MANIFEST,
    PICTURE_PX,
    PIXELS,
    check_manifest,
    colour,
    pixel_order,
    themes_dir,
)

log = logging.getLogger(__name__)


@dataclass
class Theme:
    """A theme in use: its id, its checked manifest and, unless built in, its pictures decoded."""

    id: str
    manifest: dict[str, Any] = field(default_factory=dict)
    pixels: bytes | None = None  # every picture in pixel_order(), PICTURE_PX square, RGBA top row first
    rims: dict[str, tuple[int, int, int]] = field(default_factory=dict)  # "cards/anchor" -> its main colour
    wordmark: tuple[int, int, bytes] | None = None
    digest: str = "drawn"
    cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # its GL textures

    @property
    def builtin(self) -> bool:
        return self.pixels is None

    def title(self, language: str) -> str | None:
        """The theme's title in `language` (None for the built-in theme: its title is a kiosk text)."""
        return self.manifest.get("title", {}).get(language)

    def name(self, kind: str, treasure: str, language: str) -> str | None:
        """The name of treasure `treasure` of `kind` ("board" or "cards") in `language`, or None (built in)."""
        return self.manifest.get(kind, {}).get(treasure, {}).get(language)

    def picture(self, kind: str, treasure: str) -> bytes:
        """The RGBA pixels (top row first) of one picture of an installed theme."""
        assert self.pixels is not None
        size = PICTURE_PX * PICTURE_PX * 4
        i = _INDEX[(kind, treasure)]
        return self.pixels[i * size : (i + 1) * size]

    def colour(self, key: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
        return colour(self.manifest, key, default)

    def text(self, key: str, language: str) -> str | None:
        """A kiosk text the theme replaces: a treasure's name, by the text key each game declares
        for its picture sets (``GameType.theme_texts``, e.g. ``treasure.<name>`` for "board")."""
        if self.builtin:
            return None
        for game in games.all_games():
            for kind, prefix in game.theme_texts.items():
                if key.startswith(prefix):
                    return self.name(kind, key[len(prefix) :], language)
        return None


BUILTIN = Theme(BUILTIN_ID)
_INDEX = {key: i for i, key in enumerate(pixel_order())}


class ThemeUnusable(KioskError, ValueError):
    """An installed theme that cannot be shown; the message says why."""


def read_installed(state_dir: Path | str, theme_id: str) -> Theme:
    """The installed theme `theme_id`, checked again (manifest, pictures' size and SHA-256); ThemeUnusable."""
    if theme_id == BUILTIN_ID:
        return BUILTIN
    folder = themes_dir(state_dir) / theme_id
    try:
        manifest = read_json(folder / MANIFEST)
        index = read_json(folder / INSTALLED)
    except FileNotFoundError as exc:
        raise ThemeUnusable(f"{exc.filename}: missing") from None
    except (OSError, ValueError) as exc:
        raise ThemeUnusable(
            f"{getattr(exc, 'filename', None) or folder}: {getattr(exc, 'reason', None) or exc}"
        ) from None
    problems = check_manifest(manifest)
    if problems:
        raise ThemeUnusable(f"{folder / MANIFEST}: {problems[0]}")
    if manifest["id"] != theme_id or not isinstance(index, dict) or index.get("picture_px") != PICTURE_PX:
        raise ThemeUnusable(f"{folder / INSTALLED}: not the index of theme {theme_id!r} (install it again)")
    size = len(_INDEX) * PICTURE_PX * PICTURE_PX * 4
    pixels = _read_pixels(folder / PIXELS, size, index.get("sha256"))
    rims = {}
    for key, rgb in (index.get("rims") or {}).items():
        if isinstance(rgb, list) and len(rgb) == 3 and all(isinstance(v, int) and 0 <= v <= 255 for v in rgb):
            rims[str(key)] = (rgb[0], rgb[1], rgb[2])
    wordmark = None
    mark = index.get("wordmark")
    if isinstance(mark, list) and len(mark) == 3:
        w, h, digest = mark
        if not (isinstance(w, int) and isinstance(h, int) and 0 < w <= 4096 and 0 < h <= 4096):
            raise ThemeUnusable(f"{folder / INSTALLED}: a wordmark of {w}x{h} pixels")
        wordmark = (w, h, _read_pixels(folder / "wordmark.rgba", w * h * 4, digest))
    return Theme(theme_id, manifest, pixels, rims, wordmark, str(index.get("sha256"))[:16])


def _read_pixels(path: Path, size: int, digest: Any) -> bytes:
    try:
        data = read_bounded(path, size, follow_symlinks=False)
    except FileNotFoundError:
        raise ThemeUnusable(f"{path}: missing") from None
    except OSError as exc:
        raise ThemeUnusable(f"{path}: {getattr(exc, 'reason', None) or exc.strerror or exc}") from None
    if len(data) != size or hashlib.sha256(data).hexdigest() != digest:
        raise ThemeUnusable(f"{path}: damaged (its size or checksum is not the installed one)")
    return data


def load(state_dir: Path | str | None, theme_id: str) -> Theme:
    """The theme to show: `theme_id` as installed under `state_dir`, or -- with one warning in the log
    saying why -- the built-in theme when it is missing or damaged."""
    if theme_id == BUILTIN_ID:
        return BUILTIN
    if state_dir is None:
        log.warning("theme %r: no state directory to find it in; showing the built-in theme", theme_id)
        return BUILTIN
    try:
        return read_installed(state_dir, theme_id)
    except ThemeUnusable as exc:
        log.warning(
            "theme %r cannot be shown (%s); showing the built-in theme. Install it again with "
            "labyrinth-kiosk --install-theme PATH",
            theme_id,
            exc,
        )
    except Exception as exc:  # whatever else a damaged folder does: never a crash loop at start-up
        log.warning("theme %r cannot be shown (%s: %s); showing the built-in theme", theme_id, type(exc).__name__, exc)
    return BUILTIN


def installed(state_dir: Path | str | None) -> list[str]:
    """The ids of the themes installed under `state_dir` (folders with a manifest), sorted."""
    if state_dir is None:
        return []
    try:
        folders = sorted(themes_dir(state_dir).iterdir())
    except OSError:
        return []
    return [f.name for f in folders if not f.name.startswith(".") and not f.is_symlink() and (f / MANIFEST).is_file()]


def title_of(state_dir: Path | str, theme_id: str, language: str) -> str:
    """An installed theme's title in `language` (its id when the manifest cannot be read)."""
    try:
        manifest = read_json(themes_dir(state_dir) / theme_id / MANIFEST, SMALL_LIMIT)
        title = manifest["title"][language]
        return title if isinstance(title, str) and title.strip() else theme_id
    except Exception:
        return theme_id


class ThemedTranslator:
    """The kiosk's translator with the theme's treasure names in front of the catalogs' words."""

    def __init__(self, inner: Any, theme: Theme):
        self.inner = inner
        self.theme = theme

    def t(self, key: str, language: str | None = None, **fields: Any) -> str:
        text = self.theme.text(key, str(language or getattr(self.inner, "language", "en")))
        if text is not None:
            return text
        if language is None:
            return str(self.inner.t(key, **fields))
        return str(self.inner.t(key, language=language, **fields))

    __call__ = t

    def treasure(self, name: str) -> str:
        return self.t(f"treasure.{name}")

    def __getattr__(self, attr: str) -> Any:
        return getattr(self.inner, attr)


__all__ = [
    "BUILTIN",
    "BUILTIN_ID",
    "kinds",
    "PICTURE_PX",
    "Theme",
    "ThemeUnusable",
    "ThemedTranslator",
    "installed",
    "load",
    "read_installed",
    "title_of",
]
