"""The card game's sound cues: a card laid, cards taken, a refused lay or take.

"Your turn" and "game won" come from the life cycle every game shares
(kiosk/sound); here only what is the card game's own. A card laid pops in and
taken cards fade out on the play screen (screens/play.py); the next cue waits
for that, as the board game's cues wait for its animations.
"""

from __future__ import annotations

from typing import Any, Callable

from kiosk.core.events import IllegalInput
from kiosk.games.cards.events import CardLaid, CardsTaken
from kiosk.sound import Cue

LAY_S = 0.35  # the laid card's pop on the play screen
TAKE_S = 0.5  # the taken cards' fade
#: refusals of a lay or a take (the card does not fit there, those cards may not be taken): the blocked cue
BLOCKED_CODES = ("cell_taken", "not_next_to_layout", "no_opening_meets", "not_joined", "cannot_take")


def sounds() -> dict[type, Callable[[Any], Any]]:
    """{event class: event -> Cue or None} (``GameType.sounds``)."""

    return {
        CardLaid: lambda ev: Cue("lay", lasts=LAY_S),
        CardsTaken: lambda ev: Cue("take", lasts=TAKE_S) if ev.cards else None,
        IllegalInput: lambda ev: Cue("blocked", at_once=True) if ev.code in BLOCKED_CODES else None,
    }
