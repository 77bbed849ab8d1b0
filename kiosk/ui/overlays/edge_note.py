"""A short note for the person at one edge of the table, facing them: the answer to their own tap.

On a table the panel of the player whose turn it is faces that player; a refusal shown there
("the computer is thinking") is upside down for a visitor on the other side who tapped during
the computer's turn. A play screen remembers where its last tap was (``touched``) and shows
the refusal of that tap here instead: a band near the tapper's edge, turned to them, for a
few seconds. Without a recent tap (a physical button, a script) nothing is shown here.
"""

from __future__ import annotations

import math
from typing import Any, Callable

import pyglet

from kiosk.ui.kit import seating
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.kit.menu import fit_box, measure, panel
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import INK, Frame, label

#: How long the note stays (seconds), and how recent a tap must be for a refusal to be its answer.
NOTE_S = 2.5
TAP_ANSWER_S = 1.5
NOTE_INK = (255, 170, 150)  # a refusal's colour, as in the panels
#: How long the answer to a first tap on an arrow stays ("tap again to push"), unless the person acts first.
ARROW_NOTE_S = 6.0


class EdgeNote:
    """One note at a time, in its own groups of `batch` (drawn over the play screen)."""

    def __init__(self, batch: pyglet.graphics.Batch, order: int = 46):
        self.batch = batch
        self.back = pyglet.graphics.Group(order=order)
        self.front = pyglet.graphics.Group(order=order + 1)
        self.items: list[Any] = []
        self.until = 0.0
        self.edge = ""
        self.text = ""
        self._touch: tuple[float, float, float] | None = None  # (x, y, when) of the last tap
        self.rect = Rect(0, 0, 0, 0)  # the screen box of the note last shown by show_at

    def touched(self, x: float, y: float, now: float) -> None:
        """A tap at (x, y): a refusal arriving soon after answers this person."""
        self._touch = (x, y, now)

    def tapper_edge(self, layout: Layout, now: float) -> str | None:
        """The edge of the person whose tap a refusal arriving now answers, or None (no recent tap)."""
        if self._touch is None or now - self._touch[2] > TAP_ANSWER_S:
            return None
        return seating.edge_at(layout, self._touch[0], self._touch[1])

    @property
    def showing(self) -> bool:
        return bool(self.items)

    def show(self, layout: Layout, text: str, edge: str, now: float) -> None:
        """`text` for the person at `edge`, near that edge and turned to them, for NOTE_S seconds."""
        self.hide()
        self.until, self.edge, self.text = now + NOTE_S, edge, text
        h = max(layout.touch, layout.px(56))
        w = min(layout.width - layout.px(24), layout.px(520))
        near = seating.angle(edge) == 0
        y = layout.px(12) if near else layout.height - layout.px(12) - h
        frame = Frame(Rect((layout.width - w) / 2, y, w, h), seating.angle(edge))
        self.items += panel(frame, frame.full(), self.batch, self.back, radius=layout.px(12))
        pad = layout.px(12)
        self.items.append(
            label(
                text,
                frame,
                w / 2,
                h / 2,
                fit_box(text, layout.font(BODY), w - 2 * pad, h - layout.px(6)),
                self.batch,
                self.front,
                bold=True,
                color=NOTE_INK,
                name="refusal",
            )
        )

    def show_at(
        self,
        layout: Layout,
        text: str,
        place: Callable[[float, float], tuple[float, float]],
        angle: int,
        now: float,
        room: float,
        ink: Any = INK,
        within: Rect | None = None,
    ) -> Rect:
        """`text` turned `angle` (0 or 180) to its reader, on one line or, when it is wider than `room` px
        at the body size, on as many as it needs; for ARROW_NOTE_S seconds (the answer to a first tap,
        where the finger is: "tap again to push"). `place(w, h)`: the screen point of its bottom-left
        corner for its size. Kept inside `within` (default: the screen); returns the screen box it covers."""
        self.hide()
        self.until, self.edge, self.text = now + ARROW_NOTE_S, "", text
        pad = layout.px(10)
        pts = layout.font(BODY)
        width = min(math.ceil(measure(text, pts)[0]) + 2, room - 2 * pad)
        probe = label(text, Frame(layout.screen, 0), 0, 0, pts, None, width=width, multiline=True, bold=True)
        w, h = width + 2 * pad, probe.content_height + layout.px(12)
        probe.delete()
        x, y = place(w, h)
        keep = within or layout.screen.inset(layout.px(4))
        x = min(max(x, keep.x), keep.right - w)
        y = min(max(y, keep.y), keep.top - h)
        frame = Frame(Rect(x, y, w, h), angle)
        self.rect = frame.rect
        self.items += panel(frame, frame.full(), self.batch, self.back, radius=layout.px(10))
        self.items.append(
            label(
                text,
                frame,
                w / 2,
                h / 2,
                pts,
                self.batch,
                self.front,
                bold=True,
                color=ink,
                width=width,
                multiline=True,
                name="arrow_note",
            )
        )
        return frame.rect

    def update(self, now: float) -> bool:
        """Remove the note once its time is up; True when it went (a frame without it is due)."""
        if self.items and now >= self.until:
            self.hide()
            return True
        return False

    def hide(self) -> None:
        for item in self.items:
            item.delete()
        self.items = []
