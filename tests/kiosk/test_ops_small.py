"""Smaller operator-facing fixes of issue 14, each with a check that fails when the fix is undone."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "systemd" / "install.sh"


def test_gpiozero_floor_excludes_the_release_that_opens_chip_4_on_a_pi_5():
    from packaging.requirements import Requirement

    deps = {
        Requirement(d).name: Requirement(d)
        for d in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    }
    spec = deps["gpiozero"].specifier
    # 2.0 and 2.0.1 open chip 4 on a Pi 5 without checking that it exists; 2.0.1.post3 checks
    assert not spec.contains("2.0") and not spec.contains("2.0.1")
    assert spec.contains("2.0.1.post3") and spec.contains("2.1")


def test_the_license_is_an_spdx_string_not_the_deprecated_table():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert "version" not in project and "version" in project["dynamic"]


def test_fuzzy_translations_are_not_shown():
    from kiosk.ui.kit.i18n import parse_po

    text = """
msgid ""
msgstr "Language: de\\n"

msgid "a"
msgstr "checked"

#, fuzzy
msgid "b"
msgstr "a tool's guess"

#, c-format, fuzzy
#| msgid "old"
msgid "c"
msgstr "another guess"

#: some/file.py:3
msgid "d"
msgstr "checked too"
"""
    assert parse_po(text) == {"a": "checked", "d": "checked too"}


def test_pyglet_options_set_by_the_kiosk_all_exist(monkeypatch):
    """pyglet 2.x silently accepts unknown option names; the kiosk must use only real ones."""
    pyglet = pytest.importorskip("pyglet")
    from kiosk.ui.shell import window as app

    real = {f.name for f in dataclasses.fields(pyglet.options)}
    assert "opengl_api" not in real
    set_keys: list[str] = []

    class Recorder(dict):
        def __setitem__(self, key, value):
            set_keys.append(key)

    monkeypatch.setattr(pyglet, "options", Recorder())
    for display in ("window", "fullscreen", "offscreen"):
        for api in ("auto", "gl", "gles"):
            app.prepare_pyglet(display, api)
    assert set_keys and set(set_keys) <= real, set(set_keys) - real


def test_the_install_guide_does_not_deny_cage_rotation():
    text = (ROOT / "docs" / "install.md").read_text()
    assert "no rotation option" not in text
    assert "cage -r" in text


def run_install(*args) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(INSTALL), *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize(
    "line, kept",
    [
        ("console=serial0,115200 console=tty1 root=PARTUUID=1-02 rootwait", "console=tty1 root=PARTUUID=1-02 rootwait"),
        ("console=tty1 console=ttyAMA0,115200 rootwait quiet", "console=tty1 rootwait quiet"),
        ("console=ttyS0 console=tty1", "console=tty1"),
    ],
)
def test_the_serial_console_on_the_header_uart_is_removed(tmp_path, line, kept):
    root = tmp_path / "root"
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text(line + "\n")
    done = run_install("--root", str(root), "--no-start")
    assert done.returncode == 0, done.stderr
    assert cmdline.read_text() == kept + " consoleblank=0\n"
    assert "serial console removed" in done.stdout


def test_keep_serial_console_leaves_it(tmp_path):
    root = tmp_path / "root"
    cmdline = root / "boot/firmware/cmdline.txt"
    cmdline.parent.mkdir(parents=True)
    cmdline.write_text("console=serial0,115200 console=tty1 rootwait\n")
    done = run_install("--root", str(root), "--no-start", "--keep-serial-console")
    assert done.returncode == 0, done.stderr
    assert cmdline.read_text() == "console=serial0,115200 console=tty1 rootwait consoleblank=0\n"
    assert "serial-getty" not in done.stdout
    assert re.search(r"serial console left as it is", done.stdout)
