"""The card screen's score chips: a chip per player in a strip along their edge of the table, facing them.

The first half of the players' chips run along the far edge, the rest along the near one (one
person against the computer has their chip at the near edge, where they sit). A chip says its
player's colour and name (a computer's strength in stars), the cards in hand and the cards taken,
in words ("2 in hand", "3 taken": a bare number and little card backs said nothing to a visitor):
on one line where every chip has room for them (the cards in hand left out where only the cards
taken fit: hands are the same for everyone until the pile runs out), else on two (the name above;
the cards in hand only where they fit beside the cards taken). Each chip is a part of its own
(``Parts``), built again only when what it says changes, and marks its own rectangle.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

import pyglet

from kiosk.games import HUMAN
from kiosk.games.cards.screens.model import TableModel
from kiosk.games.cards.screens.parts import Host
from kiosk.games.cards.screens.seats import ACTIVE_TRAY, player_rgb, seat_token, strength_stars
from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.kit import typeface, widgets
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import measure
from kiosk.ui.kit.text_cache import Spec
from kiosk.ui.kit.widgets import DIM, INK, PANEL, PANEL_EDGE, Frame, box, label_spec

SCORE_ROW = 40  # px at 800x480: a score chip's row, a line of body text and its margins
TWO_LINES = 56  # px at 800x480: a chip's row where its name and its counters take a line each
WORST_TAKEN = 88  # the cards taken a chip must have room for (two digits; the deck has fewer than 88)


def sides(model: TableModel) -> tuple[list[int], list[int]]:
    """The players whose score chips run along the far (top) edge and along the near edge: the
    first half far, as they sit in the tabletop layout (the screen's ``facing``); one person against
    the computer has their chip at the near edge, where they sit."""
    n = model.players if model.started else 4
    order = list(range(n))
    people = [i for i in order if model.started and model.kinds[i] == HUMAN]
    if len(people) == 1:  # one person (near edge, as ``facing``): their chip along their edge
        order = [i for i in order if i != people[0]] + people
    half = (n + 1) // 2
    return order[:half], order[half:]


class ScoreChips:
    """The chips in their two strips (``top``, ``bottom``: screen rectangles, set by the screen)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.top = Rect(0, 0, 0, 0)
        self.bottom = Rect(0, 0, 0, 0)
        self.one_line = True  # each chip's name and counters on one line (``plan``), else on two
        self.with_hand = True  # the cards in hand said too (``plan``)
        self.built = False  # the last ``build`` built a chip
        self.left = False  # and left another chip for the next frame

    def plan(self, strip_w: float) -> float:
        """A row of chips' height on strips `strip_w` wide: one line where every chip has room for its
        name and the cards taken (two digits), and the cards in hand too where they also fit
        (``with_hand``); else two (``one_line``). The same for every chip: chips that differ would read
        as different things."""
        m, L = self.host.model, self.host.layout
        cols = 2 if L.portrait else 3
        pts = L.font(typeface.BODY)
        room = [self._width(Rect(0, 0, strip_w, 0), min(cols, len(p))) for p in sides(m)]
        hand = self.host.t("cards.chip_hand", n=max(m.hand_sizes, default=0))
        taken = self.host.t("cards.chip_taken", n=WORST_TAKEN)
        hand_w, taken_w = measure(hand, pts)[0] + L.px(10), measure(taken, pts, bold=True)[0] + L.px(10)
        names = [measure(self._words(i)[0], pts, bold=True)[0] for i in range(m.players if m.started else 0)]

        def fits(need: float) -> bool:
            return all(n + need <= min(room) - self._text_x() - L.px(6) for n in names)

        self.one_line = fits(taken_w)
        self.with_hand = fits(taken_w + hand_w) or not self.one_line  # (two lines: where it fits, ``_in_words``)
        return self.row_px()

    def row_px(self) -> float:
        return self.host.layout.px(SCORE_ROW if self.one_line else TWO_LINES)

    def rows(self, count: int) -> int:
        """The rows a strip of `count` chips takes."""
        return math.ceil(count / (2 if self.host.layout.portrait else 3)) if count else 0

    def build(self) -> list[tuple[str, int]]:
        """Each chip, a part of its own, built again only when what it says changes (a turn change
        redraws the two chips whose player starts or ends a turn), one a frame: ``left`` says whether
        another is left for the next. Returns the chips' part names; ``built`` says whether one was built now."""
        m, parts = self.host.model, self.host.parts
        far, near = sides(m)
        cols = 2 if self.host.layout.portrait else 3
        chips = [
            (i, strip, *divmod(k, cols), min(cols, len(players) - (k // cols) * cols))
            for players, strip in ((far, self.top), (near, self.bottom))
            for k, i in enumerate(players)
        ]
        names = []
        self.built = self.left = False
        for i, strip, r, c, in_row in chips:
            frame = self._frame(i, strip, r, c, in_row)
            active = i == m.current and not m.over
            key: tuple[Any, ...] = (
                self.host.layout,
                frame.rect,
                frame.angle,
                active,
                m.scores[i],
                m.hand_sizes[i],
                m.kinds[i],
            )
            words = (self._words(i), self.one_line, self.with_hand)
            old = parts.built.get(("chip", i))
            if self.built and old is not None and old[0] != (key, words) and widgets.RECORDER is None:
                self.left = True  # one chip a frame (~1 ms each here): this one in the next
            else:
                self.built |= parts.part(("chip", i), (key, words), partial(self._chip, i, frame), frame.rect)
            names.append(("chip", i))
        return names

    def vocabulary(self, taken: range) -> list[Spec]:
        """The chips' texts (names, the counts `taken` of cards taken), as ``_in_words`` and ``_name`` lay
        them out: drawn once as the screen opens (the text cache)."""
        m, host, body = self.host.model, self.host, self.host.layout.font(typeface.BODY)
        out = []
        for i in range(m.players):
            stars = strength_stars(m.kinds[i])
            out += [label_spec(host.player_name(i), body, bold, anchor_x="left") for bold in (True, False)]
            out += [label_spec(stars, body, anchor_x="left")] if stars else []
        for n in taken:
            out.append(label_spec(host.t("cards.chip_taken", n=n), body, True, anchor_x="right"))
        out += [
            label_spec(host.t("cards.chip_hand", n=n), body, anchor_x="right") for n in range(max(m.hand_sizes) + 1)
        ]
        return out

    def _width(self, strip: Rect, in_row: int) -> float:
        """A score chip's width in a row of `in_row` chips: fewer in a row, wider (room for the words)."""
        return strip.w / max(in_row, 2) - 2 * self.host.layout.px(3)

    def _text_x(self) -> float:
        """Where a chip's name starts: after its padding and its colour dot."""
        L = self.host.layout
        return L.px(6) * 2 + (L.px(SCORE_ROW) - L.px(3)) * 0.44

    def _frame(self, i: int, strip: Rect, r: int, c: int, in_row: int) -> Frame:
        """Chip `i`'s place: the row's chips centred on the strip; the frame turns the chip to its
        player's edge, and the chips run left to right as the people at that edge read them."""
        L = self.host.layout
        rh = self.row_px()
        gap = L.px(3)
        cw = self._width(strip, in_row) + 2 * gap
        angle = self.host.facing(i)
        if angle == 180:
            c = in_row - 1 - c
        x = strip.x + (strip.w - in_row * cw) / 2 + c * cw
        y = strip.top - (r + 1) * rh if angle == 0 else strip.y + r * rh
        return Frame(Rect(x + gap, y + gap / 2, cw - 2 * gap, rh - gap), angle)

    def _chip(self, i: int, frame: Frame) -> None:
        m, L, batch, parts = self.host.model, self.host.layout, self.host.batch, self.host.parts
        w, h = frame.w, frame.h
        bg, mid, fg = (pyglet.graphics.Group(order=k) for k in (10, 11, 12))
        rgb = player_rgb(i)
        active = i == m.current and not m.over
        # a tray on the table (docs/art.md): a wooden rim, the player's colour round the one whose turn it is
        rim = L.px(3) if active else L.px(2)
        parts.add(box(frame, frame.full(), rgb if active else PANEL_EDGE, batch, bg, radius=L.px(7)))
        inner = Rect(rim, rim, w - 2 * rim, h - 2 * rim)
        parts.add(box(frame, inner, ACTIVE_TRAY if active else PANEL, batch, mid, radius=L.px(5)))
        cy, low = (h / 2, h / 2) if self.one_line else (h * 0.71, h * 0.29)  # the name's line, the counters'
        dot = (L.px(SCORE_ROW) - L.px(3)) * 0.22
        parts.add(*seat_token(frame, L.px(6) + dot, cy, dot, i, batch, fg))
        self._in_words(i, frame, cy, low, fg, active)

    def _words(self, i: int) -> tuple[str, str, str]:
        """A score chip's texts: the name (with a computer's strength in stars), the cards in hand, the cards taken."""
        m, host = self.host.model, self.host
        stars = strength_stars(m.kinds[i])
        name = host.player_name(i) + (f" {stars}" if stars else "")
        return name, host.t("cards.chip_hand", n=m.hand_sizes[i]), host.t("cards.chip_taken", n=m.scores[i])

    def _in_words(self, i: int, frame: Frame, cy: float, low: float, group: Any, active: bool) -> None:
        """The chip's counters said in words ("2 in hand", "3 taken") after the name, or on the line
        under it (`low`), the cards in hand only where they fit there."""
        L = self.host.layout
        name, hand, taken = self._words(i)
        pts, gap = L.font(typeface.BODY), L.px(10)
        widths = [measure(text, pts, bold=k != 1)[0] for k, text in enumerate((name, hand, taken))]
        x = frame.w - L.px(6)
        said: tuple[tuple[int, str], ...] = ((2, taken), (1, hand))
        if not self.with_hand or not self.one_line and x - widths[2] - gap - widths[1] < self._text_x():
            said = said[:1]
        for k, text in said:  # right to left, the score at the chip's end
            self.host.parts.text(
                text,
                frame,
                x,
                low,
                pts,
                self.host.batch,
                group,
                color=INK if k == 2 else DIM if not active else INK,
                anchor_x="right",
                bold=k == 2,
                name="score" if k == 2 else "hand",
            )
            x -= widths[k] + gap
        self._name(i, frame, x + gap if self.one_line else frame.w - L.px(6), cy, group, active)

    def _name(self, i: int, frame: Frame, right: float, cy: float, group: Any, active: bool) -> None:
        """The chip's name (a computer's strength in stars after it) up to `right`."""
        L, parts = self.host.layout, self.host.parts
        tx = self._text_x()
        color = INK if active else text_shade(player_rgb(i))
        room = frame.area(Rect(tx, 0, max(1.0, right - tx), frame.h))
        pts, batch = L.font(typeface.BODY), self.host.batch

        def say(text: str, x: float, **kw: Any) -> Any:
            return parts.text(text, frame, x, cy, pts, batch, group, color=color, anchor_x="left", container=room, **kw)

        lab = say(self.host.player_name(i), tx, bold=active, name="player")
        stars = strength_stars(self.host.model.kinds[i])  # a computer's strength after its name (pictogram font)
        if stars:
            say(stars, tx + lab.content_width + L.px(6), name="stars")
