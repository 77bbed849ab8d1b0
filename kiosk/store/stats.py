"""The numbers behind the operator menu's charts, from the history (no drawing here).

- games per day over the last :data:`DAYS` days (days without games count 0),
- games by the hour they ended (local time): when the kiosk is busiest,
- board game vs card game: how many, and their mean length,
- each computer level against people: in the games where people played that
  level, how often the computer won and how often a person did.
"""

from __future__ import annotations

import statistics
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone, tzinfo
from typing import Sequence

from kiosk.games import HUMAN
from kiosk.games import seat_kinds
from kiosk.store.history import GameRecord
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


def chart_data(
    records: Sequence[GameRecord], *, today: date | None = None, tz: tzinfo | None = None, days: int = DAYS
) -> ChartData:
    """Everything the charts show; `today` and `tz` default to the kiosk's local date and zone."""
    ended = []
    for r in records:
        try:
            ended.append((r, datetime.fromtimestamp(parse_time(r.time), timezone.utc).astimezone(tz)))
        except (ValueError, OverflowError, OSError):
            continue  # a time no calendar can show: left out of the charts
    if today is None:
        today = datetime.now(timezone.utc).astimezone(tz).date()
    count_by_day = Counter(when.date() for _, when in ended)
    per_day = [
        (today - timedelta(days=k), count_by_day.get(today - timedelta(days=k), 0)) for k in range(days - 1, -1, -1)
    ]
    per_hour = [0] * 24
    for _, when in ended:
        per_hour[when.hour] += 1
    by_game: dict[str, tuple[int, float]] = {}
    for game in sorted({r.game for r, _ in ended}):
        durations = [r.duration_s for r, _ in ended if r.game == game]
        by_game[game] = (len(durations), statistics.fmean(durations))
    levels = []
    for level in seat_kinds()[1:]:  # the AI levels
        games = computer = people = 0
        for r, _ in ended:
            if HUMAN not in r.seats or level not in r.seats:
                continue
            games += 1
            winners = {r.seats[w] for w in r.winners if 0 <= w < len(r.seats)}
            computer += level in winners
            people += HUMAN in winners
        if games:
            levels.append(LevelRecord(level, games, computer, people))
    return ChartData(per_day, per_hour, by_game, levels, len(ended))
