"""Buttons, texts and panels that can be turned to face a seat.

On a tabletop kiosk the players sit around a flat screen, so a panel meant for
the player at the top edge is drawn upside down. A :class:`Frame` is a screen
rectangle plus an angle (0 or 180): widgets are laid out in the frame's own
coordinates (as its reader sees it: origin bottom-left, y up) and the frame
maps them onto the screen. No GL state is involved, so everything stays in one
batch and hit tests are plain rectangle checks.

Touch targets: a Button is never smaller than ``layout.touch`` in either
direction (48 px on 800x480) — the constructor grows it around its centre.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Literal

import pyglet
from pyglet import shapes

from kiosk.errors import ContractError
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.typeface import FALLBACK as FONT  # noqa: F401  (the family of drawn signs; texts: typeface.font_for)
from kiosk.ui.kit.typeface import font_for
from kiosk.ui.kit.text_cache import Spec, Text

# A small palette shared by all screens (docs/art.md: light ink on the walnut table and its trays).
#: Where a label's (x, y) sits on its text (pyglet's anchors).
AnchorX = Literal["left", "center", "right"]
AnchorY = Literal["top", "bottom", "center", "baseline"]

INK = (245, 240, 228)
DIM = (196, 186, 168)  # quieter text: 6:1 on a tray, 8:1 on the table
PANEL = (66, 48, 37)  # a tray on the walnut table (docs/art.md)
PANEL_EDGE = (128, 94, 62)  # its wooden rim
ACCENT = (255, 196, 64)
BUTTON = (64, 110, 170)
BUTTON_DOWN = (40, 70, 110)
DISABLED = (80, 68, 60)
UNDO_COLOR = (150, 96, 40)  # the Undo button of both games (a turning-back arrow before the word)
UNDO_ICON = "\u21b6"
#: the previous player's Undo during the next turn: a quiet button (edged in that seat's colour)
UNDO_QUIET = (52, 60, 74)
#: the room a Button's text leaves at its sides together, in px: a wider text is set smaller (fit_width)
BUTTON_TEXT_MARGIN = 6
#: the desktop stand-ins for the Undo button (docs/keys.md): pyglet's key.U and key.BACKSPACE (as numbers:
#: importing pyglet.window here would open a window before the UI chose its platform)
UNDO_KEYS = (117, 65288)
DANGER = (210, 60, 60)
TOKEN_EDGE = 0.07  # a button's darker edge shows this part of its height below it


class Frame:
    """A rectangle on screen seen by a reader turned `angle` degrees (0 or 180)."""

    def __init__(self, rect: Rect, angle: int = 0):
        if angle not in (0, 180):
            raise ContractError(f"a frame faces 0 or 180 degrees, not {angle}")
        self.rect = Rect(*rect)
        self.angle = angle

    @property
    def w(self) -> float:
        return self.rect.w

    @property
    def h(self) -> float:
        return self.rect.h

    def point(self, u: float, v: float) -> tuple[float, float]:
        """Local (u, v) -> screen (x, y)."""
        r = self.rect
        if self.angle == 180:
            return (r.right - u, r.top - v)
        return (r.x + u, r.y + v)

    def area(self, local: Rect) -> Rect:
        """A local rectangle -> the screen rectangle it covers."""
        u, v, w, h = local
        if self.angle == 180:
            r = self.rect
            return Rect(r.right - u - w, r.top - v - h, w, h)
        return Rect(self.rect.x + u, self.rect.y + v, w, h)

    def to_local(self, x: float, y: float) -> tuple[float, float]:
        r = self.rect
        if self.angle == 180:
            return (r.right - x, r.top - y)
        return (x - r.x, y - r.y)

    def full(self) -> Rect:
        return Rect(0, 0, self.rect.w, self.rect.h)


class Recorder:
    """What the layout audit (kiosk/ui/audit/layout.py) collects while it is on: every text made by
    :func:`label` with the frame it is turned with and the box it must stay in.

    Off (``RECORDER is None``) it costs one comparison per text.
    """

    def __init__(self) -> None:
        self.texts: list[tuple[Text, Frame, Rect | None, str, str]] = []
        self.pictures: list[tuple[Any, str, str, float]] = []  # (sprite, kind, treasure, px across)

    def picture(self, sprite: Any, kind: str, treasure: str, px: float) -> None:
        """A treasure picture shown now (`kind`: target, found, open_card, card_symbol), `px` across."""
        self.pictures = [p for p in self.pictures if p[0] is not sprite or p[1] != kind]
        self.pictures.append((sprite, kind, treasure, px))

    def note(self, lab: Text, frame: Frame, container: Rect | None, role: str, name: str) -> None:
        """A text shown now; a text shown again is checked at its new place only."""
        self.texts = [t for t in self.texts if t[0] is not lab]
        self.texts.append((lab, frame, container, role, name))


#: The layout audit's recorder while it runs, else None.
RECORDER: Recorder | None = None


def note_picture(sprite: Any, kind: str, treasure: str, px: float) -> None:
    """Tell the layout audit (when it runs) about a treasure picture, `px` across as drawn."""
    if RECORDER is not None:
        RECORDER.picture(sprite, kind, treasure, px)


def sign(
    text: str, x: float, y: float, size: float, color: Any, batch: Any, group: Any = None, bold: bool = False
) -> Text:
    """A pictogram or a number (a pointing finger, a tick, a die) centred at screen point (x, y), in the
    face that has the pictograms (:data:`FONT`); the how-to's stages and the card table draw these."""
    spec = Spec(text, FONT, float(size), bold)
    return Text(spec, round(x), round(y), 0, _rgba(color), batch, group)


