"""The operator's command line, run as a new user would: config checks, stats, saves at start, systemd.

Every test starts the real ``labyrinth-kiosk`` program as a subprocess:

- ``--check-config`` with the example file and with broken files: one clear
  message naming the file and the key, exit status 2 (also at a normal start,
  which the systemd unit then does not restart);
- ``--stats`` on a state directory with a history written by real games;
- a corrupt save in the state directory at start is moved aside byte for
  byte with a warning, and the kiosk starts fresh; an old save is archived;
- sd_notify end to end: ``NOTIFY_SOCKET`` is a real AF_UNIX datagram socket
  owned by the test, ``WATCHDOG_USEC`` is set; READY=1 arrives, WATCHDOG=1
  pings keep arriving (busy with AI turns, and idle waiting for a person),
  STOPPING=1 on SIGTERM.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.labyrinth import Game, Rules
from kiosk.core.config import Config
from kiosk.store.persistence import SAVE_NAME

ROOT = Path(__file__).resolve().parents[3]
EXAMPLE = ROOT / "config.example.toml"


def program() -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    return [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]


def env(**extra) -> dict:
    e = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        e.pop(name, None)
    e.update(extra)
    return e


def kiosk(*args, timeout=60) -> subprocess.CompletedProcess:
    return subprocess.run(
        program() + [str(a) for a in args], cwd=ROOT, env=env(), capture_output=True, text=True, timeout=timeout
    )


@pytest.fixture
def config(tmp_path) -> Path:
    """A config file with the built-in defaults (so /etc on the test machine plays no part)."""
    path = tmp_path / "config.toml"
    path.write_text("# defaults\n")
    return path


def problems(stderr: str) -> list[str]:
    """The error lines of a run (the default-PIN warning is not one)."""
    return [line for line in stderr.splitlines() if "operator_pin is the default" not in line]


# ------------------------------------------------------------------ --check-config
def test_check_config_accepts_the_example_file():
    r = kiosk("--check-config", "--config", EXAMPLE)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"{EXAMPLE}: OK"
    assert "buttons on 14 GPIOs" in r.stdout and "state in /var/lib/labyrinth-kiosk" in r.stdout
    assert problems(r.stderr) == []


BROKEN = {
    "unknown key": ('[display]\nmdoe = "window"\n', "[display] unknown key 'mdoe' (did you mean 'mode'?)"),
    "unknown section": ('[dispaly]\nmode = "window"\n', "unknown section [dispaly]"),
    "pin used twice": (
        "[buttons]\npins = {N1 = 5, N3 = 5, N5 = 6, E1 = 7, E3 = 8, E5 = 9, S1 = 10, "
        "S3 = 11, S5 = 12, W1 = 13, W3 = 16, W5 = 17}\n",
        "[buttons] pins.N3 = 5 is already used by pins.N1",
    ),
    "wrong type": (
        '[kiosk]\nidle_timeout_s = "soon"\n',
        '[kiosk] idle_timeout_s = "soon" must be an integer, not a string',
    ),
    "bool for a number": ("[ring]\nbaud = true\n", "[ring] baud = true must be an integer, not a boolean"),
    "impossible value": ('[display]\nmode = "hologram"\n', "[display] mode"),
    "not TOML": ("[display\n", "not valid TOML"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_check_config_names_the_file_and_the_key_and_exits_2(tmp_path, case):
    text, expected = BROKEN[case]
    path = tmp_path / "config.toml"
    path.write_text(text)
    r = kiosk("--check-config", "--config", path)
    assert r.returncode == 2
    assert r.stdout == ""
    lines = problems(r.stderr)
    assert len(lines) == 1, r.stderr  # one clear message
    assert lines[0].startswith(f"configuration error: {path}: ")
    assert expected in lines[0]


@pytest.mark.parametrize("case", ["unknown key", "pin used twice", "wrong type"])
def test_a_bad_config_stops_a_normal_start_with_status_2_and_saves_nothing(tmp_path, case):
    text, expected = BROKEN[case]
    path = tmp_path / "config.toml"
    path.write_text(text)
    state = tmp_path / "state"
    r = kiosk("--config", path, "--display", "none", "--players", "easy,easy", "--fast", "--state-dir", state)
    assert r.returncode == 2  # RestartPreventExitStatus=2: systemd does not loop on it
    lines = problems(r.stderr)
    assert len(lines) == 1 and lines[0].startswith(f"configuration error: {path}: ") and expected in lines[0]
    assert not state.exists()


def test_check_config_of_a_missing_file(tmp_path):
    r = kiosk("--check-config", "--config", tmp_path / "nope.toml")
    assert r.returncode == 2
    assert problems(r.stderr) == [f"configuration error: {tmp_path / 'nope.toml'}: no such configuration file"]


# ------------------------------------------------------------------ --stats
def test_stats_summarise_the_games_the_kiosk_finished(tmp_path, config):
    state = tmp_path / "state"
    r = kiosk(
        "--config",
        config,
        "--display",
        "none",
        "--players",
        "easy,random",
        "--seed",
        4,
        "--fast",
        "--games",
        2,
        "--state-dir",
        state,
    )
    assert r.returncode == 0, r.stderr
    lines = (state / "history.jsonl").read_text().splitlines()
    assert len(lines) == 2
    winners = [json.loads(line)["winners"][0] for line in lines]
    r = kiosk("--config", config, "--stats", "--state-dir", state)
    assert r.returncode == 0, r.stderr
    out = r.stdout.splitlines()
    assert out[0] == f"History: {state / 'history.jsonl'}"
    assert out[1] == "Games finished: 2 (2 labyrinth)"
    easy_wins = winners.count(0)
    assert any(line.split() == ["AI", "easy", "won", str(easy_wins), "of", "2", "games", "played"] for line in out)
    assert any(
        line.split() == ["AI", "random", "won", str(2 - easy_wins), "of", "2", "games", "played"] for line in out
    )
    assert any(line.startswith("Mean turns: ") for line in out)


def test_stats_without_a_history_name_the_file_they_looked_for(tmp_path, config):
    r = kiosk("--config", config, "--stats", "--state-dir", tmp_path / "empty")
    assert r.returncode == 0
    assert r.stdout.strip() == f"No finished games yet: there is no history file {tmp_path / 'empty' / 'history.jsonl'}"
    assert not (tmp_path / "empty").exists()  # --stats only reads


# ------------------------------------------------------------------ saves at start
@pytest.fixture(scope="module")
def real_save(tmp_path_factory) -> dict:
    """The save a person's game leaves (human seat to play, no script: the run ends)."""
    tmp = tmp_path_factory.mktemp("first")
    config = tmp / "config.toml"
    config.write_text("")
    r = kiosk(
        "--config",
        config,
        "--display",
        "none",
        "--players",
        "human,easy",
        "--seed",
        3,
        "--fast",
        "--state-dir",
        tmp / "state",
    )
    assert r.returncode == 0, r.stderr
    return json.loads((tmp / "state" / SAVE_NAME).read_text())


