"""The board game's sound cues, and the board's animation times they follow.

The board view (screens/board.py) plays its animations one after the other:
the row slides in, then the pawn walks cell by cell, then the treasure-found
moment. The cues keep that rhythm (kiosk/sound keeps the timeline), so the
times are declared here, once, for both: the pawn's steps start when the row
has landed and the treasure's chime sounds when the pawn arrives.
"""

from __future__ import annotations

from typing import Any, Callable

from kiosk.core.events import IllegalInput
from kiosk.games.labyrinth.events import BoardShifted, PawnMoved, PreviewMoved, TreasureFound
from kiosk.sound import Cue

SLIDE_S = 0.30  # a row sliding in
WALK_STEP_S = 0.12  # the pawn walking one cell
FOUND_S = 1.3  # the treasure-found moment
ARRIVE_GAP_S = 0.25  # after the last step, a breath before the next cue (the pawn lands, then the chime)
#: refusals that mean "not this arrow": the blocked cue
BLOCKED_CODES = ("push_back", "push_refused")


def sounds() -> dict[type, Callable[[Any], Any]]:
    """{event class: event -> Cue or None} (``GameType.sounds``)."""

    def walk(ev: PawnMoved) -> Cue | None:
        steps = len(ev.path) - 1
        if steps <= 0:
            return None
        return Cue("step", repeat=steps, every=WALK_STEP_S, lasts=WALK_STEP_S * steps + ARRIVE_GAP_S)

    return {
        PreviewMoved: lambda ev: Cue("arrow", at_once=True) if ev.arrow is not None else None,
        IllegalInput: lambda ev: Cue("blocked", at_once=True) if ev.code in BLOCKED_CODES else None,
        BoardShifted: lambda ev: Cue("push", lasts=SLIDE_S),
        PawnMoved: walk,
        TreasureFound: lambda ev: Cue("treasure", lasts=FOUND_S),
    }
