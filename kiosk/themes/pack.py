"""A theme pack: what it holds, how it is checked completely, and how it is installed.

A pack is a folder or a zip of one (docs/themes.md)::

    theme.json            the manifest: id, title and the treasures' names in every language, colours
    board/<treasure>.png  the 24 board treasures (engine/labyrinth/tiles.py), e.g. board/bat.png
    cards/<treasure>.png  the 25 card treasures (engine/cards/deck.py), e.g. cards/anchor.png
    wordmark.png          optional: the museum's mark, shown on the attract screen
    README, LICENSE       optional (also .txt or .md): kept, never read

The file names are the engine's treasure words, so a pack replaces pictures and
names only: games, saves and records stay the same whichever theme is shown.

:func:`read_pack` checks everything before anything is touched and returns one
message per problem, each naming its file: the manifest (format, id, a title
and every treasure's name in each of the kiosk's languages, colours), the
files (none missing, none unknown, no links, nothing outside the pack's folder,
no absolute paths, nothing too big -- a zip's members by their declared and
their real size), and each picture (a PNG, exactly PICTURE_PX square, with an
alpha channel and transparent corners). :func:`install` then writes the pack
beside the installed themes and renames it into place.
"""

from __future__ import annotations

import errno
import fcntl
import hashlib
import json
import logging
import lzma
import os
import re
import shutil
import stat
import tempfile
import zipfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any, Callable

from kiosk import games
from kiosk.store.safeio import SMALL_LIMIT, UnsafeFile, loads_json, own_dir, read_bounded, refuse_linked
from kiosk.languages import LANGUAGES
from kiosk.themes import png

#: The manifest's format number (a later kiosk may read more).
FORMAT = 1
MANIFEST = "theme.json"
#: Every treasure picture is a square of this many pixels: sharp on the 7-inch screen's board and cards
#: (drawn at most about 100 px there) and small enough to check and decode in a few seconds on a Pi.
PICTURE_PX = 128


def kinds() -> dict[str, tuple[str, ...]]:
    """The sets of pictures a pack holds: folder -> its treasures, as the games declare them
    (``GameType.theme_kinds``), in the games' order."""
    return {kind: tuple(names) for game in games.all_games() for kind, names in game.theme_kinds.items()}


WORDMARK = "wordmark.png"
WORDMARK_MIN = (32, 16)
WORDMARK_MAX = (1024, 512)
#: Files a pack may carry for people (kept, never read).
NOTES = re.compile(r"(README|LICEN[CS]E|COPYING)(\.(txt|md))?", re.IGNORECASE)
#: What archivers add on their own; skipped, never read or copied.
LITTER = re.compile(r"(^|/)(__MACOSX/|\.DS_Store$|Thumbs\.db$)")
#: A theme's id: its folder name under the state directory and the value of [display] theme.
ID_PATTERN = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")
BUILTIN_ID = "builtin"
#: The colours a pack may set, as "#rrggbb".
COLOURS = ("medallion", "medallion_rim", "wordmark")
NAME_MAX = 40  # characters: a name fits the player panel's caption
PICTURE_LIMIT = 1024 * 1024  # bytes of one PNG
NOTE_LIMIT = 256 * 1024
PACK_LIMIT = 64 * 1024 * 1024  # bytes of a whole pack, inflated
MEMBERS_MAX = 200
#: A zip member that inflates more than this many times its compressed size is refused (a zip bomb);
#: PNGs hardly compress at all and a manifest about 5 times.
RATIO_MAX = 100

#: What reading a damaged or unusual zip member raises (a bad CRC, a broken deflate stream, a
#: compression this Python lacks such as Deflate64, AES encryption, LZMA damage): each becomes one line.
ZIP_ERRORS = (
    OSError,
    ValueError,
    EOFError,
    zipfile.BadZipFile,
    zlib.error,
    lzma.LZMAError,
    NotImplementedError,
    RuntimeError,
)
#: How deep a pack's folder may nest (theme.json, board/bat.png): a deeper tree is refused unwalked.
DEPTH_MAX = 3

log = logging.getLogger(__name__)

Problems = list


@dataclass
class Pack:
    """A checked pack: its manifest and, per file in the pack, its bytes; the pictures decoded."""

    manifest: dict[str, Any]
    files: dict[str, bytes] = field(default_factory=dict)
    pixels: dict[tuple[str, str], bytes] = field(default_factory=dict)  # (kind, treasure) -> RGBA
    wordmark: tuple[int, int, bytes] | None = None

    @property
    def id(self) -> str:
        return str(self.manifest["id"])


