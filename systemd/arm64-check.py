#!/usr/bin/env python3
"""``make arm64-check``: the kiosk installed and run on Debian arm64 under emulation, of the suite
``SUITE`` names: trixie (Raspberry Pi OS's base today, the default) or bookworm (its Legacy).

What a Raspberry Pi would do with the offline bundle, done in an arm64 root file system
(systemd/arm64-root.sh: mmdebstrap, run by qemu-user through binfmt_misc, cached; the trixie
root has PipeWire's PulseAudio server as the desktop image does, the bookworm root PulseAudio):

1. ``install.sh --bundle`` in a chroot with the network cut (``unshare -n``), as on a Pi
   without one (a chroot has no running systemd: the installer says what it skips); lgpio from
   the bundle's wheel on bookworm (Python 3.11), and on trixie (3.13: no wheel, plain Debian has
   no python3-lgpio) the one line saying the buttons are simulated off a Pi;
2. a headless game as the kiosk's user;
3. an offscreen frame with OpenGL ES;
4. the sound unit's server (PulseAudio, or on trixie PipeWire through the unit's drop-in), up,
   and ``pactl info`` answering the kiosk's user;
5. the kiosk unit's own start command as the kiosk's user: cage on wlroots' headless backend,
   Xwayland, the kiosk full screen with desktop OpenGL capped at 3.1 as on the Pi's GPU: GLES
   chosen, READY=1 after the first frame, WATCHDOG=1 after it, its exit status through cage (0 when
   stopped, 1 when killed, 2 when it refuses to run: the status that stops the unit for good);
6. seeded ``labyrinth-sim`` records identical to this machine's;
7. the same root booted by ``systemd-nspawn --boot``: the kiosk's unit reaches active (running)
   under cage with no restart, the sound unit too (``pactl info`` answering the kiosk's user, the
   kiosk's journal saying "sound on"), and a run refused inside cage (exit 2) leaves the unit
   failed instead of restarting it.

Where it cannot run (not root, no binfmt_misc, no qemu-user), it says so in one line and
exits 0. Usage: [SUITE=trixie|bookworm] arm64-check.py BUNDLE.tar.gz (the Makefile passes the
one `make bundle` made, and its SUITE).
"""

from __future__ import annotations

import fcntl
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent
SUITE = os.environ.get("SUITE") or "trixie"  # arm64-root.sh's default, and its choices
BINFMT = Path("/proc/sys/fs/binfmt_misc")
TOOLS = {
    "mmdebstrap": "mmdebstrap",
    "arch-test": "arch-test",  # mmdebstrap's check that arm64 programs run here
    "update-binfmts": "binfmt-support",
    "qemu-aarch64-static": "qemu-user-static",
    "systemd-nspawn": "systemd-container",
}
USER = "labyrinth"
KIOSK = "/opt/labyrinth-kiosk/venv/bin/labyrinth-kiosk"
SIM = "/opt/labyrinth-kiosk/venv/bin/labyrinth-sim"
# the seeded games compared with this machine's: levels whose moves do not depend on a clock
SIM_ARGS = ["--games", "4", "--ai", "easy,medium", "--seed", "11", "--jobs", "1", "--quiet"]
READY_WITHIN_S = 600  # qemu runs Python and llvmpipe many times slower than a Pi
BOOT_WITHIN_S = 1200  # a booted systemd, then cage, under qemu-user on a busy machine
failures: list[str] = []


def say(text: str) -> None:
    print(f"arm64-check: {text}", flush=True)


def skip(reason: str) -> None:
    say(f"skipped: {reason}")
    sys.exit(0)


def check(ok: bool, what: str, detail: str = "") -> bool:
    say(f"{'ok' if ok else 'FAILED'}: {what}")
    if not ok:
        failures.append(what)
        if detail:
            print(detail.rstrip()[-3000:], flush=True)
    return ok


