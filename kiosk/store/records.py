"""The kiosk's game records: every finished game as a record file in the state directory (bounded).

A game being played keeps its record next to the save (``current-game.record.txt``,
rewritten atomically after every turn), so a game resumed after a power cut
continues its record; when the game ends the record moves to ``records/``,
named by the time it ended and the game's id (filing the same game again replaces it).
The folder is bounded (``keep`` files and ``max_bytes`` bytes, the oldest go first). :meth:`RecordShelf.best_of_day`
picks the day's best game for the attract mode to replay.

Records are the notation of docs/notation.md (``engine.records``).
"""

from __future__ import annotations

import logging
import os
import time
from datetime import date, datetime
from pathlib import Path
from typing import Any, Sequence

from engine.outcome import GAME_OVER
from engine.records import Record, RecordError, Recorder, read_record
from engine.records.notation import SEAT_CHANGES

from kiosk.store import safeio
from kiosk.store.safeio import RECORD_LIMIT, RECORD_LINE_LIMIT
from kiosk.games import HUMAN
from kiosk.store.persistence import atomic_write, fsync_dir

log = logging.getLogger(__name__)

RECORDS_DIR = "records"
CURRENT_NAME = "current-game.record.txt"
RECORDS_KEEP = 500  # files
RECORDS_MAX_BYTES = 10 * 1024 * 1024
#: What reading a damaged record file raises: the disk, the bounded reader, the notation's own
#: check, and what its decoders raise on hostile text (a deeply nested [Start] tag, a 4,300-digit number)
RECORD_DAMAGE = (OSError, ValueError, RecordError, RecursionError, TypeError, KeyError)


