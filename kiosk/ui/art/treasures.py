"""The 24 treasures, drawn by us: bold coloured silhouettes in a unit box (-1..1, y up).

Designed to be told apart at 800x480, where an icon is about 30 px wide: one
big characteristic shape each, strong colours, a dark outline (see pen.py).
Each function adds strokes to a Pen; ``treasure_pen(name)`` returns the Pen.
"""

from __future__ import annotations

import math

from kiosk.ui.art.pen import OUTLINE, Pen

GOLD = (250, 196, 40)
GOLD_DARK = (196, 134, 20)
SILVER = (200, 210, 222)
WHITE = (252, 250, 244)
BLACK = (30, 28, 34)
RED = (214, 46, 46)
BROWN = (140, 86, 44)
BROWN_DARK = (96, 56, 28)
GREEN = (60, 170, 70)
GREEN_DARK = (30, 110, 50)
PURPLE = (110, 60, 150)
BLUE = (50, 110, 220)
PINK = (240, 120, 170)
SKIN = (246, 204, 164)
ORANGE = (246, 140, 30)
GREY = (130, 134, 142)


def bat(p: Pen):
    wing = [
        (-0.95, 0.35),
        (-0.55, 0.5),
        (-0.2, 0.25),
        (0.2, 0.25),
        (0.55, 0.5),
        (0.95, 0.35),
        (0.8, -0.05),
        (0.6, 0.08),
        (0.42, -0.15),
        (0.22, 0.0),
        (0.0, -0.3),
        (-0.22, 0.0),
        (-0.42, -0.15),
        (-0.6, 0.08),
        (-0.8, -0.05),
    ]
    p.poly(wing, PURPLE)
    p.ellipse(0, 0.12, 0.24, 0.36, (80, 40, 110))
    p.poly([(-0.2, 0.38), (-0.14, 0.68), (-0.04, 0.42)], (80, 40, 110))
    p.poly([(0.2, 0.38), (0.14, 0.68), (0.04, 0.42)], (80, 40, 110))
    p.circle(-0.09, 0.3, 0.06, (255, 220, 60), False)
    p.circle(0.09, 0.3, 0.06, (255, 220, 60), False)


def book(p: Pen):
    p.rect(-0.62, -0.78, 1.24, 1.5, (170, 40, 40))
    p.rect(-0.5, -0.7, 1.12, 1.36, WHITE, False)
    p.rect(-0.62, -0.64, 1.12, 1.36, (190, 46, 46), False)
    p.rect(-0.62, -0.64, 0.2, 1.36, (130, 28, 28), False)
    p.rect(-0.28, 0.22, 0.64, 0.18, GOLD, False)
    p.rect(-0.28, 0.0, 0.64, 0.08, GOLD, False)


def candlestick(p: Pen):
    p.poly([(-0.55, -0.9), (0.55, -0.9), (0.3, -0.72), (-0.3, -0.72)], GOLD)
    p.rect(-0.1, -0.75, 0.2, 0.45, GOLD)
    p.ellipse(0, -0.3, 0.38, 0.1, GOLD)
    p.rect(-0.2, -0.28, 0.4, 0.8, WHITE)
    p.ellipse(0, 0.72, 0.16, 0.26, ORANGE)
    p.ellipse(0, 0.66, 0.07, 0.13, (255, 236, 120), False)
    p.line(0, 0.52, 0, 0.44, 0.04, BLACK, False)


def chest(p: Pen):
    p.rect(-0.85, -0.7, 1.7, 0.95, BROWN)
    p.poly([(-0.85, 0.25), (0.85, 0.25), (0.8, 0.5), (0.5, 0.66), (-0.5, 0.66), (-0.8, 0.5)], BROWN_DARK)
    p.rect(-0.85, 0.16, 1.7, 0.14, GOLD, False)
    p.rect(-0.6, -0.7, 0.12, 1.36, GOLD, False)
    p.rect(0.48, -0.7, 0.12, 1.36, GOLD, False)
    p.rect(-0.16, -0.12, 0.32, 0.36, GOLD)
    p.circle(0, 0.02, 0.06, BLACK, False)


