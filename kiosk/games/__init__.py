"""The games the kiosk can play: each declares itself once, here is where they are found.

In the spirit of OpenSpiel's ``GameType`` + ``register_game``: a game's folder
(``kiosk/games/<name>/``) builds one :class:`GameType` and calls
:func:`register_game`. The kiosk core (app, headless loop, config, CLI,
persistence, history, ring, simulator, UI shell) asks this registry and names
no game. docs/adding-a-game.md lists what a game provides.

A game may also ship as its own Python package: it names a module (or a
GameType object) in the entry-point group ``labyrinth_kiosk.games``; the
module registers its game when imported::

    [project.entry-points."labyrinth_kiosk.games"]
    race = "race_game.kiosk"

The built-in games are the packages under ``kiosk/games/``, found by their
folder and registered on first use (imported lazily so that ``import kiosk``
stays cheap); each declares its place in the setup's order (``GameType.order``):

>>> names()[0]
'labyrinth'
>>> get("cards").players
(2, 6)
"""

from __future__ import annotations

import enum
import functools
import importlib
import logging
import pkgutil
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

from hardware import plugins
from kiosk.errors import ContractError

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.bus import Bus
    from kiosk.core.clock import Clock
    from kiosk.core.events import Command, GameSetup
    from kiosk.core.session import GameSession

log = logging.getLogger(__name__)

#: The entry-point group a separately installed game uses.
ENTRY_POINT_GROUP = "labyrinth_kiosk.games"
#: The seat kind of a person (every other seat kind is one of a game's AI levels).
HUMAN = "human"


@dataclass(frozen=True)
class ScriptWords:
    """A game's lines in an input script (docs/headless.md).

    ``parse(words, bad)`` turns a line's words (verb first) into the step's
    arguments, raising ``bad(why)`` for a malformed line; ``play(session, verb,
    args)`` gives the commands that line posts on the bus; ``lines(session,
    action)`` the lines (the kiosk's ``button NAME`` among them) a person types
    to play an engine action of the running game, so any game's person seat
    can be played from its engine (the conformance test over every game).
    """

    verbs: tuple[str, ...]
    usage: str  # e.g. "tap ROW COL, stay"
    parse: Callable[[list[str], Callable[[str], Exception]], tuple]
    play: Callable[[Any, str, tuple], Sequence["Command"]]
    lines: Callable[[Any, Any], Sequence[str]] | None = None


class ButtonLedView(Protocol):
    """A game's view lighting the arcade buttons' LEDs from bus events (``GameType.button_leds``)."""

    enabled: bool  # False while the operator's button test owns the LEDs

    def refresh(self) -> None:
        """Show again what the game wants lit (after the button test)."""


@dataclass(frozen=True)
class Variant:
    """One of a game's rule choices, declared in the game's folder (``GameType.variants``).

    The kiosk reads everything about it from here: ``GameSetup.variants[name]`` carries the chosen
    value, ``[game] <config_key>`` (default: `name`) the operator's, ``text_key`` names it on the
    screens, and the history records ``history`` (a "{}" in it stands for the value) for any value
    but the default.
    """

    name: str
    choices: tuple[Any, ...]  # the values it may take, e.g. (False, True) or (3, 5, 0)
    default: Any
    text_key: str = ""
    history: str = ""  # the history's word when not the default ("" : the name)
    config_key: str = ""  # its key in the config's [game] section ("": the name)
    #: the default under an operator's preset where it differs (``(("public", 3),)``): a walk-up
    #: visitor gets a game that fits a visit, a family the full one; a [game] key written wins
    preset_defaults: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        for value in (self.default, *(v for _, v in self.preset_defaults)):
            if value not in self.choices:
                raise ContractError(f"variant {self.name}: the default {value!r} is not one of its choices")

    def default_for(self, preset: str) -> Any:
        """The default under operator preset `preset` (``[kiosk] preset``)."""
        return dict(self.preset_defaults).get(preset, self.default)

    @property
    def key(self) -> str:
        """Its key in the config's ``[game]`` section."""
        return self.config_key or self.name

    def check(self, value: Any) -> Any:
        """`value` if it is one of the choices (a bool is no number), else ValueError naming them."""
        if not any(value == c and type(value) is type(c) for c in self.choices):
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in self.choices)
            raise ValueError(f"{self.name} must be one of {shown}, not {value!r}")
        return value

    def word(self, value: Any) -> str | None:
        """The history's word for `value`; None for the default."""
        if value == self.default:
            return None
        word = self.history or self.name
        return word.format(value) if "{}" in word else word


