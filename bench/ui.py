"""UI speed, offscreen at 1280x800 (run: .venv/bin/python -m bench.ui [--gl gles] [--size WxH]).

Prints:
* start-up to the first frame (window + GL context + atlas + play screen + one frame), and from a
  fresh process to the first attract frame (imports, the art bake and the demo game included);
* median frame time with a game on screen, and the worst frame during shift animations;
* per kind of frame (game on screen, shift, walk, turn change, attract, card game) the CPU time of
  a frame, p50 / p99 / worst, and the same at the Pi factor (x5: a Pi 4 runs this Python ~5x
  slower) next to its budget: p99 within 3.3 ms here (16.7 ms, 60 fps, on a Pi), worst within
  6.6 ms (33 ms). The budget is judged on the main thread's CPU time (Python and the GL driver's
  front end: what a Pi's CPU runs); all threads' is shown beside it (llvmpipe's rasteriser threads
  fill the pixels, which a Pi's GPU does: not x5);
* the loop turns that drew no frame (news handled, nothing to show);
* waiting for a person: the frames drawn per second and the CPU share of the window loop's pacing
  (kiosk/ui/shell/runner.py Pacer) over 20 s of real time, and the 1,200 fixed-rate steps of old;
* input latency: a mock-pin press on the real debounced button adapter -> the bus ->
  the session -> the first frame that shows the spare previewed at that arrow.
Only frames that are drawn count (the UI skips frames when nothing changed). Each frame
is timed from the UI's step (kiosk tick, animations, drawing) to the end of
glFinish, so the GPU's work (here Mesa llvmpipe) is counted too; its CPU time is the process's
(all threads: llvmpipe's too), which other processes' noise does not inflate. The frames that
redraw the cached still layers (a push starting and landing) are in the shift's.
Goals: median < 8 ms, worst < 33 ms, latency < 50 ms, start-up < 3 s; each line says
whether its goal is met. bench/window.py measures a real window under Xvfb.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import statistics
import time

from bench.timing import percentile

PI_FACTOR = 5  # a Pi 4 runs this Python ~5x slower than this machine (issue 31's N-body figure)
P99_BUDGET_S = 1 / 60 / PI_FACTOR  # 60 fps on a Pi: 3.3 ms of CPU here at the 99th percentile
WORST_BUDGET_S = 2 / 60 / PI_FACTOR  # and never a frame over two (6.6 ms here)
WAIT_S = 20.0  # a person thinking, in real time
TURN_STEPS = 4  # loop turns after a stay counted as the turn change (the panels change hands)
THINK_STEPS = 30  # loop turns (0.5 s) between the board settling and a person's next action: nobody acts sooner


@dataclass
class Frames:
    """The CPU times of some drawn frames: the process's (all threads, llvmpipe's rasteriser
    too) and the main thread's (Python and the GL driver's front end: what a Pi's CPU does; the
    rest is what a Pi's GPU does)."""

    cpu: list[float] = field(default_factory=list)
    main: list[float] = field(default_factory=list)

    def add(self, other: Frames, first: int | None = None) -> None:
        """Append `other`'s frames (only its `first` ones if given)."""
        self.cpu += other.cpu[:first]
        self.main += other.main[:first]


_ATTRACT_CHILD = """
import time
t0 = time.perf_counter()
import sys
from types import SimpleNamespace
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.ui.shell.runner import open_ui
kiosk = Kiosk(options=KioskOptions(fast=True))
ui = open_ui(kiosk, SimpleNamespace(display="offscreen", size=sys.argv[1], gl=sys.argv[2], sound="off"))
assert ui.screen.name == "attract", ui.screen.name
ui.step(1 / 60)
from pyglet import gl
gl.glFinish()
print(time.perf_counter() - t0, time.process_time(), time.thread_time())
"""


