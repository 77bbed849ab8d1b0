"""The offline bundle and the update cycle, in a staging root with no network.

``systemd/make-bundle.sh`` builds three bundles once per session: the release
of this checkout, a good next release and a broken one (it passes
``--check-config`` but dies at start). ``systemd/install.sh --root R
--bundle FILE`` then installs them in turn below R, inside a network
namespace with no network at all (or, where one cannot be made, with pip's
index and proxies pointed at a closed port), with the real kiosk started by
a systemctl stand-in (tests/support/fake_systemctl.py) that waits for its READY=1:

fresh install (random PIN, config 0640) -> update to the good release (the
old one kept as "previous") -> update to the broken release, which does not
report ready and is rolled back automatically -> ``--rollback`` by hand to the
first release. The state directory and the edited config survive every step.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import stat
import subprocess
import sys
import tarfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from kiosk.version import __version__

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"
MAKE_BUNDLE = ROOT / "systemd" / "make-bundle.sh"
FAKE = Path(__file__).resolve().parents[1] / "support" / "fake_systemctl.py"
NEXT, BROKEN = "99.0.1", "99.0.2"
IGNORE = shutil.ignore_patterns(
    ".venv",
    ".git",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    ".pytest_cache",
    ".hypothesis",
    "screenshots",
    "state",
)


def make_bundle(src: Path, out: Path, wheels_from: Path | None = None) -> Path:
    args = ["bash", str(src / "systemd" / "make-bundle.sh"), "--out", str(out), "--python", sys.executable]
    if wheels_from is not None:
        args += ["--wheels-from", str(wheels_from)]
    done = subprocess.run(args, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    (archive,) = out.glob("labyrinth-kiosk-*.tar.gz")
    return archive


def release_source(tmp: Path, version: str, broken: bool) -> Path:
    src = tmp / f"src-{version}"
    shutil.copytree(ROOT, src, ignore=IGNORE)
    v = src / "kiosk" / "version.py"
    v.write_text(re.sub(r'__version__ = "[^"]*"', f'__version__ = "{version}"', v.read_text()))
    if broken:  # checks its config fine, dies when it starts for real
        cli = src / "kiosk" / "tools" / "cli.py"
        text = cli.read_text()
        assert "\ndef _run(" in text
        cli.write_text(
            text.replace(
                "\ndef _run(", '\ndef _run(*a, **k):\n    raise RuntimeError("broken release")\n\n\ndef _unused_run(', 1
            )
        )
    return src


@pytest.fixture(scope="session")
def bundles(tmp_path_factory):
    """The three bundles; the dependency wheels are fetched once (network or pip's cache)."""
    tmp = tmp_path_factory.mktemp("bundles")
    first = make_bundle(ROOT, tmp / "first")
    with tarfile.open(first) as tar:
        tar.extractall(tmp / "unpacked", filter="data")
    wheels = next((tmp / "unpacked").glob("labyrinth-kiosk-*/wheels"))
    # the two further releases are built side by side
    with ThreadPoolExecutor(2) as pool:
        good, bad = pool.map(
            lambda a: make_bundle(release_source(tmp, a[0], broken=a[1]), tmp / a[0], wheels_from=wheels),
            [(NEXT, False), (BROKEN, True)],
        )
    return first, good, bad


def offline_prefix() -> list[str]:
    """Run in a network namespace of its own (no interfaces but a down loopback) when possible."""
    if shutil.which("unshare") and subprocess.run(["unshare", "-n", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-n"]
    if shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"], capture_output=True).returncode == 0:
        return ["unshare", "-rn"]
    return []


DEAD = "http://127.0.0.1:9"  # discard port: nothing listens


def install(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(
        PIP_INDEX_URL=f"{DEAD}/simple",
        PIP_EXTRA_INDEX_URL=f"{DEAD}/simple",
        http_proxy=DEAD,
        https_proxy=DEAD,
        HTTP_PROXY=DEAD,
        HTTPS_PROXY=DEAD,
        PIP_FIND_LINKS="",
    )
    fake = f"{sys.executable} {FAKE} {root}"
    return subprocess.run(
        [
            *offline_prefix(),
            "bash",
            str(INSTALL),
            "--root",
            str(root),
            "--systemctl",
            fake,
            "--ready-timeout",
            "60",
            "--settle",
            "0",
            "--no-compile",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )


def running_release(root: Path) -> str:
    """The release the kiosk process started by the stand-in runs: its interpreter is the
    release's own python (the script's first line), whatever the venv link says now."""
    pid = int((root / "run/fake-systemd/kiosk.pid").read_text())
    interpreter = Path(Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")[0].decode())
    assert interpreter.parent.parent.parent == root / "opt/labyrinth-kiosk/releases", interpreter
    return interpreter.parent.parent.name


@pytest.fixture
def staging(tmp_path):
    root = tmp_path / "root"
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/cmdline.txt").write_text("console=serial0,115200 console=tty1 rootwait\n")
    yield root
    pidfile = root / "run/fake-systemd/kiosk.pid"
    if pidfile.exists():
        try:
            os.kill(int(pidfile.read_text()), signal.SIGKILL)
        except OSError:
            pass


def link(root: Path, name: str) -> str:
    return os.readlink(root / "opt/labyrinth-kiosk" / name)


def test_offline_install_update_automatic_and_manual_rollback(bundles, staging):
    first, good, bad = bundles
    root = staging
    state = root / "var/lib/labyrinth-kiosk"
    config = root / "etc/labyrinth-kiosk/config.toml"

    # 1. fresh install from the first bundle
    done = install(root, "--bundle", str(first))
    assert done.returncode == 0, done.stdout + done.stderr
    pins = re.findall(r"The operator PIN of this kiosk is:\s+(\d{6})", done.stdout)
    assert len(pins) == 1 and pins[0] != "2580"
    assert f'operator_pin = "{pins[0]}"' in config.read_text()
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    assert link(root, "venv").startswith(f"releases/{__version__}-")
    assert not (root / "opt/labyrinth-kiosk/previous").exists()
    assert running_release(root) == Path(link(root, "venv")).name
    first_release = link(root, "venv")
    # the operator's own settings and the kiosk's data
    config.write_text(config.read_text().replace('language = "en"', 'language = "de"'))
    edited = config.read_bytes()
    (state / "history.jsonl").write_text('{"marker": "kept"}\n')

    # 2. update to the next release: switched, the first kept as previous
    done = install(root, "--bundle", str(good))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "operator PIN" not in done.stdout  # shown once, at the first install only
    assert link(root, "venv").startswith(f"releases/{NEXT}-")
    assert link(root, "previous") == first_release
    assert running_release(root) == Path(link(root, "venv")).name
    good_release = link(root, "venv")

    # 3. a broken release: no READY, so the installer switches back by itself
    done = install(root, "--bundle", str(bad))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"did not come up: back to {Path(good_release).name}" in done.stdout
    assert "rolled back" in done.stderr
    assert link(root, "venv") == good_release and link(root, "previous") == first_release
    assert running_release(root) == Path(good_release).name
    assert "broken release" in (root / "run/fake-systemd/kiosk.log").read_text()

    # 4. back by hand to the release before
    done = install(root, "--rollback")
    assert done.returncode == 0, done.stdout + done.stderr
    assert link(root, "venv") == first_release and link(root, "previous") == good_release
    assert running_release(root) == Path(first_release).name

    # config and state survived every step
    assert config.read_bytes() == edited
    assert (state / "history.jsonl").read_text().startswith('{"marker": "kept"}\n')
    assert stat.S_IMODE(config.stat().st_mode) == 0o640
    # every release was installed with pip's index unreachable: nothing but the bundle was used
    calls = (root / "run/fake-systemd/calls").read_text().splitlines()
    assert calls.count("restart labyrinth-kiosk.service") == 5  # 3 installs, 2 rollbacks


def test_a_damaged_bundle_is_refused_and_nothing_changes(bundles, tmp_path, staging):
    first, _, _ = bundles
    damaged = tmp_path / first.name
    with tarfile.open(first) as src, tarfile.open(damaged, "w:gz") as dst:
        for member in src.getmembers():
            data = src.extractfile(member).read() if member.isfile() else None
            if data is not None and member.name.endswith(".whl") and "pyserial" in member.name:
                data = data[:-1] + bytes([data[-1] ^ 1])  # one flipped bit in one wheel
            if data is not None:
                import io

                dst.addfile(member, io.BytesIO(data))
            else:
                dst.addfile(member)
    done = install(staging, "--bundle", str(damaged))
    assert done.returncode == 2
    assert "does not match its manifest" in done.stderr
    assert not (staging / "opt").exists() and not (staging / "etc").exists()


def test_a_bundle_with_a_path_outside_its_folder_is_refused(tmp_path, staging):
    evil = tmp_path / "labyrinth-kiosk-1.0.0.tar.gz"
    payload = tmp_path / "x"
    payload.write_text("x")
    with tarfile.open(evil, "w:gz") as tar:
        tar.add(payload, arcname="labyrinth-kiosk-1.0.0/../../escaped")
    done = install(staging, "--bundle", str(evil))
    assert done.returncode == 2 and "not laid out as a kiosk bundle" in done.stderr
    assert not (tmp_path / "escaped").exists() and not (staging / "opt").exists()


def test_rollback_without_a_previous_release_is_refused(staging):
    done = install(staging, "--rollback")
    assert done.returncode == 1 and "no previous release" in done.stderr


def test_the_bundle_carries_lgpio_for_plain_debian_apart(bundles, tmp_path):
    """The arm64 lgpio wheels (>= 0.2, never the empty 0.0.0.2), one for each Python install.sh's
    LGPIO_WHEELS names, go in wheels-pi/, pinned on one line with every hash; the main requirements
    stay pure Python, installable on any machine. So do the PipeWire drop-in and its config."""
    tags = re.search(r'^LGPIO_WHEELS="(.*)"$', (ROOT / "systemd/install.sh").read_text(), re.M)[1].split()
    assert tags == ["cp311", "cp312"]
    for bundle in bundles:
        with tarfile.open(bundle) as tar:
            names = tar.getnames()
            top = names[0].split("/")[0]
            pi_reqs = tar.extractfile(f"{top}/requirements-pi.txt").read().decode()
            reqs = tar.extractfile(f"{top}/requirements.txt").read().decode()
        wheels = sorted(Path(n).name for n in names if n.startswith(f"{top}/wheels-pi/") and n.endswith(".whl"))
        assert len(wheels) == len(tags)
        for name, tag in zip(wheels, tags):
            assert re.fullmatch(rf"lgpio-(\d+)\.(\d+)[.\d]*-{tag}-{tag}-manylinux_\d+_\d+_aarch64\.whl", name), name
            assert tuple(int(x) for x in name.split("-")[1].split(".")[:2]) >= (0, 2)
        assert re.fullmatch(r"lgpio==[\d.]+( --hash=sha256:[0-9a-f]{64}){2}\n", pi_reqs)
        assert "lgpio" not in reqs and f"{top}/systemd/60-labyrinth-kiosk-gpio.rules" in names
        assert f"{top}/systemd/labyrinth-kiosk-sound.service" in names
        assert f"{top}/systemd/labyrinth-kiosk-sound-pipewire.conf" in names
        assert f"{top}/systemd/pipewire-labyrinth-kiosk.conf" in names


def test_an_offline_install_checks_every_package_first_and_never_runs_apt(bundles, tmp_path):
    """On a system without the sound server (Pi OS Lite) or cage, --bundle names what is missing
    and stops before changing anything; it never tries apt-get, which needs the network."""
    first, _, _ = bundles
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    apt_log = tmp_path / "apt-calls"
    stand_ins = {  # dpkg -s says "installed" except for $MISSING; no python3-lgpio in the archive
        "dpkg": '[ "$1" = -s ] || exit 1\nfor m in $MISSING; do [ "$2" = "$m" ] && exit 1; done\nexit 0\n',
        "apt-cache": "exit 100\n",
        "apt-get": f'echo "apt-get $*" >> {apt_log}\nexit 0\n',
    }
    for name, body in stand_ins.items():
        (bin_dir / name).write_text("#!/bin/sh\n" + body)
        (bin_dir / name).chmod(0o755)
    env = dict(os.environ, PATH=f"{bin_dir}:{os.environ['PATH']}", MISSING="cage pulseaudio pipewire-pulse")
    runs = [["--dry-run"]] + ([[]] if os.geteuid() == 0 else [])  # a real run stops at step 1
    for extra in runs:
        done = subprocess.run(
            ["bash", str(INSTALL), "--bundle", str(first), "--no-compile", *extra],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
        assert "install.sh: missing Debian packages: cage pulseaudio\n" in done.stderr, done.stdout + done.stderr
        assert "apt-get" not in done.stdout and not apt_log.exists()
        if not extra:
            assert done.returncode == 1 and "==> user" not in done.stdout
