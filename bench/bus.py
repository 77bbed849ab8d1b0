"""Bus figures: post -> dispatch latency (same thread, across threads), throughput, a command's round trip.

    python -m bench.bus        (also part of `make bench`)

- same thread: post one message, dispatch at once (the floor of the bus's cost);
- across threads: another thread posts (as gpiozero and the AI workers do)
  while the main loop sleeps in ``bus.wait()`` (the headless loop) — the time
  from ``post()`` to the handler being called;
- throughput: messages per second through ``dispatch_pending`` with a typed
  and a catch-all handler, and posts per second from 4 threads at once;
- a command's round trip: SelectArrow posted -> the session's PreviewMoved
  handled, in one dispatch call (the bus's share of the input latency; a
  window adds at most one frame, ~16 ms at 60 Hz, on top).
"""

from __future__ import annotations

import threading
import time

from bench.timing import percentile


def _us(values) -> str:
    values = sorted(values)
    return (
        f"p50 {percentile(values, 50) * 1e6:.1f} us, p99 {percentile(values, 99) * 1e6:.1f} us, "
        f"max {values[-1] * 1e6:.1f} us, n={len(values)}"
    )


def same_thread(n: int = 20_000) -> list[float]:
    from kiosk.core.bus import Bus
    from kiosk.games.labyrinth.events import TapCell

    bus = Bus()
    lat: list[float] = []
    bus.subscribe(TapCell, lambda m: None)
    bus.on_dispatch = lambda m, queued: lat.append(queued)
    msg = TapCell((1, 1))
    for _ in range(n):
        bus.post(msg)
        bus.dispatch_pending()
    return lat


def across_threads(n: int = 2_000, gap: float = 0.0005) -> list[float]:
    from kiosk.core.bus import Bus
    from kiosk.core.events import ButtonPressed

    bus = Bus()
    lat: list[float] = []
    done = threading.Event()
    bus.subscribe(ButtonPressed, lambda m: None)
    bus.on_dispatch = lambda m, queued: lat.append(queued)

    def producer() -> None:
        for _ in range(n):
            bus.post(ButtonPressed("N3"))
            time.sleep(gap)
        done.set()

    t = threading.Thread(target=producer)
    t.start()
    while not (done.is_set() and not bus.pending()):
        bus.wait(0.05)
        bus.dispatch_pending()
    t.join()
    return lat


def throughput(n: int = 200_000) -> tuple[float, float]:
    from kiosk.core.bus import Bus
    from kiosk.games.labyrinth.events import Stay

    bus = Bus()
    count = [0]

    def handler(m) -> None:
        count[0] += 1

    bus.subscribe(Stay, handler)
    bus.subscribe_all(lambda m: None)
    msg = Stay()
    t0 = time.perf_counter()
    for _ in range(n):
        bus.post(msg)
    t1 = time.perf_counter()
    bus.dispatch_pending()
    t2 = time.perf_counter()
    assert count[0] == n
    return n / (t1 - t0), n / (t2 - t1)


def threaded_posts(threads: int = 4, per: int = 50_000) -> float:
    from kiosk.core.bus import Bus
    from kiosk.games.labyrinth.events import Stay

    bus = Bus()
    msg = Stay()

    def post_all() -> None:
        for _ in range(per):
            bus.post(msg)

    workers = [threading.Thread(target=post_all) for _ in range(threads)]
    t0 = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return threads * per / (time.perf_counter() - t0)


def command_round_trip(n: int = 2_000) -> list[float]:
    """SelectArrow -> PreviewMoved handled, through the real session and engine."""
    from kiosk.core.bus import Bus
    from kiosk.core.clock import VirtualClock
    from kiosk.core.events import GameSetup, NewGame
    from kiosk.games.labyrinth.events import PreviewMoved, SelectArrow
    from kiosk.games.labyrinth.session import Pacing, Session

    bus = Bus()
    session = Session(bus, VirtualClock(), pacing=Pacing.FAST)
    seen = []
    bus.subscribe(PreviewMoved, lambda e: seen.append(time.perf_counter()))
    bus.post(NewGame(GameSetup.of("human,human", seed=1)))
    bus.dispatch_pending()
    out = []
    arrows = ("N1", "E3")
    for k in range(n):
        t0 = time.perf_counter()
        bus.post(SelectArrow(arrows[k % 2]))
        bus.dispatch_pending()
        out.append(seen[-1] - t0)
    session.close()
    return out


def main() -> None:
    print(f"  post->dispatch, same thread:    {_us(same_thread())}")
    print(f"  post->dispatch, across threads: {_us(across_threads())}")
    posts, dispatches = throughput()
    print(f"  throughput: {posts:,.0f} posts/s, {dispatches:,.0f} dispatches/s (2 handlers each)")
    print(f"  posts from 4 threads at once: {threaded_posts():,.0f} posts/s")
    print(f"  SelectArrow -> PreviewMoved handled (session + engine): {_us(command_round_trip())}")


if __name__ == "__main__":
    main()
