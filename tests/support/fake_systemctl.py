"""A stand-in for systemctl that runs the staged kiosk for real (tests of install.sh --root).

``restart labyrinth-kiosk.service`` stops the kiosk it started before and
starts ``<root>/opt/labyrinth-kiosk/venv/bin/labyrinth-kiosk`` headless on the
staged config and state directory, with ``NOTIFY_SOCKET`` on a datagram socket
of its own; like systemctl for a ``Type=notify`` unit it returns 0 when the
kiosk sends READY=1 and 1 when the kiosk exits first. ``is-active`` says
whether that process still runs, ``stop`` ends it. Every call is logged.

Usage: fake_systemctl.py ROOT ARGS...   (install.sh --systemctl "python fake_systemctl.py ROOT")
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

UNIT = "labyrinth-kiosk.service"


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    try:  # a zombie of ours is not alive
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def stop(run: Path) -> None:
    pidfile = run / "kiosk.pid"
    if not pidfile.exists():
        return
    pid = int(pidfile.read_text())
    pidfile.unlink()
    if not pid_alive(pid):
        return
    os.kill(pid, signal.SIGTERM)
    for _ in range(150):
        if not pid_alive(pid):
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def start(root: Path, run: Path) -> int:
    kiosk = root / "opt/labyrinth-kiosk/venv/bin/labyrinth-kiosk"
    sock_path = run / "notify.sock"
    if sock_path.exists():
        sock_path.unlink()
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    sock.settimeout(0.2)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH")}
    env["NOTIFY_SOCKET"] = str(sock_path)
    state = root / "var/lib/labyrinth-kiosk"
    state.mkdir(parents=True, exist_ok=True)
    with open(run / "kiosk.log", "ab") as log:
        proc = subprocess.Popen(
            [
                str(kiosk),
                "--config",
                str(root / "etc/labyrinth-kiosk/config.toml"),
                "--display",
                "none",
                "--state-dir",
                str(state),
            ],
            stdout=log,
            stderr=log,
            cwd=run,
            env=env,
            start_new_session=True,
        )
    (run / "kiosk.pid").write_text(str(proc.pid))
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            msg = sock.recv(4096).decode()
        except socket.timeout:
            msg = ""
        if "READY=1" in msg.split("\n"):
            return 0
        if proc.poll() is not None:
            return 1
    return 1


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    args = argv[1:]
    run = root / "run/fake-systemd"
    run.mkdir(parents=True, exist_ok=True)
    with open(run / "calls", "a") as f:
        f.write(" ".join(args) + "\n")
    words = [a for a in args if not a.startswith("-")]
    verb, units = (words[0], words[1:]) if words else ("", [])
    if UNIT not in units:
        return 0
    if verb == "restart":
        stop(run)
        return start(root, run)
    if verb == "stop":
        stop(run)
        return 0
    if verb == "is-active":
        pidfile = run / "kiosk.pid"
        alive = pidfile.exists() and pid_alive(int(pidfile.read_text()))
        if "--quiet" not in args:
            print("active" if alive else "inactive")
        return 0 if alive else 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
