"""A game's part of the setup screen: who plays, and the game's own rules.

The setup screen (kiosk/ui/screens/setup.py) draws what every game shares: a tab
per game, the language, Back, How to play and Start. Everything between them
belongs to the game whose tab is chosen, through ``GameType.setup_panel`` (a
function returning a :class:`SetupPanel` subclass, imported only with a display).
docs/adding-a-game.md has a small example; kiosk/games/cards/screens/setup_panel.py
is a whole one.

A panel keeps its visitor's choices (made fresh from the config whenever a new
visitor opens the setup) and draws them again from scratch on every change: it
adds its buttons with ``make_button(self, ...)`` like a screen, keeps its shapes
in ``self._shapes`` and calls ``self.rebuild()`` after a choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Literal, Protocol

import pyglet

from functools import partial

from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import TOGGLE_OFF, Canvas, fit_box, make_button
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, INK, Frame, label

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.events import GameSetup
    from kiosk.games import GameType
    from kiosk.ui.kit.layout import Layout


class SetupHost(Protocol):
    """What a panel uses of the setup screen it sits on."""

    ui: Any
    batch: Any
    _shapes: list[Any]
    background: tuple[int, int, int]

    @property
    def layout(self) -> "Layout": ...

    def t(self, key: str, **kw: Any) -> str: ...

    def add(self, widget: Any) -> Any: ...

    def resize(self, layout: "Layout") -> None: ...


class SetupPanel:
    """One game's choices on the setup screen; a game subclasses it (``GameType.setup_panel``).

    What a subclass gives: :meth:`reset` (the choices from the config), :meth:`build` (draws them
    between ``top`` and ``bottom``), :meth:`game_setup` (the chosen game) and :attr:`nobody_plays`.
    The rest is optional: :meth:`opened_at`, :meth:`corners`, :meth:`play_options`.
    """

    #: the groups the setup screen draws in: buttons and panels, then the texts over them
    _bg = pyglet.graphics.Group(order=0)
    _fg = pyglet.graphics.Group(order=3)

    def __init__(self, screen: SetupHost, game: "GameType") -> None:
        self.screen = screen
        self.game = game
        self.choices: Any = None
        self.reset()

    # ------------------------------------------------------------ what a game gives
    def reset(self) -> None:
        """The choices a new visitor sees: from the config's ``[game]`` section."""
        raise NotImplementedError

    def build(self, c: Canvas, frame: Frame, top: float, bottom: float) -> None:
        """Draw the choices between `top` and `bottom` (design units, the screen's full width; the
        layout is portrait when ``c.H > c.W``)."""
        raise NotImplementedError

    def game_setup(self, first_player: Callable[[int], int]) -> "GameSetup":
        """The chosen game; `first_player(n)` picks who starts when the visitors did not."""
        raise NotImplementedError

    @property
    def nobody_plays(self) -> bool:
        """No person plays: Start offers to watch the computers."""
        raise NotImplementedError

    def opened_at(self, x: float, y: float) -> None:
        """The tabletop layout: the person who opened the setup touched (x, y) (e.g. they sit at
        that corner)."""

    def corners(self) -> float:
        """How wide (design units) the controls are that the panel draws at the screen's four
        corners (the tabletop's join controls), 0 for none: the screen keeps its own buttons
        between them."""
        return 0

    def play_options(self) -> dict[str, Any]:
        """What the game's play screen is entered with after Start (``ui.goto(screen, **options)``)."""
        return {}

    # ------------------------------------------------------------ what the screen lends
    @property
    def layout(self) -> "Layout":
        return self.screen.layout

    @property
    def batch(self) -> Any:
        return self.screen.batch

    @property
    def _shapes(self) -> list[Any]:
        return self.screen._shapes

    @_shapes.setter
    def _shapes(self, value: list[Any]) -> None:
        self.screen._shapes = value

    @property
    def background(self) -> tuple[int, int, int]:
        return self.screen.background

    def t(self, key: str, **kw: Any) -> str:
        return self.screen.t(key, **kw)

    def add(self, widget: Any) -> Any:
        """A widget that answers taps (``make_button(self, ...)`` calls this)."""
        return self.screen.add(widget)

    def rebuild(self) -> None:
        """Draw the setup screen again (after a choice)."""
        self.screen.resize(self.layout)

    def _count_row(
        self,
        c: Canvas,
        frame: Frame,
        x: float,
        y: float,
        h: float,
        counts: range,
        button_w: float,
        step: float,
        chosen: int,
        on_tap: Callable[[int], None],
    ) -> None:
        """ "Players" and a button per count (the chosen one lit): how many play, in every game's panel."""
        self._text(c, frame, self.t("setup.players"), x, y + h / 2, BODY, width=118)
        for i, n in enumerate(counts):
            on = n == chosen
            make_button(
                self,
                c,
                frame,
                Rect(x + 124 + i * step, y, button_w, h),
                str(n),
                self.batch,
                self._bg,
                size=24,
                color=ACCENT if on else TOGGLE_OFF,
                text_color=(30, 30, 30) if on else INK,
                on_tap=partial(on_tap, n),
            )

    def _text(
        self,
        c: Canvas,
        frame: Frame,
        text: str,
        x: float,
        y: float,
        size: float,
        *,
        color: tuple[int, int, int] = INK,
        anchor_x: Literal["left", "center", "right"] = "left",
        bold: bool = True,
        width: float | None = None,
    ) -> Any:
        """A text at (x, y) in design units, shrunk to fit `width` (two lines' height) when given."""
        pts = fit_box(text, c.font(size), c.px(width), c.px(size * 2), bold) if width else c.font(size)
        lbl = label(text, frame, c.px(x), c.px(y), pts, self.batch, self._fg, color=color, anchor_x=anchor_x, bold=bold)
        self._shapes.append(lbl)
        return lbl
