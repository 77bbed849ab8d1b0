"""The current game on disk: saved atomically after every action, resumed after a power cut.

A kiosk loses power without warning. The save is therefore written the way
that survives it: a temporary file in the same directory, write, flush,
fsync, ``os.replace`` over the old save, fsync the directory. At any instant
the save on disk is either the previous one or the new one, never half of
each. A temporary file left by a crash is incomplete by definition and is
removed on the next start.

On start, :meth:`GameStore.resume` decides what to do with the save:

- younger than ``resume_within_s``: load it and resume;
- older: move it to ``archive/`` (bounded) and start fresh;
- unreadable, truncated, wrong format version, invalid JSON, or a state the
  game's own ``from_dict`` rejects: move it to ``corrupt/`` (bounded) with a
  warning and start fresh.

It never raises: a bad save must not turn into a crash loop under systemd.
Only the state directory is touched, so it works with a read-only root when
the state directory is on a writable mount.

The game engine is not imported here: the loaders are passed in, e.g.
``GameStore(dir, loaders={name: load})`` (the kiosk passes each registered game's loader).
"""

from __future__ import annotations

import errno
import json
import logging
import math
import os
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping

from engine.outcome import GAME_OVER
from kiosk.errors import KioskError
from kiosk.store import safeio
from kiosk.store.safeio import SAVE_LIMIT, UnsafeFile, loads_json, read_bounded

log = logging.getLogger(__name__)

FORMAT = 1
SAVE_NAME = "current-game.json"
ARCHIVE_DIR = "archive"
CORRUPT_DIR = "corrupt"
ARCHIVE_KEEP = 50
CORRUPT_KEEP = 20


# ------------------------------------------------------------- durable writes
def fsync_dir(directory: Path) -> None:
    """Make a rename or a new file in `directory` durable.

    Some file systems (vfat on a USB stick, some FUSE mounts) refuse fsync on a
    directory; the rename itself is still done, so that is only logged.
    """
    ops = safeio.OPS
    try:
        fd = ops.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        log.debug("cannot open %s to fsync it: %s", directory, e)
        return
    try:
        ops.fsync(fd)
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
        log.debug("fsync of directory %s not supported: %s", directory, e)
    finally:
        ops.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash leaves either the old or the new file.

    Raises OSError when it cannot be done; the old file is then untouched and
    the temporary file removed.
    """
    path = Path(path)
    ops = safeio.OPS
    fd, tmp = ops.mkstemp(path.parent, f".{path.name}.", ".tmp")
    try:
        try:
            ops.write(fd, data)
            ops.fsync(fd)
        finally:
            ops.close(fd)
        ops.replace(tmp, path)
    except Exception:
        try:
            ops.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


#: The times a save or history line may carry (epoch seconds): 1970-01-01 to 2200-01-01 UTC.
#: A Pi without a real-time clock starts in 1970 (or at its last shutdown) until NTP answers;
#: the kiosk writes its clock's time into this range (:func:`clamp_time`) and reads back what it
#: wrote, whatever the clock said. Anything outside is damage.
TIME_RANGE = (0.0, 7_258_118_400.0)
#: Written by systemd-timesyncd once the clock is synchronised (removed at boot, on tmpfs).
TIMESYNC_FLAG = Path("/run/systemd/timesync/synchronized")


def clamp_time(now: float) -> float:
    """`now` (epoch seconds) within TIME_RANGE: a clock far off still gives a time the kiosk reads back."""
    if not math.isfinite(now):
        return TIME_RANGE[0]
    return min(max(now, TIME_RANGE[0]), TIME_RANGE[1])


def utc_now_iso(now: float) -> str:
    return datetime.fromtimestamp(clamp_time(now), timezone.utc).isoformat(timespec="milliseconds")


def clock_synchronised() -> bool:
    """Whether the system clock is synchronised (NTP): timesyncd's flag file, else the kernel's word."""
    return TIMESYNC_FLAG.exists() or _kernel_synchronised()


def _kernel_synchronised() -> bool:
    """The kernel's own status (adjtimex, read only): chrony and ntpd clear STA_UNSYNC when in sync."""
    try:
        import ctypes
        import ctypes.util

        class Timex(ctypes.Structure):  # struct timex: modes, four longs, status; room for the rest
            _fields_ = (
                ("modes", ctypes.c_uint),
                ("_pad", ctypes.c_long * 4),
                ("status", ctypes.c_int),
                ("_rest", ctypes.c_long * 40),
            )

        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        tx = Timex()
        state = libc.adjtimex(ctypes.byref(tx))
    except (OSError, AttributeError):
        return False
    sta_unsync, time_error = 0x0040, 5
    return state not in (-1, time_error) and not tx.status & sta_unsync


