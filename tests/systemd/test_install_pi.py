"""install.sh on the Raspberry Pi OS a buyer gets today: the sound server that is really there
(PulseAudio, or PipeWire's on the desktop image: never a unit pointing at a missing pulseaudio), and
lgpio for the buttons decided before anything is made (a Pi whose Python has none stops there).

The machine is faked by programs first on PATH (dpkg, apt-cache, uname, python3) and a device-tree
model file; the installer runs with --dry-run, or with --root and a small bundle of our own making.
"""

from __future__ import annotations

import hashlib
import os
import shlex
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.systemd.test_units import parse_unit

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
SOUND_DROPIN = ROOT / "systemd" / "labyrinth-kiosk-sound-pipewire.conf"
PIPEWIRE_CONF = ROOT / "systemd" / "pipewire-labyrinth-kiosk.conf"
KIOSK_UNIT = ROOT / "systemd" / "labyrinth-kiosk.service"
SOUND_UNIT = ROOT / "systemd" / "labyrinth-kiosk-sound.service"


def install_sh_value(name: str) -> str:
    for line in INSTALL.read_text().splitlines():
        if line.startswith(f'{name}="'):
            return line.split('"')[1]
    raise AssertionError(f"no {name} in install.sh")


APT_PACKAGES = install_sh_value("APT_PACKAGES").split()


def fake_machine(tmp_path: Path, installed: list[str], arch: str = "x86_64", pytag: str = "cp313",
                 lgpio: bool = False, model: str | None = None) -> dict[str, str]:  # fmt: skip
    """PATH and environment for a machine with these Debian packages, this CPU and this Python."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    scripts = {
        "dpkg": f'[ "$1" = -s ] && case " {" ".join(installed)} " in *" $2 "*) exit 0 ;; esac; exit 1',
        "apt-cache": "exit 100",  # no archive knows python3-lgpio (plain Debian)
        "uname": f'[ "$1" = -m ] && echo {arch} || exec /bin/uname "$@"',
        "python3": f"""case "$*" in *"import lgpio"*) exit {0 if lgpio else 1} ;;
                         *version_info*) echo {pytag} ;; *) exit 0 ;; esac""",
    }
    for name, text in scripts.items():
        (bin_dir / name).write_text(f"#!/bin/sh\n{text}\n")
        (bin_dir / name).chmod(0o755)
    model_file = tmp_path / "model"
    if model:
        model_file.write_bytes(model.encode() + b"\0")
    return {"PATH": f"{bin_dir}:{os.environ['PATH']}", "LABYRINTH_DEVICE_MODEL": str(model_file)}


def run_install(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=120, env={**os.environ, **env}
    )


def small_bundle(tmp_path: Path, wheels_pi: list[str]) -> Path:
    """A bundle as make-bundle.sh lays it out, with empty wheels: enough for the installer's checks."""
    top = tmp_path / "bundle" / "labyrinth-kiosk-9.9.9"
    (top / "systemd").mkdir(parents=True)
    (top / "wheels").mkdir()
    (top / "wheels-pi").mkdir()
    for f in (ROOT / "systemd").iterdir():
        (top / "systemd" / f.name).write_bytes(f.read_bytes())
    (top / "config.example.toml").write_bytes((ROOT / "config.example.toml").read_bytes())
    for tag in wheels_pi:
        (top / "wheels-pi" / f"lgpio-0.2.2.0-{tag}-{tag}-manylinux_2_34_aarch64.whl").write_bytes(b"")
    (top / "requirements.txt").write_text("")
    (top / "requirements-pi.txt").write_text("")
    (top / "BUNDLE").write_text("name=labyrinth-kiosk\nversion=9.9.9\n")
    files = sorted(p for p in top.rglob("*") if p.is_file())
    (top / "MANIFEST.sha256").write_text(
        "".join(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(top)}\n" for p in files)
    )
    archive = tmp_path / "labyrinth-kiosk-9.9.9.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(top, arcname=top.name)
    return archive


# ------------------------------------------------------------------ sound
PIPEWIRE = ["pipewire-pulse", "wireplumber", "dbus-daemon"]


@pytest.mark.parametrize(
    "sound, server",
    [(["pulseaudio"], "pulseaudio"), (PIPEWIRE, "pipewire"), (["pulseaudio", *PIPEWIRE], "pulseaudio")],
)
def test_the_sound_unit_runs_the_server_that_is_installed(tmp_path, sound, server):
    done = run_install("--dry-run", env=fake_machine(tmp_path, APT_PACKAGES + sound))
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "all present" in out  # nothing to install: the server there serves
    assert f"==> sound: labyrinth-kiosk-sound.service on {server}" in out
    dropin = "/etc/systemd/system/labyrinth-kiosk-sound.service.d/pipewire.conf"
    assert (f"systemd/labyrinth-kiosk-sound-pipewire.conf {dropin}" in out) == (server == "pipewire")
    assert ("/etc/labyrinth-kiosk/pipewire/pipewire.conf.d/labyrinth-kiosk.conf" in out) == (server == "pipewire")


