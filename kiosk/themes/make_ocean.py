"""The project's own second theme, "Ocean": 25 sea things drawn by code, written as a theme pack.

    python -m kiosk.themes.make_ocean [FOLDER]     # default: kiosk/themes/ocean (committed)

The pictures are drawn with the same pen as the built-in treasures
(kiosk/ui/art/pen.py) in an offscreen OpenGL window, four times bigger than a
pack's pictures, and averaged down (antialiased edges, transparent corners).
The board game shows the first 24 of them, the card game all 25; the names
are in each of the kiosk's languages. Nothing here is downloaded or copied:
it is the example a museum can follow (docs/themes.md), and what the tests
install and render.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path


from kiosk.themes.pack import FORMAT, MANIFEST, PICTURE_PX, WORDMARK, kinds
from kiosk.themes.png import encode

HERE = Path(__file__).resolve().parent / "ocean"
SUPER = 4  # drawn at 4x, averaged down
WORDMARK_SIZE = (256, 100)

NAVY, SEA, DEEP = (30, 60, 120), (40, 130, 200), (20, 90, 150)
ORANGE, RED, CORAL = (246, 130, 30), (214, 50, 46), (240, 96, 90)
YELLOW, GOLD, SAND = (250, 206, 50), (230, 170, 40), (236, 210, 150)
WHITE, BLACK, GREY = (252, 250, 244), (30, 28, 34), (140, 150, 160)
PURPLE, PINK, GREEN = (130, 70, 180), (240, 130, 180), (60, 170, 80)
TEAL, BROWN, DARK_GREEN = (30, 160, 150), (140, 86, 44), (30, 110, 50)
MEDAL = (232, 245, 251)  # the theme's medallion colour: what a ring's hole shows


def fish(p):
    p.poly([(0.45, 0.0), (0.95, 0.45), (0.85, 0.0), (0.95, -0.45)], ORANGE)
    p.ellipse(-0.12, 0.0, 0.65, 0.45, ORANGE)
    p.line(-0.05, 0.42, -0.05, -0.42, 0.14, WHITE, False)
    p.line(0.28, 0.3, 0.28, -0.3, 0.1, WHITE, False)
    p.circle(-0.48, 0.1, 0.1, BLACK, False)


def octopus(p):
    for k in range(5):
        x = -0.64 + k * 0.32
        p.polyline([(x, -0.1), (x - 0.08, -0.5), (x + 0.1, -0.8)], 0.16, PURPLE)
    p.ellipse(0, 0.25, 0.6, 0.58, PURPLE)
    p.circle(-0.22, 0.25, 0.13, WHITE, False)
    p.circle(0.22, 0.25, 0.13, WHITE, False)
    p.circle(-0.2, 0.23, 0.06, BLACK, False)
    p.circle(0.24, 0.23, 0.06, BLACK, False)


def crab(p):
    for side in (-1, 1):
        for k in range(3):
            y = -0.1 - k * 0.2
            p.polyline([(side * 0.4, y), (side * 0.8, y - 0.1), (side * 0.9, y - 0.35)], 0.09, RED)
        p.line(side * 0.35, 0.2, side * 0.6, 0.55, 0.12, RED)
        p.poly([(side * 0.45, 0.55), (side * 0.7, 0.9), (side * 0.85, 0.55), (side * 0.62, 0.62)], RED)
    p.ellipse(0, -0.05, 0.55, 0.38, RED)
    p.circle(-0.16, 0.38, 0.08, BLACK)
    p.circle(0.16, 0.38, 0.08, BLACK)


def starfish(p):
    pts = []
    for k in range(10):
        r = 0.95 if k % 2 == 0 else 0.38
        a = math.pi / 2 + k * math.pi / 5
        pts.append((r * math.cos(a), r * math.sin(a) - 0.05))
    p.poly(pts, CORAL)
    for k in range(5):
        a = math.pi / 2 + k * 2 * math.pi / 5
        for d in (0.3, 0.5, 0.7):
            p.circle(d * math.cos(a), d * math.sin(a) - 0.05, 0.05, (255, 220, 200), False)


def scallop(p):
    fan = [(0, -0.7)] + [
        (0.9 * math.cos(a), -0.15 + 0.9 * math.sin(a)) for a in (math.radians(15 + k * 10) for k in range(16))
    ]
    p.poly(fan, (250, 190, 150))
    for k in range(6):
        a = math.radians(28 + k * 25)
        p.line(0, -0.65, 0.8 * math.cos(a), -0.15 + 0.8 * math.sin(a), 0.06, (210, 120, 90), False)
    p.poly([(-0.3, -0.85), (0.3, -0.85), (0.12, -0.6), (-0.12, -0.6)], (250, 190, 150))


def jellyfish(p):
    for k in range(4):
        x = -0.45 + k * 0.3
        p.polyline([(x, -0.05), (x + 0.1, -0.4), (x - 0.05, -0.65), (x + 0.08, -0.9)], 0.07, PINK)
    dome = [(0.7 * math.cos(a), 0.75 * math.sin(a)) for a in (k * math.pi / 14 for k in range(15))]
    p.poly(dome + [(-0.7, -0.05), (-0.35, 0.05), (0, -0.05), (0.35, 0.05), (0.7, -0.05)], (200, 150, 240))
    p.ellipse(-0.25, 0.4, 0.15, 0.1, WHITE, False)


def seahorse(p):
    p.polyline([(0.05, -0.3), (0.2, -0.65), (0.0, -0.9), (-0.25, -0.75)], 0.16, YELLOW)
    p.ellipse(0.05, 0.0, 0.3, 0.45, YELLOW)
    p.circle(0.0, 0.52, 0.28, YELLOW)
    p.poly([(-0.15, 0.45), (-0.75, 0.45), (-0.75, 0.3), (-0.15, 0.32)], YELLOW)
    p.poly([(0.3, 0.3), (0.55, 0.1), (0.3, -0.2)], GOLD)
    p.circle(-0.02, 0.58, 0.07, BLACK, False)


def whale(p):
    p.polyline([(-0.35, 0.45), (-0.35, 0.7), (-0.5, 0.85)], 0.07, SEA, False)
    p.polyline([(-0.35, 0.7), (-0.2, 0.85)], 0.07, SEA, False)
    p.poly([(0.6, 0.05), (0.95, 0.4), (0.98, -0.15), (0.75, -0.1)], DEEP)
    p.ellipse(-0.15, -0.1, 0.8, 0.48, DEEP)
    p.ellipse(-0.2, -0.32, 0.6, 0.22, (190, 220, 240), False)
    p.circle(-0.55, 0.02, 0.07, BLACK, False)


def turtle(p):
    for x, y in ((-0.55, 0.5), (0.55, 0.5), (-0.55, -0.5), (0.55, -0.5)):
        p.ellipse(x, y, 0.28, 0.16, (120, 180, 90), angle=35 if x * y > 0 else -35)
    p.circle(0, 0.82, 0.2, (120, 180, 90))
    p.ellipse(0, 0, 0.6, 0.72, (70, 130, 60))
    for x, y in ((0, 0.25), (-0.3, -0.15), (0.3, -0.15), (0, -0.45)):
        p.circle(x, y, 0.17, (150, 200, 100), False)


def anchor(p):
    p.ring(0, 0.68, 0.2, 0.1, NAVY, MEDAL)
    p.line(0, 0.5, 0, -0.75, 0.16, NAVY)
    p.line(-0.4, 0.3, 0.4, 0.3, 0.14, NAVY)
    p.polyline(
        [(-0.72, -0.2), (-0.55, -0.55), (-0.3, -0.75), (0, -0.82), (0.3, -0.75), (0.55, -0.55), (0.72, -0.2)],
        0.15,
        NAVY,
    )
    p.poly([(-0.88, -0.1), (-0.58, -0.1), (-0.72, -0.34)], NAVY)
    p.poly([(0.88, -0.1), (0.58, -0.1), (0.72, -0.34)], NAVY)


def lighthouse(p):
    p.poly([(-0.4, -0.9), (0.4, -0.9), (0.25, 0.45), (-0.25, 0.45)], WHITE)
    for y0 in (-0.62, -0.1):
        f0, f1 = (y0 + 0.9) / 1.35, (y0 + 0.9 + 0.26) / 1.35
        p.poly(
            [
                (-0.4 + 0.15 * f0, y0),
                (0.4 - 0.15 * f0, y0),
                (0.4 - 0.15 * f1, y0 + 0.26),
                (-0.4 + 0.15 * f1, y0 + 0.26),
            ],
            RED,
            False,
        )
    p.rect(-0.2, 0.45, 0.4, 0.28, YELLOW)
    p.poly([(-0.3, 0.73), (0.3, 0.73), (0, 0.95)], RED)


def sailboat(p):
    p.poly([(-0.85, -0.45), (0.85, -0.45), (0.6, -0.8), (-0.6, -0.8)], BROWN)
    p.line(0, -0.45, 0, 0.9, 0.07, BROWN_DARK)
    p.poly([(0.06, 0.85), (0.06, -0.35), (0.7, -0.35)], WHITE)
    p.poly([(-0.06, 0.7), (-0.06, -0.35), (-0.6, -0.35)], (240, 220, 120))


BROWN_DARK = (96, 56, 28)


def pearl(p):
    p.ellipse(0, -0.35, 0.9, 0.38, (150, 120, 150))
    p.poly(
        [(-0.85, -0.25)]
        + [(0.85 * math.cos(a), -0.25 + 0.8 * math.sin(a)) for a in (math.radians(180 - k * 12) for k in range(16))],
        (170, 140, 170),
    )
    p.ellipse(0, -0.3, 0.7, 0.22, (240, 210, 225), False)
    p.circle(0, -0.15, 0.26, WHITE)
    p.circle(-0.08, -0.07, 0.08, (255, 255, 255), False)


def coral(p):
    p.polyline([(0, -0.9), (0, -0.2), (-0.45, 0.3), (-0.55, 0.8)], 0.16, CORAL)
    p.polyline([(0, -0.2), (0.4, 0.25), (0.35, 0.85)], 0.16, CORAL)
    p.polyline([(-0.45, 0.3), (-0.85, 0.45)], 0.14, CORAL)
    p.polyline([(0.4, 0.25), (0.8, 0.35), (0.85, 0.7)], 0.14, CORAL)
    p.polyline([(0, 0.0), (0.05, 0.5)], 0.14, CORAL)
    p.ellipse(0, -0.88, 0.45, 0.1, SAND)


def seaweed(p):
    for x0, col in ((-0.45, GREEN), (0.0, DARK_GREEN), (0.45, GREEN)):
        pts = [(x0 + 0.18 * math.sin(t * 2.2 + x0 * 3), -0.9 + t * 0.42) for t in (k * 0.25 for k in range(18))]
        p.polyline(pts, 0.16, col)
    p.ellipse(0, -0.9, 0.7, 0.08, SAND)


def lifebuoy(p):
    p.ring(0, 0, 0.85, 0.45, WHITE, MEDAL)
    for k in range(4):
        a = math.radians(45 + k * 90)
        pts = [(0.85 * math.cos(a + d), 0.85 * math.sin(a + d)) for d in (-0.32, -0.16, 0, 0.16, 0.32)]
        pts += [(0.45 * math.cos(a + d), 0.45 * math.sin(a + d)) for d in (0.32, 0, -0.32)]
        p.poly(pts, RED, False)


def dolphin(p):
    body = [
        (-0.9, -0.1),
        (-0.6, 0.25),
        (-0.1, 0.45),
        (0.35, 0.4),
        (0.7, 0.15),
        (0.85, -0.25),
        (0.95, -0.55),
        (0.7, -0.35),
        (0.5, -0.25),
        (0.1, -0.1),
        (-0.4, -0.1),
        (-0.7, -0.2),
    ]
    p.poly(body, GREY)
    p.poly([(-0.05, 0.42), (0.15, 0.8), (0.3, 0.4)], GREY)
    p.poly([(0.8, -0.4), (0.95, -0.85), (0.55, -0.7)], GREY)
    p.poly([(-0.5, -0.08), (-0.1, -0.05), (0.2, -0.12), (-0.4, -0.02)], (220, 225, 230), False)
    p.circle(-0.45, 0.1, 0.05, BLACK, False)


def urchin(p):
    for k in range(16):
        a = k * math.tau / 16
        p.line(
            0.3 * math.cos(a), 0.3 * math.sin(a) - 0.1, 0.9 * math.cos(a), 0.85 * math.sin(a) - 0.05, 0.07, (60, 40, 80)
        )
    p.circle(0, -0.1, 0.48, (90, 60, 120))
    p.circle(-0.15, 0.05, 0.1, (150, 120, 180), False)


def submarine(p):
    p.rect(-0.15, 0.2, 0.35, 0.38, YELLOW)
    p.line(0.05, 0.58, 0.05, 0.85, 0.07, GREY)
    p.line(0.05, 0.85, 0.25, 0.85, 0.07, GREY)
    p.ellipse(0, -0.05, 0.85, 0.36, YELLOW)
    p.poly([(0.78, -0.05), (0.98, 0.2), (0.98, -0.3)], GOLD)
    for x in (-0.45, -0.1, 0.25):
        p.circle(x, -0.05, 0.11, (150, 210, 240))


def bottle(p):
    p.poly(
        [
            (-0.85, -0.35),
            (0.35, -0.35),
            (0.55, -0.2),
            (0.9, -0.15),
            (0.9, 0.15),
            (0.55, 0.2),
            (0.35, 0.35),
            (-0.85, 0.35),
        ],
        (120, 200, 170),
    )
    p.rect(0.82, -0.13, 0.14, 0.26, BROWN)
    p.poly([(-0.6, -0.15), (0.1, -0.2), (0.15, 0.15), (-0.55, 0.2)], (250, 240, 210), False)
    p.line(-0.2, -0.22, -0.15, 0.22, 0.06, RED, False)


def seagull(p):
    p.poly(
        [
            (-0.95, 0.35),
            (-0.5, 0.5),
            (-0.1, 0.05),
            (0.1, 0.05),
            (0.5, 0.5),
            (0.95, 0.35),
            (0.5, 0.25),
            (0.15, -0.15),
            (-0.15, -0.15),
            (-0.5, 0.25),
        ],
        WHITE,
    )
    p.poly([(-0.95, 0.35), (-0.7, 0.45), (-0.6, 0.3)], GREY, False)
    p.poly([(0.95, 0.35), (0.7, 0.45), (0.6, 0.3)], GREY, False)
    p.ellipse(0, -0.1, 0.18, 0.35, WHITE)
    p.circle(0, -0.5, 0.16, WHITE)
    p.poly([(-0.06, -0.62), (0.06, -0.62), (0, -0.85)], ORANGE)


def penguin(p):
    p.ellipse(0, -0.1, 0.55, 0.82, BLACK)
    p.ellipse(0, -0.2, 0.38, 0.62, WHITE, False)
    p.circle(-0.14, 0.45, 0.07, WHITE, False)
    p.circle(0.14, 0.45, 0.07, WHITE, False)
    p.poly([(-0.1, 0.32), (0.1, 0.32), (0, 0.15)], ORANGE, False)
    p.ellipse(-0.22, -0.9, 0.2, 0.08, ORANGE)
    p.ellipse(0.22, -0.9, 0.2, 0.08, ORANGE)


def snail(p):
    pts = []
    for k in range(60):
        t = k / 59 * 3.2 * math.pi
        r = 0.08 + 0.75 * k / 59
        pts.append((0.05 + r * math.cos(t), 0.05 + r * math.sin(t)))
    p.circle(0.05, 0.05, 0.83, (236, 180, 130))
    p.polyline(pts, 0.09, (170, 100, 60), False)
    p.poly([(-0.7, -0.55), (0.2, -0.75), (0.9, -0.8), (0.8, -0.55), (0.2, -0.5)], (236, 180, 130))


def shark(p):
    p.poly([(-0.2, -0.25), (0.15, 0.85), (0.55, -0.25)], (110, 120, 135))
    p.poly([(0.15, 0.85), (0.55, -0.25), (0.3, -0.25)], (90, 100, 115), False)
    for k in range(4):
        x = -0.9 + k * 0.5
        p.polyline([(x, -0.35), (x + 0.12, -0.22), (x + 0.25, -0.35), (x + 0.37, -0.48), (x + 0.5, -0.35)], 0.1, SEA)
    p.polyline(
        [
            (-0.85, -0.7),
            (-0.6, -0.58),
            (-0.35, -0.7),
            (-0.1, -0.82),
            (0.15, -0.7),
            (0.4, -0.58),
            (0.65, -0.7),
            (0.85, -0.8),
        ],
        0.1,
        DEEP,
    )


def diving_helmet(p):
    p.rect(-0.7, -0.9, 1.4, 0.35, (180, 120, 50))
    p.circle(0, 0.05, 0.72, (220, 160, 60))
    p.circle(0, 0.1, 0.34, (40, 60, 80))
    p.ring(0, 0.1, 0.42, 0.34, (180, 120, 50), (40, 60, 80), False)
    p.circle(-0.6, 0.0, 0.14, (160, 170, 180))
    p.circle(0.6, 0.0, 0.14, (160, 170, 180))
    p.circle(-0.12, 0.22, 0.07, (150, 200, 230), False)


#: (drawing, names in en, de, fr, it, nl, es, pt, et)
SEA_THINGS = (
    (fish, ("Fish", "Fisch", "Poisson", "Pesce", "Vis", "Pez", "Peixe", "Kala")),
    (octopus, ("Octopus", "Krake", "Pieuvre", "Polpo", "Octopus", "Pulpo", "Polvo", "Kaheksajalg")),
    (crab, ("Crab", "Krabbe", "Crabe", "Granchio", "Krab", "Cangrejo", "Caranguejo", "Krabi")),
    (
        starfish,
        (
            "Starfish",
            "Seestern",
            "Étoile de mer",
            "Stella marina",
            "Zeester",
            "Estrella de mar",
            "Estrela-do-mar",
            "Meritäht",
        ),
    ),
    (
        scallop,
        ("Scallop", "Jakobsmuschel", "Coquille", "Capasanta", "Sint-jakobsschelp", "Vieira", "Vieira", "Kammkarp"),
    ),
    (jellyfish, ("Jellyfish", "Qualle", "Méduse", "Medusa", "Kwal", "Medusa", "Água-viva", "Meduus")),
    (
        seahorse,
        (
            "Seahorse",
            "Seepferdchen",
            "Hippocampe",
            "Cavalluccio marino",
            "Zeepaardje",
            "Caballito de mar",
            "Cavalo-marinho",
            "Merihobuke",
        ),
    ),
    (whale, ("Whale", "Wal", "Baleine", "Balena", "Walvis", "Ballena", "Baleia", "Vaal")),
    (
        turtle,
        (
            "Sea turtle",
            "Meeresschildkröte",
            "Tortue marine",
            "Tartaruga marina",
            "Zeeschildpad",
            "Tortuga marina",
            "Tartaruga-marinha",
            "Merikilpkonn",
        ),
    ),
    (anchor, ("Anchor", "Anker", "Ancre", "Àncora", "Anker", "Ancla", "Âncora", "Ankur")),
    (lighthouse, ("Lighthouse", "Leuchtturm", "Phare", "Faro", "Vuurtoren", "Faro", "Farol", "Tuletorn")),
    (sailboat, ("Sailing boat", "Segelboot", "Voilier", "Barca a vela", "Zeilboot", "Velero", "Veleiro", "Purjekas")),
    (pearl, ("Pearl", "Perle", "Perle", "Perla", "Parel", "Perla", "Pérola", "Pärl")),
    (coral, ("Coral", "Koralle", "Corail", "Corallo", "Koraal", "Coral", "Coral", "Korall")),
    (seaweed, ("Seaweed", "Seetang", "Algue", "Alga", "Zeewier", "Alga", "Alga", "Merevetikas")),
    (
        lifebuoy,
        ("Lifebuoy", "Rettungsring", "Bouée", "Salvagente", "Reddingsboei", "Salvavidas", "Boia", "Päästerõngas"),
    ),
    (dolphin, ("Dolphin", "Delfin", "Dauphin", "Delfino", "Dolfijn", "Delfín", "Golfinho", "Delfiin")),
    (
        urchin,
        (
            "Sea urchin",
            "Seeigel",
            "Oursin",
            "Riccio di mare",
            "Zee-egel",
            "Erizo de mar",
            "Ouriço-do-mar",
            "Merisiilik",
        ),
    ),
    (
        submarine,
        ("Submarine", "U-Boot", "Sous-marin", "Sottomarino", "Onderzeeër", "Submarino", "Submarino", "Allveelaev"),
    ),
    (
        bottle,
        (
            "Message in a bottle",
            "Flaschenpost",
            "Bouteille à la mer",
            "Messaggio in bottiglia",
            "Flessenpost",
            "Mensaje en una botella",
            "Mensagem na garrafa",
            "Pudelipost",
        ),
    ),
    (seagull, ("Seagull", "Möwe", "Mouette", "Gabbiano", "Meeuw", "Gaviota", "Gaivota", "Kajakas")),
    (penguin, ("Penguin", "Pinguin", "Manchot", "Pinguino", "Pinguïn", "Pingüino", "Pinguim", "Pingviin")),
    (
        snail,
        (
            "Sea snail",
            "Meeresschnecke",
            "Escargot de mer",
            "Lumaca di mare",
            "Zeeslak",
            "Caracola",
            "Caramujo",
            "Meritigu",
        ),
    ),
    (shark, ("Shark", "Hai", "Requin", "Squalo", "Haai", "Tiburón", "Tubarão", "Hai")),
    (
        diving_helmet,
        (
            "Diving helmet",
            "Taucherhelm",
            "Scaphandre",
            "Casco da palombaro",
            "Duikhelm",
            "Escafandra",
            "Escafandro",
            "Tuukrikiiver",
        ),
    ),
)
LANGS = ("en", "de", "fr", "it", "nl", "es", "pt", "et")
TITLE = ("Ocean", "Ozean", "Océan", "Oceano", "Oceaan", "Océano", "Oceano", "Ookean")


def manifest() -> dict:
    """The theme's manifest: board treasure k is sea thing k (the first 24), card treasure k too (all 25)."""
    names = [dict(zip(LANGS, n)) for _, n in SEA_THINGS]
    return {
        "format": FORMAT,
        "id": "ocean",
        "title": dict(zip(LANGS, TITLE)),
        **{kind: {t: names[k] for k, t in enumerate(treasures)} for kind, treasures in kinds().items()},
        "colours": {"medallion": "#e8f5fb", "medallion_rim": "#2a7fb8", "wordmark": "#bfe9ff"},
    }


