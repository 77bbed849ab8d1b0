"""The operator's statistics page (issue 43), offscreen at 800x480 in en, de and et: every word on it
at the kit's body size at least (it was about 11 px), cut short rather than set smaller, and inside
the screen.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from kiosk.store.history import GameRecord, History

from tests.support.mini_ui import make, shot, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


def _history(tmp_path) -> History:
    history = History(tmp_path)
    now = datetime.now(timezone.utc).timestamp()
    games = [
        ("labyrinth", ["human", "hard"], [1], 600, ()),
        ("labyrinth", ["human", "easy", "hard"], [0], 900, ("open_cards",)),
        ("labyrinth", ["human", "fair"], [1], 500, ("treasures_3",)),
        ("cards", ["human", "human", "easy"], [0, 1], 300, ()),
        ("labyrinth", ["human", "medium"], [0], 700, ("open_cards", "no_return_home")),
    ]
    for k, (game, seats, winners, seconds, variant) in enumerate(games):
        history.append(
            GameRecord.make(
                game=game,
                seats=seats,
                winners=winners,
                turns=20,
                duration_s=seconds,
                ended_at=now - 3600 * (5 * k + 1),
                variant=variant,
            )
        )
    return history


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_the_statistics_are_written_at_the_body_size(make, tmp_path, language):
    from kiosk.ui.audit.layout import text_box
    from kiosk.ui.kit.typeface import BODY

    from kiosk.ui.kit.menu import set_language

    ui = make(first="attract")
    ui.k.history = _history(tmp_path)
    set_language(ui, language)  # (the attract screen opens in the kiosk's own language)
    ui.goto("operator")
    scr = ui.screen
    scr.open_page("stats")
    scr.stats_job._thread.join(30)
    ui.step(0.02)
    assert scr.chart_bars > 0  # the charts are drawn
    shot(ui, tmp_path, f"stats_{language}")
    texts = [lab for lab in scr._shapes if hasattr(lab, "font_size") and getattr(lab, "text", "").strip()]
    assert len(texts) > 10
    assert ui.t("operator.chart_per_day") in {lab.text for lab in texts}  # (in this language)
    least = ui.layout.font(BODY) - 0.01
    small = [(lab.text, round(lab.font_size, 1)) for lab in texts if lab.font_size < least]
    assert not small, small
    for lab in texts:
        r = text_box(lab)
        assert 0 <= r.x and r.right <= ui.layout.width + 1 and 0 <= r.y and r.top <= ui.layout.height + 1, lab.text
