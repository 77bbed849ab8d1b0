"""Statistics of the new modes: games by mode, scores (a puzzle's stars), seats that changed hands.

Counted from the history's own words -- a game and its variant words, a ``score``, the
``seat_changes`` -- so a mode another game files (a quick game, a puzzle) shows without being
named here: in ``summarize``, ``labyrinth-kiosk --stats``, the charts' numbers and the
operator's Statistics page.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from kiosk.store.history import GameRecord, History, format_summary, mode_of, summarize
from kiosk.store.persistence import utc_now_iso
from kiosk.store.stats import chart_data

ROOT = Path(__file__).resolve().parents[3]
WHEN = datetime(2026, 11, 20, 15, 0, tzinfo=timezone.utc).timestamp()


def game(name="labyrinth", variant=(), score=None, changes=(), seats=("human", "hard"), duration=600.0):
    return GameRecord.make(
        game=name,
        seats=list(seats),
        winners=[0],
        turns=20,
        duration_s=duration,
        variant=variant,
        ended_at=WHEN,
        score=score,
        seat_changes=changes,
    )


RECORDS = [
    game(),
    game(),
    game(variant=("open_cards",)),
    game(variant=("treasures_5",), duration=240.0),  # a quick game, as its engineer may name it
    game(name="puzzle", variant=("medium",), score=3, seats=("human",), duration=90.0),
    game(name="puzzle", variant=("medium",), score=3, seats=("human",), duration=60.0),
    game(name="puzzle", variant=("hard",), score=1, seats=("human",), duration=300.0),
    game(seats=("easy", "human"), changes=[(5, 0, "easy")]),
    game(name="cards", seats=("human", "human"), changes=[(3, 1, "easy"), (9, 1, "human")]),
]


def test_a_history_line_keeps_the_score_and_the_seat_changes(tmp_path):
    history = History(tmp_path)
    assert history.append_all(RECORDS)
    back, skipped = history.read()
    assert skipped == 0 and back == RECORDS
    lines = (tmp_path / "history.jsonl").read_text().splitlines()
    assert "score" not in json.loads(lines[0]) and "seat_changes" not in json.loads(lines[0])  # short lines
    assert json.loads(lines[8])["seat_changes"] == [[3, 1, "easy"], [9, 1, "human"]]
    # damage is refused line by line, not read as something else
    bad = dict(json.loads(lines[8]), seat_changes=[[3, 7, "easy"]])
    with pytest.raises(ValueError, match="seat"):
        GameRecord.from_json(bad)
    with pytest.raises(ValueError, match="score"):
        GameRecord.from_json(dict(json.loads(lines[4]), score="three"))


def test_games_are_counted_by_mode_score_and_seat_changes():
    s = summarize(RECORDS)
    assert mode_of(RECORDS[3]) == "labyrinth treasures_5"
    assert s.by_mode == {
        "cards": 1,
        "labyrinth": 3,
        "labyrinth open_cards": 1,
        "labyrinth treasures_5": 1,
        "puzzle hard": 1,
        "puzzle medium": 2,
    }
    assert s.scores == {"puzzle": {3: 2, 1: 1}}
    assert (s.seat_changes, s.games_seats_changed) == (3, 2)
    text = format_summary(s)
    assert "Games by mode: 1 cards, 3 labyrinth, 1 labyrinth open_cards, 1 labyrinth treasures_5" in text
    assert "Scores of puzzle: 3: 2 game(s), 1: 1 game(s)" in text
    assert "Seats changed hands: 3 time(s) in 2 game(s)" in text
    # a history without them says nothing of them
    plain = format_summary(summarize(RECORDS[:2]))
    assert "Scores" not in plain and "Seats changed" not in plain


def test_the_charts_show_each_mode():
    d = chart_data(RECORDS, tz=timezone.utc)
    assert d.by_mode[("labyrinth", ("treasures_5",))] == (1, 240.0)
    assert d.by_mode[("puzzle", ("medium",))] == (2, 75.0)
    assert len(d.by_mode) == 6 and d.by_game["puzzle"] == (3, 150.0)


def test_labyrinth_kiosk_stats_prints_them(tmp_path):
    History(tmp_path).append_all(RECORDS)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "kiosk", "--stats", "--state-dir", str(tmp_path)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "Games by mode:" in done.stdout and "puzzle medium" in done.stdout
    assert "Scores of puzzle: 3: 2 game(s)" in done.stdout
    assert "Seats changed hands: 3 time(s) in 2 game(s)" in done.stdout


@pytest.mark.display
def test_the_operator_statistics_page_shows_the_modes_scores_and_seat_changes(tmp_path):
    from tests.kiosk.ui.screens.test_screens import make_ui

    history = History(tmp_path)
    today = utc_now_iso(datetime.now(timezone.utc).timestamp())  # inside the charts' fortnight
    history.append_all([dataclasses.replace(r, time=today) for r in RECORDS])
    u = make_ui(size=(800, 480), layout="tabletop", first="attract")
    try:
        u.k.history = history
        u.goto("operator")
        scr = u.screen
        scr.open_page("stats")
        scr.stats_job._thread.join(30)
        u.step(0.02)
        texts = {lab.text for lab in scr._shapes if hasattr(lab, "text")}
        assert u.t("operator.seat_changes", n=3, games=2) in texts
        assert u.t("operator.scores", game="puzzle", scores="3 \u00d72, 1 \u00d71") in texts
        board = u.t("setup.board_game")
        # each mode in the chart, under its game: at 800x480 a name longer than its column is cut short
        # with an ellipsis at the body size (the statistics' words are never set smaller)
        assert board in texts
        for mode in ("+ open cards", "+ treasures 5"):
            assert any(t == mode or (t.endswith("\u2026") and mode.startswith(t[:-1]) and len(t) > 6) for t in texts), (
                mode
            )
        u.draw()
        u.screenshot(tmp_path / "stats_800x480.png")
        if os.environ.get("KIOSK_SHOTS"):
            u.screenshot(Path(os.environ["KIOSK_SHOTS"]) / "stats_modes_800x480.png")
    finally:
        u.close()
        u.k.close()