def attract_startup(size: str, api: str, runs: int = 3) -> tuple[tuple[float, float, float], float]:
    """A fresh process to the first attract frame drawn: imports, window, GL context, the art (baked, or
    loaded from its disk cache), the demo game and its first frame. The sound's cache is not involved
    (the cues are made on their own thread, after the first frame).

    Started as installed: the installer byte-compiles the kiosk (pip --compile), so the runs here read
    bytecode too (written into a folder of their own by a first run; PYTHONDONTWRITEBYTECODE, set on
    this machine, made every run compile all ~400 modules: half a second). Returns the median of `runs`
    (wall, CPU of all threads, the main thread's CPU) in seconds, and the first run's wall time."""
    import os
    import subprocess
    import sys
    import tempfile

    times = []
    with tempfile.TemporaryDirectory(prefix="bench-pyc-") as pyc:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = pyc
        for _ in range(runs + 1):
            out = subprocess.run(
                [sys.executable, "-c", _ATTRACT_CHILD, size, api], capture_output=True, text=True, timeout=120, env=env
            )
            if out.returncode != 0:
                raise RuntimeError(f"attract start-up run failed: {out.stderr[-1500:]}")
            wall, cpu, main = (float(v) for v in out.stdout.strip().splitlines()[-1].split())
            times.append((wall, cpu, main))
    first, rest = times[0], times[1:]
    median = tuple(statistics.median(t[k] for t in rest) for k in range(3))
    return (median[0], median[1], median[2]), first[0]


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="bench.ui", description="UI frame times and input latency, offscreen")
    ap.add_argument("--gl", choices=("auto", "gl", "gles"), default="auto")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--no-cache", action="store_true", help="draw every layer every frame (the old way)")
    args = ap.parse_args(argv or [])  # `python -m bench` calls main() with no arguments
    width, height = (int(v) for v in args.size.lower().split("x"))
    t0 = time.perf_counter()
    o = Offscreen((width, height), args.gl, cache=not args.no_cache)

    from kiosk.core.events import GameSetup, NewGame
    from kiosk.games.labyrinth.events import Stay

    o.kiosk.bus.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    o.frame()
    startup = time.perf_counter() - t0

    o.frames(30)  # warm caches (glyphs, shaders)
    o.clear()
    idle = o.frames(240)
    idle_cpu = o.times()
    kinds: dict[str, Frames] = {"game on screen": idle_cpu}
    shift_frames, move_frames, shift_cpu, turn_frames, walk_cpu, turn_cpu, thinking = _shifts(o)
    kinds.update({"shift": shift_cpu, "walk": walk_cpu, "turn change": turn_cpu, "a person thinks": thinking})
    latencies = _latencies(o)
    # a person thinking: 20 s (of animation time) with no input; pulses hold still after 8 s
    o.kiosk.bus.post(Stay())
    waiting_drawn = len(o.frames(1200))
    o.kiosk.bus.post(Stay())
    paced = _paced_wait(o)
    o.kiosk.sessions["labyrinth"].close()
    kinds["card game"] = _card_frames(o)
    o.ui.goto("attract")
    o.frames(30)
    o.clear()
    o.frames(900)
    kinds["attract"] = o.times()

    ms = 1000

    def verdict(ok: bool) -> str:
        return "goal met" if ok else "GOAL MISSED"

    api = "OpenGL ES" if getattr(o.window, "gl_api", "gl") == "gles" else "OpenGL"
    mode = "no cache" if o.ui.cache.broken else "frame cache"
    med = statistics.median(idle)
    worst = max(shift_frames)
    print(
        f"ui offscreen {width}x{height}, {api}, {mode}; {len(idle)} + {len(shift_frames)} frames drawn, "
        f"{o.skipped} skipped (nothing changed), cache drawn {o.ui.cache.renders} times"
    )
    print(f"ui start-up to first frame: {startup:.2f} s (goal < 3 s: {verdict(startup < 3)})")
    (wall, cpu, main), first = attract_startup(f"{width}x{height}", args.gl)
    print(
        f"ui start-up, fresh process to the first attract frame, bytecode compiled as installed (median of 3): "
        f"{wall:.2f} s, CPU {cpu:.2f} s, main thread {main:.2f} s (goal CPU <= 0.6 s: {verdict(cpu <= 0.6)}); "
        f"the first run (compiling, the art baked if not cached): {first:.2f} s"
    )
    print(
        f"ui frame, game on screen: median {med * ms:.2f} ms, "
        f"p95 {sorted(idle)[int(len(idle) * 0.95)] * ms:.2f} ms (goal median < 8 ms: {verdict(med < 0.008)}); "
        f"CPU time (all threads) median {statistics.median(idle_cpu.cpu) * ms:.2f} ms"
    )
    if move_frames:
        print(
            f"ui frame, move phase (cells dimmed): median {statistics.median(move_frames) * ms:.2f} ms "
            f"over {len(move_frames)} frames"
        )
    print(
        f"ui shift animation: {len(shift_frames)} frames, median {statistics.median(shift_frames) * ms:.2f} ms, "
        f"worst {worst * ms:.2f} ms (goal worst < 33 ms: {verdict(worst < 0.033)})"
    )
    print(
        f"ui turn change (the frames of the {TURN_STEPS} loop turns after a stay: the panels change hands; "
        f"not in the goal): "
        f"median {statistics.median(turn_frames) * ms:.2f} ms, worst {max(turn_frames) * ms:.2f} ms"
    )
    k = shift_frames.index(worst)
    print(
        f"ui shift animation, CPU time (all threads; not the goal, it tells other processes' noise apart): "
        f"the worst frame's {shift_cpu.cpu[k] * ms:.2f} ms, the most of any frame {max(shift_cpu.cpu) * ms:.2f} ms"
    )
    print(f"ui waiting 20 s for a person, stepped 60 times a second: {waiting_drawn} of 1200 frames drawn")
    drawn, steps, share, late = paced
    print(
        f"ui waiting {WAIT_S:.0f} s for a person, the window loop's pacing: {drawn / WAIT_S:.1f} frames drawn a second "
        f"({drawn}; {late} in the last 10 s, once the pulses hold still), {steps} loop steps, "
        f"CPU {share:.2%} of a core (x{PI_FACTOR} on a Pi 4: {share * PI_FACTOR:.1%})"
    )
    print(
        f"ui frame CPU per kind (budget here: p99 {P99_BUDGET_S * ms:.1f} ms, worst {WORST_BUDGET_S * ms:.1f} ms; "
        f"x{PI_FACTOR} on a Pi 4: {P99_BUDGET_S * PI_FACTOR * ms:.1f} / {WORST_BUDGET_S * PI_FACTOR * ms:.1f} ms). "
        f"The goal is the main thread's CPU (Python and the GL driver: what a Pi's CPU runs); all threads "
        f"adds llvmpipe's rasteriser, the pixels a Pi's GPU fills, not x{PI_FACTOR}:"
    )
    for kind, frames in kinds.items():
        if not frames.cpu:
            print(f"  {kind}: no frame drawn")
            continue
        main_ms = [v * ms for v in (statistics.median(frames.main), percentile(frames.main, 99), max(frames.main))]
        all_ms = [v * ms for v in (statistics.median(frames.cpu), percentile(frames.cpu, 99), max(frames.cpu))]
        ok = main_ms[1] <= P99_BUDGET_S * ms and main_ms[2] <= WORST_BUDGET_S * ms
        share = sum(frames.main) / sum(frames.cpu) if sum(frames.cpu) else 1.0
        print(
            f"  {kind}: n={len(frames.cpu)}, main thread p50 {main_ms[0]:.2f} / p99 {main_ms[1]:.2f} / "
            f"worst {main_ms[2]:.2f} ms, x{PI_FACTOR} on a Pi 4: {main_ms[0] * PI_FACTOR:.1f} / "
            f"{main_ms[1] * PI_FACTOR:.1f} / {main_ms[2] * PI_FACTOR:.1f} ms ({verdict(ok)}); "
            f"all threads {all_ms[0]:.2f} / {all_ms[1]:.2f} / {all_ms[2]:.2f} ms ({share:.0%} of it the main thread's)"
        )
    if o.undrawn:
        print(
            f"ui loop turns that drew nothing (a frame's news handled): "
            f"n={len(o.undrawn)}, main thread p99 {percentile(o.undrawn, 99) * ms:.2f} / worst "
            f"{max(o.undrawn) * ms:.2f} ms (x{PI_FACTOR} on a Pi 4: {max(o.undrawn) * PI_FACTOR * ms:.1f} ms; "
            f"no frame waits for it, an input may)"
        )
    print(
        f"ui input latency mock pin -> preview frame: median {statistics.median(latencies) * ms:.1f} ms, "
        f"worst {max(latencies) * ms:.1f} ms (goal < 50 ms: {verdict(max(latencies) < 0.05)})"
    )


