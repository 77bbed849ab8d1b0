"""journald priorities: under systemd every log line starts with its syslog ``<N>`` prefix.

The end-to-end test runs the real program with stderr on a pipe and
``JOURNAL_STREAM`` naming that pipe, as systemd does, and reads what journald
would read.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
from pathlib import Path

from kiosk.core import logs

ROOT = Path(__file__).resolve().parents[3]


def program() -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    return [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]


def run_with_stderr_pipe(args, announce: str | None) -> str:
    """Run the kiosk with stderr on a fresh pipe; `announce` is "pipe" (JOURNAL_STREAM names
    that pipe), "other" (it names another file) or None (unset)."""
    r, w = os.pipe()
    env = {k: v for k, v in os.environ.items() if k not in ("JOURNAL_STREAM", "DISPLAY", "WAYLAND_DISPLAY")}
    env["PYTHONPATH"] = str(ROOT)
    if announce == "pipe":
        st = os.fstat(w)
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    elif announce == "other":
        st = os.stat(ROOT / "pyproject.toml")
        env["JOURNAL_STREAM"] = f"{st.st_dev}:{st.st_ino}"
    try:
        proc = subprocess.Popen(
            program() + [str(a) for a in args], stdout=subprocess.DEVNULL, stderr=w, env=env, cwd=ROOT
        )
    finally:
        os.close(w)
    with os.fdopen(r, "r", encoding="utf-8") as f:
        out = f.read()
    proc.wait(timeout=60)
    return out


def test_under_systemd_a_warning_carries_priority_4(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("# defaults: the default operator PIN is warned about\n")
    out = run_with_stderr_pipe(["--check-config", "--config", config], announce="pipe")
    lines = out.splitlines()
    warning = [line for line in lines if "operator_pin is the default" in line]
    assert warning and warning[0].startswith("<4>kiosk.core.config: "), out
    assert all(line.startswith("<") for line in lines), out  # nothing lands at journald's default


def test_outside_systemd_lines_stay_plain(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("\n")
    for announce in (None, "other"):  # unset, or naming a stream that is not our stderr
        out = run_with_stderr_pipe(["--check-config", "--config", config], announce=announce)
        warning = [line for line in out.splitlines() if "operator_pin is the default" in line]
        assert warning and warning[0].startswith("WARNING kiosk.core.config: "), (announce, out)
        assert "<4>" not in out


def test_every_level_and_every_traceback_line_gets_its_priority(tmp_path):
    path = tmp_path / "stream"
    with open(path, "w+", encoding="utf-8") as stream:
        st = os.fstat(stream.fileno())
        handler = logging.StreamHandler(stream)
        assert logs.stream_is_journal(stream, {"JOURNAL_STREAM": f"{st.st_dev}:{st.st_ino}"})
        handler.setFormatter(logs.JournalFormatter(logs.JOURNAL_FORMAT))
        logger = logging.getLogger("kiosk.test_journal")
        logger.propagate = False
        logger.addHandler(handler)
        logger.setLevel(logging.DEBUG)
        try:
            logger.debug("d")
            logger.info("i")
            logger.warning("w")
            logger.error("e")
            logger.critical("c")
            try:
                raise RuntimeError("boom")
            except RuntimeError:
                logger.exception("failed")
        finally:
            logger.removeHandler(handler)
            logger.propagate = True
        stream.seek(0)
        lines = stream.read().splitlines()
    assert lines[:5] == [
        "<7>kiosk.test_journal: d",
        "<6>kiosk.test_journal: i",
        "<4>kiosk.test_journal: w",
        "<3>kiosk.test_journal: e",
        "<2>kiosk.test_journal: c",
    ]
    tb = lines[5:]
    assert tb[0] == "<3>kiosk.test_journal: failed" and tb[-1] == "<3>RuntimeError: boom"
    assert len(tb) > 3 and all(line.startswith("<3>") for line in tb)


def test_a_malformed_journal_stream_is_ignored():
    assert not logs.stream_is_journal(io.StringIO(), {"JOURNAL_STREAM": "1:2"})
    assert not logs.stream_is_journal(sys.stderr, {"JOURNAL_STREAM": "garbage"})
    assert not logs.stream_is_journal(sys.stderr, {})
