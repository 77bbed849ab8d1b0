"""The base class of every screen (attract, setup, play, howto, gameover, operator).

A screen is one full-window view. The UI (kiosk/ui/shell/window.py) shows one at a time,
forwards finger input and bus events to it and calls ``update``/``draw`` each
frame. Screens never change game state: they post commands with ``ui.post``.

Coordinates given to ``tap``/``press``/``release`` are pyglet window pixels
(origin bottom-left). Widgets added with ``self.add(widget)`` get taps and
press-and-hold for free (see kiosk/ui/kit/widgets.py); override ``tap`` for more.

Register a screen class under its name with ``@register("name")``; the UI
creates it on first use and calls ``resize`` whenever the layout changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Protocol, runtime_checkable

import pyglet

from kiosk.ui.kit.table import TABLE, table_grain

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.session import GameSession

    from kiosk.ui.shell.window import UI
    from kiosk.ui.shell.contract import KioskView
    from kiosk.ui.kit.layout import Layout

#: the pace of a screen that plays to passers-by (the attract demo, a how-to, the podium): it looks
#: the same at 30 frames a second as at 60, and costs a Pi half the CPU all day (Screen.motion_hz)
PASSERS_BY_HZ = 30

#: Screen classes by name, filled by @register.
SCREENS: dict[str, type["Screen"]] = {}


def register(name: str) -> Callable[[type["Screen"]], type["Screen"]]:
    """Class decorator: make a Screen subclass available as ``ui.goto(name)``."""

    def wrap(cls: type["Screen"]) -> type["Screen"]:
        cls.name = name
        SCREENS[name] = cls
        return cls

    return wrap


def session_for(kiosk: "KioskView", game: str) -> "GameSession[Any] | None":
    """The session of game `game` in `kiosk` (``kiosk.sessions``), or None."""
    return kiosk.sessions.get(game)


def game_on(screen_name: str) -> str | None:
    """The game whose play screen is `screen_name` (kiosk.games), or None."""
    from kiosk import games

    for game in games.all_games():
        if game.play_screen == screen_name:
            return game.name
    return None


@runtime_checkable
class Layered(Protocol):
    """A screen that draws in two layers: what stays still (``draw_static``, which the UI keeps in
    its frame cache, kiosk/ui/kit/frame_cache.py) and what moves (``draw_live``, drawn over it)."""

    def draw_static(self) -> None: ...

    def draw_live(self) -> None: ...


_CONFORMS: dict[tuple[type, type], bool] = {}  # (class, protocol): isinstance(_, protocol)


def conforms(obj: object, protocol: Any) -> bool:
    """``isinstance(obj, protocol)`` for a runtime-checkable protocol, asked of each class once:
    the frame loop asks every frame, and a protocol's own check walks its attributes each time
    (it cost more than the rest of a still frame's Python)."""
    key = (type(obj), protocol)
    known = _CONFORMS.get(key)
    if known is None:
        known = _CONFORMS[key] = isinstance(obj, protocol)
    return known


def is_layered(screen: object) -> bool:
    """The screen draws in layers (:class:`Layered`)."""
    return conforms(screen, Layered)


class Screen:
    """One full-window view. Subclasses override what they need; all hooks are optional."""

    name: str = "screen"
    background: tuple[int, int, int] = TABLE  # the walnut table of docs/art.md
    #: the table's planks drawn behind the screen (kiosk/ui/kit/table.py); False: the plain colour
    shows_table: bool = True
    #: hears bus events while another screen shows (``on_event``)
    listens_in_background: bool = False
    #: frames a second its motion needs while it moves on its own (the window loop's pace,
    #: kiosk/ui/shell/runner.py): a game's own moves are watched closely and get 60; a screen that
    #: plays to passers-by gets PASSERS_BY_HZ. A touch or news is still shown at the next 60 Hz frame.
    motion_hz: int = 60

    def __init__(self, ui: "UI"):
        self.ui = ui
        self.batch = pyglet.graphics.Batch()
        self.widgets: list[Any] = []  # Button and friends: anything with hit()/tap()/press()/release()
        self._held: Any = None  # the widget under a finger that is still down
        # the table's lines, for the size in _table_size, in a batch of their own that every screen
        # draws first (``draw_table``), so a screen's own batches (rebuilt, or several) are all over it
        self.table_batch = pyglet.graphics.Batch()
        self._table: list[Any] = []
        self._table_size: tuple[int, int, float] | None = None

    # ---------------------------------------------------------------- convenience
    @property
    def layout(self) -> "Layout":
        return self.ui.layout

    @property
    def kiosk(self) -> "KioskView":
        return self.ui.kiosk

    def t(self, key: str, **kw: Any) -> str:
        return self.ui.t(key, **kw)

    def add(self, widget: Any) -> Any:
        """Register a widget for taps and press-and-hold; returns it."""
        self.widgets.append(widget)
        return widget

    def clear_widgets(self) -> None:
        for w in self.widgets:
            delete = getattr(w, "delete", None)
            if delete:
                delete()
        self.widgets.clear()
        self._held = None

    def widget_at(self, x: float, y: float) -> Any:
        for w in reversed(self.widgets):  # the last added is on top
            if w.hit(x, y):
                return w
        return None

    # ---------------------------------------------------------------- lifecycle hooks
    def enter(self, **kw: Any) -> None:
        """Becomes the visible screen; `kw` comes from ``ui.goto(name, **kw)``."""

    def leave(self) -> None:
        """Stops being the visible screen (a held finger is let go)."""
        if self._held is not None:
            self._held.release()
            self._held = None

    def resize(self, layout: "Layout") -> None:
        """The window size or the layout mode changed: rebuild geometry."""

    def lay_table(self, layout: "Layout") -> bool:
        """Make the table's planks for `layout`'s size in ``table_batch`` (once per size: the UI asks
        before each frame); True if they were made again now."""
        size = (layout.width, layout.height, layout.scale)
        if not self.shows_table or size == self._table_size:
            return False
        for line in self._table:
            line.delete()
        self._table = table_grain(layout.width, layout.height, layout.scale, self.table_batch, None)
        self._table_size = size
        return True

    def draw_table(self) -> None:
        """The table under the screen: what a screen's drawing (``draw``, ``draw_static``) starts with."""
        self.table_batch.draw()

    def update(self, dt: float) -> None:
        """Advance animations by `dt` seconds."""

    def draw(self) -> None:
        self.draw_table()
        self.batch.draw()

    def on_event(self, event: Any) -> None:
        """A bus event (kiosk/core/events.py) while this screen is visible."""

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """A key press that the UI did not map to an arcade button; True if used."""
        return False

    @property
    def busy(self) -> bool:
        """True while an animation runs (scripted runs wait for it before a screenshot)."""
        return False

    @property
    def animating(self) -> bool:
        """A frame is needed every tick even when nothing was invalidated (a :class:`Layered`
        screen says when it is still)."""
        return True

    def wake_in(self) -> float | None:
        """Seconds until ``update`` has something to do while the screen is still (a message that
        times out, a delayed screen change); None: nothing until an input or an event. Only asked
        while ``animating`` is False: the display loop sleeps until then (kiosk/ui/shell/runner.py)."""
        return None

    def claims(self, x: float, y: float) -> bool:
        """A finger at (x, y) does something here (then it never counts for the operator gesture)."""
        return self.widget_at(x, y) is not None

    # ---------------------------------------------------------------- finger input
    def tap(self, x: float, y: float) -> bool:
        """A finger went down and up at (x, y). Default: the widget there gets it."""
        w = self.widget_at(x, y)
        if w is not None and w.enabled:
            w.tap()
            return True
        return False

    def press(self, x: float, y: float) -> None:
        """A finger went down (press-and-hold widgets start here)."""
        w = self.widget_at(x, y)
        if w is not None and w.enabled:
            self._held = w
            w.press()

    def release(self, x: float, y: float) -> None:
        """The finger went up."""
        if self._held is not None:
            self._held.release()
            self._held = None