class Offscreen:
    """The kiosk's UI on an offscreen window, with a real clock; :meth:`frame` runs one loop turn."""

    def __init__(self, size: tuple[int, int], gl_api: str, cache: bool) -> None:
        from kiosk.ui.shell.window import UI, make_window, prepare_pyglet

        prepare_pyglet("offscreen", gl_api)
        from pyglet import gl

        from kiosk.core.clock import RealClock
        from kiosk.core.testing import MiniKiosk

        self.gl = gl
        self.kiosk = MiniKiosk(clock=RealClock())
        self.window = make_window("offscreen", size, gl_api)
        self.ui = UI(self.kiosk, self.window, layout="tabletop", first="play")
        if not cache:
            self.ui.cache.broken = "switched off (--no-cache)"
        self.skipped = 0
        # each drawn frame's CPU time, all threads (llvmpipe's too): on a machine busy with other
        # work the clock time waits for a core, the CPU time does not (compare changes with it)
        self.cpu: list[float] = []
        # and the main thread's alone: Python and the GL driver's front end, what a Pi's CPU runs
        # (llvmpipe's rasteriser threads do what a Pi's GPU does)
        self.main: list[float] = []
        self.last_cpu = 0.0  # the last drawn frame's CPU time
        self.last_main = 0.0  # and its main thread's
        # the main thread's CPU of each loop turn that drew nothing
        self.undrawn: list[float] = []

    def frame(self, dt: float = 1 / 60) -> float | None:
        """One loop turn; its time in seconds if a frame was drawn, None if it was skipped."""
        t, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
        drawn = self.ui.step(dt)
        self.gl.glFinish()
        if not drawn:
            self.skipped += 1
            self.undrawn.append(time.thread_time() - main)
            return None
        took = time.perf_counter() - t
        self.last_cpu = time.process_time() - cpu
        self.last_main = time.thread_time() - main
        self.cpu.append(self.last_cpu)
        self.main.append(self.last_main)
        return took

    def clear(self) -> None:
        """Forget the CPU times recorded so far."""
        self.cpu.clear()
        self.main.clear()

    def times(self) -> Frames:
        """The CPU times recorded since :meth:`clear` (process, main thread)."""
        return Frames(list(self.cpu), list(self.main))

    def frames(self, count: int) -> list[float]:
        """The times of the frames drawn in `count` loop turns."""
        return [took for took in (self.frame() for _ in range(count)) if took is not None]

    @property
    def game(self) -> Any:
        """The running board game (engine.Game)."""
        return self.kiosk.sessions["labyrinth"].running

    def board(self) -> Any:
        """The play screen's board view."""
        from kiosk.games.labyrinth.screens.play import PlayScreen

        screen = self.ui.screen
        if not isinstance(screen, PlayScreen):
            raise RuntimeError(f"the play screen is not showing ({type(screen).__name__})")
        return screen.board


