"""How the card game's screens show a seat: its colour and a computer's strength.

Shared by the table, the game-over screen and the setup panel, apart from
each so that none of them imports another screen.
"""

from __future__ import annotations

#: Player colours on screen, seat order (kiosk/games/cards/session.py COLORS).
PLAYER_RGB = ((226, 54, 54), (250, 206, 40), (46, 172, 84), (54, 116, 236), (168, 92, 230), (40, 200, 180))


def player_rgb(i: int) -> tuple[int, int, int]:
    return PLAYER_RGB[i % len(PLAYER_RGB)]


def strength_stars(kind: str) -> str:
    """A computer's strength, in the board game's symbols (easy one star, hard three); the computer
    that plays at random a die."""
    return {"random": "\u2684", "easy": "\u2605", "hard": "\u2605\u2605\u2605"}.get(kind, "")
