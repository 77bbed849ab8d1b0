"""Makes the built-in pictures (kiosk/ui/art/picture_set/): run by a maintainer, never by the kiosk.

    python -m kiosk.ui.art.make_pictures [FOLDER]     # default: kiosk/ui/art/picture_set (committed)
    python -m kiosk.ui.art.make_pictures --sheets DIR # contact sheets of the set at 40 and 128 px

Treasures and card symbols are the colour emoji of Noto Color Emoji (Debian's
fonts-noto-color-emoji; pictures Apache-2.0, font OFL-1.1, by Google), drawn
by FreeType through Pillow from the font's 136 px colour bitmaps and scaled to
PICTURE_PX: real illustrations (outlines, shading) that read at 40 px. Two
are recoloured so they read as the treasure's name (a green gem for the
emerald, a dusky butterfly for the moth). The chest and the knight's helmet,
which the set lacks, and the pawns are our own SVG (below), rendered by rsvg-convert (librsvg2-bin)
with gradients for the shading. The kiosk itself only reads the PNGs (pure
Python, kiosk/themes/png.py): no font, Pillow or librsvg on the Pi.

Needs Pillow, fonts-noto-color-emoji and librsvg2-bin (Makefile APT_PACKAGES);
tests/kiosk/ui/art/test_pictures.py checks the committed files against a fresh
rendering where they are installed.
"""

from __future__ import annotations

import colorsys
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from kiosk.themes.pack import PICTURE_PX, main_colour
from kiosk.themes.png import encode

HERE = Path(__file__).resolve().parent / "picture_set"
FONT = Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
FONT_LICENCE = Path("/usr/share/doc/fonts-noto-color-emoji/copyright")
FONT_PPEM = 109  # the size of the font's one bitmap strike (136 px wide glyphs)
#: How much of the square a picture fills (its longer side, outline included), leaving transparent corners.
FILL = 0.94
#: The dark outline drawn round each emoji, in pixels of the 128 px picture (3.5% as pen.py's):
#: it sets the picture off the ivory medallion at 40 px, as the art direction's line weight asks.
OUTLINE_PX = 4
OUTLINE_INK = (30, 26, 34)
PAWN_PX = 256  # pawns are shown up to about twice a treasure's size (a tile's width)

#: Emoji shown only in part (left, top, right, bottom as fractions of its ink): the troll is a whole
#: figure in the set, a brown blob at 40 px; its head and shoulders show its green face big.
CROPS = {"\U0001f9cc": (0.0, 0.0, 1.0, 0.58)}

#: treasure -> (emoji, recolour): recolour is (hue turn in degrees, saturation factor, value factor).
BOARD: dict[str, tuple[str | None, tuple[float, float, float] | None]] = {
    "bat": ("\U0001f987", None),
    "book": ("\U0001f4d5", None),
    "candlestick": ("\U0001f56f\ufe0f", None),
    "chest": (None, None),  # the set has no treasure chest: our own SVG (CHEST_SVG)
    "crown": ("\U0001f451", None),
    "dragon": ("\U0001f432", None),
    "emerald": ("\U0001f48e", (-75, 1.25, 0.9)),  # the gem stone, turned green
    "genie": ("\U0001f9de", None),
    "ghost": ("\U0001f47b", None),
    "gold": ("\U0001fa99", None),
    "helmet": (None, None),  # the set's only helmets are a soldier's and a rescuer's: our knight's (HELMET_SVG)
    "keys": ("\U0001f5dd\ufe0f", None),
    "lizard": ("\U0001f98e", None),
    "map": ("\U0001f5fa\ufe0f", None),
    "moth": ("\U0001f98b", (8, 0.45, 0.8)),  # the butterfly, dusky
    "owl": ("\U0001f989", None),
    "princess": ("\U0001f478", None),
    "ring": ("\U0001f48d", None),
    "rat": ("\U0001f400", None),
    "scarab": ("\U0001fab2", None),
    "skull": ("\U0001f480", None),
    "spider": ("\U0001f577\ufe0f", None),
    "sword": ("\U0001f5e1\ufe0f", None),
    "troll": ("\U0001f9cc", None),
}
CARDS: dict[str, tuple[str | None, tuple[float, float, float] | None]] = {
    "anchor": ("\u2693", None),
    "acorn": ("\U0001f330", None),
    "apple": ("\U0001f34e", None),
    "bell": ("\U0001f514", None),
    "boot": ("\U0001f462", None),
    "candle": ("\U0001f56f\ufe0f", None),
    "clock": ("\u23f0", None),
    "compass": ("\U0001f9ed", None),
    "cup": ("\u2615", None),
    "drum": ("\U0001f941", None),
    "feather": ("\U0001fab6", None),
    "fish": ("\U0001f41f", None),
    "flag": ("\U0001f6a9", None),
    "hat": ("\U0001f3a9", None),
    "horn": ("\U0001f4ef", None),
    "key": ("\U0001f511", None),
    "kite": ("\U0001fa81", None),
    "lamp": ("\U0001fa94", None),
    "leaf": ("\U0001f341", None),
    "mask": ("\U0001f3ad", None),
    "moon": ("\U0001f319", None),
    "shell": ("\U0001f41a", None),
    "star": ("\u2b50", None),
    "umbrella": ("\u2602\ufe0f", None),
    "vase": ("\U0001f3fa", None),
}

