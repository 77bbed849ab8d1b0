"""Small helpers shared by the benchmarks: repeat a call, report percentiles."""

from __future__ import annotations

import statistics
import time
from typing import Callable, Sequence


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by nearest rank; enough for benchmark reports."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    k = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]


def time_calls(fn: Callable[[], object], repeat: int) -> list[float]:
    """Seconds per call, one entry per call."""
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(values: Sequence[float], scale: float = 1e3, unit: str = "ms") -> str:
    return (
        f"median {statistics.median(values) * scale:.3f} {unit}, "
        f"p99 {percentile(values, 99) * scale:.3f} {unit}, n={len(values)}"
    )