def parse_time(value: Any) -> float:
    """An ISO 8601 time with a zone (as written by `utc_now_iso`) to epoch seconds.

    Raises ValueError for anything else, including a time outside `TIME_RANGE`.
    """
    if not isinstance(value, str):
        raise ValueError(f"time must be an ISO 8601 string, not {type(value).__name__}")
    if len(value) > 40:
        raise ValueError(f"time of {len(value)} characters is not an ISO 8601 time")
    try:
        dt = datetime.fromisoformat(value)
        if dt.tzinfo is None:
            raise ValueError(f"time {value!r} has no time zone")
        t = dt.timestamp()
    except (OverflowError, OSError):
        raise ValueError(f"time {value!r} is out of range") from None
    if not TIME_RANGE[0] <= t <= TIME_RANGE[1]:
        raise ValueError(f"time {value!r} is outside the years 1970-2200")
    return t


# ------------------------------------------------------------- one kiosk per state directory
LOCK_NAME = "kiosk.lock"


class StateDirBusy(KioskError):
    """Another process holds the state directory's lock; ``pid`` is its process id (0: unknown)."""

    def __init__(self, state_dir: Path, pid: int) -> None:
        who = f"process {pid}" if pid else "another process"
        super().__init__(f"the state directory {state_dir} is in use by {who} (another labyrinth-kiosk)")
        self.state_dir = state_dir
        self.pid = pid


class StateLock:
    """An exclusive ``flock`` on ``kiosk.lock`` in the state directory, held while the kiosk runs.

    Two kiosks on one directory (``--simulate`` beside the service) would overwrite and delete
    each other's saves. The lock goes with the process (the kernel drops it on any exit, even
    SIGKILL), so a stale lock file never blocks a start; the file holds the holder's pid for
    the message of the one that is refused.
    """

    def __init__(self, state_dir: Path | str) -> None:
        """Take the lock; raises :class:`StateDirBusy`, or OSError when the file cannot be opened."""
        import fcntl

        self.path = Path(state_dir) / LOCK_NAME
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        try:
            fd = os.open(self.path, flags, 0o644)
        except OSError as e:
            if e.errno == errno.ELOOP:
                raise UnsafeFile(self.path, "a symbolic link, which is not followed here") from None
            raise
        # a file object: an instance dropped without release() (an exception in a constructor)
        # still closes its descriptor, and with it the lock
        self._file: Any = os.fdopen(fd, "r+b", buffering=0)
        try:
            safeio.refuse_linked(fd, self.path)  # the pid is written into it: never into another file
        except OSError:
            self.release()
            raise
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            try:
                text = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            except OSError:
                text = ""
            self.release()
            raise StateDirBusy(Path(state_dir), int(text) if text.isdigit() and len(text) < 12 else 0) from None
        except OSError:
            self.release()
            raise
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        except OSError as e:  # the lock holds all the same; only the message of a refused one is vaguer
            log.debug("could not write the pid into %s: %s", self.path, e)

    def release(self) -> None:
        """Drop the lock (safe to call twice)."""
        f, self._file = self._file, None
        if f is not None:
            f.close()


