"""Reading and writing the theme packs' PNG pictures without a new dependency.

A pack's pictures come from outside (a museum's designer, a zip from a mail),
so each one is checked before it is decoded: the signature, the ``IHDR``
header (size, bit depth, a colour type with transparency), and that its
compressed data inflates to no more than its size needs (a 1 MB file cannot
become a gigabyte in memory). Only then pyglet's own pure-Python PNG reader
(``pyglet.extlibs.png``, no GL needed) decodes it, checking every CRC.

:func:`encode` writes RGBA pixels as a PNG (the project's own theme is made
with it: kiosk/themes/make_ocean.py).
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

from kiosk.errors import KioskError

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: colour types that carry transparency by themselves: grey + alpha, RGB + alpha
ALPHA_TYPES = {4: "grey and alpha", 6: "RGB and alpha"}
#: colour types that carry it only with a tRNS chunk: grey, RGB, a palette
TRNS_TYPES = {0: "grey", 2: "RGB", 3: "a palette"}
_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


class PngError(KioskError, ValueError):
    """A file that is not a PNG the kiosk can use; the message says why (without the file name)."""


@dataclass(frozen=True)
class Header:
    width: int
    height: int
    bit_depth: int
    colour_type: int
    interlaced: bool
    transparent: bool  # an alpha channel or a tRNS chunk


def _chunks(data: bytes):
    """(type, body) of each chunk, checking the signature and the lengths (not the CRCs: the reader does)."""
    if not data.startswith(SIGNATURE):
        raise PngError("not a PNG image (its first bytes are not the PNG signature)")
    pos = len(SIGNATURE)
    while pos < len(data):
        if pos + 8 > len(data):
            raise PngError("a PNG cut short (a chunk header is incomplete)")
        length, kind = struct.unpack(">I4s", data[pos : pos + 8])
        end = pos + 8 + length + 4
        if end > len(data):
            raise PngError("a PNG cut short (a chunk is longer than the file)")
        yield kind, data[pos + 8 : pos + 8 + length]
        pos = end
        if kind == b"IEND":
            return
    raise PngError("a PNG cut short (no IEND chunk)")


def header(data: bytes) -> Header:
    """The header of PNG `data`, and whether it has transparency; raises PngError."""
    first = True
    ihdr = None
    transparent = False
    for kind, body in _chunks(data):
        if first:
            if kind != b"IHDR" or len(body) != 13:
                raise PngError("a damaged PNG (it does not start with its IHDR header)")
            ihdr = struct.unpack(">IIBBBBB", body)
            first = False
        elif kind == b"tRNS":
            transparent = True
        elif kind == b"IDAT":
            break
    if ihdr is None:
        raise PngError("a damaged PNG (no IHDR header)")
    width, height, depth, ctype, _compression, _filter, interlace = ihdr
    if ctype not in _CHANNELS:
        raise PngError(f"a damaged PNG (colour type {ctype} does not exist)")
    return Header(width, height, depth, ctype, interlace == 1, transparent or ctype in ALPHA_TYPES)


def raw_size(h: Header) -> int:
    """How many bytes the image's filtered rows take (its IDAT data inflated), interlacing included."""

    def rows(w: int, n: int) -> int:
        return 0 if w == 0 or n == 0 else n * (1 + (w * _CHANNELS[h.colour_type] * h.bit_depth + 7) // 8)

    if not h.interlaced:
        return rows(h.width, h.height)
    total = 0
    for x0, y0, dx, dy in (
        (0, 0, 8, 8),
        (4, 0, 8, 8),
        (0, 4, 4, 8),
        (2, 0, 4, 4),
        (0, 2, 2, 4),
        (1, 0, 2, 2),
        (0, 1, 1, 2),
    ):
        total += rows((h.width - x0 + dx - 1) // dx, (h.height - y0 + dy - 1) // dy)
    return total


def check_inflated_size(data: bytes, h: Header) -> None:
    """Refuse image data that inflates to more than the header's size needs (a decompression bomb)."""
    idat = b"".join(body for kind, body in _chunks(data) if kind == b"IDAT")
    need = raw_size(h)
    inflater = zlib.decompressobj()
    try:
        out = inflater.decompress(idat, need + 1)
    except zlib.error as exc:
        raise PngError(f"a damaged PNG (its image data does not inflate: {exc})") from None
    if len(out) > need or inflater.unconsumed_tail:
        raise PngError(f"its image data inflates to more than the {need} bytes a {h.width}x{h.height} picture needs")
    if len(out) < need:
        raise PngError("a damaged PNG (its image data is shorter than its size needs)")


def decode_rgba(data: bytes) -> tuple[int, int, bytes]:
    """(width, height, RGBA bytes with the top row first) of PNG `data`; raises PngError.

    Call :func:`header` and :func:`check_inflated_size` first for a file from outside."""
    from pyglet.extlibs import png as pypng  # noqa: PLC0415 -- pyglet's PNG codec only when a theme is read

    try:
        width, height, rows, _info = pypng.Reader(bytes=data).asRGBA8()
        pixels = b"".join(bytes(row) for row in rows)
    except Exception as exc:  # the third-party reader's own failures (IndexError on a palette index
        # past the palette's end, TypeError on 16-bit grey with tRNS ...): all one line, never a traceback
        raise PngError(f"a PNG this kiosk cannot decode ({type(exc).__name__}: {str(exc)[:120]})") from None
    if len(pixels) != width * height * 4:
        raise PngError("a damaged PNG (fewer pixels than its size)")
    return width, height, pixels


def encode(width: int, height: int, rgba: bytes, filtered: bool = True) -> bytes:
    """RGBA pixels (top row first) as a PNG file (8-bit RGB and alpha, rows filtered with "up", or
    with no filter: pyglet's pure-Python reader undoes a filtered row about 40 times slower, and
    zlib alone packs flat-coloured pictures as small)."""
    stride = width * 4
    if len(rgba) != stride * height:
        raise ValueError(f"{len(rgba)} bytes are not {width}x{height} RGBA pixels")
    raw = bytearray()
    previous = bytes(stride)
    for y in range(height):
        row = rgba[y * stride : (y + 1) * stride]
        if filtered:
            raw.append(2)  # "up": small numbers where rows repeat
            raw += bytes((a - b) & 0xFF for a, b in zip(row, previous))
        else:
            raw.append(0)
            raw += row
        previous = row

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (
        SIGNATURE
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(bytes(raw), 9))
        + chunk(b"IEND", b"")
    )


__all__ = ["ALPHA_TYPES", "Header", "PngError", "check_inflated_size", "decode_rgba", "encode", "header", "raw_size"]