def _shifts(
    o: Offscreen,
) -> tuple[list[float], list[float], Frames, list[float], Frames, Frames, Frames]:
    """Eight pushes, each followed by a walk (every other turn) or a stay: the frames of the shift
    animations, of one move phase, the shift frames' CPU times (all threads), the first frame of
    each next turn, and the CPU times of the walks' frames, of the turn changes and of the frames
    drawn while a person thinks.

    The frames that redraw the cached still layers (a push starting and landing) count as shift frames.
    Half a second of loop turns (THINK_STEPS) comes before each action, as a person takes at least that.
    """
    from kiosk.games.labyrinth.events import PushArrow, Stay, TapCell

    shift_frames: list[float] = []
    shift_cpu = Frames()
    move_frames: list[float] = []
    turn_frames: list[float] = []
    walk_cpu = Frames()
    turn_cpu = Frames()
    thinking = Frames()  # the frames drawn while a person thinks (pulses)

    def think() -> None:
        o.clear()
        o.frames(THINK_STEPS)
        thinking.add(o.times())

    def shift_frame() -> None:
        took = o.frame()
        if took is not None:
            shift_frames.append(took)
            shift_cpu.cpu.append(o.last_cpu)
            shift_cpu.main.append(o.last_main)

    arrows = ["N1", "E3", "S5", "W1", "N5", "E1", "S3", "W5"]
    for k in range(8):
        arrow = next(a for a in arrows[k:] + arrows if a != o.game.forbidden)
        think()
        o.kiosk.bus.post(PushArrow(arrow))
        shift_frame()  # the push arrives: the row leaves the cache, the slide starts
        while o.ui.busy():
            shift_frame()
        shift_frame()  # the row has landed: the cache is drawn again
        if k == 0:  # the move phase: reachable cells lit, the rest dimmed
            move_frames += o.frames(120)
        here = o.game.players[o.game.current].position
        far = sorted(o.game.reachable() - {here})
        think()
        if k % 2 and far:
            o.kiosk.bus.post(TapCell(far[-1]))  # the pawn walks; the panels change hands as it lands
            o.clear()
            o.frame()
            while o.ui.busy():
                o.frame()
            o.frames(3)
            walk_cpu.add(o.times())
            continue
        o.kiosk.bus.post(Stay())
        o.clear()
        turn_frames += o.frames(TURN_STEPS)  # every frame of it: its work may be spread over a few
        turn_cpu.add(o.times())
    return shift_frames, move_frames, shift_cpu, turn_frames, walk_cpu, turn_cpu, thinking


