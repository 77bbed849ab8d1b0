"""The travel card game's cards, drawn by us: paths, walls and the two treasures on each card.

A card looks like a board tile (stone walls, light paths) so paths read
the same in both games, with a printed card's ivory border so neighbouring
cards stay apart. Path segments that do not meet inside the card are drawn apart: two
corners are arcs hugging their corners, a dead end is a stub that stops short
of the middle. Each treasure sits on its path in a medallion whose rim has the
treasure's own colour, so matching treasures are found by shape and colour.

The 25 treasures of the card deck (engine/cards/deck.py) are generic words;
the icons are our own simple drawings in the unit box (-1..1, y up) of
kiosk/ui/art/pen.py. Faces are drawn unrotated into a texture atlas once; the
screen shows each card as a sprite turned by its rotation (clockwise, like
the engine), so the icons turn with the card as on a real table.
"""

from __future__ import annotations

import math

import pyglet

from engine.cards import CARDS

from kiosk.ui.art.bake import bake
from kiosk.ui.art.pen import Pen
from kiosk.ui.art.theme_art import ThemeArt, picture_art

WALL = (82, 80, 78)  # the stone of the board's fixed tiles: not green, which says "a card fits here" (docs/art.md)
RIM = (236, 226, 200)  # a printed card's ivory border
PATH = (243, 233, 207)
MEDALLION = (255, 250, 238)
BACK = (40, 70, 128)
BACK_LIGHT = (236, 196, 90)

SIDE_VEC = {"N": (0.0, 1.0), "E": (1.0, 0.0), "S": (0.0, -1.0), "W": (-1.0, 0.0)}
PATH_W = 0.44  # path width in unit-box units (the card is 2 wide)
MEDAL_R = 0.39  # treasure medallion radius: as large as two on one card allow (ARM_SPOT, ADJACENT_SPOT)
#: where a treasure sits on an arm through the middle (from the centre, the card's half being 1), and on
#: each of two arms at right angles, further out so that their medallions do not touch
ARM_SPOT, ADJACENT_SPOT = 0.5, 0.57

# ---------------------------------------------------------------- the 25 treasure icons

NAVY, STEEL = (40, 70, 130), (120, 140, 170)
BROWN, TAN, DARK_BROWN = (140, 86, 44), (214, 160, 90), (92, 54, 26)
RED, GREEN, DARK_GREEN = (214, 46, 46), (70, 170, 70), (30, 110, 50)
GOLD, GOLD_DARK = (250, 196, 40), (196, 134, 20)
WHITE, BLACK, GREY = (252, 250, 244), (34, 32, 38), (130, 134, 142)
ORANGE, PINK, PURPLE = (246, 140, 30), (240, 120, 170), (130, 70, 180)
TEAL, SKY, BLUE = (30, 150, 150), (110, 180, 240), (50, 110, 220)


def anchor(p: Pen):
    p.ring(0, 0.62, 0.2, 0.1, NAVY, MEDALLION)
    p.line(0, 0.45, 0, -0.75, 0.16, NAVY)
    p.line(-0.38, 0.25, 0.38, 0.25, 0.14, NAVY)
    p.polyline(
        [(-0.72, -0.2), (-0.55, -0.55), (-0.3, -0.75), (0, -0.82), (0.3, -0.75), (0.55, -0.55), (0.72, -0.2)],
        0.15,
        NAVY,
    )
    p.poly([(-0.85, -0.1), (-0.6, -0.1), (-0.72, -0.32)], NAVY)
    p.poly([(0.85, -0.1), (0.6, -0.1), (0.72, -0.32)], NAVY)


def acorn(p: Pen):
    p.ellipse(0, -0.18, 0.5, 0.62, TAN)
    p.ellipse(0, 0.3, 0.66, 0.3, DARK_BROWN)
    p.line(0, 0.55, 0.12, 0.85, 0.12, DARK_BROWN)


def apple(p: Pen):
    p.circle(-0.28, -0.1, 0.55, RED)
    p.circle(0.28, -0.1, 0.55, RED)
    p.circle(0, -0.35, 0.5, RED, False)
    p.line(0, 0.35, 0.08, 0.8, 0.1, DARK_BROWN)
    p.ellipse(0.36, 0.66, 0.28, 0.13, GREEN, angle=20)


