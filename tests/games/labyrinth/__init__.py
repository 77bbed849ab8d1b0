"""tests.games.labyrinth."""
