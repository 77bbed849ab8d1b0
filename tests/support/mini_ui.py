"""A UI on the stand-in kiosk in one offscreen window, for the game-shell tests (tests/kiosk/ui/).

``Now`` is a clock that moves only when a test moves it; the ``window`` fixture is one 800x480
offscreen window per test module; ``make`` builds UIs on a fresh ``MiniKiosk`` in it and closes
them after the test. ``shot`` saves a screenshot in the test's folder (and in ``$KIOSK_SHOTS`` when
set, to look at them).
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest

from kiosk.core import testing
from kiosk.core.config import Config
from tests.support.offscreen import offscreen_window


class Now:
    """The UI's clock: 1000 s, until a test sets ``t``."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


@contextlib.contextmanager
def play_table(window):
    """A UI on the play screen, tabletop, over a fresh MiniKiosk, with its offscreen loop (``off``)."""
    from kiosk.ui.shell.runner import Offscreen
    from kiosk.ui.shell.window import UI

    kiosk = testing.MiniKiosk()
    made = UI(kiosk, window, clock=Now(), first="play", layout="tabletop")
    made.k, made.off = kiosk, Offscreen(made, kiosk)
    try:
        yield made
    finally:
        made.close()
        kiosk.sessions["labyrinth"].close()


@pytest.fixture(scope="module")
def window():
    w = offscreen_window((800, 480))
    yield w
    w.close()


@pytest.fixture
def make(window):
    """UIs on fresh stand-in kiosks: ``make(layout, language, first, opener)``; with `opener` the
    UI starts on the attract screen and opens the setup from that side of the table."""
    made = []

    def factory(layout="tabletop", language="en", first="setup", opener=None):
        from kiosk.ui.shell.window import UI

        kiosk = testing.MiniKiosk(config=Config())
        start = "attract" if opener is not None else first
        ui = UI(kiosk, window, layout=layout, language=language, first=start, clock=Now())
        ui.k = kiosk
        if opener is not None:
            ui.goto("setup", opener=opener)
        made.append(ui)
        return ui

    yield factory
    for ui in made:
        ui.close()
        ui.k.close()


def shot(ui, tmp_path: Path, name: str) -> Path:
    """The screen now as `name`.png in `tmp_path` (and in ``$KIOSK_SHOTS``)."""
    ui.draw()
    path = ui.screenshot(tmp_path / f"{name}.png")
    out = os.environ.get("KIOSK_SHOTS")
    if out:
        ui.screenshot(Path(out) / f"{name}.png")
    return path
