"""Seats that change hands: "Red, still there?", the computer takes over, a newcomer joins.

People come and go at a table in a museum. When one person's turn runs for
``[kiosk] seat_timeout_s`` without a touch while other people still play, their
seat is called: a panel turned towards their side of the table says "Red, still
there? The computer takes over in 20 s" with an "I'm here" button, and the LED
ring pulses at their seat (``CallSeat`` -> ``SeatCalled``). "I'm here", or any
move of theirs, ends the call; when ``seat_countdown_s`` runs out, the computer
at ``seat_level`` plays the seat (``ChangeSeat(reason="away")``) and the panel
says so for a moment.

Every computer's seat of a game with people in it has a Join button at its
corner, where the play screen says (``seat_spot``: the board game's panels; the
card game offers none yet, its score chips leave no clean room for one). A tap
asks first, turned to the one who tapped ("Play Red yourself?", Yes / No): a
hand that brushed the button must not leave a seat nobody plays. Yes gives the
seat to a person from now on; during a computer's turn half played, the Join
waits for the end of that turn ("Joining...") and is sent then. A person who
joined and leaves their first turn untouched is called after ``JOINED_CALL_S``,
not ``seat_timeout_s``: the seat is the computer's again within about one turn.

The two overlays do not fight: the last person at the table is never called
here, and neither is anyone when ``seat_timeout_s`` is not shorter than
``idle_timeout_s`` (the idle question comes first then, as before); the idle
watch (kiosk/ui/overlays/idle.py) deals with them, and it leaves alone a person
this watch looks after (:meth:`SeatWatch.looks_after`).
docs/rules.md (the kiosk's seats) says the same for people.

Like the idle watch this is an overlay, not a screen: the UI calls ``update``,
``draw`` and offers each finger-down to ``finger_down`` first.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pyglet

from engine.outcome import GAME_OVER
from kiosk import games
from kiosk.core.events import CallSeat, ChangeSeat, Event, IllegalInput, SeatCalled, SeatChanged, TurnBegan
from kiosk.games import HUMAN
from kiosk.ui.overlays.idle import SeatsPlayers
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit import typeface
from kiosk.ui.kit.menu import TOGGLE_OFF, Canvas, config_value, fit_font, panel
from kiosk.ui.shell.screen import game_on, session_for
from kiosk.ui.kit.widgets import ACCENT, Frame, box, label

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.session import GameSession
    from kiosk.ui.shell.window import UI

#: How long "the computer plays for Red now" stays after a seat was handed over (seconds).
NOTE_S = 8.0
#: Events that are no move of the called person (the rest with their ``player`` end the call).
_NOT_A_MOVE = (SeatCalled, SeatChanged, IllegalInput)
JOIN_BG = (40, 120, 80)
NO_BG = TOGGLE_OFF  # No: a wooden token, as the menus' other choices (white words read on it)
#: A person who joined and has not moved yet is called after this long (seconds; then the countdown):
#: a Join nobody follows up hands the seat back within about one turn, not seat_timeout_s + countdown.
JOINED_CALL_S = 10.0


@runtime_checkable
class HasSeatSpots(Protocol):
    """A play screen that says where a seat's Join button goes: (screen rectangle, angle) or None."""

    def seat_spot(self, player: int) -> tuple[Rect, int] | None: ...


