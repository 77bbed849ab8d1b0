"""The setup screen: how many players, who plays each seat, the easier rules, the language.

One look, no menus to dig through: the player count, one card per seat (human
or computer, and how strong), the two "younger children" variants plus hints,
the language and a big green Start. Every control is at least a finger wide
(48 px on 800x480). Defaults come from the config's ``[game]`` section and are
restored whenever the screen is entered fresh (a new visitor); coming back
from the how-to guide keeps the choices.

Starting posts a :class:`NewGame` command; the session starts the game and the
play screen shows it. The screen never touches game state itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

import pyglet

from kiosk.games import HUMAN
from kiosk.core.events import GameSetup, NewGame, SeatSetup

from kiosk.ui.audit.contrast import text_shade
from kiosk.ui.shell import seating
from kiosk.ui.art import SEAT_COLORS, draw_pawn
from kiosk.ui.shell.i18n import LANGUAGES, language_name
from kiosk.ui.shell.layout import Rect
from kiosk.ui.shell.menu import (
    GO,
    TOGGLE_OFF,
    TOGGLE_ON,
    Canvas,
    Toggle,
    clear_drawing,
    config_value,
    current_language,
    dim,
    fit_box,
    make_button,
    measure,
    panel,
    set_language,
    star_button,
)
from kiosk.ui.shell.screen import Screen, register
from kiosk.ui.shell.typeface import BODY
from kiosk.ui.shell.widgets import ACCENT, BUTTON, DIM, INK, Button, Frame, label

FRIENDLY = "fair"  # the engine's level that adapts to the table: offered as "Family" when it exists
LEVELS = ("easy", "medium", "hard")
STARS = {"easy": "\u2605", "medium": "\u2605\u2605", "hard": "\u2605\u2605\u2605"}


def levels() -> tuple[str, ...]:
    """The computer levels the setup offers: the three star levels, plus "Family" (``fair``, its own
    choice beside "Computer") when the engine has it (engine.labyrinth.ai.LEVELS)."""
    from engine.labyrinth.ai import LEVELS as ENGINE_LEVELS

    return LEVELS + ((FRIENDLY,) if FRIENDLY in ENGINE_LEVELS else ())


COLOR_KEYS = ("red", "yellow", "green", "blue")
JOIN_W = 112  # design units: the corner join controls (tabletop)
LANGUAGE_W = 150  # design units: the language button beside the game tabs ("Nederlands  \u25be")
HELP_H = 32  # design units: a toggle's help line under it (one line at the body size)
CARD_LEVELS = ("random", "easy", "hard")  # the card game's computer players, weakest first
#: as the board game's: one star is the easy computer, three the hard one (the captions say the same words)
CARD_STARS = {"random": STARS["easy"], "easy": STARS["medium"], "hard": STARS["hard"]}
CARD_COLOR_KEYS = ("red", "yellow", "green", "blue", "purple", "turquoise")


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
    hints: bool | None = None  # None: on exactly in the children's variants
    game: str = "labyrinth"  # or "cards": the travel card game
    card_players: int = 2
    card_kinds: list[str] = field(default_factory=lambda: [HUMAN] + ["easy"] * 5)

    @property
    def hints_on(self) -> bool:
        if self.hints is not None:
            return self.hints
        return self.open_cards or not self.return_home

    joined: list[int] = field(default_factory=list)  # corners people joined at, in order (tabletop)

    def seats(self) -> tuple[int, ...]:
        """The start corners: those people joined at, then the rest (kiosk/ui/shell/seating.py)."""
        return seating.seats_for(self.players, self.joined)

    def join(self, seat: int) -> None:
        """A person at corner `seat` joins (or, joined already, leaves): joined seats are people."""
        others = [k for k in self.kinds[len(self.joined) :] if k != HUMAN]
        if seat in self.joined:
            self.joined.remove(seat)
        else:
            self.joined.append(seat)
            self.players = max(self.players, len(self.joined))
        kinds = [HUMAN] * len(self.joined) + others
        self.kinds = (kinds + ["medium"] * 4)[:4]
        if HUMAN not in self.kinds[: self.players]:
            self.kinds[0] = HUMAN

    turn_limit: int = 0  # [game] turn_limit (no control on this screen)
    first: int | None = None  # who starts; None: [game] first_player (random by default)

    def game_setup(self, first_player=lambda players: 0) -> GameSetup:
        """The chosen game; `first_player(n)` picks who starts when the visitors did not."""
        if self.game == "cards":
            n = self.card_players
            return GameSetup(
                seats=tuple(SeatSetup(k) for k in self.card_kinds[:n]),
                game="cards",
                turn_limit=self.turn_limit,
                first=self.first if self.first is not None else first_player(n),
            )
        return GameSetup(
            seats=tuple(SeatSetup(k, s) for k, s in zip(self.kinds, self.seats())),
            open_cards=self.open_cards,
            return_home=self.return_home,
            hints=self.hints_on,
            turn_limit=self.turn_limit,
            game="labyrinth",
            first=self.first if self.first is not None else first_player(self.players),
        )


def choices_from_config(ui) -> Choices:
    """The defaults an operator configured (``[game] players, seats, open_cards, return_home, hints``)."""
    players = int(config_value(ui, "game", "players", 2))
    players = min(4, max(1, players))
    kinds = [
        k if k in (HUMAN,) + levels() else ("easy" if k == "random" else "medium")
        for k in config_value(ui, "game", "seats", (HUMAN, "medium"))
    ]
    kinds = (kinds + ["medium"] * 4)[:4]
    if HUMAN not in kinds[:players]:
        kinds[0] = HUMAN
    game = config_value(ui, "game", "game", "labyrinth")
    return Choices(
        players=players,
        kinds=kinds,
        open_cards=bool(config_value(ui, "game", "open_cards", False)),
        return_home=bool(config_value(ui, "game", "return_home", True)),
        hints=config_value(ui, "game", "hints", None),
        game=game if game in ("labyrinth", "cards") else "labyrinth",
        turn_limit=int(config_value(ui, "game", "turn_limit", 0) or 0),
    )


@register("setup")
class SetupScreen(Screen):
    """Players, seats, variants, language; Start posts NewGame."""

    def __init__(self, ui):
        super().__init__(ui)
        self.choices: Choices | None = None
        self.edge = seating.NEAR  # the edge of the person who opened the setup (it faces them)
        self.picking_language = False
        self.quiet = 0.0  # seconds without a touch (back to attract after idle)
        self._shapes: list = []
        self._picker: list[Button] = []  # the language picker's buttons, while it is open

    @property
    def chosen(self) -> Choices:
        """The visitor's choices: made on entering (or the first resize), before anything is drawn or tapped."""
        assert self.choices is not None, "the setup screen is entered (or resized) before it draws"
        return self.choices

    # ------------------------------------------------------------ lifecycle
    def enter(self, keep: bool = False, opener: tuple[float, float] | None = None, **kw) -> None:
        """`opener`: where the touch that opened the setup was (the attract screen): the screen
        faces that person, and in the tabletop layout they join at their corner."""
        if self.choices is None or not keep:
            self.choices = choices_from_config(self.ui)
            self.edge = seating.NEAR
            if opener is not None and self.layout.tabletop:
                self.edge = seating.edge_at(self.layout, *opener)
                if self.choices.game == "labyrinth":
                    self.choices.join(seating.corner_seat(self.layout, *opener))
        self.picking_language = False
        self.quiet = 0.0
        self._build()

    def resize(self, layout) -> None:
        if self.choices is None:
            self.choices = choices_from_config(self.ui)
        self._build()

    def update(self, dt: float) -> None:
        self.quiet += dt
        if self.quiet >= float(config_value(self.ui, "kiosk", "idle_timeout_s", 90)):
            self.quiet = 0.0
            self.ui.goto("attract")

    def tap(self, x: float, y: float) -> bool:
        self.quiet = 0.0
        if self.picking_language:  # only the picker answers; a tap beside it closes it
            w = self.widget_at(x, y)
            if w in self._picker:
                w.tap()
            else:
                self.picking_language = False
                self._build()
            return True
        return super().tap(x, y)

    def press(self, x: float, y: float) -> None:
        self.quiet = 0.0
        super().press(x, y)

    # ------------------------------------------------------------ actions
    def open_howto(self) -> None:
        """The how-to of the game whose tab is selected."""
        self.ui.goto("cards_howto" if self.chosen.game == "cards" else "howto", then="setup", edge=self.edge)

    def set_game(self, game: str) -> None:
        self.chosen.game = game
        self._build()

    def set_players(self, n: int) -> None:
        if self.chosen.game == "cards":
            self.chosen.card_players = n
            if HUMAN not in self.chosen.card_kinds[:n]:
                self.chosen.card_kinds[0] = HUMAN
            self._build()
            return
        self.chosen.players = n
        if HUMAN not in self.chosen.kinds[:n]:
            self.chosen.kinds[0] = HUMAN
        self._build()

    def set_kind(self, index: int, kind: str) -> None:
        """Seat `index` is played by `kind` ("computer": at its level so far, else medium); a seat
        someone joined stays a person."""
        if self._joined(index) and kind != HUMAN:
            return
        if kind == "computer":
            kind = self.chosen.kinds[index] if self.chosen.kinds[index] in LEVELS else "medium"
        self.chosen.kinds[index] = kind
        self._build()

    @property
    def nobody_plays(self) -> bool:
        """No person in the chosen game: Start offers to watch the computers (a stop is on the play screen)."""
        ch = self.chosen
        kinds = ch.card_kinds[: ch.card_players] if ch.game == "cards" else ch.kinds[: ch.players]
        return HUMAN not in kinds

    def set_language(self, language: str) -> None:
        set_language(self.ui, language)
        self.picking_language = False
        self._build()

    def start(self) -> None:
        setup = self.chosen.game_setup(self.ui.kiosk.first_player)
        self.ui.post(NewGame(setup))
        if setup.game == "cards":
            self.ui.goto("cards_play")
            return
        self.ui.goto("play", hints=self.chosen.hints_on)

    def _toggle(self, name: str, on: bool) -> None:
        if name == "no_return_home":
            self.chosen.return_home = not on
        else:
            setattr(self.chosen, name, on)
        self._build()

    def _open_language(self) -> None:
        self.picking_language = True
        self._build()

    # ------------------------------------------------------------ drawing
    def _build(self) -> None:
        clear_drawing(self)
        self._picker = []
        self.kind_buttons: dict[int, object] = {}
        c = Canvas(self.layout)
        frame = Frame(self.layout.screen, seating.angle(self.edge) if self.layout.tabletop else 0)
        if c.W >= c.H:
            self._build_landscape(c, frame)
        else:
            self._build_portrait(c, frame)
        if self.picking_language:
            self._build_language_picker(c, frame)

    def _text(self, c, frame, text, x, y, size, *, color=INK, anchor_x="left", bold=True, width=None):
        pts = fit_box(text, c.font(size), c.px(width), c.px(size * 2), bold) if width else c.font(size)
        lbl = label(text, frame, c.px(x), c.px(y), pts, self.batch, self._fg, color=color, anchor_x=anchor_x, bold=bold)
        self._shapes.append(lbl)
        return lbl

    _bg = pyglet.graphics.Group(order=0)
    _fg = pyglet.graphics.Group(order=3)

    def _top_bar(self, c, frame, x, y, w, h, stacked: bool) -> float:
        """Game tabs and the language button; returns the y below them."""
        t = self.t
        lw = LANGUAGE_W if not stacked else w
        self._game_tabs(c, frame, x, y, w if stacked else w - lw - 20, h)
        if stacked:
            y -= h + 10
            lang_x = x
        else:
            lang_x = x + w - lw
        if stacked or w >= 640:  # the word "Language" where there is room; the button says it anyway
            self._text(
                c,
                frame,
                t("setup.language"),
                lang_x + (0 if stacked else -8),
                y + h / 2,
                BODY,
                color=DIM,
                anchor_x="left" if stacked else "right",
                bold=False,
            )
        bx = lang_x + (120 if stacked else 0)
        make_button(
            self,
            c,
            frame,
            Rect(bx, y, lw - (120 if stacked else 0), h),
            language_name(current_language(self.ui)) + "  \u25be",
            self.batch,
            self._bg,
            size=BODY,
            on_tap=self._open_language,
        )
        return y

    def _game_tabs(self, c, frame, x, y, w, h) -> None:
        """The two games' tabs side by side in `w` (each at most 230 units wide)."""
        tab_w = min(230, (w - 10) / 2)
        for k, (game, key) in enumerate((("labyrinth", "setup.board_game"), ("cards", "setup.card_game"))):
            on = self.chosen.game == game
            make_button(
                self,
                c,
                frame,
                Rect(x + k * (tab_w + 10), y, tab_w, h),
                self.t(key),
                self.batch,
                self._bg,
                size=BODY,
                color=ACCENT if on else TOGGLE_OFF,
                text_color=(30, 30, 30) if on else INK,
                on_tap=partial(self.set_game, game),
            )

    def _players_row(self, c, frame, x, y, w, h) -> None:
        self._text(c, frame, self.t("setup.players"), x, y + h / 2, BODY, width=118)
        cards = self.chosen.game == "cards"
        for n in range(2, 7) if cards else range(1, 5):
            on = n == (self.chosen.card_players if cards else self.chosen.players)
            if cards:  # 2-6: five buttons from the same place as the board game's 1-4
                make_button(
                    self,
                    c,
                    frame,
                    Rect(x + 124 + (n - 2) * 62, y, 56, h),
                    str(n),
                    self.batch,
                    self._bg,
                    size=24,
                    color=ACCENT if on else BUTTON,
                    text_color=(30, 30, 30) if on else INK,
                    on_tap=partial(self.set_players, n),
                )
                continue
            make_button(
                self,
                c,
                frame,
                Rect(x + 124 + (n - 1) * 70, y, 62, h),
                str(n),
                self.batch,
                self._bg,
                size=24,
                color=ACCENT if on else BUTTON,
                text_color=(30, 30, 30) if on else INK,
                on_tap=partial(self.set_players, n),
            )
        if not cards and w >= 560:
            self._first_button(c, frame, x + 420, y, w - 420, h)

    def _first_button(self, c, frame, x, y, w, h) -> None:
        """Who starts: Random, or a seat's colour (e.g. the youngest); each tap picks the next."""
        first = self.chosen.first
        seats = self.chosen.seats()
        if first is not None and first >= len(seats):
            first = self.chosen.first = None
        who = self.t("setup.first.random") if first is None else self.t(f"colour.{COLOR_KEYS[seats[first]]}")
        self.first_button = make_button(
            self,
            c,
            frame,
            Rect(x, y, w, h),
            f"{self.t('setup.first')}: {who}",
            self.batch,
            self._bg,
            size=BODY,
            color=TOGGLE_OFF if first is None else SEAT_COLORS[seats[first]],
            text_color=INK if first is None else (25, 25, 25),
            on_tap=self.next_first,
        )

    def next_first(self) -> None:
        """Random -> the first player -> the second ... -> Random."""
        first = self.chosen.first
        n = self.chosen.players
        self.chosen.first = 0 if first is None else (first + 1 if first + 1 < n else None)
        self._build()

    def join(self, seat: int) -> None:
        """A person taps the join control at their corner: they play that seat (tap again: they leave)."""
        self.chosen.join(seat)
        self.chosen.first = None
        self._build()

    def _join_controls(self, c, frame_angle: int) -> None:
        """Tabletop: a join control at each corner, facing outward, in the seat's colour."""
        m, jw = 12, JOIN_W
        # as tall as the row beside them: the top bar (48) at the top, the Start row (54) at the bottom
        spots = {0: (m, c.H - m - 48, 48), 1: (c.W - m - jw, c.H - m - 48, 48), 2: (c.W - m - jw, m, 54), 3: (m, m, 54)}
        for seat, (x, y, jh) in spots.items():
            f = Frame(c.r(x, y, jw, jh), seating.facing(self.layout, seat))
            joined = seat in self.chosen.joined[: self.chosen.players]
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
        kind = self.chosen.kinds[index]
        rgb = SEAT_COLORS[seat]
        self._shapes += panel(frame, c.r(x, y, w, h), self.batch, self._bg, radius=c.px(10))
        self._shapes += panel(frame, c.r(x, y + h - 6, w, 6), self.batch, self._bg, color=rgb, edge=rgb, radius=c.px(3))
        top = y + h - 24
        self._shapes += draw_pawn(self.batch, seat, *frame.point(c.px(x + 22), c.px(top)), c.px(26), group=self._fg)
        self._text(c, frame, t(f"colour.{COLOR_KEYS[seat]}"), x + 42, top, BODY, color=text_shade(rgb), width=w - 50)
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
        return index < len(self.chosen.joined[: self.chosen.players])

    def _kind_choice(self, c, frame: Frame, index: int, x, y, w, joined: bool, h: float = 48) -> None:
        """Who plays seat `index`: a person, the computer, "Family" (the computer that plays as well
        as the table), side by side, each with its own picture; the chosen one lit. One tap on a
        choice picks it (a tap on the chosen one changes nothing); a seat someone joined offers only
        the person (they leave at their corner)."""
        kind = self.chosen.kinds[index]
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
        kind = self.chosen.kinds[index]
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
        n = self.chosen.players
        seats = self.chosen.seats()
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
            ("open_cards", "setup.open_cards", self.chosen.open_cards),
            ("no_return_home", "setup.no_return_home", not self.chosen.return_home),
            ("hints", "setup.hints", self.chosen.hints_on),
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

    def _bottom_row(self, c, frame, x, y, w, h) -> None:
        t = self.t
        make_button(
            self,
            c,
            frame,
            Rect(x, y, 110, h),
            "\u2039 " + t("common.back"),
            self.batch,
            self._bg,
            size=BODY,
            color=TOGGLE_OFF,
            on_tap=lambda: self.ui.goto("attract"),
        )
        sw = 240 if w >= 620 else 160  # Start: wide, but the how-to's words come first
        hw = min(210, w - 120 - sw - 10)
        make_button(
            self,
            c,
            frame,
            Rect(x + 120, y, hw, h),
            "? " + t("howto.title"),
            self.batch,
            self._bg,
            size=BODY,
            wrap=True,
            on_tap=self.open_howto,
        )
        sw = min(240, w - 120 - hw - 10)
        self.start_button = make_button(
            self,
            c,
            frame,
            Rect(x + w - sw, y, sw, h),
            self._start_text(),
            self.batch,
            self._bg,
            size=BODY if self.nobody_plays else 22,  # the longer words on two lines, not shrunk
            wrap=True,
            color=GO,
            on_tap=self.start,
        )

    def _start_text(self) -> str:
        """ "Start", or "Watch the computers" when nobody plays (that game has a stop button)."""
        return (self.t("setup.watch") if self.nobody_plays else self.t("setup.start")) + "  \u25b6"

    def _card_seat(self, c, frame: Frame, index: int, x, y, w, h) -> None:
        """One card player: colour, what the computer does, then person / easy / medium / hard: in one
        row, or two (the person alone) where a card is narrow and tall (portrait)."""
        from kiosk.games.cards.screens.seats import player_rgb

        t = self.t
        kind = self.chosen.card_kinds[index]
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
                        CARD_STARS[option],
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
        self.chosen.card_kinds[index] = kind
        self._build()

    def _card_seats(self, c, frame, x, y, w, h, cols: int) -> None:
        """Up to three players as cards side by side; more (and portrait) as rows, two columns of them
        in landscape: a card three to a row is too narrow for "Human" and three star buttons."""
        n = self.chosen.card_players
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
        from kiosk.games.cards.screens.seats import player_rgb

        t = self.t
        kind = self.chosen.card_kinds[index]
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
                CARD_STARS[option],
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

    def _build_landscape(self, c: Canvas, frame: Frame) -> None:
        m = 12
        W, H = c.W, c.H
        y = H - m - 48
        side = m
        if self.layout.tabletop and self.chosen.game == "labyrinth":
            side = m + JOIN_W + 8  # the corners belong to the join controls
            self._join_controls(c, frame.angle)
        self._top_bar(c, frame, side, y, W - 2 * side, 48, stacked=False)
        y -= 8 + 48
        self._players_row(c, frame, m, y, W - 2 * m, 48)
        if self.chosen.game == "cards":
            self._card_seats(c, frame, m, m + 54 + 10, W - 2 * m, y - 8 - (m + 54 + 10), cols=3)
            self._bottom_row(c, frame, m, m, W - 2 * m, 54)
            return
        # from the bottom: the Start row, the easier rules with their help line, then the seats
        toggles_y = m + 54 + 6 + HELP_H
        self._toggles(c, frame, m, toggles_y, W - 2 * m, 48, stacked=False)
        seats_y = toggles_y + 48 + 8
        self._seats(c, frame, m, seats_y, W - 2 * m, y - 8 - seats_y, cols=4)
        self._bottom_row(c, frame, side, m, W - 2 * side, 54)

    def _build_portrait(self, c: Canvas, frame: Frame) -> None:
        m = 12
        W, H = c.W, c.H
        joins = self.layout.tabletop and self.chosen.game == "labyrinth"
        if joins:  # the four corners belong to the join controls; back and language between them
            self._join_controls(c, frame.angle)
            y = H - m - 48 - 10 - 50
            self._game_tabs(c, frame, m, y, W - 2 * m, 50)
        else:
            y = H - m - 50
            y = self._top_bar(c, frame, m, y, W - 2 * m, 50, stacked=True)
        y -= 12 + 52
        self._players_row(c, frame, m, y, W - 2 * m, 52)
        if self.chosen.game == "cards":
            self._card_seats(c, frame, m, m + 60 + 12, W - 2 * m, y - 12 - (m + 60 + 12), cols=2)
            self._bottom_row(c, frame, m, m, W - 2 * m, 60)
            return
        n = self.chosen.players
        seats_h = n * 64 + (n - 1) * 6
        y -= (6 if joins else 12) + seats_h
        self._seats(c, frame, m, y, W - 2 * m, seats_h, cols=1)
        # the easier rules sit just above the bottom row (and the how-to's own row, between the joins)
        lift = 54 if joins else 0
        self._toggles(c, frame, m, lift + 60 + m + 8 + HELP_H + 2 * (52 + HELP_H), W - 2 * m, 52, stacked=True)
        if joins:
            self._between_joins(c, frame, m + JOIN_W + 8, W - 2 * (m + JOIN_W + 8))
        else:
            self._bottom_row(c, frame, m, m, W - 2 * m, 60)

    def _between_joins(self, c, frame, x, w) -> None:
        """Portrait tabletop: the language between the top join controls, start between the bottom
        ones, and back and the how-to in a row of their own above them (each word at the body size)."""
        m, gap = 12, 8
        H = c.H
        make_button(
            self,
            c,
            frame,
            Rect(x, H - m - 48, w, 48),
            language_name(current_language(self.ui)) + "  \u25be",
            self.batch,
            self._bg,
            size=BODY,
            on_tap=self._open_language,
        )
        bw = 130
        make_button(
            self,
            c,
            frame,
            Rect(m, m + 54 + 6, bw, 48),
            "\u2039 " + self.t("common.back"),
            self.batch,
            self._bg,
            size=BODY,
            color=TOGGLE_OFF,
            on_tap=lambda: self.ui.goto("attract"),
        )
        make_button(
            self,
            c,
            frame,
            Rect(m + bw + gap, m + 54 + 6, c.W - 2 * m - bw - gap, 48),
            "? " + self.t("howto.title"),
            self.batch,
            self._bg,
            size=BODY,
            on_tap=self.open_howto,
        )
        self.start_button = make_button(
            self,
            c,
            frame,
            Rect(x, m, w, 54),
            self._start_text(),
            self.batch,
            self._bg,
            size=BODY if self.nobody_plays else 22,  # the longer words on two lines, not shrunk
            wrap=True,
            color=GO,
            on_tap=self.start,
        )

    def _build_language_picker(self, c: Canvas, frame: Frame) -> None:
        top = pyglet.graphics.Group(order=10)
        over = pyglet.graphics.Group(order=11)
        self._shapes.append(dim(self.layout, self.batch, top, alpha=200))
        cols = 2
        rows = (len(LANGUAGES) + cols - 1) // cols
        bw, bh, gap = min(220, (c.W - 60) / 2), 56, 10
        w = cols * bw + (cols - 1) * gap + 40
        h = rows * bh + (rows - 1) * gap + 80
        x0, y0 = (c.W - w) / 2, (c.H - h) / 2
        self._shapes += panel(frame, c.r(x0, y0, w, h), self.batch, over, radius=c.px(14))
        lbl = label(
            self.t("setup.language"),
            frame,
            c.px(c.W / 2),
            c.px(y0 + h - 28),
            c.font(20),
            self.batch,
            pyglet.graphics.Group(order=12),
            bold=True,
        )
        self._shapes.append(lbl)
        cur = current_language(self.ui)
        for i, lang in enumerate(LANGUAGES):
            r, k = divmod(i, cols)
            on = lang == cur
            self._picker.append(
                make_button(
                    self,
                    c,
                    frame,
                    Rect(x0 + 20 + k * (bw + gap), y0 + h - 56 - (r + 1) * bh - r * gap, bw, bh),
                    language_name(lang),
                    self.batch,
                    pyglet.graphics.Group(order=12),
                    size=19,
                    color=ACCENT if on else (64, 110, 170),
                    text_color=(30, 30, 30) if on else INK,
                    on_tap=partial(self.set_language, lang),
                )
            )
