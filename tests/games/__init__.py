"""tests.games."""
