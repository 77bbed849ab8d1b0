"""The record notation shared by both games: tags, turn lines, reading, writing, replaying.

A record is text (docs/notation.md): tag lines ``[Name "value"]`` first, then
one line per turn, ``12. red N3 ES 2,3 +bat``. What a turn line says after
the player is the game's business (its codec: engine/labyrinth/record.py,
engine/cards/record.py, each registered with :func:`register_codec`); this module
numbers the turns, checks that the named player is the one to act, and turns
every refusal into a :class:`RecordError` that names the turn.

Pure: strings in, strings out; the engine replays every turn, so a record
that reads is a record of a legal game.
"""

from __future__ import annotations

import importlib
import json
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterator, Protocol, Self

from engine.errors import IllegalAction, InvalidState
from engine.outcome import GAME_OVER

if TYPE_CHECKING:
    from engine.outcome import Outcome

NOTATION_VERSION = "1"
#: Tags written first, in this order (like the seven tags of a chess record).
TAG_ORDER = (
    "Game",
    "Notation",
    "Date",
    "Rules",
    "TurnLimit",
    "Players",
    "SeatChanges",
    "First",
    "Seed",
    "Start",
    "Result",
    "End",
    "Turns",
)
#: The tag of the seats that changed hands: ``turn:name:who`` from that turn on, oldest first.
SEAT_CHANGES = "SeatChanges"
UNFINISHED = "*"  # Result of a game that was not over when the record ends
NOBODY = "none"  # Result of a finished game without a winner

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_TURN = re.compile(r"^(\d+)\.\s+(\S+)\s*(.*)$")


class RecordedState(Protocol):
    """What records read of a game's engine state (engine.Game, engine.cards.CardGame)."""

    @property
    def phase(self) -> str: ...
    @property
    def current(self) -> int: ...
    @property
    def turns(self) -> int: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def outcome(self) -> Outcome | None: ...
    def legal_actions(self) -> list[Any]: ...
    def apply(self, action: Any) -> None: ...  # the game's own action types
    def copy(self) -> Self: ...
    def to_dict(self) -> dict[str, Any]: ...


class Codec(Protocol):
    """A game's turn notation: a module such as engine.labyrinth.record or engine.cards.record.

    A game's record module is its codec (a module satisfies this Protocol) and registers
    itself with :func:`register_codec` when imported. Each codec takes only its own game's
    states and actions, which ``codec_for`` pairs by the record's ``Game`` tag; a type
    checker cannot follow that pairing, so states and actions are ``Any`` here and typed
    in the codec's module.
    """

    KIND: str  # the Game tag, the same word as the save's "game"

    def player_count(self, state: Any) -> int: ...
    def player_name(self, state: Any, index: int) -> str: ...
    def start_tags(self, state: Any) -> dict[str, str]: ...
    def start(self, tags: dict[str, str]) -> RecordedState: ...
    def result_tags(self, state: Any) -> dict[str, str]: ...
    def turn_text(self, before: Any, actions: tuple[Any, ...], after: Any) -> str: ...
    def play_turn(self, state: Any, words: list[str]) -> list[Any]: ...
    def infer_action(self, before: Any, after: Any) -> Any | None: ...


class RecordError(ValueError):
    """A record that cannot be read or replayed. `turn` is the turn number (None: the header)."""

    def __init__(self, message: str, turn: int | None = None, line: int | None = None):
        where = [f"turn {turn}" if turn is not None else "", f"line {line}" if line is not None else ""]
        where = [w for w in where if w]
        super().__init__(
            f"{where[0]}{' (' + where[1] + ')' if len(where) > 1 else ''}: {message}" if where else message
        )
        self.turn = turn
        self.line = line
        self.reason = message


@dataclass
class Turn:
    """One turn: its number (1 = the first turn of the game), the player index and the engine actions."""

    number: int
    player: int
    actions: tuple[Any, ...]  # the game's own action types
    comment: str = ""


