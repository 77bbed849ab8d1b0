"""The puzzles' screens in the layout audit (kiosk/ui/audit/layout.py): the states it walks.

Each state brings a real kiosk there through the puzzles' own commands (a new
puzzle, an arrow pressed twice) and then opens the screen: a puzzle to push in,
the walk after a push, and the result with three, one and no stars.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.outcome import Termination
from engine.puzzles import NAME

from kiosk import games
from kiosk.core.events import GameSetup, NewGame, SeatSetup
from kiosk.games import HUMAN
from kiosk.ui.audit.layout import Env, State, setup_state

#: The pack's puzzle the audit plays (an easy one: the target in reach after one push).
AUDIT_SEED = 1000


def _puzzle(env: Env) -> Any:
    env.post(NewGame(GameSetup(seats=(SeatSetup(HUMAN),), seed=AUDIT_SEED, game=NAME)))
    return env.kiosk.sessions[NAME]


def _play(env: Env) -> Any:
    screen: Any = env.ui.goto(games.get(NAME).play_screen)
    screen.toast, screen.toast_until = "", 0.0
    screen._refresh_panels()
    return screen


def puzzle_shift(env: Env) -> None:
    _puzzle(env)
    _play(env)


def puzzle_move(env: Env) -> None:
    """After a push: the walk's lit cells and the stay button."""
    from kiosk.games.puzzles.events import PuzzleSelectArrow

    _puzzle(env)
    env.post(PuzzleSelectArrow("W3"))
    env.post(PuzzleSelectArrow("W3"))
    _play(env)


def puzzle_over(stars: int) -> Callable[[Env], None]:
    def prepare(env: Env) -> None:
        from kiosk.games.puzzles.events import PuzzleOver

        solved = stars > 0
        turns = (12, 4, 3, 2)[stars]
        ev = PuzzleOver(
            (0,) if solved else (),
            turns,
            (("owl",),) if solved else ((),),
            (HUMAN,),
            termination=Termination.WON if solved else Termination.TURN_LIMIT,
            puzzle="hard-3",
            grade="hard",
            optimum=2,
            stars=stars,
        )
        env.ui.goto(games.get(NAME).over_screen, event=ev)

    return prepare


def _mode(mode: str) -> Callable[[Any], None]:
    def choose(c: Any) -> None:
        c.mode = mode

    return choose


def states() -> tuple[State, ...]:
    """The puzzles' screens in the states the audit measures."""
    play, over = games.get(NAME).play_screen, games.get(NAME).over_screen
    return (
        State("setup", "puzzles-daily", NAME, setup_state(NAME, _mode("daily"))),
        State("setup", "puzzles-hard", NAME, setup_state(NAME, _mode("hard"))),
        State(play, "puzzle-shift", NAME, puzzle_shift),
        State(play, "puzzle-move", NAME, puzzle_move),
        State(over, "stars-3", NAME, puzzle_over(3)),
        State(over, "stars-1", NAME, puzzle_over(1)),
        State(over, "not-solved", NAME, puzzle_over(0)),
    )