def expected_files() -> list[str]:
    """The pictures every pack holds, by their path in the pack."""
    return [f"{kind}/{name}.png" for kind, names in kinds().items() for name in names]


# ------------------------------------------------------------------ the manifest
def check_manifest(data: Any) -> list[str]:
    """The problems of a decoded manifest (messages without the file name); empty when usable."""
    if not isinstance(data, dict):
        return ["must be a JSON object ({ ... })"]
    out: list[str] = []
    known = {"format", "id", "title", "colours", *kinds()}
    for key in data:
        if key not in known:
            out.append(f"unknown key {str(key)[:40]!r} (known: {', '.join(sorted(known))})")
    if data.get("format") != FORMAT:
        out.append(f"format must be {FORMAT}, not {json.dumps(data.get('format'))[:40]}")
    out += _check_id(data.get("id"))
    out += _names(data.get("title"), "title")
    for kind, treasures in kinds().items():
        out += _check_treasures(kind, treasures, data.get(kind))
    out += _check_colours(data.get("colours", {}))
    return out


def _check_id(ident: Any) -> list[str]:
    if not isinstance(ident, str) or not ID_PATTERN.fullmatch(ident):
        return [
            f"id must be 1 to 32 of a-z, 0-9, - and _ (starting with a letter or digit), not {json.dumps(ident)[:40]}"
        ]
    if ident == BUILTIN_ID:
        return [f"id {BUILTIN_ID!r} is the kiosk's own drawn theme; choose another"]
    return []


def _check_treasures(kind: str, treasures: tuple[str, ...], table: Any) -> list[str]:
    """A name table per treasure of `kind`: every treasure, nothing else."""
    if not isinstance(table, dict):
        return [f'{kind} must be an object with a name table per treasure ({{"{treasures[0]}": {{"en": ...}}, ...}})']
    out = [
        f"{kind}: unknown treasure {str(name)[:40]!r} (the {kind} treasures are {', '.join(treasures)})"
        for name in table
        if name not in treasures
    ]
    for name in treasures:
        if name not in table:
            out.append(f"{kind}.{name}: missing (a name in each language for every treasure)")
        else:
            out += _names(table[name], f"{kind}.{name}")
    return out


def _check_colours(colours: Any) -> list[str]:
    if not isinstance(colours, dict):
        return ['colours must be an object like {"medallion": "#fffaee"}']
    out = []
    for key, value in colours.items():
        if key not in COLOURS:
            out.append(f"colours: unknown colour {str(key)[:40]!r} (known: {', '.join(COLOURS)})")
        elif not isinstance(value, str) or not re.fullmatch(r"#[0-9a-fA-F]{6}", value):
            out.append(f'colours.{key} must be written "#rrggbb", not {json.dumps(value)[:40]}')
    return out


def _names(table: Any, where: str) -> list[str]:
    """Problems of a name table {language: text} (every language of the kiosk, nothing else)."""
    if not isinstance(table, dict):
        return [f"{where} must be an object with a text per language ({', '.join(LANGUAGES)})"]
    out = []
    missing = [lang for lang in LANGUAGES if lang not in table]
    if missing:
        out.append(
            f"{where}: no name in {', '.join(missing)} (every language of the kiosk needs one: {', '.join(LANGUAGES)})"
        )
    for lang, text in table.items():
        if lang not in LANGUAGES:
            out.append(f"{where}: {str(lang)[:20]!r} is not a language of the kiosk ({', '.join(LANGUAGES)})")
        elif not isinstance(text, str) or not text.strip():
            out.append(f"{where}.{lang} must be a non-empty text")
        elif len(text) > NAME_MAX or any(ord(ch) < 32 for ch in text):
            out.append(f"{where}.{lang} must be one line of at most {NAME_MAX} characters")
    return out


def colour(manifest: dict[str, Any], key: str, default: tuple[int, int, int]) -> tuple[int, int, int]:
    """A colour of a checked manifest as (r, g, b), or `default` when the pack does not set it."""
    text = manifest.get("colours", {}).get(key)
    if not text:
        return default
    return (int(text[1:3], 16), int(text[3:5], 16), int(text[5:7], 16))


