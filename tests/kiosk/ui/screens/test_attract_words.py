"""The attract screen's words (issue 43), offscreen at 800x480 on a tabletop: "touch to play" goes
from one language to the next with no blank moment between, and the caption beside it reads as
sentences in every language.
"""

from __future__ import annotations

import pytest

from tests.support.mini_ui import make, shot, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


def test_touch_to_play_changes_language_without_a_blank_moment(make, tmp_path):
    from kiosk.ui.screens.attract import CYCLE_S

    ui = make(first="attract")
    scr = ui.screen
    assert len(scr._invites) == 2  # one for each long side of the table
    seen = []
    for k in range(int(3 * CYCLE_S / 0.05)):  # three changes of language, a frame every 50 ms
        ui.step(0.05)
        for lbl in scr._invites:
            assert lbl.text.strip(), f"no words at {k * 0.05:.2f} s"
            assert lbl.color[3] == 255, f"faded to {lbl.color[3]} at {k * 0.05:.2f} s"
        if not seen or seen[-1] != scr._invites[0].text:
            seen.append(scr._invites[0].text)
    assert len(seen) >= 3, seen
    shot(ui, tmp_path, "attract")


@pytest.mark.parametrize("language", ["en", "de", "et", "fr", "it", "nl", "es", "pt"])
def test_the_attract_caption_reads_as_sentences(make, tmp_path, language):
    """It read "The computers play / Board game and card game": two lines that were neither one
    sentence nor two. Each line is a sentence of its own now (a capital, an end mark), for the demo
    and for the day's best game replayed."""
    from kiosk.ui.kit.menu import set_language

    ui = make(first="attract")
    scr = ui.screen
    set_language(ui, language)  # (the attract screen opens in the kiosk's own language)
    scr.resize(ui.layout)
    assert all(lab.text == scr.caption() for lab in scr._captions)  # the caption shown: this one
    for key in ("attract.demo", "attract.best_game"):
        scr.caption_key = lambda key=key: key
        for line in scr.caption().split("\n"):
            line = line.strip()
            assert line[0].isupper() or line[0] in "¡¿", (language, line)
            assert line[-1] in ".!?", (language, line)
    shot(ui, tmp_path, f"attract_{language}")