def crown(p: Pen):
    p.poly([(-0.85, -0.55), (0.85, -0.55), (0.9, 0.55), (0.45, 0.05), (0, 0.7), (-0.45, 0.05), (-0.9, 0.55)], GOLD)
    p.rect(-0.85, -0.7, 1.7, 0.24, GOLD_DARK)
    for x in (-0.9, 0.0, 0.9):
        p.circle(x, 0.6 if x else 0.75, 0.11, RED)
    p.circle(-0.42, -0.28, 0.1, BLUE, False)
    p.circle(0.0, -0.28, 0.11, RED, False)
    p.circle(0.42, -0.28, 0.1, BLUE, False)


def dragon(p: Pen):
    # a bold green dragon head in profile, facing right: a curved horn, a spiky neck, a big eye
    # and a flame out of its open jaws (the lizard is a whole body seen from above, no fire)
    horn = (244, 230, 190)
    p.poly([(-0.35, 0.5), (-0.7, 0.78), (-0.98, 0.8), (-0.72, 0.62), (-0.5, 0.36)], horn)
    for x, y in ((-0.78, 0.12), (-0.8, -0.28), (-0.7, -0.66)):  # the spikes down the neck
        p.poly([(x + 0.14, y + 0.16), (x - 0.2, y + 0.02), (x + 0.12, y - 0.16)], GREEN_DARK)
    p.poly([(-0.72, -0.98), (-0.2, -0.98), (-0.05, -0.3), (-0.62, 0.25)], GREEN)  # neck
    p.poly(
        [
            (-0.66, 0.28),
            (-0.45, 0.58),
            (-0.1, 0.66),
            (0.2, 0.52),
            (0.6, 0.38),
            (0.7, 0.22),
            (0.56, 0.1),
            (0.05, 0.06),
            (-0.05, -0.3),
            (-0.5, -0.1),
        ],
        GREEN,
    )  # head, upper jaw
    p.poly([(0.02, 0.0), (0.5, -0.14), (0.46, -0.3), (0.0, -0.34)], GREEN)  # lower jaw
    p.poly([(0.22, 0.08), (0.3, -0.02), (0.36, 0.08)], WHITE, False)  # a tooth
    p.poly([(0.42, 0.3), (0.5, 0.34), (0.52, 0.27)], GREEN_DARK, False)  # nostril
    # fire out of the open mouth
    p.poly(
        [(0.5, -0.04), (0.78, 0.22), (0.98, 0.12), (0.84, -0.04), (1.0, -0.2), (0.78, -0.34), (0.52, -0.16)],
        (255, 120, 30),
    )
    p.poly([(0.56, -0.08), (0.76, 0.06), (0.84, -0.06), (0.76, -0.2)], (255, 222, 60), False)
    # the eye as polygons: a batch draws circles before polygons, so a circle would sit under the head
    p.poly(
        [(-0.08 + 0.14 * math.cos(k * math.tau / 14), 0.36 + 0.13 * math.sin(k * math.tau / 14)) for k in range(14)],
        (255, 230, 60),
    )
    p.poly([(-0.04, 0.47), (0.0, 0.36), (-0.04, 0.25), (-0.08, 0.36)], BLACK, False)


def emerald(p: Pen):
    outer = [
        (-0.45, 0.75),
        (0.45, 0.75),
        (0.8, 0.35),
        (0.8, -0.35),
        (0.45, -0.75),
        (-0.45, -0.75),
        (-0.8, -0.35),
        (-0.8, 0.35),
    ]
    p.poly(outer, (20, 150, 80))
    p.poly(
        [(-0.3, 0.45), (0.3, 0.45), (0.5, 0.2), (0.5, -0.2), (0.3, -0.45), (-0.3, -0.45), (-0.5, -0.2), (-0.5, 0.2)],
        (60, 210, 120),
        False,
    )
    p.poly([(-0.3, 0.45), (0.3, 0.45), (0.45, 0.75), (-0.45, 0.75)], (120, 235, 160), False)
    p.poly([(-0.5, 0.2), (-0.3, 0.45), (-0.45, 0.75), (-0.8, 0.35)], (160, 245, 190), False)


