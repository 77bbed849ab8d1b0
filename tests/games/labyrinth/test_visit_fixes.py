"""What visitors hit on the board game's screens (issue 43), offscreen at 800x480 on a tabletop,
through the real UI: the open cards' picture, the spare's size, the texts' margins.

Screenshots go to the test's tmp dir (and ``$KIOSK_SHOTS`` when set, to look at them).
"""

from __future__ import annotations

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.ui.kit import widgets

from tests.support.mini_ui import make, shot, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


def start(ui, kinds: str, seed: int = 3, **kw):
    ui.post(NewGame(GameSetup.of(kinds, seed=seed, **kw)))
    ui.goto("play")
    for _ in range(4):
        ui.step(0.05)
    return ui.screen


def open_cards_shown(ui) -> list[str]:
    """The open cards the active panel shows now (each at least the picture size)."""
    from kiosk.ui.kit.typeface import PICTURE

    play = ui.screen
    rec = widgets.RECORDER = widgets.Recorder()
    try:
        for p in play.panels.values():
            p.state = None  # drawn again, for the recorder
        play._signature = None
        play._refresh_panels()
        ui.step(0.05)
    finally:
        widgets.RECORDER = None
    shown = [
        (t, px)
        for s, kind, t, px in rec.pictures
        if kind == "open_card" and getattr(s, "_vertex_list", None) is not None and s.visible
    ]
    assert all(px >= ui.layout.px(PICTURE) - 0.5 for _, px in shown)
    return [t for t, _ in shown]


@pytest.mark.parametrize("treasures", [3, 0])
def test_open_cards_show_all_of_the_deal(make, tmp_path, treasures):
    """ "See all your treasures": the public deal's 3 show at once; a full deal's cards all show
    while the row that says "+n" is held (they do not fit beside the spare)."""
    ui = make()
    play = start(ui, "human,easy", open_cards=True, treasures=treasures)
    s = ui.k.sessions["labyrinth"]
    cards = list(s.visible_cards(s.game.current))
    assert len(cards) == (3 if treasures else 12)
    shown = open_cards_shown(ui)
    shot(ui, tmp_path, f"open_cards_{treasures}")
    if treasures:
        assert sorted(shown) == sorted(cards)
        return
    assert len(shown) < len(cards)  # the rest behind the "+n" ...
    panel = play.panels[s.game.current]
    held = [w for w in panel.widgets if getattr(w, "on_hold", None) is not None]
    assert held, "the open cards' row answers a hold"
    ui.finger_down(*held[0].rect.center)
    ui.step(0.05)
    shown = open_cards_shown(ui)
    shot(ui, tmp_path, "open_cards_held")
    assert sorted(shown) == sorted(cards)  # ... and every one while it is held
    ui.finger_up(*held[0].rect.center)
    ui.now.t += 10  # (a short hold is a tap: they stay a moment, as the target's eye does)
    ui.step(0.05)
    assert len(open_cards_shown(ui)) < len(cards)


#: the spare in the active panel at 800x480, at least (px): its paths read from the player's seat
#: (the board's cells are 52 px; it was 65 beside the hint button)
SPARE_READS_PX = 88
#: a panel's texts keep this far from its edge at 800x480 (px): the tray's rim and a margin
TEXT_MARGIN_PX = 8


def _overlap(a, b) -> bool:
    return a.x < b.right and b.x < a.right and a.y < b.top and b.y < a.top


def _turns(ui):
    """The active person's panel in each moment of a turn with hints on: cued, the push, an arrow
    chosen, the walk, a refusal."""
    from kiosk.games.labyrinth.events import SelectArrow

    play = ui.screen
    yield "cued"
    play.cue.hide()
    play._signature = None
    yield "push"
    ui.post(SelectArrow("W3"))
    yield "arrow"
    ui.post(SelectArrow("W3"))
    for _ in range(30):
        ui.step(0.05)
        ui.now.t += 0.1
    yield "walk"
    play._show_toast(ui.t("play.blocked"), play.board.model.current)
    play.toast_until = ui.now() + 3600
    yield "refusal"


@pytest.mark.parametrize("language", ["en", "de", "et"])
@pytest.mark.parametrize("kinds", ["human,medium,human,hard", "human,human"])
def test_the_spare_reads_and_texts_keep_inside_the_panel(make, tmp_path, language, kinds):
    from kiosk.ui.audit.layout import text_box

    ui = make(language=language)
    play = start(ui, kinds, hints=True)
    m = play.board.model
    me = m.current
    for moment in _turns(ui):
        for _ in range(3):
            ui.step(0.05)
        play._refresh_panels()
        panel = play.panels[me]
        shot(ui, tmp_path, f"panel_{language}_{len(m.seats)}_{moment}")
        st = panel.state
        if st.spare is not None and m.phase == "shift":
            assert panel.spare_box is not None and panel.hint_box is not None, moment
            assert min(panel.spare_box.w, panel.spare_box.h) >= SPARE_READS_PX - 0.5, (moment, panel.spare_box)
            assert not _overlap(panel.spare_box, panel.hint_box)
        inner = panel.frame.rect.inset(TEXT_MARGIN_PX)
        for lab in panel.texts:
            if not lab.text.strip() or lab.text in ("\u21bb",):  # the turn badge's arrow sits on the spare
                continue
            r = text_box(lab)
            assert inner.x - 0.5 <= r.x and r.right <= inner.right + 0.5, (moment, lab.text, r, inner)
            if lab.multiline:  # a wrapped text keeps the margin above and below too (a line's box
                # holds its descent: one line's is taller than its ink, and the header's sits by the rim)
                assert inner.y - 0.5 <= r.y and r.top <= inner.top + 0.5, (moment, lab.text, r, inner)


