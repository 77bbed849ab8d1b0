"""Script lines for a puzzle (docs/headless.md): the board game's, posting the puzzles' commands.

tap 2 4          # touch the cell at row 2, column 4
stay             # touch "stay" on the screen
"""

from __future__ import annotations

from typing import Any

from kiosk.core.events import Command

from kiosk.games.labyrinth.script import USAGE, VERBS, lines, parse_words
from kiosk.games.puzzles.events import PuzzleStay, PuzzleTapCell

__all__ = ["USAGE", "VERBS", "lines", "parse_words", "play"]


def play(session: Any, verb: str, args: tuple[Any, ...]) -> list[Command]:
    """The commands a puzzle's line posts (the same as its play screen's)."""
    if verb == "tap":
        return [PuzzleTapCell(tuple(args[0]), source="script")]
    return [PuzzleStay(source="script")]