def _paced_wait(o: Offscreen) -> tuple[int, int, float, int]:
    """A person thinking for WAIT_S of real time, the UI driven by the window loop's Pacer (sleeping
    as it says): frames drawn, loop steps, the CPU share of a core, frames drawn in the last 10 s."""
    from kiosk.ui.shell.runner import Pacer

    pacer = Pacer(o.ui, o.kiosk)
    o.kiosk.bus.on_post = pacer.wake
    start = time.monotonic()
    end, cpu = start + WAIT_S, time.process_time()
    late_from: int | None = None
    try:
        while (now := time.monotonic()) < end:
            if late_from is None and now >= end - 10:
                late_from = pacer.drawn
            time.sleep(min(pacer.turn(), max(0.0, end - time.monotonic())))
    finally:
        o.kiosk.bus.on_post = None
    share = (time.process_time() - cpu) / (time.monotonic() - start)
    return pacer.drawn, pacer.steps, share, pacer.drawn - (late_from or 0)


def _card_frames(o: Offscreen) -> Frames:
    """The CPU times of a card game's frames: a person and a computer play six rounds (pick a
    card, turn it, lay it, take, the computer's turn)."""
    from kiosk.core.events import GameSetup, NewGame
    from kiosk.games.cards.events import ConfirmTake, DiscardCard, LayCard, RotateHandCard, SelectHandCard

    bus = o.kiosk.bus
    bus.post(NewGame(GameSetup.of("human,easy", seed=5, game="cards")))
    o.frames(60)
    session = o.kiosk.sessions["cards"]
    o.clear()
    for _ in range(6):
        for _wait in range(900):  # the computer's turn
            g = session.game
            if g is None or g.phase == "over" or (g.current == 0 and not session.busy):
                break
            o.frame()
        g = session.game
        if g is None or g.phase == "over":
            break
        if g.phase == "place":
            place = g.legal_placements()[0]
            bus.post(SelectHandCard(g.hand.index(place.card)))
            o.frames(20)
            if place.rotation:
                bus.post(RotateHandCard(turns=place.rotation))
                o.frames(20)
            bus.post(LayCard(place.cell))
            o.frames(30)
        elif g.phase == "discard":
            bus.post(DiscardCard(0))
            o.frames(30)
        if g.phase == "take":
            bus.post(ConfirmTake())
            o.frames(30)
    cpu = o.times()
    session.close()
    return cpu


def _latencies(o: Offscreen) -> list[float]:
    """Seconds from a mock-pin press on the real debounced button adapter to the first frame showing the preview."""
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import ArrowButtons
    from kiosk.core.events import ButtonPressed
    from kiosk.games.labyrinth.events import SelectArrow

    factory = MockFactory()
    bus = o.kiosk.bus
    buttons = ArrowButtons(
        {"N3": 17, "E3": 5}, lambda name: bus.post(ButtonPressed(name)), bounce=0.0, pin_factory=factory
    )
    latencies = []
    for k in range(10):
        arrow = "N3" if k % 2 == 0 else "E3"
        if arrow == o.game.forbidden:
            arrow = "E3" if arrow == "N3" else "N3"
        pin = factory.pin(17 if arrow == "N3" else 5)
        t = time.perf_counter()
        pin.drive_low()
        while True:
            o.frame()  # (a skipped frame would not show it: the loop goes on)
            board = o.board()
            if board.model.preview == arrow and board._preview_tile.visible:
                break
            if time.perf_counter() - t > 2:
                raise RuntimeError("the preview never showed")
        latencies.append(time.perf_counter() - t)
        pin.drive_high()
        time.sleep(0.002)
        bus.post(SelectArrow("W1" if o.game.forbidden != "W1" else "W3"))
        o.frame()
    buttons.close()
    return latencies


if __name__ == "__main__":
    import sys

    main(sys.argv[1:])
