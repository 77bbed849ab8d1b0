"""How a game ended, the same shape for every game (in the spirit of python-chess).

A running game's ``outcome`` is None; a finished game's is an :class:`Outcome`:
why it ended (a :class:`Termination`) and who won (seat indexes, ties share).
Consumers that do not know the game (history, ring, headless log) read only
this, never a sentence.

>>> Outcome(Termination.TURN_LIMIT, (0, 2)).winner is None   # a shared win
True
>>> Outcome.from_dict(Outcome(Termination.HOME, (1,)).to_dict())
Outcome(termination=<Termination.HOME: 'home'>, winners=(1,))
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, Sequence

from engine.errors import InvalidState


#: The phase every finished game is in, whatever the game (its other phases are its own).
GAME_OVER = "over"


class Termination(enum.Enum):
    """Why a game ended. The values are stable: saves and the history store them."""

    #: Board game: a player collected every card and came home (or, with the
    #: "no return home" variant, collected the last card). docs/rules.md 1.
    HOME = "home"
    #: Card game: every hand is empty; most cards taken wins. docs/rules.md 2.
    CARDS_PLAYED = "cards_played"
    #: Card game: a full round passed in which no card could be laid. docs/rules.md 2.
    BLOCKED = "blocked"
    #: Any game: the number of turns played reached the kiosk's turn limit. docs/rules.md 3.
    TURN_LIMIT = "turn_limit"
    #: A game outside the two rulebooks (a plug-in game) ended by its own rule.
    WON = "won"


@dataclass(frozen=True)
class Outcome:
    """Why a game ended and who won (seat indexes in playing order; several = a shared win)."""

    termination: Termination
    winners: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The single winner, or None when the win is shared (or nobody won)."""
        return self.winners[0] if len(self.winners) == 1 else None

    def to_dict(self) -> dict[str, Any]:
        return {"termination": self.termination.value, "winners": list(self.winners)}

    @classmethod
    def from_dict(cls, data: Any) -> "Outcome":
        """Read a saved outcome; InvalidState names what is wrong."""
        if not isinstance(data, dict) or set(data) != {"termination", "winners"}:
            raise InvalidState("outcome must be {termination, winners}")
        try:
            termination = Termination(data["termination"])
        except ValueError:
            raise InvalidState(f"unknown termination {data['termination']!r}") from None
        winners = data["winners"]
        if not (isinstance(winners, list) and all(isinstance(w, int) and not isinstance(w, bool) for w in winners)):
            raise InvalidState("outcome winners must be a list of seat numbers")
        return cls(termination, tuple(winners))


def most(scores: Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest score (ties share the win).

    >>> most([3, 5, 5, 1])
    (1, 2)
    """
    best = max(scores)
    return tuple(i for i, s in enumerate(scores) if s == best)


def check_turn_limit(value: Any) -> int:
    """A turn limit is a whole number >= 0 (0: no limit); ValueError otherwise."""
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise ValueError(f"turn_limit must be a whole number >= 0 (0: no limit), not {value!r}")
    return value
