"""Everything that travels on the bus: commands (input -> session) and events (session -> views).

Every message is a frozen, slotted dataclass with a stable ``type`` name; that
name, not the Python class name, is what ``to_dict()`` / ``to_json()`` write and
what ``--events-out`` logs, so renaming a class never breaks a saved log.

Commands say what a person (or an AI seat, or the kiosk itself) asks for; the
session decides and answers with events. Views (the window, the LED ring, the
button LEDs) only ever see events and only ever post commands.

This module holds the messages every game shares: starting, abandoning and
ending a game, buttons, refusals, stopping, and the three life-cycle bases
every game's own events extend -- :class:`GameBegan`, :class:`TurnBegan` and
:class:`GameEnded` -- so that a consumer that does not know the game (ring,
history, headless log) subscribes once. A game's own commands and events live
in its folder (``kiosk/games/<name>/events.py``).
See docs/events.md for the full list with examples.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import types
import typing
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engine.outcome import Termination

from kiosk.games import HUMAN
from kiosk.errors import ContractError

Cell = tuple[int, int]

# The names of all message types, filled by the decorator below.
REGISTRY: dict[str, type["Message"]] = {}


_M = typing.TypeVar("_M", bound=type)


@typing.dataclass_transform(frozen_default=True)
def message(name: str) -> typing.Callable[[_M], _M]:
    """Class decorator: a frozen slotted dataclass registered under the JSON ``type`` `name`."""

    def wrap(cls: Any) -> Any:
        if name in REGISTRY:
            raise ContractError(f"message type {name!r} is defined twice")
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
        for f in dataclasses.fields(typing.cast(Any, self)):  # every message is a dataclass
            out[f.name] = _encode(getattr(self, f.name))
        return out

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> "Message":
        """Rebuild a message written by ``to_dict`` (lists back to tuples, nested records back)."""
        if data.get("type") not in REGISTRY:
            import importlib

            from kiosk import games  # a game's messages register themselves when its events module loads

            for game in games.all_games():
                importlib.import_module(game.events)
        try:
            cls = REGISTRY[data["type"]]
        except KeyError:
            raise ValueError(f"unknown message type {data.get('type')!r}") from None
        hints = typing.get_type_hints(cls)
        kwargs = {
            f.name: _decode(data[f.name], hints[f.name])
            for f in dataclasses.fields(typing.cast(Any, cls))
            if f.name in data
        }
        return cls(**kwargs)


class Command(Message):
    """A request to the session (or the kiosk). It may be refused with :class:`IllegalInput`."""

    __slots__ = ()


class Event(Message):
    """Something that happened; only the session and the kiosk post these."""

    __slots__ = ()


def _encode(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
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
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint(value)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        value = getattr(hint, "upgrade", lambda v: v)(value)  # a record as an older log wrote it
        sub = typing.get_type_hints(hint)
        return hint(
            **{f.name: _decode(value[f.name], sub[f.name]) for f in dataclasses.fields(hint) if f.name in value}
        )
    return value


# ---------------------------------------------------------------- records inside messages


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """Who plays a seat: ``kind`` is "human" or one of the game's AI levels."""

    kind: str = HUMAN
    seat: int | None = None  # the game's place for it (board game: corner 0-3); None: the default


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start a game; ``seed`` None means "pick one".

    ``game`` names a registered game (kiosk.games; "" = the default game);
    ``seats`` () = that game's default seats. ``variants`` holds the chosen
    value of any of the game's declared variants (``GameType.variants``; one
    left out is its default): ``{"open_cards": True, "treasures": 3}``;
    ``turn_limit`` (0 = none) ends any game after that many turns (docs/rules.md 3).
    """

    seats: tuple[SeatSetup, ...] = ()
    seed: int | None = None
    first: int = 0  # index of the player who starts
    variants: dict[str, Any] = field(default_factory=dict)
    game: str = ""
    hints: bool | None = None  # the hint button; None: the config's choice ([game] hints)
    turn_limit: int = 0

    def __post_init__(self):
        from kiosk import games

        kind = games.get(self.game or games.default())
        object.__setattr__(self, "game", kind.name)
        if not self.seats:
            object.__setattr__(self, "seats", tuple(SeatSetup(k) for k in kind.default_seats))
        kind.check_setup(self)
        if not isinstance(self.turn_limit, int) or isinstance(self.turn_limit, bool) or self.turn_limit < 0:
            raise ValueError(f"turn_limit must be a whole number >= 0, not {self.turn_limit!r}")
        if not 0 <= self.first < len(self.seats):
            raise ValueError(f"first player {self.first} does not exist with {len(self.seats)} players")

    @classmethod
    def of(cls, kinds: str | typing.Sequence[str], **kw) -> "GameSetup":
        """``GameSetup.of("human,hard", seed=3, open_cards=True)``: seats from a comma-separated list
        of kinds; a keyword that is no field of GameSetup is a variant."""
        if isinstance(kinds, str):
            kinds = [k.strip() for k in kinds.split(",") if k.strip()]
        names = {f.name for f in dataclasses.fields(cls)}
        variants = {**kw.pop("variants", {}), **{k: kw.pop(k) for k in list(kw) if k not in names}}
        return cls(seats=tuple(SeatSetup(k) for k in kinds), variants=variants, **kw)

    def variant(self, name: str) -> Any:
        """The chosen value of the game's variant `name` (its default when not chosen)."""
        from kiosk import games

        return self.variants.get(name, games.get(self.game).variant_named(name).default)

    @staticmethod
    def upgrade(data: dict[str, Any]) -> dict[str, Any]:
        """A setup as an older event log wrote it: the board game's two switches were fields."""
        data = dict(data)
        older = {k: data.pop(k) for k in ("open_cards", "return_home") if k in data}
        if older:
            data["variants"] = {
                **{k: v for k, v in older.items() if v != (k == "return_home")},
                **data.get("variants", {}),
            }
        return data

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(s.kind for s in self.seats)