# ------------------------------------------------------------------ reading a pack
class _Source:
    """The files of a pack, by their path inside it ("board/bat.png"): a folder's or a zip's."""

    failed = False  # it could not be listed at all: nothing more to say

    def refuse(self, problems: list[str], name: str, message: str) -> None:
        """A file that is there but not read (a link, a device): its one message (not also "missing")."""
        problems.append(message)
        self.refused.add(name)

    def __init__(self, where: Callable[[str], str]):
        self.where = where  # a file's path inside the pack -> how messages name it
        self.names: list[str] = []
        self.refused: set[str] = set()

    def read(self, name: str, limit: int) -> bytes:
        raise NotImplementedError


class _Folder(_Source):
    def __init__(self, root: Path, problems: list[str]):
        super().__init__(lambda name: str(root / name))
        self.root = root
        total = 0
        for dirpath, dirnames, filenames in os.walk(root, followlinks=False, onerror=self._unlisted(problems)):
            here = Path(dirpath)
            depth = len(here.relative_to(root).parts)
            for d in list(dirnames):
                if (here / d).is_symlink():
                    problems.append(f"{here / d}: a symbolic link; a pack holds only its own files")
                    dirnames.remove(d)
                elif depth + 1 >= DEPTH_MAX:
                    problems.append(f"{here / d}: folders nested too deep (a pack has board/ and cards/ only)")
                    dirnames.remove(d)
            for f in filenames:
                path = here / f
                rel = path.relative_to(root).as_posix()
                if LITTER.search(rel):
                    continue
                try:
                    st = path.lstat()
                except OSError as exc:
                    self.refuse(problems, rel, f"{path}: cannot be read ({exc.strerror or exc})")
                    continue
                if stat.S_ISLNK(st.st_mode):
                    self.refuse(problems, rel, f"{path}: a symbolic link; a pack holds only its own files")
                elif not stat.S_ISREG(st.st_mode):
                    self.refuse(problems, rel, f"{path}: not a regular file")
                else:
                    total += st.st_size
                    self.names.append(rel)
        if total > PACK_LIMIT:
            problems.append(f"{root}: {total} bytes of files, more than the {PACK_LIMIT} a pack may hold")
            self.failed = True

    @staticmethod
    def _unlisted(problems: list[str]) -> Callable[[OSError], None]:
        def say(exc: OSError) -> None:
            problems.append(f"{exc.filename}: cannot be listed ({exc.strerror or exc})")

        return say

    def read(self, name: str, limit: int) -> bytes:
        return read_bounded(self.root / name, limit, follow_symlinks=False)


