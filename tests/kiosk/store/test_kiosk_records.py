"""The kiosk files a record of every finished game in its state directory (kiosk/store/records.py)."""

from __future__ import annotations

import json

from engine.records import read_record
from kiosk.store.records import RecordShelf

from tests.kiosk.core.test_headless import kiosk


def test_headless_games_of_both_kinds_leave_records_that_replay(tmp_path):
    state = tmp_path / "state"
    for game, players in (("labyrinth", "medium,easy"), ("cards", "easy,random,easy")):
        r = kiosk("--game", game, "--players", players, "--seed", 5, "--games", 2, "--fast", "--state-dir", state)
        assert r.returncode == 0, r.stderr
        files = [p for p in RecordShelf(state).files() if f"-{game}" in p.name]
        assert len(files) == 2, [p.name for p in (state / "records").iterdir()]
        history = [json.loads(line) for line in (state / "history.jsonl").read_text().splitlines()]
        # each record is named by its game's id, as its history line says it: paired by that id (two
        # games played --fast can end in the same second, and such names sort by the id, not the end)
        by_id = {h["game_id"]: h for h in history if h["game"] == game}
        assert len(by_id) == 2
        for path in files:
            entry = by_id[path.stem.rsplit("-", 1)[1]]
            record = read_record(path.read_text())
            final = record.final()
            assert final.phase == "over" and record.levels == players.split(",")
            assert record.tags["Site"] == "kiosk"
            assert list(final.winners) == entry["winners"] and final.turns == entry["turns"]
    assert not (state / "current-game.record.txt").exists()


def test_records_ended_in_the_same_second_keep_their_order(tmp_path):
    shelf = RecordShelf(tmp_path)
    shelf.folder.mkdir(parents=True)
    names = [
        "2026-11-30_120000-labyrinth.txt",
        "2026-11-30_120000-labyrinth-2.txt",
        "2026-11-30_120000-labyrinth-10.txt",
        "2026-11-30_120001-cards.txt",
    ]
    for name in reversed(names):
        (shelf.folder / name).write_text("")
    assert [p.name for p in shelf.files()] == names
