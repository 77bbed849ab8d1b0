"""tests.engine.labyrinth."""