def genie(p: Pen):
    # the magic lamp, with a puff of smoke
    for x, y, r in ((0.15, 0.45, 0.18), (0.35, 0.62, 0.16), (0.2, 0.8, 0.14), (0.45, 0.86, 0.1)):
        p.circle(x, y, r, (170, 120, 230))
    p.poly([(-0.3, -0.15), (0.7, 0.2), (0.95, 0.32), (0.62, 0.02), (0.35, -0.35)], GOLD)
    p.ellipse(-0.05, -0.3, 0.5, 0.3, GOLD)
    p.ring(-0.62, -0.25, 0.28, 0.14, GOLD, WHITE)
    p.ellipse(-0.05, 0.02, 0.22, 0.1, GOLD_DARK)
    p.circle(-0.05, 0.14, 0.07, GOLD_DARK)
    p.rect(-0.35, -0.72, 0.6, 0.14, GOLD_DARK)


def ghost(p: Pen):
    pts = [(-0.7, -0.8), (-0.7, 0.2)]
    pts += [(math.cos(t) * 0.7, 0.2 + math.sin(t) * 0.7) for t in (math.pi * k / 10 for k in range(10, -1, -1))][1:]
    pts += [(0.7, -0.8), (0.47, -0.6), (0.23, -0.8), (0.0, -0.6), (-0.23, -0.8), (-0.47, -0.6)]
    p.poly(pts, WHITE)
    p.ellipse(-0.24, 0.25, 0.12, 0.18, BLACK, False)
    p.ellipse(0.24, 0.25, 0.12, 0.18, BLACK, False)
    p.ellipse(0.0, -0.15, 0.14, 0.12, BLACK, False)


def gold(p: Pen):
    def bar(x, y):
        p.poly([(x - 0.42, y), (x + 0.42, y), (x + 0.3, y + 0.36), (x - 0.3, y + 0.36)], GOLD)
        p.poly(
            [(x - 0.24, y + 0.3), (x + 0.24, y + 0.3), (x + 0.3, y + 0.36), (x - 0.3, y + 0.36)], (255, 236, 150), False
        )

    bar(-0.45, -0.7)
    bar(0.45, -0.7)
    bar(0.0, -0.3)
    p.circle(0.0, 0.45, 0.3, GOLD)
    p.circle(0.0, 0.45, 0.19, GOLD_DARK, False)
    p.circle(0.0, 0.45, 0.12, GOLD, False)


def helmet(p: Pen):
    p.poly([(0.1, 0.55), (0.3, 0.98), (0.75, 0.95), (0.55, 0.55)], RED)
    p.poly(
        [(-0.7, -0.8), (-0.7, 0.05)]
        + [(math.cos(t) * 0.7, 0.05 + math.sin(t) * 0.65) for t in (math.pi * k / 10 for k in range(9, 0, -1))]
        + [(0.7, 0.05), (0.7, -0.8)],
        SILVER,
    )
    p.rect(-0.55, -0.08, 1.1, 0.14, BLACK, False)
    p.rect(-0.06, -0.7, 0.12, 0.55, (150, 158, 170), False)
    for x in (-0.35, 0.35):
        for y in (-0.3, -0.5):
            p.circle(x, y, 0.05, BLACK, False)


