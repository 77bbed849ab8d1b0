"""The board game's messages: its commands (arrows, spare, cells) and events.

They extend the life cycle every game shares (kiosk/core/events.py): GameStarted is
a GameBegan, TurnChanged a TurnBegan, GameOver a GameEnded.

Privacy: a player's target (the top card of their pile) is secret in the classic
rules. No event names a target: ``TargetChanged`` says only *whose* target changed
and how many cards are left. A view that must show the target (the "peek" button,
the open-cards variant) asks ``Session.visible_cards(player)`` at that moment.
Treasures become public when found (``TreasureFound``), as in the rulebook.
See docs/events.md for the full list with examples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from engine.labyrinth.maze import INSERTIONS
from engine.outcome import Termination

from kiosk.core.events import Cell, Command, Event, GameBegan, GameEnded, Seat, TurnBegan, message

#: The 12 arrows (insertion points), in the order docs/rules.md lists them.
ARROWS_ORDER: tuple[str, ...] = INSERTIONS


@dataclass(frozen=True, slots=True)
class TileInfo:
    """A tile as shown: openings (NESW order, already rotated) and its treasure, if any."""

    openings: str
    treasure: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerInfo:
    """The public side of a player: no cards, only how many are left and what was found."""

    index: int
    seat: int
    color: str
    kind: str
    home: Cell
    position: Cell
    cards_left: int
    found: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PawnCarry:
    """A pawn carried by a shift; ``wrapped`` when it was pushed out and came in at the other end."""

    player: int
    start: Cell
    end: Cell
    wrapped: bool


@message("select_arrow")
class SelectArrow(Command):
    """An arrow was pressed/tapped: preview the spare there; the same arrow again pushes."""

    arrow: str
    source: str = "touch"  # touch | button | key | ai | script


@message("push_arrow")
class PushArrow(Command):
    """Push the spare in now at `arrow` (None: at the previewed arrow)."""

    arrow: str | None = None
    source: str = "touch"


@message("rotate_spare")
class RotateSpare(Command):
    """Turn the spare (or its preview) clockwise by `turns` quarter turns."""

    turns: int = 1
    source: str = "touch"


@message("tap_cell")
class TapCell(Command):
    """A cell was tapped: in the move phase, walk there (the own pawn's cell means stay)."""

    cell: Cell
    source: str = "touch"


@message("stay")
class Stay(Command):
    """End the move where the pawn stands."""

    source: str = "touch"


@message("request_hint")
class RequestHint(Command):
    """Ask the AI for a good shift for the active human; answered with :class:`HintReady`."""

    source: str = "touch"


@message("game_started")
class GameStarted(GameBegan):
    """A game began (or was resumed): the whole public picture, no cards."""

    seed: int | None
    players: tuple[PlayerInfo, ...]
    board: tuple[TileInfo, ...]  # 49 tiles, row by row
    spare: TileInfo
    current: int
    phase: str
    forbidden: str | None
    turns: int
    open_cards: bool
    return_home: bool
    resumed: bool = False

    #: the seats are the board's corners, not equal arcs round the table
    around_the_table: ClassVar[bool] = False

    def seating(self) -> tuple[Seat, ...]:
        return tuple(Seat(p.index, p.seat, p.color, p.kind) for p in self.players)


@message("preview_moved")
class PreviewMoved(Event):
    """The spare is previewed at `arrow` (None: back beside the board), turned `rotation`."""

    player: int
    arrow: str | None
    rotation: int
    spare: TileInfo


@message("spare_rotated")
class SpareRotated(Event):
    """The spare was turned; `rotation` is quarter turns since the turn began (0-3)."""

    player: int
    rotation: int
    spare: TileInfo


@message("board_shifted")
class BoardShifted(Event):
    """The spare went in at `insertion`.

    `line` lists the cells of the pushed row/column in push order (entry cell
    first): every tile on it moved one step along; `inserted` is the tile that
    now lies on ``line[0]``; `pushed_out` fell off at ``line[-1]`` and is the new
    spare. `pawns` lists the pawns carried along. `forbidden` is the arrow now
    barred by the no-push-back rule.
    """

    player: int
    insertion: str
    rotation: int
    line: tuple[Cell, ...]
    inserted: TileInfo
    pushed_out: TileInfo
    pawns: tuple[PawnCarry, ...]
    forbidden: str

    def narrate(self, who) -> str:
        carried = "".join(f"; carried {who(p.player)} to {p.end}" for p in self.pawns)
        return f"{who(self.player)} pushes the spare in at {self.insertion} (turned {self.rotation}){carried}"


@message("pawn_moved")
class PawnMoved(Event):
    """The pawn of `player` walked `path` (both ends included; one cell: it stayed)."""

    player: int
    path: tuple[Cell, ...]

    @property
    def stayed(self) -> bool:
        return len(self.path) == 1

    def narrate(self, who) -> str:
        if self.stayed:
            return f"{who(self.player)} stays at {self.path[0]}"
        return f"{who(self.player)} walks {self.path[0]} -> {self.path[-1]} ({len(self.path) - 1} steps)"


@message("treasure_found")
class TreasureFound(Event):
    """`player` collected `treasure` (public from now on); `cards_left` remain."""

    player: int
    treasure: str
    cards_left: int

    def narrate(self, who) -> str:
        return f"{who(self.player)} finds the {self.treasure}, {self.cards_left} card(s) left"


@message("target_changed")
class TargetChanged(Event):
    """The target of `player` changed; which one is secret (ask Session.visible_cards).

    `heading_home` is True when no cards are left and the start corner is the goal.
    """

    player: int
    cards_left: int
    heading_home: bool


@message("turn_changed")
class TurnChanged(TurnBegan):
    """It is `player`'s `phase` ("shift" or "move") now.

    In the move phase `reachable` lists the cells the pawn can walk to.
    """

    player: int
    phase: str
    turn: int
    forbidden: str | None
    kind: str
    reachable: tuple[Cell, ...] = ()


@message("game_over")
class GameOver(GameEnded):
    """The game ended (`termination`: home, or the turn limit) after `turns` turns;
    `found` is each player's collected treasures."""

    winners: tuple[int, ...]
    turns: int
    found: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...] = ()
    duration: float = 0.0  # seconds of play (clock time)
    termination: Termination = Termination.HOME

    def narrate(self, who) -> str:
        return "found: " + "; ".join(f"{who(i)} {len(f)}" for i, f in enumerate(self.found))

    @property
    def winner(self) -> int | None:
        """The single winner, or None on a shared win."""
        return self.winners[0] if len(self.winners) == 1 else None


