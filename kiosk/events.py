"""Everything that travels on the bus: commands (input -> session) and events (session -> views).

Every message is a frozen, slotted dataclass with a stable ``type`` name; that
name, not the Python class name, is what ``to_dict()`` / ``to_json()`` write and
what ``--events-out`` logs, so renaming a class never breaks a saved log.

Commands say what a person (or an AI seat, or the kiosk itself) asks for; the
session decides and answers with events. Views (the window, the LED ring, the
button LEDs) only ever see events and only ever post commands.

Privacy: a player's target (the top card of their pile) is secret in the classic
rules. No event names a target: ``TargetChanged`` says only *whose* target changed
and how many cards are left. A view that must show the target (the "peek" button,
the open-cards variant) asks ``Session.visible_cards(player)`` at that moment.
Treasures become public when found (``TreasureFound``), as in the rulebook.
See docs/events.md for the full list with examples.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar

Cell = tuple[int, int]

#: The 12 arrows (insertion points), in the order RULES.md lists them.
ARROWS_ORDER: tuple[str, ...] = ("N1", "N3", "N5", "E1", "E3", "E5", "S1", "S3", "S5", "W1", "W3", "W5")

# The names of all message types, filled by the decorator below.
REGISTRY: dict[str, type["Message"]] = {}


def message(name: str):
    """Class decorator: a frozen slotted dataclass registered under the JSON ``type`` `name`."""

    def wrap(cls):
        if name in REGISTRY:
            raise ValueError(f"message type {name!r} is defined twice")
        cls = dataclass(frozen=True, slots=True)(cls)
        cls.type = name
        REGISTRY[name] = cls
        return cls

    return wrap


class Message:
    """Base of commands and events: JSON-able, immutable, named by ``type``."""

    __slots__ = ()
    type: ClassVar[str] = "message"

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict: ``{"type": ..., field: value}``; tuples become lists."""
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            out[f.name] = _encode(getattr(self, f.name))
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Message":
        """Rebuild a message written by ``to_dict`` (lists back to tuples, nested records back)."""
        if data.get("type") not in REGISTRY:
            from . import card_events  # noqa: F401  (registers the card game's messages on first use)
        try:
            cls = REGISTRY[data["type"]]
        except KeyError:
            raise ValueError(f"unknown message type {data.get('type')!r}") from None
        hints = typing.get_type_hints(cls)
        kwargs = {f.name: _decode(data[f.name], hints[f.name])
                  for f in dataclasses.fields(cls) if f.name in data}
        return cls(**kwargs)


class Command(Message):
    """A request to the session (or the kiosk). It may be refused with :class:`IllegalInput`."""

    __slots__ = ()


class Event(Message):
    """Something that happened; only the session and the kiosk post these."""

    __slots__ = ()


def _encode(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_encode(v) for v in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return value


def _decode(value: Any, hint: Any) -> Any:
    if value is None:
        return None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(hint):
            if arm is type(None):
                continue
            try:
                return _decode(value, arm)
            except (TypeError, ValueError, KeyError):
                continue
        return value
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(v, args[0]) for v in value)
        return tuple(_decode(v, a) for v, a in zip(value, args))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        sub = typing.get_type_hints(hint)
        return hint(**{f.name: _decode(value[f.name], sub[f.name])
                       for f in dataclasses.fields(hint) if f.name in value})
    return value


# ---------------------------------------------------------------- records inside messages

@dataclass(frozen=True, slots=True)
class TileInfo:
    """A tile as shown: openings (NESW order, already rotated) and its treasure, if any."""

    openings: str
    treasure: str | None = None


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """Who plays a seat: ``kind`` is human, random, easy, medium or hard."""

    kind: str = "human"
    seat: int | None = None     # start corner 0-3 (None: the engine's default seating)


