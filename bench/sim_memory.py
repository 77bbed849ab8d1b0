"""The simulator's parent memory against the number of games (issue: 1,000,000 games under 100 MB).

Plays `medium` against `easy` (the cheapest real pairing, so the most games per
second) with ``kiosk.tools.sim.sweep.run`` on two worker processes and samples the parent's
resident memory (VmRSS, and the peak VmHWM) as the games come in. With
streaming statistics the curve is flat: the parent holds histograms, not games.

    python -m bench.sim_memory                    # 2,000 games (part of `make bench`)
    nice -n 10 python -m bench.sim_memory --games 100000
"""

from __future__ import annotations

import argparse
import sys
import time

from kiosk.tools.sim import sweep as sim

DEFAULT_GAMES = 2_000


def rss_kib() -> tuple[int, int]:
    """(resident now, resident peak) of this process in KiB, from /proc (Linux)."""
    now = peak = 0
    with open("/proc/self/status", encoding="ascii") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                now = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1])
    return now, peak


class Sampler(sim.Progress):
    """Progress that notes the parent's memory at 1, 2, 5 x 10^k games."""

    def __init__(self, total: int):
        super().__init__(total, stream=sys.stderr)
        self.tty = False
        self.marks = sorted({m * 10**k for k in range(2, 7) for m in (1, 2, 5) if m * 10**k <= total} | {total})
        self.samples: list[tuple[int, int, int, float]] = []
        self.began = time.perf_counter()

    def update(self, n: int) -> None:
        self.done += n
        while self.marks and self.done >= self.marks[0]:
            now, peak = rss_kib()
            self.samples.append((self.marks.pop(0), now, peak, time.perf_counter() - self.began))
            print(
                f"  {self.samples[-1][0]:>9,} games  parent RSS {now / 1024:6.1f} MB  peak {peak / 1024:6.1f} MB"
                f"  {self.samples[-1][3]:7.0f} s",
                flush=True,
            )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.sim_memory")
    parser.add_argument("--games", type=int, default=DEFAULT_GAMES)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument(
        "--ai",
        default="medium,easy",
        help="the levels (default medium,easy); e.g. random with --turn-cap 2 for a quick "
        "look at a million results arriving in the parent",
    )
    parser.add_argument("--turn-cap", type=int, default=1000)
    args = parser.parse_args([] if argv is None else argv)
    entries = tuple(args.ai.split(","))
    entries = entries * 2 if len(entries) == 1 else entries
    spec = sim.Spec(
        game="labyrinth", entries=entries, seed=1, turn_cap=args.turn_cap, rotate=True, paired=len(set(entries)) > 1
    )
    now, peak = rss_kib()
    print(
        f"labyrinth-sim parent memory, {' vs '.join(entries)}, turn cap {args.turn_cap}, {args.games:,} games "
        f"on {args.jobs} workers (before: RSS {now / 1024:.1f} MB)"
    )
    sampler = Sampler(args.games)
    summary = sim.run(spec, args.games, args.jobs, sampler)
    data = summary.to_json()
    first, last = sampler.samples[0], sampler.samples[-1]
    growth = (last[1] - first[1]) / max(1, last[0] - first[0]) * 1024
    print(
        f"  growth {growth:.1f} bytes per game between {first[0]:,} and {last[0]:,} games; "
        f"{data['games_per_cpu_second']:.0f} games per CPU second; {entries[0]} wins "
        f"{data['players'][0]['win_rate']:.1%}"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
