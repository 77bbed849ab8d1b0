"""What tells people whose turn it is and what a tap will do: the turn cue and the two-tap choice.

The turn cue: when a person's turn starts, "<colour>'s turn" is written large
across the board, turned to face that person's edge (kiosk/ui/shell/seating.py), on
a band of their colour, and stays until the first touch or button (a child who
looked away still sees whose turn it is). A corner panel's border alone was
missed by visitors. It stands still: it costs no frames while it waits.

:class:`TwoTap`: on a table, a child's second finger, a palm or a sleeve
touches the screen; a single touch must never end a turn. The first tap on a
target only chooses it (it is shown), a second tap on the same target (or the
panel's confirm button) does it; a tap elsewhere chooses again. Both games use
it (the board game's destination cell; the card game can do the same for the
card to lay).
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

import pyglet
from pyglet import shapes

from kiosk.ui.shell import typeface
from kiosk.ui.shell.label_pool import LabelPool
from kiosk.ui.shell.layout import Rect
from kiosk.ui.shell.widgets import Frame

T = TypeVar("T")
CUE_BAND = (34, 24, 19)  # the turn cue's band over the board: dark walnut (docs/art.md)


class TwoTap(Generic[T]):
    """A choice that needs a second tap on the same target (or a confirm) before it counts."""

    def __init__(self, on_confirm: Callable[[T], None], on_change: Callable[[], None] = lambda: None):
        self.on_confirm = on_confirm
        self.on_change = on_change
        self.pending: T | None = None

    def tap(self, target: T) -> bool:
        """A tap on `target`: True if it confirmed (the action ran), False if it only chose it."""
        if self.pending is not None and self.pending == target:
            self.pending = None
            self.on_change()
            self.on_confirm(target)
            return True
        self.pending = target
        self.on_change()
        return False

    def confirm(self) -> bool:
        """The confirm button: does the pending choice; False if nothing was chosen."""
        if self.pending is None:
            return False
        target, self.pending = self.pending, None
        self.on_change()
        self.on_confirm(target)
        return True

    def clear(self) -> None:
        if self.pending is not None:
            self.pending = None
            self.on_change()


class TurnCue:
    """The large "<colour>'s turn" band, facing the person whose turn starts."""

    def __init__(self, batch: pyglet.graphics.Batch, group: Any = None):
        self.batch = batch
        self.group = group or pyglet.graphics.Group(order=50)
        self.items: list[Any] = []
        self.labels = LabelPool(keep=8)  # each colour's cue text, kept for its next turn
        self.shown_at: float | None = None  # seconds the cue has been showing; None: hidden
        self.text = ""
        self.angle = 0

    def show(self, layout: Any, rect: Any, text: str, color: tuple[int, int, int], angle: int) -> None:
        """Write `text` over the board `rect` (its half nearer the reader at `angle`)."""
        self.hide()
        self.text, self.angle, self.shown_at = text, angle, 0.0
        h = layout.px(typeface.CUE * 1.7)
        band_y = rect.y + rect.h * 0.25 - h / 2
        frame = Frame(rect, angle)
        local = Rect(0, band_y - rect.y, rect.w, h)
        area = frame.area(local)
        self.items.append(
            shapes.Rectangle(area.x, area.y, area.w, area.h, color=CUE_BAND, batch=self.batch, group=self.group)
        )
        edge = layout.px(4)
        self.items.append(
            shapes.Rectangle(
                area.x,
                area.y + (0 if angle == 0 else area.h - edge),
                area.w,
                edge,
                color=color,
                batch=self.batch,
                group=self.group,
            )
        )
        self.items.append(self._text(layout, rect, text, color, angle))
        self.rect = area

    def prepare(self, layout: Any, rect: Any, text: str, color: tuple[int, int, int], angle: int) -> None:
        """Lay out the text :meth:`show` will write (kept hidden in the pool), so that moment only moves it."""
        self.labels.give_back(self._text(layout, rect, text, color, angle))

    def _text(self, layout: Any, rect: Any, text: str, color: tuple[int, int, int], angle: int) -> Any:
        h = layout.px(typeface.CUE * 1.7)
        band_y = rect.y + rect.h * 0.25 - h / 2
        fg = pyglet.graphics.Group(order=1, parent=self.group)
        from kiosk.ui.shell.menu import fit_font

        pts = fit_font(text, layout.font(typeface.CUE), rect.w - layout.px(16), minimum=layout.font(typeface.HEADLINE))
        return self.labels.take(
            text, Frame(rect, angle), rect.w / 2, band_y - rect.y + h / 2, pts, self.batch, fg, color=color, bold=True
        )

    def hide(self) -> None:
        for it in self.items:
            if isinstance(it, pyglet.text.Label):
                self.labels.give_back(it)
            else:
                it.delete()
        self.items = []
        self.shown_at = None

    def update(self, dt: float) -> bool:
        """Let `dt` seconds of frames pass; True while the cue is on screen (it waits for a touch)."""
        if self.shown_at is None:
            return False
        self.shown_at += dt
        return True

    @property
    def showing(self) -> bool:
        return self.shown_at is not None
