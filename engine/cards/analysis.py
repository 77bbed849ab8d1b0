"""Turns worth a second look in a record of the card game (``labyrinth-replay --analyze``).

One kind of mark, ``missed-take``: the player took fewer cards than the best
legal placement of a hand card (and the best legal choice of cards with it)
would have given.

Pure: records in, marks out.
"""

from __future__ import annotations

from engine.cards.game import CardGame, Place, Take
from engine.cards.parts import CardPhase
from engine.cards.paths import Survey
from engine.cards.record import KIND, card_name, player_name, turn_text
from engine.records.analysis import Mark, started
from engine.records.notation import Record

MISSED_TAKE = "missed-take"


def analyze(record: Record, level: str | None = None) -> list[Mark]:
    """``missed-take`` marks: turns that took fewer cards than the best placement allowed.

    `level` is not used: the best placement is found by trying every one.
    """
    if record.kind != KIND:
        raise ValueError(f"no card-game analysis for records of {record.kind!r}")

    marks = []
    state = started(record, CardGame)
    for turn in record.turns:
        before = state.copy()
        for action in turn.actions:
            state.apply(action)
        if not isinstance(turn.actions[0], Place):
            continue
        took = sum(len(a.cards) for a in turn.actions if isinstance(a, Take))
        best, example = took, None
        survey = Survey(before.layout)  # one survey answers every placement of this turn
        for place in before.legal_placements():
            joined = survey.matches(place.card, place.rotation, place.cell)
            if sum(len(cards) for cards in joined.values()) <= best:
                continue  # cannot beat the best so far even if every joined card may go
            trial = before.copy()
            trial.apply(place)
            takes = trial.legal_takes() if trial.phase == CardPhase.TAKE else []
            most = max((len(t.cards) for t in takes), default=0)
            if most > best:
                best = most
                chosen = max(takes, key=lambda t: len(t.cards))
                example = f"{card_name(place.card)} r{place.rotation} {place.cell[0]},{place.cell[1]}" + (
                    " take " + " ".join(card_name(c) for c in sorted(chosen.cards))
                )
        if example is not None:
            name = player_name(before, turn.player)
            played = turn_text(before, turn.actions, state)
            marks.append(
                Mark(
                    turn.number,
                    name,
                    MISSED_TAKE,
                    f"{name} took {took} card{'s' if took != 1 else ''} with {played}; {example} takes {best}",
                    played,
                    example,
                    {"took": took, "best": best},
                )
            )
    return marks
