"""The play screen offscreen: taps at the pixel places of arrows, spare and cells become the right
commands, the real session changes the game, and the board shows it.

Runs on an offscreen EGL context (libegl1 + Mesa); skips with the reason when none can be made.
"""

from __future__ import annotations

import pytest

from engine.labyrinth.ai import make_ai
from kiosk.core import testing
from kiosk.core.events import GameSetup, IllegalInput, NewGame
from kiosk.games.labyrinth.events import BoardShifted, PawnMoved, PreviewMoved, SpareRotated, TreasureFound
from kiosk.games.labyrinth.session import Pacing

from tests.support.offscreen import offscreen_window
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display


MiniKiosk = testing.MiniKiosk


@pytest.fixture(scope="module")
def window():
    yield offscreen_window((1280, 800))
    # not closed: closing an EGL window takes seconds in Mesa; the process exit frees it


@pytest.fixture
def ui(window):
    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.runner import Offscreen

    kiosk = MiniKiosk()
    ui = UI(kiosk, window, layout="upright", first="play")
    ui.off = Offscreen(ui, kiosk)
    ui.k = kiosk
    yield ui
    ui.close()
    kiosk.close()


def start(ui, kinds="human,human", seed=3, **kw):
    ui.post(NewGame(GameSetup.of(kinds, seed=seed, **kw)))
    ui.off.settle()
    assert ui.screen.board.model.started


def tap_at(ui, rect):
    ui.tap(*rect.center)
    ui.off.settle()


def spare_widget(ui):
    """The panel's spare (the widget whose tap rotates)."""
    from kiosk.ui.kit.widgets import Button

    panel = ui.screen.panels[ui.k.sessions["labyrinth"].game.current]
    plain = [w for w in panel.widgets if not isinstance(w, Button) and w.on_tap is not None]
    assert plain, "the active human's panel shows the spare"
    return plain[0]


def test_tap_arrow_previews_rotates_and_pushes(ui):
    start(ui)
    s = ui.k.sessions["labyrinth"]
    g = s.game
    L = ui.layout
    spare_before = g.spare
    tap_at(ui, geometry.arrow_rect(L, "N3"))
    assert ui.k.of(PreviewMoved)[-1].arrow == "N3"
    assert s.preview == "N3" and g.phase == "shift"
    assert ui.screen.board._preview_tile.visible
    tap_at(ui, spare_widget(ui).rect)
    assert ui.k.of(SpareRotated)[-1].rotation == 1 and s.rotation == 1
    expected = g.copy()
    from engine.labyrinth import Shift

    expected.apply(Shift("N3", 1))
    tap_at(ui, geometry.arrow_rect(L, "N3"))  # the same arrow again pushes
    shifted = ui.k.of(BoardShifted)[-1]
    assert shifted.insertion == "N3" and shifted.rotation == 1
    assert g.phase == "move" and g.to_dict()["board"] == expected.to_dict()["board"]
    # the view shows the engine's board after the slide
    m = ui.screen.board.model
    assert [(t.openings, t.treasure) for t in m.tiles] == [
        (g.board[(r, c)].openings, g.board[(r, c)].treasure) for r in range(7) for c in range(7)
    ]
    assert spare_before.treasure == shifted.inserted.treasure


def test_the_spare_at_an_arrow_is_lifted_with_its_shadow_and_laid_down_to_slide(ui):
    """docs/art.md: the spare previewed at an arrow stands above the board, its shadow falling
    down-right (the light comes from the top-left); pushed, it lies on the board: no shadow."""
    start(ui)
    board = ui.screen.board
    tap_at(ui, geometry.arrow_rect(ui.layout, "W3"))
    tile, shadow = board._preview_tile, board._preview_shadow
    assert tile.visible and shadow.visible
    assert shadow.x > tile.x and shadow.y < tile.y
    assert shadow.color[:3] == (0, 0, 0) and 0 < shadow.opacity < 255
    tap_at(ui, geometry.arrow_rect(ui.layout, "W3"))  # pushed
    assert ui.k.of(BoardShifted)
    assert not shadow.visible


def test_forbidden_arrow_is_refused_with_a_message(ui):
    start(ui)
    g = ui.k.sessions["labyrinth"].game
    L = ui.layout
    tap_at(ui, geometry.arrow_rect(L, "W3"))
    tap_at(ui, geometry.arrow_rect(L, "W3"))
    me = g.current
    tap_at(ui, geometry.cell_rect(L, *g.player.position))  # stay: the first tap chooses ...
    tap_at(ui, geometry.cell_rect(L, *g.player.position))  # ... the second confirms
    assert g.current != me and g.forbidden == "E3"
    before = g.to_dict()
    tap_at(ui, geometry.arrow_rect(L, "E3"))
    refused = ui.k.of(IllegalInput)[-1]
    assert refused.arrow == "E3" and g.to_dict() == before
    panel = ui.screen.panels[g.current]
    assert panel.state.toast == ui.t("play.blocked")
    assert len(ui.screen.board._crosses) == 2  # the cross over the forbidden arrow


