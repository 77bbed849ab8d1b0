"""Who sits where: seat -> table edge -> the angle their texts are turned by.

One model for every screen and both games, so nobody has to walk around the
table. The screen lies flat (``tabletop``); people sit at its long edges:
``"S"`` is the near edge (the screen's bottom, text upright), ``"N"`` the far
edge (the top, text turned 180 degrees). The board game's seats are the pawns'
start corners: seat 0 top-left, 1 top-right, 2 bottom-right, 3 bottom-left, so
seats 0 and 1 sit at ``N`` and 2 and 3 at ``S``. In the ``upright`` layout
everyone reads from ``S``.

A person joins from their own corner (the setup screen's join controls, or
where they touched the attract screen) and gets that corner's seat
(:func:`corner_seat`); when nobody said where they sit (one person against the
computer, a script), people get the near corners first (:data:`NEAR_FIRST`).
Screens shared by everyone (setup, how-to, game over) face the edge of the
person who opened them (:func:`edge_at`).

Edges use the compass letters of the layout report (``"N"``, ``"E"``, ``"S"``,
``"W"``); ``E``/``W`` (the short edges) are not used for seats on a landscape
screen, and :func:`angle` refuses them until a Frame can turn 90 degrees.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from kiosk.games import HUMAN
from kiosk.errors import ContractError

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.ui.kit.layout import Layout

NEAR, FAR = "S", "N"
ANGLES = {"S": 0, "N": 180}
#: the four corners as seats, and the edge each sits at in the tabletop layout
CORNER_EDGE = {0: FAR, 1: FAR, 2: NEAR, 3: NEAR}
#: seats in the order people get them when nobody said where they sit: the near edge first,
#: and with two players diagonal (a person at 3 plays the computer at 1), as the rules' seating
NEAR_FIRST = (3, 1, 2, 0)


def seat_edge(layout: "Layout", seat: int | None) -> str:
    """The table edge the person at board-game `seat` sits at (``"S"`` in the upright layout)."""
    if seat is None or not layout.tabletop:
        return NEAR
    return CORNER_EDGE[seat % 4]


def angle(edge: str) -> int:
    """Degrees a text is turned so that a reader at `edge` reads it upright."""
    try:
        return ANGLES[edge]
    except KeyError:
        raise ContractError(f"edge {edge!r}: texts face 'S' (near) or 'N' (far)") from None


def facing(layout: "Layout", seat: int | None) -> int:
    """Degrees to turn what seat `seat` reads (0 or 180)."""
    return angle(seat_edge(layout, seat))


def edge_at(layout: "Layout", x: float, y: float) -> str:
    """The edge of the person who touched (x, y) (pyglet coordinates, y up): the nearer long edge."""
    if not layout.tabletop:
        return NEAR
    return FAR if y >= layout.height / 2 else NEAR


def corner_seat(layout: "Layout", x: float, y: float) -> int:
    """The seat whose corner is nearest to a touch at (x, y)."""
    top = y >= layout.height / 2
    left = x < layout.width / 2
    if top:
        return 0 if left else 1
    return 3 if left else 2


def seats_for(players: int, joined: Sequence[int] = ()) -> tuple[int, ...]:
    """The seats of `players` players: first those people joined at (in order), then free
    corners for the rest, diagonal to the people where possible, so the players spread out."""
    if not 1 <= players <= 4:
        raise ValueError(f"{players} players: the board game seats 1 to 4")
    seats: list[int] = []
    for s in joined:
        if s not in seats and len(seats) < players:
            seats.append(s)
    if not seats:
        seats.append(NEAR_FIRST[0])
    while len(seats) < players:
        diagonal = [(s + 2) % 4 for s in seats if (s + 2) % 4 not in seats]
        free = diagonal or [s for s in NEAR_FIRST if s not in seats]
        seats.append(free[0])
    return tuple(seats)


def seats_for_kinds(kinds: Sequence[str]) -> tuple[int, ...]:
    """The seat of each player when only who plays is known (``--players human,hard``): the people
    take :func:`seats_for`'s corners first (solo and one person against the computer: the near edge),
    the computers the rest; players keep their order (the seats go with them)."""
    corners = list(seats_for(len(kinds)))
    people = [i for i, k in enumerate(kinds) if k == HUMAN]
    order = people + [i for i in range(len(kinds)) if i not in people]
    seats = [0] * len(kinds)
    for i, corner in zip(order, corners):
        seats[i] = corner
    return tuple(seats)
