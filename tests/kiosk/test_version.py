"""One version everywhere: package metadata, both commands' --version, the start log, the changelog."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version as dist_version
from pathlib import Path

import pytest

from kiosk.version import __version__, version

ROOT = Path(__file__).resolve().parents[2]


def command(name: str) -> list[str]:
    entry = Path(sys.executable).with_name(name)
    if not entry.exists():
        pytest.skip(f"{name} is not installed in this environment")
    return [str(entry)]


def test_the_installed_metadata_is_the_version_file():
    assert re.fullmatch(r"\d+\.\d+\.\d+", __version__)
    assert dist_version("labyrinth-kiosk") == __version__ == version()


@pytest.mark.parametrize("name", ["labyrinth-kiosk", "labyrinth-sim"])
def test_both_commands_print_their_version(name):
    done = subprocess.run(command(name) + ["--version"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{name} {__version__}"


def test_the_version_is_logged_at_start(tmp_path):
    script = tmp_path / "inputs.txt"
    script.write_text("wait 10\n")
    config = tmp_path / "config.toml"
    config.write_text("\n")
    done = subprocess.run(
        command("labyrinth-kiosk")
        + [
            "--config",
            str(config),
            "--display",
            "none",
            "--players",
            "human,random",
            "--seed",
            "1",
            "--fast",
            "--script",
            str(script),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert f"INFO kiosk: labyrinth-kiosk {__version__} starting" in done.stderr


def test_the_changelog_has_this_release_on_top():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    releases = re.findall(r"^## (\d+\.\d+\.\d+) ", text, flags=re.M)
    assert releases and releases[0] == __version__, releases