def _pushed(make):
    """A UI with a game of two people whose first person has pushed (the push is marked)."""
    from kiosk.games.labyrinth.events import SelectArrow

    ui = make()
    play = start(ui, "human,human")
    ui.post(SelectArrow("N1"))
    ui.post(SelectArrow("N1"))
    for _ in range(30):
        ui.step(0.05)
    return ui, play


@pytest.mark.parametrize("away", ["howto", "operator"])
def test_the_last_move_stays_marked_after_the_rules_or_the_operator_menu(make, tmp_path, away):
    ui, play = _pushed(make)
    board = play.board
    assert board.last_move.get("push") is not None
    marked = [obj for obj in board._push_marks if obj.visible]
    assert marked
    ui.goto(away, **({"then": "play"} if away == "howto" else {}))
    ui.step(0.05)
    ui.goto("play")
    for _ in range(3):
        ui.step(0.05)
    shot(ui, tmp_path, f"back_from_{away}")
    assert board.last_move.get("push") is not None
    assert [obj for obj in board._push_marks if obj.visible]


def test_a_new_game_shows_no_marks_of_the_last_one(make):
    """(the marks stay only for the same game at the same moment)"""
    ui, play = _pushed(make)
    ui.goto("howto", then="play")
    ui.post(NewGame(GameSetup.of("human,human", seed=4)))
    ui.goto("play")
    ui.step(0.05)
    assert play.board.last_move == {}


def _join_rect(ui, player):
    seats = ui.seats
    seats.update()
    return seats.joins.get(player)


@pytest.mark.parametrize("kinds", ["medium,human", "human,medium,human", "human,medium,human,hard"])
def test_the_computers_spare_is_not_under_its_join(make, tmp_path, kinds):
    from kiosk.ui.kit.layout import Rect

    ui = make()
    ui.post(NewGame(GameSetup.of(kinds, seed=3, first=1 if kinds.startswith("human") else 0)))
    ui.k.bus.dispatch_pending()  # the computer's turn: its panel shows the spare (its steps wait)
    ui.goto("play")
    play = ui.screen
    m = play.board.model
    for _ in range(40):  # until it shows the spare at an arrow (its words gone: the spare at its largest)
        ui.step(0.05)
        if m.preview is not None:
            break
    assert m.preview is not None and m.kinds[m.current] != "human"
    m = play.board.model
    assert m.kinds[m.current] != "human" and m.phase == "shift"
    panel = play.panels[m.current]
    join = _join_rect(ui, m.current)
    shot(ui, tmp_path, f"computer_join_{len(m.seats)}")
    assert join is not None and panel.spare_box is not None
    assert not _overlap(Rect(*panel.spare_box), Rect(*join)), (panel.spare_box, join)


def test_a_seat_handed_back_in_its_turn_is_cued(make, tmp_path):
    from kiosk.core.events import ChangeSeat

    ui = make()
    ui.post(NewGame(GameSetup.of("medium,human", seed=3, first=0)))
    ui.k.bus.dispatch_pending()  # the game is announced; the computer's paced steps wait for the clock
    ui.goto("play")
    play = ui.screen
    m = play.board.model
    assert m.current == 0 and m.kinds[0] != "human" and not play.cue.showing  # the computer's turn ...
    ui.post(ChangeSeat(0, "human", reason="join"))  # ... handed back before its first step
    for _ in range(4):
        ui.step(0.05)
    assert m.kinds[0] == "human" and m.current == 0 and m.phase == "shift"
    shot(ui, tmp_path, "handed_back")
    assert play.cue.showing and play.cue.player == 0
    assert play.toast == ""  # the computer's step that came too late is no message for the person


def test_the_high_contrast_switch_builds_only_the_screen_on_show_at_once(make, tmp_path):
    """The operator's tap answered late: every screen was built again (the play screen's art baked
    again) before the switch showed its new state. The others are built as they are next shown."""
    from kiosk.ui.screens import operator_settings

    ui = make()
    play = start(ui, "human,human")
    ui.goto("operator")
    op = ui.screen
    op.page = "settings"
    op._build()
    built = []
    play_resize = play.resize
    play.resize = lambda layout: (built.append(layout), play_resize(layout))
    operator_settings._contrast(op, True)
    assert ui.high_contrast and not built  # the play screen waits ...
    shot(ui, tmp_path, "contrast_on")
    ui.goto("play")
    assert len(built) == 1 and ui.atlas.high_contrast  # ... until it is shown, in the new palette
    ui.step(0.05)
    shot(ui, tmp_path, "contrast_play")


@pytest.mark.parametrize("language", ["en", "de", "et"])
@pytest.mark.parametrize("layout", ["tabletop", "upright"])
def test_the_result_has_its_buttons_for_each_side_of_a_table(make, tmp_path, language, layout):
    from kiosk.games.labyrinth.events import GameOver
    from kiosk.ui.kit.widgets import Button

    ui = make(layout=layout, language=language)
    ui.goto("gameover", event=GameOver((0,), 31, (("ring", "crown"), ("keys",)), ("human", "medium")))
    scr = ui.screen
    ui.step(0.05)
    shot(ui, tmp_path, f"result_{layout}_{language}")
    again = [w for w in scr.widgets if isinstance(w, Button) and w.on_tap == scr.play_again]
    back = [w for w in scr.widgets if isinstance(w, Button) and w.text.startswith("\u2039")]
    faces = [0, 180] if layout == "tabletop" else [0]
    assert sorted(b.frame.angle for b in again) == faces
    assert sorted(b.frame.angle for b in back) == faces
    for b in again + back:  # each at its own edge, upright for who reads it there
        assert (b.rect.cy < ui.layout.height / 2) == (b.frame.angle == 0)
