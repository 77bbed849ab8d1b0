"""Months unattended, round two (issue 29): one kiosk per state directory, no decision on the wall
clock, no link followed out of the state directory, a history of any size.

The finished game kept until its history line is durable is proved at every crash point in
tests/kiosk/store/test_crash_points.py; the bounded reader's fuzz cases are in tests/kiosk/test_fuzz_inputs.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.labyrinth import Game
from kiosk.store import persistence
from kiosk.store import safeio
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.config import Config
from kiosk.store.history import GameRecord, History, format_summary
from kiosk.store.persistence import SAVE_NAME, GameStore, StateDirBusy, StateLock, parse_time, utc_now_iso

ROOT = Path(__file__).resolve().parents[3]
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


# ------------------------------------------------------------------ records through a power cut
def played(turns: int):
    from engine.labyrinth.ai import make_ai
    from engine.records import Recorder

    game = Game.new(players=2, seed=3)
    recorder = Recorder(game, ["human", "hard"], date="2026-11-30")
    ai = make_ai("easy", seed=1)
    states = [game.copy()]
    for _ in range(turns):
        for action in ai.choose(game):
            game.apply(action)
            recorder.apply(action)
            states.append(game.copy())
    return recorder, states


@pytest.mark.parametrize("behind", [1, 2], ids=["save a half turn behind", "save a whole turn behind"])
def test_a_record_one_turn_ahead_of_the_save_is_trimmed_back_not_restarted(tmp_path, behind):
    """The power went between writing the record (turn 3 done) and the save (turn 3 not yet, or
    only its shift): the resumed game's record keeps turns 1-2 and goes on from there."""
    from kiosk.store.records import CURRENT_NAME, RecordShelf

    recorder, states = played(3)
    (tmp_path / CURRENT_NAME).write_text(recorder.text())
    saved = states[-1 - behind]
    resumed = RecordShelf(tmp_path).resume(saved.copy(), ["human", "hard"])
    assert resumed.state == saved
    assert [t.number for t in resumed.turns] == [1, 2], "the record started over"
    assert resumed.tags.get("Date") == "2026-11-30"


def test_a_linked_records_folder_is_neither_read_nor_written_nor_pruned(tmp_path):
    from kiosk.store.records import RecordShelf

    outside = tmp_path / "outside"
    outside.mkdir()
    for k in range(3):
        (outside / f"2020-01-0{k + 1}_120000-labyrinth.txt").write_text("keep me")
    state = tmp_path / "state"
    state.mkdir()
    (state / "records").symlink_to(outside)
    shelf = RecordShelf(state, keep=1)
    recorder, _ = played(2)
    assert shelf.files() == [] and shelf.finish(recorder) is None
    shelf.prune()
    assert sorted(p.read_text() for p in outside.iterdir()) == ["keep me"] * 3


def test_with_the_clock_behind_the_record_just_filed_is_kept(tmp_path):
    from kiosk.store.records import RecordShelf

    shelf = RecordShelf(tmp_path, keep=2)
    recorder, _ = played(2)
    for k in range(2):
        assert shelf.finish(recorder, when=NOW + k) is not None
    late = shelf.finish(recorder, when=NOW - YEAR)
    assert late is not None and late.exists(), "the record just filed was pruned at once"
    assert len(shelf.files()) == 2


# ------------------------------------------------------------------ the command-line tools' output
def tool(args: list[str], stdout) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", args[0], *args[1:]], cwd=ROOT, env=env, stdout=stdout, stderr=subprocess.PIPE, text=True
    )


KIOSK = "import sys; from kiosk.tools.cli import main; sys.exit(main(sys.argv[1:]))"
REPLAY = "import sys; from kiosk.tools.replay import main; sys.exit(main(sys.argv[1:]))"


@pytest.fixture
def a_history(tmp_path) -> Path:
    h = History(tmp_path)
    for k in range(50):
        assert h.append(record(f"g{k}", ended_at=NOW + 86400 * k))
    return tmp_path


@pytest.mark.parametrize("which", ["stats", "replay"])
def test_a_full_disk_on_standard_output_ends_in_one_line_and_status_1(a_history, which):
    if which == "stats":
        args = [KIOSK, "--stats", "--state-dir", str(a_history)]
    else:
        recorder, _ = played(3)
        (a_history / "game.txt").write_text(recorder.text())
        args = [REPLAY, str(a_history / "game.txt"), "--all"]
    with open("/dev/full", "w") as full:
        proc = tool(args, full)
    assert proc.returncode == 1
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("INFO")]
    assert len(lines) == 1 and "No space left on device" in lines[0], proc.stderr


@pytest.mark.parametrize("which", ["stats", "replay"])
def test_a_closed_pipe_on_standard_output_ends_quietly(a_history, which):
    if which == "stats":
        args = [KIOSK, "--stats", "--state-dir", str(a_history)]
    else:
        recorder, _ = played(40)
        (a_history / "game.txt").write_text(recorder.text())
        args = [REPLAY, str(a_history / "game.txt"), "--all"]
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line (as `| head -0`)
    with os.fdopen(write, "w") as closed:
        proc = tool(args, closed)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr, proc.stderr


def test_the_events_file_on_a_full_disk_stops_the_run_in_one_line_with_status_2(tmp_path):
    proc = run_cli("--display", "none", "--players", "easy,easy", "--games", "1", "--fast", "--events-out", "/dev/full")
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if not line.startswith("INFO")]
    assert len(lines) == 1 and "events file" in lines[0], proc.stderr