def _rgba(color: Any) -> tuple[int, int, int, int]:
    return (*color[:3], color[3] if len(color) > 3 else 255)


def label(
    text: str,
    frame: Frame,
    u: float,
    v: float,
    size: float,
    batch: Any,
    group: Any = None,
    *,
    color: Any = INK,
    anchor_x: AnchorX = "center",
    anchor_y: AnchorY = "center",
    bold: bool = False,
    width: float | None = None,
    multiline: bool = False,
    align: str = "center",
    line_spacing: float | None = None,
    container: Rect | None = None,
    role: str = "body",
    name: str = "",
) -> Text:
    """A text at local (u, v) of `frame`, turned with it, drawn once (kiosk/ui/kit/text_cache.py).
    `size` is in points (use layout.font); `line_spacing` in px between a multiline text's lines.

    For the layout audit: `container` is the screen rectangle the text must stay in (default: the
    frame's), `role` "body" or "headline" (which minimum size applies), `name` a short id.
    """
    x, y = frame.point(u, v)
    # whole pixels: a text drawn at a half-pixel position has its thin strokes washed out (worst on a
    # screen turned 90 degrees, where the layout's x becomes the panel's y)
    spec = label_spec(text, size, bold, width, multiline, align, anchor_x, anchor_y, line_spacing)
    lab = Text(spec, round(x), round(y), frame.angle, _rgba(color), batch, group)
    if RECORDER is not None:
        RECORDER.note(lab, frame, container, role, name)
    return lab


def label_spec(
    text: str,
    size: float,
    bold: bool = False,
    width: float | None = None,
    multiline: bool = False,
    align: str = "center",
    anchor_x: AnchorX = "center",
    anchor_y: AnchorY = "center",
    line_spacing: float | None = None,
) -> Spec:
    """What :func:`label` draws for these settings (a screen's vocabulary to warm: TextCache.warm)."""
    return Spec(
        text,
        font_for(text),
        max(1.0, float(size)),
        bold,
        None if width is None else max(1, int(width)),
        multiline and width is not None,
        align,
        anchor_x,
        anchor_y,
        line_spacing,
    )


def box(frame: Frame, local: Rect, color: Any, batch: Any, group: Any = None, radius: float = 0) -> shapes.ShapeBase:
    """A filled (optionally rounded) rectangle at a local position of `frame`."""
    r = frame.area(local)
    if radius > 0:
        radius = min(radius, r.w / 2, r.h / 2)
        return shapes.RoundedRectangle(r.x, r.y, r.w, r.h, radius, segments=6, color=color, batch=batch, group=group)
    return shapes.Rectangle(r.x, r.y, r.w, r.h, color=color, batch=batch, group=group)


def fit_width(lab: Text, width: float) -> None:
    """Shrink a label's font until its laid-out text is at most `width` px wide (a rough size guess,
    e.g. menu.fit_font, can be a few letters short for a long translation)."""
    for _ in range(4):
        if width <= 0 or lab.content_width <= width:
            return
        lab.font_size = max(1.0, lab.font_size * width / lab.content_width * 0.97)


class Widget:
    """Something tappable: a screen rectangle, enabled/visible flags, callbacks: `on_tap` on a tap,
    `on_hold(True/False)` when a finger goes down/up on it (what they return is not used)."""

    def __init__(
        self, rect: Rect, on_tap: Callable[[], object] | None = None, on_hold: Callable[[bool], object] | None = None
    ):
        self.rect = Rect(*rect)
        self.on_tap = on_tap
        self.on_hold = on_hold
        self.enabled = True
        self.visible = True

    def hit(self, x: float, y: float) -> bool:
        return self.visible and self.rect.contains(x, y)

    def tap(self) -> None:
        if self.on_tap and self.enabled:
            self.on_tap()

    def press(self) -> None:
        if self.on_hold:
            self.on_hold(True)

    def release(self) -> None:
        if self.on_hold:
            self.on_hold(False)

    def delete(self) -> None:
        pass


