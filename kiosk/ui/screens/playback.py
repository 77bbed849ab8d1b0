"""Replaying a game record with the kiosk's own art: the replay screens, screenshots, and the attract's replay.

A record (docs/notation.md) is shown through the real session of its game, so
the screens draw it exactly as they draw a game being played:

* :class:`Playback` holds every position of the record (0 is the start, k the
  position after the k-th turn) and installs one at a time in a private
  session of the record's game (its own bus and clock, never saved). Every
  seat of that session is a person's, so no computer is ever asked to think;
  the replay screens show who really played from the record's Players tag.
* :class:`ReplayKiosk` is what the UI needs of a kiosk: the config, a bus on
  which a screen's commands land and go nowhere (a replay commits nothing),
  and the playback's session under the game's name.
* :class:`ReplaySteps` is the part both games' replay screens share
  (kiosk/games/<game>/screens/replay.py): a tap or Right/Space shows the next
  position, Left/Backspace the one before, Home/End the start and the end,
  and a caption says which position it is in the record's own words.
* ``labyrinth-replay --display offscreen|window`` (kiosk/tools/replay.py, :func:`run_replay`):
  offscreen with ``--screenshot-dir`` it writes one PNG of the start and one
  per turn (``0001-start.png``, ``0002-turn-1.png``, ...).
* :class:`RecordDemo` replays a board-game record behind the attract screen
  (kiosk/ui/screens/attract.py), turn by turn through the session's own commands, so
  the board animates every slide and walk as in a demo game.
"""

from __future__ import annotations

import logging
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

from engine.records import Record, read_record, lines_by_turn

from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock, RealClock, VirtualClock
from kiosk.core.events import Quit

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.config import Config
    from kiosk.store.history import History
    from kiosk.core.session import GameSession

    from kiosk.ui.shell.contract import StartOptions
    from kiosk.ui.shell.widgets import AnchorY

log = logging.getLogger(__name__)

#: The seat kind of every seat in a replay's session: a person's, so the session never asks an AI.
REPLAY_KIND = games.HUMAN
#: The attract's replay: seconds before each step of a turn (as a computer seat is paced) ...
REPLAY_THINK_S = 1.0  # before the spare goes to its arrow
REPLAY_ROTATE_S = 0.35  # between quarter turns of the spare
REPLAY_PUSH_S = 0.6  # before the push
REPLAY_WALK_S = 0.9  # after the push, before the walk
REPLAY_AFTER_S = 1.0  # after the walk, before the next turn begins (then the pause to think)
#: ... and how long the finished game stays on the board before the replay starts again.
REPLAY_RESTART_S = 5.0


class Playback:
    """The positions of a record, shown one at a time in a private session of the record's game."""

    def __init__(self, record: Record, text: str = "", config: Any = None):
        self.record = record
        self.kind = games.get(record.kind)  # KeyError: no such game in this kiosk
        self.states = [record.start()] + [state for _, state in record.replay()]
        self.lines = lines_by_turn(text or record.text())
        self.bus = Bus()
        self.clock = VirtualClock()
        self.session = self.kind.session(games.SessionOptions(self.bus, self.clock, fast=True, config=config))
        self.index = -1
        self.show(0)

    @property
    def levels(self) -> list[str]:
        """Who really played each seat ("human" or an AI level), from the record."""
        return self.record.levels

    @property
    def last(self) -> int:
        return len(self.states) - 1

    def show(self, k: int) -> int:
        """Install position `k` (clamped to the record) in the session; returns the position shown."""
        k = max(0, min(self.last, k))
        state = self.states[k].copy()
        self.session.resume(state, (REPLAY_KIND,) * len(self.levels))
        self.bus.drain()  # the session's announcements: nobody listens, the screens read the session
        self.index = k
        return k

    def caption(self) -> str:
        """Which position this is, in the record's words: ``12/40`` and ``12. red N3 ES 2,3 +bat``."""
        k = self.index
        if k == 0:
            return f"0/{self.last}\n{self.record.tags.get('Players', '')}"
        number = self.record.turns[k - 1].number
        text = f"{k}/{self.last}\n{self.lines.get(number, f'{number}.')}"
        result = self.record.tags.get("Result", "")
        if k == self.last and result:  # the last position: how the game ended, as the record says
            end = self.record.tags.get("End", "")
            text += f"\nResult: {result}" + (f" ({end})" if end else "")
        return text

    def close(self) -> None:
        self.session.close()


