"""Small pieces shared by the menu screens (attract, setup, how-to, game over, operator).

Why a design canvas: every menu is laid out once in "design units" — 800x480 px
on the smallest landscape screen, ~480 units wide in portrait — and
``Canvas.r()`` scales a unit rectangle to pixels. Fonts and touch targets then
grow with the screen exactly like the play screen's (``Layout.scale``), and a
menu that fits 800x480 fits every supported size.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Sequence

import pyglet
from pyglet import shapes

from kiosk.ui.kit.contrast import TEXT_BG
from kiosk.ui.kit.layout import MIN_TOUCH, Layout, Rect
from kiosk.ui.kit.typeface import HEADLINE, LABEL, font_for
from kiosk.ui.kit.widgets import (
    ACCENT,
    BUTTON,
    BUTTON_TEXT_MARGIN,
    DIM,
    INK,
    PANEL,
    PANEL_EDGE,
    UNDO_COLOR,
    UNDO_ICON,
    UNDO_QUIET,
    Button,
    Frame,
    box,
    label,
)

if TYPE_CHECKING:
    from kiosk.ui.shell.window import UI

GO = (28, 122, 64)  # the "start / play" button: green means go (white text on it reads at 4.5:1)
GO_DOWN = (30, 100, 56)
TOGGLE_ON = (232, 178, 48)
TOGGLE_OFF = TEXT_BG  # a wooden token not chosen (docs/art.md); players' colours are made to read on it


class Canvas:
    """Design units -> pixels for one layout. ``W``/``H`` are the canvas size in units."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.s = layout.scale
        self.W = layout.width / self.s
        self.H = layout.height / self.s

    def r(self, x: float, y: float, w: float, h: float) -> Rect:
        """A unit rectangle (bottom-left x, y) in pixels."""
        s = self.s
        return Rect(x * s, y * s, w * s, h * s)

    def px(self, n: float) -> float:
        return n * self.s

    def font(self, n: float) -> float:
        """Points for text `n` units tall."""
        return self.layout.font(n)

    @property
    def touch(self) -> float:
        return self.layout.touch


def fit_font(text: str, size: float, width: float, minimum: float = 7.0) -> float:
    """A font size (points) at which `text` fits in `width` px (a rough DejaVu Sans width model).

    Translations differ a lot in length ("Hint" vs "Suggerimento"); shrinking the
    rare long one is better than cutting it.
    """
    if not text:
        return size
    # DejaVu Sans bold averages ~0.68 em per character; 1 pt = 4/3 px.
    needed = len(text) * size * 4 / 3 * 0.68
    if needed <= width:
        return size
    return max(minimum, size * width / needed)


def measure(text: str, pts: float, bold: bool = True) -> tuple[float, float]:
    """The laid-out size (px) of `text` in one line at `pts` points, in the letters it is drawn in."""
    key = (text, round(pts, 2), bold)
    if key not in _MEASURED:
        lab = pyglet.text.Label(
            text, font_name=font_for(text), font_size=max(1.0, pts), weight="bold" if bold else "normal"
        )
        _MEASURED[key] = (float(lab.content_width), float(lab.content_height))
        lab.delete()
    return _MEASURED[key]


_MEASURED: dict[tuple[str, float, bool], tuple[float, float]] = {}


def first_fitting(texts: Sequence[str], pts: float, width: float) -> str:
    """The first of `texts` that fits one line `width` px wide at `pts` (bold), else the last: a button's
    caption at its full size ("↶ Undo", then "Undo", then "↶") rather than one set too small to read."""
    return next((text for text in texts[:-1] if measure(text, pts)[0] <= width), texts[-1])


def fit_box(text: str, pts: float, width: float, height: float, bold: bool = True) -> float:
    """The largest size up to `pts` at which `text`'s line box (not only its letters) fits `width` x `height`."""
    w, h = measure(text, pts, bold)
    k = min(1.0, width / w if w else 1.0, height / h if h else 1.0)
    return pts * k * 0.98 if k < 1.0 else pts


