"""The board game's screens in the layout audit (kiosk/ui/audit/layout.py): the states it walks.

Each state brings a real kiosk there through the game's own commands (a new game,
an arrow pressed twice) and then opens the screen, so what the audit measures is
what a visitor would see: the most seats and the fewest, the active panel with
every control (hint on, the peek, stay and undo, the blocked-arrow message) and the result.
"""

from __future__ import annotations

from typing import Any, Callable

from kiosk.games import HUMAN
from kiosk.core.events import GameSetup, NewGame, SeatSetup
from kiosk.ui.audit.layout import Env, State, goto, setup_state

from engine.labyrinth.parts import GAME_NAME
from engine.outcome import GAME_OVER
from kiosk import games

# The states reach into the play screen's own parts (its message, its panels): a screen is Any
# here, as the audit sets what no visitor's input could set that quickly.


def _attract_replaying(env) -> None:
    """The attract screen replaying the day's best game (its caption says so): a short finished
    game between computers, with a person's seat as the kiosk records it, filed on the kiosk's shelf."""
    from datetime import date

    from engine.labyrinth import Game, Rules
    from engine.labyrinth.ai import make_ai
    from engine.records import Recorder
    from kiosk.ui.screens.playback import best_record_of_day

    shelf = env.kiosk.record_shelf
    if shelf is not None and best_record_of_day(shelf, GAME_NAME) is None:
        game = Game.new(players=2, seed=7, rules=Rules(turn_limit=3))
        recorder = Recorder(game, [HUMAN, "easy"], date=date.today().isoformat())
        ais = [make_ai("easy", seed=7), make_ai("easy", seed=8)]
        while game.phase != GAME_OVER:
            for action in ais[game.current].choose(game):
                game.apply(action)
                recorder.apply(action)
        shelf.finish(recorder)
    env.ui.goto("attract")


def _board(
    env: Env, kinds: tuple[str, ...], *, hints: bool = True, open_cards: bool = False, first: int = 0, seed: int = 3
) -> Any:
    from engine.labyrinth.tiles import DEFAULT_SEATS

    seats = DEFAULT_SEATS[len(kinds)]
    env.post(
        NewGame(
            GameSetup(
                seats=tuple(SeatSetup(k, s) for k, s in zip(kinds, seats)),
                seed=seed,
                first=first,
                hints=hints,
                variants={"open_cards": open_cards},
                game=GAME_NAME,
            )
        )
    )
    return env.kiosk.sessions[GAME_NAME]


def _play(env: Env, hints: bool = True) -> Any:
    """The play screen, showing the session as it is now (as after a resume), no message left over."""
    screen: Any = env.ui.goto(games.get(GAME_NAME).play_screen, hints=hints)
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
    _board(env, (HUMAN, HUMAN, HUMAN, HUMAN))
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
    _board(env, (HUMAN, "medium"))
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
    _board(env, (HUMAN, "easy", "hard"))
    screen = _play(env)
    screen.peek.set(True)
    screen._refresh_panels()


def board_over(players: int):
    def prepare(env: Env) -> None:
        from kiosk.games.labyrinth.events import GameOver

        found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))[:players]
        kinds = (HUMAN, "medium", HUMAN, "hard")[:players]
        env.ui.goto(games.get(GAME_NAME).over_screen, event=GameOver((0,), 31, found, kinds))

    return prepare


def _seats(players: int, kinds: tuple[str, ...] = ()) -> Callable[[Any], None]:
    """The setup's choices for the board game: `players` seats, the first ones `kinds`."""

    def choose(c: Any) -> None:
        c.players = players
        c.kinds[: len(kinds)] = list(kinds)

    return choose


def states() -> tuple[State, ...]:
    """The board game's screens in the states the audit measures."""
    name = GAME_NAME
    return (
        State("attract", "replay", "", _attract_replaying),
        State("setup", "board-1", name, setup_state(name, _seats(1))),
        State("setup", "board-4", name, setup_state(name, _seats(4, (HUMAN, "easy", "medium", "hard")))),
        State("howto", "first-step", name, goto("howto")),
        State(games.get(GAME_NAME).play_screen, "shift-hint-4", name, board_shift((HUMAN, "medium", HUMAN, "hard"))),
        State(games.get(GAME_NAME).play_screen, "shift-hint-1", name, board_shift((HUMAN,))),
        State(games.get(GAME_NAME).play_screen, "open-cards-2", name, board_shift((HUMAN, "easy"), open_cards=True)),
        State(games.get(GAME_NAME).play_screen, "blocked-arrow", name, board_blocked, blocked_message),
        State(games.get(GAME_NAME).play_screen, "move-stay", name, board_move),
        State(games.get(GAME_NAME).play_screen, "walk-undo", name, board_walked),
        State(games.get(GAME_NAME).play_screen, "peek", name, board_peek),
        State(games.get(GAME_NAME).over_screen, "players-2", name, board_over(2)),
        State(games.get(GAME_NAME).over_screen, "players-4", name, board_over(4)),
    )