def keys(p: Pen):
    def key(angle, color):
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))

        def r(x: float, y: float) -> tuple[float, float]:
            return (x * c - y * s, x * s + y * c)

        p.line(*r(-0.35, 0), *r(0.85, 0), 0.16, color)
        p.line(*r(0.6, 0), *r(0.6, -0.28), 0.13, color)
        p.line(*r(0.82, 0), *r(0.82, -0.22), 0.13, color)
        hx, hy = r(-0.55, 0)
        p.ring(hx, hy, 0.32, 0.14, color, WHITE)

    key(-35, SILVER)
    key(35, GOLD)


def lizard(p: Pen):
    tail = [(0.1, -0.35), (0.35, -0.6), (0.7, -0.7), (0.9, -0.5)]
    p.polyline(tail, 0.14, GREEN)
    for x1, y1, x2, y2 in (
        (-0.25, 0.1, -0.6, 0.35),
        (0.1, 0.15, 0.4, 0.42),
        (-0.35, -0.25, -0.7, -0.4),
        (0.0, -0.3, 0.2, -0.65),
    ):
        p.line(x1, y1, x2, y2, 0.12, GREEN)
    p.ellipse(-0.12, -0.08, 0.22, 0.45, GREEN, angle=-35)
    p.ellipse(-0.48, 0.5, 0.17, 0.26, GREEN, angle=-35)
    p.circle(-0.58, 0.55, 0.05, BLACK, False)
    p.circle(-0.4, 0.62, 0.05, BLACK, False)
    p.line(-0.25, 0.05, 0.05, -0.25, 0.06, (150, 230, 120), False)


def map_(p: Pen):
    shades = [(236, 216, 170), (214, 190, 140), (236, 216, 170)]
    for k in range(3):
        x = -0.8 + k * 0.54
        p.poly(
            [
                (x, -0.65 + (0.1 if k % 2 else 0)),
                (x + 0.54, -0.65 + (0 if k % 2 else 0.1)),
                (x + 0.54, 0.75 + (0 if k % 2 else 0.1)),
                (x, 0.75 + (0.1 if k % 2 else 0)),
            ],
            shades[k],
        )
    for x, y in ((-0.6, -0.4), (-0.4, -0.15), (-0.2, 0.0), (0.05, 0.0), (0.25, 0.15)):
        p.circle(x, y, 0.05, (120, 80, 50), False)
    p.line(0.32, 0.28, 0.62, 0.58, 0.1, RED, False)
    p.line(0.32, 0.58, 0.62, 0.28, 0.1, RED, False)


def moth(p: Pen):
    p.line(-0.06, 0.4, -0.35, 0.85, 0.05, BROWN_DARK)
    p.line(0.06, 0.4, 0.35, 0.85, 0.05, BROWN_DARK)
    p.ellipse(-0.45, 0.22, 0.48, 0.34, (200, 170, 120), angle=20)
    p.ellipse(0.45, 0.22, 0.48, 0.34, (200, 170, 120), angle=-20)
    p.ellipse(-0.35, -0.35, 0.32, 0.25, (170, 140, 95), angle=-25)
    p.ellipse(0.35, -0.35, 0.32, 0.25, (170, 140, 95), angle=25)
    p.circle(-0.5, 0.25, 0.1, BROWN_DARK, False)
    p.circle(0.5, 0.25, 0.1, BROWN_DARK, False)
    p.ellipse(0, 0.0, 0.12, 0.5, BROWN_DARK)


def owl(p: Pen):
    p.poly([(-0.55, 0.5), (-0.6, 0.9), (-0.25, 0.62)], BROWN_DARK)
    p.poly([(0.55, 0.5), (0.6, 0.9), (0.25, 0.62)], BROWN_DARK)
    p.ellipse(0, -0.1, 0.62, 0.78, BROWN)
    p.ellipse(0, -0.35, 0.38, 0.45, (220, 190, 150), False)
    for x in (-0.27, 0.27):
        p.circle(x, 0.28, 0.25, WHITE)
        p.circle(x, 0.28, 0.12, BLACK, False)
        p.circle(x + 0.04, 0.32, 0.04, WHITE, False)
    p.poly([(-0.09, 0.1), (0.09, 0.1), (0, -0.12)], ORANGE, False)


