"""What every game's game-over screen shares (each game names its own, GameType.over_screen).

After a game the screen waits for the players: "Play again" starts the same
seats with a new shuffle, "Back to start" returns to the attract screen, and
so does a while without a touch (``[kiosk] idle_timeout_s``). Each game's
screen only draws its own results between the headline and the buttons.
"""

from __future__ import annotations

from dataclasses import replace

from engine.outcome import GAME_OVER
from kiosk import games
from kiosk.core.events import NewGame

from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO, TOGGLE_OFF, Canvas, clear_drawing, config_value, make_button
from kiosk.ui.shell.screen import PASSERS_BY_HZ, Screen, session_for
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import Frame


class GameEndScreen(Screen):
    """Base of the game-over screens: idle back to start, play again, the two buttons."""

    game_name = ""  # the game (kiosk.games) whose session this screen reads: set by each
    again_key = "gameover.play_again"  # its words (a puzzle's: "Next puzzle")
    motion_hz = PASSERS_BY_HZ  # the podium's confetti

    def __init__(self, ui):
        super().__init__(ui)
        self.event = None
        self.quiet = 0.0
        self._shapes: list = []

    def enter(self, event=None, **kw) -> None:
        """Show `event`, or the result of the session's finished game when none is given."""
        session = session_for(self.kiosk, self.game_name)
        game = getattr(session, "game", None)
        if event is None and game is not None and game.phase == GAME_OVER:
            event = self.event_of(game, session)
        self.event = event
        self.prepare(game, event)
        self.quiet = 0.0
        self._build()

    def event_of(self, game, session):
        """The game-over event of a finished `game` (each game's own)."""
        raise NotImplementedError

    def prepare(self, game, event) -> None:
        """Note what drawing needs besides the event, before ``_build`` (optional)."""

    def resize(self, layout) -> None:
        self._build()

    def _build(self) -> None:
        """Clear the screen and, with an event to show, let the game draw it (``_draw``)."""
        clear_drawing(self)
        if self.event is None:
            return
        L = self.layout
        self._draw(self.event, L, Canvas(L), Frame(L.screen, 0))
        self.ui.request_frame()  # the new picture (the screen draws only when it changes)

    def _draw(self, ev, L, c: Canvas, frame: Frame) -> None:
        """Draw the result `ev` on canvas `c` (each game's own)."""

    def update(self, dt: float) -> None:
        self.back_when_idle(dt)

    @property
    def animating(self) -> bool:
        """A result that stands still is drawn again only when it is built again (a game whose
        result moves says so: the board game's confetti)."""
        return False

    def wake_in(self) -> float | None:
        """Back to start when nobody touched it for the idle time."""
        return max(0.0, self._idle_s() - self.quiet)

    def _idle_s(self) -> float:
        return float(config_value(self.ui, "kiosk", "idle_timeout_s", 90))

    def back_when_idle(self, dt: float) -> bool:
        """Count `dt` seconds without a touch; True (and back to start) once the idle time is over."""
        self.quiet += dt
        if self.quiet >= self._idle_s():
            self.ui.goto("attract")
            return True
        return False

    def tap(self, x: float, y: float) -> bool:
        self.quiet = 0.0
        return super().tap(x, y)

    def play_again(self) -> None:
        setup = getattr(session_for(self.kiosk, self.game_name), "setup", None)
        if setup is None:
            self.ui.goto("setup")
            return
        self.ui.post(NewGame(replace(setup, seed=None)))
        self.ui.goto(games.get(self.game_name).play_screen)

    def button_words(self) -> tuple[tuple[str, float], tuple[str, float]]:
        """The two buttons' words and their sizes: "Back to start", "Play again"."""
        return ("\u2039 " + self.t("gameover.back"), BODY), (self.t(self.again_key) + "  \u25b6", 20)

    def add_buttons(self, c: Canvas, frame: Frame, m: float, height: float, group, width: float = 300) -> None:
        """ "Back to start" bottom left, "Play again" bottom right (as `frame` reads), `m` units from the
        edges, each `width` units wide at most."""
        (back, back_size), (again, again_size) = self.button_words()
        bw = min(width, (c.W - 2 * m - 12) / 2)
        make_button(
            self,
            c,
            frame,
            Rect(m, m, bw, height),
            back,
            self.batch,
            group,
            size=back_size,
            color=TOGGLE_OFF,
            on_tap=lambda: self.ui.goto("attract"),
        )
        make_button(
            self,
            c,
            frame,
            Rect(c.W - m - bw, m, bw, height),
            again,
            self.batch,
            group,
            size=again_size,
            color=GO,
            on_tap=self.play_again,
        )
