"""How the card game's screens show a seat: its colour, its token and a computer's strength.

Shared by the table, the game-over screen and the setup panel, apart from
each so that none of them imports another screen.
"""

from __future__ import annotations

from kiosk.core.seat_marks import SEAT_RGB
from kiosk.ui.art.seat_symbols import seat_token

#: Player colours on screen, seat order (kiosk/games/cards/session.py COLORS).
PLAYER_RGB = SEAT_RGB


def player_rgb(i: int) -> tuple[int, int, int]:
    return PLAYER_RGB[i % len(PLAYER_RGB)]


#: A computer's strength, weakest first, in the board game's symbols (its setup: one to three stars):
#: the same on the setup's buttons, the table's chips and the result. Stars say only this in the card
#: game; a winner is crowned (as in its how-to), not starred.
STRENGTH_STARS = {"random": "\u2605", "easy": "\u2605\u2605", "hard": "\u2605\u2605\u2605"}


def strength_stars(kind: str) -> str:
    """A computer's strength as stars ("" for a person)."""
    return STRENGTH_STARS.get(kind, "")


#: The tray of the player whose turn it is: lighter wood (docs/art.md, the board game's panels).
ACTIVE_TRAY = (84, 62, 46)


__all__ = ["ACTIVE_TRAY", "PLAYER_RGB", "STRENGTH_STARS", "player_rgb", "seat_token", "strength_stars"]
