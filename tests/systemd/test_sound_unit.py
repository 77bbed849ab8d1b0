"""The kiosk's sound server (systemd/labyrinth-kiosk-sound.service): started at boot for the
kiosk's user in a unit of its own, so that its READY=1/STOPPING=1 never count as the kiosk's,
and reachable where the kiosk's unit looks for it (PULSE_SERVER).

The live test runs the unit's own command line with the unit's environment (its directories
moved below a temporary folder) and a notify socket of ours, as systemd would: PulseAudio must
say READY=1 there, and ``pactl info`` with the kiosk unit's PULSE_SERVER must answer."""

from __future__ import annotations

import os
import shlex
import shutil
import socket
import subprocess
from pathlib import Path

import pytest

from tests.systemd.test_units import parse_unit

ROOT = Path(__file__).resolve().parents[2]
SOUND_UNIT = ROOT / "systemd" / "labyrinth-kiosk-sound.service"
KIOSK_UNIT = ROOT / "systemd" / "labyrinth-kiosk.service"


def environment(unit: dict[str, dict[str, list[str]]]) -> dict[str, str]:
    env = {}
    for line in unit["Service"].get("Environment", []):
        key, _, value = line.partition("=")
        env[key] = value
    return env


@pytest.fixture(scope="module")
def sound():
    return parse_unit(SOUND_UNIT)


@pytest.fixture(scope="module")
def kiosk():
    return parse_unit(KIOSK_UNIT)


def test_the_kiosk_finds_the_sound_server_where_the_sound_unit_puts_it(sound, kiosk):
    (runtime,) = sound["Service"]["RuntimeDirectory"]
    assert environment(sound)["XDG_RUNTIME_DIR"] == f"/run/{runtime}"
    # PulseAudio's socket is $XDG_RUNTIME_DIR/pulse/native; the kiosk names it, so libpulse neither
    # looks in the kiosk's own runtime directory nor autospawns a server inside the kiosk's unit
    assert environment(kiosk)["PULSE_SERVER"] == f"unix:/run/{runtime}/pulse/native"
    assert sound["Service"]["User"] == kiosk["Service"]["User"] == ["labyrinth"]  # same user: no cookie needed
    assert "labyrinth-kiosk-sound.service" in " ".join(kiosk["Unit"]["Wants"])
    assert "labyrinth-kiosk-sound.service" in " ".join(kiosk["Unit"]["After"])
    assert sound["Install"]["WantedBy"] == ["multi-user.target"]  # at boot, whoever logs in


def test_no_sound_server_runs_inside_the_kiosks_unit(kiosk, sound):
    """NotifyAccess=all lets every process of the kiosk's unit speak for it: PulseAudio must not be one."""
    assert kiosk["Service"]["NotifyAccess"] == ["all"]  # the kiosk is cage's child
    assert "pulseaudio" not in " ".join(kiosk["Service"]["ExecStart"])
    assert "ExecStartPre" not in kiosk["Service"]
    (start,) = sound["Service"]["ExecStart"]
    assert shlex.split(start)[0] == "/usr/bin/pulseaudio"
    assert sound["Service"]["Type"] == ["notify"]


@pytest.mark.skipif(shutil.which("pulseaudio") is None or shutil.which("pactl") is None, reason="no PulseAudio here")
def test_the_sound_units_command_reports_ready_and_answers_the_kiosk(sound, kiosk, tmp_path):
    (runtime,) = sound["Service"]["RuntimeDirectory"]
    (state,) = sound["Service"]["StateDirectory"]
    moved = {f"/run/{runtime}": tmp_path / "run", f"/var/lib/{state}": tmp_path / "state"}
    for d in moved.values():
        d.mkdir(mode=0o755)

    def here(value: str) -> str:
        for path, local in moved.items():
            value = value.replace(path, str(local))
        return value

    notify = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(60)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "NOTIFY_SOCKET": str(notify)}
    env.update({k: here(v) for k, v in environment(sound).items()})
    argv = shlex.split(sound["Service"]["ExecStart"][0])
    argv[0] = shutil.which("pulseaudio") or argv[0]
    # no sound card here: the server's default.pa falls back to a null sink
    server = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        messages = []
        while "READY=1" not in messages:
            try:
                messages += sock.recv(4096).decode().split("\n")
            except socket.timeout:
                server.kill()
                pytest.fail("no READY=1 from the sound server in 60 s:\n" + server.communicate()[1][-2000:])
        assert (tmp_path / "run" / "pulse" / "native").is_socket()
        client = {"PATH": env["PATH"], "HOME": str(tmp_path), "PULSE_SERVER": here(environment(kiosk)["PULSE_SERVER"])}
        info = subprocess.run(["pactl", "info"], env=client, capture_output=True, text=True, timeout=30)
        assert info.returncode == 0, info.stderr
        assert "Server Name: pulseaudio" in info.stdout
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        sock.close()
