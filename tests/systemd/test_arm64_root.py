"""systemd/arm64-root.sh: a root per suite (trixie by default, bookworm), and one build of a root
at a time: a second run waits for the first and reuses its root (mmdebstrap is a stand-in here)."""

from __future__ import annotations

import os
import subprocess
import time

import pytest
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "systemd" / "arm64-root.sh"


def start(tmp_path: Path, *args: str) -> subprocess.Popen:
    bin_dir = tmp_path / "bin"
    if not bin_dir.exists():
        bin_dir.mkdir()
        # makes the root folder (its second-to-last argument) and takes a while, as the real one
        (bin_dir / "mmdebstrap").write_text(
            '#!/bin/bash\necho "${@: -3:1}" >> "$(dirname "$0")/suites"\nmkdir -p "${@: -2:1}"; sleep 2\n'
        )
        (bin_dir / "mmdebstrap").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}", "ARM64_CACHE": str(tmp_path / "cache")}
    return subprocess.Popen(
        ["bash", str(SCRIPT), "--mirror", "http://mirror.invalid/debian", *args],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip


def test_a_second_run_waits_for_the_first_and_reuses_its_root(tmp_path):
    first = start(tmp_path)
    time.sleep(0.5)
    second = start(tmp_path)
    out1, out2 = first.communicate(60)[0], second.communicate(60)[0]
    assert first.returncode == second.returncode == 0, out1 + out2
    built = Path(out1.splitlines()[-1])
    assert built.name.startswith("trixie-arm64-") and (built / ".complete").exists()
    assert out2.splitlines() == [f"reusing {built}", str(built)]
    assert (tmp_path / "bin/suites").read_text() == "trixie\n"  # built once


def test_bookworm_is_a_root_of_its_own_and_other_suites_are_refused(tmp_path):
    done = start(tmp_path, "--suite", "bookworm")
    out = done.communicate(60)[0]
    assert done.returncode == 0 and Path(out.splitlines()[-1]).name.startswith("bookworm-arm64-")
    wrong = start(tmp_path, "--suite", "bullseye")
    assert wrong.communicate(60)[0].strip() == "arm64-root.sh: suite bullseye: trixie or bookworm"
    assert wrong.returncode == 2


@pytest.mark.skipif(os.geteuid() != 0, reason="mounts need root")
def test_a_build_cut_short_with_its_mounts_left_is_cleared_and_built_again(tmp_path):
    """A killed mmdebstrap leaves proc and sys mounted in its half-built root: the next run
    unmounts them before deleting it, instead of failing on (or deleting through) them."""
    done = start(tmp_path, "--suite", "bookworm")
    built = Path(done.communicate(60)[0].splitlines()[-1])
    (built / ".complete").unlink()
    half = built.with_name(built.name + ".tmp")
    built.rename(half)
    (half / "proc").mkdir()
    subprocess.run(["mount", "-t", "proc", "proc", str(half / "proc")], check=True)
    try:
        again = start(tmp_path, "--suite", "bookworm")
        out = again.communicate(60)[0]
    finally:
        subprocess.run(["umount", "-l", str(half / "proc")], capture_output=True)
    assert again.returncode == 0, out
    assert (built / ".complete").exists() and not half.exists()
    assert str(half) not in Path("/proc/self/mounts").read_text()
