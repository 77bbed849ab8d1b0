"""The play screens as people with a colour-vision deficiency see them (docs/art.md, "Colour vision").

Run from the repository: ``.venv/bin/python docs/art/colour_vision.py docs/art/colour-vision``.
Renders the board game's (in the default look and high contrast) and the card game's play screens
at 800x480 offscreen, then each screenshot as protan, deutan and tritan vision see it (Machado et al.
2009 at full severity, kiosk/ui/audit/colour_vision.py), and prints the seat colours' table.
"""

from __future__ import annotations

import sys
from pathlib import Path

from kiosk.core.seat_marks import BOARD_SEATS, SEAT_RGB
from kiosk.ui.audit import colour_vision as cv
from kiosk.ui.audit import layout as la
from kiosk.ui.audit.states import STATES

WANTED = (("play", "shift-hint-4"), ("cards_play", "place-6"))
SIZE = (800, 480)


def simulate(path: Path, vision: str, out: Path) -> None:
    """The PNG at `path` as `vision` sees it, into `out` (each distinct colour simulated once)."""
    from PIL import Image

    im = Image.open(path).convert("RGB")
    raw = im.tobytes()
    seen: dict[bytes, bytes] = {}
    out_bytes = bytearray(len(raw))
    for i in range(0, len(raw), 3):
        rgb = raw[i : i + 3]
        sim = seen.get(rgb)
        if sim is None:
            sim = seen[rgb] = bytes(cv.seen(tuple(rgb), vision))
        out_bytes[i : i + 3] = sim
    Image.frombytes("RGB", im.size, bytes(out_bytes)).save(out, optimize=True)


def table(colours: list[tuple[int, int, int]]) -> str:
    """A Markdown row per vision: the two seats most alike and how far apart."""
    rows = []
    for vision in cv.VISIONS:
        d, i, j = cv.closest(colours, vision)
        rows.append(f"| {vision or 'normal'} | {d:.1f} | seats {i} and {j} |")
    return "\n".join(rows)


def main(out: Path) -> None:
    from kiosk.ui.shell.window import make_window, prepare_pyglet

    prepare_pyglet("offscreen")
    out.mkdir(parents=True, exist_ok=True)
    states = [st for st in STATES if (st.screen, st.name) in WANTED]
    env = la.Env(window=make_window("offscreen", SIZE, "auto"))
    try:
        for contrast in (False, True):
            env.ui.set_high_contrast(contrast)
            for st in states:
                if contrast and st.screen != "play":
                    continue  # the card game has no high-contrast look of its own
                env.set_view(SIZE, "tabletop")
                env.set_language("en")
                st.prepare(env)
                env.ui.screen.resize(env.ui.layout)
                for _ in range(3):  # parts a screen builds in the frame after a change (the card table's)
                    env.ui.step(0.0)
                env.ui.render(force=True)
                name = f"{st.screen}-{'hc' if contrast else 'default'}"
                shot = out / f"{name}.png"
                env.ui.screenshot(shot)
                if not contrast:
                    for vision in cv.VISIONS[1:]:
                        simulate(shot, vision, out / f"{name}-{vision}.png")
    finally:
        env.close()
    print("board game\n" + table(list(SEAT_RGB[:BOARD_SEATS])))
    print("card game\n" + table(list(SEAT_RGB)))


if __name__ == "__main__":
    main(Path(sys.argv[1]))
