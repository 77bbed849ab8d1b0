"""Undo, the last move and the turn cue on the play screens, offscreen (800x480, tabletop).

Taps on the Undo buttons go through the real UI, bus and sessions: a walk and a
push are taken back in the board game, a laid card in the card game (on the
hand-over sheet, and while a computer waits to play); the buttons face the
person whose action they take back. After a computer's turn its push and walk
stay marked on the board until the next push. The turn cue stays until a touch.
Screenshots go to the test's tmp folder.

Runs on an offscreen EGL context; skips with the reason when none can be made.
"""

from __future__ import annotations

import pytest

from kiosk.core import testing
from kiosk.core.events import GameSetup, NewGame, UndoChanged
from kiosk.games.cards.events import CardLaid, ConfirmTake, LayCard, RotateHandCard, SelectHandCard
from kiosk.games.cards.screens.seats import player_rgb
from kiosk.games.cards.session import CardPacing
from kiosk.games.labyrinth.events import BoardShifted, PawnMoved
from kiosk.games.labyrinth.session import Pacing
from kiosk.ui.art import SEAT_COLORS
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit.widgets import UNDO_COLOR, UNDO_ICON, UNDO_KEYS, UNDO_QUIET, Button

from tests.support.offscreen import Pixels, near, offscreen_window
from tests.games.cards.test_session import fitting
from tests.games.test_undo import walk_cell, walkable

pytestmark = pytest.mark.display


@pytest.fixture(scope="module")
def window():
    yield offscreen_window((800, 480))
    # not closed: closing an EGL window takes seconds in Mesa; the process exit frees it


@pytest.fixture
def ui(window):
    from kiosk.ui.shell.window import UI

    kiosk = testing.MiniKiosk()
    ui = UI(kiosk, window, layout="tabletop", first="play")
    ui.k = kiosk
    yield ui
    ui.close()
    kiosk.close()


def drive(ui, tmp_path=None):
    from kiosk.ui.shell.runner import Offscreen

    ui.off = Offscreen(ui, ui.k, screenshot_dir=tmp_path)
    return ui.off


def undo_buttons(ui, panel_widgets=None):
    """The Undo buttons on the screen (or among `panel_widgets`): its icon, with the word where there is room."""
    widgets = ui.screen.widgets if panel_widgets is None else panel_widgets
    return [w for w in widgets if isinstance(w, Button) and UNDO_ICON in (w._label.text if w._label else "")]


def tap(ui, w):
    ui.tap(*w.rect.center)
    ui.off.settle()


# ---------------------------------------------------------------- the board game
def test_undo_buttons_take_a_walk_then_the_push_back_facing_the_mover(ui, tmp_path):
    off = drive(ui, tmp_path)
    ui.post(NewGame(GameSetup.of("human,human", seed=11)))
    off.settle()
    s, L = ui.k.sessions["labyrinth"], ui.layout
    start = s.game.to_dict()
    me, seat = s.game.current, s.game.players[s.game.current].seat
    assert undo_buttons(ui) == []  # nothing to take back yet
    arrow = walkable(s.game)
    ui.tap(*L.arrow_rect(arrow).center)
    ui.tap(*L.arrow_rect(arrow).center)
    off.settle()
    pushed = s.game.to_dict()
    mine = undo_buttons(ui, ui.screen.panels[me].widgets)
    assert len(mine) == 1 and mine[0].frame.angle == L.facing(seat)  # beside "stay", facing the mover
    cell = walk_cell(s.game)
    ui.tap(*L.cell_rect(*cell).center)
    ui.tap(*L.cell_rect(*cell).center)
    off.settle()
    assert s.game.current != me and s.game.phase == "shift"
    off.shot("walked")
    buttons = undo_buttons(ui)
    assert len(buttons) == 1 and buttons[0] in ui.screen.panels[me].widgets  # on the mover's panel only
    assert buttons[0].frame.angle == L.facing(seat) and ui.t("play.undo") in buttons[0]._label.text
    # during the next player's turn it is quiet (theirs are the loud buttons), edged in the mover's colour
    assert mine[0].color == UNDO_COLOR and buttons[0].color == UNDO_QUIET
    ui.render(force=True)
    r = buttons[0].rect
    edge = Pixels()(r.x - 1, r.cy)
    assert near(edge, text_shade(SEAT_COLORS[seat]), 40), edge
    tap(ui, buttons[0])
    off.shot("walk-undone")
    assert s.game.to_dict() == pushed
    m = ui.screen.board.model
    assert m.phase == "move" and m.current == me and m.positions[me] == tuple(s.game.players[me].position)
    assert m.reachable == frozenset(s.game.reachable())
    assert ui.screen.board.last_move.get("walk") is None and ui.screen.board.last_move["push"][0] == seat
    tap(ui, undo_buttons(ui, ui.screen.panels[me].widgets)[0])
    off.shot("push-undone")
    assert s.game.to_dict() == start and undo_buttons(ui) == []
    assert [t.openings for t in ui.screen.board.model.tiles] == [
        s.game.board[(r, c)].openings for r in range(7) for c in range(7)
    ]
    assert ui.screen.board.last_move == {}  # the marks are those from before the push: none