class Button(Widget):
    """A rounded button with a text (and optional icon drawer), turned with its frame.

    `on_tap` runs on a tap; `on_hold(True/False)` when a finger goes down/up on it
    (press-and-hold, e.g. the peek button).
    """

    def __init__(
        self,
        frame: Frame,
        local: Rect,
        text: str,
        batch: Any,
        group: Any = None,
        *,
        font_size: float = 12,
        on_tap: Callable[[], object] | None = None,
        on_hold: Callable[[bool], object] | None = None,
        min_size: float = 48,
        color: Any = BUTTON,
        text_color: Any = INK,
        radius: float | None = None,
    ) -> None:
        u, v, w, h = local
        if w < min_size:
            u, w = u - (min_size - w) / 2, min_size
        if h < min_size:
            v, h = v - (min_size - h) / 2, min_size
        local = Rect(u, v, w, h)
        super().__init__(frame.area(local), on_tap, on_hold)
        self.frame, self.local = frame, local
        self.marks: list[Any] = []  # shapes drawn on it besides its text (a level's stars)
        self.color = color
        self.held = False
        radius = radius if radius is not None else min(w, h) * 0.25
        # a painted token (docs/art.md): its darker edge shows below it, lit from the top of the screen
        # whichever way its text faces
        r, drop = self.rect, max(2.0, min(w, h) * TOKEN_EDGE)
        edge = pyglet.graphics.Group(order=-1, parent=group)
        self._edge = box(
            Frame(Rect(r.x, r.y - drop, r.w, r.h)), Rect(0, 0, r.w, r.h), edge_of(color), batch, edge, radius
        )
        self._bg = box(frame, local, color, batch, group, radius)
        fg = pyglet.graphics.Group(order=1, parent=group)
        self._label = label(
            text,
            frame,
            u + w / 2,
            v + h / 2,
            font_size,
            batch,
            fg,
            color=text_color,
            bold=True,
            width=w - 8 if text else None,
            container=self.rect,
            name="button",
        )
        fit_width(self._label, w - BUTTON_TEXT_MARGIN)
        self.fg_group = fg

    @property
    def text(self) -> str:
        return str(self._label.text)

    @text.setter
    def text(self, value: str) -> None:
        self._label.text = value

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self._paint(self.color if on else DISABLED)
        self._label.color = (*INK, 255) if on else (*DIM, 255)

    def _paint(self, color: tuple[int, int, int] | tuple[int, int, int, int]) -> None:
        """The token's colour now (its edge follows)."""
        self._bg.color = color
        self._edge.color = edge_of(color)

    def set_visible(self, on: bool) -> None:
        self.visible = on
        self._bg.visible = self._edge.visible = on
        self._label.visible = on

    def press(self) -> None:
        self.held = True
        r, g, b = self.color[:3]
        self._paint(BUTTON_DOWN if self.color == BUTTON else (int(r * 0.65), int(g * 0.65), int(b * 0.65)))
        if self.on_hold:
            self.on_hold(True)

    def release(self) -> None:
        self.held = False
        self._paint(self.color if self.enabled else DISABLED)
        if self.on_hold:
            self.on_hold(False)

    def delete(self) -> None:
        self._bg.delete()
        self._edge.delete()
        self._label.delete()


def edge_of(color: tuple[int, int, int] | tuple[int, int, int, int]) -> tuple[int, int, int]:
    """The side of a painted token turned away from the light: its colour, darker."""
    return (int(color[0] * 0.55), int(color[1] * 0.55), int(color[2] * 0.55))


class Hold:
    """Press-and-hold state with a short-tap fallback: a tap keeps it on for `linger` seconds.

    Children often tap instead of holding; the peek button then shows the target
    briefly instead of doing nothing.
    """

    def __init__(self, linger: float = 1.5, clock: Callable[[], float] = time.monotonic):
        self.linger = linger
        self.clock = clock
        self.down = False
        self.until = 0.0

    def set(self, down: bool) -> None:
        self.down = down
        if not down:
            self.until = self.clock() + self.linger

    def tap(self) -> None:
        self.until = self.clock() + self.linger

    def cancel(self) -> None:
        self.down = False
        self.until = 0.0

    @property
    def on(self) -> bool:
        return self.down or self.clock() < self.until
