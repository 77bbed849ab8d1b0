"""Turn lines of the travel card game: ``7. p2 lamp-leaf r1 2,-1 take horn-key fish-leaf``.

A card is named by its two treasures (no two cards carry the same pair), in
the deck's order (either order is read). After the card: its rotation in
clockwise quarter turns (``r0``-``r3``), the cell ``x,y`` it was laid on (x
grows east, y south; the start square is 0,0 to 1,1), and, when the player
took cards, ``take`` and the cards taken. A player who could lay nothing
writes ``discard`` and the card. Players are ``p1``..``p6`` in seat order.
"""

from __future__ import annotations

import sys

from engine.cards.deck import CARDS
from engine.cards.game import Action, CardGame, Discard, Place, Take
from engine.cards.parts import CardPhase, CardRules
from engine.records.notation import (
    NOBODY,
    UNFINISHED,
    add_start_tags,
    end_words,
    register_codec,
    seed_of,
    start_position,
)

KIND = "cards"
TAKE, DISCARD = "take", "discard"
BEGUN = "-"  # in place of the card laid in a turn begun before the record began
_BY_NAME = {}
for _card in CARDS:
    a, b = _card.names
    _BY_NAME[f"{a}-{b}"] = _BY_NAME[f"{b}-{a}"] = _card.id


def card_name(card: int) -> str:
    return "-".join(CARDS[card].names)


def card_id(word: str) -> int:
    try:
        return _BY_NAME[word]
    except KeyError:
        raise ValueError(f"{word!r} is not a card: name it by its two treasures, e.g. {card_name(0)}") from None


def player_count(state: CardGame) -> int:
    return state.players


def player_name(state: CardGame, index: int) -> str:
    return f"p{index + 1}"


def start_tags(state: CardGame) -> dict[str, str]:
    tags = {"Rules": "keep-connected" if state.rules.keep_connected else "classic"}
    if state.rules.turn_limit:
        tags["TurnLimit"] = str(state.rules.turn_limit)
    tags["First"] = player_name(state, state.current)
    add_start_tags(tags, state, mid_turn=state.phase == CardPhase.TAKE)  # the card laid is not in the record
    return tags


def start(tags: dict[str, str]) -> CardGame:
    saved = start_position(tags)
    if saved is not None:
        return CardGame.from_dict(saved)
    names = [part.partition(":")[0] for part in tags.get("Players", "").split()]
    if not names:
        raise ValueError("no Players tag: who played is unknown")
    expected = [f"p{i + 1}" for i in range(len(names))]
    if names != expected:
        raise ValueError(f"card game players are {' '.join(expected)} in seat order, not {' '.join(names)}")
    first = tags.get("First", "p1")
    if first not in names:
        raise ValueError(f"First names {first!r}, who is not playing")
    words = set(tags.get("Rules", "classic").split()) - {"classic"}
    if words - {"keep-connected"}:
        raise ValueError(f"unknown rule {sorted(words - {'keep-connected'})[0]!r} (known: classic, keep-connected)")
    limit = tags.get("TurnLimit", "0")
    if not limit.isdigit():
        raise ValueError(f"TurnLimit {limit!r} is not a whole number")
    rules = CardRules(keep_connected="keep-connected" in words, turn_limit=int(limit))
    return CardGame.new(players=len(names), seed=seed_of(tags), rules=rules, first=names.index(first))


def result_tags(state: CardGame) -> dict[str, str]:
    if state.phase != CardPhase.OVER:
        return {"Result": UNFINISHED}
    won = state.winners
    return {"Result": " ".join(player_name(state, i) for i in won) or NOBODY, "End": end_words(state, "over")}


def turn_text(before: CardGame, actions: tuple[Action, ...], after: CardGame) -> str:
    first = actions[0]
    if isinstance(first, Discard):
        return f"{DISCARD} {card_name(first.card)}"
    if isinstance(first, Take):
        words = [BEGUN]
    else:
        x, y = first.cell
        words = [card_name(first.card), f"r{first.rotation}", f"{x},{y}"]
    for action in actions[(0 if isinstance(first, Take) else 1) :]:
        if isinstance(action, Take) and action.cards:
            words.append(TAKE)
            words += [card_name(c) for c in sorted(action.cards)]
    return " ".join(words)


def _cell(word: str) -> tuple[int, int]:
    x, sep, y = word.partition(",")
    try:
        if sep:
            return int(x), int(y)
    except ValueError:
        pass
    raise ValueError(f"{word!r} is not a cell: write x,y (for example 2,-1)")


def play_turn(state: CardGame, words: list[str]) -> list[Action]:
    """Apply one turn line's actions to `state`; raises ValueError saying what is wrong."""
    if not words:
        raise ValueError("an empty turn: write the card, its rotation and its cell, or 'discard' and a card")
    if words[0] == BEGUN and state.phase == CardPhase.TAKE:
        if words[1:2] not in ([], [TAKE]):
            raise ValueError("after '-' only 'take' and the cards taken may follow")
        take = Take(card_id(w) for w in words[2:])
        state.apply(take)
        return [take]
    if words[0] == DISCARD:
        if len(words) != 2:
            raise ValueError("'discard' is followed by exactly one card")
        discard = Discard(card_id(words[1]))
        state.apply(discard)
        return [discard]
    if len(words) < 3:
        raise ValueError("a turn needs a card, its rotation and a cell, e.g. 'lamp-leaf r1 2,-1'")
    card, rot, where, *rest = words
    if len(rot) != 2 or rot[0] != "r" or rot[1] not in "0123":
        raise ValueError(f"{rot!r} is not a rotation: write r0, r1, r2 or r3")
    place = Place(card_id(card), int(rot[1]), _cell(where))
    state.apply(place)
    actions: list[Action] = [place]
    if rest and rest[0] != TAKE:
        raise ValueError(f"{rest[0]!r}: after the cell only 'take' and the cards taken may follow")
    taken = frozenset(card_id(w) for w in rest[1:])
    if rest and not taken:
        raise ValueError("'take' names no cards")
    if state.phase == CardPhase.TAKE:
        take = Take(taken)
        state.apply(take)
        actions.append(take)
    elif taken:
        raise ValueError("no card could be taken after that card was laid")
    return actions


def infer_action(before: CardGame, after: CardGame) -> Place | Take | Discard | None:
    """The one action that took the game from `before` to `after` (None if it cannot be told).

    How the kiosk's record catches up with a save written one action ahead of it.
    """
    if before.phase == CardPhase.PLACE:
        new = [cell for cell in after.layout if cell not in before.layout]
        if len(new) != 1:
            return None
        placed = after.layout[new[0]]
        return Place(placed.card, placed.rotation, new[0])
    if before.phase == CardPhase.TAKE:
        kept = {p.card for p in after.layout.values()}
        return Take(p.card for p in before.layout.values() if p.card not in kept)
    if before.phase == CardPhase.DISCARD and after.discards:
        return Discard(after.discards[-1])
    return None


register_codec(sys.modules[__name__])