SEAT_KINDS = ("human", "random", "easy", "medium", "hard")
CARD_SEAT_KINDS = ("human", "random", "easy", "hard")     # the card game's AI has no "medium"
GAMES = ("labyrinth", "cards")


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start a game; ``seed`` None means "pick one"."""

    seats: tuple[SeatSetup, ...] = (SeatSetup("human"), SeatSetup("medium"))
    seed: int | None = None
    first: int = 0                  # index of the player who starts
    open_cards: bool = False
    return_home: bool = True
    game: str = "labyrinth"         # or "cards": the travel card game (kiosk/card_session.py)
    hints: bool | None = None       # the hint button; None: the config's choice ([game] hints)

    def __post_init__(self):
        if self.game not in GAMES:
            raise ValueError(f"game {self.game!r} is not one of {', '.join(GAMES)}")
        low, high, kinds = (2, 6, CARD_SEAT_KINDS) if self.game == "cards" else (1, 4, SEAT_KINDS)
        if not low <= len(self.seats) <= high:
            raise ValueError(f"a {self.game} game needs {low} to {high} players, not {len(self.seats)}")
        for s in self.seats:
            if s.kind not in kinds:
                raise ValueError(f"seat kind {s.kind!r} is not one of {', '.join(kinds)}")
        if not 0 <= self.first < len(self.seats):
            raise ValueError(f"first player {self.first} does not exist with {len(self.seats)} players")

    @classmethod
    def of(cls, kinds: str | typing.Sequence[str], **kw) -> "GameSetup":
        """``GameSetup.of("human,hard", seed=3)``: seats from a comma-separated list of kinds."""
        if isinstance(kinds, str):
            kinds = [k.strip() for k in kinds.split(",") if k.strip()]
        return cls(seats=tuple(SeatSetup(k) for k in kinds), **kw)

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(s.kind for s in self.seats)


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


# ---------------------------------------------------------------- commands

@message("select_arrow")
class SelectArrow(Command):
    """An arrow was pressed/tapped: preview the spare there; the same arrow again pushes."""

    arrow: str
    source: str = "touch"       # touch | button | key | ai | script


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


@message("new_game")
class NewGame(Command):
    """Start a game (any running game is abandoned)."""

    setup: GameSetup = field(default_factory=GameSetup)


@message("abandon_game")
class AbandonGame(Command):
    """Stop the running game without a winner (idle timeout, operator)."""

    reason: str = ""


@message("quit")
class Quit(Command):
    """Stop the kiosk (operator menu, end of a headless run)."""

    reason: str = ""
    status: int = 0


@message("button_pressed")
class ButtonPressed(Command):
    """A physical button (after debounce): an arrow name, ``rotate`` or ``stay``.

    The kiosk turns it into SelectArrow / RotateSpare / Stay unless the operator's
    hardware test page has taken the buttons over.
    """

    button: str


# ---------------------------------------------------------------- events

@message("game_started")
class GameStarted(Event):
    """A game began (or was resumed): the whole public picture, no cards."""

    seed: int | None
    players: tuple[PlayerInfo, ...]
    board: tuple[TileInfo, ...]        # 49 tiles, row by row
    spare: TileInfo
    current: int
    phase: str
    forbidden: str | None
    turns: int
    open_cards: bool
    return_home: bool
    resumed: bool = False


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


@message("pawn_moved")
class PawnMoved(Event):
    """The pawn of `player` walked `path` (both ends included; one cell: it stayed)."""

    player: int
    path: tuple[Cell, ...]

    @property
    def stayed(self) -> bool:
        return len(self.path) == 1


@message("treasure_found")
class TreasureFound(Event):
    """`player` collected `treasure` (public from now on); `cards_left` remain."""

    player: int
    treasure: str
    cards_left: int


@message("target_changed")
class TargetChanged(Event):
    """The target of `player` changed; which one is secret (ask Session.visible_cards).

    `heading_home` is True when no cards are left and the start corner is the goal.
    """

    player: int
    cards_left: int
    heading_home: bool


@message("turn_changed")
class TurnChanged(Event):
    """It is `player`'s `phase` ("shift" or "move") now.

    In the move phase `reachable` lists the cells the pawn can walk to.
    """

    player: int
    phase: str
    turn: int
    forbidden: str | None
    kind: str
    reachable: tuple[Cell, ...] = ()


@message("illegal_input")
class IllegalInput(Event):
    """An input was refused; nothing changed. `reason` is written for the visitor (in English);
    `code` names the refusal for translations (``refusal.<code>`` in kiosk/locale), "" if none."""

    reason: str
    command: str                   # the refused command's type, e.g. "select_arrow"
    player: int | None = None
    arrow: str | None = None       # the arrow involved, if any (the ring flashes, the LED blinks)
    code: str = ""                 # e.g. "push_back", "unreachable" (docs/events.md)


@message("game_over")
class GameOver(Event):
    """`winner` finished after `turns` turns; `found` is each player's collected treasures."""

    winner: int
    turns: int
    found: tuple[tuple[str, ...], ...]
    kinds: tuple[str, ...] = ()
    duration: float = 0.0          # seconds of play (clock time)


@message("game_abandoned")
class GameAbandoned(Event):
    """The running game was stopped without a winner."""

    reason: str


@message("ai_thinking")
class AIThinking(Event):
    """An AI seat is computing its turn (off the main thread)."""

    player: int
    level: str


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


@message("kiosk_stopping")
class KioskStopping(Event):
    """The kiosk is about to stop (views can say goodbye, the ring goes dark)."""

    reason: str
    status: int = 0


def tile_info(tile) -> TileInfo:
    """An engine Tile as a TileInfo."""
    return TileInfo(tile.openings, tile.treasure)
