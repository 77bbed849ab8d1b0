"""AI players for the card game: levels ``random``, ``easy`` and ``hard``.

Each player is an object with ``choose(game) -> action``: one action for the
decision the current player faces now (a Place in phase "place", a Take in
phase "take", a Discard in phase "discard"). A whole turn is therefore one or
two calls. Players are deterministic for a given seed (the constructor takes
a seed or a ``random.Random``) and use only what the seated player may know:
their own hand, the layout, the taken and discarded cards, how many cards each
hand and the draw pile hold, and the deck list (public: it is printed in the
rules). They never look at other hands or the draw pile's order.

* ``random`` -- any legal action, uniformly.
* ``easy``   -- lays the card that lets it take the most cards right now and
  takes as many as it may.
* ``hard``   -- the same greed, weighed against what the layout offers next:
  it avoids leaving open paths to treasure piles that the unseen cards are
  likely to match, keeps paths open towards the treasures of the card it
  keeps, and among equal takes picks the one that leaves the least exposed.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb
from typing import Callable

from engine.cards.deck import CARDS, OPEN, SIDE_SEGMENT
from engine.cards.game import Action, CardGame, Discard, Place, Take
from engine.cards.parts import CardPhase
from engine.cards.paths import Cell, Layout, Placed, Survey, removal_problem

LEVELS = ("random", "easy", "hard")

#: Per card, one rotation of each kind: rotations that put the same segments on the same
#: sides (a cross turned, a straight turned half-way) lay the same paths.
DISTINCT_ROTATIONS = tuple(
    tuple(rot for rot in range(4) if SIDE_SEGMENT[card][rot] not in SIDE_SEGMENT[card][:rot])
    for card in range(len(CARDS))
)


class CardAI:
    """Base class: holds the seeded random source used for tie-breaks."""

    level = "base"

    def __init__(self, seed: int | random.Random | None = None):
        self.rng = seed if isinstance(seed, random.Random) else random.Random(seed)

    def choose(self, game: CardGame) -> Action:
        """The action for the current player's decision now."""
        if game.phase == CardPhase.PLACE:
            return self.place(game)
        if game.phase == CardPhase.TAKE:
            return self.take(game)
        if game.phase == CardPhase.DISCARD:
            return self.discard(game)
        raise ValueError("the game is over: there is nothing to choose")

    def place(self, game: CardGame) -> Place:
        return self.rng.choice(game.legal_placements())

    def take(self, game: CardGame) -> Take:
        return self.rng.choice(game.legal_takes())

    def discard(self, game: CardGame) -> Discard:
        return self.rng.choice(game.legal_discards())

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level}>"


class RandomAI(CardAI):
    """Any legal action, uniformly at random."""

    level = "random"


def _best_takes(layout: Layout, candidates: frozenset[int], keep_connected: bool) -> list[frozenset[int]]:
    """The largest legal subsets of `candidates` to take from `layout` (the new card already in it)."""
    if not candidates:
        return [frozenset()]
    cell_of = {p.card: cell for cell, p in layout.items() if p.card in candidates}
    ordered = sorted(candidates)

    for size in range(len(ordered), 0, -1):
        found = [
            frozenset(sub)
            for sub in combinations(ordered, size)
            if removal_problem(layout, {cell_of[c] for c in sub}, keep_connected) is None
        ]
        if found:
            return found
    return [frozenset()]


class EasyAI(CardAI):
    """Greedy: the placement that takes the most cards now; takes as many as allowed."""

    level = "easy"

    def place(self, game: CardGame) -> Place:
        survey = Survey(game.layout)
        best, best_gain = [], -1
        for place in game.legal_placements():
            joined = survey.matches(place.card, place.rotation, place.cell)
            candidates = frozenset().union(*joined.values())
            gain = 0
            if candidates:
                layout = dict(game.layout)
                layout[place.cell] = Placed(place.card, place.rotation)
                gain = len(next(iter(_best_takes(layout, candidates, game.rules.keep_connected))))
            if gain > best_gain:
                best, best_gain = [place], gain
            elif gain == best_gain:
                best.append(place)
        return self.rng.choice(best)

    def take(self, game: CardGame) -> Take:
        takes = game.legal_takes()
        most = len(takes[0].cards)
        return self.rng.choice([t for t in takes if len(t.cards) == most])


def _cells_for(survey: Survey) -> dict[str, set[Cell]]:
    """The empty cells facing an open end of a path that carries each treasure."""
    cells_for: dict[str, set[Cell]] = {}
    for cell, ports in survey.ports.items():
        for comp in ports.values():
            for name in survey.treasures[comp]:
                cells_for.setdefault(name, set()).add(cell)
    return cells_for


def _most_on_one_path(survey: Survey) -> dict[str, int]:
    """The most cards with each treasure on one open path."""
    most: dict[str, int] = {}
    for comp in {comp for ports in survey.ports.values() for comp in ports.values()}:
        for name, cards in survey.treasures[comp].items():
            most[name] = max(most.get(name, 0), len(cards))
    return most


