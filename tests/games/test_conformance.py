"""One conformance test over every registered game (like OpenSpiel's test over every registered game).

Every game the kiosk knows -- the two built-in ones and the test race of
tests/support/race/, registered here as a separately installed game would be --
keeps the engine's contract (engine.GameState) and the kiosk's declaration:

* random playouts end under a turn limit, with an outcome naming winners;
* ``copy()`` is independent: playing on the copy never changes the original;
* the save round-trips at every ply (``to_dict`` -> the game's ``load``);
* an illegal action raises IllegalAction and leaves the state unchanged;
* the game's record notation round-trips a whole game (engine.records);
* the declaration is whole: seat kinds, player range, a session, script words.

Nothing here names a game: what differs comes from the registry.
"""

from __future__ import annotations

import json
import logging
import random
from typing import Any

import pytest

from engine import GameState, IllegalAction
from engine.records import Recorder, codec_for, read_record
from kiosk import games
from tests.support.race.kiosk import GAME as RACE

PLAYOUTS = 6
TURN_LIMIT = 40


def _all() -> list[games.GameType]:
    registered = {g.name: g for g in games.all_games()}
    registered.setdefault(RACE.name, RACE)
    return list(registered.values())


@pytest.fixture(params=_all(), ids=lambda g: g.name)
def game(request):
    kind = request.param
    own = kind.name not in games.names()
    if own:
        games.register_game(kind)
    yield kind
    if own:
        games.unregister_game(kind.name)


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
    codec = codec_for(game.name)
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
    assert game.script is not None and game.script.verbs
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
