"""The race's rules: a pure, seeded state with the engine's contract (engine.GameState)."""

from __future__ import annotations

import random
from typing import Any

from engine.errors import IllegalAction, InvalidState
from engine.outcome import Outcome, Termination, most

NAME = "race"
GOAL = 12
PLAYERS = (2, 3)


class Race:
    """The race's whole state: positions, whose turn, how many turns, how it ended."""

    def __init__(self, players: int, seed: int | None, first: int = 0, turn_limit: int = 0) -> None:
        self.positions = [0] * players
        self.seed = seed
        self.current = first
        self.turns = 0
        self.turn_limit = turn_limit
        self.outcome: Outcome | None = None

    @classmethod
    def new(cls, players: int, seed: int | None, first: int = 0, turn_limit: int = 0) -> "Race":
        if not PLAYERS[0] <= players <= PLAYERS[1]:
            raise ValueError(f"a race has 2 or 3 players, not {players}")
        return cls(players, seed, first, turn_limit)

    @property
    def num_players(self) -> int:
        return len(self.positions)

    @property
    def phase(self) -> str:
        return "over" if self.outcome else "roll"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.outcome.winners if self.outcome else ()

    def legal_actions(self) -> list[str]:
        return [] if self.outcome else ["roll"]

    def die(self) -> int:
        """The next roll: the same seed and turn give the same roll (a resumed game rolls on unchanged)."""
        return random.Random(f"{self.seed}:{self.turns}").randint(1, 6)

    def apply(self, action: str) -> int:
        if self.outcome is not None:
            raise IllegalAction("The race is over.")
        if action != "roll":
            raise IllegalAction(f"{action!r} is not a move of the race: roll.")
        rolled = self.die()
        self.positions[self.current] += rolled
        self.turns += 1
        if self.positions[self.current] >= GOAL:
            self.outcome = Outcome(Termination.WON, (self.current,))
        elif self.turn_limit and self.turns >= self.turn_limit:
            self.outcome = Outcome(Termination.TURN_LIMIT, most(self.positions))
        else:
            self.current = (self.current + 1) % self.num_players
        return rolled

    def copy(self) -> "Race":
        """An independent copy (the kiosk's record keeps one)."""
        return Race.from_dict(self.to_dict())

    def to_dict(self) -> dict:
        return {
            "game": NAME,
            "version": 1,
            "seed": self.seed,
            "positions": list(self.positions),
            "current": self.current,
            "turns": self.turns,
            "turn_limit": self.turn_limit,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Race":
        if not isinstance(data, dict) or data.get("game") != NAME or data.get("version") != 1:
            raise InvalidState("not a race save")
        race = cls(len(data["positions"]), data["seed"], data["current"], data["turn_limit"])
        race.positions, race.turns = list(data["positions"]), data["turns"]
        race.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        return race