def corrupt_saves(good: dict) -> dict[str, bytes]:
    data = json.dumps(good).encode()
    off_board = json.loads(json.dumps(good))
    off_board["state"]["players"][0]["position"] = [9, 9]
    two_rings = json.loads(json.dumps(good))
    two_rings["state"]["players"][1]["cards"][0] = two_rings["state"]["players"][0]["cards"][0]
    return {
        "truncated": data[: len(data) // 2],
        "empty": b"",
        "invalid-json": b"{'format': 1}",
        "wrong-version": json.dumps(dict(good, format=99)).encode(),
        "invalid-state": json.dumps(off_board).encode(),
        "invalid-state-cards": json.dumps(two_rings).encode(),
    }


@pytest.mark.parametrize(
    "kind", ["truncated", "empty", "invalid-json", "wrong-version", "invalid-state", "invalid-state-cards"]
)
def test_a_corrupt_save_at_start_is_moved_aside_and_the_kiosk_starts_fresh(tmp_path, config, real_save, kind):
    bad = corrupt_saves(real_save)[kind]
    state = tmp_path / "state"
    state.mkdir()
    (state / SAVE_NAME).write_bytes(bad)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        "--config",
        config,
        "--display",
        "none",
        "--players",
        "human,easy",
        "--seed",
        5,
        "--fast",
        "--state-dir",
        state,
        "--events-out",
        events,
    )
    assert r.returncode == 0, r.stderr  # no crash, no crash loop
    set_aside = list((state / "corrupt").iterdir())
    assert len(set_aside) == 1 and set_aside[0].read_bytes() == bad  # kept byte for byte
    warning = [line for line in r.stderr.splitlines() if "is unusable" in line]
    assert len(warning) == 1 and warning[0].startswith("WARNING kiosk.store.persistence:")
    assert str(state / SAVE_NAME) in warning[0] and str(set_aside[0]) in warning[0]
    started = [json.loads(line) for line in events.read_text().splitlines() if '"type":"game_started"' in line]
    assert started[0]["resumed"] is False and started[0]["seed"] == 5
    fresh = json.loads((state / SAVE_NAME).read_text())  # the fresh game is saved in its place
    deal = Rules(treasures=Config().game.variants["treasures"])  # the built-in defaults' deal (the public preset's)
    assert Game.from_dict(fresh["state"]) == Game.new(players=2, seed=5, rules=deal)


