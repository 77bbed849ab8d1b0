"""The kiosk still works inside the unit's system call filter.

``SystemCallFilter=@system-service`` with ``SystemCallErrorNumber=EPERM`` is
the one hardening setting that can break a program in ways a unit file check
cannot see. Here the real program runs under the same allow-list (expanded by
``systemd-analyze syscall-filter`` from this machine's systemd, applied with
libseccomp by tests/support/seccomp_launch.py): an offscreen run that draws with
Mesa's OpenGL (the GPU path), presses arcade buttons through gpiozero's mock
pins and their threads, and drives a WLED ring over a real pseudo-terminal
(the serial path). A control run first shows the filter bites: a call outside
the list fails with EPERM.

What this cannot cover here: cage and Xwayland (not installed on a test
machine), the Pi's real GPU and GPIO chip (same system calls as above:
ioctl, mmap, poll), and the other sandbox settings, which need systemd as PID 1.
"""

from __future__ import annotations

import ctypes.util
import json
import os
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAUNCH = Path(__file__).resolve().parents[1] / "support" / "seccomp_launch.py"
UNIT = ROOT / "systemd" / "labyrinth-kiosk.service"

pytestmark = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None or ctypes.util.find_library("seccomp") is None,
    reason="needs systemd-analyze and libseccomp",
)


def expand(group: str) -> set[str]:
    """The system calls of a systemd filter group, nested groups expanded."""
    out = subprocess.run(["systemd-analyze", "syscall-filter"], capture_output=True, text=True, timeout=60).stdout
    groups: dict[str, list[str]] = {}
    current = None
    for line in out.splitlines():
        if line.startswith("@"):
            current = groups.setdefault(line.strip(), [])
        elif current is not None and line.strip() and not line.strip().startswith("#"):
            current.append(line.strip())

    def walk(name: str, seen: set[str]) -> set[str]:
        calls: set[str] = set()
        for item in groups[name]:
            if item.startswith("@"):
                if item not in seen:
                    seen.add(item)
                    calls |= walk(item, seen)
            else:
                calls.add(item)
        return calls

    return walk(group, {group})


@pytest.fixture(scope="module")
def allowed(tmp_path_factory) -> Path:
    group = re.search(r"^SystemCallFilter=(\S+)$", UNIT.read_text(), flags=re.M).group(1)
    calls = expand(group)
    assert {"ioctl", "mmap", "openat", "read", "write"} <= calls
    assert "perf_event_open" not in calls and "reboot" not in calls
    path = tmp_path_factory.mktemp("seccomp") / "allowed"
    path.write_text("\n".join(sorted(calls)) + "\n")
    return path


def test_the_filter_bites(allowed):
    probe = (
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        "import platform\n"
        "nr = {'x86_64': 298, 'aarch64': 241, 'armv7l': 364}[platform.machine()]\n"
        "rc = libc.syscall(nr, None, 0, -1, -1, 0)\n"  # perf_event_open(NULL, ...): EFAULT unfiltered
        "print(rc, ctypes.get_errno(), os.getpid() > 0)\n"
    )
    import platform

    if platform.machine() not in ("x86_64", "aarch64", "armv7l"):
        pytest.skip(f"no perf_event_open number for {platform.machine()}")
    free = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    caged = subprocess.run(
        [sys.executable, str(LAUNCH), str(allowed), "--", sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert caged.returncode == 0, caged.stderr
    assert free.stdout.split()[1] != "1"  # not EPERM without the filter
    assert caged.stdout.split() == ["-1", "1", "True"]  # EPERM inside it, ordinary calls work


def program() -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    return [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]


@pytest.mark.display
def test_gpu_buttons_and_serial_ring_work_inside_the_filter(allowed, tmp_path):
    master, slave = os.openpty()
    received = bytearray()

    def drain():
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=drain, daemon=True)
    reader.start()
    config = tmp_path / "config.toml"
    config.write_text(f'[ring]\ndriver = "wled"\nport = "{os.ttyname(slave)}"\n[buttons]\npin_factory = "mock"\n')
    script = tmp_path / "inputs.txt"
    script.write_text("button N3\nwait 300\nbutton S3\nwait 300\n")
    shots = tmp_path / "shots"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    try:
        done = subprocess.run(
            [
                sys.executable,
                str(LAUNCH),
                str(allowed),
                "--",
                *program(),
                "--config",
                str(config),
                "--display",
                "offscreen",
                "--size",
                "800x480",
                "--players",
                "human,random",
                "--seed",
                "3",
                "--fast",
                "--script",
                str(script),
                "--screenshot-dir",
                str(shots),
            ],
            capture_output=True,
            text=True,
            timeout=180,
            env=env,
            cwd=tmp_path,
        )
    finally:
        os.close(slave)
    if "cannot open an OpenGL" in done.stderr:
        pytest.skip("no offscreen OpenGL context on this machine")
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Operation not permitted" not in done.stderr, done.stderr[-3000:]
    assert "LED ring: wled on" in done.stderr
    pngs = sorted(shots.glob("*.png"))
    assert len(pngs) >= 2 and all(p.stat().st_size > 1000 for p in pngs)
    reader.join(timeout=5)
    os.close(master)
    # WLED's JSON API lines reached the ring: the game's colours, and "off" at the orderly stop
    lines = bytes(received).splitlines()
    assert len(lines) >= 2 and all(line.startswith(b"{") for line in lines), lines[:3]
    # (the ring may be sent "off" first, before the game's start reaches it: how soon depends on the machine)
    assert any(b'"seg"' in line for line in lines), lines[:3]
    assert lines[-1] == b'{"on":false,"transition":0}'


def test_buttons_on_gpiozero_pins_work_inside_the_filter(allowed, tmp_path):
    """Headless presses go through gpiozero's (mock) pins, its edge threads and the debounce."""
    config = tmp_path / "config.toml"
    config.write_text("\n")
    script = tmp_path / "inputs.txt"
    script.write_text("button N3\nwait 300\nbutton S3\nwait 300\n")
    events = tmp_path / "events.jsonl"
    done = subprocess.run(
        [
            sys.executable,
            str(LAUNCH),
            str(allowed),
            "--",
            *program(),
            "--config",
            str(config),
            "--display",
            "none",
            "--players",
            "human,random",
            "--seed",
            "3",
            "--fast",
            "--script",
            str(script),
            "--events-out",
            str(events),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Operation not permitted" not in done.stderr
    seen = [json.loads(line) for line in events.read_text().splitlines()]
    assert [e["button"] for e in seen if e["type"] == "button_pressed"] == ["N3", "S3"]
    assert {"type": "select_arrow", "arrow": "N3", "source": "button"} in seen
