"""An undo survives a power cut on the screen too: the play screen of a kiosk started again from the
state directory as a cut left it shows the undone position, offscreen.

The real kill is tests/games/test_undo.py (a headless kiosk killed with SIGKILL and restarted: the save
and the record). Here the walk is taken back with the mover's Undo button through the real UI, the
state directory is copied as it is on disk at that moment (what SIGKILL leaves: the first kiosk is not
closed first), and a second kiosk with its own UI resumes from the copy.

Runs on an offscreen EGL context; skips with the reason when none can be made.
"""

from __future__ import annotations

import shutil

import pytest

from engine.labyrinth.parts import Phase
from kiosk.core.events import GameSetup, NewGame
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.ui.kit.widgets import UNDO_ICON, Button

from tests.games.test_undo import walk_cell, walkable
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display


@pytest.fixture(scope="module")
def window():
    yield offscreen_window((800, 480))


def start(window, state_dir, resume):
    from kiosk.ui.shell.runner import Offscreen
    from kiosk.ui.shell.window import UI

    kiosk = Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=state_dir, resume=resume))
    kiosk.start(ready=False)
    ui = UI(kiosk, window, layout="tabletop")
    return kiosk, ui, Offscreen(ui, kiosk)


def test_a_walk_undone_on_screen_resumes_undone_after_a_power_cut(window, tmp_path):
    first, ui, off = start(window, tmp_path / "state", resume=False)
    try:
        ui.post(NewGame(GameSetup.of("human,human", seed=11)))
        off.settle()
        ui.goto("play")
        off.settle()
        s, L = first.sessions["labyrinth"], ui.layout
        me = s.game.current
        arrow = walkable(s.game)
        ui.tap(*L.arrow_rect(arrow).center)
        ui.tap(*L.arrow_rect(arrow).center)
        off.settle()
        pushed = s.game.to_dict()
        cell = walk_cell(s.game)
        ui.tap(*L.cell_rect(*cell).center)
        ui.tap(*L.cell_rect(*cell).center)
        off.settle()
        assert s.game.current != me
        (undo,) = [
            w for w in ui.screen.panels[me].widgets if isinstance(w, Button) and UNDO_ICON in (w._label.text or "")
        ]
        ui.tap(*undo.rect.center)
        off.settle()
        assert s.game.to_dict() == pushed
        cut = tmp_path / "after-the-cut"
        shutil.copytree(tmp_path / "state", cut)  # the disk as SIGKILL leaves it: nothing closed
    finally:
        ui.close()
        first.close()
    second, ui, off = start(window, cut, resume=True)
    try:
        off.settle()
        assert ui.screen.name == "play"  # a resumed game with people in it opens on its play screen
        s = second.sessions["labyrinth"]
        assert s.game.to_dict() == pushed  # the undone game, exactly: pushed, not walked
        m = ui.screen.board.model
        assert m.current == me and m.phase == Phase.MOVE
        panel = ui.screen.panels[me]
        assert panel.state.active and panel.state.phase == Phase.MOVE  # the mover walks again
        assert tuple(m.positions[me]) == tuple(s.game.players[me].position)  # the pawn drawn where it stands
        ui.render(force=True)
        ui.screenshot(tmp_path / "resumed-undone.png")
    finally:
        ui.close()
        second.close()