class RecordShelf:
    """Records in ``state_dir/records`` and the record of the game being played. Never raises
    on disk trouble: a record is worth less than a running game (problems are logged)."""

    def __init__(self, state_dir: Path | str, keep: int = RECORDS_KEEP, max_bytes: int = RECORDS_MAX_BYTES):
        self.state_dir = Path(state_dir)
        self.folder = self.state_dir / RECORDS_DIR
        self.keep = keep
        self.max_bytes = max_bytes
        self._remove_stale_temporaries()

    def _remove_stale_temporaries(self) -> None:
        """Temporary files of a record write cut short by a crash: never complete, never needed."""
        patterns = ((self.state_dir, f".{CURRENT_NAME}.*.tmp"), (self.folder, ".*.tmp"))
        for folder, pattern in patterns:
            try:
                if folder == self.folder and not safeio.is_own_dir(folder):
                    continue  # absent, or a link out of the state directory: nothing of ours in it
                for tmp in folder.glob(pattern):
                    log.info("removing %s left by an interrupted record write", tmp.name)
                    tmp.unlink()
            except OSError as exc:
                log.warning("could not remove stale temporary files in %s: %s", folder, exc)

    @property
    def current_path(self) -> Path:
        return self.state_dir / CURRENT_NAME

    # -------------------------------------------------------------- the game being played
    def start(self, state: Any, levels: Sequence[str], when: float | None = None) -> Recorder:
        """A recorder for a new game (its record is saved with :meth:`save_current`)."""
        day = datetime.fromtimestamp(time.time() if when is None else when).strftime("%Y-%m-%d")
        return Recorder(state, list(levels), date=day, Site="kiosk")

    def resume(self, state: Any, levels: Sequence[str]) -> Recorder:
        """The recorder of a resumed game: its saved record continued, or a new record from this
        position. A turn begun but not finished when the power went is found again; a record one
        turn ahead of the save (the power went between writing the record and the save) is
        trimmed back to the save."""
        try:
            record = read_record(
                safeio.read_text(self.current_path, RECORD_LIMIT, follow_symlinks=False, line_limit=RECORD_LINE_LIMIT)
            )
        except RECORD_DAMAGE as exc:
            log.info("no record to continue (%s): recording from the resumed position", exc)
            return self.start(state, levels)
        for drop in (0, 1):
            if drop > len(record.turns):
                break
            recorder = Recorder.continuing(Record(record.tags, record.turns[: len(record.turns) - drop]))
            if catch_up(recorder, state):
                if drop:
                    log.info("the saved record was one turn ahead of the saved game: trimmed back to it")
                return recorder
        log.warning("the saved record does not lead to the resumed game: recording from here")
        return self.start(state, levels)

    def save_current(self, recorder: Recorder) -> None:
        self._write(self.current_path, recorder.text())

    def finish(self, recorder: Recorder, when: float | None = None, game_id: str | None = None) -> Path | None:
        """File the record of a finished game under ``records/`` and forget the current one.

        With the game's id the name ends with it (``STAMP-KIND-ID.txt``) and filing the same game
        again (the kiosk stopped before its save was removed) replaces its file, whatever the time."""
        stamp = datetime.fromtimestamp(time.time() if when is None else when).strftime("%Y-%m-%d_%H%M%S")
        try:
            safeio.own_dir(self.folder)
        except OSError as exc:
            log.warning("cannot file records in %s: %s", self.folder, getattr(exc, "reason", exc.strerror))
            return None
        kind = recorder.codec.KIND
        if game_id and game_id.isdigit():  # "-2.txt" is the count of an older record's name
            game_id = None
        filed = self.filed_as(game_id, kind) if game_id else None
        if filed is not None:
            path = filed
        elif game_id:
            path = self.folder / f"{stamp}-{kind}-{game_id}.txt"
        else:
            path = self.folder / f"{stamp}-{recorder.codec.KIND}.txt"
            n = 1
            while os.path.lexists(path):
                n += 1
                path = self.folder / f"{stamp}-{recorder.codec.KIND}-{n}.txt"
        if not self._write(path, recorder.text()):
            return None
        self.discard_current()
        self.prune(keep=path)
        return path

    def filed_as(self, game_id: str, kind: str) -> Path | None:
        """The record filed for the `kind` game of this id, if there is one."""
        suffix = f"-{kind}-{game_id}.txt"
        return next((p for p in self.files() if p.name.endswith(suffix)), None)

    def discard_current(self) -> None:
        try:
            self.current_path.unlink()
        except FileNotFoundError:
            pass
        except OSError as exc:
            log.warning("cannot remove %s: %s", self.current_path, exc.strerror)

    # -------------------------------------------------------------- the shelf
    def files(self) -> list[Path]:
        """The filed records, oldest first (the names start with the time the game ended)."""
        try:
            if not safeio.is_own_dir(self.folder):
                return []
            return sorted((p for p in self.folder.iterdir() if p.suffix == ".txt"), key=_filed_order)
        except OSError:
            return []

    def prune(self, keep: Path | None = None) -> None:
        """Remove the oldest records beyond `keep` files or `max_bytes` bytes; never `keep`, the record
        just filed (with the clock behind, before NTP, its name sorts before older ones)."""
        files = [p for p in self.files() if p != keep]
        sizes = {}
        for p in files:
            try:
                sizes[p] = p.lstat().st_size
            except OSError:
                sizes[p] = 0
        total = sum(sizes.values())
        if keep is not None:
            try:
                total += keep.lstat().st_size
            except OSError:
                pass
        most = self.keep - (keep is not None)
        while files and (len(files) > most or total > self.max_bytes):
            oldest = files.pop(0)
            total -= sizes[oldest]
            try:
                oldest.unlink()
            except OSError as exc:
                log.warning("cannot remove %s: %s", oldest, exc.strerror)
        if files or keep is not None:
            fsync_dir(self.folder)

    def of_day(self, day: date) -> list[Path]:
        prefix = day.strftime("%Y-%m-%d_")
        return [p for p in self.files() if p.name.startswith(prefix)]

    def best_of_day(self, day: date, game: str | None = None) -> tuple[Path, Record] | None:
        """The day's best finished game (of `game` only, when given): one with people at the
        table before one of computers alone, then the closest finish (the fewest cards between
        the winner and the next player), then the shorter game (a brisk replay). None when
        there is none."""
        best = None
        for path in self.of_day(day):
            try:
                record = read_record(
                    safeio.read_text(path, RECORD_LIMIT, follow_symlinks=False, line_limit=RECORD_LINE_LIMIT)
                )
            except RECORD_DAMAGE as exc:
                log.info("skipping record %s: %s", path.name, exc)
                continue
            final = record.final()
            if final.phase != GAME_OVER or (game is not None and record.kind != game):
                continue
            key = (HUMAN not in record.levels, margin(final), len(record.turns), path.name)
            if best is None or key < best[0]:
                best = (key, path, record)
        return None if best is None else (best[1], best[2])

    def _write(self, path: Path, text: str) -> bool:
        try:
            atomic_write(path, text.encode("utf-8"))
            return True
        except OSError as exc:
            log.warning("cannot write the game record %s: %s", path, exc.strerror or exc)
            return False


def margin(final: Any) -> int:
    """How close a finished game was: the winner's score minus the best other score (cards
    found in the maze game, cards taken in the card game)."""
    if hasattr(final, "maze"):
        scores = [len(p.found) + (0 if p.cards else 1) for p in final.players]
    else:
        scores = list(final.scores)
    winners = set(final.winners)
    top = max((scores[i] for i in winners), default=max(scores))
    rest = [s for i, s in enumerate(scores) if i not in winners]
    return top - max(rest) if rest else 0


