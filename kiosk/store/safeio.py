"""Reading files the kiosk does not trust, and the file operations of its durable writes.

Every file the kiosk reads (its saves, the history, the configuration, input
scripts, the PIN lock-out, theme packs) may be damaged, replaced by a FIFO or
a link to a device, or simply huge. :func:`read_bounded` reads one without
ever blocking or filling the memory: it opens with ``O_NONBLOCK`` (a FIFO
opens at once instead of waiting for a writer), refuses anything but a regular
file after ``fstat``, optionally refuses a symbolic link (``O_NOFOLLOW``, for
the state directory the kiosk owns) and reads at most ``limit`` bytes.
:func:`loads_json` decodes JSON with bounds on nesting and number size, and
without ``NaN``/``Infinity``, so a hostile file ends in one ``ValueError``.

:data:`OPS` is the one place the durable writes (persistence, history) touch
the disk: each write, fsync, rename and unlink goes through it in order. The
crash-point tests replace it with one that stops the program at step N.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any, BinaryIO, Iterator

from kiosk.errors import KioskError

#: Size limits of the files the kiosk reads (bytes); each is far above a real file's size.
SAVE_LIMIT = 4 * 1024 * 1024  # a save is about 5 kB
CONFIG_LIMIT = 1024 * 1024  # the example config is about 8 kB
SCRIPT_LIMIT = 8 * 1024 * 1024  # scripts of thousands of lines
SMALL_LIMIT = 64 * 1024  # small state files (the PIN lock-out), theme pack manifests
RECORD_LIMIT = 4 * 1024 * 1024  # a game record (docs/notation.md) is a few kB; a turn limit of 10^6 fits
RECORD_LINE_LIMIT = 64 * 1024  # a record's longest line: a tag holding a start position of a few kB
#: JSON bounds: the kiosk's own files nest 5 deep and hold no number longer than 20 digits.
JSON_MAX_DEPTH = 32
JSON_MAX_DIGITS = 40


class UnsafeFile(KioskError, OSError):
    """A file that is not read: not a regular file, a link where none may be, or too big.

    ``reason`` is a short phrase for the log ("a FIFO, not a regular file").
    """

    def __init__(self, path: Path | str, reason: str, err: int = errno.EINVAL) -> None:
        super().__init__(err, reason, str(path))
        self.reason = reason


def kind_of(mode: int) -> str:
    """What a file of this ``st_mode`` is, for a log line ("a FIFO", "a directory")."""
    for test, name in (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISLNK, "a symbolic link"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def read_bounded(path: Path | str, limit: int, *, follow_symlinks: bool = True) -> bytes:
    """The bytes of the regular file `path`, at most `limit` of them; never blocks.

    Raises FileNotFoundError when it is absent, :class:`UnsafeFile` when it is
    not a regular file (FIFO, device, socket, directory), a symbolic link with
    ``follow_symlinks=False``, or larger than `limit`; other OSErrors as they come.
    """
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow_symlinks:
            raise UnsafeFile(path, "a symbolic link, which is not followed here") from None
        if e.errno == errno.ENXIO:  # a FIFO-like socket file or a device without a driver
            raise UnsafeFile(path, "not a regular file") from None
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile(
                path,
                f"{kind_of(st.st_mode)}, not a regular file",
                errno.EISDIR if stat.S_ISDIR(st.st_mode) else errno.EINVAL,
            )
        if st.st_size > limit:
            raise UnsafeFile(path, f"{st.st_size} bytes, more than the {limit} read here", errno.EFBIG)
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > limit:  # it grew while being read
            raise UnsafeFile(path, f"more than the {limit} bytes read here", errno.EFBIG)
        return b"".join(chunks)
    finally:
        os.close(fd)


def open_bounded(path: Path | str, *, follow_symlinks: bool = True) -> BinaryIO:
    """`path` opened for reading as :func:`read_bounded` opens it (never blocks, regular files only,
    no link with ``follow_symlinks=False``), for a file read as a stream of any size."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    if not follow_symlinks:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as e:
        if e.errno == errno.ELOOP and not follow_symlinks:
            raise UnsafeFile(path, "a symbolic link, which is not followed here") from None
        if e.errno == errno.ENXIO:
            raise UnsafeFile(path, "not a regular file") from None
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(path, f"{kind_of(mode)}, not a regular file")
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb", buffering=0)