# ---------------------------------------------------------------- commands


@message("new_game")
class NewGame(Command):
    """Start a game (any running game is abandoned)."""

    setup: GameSetup = field(default_factory=GameSetup)


@message("abandon_game")
class AbandonGame(Command):
    """Stop the running game without a winner (idle timeout, operator)."""

    reason: str = ""


@message("suspend_game")
class SuspendGame(Command):
    """Set the running game aside (nobody touched it for ``[kiosk] idle_timeout_s``): it stops
    as if abandoned (``GameAbandoned``), but for `keep_s` seconds ``ContinueGame`` brings it back
    exactly as it stood; after that it is archived as abandoned. `keep_s` 0: abandon it now."""

    reason: str = ""
    keep_s: float = 0.0


@message("continue_game")
class ContinueGame(Command):
    """Continue the game set aside by ``SuspendGame`` (the attract screen's offer)."""

    game: str = ""  # the registered game whose set-aside game continues


@message("undo")
class Undo(Command):
    """Take back the acting person's last action (docs/events.md: undo): a push until the walk,
    the walk until the next player acts; `player` None: whoever may undo now."""

    player: int | None = None
    source: str = "touch"


@message("call_seat")
class CallSeat(Command):
    """Ask whether the person at `player`'s seat is still there (their turn ran long without a
    touch): for `seconds` the seat is called on the ring and its screen side; 0 ends the call
    (they answered "I'm here", or the turn moved on). kiosk/ui/overlays/seats.py sends it."""

    player: int
    seconds: float = 0.0
    source: str = "touch"


@message("change_seat")
class ChangeSeat(Command):
    """Who plays `player`'s seat from now on: a computer level (the person walked away) or
    "human" (a newcomer tapped Join at a computer's seat). docs/rules.md, the kiosk's seats."""

    player: int
    kind: str
    reason: str = ""  # "away" (nobody answered the call), "join", "operator"...
    source: str = "touch"


@message("quit")
class Quit(Command):
    """Stop the kiosk (operator menu, end of a headless run)."""

    reason: str = ""
    status: int = 0


@message("button_pressed")
class ButtonPressed(Command):
    """A physical button (after debounce): an arrow name, ``rotate`` or ``stay``.

    The running game's ``GameType.button`` turns it into a command of that game,
    unless the operator's hardware test page has taken the buttons over.
    """

    button: str


# ---------------------------------------------------------------- the life cycle every game shares


class GameBegan(Event):
    """Base of every game's "a game began (or was resumed)" event.

    A subclass is a registered message with the game's whole public picture;
    it answers :meth:`seating` so that consumers that do not know the game can
    follow who sits where.
    """

    __slots__ = ()
    seed: int | None
    resumed: bool
    #: True: the players sit evenly round the table (the ring gets one equal arc each);
    #: False: ``seating()`` gives fixed places (the board's four corners).
    around_the_table: ClassVar[bool] = True

    def seating(self) -> tuple["Seat", ...]:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class Seat:
    """Who plays at index `index`: their place (``seat``), colour and kind (human or an AI level)."""

    index: int
    seat: int
    color: str
    kind: str


class TurnBegan(Event):
    """Base of every game's "it is this player's turn (or phase) now" event."""

    __slots__ = ()
    player: int
    kind: str
    turn: int


class GameEnded(Event):
    """Base of every game's "the game is over" event: who won and why (docs/rules.md)."""

    __slots__ = ()
    winners: tuple[int, ...]  # ties share; () = nobody
    turns: int
    kinds: tuple[str, ...]
    termination: Termination
    duration: float  # seconds of play (clock time)


# ---------------------------------------------------------------- events


@message("illegal_input")
class IllegalInput(Event):
    """An input was refused; nothing changed. `reason` is written for the visitor (in English);
    `code` names the refusal for translations (``refusal.<code>`` in kiosk/locale), "" if none."""

    reason: str
    command: str  # the refused command's type, e.g. "select_arrow"
    player: int | None = None
    arrow: str | None = None  # the arrow involved, if any (the ring flashes, the LED blinks)
    code: str = ""  # e.g. "push_back", "unreachable" (docs/events.md)


@message("undo_changed")
class UndoChanged(Event):
    """Whether `player` can take an action back now (their Undo button shows while `available`)."""

    player: int
    available: bool


@message("action_undone")
class ActionUndone(Event):
    """`player` took an action back: the game is as it was before it (views reload the session's
    public picture); a ``TurnBegan`` of the same player follows."""

    player: int


@message("seat_called")
class SeatCalled(Event):
    """`player`'s seat is called ("Red, still there?") for `seconds`; 0: the call is over."""

    player: int
    seconds: float = 0.0


@message("seat_changed")
class SeatChanged(Event):
    """`player`'s seat is played by `kind` (a level or "human") from turn `turn` on (1 = the
    game's first turn; a turn the seat had begun is finished by the new player)."""

    player: int
    kind: str
    was: str
    turn: int
    reason: str = ""


@message("game_abandoned")
class GameAbandoned(Event):
    """The running game was stopped without a winner (`replaced`: by a new game, which shows next)."""

    reason: str
    replaced: bool = False


@message("ai_thinking")
class AIThinking(Event):
    """An AI seat is computing its turn (off the main thread)."""

    player: int
    level: str


@message("kiosk_stopping")
class KioskStopping(Event):
    """The kiosk is about to stop (views can say goodbye, the ring goes dark)."""

    reason: str
    status: int = 0