@pytest.mark.parametrize(
    "sound, missing",
    [([], "pulseaudio"), (["pipewire-pulse"], "wireplumber dbus-daemon"), (PIPEWIRE[:2], "dbus-daemon")],
)
def test_an_offline_install_without_a_whole_sound_server_stops_and_names_it(tmp_path, sound, missing):
    bundle = small_bundle(tmp_path, ["cp311"])
    done = run_install("--bundle", str(bundle), env=fake_machine(tmp_path, APT_PACKAGES + sound))
    assert done.returncode == 1
    assert f"missing Debian packages: {missing}\n" in done.stderr
    assert "==> user" not in done.stdout


def test_the_pipewire_dropin_serves_where_the_kiosk_looks():
    dropin = parse_unit(SOUND_DROPIN)["Service"]
    # the PulseAudio command replaced; wireplumber gets the session bus a login session would give
    assert dropin["ExecStart"] == ["", "/usr/bin/dbus-run-session -- /usr/bin/pipewire"]
    assert dropin["Type"] == ["simple"]  # PipeWire does not notify: started once its socket is there
    (post,) = dropin["ExecStartPost"]
    socket_path = parse_unit(KIOSK_UNIT)["Service"]["Environment"]
    pulse_server = next(e.split("=", 1)[1] for e in socket_path if e.startswith("PULSE_SERVER="))
    assert f"[ -S {pulse_server.removeprefix('unix:')} ]" in shlex.split(post)[2]
    # PipeWire reads its drop-in below XDG_CONFIG_HOME, where install.sh puts it
    (config_home,) = [e.split("=", 1)[1] for e in dropin["Environment"] if e.startswith("XDG_CONFIG_HOME=")]
    assert "$ETC/pipewire/pipewire.conf.d/labyrinth-kiosk.conf" in INSTALL.read_text()
    assert config_home == "/etc/labyrinth-kiosk"
    conf = PIPEWIRE_CONF.read_text()
    assert '{ path = "/usr/bin/wireplumber"' in conf  # the ALSA outputs
    assert '{ path = "/usr/bin/pipewire" args = "-c pipewire-pulse.conf" }' in conf  # the PulseAudio socket
    # the rest of the unit (user, runtime folder) is the PulseAudio one's
    assert parse_unit(SOUND_UNIT)["Service"]["RuntimeDirectory"] == ["labyrinth-kiosk-sound"]


# ------------------------------------------------------------------ lgpio
@pytest.mark.parametrize(
    "pytag, lgpio, said",
    [
        ("cp311", False, "lgpio: the bundle's wheel for cp311"),
        ("cp313", True, "lgpio: the system's (python3-lgpio)"),
    ],
)
def test_lgpio_comes_from_the_system_or_the_bundles_wheel_for_this_python(tmp_path, pytag, lgpio, said):
    bundle = small_bundle(tmp_path, ["cp311", "cp312"])
    env = fake_machine(tmp_path, [], arch="aarch64", pytag=pytag, lgpio=lgpio, model="Raspberry Pi 5 Model B Rev 1.0")
    done = run_install("--dry-run", "--root", str(tmp_path / "root"), "--bundle", str(bundle), env=env)
    assert done.returncode == 0, done.stderr
    assert said in done.stdout


def test_a_pi_whose_python_has_no_lgpio_stops_before_anything_is_made(tmp_path):
    """Plain Debian trixie on a Pi: Python 3.13, no python3-lgpio, no wheel on PyPI."""
    bundle = small_bundle(tmp_path, ["cp311", "cp312"])
    env = fake_machine(tmp_path, [], arch="aarch64", pytag="cp313", model="Raspberry Pi 5 Model B Rev 1.0")
    done = run_install("--root", str(tmp_path / "root"), "--bundle", str(bundle), env=env)
    assert done.returncode == 1
    (line,) = [x for x in done.stderr.splitlines() if "lgpio" in x]
    assert "no lgpio for Python cp313" in line and "Raspberry Pi 5 Model B Rev 1.0" in line
    assert "nothing was changed" in line
    assert "==> user" not in done.stdout and not (tmp_path / "root").exists()


def test_off_a_pi_no_lgpio_is_one_line_and_the_install_goes_on(tmp_path):
    """Debian trixie arm64 under emulation (make arm64-check): the buttons are simulated there."""
    bundle = small_bundle(tmp_path, ["cp311", "cp312"])
    env = fake_machine(tmp_path, [], arch="aarch64", pytag="cp313")
    done = run_install("--dry-run", "--root", str(tmp_path / "root"), "--bundle", str(bundle), env=env)
    assert done.returncode == 0, done.stderr
    lines = [x for x in done.stdout.splitlines() if "no lgpio" in x]
    assert lines == [
        "no lgpio for Python cp313: no python3-lgpio (Raspberry Pi OS's archive has it) and no arm64 wheel "
        "of lgpio for it (there are for cp311 cp312): the buttons will be simulated (this is not a Raspberry Pi)"
    ]
