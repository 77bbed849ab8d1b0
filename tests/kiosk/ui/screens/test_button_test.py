"""The operator's button test counts each arrow button as it is pressed and says when all 12 work.

Offscreen, through the real UI and bus: the operator gesture and PIN open the hardware page, the
presses arrive as ``ButtonPressed`` (as the debounced buttons send them), and the count on the
page follows each one (it stayed at "0 / 12" while the lights turned green).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.core import testing
from kiosk.core.config import Config
from kiosk.core.config import ARROWS
from kiosk.core.events import ButtonPressed

from tests.support.mini_ui import Now  # noqa: F401  (fixtures)
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_the_button_test_counts_live_and_says_all_12_buttons_work(tmp_path, language):
    from kiosk.ui.shell.window import UI

    window = offscreen_window((800, 480))
    kiosk = testing.MiniKiosk(config=Config())
    ui = UI(kiosk, window, layout="upright", language=language, first="setup", clock=Now())
    try:
        scr = open_hardware_page(ui)
        assert scr._count.text == "0 / 12"
        for k, name in enumerate(ARROWS[:-1], 1):
            ui.post(ButtonPressed(name))
            ui.step(0.02)
            assert scr._count.text == f"{k} / 12"  # counted at once, no page redraw needed
        ui.post(ButtonPressed(ARROWS[0]))  # the same button again: no more
        ui.step(0.02)
        assert scr._count.text == "11 / 12"
        ui.post(ButtonPressed(ARROWS[-1]))
        ui.step(0.02)
        assert scr._count.text == ui.t("operator.all_buttons")
        assert scr._count.content_width <= scr._count_fit[1] + 1  # it fits the board drawn there
        ui.draw()
        ui.screenshot(tmp_path / f"button_test_{language}.png")
        if os.environ.get("KIOSK_SHOTS"):
            ui.screenshot(Path(os.environ["KIOSK_SHOTS"]) / f"button_test_{language}.png")
    finally:
        ui.close()
        kiosk.close()
        window.close()


def open_hardware_page(ui):
    """The operator menu opened with the default PIN: its first page is the hardware test."""
    ui.goto("operator")
    scr = ui.screen
    scr._armed = True
    for d in "2580":
        scr.key(d)
    scr.key("ok")
    assert scr.page == "hardware"
    return scr
