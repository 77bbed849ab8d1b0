"""The numbers behind the operator menu's charts, from the history (no drawing here).

- games per day over the last :data:`DAYS` days (days without games count 0),
- games by the hour they ended (local time): when the kiosk is busiest,
- games by mode (each game, and each of its variants: the history's game and variant words, so
  a game's new modes show without being named here): how many, and their mean length,
- each computer level against people: in the games where people played that
  level, how often the computer won and how often a person did.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Any, Callable, Iterable, Iterator

from kiosk.games import HUMAN
from kiosk.games import seat_kinds
from kiosk.store.history import GameRecord, History, Summary, summarize
from kiosk.store.persistence import parse_time

DAYS = 14


@dataclass(frozen=True)
class LevelRecord:
    """One computer level in games against people."""

    level: str
    games: int  # games with at least one person and this level
    computer_wins: int  # ... that a seat of this level won
    people_wins: int  # ... that a person won


@dataclass(frozen=True)
class ChartData:
    per_day: list[tuple[date, int]] = field(default_factory=list)  # oldest first, DAYS entries
    per_hour: list[int] = field(default_factory=lambda: [0] * 24)
    by_game: dict[str, tuple[int, float]] = field(default_factory=dict)  # game -> (games, mean seconds)
    levels: list[LevelRecord] = field(default_factory=list)
    games: int = 0
    #: (game, variant words) -> (games, mean seconds): the modes (history.mode_of) in the chart
    by_mode: dict[tuple[str, tuple[str, ...]], tuple[int, float]] = field(default_factory=dict)


class ChartTally:
    """The charts' numbers gathered one record at a time (a history of any length in bounded memory)."""

    def __init__(self) -> None:
        self.by_day: Counter[date] = Counter()
        self.per_hour = [0] * 24
        self.durations: dict[str, list[float]] = {}  # game -> [games, total seconds]
        self.modes: dict[tuple[str, tuple[str, ...]], list[float]] = {}  # (game, variant) -> [games, seconds]
        self.levels = {level: [0, 0, 0] for level in seat_kinds()[1:]}  # the AI levels: games, computer, people
        self.games = 0

    def add(self, r: GameRecord, tz: tzinfo | None = None) -> None:
        try:
            when = datetime.fromtimestamp(parse_time(r.time), timezone.utc).astimezone(tz)
        except (ValueError, OverflowError, OSError):
            return  # a time no calendar can show: left out of the charts
        self.games += 1
        self.by_day[when.date()] += 1
        self.per_hour[when.hour] += 1
        total = self.durations.setdefault(r.game, [0, 0.0])
        total[0] += 1
        total[1] += r.duration_s
        mode = self.modes.setdefault((r.game, r.variant), [0, 0.0])
        mode[0] += 1
        mode[1] += r.duration_s
        if HUMAN not in r.seats:
            return
        winners = {r.seats[w] for w in r.winners if 0 <= w < len(r.seats)}
        for level, counts in self.levels.items():
            if level in r.seats:
                counts[0] += 1
                counts[1] += level in winners
                counts[2] += HUMAN in winners

    def result(self, today: date, days: int = DAYS) -> ChartData:
        per_day = [
            (today - timedelta(days=k), self.by_day.get(today - timedelta(days=k), 0)) for k in range(days - 1, -1, -1)
        ]
        by_game = {g: (int(n), total / n) for g, (n, total) in sorted(self.durations.items())}
        levels = [LevelRecord(level, *counts) for level, counts in self.levels.items() if counts[0]]
        by_mode = {m: (int(n), total / n) for m, (n, total) in sorted(self.modes.items())}
        return ChartData(per_day, list(self.per_hour), by_game, levels, self.games, by_mode)


def chart_data(
    records: Iterable[GameRecord], *, today: date | None = None, tz: tzinfo | None = None, days: int = DAYS
) -> ChartData:
    """Everything the charts show; `today` and `tz` default to the kiosk's local date and zone."""
    tally = ChartTally()
    for r in records:
        tally.add(r, tz)
    if today is None:
        today = datetime.now(timezone.utc).astimezone(tz).date()
    return tally.result(today, days)


def count_history(history: History, tz: tzinfo | None = None) -> tuple[Summary, ChartData]:
    """The summary and the charts' numbers in one streamed pass over the history (the operator's
    Statistics page runs this on a worker thread: a large history takes seconds on a Pi)."""
    charts = ChartTally()
    skipped = [0]

    def both() -> Iterator[GameRecord]:
        for r in history.records(skipped):
            charts.add(r, tz)
            yield r

    summary = summarize(both(), tz=tz)
    summary = dataclasses.replace(summary, skipped_lines=skipped[0], pending=history.pending())
    today = datetime.now(timezone.utc).astimezone(tz).date()
    return summary, charts.result(today)


class Background:
    """One call on a daemon thread; :attr:`done` tells the UI loop, which never waits, when to look."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self.result: Any = None
        self.error: BaseException | None = None
        self.done = False
        self._thread = threading.Thread(target=self._run, args=(work,), name="history-count", daemon=True)
        self._thread.start()

    def _run(self, work: Callable[[], Any]) -> None:
        try:
            self.result = work()
        except Exception as exc:  # reported by the page, in one log line
            self.error = exc
        finally:
            self.done = True
