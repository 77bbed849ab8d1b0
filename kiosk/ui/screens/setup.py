"""The setup screen: a tab per game, the chosen game's own choices, the language, Start.

One look, no menus to dig through. What every game shares is drawn here: the games'
tabs, the language, Back, How to play and a big green Start. Between them sits the
chosen game's setup panel (``GameType.setup_panel``, kiosk/ui/kit/setup_panel.py):
who plays and the game's own rules. Every control is at least a finger wide (48 px
on 800x480). The choices come from the config's ``[game]`` section and are made
afresh whenever the screen is entered fresh (a new visitor); coming back from the
how-to guide keeps them.

Starting posts a :class:`NewGame` command; the session starts the game and the
game's play screen shows it. The screen never touches game state itself, and it
names no game: it asks the registry (kiosk.games).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pyglet

from kiosk import games
from kiosk.core.events import NewGame
from kiosk.ui.kit import seating
from kiosk.ui.kit.i18n import LANGUAGES, language_name
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import (
    GO,
    TOGGLE_OFF,
    Canvas,
    clear_drawing,
    config_value,
    current_language,
    dim,
    make_button,
    measure,
    panel,
    set_language,
)
from kiosk.ui.shell.screen import Screen, register
from kiosk.ui.kit.setup_panel import SetupPanel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, DIM, INK, Button, Frame, label

LANGUAGE_W_COMPACT = 76  # design units: the language button with only its code ("NL  \u25be")
LANGUAGE_W = 150  # design units: the language button beside the game tabs ("Nederlands  \u25be")


def offered() -> tuple[games.GameType, ...]:
    """The games the setup offers: every registered game with a setup panel, in the registry's order."""
    return tuple(g for g in games.all_games() if g.setup_panel is not None)


