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
import os
import re
import tempfile
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Mapping

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
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError as e:
        log.debug("cannot open %s to fsync it: %s", directory, e)
        return
    try:
        os.fsync(fd)
    except OSError as e:
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
        log.debug("fsync of directory %s not supported: %s", directory, e)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Replace `path` with `data` so that a crash leaves either the old or the new file.

    Raises OSError when it cannot be done; the old file is then untouched and
    the temporary file removed.
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


def utc_now_iso(now: float) -> str:
    return datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds")


def parse_time(value: Any) -> float:
    """An ISO 8601 time with a zone (as written by `utc_now_iso`) to epoch seconds."""
    if not isinstance(value, str):
        raise ValueError(f"time must be an ISO 8601 string, not {type(value).__name__}")
    dt = datetime.fromisoformat(value)
    if dt.tzinfo is None:
        raise ValueError(f"time {value!r} has no time zone")
    return dt.timestamp()


# -------------------------------------------------------------------- results
@dataclass(frozen=True)
class Resumed:
    """A saved game that is young and valid enough to continue."""

    game: str                    # the registered game's name (kiosk.games)
    state: Any                   # what the loader returned (e.g. an engine Game)
    meta: Mapping[str, Any]      # seats, AI levels, language... as the session saved them
    started_at: float            # epoch seconds
    saved_at: float              # epoch seconds of the last committed action
    age_s: float                 # how long ago it was saved (0 if the clock went back)


@dataclass(frozen=True)
class Setaside:
    """What happened to a save that was not resumed (for logs and tests)."""

    reason: str                  # "old", "corrupt"
    detail: str
    moved_to: Path | None


