"""Text contrast and picture sizes in the layout audit (kiosk/ui/kit/contrast.py, kiosk/ui/audit/layout.py).

The ratio is WCAG 2's; the rule asks 4.5:1, 3:1 for text of 24 px and more at 800x480 (scaled
with the screen); the colour behind a text is measured on a frame drawn without the texts. A
real drawn bad case (the setup drawn with the seats' own colours for its words, as it was) is
found; the fixed screen passes.
"""

from __future__ import annotations

import pytest

from kiosk.ui.kit import contrast
from kiosk.ui.audit import layout as la
from kiosk.ui.kit.layout import Layout, Rect

from tests.support.offscreen import offscreen_window


def _text(text, rect, fg, bg, font_px=18.0):
    return dict(
        id=f"text:{text}",
        kind="text",
        rect=Rect(*rect),
        touch=False,
        font_px=font_px,
        text=text,
        container=None,
        faces="S",
        role="body",
        fg=list(fg),
        bg=list(bg),
    )


def test_the_ratio_is_wcags():
    assert contrast.ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast.ratio((56, 64, 78), (56, 64, 78)) == pytest.approx(1.0)
    assert contrast.ratio((226, 54, 54), (56, 64, 78)) == pytest.approx(2.39, abs=0.01)  # the old red "Join"
    assert contrast.ratio((118, 118, 118), (255, 255, 255)) == pytest.approx(4.54, abs=0.01)  # WCAG's grey


def test_the_contrast_rule_fails_below_the_ratios_and_scales_with_the_screen():
    L = Layout(800, 480)
    red_on_grey = [_text("Join", (10, 10, 40, 20), (226, 54, 54), (56, 64, 78))]
    assert [p.split(":")[0] for p in la.check("s", L, red_on_grey)] == ["low_contrast"]
    assert "2.39:1 (at least 4.5:1)" in la.check("s", L, red_on_grey)[0]
    mid = (100, 100, 100)  # 3.1:1 on near-black: enough for large text only
    assert 3.0 < contrast.ratio(mid, (20, 20, 20)) < 4.5
    assert la.check("s", L, [_text("Big", (10, 10, 80, 30), mid, (20, 20, 20), font_px=26)]) == []
    assert la.check("s", L, [_text("Small", (10, 10, 80, 30), mid, (20, 20, 20), font_px=20)]) != []
    # 26 px is large at 800x480 but not at 1920x1080 (the sizes scale with the screen)
    assert la.check("s", Layout(1920, 1080), [_text("Big", (10, 10, 80, 30), mid, (20, 20, 20), font_px=26)]) != []
    # a dark shadow under a readable copy of the same words is not read
    shadow = [
        _text("TITLE", (12, 8, 80, 30), (10, 12, 18), (14, 17, 22), font_px=26),
        _text("TITLE", (10, 10, 80, 30), (250, 250, 250), (14, 17, 22), font_px=26),
    ]
    assert la.check("s", L, shadow) == []
    assert la.check("s", L, shadow[:1]) != []


def test_text_shade_keeps_the_hue_and_reaches_the_ratio():
    for rgb in ((226, 54, 54), (54, 116, 236), (46, 172, 84), (168, 92, 230)):
        shade = contrast.text_shade(rgb)
        assert contrast.ratio(shade, contrast.TEXT_BG) >= contrast.MIN_RATIO
        assert max(range(3), key=lambda k: shade[k]) == max(range(3), key=lambda k: rgb[k])  # still red, blue...
    assert contrast.text_shade((250, 206, 40)) == (250, 206, 40)  # yellow reads as it is


@pytest.mark.display
def test_the_audit_measures_the_colour_behind_each_text_and_finds_a_bad_one(monkeypatch):
    from kiosk.ui.audit.states import STATES

    window = offscreen_window((800, 480))
    env = la.Env(window)
    try:
        setup = next(s for s in STATES if (s.screen, s.name) == ("setup", "board-4"))
        good = la.walk(sizes=[(800, 480)], layouts=["tabletop"], languages=["en"], states=[setup], env=env)
        joins = [it for it in good["entries"][0]["items"] if it["kind"] == "text" and it["text"] == "Join"]
        assert len(joins) == 4
        for it in joins:
            assert it["bg"] == list(contrast.TEXT_BG)  # the corner chip's wooden token (menu.TOGGLE_OFF), as drawn
            assert contrast.ratio(it["fg"], it["bg"]) >= contrast.MIN_RATIO
        assert all("fg" in it and "bg" in it for it in good["entries"][0]["items"] if it["kind"] == "text")
        assert la.problems_of(good) == []

        # the setup drawn as before the fix: the seats' own colours for their words
        monkeypatch.setattr("kiosk.games.labyrinth.screens.setup_panel.text_shade", lambda rgb, *a: tuple(rgb[:3]))
        report = la.walk(sizes=[(800, 480)], layouts=["tabletop"], languages=["en"], states=[setup], env=env)
        problems = la.problems_of(report)
        assert any("low_contrast" in p and f"'Join' (226, 54, 54) on {contrast.TEXT_BG}" in p for p in problems), (
            problems
        )
        out = la.to_json(report)
        item = next(it for it in out["entries"][0]["items"] if it["text"] == "Join" and it.get("fg") == [226, 54, 54])
        assert item["bg"] == list(contrast.TEXT_BG)
    finally:
        env.close()


def test_the_picture_rule_wants_40_px_scaled_with_the_screen():
    def pic(px):
        return dict(
            id="p",
            kind="picture",
            rect=Rect(10, 10, px, px),
            touch=False,
            font_px=None,
            text="owl",
            container=None,
            faces="S",
            kind_of="found",
        )

    L = Layout(800, 480)
    assert [p.split(":")[0] for p in la.check("s", L, [pic(24)])] == ["small_picture"]
    assert la.check("s", L, [pic(40)]) == []
    assert la.check("s", Layout(1920, 1080), [pic(40)]) != []  # 40 px is small on full HD


@pytest.mark.display
def test_the_board_games_pictures_off_the_board_are_measured_and_large_enough():
    from kiosk.games.labyrinth.screens import audit as board_audit

    def found(env):
        board_audit._board(env, ("human", "human", "human", "human"), open_cards=True)
        screen = board_audit._play(env)
        screen.board.model.found = [["owl", "bat", "ring", "crown", "keys"], ["map"], [], ["skull"]]
        screen.cue.hide()  # after the first touch: until then the turn cue covers the active panel's head
        screen._build_panels()

    window = offscreen_window((800, 480))
    env = la.Env(window)
    try:
        state = la.State("play", "found", "labyrinth", found)
        report = la.walk(
            sizes=[(800, 480), (1280, 800)], layouts=["tabletop"], languages=["en"], states=[state], env=env
        )
    finally:
        env.close()
    for entry in report["entries"]:
        pictures = [it for it in entry["items"] if it["kind"] == "picture"]
        kinds = {it["kind_of"] for it in pictures}
        assert kinds == {"found", "open_card"}, kinds
        assert {it["text"] for it in pictures if it["kind_of"] == "found"} >= {"keys", "map", "skull"}
    assert la.problems_of(report) == []
