"""Where everything goes on screen, for any size from 800x480 to 1920x1080 and portrait.

All geometry is computed here from the window size and the layout mode, so the
screens never hard-code pixels.
Coordinates are pyglet's: origin at the bottom-left, y upwards.

The board sits in the middle with a ring one cell wide around it (the board game's
arrow slots: kiosk/games/labyrinth/geometry.py). Landscape screens put the
player panels in the columns left and right of the board, portrait screens in
the bands above and below; either way each seat's panel is at the seat's own
corner (seat 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, as the
pawns' start corners).

``tabletop``: the screen lies flat, players sit around it; seats 0 and 1 sit at
the top edge and read text turned 180 degrees, seats 2 and 3 at the bottom read
it upright. ``upright``: everything upright.
"""

from __future__ import annotations


from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

SIZES = ((800, 480), (1024, 600), (1280, 800), (1920, 1080), (720, 1280))
MIN_TOUCH = 48  # px: the smallest touch target on the smallest screen
PORTRAIT_BAND = 180  # px on 480x800: the least height of the panels' bands above and below the board
ACTIVE_SHARE = 0.64  # the part of a shared side the active seat's panel gets


class Rect(NamedTuple):
    """An axis-aligned rectangle; (x, y) is the bottom-left corner."""

    x: float
    y: float
    w: float
    h: float

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def center(self) -> tuple[float, float]:
        return (self.x + self.w / 2, self.y + self.h / 2)

    @property
    def top(self) -> float:
        return self.y + self.h

    @property
    def right(self) -> float:
        return self.x + self.w

    def contains(self, px: float, py: float) -> bool:
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def inset(self, d: float) -> "Rect":
        return Rect(self.x + d, self.y + d, self.w - 2 * d, self.h - 2 * d)

    def grow(self, d: float) -> "Rect":
        return self.inset(-d)

    def split_h(self, *fractions: float) -> list["Rect"]:
        """Cut into columns (left to right) by width fractions."""
        out, x = [], self.x
        for f in fractions:
            out.append(Rect(x, self.y, self.w * f, self.h))
            x += self.w * f
        return out

    def split_v(self, *fractions: float) -> list["Rect"]:
        """Cut into rows (top to bottom) by height fractions."""
        out, top = [], self.top
        for f in fractions:
            out.append(Rect(self.x, top - self.h * f, self.w, self.h * f))
            top -= self.h * f
        return out

    def ints(self) -> tuple[int, int, int, int]:
        return (round(self.x), round(self.y), round(self.w), round(self.h))


