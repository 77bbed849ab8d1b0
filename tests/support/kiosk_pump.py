"""Helpers for the kiosk tests: run the main loop (bus + virtual clock) until something holds."""

from __future__ import annotations

import time
from typing import Callable

from engine.labyrinth import Game, Move, Shift
from kiosk.games.labyrinth.events import BoardShifted, PawnMoved


def pump(
    bus,
    clock,
    until: Callable[[], bool] | None = None,
    *,
    session=None,
    timeout: float = 30.0,
    tick: Callable[[], object] | None = None,
) -> None:
    """Run timers and dispatch; jump the virtual clock when idle; wait for AI workers.

    Returns when `until()` is true, or (with no `until`) when nothing is left to do.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if tick is not None:
            tick()
        else:
            clock.run_due()
            bus.dispatch_pending()
        if until is not None and until():
            return
        if bus.pending():
            continue
        if session is not None and session.thinking:
            bus.wait(0.05)
            continue
        nxt = clock.next_due()
        if nxt is not None:
            clock.advance_to(nxt)
            continue
        if until is None:
            return
        bus.wait(0.01)
    raise AssertionError("the kiosk did not get there in time")


def replay(events, players: int, seed, **game_kw) -> Game:
    """The engine game that results from the shifts and walks in an event stream."""
    game = Game.new(players=players, seed=seed, **game_kw)
    for e in events:
        if isinstance(e, BoardShifted):
            game.apply(Shift(e.insertion, e.rotation))
        elif isinstance(e, PawnMoved):
            game.apply(Move(tuple(e.path[-1])))
    return game
