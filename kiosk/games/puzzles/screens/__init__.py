"""The puzzles' screens: the board game's play screen showing a puzzle, and the puzzle's result."""