class _Corrupt(Exception):
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
    loaders: Mapping[str, Callable[[dict], Any]]
    resume_within_s: float = 1800
    archive_keep: int = ARCHIVE_KEEP
    corrupt_keep: int = CORRUPT_KEEP
    clock: Callable[[], float] = time.time
    last_setaside: Setaside | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.state_dir = Path(self.state_dir)

    @property
    def save_path(self) -> Path:
        return self.state_dir / SAVE_NAME

    # ------------------------------------------------------------------ save
    def save(self, game: str, state: Mapping[str, Any], *, meta: Mapping[str, Any] | None = None,
             started_at: float | None = None) -> bool:
        """Save the current game atomically; True when it is durably on disk.

        `state` is the game's ``to_dict()``. A state that cannot be written as
        JSON is a programming error and raises; a disk problem (full, read-only,
        removed) is logged and returns False so the game in progress goes on.
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
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            atomic_write(self.save_path, data)
        except OSError as e:
            log.error("could not save the game to %s: %s", self.save_path, e)
            return False
        return True

    def discard(self) -> None:
        """Remove the save (a finished game: it is in the history now). Never raises."""
        try:
            self.save_path.unlink()
            fsync_dir(self.state_dir)
        except FileNotFoundError:
            pass
        except OSError as e:
            log.error("could not remove the finished game's save %s: %s", self.save_path, e)

    def archive(self, reason: str = "abandoned") -> Path | None:
        """Move the save into archive/ (a game left unfinished). Never raises."""
        if not self.save_path.exists():
            return None
        return self._move_aside(ARCHIVE_DIR, reason, self.archive_keep)

    # ---------------------------------------------------------------- resume
    def resume(self) -> Resumed | None:
        """The saved game to continue, or None to start fresh. Never raises."""
        self.last_setaside = None
        try:
            self._remove_stale_temporaries()
            return self._resume()
        except Exception:  # the last line of defence against a crash loop
            log.exception("unexpected problem with the saved game in %s; starting fresh",
                          self.state_dir)
            return None

    def _resume(self) -> Resumed | None:
        path = self.save_path
        try:
            data = path.read_bytes()
        except FileNotFoundError:
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

        age = self.clock() - saved.saved_at
        if age < 0:
            # No real-time clock on most Pis: before NTP syncs, the clock may be
            # behind the save's time. The save is newer than "now", so it is recent.
            log.info("the saved game is from %.0f s in the future (clock not yet set?); "
                     "resuming it", -age)
            age = 0.0
        if age > self.resume_within_s:
            moved = self._move_aside(ARCHIVE_DIR, saved.game, self.archive_keep)
            detail = f"saved {age:.0f} s ago, more than resume_within_s = {self.resume_within_s:g}"
            log.info("not resuming the saved %s game: %s; archived as %s", saved.game, detail, moved)
            self.last_setaside = Setaside("old", detail, moved)
            return None
        log.info("resuming the %s game saved %.0f s ago", saved.game, age)
        return Resumed(saved.game, saved.state, saved.meta, saved.started_at, saved.saved_at, age)

    def _parse(self, data: bytes) -> Resumed:
        if not data.strip():
            raise _Corrupt("empty file", "empty")
        try:
            wrapper = json.loads(data.decode("utf-8"))
        except UnicodeDecodeError as e:
            raise _Corrupt(f"not UTF-8 text (byte {e.start})", "invalid-json") from None
        except json.JSONDecodeError as e:
            # A save cut short by a full disk or a broken card does not end its object.
            truncated = not data.rstrip().endswith(b"}")
            what, slug = ("truncated", "truncated") if truncated else ("invalid JSON", "invalid-json")
            raise _Corrupt(f"{what}: {e.msg} at line {e.lineno} column {e.colno}", slug) from None
        if not isinstance(wrapper, dict):
            raise _Corrupt(f"not a saved game: a JSON {type(wrapper).__name__}", "not-a-save")
        version = wrapper.get("format")
        if version != FORMAT:
            raise _Corrupt(f"format version {version!r}, this kiosk reads {FORMAT}", "wrong-version")
        game = wrapper.get("game")
        if not isinstance(game, str) or game not in self.loaders:
            raise _Corrupt(f"unknown game {game!r} (known: {', '.join(self.loaders)})", "unknown-game")
        try:
            saved_at = parse_time(wrapper.get("saved_at"))
            started_at = parse_time(wrapper.get("started_at"))
        except (ValueError, TypeError, OverflowError) as e:
            raise _Corrupt(f"bad time stamp: {e}", "bad-time") from None
        meta = wrapper.get("meta", {})
        if not isinstance(meta, dict):
            raise _Corrupt(f"meta must be an object, not {type(meta).__name__}", "bad-meta")
        state = wrapper.get("state")
        if not isinstance(state, dict):
            raise _Corrupt(f"state must be an object, not {type(state).__name__}", "bad-state")
        try:
            loaded = self.loaders[game](state)
        except Exception as e:  # the loader's own validation: any refusal means corrupt
            raise _Corrupt(f"the {game} state breaks the rules: {type(e).__name__}: {e}",
                           "invalid-state") from None
        return Resumed(game, loaded, meta, started_at, saved_at, 0.0)

    # --------------------------------------------------------------- helpers
    def _set_aside_corrupt(self, detail: str, slug: str) -> None:
        moved = self._move_aside(CORRUPT_DIR, slug, self.corrupt_keep)
        if moved is None:
            log.warning("the saved game %s is unusable (%s) and could not be moved aside; "
                        "starting fresh (it will be overwritten by the next save)",
                        self.save_path, detail)
        else:
            log.warning("the saved game %s is unusable (%s); moved it to %s and starting fresh",
                        self.save_path, detail, moved)
        self.last_setaside = Setaside("corrupt", detail, moved)
        return None

    def _move_aside(self, subdir: str, label: str, keep: int) -> Path | None:
        """Rename the save into `subdir` with a time-stamped name; prune to `keep` files."""
        target_dir = self.state_dir / subdir
        try:
            target_dir.mkdir(exist_ok=True)
            stamp = datetime.fromtimestamp(self.clock(), timezone.utc).strftime("%Y%m%dT%H%M%S.%fZ")
            label = re.sub(r"[^a-z0-9-]+", "-", label.lower()).strip("-") or "save"
            target = target_dir / f"{stamp}-{label}.json"
            n = 1
            while target.exists():
                target = target_dir / f"{stamp}-{label}-{n}.json"
                n += 1
            os.replace(self.save_path, target)
            fsync_dir(target_dir)
            fsync_dir(self.state_dir)
        except OSError as e:
            log.error("could not move %s into %s: %s", self.save_path, target_dir, e)
            return None
        self._prune(target_dir, keep)
        return target

    @staticmethod
    def _prune(directory: Path, keep: int) -> None:
        """Keep the newest `keep` files (names start with a UTC time stamp)."""
        try:
            names = sorted(p for p in directory.iterdir() if p.suffix == ".json")
            for old in names[:max(0, len(names) - keep)]:
                old.unlink()
        except OSError as e:
            log.warning("could not prune %s: %s", directory, e)

    def _remove_stale_temporaries(self) -> None:
        """Temporary files from a save interrupted by a crash: never complete, never needed."""
        try:
            for tmp in self.state_dir.glob(f".{SAVE_NAME}.*.tmp"):
                log.info("removing %s left by an interrupted save", tmp.name)
                tmp.unlink()
        except OSError as e:
            log.warning("could not remove stale temporary files in %s: %s", self.state_dir, e)


__all__ = ["FORMAT", "SAVE_NAME", "GameStore", "Resumed", "Setaside", "atomic_write", "fsync_dir"]