def split_lines(f: BinaryIO, limit: int, chunk: int = 1 << 20) -> Iterator[bytes | None]:
    """The lines of stream `f` without their newlines, in memory bounded by `limit` + `chunk`:
    a line longer than `limit` is skipped and stands as None."""
    rest = b""
    too_long = False
    while True:
        data = f.read(chunk)
        if not data:
            break
        parts = (rest + data).split(b"\n")
        rest = parts.pop()
        for part in parts:
            yield None if too_long or len(part) > limit else part
            too_long = False
        if len(rest) > limit:
            too_long, rest = True, b""
    if too_long or len(rest) > limit:
        yield None
    elif rest:
        yield rest


def is_own_dir(path: Path | str) -> bool:
    """True when `path` is a real directory (not a link to one); False when it is absent.

    Raises :class:`UnsafeFile` when something else is there: a link, a file, a FIFO."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return False
    if stat.S_ISDIR(st.st_mode):
        return True
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeFile(path, "a symbolic link, which is not followed here", errno.ELOOP)
    raise UnsafeFile(path, f"{kind_of(st.st_mode)}, not a directory", errno.ENOTDIR)


def own_dir(path: Path | str) -> Path:
    """The sub-folder `path` of the state directory, created if absent, never a link out of it.

    Raises :class:`UnsafeFile` when a link or a non-directory is in its place (nothing is
    written or pruned through it), another OSError when it cannot be created."""
    path = Path(path)
    if not is_own_dir(path):
        OPS.mkdir(path)
        if not is_own_dir(path):  # pragma: no cover - replaced between the two calls
            raise UnsafeFile(path, "not a directory")
    return path


def read_text(path: Path | str, limit: int, *, follow_symlinks: bool = True, line_limit: int | None = None) -> str:
    """A text file the kiosk does not trust, as :func:`read_bounded` reads it, decoded as UTF-8
    (a byte-order mark that editors put first is dropped). UnicodeDecodeError when it is not UTF-8,
    ValueError naming the first line longer than `line_limit` (parsers of one huge line can take
    a hundred times its size in memory)."""
    return check_lines(read_bounded(path, limit, follow_symlinks=follow_symlinks).decode("utf-8-sig"), line_limit)


def check_lines(text: str, line_limit: int | None) -> str:
    """`text`, or ValueError naming its first line longer than `line_limit` characters."""
    if line_limit is not None and len(text) > line_limit:
        for number, line in enumerate(text.splitlines(), 1):
            if len(line) > line_limit:
                raise ValueError(f"line {number} is {len(line)} characters long (at most {line_limit} here)")
    return text


def json_depth(text: str | bytes) -> int:
    """The deepest nesting of arrays and objects in JSON `text` (strings skipped), in one pass."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > JSON_MAX_DIGITS:
        raise ValueError(f"a number of {len(text.lstrip('-'))} digits (at most {JSON_MAX_DIGITS} here)")
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > 2 * JSON_MAX_DIGITS:
        raise ValueError(f"a number written with {len(text)} characters")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


#: One decoder for every call (a history of 270,000 lines would otherwise build as many).
_DECODER = json.JSONDecoder(parse_int=_parse_int, parse_float=_parse_float, parse_constant=_no_constant)


