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
