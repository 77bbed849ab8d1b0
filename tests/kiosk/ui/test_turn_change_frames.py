"""A turn change spreads its panels' work over frames (kiosk/games/labyrinth/screens/play.py): the panels
of one side of the board in one frame, the other side's in the next, never both in one; the two
panels sharing a side move together (they must not overlap), and scripted runs wait until all are
in place. The frame that shows a push or a stay on the board builds no panel: they follow; panels
that change where they are are built one a frame. After a pause (loop turns that draw nothing) the
next moment's panels are built ahead, hidden, and a stay only shows them.

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
        if any(panel is shown for shown in screen.panels.values()):  # (not one laid out ahead)
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
        if any(panel is shown for shown in screen.panels.values()):  # (not one laid out ahead)
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
    comes): one is built in a frame, the other in the next (a panel built ahead is only shown, in
    any frame); the turn's own first."""
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
    changed: list[int] = []  # the players whose panels changed where they were, built or shown ahead
    real = PlayerPanel.show

    def show(panel, state):
        if panel.state is not None and panel.state != state:
            built.append((ui.frames, state.player))
            changed.append(state.player)
        return real(panel, state)

    monkeypatch.setattr(PlayerPanel, "show", show)
    _note_taken_over(monkeypatch, changed)
    pusher = game.current
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    frames = [f for f, _ in built]
    assert len(changed) >= 2, changed
    assert len(frames) == len(set(frames)), built  # never two built in one frame
    assert changed[0] == pusher, changed
    assert not screen.busy


def test_a_stay_after_a_pause_builds_no_panel_in_its_frames(ui, monkeypatch):
    """While a person thinks (loop turns that draw nothing) the next turn's panels are built whole and
    hidden; the stay's turn change then only shows them: no panel on the screen is built in its frames."""
    screen, game = _push_and_think(ui)
    built: list[int] = []  # the players whose shown panel was built
    shown_ahead: list[int] = []  # and those shown from a panel built ahead
    _note_built(monkeypatch, screen, built)
    _note_taken_over(monkeypatch, shown_ahead)
    before = game.current
    ui.post(Stay())
    ui.off.settle()
    assert game.current != before
    assert built == [], built
    assert game.current in shown_ahead and before in shown_ahead, shown_ahead
    for idx in screen.panels:  # each shows what the new turn shows
        assert screen.panels[idx].state == screen._panel_state(idx)
    assert not screen.busy


def _note_taken_over(monkeypatch, players: list[int]) -> None:
    """Append to `players` the player of each panel shown from one built ahead (PlayerPanel.take_over)."""
    real = PlayerPanel.take_over

    def take_over(panel, ready):
        players.append(ready.state.player)
        return real(panel, ready)

    monkeypatch.setattr(PlayerPanel, "take_over", take_over)


def test_a_panel_built_ahead_shows_without_working_out_its_shapes_again(ui, monkeypatch):
    """A panel built ahead is kept with its shapes clear, not invisible: shown, only their colour is
    written back (an invisible rounded box works out its corners again when it shows)."""
    from pyglet import shapes

    screen, game = _push_and_think(ui)
    assert screen._ready, "the next turn's panels are built ahead"
    worked_out: list[object] = []
    real_vertices = shapes.RoundedRectangle._get_vertices

    def vertices(shape):
        worked_out.append(shape)
        return real_vertices(shape)

    monkeypatch.setattr(shapes.RoundedRectangle, "_get_vertices", vertices)
    shown: list[int] = []
    real = PlayerPanel.take_over

    def take_over(panel, ready):
        boxes = [d for d, _ in ready._hidden if isinstance(d, shapes.RoundedRectangle)]
        assert boxes and all(d.opacity == 0 for d in boxes)  # kept clear while hidden
        before = len(worked_out)
        real(panel, ready)
        assert len(worked_out) == before, "a shown panel's rounded boxes were worked out again"
        assert all(d.opacity > 0 for d in boxes)
        shown.append(panel.state.player)

    monkeypatch.setattr(PlayerPanel, "take_over", take_over)
    ui.post(Stay())
    ui.off.settle()
    assert shown, "the stay showed panels built ahead"