def bell(p: Pen):
    p.poly(
        [
            (-0.72, -0.55),
            (0.72, -0.55),
            (0.5, -0.3),
            (0.42, 0.4),
            (0.2, 0.65),
            (-0.2, 0.65),
            (-0.42, 0.4),
            (-0.5, -0.3),
        ],
        GOLD,
    )
    p.circle(0, -0.68, 0.16, GOLD_DARK)
    p.circle(0, 0.75, 0.11, GOLD_DARK)


def boot(p: Pen):
    p.poly([(-0.45, 0.85), (0.15, 0.85), (0.15, -0.2), (0.8, -0.35), (0.85, -0.75), (-0.45, -0.75)], BROWN)
    p.rect(-0.45, -0.75, 1.3, 0.14, DARK_BROWN, False)
    p.rect(-0.45, 0.68, 0.6, 0.12, DARK_BROWN, False)


def candle(p: Pen):
    p.rect(-0.28, -0.85, 0.56, 1.25, WHITE)
    p.line(0, 0.4, 0, 0.52, 0.05, BLACK, False)
    p.ellipse(0, 0.7, 0.17, 0.27, ORANGE)
    p.ellipse(0, 0.64, 0.07, 0.13, (255, 236, 120), False)


def clock(p: Pen):
    p.circle(0, 0, 0.85, BLACK)
    p.circle(0, 0, 0.7, WHITE, False)
    for k in range(12):
        a = k * math.tau / 12
        p.circle(0.58 * math.sin(a), 0.58 * math.cos(a), 0.05, BLACK, False)
    p.line(0, 0, 0, 0.48, 0.1, BLACK, False)
    p.line(0, 0, 0.36, -0.12, 0.1, RED, False)


def compass(p: Pen):
    p.circle(0, 0, 0.85, STEEL)
    p.circle(0, 0, 0.68, WHITE, False)
    p.poly([(0, 0.62), (0.16, 0), (-0.16, 0)], RED, False)
    p.poly([(0, -0.62), (0.16, 0), (-0.16, 0)], NAVY, False)
    p.circle(0, 0, 0.07, BLACK, False)


def cup(p: Pen):
    p.ring(0.55, 0.12, 0.3, 0.15, SKY, MEDALLION)
    p.poly([(-0.65, 0.55), (0.6, 0.55), (0.45, -0.45), (-0.5, -0.45)], SKY)
    p.ellipse(0, -0.6, 0.85, 0.16, BLUE)
    p.rect(-0.6, 0.2, 1.18, 0.12, WHITE, False)


def drum(p: Pen):
    p.rect(-0.7, -0.6, 1.4, 0.95, RED)
    p.ellipse(0, 0.35, 0.7, 0.22, WHITE)
    p.polyline([(-0.68, -0.1), (-0.35, -0.5), (0, -0.1), (0.35, -0.5), (0.68, -0.1)], 0.07, GOLD, False)
    p.line(-0.6, 0.95, 0.05, 0.45, 0.09, BROWN)
    p.line(0.6, 0.95, -0.05, 0.45, 0.09, BROWN)


def feather(p: Pen):
    p.ellipse(0.1, 0.12, 0.32, 0.82, TEAL, angle=-35)
    p.line(-0.6, -0.85, 0.45, 0.65, 0.07, WHITE, False)
    p.line(-0.7, -0.98, -0.45, -0.62, 0.08, BROWN)


def fish(p: Pen):
    p.poly([(0.45, 0), (0.95, 0.45), (0.95, -0.45)], ORANGE)
    p.ellipse(-0.12, 0, 0.68, 0.42, ORANGE)
    p.circle(-0.45, 0.1, 0.09, BLACK, False)
    p.line(0.05, 0.35, 0.05, -0.35, 0.06, (200, 96, 20), False)


def flag(p: Pen):
    p.line(-0.6, -0.9, -0.6, 0.85, 0.12, BROWN)
    p.poly([(-0.55, 0.8), (0.85, 0.5), (-0.55, 0.05)], GREEN)
    p.circle(-0.6, 0.88, 0.1, GOLD)


