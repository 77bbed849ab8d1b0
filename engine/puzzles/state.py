"""A puzzle being played: the board game of one pawn, won by ending a walk on the target.

:class:`PuzzleGame` is an :class:`engine.labyrinth.Game` (the same shifts, walks,
board and no-push-back rule, so the board game's views and session play it) with
its own end: the target reached (``Termination.WON``, the player wins), or the
puzzle's turns used up (``Termination.TURN_LIMIT``, nobody wins). It keeps the
engine's contract (engine.GameState) and saves as ``"game": "puzzles"``: the
puzzle, and the position as the board game saves it (checked by its loader).
"""

from __future__ import annotations

from typing import Any

from engine.checks import check_header, need, read_outcome
from engine.labyrinth.game import Game
from engine.labyrinth.parts import Phase, Player, Rules
from engine.outcome import Termination
from engine.labyrinth.tiles import TREASURES
from engine.puzzles.generator import Puzzle, generate

NAME = "puzzles"
FORMAT_VERSION = 1
#: Turns a puzzle allows when the setup sets no turn limit: then it ends unsolved.
TURN_CAP = 12
#: Stars for solving in the optimum, in one turn more, and in any number of turns.
STARS_OPTIMAL, STARS_ONE_MORE, STARS_SOLVED = 3, 2, 1


def stars(optimum: int, turns: int, solved: bool) -> int:
    """3 for the fewest turns, 2 for one more, 1 for solving at all, 0 for not solving."""
    if not solved:
        return 0
    if turns <= optimum:
        return STARS_OPTIMAL
    return STARS_ONE_MORE if turns == optimum + 1 else STARS_SOLVED


class PuzzleGame(Game):
    """A puzzle in play. Create with :meth:`start` or :meth:`from_dict`."""

    __slots__ = ("puzzle",)
    puzzle: Puzzle

    @classmethod
    def start(cls, puzzle: Puzzle, turn_limit: int = 0) -> "PuzzleGame":
        """The puzzle's start; `turn_limit` 0: TURN_CAP turns to solve it."""
        board = puzzle.board()
        game = cls.__new__(cls)
        for slot in Game.__slots__:
            setattr(game, slot, getattr(board, slot))
        game.rules = Rules(turn_limit=turn_limit or TURN_CAP)
        game.players[0].cards = [puzzle.target]  # the one card that counts
        game.seed = puzzle.seed
        game.puzzle = puzzle
        return game

    @property
    def target(self) -> str:
        return self.puzzle.target

    @property
    def solved(self) -> bool:
        return self.outcome is not None and self.outcome.termination is Termination.WON

    @property
    def stars(self) -> int:
        """The stars earned (0 while running or when the turns ran out)."""
        return stars(self.puzzle.optimum, self.turns, self.solved)

    def _end_move(self, p: Player) -> None:
        """Ending a walk on the target solves the puzzle; the last allowed turn without it ends it."""
        here = self.maze.treasures[p.cell]
        if here >= 0 and TREASURES[here] == self.target and self.target in p.cards:
            p.cards.remove(self.target)
            p.found.append(self.target)
            return self._finish(Termination.WON, (self.current,))
        if self.turns + 1 >= self.rules.turn_limit:
            return self._finish(Termination.TURN_LIMIT, ())
        self.turns += 1
        self.phase = Phase.SHIFT

    def copy(self) -> "PuzzleGame":
        new = PuzzleGame.__new__(PuzzleGame)
        board = Game.copy(self)
        for slot in Game.__slots__:
            setattr(new, slot, getattr(board, slot))
        new.puzzle = self.puzzle
        return new

    def to_dict(self) -> dict[str, Any]:
        position = Game.to_dict(self)
        position["phase"] = Phase.SHIFT if self.phase == Phase.OVER else self.phase
        position["outcome"] = None
        position["turns"] = self.turns - 1 if self.phase == Phase.OVER else self.turns
        # the board's loader wants every card dealt: the rest of the pile follows the target, in order
        player = position["players"][0]
        player["cards"] = player["cards"] + [t for t in TREASURES if t != self.target]
        return {
            "game": NAME,
            "version": FORMAT_VERSION,
            "seed": self.seed,
            "puzzle": self.puzzle.to_dict(),
            "position": position,
            "phase": self.phase,
            "turns": self.turns,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Any) -> "PuzzleGame":
        """Restore a save; InvalidState naming the problem (the position is checked as a board game's)."""
        check_header(data, NAME, FORMAT_VERSION, ("puzzle", "position", "phase", "turns", "outcome"), what="puzzle")
        puzzle = Puzzle.from_dict(data["puzzle"])
        need(isinstance(data["position"], dict), "the puzzle's position must be a saved board")
        board = Game.from_dict(data["position"])
        need(board.num_players == 1, "a puzzle has one player")
        need(
            board.players[0].cards[:1] == [puzzle.target] or board.players[0].found == [puzzle.target],
            f"the puzzle's player must be looking for the {puzzle.target}",
        )
        need(board.rules.turn_limit > 0, "a puzzle has a turn limit")
        over = data["phase"] == Phase.OVER
        need(over or data["phase"] == board.phase, "the puzzle's phase must be its position's, or over")
        need(data["turns"] == board.turns + (1 if over else 0), "the puzzle's turns do not match its position")
        outcome = read_outcome(data, over, 1)
        found = board.players[0].found == [puzzle.target]
        if outcome is not None:
            if outcome.termination is Termination.WON:
                need(found and outcome.winners == (0,), "a solved puzzle has its target found by its player")
            else:
                need(
                    outcome.termination is Termination.TURN_LIMIT, f"a puzzle cannot end by {outcome.termination.value}"
                )
                need(not found and outcome.winners == (), "a puzzle out of turns is not solved")
                need(data["turns"] >= board.rules.turn_limit, "a puzzle out of turns has played its turns")
        else:
            need(not found, "a running puzzle has not found its target yet")
        game = cls.__new__(cls)
        for slot in Game.__slots__:
            setattr(game, slot, getattr(board, slot))
        game.puzzle = puzzle
        game.players[0].cards = [] if found else [puzzle.target]
        game.seed = puzzle.seed
        game.phase = Phase.OVER if over else board.phase
        game.turns = data["turns"]
        game.outcome = outcome
        return game

    def __repr__(self) -> str:
        return f"<PuzzleGame {self.puzzle.name} turn {self.turns} {self.phase} stars={self.stars}>"


def new(players: int, seed: int | None, turn_limit: int = 0) -> PuzzleGame:
    """A fresh puzzle from `seed` (the registry's ``new``; one player)."""
    if players != 1:
        raise ValueError(f"a puzzle has one player, not {players}")
    return PuzzleGame.start(generate(seed if seed is not None else 0), turn_limit)


__all__ = ["FORMAT_VERSION", "NAME", "PuzzleGame", "TURN_CAP", "new", "stars"]