def princess(p: Pen):
    p.poly([(-0.65, -0.95), (0.65, -0.95), (0.25, -0.25), (-0.25, -0.25)], PINK)
    p.ellipse(0, 0.18, 0.5, 0.55, (240, 200, 60))  # hair
    p.circle(0, 0.12, 0.36, SKIN, False)
    p.poly([(-0.32, 0.5), (-0.32, 0.88), (-0.16, 0.68), (0, 0.92), (0.16, 0.68), (0.32, 0.88), (0.32, 0.5)], GOLD)
    p.circle(0, 0.66, 0.06, RED, False)
    p.circle(-0.13, 0.16, 0.05, BLACK, False)
    p.circle(0.13, 0.16, 0.05, BLACK, False)
    p.line(-0.1, -0.04, 0.1, -0.04, 0.05, RED, False)


def ring(p: Pen):
    p.ring(0, -0.3, 0.62, 0.42, GOLD, WHITE)
    p.poly([(-0.3, 0.35), (0.3, 0.35), (0.45, 0.55), (0, 0.95), (-0.45, 0.55)], (90, 200, 250))
    p.poly([(-0.3, 0.35), (0.3, 0.35), (0.45, 0.55), (-0.45, 0.55)], (190, 240, 255), False)
    p.rect(-0.2, 0.22, 0.4, 0.15, GOLD)


def rat(p: Pen):
    p.polyline([(0.55, -0.35), (0.85, -0.55), (0.9, -0.85), (0.6, -0.95)], 0.08, PINK)
    p.ellipse(0.1, -0.2, 0.55, 0.38, GREY)
    p.poly([(-0.3, 0.05), (-0.95, -0.3), (-0.3, -0.45)], GREY)
    p.circle(-0.25, 0.18, 0.2, GREY)
    p.circle(-0.25, 0.18, 0.11, PINK, False)
    p.circle(-0.55, -0.12, 0.05, BLACK, False)
    p.circle(-0.93, -0.3, 0.06, PINK, False)
    p.line(-0.05, -0.58, -0.05, -0.72, 0.09, GREY)
    p.line(0.35, -0.58, 0.35, -0.72, 0.09, GREY)


def scarab(p: Pen):
    for side in (-1, 1):
        for y, dy in ((0.15, 0.2), (-0.15, 0.0), (-0.4, -0.25)):
            p.line(side * 0.3, y, side * 0.8, y + dy, 0.08, BLACK)
    p.ellipse(0, -0.18, 0.5, 0.62, (30, 150, 160))
    p.ellipse(0, 0.55, 0.3, 0.2, (20, 110, 120))
    p.line(0, 0.35, 0, -0.78, 0.05, BLACK, False)
    p.ellipse(-0.22, 0.05, 0.08, 0.2, (120, 220, 220), False)
    p.line(-0.15, 0.72, -0.3, 0.95, 0.06, BLACK)
    p.line(0.15, 0.72, 0.3, 0.95, 0.06, BLACK)


def skull(p: Pen):
    p.circle(0, 0.2, 0.65, WHITE)
    p.rect(-0.38, -0.75, 0.76, 0.6, WHITE)
    p.ellipse(-0.25, 0.12, 0.17, 0.2, BLACK, False)
    p.ellipse(0.25, 0.12, 0.17, 0.2, BLACK, False)
    p.poly([(-0.08, -0.18), (0.08, -0.18), (0, 0.0)], BLACK, False)
    for x in (-0.2, 0.0, 0.2):
        p.line(x, -0.75, x, -0.45, 0.05, BLACK, False)


