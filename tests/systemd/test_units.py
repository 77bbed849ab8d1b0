"""The systemd unit and the installer: the keys issue 6 requires, systemd's own verdict,
the start command's exit status, and the installer's dry run and idempotence."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "labyrinth-kiosk.service"
INSTALL = ROOT / "systemd" / "install.sh"
KIOSK = "/opt/labyrinth-kiosk/venv/bin/labyrinth-kiosk"
CONFIG = "/etc/labyrinth-kiosk/config.toml"


def parse_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """systemd's syntax: [Section], Key=value (repeatable), '#' comments, '\\' continuations."""
    sections: dict[str, dict[str, list[str]]] = {}
    current = None
    pending = ""
    for raw in path.read_text().splitlines():
        if not pending and (not raw.strip() or raw.lstrip().startswith(("#", ";"))):
            continue
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        m = re.fullmatch(r"\[(\w+)\]", line.strip())
        if m:
            current = sections.setdefault(m.group(1), {})
            continue
        key, sep, value = line.partition("=")
        assert sep and current is not None, f"not a unit line: {line!r}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


@pytest.fixture(scope="module")
def unit():
    return parse_unit(UNIT)


def one(unit, section, key):
    values = unit[section].get(key)
    assert values, f"[{section}] {key}= missing"
    assert len(values) == 1, f"[{section}] {key}= given {len(values)} times"
    return values[0]


def test_notify_watchdog_and_restart_policy(unit):
    assert one(unit, "Service", "Type") == "notify"
    assert one(unit, "Service", "NotifyAccess") == "all"  # the app is cage's child
    assert int(one(unit, "Service", "WatchdogSec")) > 0
    assert one(unit, "Service", "Restart") == "always"
    assert one(unit, "Service", "RestartPreventExitStatus") == "2"
    assert one(unit, "Unit", "StartLimitIntervalSec") == "0"


def test_dedicated_user_and_device_groups(unit):
    assert one(unit, "Service", "User") == "labyrinth"
    groups = set(one(unit, "Service", "SupplementaryGroups").split())
    # not input: cage gets the touchscreen through seatd; input would let the kiosk read every keyboard
    assert groups == {"gpio", "dialout", "video", "render", "audio"}
    install = INSTALL.read_text()
    assert f'GROUPS_NEEDED="{one(unit, "Service", "SupplementaryGroups")}"' in install
    assert 'GROUPS_REMOVED="input"' in install


def test_state_and_writable_working_directory(unit):
    assert one(unit, "Service", "StateDirectory") == "labyrinth-kiosk"
    runtime = one(unit, "Service", "RuntimeDirectory")
    assert one(unit, "Service", "WorkingDirectory") == f"/run/{runtime}"  # writable under ProtectSystem=strict


def test_hardening_that_leaves_the_devices_alone(unit):
    s = unit["Service"]
    assert one(unit, "Service", "NoNewPrivileges") == "yes"
    assert one(unit, "Service", "ProtectSystem") == "strict"
    assert one(unit, "Service", "ProtectHome") == "yes"
    assert one(unit, "Service", "PrivateTmp") == "yes"
    for breaks_devices in ("PrivateDevices", "MemoryDenyWriteExecute", "DevicePolicy", "DeviceAllow"):
        assert breaks_devices not in s, f"{breaks_devices}= would break GPIO, GPU or ctypes"
    # ProtectHome=yes hides /run/user: the Wayland socket must live elsewhere
    env = dict(e.split("=", 1) for e in s["Environment"])
    assert env["XDG_RUNTIME_DIR"] == f"/run/{one(unit, 'Service', 'RuntimeDirectory')}"


