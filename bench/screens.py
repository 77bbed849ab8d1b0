"""Screen changes, offscreen: the CPU time from the change to the first frame of the new screen.

The changes a visitor waits on: attract -> setup (a tap on the invitation), setup -> the first
board (Start), the result -> setup (a new round), and "New game" from the in-game menu. Each is
timed from the change (the screen's own action, as a tap runs it) through the loop turns until the
first frame drawn with the new screen, as CPU time (all threads, and the main thread's alone: on
a Pi the GPU does llvmpipe's filling, the main thread's Python and driver work is what scales).
The first frame of a play screen must show the dealt board, not an empty placeholder: the line
says whether it did. Goal: <= 150 ms each here (about 0.75 s on a Pi 4).
"""

from __future__ import annotations

import time
from typing import Any, Callable

from bench.ui import Offscreen

GOAL_S = 0.150
TURNS = 30  # the most loop turns a change may take to show its first frame


def _change(o: Offscreen, action: Callable[[], Any], screen: str) -> tuple[float, float, Any]:
    """CPU (all threads, main thread) from `action` to the first frame drawn on `screen`; the screen."""
    cpu, main = time.process_time(), time.thread_time()
    action()
    for _ in range(TURNS):
        drawn, shown = o.frame(), o.ui.screen
        if drawn is not None and shown is not None and shown.name == screen:
            return time.process_time() - cpu, time.thread_time() - main, shown
    raise RuntimeError(f"no frame of {screen!r} within {TURNS} loop turns")


def _settle(o: Offscreen, turns: int = 20) -> None:
    for _ in range(turns):
        o.frame()


def _board_shown(screen: Any) -> str:
    board = getattr(screen, "board", None)
    model = getattr(board, "model", None)
    if model is None:
        return "no board"
    return "the dealt board" if getattr(model, "started", False) else "PLACEHOLDER BOARD"


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="bench.screens", description="screen changes, offscreen")
    ap.add_argument("--gl", choices=("auto", "gl", "gles"), default="auto")
    ap.add_argument("--size", default="1280x800")
    args = ap.parse_args(argv or [])
    width, height = (int(v) for v in args.size.lower().split("x"))
    o = Offscreen((width, height), args.gl, cache=True)
    ui = o.ui
    from kiosk import games

    board_game = games.get(games.default())
    ui.goto("attract")
    _settle(o)
    rows = []

    def row(name: str, action: Callable[[], Any], screen: str, check: bool = False) -> None:
        cpu, main, shown = _change(o, action, screen)
        rows.append((name, cpu, main, _board_shown(shown) if check else ""))
        _settle(o)

    row("attract -> setup", lambda: ui.goto("setup"), "setup")
    setup: Any = ui.screen  # the setup screen (its game tab and Start)
    setup.game = board_game.name
    setup._build()
    _settle(o)
    row("setup -> first board", setup.start, board_game.play_screen, check=True)

    def new_game() -> None:
        menu = ui.menu
        menu.confirming = "new"  # the second tap of two
        menu.new_game()

    row('"New game" from the menu', new_game, board_game.play_screen, check=True)
    ui.goto(board_game.over_screen)
    _settle(o)
    row("result -> setup", lambda: ui.goto("setup"), "setup")

    print(f"screen changes offscreen {width}x{height}, CPU from the change to the new screen's first frame:")
    for name, cpu, main, shown in rows:
        verdict = "goal met" if cpu <= GOAL_S else "GOAL MISSED"
        extra = f"; first frame shows {shown}" if shown else ""
        print(
            f"  {name}: {cpu * 1000:.0f} ms all threads, main thread {main * 1000:.0f} ms "
            f"(goal <= {GOAL_S * 1000:.0f} ms: {verdict}){extra}"
        )
    o.window.close()


if __name__ == "__main__":
    main()
