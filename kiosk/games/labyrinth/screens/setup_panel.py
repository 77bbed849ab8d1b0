"""The board game's part of the setup screen: how many play, who plays each seat, who starts, the
easier rules (``GameType.setup_panel``; the screen around it is kiosk/ui/screens/setup.py).

One card per seat (a person, the computer and how strong, or "Family"), the two "younger
children" variants plus hints. In the tabletop layout each corner has a join control: a
person who taps it plays the seat at that corner. Every control is at least a finger wide
(48 px on 800x480). The choices come from the config's ``[game]`` section.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Any, Callable

import pyglet

from kiosk.core.events import GameSetup, SeatSetup
from kiosk.games import HUMAN
from engine.labyrinth.parts import GAME_NAME, MAX_PLAYERS
from kiosk.ui.art import SEAT_COLORS, draw_pawn
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit import seating
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import (
    TOGGLE_OFF,
    TOGGLE_ON,
    Canvas,
    Toggle,
    config_value,
    first_fitting,
    make_button,
    measure,
    panel,
    star_button,
)
from kiosk.games.labyrinth.screens.player_panel import ACTIVE_TRAY
from kiosk.ui.kit.setup_panel import SetupPanel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Frame, box, label

FRIENDLY = "fair"  # the engine's level that adapts to the table: offered as "Family" when it exists
LEVELS = ("easy", "medium", "hard")
STARS = {"easy": "\u2605", "medium": "\u2605\u2605", "hard": "\u2605\u2605\u2605"}


def levels() -> tuple[str, ...]:
    """The computer levels the setup offers: the three star levels, plus "Family" (``fair``, its own
    choice beside "Computer") when the engine has it (engine.labyrinth.ai.LEVELS)."""
    from kiosk import games

    return LEVELS + ((FRIENDLY,) if FRIENDLY in games.get(GAME_NAME).ai_levels else ())


COLOR_KEYS = ("red", "yellow", "green", "blue")
JOIN_W = 112  # design units: the corner join controls (tabletop)
HELP_H = 32  # design units: a toggle's help line under it (one line at the body size)
PLATE_H = 30  # design units: a seat card's name plate, where its pawn stands


def seat_icon(kind: str, cx: float, cy: float, size: float, color, batch, group, angle: int = 0) -> list:
    """The picture of who plays a seat, `size` px tall, centred at (cx, cy), turned `angle` (0, 180):
    a person (head and shoulders), the computer (a screen on its stand), "Family" (the screen with
    a person beside it: the computer that plays as well as the people at the table)."""
    up = -1 if angle == 180 else 1
    out: list = []

    def part(dx: float, dy: float, w: float, h: float, round_: float = 0.0) -> None:
        """A rectangle centred (dx, dy) from the middle, as the reader sees it (turned with `angle`)."""
        x, y = cx + up * dx - w / 2, cy + up * dy - h / 2
        if round_:
            out.append(
                pyglet.shapes.RoundedRectangle(x, y, w, h, round_, segments=4, color=color, batch=batch, group=group)
            )
        else:
            out.append(pyglet.shapes.Rectangle(x, y, w, h, color=color, batch=batch, group=group))

    def person(dx: float, dy: float, s: float) -> None:
        out.append(
            pyglet.shapes.Circle(
                cx + up * dx, cy + up * (dy + s * 0.22), s * 0.21, color=color, batch=batch, group=group
            )
        )
        part(dx, dy - s * 0.26, s * 0.62, s * 0.4, s * 0.15)

    def screen(dx: float, dy: float, s: float) -> None:
        part(dx, dy + s * 0.1, s * 0.9, s * 0.58)
        part(dx, dy - s * 0.27, s * 0.12, s * 0.18)
        part(dx, dy - s * 0.38, s * 0.5, s * 0.07)

    if kind == HUMAN:
        person(0, 0, size)
    elif kind == "computer":
        screen(0, 0, size)
    else:
        screen(-size * 0.2, size * 0.05, size * 0.85)
        person(size * 0.42, -size * 0.14, size * 0.6)
    return out


@dataclass
class Choices:
    """What the visitor picked so far."""

    players: int = 2
    kinds: list[str] = field(default_factory=lambda: [HUMAN, "medium", "medium", "medium"])
    open_cards: bool = False
    return_home: bool = True
    treasures: int = 0  # per player, the quick game (0: all, the classic deal)
    hints: bool | None = None  # None: on exactly in the children's variants

    @property
    def hints_on(self) -> bool:
        if self.hints is not None:
            return self.hints
        return self.open_cards or not self.return_home

    joined: list[int] = field(default_factory=list)  # corners people joined at, in order (tabletop)

    def seats(self) -> tuple[int, ...]:
        """The start corners: those people joined at, then the rest (kiosk/ui/kit/seating.py)."""
        return seating.seats_for(self.players, self.joined)

    @property
    def seat_free(self) -> bool:
        """A seat nobody joined yet: a person may still join at a corner (the player count is the
        one way to say how many play; joining says who sits where)."""
        return len(self.joined) < self.players

    def join(self, seat: int) -> None:
        """A person at corner `seat` joins (or, joined already, leaves): joined seats are people.
        With every seat taken by people, a newcomer at a free corner adds a seat: a third person
        at a table set for two must not have to find the player count, upside down for them."""
        others = [k for k in self.kinds[len(self.joined) :] if k != HUMAN]
        if seat in self.joined:
            self.joined.remove(seat)
        elif self.seat_free:
            self.joined.append(seat)
        elif self.players < MAX_PLAYERS:
            self.players += 1
            self.joined.append(seat)
        else:
            return
        kinds = [HUMAN] * len(self.joined) + others
        self.kinds = (kinds + ["medium"] * 4)[:4]
        if HUMAN not in self.kinds[: self.players]:
            self.kinds[0] = HUMAN

    turn_limit: int = 0  # [game] turn_limit (no control on this screen)
    first: int | None = None  # who starts; None: [game] first_player (random by default)

    def game_setup(self, first_player=lambda players: 0) -> GameSetup:
        """The chosen game; `first_player(n)` picks who starts when the visitors did not."""
        return GameSetup(
            seats=tuple(SeatSetup(k, s) for k, s in zip(self.kinds, self.seats())),
            variants={"open_cards": self.open_cards, "return_home": self.return_home, "treasures": self.treasures},
            hints=self.hints_on,
            turn_limit=self.turn_limit,
            game=GAME_NAME,
            first=self.first if self.first is not None else first_player(self.players),
        )


def configured(ui: Any, name: str) -> Any:
    """The operator's value of the board game's variant `name` (``[game]``; its default without a config)."""
    from kiosk import games

    variant = games.get(GAME_NAME).variant_named(name)
    config = ui.kiosk.config
    return variant.default if config is None else config.game.variants.get(variant.key, variant.default)


def choices_from_config(ui) -> Choices:
    """The defaults an operator configured (``[game] players, seats, hints`` and the variants' keys)."""
    players = int(config_value(ui, "game", "players", 2))
    players = min(4, max(1, players))
    kinds = [
        k if k in (HUMAN,) + levels() else ("easy" if k == "random" else "medium")
        for k in config_value(ui, "game", "seats", (HUMAN, "medium"))
    ]
    kinds = (kinds + ["medium"] * 4)[:4]
    if HUMAN not in kinds[:players]:
        kinds[0] = HUMAN
    return Choices(
        players=players,
        kinds=kinds,
        open_cards=bool(configured(ui, "open_cards")),
        return_home=bool(configured(ui, "return_home")),
        treasures=int(configured(ui, "treasures")),
        hints=config_value(ui, "game", "hints", None),
        turn_limit=int(config_value(ui, "game", "turn_limit", 0) or 0),
    )


class BoardSetup(SetupPanel):
    """The board game's seats, who starts and its easier rules; join controls at the corners (tabletop)."""

    choices: Choices

    def reset(self) -> None:
        self.choices = choices_from_config(self.screen.ui)
        self.kind_buttons: dict[int, dict[str, Any]] = {}

    @property
    def chosen(self) -> Choices:
        return self.choices

    def opened_at(self, x: float, y: float) -> None:
        """The person who opened the setup joins at their corner."""
        self.choices.join(seating.corner_seat(self.layout, x, y))

    def corners(self) -> float:
        return JOIN_W if self.layout.tabletop else 0

    def game_setup(self, first_player: Callable[[int], int]) -> GameSetup:
        return self.choices.game_setup(first_player)

    def play_options(self) -> dict[str, Any]:
        return {"hints": self.choices.hints_on}

    @property
    def nobody_plays(self) -> bool:
        return HUMAN not in self.choices.kinds[: self.choices.players]

    def build(self, c: Canvas, frame: Frame, top: float, bottom: float) -> None:
        self.kind_buttons = {}
        m = 12
        if self.layout.tabletop:
            self._join_controls(c, frame.angle)
        if c.W >= c.H:
            y = top - 48
            self._players_row(c, frame, m, y, c.W - 2 * m, 48)
            # from the bottom: the easier rules with their help line, then the seats
            toggles_y = bottom + 6 + HELP_H
            self._toggles(c, frame, m, toggles_y, c.W - 2 * m, 48, stacked=False)
            seats_y = toggles_y + 48 + 8
            self._seats(c, frame, m, seats_y, c.W - 2 * m, y - 8 - seats_y, cols=4)
            return
        y = top - 52
        self._players_row(c, frame, m, y, c.W - 2 * m, 52)
        n = self.choices.players
        # the easier rules sit just above the bottom row; the seats' rows between them and the
        # players row, lower where a short screen (480x800) has no room for 64 units each
        toggles_y = bottom + 8 + HELP_H + 2 * (52 + HELP_H)
        y -= 6 if self.layout.tabletop else 12
        seats_h = min(n * 64 + (n - 1) * 6, y - (toggles_y + 52 + 8))
        y -= seats_h
        self._seats(c, frame, m, y, c.W - 2 * m, seats_h, cols=1)
        self._toggles(c, frame, m, toggles_y, c.W - 2 * m, 52, stacked=True)

    # ------------------------------------------------------------ actions
    def set_players(self, n: int) -> None:
        """The one way to say how many play (a person at a corner then joins one of those seats)."""
        self.choices.players = n
        del self.choices.joined[n:]
        if HUMAN not in self.choices.kinds[:n]:
            self.choices.kinds[0] = HUMAN
        self.rebuild()

    def set_kind(self, index: int, kind: str) -> None:
        """Seat `index` is played by `kind` ("computer": at its level so far, else medium); a seat
        someone joined stays a person."""
        if self._joined(index) and kind != HUMAN:
            return
        if kind == "computer":
            kind = self.choices.kinds[index] if self.choices.kinds[index] in LEVELS else "medium"
        self.choices.kinds[index] = kind
        self.rebuild()

    def _toggle(self, name: str, on: bool) -> None:
        if name == "no_return_home":
            self.choices.return_home = not on
        else:
            setattr(self.choices, name, on)
        self.rebuild()

    def _players_row(self, c, frame, x, y, w, h) -> None:
        self._count_row(c, frame, x, y, h, range(1, 5), 62, 70, self.choices.players, self.set_players)
        if w >= 560:  # who starts and how many treasures, side by side, each as wide as its words need
            left = 124 + 3 * 70 + 62 + 8  # after the four count buttons
            room = w - left - 8
            first_w = (
                room
                * self._widest(c, self._first_words())
                / (self._widest(c, self._first_words()) + self._widest(c, self._treasures_words()))
            )
            self._first_button(c, frame, x + left, y, first_w, h)
            self._treasures_button(c, frame, x + left + first_w + 8, y, room - first_w, h)

    def _first_words(self) -> list[str]:
        """Every text the who-starts button can show (its width does not change as it is tapped)."""
        t = self.t
        return [f"{t('setup.first')}: {t(k)}" for k in ("setup.first.random", *(f"colour.{c}" for c in COLOR_KEYS))]

    def _treasures_words(self) -> list[str]:
        from kiosk import games

        t = self.t
        choices = games.get(GAME_NAME).variant_named("treasures").choices
        return [f"{t('setup.treasures')}: {t('setup.treasures.all') if n == 0 else n}" for n in choices]

    @staticmethod
    def _caption(c: Canvas, w: float, name: str, value: str) -> str:
        """ "Starts: Random" at the body size where the button (`w` design units) has the room, else
        the value alone (the button's colour and place still say which choice it is) rather than
        a text set under the type scale: a guard for long translations."""
        return first_fitting((f"{name}: {value}", value), c.font(BODY), c.px(w) - c.px(8))

    @staticmethod
    def _widest(c: Canvas, texts: list[str]) -> float:
        """The widest of `texts` at the body size, in design units, with the button's padding."""
        return max(measure(text, c.font(BODY))[0] for text in texts) / c.px(1) + 8

    def _treasures_button(self, c: Canvas, frame: Frame, x: float, y: float, w: float, h: float) -> None:
        """The quick game: treasures per player, all (the classic deal) or fewer; each tap the next."""
        n = self.choices.treasures
        self.treasures_button = make_button(
            self,
            c,
            frame,
            Rect(x, y, w, h),
            self._caption(c, w, self.t("setup.treasures"), self.t("setup.treasures.all") if n == 0 else str(n)),
            self.batch,
            self._bg,
            size=BODY,
            color=TOGGLE_OFF if n == 0 else TOGGLE_ON,
            text_color=INK if n == 0 else (25, 25, 25),
            on_tap=self.next_treasures,
        )

    def next_treasures(self) -> None:
        """All -> 5 -> 3 -> all: the quick game's choices, fewest last (kiosk.games.labyrinth.VARIANTS)."""
        from kiosk import games

        order = sorted(games.get(GAME_NAME).variant_named("treasures").choices, key=lambda v: -(v or 99))
        now = self.choices.treasures
        self.choices.treasures = order[(order.index(now) + 1) % len(order)] if now in order else order[0]
        self.rebuild()

    def _first_button(self, c, frame, x, y, w, h) -> None:
        """Who starts: Random, or a seat's colour (e.g. the youngest); each tap picks the next."""
        first = self.choices.first
        seats = self.choices.seats()
        if first is not None and first >= len(seats):
            first = self.choices.first = None
        who = self.t("setup.first.random") if first is None else self.t(f"colour.{COLOR_KEYS[seats[first]]}")
        self.first_button = make_button(
            self,
            c,
            frame,
            Rect(x, y, w, h),
            self._caption(c, w, self.t("setup.first"), who),
            self.batch,
            self._bg,
            size=BODY,
            color=TOGGLE_OFF if first is None else SEAT_COLORS[seats[first]],
            text_color=INK if first is None else (25, 25, 25),
            on_tap=self.next_first,
        )

    def next_first(self) -> None:
        """Random -> the first player -> the second ... -> Random."""
        first = self.choices.first
        n = self.choices.players
        self.choices.first = 0 if first is None else (first + 1 if first + 1 < n else None)
        self.rebuild()

    def join(self, seat: int) -> None:
        """A person taps the join control at their corner: they play that seat (tap again: they leave)."""
        self.choices.join(seat)
        self.choices.first = None
        self.rebuild()

    def _join_controls(self, c, frame_angle: int) -> None:
        """Tabletop: a join control at each corner, facing outward, in the seat's colour."""
        m, jw = 12, JOIN_W
        # as tall as the row beside them: the top bar (48) at the top, the Start row (54) at the bottom
        spots = {0: (m, c.H - m - 48, 48), 1: (c.W - m - jw, c.H - m - 48, 48), 2: (c.W - m - jw, m, 54), 3: (m, m, 54)}
        for seat, (x, y, jh) in spots.items():
            f = Frame(c.r(x, y, jw, jh), seating.facing(self.layout, seat))
            joined = seat in self.choices.joined[: self.choices.players]
            if not joined:
                make_button(
                    self,
                    c,
                    f,
                    Rect(0, 0, jw, jh),
                    self.t("setup.join"),
                    self.batch,
                    self._bg,
                    size=BODY,
                    color=TOGGLE_OFF,
                    text_color=text_shade(SEAT_COLORS[seat]),
                    on_tap=partial(self.join, seat),
                )
                continue
            # joined: the seat's pawn and colour as a label, flat on the screen, not a second button
            # beside Start (a tap still leaves the seat)
            name = self.t(f"colour.{COLOR_KEYS[seat]}")
            b = make_button(
                self,
                c,
                f,
                Rect(0, 0, jw, jh),
                name,
                self.batch,
                self._bg,
                size=BODY,
                color=self.background,
                text_color=text_shade(SEAT_COLORS[seat]),
                on_tap=partial(self.join, seat),
            )
            b._label.visible = False
            self._shapes += draw_pawn(
                self.batch, seat, *f.point(c.px(16), c.px(jh / 2)), c.px(28), group=self._fg, rotation=f.angle
            )
            self._text(c, f, name, 32, jh / 2, BODY, color=text_shade(SEAT_COLORS[seat]), width=jw - 36)

    def _seat_card(self, c, frame: Frame, index: int, seat: int, x, y, w, h) -> None:
        """One player's card: pawn and colour name, who plays it (a button that says it: a tap
        changes it), the computer's strength (stars) and its name."""
        t = self.t
        kind = self.choices.kinds[index]
        rgb = SEAT_COLORS[seat]
        # the seat's place at the table: a tray rimmed in its colour, its pawn standing on a name plate
        self._shapes += panel(frame, c.r(x, y, w, h), self.batch, self._bg, edge=rgb, radius=c.px(10))
        self._shapes.append(box(frame, c.r(x, y + h - 5, w, 5), rgb, self.batch, self._bg, radius=c.px(3)))
        plate = Rect(x + 5, y + h - PLATE_H - 7, w - 10, PLATE_H)
        self._shapes.append(box(frame, c.r(*plate), ACTIVE_TRAY, self.batch, self._bg, radius=c.px(8)))
        top = plate.cy
        self._shapes += draw_pawn(self.batch, seat, *frame.point(c.px(x + 24), c.px(top + 2)), c.px(34), group=self._fg)
        self._text(c, frame, t(f"colour.{COLOR_KEYS[seat]}"), x + 46, top, BODY, color=text_shade(rgb), width=w - 54)
        top = y + h - 24  # the choices below keep their places
        pad = 8
        joined = self._joined(index)
        seg_y = top - 18 - 48
        self._kind_choice(c, frame, index, x + pad, seg_y, w - 2 * pad, joined)
        if kind in LEVELS:  # the computer: its strength as stars, and the level's name
            lw = (w - 2 * pad - 2 * 4) / 3
            for j, level in enumerate(LEVELS):
                on = kind == level
                b = star_button(
                    self,
                    c,
                    frame,
                    Rect(x + pad + j * (lw + 4), seg_y - 6 - 48, lw, 48),
                    STARS[level],
                    self.batch,
                    self._bg,
                    color=TOGGLE_ON if on else TOGGLE_OFF,
                    star_color=(30, 30, 30) if on else INK,
                    on_tap=partial(self.set_kind, index, level),
                )
                self._shapes += b.marks
            line = t(f"setup.level.{kind}")  # the screen above the stars says it is the computer
            line_y = seg_y - 6 - 48 - 18
        else:  # a person or "Family": the word and what it means, under the choice
            key = "setup.human" if kind == HUMAN else f"setup.level.{kind}"
            help_key = "setup.seat.joined" if joined else f"setup.seat.{'human' if kind == 'human' else kind}.help"
            self._text(c, frame, t(key), x + w / 2, seg_y - 18, BODY, color=INK, anchor_x="center", width=w - 16)
            line, line_y = t(help_key), seg_y - 42
        self._text(c, frame, line, x + w / 2, line_y, BODY, color=INK, anchor_x="center", bold=False, width=w - 16)

    def _joined(self, index: int) -> bool:
        """Player `index` is a person who joined at their corner: their seat stays a person."""
        return index < len(self.choices.joined[: self.choices.players])

    def _kind_choice(self, c, frame: Frame, index: int, x, y, w, joined: bool, h: float = 48) -> None:
        """Who plays seat `index`: a person, the computer, "Family" (the computer that plays as well
        as the table), side by side, each with its own picture; the chosen one lit. One tap on a
        choice picks it (a tap on the chosen one changes nothing); a seat someone joined offers only
        the person (they leave at their corner)."""
        kind = self.choices.kinds[index]
        now = HUMAN if kind == HUMAN else (FRIENDLY if kind == FRIENDLY else "computer")
        options = [HUMAN, "computer"] + ([FRIENDLY] if FRIENDLY in levels() else [])
        gap = 4
        bw = (w - gap * (len(options) - 1)) / len(options)
        words = {HUMAN: "setup.human", "computer": "setup.computer", FRIENDLY: f"setup.level.{FRIENDLY}"}
        buttons = {}
        for k, option in enumerate(options):
            on = option == now
            b = make_button(
                self,
                c,
                frame,
                Rect(x + k * (bw + gap), y, bw, h),
                self.t(words[option]),
                self.batch,
                self._bg,
                size=BODY,
                color=(ACCENT if option == HUMAN else TOGGLE_ON) if on else TOGGLE_OFF,
                on_tap=partial(self.set_kind, index, option),
            )
            b._label.visible = False  # the picture says it; the word is under the choice
            if joined and not on:
                b.set_enabled(False)
            ink = (30, 30, 30) if on else (INK if b.enabled else DIM)
            u, v, bw_, bh_ = b.local
            cx, cy = frame.point(u + bw_ / 2, v + bh_ / 2)
            self._shapes += seat_icon(option, cx, cy, min(bw_, bh_) * 0.62, ink, self.batch, b.fg_group, frame.angle)
            buttons[option] = b
        self.kind_buttons[index] = buttons

    def _seat_row(self, c, frame: Frame, index: int, seat: int, x, y, w, h) -> None:
        """One player as a row (portrait, where four cards side by side do not fit): pawn and colour,
        who plays it, and the computer's stars."""
        t = self.t
        kind = self.choices.kinds[index]
        rgb = SEAT_COLORS[seat]
        self._shapes += panel(frame, c.r(x, y, w, h), self.batch, self._bg, radius=c.px(10))
        self._shapes += panel(frame, c.r(x, y, 6, h), self.batch, self._bg, color=rgb, edge=rgb, radius=c.px(3))
        cy = y + h / 2
        self._shapes += draw_pawn(self.batch, seat, *frame.point(c.px(x + 24), c.px(cy)), c.px(26), group=self._fg)
        name_w = 100
        self._text(c, frame, t(f"colour.{COLOR_KEYS[seat]}"), x + 42, cy, BODY, color=text_shade(rgb), width=name_w)
        bx = x + 42 + name_w + 6
        sw = 50
        kw = w - (bx - x) - 6 - 3 * (sw + 4)
        self._kind_choice(c, frame, index, bx, y + (h - 48) / 2, kw, self._joined(index))
        if kind in LEVELS:
            for j, level in enumerate(LEVELS):
                on = kind == level
                b = star_button(
                    self,
                    c,
                    frame,
                    Rect(bx + kw + 4 + j * (sw + 4), y + (h - 48) / 2, sw, 48),
                    STARS[level],
                    self.batch,
                    self._bg,
                    color=TOGGLE_ON if on else TOGGLE_OFF,
                    star_color=(30, 30, 30) if on else INK,
                    on_tap=partial(self.set_kind, index, level),
                )
                self._shapes += b.marks
        else:
            key = (
                "setup.seat.joined"
                if self._joined(index)
                else "setup.human"
                if kind == HUMAN
                else f"setup.level.{kind}"
            )
            self._text(c, frame, self.t(key), bx + kw + 6, y + h / 2, BODY, color=INK, bold=False, width=3 * (sw + 4))

    def _seats(self, c, frame, x, y, w, h, cols: int) -> None:
        n = self.choices.players
        seats = self.choices.seats()
        if cols == 1:  # a list: one row per player
            rh = min(64, (h - 6 * (n - 1)) / max(1, n))
            for i in range(n):
                self._seat_row(c, frame, i, seats[i], x, y + h - (i + 1) * rh - i * 6, w, rh)
            return
        rows = (n + cols - 1) // cols if cols < 4 else 1
        gap = 10
        cw = (w - gap * (cols - 1)) / cols
        ch = (h - gap * (rows - 1)) / rows
        used = min(n, cols)
        x += (w - (used * cw + (used - 1) * gap)) / 2  # centre the cards in use
        for i in range(n):
            r, k = divmod(i, cols)
            self._seat_card(c, frame, i, seats[i], x + k * (cw + gap), y + h - (r + 1) * ch - r * gap, cw, ch)

    def _toggles(self, c, frame, x, y, w, h, stacked: bool) -> float:
        t = self.t
        items = (
            ("open_cards", "setup.open_cards", self.choices.open_cards),
            ("no_return_home", "setup.no_return_home", not self.choices.return_home),
            ("hints", "setup.hints", self.choices.hints_on),
        )
        gap = 10
        tw = w if stacked else (w - 2 * gap) / 3
        for i, (name, key, on) in enumerate(items):
            tx, ty = (x, y - i * (h + HELP_H)) if stacked else (x + i * (tw + gap), y)
            local = c.r(tx, ty, tw, h)
            tog = Toggle(
                frame,
                local,
                t(key),
                on,
                self.batch,
                self._bg,
                font_size=c.font(BODY),
                on_change=partial(self._toggle, name),
                min_size=c.touch,
            )
            self.add(tog)
            help_line = label(
                t(key + ".help"),
                frame,
                c.px(tx + tw / 2),
                c.px(ty - 2),
                c.font(BODY),
                self.batch,
                self._fg,
                color=DIM,
                anchor_y="top",
                width=c.px(tw),
                multiline=True,
            )
            self._shapes.append(help_line)
        return y - (2 * (h + HELP_H) if stacked else 0)
