"""The board game's screens in the layout audit (kiosk/ui/layout_audit.py): the states it walks.

Each state brings a real kiosk there through the game's own commands (a new game,
an arrow pressed twice) and then opens the screen, so what the audit measures is
what a visitor would see: the most seats and the fewest, the active panel with
every control (hint on, the peek, stay and undo, the blocked-arrow message) and the result.
"""

from __future__ import annotations

from typing import Any, Callable

from kiosk.events import GameSetup, NewGame, SeatSetup
from kiosk.ui.layout_audit import Env, State, goto, setup_state

from kiosk.games.labyrinth import GAME

# The states reach into the play screen's own parts (its message, its panels): a screen is Any
# here, as the audit sets what no visitor's input could set that quickly.


def _board(
    env: Env, kinds: tuple[str, ...], *, hints: bool = True, open_cards: bool = False, first: int = 0, seed: int = 3
) -> Any:
    from engine.tiles import DEFAULT_SEATS

    seats = DEFAULT_SEATS[len(kinds)]
    env.post(
        NewGame(
            GameSetup(
                seats=tuple(SeatSetup(k, s) for k, s in zip(kinds, seats)),
                seed=seed,
                first=first,
                hints=hints,
                open_cards=open_cards,
                game=GAME.name,
            )
        )
    )
    return env.kiosk.sessions[GAME.name]


def _play(env: Env, hints: bool = True) -> Any:
    """The play screen, showing the session as it is now (as after a resume), no message left over."""
    screen: Any = env.ui.goto(GAME.play_screen, hints=hints)
    screen.toast, screen.toast_until = "", 0.0
    screen._refresh_panels()
    return screen


def board_shift(kinds: tuple[str, ...], **kw: Any):
    def prepare(env: Env) -> None:
        _board(env, kinds, **kw)
        _play(env)

    return prepare


def board_blocked(env: Env) -> None:
    """The arrow opposite the last push refused: its message in the active panel."""
    _board(env, ("human", "human", "human", "human"))
    from kiosk.games.labyrinth.events import SelectArrow, Stay

    env.post(SelectArrow("N1"))
    env.post(SelectArrow("N1"))
    env.post(Stay())
    _play(env)
    blocked_message(env)


def blocked_message(env: Env) -> None:
    """What the play screen says to the active person when the blocked arrow is pressed."""
    screen: Any = env.ui.screen
    screen._show_toast(screen.t("play.blocked"), screen.board.model.current)
    screen.toast_until = env.ui.now() + 3600


def board_move(env: Env) -> None:
    """After a push: the stay button and the lit cells."""
    _board(env, ("human", "medium"))
    from kiosk.games.labyrinth.events import SelectArrow

    env.post(SelectArrow("W3"))
    env.post(SelectArrow("W3"))
    _play(env)


def board_walked(env: Env) -> None:
    """After a person's walk: the next person's turn, the Undo button on the panel of who walked."""
    _board(env, ("human", "human", "human", "human"))
    from kiosk.games.labyrinth.events import SelectArrow, Stay

    env.post(SelectArrow("N1"))
    env.post(SelectArrow("N1"))
    env.post(Stay())
    _play(env)


def board_peek(env: Env) -> None:
    _board(env, ("human", "easy", "hard"))
    screen = _play(env)
    screen.peek.set(True)
    screen._refresh_panels()


def board_over(players: int):
    def prepare(env: Env) -> None:
        from kiosk.games.labyrinth.events import GameOver

        found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))[:players]
        kinds = ("human", "medium", "human", "hard")[:players]
        env.ui.goto(GAME.over_screen, event=GameOver((0,), 31, found, kinds))

    return prepare


def _seats(players: int, kinds: tuple[str, ...] = ()) -> Callable[[Any], None]:
    """The setup's choices for the board game: `players` seats, the first ones `kinds`."""

    def choose(c: Any) -> None:
        c.players = players
        c.kinds[: len(kinds)] = list(kinds)

    return choose


def states() -> tuple[State, ...]:
    """The board game's screens in the states the audit measures."""
    name = GAME.name
    return (
        State("setup", "board-1", name, setup_state(name, _seats(1))),
        State("setup", "board-4", name, setup_state(name, _seats(4, ("human", "easy", "medium", "hard")))),
        State("howto", "first-step", name, goto("howto")),
        State(GAME.play_screen, "shift-hint-4", name, board_shift(("human", "medium", "human", "hard"))),
        State(GAME.play_screen, "shift-hint-1", name, board_shift(("human",))),
        State(GAME.play_screen, "open-cards-2", name, board_shift(("human", "easy"), open_cards=True)),
        State(GAME.play_screen, "blocked-arrow", name, board_blocked, blocked_message),
        State(GAME.play_screen, "move-stay", name, board_move),
        State(GAME.play_screen, "walk-undo", name, board_walked),
        State(GAME.play_screen, "peek", name, board_peek),
        State(GAME.over_screen, "players-2", name, board_over(2)),
        State(GAME.over_screen, "players-4", name, board_over(4)),
    )
