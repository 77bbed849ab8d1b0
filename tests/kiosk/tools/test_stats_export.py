"""``labyrinth-kiosk --stats --export``: the history as CSV and JSON, through the real command line."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kiosk.store.history import GameRecord, History

ROOT = Path(__file__).resolve().parents[3]
T0 = 1_714_560_000.0  # 2024-05-01 10:40 UTC


def kiosk(*args) -> subprocess.CompletedProcess:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    cmd = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    return subprocess.run(cmd + [str(a) for a in args], capture_output=True, text=True, timeout=60, cwd=ROOT)


@pytest.fixture
def state(tmp_path) -> Path:
    d = tmp_path / "state"
    h = History(d)
    h.append(
        GameRecord.make(game="labyrinth", seats=["human", "hard"], winners=[1], turns=40, duration_s=600, ended_at=T0)
    )
    h.append(
        GameRecord.make(
            game="cards",
            seats=["human", "human", "easy"],
            winners=[0, 1],
            turns=12,
            duration_s=300.5,
            variant=["open_cards"],
            ended_at=T0 + 3600,
        )
    )
    # a line a spreadsheet would take for a formula, and a torn line (skipped)
    with open(h.path, "a", encoding="utf-8") as f:
        f.write(
            json.dumps(
                {
                    "time": "2024-05-01T13:00:00+00:00",
                    "game": '=HYPERLINK("x")',
                    "players": 1,
                    "seats": ["human"],
                    "winners": [],
                    "turns": 3,
                    "duration_s": 9,
                    "outcome": "-1+2",
                }
            )
            + "\n"
        )
        f.write('{"time": "2024-05-01T14:00')
    return d


@pytest.fixture
def config(tmp_path) -> Path:
    c = tmp_path / "config.toml"
    c.write_text("\n")
    return c


def test_csv_has_one_row_per_game_in_order(state, config, tmp_path):
    out = tmp_path / "games.csv"
    done = kiosk("--stats", "--config", config, "--state-dir", state, "--export", out)
    assert done.returncode == 0, done.stderr
    assert f"Exported 3 game(s) to {out}" in done.stdout
    assert done.stdout.startswith(f"History: {state / 'history.jsonl'}")
    raw = out.read_bytes()
    assert raw.startswith("\ufeff".encode())  # spreadsheets then read it as UTF-8
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert [r["game"] for r in rows] == ["labyrinth", "cards", '\'=HYPERLINK("x")']
    first, second, third = rows
    assert first["seats"] == "human+hard" and first["winners"] == "1" and first["winner_kinds"] == "hard"
    assert first["turns"] == "40" and float(first["duration_s"]) == 600.0
    assert first["time"].startswith("2024-05-01T10:40:00")
    assert second["winners"] == "0+1" and second["winner_kinds"] == "human+human"
    assert second["variant"] == "open_cards" and second["players"] == "3"
    assert third["outcome"] == "'-1+2" and third["winners"] == ""


def test_json_holds_the_games_and_the_summary(state, config, tmp_path):
    out = tmp_path / "games.JSON"
    done = kiosk("--stats", "--config", config, "--state-dir", state, "--export", out)
    assert done.returncode == 0, done.stderr
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["history"] == str(state / "history.jsonl")
    assert [g["turns"] for g in doc["games"]] == [40, 12, 3]
    assert doc["games"][1]["winner_kinds"] == ["human", "human"]
    assert doc["summary"]["games"] == 3 and doc["summary"]["skipped_lines"] == 1
    assert doc["summary"]["wins"] == {"hard": 1, "human": 1}  # the shared win of two people: one game won


def test_a_name_that_is_neither_csv_nor_json_is_refused(state, config, tmp_path):
    out = tmp_path / "games.xlsx"
    done = kiosk("--stats", "--config", config, "--state-dir", state, "--export", out)
    assert done.returncode == 2 and "must end in .csv or .json" in done.stderr
    assert not out.exists()


def test_an_unwritable_place_is_an_error_and_leaves_nothing(state, config, tmp_path):
    out = tmp_path / "no-such-dir" / "games.csv"
    done = kiosk("--stats", "--config", config, "--state-dir", state, "--export", out)
    assert done.returncode == 2 and f"cannot write {out}" in done.stderr


def test_export_needs_stats(config, tmp_path):
    done = kiosk("--config", config, "--export", tmp_path / "x.csv")
    assert done.returncode == 2 and "--export goes with --stats" in done.stderr


def test_an_empty_history_exports_a_header_only(config, tmp_path):
    out = tmp_path / "games.csv"
    done = kiosk("--stats", "--config", config, "--state-dir", tmp_path / "empty", "--export", out)
    assert done.returncode == 0, done.stderr
    assert out.read_text(encoding="utf-8-sig").splitlines() == [
        "time,game,players,seats,variant,winners,winner_kinds,turns,duration_s,outcome,seat_changes,score"
    ]
