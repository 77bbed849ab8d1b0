"""The history of finished games: one JSON line per game, and its summary.

Appending one line and fsyncing it is the cheapest durable record there is,
and a power cut can only tear the last line. Reading skips a torn or garbled
line instead of failing; appending after a torn line first ends it, so the
new record stays whole. The operator menu and ``labyrinth-kiosk --stats``
show :func:`summarize`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import os
import re
import stat
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Sequence

from kiosk.games import HUMAN
from kiosk.store import safeio
from kiosk.store.persistence import MAX_SEATS, atomic_write, clock_synchronised, fsync_dir, parse_time, utc_now_iso
from kiosk.store.safeio import UnsafeFile, loads_json, read_bounded

log = logging.getLogger(__name__)

HISTORY_NAME = "history.jsonl"
#: The folder of finished games waiting for the history (one file each, ``NNNNNNNN-ID.json``).
PENDING_DIR = "pending"
_PENDING = re.compile(r"[0-9]{1,12}-[0-9A-Za-z_-]{1,64}\.json")
#: How much of the history is read at a time: statistics stream it, whatever its size.
_CHUNK = 1 << 20
#: A history line is about 250 bytes; a longer one is damage.
LINE_LIMIT = 16 * 1024
#: A name in a record (game, seat kind, variant, outcome): short, printable, one line. The
#: export quotes what a spreadsheet would take for a formula (kiosk/tools/stats_export.py).
_WORD = re.compile(r"[^\x00-\x1f\x7f]{1,64}")
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
#: Bounds of a record's numbers: more than any game lasts (about 30 years of play in seconds).
MAX_TURNS = 10**6
MAX_DURATION_S = 1e9
#: More seat changes than a game sees (a line stays short), and the bounds of a score.
MAX_SEAT_CHANGES = 64
MAX_SCORE = 10**6


def _int_in(value: Any, lo: int, hi: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ValueError(f"{what} must be a whole number {lo}-{hi}")
    return value


def _word(value: Any, what: str) -> str:
    if not isinstance(value, str) or not _WORD.fullmatch(value):
        raise ValueError(f"{what} must be a short word")
    return value


def _words(value: Any, what: str, most: int) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > most:
        raise ValueError(f"{what} must be a list of at most {most} words")
    return tuple(_word(v, what) for v in value)


def _seat_changes(value: Any, seats: int) -> tuple[tuple[int, int, str], ...]:
    """A history line's ``seat_changes``: ``[[first turn, seat, who], ...]``, checked."""
    if not isinstance(value, list) or len(value) > MAX_SEAT_CHANGES:
        raise ValueError(f"seat_changes must be a list of at most {MAX_SEAT_CHANGES} changes")
    changes = []
    for change in value:
        if not isinstance(change, list) or len(change) != 3:
            raise ValueError("a seat change must be [turn, seat, who]")
        changes.append(
            (
                _int_in(change[0], 1, MAX_TURNS + 1, "a seat change's turn"),
                _int_in(change[1], 0, seats - 1, "a seat change's seat"),
                _word(change[2], "a seat change's player"),
            )
        )
    return tuple(changes)