def sh(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(argv, capture_output=True, text=True, **kw)


# ------------------------------------------------------------------ can this machine run it?
def emulation() -> None:
    """binfmt_misc mounted, qemu-aarch64 registered with the F flag (works inside a chroot)."""
    if os.geteuid() != 0:
        skip("needs root (mmdebstrap, chroot, mounts)")
    missing = [pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None]
    if missing and shutil.which("apt-get"):
        say(f"installing {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        sh("apt-get", "update", "-qq", env=env)
        sh("apt-get", "install", "-y", "-qq", "--no-install-recommends", *missing, env=env)
    missing = [pkg for tool, pkg in TOOLS.items() if shutil.which(tool) is None]
    if missing:
        skip(f"{', '.join(missing)} not installed and not installable here")
    if not (BINFMT / "status").exists():
        done = sh("mount", "-t", "binfmt_misc", "binfmt_misc", str(BINFMT))
        if done.returncode != 0:
            skip(f"no binfmt_misc here (mount: {done.stderr.strip() or done.returncode})")
    sh("update-binfmts", "--enable", "qemu-aarch64")
    entry = BINFMT / "qemu-aarch64"
    text = entry.read_text() if entry.exists() else ""
    if not text.startswith("enabled"):
        skip("qemu-aarch64 is not registered with binfmt_misc")
    if not re.search(r"^flags: \w*F", text, re.M):
        skip("qemu-aarch64 is registered without the F flag: it cannot run inside a chroot")


# ------------------------------------------------------------------ the root and its mounts
def arm64_root() -> Path:
    t0 = time.monotonic()
    done = subprocess.run(
        ["bash", str(SRC / "systemd/arm64-root.sh"), "--suite", SUITE], stdout=subprocess.PIPE, text=True
    )
    if done.returncode != 0:
        say("FAILED: the arm64 root file system could not be built")
        sys.exit(1)
    root = Path(done.stdout.strip().splitlines()[-1])
    say(f"root file system {root} ({time.monotonic() - t0:.0f} s)")
    return root


def working_copy(cached: Path, work: Path) -> Path:
    """The cached root stays as mmdebstrap left it: the check runs on an overlay of it (or a copy)."""
    root = work / "root"
    for d in ("upper", "work", "root"):
        (work / d).mkdir()
    options = f"lowerdir={cached},upperdir={work / 'upper'},workdir={work / 'work'}"
    if sh("mount", "-t", "overlay", "overlay", "-o", options, str(root)).returncode != 0:
        say("no overlayfs here: copying the root")
        subprocess.run(["cp", "-a", f"{cached}/.", str(root)], check=True)
    for args in (
        ["-t", "proc", "proc", "proc"],
        ["-t", "sysfs", "sys", "sys"],
        ["--rbind", "/dev", "dev"],
        ["-t", "tmpfs", "tmpfs", "run"],
        ["-t", "tmpfs", "tmpfs", "tmp"],
    ):
        subprocess.run(["mount", *args[:-1], str(root / args[-1])], check=True)
    (root / "tmp").chmod(0o1777)
    return root


def in_root(root: Path, *argv: str, user: bool = False, env: dict[str, str] | None = None, cwd: str = "/"):
    """argv in the chroot, as root or as the kiosk's user (with its groups), with a clean environment,
    in `cwd` (the kiosk's is the unit's WorkingDirectory: lgpio keeps its pipes there)."""
    base = {"PATH": "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "LANG": "C.UTF-8"}
    if user:
        base["HOME"] = "/var/lib/labyrinth-kiosk"
    full = [f"{k}={v}" for k, v in {**base, **(env or {})}.items()]
    who = ["setpriv", f"--reuid={USER}", f"--regid={USER}", "--init-groups"] if user else []
    return ["chroot", str(root), *who, "env", "-i", *full, "sh", "-c", 'cd "$0" && exec "$@"', cwd, *argv]


# ------------------------------------------------------------------ the units
def parse_unit(path: Path) -> dict[str, list[str]]:
    """[Service] of a unit: Key=value lines, '\\' continuations, comments dropped."""
    out: dict[str, list[str]] = {}
    section, pending = "", ""
    for raw in path.read_text().splitlines():
        if not pending and (not raw.strip() or raw.lstrip().startswith(("#", ";"))):
            continue
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if line.startswith("["):
            section = line.strip()
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def unit_env(service: dict[str, list[str]]) -> dict[str, str]:
    return dict(line.partition("=")[::2] for line in service.get("Environment", []))


class Notify:
    """A NOTIFY_SOCKET inside the root, as systemd gives one to a Type=notify unit."""

    def __init__(self, root: Path, name: str):
        self.inside = f"/run/{name}"
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.sock.bind(str(root / "run" / name))
        os.chmod(root / "run" / name, 0o777)
        self.seen: list[tuple[float, str]] = []

    def wait(self, line: str, seconds: float, proc: subprocess.Popen | None = None, after: float = 0.0) -> float | None:
        """When `line` arrived (monotonic) after `after`, waiting at most `seconds`; None if it did not."""
        end = time.monotonic() + seconds
        for t, got in self.seen:
            if got == line and t > after:
                return t
        while time.monotonic() < end:
            if proc is not None and proc.poll() is not None:
                self.sock.settimeout(0.5)
            else:
                self.sock.settimeout(min(5.0, max(0.01, end - time.monotonic())))
            try:
                data = self.sock.recv(4096).decode()
            except socket.timeout:
                if proc is not None and proc.poll() is not None:
                    return None
                continue
            now = time.monotonic()
            for got in data.split("\n"):
                self.seen.append((now, got))
                if got == line and now > after:
                    return now
        return None


def kiosk_pid(session: int) -> int | None:
    """The kiosk's own process among the start command's (not the shell's, not cage's)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if os.getsid(int(entry.name)) != session:
                continue
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        words = [a.decode(errors="replace") for a in argv]
        if "--exit-status-file" in words and not any(w.endswith(("/sh", "cage")) for w in words):
            if any(w.endswith("bin/labyrinth-kiosk") for w in words):
                return int(entry.name)
    return None


def stop(proc: subprocess.Popen) -> int:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(60)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode


# ------------------------------------------------------------------ the steps
def install(root: Path, bundle: Path) -> bool:
    (root / "tmp/bundle").mkdir()
    shutil.copy2(bundle, root / "tmp/bundle" / bundle.name)
    with tarfile.open(bundle) as tar:
        top = tar.getnames()[0].split("/")[0]
        tar.extract(f"{top}/systemd/install.sh", root / "tmp/bundle", filter="data")
    t0 = time.monotonic()
    done = sh(
        "unshare",
        "-n",
        *in_root(root, "bash", f"/tmp/bundle/{top}/systemd/install.sh", "--bundle", f"/tmp/bundle/{bundle.name}"),
    )
    out = done.stdout + done.stderr
    say(f"install.sh --bundle, network cut: {time.monotonic() - t0:.0f} s")
    ok = check(done.returncode == 0, "install.sh --bundle in the arm64 chroot with no network", out)
    check("not started: systemd is not running here" in out, "the chroot's missing systemd is said, not fatal", out)
    lg = sh(*in_root(root, "/opt/labyrinth-kiosk/venv/bin/python", "-c", "import lgpio; print(lgpio.LGPIO_PY_VERSION)"))
    if SUITE == "bookworm":
        check("lgpio: the bundle's wheel for cp311" in out, "plain Debian: lgpio from the bundle's arm64 wheel", out)
        check(lg.returncode == 0, f"lgpio imports in the release venv ({lg.stdout.strip()})", lg.stderr)
    else:  # Python 3.13: PyPI has no lgpio wheel, plain Debian no python3-lgpio; not a Pi: said, not fatal
        said = (
            "no lgpio for Python cp313" in out and "the buttons will be simulated (this is not a Raspberry Pi)" in out
        )
        check(said and lg.returncode != 0, "plain Debian trixie: no lgpio for Python 3.13, said in one line", out)
    server = "pipewire" if SUITE == "trixie" else "pulseaudio"
    check(f"sound: labyrinth-kiosk-sound.service on {server}" in out, f"the sound unit set up for {server}", out)
    wants = root / "etc/systemd/system/multi-user.target.wants"
    for unit in ("labyrinth-kiosk.service", "labyrinth-kiosk-sound.service"):
        check((wants / unit).is_symlink(), f"{unit} enabled")
    check((root / "etc/udev/rules.d/60-labyrinth-kiosk-gpio.rules").exists(), "the gpiochip udev rule is installed")
    # what systemd would make for the units: their state and runtime directories
    for d, mode in (
        ("var/lib/labyrinth-kiosk", 0o750),
        ("run/labyrinth-kiosk", 0o700),
        ("var/cache/labyrinth-kiosk", 0o755),
    ):
        (root / d).mkdir(parents=True, exist_ok=True)
        subprocess.run(["chroot", str(root), "chown", f"{USER}:{USER}", f"/{d}"], check=True)
        (root / d).chmod(mode)
    return ok


def headless_game(root: Path) -> None:
    t0 = time.monotonic()
    # as the kiosk's user (the config is root:labyrinth 0640)
    done = sh(
        *in_root(
            root,
            KIOSK,
            *["--config", "/etc/labyrinth-kiosk/config.toml", "--display", "none", "--players", "easy,easy"],
            *["--games", "1", "--fast", "--seed", "5", "--state-dir", "/tmp/headless"],
            user=True,
        )
    )
    check(done.returncode == 0, f"a headless game as {USER} ({time.monotonic() - t0:.0f} s)", done.stderr)


def offscreen_gles(root: Path) -> None:
    (root / "tmp/shots").mkdir()
    (root / "tmp/shots").chmod(0o777)
    (root / "tmp/script.txt").write_text("wait 200\n")
    t0 = time.monotonic()
    done = sh(
        *in_root(
            root,
            KIOSK,
            *["--config", "/etc/labyrinth-kiosk/config.toml", "--display", "offscreen", "--gl", "gles"],
            *["--size", "800x480", "--script", "/tmp/script.txt", "--screenshot-dir", "/tmp/shots"],
            *["--state-dir", "/tmp/offscreen"],
            user=True,
        )
    )
    shots = sorted(p.name for p in (root / "tmp/shots").glob("*.png"))
    keep = SRC / "dist" / "arm64-check"  # to look at (and for CI to keep)
    shutil.rmtree(keep, ignore_errors=True)
    shutil.copytree(root / "tmp/shots", keep)
    check(
        done.returncode == 0 and "OpenGL ES" in done.stderr and bool(shots),
        f"an offscreen frame with OpenGL ES ({', '.join(shots) or 'no picture'}, {time.monotonic() - t0:.0f} s)",
        done.stderr,
    )


def sound_server(root: Path) -> subprocess.Popen | None:
    """The sound unit's command as systemd would run it: PulseAudio (READY=1), or PipeWire where
    install.sh added the drop-in (up once its PulseAudio socket is there); then ``pactl info``."""
    service = parse_unit(SRC / "systemd/labyrinth-kiosk-sound.service")
    dropin = root / "etc/systemd/system/labyrinth-kiosk-sound.service.d/pipewire.conf"
    pipewire = parse_unit(dropin) if dropin.exists() else {}
    env = {**unit_env(service), **unit_env(pipewire)}
    (runtime,) = service["RuntimeDirectory"]
    (state,) = service["StateDirectory"]
    for d in (f"run/{runtime}", f"var/lib/{state}"):
        (root / d).mkdir(parents=True, exist_ok=True)
        subprocess.run(["chroot", str(root), "chown", f"{USER}:{USER}", f"/{d}"], check=True)
    notify = Notify(root, "sound-notify")
    argv = shlex.split((pipewire or service)["ExecStart"][-1])
    proc = subprocess.Popen(
        in_root(root, *argv, user=True, env={**env, "NOTIFY_SOCKET": notify.inside}),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    t0 = time.monotonic()
    kiosk_env = unit_env(parse_unit(SRC / "systemd/labyrinth-kiosk.service"))
    if pipewire:
        name, sock = "PipeWire", root / kiosk_env["PULSE_SERVER"].removeprefix("unix:/")
        while not sock.is_socket() and proc.poll() is None and time.monotonic() - t0 < 180:
            time.sleep(0.5)
        up = sock.is_socket()
    else:
        name, up = "PulseAudio", notify.wait("READY=1", 180, proc) is not None
    if not check(up, f"the sound unit's {name} is up ({time.monotonic() - t0:.0f} s)"):
        stop(proc)
        print(proc.stderr.read()[-2000:] if proc.stderr else "")
        return None
    info = sh(*in_root(root, "pactl", "info", user=True, env={"PULSE_SERVER": kiosk_env["PULSE_SERVER"]}))
    server = re.search(r"^Server Name: (.*)$", info.stdout, re.M)
    check(
        info.returncode == 0 and server is not None and (("PipeWire" in server[1]) == bool(pipewire)),
        f"pactl info answers {USER} ({server[1] if server else 'no server'})",
        info.stderr,
    )
    return proc


def refused_under_cage(root: Path) -> None:
    """A run the kiosk refuses once inside cage (its state directory held by another process: exit
    status 2, past the start command's configuration check): the start command must exit 2, the
    status the unit's RestartPreventExitStatus= names, so systemd stops it instead of restarting."""
    service = parse_unit(SRC / "systemd/labyrinth-kiosk.service")
    (start,) = service["ExecStart"]
    argv = [a.replace("$$", "$") for a in shlex.split(start)]
    lock_path = root / "var/lib/labyrinth-kiosk/kiosk.lock"
    lock_path.touch()
    subprocess.run(["chroot", str(root), "chown", f"{USER}:{USER}", "/var/lib/labyrinth-kiosk/kiosk.lock"], check=True)
    env = {**unit_env(service), "WLR_BACKENDS": "headless", "WLR_RENDERER": "pixman"}
    t0 = time.monotonic()
    with lock_path.open("r+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # what a second kiosk would hold
        try:
            done = sh(
                *in_root(root, *argv, user=True, env=env, cwd=service["WorkingDirectory"][0]), timeout=READY_WITHIN_S
            )
            rc, err = done.returncode, done.stderr
        except subprocess.TimeoutExpired as e:
            rc, err = -1, str(e.stderr or "")
    written = root / "run/labyrinth-kiosk/exit-status"
    status = written.read_text().strip() if written.exists() else "none"
    prevent = " ".join(service.get("RestartPreventExitStatus", [])).split()
    check(
        rc == 2 and status == "2" and "is in use by" in err and "2" in prevent,
        f"a run refused inside cage: the start command exits {rc} (the kiosk wrote {status}), "
        f"which RestartPreventExitStatus={' '.join(prevent)} keeps from restarting ({time.monotonic() - t0:.0f} s)",
        err,
    )


def kiosk_under_cage(root: Path, crash: bool = False) -> None:
    """The unit's ExecStart as systemd would run it, on wlroots' headless backend. With `crash`, the
    kiosk is killed once it is up: the start command must fail although cage exits 0."""
    service = parse_unit(SRC / "systemd/labyrinth-kiosk.service")
    (start,) = service["ExecStart"]
    argv = [a.replace("$$", "$") for a in shlex.split(start)]
    notify = Notify(root, "kiosk-crash-notify" if crash else "kiosk-notify")
    watchdog_s = 4
    env = {
        **unit_env(service),
        "NOTIFY_SOCKET": notify.inside,
        "WATCHDOG_USEC": str(watchdog_s * 1_000_000),
        # no GPU, no seat here: wlroots' headless backend with its software renderer
        "WLR_BACKENDS": "headless",
        "WLR_RENDERER": "pixman",
        # the Pi 4's and Pi 5's GPU (V3D) offer desktop OpenGL 3.1 only: the kiosk must pick GLES
        "MESA_GL_VERSION_OVERRIDE": "3.1",
        "MESA_GLSL_VERSION_OVERRIDE": "140",
    }
    t0 = time.monotonic()
    proc = subprocess.Popen(
        in_root(root, *argv, user=True, env=env, cwd=service["WorkingDirectory"][0]),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    lines: list[tuple[float, str]] = []  # the kiosk's log, each line with when it came
    reader = threading.Thread(target=lambda: lines.extend((time.monotonic(), x) for x in proc.stderr or ()))
    reader.start()
    ready = notify.wait("READY=1", READY_WITHIN_S, proc)
    if crash:
        kiosk = kiosk_pid(proc.pid) if ready is not None else None
        if kiosk is not None:
            os.kill(kiosk, signal.SIGKILL)
            try:
                proc.wait(180)
            except subprocess.TimeoutExpired:
                pass
        rc = stop(proc)
        reader.join(30)
        err = "".join(x for _, x in lines)
        check(
            kiosk is not None and rc == 1 and "the kiosk ended without an exit status" in err,
            f"a killed kiosk fails the start command through cage (status {rc})",
            err,
        )
        return
    check(ready is not None, f"READY=1 from the kiosk under cage + Xwayland ({time.monotonic() - t0:.0f} s)")
    ping = None
    if ready is not None:
        # the main loop goes on pinging: two pings after READY=1, the second about watchdog_s / 2 later
        ping = notify.wait("WATCHDOG=1", watchdog_s * 5, proc, after=ready)
        again = None if ping is None else notify.wait("WATCHDOG=1", watchdog_s * 5, proc, after=ping)
        check(
            again is not None,
            "WATCHDOG=1 after READY=1, and again"
            + ("" if again is None or ping is None else f" ({ping - ready:.1f} s and {again - ready:.1f} s later)"),
        )
    status_file = root / "run/labyrinth-kiosk/exit-status"
    # the kiosk alone is told to stop (as by a Quit): it ends, cage (which exits 0 whatever) ends with
    # it, and the start command must exit with the kiosk's own status
    kiosk = kiosk_pid(proc.pid)
    if kiosk is not None:
        os.kill(kiosk, signal.SIGTERM)
        try:
            proc.wait(180)
        except subprocess.TimeoutExpired:
            pass
    rc = stop(proc)
    reader.join(30)
    err = "".join(x for _, x in lines)
    check("OpenGL ES" in err, "GLES chosen with desktop OpenGL capped at 3.1", err)
    check("sound off" not in err and "no audio device" not in err, "the kiosk found the sound server", err)
    written = status_file.read_text().strip() if status_file.exists() else "none"
    check(
        written == "0" and rc == 0,
        f"stopped, the kiosk's exit status came through cage (it wrote {written}; the start command: {rc})",
        err,
    )
    opened = next((t for t, x in lines if "display fullscreen" in x), None)
    check(
        ready is not None and opened is not None and opened < ready,
        "READY=1 came after the window was open (its log line)",
        err,
    )


def sim_records(root: Path) -> None:
    here = Path(tempfile.mkdtemp(prefix="arm64-sim-"))
    try:
        host = sh(sys.executable, "-m", "kiosk.tools.sim.sweep", *SIM_ARGS, "--records", str(here), cwd=SRC)
        t0 = time.monotonic()
        arm = sh(*in_root(root, SIM, *SIM_ARGS, "--records", "/tmp/records"))
        mine = {p.relative_to(here): p.read_bytes() for p in here.rglob("*") if p.is_file()}
        theirs_dir = root / "tmp/records"
        theirs = {p.relative_to(theirs_dir): p.read_bytes() for p in theirs_dir.rglob("*") if p.is_file()}
        check(
            host.returncode == 0 and arm.returncode == 0 and bool(mine) and mine == theirs,
            f"{len(theirs)} seeded labyrinth-sim records identical to x86's ({time.monotonic() - t0:.0f} s)",
            host.stderr + arm.stderr + f"\nx86: {sorted(map(str, mine))}\narm64: {sorted(map(str, theirs))}",
        )
    finally:
        shutil.rmtree(here)


# ------------------------------------------------------------------ a booted systemd
BOOT_CHECK_UNIT = """\
[Unit]
Description=arm64-check: is the kiosk running after boot, and does a refused run stop it?
After=basic.target

[Service]
Type=oneshot
TimeoutStartSec=infinity
ExecStart=/bin/sh /usr/local/sbin/kiosk-boot-check
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
"""

# Runs inside the booted root, as the last unit: the results go to /var/tmp/kiosk-boot-check,
# one "KEY=value" a line, for the host to read after the container powers off.
BOOT_CHECK_SCRIPT = """\
out=/var/tmp/kiosk-boot-check
: > $out
unit=labyrinth-kiosk.service
state() { systemctl show -P ActiveState $unit; }
show() { systemctl show -p ActiveState -p SubState -p NRestarts -p ExecMainStatus -p Result "$@" $unit | tr '\\n' ' '; }
t0=$(date +%s)
while :; do
    s=$(state)
    [ "$s" = active ] && break
    [ $(( $(date +%s) - t0 )) -gt {within} ] && break
    sleep 2
done
echo "running=$(show) after=$(( $(date +%s) - t0 ))" >> $out
echo "sound=$(systemctl show -P ActiveState -P SubState labyrinth-kiosk-sound.service | tr '\\n' ' ')" >> $out
echo "pactl=$(runuser -u labyrinth -- env PULSE_SERVER={pulse} pactl info 2>&1 | sed -n 's/^Server Name: //p')" >> $out
echo "sound_on=$(journalctl -b -u $unit --no-pager -o cat | grep -c 'sound on')" >> $out
echo "boot=$(systemctl is-system-running)" >> $out
echo "failed_units=$(systemctl list-units --failed --plain --no-legend | awk '{print $1}' | tr '\\n' ' ')" >> $out
sleep 5
echo "still=$(show)" >> $out
# a refused run: the state directory held by another process makes the kiosk exit 2 inside cage
systemctl stop $unit
systemd-run --quiet --unit=kiosk-check-lock -p User=labyrinth -p Group=labyrinth \\
    flock /var/lib/labyrinth-kiosk/kiosk.lock sleep 3600
sleep 3
systemctl reset-failed $unit
systemctl start --no-block $unit
t0=$(date +%s)
while :; do
    s=$(state)
    [ "$s" = failed ] || [ "$s" = inactive ] && break
    [ $(( $(date +%s) - t0 )) -gt {within} ] && break
    sleep 2
done
sleep 15
echo "refused=$(show)" >> $out
journalctl -b -u $unit --no-pager -o cat | tail -n 40 | sed 's/^/journal: /' >> $out
echo "done=1" >> $out
systemctl --no-block poweroff
"""

# the emulation's allowances: no GPU nor seat (wlroots' headless backend, software rendering),
# desktop OpenGL capped at 3.1 as on the Pi's V3D, and qemu-user's slowness
BOOT_CHECK_DROPIN = """\
[Service]
Environment=WLR_BACKENDS=headless WLR_RENDERER=pixman MESA_GL_VERSION_OVERRIDE=3.1 MESA_GLSL_VERSION_OVERRIDE=140
TimeoutStartSec=900
WatchdogSec=600
"""


def booted_systemd(lower: list[Path], work: Path) -> None:
    """The root (its overlay layers, top first) booted by systemd-nspawn on a throw-away overlay:
    the kiosk's unit active (running) under cage, the sound unit too, and a run refused inside
    cage (status 2) leaving the unit failed, with no restart: the real systemd's restart policy."""
    if shutil.which("systemd-nspawn") is None:
        check(False, "booted systemd: systemd-nspawn not found (systemd-container)")
        return
    top = work / "boot-check"
    for d in ("upper", "work", "root"):
        (top / d).mkdir(parents=True)
    options = f"lowerdir={':'.join(map(str, lower))},upperdir={top / 'upper'},workdir={top / 'work'}"
    subprocess.run(["mount", "-t", "overlay", "overlay", "-o", options, str(top / "root")], check=True)
    root = top / "root"
    try:
        (root / "usr/local/sbin").mkdir(parents=True, exist_ok=True)
        pulse = unit_env(parse_unit(SRC / "systemd/labyrinth-kiosk.service"))["PULSE_SERVER"]
        script = BOOT_CHECK_SCRIPT.replace("{within}", str(BOOT_WITHIN_S)).replace("{pulse}", pulse)
        (root / "usr/local/sbin/kiosk-boot-check").write_text(script)
        (root / "etc/systemd/system/kiosk-boot-check.service").write_text(BOOT_CHECK_UNIT)
        wants = root / "etc/systemd/system/multi-user.target.wants"
        wants.mkdir(parents=True, exist_ok=True)
        (wants / "kiosk-boot-check.service").symlink_to("../kiosk-boot-check.service")
        dropin = root / "etc/systemd/system/labyrinth-kiosk.service.d"
        dropin.mkdir(parents=True, exist_ok=True)
        (dropin / "emulation.conf").write_text(BOOT_CHECK_DROPIN)
        (root / "etc/machine-id").write_text("")
        t0 = time.monotonic()
        log = work / "boot-check.log"
        with log.open("w") as f:
            try:
                done = subprocess.run(
                    ["systemd-nspawn", "--quiet", "--boot", f"--directory={root}", "--register=no", "--keep-unit",
                     "--private-network", "--console=pipe", "--machine=labyrinth-kiosk-check"],
                    stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.STDOUT, timeout=BOOT_WITHIN_S * 2 + 600,
                )  # fmt: skip
                rc = done.returncode
            except subprocess.TimeoutExpired:
                rc = -1
        took = time.monotonic() - t0
        result = root / "var/tmp/kiosk-boot-check"
        text = result.read_text() if result.exists() else ""
        values = dict(
            line.partition("=")[::2] for line in text.splitlines() if "=" in line and not line.startswith("journal")
        )
        say(f"systemd-nspawn --boot: exit {rc} after {took:.0f} s")
        print(text, flush=True)
        if not values.get("done"):
            print(log.read_text()[-4000:], flush=True)
        running = values.get("running", "")
        check(
            "ActiveState=active" in running and "SubState=running" in running and "NRestarts=0" in running,
            f"booted systemd: labyrinth-kiosk.service active (running) under cage, no restart ({running.strip()})",
        )
        check("NRestarts=0" in values.get("still", "") and "SubState=running" in values.get("still", ""),
                  "still running 5 s later, not restarted")  # fmt: skip
        sound = values.get("sound", "")
        check(sound.split()[:2] == ["active", "running"], f"labyrinth-kiosk-sound.service active (running) ({sound})")
        pactl = values.get("pactl", "")
        check(
            bool(pactl) and ("PipeWire" in pactl) == (SUITE == "trixie"),
            f"booted: pactl info answers {USER} ({pactl or 'nothing'})",
        )
        check(values.get("sound_on", "0") not in ("", "0"), "booted: the kiosk's journal says 'sound on'", text)
        refused = values.get("refused", "")
        check(
            "ActiveState=failed" in refused and "ExecMainStatus=2" in refused and "NRestarts=0" in refused,
            f"a run refused inside cage (exit 2) stops the unit, no restart ({refused.strip()})",
            text,
        )
    finally:
        subprocess.run(["umount", "-R", "-l", str(root)], capture_output=True)


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_file():
        print("usage: arm64-check.py BUNDLE.tar.gz (from make bundle)", file=sys.stderr)
        return 2
    bundle = Path(argv[0]).resolve()
    emulation()
    if os.environ.get("ARM64_CHECK_NAMESPACE") != "1":  # every mount goes with a namespace of our own
        os.environ["ARM64_CHECK_NAMESPACE"] = "1"
        os.execvp("unshare", ["unshare", "-m", "--propagation", "private", sys.executable, __file__, str(bundle)])
    t0 = time.monotonic()
    cached = arm64_root()
    work = Path(tempfile.mkdtemp(prefix="arm64-check-", dir="/var/tmp"))
    sound = None
    try:
        root = working_copy(cached, work)
        if install(root, bundle):
            headless_game(root)
            offscreen_gles(root)
            sound = sound_server(root)
            kiosk_under_cage(root)
            kiosk_under_cage(root, crash=True)
            refused_under_cage(root)
            sim_records(root)
            if sound is not None:
                stop(sound)
                sound = None
            # the same root booted: its own systemd starts the units as on a Pi
            overlaid = os.path.ismount(root)
            subprocess.run(["umount", "-R", "-l", str(root)], capture_output=True)
            booted_systemd([work / "upper", cached] if overlaid else [root], work)
    finally:
        if sound is not None:
            stop(sound)
        subprocess.run(["umount", "-R", "-l", str(work / "root")], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    took = time.monotonic() - t0
    if failures:
        say(f"{SUITE}: {len(failures)} check(s) FAILED in {took:.0f} s: {'; '.join(failures)}")
        return 1
    say(f"{SUITE}: all checks passed in {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
