"""tests.engine.cards."""