@dataclass
class Record:
    """A whole game: tags (in order) and turns. Build one with :class:`Recorder` or :func:`read_record`."""

    tags: dict[str, str]
    turns: list[Turn] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.tags.get("Game", "")

    @property
    def codec(self) -> Codec:
        return codec_for(self.kind)

    @property
    def levels(self) -> list[str]:
        """Who played each seat, in player order ("human" or an AI level)."""
        return [part.partition(":")[2] for part in self.tags.get("Players", "").split()]

    def played_by(self, turn: int) -> list[str]:
        """Who played each seat in turn `turn` (1 = the first): ``Players``, then ``SeatChanges``."""
        who = self.levels
        names = [part.partition(":")[0] for part in self.tags.get("Players", "").split()]
        for first, name, kind in seat_changes(self.tags):
            if first <= turn and name in names:
                who[names.index(name)] = kind
        return who

    def start(self) -> RecordedState:
        """A fresh engine state at the start of the record."""
        try:
            return self.codec.start(self.tags)
        except (ValueError, TypeError, KeyError) as exc:
            raise RecordError(f"cannot set up the game from the header: {exc}") from None

    def replay(self) -> Iterator[tuple[Turn, RecordedState]]:
        """Each turn with the state after it (a fresh copy per turn, safe to keep)."""
        state = self.start()
        for turn in self.turns:
            for action in turn.actions:
                state.apply(action)
            yield turn, state.copy()

    def final(self) -> RecordedState:
        """The state after the last turn."""
        state = self.start()
        for turn in self.turns:
            for action in turn.actions:
                state.apply(action)
        return state

    def text(self) -> str:
        """The record as notation (docs/notation.md)."""
        return format_record(self)


#: How many whole turns :meth:`Recorder.take_back` can take back (an undo reaches the last one).
TAKE_BACK_TURNS = 2


class Recorder:
    """Writes a record while a game is played: hand it every action applied to the real game.

        recorder = Recorder(game, levels=["human", "hard"], date="2026-11-30")
        game.apply(action); recorder.apply(action)
        text = recorder.text()

    It keeps its own copy of the game (the copy is the one it checks actions on),
    so a record can never hold a turn the engine did not allow.
    """

    def __init__(self, state: RecordedState, levels: list[str] | tuple[str, ...], date: str = "", **tags: str):
        self.codec = codec_for(state.to_dict()["game"])
        self.state = state.copy()
        start_tags = self.codec.start_tags(self.state)
        if len(levels) != self.codec.player_count(self.state):
            raise ValueError(f"{len(levels)} levels for {self.codec.player_count(self.state)} players")
        names = [self.codec.player_name(self.state, i) for i in range(len(levels))]
        self.tags: dict[str, str] = {"Game": self.codec.KIND, "Notation": NOTATION_VERSION}
        if date:
            self.tags["Date"] = date
        self.tags.update(start_tags)
        self.tags["Players"] = " ".join(f"{n}:{lv}" for n, lv in zip(names, levels))
        self.tags.update({k: str(v) for k, v in tags.items()})
        self.turns: list[Turn] = []
        self.lines: list[str] = []  # the turn lines so far (written as the turns end: no replays)
        self._pending: list[Any] = []
        self._before = self.state
        self._turns_at_start = self.state.turns
        self._recent: list[RecordedState] = []  # the state before each of the last TAKE_BACK_TURNS turns (take_back)

    @classmethod
    def continuing(cls, record: "Record") -> "Recorder":
        """A recorder that goes on where `record` ends (a resumed game continues its record)."""
        new = cls.__new__(cls)
        new.codec = record.codec
        new.state = record.final()
        new.tags = {k: v for k, v in record.tags.items() if k not in ("Result", "End", "Turns")}
        new.turns = list(record.turns)
        new.lines = turn_lines(record)
        new._pending = []
        new._before = new.state
        new._turns_at_start = record.start().turns
        new._recent = []
        return new

    def apply(self, action: Any) -> None:
        """Record one action (raises IllegalAction, like the engine, if it is not legal here)."""
        player, turns = self.state.current, self.state.turns
        before = self.state.copy() if not self._pending else self._before
        self.state.apply(action)
        self._before = before
        self._pending.append(action)
        if self.state.turns != turns or self.state.phase == GAME_OVER:
            turn = Turn(turns + 1, player, tuple(self._pending))
            self.turns.append(turn)
            self.lines.append(_turn_line(self.codec, before, turn, self.state))
            self._pending = []
            self._recent = [*self._recent[-(TAKE_BACK_TURNS - 1) :], before]

    def take_back(self, state: RecordedState) -> bool:
        """Forget the last actions until the record's game is `state` again (an undo at the table):
        the actions of the turn being played, then those of the last turns it recorded itself (at
        most :data:`TAKE_BACK_TURNS`). True when it got there; False (and unchanged) when `state`
        is not a position it passed through."""
        saved = (self.state, list(self.turns), list(self.lines), list(self._pending), self._before, list(self._recent))
        target = state.to_dict()  # positions compare as saved (GameState promises to_dict, not ==)
        while self.state.to_dict() != target:
            if self._pending:
                self._pending.pop()
            elif self._recent and len(self.turns) > 0:
                self._before = self._recent.pop()
                self._pending = list(self.turns.pop().actions)
                self.lines.pop()
            else:
                self.state, self.turns, self.lines, self._pending, self._before, self._recent = saved
                return False
            self.state = self._before.copy()
            for action in self._pending:
                self.state.apply(action)
        return True

    def record(self) -> Record:
        tags = dict(self.tags)
        tags.update(self.codec.result_tags(self.state))
        tags["Turns"] = str(len(self.turns))
        return Record(_ordered(tags), list(self.turns))

    def text(self) -> str:
        record = self.record()
        return "\n".join([*_tag_lines(record.tags), "", *self.lines]) + "\n"