class HardAI(CardAI):
    """Greedy gain, weighed against what the resulting layout offers next.

    For the layout a move leaves, each card is worth its "reach": how many
    cards it could take if laid next to an open end of the best path for its
    treasures. The danger of a move is the expected reach of the best card in
    the next opponent's hand (their hand drawn at random from the cards this
    player has not seen); the hope is the reach of the card this player keeps.
    """

    level = "hard"
    #: weight of the next opponent's expected best take
    danger = 1.0
    #: weight of the take the kept card could make next turn
    hope = 0.35

    def _unseen(self, game: CardGame) -> list[int]:
        seen = set(game.hand) | {p.card for p in game.layout.values()} | set(game.discards)
        seen.update(c for pile in game.taken for c in pile)
        return [c for c in range(len(CARDS)) if c not in seen]

    @staticmethod
    def _reaches(layout: Layout, keep_connected: bool = False) -> Callable[[int], int]:
        """A function card -> the most cards it could take if laid now on `layout` (exact:
        every legal cell and rotation near a path with its treasures, and the taking rule)."""
        survey = Survey(layout)
        cells_for = _cells_for(survey)
        # The search below stops once a card reaches the most for both its treasures
        # (joining two paths could do better; rare).
        most = _most_on_one_path(survey)
        memo: dict[int, int] = {}

        def reach(card: int) -> int:
            if card in memo:
                return memo[card]
            best = 0
            a, b = CARDS[card].names
            bound = most.get(a, 0) + most.get(b, 0)
            cells = cells_for.get(a, set()) | cells_for.get(b, set())
            for cell in cells:
                if best >= bound:
                    break
                mask = sum(1 << s for s in survey.ports[cell])
                for rot in DISTINCT_ROTATIONS[card]:
                    if not OPEN[card][rot] & mask:
                        continue
                    joined = survey.matches(card, rot, cell)
                    candidates = frozenset().union(*joined.values())
                    if len(candidates) <= best:
                        continue
                    after = dict(layout)
                    after[cell] = Placed(card, rot)
                    best = max(best, len(_best_takes(after, candidates, keep_connected)[0]))
            memo[card] = best
            return best

        return reach

    def _value(self, game: CardGame, layout: Layout, kept: list[int], unseen: list[int]) -> float:
        reach = self._reaches(layout, game.rules.keep_connected)
        hope = sum(reach(c) for c in kept)
        # Expected best reach in a random hand of h cards out of the unseen ones:
        # the i-th best card (0-based) is the hand's best with chance C(U-1-i, h-1) / C(U, h).
        nxt = next(
            (
                (game.current + k) % game.players
                for k in range(1, game.players)
                if game.hands[(game.current + k) % game.players]
            ),
            None,
        )
        danger = 0.0
        if nxt is not None and unseen:
            h = min(len(game.hands[nxt]), len(unseen))
            values = sorted((reach(c) for c in unseen), reverse=True)
            total = comb(len(unseen), h)
            danger = sum(v * comb(len(unseen) - 1 - i, h - 1) for i, v in enumerate(values) if v) / total
        return self.hope * hope - self.danger * danger

    def _plan(
        self, game: CardGame, layout: Layout, candidates: frozenset[int], kept: list[int], unseen: list[int]
    ) -> tuple[float, frozenset[int]]:
        """Best (score, take) once the card lies in `layout`."""
        best: tuple[float, frozenset[int]] = (float("-inf"), frozenset())
        for take in _best_takes(layout, candidates, game.rules.keep_connected):
            rest = {cell: p for cell, p in layout.items() if p.card not in take}
            score = len(take) + self._value(game, rest, kept, unseen)
            if score > best[0]:
                best = (score, take)
        return best

    def place(self, game: CardGame) -> Place:
        survey = Survey(game.layout)
        unseen = self._unseen(game)
        scored = []
        for place in game.legal_placements():
            if place.rotation not in DISTINCT_ROTATIONS[place.card]:
                continue  # lays the same paths as a rotation already weighed
            joined = survey.matches(place.card, place.rotation, place.cell)
            candidates = frozenset().union(*joined.values())
            layout = dict(game.layout)
            layout[place.cell] = Placed(place.card, place.rotation)
            kept = [c for c in game.hand if c != place.card]
            score, _ = self._plan(game, layout, candidates, kept, unseen)
            scored.append((score, place))
        top = max(s for s, _ in scored)
        return self.rng.choice([p for s, p in scored if s >= top - 1e-9])

    def take(self, game: CardGame) -> Take:
        _, take = self._plan(game, dict(game.layout), game.takeable(), list(game.hand), self._unseen(game))
        return Take(take)

    def discard(self, game: CardGame) -> Discard:
        reach = self._reaches(game.layout)
        worth = {c: reach(c) for c in game.hand}
        low = min(worth.values())
        return Discard(self.rng.choice(sorted(c for c, w in worth.items() if w == low)))


AI_CLASSES = {"random": RandomAI, "easy": EasyAI, "hard": HardAI}


def make_ai(level: str, seed: int | random.Random | None = None) -> CardAI:
    """An AI player of `level` ("random", "easy" or "hard")."""
    try:
        return AI_CLASSES[level](seed)
    except KeyError:
        raise ValueError(f"unknown AI level {level!r}: choose one of {', '.join(LEVELS)}") from None
