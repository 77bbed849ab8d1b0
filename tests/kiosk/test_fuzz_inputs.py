"""Fuzzing every kind of file the kiosk reads: no damaged input may crash or stop it.

Hypothesis generates damaged saves of both games (a hostile value in any one
field of a real save: wrong types, huge and non-finite numbers, deep nesting,
impossible dates; missing fields; cut and scrambled bytes), damaged history
lines, configuration files (hostile values for every key of the documented
example, unknown sections and keys, broken TOML) and input scripts. The
properties, for each input kind:

- saves: ``Kiosk.start()`` never raises; the save is resumed (a session holds
  the game) or moved to ``corrupt/`` byte for byte, and the kiosk saves again;
- history: ``--stats`` never raises; every intact line is counted and every
  other one is skipped;
- configs: ``load`` returns a Config or raises ConfigError naming the file
  (never any other exception); ``--check-config`` says 0 exactly when the
  parts that read the config at run time accept it (the ring layout and port,
  the game set-up, the timers);
- scripts: ``parse`` returns steps or raises ScriptError naming a line that
  is itself bad, in a message of bounded length; accepted waits are bounded.

The examples are derandomized (the same every run). ``FUZZ_EXAMPLES`` sets the
examples per property (default 60, about a minute in all on 2 cores); the long
run quoted in docs/operations.md::

    FUZZ_EXAMPLES=3000 .venv/bin/python -m pytest tests/kiosk/test_fuzz_inputs.py -q
"""

from __future__ import annotations

import io
import json
import math
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.labyrinth import Game
from engine.cards import CardGame
from hardware.ring import drivers as ring_drivers
from kiosk.core import config as cfg
from kiosk.store import safeio
from kiosk.core.kiosk import KioskOptions, setup_from_config
from kiosk.games import Moment
from kiosk.store.history import GameRecord, History, print_stats
from kiosk.store.persistence import SAVE_NAME, utc_now_iso
from kiosk.core.script import MAX_WAIT_MS, ScriptError, parse, parse_line

from tests.kiosk.test_hardening import DiskKiosk

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))


class NoSync(safeio.FileOps):
    """The real file operations without fsync: durability is the crash-point tests' subject
    (tests/kiosk/store/test_crash_points.py); here it would only cost 15 ms a file."""

    def fsync(self, fd: int) -> None:
        pass


@pytest.fixture(autouse=True, scope="module")
def _no_fsync():
    saved, safeio.OPS = safeio.OPS, NoSync()
    yield
    safeio.OPS = saved


FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EXAMPLE_CONFIG = Path(__file__).resolve().parents[2] / "config.example.toml"
DEEP = "@@deep@@"


# ---------------------------------------------------------------- hostile values
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 70),
    st.integers(-(10**60), 10**60),
    st.sampled_from([2**62, -(2**63), 10**400, 10**4000]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([1e308, -0.0, 0.5, 1e-320]),
    st.text(max_size=12),
    st.sampled_from(
        [
            "",
            "human",
            "hard",
            "easy",
            "random",
            "labyrinth",
            "cards",
            "over",
            "shift",
            "move",
            "place",
            "take",
            "N1",
            "S3",
            "NES",
            "2024-05-01T12:00:00+00:00",
            "9999-12-31T23:59:59+00:00",
            "0001-01-01T00:00:00+00:00",
            "2024-05-01T12:00:00",
            "x" * 5000,
            "\x00\ud800",
            DEEP,
        ]
    ),
)
HOSTILE = st.recursive(
    SCALARS,
    lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=6), kids, max_size=4),
    max_leaves=8,
)


def encode(value: Any, depth: int) -> bytes:
    """JSON as a damaged file may hold it: NaN and Infinity allowed, DEEP replaced by deep nesting."""
    text = json.dumps(value, allow_nan=True, ensure_ascii=False, separators=(",", ":"))
    text = text.replace(json.dumps(DEEP), "[" * depth + "]" * depth)
    return text.encode("utf-8", "surrogatepass")


