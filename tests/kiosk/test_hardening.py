"""Issue 16's findings, each kept as a regression test: no input file crashes or stops the kiosk.

Numbers in the test names are the issue's items: 1 a save that passes the
rules check but crashed the start, 2 FIFOs and device links as the save,
3 a read-only state directory, 4 unusable saves overwritten, 6 config and
command line, 7 scripts, 8 logs, 9 ``--stats``. Item 5 (a finished game
vanishing between its save and its history line) is proved at every crash
point in tests/kiosk/store/test_crash_points.py; the fuzz suite is tests/kiosk/test_fuzz_inputs.py.
"""

from __future__ import annotations

import errno
import io
import json
import logging
import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from engine.labyrinth import Game
from engine.cards import CardGame
from kiosk.tools import cli
from kiosk.store import safeio
from kiosk.core import config as cfg
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.config import ConfigError
from kiosk.games.labyrinth.events import PushArrow, TapCell
from kiosk.store.history import History, print_stats
from kiosk.core.logs import RepeatFilter
from kiosk.store.persistence import SAVE_NAME, GameStore
from kiosk.core.script import ScriptError, load as load_script, parse as parse_script

from tests.support.kiosk_pump import pump

ROOT = Path(__file__).resolve().parents[2]
NOW = 1_800_000_000.0  # 2027-01-15


@pytest.fixture(autouse=True)
def _root_logger_untouched():
    """cli.main and logs.setup set the root logger's level: give the next tests theirs back."""
    root = logging.getLogger()
    level, handlers = root.level, list(root.handlers)
    yield
    root.setLevel(level)
    root.handlers[:] = handlers


class DiskKiosk(Kiosk):
    """The kiosk without arcade buttons (none is pressed here; gpiozero's mock pins are slow to set up)."""

    def _open_buttons(self) -> None:
        self.buttons = None


def kiosk_on(state_dir: Path) -> Kiosk:
    return DiskKiosk(cfg.Config(), KioskOptions(fast=True, ring="none", state_dir=state_dir))


def wrapper(game: str = "labyrinth", state: dict | None = None, **changes) -> dict:
    if state is None:
        state = (Game.new(players=2, seed=4) if game == "labyrinth" else CardGame.new(players=3, seed=4)).to_dict()
    w = {
        "format": 1,
        "game": game,
        "saved_at": "2027-01-15T08:00:00.000+00:00",
        "started_at": "2027-01-15T07:50:00.000+00:00",
        "meta": {"game_id": "ab12", "kinds": ["human"] * (2 if game == "labyrinth" else 3)},
        "state": state,
    }
    w.update(changes)
    return w


def put_save(state_dir: Path, data: bytes | dict) -> bytes:
    state_dir.mkdir(parents=True, exist_ok=True)
    raw = data if isinstance(data, bytes) else json.dumps(data).encode()
    (state_dir / SAVE_NAME).write_bytes(raw)
    return raw


def store(state_dir: Path) -> GameStore:
    return GameStore(
        state_dir,
        loaders={"labyrinth": Game.from_dict, "cards": CardGame.from_dict},
        resume_within_s=1800,
        clock=lambda: NOW,
    )


def corrupt_files(state_dir: Path) -> list[Path]:
    folder = state_dir / "corrupt"
    return sorted(folder.iterdir()) if folder.is_dir() else []


# ------------------------------------------------------------------ 1: crash loop
def _with_state(game: str, **fields) -> dict:
    w = wrapper(game)
    w["state"].update(fields)
    return w