def hat(p: Pen):
    p.ellipse(0, -0.5, 0.92, 0.22, BLACK)
    p.rect(-0.5, -0.5, 1.0, 1.2, BLACK)
    p.rect(-0.5, -0.32, 1.0, 0.2, RED, False)


def horn(p: Pen):
    p.poly(
        [
            (-0.9, 0.12),
            (-0.3, 0.05),
            (0.35, 0.3),
            (0.7, 0.8),
            (0.95, 0.55),
            (0.75, -0.1),
            (0.35, -0.4),
            (-0.3, -0.1),
            (-0.9, -0.05),
        ],
        GOLD,
    )
    p.ellipse(0.82, 0.68, 0.2, 0.12, GOLD_DARK, angle=-40)
    p.ellipse(-0.9, 0.03, 0.06, 0.12, GOLD_DARK)


def key(p: Pen):
    p.ring(-0.5, 0.45, 0.36, 0.17, GOLD, MEDALLION)
    p.line(-0.3, 0.2, 0.55, -0.68, 0.16, GOLD)
    p.line(0.22, -0.34, 0.44, -0.12, 0.13, GOLD)
    p.line(0.4, -0.52, 0.62, -0.3, 0.13, GOLD)


def kite(p: Pen):
    p.polyline([(0.0, -0.6), (-0.15, -0.75), (0.1, -0.85), (-0.1, -0.98)], 0.05, BLACK, False)
    p.poly([(0, 0.92), (0.5, 0.2), (0, -0.6), (-0.5, 0.2)], PINK)
    p.poly([(0, 0.92), (0.5, 0.2), (0, 0.2)], PURPLE, False)
    p.poly([(0, -0.6), (-0.5, 0.2), (0, 0.2)], PURPLE, False)


def lamp(p: Pen):
    p.ring(0, 0.78, 0.18, 0.09, BLACK, MEDALLION)
    p.poly([(-0.45, 0.6), (0.45, 0.6), (0.3, 0.45), (-0.3, 0.45)], BLACK)
    p.rect(-0.38, -0.55, 0.76, 1.02, (255, 214, 80))
    p.line(-0.38, -0.55, -0.38, 0.47, 0.1, BLACK, False)
    p.line(0.38, -0.55, 0.38, 0.47, 0.1, BLACK, False)
    p.rect(-0.5, -0.78, 1.0, 0.24, BLACK)
    p.ellipse(0, -0.05, 0.12, 0.22, ORANGE, False)


def leaf(p: Pen):
    p.ellipse(0.05, 0.1, 0.45, 0.82, GREEN, angle=-30)
    p.line(-0.35, -0.6, 0.45, 0.75, 0.07, DARK_GREEN, False)
    p.line(-0.35, -0.6, -0.55, -0.95, 0.09, DARK_GREEN)


def mask(p: Pen):
    p.poly(
        [
            (-0.95, 0.3),
            (-0.6, 0.5),
            (0, 0.38),
            (0.6, 0.5),
            (0.95, 0.3),
            (0.75, -0.3),
            (0.35, -0.45),
            (0, -0.2),
            (-0.35, -0.45),
            (-0.75, -0.3),
        ],
        PURPLE,
    )
    p.ellipse(-0.42, 0.03, 0.2, 0.13, WHITE, False)
    p.ellipse(0.42, 0.03, 0.2, 0.13, WHITE, False)
    p.poly([(0.8, 0.4), (1.0, 0.95), (0.6, 0.5)], GOLD)


def moon(p: Pen):
    outer = [(0.85 * math.cos(a), 0.85 * math.sin(a)) for a in (math.pi / 2 + k * math.pi / 16 for k in range(17))]
    inner = [
        (-0.25 + 0.62 * math.cos(a), 0.62 * math.sin(a) / 0.73 * 0.8)
        for a in (-math.pi / 2 + k * math.pi / 16 for k in range(17))
    ]
    inner = [(x, max(-0.85, min(0.85, y))) for x, y in inner]
    p.poly(outer + inner, GOLD)