@dataclass(frozen=True)
class GameRecord:
    """One finished game as written to the history."""

    time: str  # when it ended, ISO 8601 with zone
    game: str  # the registered game's name (kiosk.games)
    players: int
    seats: tuple[str, ...]  # per seat: "human" or the AI level
    variant: tuple[str, ...]  # e.g. ("open_cards", "no_return_home"); () = classic rules
    winners: tuple[int, ...]  # seat indices; several on a shared win; () = nobody
    turns: int
    duration_s: float
    outcome: str = "won"  # "won", "turn_limit", "blocked" ...
    game_id: str | None = None  # the session's id: a game is recorded once (kiosk/core/kiosk.py)
    time_unsynced: bool = False  # the clock was not yet synchronised (NTP): `time` may be wrong
    #: seats that changed hands: (first turn played by them, seat, "human" or the AI level), oldest first
    seat_changes: tuple[tuple[int, int, str], ...] = ()
    score: int | None = None  # the game's own score of the result (GameType.score: a puzzle's stars)

    @classmethod
    def make(
        cls,
        *,
        game: str,
        seats: Sequence[str],
        winners: Iterable[int],
        turns: int,
        duration_s: float,
        variant: Iterable[str] = (),
        outcome: str = "won",
        ended_at: float | None = None,
        game_id: str | None = None,
        time_unsynced: bool | None = None,
        seat_changes: Iterable[Sequence[Any]] = (),
        score: int | None = None,
    ) -> "GameRecord":
        """Build a record; `ended_at` (epoch seconds) defaults to now, `time_unsynced` to whether
        the clock is not synchronised now."""
        import time as _time

        if time_unsynced is None:
            time_unsynced = not clock_synchronised()
        return cls(
            utc_now_iso(_time.time() if ended_at is None else ended_at),
            game,
            len(seats),
            tuple(seats),
            tuple(variant),
            tuple(winners),
            int(turns),
            round(float(duration_s), 3),
            outcome,
            game_id,
            bool(time_unsynced),
            tuple((int(t), int(p), str(k)) for t, p, k in seat_changes),
            score,
        )

    def to_json(self) -> str:
        fields = asdict(self)
        for optional in ("game_id", "score"):
            if fields[optional] is None:
                del fields[optional]
        if not fields["time_unsynced"]:
            del fields["time_unsynced"]
        if fields["seat_changes"]:
            fields["seat_changes"] = [list(change) for change in fields["seat_changes"]]
        else:
            del fields["seat_changes"]
        return json.dumps(fields, separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, obj: Any) -> "GameRecord":
        """A history line's object, every field checked (the history format's schema); ValueError if not."""
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        unknown = set(obj) - _RECORD_KEYS
        if unknown:
            raise ValueError(f"unknown field(s) {sorted(unknown)[:5]}")
        for required in ("time", "game", "seats", "turns", "duration_s"):
            if required not in obj:
                raise ValueError(f"no {required}")
        seats = _words(obj["seats"], "seats", MAX_SEATS)
        if not seats:
            raise ValueError("no seats")
        winners_raw = obj.get("winners", [])
        if not isinstance(winners_raw, list) or len(winners_raw) > len(seats):
            raise ValueError("winners must list seats")
        winners = tuple(_int_in(w, 0, len(seats) - 1, "a winner") for w in winners_raw)
        time_text = obj["time"]
        parse_time(time_text)
        players = _int_in(obj.get("players", len(seats)), len(seats), len(seats), "players")
        duration = obj["duration_s"]
        if (
            isinstance(duration, bool)
            or not isinstance(duration, (int, float))
            or not math.isfinite(duration)
            or not 0 <= duration <= MAX_DURATION_S
        ):
            raise ValueError("duration_s must be a number of seconds")
        game_id = obj.get("game_id")
        if game_id is not None and not (isinstance(game_id, str) and _GAME_ID.fullmatch(game_id)):
            raise ValueError("game_id must be a short id")
        unsynced = obj.get("time_unsynced", False)
        if type(unsynced) is not bool:
            raise ValueError("time_unsynced must be true or false")
        changes = _seat_changes(obj.get("seat_changes", []), len(seats))
        score = obj.get("score")
        if score is not None:
            score = _int_in(score, -MAX_SCORE, MAX_SCORE, "score")
        return cls(
            time_text,
            _word(obj["game"], "game"),
            players,
            seats,
            _words(obj.get("variant", []), "variant", 8),
            winners,
            _int_in(obj["turns"], 0, MAX_TURNS, "turns"),
            float(duration),
            _word(obj.get("outcome", "won"), "outcome"),
            game_id,
            unsynced,
            changes,
            score,
        )


@dataclass(frozen=True)
class Summary:
    """What the operator wants to know about the games played."""

    games: int = 0
    by_game: dict[str, int] = field(default_factory=dict)
    played_by: dict[str, int] = field(default_factory=dict)  # games with a human / each AI level
    wins: dict[str, int] = field(default_factory=dict)  # games won by humans / each AI level (a shared win once)
    computer_wins: int = 0  # games a computer (any level) won or shared: each game once
    no_winner: int = 0
    mean_turns: float | None = None
    mean_duration_s: float | None = None
    per_day: dict[str, int] = field(default_factory=dict)  # local date -> games finished
    skipped_lines: int = 0
    pending: int = 0  # finished games waiting for the history to be writable (History.pending)
    by_mode: dict[str, int] = field(default_factory=dict)  # mode_of(record) -> games
    scores: dict[str, dict[int, int]] = field(default_factory=dict)  # game -> score -> games
    seat_changes: int = 0  # how often a seat changed hands, in all
    games_seats_changed: int = 0  # games in which a seat changed hands


