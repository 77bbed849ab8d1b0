"""A computer thinks while people watch: as long as they wait anyway, stopped when its move is undone.

Over the real bus and session with the headless (virtual) clock; the computer players are
stand-ins that record the time they are given and play a random legal turn.
"""

from __future__ import annotations

import threading

import pytest

from engine.labyrinth.ai import make_ai
from kiosk.core.events import Undo
from kiosk.games.labyrinth.events import AIDecided, PawnMoved, SelectArrow, TapCell
from kiosk.games.labyrinth.session import AI_OVERRUN, AI_TIME_LIMIT_S, Pacing, Session, think_budget

from tests.games.labyrinth import test_session as board
from tests.games.test_undo import walk_cell, walkable


class Thinker:
    """A searching player (clock_capped) that notes each time limit and stop it is given."""

    clock_capped = True

    def __init__(self, seed, wait_for_stop: threading.Event | None = None):
        self.inner = make_ai("random", seed)
        self.limits: list[float | None] = []
        self.stopped: list[bool] = []
        self.wait_for_stop = wait_for_stop

    def choose(self, game, time_limit=None, stop=None):
        self.limits.append(time_limit)
        if self.wait_for_stop is not None and self.wait_for_stop.is_set():
            for _ in range(500):  # a long search: it ends when told to stop (5 s at most)
                if stop():
                    break
                threading.Event().wait(0.01)
        self.stopped.append(stop())
        return self.inner.choose(game)


class Rig(board.Rig):
    def __init__(self, think_cap_s=None, **kw):
        super().__init__(**kw)
        self.session.close()
        options = {} if think_cap_s is None else {"think_cap_s": think_cap_s}
        self.thinkers: dict[str, Thinker] = {}
        self.long = threading.Event()
        self.session = Session(self.bus, self.clock, pacing=kw.get("pacing"), ai_factory=self._thinker, **options)

    def _thinker(self, level, seed):
        return self.thinkers.setdefault(level, Thinker(seed, self.long))


def walk(rig: Rig) -> float:
    """The person to act pushes and walks; returns the clock time of the walk."""
    arrow = walkable(rig.session.game)
    rig.post(SelectArrow(arrow), SelectArrow(arrow))
    rig.bus.post(TapCell(walk_cell(rig.session.game)))
    rig.bus.dispatch_pending()
    return rig.clock.now()


def test_after_a_persons_walk_the_computer_thinks_through_the_undo_grace():
    """People wait `pacing.undo` (3 s) anyway before a computer's first step after a person's
    walk: the computer thinks that long, less the 10% a decision may overrun."""
    rig = Rig(think_cap_s=10.0, pacing=Pacing())
    try:
        board.start(rig, "human,hard", seed=5)
        walk(rig)
        rig.run(until=lambda: bool(rig.of(AIDecided)))
        assert rig.thinkers["hard"].limits == [pytest.approx(Pacing().undo / AI_OVERRUN)]
    finally:
        rig.close()


def test_after_a_computers_walk_the_next_computer_thinks_through_the_walk_and_its_pause():
    """A computer following a computer thinks while the walk is shown and for the pause in
    which it is shown thinking (`pacing.think`), whichever is longer."""
    pacing = Pacing()
    rig = Rig(think_cap_s=10.0, pacing=pacing)
    try:
        game = board.start(rig, "hard,expert", seed=6, settle=False)
        rig.run(until=lambda: bool(rig.of(PawnMoved)) and game.current == 1 and bool(rig.thinkers["expert"].limits))
        path = rig.of(PawnMoved)[0].path
        shown = pacing.walk_step * (len(path) - 1) + pacing.after_move
        assert rig.thinkers["expert"].limits == [pytest.approx(max(pacing.think, shown) / AI_OVERRUN)]
    finally:
        rig.close()


def test_the_operators_cap_bounds_the_thinking_and_without_it_nothing_changes():
    rig = Rig(think_cap_s=1.5, pacing=Pacing())
    try:
        board.start(rig, "human,hard", seed=5)
        walk(rig)
        rig.run(until=lambda: bool(rig.of(AIDecided)))
        assert rig.thinkers["hard"].limits == [1.5]
    finally:
        rig.close()
    rig = Rig(pacing=Pacing())  # a session built without the key: the 0.4 s of before
    try:
        board.start(rig, "human,hard", seed=5)
        walk(rig)
        rig.run(until=lambda: bool(rig.of(AIDecided)))
        assert rig.thinkers["hard"].limits == [AI_TIME_LIMIT_S]
    finally:
        rig.close()


@pytest.mark.parametrize("wait", [0.0, 0.3, 0.44, 1.0, 3.0, 3.5, 30.0])
@pytest.mark.parametrize("cap", [0.2, 3.0, 60.0])
def test_nobody_waits_longer_than_before(wait, cap):
    """A decision that overruns its budget by the most allowed still ends when the people would
    see its first step anyway, or within the 0.4 s (and its overrun) a computer always had."""
    budget = think_budget(wait, cap)
    assert budget <= cap
    assert budget * AI_OVERRUN <= max(wait, AI_TIME_LIMIT_S * AI_OVERRUN) + 1e-9
    assert budget >= min(cap, AI_TIME_LIMIT_S)


def test_an_undo_stops_the_search_it_made_useless_and_the_next_walk_starts_a_new_one():
    """The computer starts thinking as the person walks; the person takes the walk back: the
    search stops at once (the worker is free) and its answer is dropped; the walk made again
    starts a fresh search, which runs to its end."""
    rig = Rig(think_cap_s=10.0, pacing=Pacing())
    try:
        board.start(rig, "human,hard", seed=5)
        rig.long.set()
        walk(rig)
        assert rig.session.thinking and rig.game.current == 1
        rig.post(Undo(0))
        rig.run(until=lambda: bool(rig.of(AIDecided)))
        thinker = rig.thinkers["hard"]
        assert thinker.stopped == [True] and rig.game.current == 0 and rig.game.phase == "move"
        rig.clock.advance(30)
        rig.run()
        assert [e for e in rig.seen if getattr(e, "source", "") == "ai"] == []  # its answer was dropped
        rig.long.clear()
        rig.post(TapCell(walk_cell(rig.game)))
        rig.run(until=lambda: rig.game.current == 0 and len(rig.of(AIDecided)) == 2)
        assert thinker.stopped == [True, False]
    finally:
        rig.long.clear()
        rig.close()
