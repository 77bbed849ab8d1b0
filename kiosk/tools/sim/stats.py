"""Streaming statistics for labyrinth-sim: constant memory, and merging that is exact.

A sweep of a million games must not keep a million games in the parent, and a
sweep split into shards (or run on a cluster) must add up to exactly the
result of one run. So every figure is kept as something that adds:

* whole numbers (turns per game) in an exact histogram, value -> count: the
  mean and every percentile are the same as from the full list of values;
* decision times in a histogram with logarithmic buckets 1% wide: counts add
  exactly, a percentile is the middle of its bucket (within 0.5% of the value
  a sorted list would give), the maximum is exact;
* counters (wins, draws, games that hit the turn limit) and the longest game.

Merging two summaries adds the counts: the order of merging does not matter,
and the histograms of two shards merged are the histograms of one run.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable, Sequence

#: Width of a decision-time bucket: each bucket is 1% wider than the one below.
TIME_BASE = 1.01
#: Times below this many milliseconds all go to one bucket (-1): a microsecond.
TIME_FLOOR_MS = 0.001
_LOG_BASE = math.log(TIME_BASE)


class Counts:
    """An exact histogram of whole numbers (value -> how many times)."""

    __slots__ = ("counts",)

    def __init__(self, pairs: Iterable[Sequence[int]] = ()):
        self.counts: Counter[int] = Counter()
        for value, n in pairs:
            self.counts[int(value)] += int(n)

    def add(self, value: int, n: int = 1) -> None:
        self.counts[value] += n

    def merge(self, other: "Counts") -> None:
        self.counts.update(other.counts)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    def mean(self) -> float:
        n = self.n
        return sum(v * c for v, c in self.counts.items()) / n if n else 0.0

    def max(self) -> int:
        return max(self.counts, default=0)

    def _at_rank(self, rank: int) -> int:
        seen = 0
        for value in sorted(self.counts):
            seen += self.counts[value]
            if rank < seen:
                return value
        raise IndexError(rank)

    def percentile(self, q: float) -> float:
        """The same linear interpolation as over the sorted list of values; 0.0 when empty."""
        n = self.n
        if not n:
            return 0.0
        pos = (n - 1) * q / 100.0
        lo = math.floor(pos)
        hi = min(lo + 1, n - 1)
        a, b = self._at_rank(lo), self._at_rank(hi)
        return a + (b - a) * (pos - lo)

    def to_json(self) -> list[list[int]]:
        return [[v, self.counts[v]] for v in sorted(self.counts)]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Counts) and +self.counts == +other.counts


def time_bucket(ms: float) -> int:
    """The bucket of a duration: k holds [FLOOR * BASE**k, FLOOR * BASE**(k+1)); -1 below the floor."""
    if ms < TIME_FLOOR_MS:
        return -1
    return int(math.log(ms / TIME_FLOOR_MS) / _LOG_BASE)


def bucket_value(k: int) -> float:
    """A bucket's representative: its geometric middle (0 for the bucket below the floor)."""
    if k < 0:
        return 0.0
    return float(TIME_FLOOR_MS * TIME_BASE ** (k + 0.5))


class Durations:
    """Decision times in milliseconds: log buckets 1% wide, exact count, total and maximum."""

    __slots__ = ("buckets", "count", "total", "peak")

    def __init__(self) -> None:
        self.buckets: Counter[int] = Counter()
        self.count = 0
        self.total = 0.0
        self.peak = 0.0

    def add(self, ms: float) -> None:
        self.buckets[time_bucket(ms)] += 1
        self.count += 1
        self.total += ms
        if ms > self.peak:
            self.peak = ms

    def extend(self, values: Iterable[float]) -> None:
        for v in values:
            self.add(v)

    def merge(self, other: "Durations") -> None:
        self.buckets.update(other.buckets)
        self.count += other.count
        self.total += other.total
        self.peak = max(self.peak, other.peak)

    def percentile(self, q: float) -> float:
        """The middle of the bucket holding the q-th percentile (nearest rank); 0.0 when empty."""
        if not self.count:
            return 0.0
        rank = max(0, math.ceil(self.count * q / 100.0) - 1)
        seen = 0
        for k in sorted(self.buckets):
            seen += self.buckets[k]
            if rank < seen:
                return min(bucket_value(k), self.peak)
        return self.peak

    def summary(self) -> dict[str, Any]:
        return {
            "p50": self.percentile(50),
            "p99": self.percentile(99),
            "mean": self.total / self.count if self.count else 0.0,
            "max": self.peak,
            "decisions": self.count,
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "buckets": [[k, self.buckets[k]] for k in sorted(self.buckets)],
            "count": self.count,
            "total": self.total,
            "max": self.peak,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Durations":
        new = cls()
        for k, n in data["buckets"]:
            new.buckets[int(k)] += int(n)
        new.count, new.total, new.peak = int(data["count"]), float(data["total"]), float(data["max"])
        return new


# ----------------------------------------------------------------- game ranges


def add_range(ranges: list[list[int]], start: int, stop: int) -> list[list[int]]:
    """Games [start, stop) added to a sorted list of disjoint [start, stop) ranges; raises
    ValueError when they overlap games already counted (the same game twice)."""
    if start >= stop:
        return ranges
    for a, b in ranges:
        if a < stop and start < b:
            raise ValueError(f"games {max(a, start)}-{min(b, stop) - 1} are counted twice")
    joined: list[list[int]] = []
    for a, b in sorted([*ranges, [start, stop]]):
        if joined and joined[-1][1] == a:
            joined[-1][1] = b
        else:
            joined.append([a, b])
    return joined


def missing(ranges: list[list[int]], start: int, stop: int) -> list[list[int]]:
    """The parts of [start, stop) not covered by `ranges`."""
    gaps, at = [], start
    for a, b in ranges:
        if b <= at or a >= stop:
            continue
        if a > at:
            gaps.append([at, min(a, stop)])
        at = max(at, b)
    if at < stop:
        gaps.append([at, stop])
    return gaps
