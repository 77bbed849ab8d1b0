"""Issue 46: a full disk and planted links lose no finished game (the third adversarial round)."""

from __future__ import annotations

import json
import logging
import os
from pathlib import Path

import pytest

from kiosk.core import config as cfg
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.store.history import HISTORY_NAME
from kiosk.store.persistence import SAVE_NAME


@pytest.fixture(autouse=True)
def _root_logger_untouched():
    """cli.main sets the root logger's level and handlers: give the next tests theirs back."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.setLevel(level)
    root.handlers[:] = handlers


class DiskKiosk(Kiosk):
    """The kiosk without arcade buttons (gpiozero's mock pins are slow to set up)."""

    def _open_buttons(self) -> None:
        self.buttons = None


def kiosk_on(state_dir: Path, **options) -> Kiosk:
    return DiskKiosk(cfg.Config(), KioskOptions(fast=True, ring="none", state_dir=state_dir, **options))


HISTORY_LINE = json.dumps(
    {"time": "2027-01-15T08:00:00.000+00:00", "game": "labyrinth", "seats": ["human"], "turns": 3, "duration_s": 60}
)


# ------------------------------------------------------------------ 1: the write-access probe
def test_1_a_planted_writable_link_empties_nothing(tmp_path):
    state = tmp_path / "state"
    state.mkdir()
    (state / HISTORY_NAME).write_text(HISTORY_LINE + "\n")
    (state / SAVE_NAME).write_text("{}")
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    for target in (state / HISTORY_NAME, state / SAVE_NAME, outside):
        link = state / ".writable"
        if os.path.lexists(link):
            link.unlink()
        link.symlink_to(target)
        before = target.read_bytes()
        with kiosk_on(state, resume=False):
            pass
        assert target.read_bytes() == before, target
        assert link.is_symlink()  # not ours: left where it is


# ------------------------------------------------------------------ 4: links in the state directory
OCEAN = Path(__file__).resolve().parents[3] / "kiosk" / "themes" / "ocean"


def test_4_install_theme_does_not_write_through_a_themes_link(tmp_path, capsys):
    from kiosk.tools import cli

    state, outside = tmp_path / "state", tmp_path / "outside"
    state.mkdir()
    outside.mkdir()
    (state / "themes").symlink_to(outside)
    status = cli.main(["--state-dir", str(state), "--install-theme", str(OCEAN), "--log-level", "error"])
    assert status != 0 and list(outside.iterdir()) == []
    assert "themes" in capsys.readouterr().err


def test_4_a_hard_linked_lock_file_is_not_written(tmp_path, caplog):
    state = tmp_path / "state"
    state.mkdir()
    outside = tmp_path / "outside.txt"
    outside.write_text("precious")
    os.link(outside, state / "kiosk.lock")
    with kiosk_on(state, resume=False):
        pass
    assert outside.read_text() == "precious"
    assert "links" in caplog.text


# ------------------------------------------------------------------ 6: outputs that are not files
def test_6_events_out_naming_a_fifo_nobody_reads_is_refused_at_once(tmp_path):
    import subprocess
    import sys

    fifo = tmp_path / "events"
    os.mkfifo(fifo)
    run = [sys.executable, "-m", "kiosk", "--display", "none", "--fast", "--games", "1", "--events-out", str(fifo)]
    try:
        done = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail("the kiosk waited for a reader of the FIFO")
    assert done.returncode == 2
    assert "FIFO that nobody reads" in done.stderr and "Traceback" not in done.stderr
