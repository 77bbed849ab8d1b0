"""Undo at the table: a person takes their push, walk or card back until the next player acts.

Over the real bus, sessions and engines: the state after an undo is exactly the
state before the action (engine to_dict), the save and the game record follow
it, an undo never reaches into another player's turn, a computer waits before
its first step so the person has time, and a kiosk killed with SIGKILL after an
undo resumes the undone game exactly (a real headless kiosk in a subprocess).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from engine.labyrinth import Game, Move, Shift
from engine.cards import CardGame
from engine.records import Recorder, read_record
from kiosk.games import Moment
from kiosk.core.events import IllegalInput, Undo, UndoChanged
from kiosk.store.records import CURRENT_NAME, RecordShelf, Recording
from kiosk.games.cards.events import CardLaid, ConfirmTake, HandOver, LayCard, SelectHandCard
from kiosk.games.labyrinth.events import AIDecided, SelectArrow, Stay, TapCell
from kiosk.games.labyrinth.session import Pacing
from kiosk.store.persistence import SAVE_NAME

from tests.games.cards import test_session as cards
from tests.games.labyrinth import test_session as board
from tests.support.registry_play import kiosk_env


def walk_cell(game: Game) -> tuple[int, int]:
    """A cell the current player can walk to that is not where the pawn stands."""
    here = game.player.position
    return sorted(c for c in game.reachable() if c != here)[0]


def walkable(game: Game) -> str:
    """An arrow (spare unturned) after which the current player can walk somewhere."""
    for arrow in ("N1", "N3", "N5", "E1", "E3", "E5", "S1", "S3", "S5", "W1", "W3", "W5"):
        trial = game.copy()
        if arrow == trial.forbidden:
            continue
        trial.apply(Shift(arrow, 0))
        if len(trial.reachable()) > 1:
            return arrow
    raise AssertionError("no push opens a walk")


def saving_rig(rig_cls, tmp_path: Path, **kw):
    """A rig whose session saves into a list and keeps a game record, as the kiosk's save hook does."""
    saves: list[tuple[Moment, dict]] = []
    recording = Recording(RecordShelf(tmp_path))

    def save(session, moment):
        saves.append((moment, session.game.to_dict()))
        game = session.game
        if moment == Moment.BEGIN:
            recording.begin(game.copy(), list(session.kinds))
        elif moment == Moment.UNDO:
            recording.take_back(game.copy())
        elif moment == Moment.END:
            recording.end(game)
        else:
            recording.step(game)

    return rig_cls(save=save, **kw), saves, recording


# ---------------------------------------------------------------- the board game
def test_a_push_is_taken_back_exactly_and_the_spare_can_go_in_elsewhere(tmp_path):
    rig, saves, recording = saving_rig(board.Rig, tmp_path)
    try:
        game = board.start(rig, "human,human", seed=7)
        before = game.to_dict()
        out = rig.post(SelectArrow("N1"), SelectArrow("N1"))
        assert game.phase == "move" and [e for e in out if isinstance(e, UndoChanged)] == [UndoChanged(0, True)]
        out = rig.post(Undo(0))
        assert rig.session.game.to_dict() == before  # the whole game as before the push
        assert [e.type for e in out][:3] == ["undo", "action_undone", "undo_changed"]
        assert out[2] == UndoChanged(0, False) and rig.session.undo_player is None
        assert saves[-1] == (Moment.UNDO, before)  # a restart now resumes the undone game
        assert recording.recorder.state == rig.session.game and not recording.recorder._pending
        rig.post(SelectArrow("W3"), SelectArrow("W3"))  # the spare goes in elsewhere
        expected = Game.new(players=2, seed=7)
        expected.apply(Shift("W3", 0))
        assert rig.session.game == expected
    finally:
        rig.close()


