"""The typeface and the type scale: one place for how big and in what letters the kiosk writes.

Why Andika: a Debian literacy typeface (``fonts-sil-andika``) drawn for
children learning to read and for low-vision readers: unambiguous letter
shapes (a/d/b/p/q, I/l/1), open counters, generous spacing. It is loaded by
file path, so no font cache or fontconfig setup is needed on the Pi. Andika
has no pictograms (stars, arrows, check marks): a text that uses one is set in
DejaVu Sans, which has them. Without the package the kiosk says so once in the
log and writes everything in DejaVu Sans.

Sizes are pixels on the 800x480 screen, scaled with the screen like every
other length (``Layout.font``). Arm's length on a 7-inch screen lying flat:
nothing a visitor must read is smaller than :data:`BODY`.
"""

from __future__ import annotations

import logging
import struct
from pathlib import Path

from kiosk.errors import KioskError

log = logging.getLogger(__name__)

# ---------------------------------------------------------------- the type scale (px at 800x480)
BODY = 18  # every text a visitor must read: prompts, panel lines, buttons, help lines
LABEL = 18  # button captions (the same as the body: a button is read like text)
TITLE = 22  # a panel's player name
PROMPT = 22  # the instruction in the panel of the player whose turn it is, where it has the room (else BODY)
HEADLINE = 28  # screen titles, the instruction's key word, the pass / game-over headline
RESULT = 32  # "Red wins!" on the game-over screen; the far side's copy is a HEADLINE (they play too)
CUE = 40  # "Red's turn": the cue when a turn starts
TREASURE = 34  # a treasure drawn on a board tile (the art's medallion diameter)
#: the treasure's drawing as a part of a board cell: a TREASURE px medallion on the 52 px cell of
#: 800x480, set into the path's crossing and small enough that the path's arms read first (docs/art.md);
#: larger screens have larger cells
TREASURE_OF_CELL = 0.66
#: a treasure picture off the board (a target, a treasure found, an open card, a card's symbol), at least
#: this many px across at 800x480 (the layout audit checks it, scaled with the screen)
PICTURE = 40
#: the treasure on the spare (a player's panel, the preview at an arrow) as a part of the tile: smaller
#: than on the board, so the tile's openings read at a glance and a turn of it shows
SPARE_TREASURE_OF_TILE = 0.34
#: the spare tile in the active player's panel is never smaller than this many px at 800x480 (scaled,
#: and never under the finger size): it is what the player must act on, the texts give way to it
SPARE = 64

FALLBACK = "DejaVu Sans"
FAMILY = "Andika"
FONT_DIR = Path("/usr/share/fonts/truetype/andika")
FILES = ("Andika-Regular.ttf", "Andika-Bold.ttf")

_state: dict[str, object] = {}


#: A font file's size at most (Andika is about 2 MB): a link to a device or a huge file is not read.
FONT_LIMIT = 32 * 1024 * 1024
#: Letters a usable typeface must draw: FreeType renders each before the kiosk relies on the file.
SAMPLE = "Aa1?"


class FontUnusable(KioskError, ValueError):
    """A font file that cannot be used (damaged, truncated, not a font); the message says why."""


def _cmap(data: bytes) -> frozenset[int]:
    """The code points a TrueType file has glyphs for (cmap formats 4 and 12); FontUnusable if damaged."""
    try:
        return _cmap_points(data)
    except (struct.error, KeyError, IndexError, ValueError, OverflowError) as exc:
        raise FontUnusable(f"its character map is damaged ({type(exc).__name__})") from None