def spider(p: Pen):
    legs = (
        (0.3, 0.2, 0.75, 0.55, 0.95, 0.2),
        (0.3, 0.05, 0.8, 0.15, 0.95, -0.15),
        (0.3, -0.1, 0.75, -0.3, 0.9, -0.6),
        (0.25, -0.2, 0.55, -0.6, 0.6, -0.95),
    )
    for x1, y1, x2, y2, x3, y3 in legs:
        for s in (-1, 1):
            p.polyline([(s * x1, y1), (s * x2, y2), (s * x3, y3)], 0.08, (60, 50, 70))
    p.circle(0, -0.15, 0.4, (60, 50, 70))
    p.circle(0, 0.38, 0.24, (60, 50, 70))
    p.poly([(0, 0.0), (0.12, -0.15), (0, -0.3), (-0.12, -0.15)], RED, False)
    p.circle(-0.09, 0.44, 0.05, RED, False)
    p.circle(0.09, 0.44, 0.05, RED, False)


def sword(p: Pen):
    a = 45.0
    c, s = math.cos(math.radians(a)), math.sin(math.radians(a))

    def r(x: float, y: float) -> tuple[float, float]:
        return (x * c - y * s, x * s + y * c)

    p.poly([r(-0.12, -0.35), r(0.12, -0.35), r(0.12, 0.85), r(0, 1.05), r(-0.12, 0.85)], SILVER)
    p.line(*r(0, -0.25), *r(0, 0.85), 0.04, (150, 160, 175), False)
    p.line(*r(-0.45, -0.38), *r(0.45, -0.38), 0.16, GOLD)
    p.line(*r(0, -0.45), *r(0, -0.85), 0.16, BROWN)
    px, py = r(0, -0.95)
    p.circle(px, py, 0.12, GOLD)


def troll(p: Pen):
    p.poly([(-0.7, 0.35), (-1.0, 0.55), (-0.65, 0.0)], (110, 160, 70))
    p.poly([(0.7, 0.35), (1.0, 0.55), (0.65, 0.0)], (110, 160, 70))
    p.ellipse(0, 0.0, 0.72, 0.82, (120, 175, 80))
    for x in (-0.25, 0.0, 0.25):
        p.poly([(x - 0.12, 0.7), (x, 1.0), (x + 0.12, 0.7)], (200, 90, 40))
    p.circle(-0.26, 0.25, 0.13, WHITE, False)
    p.circle(0.26, 0.25, 0.13, WHITE, False)
    p.circle(-0.24, 0.23, 0.06, BLACK, False)
    p.circle(0.24, 0.23, 0.06, BLACK, False)
    p.ellipse(0, -0.05, 0.17, 0.22, (90, 140, 60), False)
    p.line(-0.35, -0.42, 0.35, -0.42, 0.09, (60, 40, 40), False)
    p.poly([(-0.28, -0.38), (-0.2, -0.2), (-0.14, -0.38)], WHITE, False)
    p.poly([(0.28, -0.38), (0.2, -0.2), (0.14, -0.38)], WHITE, False)


DRAWINGS = {
    "bat": bat,
    "book": book,
    "candlestick": candlestick,
    "chest": chest,
    "crown": crown,
    "dragon": dragon,
    "emerald": emerald,
    "genie": genie,
    "ghost": ghost,
    "gold": gold,
    "helmet": helmet,
    "keys": keys,
    "lizard": lizard,
    "map": map_,
    "moth": moth,
    "owl": owl,
    "princess": princess,
    "ring": ring,
    "rat": rat,
    "scarab": scarab,
    "skull": skull,
    "spider": spider,
    "sword": sword,
    "troll": troll,
}

_CACHE: dict[str, Pen] = {}


def treasure_pen(name: str) -> Pen:
    """The recorded drawing of treasure `name` (KeyError names the unknown treasure)."""
    pen = _CACHE.get(name)
    if pen is None:
        try:
            draw = DRAWINGS[name]
        except KeyError:
            raise KeyError(f"no drawing for treasure {name!r}") from None
        pen = Pen()
        draw(pen)
        _CACHE[name] = pen
    return pen


__all__ = ["DRAWINGS", "treasure_pen", "OUTLINE"]