def shell(p: Pen):
    fan = [(0, -0.75)] + [
        (0.9 * math.cos(a), -0.2 + 0.9 * math.sin(a)) for a in (math.radians(10 + k * 10) for k in range(17))
    ]
    p.poly(fan, PINK)
    for k in range(5):
        a = math.radians(35 + k * 27.5)
        p.line(0, -0.7, 0.78 * math.cos(a), -0.2 + 0.78 * math.sin(a), 0.06, (200, 80, 130), False)
    p.rect(-0.22, -0.9, 0.44, 0.2, PINK)


def star(p: Pen):
    pts = []
    for k in range(10):
        r = 0.92 if k % 2 == 0 else 0.4
        a = math.pi / 2 + k * math.pi / 5
        pts.append((r * math.cos(a), r * math.sin(a) - 0.05))
    p.poly(pts, GOLD)


def umbrella(p: Pen):
    canopy = [(0.9 * math.cos(a), 0.1 + 0.75 * math.sin(a)) for a in (k * math.pi / 16 for k in range(17))]
    p.poly(canopy + [(-0.6, 0.0), (-0.3, 0.1), (0.0, 0.0), (0.3, 0.1), (0.6, 0.0)], BLUE)
    p.polyline([(0, 0.05), (0, -0.7), (-0.1, -0.85), (-0.28, -0.8)], 0.1, DARK_BROWN)


def vase(p: Pen):
    p.poly(
        [
            (-0.28, 0.85),
            (0.28, 0.85),
            (0.22, 0.45),
            (0.6, 0.05),
            (0.5, -0.55),
            (0.3, -0.85),
            (-0.3, -0.85),
            (-0.5, -0.55),
            (-0.6, 0.05),
            (-0.22, 0.45),
        ],
        TEAL,
    )
    p.rect(-0.52, -0.15, 1.04, 0.16, WHITE, False)


DRAWINGS = {
    "anchor": anchor,
    "acorn": acorn,
    "apple": apple,
    "bell": bell,
    "boot": boot,
    "candle": candle,
    "clock": clock,
    "compass": compass,
    "cup": cup,
    "drum": drum,
    "feather": feather,
    "fish": fish,
    "flag": flag,
    "hat": hat,
    "horn": horn,
    "key": key,
    "kite": kite,
    "lamp": lamp,
    "leaf": leaf,
    "mask": mask,
    "moon": moon,
    "shell": shell,
    "star": star,
    "umbrella": umbrella,
    "vase": vase,
}

#: The medallion rim per treasure (the icon's main colour): a second cue for matching.
RIM_COLORS = {
    "anchor": NAVY,
    "acorn": TAN,
    "apple": RED,
    "bell": GOLD,
    "boot": BROWN,
    "candle": ORANGE,
    "clock": BLACK,
    "compass": STEEL,
    "cup": SKY,
    "drum": RED,
    "feather": TEAL,
    "fish": ORANGE,
    "flag": GREEN,
    "hat": BLACK,
    "horn": GOLD,
    "key": GOLD,
    "kite": PINK,
    "lamp": ORANGE,
    "leaf": GREEN,
    "mask": PURPLE,
    "moon": GOLD,
    "shell": PINK,
    "star": GOLD,
    "umbrella": BLUE,
    "vase": TEAL,
}


def treasure_pen(name: str) -> Pen:
    """The icon of card treasure `name` (KeyError names an unknown treasure)."""
    p = Pen()
    DRAWINGS[name](p)
    return p


# ---------------------------------------------------------------- card faces


def _add(a, b, k=1.0):
    return (a[0] + b[0] * k, a[1] + b[1] * k)


