"""The puzzles' part of the setup screen (``GameType.setup_panel``; the screen around it is
kiosk/ui/screens/setup.py): the puzzle of the day, or a puzzle of a grade -- easy, medium or hard.

The choice becomes the setup's seed: the pack's puzzle of the day, or one of the chosen grade
drawn from the pack (kiosk/games/puzzles/pack.py), so the session plays exactly that puzzle and
"Play again" another of the same grade. One person plays; the caption says what earns the stars.
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from functools import partial
from typing import Callable

from engine.puzzles import GRADES

from kiosk.core.events import GameSetup, SeatSetup
from kiosk.games import HUMAN
from kiosk.games.puzzles import pack
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import BUTTON, Canvas, config_value, make_button
from kiosk.ui.kit.setup_panel import SetupPanel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Frame, label

#: The choices, in the order the buttons show them: the day's puzzle first.
DAILY = "daily"
MODES = (DAILY, *GRADES)
#: Stars beside a grade's name: how hard it is at a glance (and for those who do not read yet).
GRADE_MARKS = {"easy": "\u2605", "medium": "\u2605\u2605", "hard": "\u2605\u2605\u2605"}


@dataclass
class PuzzleChoices:
    """What the visitor picked: the puzzle of the day or a grade."""

    mode: str = DAILY
    hints: bool | None = None  # [game] hints: the solver's next turn on request
    turn_limit: int = 0  # [game] turn_limit (0: the puzzle's own 12 turns)


class PuzzleSetup(SetupPanel):
    """Four big buttons: the puzzle of the day, easy, medium, hard."""

    choices: PuzzleChoices
    today: Callable[[], datetime.date] = datetime.date.today

    def reset(self) -> None:
        ui = self.screen.ui
        hints = config_value(ui, "game", "hints", None)
        self.choices = PuzzleChoices(
            hints=hints if isinstance(hints, bool) else None,
            turn_limit=int(config_value(ui, "game", "turn_limit", 0) or 0),
        )

    def game_setup(self, first_player: Callable[[int], int]) -> GameSetup:
        ch = self.choices
        puzzle = pack.of_day(self.today()) if ch.mode == DAILY else pack.any_of(ch.mode, random.Random())
        return GameSetup(
            seats=(SeatSetup(HUMAN),), seed=puzzle.seed, game=self.game.name, hints=ch.hints, turn_limit=ch.turn_limit
        )

    @property
    def nobody_plays(self) -> bool:
        return False

    def choose(self, mode: str) -> None:
        self.choices.mode = mode
        self.rebuild()

    def label_of(self, mode: str) -> str:
        if mode == DAILY:
            grade = pack.of_day(self.today()).grade
            return f"{self.t('puzzles.daily')}  {GRADE_MARKS[grade]}"
        return f"{self.t(f'puzzles.grade_{mode}')}  {GRADE_MARKS[mode]}"

    def build(self, c: Canvas, frame: Frame, top: float, bottom: float) -> None:
        m = 12
        gap = 10
        portrait = c.H > c.W
        caption_h = 96 if portrait else 44  # two or three lines on a narrow screen
        area_top = top - 8
        area_bottom = bottom + caption_h + 8
        cols = 1 if portrait else 2
        rows = len(MODES) // cols
        w = (c.W - 2 * m - gap * (cols - 1)) / cols
        h = min(96.0, (area_top - area_bottom - gap * (rows - 1)) / rows)
        used = rows * h + gap * (rows - 1)
        y0 = area_bottom + (area_top - area_bottom - used) / 2
        for k, mode in enumerate(MODES):
            row, col = divmod(k, cols)
            on = mode == self.choices.mode
            make_button(
                self,
                c,
                frame,
                Rect(m + col * (w + gap), y0 + (rows - 1 - row) * (h + gap), w, h),
                self.label_of(mode),
                self.batch,
                self._bg,
                size=22,
                color=ACCENT if on else BUTTON,
                text_color=(30, 30, 30) if on else INK,
                wrap=True,
                on_tap=partial(self.choose, mode),
            )
        caption = self.t("puzzles.setup_caption")  # wrapped onto lines of the body size, never shrunk
        self._shapes.append(
            label(
                caption,
                frame,
                c.px(c.W / 2),
                c.px(bottom + caption_h / 2 + 4),
                c.font(BODY),
                self.batch,
                self._fg,
                color=DIM,
                bold=False,
                width=c.px(c.W - 2 * m),
                multiline=True,
            )
        )