PAWN_HEADS = ("ball", "cone", "cube", "diamond")
#: A card medallion's rim takes its picture's main colour, darkened to at most this brightness
#: (0-255) so a white candle or skull still gets a rim that shows on the ivory card.
RIM_LIGHT_MAX = 170


def emoji_picture(char: str, recolour: tuple[float, float, float] | None = None, px: int = PICTURE_PX) -> Any:
    """The emoji `char` drawn by FreeType, cropped to its ink and scaled into a `px` square (a PIL image)."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(FONT), FONT_PPEM)
    big = Image.new("RGBA", (FONT_PPEM * 2, FONT_PPEM * 2), (0, 0, 0, 0))
    ImageDraw.Draw(big).text((8, 8), char, font=font, embedded_color=True)
    box = big.getbbox()
    if box is None:
        raise SystemExit(f"{FONT}: no picture for U+{ord(char[0]):04X}")
    ink = big.crop(box)
    part = CROPS.get(char)
    if part is not None:
        w, h = ink.size
        ink = ink.crop((round(part[0] * w), round(part[1] * h), round(part[2] * w), round(part[3] * h)))
    if recolour is not None:
        ink = _recolour(ink, *recolour)
    scale = (px * FILL - 2 * OUTLINE_PX) / max(ink.size)
    ink = ink.resize((max(1, round(ink.width * scale)), max(1, round(ink.height * scale))), Image.Resampling.LANCZOS)
    picture = Image.new("RGBA", (px, px), (0, 0, 0, 0))
    picture.alpha_composite(ink, ((px - ink.width) // 2, (px - ink.height) // 2))
    return _outlined(picture)


def _outlined(picture: Any) -> Any:
    """`picture` over a dark rim OUTLINE_PX wide round its opaque parts (antialiased)."""
    from PIL import Image, ImageFilter

    alpha = picture.getchannel("A").point(lambda a: 255 if a >= 96 else 0)
    rim = alpha.filter(ImageFilter.MaxFilter(2 * OUTLINE_PX + 1)).filter(ImageFilter.GaussianBlur(0.8))
    out = Image.new("RGBA", picture.size, OUTLINE_INK + (0,))
    out.putalpha(rim)
    out.alpha_composite(picture)
    return out


def _recolour(image: Any, turn: float, sat: float, val: float) -> Any:
    """Turns every pixel's hue by `turn` degrees and scales its saturation and value (alpha kept)."""
    from PIL import Image

    raw = image.convert("RGBA").tobytes()
    data = bytearray(raw)
    for i in range(0, len(raw), 4):
        h, s, v = colorsys.rgb_to_hsv(raw[i] / 255, raw[i + 1] / 255, raw[i + 2] / 255)
        r2, g2, b2 = colorsys.hsv_to_rgb((h + turn / 360) % 1.0, min(1.0, s * sat), min(1.0, v * val))
        data[i : i + 3] = bytes((round(r2 * 255), round(g2 * 255), round(b2 * 255)))
    return Image.frombytes("RGBA", image.size, bytes(data))


#: The seats' colours as in kiosk/ui/art SEAT_COLORS (not imported: that needs pyglet).
SEAT_RGB = ((226, 54, 54), (250, 206, 40), (46, 172, 84), (54, 116, 236))


def _hex(rgb: tuple[int, int, int], k: float = 1.0) -> str:
    """`rgb` darkened (k < 1) or lightened towards white (k > 1) as #rrggbb."""
    if k <= 1:
        c = [round(v * k) for v in rgb]
    else:
        c = [round(v + (255 - v) * min(1.0, k - 1)) for v in rgb]
    return "#" + "".join(f"{v:02x}" for v in c)


