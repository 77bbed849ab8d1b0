"""Script lines for the card game (docs/headless.md), one input of a person per line.

    card K           # pick hand card K (0 = the first card, 1 = the second), as `slot` in the events
    rotate           # turn the picked card a quarter clockwise
    lay X Y          # lay the picked card, as turned, on cell (X, Y) of the layout (may be negative)
    take 17 23       # take exactly these joined cards (deck ids) ...
    take none        # ... or none of them
    discard K        # no card fits anywhere: discard hand card K
    ready            # the next person has the screen (the "Pass to ..." prompt)

``wait MS`` and ``button rotate`` / ``button stay`` are the kiosk's own lines
(kiosk/core/script.py, which reads these lines through :func:`parse_card_words`).
:func:`play` turns each line into the same commands the card screen posts.
"""

from __future__ import annotations

from typing import Any, Callable

from kiosk.core.script import whole_number
from kiosk.games.cards.events import (
    ConfirmTake,
    DiscardCard,
    HandOver,
    LayCard,
    RotateHandCard,
    SelectHandCard,
    ToggleTake,
)

#: The card game's script verbs (the kiosk's own and other games' are elsewhere).
CARD_VERBS = ("card", "rotate", "lay", "take", "discard", "ready")
USAGE = "card K, rotate, lay X Y, take ID... / take none, discard K, ready"


def parse_card_words(words: list[str], bad: Callable[[str], Exception]) -> tuple:
    """The arguments of a card-game line split into `words` (verb first); raises ``bad(why)``."""
    verb, rest = words[0].lower(), words[1:]

    def whole(word: str, what: str) -> int:
        number = whole_number(word, 6)
        if number is None:
            raise bad(f"{what} must be a whole number of at most 6 digits, not {word[:20]!r}")
        return number

    if verb in ("rotate", "ready"):
        if rest:
            raise bad(f"`{verb}` takes nothing after it")
        return ()
    if verb in ("card", "discard"):
        if len(rest) != 1:
            raise bad(f"write `{verb} K` with the hand position K (0 for the first card, 1 for the second)")
        slot = whole(rest[0], "the hand position")
        if slot < 0:
            raise bad("the hand position cannot be negative (0 is the first card)")
        return (slot,)
    if verb == "lay":
        if len(rest) != 2:
            raise bad("write `lay X Y` (a cell of the layout, x to the east, y to the south)")
        return ((whole(rest[0], "X"), whole(rest[1], "Y")),)
    if verb == "take":
        return (_cards_to_take(rest, bad, whole),)
    raise bad(f"{verb!r} is not a card-game input; use one of: {USAGE}")


def _cards_to_take(
    rest: list[str], bad: Callable[[str], Exception], whole: Callable[[str, str], int]
) -> tuple[int, ...]:
    """The deck ids after ``take`` (``take none``: no card)."""
    if not rest:
        raise bad("write `take ID ...` with the deck ids of the cards to take, or `take none`")
    if len(rest) == 1 and rest[0].lower() == "none":
        return ()
    cards = tuple(whole(w, "a card id") for w in rest)
    if len(set(cards)) != len(cards):
        raise bad("a card is named twice")
    return cards


def play(session: Any, verb: str, args: tuple) -> list:
    """The commands a card-game line posts (the same as the card screen's)."""
    if verb == "card":
        return [SelectHandCard(args[0], source="script")]
    if verb == "rotate":
        return [RotateHandCard(1, source="script")]
    if verb == "lay":
        return [LayCard(tuple(args[0]), source="script")]
    if verb == "take":
        # exactly the cards named: tick or untick only what differs from the ticks now, then confirm
        return [ToggleTake(card, source="script") for card in sorted(set(args[0]) ^ session.chosen)] + [
            ConfirmTake(source="script")
        ]
    if verb == "discard":
        return [DiscardCard(args[0], source="script")]
    return [HandOver(source="script")]


def lines(session: Any, action: Any) -> list[str]:
    """The lines a person types to play `action` (a Place, Take or Discard): the hand taken over
    if it is to be, the card picked and turned and laid, the cards taken, or the card discarded."""
    out = ["ready"] if session.handover else []
    hand = list(session.running.hand)
    if hasattr(action, "cell"):  # Place
        slot = hand.index(action.card)
        turned = session.rotation if session.selected == slot else 0
        if session.selected != slot:
            out.append(f"card {slot}")
        x, y = action.cell
        return out + ["rotate"] * ((action.rotation - turned) % 4) + [f"lay {x} {y}"]
    if hasattr(action, "cards"):  # Take
        return out + ["take " + (" ".join(map(str, sorted(action.cards))) or "none")]
    return out + [f"discard {hand.index(action.card)}"]
