"""Issue 46: hostile scripts, configs and a closed standard output give one clear line, never a traceback."""

from __future__ import annotations

import os

import pytest

from tests.kiosk.test_hardening import _root_logger_untouched  # noqa: F401 (an autouse fixture)


# ------------------------------------------------------------------ 7: one clear line, never a traceback
@pytest.mark.parametrize("line", ["wait ²", "wait --5", "wait +-5", "away ²", "join ¹", "tap ٣ 2"])
def test_7_script_numbers_are_ascii_digits_with_one_sign(line):
    from kiosk.core.script import ScriptError, parse

    with pytest.raises(ScriptError, match="line 1"):
        parse(line)


@pytest.mark.parametrize("line", ["card ²", "lay ² 0", "lay 0 --1", "take ²", "discard ¹"])
def test_7_card_script_numbers_are_ascii_digits_with_one_sign(line):
    from kiosk.core.script import ScriptError, parse

    with pytest.raises(ScriptError, match="line 1"):
        parse(line)


def test_7_a_headless_run_with_standard_output_closed_ends_cleanly(tmp_path):
    import subprocess
    import sys

    run = [sys.executable, "-m", "kiosk", "--display", "none", "--fast", "--players", "easy,easy", "--games", "1"]
    done = subprocess.run(
        run,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        preexec_fn=lambda: os.close(1),
        timeout=300,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]


@pytest.mark.parametrize(
    "text, key",
    [
        ('[ring]\ndriver = "adalight"\nport = "/dev/tty\\u0000S0"\n', "[ring] port"),
        ('[paths]\nstate_dir = "/var/lib/\\u0000x"\n', "[paths] state_dir"),
        ('[paths]\nstate_dir = "/var/lib/x\\ny"\n', "[paths] state_dir"),
    ],
)
def test_7_check_config_refuses_control_characters_in_paths_and_devices(tmp_path, capsys, text, key):
    from kiosk.tools import cli

    config = tmp_path / "config.toml"
    config.write_text(text)
    assert cli.main(["--check-config", "--config", str(config)]) == 2
    err = capsys.readouterr().err
    assert str(config) in err and key in err and "control characters" in err and "\x00" not in err
    assert cli.main(["--stats", "--config", str(config)]) == 2
    assert "Traceback" not in capsys.readouterr().err


# ------------------------------------------------------------------ 8: plain messages
def test_8_a_config_with_a_byte_order_mark_is_read(tmp_path):
    from kiosk.core.config import load

    config = tmp_path / "config.toml"
    config.write_bytes(b"\xef\xbb\xbf[kiosk]\nresume_within_s = 60\n")
    assert load(config).kiosk.resume_within_s == 60


def test_8_a_pin_with_a_nul_is_refused_without_the_raw_byte(tmp_path):
    from kiosk.core.config import ConfigError, load

    config = tmp_path / "config.toml"
    config.write_text('[kiosk]\noperator_pin = "12\\u000034"\n')
    with pytest.raises(ConfigError) as e:
        load(config)
    assert "operator_pin" in str(e.value) and "\x00" not in str(e.value) and "\\u0000" in str(e.value)


def test_8_a_date_where_a_number_belongs_is_named_plainly(tmp_path):
    from kiosk.core.config import ConfigError, load

    config = tmp_path / "config.toml"
    config.write_text("[kiosk]\nresume_within_s = 2024-01-01\n")
    with pytest.raises(ConfigError) as e:
        load(config)
    assert "resume_within_s = 2024-01-01 must be an integer, not a date" in str(e.value)
    assert "datetime" not in str(e.value)