def test_an_old_save_is_archived_and_a_new_game_starts(tmp_path, config, real_save):
    old = json.loads(json.dumps(real_save))
    old["saved_at"] = "2020-01-01T00:00:00.000+00:00"
    state = tmp_path / "state"
    state.mkdir()
    data = json.dumps(old).encode()
    (state / SAVE_NAME).write_bytes(data)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        "--config",
        config,
        "--display",
        "none",
        "--players",
        "human,easy",
        "--seed",
        6,
        "--fast",
        "--state-dir",
        state,
        "--events-out",
        events,
    )
    assert r.returncode == 0, r.stderr
    archived = list((state / "archive").iterdir())
    assert len(archived) == 1 and archived[0].read_bytes() == data
    assert any(
        "not resuming the saved labyrinth game" in line and "resume_within_s = 1800" in line
        for line in r.stderr.splitlines()
    )
    first = next(json.loads(line) for line in events.read_text().splitlines() if '"type":"game_started"' in line)
    assert first["resumed"] is False and first["seed"] == 6
    assert not (state / "corrupt").exists()


def test_resume_within_s_from_the_config_decides(tmp_path, real_save):
    """A save 10 minutes old: resumed with the default 30 min, archived with resume_within_s = 300."""
    config = tmp_path / "config.toml"
    save = json.loads(json.dumps(real_save))
    save["saved_at"] = time.strftime("%Y-%m-%dT%H:%M:%S.000+00:00", time.gmtime(time.time() - 600))
    for within, resumed in ((1800, True), (300, False)):
        state = tmp_path / f"state-{within}"
        state.mkdir()
        (state / SAVE_NAME).write_text(json.dumps(save))
        config.write_text(f"[kiosk]\nresume_within_s = {within}\n")
        events = tmp_path / f"events-{within}.jsonl"
        r = kiosk(
            "--config",
            config,
            "--display",
            "none",
            "--players",
            "human,easy",
            "--fast",
            "--state-dir",
            state,
            "--events-out",
            events,
        )
        assert r.returncode == 0, r.stderr
        started = next(json.loads(line) for line in events.read_text().splitlines() if '"type":"game_started"' in line)
        assert started["resumed"] is resumed
        assert (state / "archive").exists() is not resumed


# ------------------------------------------------------------------ sd_notify end to end
class FakeSystemd:
    """The receiving end of NOTIFY_SOCKET: a bound AF_UNIX datagram socket, messages with their sender."""

    def __init__(self, path: Path):
        self.path = path
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(path))
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        self.messages: list[tuple[float, int, list[str]]] = []  # (arrival, sender pid, lines)

    def collect(self, seconds: float, until: str | None = None) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.sock.settimeout(max(0.01, end - time.monotonic()))
            try:
                msg, anc, _, _ = self.sock.recvmsg(4096, socket.CMSG_SPACE(12))
            except socket.timeout:
                return
            pid = next(
                (
                    int.from_bytes(data[:4], "little")
                    for level, kind, data in anc
                    if (level, kind) == (socket.SOL_SOCKET, socket.SCM_CREDENTIALS)
                ),
                -1,
            )
            lines = msg.decode().split("\n")
            self.messages.append((time.monotonic(), pid, lines))
            if until is not None and until in lines:
                return

    def times(self, line: str) -> list[float]:
        return [t for t, _, lines in self.messages if line in lines]

    def close(self) -> None:
        self.sock.close()


WATCHDOG_USEC = 1_000_000  # systemd would kill the kiosk after 1 s without a ping


