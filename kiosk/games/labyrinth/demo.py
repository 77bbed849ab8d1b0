"""The board game on the attract screen: a live demo between computers, or the day's best game replayed.

The attract screen (kiosk/ui/screens/attract.py) names no game: it asks the
registry for a game with a ``demo`` and gets :class:`BoardDemo`, which makes
the board view the demo is drawn with, the session a private demo plays in,
and a :class:`RecordDemo` that plays a filed record back through the session's
own commands.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.labyrinth import Move, Shift
from engine.labyrinth.game import Game
from engine.labyrinth.parts import GAME_NAME
from engine.records import Record
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock, VirtualClock
from kiosk.core.events import IllegalInput
from kiosk.games import HUMAN
from kiosk.games.labyrinth.events import RotateSpare, SelectArrow, TapCell
from kiosk.games.labyrinth.session import Pacing, Session

#: The demo's computer seats, around the table.
DEMO_SEATS = ("medium", "easy", "medium", "easy")

#: The attract's replay: seconds before each step of a turn (as a computer seat is paced) ...
REPLAY_THINK_S = 1.0  # before the spare goes to its arrow
REPLAY_ROTATE_S = 0.35  # between quarter turns of the spare
REPLAY_PUSH_S = 0.6  # before the push
REPLAY_WALK_S = 0.9  # after the push, before the walk
REPLAY_AFTER_S = 1.0  # after the walk, before the next turn begins (then the pause to think)
#: ... and how long the finished game stays on the board before the replay starts again.
REPLAY_RESTART_S = 5.0


class RecordDemo:
    """A recorded board game replayed behind the attract screen, with the demo game's interface
    (``bus``, ``session``, ``start``, ``advance``, ``close``; kiosk/ui/screens/attract.py Demo).

    Each turn is played through the session's own commands (the spare to its arrow, turned, pushed,
    then the walk), paced like a computer seat, so the board view animates it as it did at the table;
    `view_busy` (the board's ``busy``) holds the pauses while an animation plays, so every
    position rests on the board before the next turn begins.
    """

    def __init__(self, record: Record, view_busy: Callable[[], bool] = lambda: False):
        start = record.start()
        if not isinstance(start, Game):
            raise TypeError(f"a board game demo replays a board game's record, not a {record.kind!r} one")
        self.view_busy = view_busy  # the board still animates: the pauses wait for it
        self.refused: str | None = None  # why the session refused a turn of the record
        self.record = record
        self.start_state = start
        self.bus = Bus()
        self.clock = VirtualClock()
        self.session = Session(self.bus, self.clock, save=None)
        self._subscribe_refusals()
        self.turn = 0  # the record's turns played so far
        self.over_at: float | None = None
        self._steps: list[tuple[float, Any]] = []
        self._due = 0.0

    def _subscribe_refusals(self) -> None:
        def refused(ev: IllegalInput) -> None:
            self.refused = f"turn {self.turn} of the record was refused: {ev.reason}"

        self.bus.subscribe(IllegalInput, refused)

    def start(self) -> None:
        self.turn, self.over_at, self.refused = 0, None, None
        self._steps = []
        self.session.resume(self.start_state.copy(), (HUMAN,) * len(self.record.levels))

    def _plan_turn(self) -> None:
        """The commands of the next turn of the record, each with the pause before it."""
        steps: list[tuple[float, Any]] = []
        for action in self.record.turns[self.turn].actions:
            if isinstance(action, Shift):
                steps.append((REPLAY_THINK_S, SelectArrow(action.insertion, source="replay")))
                steps += [(REPLAY_ROTATE_S, RotateSpare(1, source="replay")) for _ in range(action.rotation % 4)]
                steps.append((REPLAY_PUSH_S, SelectArrow(action.insertion, source="replay")))
            elif isinstance(action, Move):
                steps.append((REPLAY_WALK_S, TapCell((action.cell[0], action.cell[1]), source="replay")))
        steps.append((REPLAY_AFTER_S, None))  # the turn's end: the pawn walks, a treasure shines
        self._steps = steps
        self.turn += 1

    def advance(self, dt: float) -> None:
        """Let `dt` seconds pass: the commands of the turn that are due, then the session's events.
        RuntimeError if the session refused a turn (a record that does not fit this kiosk's rules)."""
        self.clock.advance(min(dt, 0.25))
        self.clock.run_due()
        now = self.clock.now()
        if self.view_busy():
            self._due += min(dt, 0.25)  # each pause counts from the end of the animation before it
            if self.over_at is not None:
                self.over_at += min(dt, 0.25)
        while True:
            if not self._steps:
                if self.turn >= len(self.record.turns):
                    if self.over_at is None:
                        self.over_at = now
                    elif now - self.over_at >= REPLAY_RESTART_S:
                        self.start()
                    break
                self._plan_turn()
                self._due = now + self._steps[0][0]
            if now < self._due:
                break
            _, command = self._steps.pop(0)
            if command is not None:
                self.bus.post(command)
                self.bus.dispatch_pending(max_count=64)
            if self._steps:
                self._due = now + self._steps[0][0]
        self.bus.dispatch_pending(max_count=64)
        if self.refused:
            raise RuntimeError(self.refused)

    def close(self) -> None:
        self.session.abandon("replay closed")
        self.session.close()


class BoardDemo:
    """What the attract screen needs of the board game (``GameType.demo``)."""

    game = GAME_NAME
    seats = DEMO_SEATS

    def view(self, ui: Any, batch: Any, live: Any) -> Any:
        """The board the demo is drawn on: the play screen's own view, without the players' panels."""
        from kiosk.games.labyrinth.screens.board import BoardView  # noqa: PLC0415 -- the screens need a display: only when the demo is drawn

        return BoardView(ui, batch, base_order=0, live=live, panels_shown=False)

    def session(self, bus: Bus, clock: Clock, pacing: Pacing | None = None) -> Session:
        """A session of the demo's own: nothing it plays is saved."""
        return Session(bus, clock, pacing=pacing, save=None)

    def replay(self, record: Record, view_busy: Callable[[], bool]) -> RecordDemo:
        """The day's best game played back (TypeError for another game's record)."""
        return RecordDemo(record, view_busy=view_busy)