def loads_json(text: str | bytes, *, max_depth: int = JSON_MAX_DEPTH) -> Any:
    """Decode JSON or raise ValueError: no NaN/Infinity, no overflowing or 40+ digit numbers,
    nesting at most `max_depth` (before decoding: a deep file cannot reach Python's recursion limit)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    # Counting brackets runs in C; only text with more of them than the bound is walked in Python.
    depth = json_depth(text) if text.count("[") + text.count("{") > max_depth else 0
    if depth > max_depth:
        raise ValueError(f"nested {depth} deep (at most {max_depth} here)")
    try:
        return _DECODER.decode(text)
    except RecursionError:  # pragma: no cover - json_depth stops this first
        raise ValueError("nested too deep") from None


def read_json(path: Path | str, limit: int = SMALL_LIMIT, *, follow_symlinks: bool = False) -> Any:
    """A small JSON file the kiosk does not trust (theme pack manifests, state files), in one call.

    Raises FileNotFoundError, :class:`UnsafeFile` (not a regular file, too big), another
    OSError, or ValueError (not UTF-8, not JSON, nested too deep, a number too long or not finite).
    """
    return loads_json(read_bounded(path, limit, follow_symlinks=follow_symlinks))


# ------------------------------------------------------------- the durable writes' steps
class FileOps:
    """The disk operations of the kiosk's durable writes, one method per step.

    Persistence and history call these in the order that keeps every game at
    a crash point (docs/operations.md); tests subclass it to count the steps
    and stop the program at any one of them.
    """

    def mkstemp(self, directory: Path, prefix: str, suffix: str) -> tuple[int, str]:
        import tempfile

        return tempfile.mkstemp(dir=directory, prefix=prefix, suffix=suffix)

    def open(self, path: Path | str, flags: int, mode: int = 0o600) -> int:
        return os.open(path, flags, mode)

    def write(self, fd: int, data: bytes) -> None:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]

    def fsync(self, fd: int) -> None:
        os.fsync(fd)

    def close(self, fd: int) -> None:
        os.close(fd)

    def replace(self, src: Path | str, dst: Path | str) -> None:
        os.replace(src, dst)

    def unlink(self, path: Path | str) -> None:
        os.unlink(path)

    def mkdir(self, path: Path) -> None:
        path.mkdir(parents=True, exist_ok=True)


def refuse_linked(fd: int, path: Path | str) -> None:
    """:class:`UnsafeFile` unless the open file `fd` is a regular file with one name: a hard link
    planted in the state directory would have the kiosk write into another file (a lock's pid)."""
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        raise UnsafeFile(path, f"{kind_of(st.st_mode)}, not a regular file")
    if st.st_nlink > 1:
        raise UnsafeFile(path, f"a file with {st.st_nlink} links (a hard link), which is not written here")


def probe_writable(directory: Path) -> None:
    """Raise OSError when no file can be created in `directory`. The probe is a new file of a
    random name (``mkstemp``: ``O_CREAT|O_EXCL``, so it never opens a file or link already there:
    a planted ``.writable`` link to the history must not empty it), removed at once; one left by a
    crash is removed first (unlinking a name never touches what a link points to)."""
    for stale in Path(directory).glob(".writable.*.tmp"):
        OPS.unlink(stale)
    fd, probe = OPS.mkstemp(directory, ".writable.", ".tmp")
    OPS.close(fd)
    OPS.unlink(probe)


#: The operations in use (tests swap it for a counting one).
OPS = FileOps()


__all__ = [
    "CONFIG_LIMIT",
    "FileOps",
    "OPS",
    "RECORD_LIMIT",
    "RECORD_LINE_LIMIT",
    "SAVE_LIMIT",
    "SCRIPT_LIMIT",
    "SMALL_LIMIT",
    "UnsafeFile",
    "check_lines",
    "is_own_dir",
    "json_depth",
    "loads_json",
    "open_bounded",
    "own_dir",
    "probe_writable",
    "refuse_linked",
    "split_lines",
    "read_bounded",
    "read_json",
    "read_text",
]