@pytest.mark.parametrize(
    "players, fast, status",
    [
        ("hard,medium,easy", True, "playing"),  # busy: AI turns as fast as the CPU allows
        ("human,easy", False, "playing"),  # idle: real time, waiting for a person's first move
    ],
)
def test_ready_watchdog_pings_and_stopping_reach_a_real_notify_socket(tmp_path, config, players, fast, status):
    systemd = FakeSystemd(tmp_path / "notify")
    args = [
        "--config",
        str(config),
        "--display",
        "none",
        "--players",
        players,
        "--seed",
        "2",
        "--state-dir",
        str(tmp_path / "state"),
    ] + (["--fast"] if fast else [])
    proc = subprocess.Popen(
        program() + args,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env(NOTIFY_SOCKET=str(systemd.path), WATCHDOG_USEC=str(WATCHDOG_USEC)),
    )
    try:
        systemd.collect(30, until="READY=1")
        assert systemd.messages, "no message from the kiosk"
        ready_at, pid, lines = systemd.messages[0]
        assert lines == ["READY=1", f"STATUS={status}"]
        assert pid == proc.pid  # systemd checks the sender (NotifyAccess=)
        systemd.collect(3.0)  # the main loop keeps pinging
        assert proc.poll() is None, proc.stderr.read().decode()[-2000:]
        proc.send_signal(signal.SIGTERM)
        systemd.collect(30, until="STOPPING=1")
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        systemd.close()
    pings = [t for t in systemd.times("WATCHDOG=1") if t > ready_at]
    stop = systemd.times("STOPPING=1")
    assert len(stop) == 1, systemd.messages[-3:]
    assert [lines for _, _, lines in systemd.messages if "STOPPING=1" in lines][0][1] == "STATUS=SIGTERM"
    assert len(pings) >= 4, f"only {len(pings)} watchdog pings in 3 s"
    gaps = [b - a for a, b in zip([ready_at] + pings, pings + stop)]
    assert max(gaps) < WATCHDOG_USEC / 1e6, f"a gap of {max(gaps):.2f} s would have tripped the watchdog"
    assert {pid for _, pid, _ in systemd.messages} == {proc.pid}


def test_no_ready_from_a_kiosk_whose_window_never_opens(tmp_path, config):
    """READY=1 means the first frame is on the screen: a display server that does not answer
    (here: a $DISPLAY nobody serves) must end the kiosk without it, so systemctl restart (and the
    installer's check) sees a failed start instead of a running kiosk."""
    systemd = FakeSystemd(tmp_path / "notify")
    try:
        done = subprocess.run(
            program() + ["--config", str(config), "--display", "fullscreen", "--state-dir", str(tmp_path / "state")],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env=env(NOTIFY_SOCKET=str(systemd.path), DISPLAY=":97"),
        )
        assert done.returncode == 1, done.stderr[-2000:]
        assert "cannot open the fullscreen display" in done.stderr
        systemd.collect(0.1)  # datagrams are queued when sent: all of them are here by now
        assert not [lines for _, _, lines in systemd.messages if "READY=1" in lines]
    finally:
        systemd.close()


def test_ready_comes_after_the_first_frame(tmp_path, config):
    """Offscreen with screenshots: when READY=1 arrives, the first frame's picture exists."""
    pytest.importorskip("pyglet")
    shots = tmp_path / "shots"
    script = tmp_path / "script.txt"
    script.write_text("wait 100\n")
    systemd = FakeSystemd(tmp_path / "notify")
    proc = subprocess.Popen(
        program()
        + ["--config", str(config), "--display", "offscreen", "--size", "800x480", "--script", str(script)]
        + ["--screenshot-dir", str(shots), "--state-dir", str(tmp_path / "state")],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env(NOTIFY_SOCKET=str(systemd.path)),
    )
    try:
        systemd.collect(120, until="READY=1")
        first = sorted(p.name for p in shots.glob("*.png")) if shots.exists() else []
        assert proc.wait(timeout=120) == 0, proc.stderr.read().decode()[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        systemd.close()
    ready = [lines for _, _, lines in systemd.messages if "READY=1" in lines]
    if not ready and "offscreen" in (err := proc.stderr.read().decode()):
        pytest.skip(f"no offscreen OpenGL here: {err[-300:]}")
    assert ready == [["READY=1", "STATUS=attract"]]
    assert first and first[0].startswith("0001-start"), first
