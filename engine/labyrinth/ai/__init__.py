"""Computer players for the sliding-maze game, by level: random, easy, medium, hard, expert, fair.

    from engine.labyrinth.ai import make_ai
    ai = make_ai("hard", seed=1)
    shift, move = ai.choose(game)      # game in the shift phase
    game.apply(shift); game.apply(move)

Every level sees only what its player could know (see :mod:`engine.labyrinth.ai.base`),
and the same seed gives the same decisions. docs/ai.md explains the levels.
"""

from __future__ import annotations

from typing import Callable, TypedDict, Unpack

from engine.labyrinth.ai.base import AI, View
from engine.labyrinth.ai.greedy import EasyAI, MediumAI
from engine.labyrinth.ai.expert import ExpertAI
from engine.labyrinth.ai.fair import FairAI
from engine.labyrinth.ai.hard import HardAI
from engine.labyrinth.ai.random_player import RandomAI

LEVELS: dict[str, type[AI]] = {
    "random": RandomAI,
    "easy": EasyAI,
    "medium": MediumAI,
    "hard": HardAI,
    "expert": ExpertAI,
    "fair": FairAI,
}


class SearchOptions(TypedDict, total=False):
    """The options of the searching levels' constructors (HardAI and the levels built on it)."""

    budget: int
    clock: Callable[[], float] | None
    time_limit: float
    denial: float


def make_ai(level: str, seed: int | None = None, **options: Unpack[SearchOptions]) -> AI:
    """A computer player of the named level; `options` go to its constructor (e.g. HardAI's clock)."""
    try:
        # which options a level takes depends on the level: its constructor is called as found
        cls: Callable[..., AI] = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}; choose one of {', '.join(LEVELS)}") from None
    return cls(seed, **options)


__all__ = ["AI", "EasyAI", "ExpertAI", "FairAI", "HardAI", "LEVELS", "MediumAI", "RandomAI", "View", "make_ai"]
