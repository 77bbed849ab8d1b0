"""How each seat is told apart: its colour on screen, its symbol, its LED colour and its ring pattern.

Declared once, in seat order (the board game's four seats are the first four, the card game adds
purple and turquoise), for everything that shows a seat: the pawns and their pictures, the player
panels, the score chips, the results (kiosk/ui/art/seat_symbols.py draws the symbols) and the LED
ring (kiosk/core/ring_view.py). No pyglet here: the picture maker and the audit read it too.

Why a symbol and a pattern as well as a colour: about 1 in 12 men sees some of these colours alike.
The screen colours are chosen so that any two still differ by at least 20 (board game) or 12 (card
game) in CAM02-UCS under simulated protan, deutan and tritan vision (kiosk/ui/audit/colour_vision.py,
docs/art.md "Colour vision"), each seat keeping its hue: lightness was the free axis (the red is
deeper, so it no longer meets the green in deuteranopia). The symbol and the ring's pattern say
"whose" without any colour at all.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class SeatMark:
    """One seat's marks. `ring`: its arc on the LED ring as (lit, dark) LEDs, repeated along it."""

    name: str  # the colour's word (kiosk/locale: "colour.<name>")
    rgb: RGB  # on screen
    symbol: str  # kiosk/ui/art/seat_symbols.py draws it
    led: RGB  # on the LED ring: full saturation reads best on WS2812 LEDs
    ring: tuple[int, int]


SEATS: tuple[SeatMark, ...] = (
    SeatMark("red", (184, 0, 0), "circle", (255, 0, 0), (2, 1)),
    SeatMark("yellow", (250, 206, 40), "triangle", (255, 170, 0), (1, 1)),
    SeatMark("green", (56, 171, 92), "square", (0, 200, 0), (3, 1)),
    SeatMark("blue", (52, 80, 255), "diamond", (0, 60, 255), (1, 2)),
    SeatMark("purple", (170, 102, 228), "cross", (150, 0, 255), (2, 2)),
    SeatMark("turquoise", (34, 205, 184), "heart", (0, 210, 160), (1, 3)),
)
#: The board game's seats: the first four.
BOARD_SEATS = 4
#: Seat colours on screen, seat order.
SEAT_RGB: tuple[RGB, ...] = tuple(s.rgb for s in SEATS)
#: By the colour's word (a game's seating names its seats' colours).
BY_NAME: dict[str, SeatMark] = {s.name: s for s in SEATS}