def _downsample(pixels: bytes, big_w: int, big_h: int, k: int) -> bytes:
    """Average k x k blocks of RGBA `pixels` (`big_w` x `big_h`, bottom row first) into a top-first
    picture, colours weighted by their alpha (no dark fringes)."""
    w, h = big_w // k, big_h // k
    out = bytearray(w * h * 4)
    stride = big_w * 4
    for y in range(h):
        dst_row = (h - 1 - y) * w * 4
        for x in range(w):
            r = g = b = a = 0
            for dy in range(k):
                base = (y * k + dy) * stride + x * k * 4
                for dx in range(k):
                    i = base + dx * 4
                    weight = pixels[i + 3]
                    r += pixels[i] * weight
                    g += pixels[i + 1] * weight
                    b += pixels[i + 2] * weight
                    a += weight
            o = dst_row + x * 4
            if a:
                out[o], out[o + 1], out[o + 2] = r // a, g // a, b // a
                out[o + 3] = a // (k * k)
    return bytes(out)


def render(draw, window, width: int, height: int) -> bytes:
    """One drawing (a Pen function) as a transparent RGBA picture, top row first; the pen's unit box
    spans 90% of the height (a wide picture draws beyond it left and right)."""
    import pyglet  # noqa: PLC0415 -- a maker's tool: the GL window only when it draws

    from kiosk.ui.art.bake import render as render_batch  # noqa: PLC0415 -- a maker's tool: the GL window only when it draws
    from kiosk.ui.art.pen import Pen  # noqa: PLC0415 -- a maker's tool: the GL window only when it draws

    pen = Pen()
    draw(pen)
    big_w, big_h = width * SUPER, height * SUPER
    texture = pyglet.image.Texture.create(big_w, big_h)
    batch = pyglet.graphics.Batch()
    keep = pen.draw(batch, big_w / 2, big_h / 2, big_h * 0.9, ordered=True)
    pixels = render_batch(texture, window, batch, big_w, big_h, read_back=True)
    del keep
    assert pixels is not None
    return _downsample(pixels, big_w, big_h, SUPER)


