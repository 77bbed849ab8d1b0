"""What tells people whose turn it is and what a tap will do: the turn cue and the two-tap choice.

The turn cue: when a person's turn starts, "<colour>'s turn" is written large
on a dark band edged in their colour, over the head of their own panel (their
name and counts), turned to face their edge (kiosk/ui/kit/seating.py), and
stays until the first touch or button (a child who looked away still sees whose
turn it is). A corner panel's border alone was missed by visitors; a band across
the board covered two of its rows just when the player chose a move, and one
along the short ends covered the W and E arrows. It stands still: it costs no
frames while it waits.

Nothing is written facing the short ends of the table: nobody sits there. The
seats are the board's corners, read from the long edges (two seats a side), and
the short ends hold the W and E arrows, which any player reaches across to.

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

from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit import typeface
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.kit.widgets import Frame, box, label
from kiosk.ui.kit.text_cache import Text

T = TypeVar("T")
CUE_BAND = (34, 24, 19)  # the turn cue's band over the head of the panel: dark walnut (docs/art.md)


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
    """Whose turn cue is up: from the start of a person's turn until their first touch or button.

    It keeps no text and no shapes: the panel of that person draws it (:func:`draw_band`) from the
    screen's words of the moment, so a change of language or screen size, which lays the panels
    out again, says it again too (it used to keep the words of the turn's start)."""

    def __init__(self) -> None:
        self.player: int | None = None  # whose cue shows; None: hidden
        self.shown_at: float | None = None  # seconds the cue has been showing; None: hidden

    def show(self, player: int) -> None:
        self.player, self.shown_at = player, 0.0

    def hide(self) -> None:
        self.player = self.shown_at = None

    def update(self, dt: float) -> bool:
        """Let `dt` seconds of frames pass; True while the cue is on screen (it waits for a touch)."""
        if self.shown_at is None:
            return False
        self.shown_at += dt
        return True

    @property
    def showing(self) -> bool:
        return self.shown_at is not None


#: the distance of the cue's two lines, in text heights (tighter than a paragraph: it is one phrase)
CUE_LINE_SPACING = 1.05
#: the room (px on 800x480) the band's text keeps from its sides, and from its top and bottom together
BAND_MARGIN = 6


def cue_lines(text: str, layout: Layout, width: float, height: float) -> tuple[str, float]:
    """`text` as the band shows it: (the text, on one line or broken into two at a space, its size in
    points), the largest from CUE down to TITLE that fits `width` x `height`; else the two lines at
    the size at which they fit (a long translation in the narrowest panel)."""
    from kiosk.ui.kit.menu import measure

    words = text.split()
    breaks = [" ".join(words[:k]) + "\n" + " ".join(words[k:]) for k in range(1, len(words))]
    breaks.sort(key=lambda t: max(len(line) for line in t.split("\n")))  # the most even first

    def size_of(candidate: str, pts: float) -> tuple[float, float]:
        lines = candidate.split("\n")
        w = max(measure(line, pts)[0] for line in lines)
        h = measure(lines[0], pts)[1] + (len(lines) - 1) * pts * 4 / 3 * CUE_LINE_SPACING
        return w, h

    size = float(typeface.CUE)
    while True:
        pts = layout.font(size)
        for candidate in [text] + breaks[:1]:
            w, h = size_of(candidate, pts)
            if w <= width and h <= height:
                return candidate, pts
        if size <= typeface.TITLE:
            break
        size = max(float(typeface.TITLE), size - 2)
    candidate = breaks[0] if breaks else text
    w, h = size_of(candidate, pts)
    return candidate, pts * min(width / w, height / h) * 0.98


def draw_band(
    layout: Layout,
    frame: Frame,
    area: Rect,
    text: str,
    color: tuple[int, int, int],
    batch: Any,
    group: Any,
) -> tuple[list[Any], Text]:
    """The cue over `area` (local to `frame`, the reader's panel): dark wood, an edge of the reader's
    colour on the side nearer them, and `text` in a light shade of that colour, as large as fits.
    Returns the shapes and the text."""
    band = box(frame, area, CUE_BAND, batch, group, radius=layout.px(6))
    over = pyglet.graphics.Group(order=1, parent=group)
    edge = box(frame, Rect(area.x + layout.px(4), area.y, area.w - layout.px(8), layout.px(4)), color, batch, over)
    words, pts = cue_lines(text, layout, area.w - 2 * layout.px(BAND_MARGIN), area.h - layout.px(BAND_MARGIN))
    fg = pyglet.graphics.Group(order=2, parent=group)
    lab = label(
        words,
        frame,
        area.x + area.w / 2,
        area.y + area.h / 2 + layout.px(2),
        pts,
        batch,
        fg,
        color=text_shade(color),
        bold=True,
        width=area.w - 2 * layout.px(BAND_MARGIN),
        multiline="\n" in words,
        line_spacing=pts * 4 / 3 * CUE_LINE_SPACING if "\n" in words else None,
        name="turn-cue",
    )
    return [band, edge], lab