def mode_of(record: GameRecord) -> str:
    """A game's mode for the statistics: its game and its variant words ("labyrinth",
    "labyrinth open_cards"), whatever words a game files (GameType.variant)."""
    return " ".join((record.game, *record.variant))


def _seq_of(path: Path) -> int:
    return int(path.name.partition("-")[0])


_RECORD_KEYS = frozenset(f.name for f in __import__("dataclasses").fields(GameRecord))


class History:
    """The history file ``history.jsonl`` in the state directory, and the games waiting for it.

    A finished game whose line cannot be appended (a full or failing disk, a history that is
    a link, a directory or another user's file) is kept in a file of its own under
    ``pending/`` (never overwritten by a later game) and appended exactly once when the
    history can be written again (:meth:`flush_pending`, at start and at every game's end).
    When even that file cannot be written, the record waits in memory (:attr:`unwritten`)
    and the caller keeps the game's save.
    """

    def __init__(self, state_dir: Path | str, name: str = HISTORY_NAME):
        self.state_dir = Path(state_dir)
        self.path = self.state_dir / name
        self.pending_dir = self.state_dir / PENDING_DIR
        self.unwritten: list[GameRecord] = []  # durable nowhere yet: retried before the next record

    # ------------------------------------------------------------ writing
    def record(self, record: GameRecord) -> bool:
        """Keep a finished game: appended, else in a pending file of its own. True when it is on
        disk either way; False when it waits in memory only (the caller keeps the game's save)."""
        self.flush_pending()
        if self.append(record) or self._write_pending(record):
            return True
        self.unwritten.append(record)  # the caller says what keeps it (kiosk/store/game_persistence.py)
        return False

    def append(self, record: GameRecord) -> bool:
        """Append one record durably; False (and a log line) on a disk problem."""
        return self.append_all([record])

    def append_all(self, records: Sequence[GameRecord]) -> bool:
        """Append records durably in one write and one fsync (thousands of pending games after a long
        outage must not take thousands of fsyncs at start); False (and a log line) on a disk problem."""
        line = "".join(record.to_json() + "\n" for record in records).encode("utf-8")
        ops = safeio.OPS
        try:
            ops.mkdir(self.path.parent)
            created = not os.path.lexists(self.path)
            flags = (
                os.O_RDWR
                | os.O_APPEND
                | os.O_CREAT
                | os.O_NONBLOCK
                | getattr(os, "O_NOFOLLOW", 0)
                | getattr(os, "O_CLOEXEC", 0)
            )
            fd = ops.open(self.path, flags, 0o600)
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode):
                    raise UnsafeFile(self.path, "not a regular file")
                if st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n":
                    line = b"\n" + line  # end a line torn by a power cut
                ops.write(fd, line)
                ops.fsync(fd)
            finally:
                ops.close(fd)
            if created:
                fsync_dir(self.path.parent)
        except OSError as e:
            log.error("could not append to the game history %s: %s", self.path, e)
            return False
        return True

    def _write_pending(self, record: GameRecord) -> bool:
        """The record in ``pending/NNNNNNNN-ID.json``, a file no later game overwrites."""
        text = record.to_json()
        ident = record.game_id or hashlib.sha256(text.encode()).hexdigest()[:32]
        try:
            safeio.own_dir(self.pending_dir)
            existing = self._pending_files()
            for path in existing:
                if path.name.partition("-")[2] == f"{ident}.json":
                    return True  # already waiting (the same game recorded twice)
            seq = 1 + max((_seq_of(p) for p in existing), default=0)
            atomic_write(self.pending_dir / f"{seq:08d}-{ident}.json", text.encode("utf-8"))
        except OSError as e:
            log.error("could not keep the finished game in %s either: %s", self.pending_dir, e)
            return False
        log.warning("the finished game %s waits in %s until the history can be written", ident, self.pending_dir)
        return True

    def _pending_files(self) -> list[Path]:
        """The pending files, oldest first (by their sequence number); none when the folder is a link."""
        try:
            if not safeio.is_own_dir(self.pending_dir):
                return []
            return sorted((p for p in self.pending_dir.iterdir() if _PENDING.fullmatch(p.name)), key=_seq_of)
        except OSError:
            return []

    def pending(self) -> int:
        """How many finished games wait for the history (on disk or in memory)."""
        return len(self._pending_files()) + len(self.unwritten)

    def flush_pending(self) -> int:
        """Append every waiting game once (those in memory, then the pending files, oldest first);
        a file whose game is in the history already is removed. How many still wait."""
        still = []
        for record in self.unwritten:
            if not (self.append(record) or self._write_pending(record)):
                still.append(record)
        self.unwritten = still
        files = self._pending_files()
        if not files:
            return len(self.unwritten)
        waiting: list[tuple[Path, GameRecord, str]] = []
        for path in files:
            try:
                record = GameRecord.from_json(loads_json(read_bounded(path, LINE_LIMIT, follow_symlinks=False)))
            except (OSError, ValueError, UnicodeDecodeError) as e:
                log.error("the pending game %s is unusable (%s); left where it is", path, e)
                continue
            waiting.append((path, record, record.to_json()))
        found = self._find({r.game_id for _, r, _ in waiting if r.game_id}, {t for _, r, t in waiting if not r.game_id})
        missing = [record for _, record, text in waiting if (record.game_id or text) not in found]
        if missing and not self.append_all(missing):
            return len(self.unwritten) + len(self._pending_files())
        if missing:
            log.info("%d pending game(s) are in the history now", len(missing))
        # every one of them is in the history now: a crash before all files are gone repeats
        # none (the next flush finds them there and only removes their files)
        try:
            for path, _, _ in waiting:
                safeio.OPS.unlink(path)
            fsync_dir(self.pending_dir)
        except OSError as e:
            log.error("could not remove a pending file whose game is in the history: %s", e)
        return len(self.unwritten)

    # ------------------------------------------------------------ reading
    def lines(self) -> Iterator[bytes | None]:
        """The history's lines, streamed in bounded memory (None for a line longer than LINE_LIMIT).

        Raises OSError (UnsafeFile: a link, a FIFO, a directory) when it cannot be read; an
        absent history has no lines."""
        try:
            f = safeio.open_bounded(self.path, follow_symlinks=False)
        except FileNotFoundError:
            return
        with f:
            yield from safeio.split_lines(f, LINE_LIMIT, _CHUNK)

    def records(self, skipped: list[int] | None = None) -> Iterator[GameRecord]:
        """Every readable record, streamed; the count of lines skipped (torn, garbled, out of range)
        goes to ``skipped[0]`` when a list is given. An unreadable history is logged and has none."""
        bad = 0
        try:
            for raw in self.lines():
                if raw is None:
                    bad += 1
                    continue
                if not raw.strip():
                    continue
                try:
                    record = GameRecord.from_json(loads_json(raw))
                except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                    bad += 1
                    continue
                yield record
        except OSError as e:
            log.error("could not read the game history %s: %s", self.path, e)
        finally:
            if bad:
                log.warning("%s: skipped %d unreadable line(s)", self.path, bad)
            if skipped is not None:
                skipped[:] = [bad]

    def read(self) -> tuple[list[GameRecord], int]:
        """All readable records, and the number of lines skipped as torn, garbled or out of range."""
        skipped = [0]
        records = list(self.records(skipped))
        return records, skipped[0]

    def _find(self, game_ids: set[str], texts: set[str] = frozenset()) -> set[str]:  # type: ignore[assignment]
        """Which of these game ids (and exact record lines) the history holds, in one streamed pass."""
        found: set[str] = set()
        if not game_ids and not texts:
            return found
        needles = {f'"game_id":"{g}"'.encode(): g for g in game_ids}
        wanted = {t.encode("utf-8"): t for t in texts}
        try:
            for raw in self.lines():
                if raw is None:
                    continue
                raw = raw.strip()
                if raw in wanted:
                    found.add(wanted[raw])
                for needle, game_id in needles.items():
                    if needle in raw:
                        try:
                            if GameRecord.from_json(loads_json(raw)).game_id == game_id:
                                found.add(game_id)
                        except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                            continue
        except OSError as e:
            log.error("could not read the game history %s: %s", self.path, e)
        return found

    def has(self, game_id: str) -> bool:
        """True when a game with this id is already recorded (an unreadable history counts as no)."""
        return game_id in self._find({game_id})

    def summary(self, tz: tzinfo | None = None) -> Summary:
        skipped = [0]
        s = summarize(self.records(skipped), tz=tz)
        return dataclasses.replace(s, skipped_lines=skipped[0], pending=self.pending())


