"""The parts a board game's state is made of: its fixed facts, its rule switches, a player.

Apart from engine/labyrinth/game.py so that the save loader (validate.py) builds
players and rules without importing the game it loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.labyrinth.maze import CELLS
from engine.labyrinth.tiles import SEATS, TREASURES
from engine.outcome import GAME_OVER, check_turn_limit

#: 2 added the turn limit to the rules and the outcome; version 1 saves still load.
FORMAT_VERSION = 2
GAME_NAME = "labyrinth"
#: Fewest and most players: solo to one pawn per corner (docs/rules.md section 1).
MIN_PLAYERS, MAX_PLAYERS = 1, 4


class Phase(StrEnum):
    """The phases of a turn, and the end. A StrEnum: saves and comparisons keep the plain words."""

    SHIFT = "shift"
    MOVE = "move"
    OVER = GAME_OVER


PHASES = tuple(p.value for p in Phase)  # the plain words, as saves hold them


@dataclass(frozen=True)
class Rules:
    """Variants from the 'younger children' section of the rulebooks (both may be combined),
    and the kiosk's turn limit (docs/rules.md sections 1 and 3)."""

    open_cards: bool = False  # players see all their cards; any remaining treasure collects
    return_home: bool = True  # False: a player wins the moment their last card is collected
    turn_limit: int = 0  # >0: the game ends when this many turns are played; most treasures wins
    #: treasures dealt to each player (the quick game, docs/rules.md section 1); 0: the whole deck
    #: shared out, as the classic rules deal it
    treasures: int = 0

    def __post_init__(self) -> None:
        check_turn_limit(self.turn_limit)
        t = self.treasures
        if isinstance(t, bool) or not isinstance(t, int) or not 0 <= t <= len(TREASURES):
            raise ValueError(f"treasures per player must be a whole number 0-{len(TREASURES)}, not {t!r}")

    def per_player(self, players: int) -> int:
        """How many treasure cards each of `players` is dealt."""
        share = len(TREASURES) // players
        return min(share, self.treasures) if self.treasures else share

    def to_dict(self) -> dict[str, bool | int]:
        """As saves hold them; ``treasures`` only when a quick game deals fewer (classic saves unchanged)."""
        out: dict[str, bool | int] = {
            "open_cards": self.open_cards,
            "return_home": self.return_home,
            "turn_limit": self.turn_limit,
        }
        if self.treasures:
            out["treasures"] = self.treasures
        return out


class Player:
    """One pawn and its pile of treasure cards (top card first)."""

    __slots__ = ("seat", "color", "home", "cell", "cards", "found")

    def __init__(self, seat: int, cell: int, cards: list[str], found: list[str]):
        self.seat = seat
        self.color, self.home = SEATS[seat]
        self.cell = cell  # cell index r * 7 + c
        self.cards = cards  # remaining cards, the top card (the target) first
        self.found = found  # collected treasures, in order

    @property
    def position(self) -> tuple[int, int]:
        return CELLS[self.cell]

    @property
    def target(self) -> str | None:
        """The top card of the pile, or None when all cards are collected (heading home)."""
        return self.cards[0] if self.cards else None

    @property
    def cards_left(self) -> int:
        return len(self.cards)

    def copy(self) -> "Player":
        new = Player.__new__(Player)
        new.seat, new.color, new.home, new.cell = self.seat, self.color, self.home, self.cell
        new.cards = self.cards[:]
        new.found = self.found[:]
        return new

    def __repr__(self) -> str:
        return f"Player({self.color} at {self.position}, target={self.target}, left={self.cards_left})"