def test_a_walk_is_taken_back_until_the_next_person_acts_then_the_push(tmp_path):
    rig, saves, recording = saving_rig(board.Rig, tmp_path)
    try:
        game = board.start(rig, "human,human", seed=3)
        start = game.to_dict()
        arrow = walkable(game)
        rig.post(SelectArrow(arrow), SelectArrow(arrow))
        pushed = rig.session.game.to_dict()
        cell = walk_cell(rig.session.game)
        rig.post(TapCell(cell))
        assert rig.session.game.current == 1 and rig.session.undo_player == 0
        assert len(recording.recorder.turns) == 1
        rig.post(Undo(1))  # the next person cannot take someone else's walk back
        assert rig.of(IllegalInput)[-1].code == "not_your_undo" and rig.session.game.current == 1
        rig.post(Undo(0))
        assert rig.session.game.to_dict() == pushed and rig.session.game.phase == "move"
        assert rig.session.undo_player == 0  # the push can still go back
        assert recording.recorder.turns == [] and recording.recorder.state == rig.session.game
        assert "1." not in (tmp_path / CURRENT_NAME).read_text()  # the record file kept no undone turn
        rig.post(Undo())
        assert rig.session.game.to_dict() == start and rig.session.undo_player is None
        rig.post(Undo())
        assert rig.of(IllegalInput)[-1].code == "nothing_to_undo"
        # play on: once the next person acts, the walk is final
        rig.post(SelectArrow(arrow), SelectArrow(arrow), TapCell(cell))
        rig.post(SelectArrow(next(a for a in ("N1", "N3") if a != rig.session.game.forbidden)))  # player 1 acts
        assert rig.session.undo_player is None
        assert [e for e in rig.seen if isinstance(e, UndoChanged)][-1] == UndoChanged(0, False)
        rig.post(Undo(0))
        assert rig.of(IllegalInput)[-1].code == "nothing_to_undo" and rig.session.game.current == 1
        recorded = read_record((tmp_path / CURRENT_NAME).read_text())
        assert [t.actions for t in recorded.turns] == [(Shift(arrow, 0), Move(cell))]
    finally:
        rig.close()


def test_the_arrow_button_that_just_pushed_takes_the_push_back_before_the_walk(tmp_path):
    """The 12 arcade buttons are arrows: pressed again (not at once: a hand still on it) before the walk,
    the arrow that pushed takes the push back; any other arrow, or after the walk, does not."""
    from kiosk.core.events import ButtonPressed
    from kiosk.games.labyrinth.session import BUTTON_UNDO_AFTER_S

    rig, _saves, _recording = saving_rig(board.Rig, tmp_path)

    def press(name):
        return rig.post(ButtonPressed(name))

    try:
        game = board.start(rig, "human,human", seed=3)
        start = game.to_dict()
        arrow = walkable(game)
        press(arrow)
        press(arrow)  # previewed, then pushed
        pushed = rig.session.game.to_dict()
        assert rig.session.game.phase == "move" and rig.session.undo_player == 0
        press(arrow)  # at once: the same hand still hammering, nothing is taken back
        assert rig.session.game.to_dict() == pushed
        rig.clock.advance(BUTTON_UNDO_AFTER_S)
        other = next(a for a in ("N1", "N3", "W1") if a != arrow)
        press(other)  # another arrow in the move phase: refused as before, the push stays
        assert rig.session.game.to_dict() == pushed and rig.of(IllegalInput)[-1].code
        out = press(arrow)
        assert rig.session.game.to_dict() == start and rig.session.undo_player is None
        assert any(e.type == "action_undone" for e in out)
        # pushed again and walked: the walk is not taken back by an arrow (the next player's arrows are theirs)
        press(arrow)
        press(arrow)
        rig.post(TapCell(walk_cell(rig.session.game)))
        walked = rig.session.game.to_dict()
        assert rig.session.game.current == 1 and rig.session.undo_player == 0
        rig.clock.advance(BUTTON_UNDO_AFTER_S)
        assert rig.session.button(arrow) == SelectArrow(arrow, source="button")
        assert rig.session.game.to_dict() == walked
    finally:
        rig.close()