@dataclass(frozen=True)
class Layout:
    """The geometry for one window size and layout mode.

    Frozen, so what follows from the size alone (the scale, the cell, the board, the ring) is
    worked out once per layout (``cached_property``): a frame asks for it thousands of times."""

    width: int
    height: int
    mode: str = "tabletop"  # "tabletop" or "upright"

    def __post_init__(self) -> None:
        if self.mode not in ("tabletop", "upright"):
            raise ValueError(f"layout {self.mode!r}: use 'tabletop' or 'upright'")
        if self.width < 320 or self.height < 320:
            raise ValueError(f"window {self.width}x{self.height} is too small (at least 320x320)")

    # -------------------------------------------------------------- basics
    @cached_property
    def portrait(self) -> bool:
        return self.height > self.width

    @cached_property
    def tabletop(self) -> bool:
        return self.mode == "tabletop"

    @cached_property
    def scale(self) -> float:
        """1.0 on an 800x480 screen (and 480x800); fonts and touch targets grow with it. Portrait
        screens squatter than 480x800 (800x1280) scale by their height, so a screen laid out for
        480x800 fits them top to bottom."""
        if not self.portrait:
            return min(self.width, self.height) / 480
        return min(self.width / 480, self.height / 800)

    def px(self, n: float) -> int:
        """A length given for 800x480, scaled to this screen."""
        return max(1, round(n * self.scale))

    def font(self, n: float) -> float:
        """A font size (points for pyglet) for text `n` px tall on 800x480."""
        return n * self.scale * 0.75

    @cached_property
    def touch(self) -> int:
        """The minimum touch target side here (48 px on 800x480, more on bigger screens)."""
        return max(MIN_TOUCH, self.px(MIN_TOUCH))

    @cached_property
    def screen(self) -> Rect:
        return Rect(0, 0, self.width, self.height)

    # -------------------------------------------------------------- the board's square and its ring
    @cached_property
    def margin(self) -> int:
        return self.px(4)

    @cached_property
    def cell(self) -> float:
        """Side of one board cell; the arrow ring is one cell wide on every side."""
        side = (self.width if self.portrait else self.height) - 2 * self.margin
        if not self.portrait:
            side = min(side, self.width - 2 * self.px(150))
        else:  # the bands above and below keep room for a player's panel (its prompt, spare, buttons)
            side = min(side, self.height - 2 * self.px(PORTRAIT_BAND))
        return side / 9

    @cached_property
    def ring(self) -> Rect:
        """The board plus the ring of arrow slots."""
        side = self.cell * 9
        return Rect((self.width - side) / 2, (self.height - side) / 2, side, side)

    @cached_property
    def board(self) -> Rect:
        c = self.cell
        r = self.ring
        return Rect(r.x + c, r.y + c, 7 * c, 7 * c)

    # -------------------------------------------------------------- seats and panels
    def panel(self, seat: int, active: int | None = None) -> Rect:
        """The area of a seat's player panel, at the seat's corner of the screen.

        Two seats share a side (a column in landscape, a band in portrait); when `active`
        (the seat whose turn it is) is one of them, its panel gets :data:`ACTIVE_SHARE` of the
        side (its prompt, spare and buttons need the room) and the other a compact rest."""
        m = self.margin
        ring = self.ring
        partner = {0: 3, 3: 0, 1: 2, 2: 1} if not self.portrait else {0: 1, 1: 0, 2: 3, 3: 2}
        share = 0.5
        if active == seat:
            share = ACTIVE_SHARE
        elif active is not None and active == partner[seat]:
            share = 1 - ACTIVE_SHARE
        if self.portrait:
            top = seat in (0, 1)
            y0, y1 = (ring.top + m, self.height - m) if top else (m, ring.y - m)
            left = seat in (0, 3)
            room = self.width - 3 * m
            w = room * share
            x0 = m if left else self.width - m - w
            return Rect(x0, y0, w, y1 - y0)
        left = seat in (0, 3)
        x0, x1 = (m, ring.x - m) if left else (ring.right + m, self.width - m)
        room = self.height - 3 * m
        h = room * share
        y0 = self.height - m - h if seat in (0, 1) else m
        return Rect(x0, y0, x1 - x0, h)

    def facing(self, seat: int | None) -> int:
        """Degrees to turn text for `seat` (0 or 180); always 0 in the upright layout (kiosk/ui/kit/seating.py)."""
        from kiosk.ui.kit.seating import facing

        return facing(self, seat)

    def seat_edge_point(self, seat: int | None) -> tuple[float, float]:
        """Where a prompt for `seat` goes: the middle of the side the seat sits at."""
        if seat is None or not self.tabletop:
            return (self.width / 2, self.height / 2)
        return (self.width / 2, self.height * (0.75 if seat in (0, 1) else 0.25))


@dataclass(frozen=True)
class ShowcaseLayout(Layout):
    """The attract screen's geometry: in landscape the board `share` as tall as on the play screen,
    so the banners along the two long sides have room for the name and "touch to play"; in portrait
    the board as wide as the screen, with room above and below."""

    share: float = 1.0

    @cached_property
    def cell(self) -> float:
        if self.portrait:  # the whole width: no player's panel needs the bands (PORTRAIT_BAND)
            return (self.width - 2 * self.margin) / 9
        return float(Layout.cell.func(self)) * self.share  # type: ignore[attr-defined]


def parse_size(text: str) -> tuple[int, int]:
    """'1280x800' -> (1280, 800), with a clear message otherwise."""
    try:
        w, h = text.lower().split("x")
        size = (int(w), int(h))
    except ValueError:
        raise ValueError(f"size {text!r}: write it as WIDTHxHEIGHT, e.g. 1280x800") from None
    if size[0] < 320 or size[1] < 320:
        raise ValueError(f"size {text!r} is too small (at least 320x320)")
    return size
