"""The screens and states the layout audit walks (kiosk/ui/layout_audit.py).

Each state brings a real kiosk there through its own commands (a new game, an
arrow pressed twice, a card laid) and then opens the screen, so what the audit
measures is what a visitor would see. Chosen to cover what grows: the most
seats and the fewest, every control a panel can show, each phase of a turn and
the results. The shell's screens are listed here; each game lists its own
(``GameType.audit``, e.g. kiosk/games/cards/screens/audit.py).
"""

from __future__ import annotations

from .layout_audit import State, goto


def _states() -> tuple[State, ...]:
    """The shell's own screens, then each registered game's (``GameType.audit``)."""
    from kiosk import games
    found = [State("attract", "idle", "", goto("attract"))]
    for game in games.all_games():
        if game.audit is not None:
            found += game.audit()
    return tuple(found)


STATES: tuple[State, ...] = _states()