CRASH_LOOP_SAVES = {
    "string seed": _with_state("labyrinth", seed="eleven"),
    "float seed": _with_state("labyrinth", seed=1.5),
    "bool seed": _with_state("labyrinth", seed=True),
    "huge seed": _with_state("labyrinth", seed=10**30),
    "card game string seed": _with_state("cards", seed="x"),
    "int game_id": wrapper(meta={"game_id": 7, "kinds": ["human", "human"]}),
    "list game_id": wrapper(meta={"game_id": ["a"], "kinds": ["human", "human"]}),
    "card game int game_id": wrapper("cards", meta={"game_id": 7}),
    "future save with a string seed": dict(_with_state("labyrinth", seed="x"), saved_at="2090-01-01T00:00:00+00:00"),
    "year 9999": wrapper(saved_at="9999-12-31T23:59:59+00:00"),
    "year 1": wrapper(started_at="0001-01-01T00:00:00+00:00"),
    "format true": wrapper(format=True),
    "kinds not strings": wrapper(meta={"kinds": [1, 2]}),
    "hints not a bool": wrapper(meta={"setup": {"hints": "yes"}}),
    "started negative": wrapper(meta={"started": -5}),
    "started not a number": wrapper(meta={"started": "inf"}),
    "unknown wrapper field": dict(wrapper(), extra=1),
    "huge turns": _with_state("labyrinth", turns=10**12),
    "huge turn limit": _with_state("labyrinth", rules={"open_cards": False, "return_home": True, "turn_limit": 10**20}),
}


@pytest.mark.parametrize("case", sorted(CRASH_LOOP_SAVES))
def test_1_a_save_that_cannot_be_resumed_is_set_aside_and_the_kiosk_starts(tmp_path, case):
    raw = put_save(tmp_path, CRASH_LOOP_SAVES[case])
    kiosk = kiosk_on(tmp_path)
    try:
        kiosk.start()  # raised at every start before (systemd restarted it every 3 s)
        assert all(s.game is None for s in kiosk.sessions.values())
    finally:
        kiosk.close()
    moved = corrupt_files(tmp_path)
    assert len(moved) == 1 and moved[0].read_bytes() == raw
    assert not (tmp_path / SAVE_NAME).exists()


def test_1_a_resume_that_fails_after_every_check_sets_the_save_aside(tmp_path, monkeypatch, caplog):
    """The last line of defence: whatever a future bug in a session's resume, no crash loop."""
    raw = put_save(tmp_path, wrapper())
    kiosk = kiosk_on(tmp_path)
    try:

        def broken(*a, **k):
            raise TypeError("a bug in resume")

        monkeypatch.setattr(kiosk.sessions["labyrinth"], "resume", broken)
        with caplog.at_level(logging.WARNING):
            kiosk.start()
        assert kiosk.sessions["labyrinth"].game is None
    finally:
        kiosk.close()
    assert [p.read_bytes() for p in corrupt_files(tmp_path)] == [raw]
    assert "resuming failed: TypeError: a bug in resume" in caplog.text