def undo_button(
    layout: Layout,
    frame: Frame,
    local: Rect,
    word: str,
    batch: Any,
    group: Any,
    *,
    on_tap: Callable[[], object],
    icon_only: bool = False,
    quiet: tuple[int, int, int] | None = None,
    over: Any = None,
) -> tuple[Button, list[Any]]:
    """The Undo button of both games at `local` of `frame` (turned to the person whose action it
    takes back): its icon and `word`, else the word alone, else the icon alone; never set too small.

    `quiet`: the previous player's Undo during the next player's turn (the board game's walk, the
    card game's hand-over): a dark secondary button edged in `quiet` (that seat's colour as text
    shade), not in the Undo's loud colour: whose turn it is, their own buttons are the loud ones.
    The button goes in `over` (default: a group over `group`) above its edge. Returns the button
    and the shapes under it, for the caller to delete."""
    text = (
        UNDO_ICON
        if icon_only
        else first_fitting((f"{UNDO_ICON} {word}", word, UNDO_ICON), layout.font(LABEL), local.w - BUTTON_TEXT_MARGIN)
    )
    under: list[Any] = []
    if quiet is not None:
        edge = layout.px(2)
        under.append(box(frame, local.grow(edge), quiet, batch, group, radius=min(local.w, local.h) * 0.25))
        group = over if over is not None else pyglet.graphics.Group(order=1, parent=group)
    button = Button(
        frame,
        local,
        text,
        batch,
        group,
        font_size=layout.font(HEADLINE if text == UNDO_ICON else LABEL),
        on_tap=on_tap,
        min_size=MIN_TOUCH if icon_only else layout.touch,  # a square beside another button may be narrower
        color=UNDO_COLOR if quiet is None else UNDO_QUIET,
    )
    return button, under


def make_button(
    screen: Any,
    canvas: Canvas,
    frame: Frame,
    rect_units: Rect,
    text: str,
    batch: Any,
    group: Any = None,
    *,
    size: float = 17,
    on_tap: Callable[[], object] | None = None,
    color: Any = BUTTON,
    text_color: Any = INK,
    wrap: bool = False,
) -> Button:
    """A finger-sized button placed in design units, registered on `screen`.

    Its text is set at `size` (px at 800x480); a text too long for one line is wrapped onto two
    when `wrap` and the button is tall enough, else shrunk to fit (under the type scale: the
    layout audit says so)."""
    local = canvas.r(*rect_units)
    pts = canvas.font(size)
    room = local.w - canvas.px(8)
    width, height = measure(text, pts)
    two_lines = wrap and width > room and height * 2 <= local.h - canvas.px(4)
    if not two_lines:
        pts = fit_box(text, pts, room, local.h)
    b = Button(
        frame,
        local,
        text,
        batch,
        group,
        font_size=pts,
        on_tap=on_tap,
        min_size=canvas.touch,
        color=color,
        text_color=text_color,
    )
    if two_lines:
        lab = b._label
        lab.begin_update()  # one text drawn for the four changes
        lab.font_size = pts
        lab.width = int(room)
        lab.multiline = True
        lab.set_style("align", "center")
        lab.set_style("line_spacing", height * 0.85)
        lab.end_update()
    screen.add(b)
    return b


def star_button(
    screen: Any,
    canvas: Canvas,
    frame: Frame,
    rect_units: Rect,
    stars: str,
    batch: Any,
    group: Any = None,
    *,
    on_tap: Callable[[], None] | None = None,
    color: Any = BUTTON,
    star_color: Any = INK,
) -> Button:
    """A button showing a computer's strength as drawn stars (one to three), registered on `screen`.

    Drawn, not written: three star signs at a readable size do not fit a finger-wide button, and a
    picture is not a text the type scale applies to. The button's text stays ``stars`` (tests, the
    layout report's id), its label hidden."""
    b = make_button(screen, canvas, frame, rect_units, stars, batch, group, size=LABEL, on_tap=on_tap, color=color)
    b._label.visible = False
    n = max(1, len(stars))
    u, v, w, h = b.local
    r = min(h * 0.24, (w - canvas.px(6)) / (n * 2 * 0.92))
    step = r * 2 * 0.92
    marks = []
    for k in range(n):
        x, y = frame.point(u + w / 2 + (k - (n - 1) / 2) * step, v + h / 2)
        marks.append(
            shapes.Star(
                x,
                y,
                r,
                r * 0.42,
                5,
                rotation=(270 + frame.angle) % 360,
                color=star_color,
                batch=batch,
                group=b.fg_group,
            )
        )
    b.marks = marks
    return b


