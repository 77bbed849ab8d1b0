"""The race on the kiosk's screens: its setup panel, its play screen, its game over and its replay.

The smallest whole example of a game's screens (docs/adding-a-game.md): a track per player
with its token, a Roll button for the person to act, the winner at the end, and a record
stepped by ``labyrinth-replay --display``. Imported only with a display (``GameType.screens``
and ``GameType.setup_panel`` name it lazily); nothing outside this folder names it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

import pyglet

from kiosk.core.events import GameSetup, SeatSetup
from kiosk.games import HUMAN
from kiosk.ui.screens.playback import ReplaySteps
from kiosk.ui.screens.game_end import GameEndScreen
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import BUTTON, GO, TOGGLE_OFF, Canvas, clear_drawing, make_button, panel
from kiosk.ui.shell.screen import Screen, register, session_for
from kiosk.ui.kit.setup_panel import SetupPanel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, INK, Frame, label
from tests.support.race.engine import GOAL, NAME, PLAYERS
from tests.support.race.kiosk import COLOURS, RaceOver, Roll

RGB = {"red": (226, 54, 54), "yellow": (250, 206, 40), "green": (46, 172, 84)}


# ----------------------------------------------------------------- its part of the setup screen


@dataclass
class RaceChoices:
    players: int = 2
    kinds: list[str] = field(default_factory=lambda: [HUMAN, "dice", "dice"])


class RaceSetup(SetupPanel):
    """How many race (2 or 3) and who plays each seat: a person or the dice."""

    choices: RaceChoices

    def reset(self) -> None:
        self.choices = RaceChoices()

    def game_setup(self, first_player: Callable[[int], int]) -> GameSetup:
        n = self.choices.players
        return GameSetup(seats=tuple(SeatSetup(k) for k in self.choices.kinds[:n]), game=NAME, first=first_player(n))

    @property
    def nobody_plays(self) -> bool:
        return HUMAN not in self.choices.kinds[: self.choices.players]

    def set_players(self, n: int) -> None:
        self.choices.players = n
        self.rebuild()

    def set_kind(self, index: int, kind: str) -> None:
        self.choices.kinds[index] = kind
        self.rebuild()

    def build(self, c: Canvas, frame: Frame, top: float, bottom: float) -> None:
        m, h = 12, 48
        y = top - h
        self._text(c, frame, self.t("setup.players"), m, y + h / 2, BODY, width=118)
        self.count_buttons = {}
        for k, n in enumerate(range(PLAYERS[0], PLAYERS[1] + 1)):
            on = n == self.choices.players
            self.count_buttons[n] = make_button(
                self,
                c,
                frame,
                Rect(m + 124 + k * 70, y, 62, h),
                str(n),
                self.batch,
                self._bg,
                size=24,
                color=ACCENT if on else BUTTON,
                text_color=(30, 30, 30) if on else INK,
                on_tap=partial(self.set_players, n),
            )
        self.kind_buttons: dict[int, dict[str, Any]] = {}
        row = min(64.0, (y - 8 - bottom - 8) / self.choices.players - 6)
        for i in range(self.choices.players):
            ry = y - 8 - (i + 1) * (row + 6)
            self._shapes += panel(frame, c.r(m, ry, c.W - 2 * m, row), self.batch, self._bg, radius=c.px(10))
            self._text(c, frame, COLOURS[i].title(), m + 14, ry + row / 2, BODY, color=RGB[COLOURS[i]], width=110)
            self.kind_buttons[i] = {}
            for j, (kind, words) in enumerate(((HUMAN, self.t("setup.human")), ("dice", "Dice"))):
                on = self.choices.kinds[i] == kind
                self.kind_buttons[i][kind] = make_button(
                    self,
                    c,
                    frame,
                    Rect(m + 140 + j * 160, ry + (row - 48) / 2, 150, 48),
                    words,
                    self.batch,
                    self._bg,
                    size=BODY,
                    color=ACCENT if on else TOGGLE_OFF,
                    text_color=(30, 30, 30) if on else INK,
                    on_tap=partial(self.set_kind, i, kind),
                )


# ----------------------------------------------------------------- play, game over, replay


@register("race_play")
class RacePlayScreen(Screen):
    """A track per player with its token at its square; Roll for the person to act."""

    background = (22, 30, 26)
    controls = True  # the Roll button (the replay has none)

    def __init__(self, ui: Any) -> None:
        super().__init__(ui)
        self._shapes: list[Any] = []
        self.batch = pyglet.graphics.Batch()
        self.roll_button: Any = None

    @property
    def session(self) -> Any:
        return session_for(self.kiosk, NAME)

    def enter(self, **kw: Any) -> None:
        self._build()

    def resize(self, layout: Any) -> None:
        self._build()

    def on_event(self, event: Any) -> None:
        if isinstance(event, RaceOver):
            self.ui.goto("race_gameover", event=event)
            return
        self._build()

    def roll(self) -> None:
        self.ui.post(Roll(source="touch"))

    def _build(self) -> None:
        clear_drawing(self)
        self.roll_button = None
        game = getattr(self.session, "game", None)
        if game is None:
            return
        c = Canvas(self.layout)
        frame = Frame(self.layout.screen, 0)
        n = len(game.positions)
        lane = min(80.0, (c.H - 120) / n)
        step = (c.W - 80) / (GOAL + 1)
        for i, at in enumerate(game.positions):
            y = c.H - 30 - (i + 1) * lane
            colour = RGB[COLOURS[i]]
            self._shapes += panel(frame, c.r(20, y, c.W - 40, lane - 10), self.batch, None, radius=c.px(8))
            cx, cy = frame.point(c.px(40 + min(at, GOAL + 1) * step), c.px(y + (lane - 10) / 2))
            self._shapes.append(pyglet.shapes.Circle(cx, cy, c.px(14), color=colour, batch=self.batch))
            if i == game.current and game.outcome is None:
                self._shapes.append(
                    label("\u25b6", frame, c.px(8), c.px(y + (lane - 10) / 2), c.font(BODY), self.batch, color=colour)
                )
        kinds = getattr(self.session, "kinds", ())
        if self.controls and game.outcome is None and kinds and kinds[game.current] == HUMAN:
            self.roll_button = make_button(
                self,
                c,
                frame,
                Rect(c.W - 232, 12, 220, 60),
                "Roll",
                self.batch,
                None,
                size=22,
                color=GO,
                on_tap=self.roll,
            )

    def draw(self) -> None:
        self.batch.draw()


@register("race_gameover")
class RaceOverScreen(GameEndScreen):
    """Who won the race, then play again or back to start."""

    game_name = NAME
    play_screen = "race_play"

    def event_of(self, game: Any, session: Any) -> RaceOver:
        return RaceOver(game.winners, game.turns, tuple(session.kinds))

    def _draw(self, ev: Any, L: Any, c: Canvas, frame: Frame) -> None:
        names = " and ".join(COLOURS[w].title() for w in ev.winners)
        self.headline = label(
            f"{names} wins after {ev.turns} rolls",
            frame,
            c.px(c.W / 2),
            c.px(c.H / 2),
            c.font(28),
            self.batch,
            color=INK,
            bold=True,
        )
        self._shapes.append(self.headline)
        self.add_buttons(c, frame, 12, 60, None)


@register("race_replay")
class RaceReplayScreen(ReplaySteps, RacePlayScreen):
    """One position of a race record at a time: the tracks as they stood, no Roll."""

    controls = False

    def shown(self) -> None:
        self._build()

    def enter(self, *args: Any, **kw: Any) -> None:
        ReplaySteps.enter(self, *args, **kw)
        self._build()

    def on_event(self, event: Any) -> None:
        pass

    def update(self, dt: float) -> None:
        self.replay_tick(dt)


def screens() -> dict[str, type]:
    return {"race_play": RacePlayScreen, "race_gameover": RaceOverScreen, "race_replay": RaceReplayScreen}
