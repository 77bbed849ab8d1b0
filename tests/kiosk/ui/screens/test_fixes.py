"""Small things visitors hit, offscreen through the real UI: who a refusal answers, the hint's
picture, the how-to's taps, the attract screen's games.

Screenshots go to the test's tmp dir (and ``$KIOSK_SHOTS`` when set, to look at them).
"""

from __future__ import annotations


import pytest

from kiosk.core import testing
from kiosk.core.config import Config
from kiosk.core.events import GameSetup, NewGame

from tests.support.mini_ui import Now, make, shot, window  # noqa: F401  (fixtures)
from tests.support.offscreen import Pixels, near, offscreen_window
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display


def start(ui, kinds, screen, game="labyrinth", seed=2, **kw):
    ui.post(NewGame(GameSetup.of(kinds, seed=seed, game=game, **kw)))
    ui.goto(screen)
    ui.step(0.02)  # the game is announced; the computer's first move is still to come


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_a_tap_in_the_computers_turn_is_answered_facing_the_person_who_tapped(make, tmp_path, language):
    ui = make(language=language)
    start(ui, "hard,human", "play")
    play = ui.screen
    m = play.board.model
    assert m.kinds[m.current] != "human" and m.seats[m.current] == 0  # the computer sits at the far edge
    for (x, y), edge, angle in (
        ((geometry.cell_center(ui.layout, 5, 3)), "S", 0),
        ((geometry.cell_center(ui.layout, 1, 3)), "N", 180),
    ):
        ui.tap(x, y)  # a cell: the session refuses it (the computer's turn)...
        ui.k.bus.dispatch_pending()  # ... and only that: the computer's paced steps wait for the clock
        assert play.note.showing and play.note.edge == edge
        assert play.note.text == ui.t("play.computer_thinking")
        lab = play.note.items[-1]
        assert lab.rotation == angle  # turned to the person who tapped
        assert (lab.y < ui.layout.height / 2) == (edge == "S")  # at their edge of the table
        assert play.toast == ""  # not in the computer's panel, upside down for them
        shot(ui, tmp_path, f"refusal_{language}_{edge}")
    ui.now.t += 3
    ui.step(0.02)
    assert not play.note.showing


def test_computer_is_thinking_goes_when_the_persons_own_turn_begins(make):
    """It lay over the person's arrows and menu buttons into their own turn."""
    from kiosk.ui.shell.runner import Offscreen

    ui = make()
    start(ui, "hard,human", "play")
    play = ui.screen
    m = play.board.model
    ui.tap(*geometry.cell_center(ui.layout, 5, 3))
    ui.k.bus.dispatch_pending()
    assert play.note.showing and play.note.text == ui.t("play.computer_thinking")
    Offscreen(ui, ui.k).settle()  # the computer plays its turn (within the note's time on the UI's clock)
    assert m.kinds[m.current] == "human" and m.phase == "shift"
    assert not play.note.showing


def test_a_card_game_tap_in_the_computers_turn_is_answered_facing_the_tapper(make, tmp_path):
    ui = make()
    start(ui, "easy,human,human", "cards_play", game="cards")
    scr = ui.screen
    g = scr.model
    assert g.kinds[g.current] != "human"
    cell = next(iter(g.layout))
    x, y = scr.cell_center(cell)
    ui.tap(x, y)
    assert scr.note.showing and scr.note.text == ui.t("cards.thinking", player=scr.player_name(g.current))
    assert scr.note.edge == ("N" if y >= ui.layout.height / 2 else "S")
    assert scr.toast == ""
    shot(ui, tmp_path, "refusal_cards")


def test_the_hint_has_its_own_picture_not_a_question_mark(make, tmp_path):
    ui = make()
    start(ui, "human,human", "play", open_cards=True)  # the children's variant: hints on
    play = ui.screen
    for _ in range(3):
        ui.step(0.05)
    active = play.panels[play.board.model.current]
    hint = [w for w in active.widgets if getattr(w, "on_tap", None) is active.callbacks["hint"]]
    assert len(hint) == 1
    b = hint[0]
    assert b.text != "?"  # "?" is "How to play" on every other screen
    shot(ui, tmp_path, "hint")
    px = Pixels()
    r = b.rect
    colours = [px(r.x + r.w * i / 10, r.y + r.h * j / 10) for i in range(1, 10) for j in range(1, 10)]
    assert any(near(c, (255, 196, 64), 30) for c in colours), "no bulb on the hint button"


def test_the_howto_shows_the_games_own_taps_turn_in_the_panel_push_with_two_taps(make, tmp_path):
    from kiosk.games.labyrinth.screens.howto import STEPS

    ui = make()
    ui.goto("howto", then="setup")
    scr = ui.screen
    scr.show_step(STEPS.index("howto.rotate"))
    sc, S = scr._scene, scr._S
    # the spare that turns is the one in the player's own panel, with its turning badge; no arrow
    # beside it (the spare previewed at an arrow is pushed in by a tap in the game, not turned)
    assert "badge" in sc and "arrow" not in sc
    assert abs(sc["finger"].x - sc["spare"].x) < S * 0.5
    shot(ui, tmp_path, "howto_rotate")
    scr.show_step(STEPS.index("howto.push"))
    sc, S = scr._scene, scr._S  # this step's stage (it has a note line: smaller)
    ax, ay = sc["arrow_at"]
    assert abs(sc["finger"].x - ax) < S * 0.2  # the finger is at the arrow
    heights, start_x = [], sc["spare"].x
    for k in range(80):  # the first 0.8 s: two taps on the arrow, the tile has not moved yet
        scr.step_t = k / 100
        scr._animate()
        heights.append(sc["finger"].y > ay - S * 0.5)
        assert sc["spare"].x == pytest.approx(start_x)
    downs = sum(1 for a, b in zip(heights, heights[1:]) if b and not a)
    assert downs == 2, heights
    scr.step_t = 2.0
    scr._animate()
    assert sc["spare"].x > start_x + S * 0.5  # then it is pushed in