class Toggle(Button):
    """A variant switch: a check box plus a label, amber when on."""

    def __init__(
        self,
        frame: Frame,
        local: Rect,
        text: str,
        on: bool,
        batch: Any,
        group: Any = None,
        *,
        font_size: float,
        on_change: Callable[[bool], None],
        min_size: float = 48,
    ) -> None:
        self.on = on
        self._on_change = on_change
        super().__init__(
            frame,
            local,
            "",
            batch,
            group,
            font_size=font_size,
            on_tap=self._flip,
            min_size=min_size,
            color=TOGGLE_ON if on else TOGGLE_OFF,
        )
        u, v, w, h = self.local
        side = min(h * 0.5, w * 0.2)
        fg = self.fg_group
        self._check_box = box(
            frame, Rect(u + h * 0.25, v + (h - side) / 2, side, side), INK, batch, fg, radius=side * 0.2
        )
        fg2 = pyglet.graphics.Group(order=2, parent=group)
        self._tick = label(
            "\u2714",
            frame,
            u + h * 0.25 + side / 2,
            v + h / 2,
            font_size * 1.1,
            batch,
            fg2,
            color=(30, 30, 30),
            bold=True,
        )
        text_w = w - (h * 0.25 + side + h * 0.2) - 6
        pts = fit_box(text, font_size, text_w, h)
        self._text = label(
            text,
            frame,
            u + h * 0.25 + side + h * 0.2,
            v + h / 2,
            pts,
            batch,
            fg,
            anchor_x="left",
            bold=True,
            color=(25, 25, 25) if on else INK,
        )
        self._show()

    def _flip(self) -> None:
        self.on = not self.on
        self.color = TOGGLE_ON if self.on else TOGGLE_OFF
        self._paint(self.color)
        self._show()
        self._on_change(self.on)

    def _show(self) -> None:
        self._tick.visible = self.on
        self._text.color = (25, 25, 25, 255) if self.on else (*INK, 255)

    def release(self) -> None:
        super().release()
        self._paint(self.color)

    def delete(self) -> None:
        super().delete()
        self._check_box.delete()
        self._tick.delete()
        self._text.delete()


def panel(
    frame: Frame,
    rect: Rect,
    batch: Any,
    group: Any = None,
    color: Any = PANEL,
    edge: Any = PANEL_EDGE,
    radius: float = 10,
) -> list[Any]:
    """A rounded panel with a thin edge (two shapes)."""
    return [
        box(frame, rect.grow(2), edge, batch, group, radius=radius + 2),
        box(frame, rect, color, batch, group, radius=radius),
    ]


def clear_drawing(screen: Any) -> None:
    """Drop a menu screen's widgets and shapes (``screen._shapes``) and give it an empty batch.

    Menu screens draw themselves again from scratch on every change (enter, resize, a choice).
    """
    screen.clear_widgets()
    for s in screen._shapes:
        s.delete()
    screen._shapes = []
    screen.batch = pyglet.graphics.Batch()


def dim(layout: Layout, batch: Any, group: Any = None, alpha: int = 170) -> shapes.Rectangle:
    """A translucent dark sheet over the whole window (for overlays)."""
    return shapes.Rectangle(0, 0, layout.width, layout.height, color=(8, 10, 14, alpha), batch=batch, group=group)


__all__ = [
    "Canvas",
    "Toggle",
    "make_button",
    "fit_font",
    "panel",
    "clear_drawing",
    "dim",
    "GO",
    "GO_DOWN",
    "ACCENT",
    "DIM",
    "INK",
    "PANEL",
]


def config_value(ui: UI, section: str, key: str, default: Any) -> Any:
    """``[section] key`` of the kiosk's config, or `default` when there is none (tests, demos)
    or the key is unset (None). `section` and `key` name a config field: kiosk.core.config."""
    config = ui.kiosk.config
    value = None if config is None else getattr(getattr(config, section), key)
    return default if value is None else value


def set_language(ui: Any, language: str) -> None:
    """Switch the UI's language (the app's hook if it has one, else its translator)."""
    hook = getattr(ui, "set_language", None)
    if callable(hook):
        hook(language)
        return
    translator = getattr(ui, "translator", None)
    if translator is not None:
        translator.set_language(language)


def current_language(ui: Any) -> str:
    translator = getattr(ui, "translator", None)
    return str(getattr(ui, "language", None) or getattr(translator, "language", "en"))


def picture(ui: Any, kind: str, what: Any, cx: float, cy: float, size: float, batch: Any, group: Any = None) -> Any:
    """A drawing from the UI's art atlas ("tile" openings, "treasure" name, "pawn" seat) as one sprite.

    Sprites keep each drawing's own stroke order (shapes sharing a group do not).
    """
    atlas = ui.atlas
    region = {"tile": atlas.tile, "treasure": atlas.treasure, "pawn": atlas.pawn}[kind](what)
    s = pyglet.sprite.Sprite(region, cx, cy, batch=batch, group=group)
    s.scale = size / atlas.px
    return s
