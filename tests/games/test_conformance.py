"""One conformance test over every registered game (like OpenSpiel's test over every registered game).

Every game the kiosk knows -- the two built-in ones and the test race of
tests/support/race/, registered here as a separately installed game would be --
keeps the engine's contract (engine.GameState) and the kiosk's declaration:

* random playouts end under a turn limit, with an outcome naming winners;
* ``copy()`` is independent: playing on the copy never changes the original;
* the save round-trips at every ply (``to_dict`` -> the game's ``load``);
* an illegal action raises IllegalAction and leaves the state unchanged;
* the game's record notation round-trips a whole game (engine.records);
* the declaration is whole: seat kinds, player range, a session, script words;

and through the kiosk (tests/support/registry_play.py), a person's input typed
as the game's script lines:

* a headless game with a person seat plays to the end and is filed in the history;
* a power cut at a random (seeded) moment leaves a save the next start resumes
  exactly: in process, the whole engine state; with SIGKILL on the kiosk's own
  process, its announced picture, and never a save set aside or an error logged;
* a person's action is taken back exactly (where the game offers it), and a seat
  changes hands both ways (where the game has more than one seat);
* no run logs an ERROR.

Nothing here names a game: what differs comes from the registry. A game added
by a test gets all of it (tests/games/test_fourth_game.py).
"""

from __future__ import annotations

import json
import logging
import os
import random
import signal
import time
from typing import Any

import pytest

from engine import GameState, IllegalAction
from engine.records import Recorder, codec_for, read_record
from kiosk import games
from kiosk.core.events import ChangeSeat, GameEnded, SeatChanged, Undo
from kiosk.store.history import History
from kiosk.store.persistence import GameStore
from tests.support import registry_play as play
from tests.support.race.kiosk import GAME as RACE

PLAYOUTS = 6
TURN_LIMIT = 40


def _all() -> list[games.GameType]:
    registered = {g.name: g for g in games.all_games()}
    registered.setdefault(RACE.name, RACE)
    return list(registered.values())


@pytest.fixture(params=_all(), ids=lambda g: g.name)
def game(request):
    with play.registered(request.param) as kind:
        yield kind


def snapshot(state: Any) -> str:
    return json.dumps(state.to_dict(), sort_keys=True)


def playouts(kind: games.GameType):
    """(seed, players, every state from the start to the end, the actions between them)."""
    low, high = kind.players
    for k in range(PLAYOUTS):
        players = low + k % (high - low + 1)
        rng = random.Random(k)
        state = kind.new(players, 1000 + k, TURN_LIMIT)
        states, actions = [state.copy()], []
        while state.phase != "over":
            action = rng.choice(state.legal_actions())
            state.apply(action)
            states.append(state.copy())
            actions.append(action)
            assert len(actions) < 10_000, "a playout that does not end"
        yield 1000 + k, players, states, actions


def test_the_state_keeps_the_engine_contract(game):
    state = game.new(game.players[0], 1, TURN_LIMIT)
    assert isinstance(state, GameState)
    assert state.phase != "over" and state.outcome is None and state.legal_actions()


def test_random_playouts_end_under_the_turn_limit_with_winners(game):
    for _, players, states, _ in playouts(game):
        final = states[-1]
        assert final.phase == "over" and final.outcome is not None and final.legal_actions() == []
        assert final.turns <= TURN_LIMIT
        assert all(0 <= w < players for w in final.outcome.winners)


def test_a_copy_is_independent_of_the_original(game):
    for _, _, states, actions in playouts(game):
        for before, action in zip(states, actions):
            original = before.copy()
            picture = snapshot(original)
            copy = original.copy()
            copy.apply(action)
            assert snapshot(original) == picture
            assert snapshot(copy) != picture


def test_the_save_round_trips_at_every_ply(game):
    for _, _, states, _ in playouts(game):
        for state in states:
            loaded = game.load(json.loads(json.dumps(state.to_dict())))
            assert snapshot(loaded) == snapshot(state)
            assert loaded.legal_actions() == state.legal_actions()


def test_an_illegal_action_changes_nothing(game):
    """Actions legal one ply earlier or later, or never, are refused where they are not legal."""
    refused = 0
    for _, _, states, actions in playouts(game):
        for k, state in enumerate(states):
            legal = state.legal_actions()
            nearby = actions[max(0, k - 1) : k + 2] + [object()]
            for action in nearby:
                if action in legal:
                    continue
                trial = state.copy()
                picture = snapshot(trial)
                with pytest.raises(IllegalAction):
                    trial.apply(action)
                assert snapshot(trial) == picture
                refused += 1
    assert refused > 0


