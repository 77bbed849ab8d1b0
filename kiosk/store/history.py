"""The history of finished games: one JSON line per game, and its summary.

Appending one line and fsyncing it is the cheapest durable record there is,
and a power cut can only tear the last line. Reading skips a torn or garbled
line instead of failing; appending after a torn line first ends it, so the
new record stays whole. The operator menu and ``labyrinth-kiosk --stats``
show :func:`summarize`.
"""

from __future__ import annotations

import json
import logging
import math
import os
import re
import stat
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Any, Iterable, Sequence

from kiosk.games import HUMAN
from kiosk.store import safeio
from kiosk.store.persistence import MAX_SEATS, fsync_dir, parse_time, utc_now_iso
from kiosk.store.safeio import HISTORY_LIMIT, UnsafeFile, loads_json, read_bounded

log = logging.getLogger(__name__)

HISTORY_NAME = "history.jsonl"
#: A history line is about 250 bytes; a longer one is damage.
LINE_LIMIT = 16 * 1024
#: A name in a record (game, seat kind, variant, outcome): short, printable, one line. The
#: export quotes what a spreadsheet would take for a formula (kiosk/tools/stats_export.py).
_WORD = re.compile(r"[^\x00-\x1f\x7f]{1,64}")
_GAME_ID = re.compile(r"[0-9A-Za-z_-]{1,64}")
#: Bounds of a record's numbers: more than any game lasts (about 30 years of play in seconds).
MAX_TURNS = 10**6
MAX_DURATION_S = 1e9


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
    ) -> "GameRecord":
        """Build a record; `ended_at` (epoch seconds) defaults to now."""
        import time as _time

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
        )

    def to_json(self) -> str:
        fields = asdict(self)
        if fields["game_id"] is None:
            del fields["game_id"]
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


_RECORD_KEYS = frozenset(f.name for f in __import__("dataclasses").fields(GameRecord))


class History:
    """The history file ``history.jsonl`` in the state directory."""

    def __init__(self, state_dir: Path | str, name: str = HISTORY_NAME):
        self.path = Path(state_dir) / name

    def append(self, record: GameRecord) -> bool:
        """Append one record durably; False (and a log line) on a disk problem."""
        line = (record.to_json() + "\n").encode("utf-8")
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

    def _lines(self) -> list[bytes] | None:
        try:
            data = read_bounded(self.path, HISTORY_LIMIT, follow_symlinks=False)
        except FileNotFoundError:
            return []
        except OSError as e:
            log.error("could not read the game history %s: %s", self.path, e)
            return None
        return data.split(b"\n")

    def read(self) -> tuple[list[GameRecord], int]:
        """All readable records, and the number of lines skipped as torn, garbled or out of range."""
        lines = self._lines() or []
        records, skipped = [], 0
        for raw in lines:
            if not raw.strip():
                continue
            try:
                if len(raw) > LINE_LIMIT:
                    raise ValueError("line too long")
                records.append(GameRecord.from_json(loads_json(raw)))
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                skipped += 1
        if skipped:
            log.warning("%s: skipped %d unreadable line(s)", self.path, skipped)
        return records, skipped

    def has(self, game_id: str) -> bool:
        """True when a game with this id is already recorded (an unreadable history counts as no)."""
        needle = f'"game_id":"{game_id}"'.encode()
        for raw in self._lines() or []:
            if needle in raw and len(raw) <= LINE_LIMIT:
                try:
                    if GameRecord.from_json(loads_json(raw)).game_id == game_id:
                        return True
                except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                    continue
        return False

    def summary(self, tz: tzinfo | None = None) -> Summary:
        records, skipped = self.read()
        return summarize(records, tz=tz, skipped_lines=skipped)


def summarize(records: Sequence[GameRecord], tz: tzinfo | None = None, skipped_lines: int = 0) -> Summary:
    """Counts and means over `records`; days are local dates (or in `tz`)."""
    if not records:
        return Summary(skipped_lines=skipped_lines)
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    per_day: Counter[str] = Counter()
    no_winner = computer_wins = 0
    for r in records:
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
    return Summary(
        games=len(records),
        by_game=dict(Counter(r.game for r in records)),
        played_by=dict(played),
        wins=dict(wins),
        computer_wins=computer_wins,
        no_winner=no_winner,
        mean_turns=statistics.fmean(r.turns for r in records),
        mean_duration_s=statistics.fmean(r.duration_s for r in records),
        per_day=dict(sorted(per_day.items())),
        skipped_lines=skipped_lines,
    )


def format_summary(s: Summary, days: int = 14) -> str:
    """The summary as plain text (``--stats`` and the operator menu)."""
    if not s.games:
        text = "No finished games yet."
        return text + (f" ({s.skipped_lines} unreadable line(s) skipped)" if s.skipped_lines else "")
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
    recent = list(s.per_day.items())[-days:]
    lines.append(f"Games per day (last {len(recent)} day(s) with games):")
    lines += [f"  {day}  {n}" for day, n in recent]
    if s.skipped_lines:
        lines.append(f"({s.skipped_lines} unreadable line(s) skipped)")
    return "\n".join(lines)


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "-"
    m, sec = divmod(int(round(seconds)), 60)
    return f"{m} min {sec:02d} s" if m else f"{sec} s"


def print_stats(state_dir: Path | str, out=None) -> int:
    """``labyrinth-kiosk --stats``: print which file was read and its summary; exit status 0.

    Naming the file matters: a wrong ``--config`` or ``--state-dir`` would
    otherwise look like a kiosk that never finished a game.
    """
    import sys

    out = out or sys.stdout
    history = History(state_dir)
    if not os.path.lexists(history.path):
        print(f"No finished games yet: there is no history file {history.path}", file=out)
        return 0
    print(f"History: {history.path}", file=out)
    print(format_summary(history.summary()), file=out)
    return 0


__all__ = ["GameRecord", "History", "Summary", "summarize", "format_summary", "print_stats"]
