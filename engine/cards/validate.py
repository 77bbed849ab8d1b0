"""Loading a saved card game: every field checked, so a damaged save is refused, never half-loaded.

A save that breaks the rules (a card missing or twice, a hand of three, a lone
card on the layout, a phase that cannot be) raises InvalidState with a message
naming the problem.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.checks import check_header, check_rules, check_seed, check_turns, need, read_outcome
from engine.outcome import Outcome, Termination, most
from engine.cards.parts import (
    FORMAT_VERSION,
    GAME_NAME,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PHASES,
    CardPhase,
    CardRules,
)
from engine.cards.deck import CARDS, DECK_NAME
from engine.cards.paths import Placed, edge_neighbours, layout_problem

if TYPE_CHECKING:
    from engine.cards.game import CardGame


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _card_list(value: Any, where: str) -> list[int]:
    need(
        isinstance(value, list) and all(_is_int(c) and 0 <= c < len(CARDS) for c in value),
        f"{where} must be a list of card ids 0-{len(CARDS) - 1}",
    )
    return list(value)


#: Version 1 saved why the game ended as one of these sentences.
_V1_ENDS = {
    "every card has been played": Termination.CARDS_PLAYED,
    "a full round passed in which no card could be laid": Termination.BLOCKED,
}


def card_game_from_dict(cls: type[CardGame], data: Any) -> CardGame:
    # Version 1 had no turn limit and saved an "end" sentence where version 2 saves "outcome".
    last_field = "end" if isinstance(data, dict) and data.get("version") == 1 else "outcome"
    check_header(
        data,
        GAME_NAME,
        FORMAT_VERSION,
        (
            "deck",
            "rules",
            "layout",
            "hands",
            "draw_pile",
            "taken",
            "discards",
            "current",
            "phase",
            "placed",
            "stuck",
            "turns",
            last_field,
        ),
        what="card-game",
        older=(1,),
    )
    need(data["deck"] == DECK_NAME, f"unknown deck {data['deck']!r} (this version has {DECK_NAME!r})")
    rules = check_rules(data["rules"], ("keep_connected",), "rules must be {keep_connected: bool, turn_limit}")

    layout: dict[tuple[int, int], Placed] = {}
    need(isinstance(data["layout"], list), "layout must be a list of [x, y, card, rotation]")
    for entry in data["layout"]:
        need(
            isinstance(entry, list) and len(entry) == 4 and all(_is_int(v) for v in entry),
            f"layout entry {entry!r} must be [x, y, card, rotation] (whole numbers)",
        )
        x, y, card, rot = entry
        need(0 <= card < len(CARDS), f"layout entry {entry!r}: no card {card}")
        need(0 <= rot < 4, f"layout entry {entry!r}: rotation must be 0-3")
        need((x, y) not in layout, f"layout has two cards at {(x, y)}")
        layout[(x, y)] = Placed(card, rot)
    need(len(layout) >= 2, "the layout has at least 2 cards")
    problem = layout_problem(layout, rules.get("keep_connected", False))
    need(problem is None, f"layout breaks the rules: {problem}")

    hands = data["hands"]
    need(
        isinstance(hands, list) and MIN_PLAYERS <= len(hands) <= MAX_PLAYERS,
        f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} hands",
    )
    hands = [_card_list(h, f"hand {i}") for i, h in enumerate(hands)]
    need(all(len(h) <= HAND_SIZE for h in hands), f"a hand holds at most {HAND_SIZE} cards")
    taken = data["taken"]
    need(isinstance(taken, list) and len(taken) == len(hands), "taken must list one pile per player")
    taken = [_card_list(t, f"taken pile {i}") for i, t in enumerate(taken)]
    pile = _card_list(data["draw_pile"], "draw_pile")
    discards = _card_list(data["discards"], "discards")
    everywhere = [p.card for p in layout.values()] + pile + discards
    everywhere += [c for h in hands for c in h] + [c for t in taken for c in t]
    counts = Counter(everywhere)
    doubled = sorted(c for c, n in counts.items() if n > 1)
    need(not doubled, f"card(s) {doubled} are in two places")
    lost = sorted(set(range(len(CARDS))) - set(counts))
    need(not lost, f"card(s) {lost} are missing")
    if pile and data.get("phase") != CardPhase.OVER:
        # The player who has just laid a card (phase take) draws at the end of the turn.
        full = [
            len(h) + (i == data.get("current") and data.get("phase") == CardPhase.TAKE) for i, h in enumerate(hands)
        ]
        need(all(k == HAND_SIZE for k in full), "with cards left to draw every hand holds 2 cards")

    n = len(hands)
    current, phase_word, turns = data["current"], data["phase"], data["turns"]
    need(_is_int(current) and 0 <= current < n, f"current player {current!r} does not exist")
    need(phase_word in PHASES, f"phase {phase_word!r} is not one of {', '.join(PHASES)}")
    phase = CardPhase(phase_word)
    check_turns(turns)
    stuck = data["stuck"]
    need(isinstance(stuck, list) and all(_is_int(s) and 0 <= s < n for s in stuck), "stuck must list players")
    placed = data["placed"]
    if phase == CardPhase.TAKE:
        need(
            isinstance(placed, list) and len(placed) == 2 and tuple(placed) in layout,
            "in phase take, placed must be the cell of a laid card",
        )
        placed = tuple(placed)
    else:
        need(placed is None, f"placed must be null in phase {phase}")
    limit = rules["turn_limit"]
    need(
        phase == CardPhase.OVER or not limit or turns < limit,
        f"a running game has played fewer turns than the turn limit {limit}",
    )
    if data["version"] == 1:
        end = data["end"]
        need((end is None) == (phase != CardPhase.OVER), "end says why the game ended, only once it is over")
        need(end is None or end in _V1_ENDS, f"end {end!r} is not a reason this game ends")
        outcome = None if end is None else Outcome(_V1_ENDS[end], most([len(t) for t in taken]))
    else:
        outcome = read_outcome(data, phase == CardPhase.OVER, n)
        if outcome is not None:
            need(
                outcome.termination in (Termination.CARDS_PLAYED, Termination.BLOCKED, Termination.TURN_LIMIT),
                f"a card game cannot end by {outcome.termination.value}",
            )
            need(
                outcome.termination is not Termination.TURN_LIMIT or 0 < limit <= turns,
                "a game ended by the turn limit has played that many turns",
            )
            need(outcome.winners == most([len(t) for t in taken]), "the players with the most cards taken win")

    game = cls.__new__(cls)
    game.rules = CardRules(**rules)
    game.seed = check_seed(data)
    game.layout = layout
    game.hands = hands
    game.draw_pile = pile
    game.taken = taken
    game.discards = discards
    game.current = current
    game.phase = phase
    game.placed = placed
    game.stuck = set(stuck)
    game.turns = turns
    game.outcome = outcome
    if phase in (CardPhase.PLACE, CardPhase.DISCARD):
        need(bool(hands[current]), "the player to act holds no card")
        need(
            game.can_place() == (phase == CardPhase.PLACE),
            "phase must be place when a card can be laid, discard when none can",
        )
    if phase == CardPhase.TAKE:
        need(
            edge_neighbours(layout, placed) != [] and len(game.legal_takes()) > 1,
            "phase take needs cards that may be taken",
        )
    return game