def test_1_the_headless_kiosk_with_a_bad_seed_save_runs_on(tmp_path):
    raw = put_save(tmp_path, CRASH_LOOP_SAVES["string seed"])
    proc = run_cli(
        "--display",
        "none",
        "--players",
        "easy,easy",
        "--seed",
        "2",
        "--games",
        "1",
        "--fast",
        "--state-dir",
        str(tmp_path),
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert [p.read_bytes() for p in corrupt_files(tmp_path)] == [raw]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


# ------------------------------------------------------------------ 2: FIFO, devices
def test_2_a_fifo_as_the_save_is_set_aside_without_blocking(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    os.mkfifo(tmp_path / SAVE_NAME)
    proc = run_cli(
        "--display",
        "none",
        "--players",
        "easy,easy",
        "--seed",
        "2",
        "--games",
        "1",
        "--fast",
        "--state-dir",
        str(tmp_path),
        timeout=120,
    )
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "a FIFO, not a regular file" in proc.stderr
    moved = corrupt_files(tmp_path)
    assert len(moved) == 1 and moved[0].is_fifo()


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_2_a_link_to_a_device_as_the_save_is_set_aside_unread(tmp_path, device):
    tmp_path.mkdir(exist_ok=True)
    os.symlink(device, tmp_path / SAVE_NAME)
    s = store(tmp_path)
    assert s.resume() is None
    assert "symbolic link" in s.last_setaside.detail
    moved = corrupt_files(tmp_path)
    assert len(moved) == 1 and os.readlink(moved[0]) == device  # the link itself, byte for byte


def test_2_a_link_to_a_device_as_the_history_is_not_read(tmp_path, capsys):
    os.symlink("/dev/zero", tmp_path / "history.jsonl")
    assert History(tmp_path).read() == ([], 0)
    assert print_stats(tmp_path) == 0


def test_2_a_huge_save_is_set_aside_unread(tmp_path):
    raw = put_save(tmp_path, b'{"format": 1, "pad": "' + b"x" * (safeio.SAVE_LIMIT + 10) + b'"}')
    s = store(tmp_path)
    assert s.resume() is None and "more than the" in s.last_setaside.detail
    assert corrupt_files(tmp_path)[0].read_bytes() == raw


# ------------------------------------------------------------------ 3: read-only state directory
class ReadOnlyDisk(safeio.FileOps):
    """A state directory mounted read-only until `writable` is set (root ignores file modes,
    so the test injects the refusal where the kernel would give it)."""

    def __init__(self) -> None:
        self.writable = False

    def _check(self) -> None:
        if not self.writable:
            raise OSError(errno.EROFS, "Read-only file system")

    def mkstemp(self, directory, prefix, suffix):
        self._check()
        return super().mkstemp(directory, prefix, suffix)

    def open(self, path, flags, mode=0o600):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            self._check()
        return super().open(path, flags, mode)

    def replace(self, src, dst):
        self._check()
        super().replace(src, dst)

    def unlink(self, path):
        self._check()
        super().unlink(path)

    def mkdir(self, path):
        if not Path(path).is_dir():
            self._check()
        super().mkdir(path)


def test_3_a_read_only_state_dir_resumes_the_save_and_saves_once_writable(tmp_path, monkeypatch, caplog):
    game = Game.new(players=1, seed=8)
    game.apply(game.legal_shifts()[0])  # move phase
    raw = put_save(
        tmp_path, wrapper(state=game.to_dict(), meta={"game_id": "ro1", "kinds": ["human"]}, saved_at=_iso_now())
    )
    disk = ReadOnlyDisk()
    monkeypatch.setattr(safeio, "OPS", disk)
    kiosk = kiosk_on(tmp_path)
    try:
        with caplog.at_level(logging.WARNING):
            kiosk.start()
        session = kiosk.sessions["labyrinth"]
        assert session.game == game, "the save it could read was not resumed"
        assert "not writable" in caplog.text
        kiosk.bus.post(TapCell(game.player.position))  # stay: a committed action
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        assert session.game.phase == "shift"
        assert (tmp_path / SAVE_NAME).read_bytes() == raw, "it could not have saved"
        assert "could not save the game" in caplog.text
        disk.writable = True  # e.g. the mount came back read-write
        kiosk.bus.post(PushArrow(session.game.legal_shifts()[0].insertion))
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        saved = json.loads((tmp_path / SAVE_NAME).read_bytes())
        assert Game.from_dict(saved["state"]) == session.game and session.game.phase == "move"
        assert "works again" in caplog.text
    finally:
        kiosk.close()


def _iso_now() -> str:
    import time
    from kiosk.store.persistence import utc_now_iso

    return utc_now_iso(time.time())


# ------------------------------------------------------------------ 4: set aside, never overwritten
UNUSABLE = {
    "deep nesting": b'{"format": 1, "meta": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "5000-digit integer": b'{"format": 1, "game": "labyrinth", "n": ' + b"7" * 5000 + b"}",
    "NaN": b'{"format": NaN}',
    "1e999": b'{"format": 1e999}',
}


@pytest.mark.parametrize("case", sorted(UNUSABLE))
def test_4_unusable_saves_are_set_aside_byte_for_byte(tmp_path, case):
    raw = put_save(tmp_path, UNUSABLE[case])
    s = store(tmp_path)
    assert s.resume() is None and s.last_setaside.reason == "corrupt"
    assert [p.read_bytes() for p in corrupt_files(tmp_path)] == [raw]


def test_4_an_unusable_save_that_cannot_be_moved_is_never_overwritten(tmp_path, monkeypatch):
    raw = put_save(tmp_path, UNUSABLE["deep nesting"])
    disk = ReadOnlyDisk()
    monkeypatch.setattr(safeio, "OPS", disk)
    s = store(tmp_path)
    assert s.resume() is None and s.last_setaside.moved_to is None
    disk.writable = True
    # it is moved aside first, then the new game saved
    assert s.save("labyrinth", Game.new(players=2, seed=1).to_dict())
    assert [p.read_bytes() for p in corrupt_files(tmp_path)] == [raw]


def test_4_while_it_cannot_be_moved_nothing_is_saved(tmp_path, monkeypatch):
    raw = put_save(tmp_path, UNUSABLE["NaN"])

    class NoRename(safeio.FileOps):
        def replace(self, src, dst):
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(safeio, "OPS", NoRename())
    s = store(tmp_path)
    assert s.resume() is None
    assert not s.save("labyrinth", Game.new(players=2, seed=1).to_dict())
    assert (tmp_path / SAVE_NAME).read_bytes() == raw


# ------------------------------------------------------------------ 6: config and command line
def write_config(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "config.toml"
    p.write_text(text)
    return p


def check(path) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    return cfg.check_config(path, out=out, err=err), err.getvalue()


@pytest.mark.parametrize(
    "text, message",
    [
        ("[ring]\nseat_segments = [[0, 4], [4, 4], [8, 4], [12, 4], [16, 4], [20, 4]]\n", "4 pairs, not 6"),
        ("[ring]\nseat_segments = [[0, 24]]\n", "4 pairs, not 1"),
        ('[ring]\ndriver = "line"\nport = ""\n', 'port = "": the line driver needs a serial port'),
        ('[ring]\ndriver = "wled"\nport = "  "\n', "needs a serial port"),
        ("[kiosk]\nidle_timeout_s = " + "9" * 400 + "\n", "idle_timeout_s = <a number of 400 digits> must be at most"),
        ("[kiosk]\nresume_within_s = " + "9" * 400 + "\n", "must be at most"),
        ("[game]\nturn_limit = 10000000000\n", "must be at most"),
        ("[buttons]\npins = " + "[" * 200 + "]" * 200 + "\n", "nests tables or lists too deep"),
        ("[buttons]\npins = { N1 = " + "{a = " * 50 + "1" + "}" * 50 + " }\n", "nests tables or lists too deep"),
        ("[ring]\nseat_segments = [[[[[1]]]]]\n", "nests tables or lists too deep"),
        ("[ring]\nport = " + "[" * 5000 + "]" * 5000 + "\n", "too deep"),
        ('[kiosk]\noperator_pin = "' + "1" * 10_000 + '"\n', "must have 4 to 12 digits"),
    ],
)
def test_6_check_config_refuses_what_would_fail_or_be_disabled_at_run_time(tmp_path, text, message):
    path = write_config(tmp_path, text)
    status, err = check(path)
    assert status == 2 and message in err, err
    assert len(err) < 600, "the message echoes the whole value"
    with pytest.raises(ConfigError):
        cfg.load(path)


@pytest.mark.parametrize("what", ["/dev/zero", "fifo", "directory", "huge"])
def test_6_a_config_that_is_not_a_small_regular_file_is_refused_with_exit_2(tmp_path, what):
    if what == "fifo":
        path = tmp_path / "config.toml"
        os.mkfifo(path)
    elif what == "directory":
        path = tmp_path
    elif what == "huge":
        path = write_config(tmp_path, "# " + "x" * (safeio.CONFIG_LIMIT + 1))
    else:
        path = Path(what)
    proc = run_cli("--check-config", "--config", str(path), timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
    assert f"{path}:" in proc.stderr


def test_6_fullscreen_without_a_display_is_a_message_and_exit_2(tmp_path):
    proc = run_cli("--display", "fullscreen", "--state-dir", str(tmp_path), timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "needs a display server" in proc.stderr


@pytest.mark.parametrize("players", ["random,random,random,random,easy", "random,random,random,random,random,easy"])
def test_6_the_card_game_takes_5_and_6_players_on_the_command_line(tmp_path, players):
    events = tmp_path / "events.jsonl"
    status = cli.main(
        [
            "--display",
            "none",
            "--game",
            "cards",
            "--players",
            players,
            "--seed",
            "3",
            "--games",
            "1",
            "--fast",
            "--events-out",
            str(events),
            "--log-level",
            "warning",
        ]
    )
    assert status == 0
    started = next(
        json.loads(line) for line in events.read_text().splitlines() if json.loads(line)["type"] == "card_game_started"
    )
    assert len(started["players"]) == len(players.split(","))


def test_6_the_board_game_still_refuses_5_players():
    with pytest.raises(ConfigError, match="the labyrinth game is for 1 to 4 players"):
        cfg.apply_overrides(cfg.Config(), {"game.game": "labyrinth", "game.seats": "human,easy,easy,easy,easy"})


@pytest.mark.parametrize("args", [["--seed", "9" * 30], ["--turn-limit", "9" * 30], ["--first", "-1"]])
def test_6_out_of_range_numbers_on_the_command_line_exit_2(args):
    proc = run_cli("--display", "none", "--fast", "--games", "1", *args, timeout=60)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr


# ------------------------------------------------------------------ 7: scripts
def test_7_a_400_digit_wait_is_a_script_error():
    with pytest.raises(ScriptError, match="line 1: 'wait 9999999999.*whole number of milliseconds"):
        parse_script("wait " + "9" * 400)
    with pytest.raises(ScriptError, match="at most 3600000 ms"):
        parse_script("wait 3600001")


def test_7_a_form_feed_does_not_shift_line_numbers():
    with pytest.raises(ScriptError, match="script line 3: 'jump'"):
        parse_script("wait 1\f# a form feed in a comment\vand a vertical tab\r\n\x1c\n jump\n")


@pytest.mark.parametrize("size", [5_000_000, 10_000_000])
def test_7_a_line_of_megabytes_is_refused_and_echoed_short(tmp_path, size):
    path = tmp_path / "inputs.txt"
    path.write_text("wait 1\n" + "tap " + "1" * size + "\n")
    with pytest.raises(ScriptError) as info:
        load_script(path)
    message = str(info.value)
    assert len(message) < 400
    assert ("line 2" in message) if size < safeio.SCRIPT_LIMIT else ("more than the" in message)


@pytest.mark.parametrize("what", ["fifo", "/dev/zero"])
def test_7_a_script_that_is_not_a_regular_file_is_exit_2(tmp_path, what):
    path = Path(what) if what.startswith("/") else tmp_path / "fifo"
    if what == "fifo":
        os.mkfifo(path)
    proc = run_cli("--display", "none", "--fast", "--games", "1", "--script", str(path), timeout=60)
    assert proc.returncode == 2 and "not a script file" in proc.stderr and "Traceback" not in proc.stderr


def test_7_the_longest_wait_does_not_drop_the_next_press(tmp_path):
    script = tmp_path / "inputs.txt"
    script.write_text("wait 3600000\nbutton N3\n")
    events = tmp_path / "events.jsonl"
    status = cli.main(
        [
            "--display",
            "none",
            "--players",
            "human,easy",
            "--first",
            "0",
            "--seed",
            "2",
            "--fast",
            "--script",
            str(script),
            "--events-out",
            str(events),
            "--log-level",
            "warning",
        ]
    )
    assert status == 0
    types = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["button"] for e in types if e["type"] == "button_pressed"] == ["N3"]


# ------------------------------------------------------------------ 8: logs
class Ticks:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def collecting(logger: str, clock) -> tuple[list[logging.LogRecord], logging.Handler]:
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    handler.addFilter(RepeatFilter(window=60, clock=clock))
    logging.getLogger(logger).addHandler(handler)
    return records, handler


def test_8_twenty_thousand_ring_errors_are_logged_once_with_a_count():
    from hardware.ring.line import LineDriver

    clock = Ticks()
    records, handler = collecting("hardware.ring", clock)
    try:
        driver = LineDriver("loop://", 24)
        driver.on_data(b"ERR unknown command\n" * 20_000)
        assert len(records) == 1
        clock.now = 61
        driver.on_data(b"ERR unknown command\n")
        assert len(records) == 2
        assert "came 19999 more time(s)" in records[1].getMessage()
    finally:
        logging.getLogger("hardware.ring").removeHandler(handler)


def test_8_a_full_disk_is_logged_once_a_minute_not_once_per_action(tmp_path, monkeypatch):
    class Full(safeio.FileOps):
        def write(self, fd, data):
            raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(safeio, "OPS", Full())
    clock = Ticks()
    records, handler = collecting("kiosk.store.persistence", clock)
    try:
        s = store(tmp_path)
        for _ in range(500):
            assert not s.save("labyrinth", Game.new(players=2, seed=1).to_dict())
        errors = [r for r in records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and "No space left" in errors[0].getMessage()
        clock.now = 120
        s.save("labyrinth", Game.new(players=2, seed=1).to_dict())
        assert "came 499 more time(s)" in records[-1].getMessage()
    finally:
        logging.getLogger("kiosk.store.persistence").removeHandler(handler)


def test_8_the_kiosk_log_setup_limits_repeats():
    from kiosk.core import logs

    handler = logs.setup("INFO", stream=io.StringIO(), env={})
    assert any(isinstance(f, RepeatFilter) for f in handler.filters)


# ------------------------------------------------------------------ 9: --stats
GOOD_LINE = (
    '{"time":"2024-05-01T12:00:00.000+00:00","game":"labyrinth","players":2,"seats":["human","hard"],'
    '"variant":[],"winners":[1],"turns":40,"duration_s":600.0,"outcome":"won"}'
)
BAD_LINES = [
    GOOD_LINE.replace("600.0", "NaN"),
    GOOD_LINE.replace("600.0", "Infinity"),
    GOOD_LINE.replace("600.0", "-Infinity"),
    GOOD_LINE.replace("600.0", "1e999"),
    GOOD_LINE.replace('"turns":40', '"turns":' + "4" * 400),
    GOOD_LINE.replace('"turns":40', '"turns":' + "4" * 5000),
    GOOD_LINE.replace('"winners":[1]', '"winners":' + "[" * 50_000 + "]" * 50_000),
    GOOD_LINE.replace("2024-05-01T12:00:00.000+00:00", "9999-12-31T23:59:59+00:00"),
    GOOD_LINE.replace("2024-05-01T12:00:00.000+00:00", "0001-01-01T00:00:00+00:00"),
    GOOD_LINE.replace("2024-05-01T12:00:00.000+00:00", "2024-13-01T12:00:00+00:00"),
    GOOD_LINE.replace('"players":2', '"players":' + "9" * 30),
    GOOD_LINE.replace('"seats":["human","hard"]', '"seats":[1,2]'),
    GOOD_LINE.replace('"winners":[1]', '"winners":[true]'),
    GOOD_LINE.replace('"duration_s":600.0', '"duration_s":"600"'),
    "[" * 100_000,
    '"just a string"',
    "\xff\xfe",
]


def test_9_stats_skips_every_hostile_history_line(tmp_path):
    lines = [GOOD_LINE] + BAD_LINES + [GOOD_LINE]
    (tmp_path / "history.jsonl").write_bytes("\n".join(lines).encode("utf-8", "surrogateescape") + b"\n")
    out = io.StringIO()
    assert print_stats(tmp_path, out=out) == 0
    text = out.getvalue()
    assert "Games finished: 2 (2 labyrinth)" in text
    assert f"({len(BAD_LINES)} unreadable line(s) skipped)" in text


def test_9_stats_on_the_command_line(tmp_path):
    (tmp_path / "history.jsonl").write_text("\n".join(BAD_LINES[:8]) + "\n" + GOOD_LINE + "\n")
    proc = run_cli("--stats", "--state-dir", str(tmp_path), timeout=60)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert "Games finished: 1" in proc.stdout and "(8 unreadable line(s) skipped)" in proc.stdout


# ------------------------------------------------------------------ the shared reader (theme packs to come)
def test_the_shared_reader_refuses_what_is_not_a_small_regular_json_file(tmp_path):
    good = tmp_path / "pack.json"
    good.write_text('{"name": "night", "colours": [1, 2]}')
    assert safeio.read_json(good) == {"name": "night", "colours": [1, 2]}
    os.mkfifo(tmp_path / "fifo")
    os.symlink("/dev/zero", tmp_path / "zero")
    (tmp_path / "big.json").write_text("[" + "1," * safeio.SMALL_LIMIT + "1]")
    for name, why in (("fifo", "a FIFO"), ("zero", "symbolic link"), ("big.json", "more than")):
        with pytest.raises(safeio.UnsafeFile, match=why):
            safeio.read_json(tmp_path / name)
    with pytest.raises(safeio.UnsafeFile, match="a character device"):
        safeio.read_json(tmp_path / "zero", follow_symlinks=True)
    for text in ("[" * 100 + "]" * 100, '{"a": NaN}', "[1e999]", "[" + "9" * 41 + "]"):
        (tmp_path / "bad.json").write_text(text)
        with pytest.raises(ValueError):
            safeio.read_json(tmp_path / "bad.json")


# ------------------------------------------------------------------ issue 29: theme packs that broke the install
def _zip_member_patched(path: Path, member: str, how: str) -> Path:
    """The ocean pack zipped, with `member` damaged: its deflate data, its CRC, or its method."""
    import zipfile

    from tests.kiosk.test_themes import OCEAN

    method = {"lzma": zipfile.ZIP_LZMA, "crc": zipfile.ZIP_STORED}.get(how, zipfile.ZIP_DEFLATED)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(OCEAN.rglob("*")):
            if p.is_file():
                name = "ocean/" + p.relative_to(OCEAN).as_posix()
                z.write(p, name, compress_type=method if name == member else zipfile.ZIP_DEFLATED)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo(member)
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    if how in ("deflate", "lzma", "crc"):
        for k in range(start + 8, start + min(info.compress_size, 40)):  # the data after its first bytes
            data[k] ^= 0x5A
    else:  # the central directory names a method this Python has no decoder for (9: Deflate64)
        at = data.index(b"PK\x01\x02")
        while True:
            name_len = struct.unpack("<H", data[at + 28 : at + 30])[0]
            if data[at + 46 : at + 46 + name_len] == member.encode():
                data[at + 10 : at + 12] = struct.pack("<H", 9)
                break
            at = data.index(b"PK\x01\x02", at + 4)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize("how", ["deflate", "lzma", "crc", "deflate64"])
@pytest.mark.parametrize("member", ["ocean/theme.json", "ocean/board/bat.png"])
def test_29_a_zip_member_no_decoder_can_read_is_refused_in_one_line(tmp_path, capsys, how, member):
    zpath = _zip_member_patched(tmp_path / "bad.zip", member, how)
    status = cli.main(["--state-dir", str(tmp_path / "state"), "--install-theme", str(zpath), "--log-level", "error"])
    err = capsys.readouterr().err
    assert status == 2
    named = [line for line in err.splitlines() if member in line]
    assert len(named) == 1 and "Traceback" not in err, err
    assert not (tmp_path / "state" / "themes" / "ocean").exists()


def _chunk(kind: bytes, body: bytes) -> bytes:
    import zlib

    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def _png(width: int, depth: int, ctype: int, raw_row: bytes, extra: bytes = b"") -> bytes:
    """A square PNG of `width` whose every row is `raw_row` (filter 0), with `extra` chunks after IHDR."""
    import zlib

    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", struct.pack(">IIBBBBB", width, width, depth, ctype, 0, 0, 0))
        + extra
        + _chunk(b"IDAT", zlib.compress((b"\x00" + raw_row) * width))
        + _chunk(b"IEND", b"")
    )


HOSTILE_PNGS = {
    "palette index past the palette": _png(
        128, 8, 3, bytes([200]) * 128, _chunk(b"PLTE", b"\0\0\0") + _chunk(b"tRNS", b"\0")
    ),
    "16-bit grey with tRNS": _png(128, 16, 0, b"\x12\x34" * 128, _chunk(b"tRNS", b"\x12\x34")),
    "bit depth 3": _png(128, 3, 0, b"\x00" * 48, _chunk(b"tRNS", b"\0")),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_PNGS))
def test_29_a_picture_the_png_reader_fails_on_is_refused_in_one_line(tmp_path, capsys, case):
    import shutil

    from tests.kiosk.test_themes import OCEAN

    pack = tmp_path / "pack"
    shutil.copytree(OCEAN, pack)
    (pack / "board" / "bat.png").write_bytes(HOSTILE_PNGS[case])
    status = cli.main(["--state-dir", str(tmp_path / "state"), "--install-theme", str(pack), "--log-level", "error"])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if status == 0:  # a reader that decodes it is fine too, as long as the picture passed every check
        return
    assert status == 2 and len([line for line in err.splitlines() if "bat.png" in line]) == 1, err


def test_29_a_pack_folder_a_thousand_deep_is_refused_without_walking_it(tmp_path, capsys):
    import shutil

    from tests.kiosk.test_themes import OCEAN

    pack = tmp_path / "pack"
    shutil.copytree(OCEAN, pack)
    fd = os.open(pack, os.O_RDONLY)
    try:
        for _ in range(1000):  # made relative to each folder: the whole path is longer than PATH_MAX
            os.mkdir("d", dir_fd=fd)
            new = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = new
    finally:
        os.close(fd)
    try:
        status = cli.main(
            ["--state-dir", str(tmp_path / "state"), "--install-theme", str(pack), "--log-level", "error"]
        )
    finally:  # taken down from the bottom, folder by folder (pytest's own clean-up recurses)
        subprocess.run(["rm", "-rf", "d"], cwd=pack, check=True)
    err = capsys.readouterr().err
    assert status == 2 and "nested too deep" in err and "Traceback" not in err, err


def test_29_an_install_cut_short_leaves_nothing_at_the_next_start(tmp_path):
    """A power cut in the middle of --install-theme: a half-written .new- folder, or the old copy moved
    aside before the new one was renamed in; the next start tidies both, putting the old theme back."""
    from kiosk.themes import installed

    themes = tmp_path / "themes"
    (themes / ".new-ocean-abc123" / "board").mkdir(parents=True)
    (themes / ".new-ocean-abc123" / "board" / "bat.png").write_bytes(b"half")
    (themes / ".old-harbour-4242").mkdir()
    (themes / ".old-harbour-4242" / "theme.json").write_text("{}")
    (themes / ".old-reef-4242").mkdir()
    (themes / "reef").mkdir()
    kiosk_on(tmp_path).close()
    assert sorted(os.listdir(themes)) == [".install.lock", "harbour", "reef"]
    assert (themes / "harbour" / "theme.json").read_text() == "{}"
    assert "ocean" not in installed(tmp_path)