def test_the_last_move_of_the_computer_stays_marked_until_the_next_push(ui, tmp_path):
    off = drive(ui, tmp_path)
    s = ui.k.sessions["labyrinth"]
    s.pacing = Pacing()  # human-eye pacing on the virtual clock: the computer waits, then plays
    ui.post(NewGame(GameSetup.of("human,easy", seed=4)))
    off.settle()
    g, L = s.game, ui.layout
    arrow = walkable(g)
    ui.tap(*L.arrow_rect(arrow).center)
    ui.tap(*L.arrow_rect(arrow).center)
    off.settle()
    ui.tap(*L.cell_rect(*g.player.position).center)  # stay: two taps
    ui.tap(*L.cell_rect(*g.player.position).center)
    for _ in range(2000):
        off.frame()
        if g.current == 0 and g.phase == "shift" and not ui.screen.busy and ui.k.settled():
            break
    assert g.current == 0 and g.turns == 2
    off.run_for(10)  # the marks do not fade away with time
    shot = off.shot("after-computer")
    assert shot is not None and shot.exists()
    ai_push = [e for e in ui.k.of(BoardShifted) if e.player == 1][-1]
    ai_walk = [e for e in ui.k.of(PawnMoved) if e.player == 1][-1]
    ai_seat = g.players[1].seat
    last = ui.screen.board.last_move
    assert last["push"][0] == ai_seat and last["push"][1] == [tuple(c) for c in ai_push.line]
    assert last["push"][2] == ai_push.forbidden and last["push"][3] == ai_push.pushed_out
    assert last["walk"] == (ai_seat, [tuple(c) for c in ai_walk.path])
    # drawn: the outline of the pushed row in the computer's colour (a touch first sends the turn cue away)
    ui.tap(2, 2)
    off.frame()
    assert not ui.screen.cue.showing
    first, end = L.cell_rect(*ai_push.line[0]), L.cell_rect(*ai_push.line[-1])
    x0, y0 = min(first.x, end.x), min(first.y, end.y)
    x1, y1 = max(first.right, end.right), max(first.top, end.top)
    inset = max(2, L.px(3)) * 1.5  # inside the light rim, on the coloured line
    ui.window.switch_to()
    ui.draw()
    px = Pixels()
    edge = [(x0 + inset, y0 + (y1 - y0) * k / 10) for k in range(2, 9)]
    edge += [(x0 + (x1 - x0) * k / 10, y0 + inset) for k in range(2, 9)]
    hits = sum(near(px(x, y), SEAT_COLORS[ai_seat], 50) for x, y in edge)
    assert hits >= len(edge) - 2, [px(x, y) for x, y in edge]
    # the person's push replaces the marks with theirs
    arrow = next(a for a in ("N1", "N3", "N5", "E1", "E3", "S1") if a != g.forbidden)
    ui.tap(*L.arrow_rect(arrow).center)
    ui.tap(*L.arrow_rect(arrow).center)
    off.settle()
    assert ui.screen.board.last_move["push"][0] == g.players[0].seat and "walk" not in ui.screen.board.last_move