def test_the_record_round_trips_a_whole_game(game):
    try:
        codec = codec_for(game.name)
    except ValueError:
        pytest.skip(f"the {game.name} game keeps no records (no notation registered)")
    for _, players, states, actions in playouts(game):
        start = states[0]
        levels = [games.HUMAN] + [game.ai_levels[0]] * (players - 1)
        recorder = Recorder(start, levels, date="2026-12-01")
        for action in actions:
            recorder.apply(action)
        record = read_record(recorder.text())
        assert record.kind == game.name == codec.KIND
        assert snapshot(record.final()) == snapshot(states[-1])
        assert record.levels == levels


def test_the_declaration_is_whole(game, caplog):
    caplog.set_level(logging.WARNING)
    low, high = game.players
    assert 1 <= low <= high
    assert game.seat_kinds[0] == games.HUMAN and game.ai_levels
    assert low <= len(game.default_seats) <= high
    assert all(kind in game.seat_kinds for kind in game.default_seats)
    assert games.get(game.name) is game
    assert game.script is not None and game.script.verbs and game.script.lines is not None
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


# ----------------------------------------------------------------- through the kiosk
CUTS = int(os.environ.get("POWER_CUT_RUNS", "3"))  # power cuts per game, in process and by SIGKILL
KILL_SEED = 20240501