def face_layout(card_id: int) -> tuple[Pen, list[tuple[str, float, float]]]:
    """The paths of card `card_id` (unrotated) as a Pen, and where its treasures go: (name, x, y)."""
    card = CARDS[card_id]
    p = Pen()
    w = PATH_W
    spots: dict[int, list[tuple[float, float]]] = {}
    single = len(card.segments) == 1
    for k, seg in enumerate(card.segments):
        vecs = [SIDE_VEC[s] for s in seg]
        if len(seg) == 1:  # a dead end: a stub stopping short of the middle
            v = vecs[0]
            p.line(v[0], v[1], v[0] * 0.45, v[1] * 0.45, w, PATH, False)
            p.circle(v[0] * 0.45, v[1] * 0.45, w / 2, PATH, False)
            spots[k] = [(v[0] * 0.56, v[1] * 0.56)]
        elif len(seg) == 2 and not single and vecs[0] != (-vecs[1][0], -vecs[1][1]):
            # a corner that must not touch the card's other segment: an arc round its corner
            corner = (vecs[0][0] + vecs[1][0], vecs[0][1] + vecs[1][1])
            a0 = math.atan2(vecs[0][1] - corner[1], vecs[0][0] - corner[0])
            a1 = math.atan2(vecs[1][1] - corner[1], vecs[1][0] - corner[0])
            if abs(a1 - a0) > math.pi:
                a1 += math.tau if a1 < a0 else -math.tau
            pts = [
                (corner[0] + math.cos(a0 + (a1 - a0) * t / 8), corner[1] + math.sin(a0 + (a1 - a0) * t / 8))
                for t in range(9)
            ]
            p.polyline(pts, w, PATH, False)
            mid = math.atan2(-corner[1], -corner[0])
            spots[k] = [(corner[0] + math.cos(mid), corner[1] + math.sin(mid))]
        else:  # through the middle: a hub and its arms
            p.rect(-w / 2, -w / 2, w, w, PATH, False)
            for v in vecs:
                x0, y0 = min(0, v[0]) - w / 2 * (v[0] == 0), min(0, v[1]) - w / 2 * (v[1] == 0)
                p.rect(x0, y0, abs(v[0]) or w, abs(v[1]) or w, PATH, False)
            # two treasures: on two arms, opposite ones if there are
            arms = list(seg)
            pair = next(((a, b) for a in arms for b in arms if SIDE_VEC[a] == _neg(SIDE_VEC[b]) and a < b), None)
            out = ARM_SPOT if pair is not None else ADJACENT_SPOT
            if pair is None:
                pair = (arms[0], arms[1])
            spots[k] = [(SIDE_VEC[s][0] * out, SIDE_VEC[s][1] * out) for s in pair]
    placed = []
    used: dict[int, int] = {}
    for name, k in card.treasures:
        i = used.get(k, 0)
        used[k] = i + 1
        x, y = spots[k][min(i, len(spots[k]) - 1)]
        placed.append((name, x, y))
    return p, placed


def _neg(v):
    return (-v[0], -v[1])


def _layer(order: int, parent=None):
    return pyglet.graphics.Group(order=order, parent=parent)


def draw_in_order(pen: Pen, batch, cx: float, cy: float, size: float, base: int, parent=None) -> list:
    """Like ``Pen.draw`` but every stroke in its own ordered group.

    A batch draws shapes of one kind together (all polygons, then all lines...),
    so within one group a later polygon can hide an earlier line. One group per
    stroke keeps the drawing order exactly as recorded.
    """
    half = size / 2
    o = max(1.0, size * 0.035) / half

    def pt(x, y):
        return (cx + x * half, cy + y * half)

    out, k = [], base
    for stage in ("outline", "fill"):
        for op in pen.ops:
            if stage == "outline" and not op.outline:
                continue
            grow = o if stage == "outline" else 0.0
            color = (24, 22, 28) if stage == "outline" else op.color
            out += Pen._emit(op, grow, color, pt, half, batch, _layer(k, parent), 0.0)
            k += 1
    return out


