"""The configuration file: defaults, the documented example, and every kind of mistake."""

from __future__ import annotations

import io
import logging
import re
import tomllib
from pathlib import Path

import pytest

from kiosk import games
from kiosk.core import config as cfg
from kiosk.core.config import ConfigError

EXAMPLE = Path(__file__).resolve().parents[3] / "config.example.toml"


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text)
    return path


def error_of(tmp_path: Path, text: str) -> str:
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as info:
        cfg.load(path)
    message = str(info.value)
    assert message.startswith(f"{path}: "), message
    return message


# ------------------------------------------------------------------ good files
def test_example_file_equals_the_defaults_and_lists_every_key():
    """The documented example must not drift from the code: same keys, same values."""
    loaded = cfg.load(EXAMPLE)
    assert loaded == cfg.Config(source=str(EXAMPLE))
    text = EXAMPLE.read_text()
    raw = tomllib.loads(text)
    assert raw.keys() == cfg.Config().to_raw().keys()
    # the preset's keys are shown commented out, with the default preset's values: written, they
    # would win over any preset an operator picks
    by_preset = cfg.PRESETS[cfg.DEFAULT_PRESET]
    for key, value in by_preset.items():
        assert re.search(rf"^#{key} = {value}$", text, re.M), f"#{key} = {value} missing"
    # so are the variants whose default depends on the preset
    by_variant = {v.key: v.default_for(cfg.DEFAULT_PRESET) for v in games.all_variants() if v.preset_defaults}
    for key, value in by_variant.items():
        assert re.search(rf"^#{key} = {str(value).lower()}$", text, re.M), f"#{key} = {value} missing"
    commented = {"kiosk": by_preset.keys(), "game": by_variant.keys()}
    for section, values in cfg.Config().to_raw().items():
        written = raw[section].keys() | commented.get(section, set())
        assert written == values.keys(), section


def test_the_preset_sets_the_times_a_written_value_wins(tmp_path):
    home = cfg.load(write(tmp_path, '[kiosk]\npreset = "home"\n'))
    times = ("idle_timeout_s", "continue_s", "seat_timeout_s")
    assert tuple(getattr(home.kiosk, k) for k in times) == tuple(cfg.PRESETS["home"].values())
    mixed = cfg.load(write(tmp_path, '[kiosk]\npreset = "home"\ncontinue_s = 30\n'))
    assert (mixed.kiosk.idle_timeout_s, mixed.kiosk.continue_s) == (cfg.PRESETS["home"]["idle_timeout_s"], 30)
    public = cfg.load(write(tmp_path, "[kiosk]\nidle_countdown_s = 10\n"))
    assert tuple(getattr(public.kiosk, k) for k in times) == tuple(cfg.PRESETS["public"].values())
    assert '[kiosk] preset = "museum"' in error_of(tmp_path, '[kiosk]\npreset = "museum"\n')


def test_the_preset_deals_a_walk_up_game_a_written_value_wins(tmp_path):
    """A visitor at a public kiosk gets a game that fits a visit; a family the classic deal."""
    assert cfg.load(write(tmp_path, "")).game.variants["treasures"] == 3
    assert cfg.Config().game.variants["treasures"] == 3
    assert cfg.load(write(tmp_path, '[kiosk]\npreset = "home"\n')).game.variants["treasures"] == 0
    written = cfg.load(write(tmp_path, '[kiosk]\npreset = "home"\n[game]\ntreasures = 5\n'))
    assert written.game.variants["treasures"] == 5
    # the operator's switch in the menu wins over the file, for the deal as for the times
    assert cfg.switch_preset(written, "public").game.variants["treasures"] == 3
    home = cfg.switch_preset(cfg.Config(), "home")
    assert (home.game.variants["treasures"], home.kiosk.seat_timeout_s) == (0, cfg.PRESETS["home"]["seat_timeout_s"])


def test_every_key_in_the_example_has_a_comment_above_it():
    lines = EXAMPLE.read_text().splitlines()
    for i, line in enumerate(lines):
        if re.match(r"^[a-z_]+ = ", line):
            j = i - 1
            while re.match(r"^[a-z_]+ = ", lines[j]):  # keys grouped under one comment
                j -= 1
            assert lines[j].startswith("#"), f"key without a comment: {line}"


def test_a_partial_file_keeps_defaults_for_the_rest(tmp_path):
    c = cfg.load(
        write(
            tmp_path,
            '[display]\nmode = "window"\nsize = "1280x800"\n'
            '[game]\nseats = ["human", "human", "hard"]\nlanguage = "de"\n',
        )
    )
    assert c.display.mode == "window"
    assert c.display.size == (1280, 800)
    assert c.display.layout == "tabletop"
    assert c.game.players == 3  # derived from the seats
    assert c.game.seats == ("human", "human", "hard")
    assert c.game.language == "de"
    assert c.buttons.pins == cfg.DEFAULT_PINS
    assert c.source == str(tmp_path / "config.toml")