@message("ai_decided")
class AIDecided(Event):
    """An AI worker's answer; the session then plays it step by step through commands.

    `token` ties the answer to the turn it was asked for, so a stale answer
    (game abandoned meanwhile) is dropped.
    """

    player: int
    insertion: str
    rotation: int
    cell: Cell
    token: int
    hint: bool = False
    error: str | None = None


@message("hint_ready")
class HintReady(Event):
    """A suggested shift (and walk) for the active human player."""

    player: int
    insertion: str
    rotation: int
    cell: Cell


@dataclass(frozen=True)
class Commands:
    """The commands a board session hears and its play screen posts: the board game's own, or
    another game's that plays on this board (kiosk/games/puzzles), so that one tap is never
    answered by two sessions (the bus routes a message to its classes' subscribers)."""

    select: type[Any]  # each a Command class: (arrow, source=...)
    push: type[Any]
    rotate: type[Any]  # (turns, source=...)
    tap: type[Any]  # (cell, source=...)
    stay: type[Any]  # (source=...)
    hint: type[Any]


BOARD_COMMANDS = Commands(SelectArrow, PushArrow, RotateSpare, TapCell, Stay, RequestHint)


def tile_info(tile) -> TileInfo:
    """An engine Tile as a TileInfo."""
    return TileInfo(tile.openings, tile.treasure)
