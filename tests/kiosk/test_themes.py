"""Theme packs (kiosk/themes, docs/themes.md): the shipped ocean theme installs; broken packs are
refused with one message per problem naming the file, exit 2 and the state directory untouched; an
installed theme that breaks later falls back to the built-in art with one log line."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import stat
import struct
import zipfile
import zlib
from pathlib import Path

import pytest

from kiosk.tools import cli
from kiosk.core import config as cfg
from kiosk.themes import BUILTIN, ThemedTranslator, installed, load, read_installed
from kiosk.themes.pack import PICTURE_PX, expected_files, read_pack
from kiosk.themes.png import encode
from kiosk.ui.kit.i18n import LANGUAGES, Translator

OCEAN = Path(__file__).resolve().parents[2] / "kiosk" / "themes" / "ocean"


def tree(path: Path) -> dict[str, str]:
    """Every file and folder under `path` with its mode and a hash of its bytes: what "unchanged" means."""
    out = {}
    if not path.exists():
        return out
    for p in sorted(path.rglob("*")):
        st = p.lstat()
        body = hashlib.sha256(p.read_bytes()).hexdigest() if stat.S_ISREG(st.st_mode) else "dir"
        out[p.relative_to(path).as_posix()] = f"{oct(st.st_mode)} {body}"
    return out


def install(path, state_dir, capsys):
    status = cli.main(["--state-dir", str(state_dir), "--install-theme", str(path), "--log-level", "error"])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def pack(tmp_path) -> Path:
    """A copy of the ocean pack to break."""
    target = tmp_path / "pack"
    shutil.copytree(OCEAN, target)
    return target


@pytest.fixture
def state(tmp_path) -> Path:
    """A state directory that already holds an installed theme and a saved file (to see nothing changes)."""
    state = tmp_path / "state"
    state.mkdir()
    (state / "history.jsonl").write_text("{}\n")
    other = tmp_path / "other"
    shutil.copytree(OCEAN, other)
    manifest = json.loads((other / "theme.json").read_text())
    manifest["id"] = "harbour"
    (other / "theme.json").write_text(json.dumps(manifest))
    problems, p = read_pack(other)
    assert not problems and p is not None
    from kiosk.themes.pack import install as install_pack

    install_pack(p, state)
    return state


def png_of(width, height, rgba_pixel=(255, 0, 0, 0), colour_type=6) -> bytes:
    if colour_type == 6:
        return encode(width, height, bytes(rgba_pixel) * width * height)
    raw = b"".join(b"\x00" + bytes(rgba_pixel[:3]) * width for _ in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


# ------------------------------------------------------------------ the shipped theme
def test_the_ocean_pack_is_complete_and_valid():
    problems, pack = read_pack(OCEAN)
    assert problems == []
    assert pack is not None and pack.id == "ocean"
    assert len(pack.pixels) == 49 == len(expected_files())
    for lang in LANGUAGES:
        assert pack.manifest["title"][lang]
        names = [pack.manifest["board"][t][lang] for t in pack.manifest["board"]]
        assert len(set(names)) == 24, (lang, names)  # every board treasure told apart by its name
    assert pack.wordmark is not None
    # the pictures are the project's own, each different
    assert len({hashlib.sha256(p).digest() for k, p in pack.pixels.items() if k[0] == "cards"}) == 25


def test_install_copies_the_pack_into_the_state_directory_and_lists_it(tmp_path, capsys):
    status, out, err = install(OCEAN, tmp_path / "state", capsys)
    assert status == 0, err
    assert "ocean: Ocean" in out and "builtin" in out
    assert installed(tmp_path / "state") == ["ocean"]
    theme = read_installed(tmp_path / "state", "ocean")
    assert not theme.builtin and len(theme.pixels) == 49 * PICTURE_PX * PICTURE_PX * 4
    assert theme.name("board", "bat", "de") == "Fisch"
    leftovers = [p for p in (tmp_path / "state" / "themes").iterdir() if p.name.startswith(".")]
    assert [p.name for p in leftovers] == [".install.lock"]  # no leftovers: only the installs' lock
    # installing again replaces it in place
    status, out, err = install(OCEAN, tmp_path / "state", capsys)
    assert status == 0 and installed(tmp_path / "state") == ["ocean"]


def test_a_zipped_pack_installs_from_its_folder_inside_the_zip(tmp_path, capsys):
    zpath = tmp_path / "ocean.zip"
    with zipfile.ZipFile(zpath, "w") as z:
        for p in OCEAN.rglob("*"):
            if p.is_file():
                z.write(p, "ocean/" + p.relative_to(OCEAN).as_posix())
        z.writestr("__MACOSX/._theme.json", b"junk an archiver added")
    status, out, err = install(zpath, tmp_path / "state", capsys)
    assert status == 0, err
    assert installed(tmp_path / "state") == ["ocean"]


# ------------------------------------------------------------------ broken packs
def _missing_image(pack: Path) -> str:
    (pack / "board" / "owl.png").unlink()
    return f"{pack / 'board' / 'owl.png'}: missing"


def _wrong_size(pack: Path) -> str:
    (pack / "cards" / "bell.png").write_bytes(png_of(100, 100))
    return f"{pack / 'cards' / 'bell.png'}: 100x100 pixels; every treasure picture is 128x128"


def _not_an_image(pack: Path) -> str:
    (pack / "board" / "bat.png").write_text("this is not a picture")
    return f"{pack / 'board' / 'bat.png'}: not a PNG image"


def _missing_language(pack: Path) -> str:
    manifest = json.loads((pack / "theme.json").read_text())
    del manifest["board"]["ghost"]["et"]
    (pack / "theme.json").write_text(json.dumps(manifest))
    return f"{pack / 'theme.json'}: board.ghost: no name in et"


def _no_transparency(pack: Path) -> str:
    (pack / "cards" / "kite.png").write_bytes(png_of(128, 128, (10, 20, 30, 255), colour_type=2))
    return f"{pack / 'cards' / 'kite.png'}: has no transparency"


def _opaque_background(pack: Path) -> str:
    (pack / "cards" / "moon.png").write_bytes(png_of(128, 128, (250, 250, 250, 255)))
    return f"{pack / 'cards' / 'moon.png'}: its background is not transparent"


def _unknown_file(pack: Path) -> str:
    (pack / "board" / "unicorn.png").write_bytes(png_of(128, 128))
    return f"{pack / 'board' / 'unicorn.png'}: not part of a theme pack"


def _symlink(pack: Path) -> str:
    target = pack / "board" / "rat.png"
    target.unlink()
    target.symlink_to("/etc/passwd")
    return f"{target}: a symbolic link"


BROKEN = {
    "missing image": _missing_image,
    "wrong size": _wrong_size,
    "not an image": _not_an_image,
    "missing language": _missing_language,
    "no alpha channel": _no_transparency,
    "opaque background": _opaque_background,
    "unknown file": _unknown_file,
    "symbolic link": _symlink,
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_pack_is_refused_naming_the_file_and_nothing_changes(case, pack, state, capsys):
    expected = BROKEN[case](pack)
    before = tree(state)
    status, out, err = install(pack, state, capsys)
    assert status == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert [e for e in errors if expected in e], err
    assert len(errors) == 1, err  # one problem, one message
    assert "nothing was changed" in err
    assert tree(state) == before


def test_every_problem_of_a_pack_gets_its_own_message(pack, state, capsys):
    expected = [_missing_image(pack), _wrong_size(pack), _not_an_image(pack), _missing_language(pack)]
    before = tree(state)
    status, out, err = install(pack, state, capsys)
    assert status == 2
    errors = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(errors) == 4, err
    for text in expected:
        assert any(text in e for e in errors), (text, err)
    assert tree(state) == before


def _zip_of_ocean(path: Path, extra: dict[str, bytes] | None = None, *, link: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p in OCEAN.rglob("*"):
            if p.is_file():
                z.write(p, "ocean/" + p.relative_to(OCEAN).as_posix())
        for name, data in (extra or {}).items():
            z.writestr(name, data)
        if link:
            info = zipfile.ZipInfo(link)
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
            z.writestr(info, "/etc/passwd")
    return path


@pytest.mark.parametrize(
    "member, expected",
    [
        ("ocean/../evil.png", "ocean/../evil.png: a path outside the pack's folder"),
        ("../../etc/cron.d/evil", "../../etc/cron.d/evil: a path outside the pack's folder"),
        ("/etc/evil.png", "/etc/evil.png: an absolute path"),
        ("elsewhere/board/bat.png", "elsewhere/board/bat.png: outside the pack's folder ocean"),
    ],
)
def test_a_zip_with_paths_outside_its_folder_is_refused(member, expected, tmp_path, state, capsys):
    zpath = _zip_of_ocean(tmp_path / "bad.zip", {member: png_of(128, 128)})
    before = tree(state)
    status, out, err = install(zpath, state, capsys)
    assert status == 2
    assert f"error: {zpath}:{expected}" in err, err
    assert tree(state) == before
    assert not (tmp_path / "evil.png").exists()


def test_a_zip_with_a_symbolic_link_or_a_bomb_is_refused(tmp_path, state, capsys):
    zpath = _zip_of_ocean(tmp_path / "bad.zip", {"ocean/COPYING": b"\0" * (200 * 1024 * 1024)}, link="ocean/LICENSE")
    before = tree(state)
    status, out, err = install(zpath, state, capsys)
    assert status == 2
    assert f"{zpath}:ocean/LICENSE: a symbolic link" in err
    assert f"{zpath}:ocean/COPYING: inflates" in err and "zip bomb" in err
    assert tree(state) == before


def test_a_picture_whose_data_inflates_past_its_size_is_refused(pack, state, capsys):
    h = struct.pack(">IIBBBBB", 128, 128, 8, 6, 0, 0, 0)

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    bomb = zlib.compress(b"\0" * (50 * 1024 * 1024), 9)  # 50 MB of rows in about 50 kB
    (pack / "board" / "map.png").write_bytes(
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", h) + chunk(b"IDAT", bomb) + chunk(b"IEND", b"")
    )
    status, out, err = install(pack, state, capsys)
    assert status == 2
    assert f"{pack / 'board' / 'map.png'}: its image data inflates to more than" in err


# ------------------------------------------------------------------ at run time
def test_a_theme_that_breaks_later_falls_back_to_the_built_in_one_with_one_log_line(tmp_path, capsys, caplog):
    state = tmp_path / "state"
    assert install(OCEAN, state, capsys)[0] == 0
    assert not load(state, "ocean").builtin
    pixels = state / "themes" / "ocean" / "pixels.rgba"
    data = bytearray(pixels.read_bytes())
    data[1000] ^= 0xFF  # one damaged byte
    pixels.write_bytes(bytes(data))
    for breakage in ("damaged", "missing", "manifest", "unknown"):
        if breakage == "missing":
            pixels.unlink()
        elif breakage == "manifest":
            (state / "themes" / "ocean" / "theme.json").write_text("{not json")
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="kiosk.themes"):
            theme = load(state, "ocean" if breakage != "unknown" else "nowhere")
        assert theme is BUILTIN
        warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1 and "showing the built-in theme" in warnings[0].getMessage(), breakage


def test_the_theme_names_the_treasures_in_every_language(tmp_path, capsys):
    state = tmp_path / "state"
    assert install(OCEAN, state, capsys)[0] == 0
    t = ThemedTranslator(Translator("en"), load(state, "ocean"))
    assert t.t("treasure.bat") == "Fish" and t.treasure("owl") == "Lifebuoy"
    assert t.t("treasure.bat", language="fr") == "Poisson"
    assert t.t("common.back") == Translator("en").t("common.back")  # other texts as before
    t.set_language("et")
    assert t.t("treasure.bat") == "Kala"


def test_the_config_names_a_theme_by_its_id(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[display]\ntheme = "ocean"\n')
    assert cfg.load(path).display.theme == "ocean"
    assert cfg.Config().display.theme == "builtin"
    path.write_text('[display]\ntheme = "../etc"\n')
    with pytest.raises(cfg.ConfigError, match=r"\[display\] theme"):
        cfg.load(path)


def test_the_install_refuses_a_pack_path_that_does_not_exist(tmp_path, capsys):
    status, out, err = install(tmp_path / "nowhere", tmp_path / "state", capsys)
    assert status == 2 and "nowhere: cannot read the theme pack" in err
    assert not (tmp_path / "state").exists()


def test_the_ocean_generator_writes_what_is_committed():
    """The committed manifest is the generator's (the pictures need a GL context: the display test)."""
    from kiosk.themes.make_ocean import manifest

    assert json.loads((OCEAN / "theme.json").read_text(encoding="utf-8")) == manifest()
    assert os.path.getsize(OCEAN / "board" / "bat.png") < 20_000