# -------------------------------------------------------------------- results
@dataclass(frozen=True)
class Resumed:
    """A saved game that is young and valid enough to continue."""

    game: str  # the registered game's name (kiosk.games)
    state: Any  # what the loader returned (e.g. an engine Game)
    meta: Mapping[str, Any]  # seats, AI levels, language... as the session saved them
    started_at: float  # epoch seconds
    saved_at: float  # epoch seconds of the last committed action
    age_s: float  # how long ago it was saved (0 if the clock went back)


@dataclass(frozen=True)
class Setaside:
    """What happened to a save that was not resumed (for logs and tests)."""

    reason: str  # "old", "corrupt"
    detail: str
    moved_to: Path | None


class _Corrupt(KioskError):
    """The save cannot be used; the message says why (for the log and the file name)."""


# ---------------------------------------------------------------------- store
@dataclass
class GameStore:
    """The state directory: the current save, its archive, the corrupt saves set aside.

    `loaders` maps a game name to a function that turns the saved ``state``
    back into a game and raises (any exception) when the state breaks the rules.
    `clock` returns epoch seconds (wall time: the save's age spans reboots).
    """

    state_dir: Path
    loaders: Mapping[str, Callable[[dict[str, Any]], Any]]
    resume_within_s: float = 1800
    archive_keep: int = ARCHIVE_KEEP
    corrupt_keep: int = CORRUPT_KEEP
    clock: Callable[[], float] = time.time
    last_setaside: Setaside | None = field(default=None, init=False)
    _blocked: Setaside | None = field(default=None, init=False, repr=False)  # unusable, not moved
    _failing: bool = field(default=False, init=False, repr=False)  # the last save failed
    #: why the save on disk may not be replaced: it holds a finished game whose history line is
    #: nowhere durable yet (kiosk/store/history.py keeps it in memory); None when saving is free
    held: str | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)

    @property
    def save_path(self) -> Path:
        return self.state_dir / SAVE_NAME

    # ------------------------------------------------------------------ save
    def save(
        self,
        game: str,
        state: Mapping[str, Any],
        *,
        meta: Mapping[str, Any] | None = None,
        started_at: float | None = None,
    ) -> bool:
        """Save the current game atomically; True when it is durably on disk.

        `state` is the game's ``to_dict()``. A state that cannot be written as
        JSON is a programming error and raises; a disk problem (full, read-only,
        removed) is logged and returns False so the game in progress goes on:
        the next save tries again. An unusable save that could not be moved
        aside is never overwritten: it is moved aside first, or nothing is saved.
        """
        now = self.clock()
        wrapper = {
            "format": FORMAT,
            "game": game,
            "saved_at": utc_now_iso(now),
            "started_at": utc_now_iso(now if started_at is None else started_at),
            "meta": dict(meta or {}),
            "state": state,
        }
        data = json.dumps(wrapper, separators=(",", ":"), allow_nan=False).encode("utf-8")
        if self.held is not None:
            log.error("not saving the game: %s keeps %s", self.save_path, self.held)
            self._failing = True
            return False
        if self._blocked is not None and not self._retry_set_aside():
            log.error(
                "not saving the game: the unusable save %s is still in the way (%s)",
                self.save_path,
                self._blocked.detail,
            )
            self._failing = True
            return False
        try:
            safeio.OPS.mkdir(self.state_dir)
            atomic_write(self.save_path, data)
        except OSError as e:
            log.error("could not save the game to %s: %s", self.save_path, e)
            self._failing = True
            return False
        if self._failing:
            log.warning("saving the game to %s works again", self.save_path)
            self._failing = False
        return True

    def discard(self) -> None:
        """Remove the save (a finished game: it is in the history now). Never raises.

        An unusable save still in the way is not the finished game's: it stays."""
        if self._blocked is not None or self.held:
            return
        try:
            safeio.OPS.unlink(self.save_path)
            fsync_dir(self.state_dir)
        except FileNotFoundError:
            pass
        except OSError as e:
            log.error("could not remove the finished game's save %s: %s", self.save_path, e)

    def archive(self, reason: str = "abandoned") -> Path | None:
        """Move the save into archive/ (a game left unfinished). Never raises.

        A save kept for a finished game (:attr:`held`) is not the abandoned game's: it stays."""
        if self.held or not os.path.lexists(self.save_path):
            return None
        return self._move_aside(ARCHIVE_DIR, reason, self.archive_keep)

    def set_aside(self, detail: str, slug: str) -> None:
        """Move the save to corrupt/ for a reason found after loading (e.g. resuming it failed)."""
        self._set_aside_corrupt(detail, slug)

    # ---------------------------------------------------------------- resume
    def resume(self) -> Resumed | None:
        """The saved game to continue, or None to start fresh. Never raises.

        A finished game (its state's ``phase`` is ``"over"``: a crash came
        between saving its end and writing its history line) is returned
        whatever its age, so that the kiosk can record it and remove it.
        """
        self.last_setaside = None
        try:
            self._remove_stale_temporaries()
            return self._resume()
        except Exception:  # the last line of defence against a crash loop
            log.exception("unexpected problem with the saved game in %s; starting fresh", self.state_dir)
            self._set_aside_corrupt("an unexpected problem (see the traceback above)", "unexpected")
            return None

    def _resume(self) -> Resumed | None:
        path = self.save_path
        try:
            data = read_bounded(path, SAVE_LIMIT, follow_symlinks=False)
        except FileNotFoundError:
            return None
        except UnsafeFile as e:
            self._set_aside_corrupt(f"unusable file: {e.reason}", "not-a-file")
            return None
        except OSError as e:
            self._set_aside_corrupt(f"unreadable ({e.strerror or e})", "unreadable")
            return None
        try:
            saved = self._parse(data)
        except _Corrupt as e:
            detail, slug = e.args
            self._set_aside_corrupt(detail, slug)
            return None

        age = clamp_time(self.clock()) - saved.saved_at
        if age < 0:
            # No real-time clock on most Pis: before NTP syncs, the clock may be
            # behind the save's time. The save is newer than "now", so it is recent.
            log.info("the saved game is from %.0f s in the future (clock not yet set?); resuming it", -age)
            age = 0.0
        finished = getattr(saved.state, "phase", None) == GAME_OVER
        if age > self.resume_within_s and not finished:
            moved = self._move_aside(ARCHIVE_DIR, saved.game, self.archive_keep)
            detail = f"saved {age:.0f} s ago, more than resume_within_s = {self.resume_within_s:g}"
            log.info("not resuming the saved %s game: %s; archived as %s", saved.game, detail, moved)
            self.last_setaside = Setaside("old", detail, moved)
            return None
        if finished:
            log.info("the saved %s game has ended; recording it", saved.game)
        else:
            log.info("resuming the %s game saved %.0f s ago", saved.game, age)
        return Resumed(saved.game, saved.state, saved.meta, saved.started_at, saved.saved_at, age)

    def _parse(self, data: bytes) -> Resumed:
        """The save format's schema: every field of the wrapper checked, the state by its game's loader."""
        wrapper = _decode(data)
        if not isinstance(wrapper, dict):
            raise _Corrupt(f"not a saved game: a JSON {type(wrapper).__name__}", "not-a-save")
        unknown = sorted(set(wrapper) - WRAPPER_KEYS)
        if unknown:
            raise _Corrupt(f"unknown field(s) {', '.join(map(repr, unknown))[:200]}", "not-a-save")
        version = wrapper.get("format")
        if type(version) is not int or version != FORMAT:
            raise _Corrupt(f"format version {_short(version)}, this kiosk reads {FORMAT}", "wrong-version")
        game = wrapper.get("game")
        loader = self.loaders.get(game) if isinstance(game, str) else None
        if loader is None:
            raise _Corrupt(f"unknown game {_short(game)} (known: {', '.join(self.loaders)})", "unknown-game")
        try:
            saved_at = parse_time(wrapper.get("saved_at"))
            started_at = parse_time(wrapper.get("started_at"))
        except (ValueError, TypeError, OverflowError) as e:
            raise _Corrupt(f"bad time stamp: {e}", "bad-time") from None
        meta = wrapper.get("meta", {})
        problem = meta_problem(meta)
        if problem:
            raise _Corrupt(problem, "bad-meta")
        state = wrapper.get("state")
        if not isinstance(state, dict):
            raise _Corrupt(f"state must be an object, not {type(state).__name__}", "bad-state")
        try:
            loaded = loader(state)
        except Exception as e:  # the loader's own validation: any refusal means corrupt
            raise _Corrupt(
                f"the {game} state breaks the rules: {type(e).__name__}: {str(e)[:300]}", "invalid-state"
            ) from None
        return Resumed(str(game), loaded, meta, started_at, saved_at, 0.0)

    # --------------------------------------------------------------- helpers
    def _set_aside_corrupt(self, detail: str, slug: str) -> None:
        moved = self._move_aside(CORRUPT_DIR, slug, self.corrupt_keep)
        self.last_setaside = Setaside("corrupt", detail, moved)
        if moved is None:
            log.warning(
                "the saved game %s is unusable (%s) and could not be moved aside; "
                "starting fresh, and no game is saved until it can be moved",
                self.save_path,
                detail,
            )
            self._blocked = self.last_setaside
        else:
            log.warning(
                "the saved game %s is unusable (%s); moved it to %s and starting fresh", self.save_path, detail, moved
            )
        return None

    def _retry_set_aside(self) -> bool:
        """Move the unusable save that was in the way at start; True once it is gone."""
        blocked = self._blocked
        assert blocked is not None
        if os.path.lexists(self.save_path):
            if self._move_aside(CORRUPT_DIR, "unusable", self.corrupt_keep) is None:
                return False
            log.warning("moved the unusable save %s aside (%s)", self.save_path, blocked.detail)
        self._blocked = None
        return True

    def _move_aside(self, subdir: str, label: str, keep: int) -> Path | None:
        """Rename the save into `subdir` as ``NNNNNN-STAMP-LABEL.json``; prune to `keep` files.

        The sequence number orders the files, not the time stamp: a clock that is behind (no
        real-time clock before NTP) must not make the file just moved look the oldest."""
        target_dir = self.state_dir / subdir
        ops = safeio.OPS
        try:
            safeio.own_dir(target_dir)
            seq = 1 + max((key[1] for key in map(_aside_order, _json_files(target_dir)) if key[0]), default=0)
            stamp = datetime.fromtimestamp(clamp_time(self.clock()), timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
            label = re.sub(r"[^a-z0-9-]+", "-", label.lower()).strip("-")[:40] or "save"
            target = target_dir / f"{seq:06d}-{stamp}-{label}.json"
            n = 1
            while os.path.lexists(target):
                target = target_dir / f"{seq:06d}-{stamp}-{label}-{n}.json"
                n += 1
            ops.replace(self.save_path, target)
            fsync_dir(target_dir)
            fsync_dir(self.state_dir)
        except (OSError, ValueError, OverflowError) as e:
            log.error("could not move %s into %s: %s", self.save_path, target_dir, e)
            return None
        self._prune(target_dir, keep)
        return target

    @staticmethod
    def _prune(directory: Path, keep: int) -> None:
        """Keep the `keep` files with the highest sequence numbers (older names without one go first)."""
        try:
            if not safeio.is_own_dir(directory):
                return
            names = sorted(_json_files(directory), key=_aside_order)
            for old in names[: max(0, len(names) - keep)]:
                if os.path.isdir(old) and not os.path.islink(old):
                    import shutil

                    shutil.rmtree(old)
                else:
                    safeio.OPS.unlink(old)
        except OSError as e:
            log.warning("could not prune %s: %s", directory, e)

    def _remove_stale_temporaries(self) -> None:
        """Temporary files from a save interrupted by a crash: never complete, never needed."""
        try:
            for tmp in self.state_dir.glob(f".{SAVE_NAME}.*.tmp"):
                log.info("removing %s left by an interrupted save", tmp.name)
                safeio.OPS.unlink(tmp)
        except OSError as e:
            log.warning("could not remove stale temporary files in %s: %s", self.state_dir, e)


def _json_files(directory: Path) -> list[Path]:
    return [p for p in directory.iterdir() if p.suffix == ".json"]


_SEQ = re.compile(r"([0-9]{6,12})-")


def _aside_order(path: Path) -> tuple[bool, int, str]:
    """Sort key of archive/ and corrupt/: the sequence number; names from before it had one first."""
    m = _SEQ.match(path.name)
    return (True, int(m.group(1)), path.name) if m else (False, 0, path.name)


#: The fields of the save's wrapper (docs/operations.md).
WRAPPER_KEYS = frozenset({"format", "game", "saved_at", "started_at", "meta", "state"})
#: A game id as the sessions write it (a uuid's hex); kept short for file names and logs.
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
MAX_SEATS = 8


def _decode(data: bytes) -> Any:
    """The save's bytes as JSON, or _Corrupt saying why not."""
    if not data.strip():
        raise _Corrupt("empty file", "empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _Corrupt(f"not UTF-8 text (byte {e.start})", "invalid-json") from None
    try:
        return loads_json(text)
    except json.JSONDecodeError as e:
        # A save cut short by a full disk or a broken card does not end its object.
        truncated = not data.rstrip().endswith(b"}")
        what, slug = ("truncated", "truncated") if truncated else ("invalid JSON", "invalid-json")
        raise _Corrupt(f"{what}: {e.msg} at line {e.lineno} column {e.colno}", slug) from None
    except ValueError as e:  # nesting, huge or non-finite numbers
        raise _Corrupt(f"not a usable JSON save: {e}", "invalid-json") from None


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _finite(value: Any) -> bool:
    return (
        isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and abs(value) < 1e12
    )


def meta_problem(meta: Any) -> str | None:
    """Why the save's ``meta`` (who plays which seat, since when) cannot be used, or None.

    The fields the kiosk reads are checked; others (a later version's) are
    carried but never read.
    """
    if not isinstance(meta, dict):
        return f"meta must be an object, not {type(meta).__name__}"
    game_id = meta.get("game_id")
    if game_id is not None and not (isinstance(game_id, str) and _GAME_ID.fullmatch(game_id)):
        return f"meta.game_id must be a short id (letters, digits), not {_short(game_id)}"
    kinds = meta.get("kinds")
    if kinds is not None and not (
        isinstance(kinds, list) and len(kinds) <= MAX_SEATS and all(isinstance(k, str) and len(k) <= 32 for k in kinds)
    ):
        return f"meta.kinds must list up to {MAX_SEATS} seat kinds, not {_short(kinds)}"
    for key in ("started", "duration_s"):
        value = meta.get(key)
        if value is not None and not (_finite(value) and value >= 0):
            return f"meta.{key} must be a number of seconds, not {_short(value)}"
    setup = meta.get("setup")
    if setup is not None:
        if not isinstance(setup, dict):
            return f"meta.setup must be an object, not {type(setup).__name__}"
        if setup.get("hints") not in (None, True, False):
            return f"meta.setup.hints must be true, false or null, not {_short(setup.get('hints'))}"
    return None


__all__ = [
    "FORMAT",
    "SAVE_NAME",
    "GameStore",
    "LOCK_NAME",
    "Resumed",
    "Setaside",
    "StateDirBusy",
    "StateLock",
    "atomic_write",
    "clamp_time",
    "clock_synchronised",
    "fsync_dir",
    "meta_problem",
    "parse_time",
]