def test_the_second_block_of_hardening(unit):
    """Issue 16's list, each set the way that keeps GPIO, serial, GPU and sound working."""
    expected = {
        "CapabilityBoundingSet": "",
        "AmbientCapabilities": "",
        "ProtectKernelTunables": "yes",
        "ProtectKernelLogs": "yes",
        "ProtectHostname": "yes",
        "ProtectProc": "invisible",
        "RestrictNamespaces": "yes",
        "RestrictRealtime": "yes",
        "SystemCallArchitectures": "native",
        "SystemCallFilter": "@system-service",
        "SystemCallErrorNumber": "EPERM",
        "UMask": "0077",
        "PrivateMounts": "yes",
        "RemoveIPC": "yes",
    }
    assert {k: one(unit, "Service", k) for k in expected} == expected
    # these would hide /proc/cpuinfo (Pi model for gpiozero) or imply a device allow-list
    for breaks in ("ProcSubset", "ProtectClock", "PrivateNetwork", "PrivateUsers"):
        assert breaks not in unit["Service"], breaks


def exposure(unit_text: str, tmp_path: Path) -> float:
    copy = tmp_path / UNIT.name
    copy.write_text(unit_text)
    done = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", str(copy)], capture_output=True, text=True, timeout=60
    )
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", done.stdout)
    if m is None:
        pytest.skip(f"systemd-analyze security --offline cannot run here: {done.stderr.strip()[:200]}")
    return float(m.group(1))


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_analyze_security_rates_the_unit_4_5_or_better(tmp_path):
    assert exposure(UNIT.read_text(), tmp_path) <= 4.5
    # the measure can fail: without the second block the unit is back at the old rating
    first_block_only = re.sub(r"# The second block:.*?\nUMask=0077\n", "", UNIT.read_text(), flags=re.S)
    assert "\nCapabilityBoundingSet=" not in first_block_only
    assert exposure(first_block_only, tmp_path) > 7


def test_no_network(unit):
    assert one(unit, "Service", "IPAddressDeny") == "any"
    assert one(unit, "Service", "IPAddressAllow") == "localhost"
    assert "ListenStream" not in unit["Service"]


def test_logs_go_to_the_journal(unit):
    assert one(unit, "Service", "StandardOutput") == "journal"
    assert one(unit, "Service", "StandardError") == "journal"
    assert "LogsDirectory" not in unit["Service"]


def test_starts_the_kiosk_full_screen_under_cage_on_the_console(unit):
    start = one(unit, "Service", "ExecStart")
    assert f"{KIOSK} --config {CONFIG}" in start
    assert re.search(
        rf"/usr/bin/cage -d -- {re.escape(KIOSK)} --config {re.escape(CONFIG)}\s+--exit-status-file ", start
    )
    assert " -s" not in start.split("cage", 1)[1].split("--", 1)[0]  # no VT switching for visitors
    assert one(unit, "Unit", "Conflicts") == "getty@tty1.service"
    assert "seatd.service" in " ".join(unit["Unit"]["Wants"])
    assert one(unit, "Install", "WantedBy") == "multi-user.target"


def _shell_of(unit) -> str:
    """The sh -c script of ExecStart, as systemd hands it over ($$ becomes $)."""
    argv = shlex.split(one(unit, "Service", "ExecStart"))
    assert argv[:2] == ["/bin/sh", "-c"]
    return argv[2].replace("$$", "$")


STATUS_FILE = "/run/labyrinth-kiosk/exit-status"


@pytest.fixture
def fake_install(tmp_path):
    """Stand-ins for the kiosk and cage that record how they were called. The kiosk exits with
    $KIOSK_RC and writes it to its --exit-status-file as the real one does (tested in
    test_the_kiosk_writes_its_exit_status); with KIOSK_RC=killed it dies without writing it. cage
    behaves like cage 0.1.4: it runs its client and exits 0 whatever the client did."""
    log = tmp_path / "calls"
    kiosk = tmp_path / "labyrinth-kiosk"
    kiosk.write_text(
        f'#!/bin/sh\necho "kiosk $*" >> {log}\ncase "$*" in *--check-config*) exit "${{CHECK_RC:-0}}";; esac\n'
        'rc="${KIOSK_RC:-0}"\n[ "$rc" = killed ] && kill -9 $$\n'
        'while [ $# -gt 0 ]; do [ "$1" = --exit-status-file ] && echo "$rc" > "$2"; shift; done\n'
        'exit "$rc"\n'
    )
    cage = tmp_path / "cage"
    cage.write_text(f'#!/bin/sh\necho "cage $*" >> {log}\nshift 2\n"$@"\nexit 0\n')
    for f in (kiosk, cage):
        f.chmod(0o755)
    return kiosk, cage, log


