"""A tiny vector pen: icons are described in a unit square and drawn with pyglet shapes.

Every icon of the game (treasures, pawns) is our own drawing made of circles,
ellipses, rectangles, polygons and thick lines in a unit box from -1 to 1
(y up). The pen records the strokes first; ``draw`` then emits them twice —
a dark, slightly grown copy of every stroke that asks for it (a sticker-like
outline that keeps light shapes readable on a light background), then the
fills — into a pyglet batch at any centre and size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field

from pyglet import shapes
from pyglet import graphics  # a lazy proxy: importing pyglet.graphics itself would start GL before headless is chosen

from kiosk.errors import ContractError

OUTLINE = (24, 22, 28)


@dataclass
class Op:
    kind: str
    args: tuple
    color: tuple
    outline: bool


@dataclass
class Pen:
    """Records strokes in unit coordinates; ``draw`` puts them into a batch."""

    ops: list[Op] = field(default_factory=list)

    # ------------------------------------------------------------ recording
    def circle(self, x, y, r, color, outline=True):
        self.ops.append(Op("circle", (x, y, r), color, outline))

    def ellipse(self, x, y, a, b, color, outline=True, angle=0.0):
        self.ops.append(Op("ellipse", (x, y, a, b, angle), color, outline))

    def rect(self, x, y, w, h, color, outline=True):
        """Axis-aligned rectangle by its bottom-left corner."""
        self.poly([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], color, outline)

    def poly(self, points: Iterable[tuple[float, float]], color: tuple[int, ...], outline: bool = True) -> None:
        self.ops.append(Op("poly", (tuple(points),), color, outline))

    def line(self, x1, y1, x2, y2, width, color, outline=True):
        self.ops.append(Op("line", (x1, y1, x2, y2, width), color, outline))

    def polyline(self, points, width, color, outline=True):
        for (x1, y1), (x2, y2) in zip(points, points[1:]):
            self.line(x1, y1, x2, y2, width, color, outline)
        for x, y in points[1:-1]:  # round joints
            self.circle(x, y, width / 2, color, outline)

    def ring(self, x, y, r_out, r_in, color, hole, outline=True):
        """A thick ring: a disc with a hole filled with `hole`'s colour."""
        self.circle(x, y, r_out, color, outline)
        self.circle(x, y, r_in, hole, False)
        if outline:
            self.ops.append(Op("circle_line", (x, y, r_in), OUTLINE, False))

    # ------------------------------------------------------------ output
    def draw(
        self,
        batch,
        cx: float,
        cy: float,
        size: float,
        group=None,
        outline_px: float | None = None,
        rotation: float = 0.0,
        ordered: bool = False,
    ) -> list:
        """Draw into `batch` centred at (cx, cy), the unit box spanning `size` px; returns the shapes.

        `rotation` turns the whole drawing (degrees, counter-clockwise) about its centre.
        `ordered` gives every stroke its own ordered group, so the painter's order is exact;
        it is meant for a batch drawn once (the atlas bake), not for a long-lived one.
        """
        half = size / 2
        o = (outline_px if outline_px is not None else max(1.0, size * 0.035)) / half
        cos_a, sin_a = math.cos(math.radians(rotation)), math.sin(math.radians(rotation))

        def pt(x, y):
            return (cx + (x * cos_a - y * sin_a) * half, cy + (x * sin_a + y * cos_a) * half)

        # A batch draws shapes of different kinds (circles, polygons, lines) in an order of
        # its own within one group; with `ordered`, one child group per stroke keeps the
        # painter's order the drawing was written in (an eye drawn last stays on the head).
        out = []
        layer = 0
        for stage in ("outline", "fill"):
            for op in self.ops:
                if stage == "outline" and not op.outline:
                    continue
                grow = o if stage == "outline" else 0.0
                color = OUTLINE if stage == "outline" else op.color
                where = graphics.Group(order=layer, parent=group) if ordered else group
                layer += 1
                out.extend(self._emit(op, grow, color, pt, half, batch, where, rotation))
        return out

    @staticmethod
    def _emit(op, grow, color, pt, half, batch, group, rotation):
        kind, a = op.kind, op.args
        if kind == "circle":
            x, y, r = a
            px, py = pt(x, y)
            return [shapes.Circle(px, py, (r + grow) * half, color=color, batch=batch, group=group)]
        if kind == "circle_line":
            x, y, r = a
            px, py = pt(x, y)
            return [
                shapes.Arc(px, py, r * half, thickness=max(1.0, half * 0.05), color=color, batch=batch, group=group)
            ]
        if kind == "ellipse":
            x, y, ea, eb, angle = a
            pts = [
                (
                    x
                    + (ea + grow) * math.cos(t) * math.cos(math.radians(angle))
                    - (eb + grow) * math.sin(t) * math.sin(math.radians(angle)),
                    y
                    + (ea + grow) * math.cos(t) * math.sin(math.radians(angle))
                    + (eb + grow) * math.sin(t) * math.cos(math.radians(angle)),
                )
                for t in (i * math.tau / 28 for i in range(28))
            ]
            return [shapes.Polygon(*[pt(*p) for p in pts], color=color, batch=batch, group=group)]
        if kind == "poly":
            (points,) = a
            if grow:
                points = _offset(points, grow)
            return [shapes.Polygon(*[pt(*p) for p in points], color=color, batch=batch, group=group)]
        if kind == "line":
            x1, y1, x2, y2, w = a
            (p1x, p1y), (p2x, p2y) = pt(x1, y1), pt(x2, y2)
            if grow:
                dx, dy = p2x - p1x, p2y - p1y
                d = math.hypot(dx, dy) or 1.0
                ex, ey = dx / d * grow * half, dy / d * grow * half
                p1x, p1y, p2x, p2y = p1x - ex, p1y - ey, p2x + ex, p2y + ey
            return [
                shapes.Line(p1x, p1y, p2x, p2y, thickness=(w + 2 * grow) * half, color=color, batch=batch, group=group)
            ]
        raise ContractError(f"unknown pen stroke {kind!r}")


def _offset(points, d):
    """Grow a polygon outwards by `d` (mitred offset of each vertex; fine for bold icons)."""
    n = len(points)
    area = sum(points[i][0] * points[(i + 1) % n][1] - points[(i + 1) % n][0] * points[i][1] for i in range(n))
    sign = 1.0 if area > 0 else -1.0  # counter-clockwise: outward normal is (dy, -dx)
    out = []
    for i in range(n):
        x0, y0 = points[i - 1]
        x1, y1 = points[i]
        x2, y2 = points[(i + 1) % n]
        n1 = _normal(x0, y0, x1, y1, sign)
        n2 = _normal(x1, y1, x2, y2, sign)
        mx, my = n1[0] + n2[0], n1[1] + n2[1]
        m = math.hypot(mx, my)
        if m < 1e-6:
            out.append((x1 + n1[0] * d, y1 + n1[1] * d))
            continue
        mx, my = mx / m, my / m
        cos_half = max(0.35, mx * n1[0] + my * n1[1])  # limit the mitre on sharp spikes
        out.append((x1 + mx * d / cos_half, y1 + my * d / cos_half))
    return out


def _normal(x0, y0, x1, y1, sign):
    dx, dy = x1 - x0, y1 - y0
    d = math.hypot(dx, dy) or 1.0
    return (dy / d * sign, -dx / d * sign)
