"""The card game's fixed facts and its rule switches.

Apart from engine/cards/game.py so that the save loader (validate.py) builds
the rules without importing the game it loads.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engine.outcome import GAME_OVER, check_turn_limit

#: 2 added the turn limit to the rules and saves "outcome" instead of an "end" sentence;
#: version 1 saves still load.
FORMAT_VERSION = 2
GAME_NAME = "cards"


class CardPhase(StrEnum):
    """The phases of a turn, and the end. A StrEnum: saves and comparisons keep the plain words."""

    PLACE = "place"
    TAKE = "take"
    DISCARD = "discard"
    OVER = GAME_OVER


PHASES = tuple(p.value for p in CardPhase)  # the plain words, as saves hold them
HAND_SIZE = 2
MIN_PLAYERS, MAX_PLAYERS = 2, 6
#: The 2 x 2 starting square, in dealing order.
START_CELLS = ((0, 0), (1, 0), (0, 1), (1, 1))


@dataclass(frozen=True)
class CardRules:
    """Options. The defaults are docs/rules.md section 2.

    ``keep_connected``: besides "every card left touches another along a full
    side", also require the cards left to stay one group (the stricter reading
    of the original text; off by default, see docs/card-game.md).
    ``turn_limit``: >0 ends the game when that many turns are played, scored as
    usual (docs/rules.md section 3).
    """

    keep_connected: bool = False
    turn_limit: int = 0

    def __post_init__(self) -> None:
        check_turn_limit(self.turn_limit)

    def to_dict(self) -> dict[str, bool | int]:
        return {"keep_connected": self.keep_connected, "turn_limit": self.turn_limit}