def test_tap_a_reachable_cell_walks_there(ui):
    start(ui, seed=11)
    g = ui.k.sessions["labyrinth"].game
    L = ui.layout
    for arrow in ("N1", "N3", "N5", "S1", "W1", "E5"):
        trial = g.copy()
        from engine.labyrinth import Shift

        trial.apply(Shift(arrow, 0))
        far = [c for c in trial.reachable() if c != trial.player.position]
        if far:
            break
    tap_at(ui, geometry.arrow_rect(L, arrow))
    tap_at(ui, geometry.arrow_rect(L, arrow))
    m = ui.screen.board.model
    assert m.reachable == frozenset(g.reachable())
    dims = [d.visible for d in ui.screen.board._dims]
    assert dims.count(False) == len(g.reachable())
    target = far[0]
    me = g.current
    tap_at(ui, geometry.cell_rect(L, *target))
    assert not ui.k.of(PawnMoved) or ui.k.of(PawnMoved)[-1].path[-1] != target  # one tap only chooses
    tap_at(ui, geometry.cell_rect(L, *target))
    moved = ui.k.of(PawnMoved)[-1]
    assert moved.path[-1] == target and g.players[me].position == target
    assert ui.screen.board.model.positions[me] == target
    spr = ui.screen.board._pawns[me]
    assert geometry.cell_at(L, spr.x, spr.y) == target


def test_a_pawn_walled_in_is_told_to_stay_not_to_tap_a_square_twice(ui):
    from engine.labyrinth import Shift

    start(ui, seed=2)
    g = ui.k.sessions["labyrinth"].game
    walled = [s for s in g.legal_shifts() if _walled_in_after(g, s)]
    assert walled, "seed 2 has a push that walls the pawn in"
    free = next(s for s in g.legal_shifts() if not _walled_in_after(g, s))
    assert ui.screen._prompt(_model_after(ui, free)) == ui.t("play.step_move")
    shift: Shift = walled[0]
    for _ in range(2):
        tap_at(ui, geometry.arrow_rect(ui.layout, shift.insertion))
    assert g.phase == "move" and g.reachable() == {g.player.position}
    assert ui.screen._prompt(ui.screen.board.model) == ui.t("play.step_stay")


def _walled_in_after(game, shift) -> bool:
    trial = game.copy()
    trial.apply(shift)
    return set(trial.reachable()) == {trial.player.position}


def _model_after(ui, shift):
    """The board's model as it would stand in the move phase after `shift` (a copy: the screen is not touched)."""
    from copy import copy

    g = ui.k.sessions["labyrinth"].game.copy()
    g.apply(shift)
    m = copy(ui.screen.board.model)
    m.phase, m.reachable = g.phase, frozenset(g.reachable())
    m.positions = [p.position for p in g.players]
    return m


def test_a_whole_solo_game_played_by_taps(ui):
    """One player, no return home, 24 cards: every turn is taps on arrows, the spare and a cell."""
    ui.off.frame_s = 0.2  # big virtual steps: each animation ends in a frame or two
    start(ui, kinds="human", seed=5, return_home=False)
    s = ui.k.sessions["labyrinth"]
    g = s.game
    L = ui.layout
    ai = make_ai("medium", seed=1)
    for _ in range(200):
        if g.phase == "over":
            break
        shift, move = ai.choose(g.copy())
        tap_at(ui, geometry.arrow_rect(L, shift.insertion))
        for _ in range(shift.rotation):
            tap_at(ui, spare_widget(ui).rect)
        assert s.rotation == shift.rotation
        tap_at(ui, geometry.arrow_rect(L, shift.insertion))
        assert g.phase in ("move", "over")
        tap_at(ui, geometry.cell_rect(L, *move.cell))  # choose, then walk (two taps)
        tap_at(ui, geometry.cell_rect(L, *move.cell))
    assert g.phase == "over" and g.winner == 0
    assert len(ui.k.of(TreasureFound)) == 24
    assert ui.screen.board.model.cards_left == [0]


def test_peek_shows_the_target_only_while_held(ui):
    start(ui)
    s = ui.k.sessions["labyrinth"]
    panel = ui.screen.panels[s.game.current]
    from kiosk.ui.kit.widgets import Button

    peek = [w for w in panel.widgets if isinstance(w, Button) and w.on_hold is not None][0]
    x, y = peek.rect.center
    ui.finger_down(x, y)
    ui.off.frame()
    st = ui.screen.panels[s.game.current].state
    assert st.peek and st.cards == (s.target_of(s.game.current),)
    ui.finger_up(x, y)
    ui.screen.peek.cancel()  # the short linger after letting go is over
    ui.off.frame()
    assert not ui.screen.panels[s.game.current].state.peek
    assert ui.screen.panels[s.game.current].state.cards == ()


def test_keys_stand_in_for_the_buttons(ui):
    from pyglet.window import key
    from kiosk.core.events import ButtonPressed

    start(ui)
    ui.on_key_press(key._3, 0)
    ui.on_key_press(key.R, 0)
    ui.off.settle()
    assert [e.button for e in ui.k.of(ButtonPressed)] == ["N3", "rotate"]


def test_game_against_a_paced_ai_shows_its_turn(ui):
    """A person against an AI: the AI's turn arrives as preview, push and walk events, all animated."""
    s = ui.k.sessions["labyrinth"]
    s.pacing = Pacing()  # human-eye pacing on the virtual clock
    start(ui, kinds="human,easy", seed=4)
    g = s.game
    L = ui.layout
    tap_at(ui, geometry.arrow_rect(L, "N1"))
    tap_at(ui, geometry.arrow_rect(L, "N1"))
    tap_at(ui, geometry.cell_rect(L, *g.player.position))
    tap_at(ui, geometry.cell_rect(L, *g.player.position))
    for _ in range(600):
        ui.off.frame()
        if g.current == 0 and g.phase == "shift" and not ui.screen.busy:
            break
    assert g.current == 0 and g.turns == 2
    ai_previews = [e for e in ui.k.of(PreviewMoved) if e.player == 1]
    assert ai_previews, "the AI's chosen arrow was shown before the push"
    assert [e for e in ui.k.of(BoardShifted) if e.player == 1]
