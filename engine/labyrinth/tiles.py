"""The components of the board game as data: treasures, the fixed tiles, the movable tile set.

One table each, so a different edition (12 straights + 16 corners, other
treasures) is a change here and nowhere else.
"""

from __future__ import annotations

# Our own generic treasures (docs/rules.md, "Default generic treasures").
TREASURES: tuple[str, ...] = (
    "bat",
    "book",
    "candlestick",
    "chest",
    "crown",
    "dragon",
    "emerald",
    "genie",
    "ghost",
    "gold",
    "helmet",
    "keys",
    "lizard",
    "map",
    "moth",
    "owl",
    "princess",
    "ring",
    "rat",
    "scarab",
    "skull",
    "spider",
    "sword",
    "troll",
)

# The 16 fixed tiles: cell, openings, treasure. Every cell whose row and column are both even.
FIXED_TILES: tuple[tuple[tuple[int, int], str, str | None], ...] = (
    ((0, 0), "ES", None),
    ((0, 6), "SW", None),
    ((6, 6), "NW", None),
    ((6, 0), "NE", None),
    ((0, 2), "ESW", "book"),
    ((0, 4), "ESW", "crown"),
    ((2, 0), "NES", "keys"),
    ((4, 0), "NES", "skull"),
    ((2, 6), "NSW", "ring"),
    ((4, 6), "NSW", "chest"),
    ((6, 2), "NEW", "emerald"),
    ((6, 4), "NEW", "sword"),
    ((2, 2), "NES", "map"),
    ((2, 4), "ESW", "gold"),
    ((4, 4), "NSW", "helmet"),
    ((4, 2), "NEW", "candlestick"),
)

# The 34 movable tiles: (openings in a base orientation, how many, treasures on them).
# Straights never carry a treasure; every T-junction does; 6 of the corners do.
MOVABLE_TILES: tuple[tuple[str, int, tuple[str, ...]], ...] = (
    ("NS", 13, ()),
    ("ES", 15, ("owl", "moth", "lizard", "spider", "rat", "scarab")),
    ("ESW", 6, ("bat", "dragon", "genie", "ghost", "princess", "troll")),
)

# The pawns: colour and start corner per seat, clockwise from the top-left.
SEATS: tuple[tuple[str, tuple[int, int]], ...] = (
    ("red", (0, 0)),
    ("yellow", (0, 6)),
    ("green", (6, 6)),
    ("blue", (6, 0)),
)

# Default seats by number of players (docs/rules.md: 2 players sit diagonally).
DEFAULT_SEATS: dict[int, tuple[int, ...]] = {
    1: (0,),
    2: (0, 2),
    3: (0, 1, 2),
    4: (0, 1, 2, 3),
}


def movable_tiles() -> list[tuple[str, str | None]]:
    """The movable tile set expanded into one (openings, treasure) entry per tile."""
    tiles: list[tuple[str, str | None]] = []
    for openings, count, treasures in MOVABLE_TILES:
        if len(treasures) > count:
            raise ValueError(f"tile set: {count} x {openings} cannot carry {len(treasures)} treasures")
        for i in range(count):
            tiles.append((openings, treasures[i] if i < len(treasures) else None))
    return tiles


def _check_tables() -> None:
    """The tables must describe a complete game: 50 tiles, every treasure exactly once."""
    placed = [t for _, _, t in FIXED_TILES if t] + [t for _, t in movable_tiles() if t]
    if sorted(placed) != sorted(TREASURES) or len(set(TREASURES)) != len(TREASURES):
        raise ValueError("tile set: every treasure must sit on exactly one tile")
    if len(FIXED_TILES) + len(movable_tiles()) != 50:
        raise ValueError("tile set: 16 fixed + 34 movable tiles expected")


_check_tables()
