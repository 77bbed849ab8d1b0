"""Seats people cannot break by accident (the setup screen, offscreen, through the real UI).

Each seat shows its three choices side by side (a person, the computer with its stars,
"Family"), each with its own picture; a tap on the chosen one changes nothing; a seat
someone joined at its corner stays a person; a table with no person starts as "watch the
computers", and that game has a stop button.
"""

from __future__ import annotations

import pytest

from kiosk.core.events import NewGame

from tests.support.mini_ui import Now, make, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


def tap(ui, w):
    ui.tap(*w.rect.center)
    ui.step(0.02)


def test_a_tap_on_the_chosen_choice_changes_nothing(make):
    ui = make(layout="upright")
    scr = ui.screen
    for _ in range(3):
        tap(ui, scr.panel.kind_buttons[0]["human"])
        assert scr.choices.kinds[0] == "human"  # not turned into a computer by a tap on "Human"
    tap(ui, scr.panel.kind_buttons[1]["computer"])
    tap(ui, scr.panel.kind_buttons[1]["computer"])
    assert scr.choices.kinds[1] == "medium"  # still the computer, at its level


def test_a_seat_someone_joined_stays_a_person(make):
    ui = make(opener=(40, 40))  # a person touched the near left corner: they joined as seat 3
    scr = ui.screen
    assert scr.choices.joined == [3] and scr.choices.seats()[0] == 3
    buttons = scr.panel.kind_buttons[0]
    assert not buttons["computer"].enabled and not buttons["fair"].enabled
    tap(ui, buttons["computer"])
    tap(ui, scr.panel.kind_buttons[0]["fair"])
    assert scr.choices.kinds[0] == "human"
    assert ui.t("setup.seat.joined") in [getattr(s, "text", "") for s in scr._shapes]
    # the other seat, nobody's, may still be set to anything
    tap(ui, scr.panel.kind_buttons[1]["fair"])
    assert scr.choices.kinds[1] == "fair"


def test_each_choice_has_its_own_picture_and_the_chosen_one_says_what_it_means(make):
    ui = make(layout="upright")
    scr = ui.screen
    tap(ui, scr.panel.kind_buttons[1]["fair"])
    texts = [getattr(s, "text", "") for s in scr._shapes]
    assert ui.t("setup.level.fair") in texts and ui.t("setup.seat.fair.help") in texts
    assert ui.t("setup.human") in texts and ui.t("setup.seat.human.help") in texts
    # the pictures differ: a person, a screen, a screen with a person (different shape counts)
    counts = {}
    for option, b in scr.panel.kind_buttons[0].items():
        inside = [
            sh
            for sh in scr._shapes
            if not hasattr(sh, "text") and b.rect.contains(getattr(sh, "x", -1), getattr(sh, "y", -1))
        ]
        counts[option] = len(inside)
    assert counts["human"] == 2 and counts["computer"] == 3 and counts["fair"] == 5, counts


def test_no_person_at_the_table_starts_as_watching_the_computers_with_a_stop(make):
    ui = make(layout="upright")
    scr = ui.screen
    assert scr.start_button.text.startswith(ui.t("setup.start"))
    tap(ui, scr.panel.kind_buttons[0]["computer"])
    assert scr.nobody_plays and scr.start_button.text.startswith(ui.t("setup.watch"))
    tap(ui, scr.start_button)
    for _ in range(3):
        ui.step(0.05)
    (news,) = ui.k.of(NewGame)
    assert "human" not in news.setup.kinds
    assert ui.screen.name == "play" and ui.menu.computers_only and ui.menu._spots  # a visible stop