class Recording:
    """Follows the game of one session and keeps its record on the shelf.

    The kiosk calls :meth:`begin` when a game starts (with its start position),
    :meth:`step` after every action the session committed (the session's save
    hook), :meth:`take_back` after an undo, :meth:`resume` when a saved game is
    resumed, and :meth:`end` when the game is over or abandoned. The action is read off the change
    of state (its codec's ``infer_action``), so the sessions need no recording code of their own.
    """

    def __init__(self, shelf: RecordShelf):
        self.shelf = shelf
        self.recorder: Recorder | None = None

    def begin(self, start: Any, levels: Sequence[str]) -> None:
        self.recorder = self.shelf.start(start, levels)
        self.shelf.save_current(self.recorder)  # so a game cut off in its first turn resumes its record

    def resume(self, state: Any, levels: Sequence[str]) -> None:
        self.recorder = self.shelf.resume(state, levels)

    def step(self, state: Any) -> None:
        """The session's game after one more committed action."""
        recorder = self.recorder
        if recorder is None:
            return
        before_turns = len(recorder.turns)
        if not follow(recorder, state):
            log.warning("the game record lost track of the game: recording afresh from here")
            levels = [part.partition(":")[2] for part in recorder.tags.get("Players", "").split()]
            self.recorder = self.shelf.start(state, levels)
            self.shelf.save_current(self.recorder)
            return
        if len(recorder.turns) != before_turns and state.phase != GAME_OVER:
            self.shelf.save_current(recorder)

    def seats(self, changes: list[tuple[int, int, str]]) -> None:
        """The seats that changed hands so far, as (first turn, player, who): the record's
        ``SeatChanges`` tag (docs/notation.md), so it names who played each turn."""
        recorder = self.recorder
        if recorder is None:
            return
        names = [part.partition(":")[0] for part in recorder.tags.get("Players", "").split()]
        text = " ".join(f"{turn}:{names[p]}:{kind}" for turn, p, kind in changes if 0 <= p < len(names))
        if text == recorder.tags.get(SEAT_CHANGES, ""):
            return
        if text:
            recorder.tags[SEAT_CHANGES] = text
        else:
            recorder.tags.pop(SEAT_CHANGES, None)
        self.shelf.save_current(recorder)

    def take_back(self, state: Any) -> None:
        """The session took actions back (an undo): the record forgets them, so it never keeps
        an action that was undone."""
        recorder = self.recorder
        if recorder is None:
            return
        before_turns = len(recorder.turns)
        if not recorder.take_back(state):
            log.warning("the game record cannot take the undone action back: recording afresh from here")
            levels = [part.partition(":")[2] for part in recorder.tags.get("Players", "").split()]
            self.recorder = self.shelf.start(state, levels)
            self.shelf.save_current(self.recorder)
            return
        if len(recorder.turns) != before_turns:
            self.shelf.save_current(recorder)

    def end(self, state: Any = None, abandoned: bool = False, game_id: str | None = None) -> Path | None:
        """File the record of a finished game, named by its id (an abandoned one is dropped)."""
        recorder, self.recorder = self.recorder, None
        if recorder is None:
            return None
        if abandoned:
            self.shelf.discard_current()
            return None
        if state is not None and not same(recorder.state, state):
            follow(recorder, state)
        return self.shelf.finish(recorder, game_id=game_id)


def same(a: Any, b: Any) -> bool:
    """Two engine states of one game are the same position (compared as saved: engine.GameState
    promises ``to_dict``, not ``==``)."""
    return bool(a.to_dict() == b.to_dict())


def follow(recorder: Recorder, state: Any) -> bool:
    """Record the action that leads from the recorder's game to `state`; True when they agree."""
    if same(recorder.state, state):
        return True
    action = recorder.codec.infer_action(recorder.state, state)
    if action is not None:
        trial = recorder.state.copy()
        try:
            trial.apply(action)
        except ValueError:
            action = None
        else:
            if same(trial, state):
                recorder.apply(action)
                return True
    return catch_up(recorder, state)


def catch_up(recorder: Recorder, state: Any) -> bool:
    """Bring a recorder to `state`, which may be one action further (a turn begun before the
    power cut: the shift was saved, the record had only whole turns). True when they agree."""
    if same(recorder.state, state):
        return True
    for action in recorder.state.legal_actions():
        trial = recorder.state.copy()
        try:
            trial.apply(action)
        except ValueError:
            continue
        if same(trial, state):
            recorder.apply(action)
            return True
    return False


__all__ = ["CURRENT_NAME", "RECORDS_DIR", "RecordShelf", "Recording", "catch_up", "follow", "margin"]


def _filed_order(path: Path) -> tuple[str, int, str]:
    """Sort key: the end time, then the count that tells games ended in the same second apart.

    By plain name "...-labyrinth-2.txt" would sort before "...-labyrinth.txt" ("-" < ".").
    """
    stem = path.stem
    head, _, last = stem.rpartition("-")
    if head and last.isdigit():
        return stem[:17], int(last), head
    return stem[:17], 1, stem