class ReplayKiosk:
    """The kiosk a replay's UI runs on (it answers the UI's contract, kiosk/ui/shell/contract.py): the
    config, a bus on which commands go nowhere, the session; no history, no buttons, no ring."""

    def __init__(self, playback: Playback, config: Config | None = None, virtual: bool = False):
        self.playback = playback
        self.config = config
        self.bus = Bus()
        self.clock: Clock = VirtualClock() if virtual else RealClock()
        self.sessions = {playback.record.kind: playback.session}
        self.history: History | None = None
        self.options: StartOptions | None = None
        self.stopping = False
        self.exit_status = 0
        self.bus.subscribe(Quit, lambda _: setattr(self, "stopping", True))

    @property
    def game_session(self) -> GameSession:
        return self.playback.session

    def first_player(self, players: int) -> int:
        return 0

    def tick(self, budget: float | None = None) -> int:
        return self.bus.dispatch_pending(max_count=64)

    def settled(self) -> bool:
        return not self.bus.pending() and not any(s.busy for s in self.sessions.values())

    def set_button_test(self, on: bool) -> None:
        """A replay has no arcade buttons to test."""

    def test_ring(self, rgb: Any) -> None:
        """A replay has no ring to test."""


class ReplaySteps:
    """Stepping through a replay, shared by the games' replay screens (mixed in before the play screen).

    Read-only: a tap, a key or a finger held never reaches the play screen's
    controls. The screen says how to show the installed position in ``shown()``.
    """

    autoplay_s: float = 0.0  # > 0: the next position after this many seconds (a window left alone)
    _since = 0.0
    _caption: Any = None

    @property
    def playback(self) -> Playback | None:
        """The replay's positions; None on a kiosk that is not replaying (the screen then shows nothing)."""
        return getattr(self.kiosk, "playback", None)  # type: ignore[attr-defined]

    def show_position(self, k: int) -> None:
        if self.playback is None:
            return
        self.playback.show(k)
        self._since = 0.0
        self.shown()
        self._show_caption()
        self.ui.invalidate()  # type: ignore[attr-defined]

    def shown(self) -> None:
        raise NotImplementedError

    def enter(self, *args: Any, **kw: Any) -> None:
        if self.playback is not None:
            self.show_position(self.playback.index)

    def replay_tick(self, dt: float) -> None:
        """Autoplay: the next position when its time has come (called from the screen's update)."""
        if self.autoplay_s <= 0 or self.playback is None:
            return
        self._since += dt
        if self._since >= self.autoplay_s:
            self.show_position(self.playback.index + 1 if self.playback.index < self.playback.last else 0)

    def seat_words(self, player: int) -> str:
        """Who played seat `player` in the record, in the screen's language: "Human", "Computer: Easy"."""
        levels = self.playback.levels if self.playback is not None else []
        level = levels[player] if player < len(levels) else REPLAY_KIND
        t = self.t  # type: ignore[attr-defined]
        if level == REPLAY_KIND:
            return t("setup.human")
        has = getattr(self.ui.translator, "has", None)  # type: ignore[attr-defined]
        word = t(f"setup.level.{level}") if has is not None and has(f"setup.level.{level}") else level
        return f"{t('setup.computer')}: {word}"

    def caption_place(self) -> tuple[float, float, float, AnchorY]:
        """Where the caption goes: (x, y, width, anchor_y); a screen puts it where its art leaves room.
        Here: the bottom-left corner, as wide as the column left of the board."""
        L = self.layout  # type: ignore[attr-defined]
        return L.px(10), L.px(10), max(L.px(120), L.ring.x - L.px(20)), "bottom"

    def _show_caption(self) -> None:
        import pyglet

        from kiosk.ui.shell.widgets import DIM, Frame, label

        if self._caption is not None:
            self._caption.delete()
            self._caption = None
        if self.playback is None:
            return
        L = self.layout  # type: ignore[attr-defined]
        x, y, width, anchor_y = self.caption_place()
        self._caption = label(
            self.playback.caption(),
            Frame(L.screen, 0),
            x,
            y,
            L.font(12),
            self.batch,  # type: ignore[attr-defined]
            pyglet.graphics.Group(order=60),
            color=DIM,
            anchor_x="left",
            anchor_y=anchor_y,
            width=width,
            multiline=True,
            align="left",
        )

    def resize(self, layout: Any) -> None:
        super().resize(layout)  # type: ignore[misc]
        if self.playback is not None:
            self.shown()
            self._show_caption()

    # ------------------------------------------------------------ fingers and keys: only stepping
    def press(self, x: float, y: float) -> None:
        pass

    def release(self, x: float, y: float) -> None:
        pass

    def claims(self, x: float, y: float) -> bool:
        return False

    def tap(self, x: float, y: float) -> bool:
        if self.playback is None:
            return True
        back = x < self.layout.width / 4  # type: ignore[attr-defined]
        self.show_position(self.playback.index + (-1 if back else 1))
        return True

    def on_key(self, symbol: int, modifiers: int) -> bool:
        from pyglet.window import key

        p = self.playback
        if p is None:
            return False
        steps = {
            key.RIGHT: p.index + 1,
            key.SPACE: p.index + 1,
            key.ENTER: p.index + 1,
            key.RETURN: p.index + 1,
            key.LEFT: p.index - 1,
            key.BACKSPACE: p.index - 1,
            key.HOME: 0,
            key.END: p.last,
        }
        if symbol in steps:
            self.show_position(steps[symbol])
            return True
        if symbol in (key.Q, key.ESCAPE):
            self.ui.request_quit()  # type: ignore[attr-defined]
            return True
        return False

    def on_key_release(self, symbol: int, modifiers: int) -> None:
        pass


