"""Screenshots of the states docs/art.md compares, at 800x480 and 1280x800, each in a window of its size.

Run from the repository: ``.venv/bin/python docs/art/shots.py docs/art/after`` (or ``before``).
The layout audit's own screenshots lay a bigger screen out in its 800x480 window (a crop);
these open one offscreen window per size, so each picture is the whole screen.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.ui.audit import layout as la
from kiosk.ui.audit.states import STATES

#: (screen, state) pairs of the issue's side-by-side: attract, setup, a 4-seat turn, the card
#: table (on the first turn and ten turns in), both game-over screens (the card game's also after a
#: whole game, with the cards each took)
WANTED = (
    ("attract", "idle"),
    ("setup", "board-4"),
    ("play", "shift-hint-4"),
    ("cards_play", "place-6"),
    ("cards_play", "late-4"),
    ("gameover", "players-4"),
    ("cards_gameover", "players-6"),
    ("cards_gameover", "finished-4"),
)
SIZES = ((800, 480), (1280, 800))


def main(out: Path) -> None:
    from kiosk.ui.shell.window import make_window, prepare_pyglet

    prepare_pyglet("offscreen")
    states = [st for st in STATES if (st.screen, st.name) in WANTED]
    missing = set(WANTED) - {(st.screen, st.name) for st in states}
    if missing:
        raise SystemExit(f"no such audit states: {sorted(missing)}")
    out.mkdir(parents=True, exist_ok=True)
    for size in SIZES:
        env = la.Env(window=make_window("offscreen", size, "auto"))
        try:
            for st in states:
                env.set_view(size, "tabletop")
                env.set_language("en")
                st.prepare(env)
                if getattr(env.ui.screen, "resize", None) is not None:
                    env.ui.screen.resize(env.ui.layout)
                env.ui.render(force=True)
                env.ui.screenshot(out / f"{st.screen}-{st.name}-{size[0]}x{size[1]}.png")
        finally:
            env.close()
    print(f"{len(states) * len(SIZES)} screenshots in {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