def test_players_without_seats_gets_one_person_and_ai_opponents(tmp_path):
    c = cfg.load(write(tmp_path, "[game]\nplayers = 4\n"))
    assert c.game.seats == ("human", "medium", "medium", "medium")


def test_sections_are_frozen(tmp_path):
    c = cfg.load(EXAMPLE)
    with pytest.raises(AttributeError):
        c.display.mode = "none"  # type: ignore[misc]
    with pytest.raises(TypeError):
        c.buttons.pins["N1"] = 3  # type: ignore[index]


def test_missing_file_at_the_default_path_gives_defaults_with_a_log_line(tmp_path, monkeypatch, caplog):
    monkeypatch.setattr(cfg, "DEFAULT_PATH", tmp_path / "nowhere" / "config.toml")
    with caplog.at_level(logging.INFO, logger="kiosk.core.config"):
        c = cfg.load()
    assert c == cfg.Config()
    assert "no configuration file" in caplog.text and "defaults" in caplog.text


def test_missing_file_given_explicitly_is_an_error(tmp_path):
    with pytest.raises(ConfigError, match=r"nope\.toml: no such configuration file"):
        cfg.load(tmp_path / "nope.toml")


def test_default_operator_pin_is_warned_about(tmp_path, caplog):
    with caplog.at_level(logging.WARNING, logger="kiosk.core.config"):
        cfg.load(write(tmp_path, ""))
    assert "operator_pin is the default" in caplog.text
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="kiosk.core.config"):
        cfg.load(write(tmp_path, '[kiosk]\noperator_pin = "0417"\n'))
    assert "operator_pin" not in caplog.text


# ------------------------------------------------------------------- mistakes
@pytest.mark.parametrize(
    "text, expected",
    [
        # unknown keys and sections, with a suggestion
        ("[display]\nrotaton = 90\n", "[display] unknown key 'rotaton' (did you mean 'rotation'?)"),
        ("[buttons]\nbounce = 20\n", "[buttons] unknown key 'bounce' (did you mean 'bounce_ms'?)"),
        ("[kiosk]\nidle_timeout = 60\n", "[kiosk] unknown key 'idle_timeout' (did you mean 'idle_timeout_s'?)"),
        ('[dispaly]\nmode = "none"\n', "unknown section [dispaly] (did you mean 'display'?)"),
        # wrong types
        ('[display]\nrotation = "90"\n', '[display] rotation = "90" must be an integer, not a string'),
        ('[buttons]\nconfirm_push = "yes"\n', '[buttons] confirm_push = "yes" must be true or false, not a string'),
        ("[ring]\nbaud = 115200.0\n", "[ring] baud = 115200.0 must be an integer, not a number"),
        ("[ring]\nled_count = true\n", "[ring] led_count = true must be an integer, not a boolean"),
        ("[kiosk]\noperator_pin = 1234\n", "[kiosk] operator_pin = 1234 must be a quoted string of digits"),
        ("display = 3\n", "display must be a table [display], not an integer"),
        # impossible values
        (
            '[display]\nmode = "fulscreen"\n',
            "[display] mode = \"fulscreen\" must be one of auto, window, fullscreen, offscreen, none (did you mean 'fullscreen'?)",
        ),
        ('[display]\nsize = "1280*800"\n', '[display] size = "1280*800" must be "WIDTHxHEIGHT"'),
        ('[display]\nsize = "20x20"\n', '[display] size = "20x20" must be 64 to 8192 pixels wide and high'),
        ('[display]\nsize = "100000x800"\n', '[display] size = "100000x800" must be "WIDTHxHEIGHT"'),
        ('[display]\nsize = "64x9000"\n', 'size = "64x9000" must be 64 to 8192 pixels wide and high'),
        ("[display]\nrotation = 45\n", "[display] rotation = 45 must be one of 0, 90, 180, 270"),
        ("[buttons]\nrotate_pin = 28\n", "[buttons] rotate_pin = 28 must be 0 to 27"),
        ("[buttons]\nstay_pin = -1\n", "[buttons] stay_pin = -1 must be 0 to 27"),
        ("[buttons]\nled_pins = { N9 = 7 }\n", "[buttons] led_pins = { N9 = 7 } has an unknown entry 'N9'"),
        ("[buttons]\nled_pins = { N1 = 99 }\n", "led_pins = { N1 = 99 } entry N1 = 99 must be 0 to 27"),
        ("[buttons]\npins = { N1 = 4 }\n", "[buttons] pins = { N1 = 4 } lacks N3, N5, E1"),
        ("[buttons]\nbounce_ms = -5\n", "[buttons] bounce_ms = -5 must be 0 to 1000"),
        ('[buttons]\npin_factory = "rpi"\n', '[buttons] pin_factory = "rpi" must be one of'),
        ('[ring]\ndriver = "wledd"\n', "(did you mean 'wled'?)"),
        ("[ring]\nbrightness = 300\n", "[ring] brightness = 300 must be 0 to 255"),
        ("[ring]\noffset = 30\n", "[ring] offset = 30 must be smaller than led_count = 24"),
        ("[ring]\nseat_segments = []\n", "needs one segment per corner of the board: 4 pairs, not 0"),
        ("[ring]\nseat_segments = [[0, 6], [6, 6], [12, 6], [30, 6]]\n", "seat 3 [30, 6] lies outside the 24 LEDs"),
        ('[game]\nlanguage = "sv"\n', '[game] language = "sv" must be one of en, de, fr, it, nl, es, pt, et'),
        ("[game]\nplayers = 5\n", "[game] players = 5: the labyrinth game is for 1 to 4 players"),
        ('[game]\ngame = "cards"\nplayers = 1\n', "[game] players = 1: the cards game is for 2 to 6 players"),
        ("[game]\nplayers = 0\n", "[game] players = 0 must be at least 1"),
        ('[game]\nseats = ["human", "wizard"]\n', "seat 1 is 'wizard'"),
        ('[game]\nplayers = 3\nseats = ["human", "hard"]\n', "has 2 seats but players = 3"),
        ('[game]\nseats = ["human", "hard"]\nfirst_player = 2\n', "first_player = 2 does not exist with 2 players"),
        ('[game]\nfirst_player = "me"\n', '[game] first_player = "me" must be "random" or a seat index'),
        ("[game]\nturn_limit = -1\n", "[game] turn_limit = -1 must be at least 0"),
        ('[game]\nhints = "sometimes"\n', '[game] hints = "sometimes" must be true, false or "auto"'),
        ("[kiosk]\nidle_timeout_s = -10\n", "[kiosk] idle_timeout_s = -10 must be at least 0"),
        ("[kiosk]\nresume_within_s = -1\n", "[kiosk] resume_within_s = -1 must be at least 0"),
        ('[kiosk]\noperator_pin = "12a4"\n', '[kiosk] operator_pin = "12a4" must be a string of digits'),
        ('[kiosk]\noperator_pin = "12"\n', "must have 4 to 12 digits"),
        (
            "[kiosk]\nidle_timeout_s = 10\nidle_countdown_s = 15\n",
            "idle_timeout_s = 10 must be longer than idle_countdown_s = 15",
        ),
        ('[paths]\nstate_dir = "state"\n', '[paths] state_dir = "state" must be an absolute path'),
    ],
)
def test_mistakes_name_the_file_and_the_key(tmp_path, text, expected):
    assert expected in error_of(tmp_path, text)