def summarize(records: Iterable[GameRecord], tz: tzinfo | None = None, skipped_lines: int = 0) -> Summary:
    """Counts and means over `records` (read once: a stream of any length in bounded memory);
    days are local dates (or in `tz`)."""
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    per_day: Counter[str] = Counter()
    by_game: Counter[str] = Counter()
    by_mode: Counter[str] = Counter()
    scores: dict[str, Counter[int]] = {}
    no_winner = computer_wins = games = turns = changes = changed_games = 0
    duration = 0.0
    for r in records:
        games += 1
        by_game[r.game] += 1
        by_mode[mode_of(r)] += 1
        if r.score is not None:
            scores.setdefault(r.game, Counter())[r.score] += 1
        changes += len(r.seat_changes)
        changed_games += bool(r.seat_changes)
        turns += r.turns
        duration += r.duration_s
        for kind in set(r.seats):
            played[kind] += 1
        # a shared win is one game won: two people sharing it are one win for the people, not two
        won_by = {r.seats[seat] for seat in r.winners}
        for kind in won_by:
            wins[kind] += 1
        computer_wins += any(kind != HUMAN for kind in won_by)
        if not r.winners:
            no_winner += 1
        when = datetime.fromtimestamp(parse_time(r.time), timezone.utc).astimezone(tz)
        per_day[when.date().isoformat()] += 1
    if not games:
        return Summary(skipped_lines=skipped_lines)
    return Summary(
        games=games,
        by_game=dict(by_game),
        played_by=dict(played),
        wins=dict(wins),
        computer_wins=computer_wins,
        no_winner=no_winner,
        mean_turns=turns / games,
        mean_duration_s=duration / games,
        per_day=dict(sorted(per_day.items())),
        skipped_lines=skipped_lines,
        by_mode=dict(sorted(by_mode.items())),
        scores={game: dict(sorted(n.items(), reverse=True)) for game, n in sorted(scores.items())},
        seat_changes=changes,
        games_seats_changed=changed_games,
    )


