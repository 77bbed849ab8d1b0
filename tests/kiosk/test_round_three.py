"""Issue 46: a full disk and planted links lose no finished game (the third adversarial round)."""

from __future__ import annotations

import errno
import json
import logging
import os
from pathlib import Path

import pytest

from kiosk.core import config as cfg
from kiosk.core.events import GameEnded, TurnBegan
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.store import safeio
from kiosk.store.history import HISTORY_NAME
from kiosk.store.persistence import SAVE_NAME

from tests.kiosk.test_hardening import DiskKiosk, _root_logger_untouched  # noqa: F401 (an autouse fixture)


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
OCEAN = Path(__file__).resolve().parents[2] / "kiosk" / "themes" / "ocean"


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


# ------------------------------------------------------------------ 3: a game's end, cut short
def test_3_killed_after_filing_its_record_a_game_is_filed_once(tmp_path):
    from tests.kiosk.store.test_crash_points import (
        CrashingOps,
        count_step,
        near_end,
        run_kiosk,
        tap_the_winning_cell,
        where_is_the_game,
        write_save,
    )

    state = tmp_path / "state"
    write_save(state, near_end()[0])
    steps = count_step(state, tap_the_winning_cell)
    filed = next(i for i, step in enumerate(steps) if step.startswith("rename to records/"))
    assert not run_kiosk(state, CrashingOps(crash_at=filed + 2), tap_the_winning_cell)  # killed just after

    def finish_if_resumed(kiosk):
        if kiosk.sessions["labyrinth"].game is not None:
            tap_the_winning_cell(kiosk)

    assert run_kiosk(state, CrashingOps(), finish_if_resumed)
    assert len(list((state / "records").iterdir())) == 1
    assert where_is_the_game(state) == {"save": 0, "history": 1, "archive": 0, "corrupt": 0}


# ------------------------------------------------------------------ 2: a full disk at a game's end and at exit
class FullDisk(safeio.FileOps):
    """Every write refused with ENOSPC (files can still be created empty and removed); the
    operations in order, for the order of a game's end."""

    def __init__(self, full: bool = True) -> None:
        self.full = full
        self.steps: list[str] = []

    def mkstemp(self, directory, prefix, suffix):
        self.steps.append(f"create in {Path(directory).name}")
        return super().mkstemp(directory, prefix, suffix)

    def open(self, path, flags, mode=0o600):
        self.steps.append(f"open {Path(path).name}")
        return super().open(path, flags, mode)

    def write(self, fd, data):
        if self.full:
            raise OSError(errno.ENOSPC, "No space left on device")
        super().write(fd, data)


def ai_games(state: Path, games: int) -> Kiosk:
    from kiosk.core.events import GameSetup, SeatSetup

    setup = GameSetup(seats=(SeatSetup("easy"), SeatSetup("easy")), seed=1)
    return kiosk_on(state, setup=setup, auto_play=True, games=games, persist_ai_games=True, record_ai_games=True)


@pytest.fixture
def errors_as_the_journal_sees_them():
    """The error lines that pass the kiosk's repeat filter (kiosk/core/logs.py)."""
    from kiosk.core.logs import RepeatFilter

    lines: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            lines.append(record.getMessage())

    handler = Keep(logging.ERROR)
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    root.addHandler(handler)
    yield lines
    root.removeHandler(handler)


def test_2_a_full_disk_at_exit_names_the_games_lost_and_fails(tmp_path, monkeypatch, errors_as_the_journal_sees_them):
    from kiosk.core.headless import run

    state = tmp_path / "state"
    kiosk = ai_games(state, 3)
    monkeypatch.setattr(safeio, "OPS", FullDisk())
    status = run(kiosk)
    assert status != 0
    lines = errors_as_the_journal_sees_them
    assert sum("in memory only" in line for line in lines) == 3, lines  # each loss, none held back
    assert any("3 finished game(s) are lost" in line for line in lines), lines
    assert not any("stays in" in line for line in lines)  # no save holds them: none could be written