@pytest.mark.parametrize("layout", ["tabletop", "upright"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_attract_screen_says_the_kiosk_has_both_games(layout, size):
    from kiosk.ui.shell.window import UI

    window = offscreen_window(size)
    kiosk = testing.MiniKiosk(config=Config())
    ui = UI(kiosk, window, layout=layout, language="en", first="attract", clock=Now())
    try:
        both = ui.t("attract.both_games")
        said = [s for s in ui.screen._shapes if both in getattr(s, "text", "")]
        assert len(said) == (2 if layout == "tabletop" else 1)  # each long side of a table reads it
        assert sorted(lab.rotation for lab in said) == ([0, 180] if layout == "tabletop" else [0])
    finally:
        ui.close()
        kiosk.close()
        window.close()


def test_the_card_game_shows_why_cards_may_be_taken_the_path_and_both_treasures(make, tmp_path):
    """Seed 5: the second card of the first hand laid unturned at (1, 2) joins its kite to card 41's."""
    from kiosk.games.cards.events import HandOver, LayCard, RotateHandCard, SelectHandCard

    ui = make(layout="upright")
    start(ui, "human,human", "cards_play", game="cards", seed=5)
    scr, s = ui.screen, ui.k.sessions["cards"]
    if s.handover:
        ui.post(HandOver())
    ui.post(SelectHandCard(1))
    for _ in range(3):
        ui.step(0.02)
    while s.rotation != 0:
        ui.post(RotateHandCard())
        ui.step(0.02)
    ui.post(LayCard((1, 2)))
    for _ in range(10):
        ui.step(0.05)
    g = scr.model
    assert g.phase == "take" and g.takeable() == {41}
    path = g.joined_paths()["kite"]
    assert {(1, 2), g.cell_of(41)} <= path
    lit = {cell for _shape, cell, kind in scr.table.marks if kind == "path"}
    assert lit == path  # the joined path is outlined
    assert sorted(scr.why) == sorted([((1, 2), "kite"), (g.cell_of(41), "kite")])  # both treasures ringed
    rings = [shape for shape, _cell, kind in scr.table.marks if isinstance(kind, tuple)]
    assert len(rings) == 2 and all(r.radius > 4 for r in rings)
    shot(ui, tmp_path, "cards_why_take")


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_the_first_tap_on_an_arrow_says_tap_again_beside_it_facing_the_tapper(make, tmp_path, language):
    """The previewed spare's answer where the finger is: beside the arrow, over the board's edge, turned to
    the player whose turn it is; gone with the push. Seat 0 sits at the far edge (turned 180)."""
    ui = make(language=language)
    start(ui, "human,human", "play")
    play, L = ui.screen, ui.layout
    m = play.board.model
    ui.step(0.5)
    for arrow in ("N3", "W3", "S5"):
        a = geometry.arrow_rect(L, arrow)
        ui.tap(*a.center)
        ui.k.bus.dispatch_pending()
        ui.step(0.02)
        assert play.note.showing and play.note.text == ui.t("play.tap_arrow_again")
        lab = play.note.items[-1]
        assert lab.rotation == L.facing(m.seats[m.current])
        box = play.note.items[0]  # its panel: inside the board, beside the arrow, on none of the arrows
        note = play.note.rect
        assert L.board.x - 1 <= note.x and note.right <= L.board.right + 1
        assert L.board.y - 1 <= note.y and note.top <= L.board.top + 1
        dx, dy = max(0, note.x - a.right, a.x - note.right), max(0, note.y - a.top, a.y - note.top)
        assert 0 < max(dx, dy) <= L.px(6), (note, a)  # right beside the arrow, not on it
        assert box is not None
        shot(ui, tmp_path, f"arrow_note_{language}_{arrow}")
    ui.tap(*geometry.arrow_rect(L, "S5").center)  # the second tap pushes: the note goes
    ui.k.bus.dispatch_pending()
    ui.step(0.02)
    assert not play.note.showing


def test_a_hint_puts_the_spare_turned_at_its_arrow_then_rings_the_square_to_walk_to(make, tmp_path):
    """A hint a child can follow: a thin ring round one arrow showed neither the turn nor the walk."""
    from kiosk.games.labyrinth.events import HintReady, RequestHint, SelectArrow
    from kiosk.ui.shell.runner import Offscreen

    ui = make()
    start(ui, "human,human", "play", hints=True)
    off = Offscreen(ui, ui.k)
    off.settle()
    ui.post(RequestHint())
    off.settle()
    (hint,) = ui.k.of(HintReady)
    board = ui.screen.board
    m = board.model
    assert (m.preview, m.rotation) == (hint.insertion, hint.rotation % 4)  # the spare waits there, turned

    def ring_at() -> tuple[float, float]:
        (mark,) = board._hint_marks
        return (mark.x, mark.y)

    assert ring_at() == pytest.approx(geometry.arrow_rect(ui.layout, hint.insertion).center)
    shot(ui, tmp_path, "hint_arrow")
    ui.post(SelectArrow(hint.insertion))  # the same arrow again: the push
    off.settle()
    assert m.phase == "move" and tuple(hint.cell) in m.reachable
    assert ring_at() == pytest.approx(geometry.cell_rect(ui.layout, *hint.cell).center)
    shot(ui, tmp_path, "hint_walk")
