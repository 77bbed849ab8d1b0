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
import os
import statistics
from collections import Counter
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone, tzinfo
from pathlib import Path
from typing import Any, Iterable, Sequence

from .persistence import fsync_dir, parse_time, utc_now_iso

log = logging.getLogger(__name__)

HISTORY_NAME = "history.jsonl"


@dataclass(frozen=True)
class GameRecord:
    """One finished game as written to the history."""

    time: str                        # when it ended, ISO 8601 with zone
    game: str                        # the registered game's name (kiosk.games)
    players: int
    seats: tuple[str, ...]           # per seat: "human" or the AI level
    variant: tuple[str, ...]         # e.g. ("open_cards", "no_return_home"); () = classic rules
    winners: tuple[int, ...]         # seat indices; several on a shared win; () = nobody
    turns: int
    duration_s: float
    outcome: str = "won"             # "won", "turn_limit", "blocked" ...

    @classmethod
    def make(cls, *, game: str, seats: Sequence[str], winners: Iterable[int], turns: int,
             duration_s: float, variant: Iterable[str] = (), outcome: str = "won",
             ended_at: float | None = None) -> "GameRecord":
        """Build a record; `ended_at` (epoch seconds) defaults to now."""
        import time as _time
        return cls(utc_now_iso(_time.time() if ended_at is None else ended_at), game, len(seats),
                   tuple(seats), tuple(variant), tuple(winners), int(turns),
                   round(float(duration_s), 3), outcome)

    def to_json(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"), ensure_ascii=False)

    @classmethod
    def from_json(cls, obj: Any) -> "GameRecord":
        if not isinstance(obj, dict):
            raise ValueError("not an object")
        seats = tuple(str(s) for s in obj["seats"])
        winners = tuple(int(w) for w in obj.get("winners", ()))
        if any(not 0 <= w < len(seats) for w in winners):
            raise ValueError(f"winner {winners} outside the {len(seats)} seats")
        parse_time(obj["time"])
        return cls(str(obj["time"]), str(obj["game"]), int(obj.get("players", len(seats))), seats,
                   tuple(str(v) for v in obj.get("variant", ())), winners, int(obj["turns"]),
                   float(obj["duration_s"]), str(obj.get("outcome", "won")))


@dataclass(frozen=True)
class Summary:
    """What the operator wants to know about the games played."""

    games: int = 0
    by_game: dict[str, int] = field(default_factory=dict)
    played_by: dict[str, int] = field(default_factory=dict)  # games with a human / each AI level
    wins: dict[str, int] = field(default_factory=dict)       # wins by humans / each AI level
    no_winner: int = 0
    mean_turns: float | None = None
    mean_duration_s: float | None = None
    per_day: dict[str, int] = field(default_factory=dict)    # local date -> games finished
    skipped_lines: int = 0


class History:
    """The history file ``history.jsonl`` in the state directory."""

    def __init__(self, state_dir: Path | str, name: str = HISTORY_NAME):
        self.path = Path(state_dir) / name

    def append(self, record: GameRecord) -> bool:
        """Append one record durably; False (and a log line) on a disk problem."""
        line = (record.to_json() + "\n").encode("utf-8")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            created = not self.path.exists()
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            try:
                size = os.fstat(fd).st_size
                if size and _last_byte(self.path, size) != b"\n":
                    line = b"\n" + line  # end a line torn by a power cut
                os.write(fd, line)
                os.fsync(fd)
            finally:
                os.close(fd)
            if created:
                fsync_dir(self.path.parent)
        except OSError as e:
            log.error("could not append to the game history %s: %s", self.path, e)
            return False
        return True

    def read(self) -> tuple[list[GameRecord], int]:
        """All readable records, and the number of lines skipped as torn or garbled."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return [], 0
        except OSError as e:
            log.error("could not read the game history %s: %s", self.path, e)
            return [], 0
        records, skipped = [], 0
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                records.append(GameRecord.from_json(json.loads(raw)))
            except (ValueError, KeyError, TypeError):
                skipped += 1
        if skipped:
            log.warning("%s: skipped %d unreadable line(s)", self.path, skipped)
        return records, skipped

    def summary(self, tz: tzinfo | None = None) -> Summary:
        records, skipped = self.read()
        return summarize(records, tz=tz, skipped_lines=skipped)


def _last_byte(path: Path, size: int) -> bytes:
    with open(path, "rb") as f:
        f.seek(size - 1)
        return f.read(1)


def summarize(records: Sequence[GameRecord], tz: tzinfo | None = None,
              skipped_lines: int = 0) -> Summary:
    """Counts and means over `records`; days are local dates (or in `tz`)."""
    if not records:
        return Summary(skipped_lines=skipped_lines)
    played: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    per_day: Counter[str] = Counter()
    no_winner = 0
    for r in records:
        for kind in set(r.seats):
            played[kind] += 1
        for seat in r.winners:
            wins[r.seats[seat]] += 1
        if not r.winners:
            no_winner += 1
        when = datetime.fromtimestamp(parse_time(r.time), timezone.utc).astimezone(tz)
        per_day[when.date().isoformat()] += 1
    return Summary(
        games=len(records),
        by_game=dict(Counter(r.game for r in records)),
        played_by=dict(played),
        wins=dict(wins),
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
    lines = [f"Games finished: {s.games} ("
             + ", ".join(f"{n} {g}" for g, n in sorted(s.by_game.items())) + ")"]
    from . import games
    order = games.seat_kinds()
    kinds = sorted(s.played_by, key=lambda k: (order.index(k) if k in order else 99, k))
    for kind in kinds:
        label = "humans" if kind == "human" else f"AI {kind}"
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
    if not history.path.exists():
        print(f"No finished games yet: there is no history file {history.path}", file=out)
        return 0
    print(f"History: {history.path}", file=out)
    print(format_summary(history.summary()), file=out)
    return 0


__all__ = ["GameRecord", "History", "Summary", "summarize", "format_summary", "print_stats"]