# ----------------------------------------------------------------- writing


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _ordered(tags: dict[str, str]) -> dict[str, str]:
    first = {k: tags[k] for k in TAG_ORDER if k in tags}
    first.update({k: v for k, v in tags.items() if k not in first})
    return first


def _tag_lines(tags: dict[str, str]) -> list[str]:
    return [f"[{k} {_quote(v)}]" for k, v in _ordered(tags).items()]


def _turn_line(codec: Codec, before: RecordedState, turn: Turn, after: RecordedState) -> str:
    line = f"{turn.number}. {codec.player_name(before, turn.player)} {codec.turn_text(before, turn.actions, after)}"
    return line + (f"  # {turn.comment}" if turn.comment else "")


def turn_lines(record: Record) -> list[str]:
    """The turn lines of a record, written from a replay (so they are checked too)."""
    lines = []
    state = record.start()
    for turn in record.turns:
        before = state.copy()
        for action in turn.actions:
            state.apply(action)
        lines.append(_turn_line(record.codec, before, turn, state))
    return lines


def seat_changes(tags: dict[str, str]) -> list[tuple[int, str, str]]:
    """The ``SeatChanges`` tag as (first turn, player name, who), oldest first; RecordError if garbled."""
    out = []
    for part in tags.get(SEAT_CHANGES, "").split():
        turn, _, rest = part.partition(":")
        name, _, who = rest.partition(":")
        if not (turn.isdigit() and name and who):
            raise RecordError(f"{SEAT_CHANGES}: {part[:40]!r} is not turn:player:who")
        out.append((int(turn), name, who))
    return out


def format_record(record: Record) -> str:
    """The notation of a record; turns are written from a replay, so they are checked too."""
    return "\n".join([*_tag_lines(record.tags), "", *turn_lines(record)]) + "\n"


# ----------------------------------------------------------------- reading


def parse_tags(text: str) -> tuple[dict[str, str], list[tuple[int, str]]]:
    """The tag lines and the remaining (line number, text) lines, comments and blanks dropped."""
    tags: dict[str, str] = {}
    body: list[tuple[int, str]] = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            if body:
                raise RecordError("a tag line after the first turn", line=number)
            match = _TAG.match(line)
            if not match:
                raise RecordError(f'not a tag line: {line[:60]!r} (expected [Name "value"])', line=number)
            name, value = match.group(1), re.sub(r"\\(.)", r"\1", match.group(2))
            if name in tags:
                raise RecordError(f"tag {name} given twice", line=number)
            tags[name] = value
        else:
            body.append((number, line))
    return tags, body


def read_record(text: str) -> Record:
    """Read and replay a record; raises RecordError naming the turn that is illegal or damaged."""
    if not isinstance(text, str):
        raise RecordError("a record is text")
    tags, body = parse_tags(text)
    if "Game" not in tags:
        raise RecordError('no [Game "..."] tag: not a game record')
    if tags.get("Notation", NOTATION_VERSION) != NOTATION_VERSION:
        raise RecordError(f"notation version {tags['Notation']!r} is not known here (this reader: {NOTATION_VERSION})")
    try:
        codec = codec_for(tags["Game"])
    except ValueError as exc:
        raise RecordError(str(exc)) from None
    seat_changes(tags)  # a garbled SeatChanges tag is refused here, not when it is read
    record = Record(tags)
    state = record.start()
    names = [codec.player_name(state, i) for i in range(codec.player_count(state))]
    if "Players" in tags:
        listed = [part.partition(":")[0] for part in tags["Players"].split()]
        if listed != names:
            raise RecordError(f"Players lists {' '.join(listed) or 'nobody'} but the game has {' '.join(names)}")
    for line_no, line in body:
        record.turns.append(_read_turn(codec, state, names, line_no, line))
    _check_result(record, codec, state)
    return record