class SeatWatch:
    """Calls a person who walked away, hands the seat to the computer, and offers Join."""

    def __init__(self, ui: "UI") -> None:
        self.ui = ui
        self.timeout = float(config_value(ui, "kiosk", "seat_timeout_s", 0))  # 0: never (no config)
        self.countdown = float(config_value(ui, "kiosk", "seat_countdown_s", 20))
        self.level = str(config_value(ui, "kiosk", "seat_level", ""))
        self.calling: int | None = None  # the player being called
        self.called_at = 0.0
        self.note: tuple[int, float] | None = None  # (player, until): the computer plays their seat now
        self.pending: set[int] = set()  # Join tapped during a computer's turn half played
        self.asking: int | None = None  # Join tapped: "Play Red yourself?" is up for this player
        #: joined and not moved yet (player -> the computer's level before): called after JOINED_CALL_S,
        #: and unanswered the seat goes back to that level
        self.joined: dict[int, str] = {}
        self._for: int | None = None  # the person whose wait is counted
        self._since = 0.0
        self._batch: pyglet.graphics.Batch | None = None
        self._shapes: list[Any] = []
        self._built: tuple[Any, ...] | None = None
        self.here_rect: Rect | None = None  # the "I'm here" button (screen)
        self.note_rect: Rect | None = None
        self.panel_rect: Rect | None = None  # the call's panel (screen): it covers what is under it
        self.joins: dict[int, Rect] = {}  # player -> their Join button (screen)
        self.yes_rect: Rect | None = None  # the question's Yes and No (screen)
        self.no_rect: Rect | None = None

    # ------------------------------------------------------------ what is on the table
    def _session(self) -> "GameSession[Any] | None":
        screen = self.ui.screen
        game = game_on(screen.name) if screen is not None else None
        session = session_for(self.ui.kiosk, game) if game is not None else None
        g = session.game if session is not None else None
        return session if g is not None and g.phase != GAME_OVER else None

    def looks_after(self, session: "GameSession[Any]", player: int, idle_timeout: float | None = None) -> bool:
        """True when this watch, not the idle watch, waits for `player`: calls are on and come before
        the idle question (``seat_timeout_s`` shorter than `idle_timeout`, the idle watch's), `player`
        is a person, and another person plays too (the last person is the idle watch's)."""
        if idle_timeout is None:
            idle = getattr(self.ui, "idle", None)
            idle_timeout = idle.timeout if idle is not None else 0.0
        first = idle_timeout <= 0 or self.timeout < idle_timeout  # an idle timeout of 0: never asked
        return self.timeout > 0 and first and session.kinds[player] == HUMAN and session.humans >= 2

    def _waiting(self, session: "GameSession[Any] | None") -> int | None:
        """The person this watch waits for now, or None."""
        if session is None or session.busy or session.game is None:
            return None
        player = session.game.current
        return player if self.looks_after(session, player) else None

    def _remaining(self) -> float:
        return max(0.0, self.countdown - (self.ui.now() - self.called_at))

    # ------------------------------------------------------------ the hooks the UI calls
    def update(self, dt: float = 0.0) -> None:
        session = self._session()
        now = self.ui.now()
        self._send_pending(session)
        self.joined = {p: k for p, k in self.joined.items() if session is not None and session.kinds[p] == HUMAN}
        if self.asking is not None and (session is None or session.kinds[self.asking] == HUMAN):
            self.asking = None  # the game ended, or the seat is a person's already
        if self.note is not None and (now >= self.note[1] or session is None):
            self.note = None
        player = self._waiting(session)
        if player is None or player != self._for:
            if self.calling is not None:
                self._end_call(answered=False)
            self._for, self._since = player, now
        elif self.calling is None:
            timeout = min(self.timeout, JOINED_CALL_S) if player in self.joined else self.timeout
            if now - max(self.ui.last_input, self._since) >= timeout:
                self._call(player)
        elif self._remaining() <= 0 and session is not None:
            self._hand_over(session, self.calling)
        self._rebuild(session)

    def on_event(self, ev: Any) -> None:
        """A move of the person called ends the call: they are back. A move of one who joined: they play."""
        if not isinstance(ev, Event) or isinstance(ev, _NOT_A_MOVE):  # the bus's commands pass here too
            return
        player = getattr(ev, "player", None)
        if isinstance(player, int) and not isinstance(ev, TurnBegan):  # their turn beginning is no move
            self.joined.pop(player, "")
        if self.calling is not None and player == self.calling:
            self._end_call(answered=True)

    def wake_in(self) -> float | None:
        """Seconds until this watch has something to show (the call, its next second, the note's end)."""
        now = self.ui.now()
        times = []
        if self.calling is not None:
            left = self._remaining()
            times.append(left - math.floor(left) if left > 0 else 0.0)
        elif self._for is not None and self.timeout > 0:
            timeout = min(self.timeout, JOINED_CALL_S) if self._for in self.joined else self.timeout
            times.append(timeout - (now - max(self.ui.last_input, self._since)))
        if self.note is not None:
            times.append(self.note[1] - now)
        if self.pending:
            times.append(0.1)
        return max(0.0, min(times)) if times else None

    @property
    def showing(self) -> bool:
        """A call or its note is up (drawn every frame: its seconds count down)."""
        return self.calling is not None

    def finger_down(self, x: float, y: float) -> bool:
        """ "I'm here", the note, Join's question or a Join button: used here (True)."""
        if self.asking is not None:  # the question is answered, or a tap anywhere else says no
            if self.yes_rect is not None and self.yes_rect.contains(x, y):
                self.join(self.asking)
            self.asking = None
            self._changed()
            return True
        if self.calling is not None and self.here_rect is not None and self.here_rect.contains(x, y):
            self._end_call(answered=True)
            return True
        if self.calling is not None and self.panel_rect is not None and self.panel_rect.contains(x, y):
            return True  # the call's panel lies over the board: what is under it is not tapped
        if self.note is not None and self.note_rect is not None and self.note_rect.contains(x, y):
            self.note = None
            self._changed()
            return True
        for player, rect in self.joins.items():
            if rect.contains(x, y):
                self.ask(player)
                return True
        return False

    def draw(self) -> None:
        if self._batch is not None:
            self._batch.draw()

    # ------------------------------------------------------------ the call, the hand-over, Join
    def _call(self, player: int) -> None:
        self.calling, self.called_at = player, self.ui.now()
        self.ui.post(CallSeat(player, self.countdown))
        self._changed()

    def _end_call(self, answered: bool) -> None:
        player, self.calling = self.calling, None
        if player is not None:
            self.ui.post(CallSeat(player, 0.0))
        if answered:
            self._since = self.ui.now()  # a new wait begins
            self.ui.last_input = self.ui.now()
        self._changed()

    def _hand_over(self, session: "GameSession[Any]", player: int) -> None:
        """Nobody answered: the computer plays the seat from now on."""
        self.calling = None
        self.ui.post(ChangeSeat(player, self.joined.pop(player, "") or self._level(session), "away"))
        self.note = (player, self.ui.now() + NOTE_S)
        self._for = None
        self._changed()

    def _level(self, session: "GameSession[Any]") -> str:
        """``[kiosk] seat_level`` as this game plays it (its own alias), else its weakest level."""
        level = games.get(session.game_name).seat_kind(self.level) if self.level else ""
        return level if level in session.ai_levels else session.ai_levels[0]

    def ask(self, player: int) -> None:
        """A Join tapped at `player`'s corner: ask the one who tapped before the seat is theirs."""
        session = self._session()
        if session is None or session.kinds[player] == HUMAN or player in self.pending:
            return
        self.asking = player
        self.note = None
        self._changed()

    def join(self, player: int) -> None:
        """Join at `player`'s corner: a person plays the seat from now on (at the end of a computer's
        turn half played)."""
        session = self._session()
        if session is None or session.kinds[player] == HUMAN:
            return
        self.pending.add(player)
        self.note = None
        self._send_pending(session)
        self._changed()

    def _send_pending(self, session: "GameSession[Any] | None") -> None:
        for player in sorted(self.pending):
            if session is None or session.kinds[player] == HUMAN:
                self.pending.discard(player)
            elif not session.seat_mid_turn(player):
                self.pending.discard(player)
                self.joined[player] = session.kinds[player]
                self.ui.post(ChangeSeat(player, HUMAN, "join"))
                self._changed()

    def _changed(self) -> None:
        self._built = None
        self.ui.request_frame()

    # ------------------------------------------------------------ drawing
    def _facing(self, session: "GameSession[Any]", player: int) -> int:
        screen = self.ui.screen
        if isinstance(screen, SeatsPlayers):
            return screen.facing(player)
        g: Any = session.game
        seat = g.players[player].seat if hasattr(g, "players") and not isinstance(g.players, int) else None
        return self.ui.layout.facing(seat)

    def _rebuild(self, session: "GameSession[Any] | None") -> None:
        screen = self.ui.screen
        spots: dict[int, tuple[Rect, int]] = {}
        if session is not None and isinstance(screen, HasSeatSpots) and HUMAN in session.kinds:
            for player, kind in enumerate(session.kinds):
                spot = screen.seat_spot(player) if kind != HUMAN else None
                if spot is not None:
                    spots[player] = spot
        seconds = math.ceil(self._remaining()) if self.calling is not None else None
        note = self.note[0] if self.note is not None else None
        key = (
            self.calling,
            seconds,
            note,
            tuple(sorted(spots.items())),
            tuple(sorted(self.pending)),
            self.asking,
            self.ui.layout.width,
            self.ui.layout.height,
            self.ui.translator.language,
        )
        if key == self._built:
            return
        self._built = key
        for s in self._shapes:
            s.delete()
        self._shapes, self.joins, self.here_rect, self.note_rect, self.panel_rect = [], {}, None, None, None
        self.yes_rect = self.no_rect = None
        self._batch = None
        if session is None or not (spots or self.calling is not None or note is not None):
            return
        self._batch = pyglet.graphics.Batch()
        for player, (rect, angle) in spots.items():
            self._join_button(player, rect, angle)
        if self.asking is not None:
            self._ask_panel(session, self.asking)
        elif self.calling is not None:
            self._call_panel(session, self.calling, seconds or 0)
        elif note is not None:
            self._note_panel(session, note)
        self.ui.request_frame()

    def _panel_frame(self, session: "GameSession[Any]", player: int, h_units: float) -> tuple[Frame, Canvas]:
        """A panel on the half of the table the player sits at, turned to them."""
        c = Canvas(self.ui.layout)
        angle = self._facing(session, player)
        w = min(c.W - 40, 420)
        cy = c.H / 2
        if self.ui.layout.tabletop:
            cy = c.H * (0.72 if angle == 180 else 0.28)
        y = min(max(cy - h_units / 2, 8), c.H - h_units - 8)
        return Frame(c.r((c.W - w) / 2, y, w, h_units), angle), c

    def _text(self, frame: Frame, text: str, v: float, size: float, bold: bool = False) -> None:
        """A centred line of the panel at height `v`, wrapped (never set below the body size)."""
        c = Canvas(self.ui.layout)
        width = frame.w - c.px(28)
        font = max(fit_font(text, c.font(size), width), c.font(typeface.BODY))
        group = pyglet.graphics.Group(order=31)
        self._shapes.append(
            label(text, frame, frame.w / 2, v, font, self._batch, group, bold=bold, width=width, multiline=True)
        )

    def _panel(self, session: "GameSession[Any]", player: int, h_units: float) -> tuple[Frame, Canvas, Rect, str]:
        """A panel of the overlay drawn for `player` (:meth:`_panel_frame`): its frame, canvas, full local
        rectangle and the player's colour name."""
        frame, c = self._panel_frame(session, player, h_units)
        full = frame.full()
        self._shapes += panel(frame, full, self._batch, pyglet.graphics.Group(order=30), radius=c.px(14))
        return frame, c, full, self.ui.t(f"colour.{session.color_of(player)}")

    def _call_panel(self, session: "GameSession[Any]", player: int, seconds: int) -> None:
        t = self.ui.t
        frame, c, full, name = self._panel(session, player, 170)
        self._text(frame, t("seat.still_there", player=name), full.h - c.px(32), typeface.TITLE, bold=True)
        self._text(frame, t("seat.takes_over", seconds=seconds), full.h - c.px(76), typeface.BODY)
        bw = min(full.w - c.px(40), c.px(240))
        self.here_rect = self._panel_button(frame, c, Rect((full.w - bw) / 2, c.px(12), bw, 0), "seat.here", ACCENT)
        self.panel_rect = frame.rect

    def _ask_panel(self, session: "GameSession[Any]", player: int) -> None:
        """ "Play Red yourself?" with Yes and No, on the half of the table that seat faces (the tapper's)."""
        t = self.ui.t
        frame, c, full, name = self._panel(session, player, 150)
        self._text(frame, t("seat.join_ask", player=name), full.h - c.px(36), typeface.TITLE, bold=True)
        gap = c.px(12)
        bw = (full.w - 3 * gap) / 2
        self.no_rect = self._panel_button(frame, c, Rect(gap, gap, bw, 0), "seat.join_no", NO_BG)
        self.yes_rect = self._panel_button(frame, c, Rect(2 * gap + bw, gap, bw, 0), "seat.join_yes", JOIN_BG)
        self.panel_rect = frame.rect

    def _panel_button(self, frame: Frame, c: Canvas, where: Rect, key: str, colour: tuple[int, int, int]) -> Rect:
        """A button of a panel at `where` (panel units; its height: a touch target), its text `key`;
        returns its screen rectangle."""
        bh = max(float(c.touch), c.px(52))
        local = Rect(where.x, where.y, where.w, bh)
        self._shapes.append(box(frame, local, colour, self._batch, pyglet.graphics.Group(order=31), radius=c.px(10)))
        text = self.ui.t(key)
        size = fit_font(text, c.font(typeface.LABEL), where.w - c.px(16), minimum=c.font(typeface.BODY))
        ink = (30, 30, 30) if colour == ACCENT else (245, 245, 245)
        group = pyglet.graphics.Group(order=32)
        self._shapes.append(
            label(text, frame, local.x + where.w / 2, local.y + bh / 2, size, self._batch, group, bold=True, color=ink)
        )
        return frame.area(local)

    def _note_panel(self, session: "GameSession[Any]", player: int) -> None:
        t = self.ui.t
        frame, c, full, name = self._panel(session, player, 140)
        self._text(frame, t("seat.computer_plays", player=name), full.h - c.px(38), typeface.BODY, bold=True)
        self._text(frame, t("seat.join_again"), c.px(40), typeface.BODY)
        self.note_rect = frame.rect

    def _join_button(self, player: int, rect: Rect, angle: int) -> None:
        c = Canvas(self.ui.layout)
        frame = Frame(rect, angle)
        full = frame.full()
        group, text_group = pyglet.graphics.Group(order=26), pyglet.graphics.Group(order=27)
        self._shapes.append(box(frame, full, JOIN_BG, self._batch, group, radius=c.px(8)))
        text = self.ui.t("seat.joining" if player in self.pending else "seat.join")
        size = fit_font(text, c.font(typeface.LABEL), full.w - c.px(10), minimum=c.font(typeface.BODY))
        self._shapes.append(
            label(text, frame, full.w / 2, full.h / 2, size, self._batch, text_group, bold=True, color=(245, 245, 245))
        )
        self.joins[player] = rect


__all__ = ["HasSeatSpots", "SeatWatch"]