def pawn_svg(seat: int) -> str:
    """A chunky painted pawn in seat `seat`'s colour and head shape, lit from the top-left, as SVG
    (a 100 x 100 box, drawn standing on the tile and seen a little from above)."""
    rgb = SEAT_RGB[seat]
    light, base, shade, deep = _hex(rgb, 1.55), _hex(rgb), _hex(rgb, 0.62), _hex(rgb, 0.42)
    ink = "#1e1a22"
    head = {
        "ball": '<circle cx="50" cy="28" r="24" fill="url(#round)"/>'
        '<ellipse cx="41" cy="19" rx="8" ry="5" fill="#ffffff" opacity="0.7" transform="rotate(-30 41 19)"/>',
        "cone": '<path d="M50 2 L79 50 Q50 59 21 50 Z" fill="url(#side)"/>'
        '<path d="M46 13 L34 43 L40 44 Z" fill="#ffffff" opacity="0.6"/>',
        "cube": '<path d="M25 14 L69 14 L69 52 L25 52 Z" fill="url(#side)"/>'
        '<path d="M25 14 L33 6 L77 6 L69 14 Z" fill="' + light + '"/>'
        '<path d="M69 14 L77 6 L77 44 L69 52 Z" fill="' + deep + '"/>'
        '<path d="M30 19 L39 19 L39 33 L30 33 Z" fill="#ffffff" opacity="0.5"/>',
        "diamond": '<path d="M50 2 L80 29 L50 56 L20 29 Z" fill="url(#side)"/>'
        '<path d="M50 2 L80 29 L50 29 Z" fill="' + light + '" opacity="0.55"/>'
        '<path d="M50 56 L80 29 L50 29 Z" fill="' + deep + '" opacity="0.6"/>',
    }[PAWN_HEADS[seat]]
    return f"""<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<defs>
 <linearGradient id="side" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="{light}"/><stop offset="0.22" stop-color="{base}"/>
  <stop offset="0.62" stop-color="{base}"/><stop offset="0.86" stop-color="{shade}"/>
  <stop offset="1" stop-color="{deep}"/>
 </linearGradient>
 <radialGradient id="round" cx="0.36" cy="0.32" r="0.75">
  <stop offset="0" stop-color="{light}"/><stop offset="0.3" stop-color="{base}"/>
  <stop offset="0.7" stop-color="{base}"/><stop offset="1" stop-color="{deep}"/>
 </radialGradient>
 <radialGradient id="shadow" cx="0.5" cy="0.5" r="0.5">
  <stop offset="0" stop-color="#000" stop-opacity="0.5"/><stop offset="1" stop-color="#000" stop-opacity="0"/>
 </radialGradient>
</defs>
<ellipse cx="55" cy="92" rx="38" ry="7" fill="url(#shadow)"/>
<g stroke="{ink}" stroke-width="3.5" stroke-linejoin="round">
 <path d="M16 85 L16 78 A34 10 0 0 1 84 78 L84 85 A34 10 0 0 1 16 85 Z" fill="url(#side)"/>
 <ellipse cx="50" cy="78" rx="34" ry="10" fill="{base}"/>
 <path d="M22 78 Q34 69 38 50 L62 50 Q66 69 78 78 A28 7 0 0 1 22 78 Z" fill="url(#side)"/>
 <ellipse cx="50" cy="50" rx="22" ry="7" fill="url(#side)"/>
 {head}
</g>
<ellipse cx="38" cy="76" rx="9" ry="2.5" fill="#ffffff" opacity="0.35"/>
</svg>
"""


#: The treasure chest (Noto has none): a wooden chest with a domed lid, gold bands and a lock, lit
#: from the top-left and outlined like the emoji pictures, in the same 100 x 100 box as the pawns.
CHEST_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<defs>
 <linearGradient id="wood" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#c98a4e"/><stop offset="0.5" stop-color="#a0642f"/>
  <stop offset="1" stop-color="#6e4120"/>
 </linearGradient>
 <linearGradient id="lid" x1="0" y1="0" x2="0" y2="1">
  <stop offset="0" stop-color="#d89a5c"/><stop offset="1" stop-color="#8d5628"/>
 </linearGradient>
 <linearGradient id="gold" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#fff0a0"/><stop offset="0.45" stop-color="#f2c230"/>
  <stop offset="1" stop-color="#b07a10"/>
 </linearGradient>