def _read_turn(codec: Codec, state: RecordedState, names: list[str], line_no: int, line: str) -> Turn:
    """One turn line, played on `state`; RecordError names the turn when it does not fit."""
    line, _, comment = line.partition("#")
    match = _TURN.match(line.strip())
    expected = state.turns + 1
    if not match:
        raise RecordError(
            f"not a turn line: {line.strip()[:60]!r} (expected '{expected}. <player> ...')", turn=expected, line=line_no
        )
    number, name, rest = int(match.group(1)), match.group(2), match.group(3)
    if number != expected:
        raise RecordError(
            f"numbered {number}, but turn {expected} comes next (a turn is missing or out of order)",
            turn=expected,
            line=line_no,
        )
    if state.phase == GAME_OVER:
        raise RecordError("the game was already over", turn=number, line=line_no)
    if name != names[state.current]:
        raise RecordError(f"{name} is named, but it is {names[state.current]}'s turn", turn=number, line=line_no)
    player = state.current
    try:
        actions = codec.play_turn(state, rest.split())
    except (IllegalAction, InvalidState, ValueError) as exc:
        raise RecordError(str(exc), turn=number, line=line_no) from None
    return Turn(number, player, tuple(actions), comment.strip())


def _check_result(record: Record, codec: Codec, state: RecordedState) -> None:
    """The header's Result, End and Turns must be what the replay gives."""
    last = record.turns[-1].number if record.turns else state.turns
    got = codec.result_tags(state)
    said = record.tags.get("Result")
    if said is not None and said != got["Result"]:
        if got["Result"] == UNFINISHED:
            raise RecordError(
                f"the record ends after turn {last} but the game is not over there, while "
                f"Result says {said!r}: turns are missing",
                turn=last + 1,
            )
        raise RecordError(f"Result says {said!r} but the replay gives {got['Result']!r}")
    if "Turns" in record.tags and record.tags["Turns"] != str(len(record.turns)):
        raise RecordError(
            f"Turns says {record.tags['Turns']} but the record holds {len(record.turns)} turns",
            turn=last + 1 if len(record.turns) < _int(record.tags["Turns"]) else None,
        )


def _int(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        return -1


# ----------------------------------------------------------------- helpers for the codecs


def start_position(tags: dict[str, str]) -> dict[str, Any] | None:
    """The Start tag (a saved state as JSON) if there is one: games not set up from a seed."""
    if "Start" not in tags:
        return None
    try:
        data = json.loads(tags["Start"])
    except ValueError as exc:
        raise ValueError(f"the Start tag is not a saved position: {exc}") from None
    if not isinstance(data, dict):
        raise ValueError("the Start tag is not a saved position")
    return data


def seed_of(tags: dict[str, str]) -> int:
    if "Seed" not in tags:
        raise ValueError("no Seed tag and no Start tag: the start position is unknown")
    try:
        return int(tags["Seed"])
    except ValueError:
        raise ValueError(f"Seed {tags['Seed']!r} is not a whole number") from None


def needs_start_tag(state: RecordedState, mid_turn: bool = False) -> bool:
    """A seed alone rebuilds only a fresh game set up from an integer seed; `mid_turn`: a turn
    has begun (its first action is not in the record), which only the game's codec can tell."""
    return not isinstance(state.seed, int) or isinstance(state.seed, bool) or state.turns != 0 or mid_turn


def end_words(state: RecordedState, fallback: str) -> str:
    """Why a finished game ended, in words: the engine's termination ("home", "turn limit", ...)."""
    if state.outcome is None:
        return fallback
    return state.outcome.termination.value.replace("_", " ")


def start_json(state: RecordedState) -> str:
    return json.dumps(state.to_dict(), separators=(",", ":"))


def add_start_tags(tags: dict[str, str], state: RecordedState, mid_turn: bool = False) -> None:
    """The Seed tag, and the Start tag (the whole position) where a seed alone cannot rebuild it."""
    if needs_start_tag(state, mid_turn):
        if state.seed is not None:
            tags["Seed"] = str(state.seed)
        tags["Start"] = start_json(state)
    else:
        tags["Seed"] = str(state.seed)


_CODECS: dict[str, Codec] = {}


def register_codec(codec: Codec) -> Codec:
    """Make a game's notation known (its record module calls this once, at import)."""
    _CODECS[codec.KIND] = codec
    return codec


def codec_for(kind: str) -> Codec:
    """The turn notation of a game kind; ValueError naming the known kinds otherwise.

    A game whose engine is the package ``engine.<kind>`` is imported on first use, so a
    record reads without its game imported first; any other game registers its codec itself.
    """
    if kind not in _CODECS and kind.isidentifier():
        try:
            importlib.import_module(f"engine.{kind}")
        except ImportError:
            pass
    try:
        return _CODECS[kind]
    except KeyError:
        raise ValueError(f"game {kind!r} is not known; records exist for {', '.join(sorted(_CODECS))}") from None


def lines_by_turn(text: str) -> dict[int, str]:
    """The turn lines of a record as written, by turn number (what a replay shows as a caption)."""
    out = {}
    for line in text.splitlines():
        head, _, _ = line.partition(".")
        if head.strip().isdigit():
            out[int(head)] = line.strip()
    return out
