"""A puzzle's position as text, for ``labyrinth-replay`` in a terminal: the board game's,
with the puzzle's name, its target and its optimum above it."""

from __future__ import annotations

from engine.puzzles import PuzzleGame

from kiosk.games.labyrinth.text_board import maze_board


def puzzle_board(state: PuzzleGame) -> str:
    p = state.puzzle
    head = f"puzzle {p.name} ({p.grade}): reach the {p.target}, fewest turns {p.optimum}, turn {state.turns}"
    if state.outcome is not None:
        head += f" -- {'solved, ' + str(state.stars) + ' stars' if state.solved else 'not solved'}"
    return head + "\n" + maze_board(state)