class _Zip(_Source):
    def __init__(self, path: Path, problems: list[str]):
        super().__init__(lambda name: f"{path}:{self.prefix}{name}")
        self.prefix = ""
        self.members: dict[str, zipfile.ZipInfo] = {}
        try:
            size = path.stat().st_size
            if size > PACK_LIMIT:
                problems.append(f"{path}: {size} bytes, more than the {PACK_LIMIT} a pack may hold")
                self.failed = True
                return
            self.zf = zipfile.ZipFile(path)
            infos = self.zf.infolist()
        except ZIP_ERRORS as exc:
            problems.append(f"{path}: not a readable zip file ({exc})")
            self.failed = True
            return
        if len(infos) > MEMBERS_MAX:
            problems.append(f"{path}: {len(infos)} members, more than the {MEMBERS_MAX} a pack may hold")
            self.failed = True
            return
        total, names = 0, []
        for info in infos:
            name = "/".join(PurePosixPath(info.filename.replace("\\", "/")).parts)
            if not self._usable(path, info, name, problems):
                continue
            if name in self.members:
                problems.append(f"{path}:{info.filename}: in the zip twice")
                continue
            total += info.file_size
            self.members[name] = info
            names.append(name)
        if total > PACK_LIMIT:
            problems.append(f"{path}: inflates to {total} bytes, more than the {PACK_LIMIT} a pack may hold")
            self.failed = True
            return
        # the pack's folder: the zip's top, or its one folder holding theme.json ("ocean/theme.json")
        folders = [n[: -len(MANIFEST)] for n in names if n.count("/") == 1 and n.endswith("/" + MANIFEST)]
        if MANIFEST not in names and len(folders) == 1:
            self.prefix = folders[0]
        self.names = [n[len(self.prefix) :] for n in names if n.startswith(self.prefix)]
        self.refused = {n[len(self.prefix) :] for n in self.refused if n.startswith(self.prefix)}
        for n in names:
            if not n.startswith(self.prefix):
                problems.append(f"{path}:{n}: outside the pack's folder {self.prefix.rstrip('/')}")

    def _usable(self, path: Path, info: zipfile.ZipInfo, name: str, problems: list[str]) -> bool:
        """Whether a member is a file of the pack to read (else a problem is said, or it is skipped)."""
        here = f"{path}:{info.filename}"
        if info.filename.startswith(("/", "\\")) or re.match(r"[A-Za-z]:", info.filename):
            problems.append(f"{here}: an absolute path; every file of a pack lies inside its folder")
            return False
        if ".." in name.split("/"):
            problems.append(f"{here}: a path outside the pack's folder ('..')")
            return False
        if LITTER.search(info.filename) or info.is_dir():
            return False
        why = None
        if stat.S_ISLNK(info.external_attr >> 16):
            why = "a symbolic link; a pack holds only its own files"
        elif info.flag_bits & 0x1:
            why = "encrypted; a pack is not"
        elif info.file_size > max(info.compress_size, 1) * RATIO_MAX and info.file_size > 1024 * 1024:
            ratio = info.file_size // max(info.compress_size, 1)
            why = f"inflates {ratio} times (to {info.file_size} bytes): a zip bomb, not a picture"
        if why is not None:
            self.refuse(problems, name, f"{here}: {why}")
            return False
        return True

    def read(self, name: str, limit: int) -> bytes:
        info = self.members[self.prefix + name]
        if info.file_size > limit:
            raise UnsafeFile(name, f"{info.file_size} bytes, more than the {limit} read here")
        try:
            with self.zf.open(info) as f:
                data = f.read(limit + 1)  # the declared size may lie: never more than the limit
        except OSError:
            raise
        except ZIP_ERRORS as exc:  # the decoders' own exceptions, as one OSError with a short reason
            raise UnsafeFile(name, f"cannot be unpacked ({type(exc).__name__}: {str(exc)[:120]})", errno.EIO) from None
        if len(data) > limit:
            raise UnsafeFile(name, f"more than the {limit} bytes read here")
        return data


def read_pack(path: Path | str) -> tuple[list[str], Pack | None]:
    """Check the pack at `path` (a folder or a zip) completely: (problems, the pack when there are none).

    Every problem is one message naming its file; nothing is written anywhere.
    """
    path = Path(path)
    problems: list[str] = []
    try:
        st = path.stat()  # the path named on the command line may be a link
    except OSError as exc:
        return [f"{path}: cannot read the theme pack ({exc.strerror or exc})"], None
    if stat.S_ISDIR(st.st_mode):
        source: _Source = _Folder(path, problems)
    elif stat.S_ISREG(st.st_mode):
        source = _Zip(path, problems)
    else:
        return [f"{path}: a theme pack is a folder or a .zip file"], None
    if source.failed:
        return problems, None
    names = set(source.names)
    manifest = _read_manifest(source, names, problems)
    pack = Pack(manifest if isinstance(manifest, dict) else {})
    wanted = set(expected_files())
    for name in sorted(names - wanted - {MANIFEST, WORDMARK}):
        if not NOTES.fullmatch(name):
            problems.append(
                f"{source.where(name)}: not part of a theme pack (a pack holds {MANIFEST}, "
                f"board/<treasure>.png, cards/<treasure>.png, {WORDMARK} and a README or LICENSE)"
            )
    for name in expected_files():
        if name in source.refused:
            continue
        if name not in names:
            problems.append(f"{source.where(name)}: missing")
            continue
        kind, treasure = name[:-4].split("/")
        rgba = _picture(source, name, problems, pack)
        if rgba is not None:
            pack.pixels[(kind, treasure)] = rgba
    _read_extras(source, names, problems, pack)
    if problems:
        return problems, None
    return [], pack


def _read_manifest(source: _Source, names: set[str], problems: list[str]) -> Any:
    """The decoded manifest (None when it is missing or unreadable); its problems added to `problems`."""
    if MANIFEST in source.refused:
        return None
    if MANIFEST not in names:
        problems.append(f"{source.where(MANIFEST)}: missing (every pack has a manifest)")
        return None
    try:
        manifest = loads_json(source.read(MANIFEST, SMALL_LIMIT))
    except ZIP_ERRORS as exc:
        problems.append(f"{source.where(MANIFEST)}: not a readable JSON manifest ({_reason(exc)})")
        return None
    problems += [f"{source.where(MANIFEST)}: {p}" for p in check_manifest(manifest)]
    return manifest


