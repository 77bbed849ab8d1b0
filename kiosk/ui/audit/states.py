"""The screens and states the layout audit walks (kiosk/ui/audit/layout.py).

Each state brings a real kiosk there through its own commands (a new game, an
arrow pressed twice, a card laid) and then opens the screen, so what the audit
measures is what a visitor would see. Chosen to cover what grows: the most
seats and the fewest, every control a panel can show, each phase of a turn and
the results. The shell's screens are listed here; each game lists its own
(``GameType.audit``, e.g. kiosk/games/cards/screens/audit.py).
"""

from __future__ import annotations

from kiosk.ui.audit.layout import State, goto, setup_state


def _states() -> tuple[State, ...]:
    """The shell's own screens and each registered game's (``GameType.audit``): the attract screen,
    every game's setup, the setup's language picker, then the games' other screens."""
    from kiosk import games

    theirs = [st for game in games.all_games() if game.audit is not None for st in game.audit()]
    default = games.default()
    return (
        State("attract", "idle", "", goto("attract")),
        *(st for st in theirs if st.screen == "attract"),
        *(st for st in theirs if st.screen == "setup"),
        State("setup", "language", default, setup_state(default, lambda choices: None, picker=True)),
        *(st for st in theirs if st.screen not in ("attract", "setup")),
    )


STATES: tuple[State, ...] = _states()
