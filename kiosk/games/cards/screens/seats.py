"""How the card game's screens show a seat: its colour and a computer's strength.

Shared by the table, the game-over screen and the setup panel, apart from
each so that none of them imports another screen.
"""

from __future__ import annotations

from typing import Any

from pyglet import shapes

#: Player colours on screen, seat order (kiosk/games/cards/session.py COLORS).
PLAYER_RGB = ((226, 54, 54), (250, 206, 40), (46, 172, 84), (54, 116, 236), (168, 92, 230), (40, 200, 180))


def player_rgb(i: int) -> tuple[int, int, int]:
    return PLAYER_RGB[i % len(PLAYER_RGB)]


def strength_stars(kind: str) -> str:
    """A computer's strength, in the board game's symbols (easy one star, hard three); the computer
    that plays at random a die."""
    return {"random": "\u2684", "easy": "\u2605", "hard": "\u2605\u2605\u2605"}.get(kind, "")


#: The tray of the player whose turn it is: lighter wood (docs/art.md, the board game's panels).
ACTIVE_TRAY = (84, 62, 46)


def seat_token(
    frame: Any, u: float, v: float, r: float, rgb: tuple[int, int, int], batch: Any, group: Any
) -> list[Any]:
    """A seat's painted wooden token of radius `r` at (u, v) of `frame`: its colour, a darker side below
    it and a glint at the top-left, lit as the pieces are (docs/art.md). Three discs in one group,
    drawn in the order made."""
    x, y = frame.point(u, v)
    r_, g_, b_ = rgb
    shade = (r_ * 3 // 5, g_ * 3 // 5, b_ * 3 // 5)
    glint = (r_ + (255 - r_) // 2, g_ + (255 - g_) // 2, b_ + (255 - b_) // 2)
    gx, gy = x - r * 0.35, y + r * 0.35  # the light is the screen's top-left, whichever way the frame faces
    return [
        shapes.Circle(x + r * 0.08, y - r * 0.14, r, color=shade, batch=batch, group=group),
        shapes.Circle(x, y, r * 0.92, color=rgb, batch=batch, group=group),
        shapes.Circle(gx, gy, r * 0.24, color=glint, batch=batch, group=group),
    ]
