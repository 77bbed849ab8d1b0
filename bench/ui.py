"""UI speed, offscreen at 1280x800 (run: .venv/bin/python -c "import bench.ui; bench.ui.main()").

Prints:
* start-up to the first frame (window + GL context + atlas + play screen + one frame);
* median frame time with a game on screen, and the worst frame during shift animations;
* input latency: a mock-pin press on the real debounced button adapter -> the bus ->
  the session -> the first frame that shows the spare previewed at that arrow.
Frame times include glFinish, so they count the GPU (here Mesa llvmpipe) work too.
Goals: median < 8 ms, worst < 33 ms, latency < 50 ms, start-up < 3 s.
"""

from __future__ import annotations

import statistics
import time


def main() -> None:
    t0 = time.perf_counter()
    from kiosk.ui.app import UI, make_window, prepare_pyglet
    prepare_pyglet("offscreen")
    from pyglet import gl

    from kiosk.bus import Bus
    from kiosk.clock import RealClock
    from kiosk.events import ButtonPressed, GameSetup, NewGame, PushArrow, SelectArrow, Stay
    from kiosk.session import Pacing, Session

    class BenchKiosk:
        def __init__(self):
            self.clock = RealClock()
            self.bus = Bus()
            self.session = Session(self.bus, self.clock, pacing=Pacing.FAST)
            self.config = None
            # what the kiosk does with a debounced button press
            self.bus.subscribe(ButtonPressed, lambda c: self.bus.post(SelectArrow(c.button, source="button")))

        def tick(self):
            self.clock.run_due()
            self.bus.dispatch_pending()

    kiosk = BenchKiosk()
    window = make_window("offscreen", (1280, 800), "auto")
    ui = UI(kiosk, window, layout="tabletop", first="play")
    kiosk.bus.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))

    def frame(dt=1 / 60):
        ui.step(dt)
        gl.glFinish()

    frame()
    startup = time.perf_counter() - t0

    for _ in range(30):                 # warm caches (glyphs, shaders)
        frame()
    idle = []
    for _ in range(240):
        t = time.perf_counter()
        frame()
        idle.append(time.perf_counter() - t)

    shift_frames = []
    g = kiosk.session.game
    arrows = ["N1", "E3", "S5", "W1", "N5", "E1", "S3", "W5"]
    for k in range(8):
        arrow = next(a for a in arrows[k:] + arrows if a != g.forbidden)
        kiosk.bus.post(PushArrow(arrow))
        frame()
        while ui.busy():
            t = time.perf_counter()
            frame()
            shift_frames.append(time.perf_counter() - t)
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
            frame()
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
    kiosk.session.close()

    ms = 1000
    print(f"ui start-up to first frame: {startup:.2f} s (goal < 3 s)")
    print(f"ui frame 1280x800 offscreen: median {statistics.median(idle) * ms:.2f} ms, "
          f"p95 {sorted(idle)[int(len(idle) * 0.95)] * ms:.2f} ms (goal median < 8 ms)")
    print(f"ui shift animation: {len(shift_frames)} frames, median {statistics.median(shift_frames) * ms:.2f} ms, "
          f"worst {max(shift_frames) * ms:.2f} ms (goal worst < 33 ms)")
    print(f"ui input latency mock pin -> preview frame: median {statistics.median(latencies) * ms:.1f} ms, "
          f"worst {max(latencies) * ms:.1f} ms (goal < 50 ms)")


if __name__ == "__main__":
    main()