def _read_extras(source: _Source, names: set[str], problems: list[str], pack: Pack) -> None:
    """The optional wordmark (checked like a picture, any size in its bounds) and the notes (kept)."""
    if WORDMARK in names:
        data = _read(source, WORDMARK, PICTURE_LIMIT, problems)
        if data is not None:
            pack.files[WORDMARK] = data
            try:
                pack.wordmark = _check_png(data, None)
            except png.PngError as exc:
                problems.append(f"{source.where(WORDMARK)}: {exc}")
    for name in names:
        if NOTES.fullmatch(name):
            data = _read(source, name, NOTE_LIMIT, problems)
            if data is not None:
                pack.files[name] = data


def _reason(exc: BaseException) -> str:
    return getattr(exc, "reason", None) or getattr(exc, "strerror", None) or str(exc)


def _read(source: _Source, name: str, limit: int, problems: list[str]) -> bytes | None:
    try:
        return source.read(name, limit)
    except ZIP_ERRORS as exc:
        problems.append(f"{source.where(name)}: cannot be read ({_reason(exc)})")
        return None


def _picture(source: _Source, name: str, problems: list[str], pack: Pack) -> bytes | None:
    data = _read(source, name, PICTURE_LIMIT, problems)
    if data is None:
        return None
    pack.files[name] = data
    try:
        _w, _h, rgba = _check_png(data, PICTURE_PX)
    except png.PngError as exc:
        problems.append(f"{source.where(name)}: {exc}")
        return None
    side = PICTURE_PX * 4
    corners = (3, side - 1, (PICTURE_PX - 1) * side + 3, PICTURE_PX * side - 1)  # the alpha bytes
    if any(rgba[i] for i in corners):
        problems.append(
            f"{source.where(name)}: its background is not transparent (its four corner pixels "
            "must have alpha 0, so the tile shows around the treasure)"
        )
        return None
    return rgba


def _check_png(data: bytes, px: int | None) -> tuple[int, int, bytes]:
    """Header, size and transparency, then a bounded decode; PngError says what is wrong."""
    h = png.header(data)
    if px is not None and (h.width, h.height) != (px, px):
        raise png.PngError(f"{h.width}x{h.height} pixels; every treasure picture is {px}x{px}")
    if px is None and not (
        WORDMARK_MIN[0] <= h.width <= WORDMARK_MAX[0] and WORDMARK_MIN[1] <= h.height <= WORDMARK_MAX[1]
    ):
        raise png.PngError(
            f"{h.width}x{h.height} pixels; a wordmark is {WORDMARK_MIN[0]}x{WORDMARK_MIN[1]} "
            f"to {WORDMARK_MAX[0]}x{WORDMARK_MAX[1]}"
        )
    if not h.transparent:
        raise png.PngError("has no transparency (save it as RGBA, with an alpha channel)")
    png.check_inflated_size(data, h)
    return png.decode_rgba(data)


# ------------------------------------------------------------------ installing
PIXELS = "pixels.rgba"
INSTALLED = "installed.json"


def pixel_order() -> list[tuple[str, str]]:
    """The order of the pictures in an installed theme's pixels.rgba."""
    return [(kind, name) for kind, names in kinds().items() for name in names]