def draw_icon(
    batch, name: str, cx: float, cy: float, size: float, base: int = 200, parent=None, art: ThemeArt | None = None
) -> list:
    """Treasure `name` on its medallion (rim in the treasure's colour), `size` px across; with a
    theme's `art` (kiosk/ui/art/theme_art.py) its picture, the rim in the picture's main colour."""
    r = size / 2
    rim = RIM_COLORS[name] if art is None else art.rim("cards", name, RIM_COLORS[name])
    face = MEDALLION if art is None else art.theme.colour("medallion", MEDALLION)
    out = [
        pyglet.shapes.Circle(cx, cy, r, color=rim, batch=batch, group=_layer(base, parent)),
        pyglet.shapes.Circle(cx, cy, r * 0.85, color=face, batch=batch, group=_layer(base + 1, parent)),
    ]
    if art is not None:
        return out + [art.sprite("cards", name, cx, cy, size * 0.72, batch, _layer(base + 2, parent))]
    return out + draw_in_order(treasure_pen(name), batch, cx, cy, size * 0.72, base + 2, parent)


def draw_card(batch, card_id: int, cx: float, cy: float, size: float, group=None, art: ThemeArt | None = None) -> list:
    """Card `card_id` (unrotated) as shapes centred at (cx, cy), `size` px wide."""
    half = size / 2
    out = [pyglet.shapes.Rectangle(cx - half, cy - half, size, size, color=RIM, batch=batch, group=_layer(0, group))]
    inset = size * 0.04
    out.append(
        pyglet.shapes.Rectangle(
            cx - half + inset,
            cy - half + inset,
            size - 2 * inset,
            size - 2 * inset,
            color=WALL,
            batch=batch,
            group=_layer(1, group),
        )
    )
    paths, treasures = face_layout(card_id)
    out += draw_in_order(paths, batch, cx, cy, size * 0.97, 2, group)
    for name, x, y in treasures:
        mx, my = cx + x * half * 0.97, cy + y * half * 0.97
        out += draw_icon(batch, name, mx, my, 2 * MEDAL_R * half, 200, group, art)
    return out


def draw_back(batch, cx: float, cy: float, size: float, group=None) -> list:
    """The back of a card (hands not shown): blue with a gold square maze."""
    half = size / 2
    out = [
        pyglet.shapes.Rectangle(cx - half, cy - half, size, size, color=RIM, batch=batch, group=group),
        pyglet.shapes.Rectangle(
            cx - half * 0.94, cy - half * 0.94, size * 0.94, size * 0.94, color=BACK, batch=batch, group=group
        ),
    ]
    for k, f in enumerate((0.72, 0.46, 0.2)):
        c = BACK_LIGHT if k % 2 == 0 else BACK
        out.append(
            pyglet.shapes.Rectangle(cx - half * f, cy - half * f, size * f, size * f, color=c, batch=batch, group=group)
        )
        if k < 2:
            g = f - 0.1
            out.append(
                pyglet.shapes.Rectangle(
                    cx - half * g,
                    cy - half * g,
                    size * g,
                    size * g,
                    color=BACK if k % 2 == 0 else BACK_LIGHT,
                    batch=batch,
                    group=group,
                )
            )
    return out


class CardAtlas:
    """The 50 card faces, the card back and the 25 treasure icons rendered once into one texture.

    ``face(card_id)``, ``back``, ``icon(name)`` return texture regions anchored at their
    centre; show them with a Sprite scaled by ``display size / px`` and turned by
    ``90 * rotation`` degrees (pyglet turns sprites clockwise, as the engine turns cards).
    """

    def __init__(self, px: int, window, theme=None):
        self.window = window
        self.theme = theme  # kiosk/themes: an installed theme's treasures; None: ours
        self.art = picture_art(theme)  # an installed theme's pictures, else the built-in ones
        self.px = px = max(32, int(px))
        pad = max(2, px // 16)
        names = [("face", i) for i in range(len(CARDS))] + [("back", 0)] + [("icon", n) for n in DRAWINGS]
        self.texture, self._regions = bake(names, px, pad, window, self._draw)

    def _draw(self, batch, key, cx: float, cy: float) -> list:
        kind, what = key
        if kind == "face":
            return draw_card(batch, what, cx, cy, self.px, art=self.art)
        if kind == "back":
            return draw_back(batch, cx, cy, self.px)
        return draw_icon(batch, what, cx, cy, self.px * 0.96, art=self.art)

    def face(self, card_id: int):
        return self._regions[("face", card_id)]

    @property
    def back(self):
        return self._regions[("back", 0)]

    def icon(self, name: str):
        return self._regions[("icon", name)]