def _cmap_points(data: bytes) -> frozenset[int]:
    tables = {}
    for i in range(struct.unpack(">H", data[4:6])[0]):
        tag, _sum, off, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        tables[tag] = off
    base = tables[b"cmap"]
    points: set[int] = set()
    for i in range(struct.unpack(">H", data[base + 2 : base + 4])[0]):
        _pid, _eid, sub = struct.unpack(">HHI", data[base + 4 + 8 * i : base + 12 + 8 * i])
        t = base + sub
        fmt = struct.unpack(">H", data[t : t + 2])[0]
        if fmt == 4:
            seg2 = struct.unpack(">H", data[t + 6 : t + 8])[0]
            n = seg2 // 2
            ends = struct.unpack(f">{n}H", data[t + 14 : t + 14 + seg2])
            starts = struct.unpack(f">{n}H", data[t + 16 + seg2 : t + 16 + 2 * seg2])
            for a, b in zip(starts, ends):
                points.update(range(a, b + 1))
        elif fmt == 12:
            for g in range(struct.unpack(">I", data[t + 12 : t + 16])[0]):
                a, b, _ = struct.unpack(">III", data[t + 16 + 12 * g : t + 28 + 12 * g])
                if not a <= b <= 0x10FFFF:  # a damaged group would make billions of code points
                    raise ValueError(f"group {a}-{b}")
                points.update(range(a, b + 1))
    return frozenset(points)


def check_font(data: bytes) -> None:
    """Raise FontUnusable unless FreeType opens `data` and renders every letter of SAMPLE with it:
    a damaged file must fail here, once, not in the middle of drawing a screen (at every start)."""
    from ctypes import byref

    from pyglet.font import freetype_lib as ft

    try:  # every table inside the file: a truncated copy fails here, not at a letter drawn later
        for i in range(struct.unpack(">H", data[4:6])[0]):
            tag, _sum, off, length = struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
            if off + length > len(data):
                raise FontUnusable(f"cut short: its {tag.decode('latin-1')!r} table ends past the file's end")
    except struct.error:
        raise FontUnusable("not a TrueType font (its table directory is damaged)") from None
    buffer = (ft.FT_Byte * len(data)).from_buffer_copy(data)
    face = ft.FT_Face()
    try:
        ft.FT_New_Memory_Face(ft.ft_get_library(), buffer, len(data), 0, byref(face))
    except ft.FreeTypeError as exc:
        raise FontUnusable(f"FreeType cannot open it ({exc})") from None
    try:
        ft.FT_Set_Pixel_Sizes(face, 0, BODY)
        for ch in SAMPLE:
            if not ft.FT_Get_Char_Index(face, ord(ch)):
                raise FontUnusable(f"it has no letter {ch!r}")
            ft.FT_Load_Char(face, ord(ch), ft.FT_LOAD_RENDER)
    except ft.FreeTypeError as exc:
        raise FontUnusable(f"FreeType cannot draw with it ({exc})") from None
    finally:
        ft.FT_Done_Face(face)


def load(font_dir: Path = FONT_DIR) -> str:
    """Register the typeface's files with pyglet (once); the family name the texts use."""
    if "family" in _state and _state.get("dir") == font_dir:
        return str(_state["family"])
    import pyglet

    from kiosk.store.safeio import UnsafeFile, read_bounded

    family, points = FALLBACK, frozenset[int]()
    path = font_dir / FILES[0]
    try:
        # every file read whole and checked before pyglet is told of any (bounded: never a FIFO or a device)
        files = []
        for path in (font_dir / name for name in FILES):
            data = read_bounded(path, FONT_LIMIT)
            check_font(data)
            files.append(data)
        points = _cmap(files[0])
        for data in files:
            try:
                pyglet.font.add_file(data)
            except Exception as exc:  # pyglet's FontException and FreeTypeError: the file stays unused
                raise FontUnusable(f"pyglet cannot add it ({exc})") from None
        family = FAMILY
    except FileNotFoundError as exc:
        log.warning(
            "typeface %s not found (%s): writing in %s; install the Debian package fonts-sil-andika",
            FAMILY,
            exc,
            FALLBACK,
        )
    except (OSError, FontUnusable) as exc:
        reason = exc.reason if isinstance(exc, UnsafeFile) else exc
        log.warning(
            "typeface %s unusable: %s: %s; writing in %s (reinstall the Debian package fonts-sil-andika)",
            FAMILY,
            path,
            reason,
            FALLBACK,
        )
    _state.update(family=family, points=points, dir=font_dir)
    return family


def font_for(text: str) -> str:
    """The family to set `text` in: the typeface, or DejaVu Sans when it uses a sign the typeface lacks."""
    family = load()
    if family == FALLBACK:
        return family
    points = _state["points"]
    assert isinstance(points, frozenset)
    if all(ord(ch) in points or ch in "\n\t" for ch in text):
        return family
    return FALLBACK