def test_a_stay_right_after_the_push_lands_shows_panels_built_while_the_tile_flew(ui, monkeypatch):
    """The frames of the pushed-out tile's flight draw only what moves: each also builds one panel of
    the next moment ahead. A stay as soon as the flight ends (no loop turn that draws nothing in
    between) then only shows panels built ahead."""
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    drawn = skipped = 0
    for _ in range(600):  # the row slides and lands, the panels follow, the tile flies: every turn draws
        if ui.step(1 / 60):
            drawn += 1
        else:
            skipped += 1
        if not (screen.animating or ui.k.bus.pending()):
            break
    assert skipped == 0 and drawn > 10, (drawn, skipped)
    built: list[int] = []
    _note_built(monkeypatch, screen, built)
    shown_ahead: list[int] = []
    _note_taken_over(monkeypatch, shown_ahead)
    ui.post(Stay())
    ui.off.settle()
    assert built == [], built
    assert game.current in shown_ahead, shown_ahead
    for idx in screen.panels:
        assert screen.panels[idx].state == screen._panel_state(idx)


def _push_and_think(ui):
    """A 4-seat game, its first push, then a person thinking until the screen's work ahead is done;
    the play screen and the game."""
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    for _ in range(600):
        if not ui.step(1 / 60) and not ui.work_ahead:
            break
    return screen, game


def _note_built(monkeypatch, screen, players: list[int]) -> None:
    """Append to `players` the player of each panel on the screen that is built (not one built ahead)."""
    real = PlayerPanel._build

    def build(panel, state):
        if any(panel is shown for shown in screen.panels.values()):
            players.append(state.player)
        return real(panel, state)

    monkeypatch.setattr(PlayerPanel, "_build", build)


def _looks(panel: PlayerPanel) -> list[tuple]:
    """What `panel` draws, part by part: its kind, where, its text, whether it has pixels."""
    out = []
    for d in panel._drawn():
        text = getattr(d, "text", None)
        where = (round(d.x, 2), round(d.y, 2))
        shown = d.visible and getattr(d, "opacity", 255) > 0
        out.append((type(d).__name__, where, text, shown))
    return out


def test_a_panel_built_ahead_a_piece_a_step_shows_nothing_until_taken_over_and_then_the_same(ui):
    """PlayerPanel.build_hidden builds a panel in several steps (a frame that is drawn does one: no frame
    pays for a whole panel); nothing of it shows in between, and taken over it draws what show() draws."""
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen = ui.screen
    idx = screen.board.model.current
    state = screen._panel_state(idx)
    assert state.cue, "the turn's panel under its cue: the most pieces"
    frame = screen.panels[idx].frame
    shown = screen._ghost(idx, frame)
    shown.show(state)
    ahead = screen._ghost(idx, frame)
    steps = 0
    for _ in ahead.build_hidden(state):
        steps += 1
        assert not any(part[3] for part in _looks(ahead)), f"a part shows after step {steps}"
    assert not any(part[3] for part in _looks(ahead))
    assert steps >= 4, steps
    taker = screen._ghost(idx, frame)
    taker.take_over(ahead)
    assert _looks(taker) == _looks(shown)
    assert any(part[3] for part in _looks(taker))
    for panel in (shown, taker):
        panel.delete()


def test_each_frame_drawn_while_the_tile_flies_builds_at_most_one_piece_ahead(ui, monkeypatch):
    """A frame that draws only what moves does one piece of the work ahead, never a whole panel."""
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    screen, game = ui.screen, ui.k.sessions["labyrinth"].game
    pieces: list[int] = []
    real = PlayerPanel._hide_new  # once a step of build_hidden

    def hide_new(panel):
        pieces[-1] += 1
        return real(panel)

    monkeypatch.setattr(PlayerPanel, "_hide_new", hide_new)
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    for _ in range(600):
        pieces.append(0)
        ui.step(1 / 60)
        if not (screen.animating or ui.k.bus.pending()):
            break
    assert sum(pieces) > 0, "panels were built ahead while the row slid and the tile flew"
    assert max(pieces) == 1, pieces