# ---------------------------------------------------------------------- the command's display modes
def replay_screen(record: Record) -> str:
    """The name of the replay screen of the record's game (``GameType.replay_screen``)."""
    kind = games.get(record.kind)
    if not kind.replay_screen:
        raise ValueError(f"the {record.kind} game has no replay screen")
    return kind.replay_screen


# ---------------------------------------------------------------------- the attract's replay
#: The last answer of best_record_of_day, by the shelf's folder and the names of the day's records:
#: filed records never change, so the day's records are read again only when a game was filed since.
_best_seen: dict[tuple, Record | None] = {}


def best_record_of_day(shelf: Any, day: date | None = None) -> Record | None:
    """The day's best finished board game on the kiosk's RecordShelf (kiosk/store/records.py), or None
    (no shelf: the kiosk runs without a state directory; no finished board game that day)."""
    if shelf is None:
        return None
    from engine.labyrinth.parts import GAME_NAME

    day = day or date.today()
    try:
        key = (str(shelf.folder), day, tuple(p.name for p in shelf.of_day(day)))
        if key in _best_seen:
            return _best_seen[key]
        found = shelf.best_of_day(day, game=GAME_NAME)
    except Exception:  # the attract must come up whatever the disk holds
        log.exception("cannot look for the day's best game")
        return None
    _best_seen.clear()
    _best_seen[key] = record = None if found is None else found[1]
    return record


class RecordDemo:
    """A recorded board game replayed behind the attract screen, with the demo game's interface
    (``bus``, ``session``, ``start``, ``advance``, ``close``; kiosk/ui/screens/attract.py Demo).

    Each turn is played through the session's own commands (the spare to its arrow, turned, pushed,
    then the walk), paced like a computer seat, so the board view animates it as it did at the table;
    `view_busy` (the board's ``busy``) holds the pauses while an animation plays, so every
    position rests on the board before the next turn begins.
    """

    def __init__(self, record: Record, view_busy: Callable[[], bool] = lambda: False):
        from engine.labyrinth.game import Game
        from kiosk.games.labyrinth.session import Session

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
        from kiosk.core.events import IllegalInput

        def refused(ev: IllegalInput) -> None:
            self.refused = f"turn {self.turn} of the record was refused: {ev.reason}"

        self.bus.subscribe(IllegalInput, refused)

    def start(self) -> None:
        self.turn, self.over_at, self.refused = 0, None, None
        self._steps = []
        self.session.resume(self.start_state.copy(), (REPLAY_KIND,) * len(self.record.levels))

    def _plan_turn(self) -> None:
        """The commands of the next turn of the record, each with the pause before it."""
        from engine.labyrinth import Move, Shift
        from kiosk.games.labyrinth.events import RotateSpare, SelectArrow, TapCell

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


def read_record_file(path: Path | str) -> Record:
    """A record file read and replayed (RecordError, OSError or UnicodeDecodeError if it cannot be)."""
    return read_record(Path(path).read_text(encoding="utf-8"))
