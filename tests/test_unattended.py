"""Months unattended, round two (issue 29): one kiosk per state directory, no decision on the wall
clock, no link followed out of the state directory, a history of any size.

The finished game kept until its history line is durable is proved at every crash point in
tests/test_crash_points.py; the bounded reader's fuzz cases are in tests/test_fuzz_inputs.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine import Game
from kiosk import persistence, safeio
from kiosk.app import Kiosk, KioskOptions
from kiosk.config import Config
from kiosk.history import GameRecord, History, format_summary
from kiosk.persistence import SAVE_NAME, GameStore, StateDirBusy, StateLock, parse_time, utc_now_iso

ROOT = Path(__file__).resolve().parent.parent
YEAR = 365 * 86400.0
NOW = 1_800_000_000.0  # 2027-01-15


class DiskKiosk(Kiosk):
    """The kiosk without arcade buttons (gpiozero's mock pins are slow to set up)."""

    def _open_buttons(self) -> None:
        self.buttons = None


def kiosk_on(state_dir: Path, **options) -> Kiosk:
    return DiskKiosk(Config(), KioskOptions(fast=True, ring="none", state_dir=state_dir, **options))


def store(state_dir: Path, now: float, **kw) -> GameStore:
    return GameStore(state_dir, loaders={"labyrinth": Game.from_dict}, clock=lambda: now, **kw)


def record(game_id: str, ended_at: float = NOW) -> GameRecord:
    return GameRecord.make(
        game="labyrinth",
        seats=["human", "hard"],
        winners=[0],
        turns=30,
        duration_s=600,
        ended_at=ended_at,
        game_id=game_id,
    )


# ------------------------------------------------------------------ one kiosk per state directory
def test_a_second_kiosk_on_the_same_state_dir_is_refused_and_names_the_holder(tmp_path):
    first = kiosk_on(tmp_path)
    try:
        with pytest.raises(StateDirBusy) as err:
            kiosk_on(tmp_path)
        assert err.value.pid == os.getpid()
        assert f"in use by process {os.getpid()}" in str(err.value)
    finally:
        first.close()
    kiosk_on(tmp_path).close()  # the lock went with the first kiosk


def test_a_second_kiosk_told_so_runs_without_saving_and_leaves_the_first_ones_game(tmp_path):
    first = kiosk_on(tmp_path)
    try:
        first.store.save("labyrinth", Game.new(players=2, seed=3).to_dict(), meta={"game_id": "aa"})
        before = (tmp_path / SAVE_NAME).read_bytes()
        second = kiosk_on(tmp_path, if_busy="unsaved", auto_play=True, games=1)
        try:
            assert second.store is None and second.history is None and second.record_shelf is None
            second.start()
        finally:
            second.close()
        assert (tmp_path / SAVE_NAME).read_bytes() == before
    finally:
        first.close()


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_the_command_line_beside_a_running_kiosk_exits_2_naming_its_pid(tmp_path):
    lock = StateLock(tmp_path)  # the running kiosk, as far as the second one can tell
    try:
        args = ("--display", "none", "--players", "easy,easy", "--games", "1", "--fast", "--state-dir", str(tmp_path))
        proc = run_cli(*args)
        assert proc.returncode == 2, proc.stderr
        lines = [line for line in proc.stderr.splitlines() if "error:" in line]
        assert len(lines) == 1 and f"process {os.getpid()}" in lines[0] and "--no-save-if-busy" in lines[0]
        assert not (tmp_path / "history.jsonl").exists()
        proc = run_cli(*args, "--no-save-if-busy")
        assert proc.returncode == 0, proc.stderr
        assert not (tmp_path / "history.jsonl").exists(), "the second kiosk saved its game"
    finally:
        lock.release()


def test_a_lock_file_left_by_a_killed_kiosk_does_not_block_the_next(tmp_path):
    (tmp_path / persistence.LOCK_NAME).write_text("4242\n")  # the holder is gone: no flock on it
    kiosk_on(tmp_path).close()
    assert (tmp_path / persistence.LOCK_NAME).read_text().strip() == str(os.getpid())


def test_a_lock_file_that_is_a_link_is_not_followed(tmp_path):
    outside = tmp_path / "outside"
    outside.write_text("precious")
    state = tmp_path / "state"
    state.mkdir()
    (state / persistence.LOCK_NAME).symlink_to(outside)
    with pytest.raises(safeio.UnsafeFile):
        StateLock(state)
    assert outside.read_text() == "precious"


# ------------------------------------------------------------------ the wall clock
def test_with_the_clock_a_year_behind_the_archive_keeps_the_game_just_archived(tmp_path):
    """No real-time clock, before NTP: the archive's newest file has a stamp from the future."""
    game = Game.new(players=2, seed=3).to_dict()
    for k in range(3):
        s = store(tmp_path, NOW + k, archive_keep=3)
        s.save("labyrinth", game, meta={"game_id": f"g{k}"})
        s.archive()
    behind = store(tmp_path, NOW - YEAR, archive_keep=3)
    behind.save("labyrinth", game, meta={"game_id": "late"})
    moved = behind.archive()
    assert moved is not None and moved.exists(), "the game just archived was pruned at once"
    kept = sorted(json.loads(p.read_bytes())["meta"]["game_id"] for p in (tmp_path / "archive").iterdir())
    assert kept == ["g1", "g2", "late"]  # the oldest by sequence went, not the one with the oldest stamp


def test_with_the_clock_a_year_behind_a_save_is_resumed(tmp_path):
    s = store(tmp_path, NOW)
    s.save("labyrinth", Game.new(players=2, seed=3).to_dict())
    resumed = store(tmp_path, NOW - YEAR).resume()
    assert resumed is not None and resumed.age_s == 0


@pytest.mark.parametrize("now", [0.0, 3 * YEAR, NOW + 150 * YEAR, -5e9, 1e13, float("nan")], ids=str)
def test_a_clock_outside_2000_2100_writes_saves_and_history_lines_the_kiosk_reads_back(tmp_path, now):
    s = store(tmp_path, now)
    assert s.save("labyrinth", Game.new(players=2, seed=3).to_dict())
    resumed = store(tmp_path, now).resume()
    assert resumed is not None, "the kiosk refused its own save"
    assert not (tmp_path / "corrupt").exists()
    h = History(tmp_path)
    assert h.append(record("c0ffee", ended_at=now))
    records, skipped = h.read()
    assert len(records) == 1 and skipped == 0, "the kiosk refused its own history line"
    assert format_summary(h.summary()).startswith("Games finished: 1")


def test_times_outside_1970_2200_are_still_damage():
    for text in ("0001-01-01T00:00:00+00:00", "9999-12-31T23:59:59+00:00", "1969-12-31T23:59:59+00:00"):
        with pytest.raises(ValueError):
            parse_time(text)
    assert parse_time(utc_now_iso(0.0)) == 0.0


def test_history_lines_say_when_the_clock_was_not_synchronised(tmp_path, monkeypatch):
    monkeypatch.setattr(persistence, "TIMESYNC_FLAG", tmp_path / "absent")
    monkeypatch.setattr(persistence, "_kernel_synchronised", lambda: False)
    unsure = record("a1")
    monkeypatch.setattr(persistence, "_kernel_synchronised", lambda: True)
    sure = record("b2")
    h = History(tmp_path)
    assert h.append(unsure) and h.append(sure)
    lines = [json.loads(line) for line in h.path.read_text().splitlines()]
    assert lines[0]["time_unsynced"] is True and "time_unsynced" not in lines[1]
    assert [r.time_unsynced for r in h.read()[0]] == [True, False]


# ------------------------------------------------------------------ links out of the state directory
@pytest.mark.parametrize("folder", ["archive", "corrupt"])
def test_a_linked_archive_or_corrupt_folder_is_not_followed_nor_pruned(tmp_path, folder):
    outside = tmp_path / "outside"
    outside.mkdir()
    precious = [outside / f"20200101T00000{k}.000000Z-x.json" for k in range(5)]
    for p in precious:
        p.write_text("{}")
    state = tmp_path / "state"
    state.mkdir()
    (state / folder).symlink_to(outside)
    s = store(state, NOW, archive_keep=1, corrupt_keep=1)
    s.save("labyrinth", Game.new(players=2, seed=3).to_dict())
    if folder == "archive":
        assert s.archive() is None
    else:
        s.set_aside("damaged", "test")
    assert all(p.exists() for p in precious), "pruning deleted files outside the state directory"
    assert sorted(os.listdir(outside)) == sorted(p.name for p in precious)


def test_a_linked_pending_folder_is_not_written_through(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    state = tmp_path / "state"
    state.mkdir()
    (state / "pending").symlink_to(outside)
    (state / "history.jsonl").mkdir()
    h = History(state)
    assert not h.record(record("a1"))
    assert os.listdir(outside) == [] and h.pending() == 1  # kept in memory, not written out


# ------------------------------------------------------------------ a history of any size
def test_a_history_past_64_mb_is_still_counted_in_bounded_memory(tmp_path):
    """A 70 MB line of damage (a sparse file: no disk used) before real lines: it is skipped as
    one unreadable line, the games after it are counted, and a finished game is found by its id."""
    path = tmp_path / "history.jsonl"
    with open(path, "wb") as f:
        f.truncate(70 * 1024 * 1024)
    h = History(tmp_path)
    for k in range(3):
        assert h.append(record(f"id{k}"))
    s = h.summary()
    assert s.games == 3 and s.skipped_lines == 1
    assert h.has("id2") and not h.has("id9")