class Moment(enum.Enum):
    """The moments of a game its session tells the kiosk's persistence of (``save(session, moment)``;
    kiosk/store/game_persistence.py keeps the game at each)."""

    BEGIN = "begin"  # a new game, at its start position
    STEP = "step"  # one more committed action (a shift, a move, a card laid...)
    UNDO = "undo"  # actions taken back
    SEAT_CHANGE = "seat_change"  # a seat changed hands
    END = "end"  # the game is over: its last action is committed
    ABANDON = "abandon"  # left unfinished on purpose or after the idle time
    RESUME = "resume"  # a saved game continued after a restart


@dataclass(frozen=True)
class SessionOptions:
    """What the kiosk tells every game's session when it builds it."""

    bus: "Bus"
    clock: "Clock"
    fast: bool = False  # no pacing (headless --fast, tests)
    pace: float = 1.0  # [kiosk] ai_pace_ms relative to the default pacing
    save: Callable[[Any, Moment], None] | None = None
    executor: Any = None
    config: Any = None  # the kiosk's Config (a game reads its own keys)
    #: True while the operator's button test has the arcade buttons (the session plays no press then)
    button_test: Callable[[], bool] = lambda: False


@dataclass(frozen=True)
class GameType:
    """Everything the kiosk needs to know about one game, declared once in the game's folder.

    ``name`` is the word for it everywhere: ``GameSetup.game``, the save's
    ``"game"``, ``[game] game`` in the config, ``--game`` on the command lines,
    the history's ``game``.
    """

    name: str
    title: str  # shown to people in English (logs, command lines)
    players: tuple[int, int]  # fewest and most players
    ai_levels: tuple[str, ...]  # computer seat kinds, weakest first
    load: Callable[[Any], Any]  # a save's state dict -> engine state (InvalidState if bad)
    #: a fresh engine state: (players, seed, turn_limit) -> state (engine.GameState); the conformance
    #: test over every registered game (tests/games/test_conformance.py) plays from it
    new: Callable[[int, int | None, int], Any]
    session: Callable[[SessionOptions], "GameSession"]
    events: str  # the module defining the game's messages
    default_seats: tuple[str, ...]  # GameSetup() of this game: who plays
    #: the text key of its name on the screens (kiosk/locale), e.g. "setup.card_game"; "": `title`
    title_key: str = ""
    #: its place among the built-in games (the setup screen's and --game's order): lower first
    order: int = 100
    script: ScriptWords | None = None
    #: seat kinds for a config's seats the game has no AI for (e.g. cards: medium -> easy)
    ai_aliases: Mapping[str, str] = field(default_factory=dict)
    #: the button LEDs: (bus, leds) -> a view with ``enabled`` and ``refresh()`` that lights them
    button_leds: Callable[["Bus", Any], ButtonLedView] | None = None
    #: its rule choices (kiosk.games.Variant): GameSetup.variants, the [game] config keys, the
    #: setup screen and the history read them from here
    variants: tuple[Variant, ...] = ()
    #: the chosen variants of a running game (engine state -> {variant name: value}), for the history
    variant_values: Callable[[Any], Mapping[str, Any]] = lambda game: {}
    #: the history's words of a running game beyond its declared variants (e.g. a puzzle's grade)
    mode_words: Callable[[Any], tuple[str, ...]] = lambda game: ()
    #: the history's ``score`` of a finished game (e.g. a puzzle's stars), None: the game has none
    score: Callable[[Any], int | None] = lambda game: None
    #: the UI: a function returning {screen name: Screen class}, imported only with a display
    screens: Callable[[], Mapping[str, type]] | None = None
    #: the screen the UI shows while this game runs, and the one for its end
    play_screen: str = ""
    over_screen: str = ""
    #: its part of the setup screen (who plays, its own rules): a function returning a
    #: kiosk.ui.kit.setup_panel.SetupPanel subclass, imported only with a display; None: the
    #: setup screen does not offer the game
    setup_panel: Callable[[], type] | None = None
    #: the screen that shows how to play it (the setup's and the in-game menu's "How to play")
    howto_screen: str = ""
    #: the screen ``labyrinth-replay --display`` steps a record of this game on ("": none)
    replay_screen: str = ""
    #: the sound cues of the game's own events: a function returning {event class: event -> a
    #: ``kiosk.sound.Cue`` or None}; the life cycle (your turn, game won) sounds for every game
    sounds: Callable[[], Mapping[type, Callable[[Any], Any]]] | None = None
    #: the labyrinth-sim runner (kiosk.tools.sim.sweep.Runner), imported only by the simulator
    sim: Callable[[], Any] | None = None
    #: the game's tile/card/seat words the kiosk shows in texts (i18n keys) -- free for the game
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: its players sit at the board's four corners (a seat is a corner; kiosk/ui/kit/seating.py)
    corner_seats: bool = False
    #: the attract screen's demo: a function returning the game's demo parts (its board view, a
    #: private session, a replay of a filed record: kiosk/games/labyrinth/demo.py BoardDemo)
    demo: Callable[[], Any] | None = None
    #: a theme pack's picture sets this game shows: folder -> the treasures it holds (docs/themes.md)
    theme_kinds: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the text key a treasure's name has, by picture set: folder -> prefix ("board" -> "treasure.");
    #: an installed theme's names replace those texts
    theme_texts: Mapping[str, str] = field(default_factory=dict)
    #: a position as text for ``labyrinth-replay`` in a terminal (kiosk/games/<name>/text_board.py)
    text_board: Callable[[Any], str] | None = None
    #: ``labyrinth-replay --analyze``: (record, AI level or None) -> engine.records.analysis.Mark list
    analyze: Callable[[Any, str | None], Sequence[Any]] | None = None
    #: the AI level whose suggestions the analysis shows by default (None: the game has no levels)
    analysis_level: Callable[[], str] | None = None
    #: the layout audit (kiosk/ui/audit/layout.py): a function returning the states of its screens
    #: it measures, imported only with a display
    audit: Callable[[], Sequence[Any]] | None = None

    @property
    def default_ai(self) -> str:
        """The computer a seat gets unless someone says otherwise: the first in `default_seats`,
        else the weakest level (a person for a game without computers)."""
        return next((k for k in self.default_seats if k != HUMAN), self.ai_levels[0] if self.ai_levels else HUMAN)

    @property
    def seat_kinds(self) -> tuple[str, ...]:
        """Who may sit at a seat: a person or one of the AI levels."""
        return (HUMAN, *self.ai_levels)

    def check_setup(self, setup: "GameSetup") -> None:
        """ValueError naming the problem if `setup` does not fit this game."""
        self.check_seats(setup.kinds)
        declared = {v.name: v for v in self.variants}
        for name, value in setup.variants.items():
            if name not in declared:
                raise ValueError(f"the {self.name} game has no {name} variant")
            declared[name].check(value)

    def check_seats(self, kinds: Sequence[Any], players: int | None = None) -> None:
        """ValueError naming the problem if `kinds` cannot sit at this game (at one of `players`
        players when given: a save's): each a seat kind it has, as many as it seats."""
        low, high = self.players if players is None else (players, players)
        if not low <= len(kinds) <= high:
            raise ValueError(f"a {self.name} game needs {low} to {high} players, not {len(kinds)}")
        for kind in kinds:
            if kind not in self.seat_kinds:
                raise ValueError(f"seat kind {kind!r} is not one of {', '.join(self.seat_kinds)}")

    def variant_named(self, name: str) -> Variant:
        """Its variant `name`; ValueError naming the ones it has."""
        for v in self.variants:
            if v.name == name:
                return v
        raise ValueError(f"the {self.name} game has no {name} variant (it has: {', '.join(self.variant_names)})")

    @property
    def variant_names(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.variants)

    def variant_words(self, game: Any) -> tuple[str, ...]:
        """The history's variant words of a running game (e.g. ("open_cards",)); () = its defaults."""
        return self.words_of(self.variant_values(game)) + tuple(self.mode_words(game))

    def words_of(self, values: Mapping[str, Any]) -> tuple[str, ...]:
        """The history's words of these variant values (e.g. ("open_cards", "treasures_3")); () = the defaults."""
        words = (v.word(values.get(v.name, v.default)) for v in self.variants)
        return tuple(w for w in words if w is not None)

    def seat_kind(self, kind: str) -> str:
        """A seat kind from a config or a command line, mapped to one this game has."""
        return self.ai_aliases.get(kind, kind)


