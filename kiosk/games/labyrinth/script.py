"""Script lines for the board game (docs/headless.md), one input of a person per line.

    tap 2 4          # touch the cell at row 2, column 4
    stay             # touch "stay" on the screen

``button N3`` (an arrow), ``button rotate`` and ``wait MS`` are the kiosk's own
lines (kiosk/core/script.py).
"""

from __future__ import annotations

from typing import Any, Callable

from engine.labyrinth.maze import SIZE

from kiosk.core.script import whole_number

from kiosk.games.labyrinth.events import Stay, TapCell

VERBS = ("tap", "stay")
USAGE = "tap ROW COL, stay"


def parse_words(words: list[str], bad: Callable[[str], Exception]) -> tuple:
    """The arguments of a board-game line split into `words` (verb first); raises ``bad(why)``."""
    verb = words[0].lower()
    if verb == "tap":
        if len(words) != 3:
            raise bad(f"write `tap ROW COL` (0-{SIZE - 1} each)")
        r, c = whole_number(words[1], 6), whole_number(words[2], 6)
        if r is None or c is None:
            raise bad(f"row and column must be whole numbers 0-{SIZE - 1}")
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise bad(f"row and column must be 0-{SIZE - 1}")
        return ((r, c),)
    if len(words) != 1:
        raise bad("`stay` takes nothing after it")
    return ()


def play(session: Any, verb: str, args: tuple) -> list:
    """The commands a board-game line posts (the same as the play screen's)."""
    if verb == "tap":
        return [TapCell(tuple(args[0]), source="script")]
    return [Stay(source="script")]