</defs>
<g stroke="#1e1a22" stroke-width="3.5" stroke-linejoin="round">
 <path d="M8 50 L92 50 L92 88 L8 88 Z" fill="url(#wood)"/>
 <path d="M8 69 L92 69" stroke="#5a3418" stroke-width="1.5" opacity="0.8"/>
 <path d="M8 50 L8 36 Q8 14 50 14 Q92 14 92 36 L92 50 Z" fill="url(#lid)"/>
 <path d="M20 88 L20 50 L30 50 L30 88 Z M70 88 L70 50 L80 50 L80 88 Z" fill="url(#gold)"/>
 <path d="M20 50 L20 22 Q25 18.5 30 17.5 L30 50 Z M80 50 L80 22 Q75 18.5 70 17.5 L70 50 Z" fill="url(#gold)"/>
 <path d="M6 46 L94 46 L94 54 L6 54 Z" fill="url(#gold)"/>
 <path d="M41 44 L59 44 L59 64 Q50 69 41 64 Z" fill="url(#gold)"/>
</g>
<path d="M47.5 52 A2.8 2.8 0 1 1 52.5 52 L51.5 59 L48.5 59 Z" fill="#1e1a22"/>
<path d="M14 40 Q16 24 40 20" stroke="#ffffff" stroke-width="3" fill="none" opacity="0.45" stroke-linecap="round"/>
</svg>
"""


#: A knight's helmet: the set has only a soldier's and a rescue worker's (with a red cross, an
#: emblem protected by law): rounded steel with a visor slit, a nose guard and a red plume.
HELMET_SVG = """<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100" viewBox="0 0 100 100">
<defs>
 <linearGradient id="steel" x1="0" y1="0" x2="1" y2="0">
  <stop offset="0" stop-color="#eef2f6"/><stop offset="0.3" stop-color="#b9c3cf"/>
  <stop offset="0.75" stop-color="#8a96a5"/><stop offset="1" stop-color="#5c6673"/>
 </linearGradient>
 <linearGradient id="plume" x1="0" y1="0" x2="1" y2="1">
  <stop offset="0" stop-color="#ff7a6a"/><stop offset="1" stop-color="#b8221c"/>
 </linearGradient>
</defs>
<g stroke="#1e1a22" stroke-width="3.5" stroke-linejoin="round">
 <path d="M48 20 Q54 2 80 4 Q92 6 94 18 Q80 10 68 16 Q60 20 58 26 Z" fill="url(#plume)"/>
 <path d="M20 56 Q20 18 50 18 Q80 18 80 56 L80 86 Q50 96 20 86 Z" fill="url(#steel)"/>
 <path d="M26 44 L74 44 L74 52 L26 52 Z" fill="#2a2730"/>
 <path d="M46 34 L54 34 L54 84 L46 84 Z" fill="url(#steel)"/>
</g>
<g fill="#2a2730">
 <circle cx="32" cy="64" r="2.4"/><circle cx="39" cy="64" r="2.4"/><circle cx="61" cy="64" r="2.4"/>
 <circle cx="68" cy="64" r="2.4"/><circle cx="32" cy="72" r="2.4"/><circle cx="39" cy="72" r="2.4"/>
 <circle cx="61" cy="72" r="2.4"/><circle cx="68" cy="72" r="2.4"/>