def main_colour(rgba: bytes) -> tuple[int, int, int]:
    """The mean colour of a picture's opaque pixels (a card medallion's rim: a second cue for matching)."""
    r = g = b = n = 0
    for i in range(0, len(rgba), 16):  # every fourth pixel is plenty
        if rgba[i + 3] >= 128:
            r += rgba[i]
            g += rgba[i + 1]
            b += rgba[i + 2]
            n += 1
    if not n:
        return (128, 128, 128)
    return (r // n, g // n, b // n)


def installed_files(pack: Pack) -> dict[str, bytes]:
    """Every file an installed theme holds: the pack's own files, its pictures decoded, and their index."""
    pixels = b"".join(pack.pixels[key] for key in pixel_order())
    index: dict[str, Any] = {
        "format": FORMAT,
        "id": pack.id,
        "picture_px": PICTURE_PX,
        "sha256": hashlib.sha256(pixels).hexdigest(),
        "rims": {f"{k}/{n}": list(main_colour(pack.pixels[(k, n)])) for k, n in pixel_order()},
        "wordmark": None,
    }
    files = dict(pack.files)
    files[MANIFEST] = json.dumps(pack.manifest, ensure_ascii=False, indent=1).encode("utf-8")
    files[PIXELS] = pixels
    if pack.wordmark is not None:
        w, h, rgba = pack.wordmark
        files["wordmark.rgba"] = rgba
        index["wordmark"] = [w, h, hashlib.sha256(rgba).hexdigest()]
    files[INSTALLED] = json.dumps(index, indent=1).encode("utf-8")
    return files


def themes_dir(state_dir: Path | str) -> Path:
    """Where installed themes live: one folder per theme id."""
    return Path(state_dir) / "themes"


def install(pack: Pack, state_dir: Path | str) -> Path:
    """Write a checked pack into the state directory: into a folder beside the themes, each file
    synced, then renamed into place (an older copy of the same id is replaced, then removed)."""
    root = own_dir(themes_dir(state_dir))  # a link out of the state directory is not written through
    with _install_lock(root, wait=True):
        remove_leftovers(state_dir, locked=True)
        return _install(pack, root)


def _install(pack: Pack, root: Path) -> Path:
    target = root / pack.id
    tmp = Path(tempfile.mkdtemp(dir=root, prefix=f".new-{pack.id}-"))
    try:
        tmp.chmod(0o755)  # installed by root, read by the kiosk's own user
        for name, data in installed_files(pack).items():
            path = tmp / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(path, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
        old = None
        if target.exists() or target.is_symlink():
            old = root / f".old-{pack.id}-{os.getpid()}"
            os.rename(target, old)
        try:
            os.rename(tmp, target)
        except OSError:
            if old is not None:
                os.rename(old, target)
            raise
        _sync_dir(root)
        if old is not None:
            shutil.rmtree(old, ignore_errors=True)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)
    return target


_LEFTOVER = re.compile(r"\.(new|old)-([a-z0-9][a-z0-9_-]{0,31})-[^/]*")
INSTALL_LOCK = ".install.lock"


class _install_lock:
    """An flock on themes/.install.lock: one install at a time, and no clean-up under a running one."""

    def __init__(self, root: Path, wait: bool) -> None:
        self.root, self.wait, self.fd = root, wait, -1

    def __enter__(self) -> bool:
        self.fd = os.open(self.root / INSTALL_LOCK, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        try:
            refuse_linked(self.fd, self.root / INSTALL_LOCK)
        except OSError:
            os.close(self.fd)
            raise
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | (0 if self.wait else fcntl.LOCK_NB))
        except BlockingIOError:
            return False
        return True

    def __exit__(self, *exc: object) -> None:
        os.close(self.fd)


def remove_leftovers(state_dir: Path | str, locked: bool = False) -> list[str]:
    """Remove what an install cut short (a power cut, a kill) left in themes/: a half-written
    ``.new-ID-*`` folder goes; an ``.old-ID-*`` copy is put back when ID itself is missing (the cut
    came between the two renames), else removed. Returns what was done, one line each (for the log).
    Never raises: an install running at the same time is left alone."""
    root = themes_dir(state_dir)
    done: list[str] = []
    try:
        if not os.path.isdir(root) or os.path.islink(root):
            return done
        if not locked:
            with _install_lock(root, wait=False) as free:
                return remove_leftovers(state_dir, locked=True) if free else done
        for entry in sorted(os.listdir(root)):
            m = _LEFTOVER.fullmatch(entry)
            path = root / entry
            if m is None or path.is_symlink() or not path.is_dir():
                continue
            target = root / m.group(2)
            if m.group(1) == "old" and not os.path.lexists(target):
                os.rename(path, target)
                done.append(f"put back the theme {m.group(2)} that an interrupted install had moved aside")
            else:
                shutil.rmtree(path)
                done.append(f"removed {entry} left by an interrupted theme install")
        if done:
            _sync_dir(root)
    except OSError as exc:
        log.warning("could not tidy %s after an interrupted theme install: %s", root, exc)
    for line in done:
        log.info("%s", line)
    return done


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = [
    "BUILTIN_ID",
    "COLOURS",
    "FORMAT",
    "ID_PATTERN",
    "kinds",
    "MANIFEST",
    "PICTURE_PX",
    "Pack",
    "check_manifest",
    "colour",
    "expected_files",
    "install",
    "installed_files",
    "main_colour",
    "pixel_order",
    "read_pack",
    "remove_leftovers",
    "themes_dir",
]
