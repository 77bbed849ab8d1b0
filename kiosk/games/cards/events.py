"""The card game's commands and events (the travel card game, docs/rules.md section 2).

Same base and the same JSON ``type`` registry as kiosk/core/events.py (the
``@message`` decorator registers each class there, so ``Message.from_dict``,
``--events-out`` logs and the bus treat them exactly like the board game's).
Importing this module is what registers them (``GameType.events`` names it).
CardGameStarted is a GameBegan, CardTurnChanged a TurnBegan, CardGameOver a
GameEnded (the life cycle every game shares, kiosk/core/events.py).

Input model (a person and an AI seat send the very same commands):

* ``SelectHandCard(slot)`` picks the hand card at position `slot` (0 or 1);
  the selected card again turns it a quarter clockwise.
* ``RotateHandCard`` turns the selected card (the on-screen turn control,
  the ``rotate`` arcade button).
* ``LayCard(cell)`` lays the selected card, as turned, at `cell`.
* ``ToggleTake(card)`` adds/removes a joined card to/from the cards to take;
  ``ConfirmTake`` takes them (none chosen: take nothing).
* ``DiscardCard(slot)`` when no card can be laid anywhere.
* ``HandOver`` acknowledges the "pass to <colour>" prompt between two human
  players; until then the new player's hand stays hidden.

Privacy: hands are secret. No event names a hand card: ``HandChanged`` says
whose hand changed, how many cards it holds and which *position* is selected.
A view that may show the hand asks ``CardSession.visible_hand(player)``, which
answers only for the human whose turn it is, after the hand-over. A card
becomes public when it is laid (``CardLaid``) or discarded (``CardDiscarded``).
Refusals reuse :class:`kiosk.core.events.IllegalInput`; abandoning reuses
``GameAbandoned``; AI thinking reuses ``AIThinking``.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.outcome import Termination

from kiosk.core.events import Cell, Command, Event, GameBegan, GameEnded, Seat, TurnBegan, message

__all__ = [
    "CARD_COMMANDS",
    "CardAIDecided",
    "CardDiscarded",
    "CardGameOver",
    "CardGameStarted",
    "CardLaid",
    "CardPlayerInfo",
    "CardTurnChanged",
    "CardsTaken",
    "ConfirmTake",
    "DiscardCard",
    "HandChanged",
    "HandOver",
    "LaidCard",
    "LayCard",
    "RotateHandCard",
    "SelectHandCard",
    "TakeChanged",
    "ToggleTake",
]


# ---------------------------------------------------------------- records inside messages


@dataclass(frozen=True, slots=True)
class LaidCard:
    """A card on the open layout: deck id, clockwise quarter turns, cell (x, y; y grows south)."""

    cell: Cell
    card: int
    rotation: int


@dataclass(frozen=True, slots=True)
class CardPlayerInfo:
    """The public side of a card player: colour, who plays, hand size, cards taken."""

    index: int
    color: str
    kind: str
    hand_size: int
    taken: int
    last_taken: int | None = None  # the card they took last (public: it was on the layout)


# ---------------------------------------------------------------- commands


@message("select_hand_card")
class SelectHandCard(Command):
    """Pick the hand card at position `slot`; the selected card again turns it clockwise."""

    slot: int
    source: str = "touch"  # touch | button | key | ai | script


@message("rotate_hand_card")
class RotateHandCard(Command):
    """Turn the selected hand card clockwise by `turns` quarter turns."""

    turns: int = 1
    source: str = "touch"


@message("lay_card")
class LayCard(Command):
    """Lay the selected hand card, as turned, on `cell` of the layout."""

    cell: Cell
    source: str = "touch"


@message("toggle_take")
class ToggleTake(Command):
    """Add card `card` (deck id, on the layout) to the cards to take, or remove it again."""

    card: int
    source: str = "touch"


@message("confirm_take")
class ConfirmTake(Command):
    """Take the chosen cards (none chosen: take nothing) and end the turn."""

    source: str = "touch"


@message("discard_card")
class DiscardCard(Command):
    """Discard the hand card at position `slot` (only when no card can be laid anywhere)."""

    slot: int
    source: str = "touch"


@message("hand_over")
class HandOver(Command):
    """The next human player has the screen: show their hand."""

    source: str = "touch"


CARD_COMMANDS = (
    "select_hand_card",
    "rotate_hand_card",
    "lay_card",
    "toggle_take",
    "confirm_take",
    "discard_card",
    "hand_over",
)


# ---------------------------------------------------------------- events


@message("card_game_started")
class CardGameStarted(GameBegan):
    """A card game began (or was resumed): the public picture, no hand cards."""

    seed: int | None
    players: tuple[CardPlayerInfo, ...]
    layout: tuple[LaidCard, ...]
    current: int
    phase: str  # place | take | discard | over
    turns: int
    pile: int  # cards left in the draw pile
    discards: tuple[int, ...]
    placed: Cell | None = None  # in phase take: the cell of the card just laid
    resumed: bool = False
    # the turn as it stands (a picture taken mid-turn: a screen opened late, a game after an undo)
    selected: int | None = None  # the hand position the current player picked (never the card)
    rotation: int = 0  # its quarter turns
    chosen: tuple[int, ...] = ()  # the cards ticked for taking
    handover: bool = False  # the "pass to" prompt is up
    undo_player: int | None = None  # who may take their last action back

    def seating(self) -> tuple[Seat, ...]:
        return tuple(Seat(p.index, p.index, p.color, p.kind) for p in self.players)


@message("card_turn_changed")
class CardTurnChanged(TurnBegan):
    """It is `player`'s `phase` now.

    `handover`: a human takes over from another human: the hand stays hidden
    until ``HandOver``. `cells`: in phase place, the empty cells where a card
    can go (public: it depends only on the layout). `takeable`: in phase take,
    the joined cards that may be chosen.
    """

    player: int
    phase: str
    turn: int
    kind: str
    pile: int
    handover: bool = False
    cells: tuple[Cell, ...] = ()
    takeable: tuple[int, ...] = ()


@message("hand_changed")
class HandChanged(Event):
    """`player`'s hand changed (size, selection, turn, shown): never which cards it holds."""

    player: int
    size: int
    selected: int | None = None  # the selected position, if any
    rotation: int = 0  # quarter turns of the selected card
    shown: bool = False  # the hand may be shown now (its player's turn, after the hand-over)