def test_a_pin_used_twice_names_both_keys(tmp_path):
    pins = dict(cfg.DEFAULT_PINS, N3=22)  # 22 is E1's pin by default
    table = ", ".join(f"{k} = {v}" for k, v in pins.items())
    message = error_of(tmp_path, f"[buttons]\npins = {{ {table} }}\n")
    assert message == f"{tmp_path / 'config.toml'}: [buttons] pins.E1 = 22 is already used by pins.N3"


def test_a_pin_shared_between_a_button_and_an_led(tmp_path):
    message = error_of(tmp_path, "[buttons]\nled_pins = { S3 = 23 }\n")
    assert message.endswith("[buttons] led_pins.S3 = 23 is already used by rotate_pin")


def test_an_extra_button_on_an_arrow_pin(tmp_path):
    message = error_of(tmp_path, "[buttons]\nstay_pin = 4\n")
    assert message.endswith("[buttons] stay_pin = 4 is already used by pins.N1")


def test_the_uart_pins_are_taken_when_the_ring_uses_the_header_uart(tmp_path):
    message = error_of(tmp_path, '[ring]\ndriver = "wled"\nport = "/dev/serial0"\n[buttons]\nstay_pin = 14\n')
    assert 'stay_pin = 14 is already used by [ring] port = "/dev/serial0" (UART TX)' in message
    # without a serial ring the same pin is free
    cfg.load(write(tmp_path, "[buttons]\nstay_pin = 14\n"))


def test_an_led_for_a_missing_extra_button(tmp_path):
    message = error_of(tmp_path, '[buttons]\nrotate_pin = "none"\nled_pins = { rotate = 7 }\n')
    assert "led_pins.rotate = 7 lights a button that does not exist" in message


def test_invalid_toml_names_the_file_and_line(tmp_path):
    message = error_of(tmp_path, "[display]\nmode = fullscreen\n")
    assert "not valid TOML" in message and "line 2" in message


