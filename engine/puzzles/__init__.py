"""Solo puzzles on the sliding-maze board: reach the target in the fewest turns.

The board, the spare and a target are set (engine.puzzles.generator, from a
seed); a turn is the board game's shift then walk; the optimum comes from an
exhaustive search on the board engine's bitboards (engine.puzzles.solver). The
state (engine.puzzles.state.PuzzleGame) is the board game's with the puzzle's
own end, so it keeps the engine's contract; its record notation registers itself.

>>> from engine.puzzles import PuzzleGame, generate, optimum
>>> puzzle = generate(3, "easy")
>>> game = PuzzleGame.start(puzzle)
>>> optimum(game, game.target) == puzzle.optimum
True
"""

from engine.puzzles.generator import GRADES, Puzzle, daily, generate
from engine.puzzles.solver import LEVELS, MAX_DEPTH, best_turn, optimum
from engine.puzzles.state import NAME, TURN_CAP, PuzzleGame, new, stars

from engine.puzzles import record  # noqa: F401, E402  (registers the puzzles' record notation)

#: The games this one builds on: it plays on the board game's engine (tests/test_import_contracts.py
#: lets engine/puzzles/ import engine/labyrinth/, and nothing else of another game).
BUILDS_ON = ("labyrinth",)

__all__ = [
    "BUILDS_ON",
    "GRADES",
    "LEVELS",
    "MAX_DEPTH",
    "NAME",
    "Puzzle",
    "PuzzleGame",
    "TURN_CAP",
    "best_turn",
    "daily",
    "generate",
    "new",
    "optimum",
    "stars",
]