def format_summary(s: Summary, days: int = 14) -> str:
    """The summary as plain text (``--stats`` and the operator menu)."""
    waiting = [f"{s.pending} finished game(s) wait to be written to the history (see the log)"] if s.pending else []
    if not s.games:
        text = "No finished games yet."
        return "\n".join(
            [text + (f" ({s.skipped_lines} unreadable line(s) skipped)" if s.skipped_lines else "")] + waiting
        )
    lines = [f"Games finished: {s.games} (" + ", ".join(f"{n} {g}" for g, n in sorted(s.by_game.items())) + ")"]
    from kiosk import games

    order = games.seat_kinds()
    kinds = sorted(s.played_by, key=lambda k: (order.index(k) if k in order else 99, k))
    for kind in kinds:
        label = "humans" if kind == HUMAN else f"AI {kind}"
        lines.append(f"  {label:<10} won {s.wins.get(kind, 0):>5} of {s.played_by[kind]:>5} games played")
    if s.no_winner:
        lines.append(f"  no winner  {s.no_winner:>9} (turn limit or blocked)")
    lines.append(f"Mean turns: {s.mean_turns:.1f}   mean duration: {_duration(s.mean_duration_s)}")
    lines.append("Games by mode: " + ", ".join(f"{n} {mode}" for mode, n in s.by_mode.items()))
    for game, counts in s.scores.items():
        lines.append(f"Scores of {game}: " + ", ".join(f"{score}: {n} game(s)" for score, n in counts.items()))
    if s.seat_changes:
        lines.append(f"Seats changed hands: {s.seat_changes} time(s) in {s.games_seats_changed} game(s)")
    recent = list(s.per_day.items())[-days:]
    lines.append(f"Games per day (last {len(recent)} day(s) with games):")
    lines += [f"  {day}  {n}" for day, n in recent]
    if s.skipped_lines:
        lines.append(f"({s.skipped_lines} unreadable line(s) skipped)")
    return "\n".join(lines + waiting)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    m, sec = divmod(int(round(seconds)), 60)
    return f"{m} min {sec:02d} s" if m else f"{sec} s"


def print_stats(state_dir: Path | str, out: IO[str] | None = None) -> int:
    """``labyrinth-kiosk --stats``: print which file was read and its summary; exit status 0.

    Naming the file matters: a wrong ``--config`` or ``--state-dir`` would
    otherwise look like a kiosk that never finished a game.
    """
    import sys

    out = out or sys.stdout
    history = History(state_dir)
    if not os.path.lexists(history.path) and not history.pending():
        print(f"No finished games yet: there is no history file {history.path}", file=out)
        return 0
    print(f"History: {history.path}", file=out)
    print(format_summary(history.summary()), file=out)
    return 0


__all__ = ["GameRecord", "History", "Summary", "mode_of", "summarize", "format_summary", "print_stats"]
