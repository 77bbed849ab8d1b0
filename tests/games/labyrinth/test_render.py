"""The play screen rendered at every supported size, tabletop and upright: PNGs are saved
(into pytest's tmp dir, or $UI_SHOTS_DIR to look at them) and checked pixel by pixel where
the board, the arrows and the pawns must be.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.ui.art import CORRIDOR, SEAT_COLORS, WALL
from kiosk.games.labyrinth.screens.board import ARROW_ON, FORBIDDEN
from kiosk.ui.kit.layout import SIZES

from tests.support.offscreen import Pixels, near, offscreen_window
from tests.games.labyrinth.test_play import MiniKiosk

pytestmark = pytest.mark.display


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_play_screen_at_every_size_and_layout(size, shots_dir):
    window = offscreen_window(size)
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.runner import Offscreen

    kiosk = MiniKiosk()
    ui = UI(kiosk, window, layout="tabletop", first="play")
    off = Offscreen(ui, kiosk, frame_s=0.2)
    try:
        ui.post(NewGame(GameSetup.of("human,easy,human,random", seed=8)))
        off.settle()
        L = ui.layout
        # push once so the forbidden arrow exists, then check both layouts
        g = kiosk.sessions["labyrinth"].game
        ui.tap(*L.arrow_rect("W1").center)
        ui.tap(*L.arrow_rect("W1").center)
        off.settle()
        ui.tap(*L.cell_rect(*g.player.position).center)  # stay (choose, then confirm); the AI plays;
        ui.tap(*L.cell_rect(*g.player.position).center)  # a person's turn again
        off.settle()
        assert g.current == 2 and g.phase == "shift" and g.forbidden
        forbidden = g.forbidden
        live = [a for a in ("N1", "N3", "S5", "W3", "E5", "W5") if a != forbidden]
        for mode in ("tabletop", "upright"):
            ui.set_layout_mode(mode)
            off.settle()
            off.frame()
            L = ui.layout
            path = ui.screenshot(shots_dir / f"play-{size[0]}x{size[1]}-{mode}.png")
            assert path.stat().st_size > 10_000
            image = Pixels()
            # arrows: a live arrow is drawn in the arrow colour, the forbidden one crossed in red
            for name in live:
                r = L.arrow_rect(name)
                assert near(image(r.cx, r.cy), ARROW_ON, 60), (mode, name)
            r = L.arrow_rect(forbidden)
            assert near(image(r.cx, r.cy), FORBIDDEN, 60)
            # the board: every tile shows either a wall or a corridor at a point off its centre
            board = [image(*L.cell_rect(r_, c_).center) for r_ in range(7) for c_ in range(7)]
            assert sum(near(px, CORRIDOR, 50) for px in board) > 5
            corner = L.cell_rect(3, 3)
            assert near(image(corner.x + corner.w * 0.1, corner.y + corner.h * 0.1), WALL, 40)
            # pawns: each seat's colour near its pawn's place (its body, below the centre)
            m = ui.screen.board.model
            for k, seat in enumerate(m.seats):
                spr = ui.screen.board._pawns[k]
                x, y = spr.x, spr.y - L.cell * 0.12
                assert near(image(x, y), SEAT_COLORS[seat], 70), (mode, seat)
            # touch targets on the smallest screen
            for w in ui.screen.widgets:
                assert w.rect.w >= 48 and w.rect.h >= 48, (mode, w.rect)
            assert L.cell >= 48
    finally:
        ui.close()
        kiosk.sessions["labyrinth"].close()


GLES_SNIPPET = r"""
import ctypes, sys
from kiosk.ui.shell.window import UI, make_window, prepare_pyglet
prepare_pyglet("offscreen", "gles")
from pyglet import gl
from kiosk.core.events import GameSetup, NewGame
from kiosk.ui.shell.runner import Offscreen
from tests.games.labyrinth.test_play import MiniKiosk
win = make_window("offscreen", (800, 480), "gles")
print(ctypes.cast(gl.glGetString(gl.GL_VERSION), ctypes.c_char_p).value.decode())
k = MiniKiosk()
ui = UI(k, win, layout="tabletop", first="play")
off = Offscreen(ui, k, frame_s=0.2)
ui.post(NewGame(GameSetup.of("human,human", seed=2)))
off.settle()
ui.tap(*ui.layout.arrow_rect("S3").center)
off.settle()
assert k.sessions["labyrinth"].preview == "S3"
ui.screenshot(sys.argv[1])
k.sessions["labyrinth"].close()
"""


def test_the_play_screen_runs_on_opengl_es(tmp_path):
    """OpenGL ES 3 (the Pi's path) in its own process: pyglet's API choice is process-wide."""
    import subprocess
    import sys

    shot = tmp_path / "gles.png"
    root = Path(__file__).resolve().parents[3]
    proc = subprocess.run(
        [sys.executable, "-c", GLES_SNIPPET, str(shot)], cwd=root, capture_output=True, text=True, timeout=120
    )
    if proc.returncode != 0 and ("EGL" in proc.stderr or "cannot open an OpenGL" in proc.stderr):
        pytest.skip(f"no offscreen OpenGL ES context: {proc.stderr.strip().splitlines()[-1]}")
    assert proc.returncode == 0, proc.stderr
    assert "OpenGL ES 3" in proc.stdout
    assert shot.stat().st_size > 10_000