</g>
<path d="M27 40 Q28 27 42 23" stroke="#ffffff" stroke-width="3" fill="none" opacity="0.6" stroke-linecap="round"/>
</svg>
"""

OWN_SVG = {"chest": CHEST_SVG, "helmet": HELMET_SVG}  # treasures the emoji set lacks, drawn by us


def svg_picture(svg: str, px: int) -> Any:
    """`svg` rendered by rsvg-convert into a `px` square (a PIL image)."""
    from PIL import Image

    rsvg = shutil.which("rsvg-convert")
    if rsvg is None:
        raise SystemExit("rsvg-convert not found: install librsvg2-bin")
    done = subprocess.run(
        [rsvg, "--width", str(px), "--height", str(px), "--format", "png"],
        input=svg.encode(),
        capture_output=True,
        check=True,
    )
    return Image.open(io.BytesIO(done.stdout)).convert("RGBA")


def pictures() -> dict[str, Any]:
    """Every picture by its path in the set: board/<treasure>.png, cards/<treasure>.png, pawns/<seat>.png."""
    out: dict[str, Any] = {}
    for kind, table in (("board", BOARD), ("cards", CARDS)):
        for name, (char, recolour) in table.items():
            if char is None:
                out[f"{kind}/{name}.png"] = svg_picture(OWN_SVG[name], PICTURE_PX)
            else:
                out[f"{kind}/{name}.png"] = emoji_picture(char, recolour)
    for seat in range(len(PAWN_HEADS)):
        out[f"pawns/{seat}.png"] = svg_picture(pawn_svg(seat), PAWN_PX)
    return out


def rim(image: Any) -> list[int]:
    """A card symbol's rim colour: its main colour (as a theme's, kiosk/themes/pack.py), not too light."""
    r, g, b = main_colour(image.tobytes())
    light = 0.299 * r + 0.587 * g + 0.114 * b
    k = min(1.0, RIM_LIGHT_MAX / light) if light else 1.0
    return [round(r * k), round(g * k), round(b * k)]


README = """# The built-in pictures

Made by `python -m kiosk.ui.art.make_pictures` (see that file); do not edit by hand.

- `board/`, `cards/`: the treasures of the board game and the symbols of the card game, from
  Noto Color Emoji (Debian package fonts-noto-color-emoji) by Google: the emoji pictures are
  licensed under the Apache License 2.0 (`LICENSE-Apache-2.0.txt`), the font under the SIL Open
  Font License 1.1 (`COPYRIGHT-noto-emoji.txt`). The emerald and moth are recoloured.
- `board/chest.png`, `board/helmet.png` and `pawns/`: the project's own drawings (SVG in make_pictures.py, rendered by
  librsvg), under the project's licence.
"""


SHEET_SIZES = (40, 128)  # the "recognisable at 40 px and beautiful at 128 px"


def contact_sheet(folder: Path, size: int) -> Any:
    """Every picture of the set `size` px wide on the board's medallion (rim, ivory face, picture at
    0.78 as kiosk/ui/art draw_treasure), ten a row on a tray's brown, each with its name (a PIL image)."""
    from PIL import Image, ImageDraw

    paths = [p for kind in ("board", "cards", "pawns") for p in sorted((folder / kind).glob("*.png"))]
    cols, cell = 10, size + 14
    rows = (len(paths) + cols - 1) // cols
    sheet = Image.new("RGBA", (cols * cell, rows * (cell + 12)), (66, 48, 37, 255))
    draw = ImageDraw.Draw(sheet)
    for i, path in enumerate(paths):
        x, y = (i % cols) * cell + 7, (i // cols) * (cell + 12) + 7
        draw.ellipse((x, y, x + size, y + size), fill=(205, 160, 60, 255))
        inset = size * 0.05
        draw.ellipse((x + inset, y + inset, x + size - inset, y + size - inset), fill=(255, 250, 238, 255))
        side = round(size * 0.78)
        picture = Image.open(path).convert("RGBA").resize((side, side), Image.Resampling.LANCZOS)
        sheet.alpha_composite(picture, (x + (size - side) // 2, y + (size - side) // 2))
        draw.text((x - 4, y + size + 2), path.stem[:11], fill=(245, 240, 228, 255))
    return sheet


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--sheets"]:
        out = Path(args[1])
        out.mkdir(parents=True, exist_ok=True)
        for size in SHEET_SIZES:
            contact_sheet(HERE, size).save(out / f"pictures-{size}.png", optimize=True)
        print(f"wrote contact sheets into {out}")
        return 0
    folder = Path(args[0]) if args else HERE
    if not FONT.is_file():
        raise SystemExit(f"{FONT} not found: install fonts-noto-color-emoji")
    rims = {}
    for path, image in pictures().items():
        target = folder / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(encode(image.width, image.height, image.tobytes(), filtered=False))
        if path.startswith("cards/"):
            rims[path[: -len(".png")]] = rim(image)
    lines = [f"  {json.dumps(k)}: {json.dumps(v)}" for k, v in sorted(rims.items())]
    (folder / "rims.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")
    (folder / "README.md").write_text(README)
    shutil.copyfile(FONT_LICENCE, folder / "COPYRIGHT-noto-emoji.txt")
    shutil.copyfile("/usr/share/common-licenses/Apache-2.0", folder / "LICENSE-Apache-2.0.txt")
    print(f"wrote the pictures into {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
