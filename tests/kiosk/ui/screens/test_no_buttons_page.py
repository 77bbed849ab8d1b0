"""On a Raspberry Pi without real pins the operator's hardware page says so, in place of
"press the buttons" (hardware.pins: the kiosk's ``pins_problem``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kiosk.core import testing
from kiosk.core.config import Config

from tests.kiosk.ui.screens.test_button_test import open_hardware_page
from tests.support.mini_ui import Now  # noqa: F401  (fixtures)
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

PROBLEM = "No arcade buttons on this Raspberry Pi 5 Model B Rev 1.0: no GPIO chip in /dev"


@pytest.mark.parametrize("problem", [PROBLEM, None])
def test_the_hardware_page_shows_why_the_buttons_cannot_work(tmp_path, problem):
    from kiosk.ui.shell.window import UI

    window = offscreen_window((800, 480))
    kiosk = testing.MiniKiosk(config=Config())
    kiosk.pins_problem = problem
    ui = UI(kiosk, window, layout="upright", language="en", first="setup", clock=Now())
    try:
        scr = open_hardware_page(ui)
        texts = [getattr(s, "text", "") for s in scr._shapes]
        assert (PROBLEM in texts) == (problem is not None)
        assert (ui.t("operator.press_buttons") in texts) == (problem is None)
        ui.draw()
        if problem and os.environ.get("KIOSK_SHOTS"):
            ui.screenshot(Path(os.environ["KIOSK_SHOTS"]) / "hardware_no_buttons.png")
    finally:
        ui.close()
        kiosk.close()
        window.close()
