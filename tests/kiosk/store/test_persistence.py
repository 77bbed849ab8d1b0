"""Saving, resuming, archiving and setting aside games; the history of finished games.

The engine is real: saves hold ``Game.to_dict()`` and are loaded with
``Game.from_dict``, whose own validation decides what "breaks the rules" means.
"""

from __future__ import annotations

import json
import logging
import os
import stat
from datetime import timezone
from pathlib import Path

import pytest

from engine.labyrinth.game import Game, Move
from kiosk.store import persistence
from kiosk.store.history import GameRecord, History, format_summary, print_stats, summarize
from kiosk.store.persistence import FORMAT, SAVE_NAME, GameStore

T0 = 1_714_564_800.0  # 2024-05-01 12:00:00 UTC


class Clock:
    def __init__(self, now: float = T0):
        self.now = now

    def __call__(self) -> float:
        return self.now


def store(tmp_path: Path, clock: Clock | None = None, **kw) -> GameStore:
    return GameStore(
        tmp_path / "state", loaders={"labyrinth": Game.from_dict}, resume_within_s=600, clock=clock or Clock(), **kw
    )


def played_game(seed: int = 3, actions: int = 5) -> Game:
    """A game some actions in, so the save holds a shifted board and moved pawns."""
    g = Game.new(players=3, seed=seed)
    for i in range(actions):
        if g.phase == "shift":
            g.apply(g.legal_shifts()[(seed + i) % len(g.legal_shifts())])
        else:
            g.apply(Move(sorted(g.reachable())[-1]))
    return g


META = {"seats": ["human", "hard", "easy"], "language": "de"}


# ---------------------------------------------------------------- save/resume
def test_save_then_resume_gives_the_same_game(tmp_path):
    clock = Clock()
    s = store(tmp_path, clock)
    g = played_game()
    assert s.save("labyrinth", g.to_dict(), meta=META, started_at=T0 - 300)
    clock.now += 120
    r = store(tmp_path, clock).resume()
    assert r is not None
    assert r.game == "labyrinth" and r.state == g and r.state.to_dict() == g.to_dict()
    assert r.meta == META
    assert r.started_at == pytest.approx(T0 - 300) and r.saved_at == pytest.approx(T0)
    assert r.age_s == pytest.approx(120)


def test_the_save_file_is_the_documented_wrapper(tmp_path):
    s = store(tmp_path)
    g = played_game()
    s.save("labyrinth", g.to_dict(), meta=META, started_at=T0 - 60)
    wrapper = json.loads(s.save_path.read_text())
    assert wrapper["format"] == FORMAT == 1
    assert wrapper["game"] == "labyrinth"
    assert wrapper["saved_at"] == "2024-05-01T12:00:00.000+00:00"
    assert wrapper["started_at"] == "2024-05-01T11:59:00.000+00:00"
    assert wrapper["meta"] == META
    assert Game.from_dict(wrapper["state"]) == g
    assert sorted(p.name for p in s.state_dir.iterdir()) == [SAVE_NAME]  # no temporaries left


def test_every_save_replaces_the_previous_one(tmp_path):
    s = store(tmp_path)
    g = Game.new(players=2, seed=9)
    for _ in range(6):
        g.apply(g.legal_shifts()[0]) if g.phase == "shift" else g.apply(Move(g.player.position))
        assert s.save("labyrinth", g.to_dict())
        assert Game.from_dict(json.loads(s.save_path.read_text())["state"]) == g
    assert store(tmp_path).resume().state == g


def test_no_save_means_start_fresh(tmp_path):
    s = store(tmp_path)
    assert s.resume() is None and s.last_setaside is None


