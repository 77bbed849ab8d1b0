"""Screenshots of the states docs/art.md compares, at 800x480 and 1280x800, each in a window of its size.

Run from the repository: ``.venv/bin/python docs/art/shots.py docs/art/after`` (or ``before``).
``--first-look``: the screens people judge first (attract, setup, a 4-seat turn, the board game's
end) at 800x480, 1280x800, 1920x1080, 480x800 and 800x1280, each with its share of bare table and
bare tray (pixels of the table's and the trays' own colours: room no picture or word uses).
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
FIRST_LOOK = (("attract", "idle"), ("setup", "board-4"), ("play", "shift-hint-4"), ("gameover", "players-4"))
FIRST_LOOK_SIZES = ((800, 480), (1280, 800), (1920, 1080), (480, 800), (800, 1280))
#: the colours of bare room as the offscreen window draws them: the table (clear colour, seams,
#: grain) and the trays (idle and active); within 3 of each channel in sum
BARE_TABLE = ((49, 32, 24), (33, 24, 16), (57, 41, 33))
BARE_TRAY = ((66, 48, 33), (82, 60, 41))


def bare_share(path: Path) -> tuple[float, float]:
    """The shares of a screenshot's pixels that are bare table and bare tray."""
    from collections import Counter

    from PIL import Image

    im = Image.open(path).convert("RGB")
    counts = Counter(im.getdata())

    def share(colours: tuple[tuple[int, int, int], ...]) -> float:
        near = sum(n for p, n in counts.items() if any(sum(abs(a - b) for a, b in zip(p, c)) <= 3 for c in colours))
        return near / (im.width * im.height)

    return share(BARE_TABLE), share(BARE_TRAY)


def main(out: Path, wanted=WANTED, sizes=SIZES, measure: bool = False) -> None:
    from kiosk.ui.shell.window import make_window, prepare_pyglet

    prepare_pyglet("offscreen")
    states = [st for st in STATES if (st.screen, st.name) in wanted]
    missing = set(wanted) - {(st.screen, st.name) for st in states}
    if missing:
        raise SystemExit(f"no such audit states: {sorted(missing)}")
    out.mkdir(parents=True, exist_ok=True)
    for size in sizes:
        env = la.Env(window=make_window("offscreen", size, "auto"))
        try:
            for st in states:
                env.set_view(size, "tabletop")
                env.set_language("en")
                st.prepare(env)
                if getattr(env.ui.screen, "resize", None) is not None:
                    env.ui.screen.resize(env.ui.layout)
                for _ in range(3):  # parts a screen builds in the frame after a change (the card table's)
                    env.ui.step(0.0)
                env.ui.render(force=True)
                shot = out / f"{st.screen}-{st.name}-{size[0]}x{size[1]}.png"
                env.ui.screenshot(shot)
                if measure:
                    table, tray = bare_share(shot)
                    print(f"{shot.name}: bare table {table:.1%}, bare tray {tray:.1%}")
        finally:
            env.close()
    print(f"{len(states) * len(sizes)} screenshots in {out}")


if __name__ == "__main__":
    if "--first-look" in sys.argv[2:]:
        main(Path(sys.argv[1]), FIRST_LOOK, FIRST_LOOK_SIZES, measure=True)
    else:
        main(Path(sys.argv[1]))
