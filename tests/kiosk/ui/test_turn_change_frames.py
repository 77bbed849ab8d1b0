"""A turn change spreads its panels' work over frames (kiosk/games/labyrinth/screens/play.py): the panels
of one side of the board in one frame, the other side's in the next, never both in one; the two
panels sharing a side move together (they must not overlap), and scripted runs wait until all are
in place. The frame that shows a push or a stay on the board builds no panel: they follow; panels
that change where they are are built one a frame.

Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, Stay
from kiosk.games.labyrinth.screens.player_panel import PlayerPanel

from tests.support.mini_ui import play_table
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)


@pytest.fixture
def ui():
    with play_table(window_of((800, 480))) as made:
        yield made


def test_a_turn_change_builds_one_side_of_panels_a_frame(ui, monkeypatch):
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    built: list[tuple[int, int]] = []  # (frame, side) of each panel built
    real = PlayerPanel._build

    def build(panel, state):
        if any(panel is shown for shown in screen.panels.values()):
            built.append((ui.frames, screen._side_of(state.seat)))
        return real(panel, state)

    monkeypatch.setattr(PlayerPanel, "_build", build)
    before = screen.board.model.current
    ui.post(Stay())
    ui.off.settle()  # (waits for the panels too: they are part of the screen's business)
    m = screen.board.model
    assert m.current != before
    frames = sorted({f for f, _ in built})
    assert len(frames) >= 2, built  # spread over frames
    for f in frames:
        assert len({side for g, side in built if g == f}) == 1, built  # never both sides in one frame
    active = m.seats[m.current]
    for idx, seat in enumerate(m.seats):  # and all of them where the new turn puts them
        assert tuple(screen.panels[idx].frame.rect) == tuple(ui.layout.panel(seat, active))
        assert screen.panels[idx].state == screen._panel_state(idx)
    assert not screen.busy


def test_the_frame_of_a_push_or_a_stay_builds_no_panel(ui, monkeypatch):
    """The frame that shows the news on the board (the row starts to slide, the next turn's arrows)
    is not also the one that builds panels: they follow from the next frame on."""
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    built: list[int] = []  # the frame (ui.frames) of each panel built
    real = PlayerPanel._build

    def build(panel, state):
        if any(panel is shown for shown in screen.panels.values()):
            built.append(ui.frames)
        return real(panel, state)

    monkeypatch.setattr(PlayerPanel, "_build", build)
    for command in (PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)), Stay()):
        news_frame = ui.frames  # the next frame drawn shows the command's news
        built.clear()
        ui.post(command)
        ui.off.settle()
        assert built and min(built) > news_frame, (command, news_frame, built)
    assert not screen.busy


def test_panels_that_stay_in_place_are_built_one_a_frame(ui, monkeypatch):
    """A push after a walk changes two panels where they are (the walker's Undo goes, the pusher's
    comes): one is built in a frame, the other in the next; the turn's own first."""
    from kiosk.games.labyrinth.events import TapCell

    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    for _ in range(8):  # pushes until a pawn can walk somewhere, then it walks there
        ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
        ui.off.settle()
        far = sorted(game.reachable() - {game.players[game.current].position})
        if far:  # it walks
            ui.post(TapCell(far[-1]))
            ui.off.settle()
            break
        ui.post(Stay())
        ui.off.settle()
    assert screen.undo_player is not None and screen.undo_player != game.current
    built: list[tuple[int, int]] = []  # (frame, player) of each panel built again where it was
    changed: list[int] = []  # the players whose panels changed where they were
    real = PlayerPanel.show

    def show(panel, state):
        if panel.state is not None and panel.state != state:
            built.append((ui.frames, state.player))
            changed.append(state.player)
        return real(panel, state)

    monkeypatch.setattr(PlayerPanel, "show", show)
    pusher = game.current
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    frames = [f for f, _ in built]
    assert len(changed) >= 2, changed
    assert len(frames) == len(set(frames)), built  # never two built in one frame
    assert changed[0] == pusher, changed
    assert not screen.busy
