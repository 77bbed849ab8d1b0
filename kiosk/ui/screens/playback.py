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
from typing import TYPE_CHECKING, Any

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
    from kiosk.ui.kit.widgets import AnchorY

log = logging.getLogger(__name__)

#: The seat kind of every seat in a replay's session: a person's, so the session never asks an AI.
REPLAY_KIND = games.HUMAN


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
        self.pins_problem: str | None = None  # a record played back: no buttons to report on
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

    def wake_in(self) -> float | None:
        """Autoplay: the loop wakes for the next position (a still replay draws nothing meanwhile)."""
        base: float | None = super().wake_in()  # type: ignore[misc]
        if self.autoplay_s <= 0 or self.playback is None:
            return base
        left = max(0.0, self.autoplay_s - self._since)
        return left if base is None else min(base, left)

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

        from kiosk.ui.kit.widgets import DIM, Frame, label

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


def best_record_of_day(shelf: Any, game: str, day: date | None = None) -> Record | None:
    """The day's best finished game of `game` on the kiosk's RecordShelf (kiosk/store/records.py), or
    None (no shelf: the kiosk runs without a state directory; no finished game of it that day)."""
    if shelf is None:
        return None
    day = day or date.today()
    try:
        key = (str(shelf.folder), game, day, tuple(p.name for p in shelf.of_day(day)))
        if key in _best_seen:
            return _best_seen[key]
        found = shelf.best_of_day(day, game=game)
    except Exception:  # the attract must come up whatever the disk holds
        log.exception("cannot look for the day's best game")
        return None
    _best_seen.clear()
    _best_seen[key] = record = None if found is None else found[1]
    return record


def read_record_file(path: Path | str) -> Record:
    """A record file read and replayed (RecordError, OSError or UnicodeDecodeError if it cannot be)."""
    return read_record(Path(path).read_text(encoding="utf-8"))