# ------------------------------------------------------------------ a damaged typeface
ANDIKA = Path("/usr/share/fonts/truetype/andika")


@pytest.fixture
def offscreen_pyglet():
    """pyglet's font module needs a display or its headless (EGL) mode: the kiosk's offscreen setting."""
    pytest.importorskip("pyglet")
    from kiosk.ui.shell.window import prepare_pyglet

    prepare_pyglet("offscreen")


def _damaged(data: bytes, how: str) -> bytes:
    if how == "truncated":
        return data[: len(data) // 3]
    if how == "garbage":
        return bytes((i * 7919) % 251 for i in range(len(data) // 10))
    if how == "empty":
        return b""
    # the glyph outlines overwritten: the header and character map still look right
    import struct as _struct

    for i in range(_struct.unpack(">H", data[4:6])[0]):
        tag, _sum, off, length = _struct.unpack(">4sIII", data[12 + 16 * i : 28 + 16 * i])
        if tag == b"glyf":
            return data[:off] + b"\xff" * length + data[off + length :]
    raise AssertionError("no glyf table")


@pytest.mark.parametrize("how", ["truncated", "garbage", "empty", "outlines"])
def test_a_damaged_andika_falls_back_to_dejavu_in_one_log_line(tmp_path, caplog, how, offscreen_pyglet):
    from kiosk.ui.kit import typeface

    if not (ANDIKA / typeface.FILES[0]).exists():
        pytest.skip("install the Debian package fonts-sil-andika (make test does)")
    for name in typeface.FILES:
        data = (ANDIKA / name).read_bytes()
        (tmp_path / name).write_bytes(_damaged(data, how) if name == typeface.FILES[0] else data)
    saved = dict(typeface._state)
    try:
        typeface._state.clear()
        with caplog.at_level("WARNING", logger="kiosk.ui.kit.typeface"):
            family = typeface.load(tmp_path)
        if how == "outlines" and family == typeface.FAMILY:  # FreeType drew the samples: not damage it sees
            pytest.xfail("FreeType renders these outlines")
        assert family == typeface.FALLBACK
        lines = [r.getMessage() for r in caplog.records if r.name == "kiosk.ui.kit.typeface"]
        assert len(lines) == 1 and "unusable" in lines[0] and str(tmp_path) in lines[0], lines
    finally:
        typeface._state.clear()
        typeface._state.update(saved)


def test_a_font_that_is_a_fifo_is_not_waited_on(tmp_path, offscreen_pyglet):
    from kiosk.ui.kit import typeface

    os.mkfifo(tmp_path / typeface.FILES[0])
    saved = dict(typeface._state)
    try:
        typeface._state.clear()
        assert typeface.load(tmp_path) == typeface.FALLBACK
    finally:
        typeface._state.clear()
        typeface._state.update(saved)


def test_the_real_andika_passes_the_check(offscreen_pyglet):
    from kiosk.ui.kit import typeface

    if not (ANDIKA / typeface.FILES[0]).exists():
        pytest.skip("install the Debian package fonts-sil-andika (make test does)")
    for name in typeface.FILES:
        typeface.check_font((ANDIKA / name).read_bytes())


# ------------------------------------------------------------------ an unusable save that cannot be moved aside
def test_an_unusable_save_that_cannot_be_moved_is_not_removed_by_the_next_finished_game(tmp_path):
    """corrupt/ cannot be made (a file is in its place): the damaged save stays where it is, no game
    is saved over it, and the end of the next game does not delete it either."""
    (tmp_path / SAVE_NAME).write_bytes(b'{"format": 1, "game": "labyrinth", "saved_at": "garbage"')
    (tmp_path / "corrupt").write_text("not a folder")
    s = store(tmp_path, NOW)
    assert s.resume() is None and s.last_setaside.moved_to is None
    assert not s.save("labyrinth", Game.new(players=2, seed=3).to_dict())
    s.discard()  # what the kiosk does when the game it could not save ends
    assert (tmp_path / SAVE_NAME).read_bytes().startswith(b'{"format": 1, "game": "labyrinth", "saved_at": "garbage"')


def test_a_thousand_waiting_games_are_appended_with_one_fsync_each_exactly_once(tmp_path):
    """After a long outage the start must not spend a thousand fsyncs (seconds on an SD card, before
    systemd hears READY=1): the waiting games go in with one write and one fsync."""
    folder = tmp_path / "pending"
    folder.mkdir()
    for k in range(1000):
        (folder / f"{k + 1:08d}-g{k}.json").write_text(record(f"g{k}").to_json())

    class Counting(safeio.FileOps):
        fsyncs = 0

        def fsync(self, fd):
            Counting.fsyncs += 1
            super().fsync(fd)

    saved, safeio.OPS = safeio.OPS, Counting()
    try:
        assert History(tmp_path).flush_pending() == 0
    finally:
        safeio.OPS = saved
    assert Counting.fsyncs <= 3  # the history, its folder if new, the pending folder
    records, _ = History(tmp_path).read()
    assert sorted(r.game_id for r in records) == sorted(f"g{k}" for k in range(1000))
    assert list(folder.iterdir()) == [] and History(tmp_path).flush_pending() == 0
