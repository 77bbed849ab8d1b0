"""tests.games.cards."""
