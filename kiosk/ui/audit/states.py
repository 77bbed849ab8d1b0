"""The screens and states the layout audit walks (kiosk/ui/audit/layout.py).

Each state brings a real kiosk there through its own commands (a new game, an
arrow pressed twice, a card laid) and then opens the screen, so what the audit
measures is what a visitor would see. Chosen to cover what grows: the most
seats and the fewest, every control a panel can show, each phase of a turn and
the results. The shell's screens are listed here; each game lists its own
(``GameType.audit``, e.g. kiosk/games/cards/screens/audit.py).
"""

from __future__ import annotations

from typing import Any

from kiosk.ui.audit.layout import State, setup_state


def _menu_open(env) -> None:
    """A board game of two people with the in-game menu open, opened from the far side (turned)."""
    from kiosk.core.events import GameSetup, NewGame

    env.post(NewGame(GameSetup.of("human,human", seed=3)))
    env.ui.goto("play")
    _reopen_menu(env)


def _reopen_menu(env) -> None:
    """The menu's sheet drawn again (a language change does not redraw this overlay by itself)."""
    menu = env.ui.menu
    menu.update()
    rect, angle = menu.spots()[0]
    menu.show(rect.center, angle)


def _attract(env: Any) -> None:
    """The attract screen as a passer-by sees it most of the time: "touch to play" between its fades
    (at the moment the screen opens it is still fading in, unseen)."""
    from kiosk.ui.screens.attract import CYCLE_S

    env.ui.goto("attract")
    env.ui.screen.clock = CYCLE_S / 2


def _attract_offering(env) -> None:
    """The attract screen offering to continue a game of two people left alone."""
    from kiosk.core.events import GameSetup, NewGame, SuspendGame

    env.post(NewGame(GameSetup.of("human,human", seed=3)))
    env.post(SuspendGame("idle", keep_s=600))
    _attract(env)


def _seat_call(env: Any) -> None:
    """A board game of two people and a computer: Red's turn untouched for the seat timeout, so
    Red's seat is called ("Red, still there?"), facing Red; Join at the computer's corner."""
    from kiosk.core.events import GameSetup, NewGame

    env.post(NewGame(GameSetup.of("human,human,medium", seed=3)))
    env.ui.goto("play")
    seats = env.ui.seats
    seats.update()  # Red's wait begins
    env.now += seats.timeout + 1
    seats.update()


def _seat_join_asked(env: Any) -> None:
    """A board game of a person and a computer: Join tapped at the computer's corner, so "Play Green
    yourself?" asks, facing that corner, with Yes and No."""
    from kiosk.core.events import GameSetup, NewGame

    env.post(NewGame(GameSetup.of("human,medium", seed=3)))
    env.ui.goto("play")
    seats = env.ui.seats
    seats.update()
    seats.ask(1)
    seats.update()


def _states() -> tuple[State, ...]:
    """The shell's own screens and each registered game's (``GameType.audit``): the attract screen,
    every game's setup, the setup's language picker, then the games' other screens."""
    from kiosk import games

    theirs = [st for game in games.all_games() if game.audit is not None for st in game.audit()]
    default = games.default()
    return (
        State("attract", "idle", "", _attract),
        *(st for st in theirs if st.screen == "attract"),
        *(st for st in theirs if st.screen == "setup"),
        State("setup", "language", default, setup_state(default, lambda choices: None, picker=True)),
        # nobody at the table: Start says "Watch the computers"
        State("setup", "watch", default, setup_state(default, lambda choices: choices.kinds.__setitem__(0, "medium"))),
        State("attract", "continue", "", _attract_offering),
        *(st for st in theirs if st.screen not in ("attract", "setup")),
        State("play", "seat_call", default, _seat_call),
        State("play", "seat_join_asked", default, _seat_join_asked, each_language=lambda env: env.ui.seats.update()),
        # last: the menu's sheet is an overlay that stays open until a screen closes it
        State("game_menu", "open", default, _menu_open, each_language=_reopen_menu),
    )


STATES: tuple[State, ...] = _states()