def _runnable(unit, kiosk, cage, tmp_path) -> str:
    return (
        _shell_of(unit)
        .replace(KIOSK, str(kiosk))
        .replace("/usr/bin/cage", str(cage))
        .replace(STATUS_FILE, str(tmp_path / "exit-status"))
    )


@pytest.mark.parametrize("check_rc", [0, 2])
def test_a_bad_config_exits_2_before_cage_starts(unit, fake_install, check_rc):
    kiosk, cage, log = fake_install
    script = _runnable(unit, kiosk, cage, kiosk.parent)
    done = subprocess.run(["/bin/sh", "-c", script], env={**os.environ, "CHECK_RC": str(check_rc)}, timeout=10)
    calls = log.read_text().splitlines()
    assert done.returncode == check_rc
    assert calls[0] == f"kiosk --config {CONFIG} --check-config"
    status = f"--exit-status-file {kiosk.parent / 'exit-status'}"
    if check_rc == 2:
        assert calls == calls[:1]  # cage never started: RestartPreventExitStatus=2 applies
    else:
        assert calls[1:] == [f"cage -d -- {kiosk} --config {CONFIG} {status}", f"kiosk --config {CONFIG} {status}"]


@pytest.mark.parametrize("kiosk_rc, unit_rc", [("0", 0), ("1", 1), ("2", 2), ("killed", 1)])
def test_the_kiosks_exit_status_survives_cage(unit, fake_install, tmp_path, kiosk_rc, unit_rc):
    """cage 0.1.4 exits 0 whatever its client did: the unit exits with the kiosk's own status
    (2, a refused pin, must stop the restarts), and a kiosk that died without one is a failure."""
    kiosk, cage, log = fake_install
    (tmp_path / "exit-status").write_text("0\n")  # left by the run before: must not count
    done = subprocess.run(
        ["/bin/sh", "-c", _runnable(unit, kiosk, cage, tmp_path)],
        env={**os.environ, "KIOSK_RC": kiosk_rc},
        capture_output=True,
        text=True,
        timeout=10,
    )
    assert done.returncode == unit_rc, done.stderr
    if kiosk_rc == "killed":
        assert "the kiosk ended without an exit status" in done.stderr


@pytest.mark.parametrize(
    "args, status",
    [
        (["--display", "none", "--players", "easy,easy", "--games", "1", "--fast", "--seed", "3"], 0),
        (["--games", "0"], 2),  # refused by the argument parser (SystemExit)
        (["--config", "BAD"], 2),  # a configuration error
    ],
)
def test_the_kiosk_writes_its_exit_status(tmp_path, args, status):
    bad = tmp_path / "bad.toml"
    bad.write_text("[kiosk]\nno_such_key = 1\n")
    out = tmp_path / "exit-status"
    args = [str(bad) if a == "BAD" else a for a in args]
    if "--config" not in args:
        args += ["--config", str(ROOT / "config.example.toml")]
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", *args, "--state-dir", str(tmp_path / "state"), "--exit-status-file", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == status, done.stderr[-2000:]
    assert out.read_text() == f"{status}\n"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_analyze_verify(tmp_path):
    """systemd's own check. Unknown keys are only warnings there, so stderr must be clean too."""
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text())
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    ours = [line for line in done.stderr.splitlines() if UNIT.name in line]
    if done.returncode != 0 and not ours and "Failed to" in done.stderr:
        pytest.skip(f"systemd-analyze cannot run here: {done.stderr.strip()[:200]}")
    assert done.returncode == 0, done.stderr
    assert ours == [], "\n".join(ours)


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze not installed")
def test_systemd_analyze_catches_a_broken_unit(tmp_path):
    """The verify test above can fail: a typo in a key shows up on stderr."""
    copy = tmp_path / UNIT.name
    copy.write_text(UNIT.read_text().replace("NoNewPrivileges=yes", "NoNewPrivilege=yes"))
    done = subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True, text=True, timeout=60)
    assert "Unknown key 'NoNewPrivilege'" in done.stderr


