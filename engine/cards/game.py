"""The travel card game: state, legal actions, apply (docs/rules.md section 2).

Same shape as the board game (``engine.labyrinth.game``): one mutable state object with
``legal_*()``, ``apply(action)``, ``copy()``, ``to_dict()`` / ``from_dict()``.
An illegal action raises :class:`IllegalAction` with a message a person can
read and leaves the state unchanged.

A turn is one of:

* :class:`Place` (phase ``"place"``) -- lay a hand card; when it joins
  treasures and some cards may legally be taken, the phase becomes ``"take"``,
  otherwise the turn ends at once;
* :class:`Take` (phase ``"take"``) -- take a legal subset of the joined cards
  (the empty set means take nothing); the turn ends;
* :class:`Discard` (phase ``"discard"``) -- when no hand card can be laid
  anywhere: discard one; the turn ends.

At the end of a turn the player draws back up to 2 cards; the next player
holding cards is to act. The game is over (phase ``"over"``) when every hand
is empty, when a full round passed in which nobody could lay a card, or when
the number of turns played reaches ``CardRules.turn_limit`` (docs/rules.md
sections 2 and 3); ``outcome`` then says why and who won.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Iterable

from engine.errors import IllegalAction
from engine.outcome import Outcome, Termination, most
from engine.cards.deck import CARDS, DECK_NAME, OPEN
from engine.cards.parts import (
    FORMAT_VERSION,
    GAME_NAME,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    START_CELLS,
    CardPhase,
    CardRules,
)
from engine.cards.validate import card_game_from_dict
from engine.cards.paths import (
    Cell,
    Placed,
    Survey,
    edge_neighbours,
    frontier,
    joined_cards,
    joined_cells,
    layout_problem,
    open_ports,
)


@dataclass(frozen=True)
class Place:
    """Lay hand card `card` (its deck id) turned clockwise by `rotation` quarter turns at `cell` (x, y)."""

    card: int
    rotation: int
    cell: tuple[int, int]


@dataclass(frozen=True)
class Take:
    """Take these cards (deck ids) out of the joined ones; an empty set takes nothing."""

    cards: frozenset[int] = frozenset()

    def __init__(self, cards: Iterable[int] = ()):
        object.__setattr__(self, "cards", frozenset(cards))


@dataclass(frozen=True)
class Discard:
    """Discard hand card `card` (deck id): only when no hand card can be laid anywhere."""

    card: int


Action = Place | Take | Discard


class CardGame:
    """The whole state of one card game. Create with :meth:`new` or :meth:`from_dict`.

    Public attributes (read them, change them only through :meth:`apply`):
    ``layout`` {(x, y): Placed(card, rotation)}, ``hands`` [list of card ids per
    player], ``draw_pile`` (card ids, the last one is drawn first), ``taken``
    [card ids per player, in the order taken], ``discards``, ``current``,
    ``phase``, ``placed`` (cell of the card laid this turn, in phase "take"),
    ``turns`` (finished turns), ``outcome`` (why the game ended and who won, or None).
    """

    __slots__ = (
        "rules",
        "seed",
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
        "outcome",
    )
    rules: CardRules
    seed: int | None
    layout: dict[Cell, Placed]
    hands: list[list[int]]
    draw_pile: list[int]
    taken: list[list[int]]
    discards: list[int]
    current: int
    phase: CardPhase
    placed: Cell | None
    stuck: set[int]
    turns: int
    outcome: Outcome | None

    # ---------------------------------------------------------------- setup
    @classmethod
    def new(
        cls, players: int = 2, seed: int | None = None, rules: CardRules | None = None, first: int = 0
    ) -> "CardGame":
        """Shuffle, deal 2 cards each, lay 4 cards as a 2 x 2 square (docs/rules.md 'Setup').

        Every random choice (order, start rotations) comes from `seed`. Should
        the start square happen to show no opening to the outside (no card
        could ever be laid), its rotations are drawn again (decision).
        """
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS} to {MAX_PLAYERS}, not {players!r}")
        if not isinstance(first, int) or not 0 <= first < players:
            raise ValueError(f"first player {first!r} does not exist with {players} players")
        rng = random.Random(seed)
        pile = list(range(len(CARDS)))
        rng.shuffle(pile)
        hands = [[pile.pop() for _ in range(HAND_SIZE)] for _ in range(players)]
        square = [pile.pop() for _ in START_CELLS]
        while True:
            layout = {cell: Placed(card, rng.randrange(4)) for cell, card in zip(START_CELLS, square)}
            if any(open_ports(layout, c) for c in frontier(layout)):
                break
        game = cls.__new__(cls)
        game.rules = rules or CardRules()
        game.seed = seed
        game.layout = layout
        game.hands = hands
        game.draw_pile = pile
        game.taken = [[] for _ in range(players)]
        game.discards = []
        game.current = first
        game.phase = CardPhase.PLACE
        game.placed = None
        game.stuck = set()
        game.turns = 0
        game.outcome = None
        game._start_turn()
        return game

    # ------------------------------------------------------------ reading
    @property
    def num_players(self) -> int:
        """How many play (the same name on every game's state)."""
        return len(self.hands)

    @property
    def players(self) -> int:
        """How many play (older name of :attr:`num_players`)."""
        return len(self.hands)

    @property
    def hand(self) -> list[int]:
        """The current player's hand (card ids)."""
        return self.hands[self.current]

    @property
    def scores(self) -> list[int]:
        """Cards taken per player."""
        return [len(t) for t in self.taken]

    @property
    def winners(self) -> tuple[int, ...]:
        """The players with the most cards taken once the game is over (ties share); () before."""
        return () if self.outcome is None else self.outcome.winners

    def cell_of(self, card: int) -> Cell | None:
        """Where card `card` lies on the layout, or None."""
        for cell, placed in self.layout.items():
            if placed.card == card:
                return cell
        return None

    def legal_cells(self) -> dict[Cell, int]:
        """Empty cells next to the layout where some card could go: {cell: mask of sides
        facing an open side of a laid card}. A card turned so that one of its openings
        is on one of those sides may be laid there."""
        result = {}
        for cell in frontier(self.layout):
            mask = open_ports(self.layout, cell)
            if mask:
                result[cell] = mask
        return result

    def legal_placements(self, card: int | None = None) -> list[Place]:
        """Every legal Place for the current player (or for one hand card), in a fixed order."""
        if self.phase != CardPhase.PLACE:
            return []
        cards = self.hand if card is None else [c for c in self.hand if c == card]
        cells = self.legal_cells()
        return [
            Place(c, rot, cell)
            for c in cards
            for rot in range(4)
            for cell, mask in cells.items()
            if OPEN[c][rot] & mask
        ]

    def can_place(self, seat: int | None = None) -> bool:
        """Whether player `seat` (default: current) could lay any hand card now."""
        hand = self.hands[self.current if seat is None else seat]
        cells = self.legal_cells().values()
        return any(OPEN[c][rot] & mask for c in hand for rot in range(4) for mask in cells)

    def placement_problem(self, place: Place) -> str | None:
        """Why `place` is illegal now (a sentence for a person), or None when it is legal."""
        if self.phase == CardPhase.OVER:
            return "The game is over: no more moves."
        if self.phase == CardPhase.TAKE:
            return "The card is laid: now choose which joined cards to take (or none)."
        if self.phase == CardPhase.DISCARD:
            return "No card in your hand can be laid anywhere: discard one."
        card, rotation, cell = place.card, place.rotation, place.cell
        if not isinstance(card, int) or isinstance(card, bool) or card not in self.hand:
            return f"Card {card!r} is not in your hand (hand: {self.hand})."
        if not isinstance(rotation, int) or isinstance(rotation, bool) or not 0 <= rotation < 4:
            return f"Rotation must be 0 to 3 clockwise quarter turns, not {rotation!r}."
        if (
            not isinstance(cell, tuple)
            or len(cell) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in cell)
        ):
            return f"{cell!r} is not a cell: give (x, y) as two whole numbers."
        if cell in self.layout:
            return f"Cell {cell} is taken already: lay the card on an empty cell."
        if not edge_neighbours(self.layout, cell):
            return f"Cell {cell} is not next to the layout: a card must touch another along a full side."
        if not OPEN[card][rotation] & open_ports(self.layout, cell):
            return (
                f"At {cell} none of the card's openings meets an opening of a neighbouring card: "
                "turn it or choose another cell."
            )
        return None

    def takeable(self) -> frozenset[int]:
        """In phase "take": every card joined to the same treasure on the card just laid."""
        if self.phase != CardPhase.TAKE:
            return frozenset()
        return frozenset().union(*self.joined().values())

    def joined(self) -> dict[str, frozenset[int]]:
        """In phase "take": per treasure on the card just laid, the joined cards with that treasure."""
        if self.phase != CardPhase.TAKE or self.placed is None:
            return {}
        return joined_cards(self.layout, self.placed)

    def joined_paths(self) -> dict[str, frozenset[Cell]]:
        """In phase "take": per treasure on the card just laid that joins others, the cells of its
        path (the card just laid included); {} in other phases."""
        if self.phase != "take" or self.placed is None:
            return {}
        return joined_cells(self.layout, self.placed)

    def take_problem(self, cards: Iterable[int]) -> str | None:
        """Why taking `cards` is illegal now (a sentence), or None when it is legal."""
        if self.phase != CardPhase.TAKE:
            return (
                "There is nothing to take now." if self.phase != CardPhase.OVER else "The game is over: no more moves."
            )
        try:
            cards = frozenset(cards)
        except TypeError:
            return f"{cards!r} is not a set of cards."
        assert self.placed is not None  # phase take: the card just laid
        new_card = self.layout[self.placed].card
        if new_card in cards:
            return "The card just laid stays on the layout."
        extra = cards - self.takeable()
        if extra:
            return (
                f"Card(s) {', '.join(str(c) for c in sorted(extra, key=str))} are not joined by a path "
                "to the same treasure on the card just laid."
            )
        gone = {cell for cell, p in self.layout.items() if p.card in cards}
        problem = layout_problem(set(self.layout) - gone, self.rules.keep_connected)
        return None if problem is None else f"Cannot take those: {problem}."

    def legal_takes(self) -> list[Take]:
        """Every legal Take in phase "take" (largest first; the empty Take is always last)."""
        if self.phase != CardPhase.TAKE:
            return []
        candidates = sorted(self.takeable())
        return [
            Take(subset)
            for size in range(len(candidates), -1, -1)
            for subset in combinations(candidates, size)
            if self.take_problem(subset) is None
        ]

    def legal_discards(self) -> list[Discard]:
        if self.phase != CardPhase.DISCARD:
            return []
        return [Discard(c) for c in self.hand]

    def legal_actions(self) -> list[Action]:
        """All legal actions in the current phase."""
        return self.legal_placements() + self.legal_takes() + self.legal_discards()

    def preview(self, place: Place) -> dict[str, frozenset[int]]:
        """Which cards `place` would join per treasure, without laying it (for hints)."""
        problem = self.placement_problem(place)
        if problem:
            raise IllegalAction(problem)
        return Survey(self.layout).matches(place.card, place.rotation, place.cell)

    # ------------------------------------------------------------ acting
    def apply(self, action: Action) -> None:
        """Play a Place, Take or Discard for the current player. Raises IllegalAction if not allowed."""
        if isinstance(action, Place):
            self._place(action)
        elif isinstance(action, Take):
            self._take(action)
        elif isinstance(action, Discard):
            self._discard(action)
        else:
            raise IllegalAction(f"{action!r} is not a Place, Take or Discard.")

    def _place(self, place: Place) -> None:
        problem = self.placement_problem(place)
        if problem:
            raise IllegalAction(problem)
        self.hand.remove(place.card)
        self.layout[place.cell] = Placed(place.card, place.rotation)
        self.stuck.clear()
        self.placed = place.cell
        self.phase = CardPhase.TAKE
        # Straight on when nothing could legally be taken (only the empty Take is left).
        if len(self.legal_takes()) <= 1:
            self._end_turn()

    def _take(self, take: Take) -> None:
        problem = self.take_problem(take.cards)
        if problem:
            raise IllegalAction(problem)
        for cell in [cell for cell, p in self.layout.items() if p.card in take.cards]:
            del self.layout[cell]
        self.taken[self.current].extend(sorted(take.cards))
        self._end_turn()

    def _discard(self, discard: Discard) -> None:
        if self.phase != CardPhase.DISCARD:
            if self.phase == CardPhase.OVER:
                raise IllegalAction("The game is over: no more moves.")
            raise IllegalAction("You may discard only when no hand card can be laid anywhere.")
        if discard.card not in self.hand:
            raise IllegalAction(f"Card {discard.card!r} is not in your hand (hand: {self.hand}).")
        self.hand.remove(discard.card)
        self.discards.append(discard.card)
        self.stuck.add(self.current)
        self._end_turn()

    def _end_turn(self) -> None:
        """Draw back up to 2, pass to the next player holding cards, start their turn."""
        while len(self.hand) < HAND_SIZE and self.draw_pile:
            self.hand.append(self.draw_pile.pop())
        self.placed = None
        self.turns += 1
        n = self.players
        for k in range(1, n + 1):
            seat = (self.current + k) % n
            if self.hands[seat]:
                if self.rules.turn_limit and self.turns >= self.rules.turn_limit:
                    return self._finish(Termination.TURN_LIMIT)
                self.current = seat
                self._start_turn()
                return
        self._finish(Termination.CARDS_PLAYED)

    def _start_turn(self) -> None:
        if self.can_place():
            self.phase = CardPhase.PLACE
        elif self.current in self.stuck:
            self._finish(Termination.BLOCKED)
        else:
            self.phase = CardPhase.DISCARD

    def _finish(self, termination: Termination) -> None:
        """End the game; most cards taken wins, ties share (docs/rules.md section 2)."""
        self.phase = CardPhase.OVER
        self.placed = None
        self.outcome = Outcome(termination, most(self.scores))

    # ------------------------------------------------------------ copies and saves
    def copy(self) -> "CardGame":
        """An independent copy (for AI look-ahead and tests)."""
        new = CardGame.__new__(CardGame)
        new.rules = self.rules
        new.seed = self.seed
        new.layout = dict(self.layout)
        new.hands = [h[:] for h in self.hands]
        new.draw_pile = self.draw_pile[:]
        new.taken = [t[:] for t in self.taken]
        new.discards = self.discards[:]
        new.current = self.current
        new.phase = self.phase
        new.placed = self.placed
        new.stuck = set(self.stuck)
        new.turns = self.turns
        new.outcome = self.outcome
        return new

    def to_dict(self) -> dict[str, Any]:
        """A JSON-serialisable, versioned snapshot; :meth:`from_dict` restores it exactly."""
        return {
            "game": GAME_NAME,
            "version": FORMAT_VERSION,
            "deck": DECK_NAME,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "layout": [
                [x, y, p.card, p.rotation]
                for (x, y), p in sorted(self.layout.items(), key=lambda kv: (kv[0][1], kv[0][0]))
            ],
            "hands": [h[:] for h in self.hands],
            "draw_pile": self.draw_pile[:],
            "taken": [t[:] for t in self.taken],
            "discards": self.discards[:],
            "current": self.current,
            "phase": self.phase,
            "placed": None if self.placed is None else list(self.placed),
            "stuck": sorted(self.stuck),
            "turns": self.turns,
            "outcome": None if self.outcome is None else self.outcome.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "CardGame":
        """Restore a snapshot; raises InvalidState naming the problem if it breaks the rules."""
        return card_game_from_dict(cls, data)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardGame) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return (
            f"<CardGame {self.players}p turn {self.turns} {self.phase} current={self.current} "
            f"layout={len(self.layout)} pile={len(self.draw_pile)} scores={self.scores}>"
        )
