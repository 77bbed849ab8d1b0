"""'Are you still there?': a human game left alone goes back to the attract screen.

Visitors walk away mid-game. When a human player should act (in the board game
or the card game, also while a card game's hand-over prompt waits) and nobody has
touched the screen (or pressed a button) for ``[kiosk] idle_timeout_s``, a
countdown of ``idle_countdown_s`` appears over the board, turned towards the
player whose turn it is. A tap anywhere hides it and play goes on; at zero the
game is set aside (``SuspendGame("idle", keep_s=continue_s)``) and the attract
screen returns, offering to continue it for ``[kiosk] continue_s`` seconds before
it is archived (with ``continue_s = 0`` it is abandoned at once).

While other people play, a person's long turn is the seat watch's (kiosk/ui/overlays/seats.py:
"Red, still there?", then the computer plays the seat); this watch waits for the last person.

Idle time counts from the later of the last input and the moment the human's
turn began, so a long row of computer turns never makes the overlay pop up the
instant a human is due.

The watch is an overlay, not a screen: the UI calls ``update(dt)`` each frame,
``draw()`` after the visible screen, and offers each finger-down to
``finger_down(x, y)`` first (True means the overlay used it). Time comes from
``ui.now()`` and input time from ``ui.last_input``, so tests inject a clock.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

import pyglet

from engine.outcome import GAME_OVER
from kiosk.ui.kit.text_cache import Text
from kiosk.games import HUMAN
from kiosk.core.events import SuspendGame

from kiosk.ui.shell.screen import game_on, session_for
from kiosk.ui.kit.menu import Canvas, config_value, dim, fit_font, panel
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Frame, label

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.session import GameSession

    from kiosk.ui.shell.window import UI


@runtime_checkable
class SeatsPlayers(Protocol):
    """A game screen that seats its players its own way (the card game's arcs round the table)."""

    def facing(self, player: int) -> int:
        """The angle a text for `player` is turned by: towards their side of the table."""
        ...


class IdleWatch:
    """Watches for an abandoned human game; shows the countdown; returns to attract."""

    def __init__(self, ui: "UI", timeout: float | None = None, countdown: float | None = None):
        self.ui = ui
        self._fixed = (timeout, countdown)  # given here (tests): kept when the config changes
        self.timeout = self.countdown = self.keep = 0.0
        self.reload()
        self.showing = False
        self.shown_at = 0.0
        self._awaiting_since: float | None = None
        self._batch: pyglet.graphics.Batch | None = None
        self._number: Text | None = None
        self._shown_n: int | None = None
        self._shapes: list[Any] = []
        self._built_for: tuple[Any, ...] | None = None

    def reload(self) -> None:
        """Read the times from the config again (the operator switched the preset)."""
        timeout, countdown = self._fixed
        ui = self.ui
        self.timeout = float(timeout if timeout is not None else config_value(ui, "kiosk", "idle_timeout_s", 90))
        self.countdown = float(
            countdown if countdown is not None else config_value(ui, "kiosk", "idle_countdown_s", 15)
        )
        self.keep = float(config_value(ui, "kiosk", "continue_s", 0))  # the attract screen offers it that long

    # ------------------------------------------------------------ what counts as a human game waiting
    def _session(self) -> "GameSession[Any] | None":
        """The session of the game on screen (a game's play screen); None elsewhere."""
        screen = self.ui.screen
        game = game_on(screen.name) if screen is not None else None
        return session_for(self.ui.kiosk, game) if game is not None else None

    def _waiting_human(self) -> int | None:
        """The index of the human player who should act now (also behind a card game's hand-over), or None."""
        session = self._session()
        game = session.game if session is not None else None
        if session is None or game is None or game.phase == GAME_OVER:
            return None
        if session.busy:
            return None
        kinds = session.kinds
        if game.current >= len(kinds) or kinds[game.current] != HUMAN:
            return None
        seats = getattr(self.ui, "seats", None)  # kiosk/ui/overlays/seats.py: a person while others play
        if seats is not None and seats.looks_after(session, game.current, self.timeout):
            return None
        return int(game.current)

    def _facing(self, player: int) -> int:
        """The angle the overlay is turned by: towards `player`'s side of the table."""
        screen = self.ui.screen
        if isinstance(screen, SeatsPlayers):
            return screen.facing(player)
        session = self._session()
        game = session.game if session is not None else None
        return self.ui.layout.facing(game.players[player].seat if game is not None else None)

    def idle_for(self) -> float:
        start = max(self.ui.last_input, self._awaiting_since or 0.0)
        return self.ui.now() - start

    @property
    def remaining(self) -> float:
        return max(0.0, self.countdown - (self.ui.now() - self.shown_at)) if self.showing else self.countdown

    # ------------------------------------------------------------ the hooks the UI calls
    def update(self, dt: float = 0.0) -> None:
        player = self._waiting_human() if self.timeout > 0 else None  # 0 = never
        now = self.ui.now()
        if player is None:
            self._awaiting_since = None
            self.hide()
            return
        if self._awaiting_since is None:
            self._awaiting_since = now
        if not self.showing:
            if self.idle_for() >= self.timeout:
                self.show(player)
            return
        if self.ui.last_input > self.shown_at:  # a button press (not a tap on us) also counts
            self.hide()
            return
        if self.remaining <= 0:
            self.expire()
            return
        n = math.ceil(self.remaining)
        if n != self._shown_n and self._number is not None:
            self._shown_n = n
            self._number.text = str(n)

    def wake_in(self) -> float | None:
        """Seconds until "are you still there?" is due (None: nobody is being waited for; while it
        shows, the UI draws every frame anyway)."""
        if self.timeout <= 0 or self.showing or self._awaiting_since is None:
            return None
        return self.timeout - self.idle_for()

    def finger_down(self, x: float, y: float) -> bool:
        """A finger went down: while showing, it dismisses the overlay and is used up."""
        if not self.showing:
            return False
        self.hide()
        self.ui.last_input = self.ui.now()
        return True

    def draw(self) -> None:
        if self.showing and self._batch is not None:
            self._batch.draw()

    # ------------------------------------------------------------ states
    def show(self, player: int) -> None:
        self.showing = True
        self.shown_at = self.ui.now()
        self._build(player)

    def hide(self) -> None:
        if self.showing:
            self.ui.request_frame()  # the frame under the overlay must be drawn again
        self.showing = False

    def expire(self) -> None:
        """Time is up: set the game aside (the attract screen offers to continue it) and show the
        attract screen."""
        self.hide()
        self._awaiting_since = None
        self.ui.post(SuspendGame("idle", keep_s=self.keep))
        self.ui.goto("attract")

    # ------------------------------------------------------------ drawing
    def _build(self, player: int) -> None:
        for s in self._shapes:
            s.delete()
        self._shapes = []
        layout = self.ui.layout
        batch = self._batch = pyglet.graphics.Batch()
        c = Canvas(layout)
        back, front = pyglet.graphics.Group(order=20), pyglet.graphics.Group(order=21)
        self._shapes.append(dim(layout, batch, back, alpha=190))
        angle = self._facing(player)
        w, h = min(c.W - 40, 460), min(c.H - 40, 300)
        frame = Frame(c.r((c.W - w) / 2, (c.H - h) / 2, w, h), angle)
        full = frame.full()
        self._shapes += panel(frame, full, batch, back, radius=c.px(16))
        t = self.ui.t
        text = t("idle.still_there")
        self._shapes.append(
            label(
                text,
                frame,
                full.w / 2,
                full.h - c.px(42),
                fit_font(text, c.font(26), full.w - 30),
                batch,
                front,
                bold=True,
            )
        )
        n = math.ceil(self.remaining)
        self._shown_n = n
        self._shapes.append(
            pyglet.shapes.Circle(
                *frame.point(full.w / 2, full.h / 2 - c.px(6)), c.px(50), color=ACCENT, batch=batch, group=back
            )
        )
        self._number = label(
            str(n), frame, full.w / 2, full.h / 2 - c.px(6), c.font(52), batch, front, bold=True, color=(30, 30, 30)
        )
        self._shapes.append(self._number)
        tap = t("idle.tap_to_continue")
        self._shapes.append(
            label(tap, frame, full.w / 2, c.px(34), fit_font(tap, c.font(20), full.w - 30), batch, front, color=INK)
        )
        self._shapes.append(label("\u261d", frame, full.w * 0.12, full.h / 2, c.font(40), batch, front, color=DIM))


__all__ = ["IdleWatch"]