@register("setup")
class SetupScreen(Screen):
    """The games' tabs, the chosen game's panel, the language; Start posts NewGame."""

    def __init__(self, ui):
        super().__init__(ui)
        self.game = ""  # the chosen tab: a registered game's name
        self.panels: dict[str, SetupPanel] = {}
        self.edge = seating.NEAR  # the edge of the person who opened the setup (it faces them)
        self.picking_language = False
        self.quiet = 0.0  # seconds without a touch (back to attract after idle)
        self._shapes: list = []
        self._picker: list[Button] = []  # the language picker's buttons, while it is open

    @property
    def panel(self) -> SetupPanel:
        """The chosen game's panel: made on entering (or the first resize), before anything is drawn or tapped."""
        assert self.panels, "the setup screen is entered (or resized) before it draws"
        return self.panels[self.game]

    @property
    def choices(self) -> Any:
        """The chosen game's choices so far (its panel's)."""
        return self.panel.choices

    # ------------------------------------------------------------ lifecycle
    def _fresh(self) -> None:
        """A new visitor: each game's panel with the config's choices, the configured game's tab."""
        kinds = offered()
        self.panels = {g.name: g.setup_panel()(self, g) for g in kinds}  # type: ignore[misc]
        wanted = config_value(self.ui, "game", "game", "")
        self.game = wanted if wanted in self.panels else kinds[0].name

    def enter(self, keep: bool = False, opener: tuple[float, float] | None = None, **kw) -> None:
        """`opener`: where the touch that opened the setup was (the attract screen): the screen
        faces that person, and in the tabletop layout the game's panel hears where they are."""
        if not self.panels or not keep:
            self._fresh()
            self.edge = seating.NEAR
            if opener is not None and self.layout.tabletop:
                self.edge = seating.edge_at(self.layout, *opener)
                self.panel.opened_at(*opener)
        self.picking_language = False
        self.quiet = 0.0
        self._build()

    def resize(self, layout) -> None:
        if not self.panels:
            self._fresh()
        self._build()

    def update(self, dt: float) -> None:
        self.quiet += dt
        if self.quiet >= self._idle_s():
            self.quiet = 0.0
            self.ui.goto("attract")

    def _idle_s(self) -> float:
        return float(config_value(self.ui, "kiosk", "idle_timeout_s", 90))

    @property
    def animating(self) -> bool:
        """Nothing on the setup moves: it is drawn again only when it is built again (a choice,
        a touch, the language), not every frame."""
        return False

    def wake_in(self) -> float | None:
        """Back to the attract screen when nobody touched it for the idle time."""
        return max(0.0, self._idle_s() - self.quiet)

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
        self.ui.goto(games.get(self.game).howto_screen, then="setup", edge=self.edge)

    def set_game(self, game: str) -> None:
        self.game = game
        self._build()

    @property
    def nobody_plays(self) -> bool:
        """No person in the chosen game: Start offers to watch the computers (a stop is on the play screen)."""
        return self.panel.nobody_plays

    def set_language(self, language: str) -> None:
        set_language(self.ui, language)
        self.picking_language = False
        self._build()

    def start(self) -> None:
        setup = self.panel.game_setup(self.ui.kiosk.first_player)
        self.ui.post(NewGame(setup))
        self.ui.goto(games.get(setup.game).play_screen, **self.panel.play_options())

    def _open_language(self) -> None:
        self.picking_language = True
        self._build()

    # ------------------------------------------------------------ drawing
    def _build(self) -> None:
        clear_drawing(self)
        self._picker = []
        c = Canvas(self.layout)
        frame = Frame(self.layout.screen, seating.angle(self.edge) if self.layout.tabletop else 0)
        if c.W >= c.H:
            self._build_landscape(c, frame)
        else:
            self._build_portrait(c, frame)
        if self.picking_language:
            self._build_language_picker(c, frame)
        self.ui.request_frame()  # the new picture (the screen draws only when it changes)

    def _text(self, c, frame, text, x, y, size, *, color=INK, anchor_x="left", bold=True, width=None):
        return SetupPanel._text(
            self.panel, c, frame, text, x, y, size, color=color, anchor_x=anchor_x, bold=bold, width=width
        )

    _bg = SetupPanel._bg
    _fg = SetupPanel._fg

    def _top_bar(self, c, frame, x, y, w, h, stacked: bool) -> float:
        """Game tabs and the language button; returns the y below them."""
        t = self.t
        lw = LANGUAGE_W if not stacked else w
        compact = not stacked and self._tabs_need(c) > w - lw - 20
        if compact:  # the games' names need the room: the language button shows its code ("DE")
            lw = LANGUAGE_W_COMPACT
        tabs_end = self._game_tabs(c, frame, x, y, w if stacked else w - lw - 20, h)
        if stacked:
            y -= h + 10
            lang_x = x
        else:
            lang_x = x + w - lw
        word_w = measure(t("setup.language"), c.font(BODY))[0] / c.s
        # the word "Language" where the tabs leave room for it; the button says it anyway
        if stacked or tabs_end + 16 + word_w <= lang_x - 8:
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
            (current_language(self.ui).upper() if compact else language_name(current_language(self.ui))) + "  \u25be",
            self.batch,
            self._bg,
            size=BODY,
            on_tap=self._open_language,
        )
        below: float = y
        return below

    def _tabs_need(self, c: Canvas) -> float:
        """The width (design units) the games' tabs need for their names at the body size."""
        kinds = offered()
        names = [self.t(g.title_key) if g.title_key else g.title for g in kinds]
        widest = max((measure(n, c.font(BODY))[0] / c.s for n in names), default=0.0)
        return len(kinds) * (widest + 16) + 10 * (len(kinds) - 1)

    def _game_tabs(self, c, frame, x, y, w, h) -> float:
        """The games' tabs side by side in `w` (each at most 230 units wide); returns where they end."""
        kinds = offered()
        gap = 10
        tab_w = min(230, (w - gap * (len(kinds) - 1)) / len(kinds))
        for k, game in enumerate(kinds):
            on = self.game == game.name
            make_button(
                self,
                c,
                frame,
                Rect(x + k * (tab_w + gap), y, tab_w, h),
                self.t(game.title_key) if game.title_key else game.title,
                self.batch,
                self._bg,
                size=BODY,
                color=ACCENT if on else TOGGLE_OFF,
                text_color=(30, 30, 30) if on else INK,
                on_tap=partial(self.set_game, game.name),
            )
        end: float = x + len(kinds) * tab_w + gap * (len(kinds) - 1)
        return end

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
        if games.get(self.game).howto_screen:  # a game without a guide has no How to play
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

    def _build_landscape(self, c: Canvas, frame: Frame) -> None:
        m = 12
        W, H = c.W, c.H
        y = H - m - 48
        corner = self.panel.corners()
        side = m + corner + 8 if corner else m  # the corners belong to the panel's controls
        self._top_bar(c, frame, side, y, W - 2 * side, 48, stacked=False)
        self.panel.build(c, frame, y - 8, m + 54)
        self._bottom_row(c, frame, side, m, W - 2 * side, 54)

    def _build_portrait(self, c: Canvas, frame: Frame) -> None:
        m = 12
        W, H = c.W, c.H
        corner = self.panel.corners()
        if corner:  # the four corners belong to the panel's controls; back and language between them
            y = H - m - 48 - 10 - 50
            self._game_tabs(c, frame, m, y, W - 2 * m, 50)
            self.panel.build(c, frame, y - 12, m + 60 + 54)
            self._between_joins(c, frame, m + corner + 8, W - 2 * (m + corner + 8))
            return
        y = self._top_bar(c, frame, m, H - m - 50, W - 2 * m, 50, stacked=True)
        self.panel.build(c, frame, y - 12, m + 60)
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
