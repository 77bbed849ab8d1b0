"""The built-in pictures (kiosk/ui/art/pictures.py): complete, equal to what their sources render,
read back from the cache, never a crash when damaged, and what the board actually shows."""

from __future__ import annotations

import logging
import shutil
import struct
from pathlib import Path

import pytest

from kiosk.themes import png
from kiosk.themes.pack import PICTURE_PX, _check_png, kinds, main_colour
from kiosk.ui.art import make_pictures, pictures


@pytest.fixture
def fresh(tmp_path, monkeypatch):
    """A cache folder of its own (for the baked atlas), and load() not remembering another test's set."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    pictures._load.cache_clear()
    yield
    pictures._load.cache_clear()


def _copy(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "set"
    shutil.copytree(pictures.SET, folder)
    monkeypatch.setattr(pictures, "SET", folder)
    return folder


def test_every_treasure_of_both_games_and_every_seat_has_a_picture():
    """One transparent-cornered PNG per treasure of each game's picture set (as a theme pack needs)
    and per pawn, and a rim colour for each card symbol that shows on the ivory card."""
    assert set(kinds()) == {"board", "cards"}
    assert set(make_pictures.BOARD) == set(kinds()["board"]) and set(make_pictures.CARDS) == set(kinds()["cards"])
    for path in pictures.files():
        px = pictures.PAWN_PX if path.parent.name == "pawns" else PICTURE_PX
        width, height, rgba = _check_png(path.read_bytes(), px)
        assert (width, height) == (px, px), path
        corners = (0, px - 1, px * (px - 1), px * px - 1)
        assert all(rgba[4 * i + 3] == 0 for i in corners), f"{path}: corners not transparent"
        opaque = sum(1 for i in range(3, len(rgba), 4) if rgba[i] >= 128)
        assert opaque > 0.2 * px * px, f"{path}: hardly anything drawn ({opaque} px)"
    loaded = pictures.load()
    assert loaded is not None
    for name in kinds()["cards"]:
        r, g, b = loaded.theme.rims[f"cards/{name}"]
        assert 0.299 * r + 0.587 * g + 0.114 * b <= make_pictures.RIM_LIGHT_MAX + 1, name


def test_no_two_pictures_of_a_game_are_the_same():
    """Matching pictures is the card game: every symbol must differ from every other one."""
    for kind in kinds():
        seen: dict[bytes, str] = {}
        for name in kinds()[kind]:
            colour = main_colour(png.decode_rgba((pictures.SET / kind / f"{name}.png").read_bytes())[2])
            data = (pictures.SET / kind / f"{name}.png").read_bytes()
            assert data not in seen, f"{kind}: {name} is the same picture as {seen.get(data)}"
            seen[data] = name
            assert colour != (128, 128, 128), name


@pytest.mark.skipif(
    not make_pictures.FONT.is_file() or shutil.which("rsvg-convert") is None,
    reason="fonts-noto-color-emoji and librsvg2-bin (Makefile APT_PACKAGES) render the pictures",
)
def test_the_committed_pictures_are_what_their_sources_render_now():
    """Nobody edited a PNG by hand, and the generator still makes the committed set."""
    pytest.importorskip("PIL")
    fresh = make_pictures.pictures()
    assert sorted(fresh) == sorted(str(p.relative_to(pictures.SET)) for p in pictures.files())
    for path, image in fresh.items():
        _w, _h, committed = png.decode_rgba((pictures.SET / path).read_bytes())
        made = image.tobytes()
        assert len(made) == len(committed), path
        worst = max(abs(a - b) for a, b in zip(made, committed))
        assert worst <= 4, f"{path}: differs from a fresh rendering by up to {worst} levels"


def test_the_pictures_rows_are_unfiltered_so_the_pure_python_reader_is_quick():
    """pyglet's pure-Python PNG reader undoes a Paeth-filtered row about 40 times slower than an
    unfiltered one (all 53 pictures: 0.8 s against 0.02 s here, five times that on a Pi, at every
    start): every row of every picture is stored with filter 0."""
    import zlib

    for path in pictures.files():
        data = path.read_bytes()
        h = png.header(data)
        idat, i = b"", 8
        while i < len(data):
            (length,) = struct.unpack(">I", data[i : i + 4])
            if data[i + 4 : i + 8] == b"IDAT":
                idat += data[i + 8 : i + 8 + length]
            i += 12 + length
        raw = zlib.decompress(idat)
        stride = h.width * 4 + 1
        assert len(raw) == stride * h.height, path
        assert {raw[y * stride] for y in range(h.height)} == {0}, f"{path}: rows filtered"


@pytest.mark.parametrize("damage", ["missing", "cut short", "wrong size"])
def test_a_missing_or_damaged_picture_gives_the_drawings_and_one_warning(tmp_path, monkeypatch, fresh, caplog, damage):
    folder = _copy(tmp_path, monkeypatch)
    victim = folder / "board" / "owl.png"
    if damage == "missing":
        victim.unlink()
    elif damage == "cut short":
        victim.write_bytes(victim.read_bytes()[:200])
    else:
        shutil.copyfile(folder / "pawns" / "0.png", victim)  # 256 px where 128 belong
    with caplog.at_level(logging.WARNING, logger="kiosk.ui.art.pictures"):
        assert pictures.load() is None
        assert pictures.digest() == "drawn"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "drawn treasures" in warnings[0].getMessage()
    assert "owl.png" in warnings[0].getMessage(), warnings[0].getMessage()


@pytest.mark.display
def test_the_board_shows_the_pictures_and_high_contrast_the_drawings(tmp_path, monkeypatch, fresh):
    """The atlas's emerald and pawn are the shaded pictures (many more tones of their colour than
    the flat drawings show); in high contrast they are our drawings."""
    import pyglet

    from kiosk.ui.art import Atlas
    from tests.kiosk.ui.screens.test_screens import rgb_at, window_of

    def colours_in(px, rect):  # every second pixel of rect, repeats kept (shares are of the area)
        x0, y0, w, h = rect
        return [rgb_at(px, x, y) for x in range(x0, x0 + w, 2) for y in range(y0, y0 + h, 2)]

    window = window_of((800, 480))
    shares: dict = {}  # tones of the gem's green (by contrast) and of the pawn's (by ("pawn", contrast))
    for contrast in (False, True):
        window.switch_to()
        atlas = Atlas(128, window, high_contrast=contrast)
        batch = pyglet.graphics.Batch()
        sprite = pyglet.sprite.Sprite(atlas.treasure("emerald"), 200, 240, batch=batch)
        sprite.scale = 200 / atlas.px
        pawn = pyglet.sprite.Sprite(atlas.pawn(2), 600, 240, batch=batch)
        pawn.scale = 200 / atlas.px
        pyglet.gl.glClearColor(0.1, 0.1, 0.1, 1)
        window.clear()
        batch.draw()
        img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        rgba = img.get_data("RGBA", img.width * 4)
        rgb = bytes(b for i, b in enumerate(rgba) if i % 4 != 3)
        px = (img.width, img.height, rgb)
        gem = colours_in(px, (130, 170, 140, 140))
        # shading: how many tones of green (in steps of 16 levels) the gem shows
        shares[contrast] = len({(r // 16, g // 16, b // 16) for r, g, b in gem if g > r + 60 and g > b + 30})
        # the pawn: the picture has a lit side (near white tints of green), the drawing flat colour
        piece = colours_in(px, (520, 160, 160, 160))
        shares[("pawn", contrast)] = len({(r // 16, g // 16, b // 16) for r, g, b in piece if g > r + 40})
    assert shares[False] > 1.5 * shares[True], f"tones of green, picture vs drawing: {shares}"
    assert shares[("pawn", False)] > 2 * shares[("pawn", True)], f"the pawn's tones: {shares}"