def test_the_computer_waits_before_its_first_step_and_an_undo_cancels_its_turn():
    rig = board.Rig(pacing=Pacing())
    try:
        arrow = walkable(board.start(rig, "human,easy", seed=5))
        rig.post(SelectArrow(arrow), SelectArrow(arrow))
        pushed = rig.session.game.to_dict()
        cell = walk_cell(rig.session.game)
        walked_at = rig.clock.now()
        rig.bus.post(TapCell(cell))
        rig.run(until=lambda: bool(rig.of(AIDecided)))  # the computer has its answer ...
        assert rig.session.game.current == 1
        rig.clock.advance_to(walked_at + Pacing().undo - 0.05)
        rig.run(until=lambda: not rig.bus.pending() and rig.clock.now() >= walked_at + Pacing().undo - 0.05)
        ai_steps = [e for e in rig.seen if getattr(e, "source", "") == "ai"]
        assert ai_steps == [] and rig.session.game.phase == "shift"  # ... but has not played it yet
        rig.post(Undo(0))
        assert rig.session.game.to_dict() == pushed and rig.session.game.current == 0
        rig.clock.advance(30)
        rig.run()
        assert [e for e in rig.seen if getattr(e, "source", "") == "ai"] == []  # its turn was dropped
        assert rig.session.game.current == 0 and rig.session.game.phase == "move"
        # walk again and let the computer play: then the walk is final
        rig.post(TapCell(cell))
        rig.run(until=lambda: rig.session.game.current == 0)
        assert rig.session.undo_player is None
        rig.post(Undo(0))
        assert rig.of(IllegalInput)[-1].code == "nothing_to_undo"
    finally:
        rig.close()


def test_a_computer_never_takes_back_and_a_stopped_game_cannot_be_undone():
    rig = board.Rig()
    try:
        board.start(rig, "human,human", seed=2)
        rig.post(SelectArrow("S5"), SelectArrow("S5"))
        rig.post(Undo(source="ai"))
        assert rig.of(IllegalInput)[-1].code == "not_your_undo" and rig.session.game.phase == "move"
        rig.post(Stay())
        assert rig.session.undo_player == 0
        rig.session.abandon("test")
        rig.run()
        assert rig.of(UndoChanged)[-1] == UndoChanged(0, False)  # the Undo button goes with the game
        refused = len(rig.of(IllegalInput))
        out = rig.post(Undo(0))  # no game: the session of the game being played (none here) answers
        assert rig.session.game is None and [e.type for e in out] == ["undo"] and len(rig.of(IllegalInput)) == refused
    finally:
        rig.close()


def test_the_recorder_takes_back_only_positions_it_passed_through():
    game = Game.new(players=2, seed=4)
    rec = Recorder(game, ["human", "human"])
    start = game.copy()
    for action in (Shift("N1", 0), Move(game.players[0].position)):
        game.apply(action)
        rec.apply(action)
    after_shift = start.copy()
    after_shift.apply(Shift("N1", 0))
    assert rec.take_back(after_shift) and rec.turns == [] and rec.state == after_shift
    other = Game.new(players=2, seed=5)
    text = rec.text()
    assert not rec.take_back(other) and rec.text() == text and rec.state == after_shift  # unchanged
    assert rec.take_back(start) and rec.state == start


# ---------------------------------------------------------------- the card game
def test_a_laid_card_is_taken_back_with_the_hand_and_pile_as_they_were(tmp_path):
    rig, saves, recording = saving_rig(cards.Rig, tmp_path)
    try:
        game = cards.start(rig, "human,human", seed=4)
        before = game.to_dict()
        cards.lay(rig, 0)
        laid = rig.of(CardLaid)[-1]
        assert rig.session.undo_player == 0
        if rig.session.game.phase == "take":  # the lay joined treasures: the take is still to come
            rig.post(ConfirmTake())
        assert rig.session.game.current == 1 and rig.session.handover
        rig.post(Undo(0))
        if rig.session.game.phase == "take":
            rig.post(Undo(0))
        g = rig.session.game
        assert g.to_dict() == before and laid.cell not in g.layout
        assert rig.session.visible_hand(0) == tuple(g.hands[0]) and not rig.session.handover
        assert saves[-1] == (Moment.UNDO, before)
        assert recording.recorder.turns == [] and recording.recorder.state == g
        # laid again and handed over: the next person has the screen, the lay is final
        cards.lay(rig, 0)
        if rig.session.game.phase == "take":
            rig.post(ConfirmTake())
        rig.post(HandOver())
        assert rig.session.undo_player is None
        rig.post(Undo(0))
        assert rig.of(IllegalInput)[-1].code == "nothing_to_undo" and rig.session.game.current == 1
    finally:
        rig.session.close()