def test_not_utf8(tmp_path):
    path = tmp_path / "config.toml"
    path.write_bytes(b'[display]\nmode = "\xff"\n')
    with pytest.raises(ConfigError, match="not UTF-8"):
        cfg.load(path)


def test_a_directory_instead_of_a_file(tmp_path):
    with pytest.raises(ConfigError, match="is a directory"):
        cfg.load(tmp_path)


# ---------------------------------------------------------- command-line overrides
def test_overrides_from_command_line_strings():
    base = cfg.Config()
    c = cfg.apply_overrides(
        base,
        {
            "display.mode": "none",
            "display.size": "800x480",
            "game.seats": "human,hard",
            "buttons.confirm_push": "off",
            "kiosk.resume_within_s": "60",
            "paths.state_dir": Path("/tmp/state"),
            "ring.driver": None,
        },
    )
    assert c.display.mode == "none"
    assert c.display.size == (800, 480)
    assert c.game.seats == ("human", "hard") and c.game.players == 2
    assert c.buttons.confirm_push is False
    assert c.kiosk.resume_within_s == 60
    assert c.paths.state_dir == Path("/tmp/state")
    assert c.ring.driver == "none"  # None means "not given"
    assert base.display.mode == "auto"  # the original is untouched


def test_a_relative_state_dir_on_the_command_line_is_below_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cfg.apply_overrides(cfg.Config(), {"paths.state_dir": "state"}).paths.state_dir == tmp_path / "state"
    assert cfg.apply_overrides(cfg.Config(), {"paths.state_dir": Path("s2")}).paths.state_dir == tmp_path / "s2"


def test_overriding_seats_changes_the_player_count_and_keeps_first_player_valid(tmp_path):
    c = cfg.load(write(tmp_path, '[game]\nseats = ["human", "hard", "easy", "easy"]\nfirst_player = 3\n'))
    two = cfg.apply_overrides(c, {"game.seats": "hard,hard"})
    assert two.game.players == 2 and two.game.first_player is None
    four = cfg.apply_overrides(c, {"game.players": 4})
    assert four.game.seats == ("human", "medium", "medium", "medium") and four.game.first_player == 3


def test_switching_game_brings_the_player_count_into_range(tmp_path):
    c = cfg.load(write(tmp_path, "[game]\nplayers = 1\n"))
    cards = cfg.apply_overrides(c, {"game.game": "cards"})
    assert cards.game.game == "cards" and cards.game.players == 2


def test_bad_overrides_are_config_errors_naming_the_setting(tmp_path):
    c = cfg.load(write(tmp_path, ""))
    with pytest.raises(ConfigError) as info:
        cfg.apply_overrides(c, {"display.size": "big"})
    assert str(info.value).startswith(f"{tmp_path / 'config.toml'} + command line: [display] size")
    with pytest.raises(ConfigError, match="unknown setting 'display.sise' \\(did you mean 'display.size'\\?\\)"):
        cfg.apply_overrides(c, {"display.sise": "800x480"})
    with pytest.raises(ConfigError, match="players = 7"):
        cfg.apply_overrides(c, {"game.players": "7"})
    with pytest.raises(ConfigError, match="stay_pin = 4 is already used by pins.N1"):
        cfg.apply_overrides(c, {"buttons.stay_pin": "4"})


def test_overrides_round_trip_every_default():
    c = cfg.Config()
    assert cfg.apply_overrides(c, {}) == cfg.Config(source="command line")


# ------------------------------------------------------------- --check-config
def test_check_config_ok(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    assert cfg.check_config(EXAMPLE, out=out, err=err) == 0
    assert f"{EXAMPLE}: OK" in out.getvalue() and err.getvalue() == ""


def test_check_config_bad_file_exits_2_with_one_message(tmp_path):
    path = write(tmp_path, "[buttons]\nstay_pin = 4\n")
    out, err = io.StringIO(), io.StringIO()
    assert cfg.check_config(path, out=out, err=err) == 2
    assert err.getvalue() == (f"configuration error: {path}: [buttons] stay_pin = 4 is already used by pins.N1\n")
    assert out.getvalue() == ""


def test_check_config_missing_explicit_file_exits_2(tmp_path):
    err = io.StringIO()
    assert cfg.check_config(tmp_path / "missing.toml", out=io.StringIO(), err=err) == 2
    assert "missing.toml: no such configuration file" in err.getvalue()


def test_the_commented_examples_in_the_example_file_are_valid():
    """Lines like '#   led_pins = {...}' are meant to be uncommented: they must load."""
    examples = [
        line.lstrip("#").strip()
        for line in EXAMPLE.read_text().splitlines()
        if re.match(r"^#\s+(led_pins|seat_segments) = ", line)
    ]
    assert len(examples) == 2
    for line in examples:
        section = "buttons" if line.startswith("led_pins") else "ring"
        cfg.from_raw(tomllib.loads(f"[{section}]\n{line}\n"))