def wordmark_pen(p):
    """A sun rising over three waves, wide: the emblem the attract screen shows above the kiosk's name."""
    p.circle(0, 0.1, 0.62, YELLOW)
    for k, col in enumerate((SEA, DEEP, NAVY)):
        y = -0.15 - k * 0.3
        pts = [(-2.3 + t * 0.2, y + 0.1 * math.sin(t * 0.9 + k)) for t in range(24)]
        p.polyline(pts, 0.18, col)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    out = Path(argv[0]) if argv else HERE
    from kiosk.ui.shell.window import make_window, prepare_pyglet  # noqa: PLC0415 -- a maker's tool: the GL window only when it draws

    prepare_pyglet("offscreen")
    window = make_window("offscreen", (64, 64), "auto")
    window.switch_to()
    for kind, treasures in kinds().items():
        (out / kind).mkdir(parents=True, exist_ok=True)
        for k, treasure in enumerate(treasures):
            rgba = render(SEA_THINGS[k][0], window, PICTURE_PX, PICTURE_PX)
            (out / kind / f"{treasure}.png").write_bytes(encode(PICTURE_PX, PICTURE_PX, rgba))
    mark = render(wordmark_pen, window, WORDMARK_SIZE[0], WORDMARK_SIZE[1])
    (out / WORDMARK).write_bytes(encode(*WORDMARK_SIZE, mark))
    (out / MANIFEST).write_text(json.dumps(manifest(), ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    (out / "README.md").write_text(
        "# Ocean: the kiosk's second theme\n\nMade by `python -m kiosk.themes.make_ocean` (drawn by code, "
        "nothing downloaded). Install it with `labyrinth-kiosk --install-theme` and this folder.\n",
        encoding="utf-8",
    )
    print(f"wrote the ocean theme to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
