"""The puzzles' messages: their own commands (so the board game's session never answers a
puzzle's tap), their start and their end; in between they post the board game's events
(BoardShifted, PawnMoved, TurnChanged ...), which the board's views already show.

A puzzle has no secret: its target is shown from the start (PuzzleStarted.target).
"""

from __future__ import annotations

from typing import Callable, ClassVar

from kiosk.core.events import Cell, Command, message
from kiosk.games.labyrinth.events import Commands, GameOver, GameStarted


@message("puzzle_select_arrow")
class PuzzleSelectArrow(Command):
    """An arrow was pressed/tapped: preview the spare there; the same arrow again pushes."""

    arrow: str
    source: str = "touch"


@message("puzzle_push_arrow")
class PuzzlePushArrow(Command):
    """Push the spare in now at `arrow` (None: at the previewed arrow)."""

    arrow: str | None = None
    source: str = "touch"


@message("puzzle_rotate_spare")
class PuzzleRotateSpare(Command):
    """Turn the spare (or its preview) clockwise by `turns` quarter turns."""

    turns: int = 1
    source: str = "touch"


@message("puzzle_tap_cell")
class PuzzleTapCell(Command):
    """In the move phase, walk to `cell` (the pawn's own cell means stay)."""

    cell: Cell
    source: str = "touch"


@message("puzzle_stay")
class PuzzleStay(Command):
    """End the walk where the pawn stands."""

    source: str = "touch"


@message("puzzle_request_hint")
class PuzzleRequestHint(Command):
    """Ask the solver for the next turn of a shortest solution (answered with HintReady)."""

    source: str = "touch"


#: The commands the puzzle's session hears and its play screen posts.
PUZZLE_COMMANDS = Commands(
    PuzzleSelectArrow, PuzzlePushArrow, PuzzleRotateSpare, PuzzleTapCell, PuzzleStay, PuzzleRequestHint
)


@message("puzzle_started")
class PuzzleStarted(GameStarted):
    """A puzzle began (or was resumed): the board game's picture, and the puzzle itself."""

    puzzle: str = ""  # its name: grade and number ("hard-17")
    grade: str = ""
    target: str = ""
    optimum: int = 0
    turn_limit: int = 0
    daily: bool = False  # the puzzle of the day

    around_the_table: ClassVar[bool] = False


@message("puzzle_over")
class PuzzleOver(GameOver):
    """The puzzle ended: solved (`winners` (0,)) in `turns`, or out of turns; the stars earned."""

    puzzle: str = ""
    grade: str = ""
    optimum: int = 0
    stars: int = 0
    daily: bool = False

    def narrate(self, who: Callable[[int], str]) -> str:
        if not self.winners:
            return f"puzzle {self.puzzle} not solved in {self.turns} turns"
        return f"puzzle {self.puzzle} solved in {self.turns} turns (fewest {self.optimum}): {self.stars} stars"
