"""The card table as the events tell it: what the play screen shows, never the engine's state.

The screen loads it from the session's public picture (``CardSession.public_snapshot``, a
:class:`CardGameStarted`) when it opens and after an undo, and changes it only as the card
game's events say (kiosk/games/cards/events.py), as the board game's screen keeps its
``Model`` (kiosk/games/labyrinth/screens/board.py). What follows from the cards on the table
alone (the places a card could go, the cards a placement joins) is worked out by the rules'
own path functions from the layout held here, never asked of a running game.

Hands stay secret: the model knows how many cards each player holds and which position is
picked, never which cards; the hand shown is asked of the session at drawing time.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, TypeVar

from engine.cards.parts import CardPhase
from engine.cards.paths import Placed, frontier, joined_cards, joined_cells, open_ports

from kiosk.core.events import SeatChanged, UndoChanged
from kiosk.games.cards.events import (
    CardGameOver,
    CardGameStarted,
    CardLaid,
    CardsTaken,
    CardTurnChanged,
    HandChanged,
    TakeChanged,
)

Cell = tuple[int, int]  # a place on the card game's unbounded grid (x, y), y growing south
T = TypeVar("T")


@dataclass
class TableModel:
    """The public picture of a card game, kept up to date by its events (``apply``)."""

    started: bool = False
    colors: tuple[str, ...] = ()
    kinds: list[str] = field(default_factory=list)  # per player: "human" or a computer's level
    layout: dict[Cell, Placed] = field(default_factory=dict)
    current: int = 0
    phase: str = CardPhase.PLACE
    turn: int = 0
    pile: int = 0  # cards left in the draw pile
    placed: Cell | None = None  # the card just laid (phase take)
    hand_sizes: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)  # cards taken per player
    last_taken: list[int | None] = field(default_factory=list)  # per player, the card they took last
    selected: int | None = None  # the hand position the current player picked
    rotation: int = 0  # its quarter turns
    chosen: frozenset[int] = frozenset()  # the cards ticked for taking
    take_problem: str | None = None  # why the cards chosen may not be taken (None: they may)
    handover: bool = False  # the "pass to" sheet is up: the hand stays hidden
    undo_player: int | None = None  # who may take their last action back
    hand_version: int = 0  # counts the hand changes: the hand shown may hold other cards now
    _derived: dict[Any, Any] = field(default_factory=dict, repr=False)  # what the layout alone says

    @property
    def players(self) -> int:
        return len(self.kinds)

    @property
    def over(self) -> bool:
        return self.phase == CardPhase.OVER

    # ------------------------------------------------------------ what the layout says (the rules' paths)
    def legal_cells(self) -> dict[Cell, int]:
        """The empty places next to the layout a card could go: {cell: the sides facing an open side}."""
        return self._derive("cells", lambda: {c: m for c in frontier(self.layout) if (m := open_ports(self.layout, c))})

    def joined(self) -> dict[str, frozenset[int]]:
        """In phase take: per treasure on the card just laid, the joined cards with that treasure."""
        if self.phase != CardPhase.TAKE or self.placed not in self.layout:
            return {}
        return self._derive("joined", lambda: joined_cards(self.layout, self._placed()))

    def joined_paths(self) -> dict[str, frozenset[Cell]]:
        """In phase take: per treasure that joins other cards, the cells of its path."""
        if self.phase != CardPhase.TAKE or self.placed not in self.layout:
            return {}
        return self._derive("paths", lambda: joined_cells(self.layout, self._placed()))

    def takeable(self) -> frozenset[int]:
        """In phase take: every card joined to the same treasure on the card just laid."""
        return frozenset().union(*self.joined().values())

    def cell_of(self, card: int) -> Cell:
        """Where card `card` lies on the layout."""
        return next(cell for cell, placed in self.layout.items() if placed.card == card)

    def _placed(self) -> Cell:
        assert self.placed is not None
        return self.placed

    def _derive(self, name: str, work: Callable[[], T]) -> T:
        """`work()`'s answer, kept until the layout or the phase changes (``_changed``)."""
        if name not in self._derived:
            self._derived[name] = work()
        answer: T = self._derived[name]
        return answer

    def _changed(self) -> None:
        self._derived.clear()

    # ------------------------------------------------------------ fed by the events
    def load(self, ev: CardGameStarted) -> None:
        """The whole picture of `ev` (a game begun, resumed, or the session's picture after an undo)."""
        self.started = True
        self.colors = tuple(p.color for p in ev.players)
        self.kinds = [p.kind for p in ev.players]
        self.layout = {(c.cell[0], c.cell[1]): Placed(c.card, c.rotation) for c in ev.layout}
        self.current, self.phase, self.turn, self.pile = ev.current, ev.phase, ev.turns, ev.pile
        self.placed = None if ev.placed is None else (ev.placed[0], ev.placed[1])
        self.hand_sizes = [p.hand_size for p in ev.players]
        self.scores = [p.taken for p in ev.players]
        self.last_taken = [p.last_taken for p in ev.players]
        self.selected, self.rotation, self.chosen = ev.selected, ev.rotation, frozenset(ev.chosen)
        self.take_problem, self.handover, self.undo_player = None, ev.handover, ev.undo_player
        self.hand_version += 1
        self._changed()

    def apply(self, ev: Any) -> bool:
        """Change the picture as `ev` says; True if it was one of the events the table shows."""
        if isinstance(ev, CardGameStarted):
            self.load(ev)
        elif not self.started:
            return False
        elif isinstance(ev, CardTurnChanged):
            self.current, self.phase, self.turn, self.pile = ev.player, ev.phase, ev.turn, ev.pile
            self.kinds[ev.player] = ev.kind
            self.handover, self.chosen, self.take_problem = ev.handover, frozenset(), None
            self._changed()
        elif isinstance(ev, HandChanged):
            self._hand(ev)
        elif isinstance(ev, (CardLaid, CardsTaken, TakeChanged, CardGameOver)):
            self._play(ev)
        elif isinstance(ev, UndoChanged):
            if ev.available:
                self.undo_player = ev.player
            elif self.undo_player == ev.player:
                self.undo_player = None
        elif isinstance(ev, SeatChanged) and 0 <= ev.player < self.players:
            self.kinds[ev.player] = ev.kind
        else:
            return False
        return True

    def _hand(self, ev: HandChanged) -> None:
        if 0 <= ev.player < self.players:
            self.hand_sizes[ev.player] = ev.size
        if ev.player == self.current:
            self.selected, self.rotation = ev.selected, ev.rotation
        if ev.shown:
            self.handover = False  # the hand is shown: the next person has the screen
        self.hand_version += 1

    def _play(self, ev: CardLaid | CardsTaken | TakeChanged | CardGameOver) -> None:
        if isinstance(ev, CardLaid):
            self.layout[(ev.cell[0], ev.cell[1])] = Placed(ev.card, ev.rotation)
            self.placed = (ev.cell[0], ev.cell[1])
            self.selected, self.rotation = None, 0
        elif isinstance(ev, CardsTaken):
            for cell in ev.cells:
                self.layout.pop((cell[0], cell[1]), None)
            self.scores[ev.player] = ev.score
            if ev.cards:
                self.last_taken[ev.player] = max(ev.cards)  # (the rules keep the cards taken in order)
            self.chosen = frozenset()
        elif isinstance(ev, TakeChanged):
            self.chosen, self.take_problem = frozenset(ev.chosen), ev.problem
        else:
            self.phase, self.scores = CardPhase.OVER, list(ev.scores)
        self._changed()