_GAMES: dict[str, GameType] = {}
_loaded = False


def register_game(game: GameType) -> GameType:
    """Make `game` known to the kiosk (a game's module calls this once, at import)."""
    old = _GAMES.get(game.name)
    if old is not None and old is not game:
        raise ContractError(f"a game named {game.name!r} is registered already")
    _GAMES[game.name] = game
    return game


def unregister_game(name: str) -> None:
    """Forget a game (tests that register a game of their own)."""
    _GAMES.pop(name, None)


def _load() -> None:
    """Import the built-in games and every game announced through the entry-point group (found by
    hardware.plugins, the scanner the ring drivers use too)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for module in built_in():
        importlib.import_module(module)
    for name, ep in plugins.announced(ENTRY_POINT_GROUP).items():
        try:
            obj = ep.load()
        except Exception:
            # A broken plug-in must not take the kiosk down with it: say so and play the others.
            log.exception("the game %r (entry point %s) cannot be loaded", name, ep.value)
            continue
        if isinstance(obj, GameType):
            register_game(obj)


@functools.cache
def built_in() -> tuple[str, ...]:
    """The built-in games' packages: every package folder under kiosk/games/ (a new game
    needs no line anywhere else)."""

    return tuple(f"{__name__}.{m.name}" for m in pkgutil.iter_modules(__path__) if m.ispkg)


def get(name: str) -> GameType:
    """The registered game `name`; ValueError naming the known games otherwise."""
    _load()
    try:
        return _GAMES[name]
    except KeyError:
        raise ValueError(f"unknown game {name!r}; the games are {', '.join(names())}") from None


def _order(game: GameType) -> tuple[bool, int, str]:
    """Built-in games in their declared order, then the others by name."""
    outside = f"{__name__}.{game.name}" not in built_in()
    return (outside, 0 if outside else game.order, game.name)


def all_games() -> tuple[GameType, ...]:
    """The registered games, the built-in ones first (the setup screen's and --game's order)."""
    _load()
    return tuple(sorted(_GAMES.values(), key=_order))


def names() -> tuple[str, ...]:
    """The registered games' names, the built-in ones first."""
    return tuple(g.name for g in all_games())