def paths_of(value: Any, prefix: tuple = ()) -> list[tuple]:
    """Every place in a JSON value that a damaged file could change."""
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += paths_of(v, prefix + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += paths_of(v, prefix + (i,))
    return out


def replaced(value: Any, path: tuple, new: Any, delete: bool = False) -> Any:
    if not path:
        return new
    copy = dict(value) if isinstance(value, dict) else list(value)
    head = path[0]
    if len(path) == 1 and delete and isinstance(copy, dict):
        del copy[head]
    else:
        copy[head] = replaced(copy[head], path[1:], new, delete)
    return copy


# ---------------------------------------------------------------- saves of both games
def _played(game, actions: int):
    for _ in range(actions):
        if game.phase == "over":
            break
        if isinstance(game, Game):
            game.apply(game.legal_shifts()[0] if game.phase == "shift" else game.legal_moves()[-1])
        else:
            game.apply(game.legal_actions()[0])
    return game


def base_saves() -> list[dict]:
    now = time.time()
    out = []
    for game in (
        _played(Game.new(players=3, seed=7), 9),
        _played(Game.new(players=1, seed=2), 4),
        _played(CardGame.new(players=4, seed=7), 9),
        _played(CardGame.new(players=2, seed=3), 2),
    ):
        name = "labyrinth" if isinstance(game, Game) else "cards"
        out.append(
            {
                "format": 1,
                "game": name,
                "saved_at": utc_now_iso(now - 60),
                "started_at": utc_now_iso(now - 600),
                # computer seats too: a bad seed once crashed the start only when an AI was set up
                "meta": {
                    "game_id": "f00d" + name,
                    "kinds": ["human"] + ["random"] * (game.num_players - 1),
                    "started": now - 600,
                    "setup": {"hints": None},
                },
                "state": game.to_dict(),
            }
        )
    return out


BASES = base_saves()
BASE_PATHS = [paths_of(b) for b in BASES]
#: The wrapper's fields, meta's and the state's own (seed, phase, turns...): drawn as often as all
#: the others together, which are mostly board cells and cards.
SHORT_PATHS = [[p for p in paths if len(p) <= 2] for paths in BASE_PATHS]


@st.composite
def damaged_saves(draw) -> bytes:
    k = draw(st.integers(0, len(BASES) - 1))
    base = BASES[k]
    how = draw(st.sampled_from(["value", "value", "value", "delete", "truncate", "bytes", "two values"]))
    event(f"save: {how}")
    depth = draw(st.sampled_from([3, 40, 1000, 100_000]))
    if how in ("value", "delete", "two values"):
        doc = base
        paths, short = BASE_PATHS[k], SHORT_PATHS[k]
        for _ in range(2 if how == "two values" else 1):
            if doc is not base:  # the first change may have replaced a whole branch
                paths = paths_of(doc)
                short = [p for p in paths if len(p) <= 2]
            path = draw(st.sampled_from(short) | st.sampled_from(paths))
            if how == "delete" and path and isinstance(path[-1], str):
                doc = replaced(doc, path, None, delete=True)
            else:
                doc = replaced(doc, path, draw(HOSTILE))
        return encode(doc, depth)
    raw = encode(base, depth)
    if how == "truncate":
        return raw[: draw(st.integers(0, len(raw) - 1))]
    start = draw(st.integers(0, len(raw) - 1))
    junk = draw(st.binary(min_size=1, max_size=8))
    return raw[:start] + junk + raw[start + len(junk) :]


def check_save(raw: bytes) -> str:
    """The save property; returns what happened ("resumed", "set aside", "recorded")."""
    with tempfile.TemporaryDirectory() as d:
        state = Path(d)
        (state / SAVE_NAME).write_bytes(raw)
        kiosk = DiskKiosk(cfg.Config(), KioskOptions(fast=True, ring="none", state_dir=state))
        try:
            kiosk.start()  # never raises
            running = [s for s in kiosk.sessions.values() if s.game is not None]
            corrupt = sorted((state / "corrupt").iterdir()) if (state / "corrupt").is_dir() else []
            if running:
                assert not corrupt and (state / SAVE_NAME).read_bytes() == raw
                session = running[0]
                game = session.game
                kiosk._save(session, Moment.STEP)  # and it saves again
                assert type(game).from_dict(json.loads((state / SAVE_NAME).read_bytes())["state"]) == game
                return "resumed"
            if History(state).path.exists():  # a valid finished game: recorded, removed
                assert not corrupt and not (state / SAVE_NAME).exists()
                return "recorded"
            assert len(corrupt) == 1 and corrupt[0].read_bytes() == raw, "not set aside byte for byte"
            assert not (state / SAVE_NAME).exists()
            return "set aside"
        finally:
            kiosk.close()


def test_the_undamaged_saves_resume():
    for base in BASES:
        assert check_save(encode(base, 3)) == "resumed"


#: A value of each JSON type, and the extremes of each: what "a wrong type in every field" means.
WRONG = ["x", 1.5, float("nan"), True, None, [], {}, 10**30, -1, "2090-01-01T00:00:00+00:00"]


def test_every_field_of_both_games_saves_with_every_wrong_type():
    """Systematic, not random: each field of the wrapper, of meta and of the state (one save of each
    game) holds each value of WRONG in turn, and is missing."""
    outcomes: dict[str, int] = {}
    for base, paths in ((BASES[0], SHORT_PATHS[0]), (BASES[2], SHORT_PATHS[2])):
        for path in paths:
            if not path:
                continue
            for value in WRONG + ["missing"]:
                doc = replaced(base, path, None, delete=True) if value == "missing" else replaced(base, path, value)
                if value == "missing" and not isinstance(path[-1], str):
                    continue
                what = check_save(encode(doc, 3))
                outcomes[what] = outcomes.get(what, 0) + 1
    assert outcomes.get("set aside", 0) > 100 and outcomes.get("resumed", 0) > 10, outcomes


@FUZZ
@given(damaged_saves())
def test_a_damaged_save_is_resumed_or_set_aside_never_a_crash(raw):
    event(f"save outcome: {check_save(raw)}")


# ---------------------------------------------------------------- history lines
GOOD_RECORD = GameRecord.make(
    game="labyrinth",
    seats=["human", "hard"],
    winners=[1],
    turns=40,
    duration_s=600.0,
    ended_at=1_714_564_800.0,
    game_id="abc",
)
RECORD_PATHS = paths_of(json.loads(GOOD_RECORD.to_json()))


@st.composite
def damaged_lines(draw) -> bytes:
    doc = json.loads(GOOD_RECORD.to_json())
    path = draw(st.sampled_from(RECORD_PATHS))
    if draw(st.booleans()):
        return encode(replaced(doc, path, draw(HOSTILE)), draw(st.sampled_from([2, 50, 100_000])))
    raw = GOOD_RECORD.to_json().encode()
    cut = draw(st.integers(0, len(raw)))
    return raw[:cut] + draw(st.binary(max_size=6))


@FUZZ
@given(st.lists(damaged_lines(), min_size=1, max_size=5))
def test_stats_count_every_intact_line_and_skip_the_rest(lines):
    with tempfile.TemporaryDirectory() as d:
        good = GOOD_RECORD.to_json().encode()
        Path(d, "history.jsonl").write_bytes(b"\n".join([good] + lines + [good]) + b"\n")
        out = io.StringIO()
        assert print_stats(d, out=out) == 0
        records, skipped = History(d).read()
        assert records[0] == records[-1] == GOOD_RECORD and len(records) >= 2
        assert f"Games finished: {len(records)} " in out.getvalue()
        pieces = [p for p in b"\n".join(lines).split(b"\n") if p.strip()]
        assert len(records) - 2 + skipped == len(pieces)
        for r in records:
            assert math.isfinite(r.duration_s) and 0 <= r.turns <= 10**6 and r.players == len(r.seats)


# ---------------------------------------------------------------- configuration files
def toml_value(v: Any, depth: int = 0) -> str:
    """A Python value as TOML text (what a person could type), floats incl. nan and inf."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if v is None:
        return '"none"'
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf") if math.isinf(v) else repr(v)
    if isinstance(v, str):
        if v == DEEP:
            return "[" * 3000 + "]" * 3000
        return json.dumps(v)
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x, depth + 1) for x in v) + "]"
    return "{ " + ", ".join(f"{json.dumps(k)} = {toml_value(x, depth + 1)}" for k, x in v.items()) + " }"


EXAMPLE_LINES = EXAMPLE_CONFIG.read_text().splitlines()
KEY_LINES = [i for i, line in enumerate(EXAMPLE_LINES) if re.match(r"^[a-z_]+ = ", line)]
SECTIONS = list(cfg.Config().to_raw())


@st.composite
def configs(draw) -> bytes:
    lines = list(EXAMPLE_LINES)
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.sampled_from(KEY_LINES))
        name = lines[i].split(" = ", 1)[0]
        known = {
            "led_count": st.integers(0, 3000),
            "seat_segments": st.lists(st.lists(st.integers(-2, 30), min_size=0, max_size=3), max_size=7),
            "driver": st.sampled_from(ring_drivers.names()),
            "port": st.sampled_from(["", " ", "/dev/ttyUSB0", "/dev/serial0"]),
            "offset": st.integers(-1, 3000),
        }.get(name, st.nothing())
        value = draw(st.one_of(HOSTILE, known))
        lines[i] = f"{name} = {toml_value(value)}"
    how = draw(st.sampled_from(["values", "values", "unknown key", "unknown section", "bytes"]))
    if how == "unknown key":
        lines.insert(draw(st.sampled_from(KEY_LINES)), f"{draw(st.from_regex(r'[a-z_]{1,12}', fullmatch=True))} = 1")
    elif how == "unknown section":
        lines.append(f"[{draw(st.from_regex(r'[a-z]{1,10}', fullmatch=True))}]")
    raw = "\n".join(lines).encode("utf-8", "surrogatepass")
    if how == "bytes":
        start = draw(st.integers(0, len(raw) - 1))
        junk = draw(st.binary(min_size=1, max_size=6))
        raw = raw[:start] + junk + raw[start + len(junk) :]
    return raw


def runs_with(config: cfg.Config) -> None:
    """What reads the config at run time, without hardware: it must accept every checked config."""
    from hardware.ring import _check_brightness
    from hardware.ring.layout import RingLayout

    r = config.ring
    RingLayout(r.led_count, 4, r.offset, bool(r.reverse), r.seat_segments)
    _check_brightness(r.brightness)
    if ring_drivers.needs_port(r.driver):
        assert r.port.strip(), "a serial ring with no port"
    setup_from_config(config)
    k = config.kiosk
    for seconds in (k.idle_timeout_s, k.idle_countdown_s, k.resume_within_s, k.ai_pace_ms / 1000):
        assert math.isfinite(float(seconds)) and time.time() + seconds < 2**53
    assert len(set(config.buttons.used_pins())) == len(config.buttons.used_pins())


def config_outcome(path: Path) -> str:
    """The config property for one file: refused naming the file with exit 2, or accepted and runnable."""
    out, err = io.StringIO(), io.StringIO()
    status = cfg.check_config(path, out=out, err=err)
    try:
        config = cfg.load(path)
    except cfg.ConfigError as e:
        assert status == 2 and str(e).startswith(f"{path}:") and len(str(e)) < 1000, (status, str(e))
        return "refused"
    assert status == 0
    runs_with(config)
    return "accepted"


#: Values at the edges of what a key takes, besides the wrong types.
EDGES = [
    0,
    1,
    4,
    6,
    255,
    256,
    2048,
    86_400,
    86_401,
    10**9,
    -(10**9),
    "",
    " ",
    "auto",
    "none",
    "random",
    [[0, 24]],
    [[0, 6]] * 4,
    [[0, 4]] * 6,
    [[23, 24]] * 4,
    [[0, 6], [6, 6], [12, 6], [18, 6], [0, 1]],
    {"N1": 4},
    {"rotate": 14},
]


def test_every_config_key_with_every_wrong_type_and_edge():
    """Systematic: each key holds each wrong type and edge value in turn (as TOML would give it)."""
    outcomes: dict[str, int] = {}
    defaults = cfg.Config().to_raw()
    for section, keys in defaults.items():
        for name in keys:
            for value in WRONG + EDGES:
                raw = {s: dict(k) for s, k in defaults.items()}
                raw[section][name] = value
                try:
                    config = cfg.from_raw(raw, "config.toml")
                except cfg.ConfigError as e:
                    assert str(e).startswith(f"config.toml: [{section}] ") and len(str(e)) < 1000, str(e)
                    outcomes["refused"] = outcomes.get("refused", 0) + 1
                    continue
                runs_with(config)
                outcomes["accepted"] = outcomes.get("accepted", 0) + 1
    assert outcomes["refused"] > 300 and outcomes["accepted"] > 50, outcomes


@FUZZ
@given(configs())
def test_a_damaged_config_is_refused_naming_the_file_or_runs(raw):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "config.toml"
        path.write_bytes(raw)
        event(f"config: {config_outcome(path)}")


# ---------------------------------------------------------------- scripts
WORDS = st.one_of(
    st.sampled_from(
        [
            "button",
            "wait",
            "tap",
            "stay",
            "card",
            "rotate",
            "lay",
            "take",
            "discard",
            "ready",
            "tap-px",
            "N3",
            "rotate",
            "none",
            "#",
            "0",
            "-1",
            "6",
            "7",
            "1" * 400,
            "9" * 13,
            "+5",
            "3600000",
            "3600001",
            "1e3",
            "nan",
            "\f",
            "\v",
            "\x1c",
            "\x85",
            "\u2028",
            "\r",
        ]
    ),
    st.integers(-(10**8), 10**8).map(str),
    st.text(max_size=6),
)
LINES = st.lists(WORDS, max_size=5).map(" ".join)


@FUZZ
@given(st.lists(LINES, max_size=8))
def test_a_damaged_script_is_refused_naming_a_bad_line_or_parses(lines):
    text = "\n".join(lines)
    try:
        steps = parse(text, "inputs.txt")
    except ScriptError as e:
        event("script: refused")
        message = str(e)
        assert len(message) < 600, "the error echoes too much"
        n = int(re.match(r"inputs\.txt line (\d+): ", message).group(1))
        raw = text.split("\n")[n - 1].removesuffix("\r")
        try:
            parse_line(raw, n, "inputs.txt")
        except ScriptError:
            return
        raise AssertionError(f"line {n} ({raw!r}) is fine on its own") from None
    event("script: accepted")
    for step in steps:
        assert text.split("\n")[step.line - 1].removesuffix("\r").split("#", 1)[0].strip() == step.text
        if step.verb == "wait":
            assert 0 <= step.args[0] <= MAX_WAIT_MS


# ---------------------------------------------------------------- records, operator settings, replay inputs, pending games
def _a_record_text() -> str:
    from engine.labyrinth.ai import make_ai
    from engine.records import Recorder

    game = Game.new(players=2, seed=3)
    recorder = Recorder(game, ["human", "hard"], date="2026-11-30")
    ai = make_ai("easy", seed=1)
    for _ in range(3):
        for action in ai.choose(game):
            game.apply(action)
            recorder.apply(action)
    return recorder.text()


RECORD_TEXT = _a_record_text()


def _damaged_bytes(good: bytes) -> st.SearchStrategy[bytes]:
    """A real file cut, scrambled, spliced with hostile text, or replaced by noise."""
    cut = st.integers(0, len(good)).map(lambda n: good[:n])
    flipped = st.tuples(st.integers(0, len(good) - 1), st.integers(0, 255)).map(
        lambda t: good[: t[0]] + bytes([t[1]]) + good[t[0] + 1 :]
    )
    spliced = st.tuples(
        st.integers(0, len(good)),
        st.sampled_from(
            [
                b"\xef\xbb\xbf",
                b"[" * 5000,
                b"9" * 4400,
                b"\x00",
                b"\xff\xfe",
                b'[Start "' + b"[" * 3000 + b'"]\n',
                b"\n" + b"x" * 70000 + b"\n",
                b'{"volume": 1e999}',
            ]
        ),
    ).map(lambda t: good[: t[0]] + t[1] + good[t[0] :])
    return st.one_of(cut, flipped, spliced, st.binary(max_size=300))


@FUZZ
@given(_damaged_bytes(RECORD_TEXT.encode()))
def test_a_damaged_game_record_is_continued_or_started_afresh_never_a_crash(raw):
    from engine.records import read_record

    from kiosk.store.records import CURRENT_NAME, RecordShelf

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / CURRENT_NAME).write_bytes(raw)
        final = read_record(RECORD_TEXT).final()
        recorder = RecordShelf(d).resume(final.copy(), ["human", "hard"])
        assert recorder.state == final
        (Path(d) / "records").mkdir()
        (Path(d) / "records" / f"{time.strftime('%Y-%m-%d')}_120000-labyrinth.txt").write_bytes(raw)
        import datetime

        RecordShelf(d).best_of_day(datetime.date.today())  # never raises


@FUZZ
@given(_damaged_bytes(b'{"high_contrast": true, "muted": false, "theme": "ocean", "volume": 40}'))
def test_damaged_operator_settings_are_used_or_ignored_never_a_crash(raw):
    from kiosk.store.operator_choices import KEYS, OperatorChoices, STATE_NAME

    with tempfile.TemporaryDirectory() as d:
        (Path(d) / STATE_NAME).write_bytes(raw)
        choices = OperatorChoices(d)
        assert all(KEYS[k](v) for k, v in choices.values.items())


@FUZZ
@given(_damaged_bytes(RECORD_TEXT.encode()))
def test_a_damaged_record_given_to_the_replay_tool_is_shown_or_refused_in_one_line(raw):
    from contextlib import redirect_stderr, redirect_stdout

    from kiosk.tools import replay

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "game.txt"
        path.write_bytes(raw)
        err, out = io.StringIO(), io.StringIO()
        with redirect_stderr(err), redirect_stdout(out):
            status = replay.main([str(path), "--all"])
        assert status in (0, 2)
        if status == 2:
            lines = err.getvalue().splitlines()
            assert len(lines) == 1 and lines[0].startswith("labyrinth-replay: ") and len(lines[0]) < 400, lines
        event(f"replay status {status}")


@FUZZ
@given(
    _damaged_bytes(
        b'{"time":"2026-11-30T12:00:00.000+00:00","game":"labyrinth","players":1,"seats":["human"],'
        b'"variant":[],"winners":[0],"turns":3,"duration_s":1.0,"outcome":"won","game_id":"ab"}'
    )
)
def test_a_damaged_pending_game_is_appended_or_left_never_a_crash(raw):
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "pending").mkdir()
        (Path(d) / "pending" / "00000001-ab.json").write_bytes(raw)
        h = History(d)
        left = h.flush_pending()
        records, _ = h.read()
        assert left == 0
        assert len(records) + len(list((Path(d) / "pending").iterdir())) == 1, "a pending game lost or doubled"


HOSTILE_RECORDS = {
    "nested start tag": RECORD_TEXT.replace('[Seed "3"]', '[Start "' + "[" * 30000 + "]" * 30000 + '"]'),
    "4400-digit turn number": RECORD_TEXT.replace("3. red", "9" * 4400 + ". red"),
    "a UTF-8 byte-order mark": "\ufeff" + RECORD_TEXT,
    "a 70 kB tag line": RECORD_TEXT.replace('[Seed "3"]', '[Event "' + "x" * 70000 + '"]'),
}


@pytest.mark.parametrize("case", sorted(HOSTILE_RECORDS))
def test_hostile_records_are_refused_in_one_line_by_the_kiosk_and_the_replay_tool(tmp_path, case, capsys):
    from kiosk.tools import replay
    from kiosk.store.records import CURRENT_NAME, RecordShelf

    text = HOSTILE_RECORDS[case]
    (tmp_path / CURRENT_NAME).write_text(text, encoding="utf-8")
    final = Game.new(players=2, seed=3)
    assert RecordShelf(tmp_path).resume(final.copy(), ["human", "hard"]).state == final
    status = replay.main([str(tmp_path / CURRENT_NAME), "--all"])
    err = capsys.readouterr().err.splitlines()
    if case == "a UTF-8 byte-order mark":  # an editor's mark, not damage: the record is shown
        assert status == 0 and err == []
    else:
        assert status == 2 and len(err) == 1 and len(err[0]) < 400, err


@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "directory"])
def test_the_replay_tool_refuses_what_is_not_a_file_without_waiting(tmp_path, target, capsys):
    from kiosk.tools import replay

    path = tmp_path / "game.txt"
    if target == "fifo":
        os.mkfifo(path)
    elif target == "directory":
        path.mkdir()
    else:
        path = Path(target)
    assert replay.main([str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "not a regular file" in err[0], err


@pytest.mark.parametrize("name", ["operator-settings.json", "current-game.record.txt"])
@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "huge"])
def test_state_files_that_are_fifos_devices_or_huge_neither_block_nor_fill_memory(tmp_path, name, kind):
    from kiosk.store.records import RecordShelf
    from kiosk.store.operator_choices import OperatorChoices

    path = tmp_path / name
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        with open(path, "wb") as f:
            f.truncate(2**33)  # 8 GB, sparse
    else:
        path.symlink_to("/dev/zero")
    if name == "operator-settings.json":
        assert OperatorChoices(tmp_path).values == {}
    else:
        final = Game.new(players=2, seed=3)
        assert RecordShelf(tmp_path).resume(final.copy(), ["human", "hard"]).state == final


@pytest.mark.parametrize("kind", ["fifo", "link to /dev/zero", "huge"])
def test_a_filed_record_that_is_a_fifo_device_or_huge_is_skipped_by_the_attract_replay(tmp_path, kind):
    """The attract mode reads today's records at start, before the kiosk tells systemd it is up."""
    import datetime

    from kiosk.store.records import RecordShelf

    folder = tmp_path / "records"
    folder.mkdir()
    today = datetime.date.today()
    path = folder / f"{today:%Y-%m-%d}_120000-labyrinth.txt"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "huge":
        with open(path, "wb") as f:
            f.truncate(2**33)
    else:
        path.symlink_to("/dev/zero")
    good = folder / f"{today:%Y-%m-%d}_130000-labyrinth.txt"
    good.write_text(RECORD_TEXT)
    assert RecordShelf(tmp_path).best_of_day(today) is None  # the good one is unfinished: none to replay


def _ocean_zip() -> bytes:
    import zipfile

    ocean = Path(__file__).resolve().parents[2] / "kiosk" / "themes" / "ocean"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(ocean.rglob("*")):
            if p.is_file():
                z.write(p, "ocean/" + p.relative_to(ocean).as_posix())
    return buf.getvalue()


OCEAN_ZIP = _ocean_zip()


@settings(FUZZ, max_examples=max(10, EXAMPLES // 3))
@given(
    st.lists(st.tuples(st.integers(0, len(OCEAN_ZIP) - 1), st.integers(1, 255)), min_size=1, max_size=6),
    st.integers(len(OCEAN_ZIP) // 2, len(OCEAN_ZIP)),
)
def test_a_damaged_theme_zip_is_installed_or_refused_in_lines_never_a_traceback(flips, end):
    """Bytes of a real pack's zip flipped anywhere (headers, deflate data, CRCs, the central
    directory) or cut: read_pack names problems or returns a pack; it never raises."""
    from kiosk.themes.pack import read_pack

    data = bytearray(OCEAN_ZIP[:end])
    for at, xor in flips:
        if at < len(data):
            data[at] ^= xor
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "pack.zip"
        path.write_bytes(bytes(data))
        problems, pack = read_pack(path)
    assert (pack is None) == bool(problems)
    assert all(isinstance(p, str) and "\n" not in p and len(p) < 600 for p in problems), problems
    event("refused" if problems else "installed")