def test_2_the_history_line_is_written_before_the_record(tmp_path, monkeypatch):
    from kiosk.core.headless import run

    disk = FullDisk(full=False)
    kiosk = ai_games(tmp_path / "state", 1)
    monkeypatch.setattr(safeio, "OPS", disk)
    assert run(kiosk) == 0
    assert disk.steps.index("open history.jsonl") < disk.steps.index("create in records"), disk.steps


def test_2_a_finished_game_the_disk_refused_is_written_when_it_can_be(tmp_path, monkeypatch):
    """The disk comes back before the kiosk stops: nothing is lost, the exit is clean."""
    from kiosk.core.headless import run
    from kiosk.store.history import History

    state = tmp_path / "state"
    kiosk = ai_games(state, 2)
    disk = FullDisk()
    monkeypatch.setattr(safeio, "OPS", disk)
    kiosk.bus.subscribe(GameEnded, lambda ev: setattr(disk, "full", False))
    assert run(kiosk) == 0
    assert len(History(state).read()[0]) == 2


class FullUntilFreed(safeio.FileOps):
    """A full disk: no write succeeds, but the history line fits once the game's own save and
    record (written before the disk filled) are removed."""

    def __init__(self, state: Path) -> None:
        self.state = state

    def write(self, fd, data):
        target = Path(os.readlink(f"/proc/self/fd/{fd}"))
        occupied = (self.state / SAVE_NAME).exists() or (self.state / "current-game.record.txt").exists()
        if target.name != HISTORY_NAME or occupied:
            raise OSError(errno.ENOSPC, "No space left on device")
        super().write(fd, data)


def test_2_what_is_worth_less_than_the_history_line_makes_room_for_it(tmp_path, monkeypatch):
    from kiosk.core.headless import run
    from kiosk.store.history import History

    state = tmp_path / "state"
    kiosk = ai_games(state, 1)
    kiosk.bus.subscribe(TurnBegan, lambda ev: monkeypatch.setattr(safeio, "OPS", FullUntilFreed(state)))
    assert run(kiosk) == 0
    assert len(History(state).read()[0]) == 1


# ------------------------------------------------------------------ the adversarial pass
def test_a_record_filed_again_replaces_its_file_and_never_an_older_games(tmp_path):
    from engine.labyrinth import Game
    from kiosk.store.records import RecordShelf

    shelf = RecordShelf(tmp_path)
    (tmp_path / "records").mkdir()
    older = tmp_path / "records" / "2026-01-01_100000-labyrinth-2.txt"  # the count of a name from before ids
    older.write_text("an older game")
    recorder = shelf.start(Game.new(players=2, seed=1), ["human", "human"])
    first = shelf.finish(recorder, when=1_800_000_000, game_id="c0ffee")
    again = shelf.finish(recorder, when=1_800_000_100, game_id="c0ffee")  # a minute later: the same file
    assert first == again and first.name.endswith("-labyrinth-c0ffee.txt")
    shelf.finish(recorder, when=1_800_000_000, game_id="2")  # an id like a count is not a name
    assert older.read_text() == "an older game" and len(shelf.files()) == 3


def test_abandoning_a_game_never_archives_the_save_kept_for_a_finished_one(tmp_path):
    from engine.labyrinth import Game
    from kiosk.store.persistence import GameStore

    store = GameStore(tmp_path, loaders={"labyrinth": Game.from_dict})
    assert store.save("labyrinth", Game.new(players=2, seed=1).to_dict(), meta={"game_id": "finished"})
    store.held = "the finished game finished not yet written to the history"
    assert store.archive("abandoned") is None
    assert (tmp_path / SAVE_NAME).exists()


def test_an_exit_status_file_that_is_a_fifo_nobody_reads_does_not_hang(tmp_path):
    import subprocess
    import sys

    fifo = tmp_path / "status"
    os.mkfifo(fifo)
    run = [sys.executable, "-m", "kiosk", "--check-config", "--config", "/nonexistent", "--exit-status-file", str(fifo)]
    try:
        done = subprocess.run(run, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    except subprocess.TimeoutExpired:
        pytest.fail("the kiosk waited for a reader of the FIFO")
    assert "a FIFO that nobody reads" in done.stderr and "Traceback" not in done.stderr