def test_a_refused_lay_leaves_nothing_to_undo():
    rig = cards.Rig()
    try:
        game = cards.start(rig, "human,human", seed=4)
        rig.post(SelectHandCard(0), LayCard((40, 40)))
        assert rig.of(IllegalInput)[-1].command == "lay_card" and game.phase == "place"
        rig.post(Undo(0))
        assert rig.of(IllegalInput)[-1].code == "nothing_to_undo"
    finally:
        rig.session.close()


# ---------------------------------------------------------------- a power cut after an undo
def _kiosk(state: Path, script: Path, events: Path, config: Path, *extra: str) -> subprocess.Popen:
    import sys

    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    prog = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    cmd = prog + ["--config", str(config), "--display", "none", "--fast", "--state-dir", str(state)]
    cmd += ["--script", str(script), "--events-out", str(events), "--log-level", "warning", *extra]
    return subprocess.Popen(cmd, env=kiosk_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _saved(state: Path) -> dict | None:
    try:
        return json.loads((state / SAVE_NAME).read_text())
    except (OSError, ValueError):
        return None


@pytest.mark.parametrize("game_kind", ["labyrinth", "cards"])
def test_sigkill_after_an_undo_resumes_the_undone_game_exactly(tmp_path, game_kind):
    state, config = tmp_path / "state", tmp_path / "config.toml"
    config.write_text("# the undo test: built-in defaults, the classic deal\n[game]\ntreasures = 0\n")
    if game_kind == "labyrinth":
        game = Game.new(players=2, seed=9)
        arrow = walkable(game)
        game.apply(Shift(arrow, 0))
        expected = game.copy()  # the walk is undone: back in the move phase after the push
        r, c = walk_cell(game)
        lines = [f"button {arrow}", f"button {arrow}", f"tap {r} {c}", "undo"]
        extra: tuple[str, ...] = ("--players", "human,human", "--seed", "9")
    else:
        game = CardGame.new(players=2, seed=9)
        expected = game.copy()  # the lay is undone: the game as dealt
        rot, (x, y) = cards.fitting(game, 0)
        lines = ["card 0", *(["rotate"] * rot), f"lay {x} {y}", "undo"]
        extra = ("--game", "cards", "--players", "human,human", "--seed", "9")
    script = tmp_path / "script.txt"
    script.write_text("\n".join([*lines, "wait 3600000"]) + "\n")  # then it waits an hour: killed before
    proc = _kiosk(state, script, tmp_path / "events.jsonl", config, *extra)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            events = (tmp_path / "events.jsonl").read_text() if (tmp_path / "events.jsonl").exists() else ""
            if '"type": "action_undone"' in events or '"type":"action_undone"' in events:
                break
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            time.sleep(0.05)
        else:
            raise AssertionError("the kiosk did not take the action back in time")
        for _ in range(100):  # the save after the undo is written right after the event
            saved = _saved(state)
            if saved is not None and saved["state"] == expected.to_dict():
                break
            time.sleep(0.05)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    assert _saved(state)["state"] == expected.to_dict()
    assert read_record((state / CURRENT_NAME).read_text()).turns == []  # the undone turn is not in the record
    # restart: it resumes exactly the undone game (an empty script: the run ends at the first wait for a person)
    script.write_text("")
    again = _kiosk(state, script, tmp_path / "events2.jsonl", config)
    out, err = again.communicate(timeout=60)
    assert again.returncode == 0, err.decode()
    started = [json.loads(line) for line in (tmp_path / "events2.jsonl").read_text().splitlines()]
    started = [e for e in started if e["type"] in ("game_started", "card_game_started")]
    assert started and started[0]["resumed"] is True
    assert _saved(state)["state"] == expected.to_dict()
    assert read_record((state / CURRENT_NAME).read_text()).turns == []  # no undone action in the record