# ------------------------------------------------------------------ install.sh
def run_install(*args, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})}
    )


def test_dry_run_prints_every_step_and_changes_nothing(tmp_path):
    watched = [
        Path("/etc/labyrinth-kiosk"),
        Path("/etc/systemd/system/labyrinth-kiosk.service"),
        Path("/opt/labyrinth-kiosk"),
    ]
    existed = {p: p.exists() for p in watched}
    done = run_install("--dry-run")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "dry run: nothing will be changed" in out
    for step in (
        "system packages",
        "user labyrinth in groups",
        "program in /opt/labyrinth-kiosk/venv",
        "configuration in /etc/labyrinth-kiosk",
        "systemd unit",
        "screen blanking and serial console off",
        "keyboard reboot keys off",
        "enable the kiosk",
    ):
        assert f"==> {step}" in out
    assert (
        f"+ install -m 0644 {ROOT}/systemd/labyrinth-kiosk.service /etc/systemd/system/labyrinth-kiosk.service" in out
    )
    assert "+ systemctl enable labyrinth-kiosk.service" in out
    # the program goes into a release folder of its own, beside the running one
    assert re.search(
        r"\+ python3 -m venv --without-pip --system-site-packages "
        r"/opt/labyrinth-kiosk/releases/\d+\.\d+\.\d+-\d{8}T\d{6}\n",
        out,
    )
    assert "with a new random operator PIN" in out or "keeping the existing" in out
    if subprocess.run(["id", "labyrinth"], capture_output=True).returncode != 0:
        assert "+ useradd --system" in out
    # every command is shown, none is run
    assert {p: p.exists() for p in watched} == existed


