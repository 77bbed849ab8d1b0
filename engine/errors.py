"""The one exception the engine raises for a refused action.

Callers (the kiosk session, the AI, tests) catch a single type; the message is
written for a person, because the kiosk shows it on screen.
"""


class IllegalAction(ValueError):
    """An action that the rules do not allow now. The state is left unchanged."""


class InvalidState(ValueError):
    """A saved or hand-built state that breaks the rules (bad counts, bad phase, ...)."""
