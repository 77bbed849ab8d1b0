"""History figures: the operator's statistics over a large history (kiosk/store/history.py, kiosk/store/stats.py).

    python -m bench.history [GAMES]      (also part of `make bench`; default 270,000 games, ~64 MB)

A kiosk playing 100 games a day writes 270,000 history lines in about seven years. Measured:
the file's size, CPU seconds and peak memory (tracemalloc) of ``labyrinth-kiosk --stats``'s
summary, and of the Statistics page's one-pass count (summary and charts); and how long finding
one game by its id takes (each start after a finished save was recorded). A Pi 4 runs this
Python about 5 times slower: the figures x5 are the Pi's. The page counts on a worker thread, so
the UI loop and the watchdog go on meanwhile whatever the figure.
"""

from __future__ import annotations

import sys
import tempfile
import time
import tracemalloc
from pathlib import Path


def write_history(folder: Path, games: int) -> Path:
    from kiosk.store.history import GameRecord, History

    h = History(folder)
    start = 1_700_000_000.0
    with open(h.path, "w", encoding="utf-8") as f:
        for k in range(games):
            r = GameRecord.make(
                game="labyrinth" if k % 3 else "cards",
                seats=["human", ("easy", "medium", "hard")[k % 3]],
                winners=[k % 2],
                turns=20 + k % 40,
                duration_s=300 + k % 900,
                ended_at=start + 800 * k,
                game_id=f"{k:032x}",
                time_unsynced=False,
            )
            f.write(r.to_json() + "\n")
    return h.path


def measure(what: str, work) -> None:
    """CPU seconds of one run, then the peak of a second one under tracemalloc (which slows it)."""
    t0 = time.process_time()
    result = work()
    cpu = time.process_time() - t0
    tracemalloc.start()
    work()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"  {what}: {cpu:.2f} s CPU (Pi 4 about {cpu * 5:.0f} s), peak {peak / 1e6:.1f} MB traced -> {result}")


def main(games: int = 270_000) -> None:
    from kiosk.store.history import History
    from kiosk.store.stats import count_history

    with tempfile.TemporaryDirectory() as d:
        path = write_history(Path(d), games)
        print(f"  history: {games} games, {path.stat().st_size / 1e6:.1f} MB")
        h = History(d)
        measure("--stats summary", lambda: h.summary().games)
        measure("Statistics page count (summary and charts)", lambda: count_history(h)[0].games)
        measure("find one game by its id (the last)", lambda: h.has(f"{games - 1:032x}"))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 270_000)
