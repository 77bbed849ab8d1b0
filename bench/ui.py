"""UI speed, offscreen at 1280x800 (run: .venv/bin/python -m bench.ui [--gl gles] [--size WxH]).

Prints:
* start-up to the first frame (window + GL context + atlas + play screen + one frame), and from a
  fresh process to the first attract frame (imports, the art bake and the demo game included);
* median frame time with a game on screen, and the worst frame during shift animations;
* input latency: a mock-pin press on the real debounced button adapter -> the bus ->
  the session -> the first frame that shows the spare previewed at that arrow.
Only frames that are drawn count (the UI skips frames when nothing changed; with a
game on screen the active pawn's ring pulses, so every frame is drawn). Each frame
is timed from the UI's step (kiosk tick, animations, drawing) to the end of
glFinish, so the GPU's work (here Mesa llvmpipe) is counted too. The frames that
redraw the cached still layers (a push starting and landing) are in the worst case.
Goals: median < 8 ms, worst < 33 ms, latency < 50 ms, start-up < 3 s; each line says
whether its goal is met.
"""

from __future__ import annotations

import statistics
import time


_ATTRACT_CHILD = """
import time
t0 = time.perf_counter()
import sys
from types import SimpleNamespace
from kiosk.app import Kiosk, KioskOptions
from kiosk.ui.runner import open_ui
kiosk = Kiosk(options=KioskOptions(fast=True))
ui = open_ui(kiosk, SimpleNamespace(display="offscreen", size=sys.argv[1], gl=sys.argv[2], sound="off"))
assert ui.screen.name == "attract", ui.screen.name
ui.step(1 / 60)
from pyglet import gl
gl.glFinish()
print(time.perf_counter() - t0)
"""