def test_the_turn_cue_stays_until_the_first_touch(ui):
    off = drive(ui)
    ui.post(NewGame(GameSetup.of("human,human", seed=2)))
    off.settle()
    cue = ui.screen.cue
    assert cue.showing
    off.run_for(12)  # it used to go after 1.6 s
    assert cue.showing and not ui.screen.animating  # it waits without costing frames
    ui.tap(2, 2)  # a touch anywhere (here a corner outside the board)
    off.frame()
    assert not cue.showing


# ---------------------------------------------------------------- the card game
def _lay(ui, g):
    rot, cell = fitting(g, 0)
    ui.post(SelectHandCard(0))
    for _ in range(rot):
        ui.post(RotateHandCard())
    ui.post(LayCard(cell))
    ui.off.settle()
    return cell


def test_card_undo_on_the_hand_over_sheet_faces_the_player_who_laid(ui, tmp_path):
    off = drive(ui, tmp_path)
    ui.post(NewGame(GameSetup.of("human,human", seed=9, game="cards")))
    off.settle()
    s = ui.k.sessions["cards"]
    dealt = s.game.to_dict()
    cell = _lay(ui, s.game)
    if s.game.phase == "take":
        assert len(undo_buttons(ui)) == 1  # beside the take button
        ui.post(ConfirmTake())
        off.settle()
    assert s.handover
    off.shot("card-handover")
    buttons = undo_buttons(ui)
    assert len(buttons) == 1 and buttons[0].frame.angle == ui.screen.facing(0)
    # quiet, as the board game's previous player's Undo: dark, edged in the colour of who laid
    assert buttons[0].color == UNDO_QUIET
    ui.render(force=True)
    r = buttons[0].rect
    edge = Pixels()(r.x - 1, r.cy)
    assert near(edge, text_shade(player_rgb(0)), 40), edge
    tap(ui, buttons[0])
    while s.game.phase == "take":  # the take first, then the lay
        tap(ui, undo_buttons(ui)[0])
    assert s.game.to_dict() == dealt and not s.handover and cell not in s.game.layout
    assert ui.k.of(CardLaid)[-1].cell == cell and undo_buttons(ui) == []


def test_card_undo_while_the_computer_waits_to_play(ui, tmp_path):
    off = drive(ui, tmp_path)
    s = ui.k.sessions["cards"]
    s.pacing = CardPacing()
    ui.post(NewGame(GameSetup.of("human,easy", seed=9, game="cards")))
    off.settle()
    dealt = s.game.to_dict()
    rot, cell = fitting(s.game, 0)
    ui.post(SelectHandCard(0))
    for _ in range(rot):
        ui.post(RotateHandCard())
    ui.post(LayCard(cell))
    for _ in range(60):
        off.frame()
    if s.game.phase == "take":
        ui.post(ConfirmTake())
        for _ in range(30):
            off.frame()
    assert s.game.current == 1 and s.undo_player == 0  # the computer's turn, not played yet
    off.shot("card-computer-waits")
    buttons = undo_buttons(ui)
    assert len(buttons) == 1 and buttons[0].color == UNDO_QUIET  # not the computer's: the person's, quiet
    ui.tap(*buttons[0].rect.center)
    for _ in range(10):
        off.frame()
    while s.game.phase == "take":
        ui.tap(*undo_buttons(ui)[0].rect.center)
        off.frame()
    assert s.game.to_dict() == dealt and s.game.current == 0
    assert ui.k.of(UndoChanged)[-1] == UndoChanged(0, False)


def test_the_u_key_stands_in_for_the_undo_button(ui):
    from pyglet.window import key

    off = drive(ui)
    ui.post(NewGame(GameSetup.of("human,human", seed=11)))
    off.settle()
    s, L = ui.k.sessions["labyrinth"], ui.layout
    start = s.game.to_dict()
    arrow = walkable(s.game)
    ui.tap(*L.arrow_rect(arrow).center)
    ui.tap(*L.arrow_rect(arrow).center)
    off.settle()
    assert s.game.phase == "move"
    assert UNDO_KEYS == (key.U, key.BACKSPACE)
    ui.on_key_press(key.U, 0)
    off.settle()
    assert s.game.to_dict() == start