def seat_kinds() -> tuple[str, ...]:
    """Every seat kind of every registered game: a person first, then the AI levels, weakest first
    (the config's seats, the history's and the statistics' order)."""
    return tuple(dict.fromkeys(k for g in all_games() for k in g.seat_kinds))


def all_variants() -> tuple[Variant, ...]:
    """Every registered game's variants, one per name (the first game's declaration of it): the
    config's [game] keys and the command lines' options."""
    found: dict[str, Variant] = {}
    for g in all_games():
        for v in g.variants:
            found.setdefault(v.name, v)
    return tuple(found.values())


def variant_option(variant: Variant) -> str:
    """The command-line option of a variant: ``--open-cards`` (a switch off by default),
    ``--no-return-home`` (one on by default), ``--treasures N`` (any other)."""
    word = variant.name.replace("_", "-")
    if variant.default is True:
        return f"--no-{word}"
    return f"--{word}"


def of_event(event: Any) -> GameType:
    """The game whose messages module defines `event`'s class."""
    module = type(event).__module__
    for game in all_games():
        if game.events == module:
            return game
    raise ContractError(f"{type(event).__name__} is no registered game's message")


def default() -> str:
    """The game a kiosk plays when nothing says which: the first one registered."""
    return names()[0]


def session_in_play(sessions: Mapping[str, Any]) -> Any:
    """Of a kiosk's sessions (one per game), the one whose game runs or ran last; else the default's."""
    for session in sessions.values():
        if session.game is not None:
            return session
    return sessions[default()]