@message("card_laid")
class CardLaid(Event):
    """`player` laid `card` at `cell` turned `rotation`; `joined` per treasure, the cards it joins."""

    player: int
    card: int
    rotation: int
    cell: Cell
    joined: tuple[tuple[str, tuple[int, ...]], ...] = ()
    takeable: tuple[int, ...] = ()

    def narrate(self, who) -> str:
        joined = sum(len(cards) for _, cards in self.joined)
        return f"{who(self.player)} lays card {self.card} at {self.cell} (turned {self.rotation})" + (
            f", joining {joined} card(s)" if joined else ""
        )


@message("take_changed")
class TakeChanged(Event):
    """The cards `player` chose to take so far; `problem` says why they may not be taken (or None)."""

    player: int
    chosen: tuple[int, ...]
    problem: str | None = None


@message("cards_taken")
class CardsTaken(Event):
    """`player` took `cards` (from `cells`; empty: took nothing) and now has `score` cards."""

    player: int
    cards: tuple[int, ...]
    cells: tuple[Cell, ...]
    score: int

    def narrate(self, who) -> str | None:
        if not self.cards:
            return None
        return f"{who(self.player)} takes {' '.join(map(str, self.cards))}, {self.score} card(s) taken so far"


@message("card_discarded")
class CardDiscarded(Event):
    """`player` could lay no card and discarded `card` (public from now on)."""

    player: int
    card: int

    def narrate(self, who) -> str:
        return f"{who(self.player)} can lay no card and discards card {self.card}"


@message("card_game_over")
class CardGameOver(GameEnded):
    """The card game ended (`termination`: every card played, blocked, or the turn limit):
    the most cards taken wins, ties share (`winners`)."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    turns: int
    kinds: tuple[str, ...] = ()
    termination: Termination = Termination.CARDS_PLAYED
    duration: float = 0.0

    def narrate(self, who) -> str:
        return "cards taken: " + "; ".join(f"{who(i)} {n}" for i, n in enumerate(self.scores))


@message("card_ai_decided")
class CardAIDecided(Event):
    """An AI worker's answer for one decision; the session plays it through commands, paced.

    `action` is "place" (slot, rotation, cell), "take" (cards) or "discard" (slot). A hand
    card is named by its position, so the log does not show it before it is laid.
    `token` ties the answer to the decision it was asked for; a stale answer is dropped.
    """

    player: int
    action: str
    token: int
    slot: int = -1
    rotation: int = 0
    cell: Cell = (0, 0)
    cards: tuple[int, ...] = ()
    error: str | None = None
