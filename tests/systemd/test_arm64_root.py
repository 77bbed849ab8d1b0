"""systemd/arm64-root.sh: a root per suite (trixie by default, bookworm), and one build of a root
at a time: a second run waits for the first and reuses its root (mmdebstrap is a stand-in here)."""

from __future__ import annotations

import os
import subprocess
import time
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
