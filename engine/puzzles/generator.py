"""Puzzles made from a seed: a board, a start corner and a target, graded by the exhaustive search.

``generate(seed)`` always gives the same puzzle for the same seed (and grade): it
deals boards from ``random.Random(f"puzzles:{seed}")`` and keeps the first whose
optimum (engine.puzzles.solver) is 1 to MAX_DEPTH turns and whose grade fits.

The grade: the optimum, and how many first shifts keep it in reach (a puzzle
where most shifts lead on is easier than one where only one or two do).
"""

from __future__ import annotations

import datetime
import random
from dataclasses import dataclass
from typing import Any

from engine.checks import need
from engine.labyrinth.game import Game
from engine.labyrinth.tiles import TREASURES
from engine.puzzles.solver import MAX_DEPTH, Search, position, shifts

#: The grades, easiest first (the setup's choice, the pack's groups, the statistics' rows).
GRADES = ("easy", "medium", "hard")
#: Below this share of first shifts that keep the optimum, a puzzle counts one grade harder.
NARROW_SHARE = 0.25
#: How many boards generate() deals before it gives up on a grade (it needs a handful).
TRIES = 400
#: The puzzle of the day's grade by weekday (Monday first): easy early in the week, hard at the weekend.
DAILY_GRADES = ("easy", "easy", "medium", "medium", "medium", "hard", "hard")


def grade_of(optimum: int, good: int, total: int) -> str:
    """easy / medium / hard from the optimum and the first shifts that keep it (of `total`).

    Most boards reach a random target in one or two turns (three in about one in 25), so
    the share of first shifts that lead on splits them: one turn with many ways is easy,
    two turns with few ways (or three turns) is hard.
    """
    narrow = good < NARROW_SHARE * total
    if optimum >= 3 or (optimum == 2 and narrow):
        return "hard"
    if optimum == 2 or narrow:
        return "medium"
    return "easy"


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: how to set its board up, where the pawn starts, what it looks for, its grade."""

    seed: int  # the generator's seed: the puzzle's number
    board_seed: int  # engine.labyrinth.Game.new(players=1, seed=board_seed, seats=[seat])
    seat: int  # the start corner, 0-3 clockwise from the top left
    target: str  # the treasure to reach
    optimum: int  # the fewest turns that reach it
    good_first: int  # first shifts after which the optimum is still in reach
    first_shifts: int  # distinct first shifts in all
    grade: str

    @property
    def name(self) -> str:
        """How people and records call it: its grade and number."""
        return f"{self.grade}-{self.seed}"

    def board(self) -> Game:
        """The puzzle's start as a board game of one (every card dealt, the target on top)."""
        game = Game.new(players=1, seed=self.board_seed, seats=[self.seat])
        cards = game.players[0].cards
        cards.remove(self.target)
        cards.insert(0, self.target)
        return game

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "board_seed": self.board_seed,
            "seat": self.seat,
            "target": self.target,
            "optimum": self.optimum,
            "good_first": self.good_first,
            "first_shifts": self.first_shifts,
            "grade": self.grade,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Puzzle":
        """Read a puzzle back; InvalidState naming the problem."""
        need(isinstance(data, dict), "a puzzle must be a JSON object")
        fields = ("seed", "board_seed", "seat", "target", "optimum", "good_first", "first_shifts", "grade")
        missing = [f for f in fields if f not in data]
        need(not missing, f"the puzzle is missing {', '.join(missing)}")
        ints = ("seed", "board_seed", "seat", "optimum", "good_first", "first_shifts")
        need(
            all(isinstance(data[f], int) and not isinstance(data[f], bool) for f in ints),
            "puzzle numbers must be whole",
        )
        need(0 <= data["seat"] < 4, f"puzzle seat {data['seat']} is not a corner 0-3")
        need(data["target"] in TREASURES, f"unknown puzzle target {data['target']!r}")
        need(1 <= data["optimum"] <= MAX_DEPTH, f"a puzzle's optimum is 1 to {MAX_DEPTH} turns, not {data['optimum']}")
        need(0 < data["good_first"] <= data["first_shifts"], "a puzzle's good first shifts are some of its shifts")
        need(data["grade"] in GRADES, f"grade {data['grade']!r} is not one of {', '.join(GRADES)}")
        return cls(**{f: data[f] for f in fields})


def grade(board_seed: int, seat: int, target: str, seed: int = 0) -> Puzzle | None:
    """The puzzle of that board, corner and target, graded; None when it takes more than MAX_DEPTH turns."""
    game = Puzzle(seed, board_seed, seat, target, 1, 1, 1, "easy").board()
    if game.treasure_cell(target) == game.player.position:
        return None
    pos = position(game, target)
    search = Search()
    best = search.optimum(pos)
    if best is None:
        return None
    good = len(search.good_first_shifts(pos, best))
    total = len(shifts(pos))
    return Puzzle(seed, board_seed, seat, target, best, good, total, grade_of(best, good, total))


def generate(seed: int, grade_wanted: str | None = None) -> Puzzle:
    """The puzzle of `seed` (of grade `grade_wanted`, if given): the same seed, the same puzzle."""
    if grade_wanted is not None and grade_wanted not in GRADES:
        raise ValueError(f"grade {grade_wanted!r} is not one of {', '.join(GRADES)}")
    rng = random.Random(f"puzzles:{seed}:{grade_wanted or ''}")
    for _ in range(TRIES):
        board_seed, seat, target = rng.randrange(2**31), rng.randrange(4), rng.choice(TREASURES)
        found = grade(board_seed, seat, target, seed)
        if found is not None and grade_wanted in (None, found.grade):
            return found
    raise ValueError(f"no {grade_wanted or ''} puzzle found from seed {seed} in {TRIES} boards")


def daily(date: datetime.date) -> tuple[int, str]:
    """The puzzle of the day: its seed (the date's day number) and its grade (by weekday)."""
    return date.toordinal(), DAILY_GRADES[date.weekday()]
