"""The card game's part of the setup screen: how many play (2 to 6) and who plays each seat
(``GameType.setup_panel``; the screen around it is kiosk/ui/screens/setup.py).

One card per player (a row each where six do not fit side by side): its colour, a person or
the computer at one of three strengths, and what that computer does.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import pyglet

from kiosk.core.events import GameSetup, SeatSetup
from kiosk.games import HUMAN
from kiosk.games.cards.screens.seats import STRENGTH_STARS, player_rgb
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import (
    TOGGLE_OFF,
    TOGGLE_ON,
    Canvas,
    config_value,
    make_button,
    measure,
    panel,
    star_button,
)
from kiosk.ui.kit.setup_panel import SetupPanel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, INK, Frame, label

CARD_LEVELS = tuple(STRENGTH_STARS)  # the card game's computer players, weakest first
CARD_COLOR_KEYS = ("red", "yellow", "green", "blue", "purple", "turquoise")


@dataclass
class CardChoices:
    """What the visitor picked so far."""

    players: int = 2
    kinds: list[str] = field(default_factory=lambda: [HUMAN] + ["easy"] * 5)
    turn_limit: int = 0  # [game] turn_limit (no control on this screen)
    first: int | None = None  # who starts; None: [game] first_player (random by default)


class CardSetup(SetupPanel):
    """The card game's players: 2 to 6, each a person or the computer at one of three strengths."""

    choices: CardChoices

    def reset(self) -> None:
        self.choices = CardChoices(turn_limit=int(config_value(self.screen.ui, "game", "turn_limit", 0) or 0))

    def game_setup(self, first_player: Callable[[int], int]) -> GameSetup:
        ch = self.choices
        n = ch.players
        return GameSetup(
            seats=tuple(SeatSetup(k) for k in ch.kinds[:n]),
            game=self.game.name,
            turn_limit=ch.turn_limit,
            first=ch.first if ch.first is not None else first_player(n),
        )

    @property
    def nobody_plays(self) -> bool:
        return HUMAN not in self.choices.kinds[: self.choices.players]

    def build(self, c: Canvas, frame: Frame, top: float, bottom: float) -> None:
        m = 12
        if c.W >= c.H:
            y = top - 48
            self._players_row(c, frame, m, y, 48)
            self._card_seats(c, frame, m, bottom + 10, c.W - 2 * m, y - 8 - (bottom + 10), cols=3)
            return
        y = top - 52
        self._players_row(c, frame, m, y, 52)
        self._card_seats(c, frame, m, bottom + 12, c.W - 2 * m, y - 12 - (bottom + 12), cols=2)

    def set_players(self, n: int) -> None:
        self.choices.players = n
        if HUMAN not in self.choices.kinds[:n]:
            self.choices.kinds[0] = HUMAN
        self.rebuild()

    def _players_row(self, c: Canvas, frame: Frame, x: float, y: float, h: float) -> None:
        """How many play: 2-6, five buttons from the same place as the board game's 1-4."""
        self._count_row(c, frame, x, y, h, range(2, 7), 56, 62, self.choices.players, self.set_players)

    def _card_seat(self, c, frame: Frame, index: int, x, y, w, h) -> None:
        """One card player: colour, what the computer does, then person / easy / medium / hard: in one
        row, or two (the person alone) where a card is narrow and tall (portrait)."""
        t = self.t
        kind = self.choices.kinds[index]
        rgb = player_rgb(index)
        self._shapes += panel(frame, c.r(x, y, w, h), self.batch, self._bg, radius=c.px(10))
        self._shapes += panel(frame, c.r(x, y + h - 6, w, 6), self.batch, self._bg, color=rgb, edge=rgb, radius=c.px(3))
        top = y + h - 22
        self._shapes.append(
            pyglet.shapes.Circle(
                *frame.point(c.px(x + 18), c.px(top)), c.px(9), color=rgb, batch=self.batch, group=self._fg
            )
        )
        name = t(f"colour.{CARD_COLOR_KEYS[index]}")
        self._text(c, frame, name, x + 34, top, BODY, color=text_shade(rgb), width=w - 42)
        pad, gap = 8, 4
        options = (HUMAN,) + CARD_LEVELS
        human = t("setup.human")
        room = w - 2 * pad - gap * (len(options) - 1)
        bw = 48.0  # a finger wide; "Human" gets what is left (more)
        human_w = room - bw * (len(options) - 1)
        two_rows = measure(human, c.font(BODY))[0] > c.px(human_w - 8) and h >= 30 + 2 * 48 + 6 + 8 + 30
        rows = [(y + 8, options)] if not two_rows else [(y + 8 + 48 + 6, options[:1]), (y + 8, options[1:])]
        for row_y, row in rows:
            n = len(row)
            if two_rows:
                widths = [w - 2 * pad] if n == 1 else [(w - 2 * pad - gap * (n - 1)) / n] * n
            else:
                widths = [human_w] + [bw] * (n - 1)
            bx = x + pad
            for option, width in zip(row, widths):
                on = kind == option
                # the same words and stars as the board game's seats: "Human", then easy / medium / hard
                color = (ACCENT if option == HUMAN else TOGGLE_ON) if on else TOGGLE_OFF
                if option == HUMAN:
                    make_button(
                        self,
                        c,
                        frame,
                        Rect(bx, row_y, width, 48),
                        human,
                        self.batch,
                        self._bg,
                        size=BODY,
                        color=color,
                        text_color=(30, 30, 30) if on else INK,
                        on_tap=partial(self.set_card_kind, index, option),
                    )
                else:
                    b = star_button(
                        self,
                        c,
                        frame,
                        Rect(bx, row_y, width, 48),
                        STRENGTH_STARS[option],
                        self.batch,
                        self._bg,
                        color=color,
                        star_color=(30, 30, 30) if on else INK,
                        on_tap=partial(self.set_card_kind, index, option),
                    )
                    self._shapes += b.marks
                bx += width + gap
        # what this player does, between the name and the buttons (wrapped where it is long)
        level = t("setup.cards.level." + kind) if kind != HUMAN else ""
        if level:
            below = rows[0][0] + 48 + 4
            lbl = label(
                level,
                frame,
                c.px(x + 10),
                c.px((top - 16 + below) / 2),
                c.font(BODY),
                self.batch,
                self._fg,
                color=INK,
                anchor_x="left",
                width=c.px(w - 20),
                multiline=True,
                align="left",
            )
            self._shapes.append(lbl)

    def set_card_kind(self, index: int, kind: str) -> None:
        self.choices.kinds[index] = kind
        self.rebuild()

    def _card_seats(self, c, frame, x, y, w, h, cols: int) -> None:
        """Up to three players as cards side by side; more (and portrait) as rows, two columns of them
        in landscape: a card three to a row is too narrow for "Human" and three star buttons."""
        n = self.choices.players
        gap = 10
        if n > 3 or c.H > c.W:
            cols = 2 if c.W >= c.H else 1
            rows = (n + cols - 1) // cols
            cw = (w - gap * (cols - 1)) / cols
            rh = min(100, (h - 6 * (rows - 1)) / rows)
            for i in range(n):
                r, k = divmod(i, cols)
                self._card_row(c, frame, i, x + k * (cw + gap), y + h - (r + 1) * rh - r * 6, cw, rh)
            return
        cols = min(cols, n)
        rows = (n + cols - 1) // cols
        cw = (w - gap * (cols - 1)) / cols
        ch = min(150, (h - gap * (rows - 1)) / rows)
        top = y + h
        for i in range(n):
            r, k = divmod(i, cols)
            self._card_seat(c, frame, i, x + k * (cw + gap), top - (r + 1) * ch - r * gap, cw, ch)

    def _card_row(self, c, frame: Frame, index: int, x, y, w, h) -> None:
        """One card player as a row: colour, person / easy / medium / hard, and what the computer
        does under them where the row is tall enough."""
        t = self.t
        kind = self.choices.kinds[index]
        rgb = player_rgb(index)
        self._shapes += panel(frame, c.r(x, y, w, h), self.batch, self._bg, radius=c.px(10))
        self._shapes += panel(frame, c.r(x, y, 6, h), self.batch, self._bg, color=rgb, edge=rgb, radius=c.px(3))
        described = h >= 48 + 34 + 12
        line_y = y + h - 6 - 48 if described else y + (h - 48) / 2
        cy = line_y + 24
        self._shapes.append(
            pyglet.shapes.Circle(
                *frame.point(c.px(x + 18), c.px(cy)), c.px(8), color=rgb, batch=self.batch, group=self._fg
            )
        )
        name_w = 92
        self._text(
            c, frame, t(f"colour.{CARD_COLOR_KEYS[index]}"), x + 30, cy, BODY, color=text_shade(rgb), width=name_w
        )
        sw, gap = 48, 3
        bx = x + 30 + name_w + 4
        hw = w - (bx - x) - 6 - 3 * (sw + gap)
        on = kind == HUMAN
        make_button(
            self,
            c,
            frame,
            Rect(bx, line_y, hw, 48),
            t("setup.human"),
            self.batch,
            self._bg,
            size=BODY,
            color=ACCENT if on else TOGGLE_OFF,
            text_color=(30, 30, 30) if on else INK,
            on_tap=lambda: self.set_card_kind(index, HUMAN),
        )
        for j, option in enumerate(CARD_LEVELS):
            on = kind == option
            b = star_button(
                self,
                c,
                frame,
                Rect(bx + hw + gap + j * (sw + gap), line_y, sw, 48),
                STRENGTH_STARS[option],
                self.batch,
                self._bg,
                color=TOGGLE_ON if on else TOGGLE_OFF,
                star_color=(30, 30, 30) if on else INK,
                on_tap=partial(self.set_card_kind, index, option),
            )
            self._shapes += b.marks
        if described and kind != HUMAN:
            self._text(
                c,
                frame,
                t("setup.cards.level." + kind),
                x + 16,
                (y + line_y) / 2,
                BODY,
                color=INK,
                bold=False,
                width=w - 24,
            )