def test_a_headless_game_with_a_person_plays_to_the_end_and_is_filed(game, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    kinds = play.seats(game)
    k = play.kiosk(game, tmp_path, kinds, seed=3)
    seen: list = []
    k.bus.subscribe(GameEnded, seen.append)
    try:
        k.start(ready=False)
        play.play_to_end(k, random.Random(3))
        play.settle(k)
    finally:
        k.close()
    assert len(seen) == 1 and tuple(seen[0].kinds) == kinds
    records, skipped = History(tmp_path).read()
    assert skipped == 0 and [(r.game, tuple(r.seats)) for r in records] == [(game.name, kinds)]
    assert tuple(records[0].winners) == tuple(seen[0].winners) and records[0].turns == seen[0].turns
    assert play.saved(tmp_path) is None, "the finished game's save was not removed"
    assert not play.errors(caplog)


def test_a_power_cut_at_a_random_moment_is_resumed_exactly(game, tmp_path, caplog):
    """In process: the loop stops after a seeded number of messages, as the power does, and a
    kiosk started on what is on disk then goes on with exactly the game in memory at the cut."""
    caplog.set_level(logging.WARNING)
    rng = random.Random(KILL_SEED)
    kinds = play.seats(game)
    for cut in range(CUTS):
        state = tmp_path / f"state-{cut}"
        k = play.kiosk(game, state, kinds, seed=10 + cut)
        messages: list = []
        k.bus.subscribe_all(messages.append)
        stop_after = rng.randrange(3, 36)
        try:
            k.start(ready=False)
            person = random.Random(cut)
            while len(messages) < stop_after:
                k.tick(budget=0)  # one message at a time, so the cut lands between any two
                if k.bus.pending():
                    continue
                if k.thinking:
                    k.bus.wait(0.02)
                elif k.clock.next_due() is not None:
                    k.clock.advance_to(k.clock.next_due())
                elif k.game_session.awaiting_human():
                    play.person_acts(k, person, then=None)  # typed, dispatched a message a time
                else:
                    break  # the game is over
            session = k.game_session
            at_cut, over = play.state_of(k), session.game is None or session.game.phase == "over"
            who, game_id = session.kinds, session.game_id
            play.copy_state(state, tmp_path / f"after-{cut}")
        finally:
            k.close()
        again = play.kiosk(game, tmp_path / f"after-{cut}", kinds, seed=99)
        again.options.start_game = False
        try:
            again.start(ready=False)
            resumed = again.game_session
            if over:
                assert resumed.game is None, "a finished game was resumed"
                continue
            assert resumed.game_id == game_id and resumed.kinds == who
            assert play.state_of(again) == at_cut, f"cut {cut} after {stop_after} messages: not resumed exactly"
            play.play_to_end(again, random.Random(cut))
        finally:
            again.close()
    assert not play.errors(caplog)


def _freeze_with_a_game_to_resume(game, proc, state, deadline: float) -> None:
    """Stop the kiosk (SIGSTOP) at a moment its save holds a game under way, so the cut after it has
    one to resume: a puzzle played fast begins, saves and ends every ~50 ms, and three cuts at random
    times all missed a game under way about one run in eight. Stopped, the files are what a power cut
    there would leave (saves are replaced whole), and they cannot change while they are looked at."""
    while time.monotonic() < deadline and proc.poll() is None:
        proc.send_signal(signal.SIGSTOP)
        save = play.saved(state)
        if save is not None and game.load(save["state"]).phase != "over":
            return
        proc.send_signal(signal.SIGCONT)
        time.sleep(0.003)


def test_a_power_cut_by_sigkill_at_random_moments_leaves_a_save_the_restart_resumes(game, tmp_path):
    """The kiosk's own process killed with SIGKILL a seeded random time after it announced its
    game: the save left loads through the kiosk's loader (nothing set aside), the next start
    announces exactly the saved game, and nothing is logged as an error."""
    rng = random.Random(KILL_SEED)
    kinds = tuple(game.ai_levels[0] for _ in play.seats(game))
    site = play.plug_in_dir(game, tmp_path)
    state = tmp_path / "state"
    resumed = 0
    for run in range(CUTS + 1):
        before = play.saved(state)
        expected = None
        if before is not None and game.load(before["state"]).phase != "over":  # an ended one is filed, not resumed
            expected = play.snapshot_of_save(game, before)
        events = tmp_path / f"events-{run}.jsonl"
        proc = play.process(game, kinds, state, events, site, seed=11)
        deadline = time.monotonic() + 60
        while not play.began(events) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        if run < CUTS:
            time.sleep(rng.uniform(0.0, 0.5))
            if run == CUTS - 1 and not resumed:
                _freeze_with_a_game_to_resume(game, proc, state, deadline)
            proc.send_signal(signal.SIGKILL)
        else:
            proc.send_signal(signal.SIGTERM)  # the last start ends in order
        _, err = proc.communicate(timeout=60)
        log = err.decode(errors="replace")
        assert "Traceback" not in log and " ERROR " not in log and "ERROR:" not in log, log[-2000:]
        if run == CUTS:
            assert proc.returncode == 0, log[-2000:]
        announced = play.began(events)
        assert announced, f"run {run}: the kiosk announced no game: {log[-2000:]}"
        if expected is not None:
            assert announced[0] == expected, f"run {run}: the restart did not resume the saved game exactly"
            resumed += 1
        store = GameStore(state, loaders={g.name: g.load for g in games.all_games()}, resume_within_s=10**9)
        if play.saved(state) is not None:
            assert store.resume() is not None, f"run {run}: the save is unusable: {store.last_setaside}"
        assert not (state / "corrupt").exists(), "a save was set aside"
    assert resumed, "no start resumed a saved game"


def test_an_undo_and_a_seat_change_where_the_game_has_them(game, tmp_path, caplog):
    caplog.set_level(logging.WARNING)
    kinds = play.seats(game, people=2)
    k = play.kiosk(game, tmp_path, kinds, seed=5)
    seen: list = []
    k.bus.subscribe_all(seen.append)
    try:
        k.start(ready=False)
        play.settle(k)
        session = k.game_session
        before = play.state_of(k)
        player = session.running.current
        play.person_acts(k, random.Random(5))
        if session.undo_player == player:  # the game lets a person take an action back
            k.bus.post(Undo(player, source="touch"))
            play.settle(k)
            assert play.state_of(k) == before, "the undo did not go back exactly"
            assert play.saved(tmp_path)["state"] == before, "the save is not the state taken back to"
        if len(kinds) > 1:  # a seat changes hands: to the computer and back to a person
            other = next(i for i in range(len(kinds)) if i != session.running.current)
            k.bus.post(ChangeSeat(other, game.ai_levels[0], "away", source="touch"))
            play.settle(k)
            assert session.kinds[other] == game.ai_levels[0]
            assert play.saved(tmp_path)["meta"]["kinds"][other] == game.ai_levels[0]
            person = random.Random(6)
            k.bus.post(ChangeSeat(other, games.HUMAN, "join", source="touch"))
            play.settle(k)
            assert [e.kind for e in seen if isinstance(e, SeatChanged)] == [game.ai_levels[0], games.HUMAN]
            assert play.saved(tmp_path)["meta"]["kinds"][other] == games.HUMAN
            play.play_to_end(k, person)
            records, _ = History(tmp_path).read()
            assert [kind for _, _, kind in records[-1].seat_changes] == [game.ai_levels[0], games.HUMAN]
    finally:
        k.close()
    assert not play.errors(caplog)
