"""Seats that change hands: a person who walked away is played by the computer, a newcomer joins.

Over the real kiosk (bus, sessions, engines, save, records, history) on a state
directory: a seat handed to the computer plays its turns, is taken back by a
person, and the save, the game record and the history name who played each
turn; the last person's seat is never handed over; a computer's turn half
played is not taken over; and a headless kiosk killed with SIGKILL while the
computer plays the seat resumes exactly so, then gives the seat back on Join.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.labyrinth import Game, Shift
from engine.records import read_record
from kiosk.core.config import Config
from kiosk.core.events import ChangeSeat, GameSetup, IllegalInput, NewGame, SeatChanged
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.games import HUMAN
from kiosk.games.cards.events import ConfirmTake, HandOver, LayCard, RotateHandCard, SelectHandCard
from kiosk.games.labyrinth.events import SelectArrow, Stay
from kiosk.games.labyrinth.session import Pacing
from kiosk.store.history import History, format_summary
from kiosk.store.persistence import SAVE_NAME
from kiosk.store.records import CURRENT_NAME

from tests.games.cards.test_session import fitting
from tests.support.kiosk_pump import pump
from tests.support.registry_play import kiosk_env


class SeatKiosk(Kiosk):
    """The kiosk without arcade buttons (gpiozero's mock pins are slow to set up)."""

    def _open_buttons(self) -> None:
        self.buttons = None


@pytest.fixture
def kiosk(tmp_path):
    k = SeatKiosk(Config(), KioskOptions(fast=True, ring="none", state_dir=tmp_path))
    seen: list = []
    k.bus.subscribe_all(seen.append)
    k.seen = seen  # type: ignore[attr-defined]
    yield k
    k.close()


def run(k: Kiosk, *msgs) -> list:
    start = len(k.seen)  # type: ignore[attr-defined]
    for m in msgs:
        k.bus.post(m)
    pump(k.bus, k.clock, session=k.game_session)
    return k.seen[start:]  # type: ignore[attr-defined]


def board_turn(k: Kiosk) -> None:
    """The person to act pushes at the first arrow allowed and stays."""
    g = k.sessions["labyrinth"].running
    arrow = next(a for a in ("N1", "N3", "E1", "E3", "S1", "S3") if a != g.forbidden)
    run(k, SelectArrow(arrow), SelectArrow(arrow), Stay())


def saved(state: Path) -> dict:
    return json.loads((state / SAVE_NAME).read_text())


def test_a_seat_handed_to_the_computer_plays_and_is_taken_back_by_a_person(kiosk, tmp_path):
    run(kiosk, NewGame(GameSetup.of("human,human", seed=5)))
    session = kiosk.sessions["labyrinth"]
    board_turn(kiosk)  # Red's turn 1; Green is to act
    assert session.running.current == 1 and session.kinds == (HUMAN, HUMAN)
    out = run(kiosk, ChangeSeat(1, "easy", "away"))
    assert [e for e in out if isinstance(e, SeatChanged)] == [SeatChanged(1, "easy", HUMAN, 2, "away")]
    # the computer played Green's turn at once: Red is to act again, the save says who plays
    assert session.running.current == 0 and session.running.turns == 2
    assert session.kinds == (HUMAN, "easy")
    meta = saved(tmp_path)["meta"]
    assert meta["kinds"] == [HUMAN, "easy"] and meta["seat_changes"] == [[2, 1, "easy"]]
    # a newcomer joins at Green's corner between turns; Red plays, then Green is a person's turn
    run(kiosk, ChangeSeat(1, HUMAN, "join"))
    board_turn(kiosk)
    assert session.running.current == 1 and not session.busy and session.kinds == (HUMAN, HUMAN)
    board_turn(kiosk)  # the newcomer plays turn 4
    assert saved(tmp_path)["meta"]["seat_changes"] == [[2, 1, "easy"], [4, 1, HUMAN]]
    record = read_record((tmp_path / CURRENT_NAME).read_text())
    assert record.tags["SeatChanges"] == "2:green:easy 4:green:human"
    assert [record.played_by(t.number)[t.player] for t in record.turns] == [HUMAN, "easy", HUMAN, HUMAN]


def test_the_last_person_keeps_their_seat_and_bad_seats_are_refused(kiosk):
    run(kiosk, NewGame(GameSetup.of("human,medium", seed=5)))
    out = run(kiosk, ChangeSeat(0, "easy"), ChangeSeat(7, "easy"), ChangeSeat(1, "grand"), ChangeSeat(1, "medium"))
    codes = [e.code for e in out if isinstance(e, IllegalInput)]
    assert codes == ["last_person", "no_such_seat", "bad_seat_kind", "seat_unchanged"]
    assert kiosk.game_session.kinds == (HUMAN, "medium")
    # a person may take over the computer's seat, and then either may leave
    run(kiosk, ChangeSeat(1, HUMAN, "join"))
    assert kiosk.game_session.kinds == (HUMAN, HUMAN)
    run(kiosk, ChangeSeat(0, "hard", "away"))
    assert kiosk.game_session.kinds == ("hard", HUMAN) and kiosk.game_session.awaiting_human()


def test_a_computer_turn_half_played_is_not_taken_over(tmp_path):
    k = SeatKiosk(Config(), KioskOptions(fast=True, ring="none", state_dir=tmp_path))
    session = k.sessions["labyrinth"]
    session.pacing = Pacing()  # paced like the kiosk: the computer's steps are timers
    refusals: list[IllegalInput] = []
    k.bus.subscribe(IllegalInput, refusals.append)
    joined = []

    def on_ai_step(cmd) -> None:
        if cmd.source == "ai" and not joined:
            joined.append(cmd)
            k.bus.post(ChangeSeat(1, HUMAN, "join"))  # Join tapped after the computer chose its arrow

    k.bus.subscribe(SelectArrow, on_ai_step)
    try:
        k.bus.post(NewGame(GameSetup.of("human,easy", seed=5)))
        pump(k.bus, k.clock, session=session)
        g = session.running
        arrow = next(a for a in ("N1", "N3", "E1") if a != g.forbidden)
        k.bus.post_all([SelectArrow(arrow), SelectArrow(arrow), Stay()])
        pump(k.bus, k.clock, lambda: session.running.turns == 2, session=session)
        assert [r.code for r in refusals] == ["seat_mid_turn"]
        assert session.kinds == (HUMAN, "easy")
    finally:
        k.close()


def test_a_card_seat_changes_hands_in_its_turn(kiosk, tmp_path):
    run(kiosk, NewGame(GameSetup.of("human,human", seed=4, game="cards")))
    session = kiosk.sessions["cards"]
    g = session.running
    first = g.current
    rot, cell = fitting(g, 0)
    run(kiosk, SelectHandCard(0), *[RotateHandCard(1)] * rot, LayCard(cell))
    if session.running.current == first:  # the take phase: take nothing
        run(kiosk, ConfirmTake())
    other = 1 - first
    assert session.running.current == other and session.handover
    run(kiosk, ChangeSeat(other, "easy", "away"))  # nobody took the screen: the computer plays on
    assert session.running.current == first and session.kinds[other] == "easy"
    run(kiosk, ChangeSeat(other, HUMAN, "join"))
    assert saved(tmp_path)["meta"]["seat_changes"] == [[2, other, "easy"], [4, other, HUMAN]]
    run(kiosk, HandOver())
    assert session.visible_hand(first)


def test_the_history_and_the_statistics_count_the_seat_changes(kiosk, tmp_path):
    run(kiosk, NewGame(GameSetup.of("human,human", seed=5, turn_limit=4)))
    board_turn(kiosk)
    run(kiosk, ChangeSeat(1, "easy", "away"))
    board_turn(kiosk)  # turn 3; the computer plays turn 4: the turn limit ends the game
    assert kiosk.sessions["labyrinth"].game is None or kiosk.sessions["labyrinth"].running.phase == "over"
    (line,) = History(tmp_path).records()
    assert line.seat_changes == ((2, 1, "easy"),) and line.seats == (HUMAN, "easy") and line.score is None
    summary = History(tmp_path).summary()
    assert summary.seat_changes == 1 and summary.games_seats_changed == 1
    assert summary.by_mode == {"labyrinth": 1}
    assert "Seats changed hands: 1 time(s) in 1 game(s)" in format_summary(summary)
    record = read_record(next((tmp_path / "records").iterdir()).read_text())
    assert record.tags["SeatChanges"] == "2:green:easy"


# ---------------------------------------------------------------- SIGKILL while the computer plays the seat
def _kiosk(state: Path, script: Path, events: Path, config: Path, *extra: str) -> subprocess.Popen:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    prog = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    cmd = prog + ["--config", str(config), "--display", "none", "--fast", "--state-dir", str(state)]
    cmd += ["--script", str(script), "--events-out", str(events), "--log-level", "warning", *extra]
    return subprocess.Popen(cmd, env=kiosk_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_sigkill_while_the_computer_plays_a_seat_resumes_so_and_join_gives_it_back(tmp_path):
    state, config = tmp_path / "state", tmp_path / "config.toml"
    config.write_text('[kiosk]\nseat_level = "hard"\n')
    game = Game.new(players=2, seed=9)
    arrow = next(a for a in ("N1", "N3", "E1") if a != game.forbidden)
    game.apply(Shift(arrow, 0))
    script = tmp_path / "script.txt"
    # Green walks away before Red's turn is over; Red plays, the computer plays Green's turn; then an hour
    script.write_text(f"button {arrow}\naway 1\nbutton {arrow}\nstay\nwait 3600000\n")
    events = tmp_path / "events.jsonl"
    proc = _kiosk(state, script, events, config, "--players", "human,human", "--seed", "9")
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            done = [e for e in _events(events) if e["type"] == "turn_changed" and e["turn"] == 2]
            if done:  # Red's turn 3 began: the computer has played Green's turn 2
                break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.05)
        else:
            raise AssertionError("the computer did not play Green's turn in time")
        for _ in range(100):
            if json.loads((state / SAVE_NAME).read_text())["state"]["turns"] == 2:
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    changed = [e for e in _events(events) if e["type"] == "seat_changed"]
    assert [(e["player"], e["kind"], e["turn"]) for e in changed] == [(1, "hard", 2)]
    killed = json.loads((state / SAVE_NAME).read_text())
    assert killed["meta"]["kinds"] == [HUMAN, "hard"] and killed["meta"]["seat_changes"] == [[2, 1, "hard"]]
    # restart: the game resumes with the computer at Green's seat; a newcomer joins there
    script.write_text("join 1\n")
    again = _kiosk(state, script, tmp_path / "events2.jsonl", config)
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err.decode()
    later = _events(tmp_path / "events2.jsonl")
    started = [e for e in later if e["type"] == "game_started"]
    assert started[0]["resumed"] is True and [p["kind"] for p in started[0]["players"]] == [HUMAN, "hard"]
    assert started[0]["turns"] == killed["state"]["turns"]
    resumed = json.loads((state / SAVE_NAME).read_text())
    assert resumed["state"] == killed["state"]  # exactly where it stopped: nobody has played since
    assert resumed["meta"]["kinds"] == [HUMAN, HUMAN]
    assert resumed["meta"]["seat_changes"] == [[2, 1, "hard"], [4, 1, HUMAN]]
    record = read_record((state / CURRENT_NAME).read_text())
    assert record.tags["SeatChanges"] == "2:green:hard 4:green:human"
    assert [record.played_by(t.number)[t.player] for t in record.turns] == [HUMAN, "hard"]
