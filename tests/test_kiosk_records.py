"""The kiosk files a record of every finished game in its state directory (kiosk/game_records.py)."""

from __future__ import annotations

import json

from engine.records import read_record

from .test_headless import kiosk


def test_headless_games_of_both_kinds_leave_records_that_replay(tmp_path):
    state = tmp_path / "state"
    for game, players in (("labyrinth", "medium,easy"), ("cards", "easy,random,easy")):
        r = kiosk("--game", game, "--players", players, "--seed", 5, "--games", 2, "--fast",
                  "--state-dir", state)
        assert r.returncode == 0, r.stderr
        files = sorted((state / "records").glob(f"*-{game}*.txt"))
        assert len(files) == 2, [p.name for p in (state / "records").iterdir()]
        history = [json.loads(line) for line in (state / "history.jsonl").read_text().splitlines()]
        history = [h for h in history if h["game"] == game]
        for path, entry in zip(files, history):
            record = read_record(path.read_text())
            final = record.final()
            assert final.phase == "over" and record.levels == players.split(",")
            assert record.tags["Site"] == "kiosk"
            assert list(final.winners) == entry["winners"] and final.turns == entry["turns"]
    assert not (state / "current-game.record.txt").exists()
