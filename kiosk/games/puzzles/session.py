"""The puzzle session: the board game's session (the same turn flow, pacing, undo and saving)
playing a :class:`engine.puzzles.PuzzleGame`, with the puzzles' own commands, start and end.

Which puzzle: the setup's seed names one (the pack's puzzle of that seed, else the one
generated from it); with no seed, the first puzzle is the puzzle of the day and "Play
again" gives another of the same grade from the pack. The computer seat ("solver")
plays a shortest solution, found by the search on a worker thread.
"""

from __future__ import annotations

import datetime
import random
from typing import Any, Callable, ClassVar, Mapping

from engine.labyrinth.game import Game, Move, Shift
from engine.puzzles import LEVELS, NAME, Puzzle, PuzzleGame, best_turn

from kiosk.core.events import GameSetup, Message, SeatSetup
from kiosk.games import Moment
from kiosk.games.labyrinth.events import Commands, GameOver, PlayerInfo, tile_info
from kiosk.games.labyrinth.session import Pacing, Session
from kiosk.games.puzzles import pack
from kiosk.games.puzzles.events import PUZZLE_COMMANDS, PuzzleOver, PuzzleStarted


class Solver:
    """The computer seat and the hint: the next turn of a shortest solution."""

    def choose(self, game: Game) -> tuple[Shift, Move]:
        target = game.target if isinstance(game, PuzzleGame) else (game.player.target or "")
        return best_turn(game, target)


def solver_factory(level: str, seed: int | None) -> Solver:
    """Every level the board session asks for (its seats, its hint level) is the solver."""
    return Solver()


class PuzzleSession(Session):
    """Owns the running puzzle; the board game's commands and events, the puzzles' start and end."""

    game_name = NAME
    noun = "puzzle"
    ai_levels = LEVELS
    commands: ClassVar[Commands] = PUZZLE_COMMANDS

    def __init__(
        self,
        bus: Any,
        clock: Any = None,
        *,
        confirm_push: bool = True,
        pacing: Pacing | None = None,
        save: Callable[[Any, Moment], None] | None = None,
        executor: Any = None,
        today: Callable[[], datetime.date] = datetime.date.today,
    ) -> None:
        super().__init__(
            bus,
            clock,
            confirm_push=confirm_push,
            pacing=pacing,
            ai_factory=solver_factory,
            save=save,
            hint_level=LEVELS[0],
            executor=executor,
        )
        self.today = today
        self.grade: str | None = None  # the grade "Play again" keeps (None: the puzzle of the day next)
        self._rng = random.Random()

    @property
    def puzzle(self) -> PuzzleGame:
        game = self.running
        assert isinstance(game, PuzzleGame)
        return game

    def choose(self, seed: int | None) -> Puzzle:
        """The puzzle a setup with `seed` plays (see the module's docstring)."""
        if seed is not None:
            return pack.by_seed(seed)
        if self.grade is None:
            return pack.of_day(self.today())
        return pack.any_of(self.grade, self._rng)

    def is_daily(self, puzzle: Puzzle) -> bool:
        return puzzle == pack.of_day(self.today())

    # ------------------------------------------------------------ starting and stopping
    def start(self, setup: GameSetup) -> None:
        """Start the setup's puzzle (abandoning any running one)."""
        puzzle = self.choose(setup.seed)
        self.grade = puzzle.grade
        self._begin(PuzzleGame.start(puzzle, setup.turn_limit), setup)

    def resume(
        self,
        game: Game,
        kinds: tuple[str, ...] | list[str],
        *,
        game_id: str | None = None,
        started: float | None = None,
        hints: bool | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Continue a saved puzzle exactly where it stopped."""
        if not isinstance(game, PuzzleGame):
            raise ValueError("not a puzzle")
        if len(kinds) != 1:
            raise ValueError(f"{len(kinds)} seat kinds for a puzzle of one")
        saved_setup = (meta or {}).get("setup")
        if hints is None and isinstance(saved_setup, dict):
            hints = saved_setup.get("hints")
        setup = GameSetup(
            seats=(SeatSetup(kinds[0], game.players[0].seat),),
            seed=game.seed,
            hints=hints if isinstance(hints, bool) else None,
            turn_limit=game.rules.turn_limit,
            game=NAME,
        )
        self.grade = game.puzzle.grade
        self._continue(game, setup, game_id, started)

    def public_snapshot(self, resumed: bool = False) -> PuzzleStarted:
        g = self.puzzle
        p = g.players[0]
        board = tuple(tile_info(g.board[(r, c)]) for r in range(7) for c in range(7))
        return PuzzleStarted(
            g.seed,
            (PlayerInfo(0, p.seat, p.color, self.kinds[0], p.home, p.position, p.cards_left, tuple(p.found)),),
            board,
            tile_info(g.spare),
            g.current,
            g.phase,
            g.forbidden,
            g.turns,
            True,  # the target is no secret: the board's panel shows it
            False,  # and no way home follows it
            resumed,
            puzzle=g.puzzle.name,
            grade=g.puzzle.grade,
            target=g.target,
            optimum=g.puzzle.optimum,
            turn_limit=g.rules.turn_limit,
            daily=self.is_daily(g.puzzle),
        )

    def visible_cards(self, player: int) -> tuple[str, ...]:
        """The target: no secret in a puzzle."""
        g = self.game
        return (g.target,) if isinstance(g, PuzzleGame) and g.outcome is None else ()

    def _game_ended(self, over: Message) -> None:
        """The board session's GameOver, told as the puzzle's end: solved or not, the stars."""
        if isinstance(over, GameOver) and not isinstance(over, PuzzleOver):
            g = self.puzzle
            over = PuzzleOver(
                over.winners,
                over.turns,
                over.found,
                over.kinds,
                over.duration,
                over.termination,
                puzzle=g.puzzle.name,
                grade=g.puzzle.grade,
                optimum=g.puzzle.optimum,
                stars=g.stars,
                daily=self.is_daily(g.puzzle),
            )
        super()._game_ended(over)
