"""Solo puzzles on the sliding-maze board (engine/puzzles), declared once for the kiosk.

The board, the spare and a target are set; the player reaches the target in as
few turns as possible (a turn: push, then walk) and earns stars for matching
the optimum the exhaustive search found. The puzzles play on the board game's
engine, session and screens (engine.puzzles.BUILDS_ON says so to the import
contract): this folder adds the puzzle's session (session.py), its messages
(events.py), its pack (pack.py, pack.json), its screens and its text board.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Sequence

from engine.puzzles import LEVELS, NAME
from engine.labyrinth.tiles import TREASURES

from kiosk.games import HUMAN, GameType, ScriptWords, SessionOptions, register_game
from kiosk.games.puzzles import script

if TYPE_CHECKING:  # pragma: no cover
    from engine.puzzles import PuzzleGame
    from kiosk.games.puzzles.session import PuzzleSession
    from kiosk.ui.audit.layout import State


def _load(data: Any) -> "PuzzleGame":
    from engine.puzzles import PuzzleGame

    return PuzzleGame.from_dict(data)


def _new(players: int, seed: int | None, turn_limit: int) -> "PuzzleGame":
    from engine.puzzles import new

    return new(players, seed, turn_limit)


def _session(opts: SessionOptions) -> "PuzzleSession":
    from kiosk.games.labyrinth import board_session
    from kiosk.games.puzzles.session import PuzzleSession

    session: PuzzleSession = board_session(PuzzleSession, opts)
    return session


def _variant(game: Any) -> tuple[str, ...]:
    """The history's mode words for a puzzle: its grade (the stars are its score, ``_score``)."""
    puzzle = getattr(game, "puzzle", None)
    return () if puzzle is None else (f"grade-{puzzle.grade}",)


def _score(game: Any) -> int | None:
    """The history's score of a finished puzzle: its stars (0 to 3)."""
    stars: int | None = game.stars if getattr(game, "puzzle", None) is not None and game.outcome is not None else None
    return stars


def _screens() -> dict[str, type]:
    from kiosk.games.puzzles.screens.over import PuzzleOverScreen
    from kiosk.games.puzzles.screens.play import PuzzlePlayScreen

    return {"puzzle_play": PuzzlePlayScreen, "puzzle_over": PuzzleOverScreen}


def _setup_panel() -> type:
    from kiosk.games.puzzles.screens.setup_panel import PuzzleSetup

    return PuzzleSetup


def _text_board(state: Any) -> str:
    from kiosk.games.puzzles.text_board import puzzle_board

    return puzzle_board(state)


def _audit() -> "Sequence[State]":
    from kiosk.games.puzzles.screens.audit import states

    return states()


GAME = register_game(
    GameType(
        name=NAME,
        title="puzzles",
        title_key="setup.puzzles",
        order=2,
        players=(1, 1),
        ai_levels=LEVELS,
        load=_load,
        new=_new,
        session=_session,
        events="kiosk.games.puzzles.events",
        default_seats=(HUMAN,),
        script=ScriptWords(script.VERBS, script.USAGE, script.parse_words, script.play, script.lines),
        mode_words=_variant,
        score=_score,
        screens=_screens,
        setup_panel=_setup_panel,
        play_screen="puzzle_play",
        over_screen="puzzle_over",
        howto_screen="howto",
        audit=_audit,
        theme_kinds={"board": tuple(TREASURES)},
        text_board=_text_board,
    )
)