def test_dry_run_needs_no_root_but_a_real_run_does():
    prefix: list[str] = []
    script = INSTALL
    copy = None
    if os.geteuid() == 0:  # drop to an unprivileged user for this one
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser")
        prefix = ["runuser", "-u", "nobody", "--"]
        # The checkout may sit in a folder only root can enter (a clone into a fresh
        # `mktemp -d`): give nobody a readable copy of what the installer reads.
        copy = Path(tempfile.mkdtemp(prefix="install-as-nobody-"))
        copy.chmod(0o755)
        for rel in ("systemd", "kiosk/version.py", "config.example.toml", "pyproject.toml"):
            target = copy / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            (shutil.copytree if (ROOT / rel).is_dir() else shutil.copy2)(ROOT / rel, target)
        for p in [copy, *copy.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        script = copy / "systemd" / "install.sh"

    def run(*args):
        return subprocess.run(
            [*prefix, "bash", str(script), *args], capture_output=True, text=True, timeout=60, cwd="/"
        )

    try:
        dry = run("--dry-run")
        assert dry.returncode == 0, dry.stderr
        assert "+ systemctl enable labyrinth-kiosk.service" in dry.stdout
        done = run()
        assert done.returncode == 1 and "run as root" in done.stderr
    finally:
        if copy is not None:
            shutil.rmtree(copy)


def test_unknown_option_is_refused():
    done = run_install("--dryrun")
    assert done.returncode == 2 and "unknown option --dryrun" in done.stderr


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_install_into_a_root_twice_is_idempotent_and_keeps_the_config(tmp_path):
    root = tmp_path / "root"
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=serial0,115200 console=tty1 root=PARTUUID=1234-02 rootwait consoleblank=600 quiet\n")

    first = run_install("--root", str(root))
    assert first.returncode == 0, first.stderr
    etc = root / "etc" / "labyrinth-kiosk"
    # the example, with a random PIN instead of the example's, readable by root and the kiosk only
    pin = re.search(r"The operator PIN of this kiosk is:\s+(\d{6})\n", first.stdout).group(1)
    example = (ROOT / "config.example.toml").read_text()
    assert (etc / "config.toml").read_text() == example.replace('operator_pin = "2580"', f'operator_pin = "{pin}"')
    assert (etc / "config.toml").stat().st_mode & 0o777 == 0o640
    assert (root / "etc/systemd/system/labyrinth-kiosk.service").read_text() == UNIT.read_text()
    # blanking off, and the serial console on the header's UART gone
    assert cmdline.read_text() == "console=tty1 root=PARTUUID=1234-02 rootwait quiet consoleblank=0\n"
    assert "skipped (--root): systemctl enable labyrinth-kiosk.service" in first.stdout
    assert (root / "etc/sysctl.d/90-labyrinth-kiosk.conf").read_text().strip().endswith("kernel.sysrq = 0")

    # the operator edits the config; a second run (an update) must keep it
    edited = (etc / "config.toml").read_text().replace(f'operator_pin = "{pin}"', 'operator_pin = "0417"')
    (etc / "config.toml").write_text(edited)
    state = snapshot(root)
    second = run_install("--root", str(root))
    assert second.returncode == 0, second.stderr
    assert "keeping the existing" in second.stdout
    assert "console blanking already off" in second.stdout
    assert "no serial console in" in second.stdout
    assert "operator PIN" not in second.stdout  # shown once, at the first install
    assert "magic SysRq already off" in second.stdout
    assert snapshot(root) == state


def test_debians_serial_console_on_a_pi_4_is_removed_too(tmp_path):
    """Debian's own kernel names the UART on GPIO 14/15 ttyS1 on a Pi 4: its raspi-firmware
    writes console=ttyS1,115200, which must go as Raspberry Pi OS's serial0 does."""
    root = tmp_path / "root"
    cmdline = root / "boot" / "firmware" / "cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=tty0 console=ttyS1,115200 root=LABEL=RASPIROOT rw net.ifnames=0 rootwait\n")
    done = run_install("--root", str(root))
    assert done.returncode == 0, done.stderr
    assert cmdline.read_text() == "console=tty0 root=LABEL=RASPIROOT rw net.ifnames=0 rootwait consoleblank=0\n"
    assert "serial console removed" in done.stdout


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="needs root and unshare")
def test_install_into_a_root_never_touches_the_live_systems_releases(tmp_path):
    """--root DIR changes nothing outside DIR: releases of a kiosk installed on this machine (here
    made up in /opt, a tmpfs of a mount namespace of our own) are all still there afterwards."""
    live = "/opt/labyrinth-kiosk/releases"
    names = ["r1", "r2", "r3", "r4"]
    script = (
        f"mount -t tmpfs none /opt && mkdir -p {' '.join(f'{live}/{n}' for n in names)}"
        f" && ln -s releases/r1 /opt/labyrinth-kiosk/venv"
        f" && bash {INSTALL} --root {tmp_path / 'root'} > {tmp_path / 'out'} 2>&1; echo rc=$?; ls {live}"
    )
    done = subprocess.run(
        ["unshare", "-m", "--propagation", "private", "sh", "-c", script], capture_output=True, text=True
    )
    if "rc=" not in done.stdout:
        pytest.skip(f"no mount namespace here: {done.stderr.strip()[:200]}")
    assert done.stdout.split() == ["rc=0", *names], (tmp_path / "out").read_text()[-2000:]


@pytest.mark.parametrize("booted", [True, False])
def test_in_a_chroot_the_installer_skips_what_needs_a_running_systemd(tmp_path, booted):
    """An image build runs install.sh in a chroot: no systemd to reload or to start the kiosk. It
    says so for each such step and enables the units all the same (systemctl enable works there)."""
    marker = tmp_path / "systemd-running"
    if booted:
        marker.mkdir()
    done = run_install("--dry-run", env={"LABYRINTH_SYSTEMD_RUNNING": str(marker)})
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "+ systemctl enable labyrinth-kiosk.service" in out
    assert "+ systemctl enable labyrinth-kiosk-sound.service" in out
    skipped = "skipped (systemd is not running here: a chroot?): "
    for step in ("systemctl daemon-reload", "sysctl -p", "udevadm trigger"):
        if booted:
            assert f"+ {step}" in out and f"{skipped}{step}" not in out
        else:
            assert f"{skipped}{step}" in out and f"+ {step}" not in out
    if booted:
        assert "+ systemctl restart labyrinth-kiosk.service" in out
    else:
        assert "systemctl restart" not in out
        assert "not started: systemd is not running here (a chroot?)" in out