def attract_startup(size: str, api: str) -> float:
    """Seconds from a fresh process to the first attract frame drawn: imports, window, GL context,
    the art bake (atlas), the demo game and its first frame. The sound's cache is not involved
    (the cues are made on their own thread, after the first frame)."""
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", _ATTRACT_CHILD, size, api], capture_output=True, text=True,
                         timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"attract start-up run failed: {out.stderr[-1500:]}")
    return float(out.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> None:
    import argparse
    ap = argparse.ArgumentParser(prog="bench.ui", description="UI frame times and input latency, offscreen")
    ap.add_argument("--gl", choices=("auto", "gl", "gles"), default="auto")
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--no-cache", action="store_true", help="draw every layer every frame (the old way)")
    args = ap.parse_args(argv or [])        # `python -m bench` calls main() with no arguments
    width, height = (int(v) for v in args.size.lower().split("x"))
    t0 = time.perf_counter()
    from kiosk.ui.app import UI, make_window, prepare_pyglet
    prepare_pyglet("offscreen", args.gl)
    from pyglet import gl

    from kiosk.clock import RealClock
    from kiosk.events import ButtonPressed, GameSetup, NewGame
    from kiosk.games.labyrinth.events import PushArrow, SelectArrow, Stay
    from kiosk.testing import MiniKiosk

    kiosk = MiniKiosk(clock=RealClock())
    window = make_window("offscreen", (width, height), args.gl)
    ui = UI(kiosk, window, layout="tabletop", first="play")
    if args.no_cache:
        ui.cache.broken = "switched off (--no-cache)"
    kiosk.bus.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    skipped = [0]

    def frame(dt=1 / 60) -> float | None:
        """One loop turn; its time in seconds if a frame was drawn, None if it was skipped."""
        t = time.perf_counter()
        drawn = ui.step(dt)
        gl.glFinish()
        if not drawn:
            skipped[0] += 1
            return None
        return time.perf_counter() - t

    frame()
    startup = time.perf_counter() - t0

    for _ in range(30):                 # warm caches (glyphs, shaders)
        frame()
    idle = []
    for _ in range(240):
        took = frame()
        if took is not None:
            idle.append(took)

    shift_frames = []
    move_frames = []
    g = kiosk.sessions["labyrinth"].game
    arrows = ["N1", "E3", "S5", "W1", "N5", "E1", "S3", "W5"]
    for k in range(8):
        arrow = next(a for a in arrows[k:] + arrows if a != g.forbidden)
        kiosk.bus.post(PushArrow(arrow))
        took = frame()                   # the push arrives: the row leaves the cache, the slide starts
        if took is not None:
            shift_frames.append(took)
        while ui.busy():
            took = frame()
            if took is not None:
                shift_frames.append(took)
        took = frame()                   # the row has landed: the cache is drawn again
        if took is not None:
            shift_frames.append(took)
        if k == 0:                       # the move phase: reachable cells lit, the rest dimmed
            for _ in range(120):
                took = frame()
                if took is not None:
                    move_frames.append(took)
        kiosk.bus.post(Stay())
        for _ in range(3):
            frame()

    # latency: mock pin press -> first frame with the preview
    from gpiozero.pins.mock import MockFactory

    from hardware.buttons import ArrowButtons
    factory = MockFactory()
    buttons = ArrowButtons({"N3": 17, "E3": 5}, lambda name: kiosk.bus.post(ButtonPressed(name)),
                           bounce=0.0, pin_factory=factory)
    latencies = []
    for k in range(10):
        arrow = "N3" if k % 2 == 0 else "E3"
        if arrow == g.forbidden:
            arrow = "E3" if arrow == "N3" else "N3"
        pin = factory.pin(17 if arrow == "N3" else 5)
        t = time.perf_counter()
        pin.drive_low()
        while True:
            frame()                      # (a skipped frame would not show it: the loop goes on)
            m = ui.screen.board.model
            if m.preview == arrow and ui.screen.board._preview_tile.visible:
                break
            if time.perf_counter() - t > 2:
                raise RuntimeError("the preview never showed")
        latencies.append(time.perf_counter() - t)
        pin.drive_high()
        time.sleep(0.002)
        kiosk.bus.post(SelectArrow("W1" if g.forbidden != "W1" else "W3"))
        frame()
    buttons.close()
    # a person thinking: 20 s (of animation time) with no input; pulses hold still after 8 s
    waiting = [frame() for _ in range(1200)]
    waiting_drawn = sum(1 for w in waiting if w is not None)
    kiosk.sessions["labyrinth"].close()

    ms = 1000

    def verdict(ok: bool) -> str:
        return "goal met" if ok else "GOAL MISSED"

    api = "OpenGL ES" if getattr(window, "gl_api", "gl") == "gles" else "OpenGL"
    mode = "no cache" if ui.cache.broken else "frame cache"
    med = statistics.median(idle)
    worst = max(shift_frames)
    print(f"ui offscreen {width}x{height}, {api}, {mode}; {len(idle)} + {len(shift_frames)} frames drawn, "
          f"{skipped[0]} skipped (nothing changed), cache drawn {ui.cache.renders} times")
    print(f"ui start-up to first frame: {startup:.2f} s (goal < 3 s: {verdict(startup < 3)})")
    attract = attract_startup(f"{width}x{height}", args.gl)
    print(f"ui start-up, fresh process to the first attract frame (art bake included): {attract:.2f} s "
          f"(goal < 3 s: {verdict(attract < 3)})")
    print(f"ui frame, game on screen: median {med * ms:.2f} ms, "
          f"p95 {sorted(idle)[int(len(idle) * 0.95)] * ms:.2f} ms (goal median < 8 ms: {verdict(med < 0.008)})")
    if move_frames:
        print(f"ui frame, move phase (cells dimmed): median {statistics.median(move_frames) * ms:.2f} ms "
              f"over {len(move_frames)} frames")
    print(f"ui shift animation: {len(shift_frames)} frames, median {statistics.median(shift_frames) * ms:.2f} ms, "
          f"worst {worst * ms:.2f} ms (goal worst < 33 ms: {verdict(worst < 0.033)})")
    print(f"ui waiting 20 s for a person: {waiting_drawn} of 1200 frames drawn, the rest skipped")
    print(f"ui input latency mock pin -> preview frame: median {statistics.median(latencies) * ms:.1f} ms, "
          f"worst {max(latencies) * ms:.1f} ms (goal < 50 ms: {verdict(max(latencies) < 0.05)})")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