# ------------------------------------------------------------------ atomicity
def test_a_crash_between_write_and_rename_keeps_the_old_save(tmp_path, monkeypatch):
    s = store(tmp_path)
    old = played_game(actions=2)
    s.save("labyrinth", old.to_dict(), meta=META)
    before = s.save_path.read_bytes()

    def power_cut(src, dst):
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(persistence.os, "replace", power_cut)
    assert s.save("labyrinth", played_game(actions=4).to_dict(), meta=META) is False
    monkeypatch.undo()

    assert s.save_path.read_bytes() == before
    assert [p.name for p in s.state_dir.iterdir()] == [SAVE_NAME]  # temporary removed
    assert store(tmp_path).resume().state == old


def test_a_crash_during_fsync_keeps_the_old_save(tmp_path, monkeypatch):
    s = store(tmp_path)
    old = played_game(actions=2)
    s.save("labyrinth", old.to_dict())

    def failing_fsync(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(persistence.os, "fsync", failing_fsync)
    assert s.save("labyrinth", played_game(actions=6).to_dict()) is False
    monkeypatch.undo()
    assert store(tmp_path).resume().state == old


def test_a_temporary_file_left_by_a_killed_process_is_ignored_and_removed(tmp_path):
    s = store(tmp_path)
    g = played_game()
    s.save("labyrinth", g.to_dict())
    stale = s.state_dir / f".{SAVE_NAME}.abc123.tmp"
    stale.write_bytes(b'{"format": 1, "game": "labyr')  # what SIGKILL mid-write leaves
    r = store(tmp_path).resume()
    assert r.state == g
    assert not stale.exists()


def test_save_syncs_file_and_directory(tmp_path, monkeypatch):
    """The data is fsynced before the rename and the directory after it."""
    calls = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", stat.S_ISDIR(os.fstat(fd).st_mode)))
        real_fsync(fd)

    def replace(a, b):
        calls.append(("replace", None))
        real_replace(a, b)

    monkeypatch.setattr(persistence.os, "fsync", fsync)
    monkeypatch.setattr(persistence.os, "replace", replace)
    store(tmp_path).save("labyrinth", played_game().to_dict())
    assert calls == [("fsync", False), ("replace", None), ("fsync", True)]


def test_an_unwritable_state_dir_does_not_stop_the_game(tmp_path, caplog):
    blocker = tmp_path / "state"
    blocker.write_text("a file where the directory should be")
    s = store(tmp_path)
    with caplog.at_level(logging.ERROR, logger="kiosk.store.persistence"):
        assert s.save("labyrinth", played_game().to_dict()) is False
    assert "could not save the game" in caplog.text
    assert s.resume() is None  # and starting up there does not raise either


def test_a_state_that_is_not_json_is_a_programming_error(tmp_path):
    with pytest.raises(TypeError):
        store(tmp_path).save("labyrinth", {"board": object()})


def test_only_the_state_dir_is_written(tmp_path):
    """A read-only root with a writable state mount: nothing outside state_dir is touched."""
    root = tmp_path / "root"
    root.mkdir()
    state = root / "state"
    state.mkdir()
    root.chmod(0o555)
    try:
        s = GameStore(state, loaders={"labyrinth": Game.from_dict}, resume_within_s=0, clock=Clock())
        assert s.save("labyrinth", played_game().to_dict())
        s.clock.now += 10
        assert s.resume() is None  # too old: archived inside state_dir
        assert (state / "archive").is_dir()
        assert sorted(p.name for p in root.iterdir()) == ["state"]
    finally:
        root.chmod(0o755)


# ------------------------------------------------------------------ old saves
def test_an_old_save_is_archived_and_not_resumed(tmp_path, caplog):
    clock = Clock()
    s = store(tmp_path, clock)
    s.save("labyrinth", played_game().to_dict())
    clock.now += 601
    with caplog.at_level(logging.INFO, logger="kiosk.store.persistence"):
        assert s.resume() is None
    assert s.last_setaside.reason == "old"
    archived = list((s.state_dir / "archive").iterdir())
    assert archived == [s.last_setaside.moved_to]
    assert archived[0].name == "000001-20240501T121001.000000Z-labyrinth.json"  # sequence first: the clock may be wrong
    assert json.loads(archived[0].read_text())["game"] == "labyrinth"
    assert not s.save_path.exists()
    assert "archived" in caplog.text


def test_a_save_from_the_future_is_resumed(tmp_path):
    """No RTC: before NTP the clock may be behind the save. That save is recent."""
    clock = Clock()
    s = store(tmp_path, clock)
    g = played_game()
    s.save("labyrinth", g.to_dict())
    clock.now -= 3 * 3600
    r = s.resume()
    assert r.state == g and r.age_s == 0


def test_the_archive_is_bounded(tmp_path):
    clock = Clock()
    s = store(tmp_path, clock, archive_keep=5)
    names = []
    for i in range(8):
        s.save("labyrinth", played_game(seed=i).to_dict())
        clock.now += 1000
        assert s.resume() is None
        names.append(s.last_setaside.moved_to.name)
    kept = sorted(p.name for p in (s.state_dir / "archive").iterdir())
    assert kept == names[-5:]


def test_archive_of_an_abandoned_game(tmp_path):
    s = store(tmp_path)
    assert s.archive() is None  # nothing to archive
    s.save("labyrinth", played_game().to_dict())
    moved = s.archive("abandoned")
    assert moved.parent.name == "archive" and moved.name.endswith("-abandoned.json")
    assert not s.save_path.exists()


def test_discard_after_a_finished_game(tmp_path):
    s = store(tmp_path)
    s.discard()  # nothing there: fine
    s.save("labyrinth", played_game().to_dict())
    s.discard()
    assert not s.save_path.exists() and s.resume() is None


# --------------------------------------------------------------- corrupt saves
def good_wrapper() -> dict:
    return {
        "format": 1,
        "game": "labyrinth",
        "saved_at": "2024-05-01T11:59:00.000+00:00",
        "started_at": "2024-05-01T11:50:00.000+00:00",
        "meta": META,
        "state": played_game().to_dict(),
    }


def _broken_state() -> bytes:
    w = good_wrapper()
    w["state"]["players"][0]["position"] = [9, 9]  # a pawn off the board
    return json.dumps(w).encode()


def _duplicate_treasure() -> bytes:
    w = good_wrapper()
    cell = next(i for i, (_, t) in enumerate(w["state"]["board"]) if t)
    w["state"]["spare"][1] = w["state"]["board"][cell][1]  # the same treasure twice
    return json.dumps(w).encode()


def _with(**changes) -> bytes:
    w = good_wrapper()
    for k, v in changes.items():
        if v is KeyError:
            del w[k]
        else:
            w[k] = v
    return json.dumps(w).encode()


CORRUPT = {
    "empty": (b"", "empty file"),
    "truncated": (json.dumps(good_wrapper()).encode()[:500], "truncated"),
    "invalid-json": (b'{"format": 1, "game": "labyrinth",, }', "invalid JSON"),
    "not-utf8": (b'{"format": 1, "game": "\xff\xfe"}', "not UTF-8"),
    "not-a-save": (b"[1, 2, 3]", "not a saved game"),
    "wrong-version": (_with(format=2), "format version 2, this kiosk reads 1"),
    "no-version": (_with(format=KeyError), "format version None"),
    "unknown-game": (_with(game="chess"), "unknown game 'chess'"),
    "bad-time": (_with(saved_at="yesterday"), "bad time stamp"),
    "naive-time": (_with(saved_at="2024-05-01T11:59:00"), "has no time zone"),
    "bad-meta": (_with(meta=[1]), "meta must be an object"),
    "bad-state": (_with(state="board"), "state must be an object"),
    "rule-breaking-pawn": (_broken_state(), "breaks the rules"),
    "rule-breaking-treasure": (_duplicate_treasure(), "breaks the rules"),
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_a_corrupt_save_is_moved_aside_and_the_kiosk_starts_fresh(tmp_path, caplog, kind):
    data, why = CORRUPT[kind]
    s = store(tmp_path)
    s.state_dir.mkdir(parents=True)
    s.save_path.write_bytes(data)
    with caplog.at_level(logging.WARNING, logger="kiosk.store.persistence"):
        assert s.resume() is None
    assert s.last_setaside.reason == "corrupt"
    assert why in s.last_setaside.detail
    moved = s.last_setaside.moved_to
    assert moved.parent == s.state_dir / "corrupt"
    assert moved.read_bytes() == data  # kept byte for byte, for a post-mortem
    assert not s.save_path.exists()
    assert "unusable" in caplog.text and why in caplog.text
    # and the next start is clean: no crash loop
    assert s.resume() is None and s.last_setaside is None
    assert s.save("labyrinth", played_game().to_dict())


def test_an_unreadable_save_is_moved_aside(tmp_path):
    if os.geteuid() == 0:
        pytest.skip("root reads files whatever their mode")
    s = store(tmp_path)
    s.save("labyrinth", played_game().to_dict())
    s.save_path.chmod(0)
    assert s.resume() is None
    assert "unreadable" in s.last_setaside.detail


def test_an_unreadable_save_as_root_via_a_directory(tmp_path):
    """A directory where the save should be cannot be read as a file (also as root)."""
    s = store(tmp_path)
    s.save_path.mkdir(parents=True)
    assert s.resume() is None
    assert s.last_setaside.reason == "corrupt" and "a directory, not a regular file" in s.last_setaside.detail
    assert s.last_setaside.moved_to.is_dir()


def test_a_loader_that_crashes_unexpectedly_still_means_corrupt(tmp_path):
    def loader(state):
        raise KeyError("phase")

    s = GameStore(tmp_path, loaders={"labyrinth": loader}, clock=Clock())
    s.save("labyrinth", {"anything": 1})
    assert s.resume() is None and "KeyError" in s.last_setaside.detail


def test_the_corrupt_folder_is_bounded(tmp_path):
    clock = Clock()
    s = store(tmp_path, clock, corrupt_keep=3)
    for _ in range(6):
        s.state_dir.mkdir(parents=True, exist_ok=True)
        s.save_path.write_bytes(b"{")
        clock.now += 1
        s.resume()
    assert len(list((s.state_dir / "corrupt").iterdir())) == 3


# --------------------------------------------------------------------- history
def rec(hour: float, seats, winners, turns, duration, game="labyrinth", variant=()):
    return GameRecord.make(
        game=game,
        seats=seats,
        winners=winners,
        turns=turns,
        duration_s=duration,
        variant=variant,
        ended_at=T0 + hour * 3600,
    )


def test_history_appends_one_json_line_per_game(tmp_path):
    h = History(tmp_path)
    a = rec(0, ["human", "hard"], [1], 40, 600.0)
    b = rec(1, ["human", "human", "easy"], [0], 31, 420.5, variant=("open_cards",))
    assert h.append(a) and h.append(b)
    lines = h.path.read_text().splitlines()
    assert len(lines) == 2
    first = json.loads(lines[0])
    assert first == {
        "time": "2024-05-01T12:00:00.000+00:00",
        "game": "labyrinth",
        "players": 2,
        "seats": ["human", "hard"],
        "variant": [],
        "winners": [1],
        "turns": 40,
        "duration_s": 600.0,
        "outcome": "won",
    }
    assert h.read() == ([a, b], 0)


def test_history_survives_a_torn_last_line(tmp_path):
    h = History(tmp_path)
    a = rec(0, ["human", "hard"], [1], 40, 600.0)
    h.append(a)
    with open(h.path, "ab") as f:
        f.write(b'{"time":"2024-05-01T13:00:00.000+00:00","game":"laby')  # power cut
    assert h.read() == ([a], 1)
    b = rec(2, ["easy", "medium"], [0], 25, 300.0)
    assert h.append(b)
    assert h.read() == ([a, b], 1)  # the new record is whole, only the torn one is lost
    assert h.path.read_bytes().endswith(b"\n")


def test_history_skips_garbled_lines(tmp_path):
    h = History(tmp_path)
    h.path.write_text(
        'not json\n{"time": "x"}\n[1]\n'
        '{"time":"2024-05-01T12:00:00+00:00","game":"labyrinth","seats":["human"],'
        '"winners":[3],"turns":1,"duration_s":1}\n'
    )
    assert h.read() == ([], 4)
    assert "No finished games yet. (4 unreadable line(s) skipped)" == format_summary(h.summary())


def test_summary_counts_each_game_once_however_many_share_its_win(tmp_path):
    """Five games, ties among them: the people and the computers are each counted once per game
    they won or shared (the operator page once showed "humans 1, computers 6" for five games)."""
    records = [
        rec(0, ["hard", "medium", "easy"], [0, 1, 2], 60, 100.0),  # three computers tie at the turn limit
        rec(1, ["hard", "hard"], [0, 1], 60, 100.0),  # two of one level tie
        rec(2, ["human", "hard"], [0, 1], 60, 100.0),  # a person and a computer share it
        rec(3, ["human", "human"], [0, 1], 60, 100.0, game="cards"),  # two people share it
        rec(4, ["human", "easy"], [1], 30, 100.0),
    ]
    s = summarize(records)
    assert s.games == 5
    assert s.computer_wins == 4  # games 0, 1, 2 and 4: never more than the games played
    assert s.wins == {"hard": 3, "medium": 1, "easy": 2, "human": 2}
    assert s.wins["human"] + s.computer_wins - 1 == s.games  # game 2 counts for both sides, once each


def test_summary_counts_wins_per_ai_level_and_humans(tmp_path):
    h = History(tmp_path)
    for r in [
        rec(0, ["human", "hard"], [1], 40, 600.0),
        rec(1, ["human", "hard"], [0], 50, 900.0),
        rec(2, ["human", "easy", "easy"], [0], 30, 300.0),
        rec(26, ["hard", "medium"], [0], 20, 120.0),
        rec(27, ["human", "human", "random", "hard"], [], 10, 60.0),  # turn limit
        rec(28, ["human", "human", "hard"], [0, 1], 12, 240.0, game="cards"),  # shared win
    ]:
        h.append(r)
    s = h.summary(tz=timezone.utc)
    assert s.games == 6
    assert s.by_game == {"labyrinth": 5, "cards": 1}
    assert s.wins == {"hard": 2, "human": 3}  # the shared win of two people is one game won
    assert s.computer_wins == 2
    assert s.played_by == {"human": 5, "hard": 5, "easy": 1, "medium": 1, "random": 1}
    assert s.no_winner == 1
    assert s.mean_turns == pytest.approx(162 / 6)
    assert s.mean_duration_s == pytest.approx(2220 / 6)
    assert s.per_day == {"2024-05-01": 3, "2024-05-02": 3}
    text = format_summary(s)
    assert "Games finished: 6 (1 cards, 5 labyrinth)" in text
    assert "humans     won     3 of     5 games played" in text
    assert "AI hard    won     2 of     5 games played" in text
    assert "Mean turns: 27.0   mean duration: 6 min 10 s" in text


def test_summary_of_no_history(tmp_path):
    assert summarize([]).games == 0
    assert History(tmp_path / "missing").summary().games == 0


def test_print_stats_for_the_command_line(tmp_path, capsys):
    History(tmp_path).append(rec(0, ["human", "hard"], [1], 40, 600.0))
    assert print_stats(tmp_path) == 0
    assert "Games finished: 1 (1 labyrinth)" in capsys.readouterr().out


def test_history_append_reports_a_disk_problem(tmp_path, caplog):
    (tmp_path / "state").write_text("not a directory")
    h = History(tmp_path / "state")
    with caplog.at_level(logging.ERROR, logger="kiosk.store.history"):
        assert h.append(rec(0, ["human"], [0], 9, 60.0)) is False
    assert "could not append" in caplog.text
