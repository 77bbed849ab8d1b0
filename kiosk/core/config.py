"""The kiosk's configuration: one TOML file, checked completely before anything starts.

An unattended kiosk must not half-start on a typo. Every key is known here
with its type, default and allowed values; `load()` turns the file into typed,
frozen dataclasses or raises one :class:`ConfigError` whose message names the
file and the key (``/etc/labyrinth-kiosk/config.toml: [buttons] pins.N3 = 17
is already used by pins.E1``). The CLI turns that into exit status 2, which
the systemd unit does not restart (``RestartPreventExitStatus=2``).

`config.example.toml` at the top of the repository documents every key.
"""

from __future__ import annotations

import difflib
import logging
import re
import sys
import tomllib
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable, Mapping

from hardware.buttons import ARROWS
from hardware.buttons import DEFAULT_BUTTON_PINS
from hardware.pins import PIN_FACTORIES
from hardware.ring import drivers as ring_drivers

from kiosk.games import HUMAN
from kiosk.errors import KioskError
from kiosk import games
from kiosk.store.safeio import CONFIG_LIMIT, UnsafeFile, read_bounded
from kiosk.ui.kit.i18n import LANGUAGES

log = logging.getLogger(__name__)

DEFAULT_PATH = Path("/etc/labyrinth-kiosk/config.toml")
DEFAULT_STATE_DIR = Path("/var/lib/labyrinth-kiosk")

#: The 12 insertion arrows, named as in docs/rules.md (declared once, in the engine).
#: What may sit in a seat: a person or an AI level of any registered game (kiosk.games;
#: a game maps another game's level to its own, e.g. the card game plays "medium" as "easy").
SEAT_KINDS = games.seat_kinds()
#: Player counts per game, from the registry (docs/rules.md: board game 1-4 incl. solo, card game 2-6).
PLAYER_RANGE = MappingProxyType({g.name: g.players for g in games.all_games()})
#: BCM numbers of the 40-pin header's GPIOs.
GPIO_RANGE = (0, 27)
#: Serial ports that use the header's UART pins (GPIO 14 TX, 15 RX).
UART_PORTS = ("/dev/serial0", "/dev/ttyAMA0", "/dev/ttyS0", "/dev/ttyAMA10")

DISPLAY_MODES = ("auto", "window", "fullscreen", "offscreen", "none")
LAYOUTS = ("tabletop", "upright")
GL_APIS = ("auto", "gl", "gles")
ROTATIONS = (0, 90, 180, 270)
# PIN_FACTORIES and the ring drivers are declared with the hardware they choose (hardware.pins;
# hardware.ring.drivers, the entry points of pyproject.toml); LANGUAGES with the texts' catalogs (kiosk.ui.kit.i18n).
#: The ring's fixed seats: the board's four corners (the card game cuts equal arcs of its own).
RING_SEATS = 4
#: Upper bounds of the times (seconds): a day of idling, about three years of resuming.
MAX_IDLE_S = 86_400
MAX_RESUME_S = 100_000_000
#: Most turns a game may be limited to (as the saves allow: engine/checks.py).
MAX_TURN_LIMIT = 1_000_000
#: The deepest a value may nest (a table of pins is 1; a list of pairs 2).
MAX_NESTING = 4
LOG_LEVELS = ("debug", "info", "warning", "error")

#: The default wiring (docs/wiring.md), declared with the buttons (hardware.buttons).
DEFAULT_PINS = MappingProxyType({name: pin for name, pin in DEFAULT_BUTTON_PINS.items() if name in ARROWS})
DEFAULT_ROTATE_PIN = DEFAULT_BUTTON_PINS["rotate"]
DEFAULT_STAY_PIN = DEFAULT_BUTTON_PINS["stay"]
DEFAULT_RING_PORT = "/dev/serial/by-id/usb-1a86_USB_Serial-if00-port0"


class ConfigError(KioskError, ValueError):
    """A configuration that cannot be used; the message names the file and the key."""


# --------------------------------------------------------------------- sections
def key(*, default: Any = None, factory: Callable[[], Any] | None = None, schema: Callable[[], Any]) -> Any:
    """A config key: its default and its schema (how TOML and command-line values are read and
    written, a ``_Field``), declared once on the dataclass field as mopidy's ConfigValue does.
    `schema` is called once the checks below are defined."""
    if factory is not None:
        return field(default_factory=factory, metadata={"schema": schema})
    return field(default=default, metadata={"schema": schema})


@dataclass(frozen=True)
class DisplayConfig:
    """How the kiosk draws: full screen on the Pi, a window on a desktop, or nothing."""

    mode: str = key(default="auto", schema=lambda: _Field(_choice(DISPLAY_MODES), from_text=str))
    size: tuple[int, int] | None = key(
        default=None,  # None: the screen's own size
        schema=lambda: _Field(_size, _dump_size, from_text=str),
    )
    rotation: int = key(default=0, schema=lambda: _Field(_choice(ROTATIONS), from_text=_text_int))
    layout: str = key(default="tabletop", schema=lambda: _Field(_choice(LAYOUTS), from_text=str))
    gl: str = key(default="auto", schema=lambda: _Field(_choice(GL_APIS), from_text=str))
    high_contrast: bool = key(
        default=False,  # stronger path/wall contrast, thicker outlines
        schema=lambda: _Field(_bool, from_text=_text_bool),
    )
    theme: str = key(
        default="builtin",  # kiosk/themes: "builtin" (our drawings) or an installed id
        schema=lambda: _Field(_theme, from_text=str),
    )


@dataclass(frozen=True)
class ButtonsConfig:
    """The 12 arcade buttons (BCM pin numbers), the optional extra buttons and their LEDs."""

    pins: Mapping[str, int] = key(
        factory=lambda: DEFAULT_PINS, schema=lambda: _Field(_pin_table(ARROWS, require_all=True), dict)
    )
    rotate_pin: int | None = key(
        default=DEFAULT_ROTATE_PIN,
        schema=lambda: _Field(_optional_gpio, lambda v: "none" if v is None else v, from_text=_text_int_or_word),
    )
    stay_pin: int | None = key(
        default=DEFAULT_STAY_PIN,
        schema=lambda: _Field(_optional_gpio, lambda v: "none" if v is None else v, from_text=_text_int_or_word),
    )
    led_pins: Mapping[str, int] = key(
        factory=lambda: MappingProxyType({}),
        schema=lambda: _Field(_pin_table(ARROWS + ("rotate", "stay"), require_all=False), dict),
    )
    bounce_ms: int = key(default=30, schema=lambda: _Field(_int(0, 1000), from_text=_text_int))
    confirm_push: bool = key(default=True, schema=lambda: _Field(_bool, from_text=_text_bool))
    pin_factory: str = key(default="auto", schema=lambda: _Field(_choice(PIN_FACTORIES), from_text=str))

    def used_pins(self) -> dict[int, str]:
        """Every claimed GPIO with the key that claims it (for the hardware test page)."""
        used: dict[int, str] = {}
        for name, pin in self.pins.items():
            used[pin] = f"pins.{name}"
        for key in ("rotate_pin", "stay_pin"):
            pin = getattr(self, key)
            if pin is not None:
                used[pin] = key
        for name, pin in self.led_pins.items():
            used[pin] = f"led_pins.{name}"
        return used


@dataclass(frozen=True)
class RingConfig:
    """The serial LED ring that shows whose turn it is."""

    driver: str = key(default="none", schema=lambda: _Field(_choice(ring_drivers.names), from_text=str))
    port: str = key(default=DEFAULT_RING_PORT, schema=lambda: _Field(_str, from_text=str))
    baud: int = key(default=115200, schema=lambda: _Field(_int(300, 4_000_000), from_text=_text_int))
    led_count: int = key(default=24, schema=lambda: _Field(_int(4, 2048), from_text=_text_int))
    offset: int = key(default=0, schema=lambda: _Field(_int(0, cap=2047), from_text=_text_int))
    reverse: bool = key(default=False, schema=lambda: _Field(_bool, from_text=_text_bool))
    seat_segments: tuple[tuple[int, int], ...] | None = key(
        default=None,  # (first LED, count) per seat
        schema=lambda: _Field(_segments, lambda v: "auto" if v is None else [list(s) for s in v]),
    )
    # hardware.ring.layout.RingLayout turns these into each seat's LEDs.
    brightness: int = key(default=160, schema=lambda: _Field(_int(0, 255), from_text=_text_int))


@dataclass(frozen=True)
class GameConfig:
    """What a new game looks like unless the visitors change it on the setup screen."""

    game: str = key(factory=lambda: games.default(), schema=lambda: _Field(_choice(tuple(PLAYER_RANGE)), from_text=str))
    players: int = key(default=2, schema=lambda: _Field(_int(1, cap=99), from_text=_text_int))
    seats: tuple[str, ...] = key(default=(HUMAN, "medium"), schema=lambda: _Field(_seats, list, from_text=_text_list))
    #: the games' variants by their [game] key (open_cards, return_home, treasures, ...): declared
    #: by each game (kiosk.games.Variant), every declared key present (its default unless written)
    variants: Mapping[str, Any] = field(
        default_factory=lambda: {v.key: v.default_for(DEFAULT_PRESET) for v in _declared_variants()}
    )
    language: str = key(default="en", schema=lambda: _Field(_choice(LANGUAGES), from_text=str))
    first_player: int | None = key(
        default=None,  # None: random
        schema=lambda: _Field(_first_player, lambda v: "random" if v is None else v, from_text=_text_int_or_word),
    )
    turn_limit: int = key(
        default=0,  # 0: no limit
        schema=lambda: _Field(_int(0, cap=MAX_TURN_LIMIT), from_text=_text_int),
    )
    hints: bool | None = key(
        default=None,  # None: on in the children's variants
        schema=lambda: _Field(_hints, lambda v: "auto" if v is None else v, from_text=_text_hints),
    )


#: The operator's presets: how long a game left alone waits (``idle_timeout_s``), how long the
#: attract screen then offers to continue it (``continue_s``), and how long one person's turn runs
#: untouched while others still play before their seat is called (``seat_timeout_s``). "public" (a
#: museum, a café): strangers come and go, a game is cleared soon; "home": a family's game survives
#: a phone call or a meal.
#: A key written in the config file wins over its preset.
PRESETS = MappingProxyType(
    {
        "public": MappingProxyType({"idle_timeout_s": 90, "continue_s": 120, "seat_timeout_s": 45}),
        "home": MappingProxyType({"idle_timeout_s": 600, "continue_s": 7200, "seat_timeout_s": 180}),
    }
)
DEFAULT_PRESET = "public"


@dataclass(frozen=True)
class KioskConfig:
    """Unattended operation: idle, attract mode, resume after a power cut, operator menu."""

    preset: str = key(default=DEFAULT_PRESET, schema=lambda: _Field(_choice(tuple(PRESETS)), from_text=str))
    idle_timeout_s: int = key(
        default=PRESETS[DEFAULT_PRESET]["idle_timeout_s"],
        schema=lambda: _Field(_int(0, cap=MAX_IDLE_S), from_text=_text_int),
    )
    idle_countdown_s: int = key(default=15, schema=lambda: _Field(_int(0, 600), from_text=_text_int))
    continue_s: int = key(
        default=PRESETS[DEFAULT_PRESET]["continue_s"],  # 0: a game left alone is archived at once
        schema=lambda: _Field(_int(0, cap=MAX_IDLE_S), from_text=_text_int),
    )
    #: a person's turn untouched this long while other people play: "Red, still there?" (0: never);
    #: unanswered for seat_countdown_s, the seat is played by the computer at seat_level
    seat_timeout_s: int = key(
        default=PRESETS[DEFAULT_PRESET]["seat_timeout_s"],
        schema=lambda: _Field(_int(0, cap=MAX_IDLE_S), from_text=_text_int),
    )
    seat_countdown_s: int = key(default=20, schema=lambda: _Field(_int(1, 600), from_text=_text_int))
    seat_level: str = key(
        default="easy", schema=lambda: _Field(_choice(tuple(k for k in SEAT_KINDS if k != HUMAN)), from_text=str)
    )
    attract: bool = key(default=True, schema=lambda: _Field(_bool, from_text=_text_bool))
    attract_replay: bool = key(
        default=True,  # the attract replays the day's best game, if there is one
        schema=lambda: _Field(_bool, from_text=_text_bool),
    )
    resume_within_s: int = key(default=1800, schema=lambda: _Field(_int(0, cap=MAX_RESUME_S), from_text=_text_int))
    operator_pin: str = key(default="2580", schema=lambda: _Field(_pin_code, from_text=str))
    ai_pace_ms: int = key(default=800, schema=lambda: _Field(_int(0, 60_000), from_text=_text_int))
    log_level: str = key(default="info", schema=lambda: _Field(_choice(LOG_LEVELS), from_text=str))


@dataclass(frozen=True)
class SoundConfig:
    """The sound cues (kiosk/sound): on or off, how loud, and when the attract jingle stays silent."""

    enabled: bool = key(default=True, schema=lambda: _Field(_bool, from_text=_text_bool))
    volume: int = key(
        default=70,  # percent
        schema=lambda: _Field(_int(0, 100), from_text=_text_int),
    )
    quiet_hours: tuple[int, int] | None = key(
        default=None,  # (start, end) minutes after midnight; None: never
        schema=lambda: _Field(_quiet_hours, _dump_quiet_hours, from_text=str),
    )


@dataclass(frozen=True)
class PathsConfig:
    """Where the kiosk writes: the saved game, its archive and the history."""

    state_dir: Path = key(
        default=DEFAULT_STATE_DIR, schema=lambda: _Field(_path, str, from_text=lambda s: str(Path(s).absolute()))
    )


@dataclass(frozen=True)
class Config:
    """The whole configuration; `source` says where it came from (for messages)."""

    display: DisplayConfig = field(default_factory=DisplayConfig)
    buttons: ButtonsConfig = field(default_factory=ButtonsConfig)
    ring: RingConfig = field(default_factory=RingConfig)
    game: GameConfig = field(default_factory=GameConfig)
    kiosk: KioskConfig = field(default_factory=KioskConfig)
    sound: SoundConfig = field(default_factory=SoundConfig)
    paths: PathsConfig = field(default_factory=PathsConfig)
    source: str = "defaults"

    def to_raw(self) -> dict[str, dict[str, Any]]:
        """The configuration as TOML-shaped plain values (the inverse of `from_raw`)."""
        raw: dict[str, dict[str, Any]] = {}
        for name, spec in _SECTIONS.items():
            section = getattr(self, name)
            values = section.variants if name == "game" else {}
            raw[name] = {
                key: f.dump(values[key] if key in values else getattr(section, key)) for key, f in spec.fields.items()
            }
        return raw


# ------------------------------------------------------------------ field specs
class _Bad(KioskError):
    """A value problem; the loader adds the file, section and key."""


@dataclass(frozen=True)
class _Field:
    parse: Callable[[Any], Any]  # TOML value -> typed value, raises _Bad
    dump: Callable[[Any], Any] = lambda v: v  # typed value -> TOML value
    from_text: Callable[[str], Any] | None = None  # a command-line string -> TOML value


def _type_name(value: Any) -> str:
    import datetime

    return {
        bool: "a boolean",
        int: "an integer",
        float: "a number",
        str: "a string",
        list: "a list",
        dict: "a table",
        datetime.date: "a date",
        datetime.datetime: "a date and time",
        datetime.time: "a time of day",
    }.get(type(value), type(value).__name__)


def _int(lo: int | None = None, hi: int | None = None, *, cap: int | None = None) -> Callable[[Any], int]:
    """A whole number from `lo` to `hi`; `cap` is an upper bound that only guards against
    absurd values (a 400-digit timeout), named in the message only when it is exceeded."""

    def parse(v: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise _Bad(f"must be an integer, not {_type_name(v)}")
        if lo is not None and v < lo:
            raise _Bad(f"must be at least {lo}" if hi is None else f"must be {lo} to {hi}")
        if hi is not None and v > hi:
            raise _Bad(f"must be at most {hi}" if lo is None else f"must be {lo} to {hi}")
        if cap is not None and v > cap:
            raise _Bad(f"must be at most {cap}")
        return v

    return parse


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise _Bad(f"must be true or false, not {_type_name(v)}")
    return v


def _choice(choices: tuple | Callable[[], tuple]) -> Callable[[Any], Any]:
    """One of `choices` (a function giving them: asked at each read, e.g. the installed ring drivers)."""

    def parse(v: Any) -> Any:
        options = choices() if callable(choices) else choices
        if isinstance(v, bool) or type(v) not in {type(o) for o in options}:
            kinds = " or ".join(sorted({_type_name(o) for o in options}))
            raise _Bad(f"must be {kinds}, not {_type_name(v)}")
        if v not in options:
            hint = _suggest(str(v), [str(o) for o in options])
            raise _Bad(f"must be one of {', '.join(map(str, options))}{hint}")
        return v

    return parse


#: Characters no path, device or word of the config holds (a NUL ends a path in the kernel's eyes).
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _str(v: Any) -> str:
    """A free string (a serial port, a path): any text but control characters."""
    if not isinstance(v, str):
        raise _Bad(f"must be a string, not {_type_name(v)}")
    if _CONTROL.search(v):
        raise _Bad("must not contain control characters (a NUL, a tab, a line break)")
    return v


def _gpio(v: Any) -> int:
    return _int(*GPIO_RANGE)(v)


def _optional_gpio(v: Any) -> int | None:
    if v == "none":
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad(f'must be a BCM pin number or "none", not {_type_name(v)}')
    return _gpio(v)


def _size(v: Any) -> tuple[int, int] | None:
    if not isinstance(v, str):
        raise _Bad(f'must be a string like "1280x800" or "auto", not {_type_name(v)}')
    if v == "auto":
        return None
    m = re.fullmatch(r"\s*(\d{2,5})\s*[xX×]\s*(\d{2,5})\s*", v)
    if not m:
        raise _Bad('must be "WIDTHxHEIGHT" (e.g. "1280x800") or "auto"')
    w, h = int(m.group(1)), int(m.group(2))
    if not (64 <= w <= 8192 and 64 <= h <= 8192):
        raise _Bad("must be 64 to 8192 pixels wide and high")
    return (w, h)


def _dump_size(v: tuple[int, int] | None) -> str:
    return "auto" if v is None else f"{v[0]}x{v[1]}"


def _pin_table(allowed: tuple[str, ...], require_all: bool) -> Callable[[Any], Mapping[str, int]]:
    def parse(v: Any) -> Mapping[str, int]:
        if not isinstance(v, dict):
            raise _Bad(f"must be a table like {{ N1 = 4, N3 = 17 }}, not {_type_name(v)}")
        out: dict[str, int] = {}
        for name, pin in v.items():
            if name not in allowed:
                raise _Bad(f"has an unknown entry {name!r}{_suggest(name, allowed)} (allowed: {' '.join(allowed)})")
            try:
                out[name] = _gpio(pin)
            except _Bad as e:
                raise _Bad(f"entry {name} = {pin!r} {e}") from None
        missing = [a for a in allowed if a not in out]
        if require_all and missing:
            raise _Bad(f"lacks {', '.join(missing)}: all 12 arrows need a pin")
        return MappingProxyType(out)

    return parse


def _seats(v: Any) -> tuple[str, ...]:
    if not isinstance(v, list) or not v:
        raise _Bad(f'must be a list like ["human", "hard"], not {_type_name(v)}')
    for i, kind in enumerate(v):
        if kind not in SEAT_KINDS:
            raise _Bad(
                f"seat {i} is {kind!r}: each seat must be one of {', '.join(SEAT_KINDS)}"
                f"{_suggest(str(kind), SEAT_KINDS)}"
            )
    return tuple(v)


def _first_player(v: Any) -> int | None:
    if v == "random":
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise _Bad('must be "random" or a seat index (0 is the first seat)')
    if v < 0:
        raise _Bad("must be 0 or more")
    if v > 99:
        raise _Bad("is not a seat (seats are numbered from 0)")
    return v


def _hints(v: Any) -> bool | None:
    if v == "auto":
        return None
    if isinstance(v, bool):
        return v
    raise _Bad('must be true, false or "auto"')


def _pin_code(v: Any) -> str:
    if isinstance(v, int) and not isinstance(v, bool):
        raise _Bad('must be a quoted string of digits (e.g. "2580"), so leading zeros survive')
    if not isinstance(v, str) or not v.isascii() or not v.isdigit():
        raise _Bad("must be a string of digits")
    if not 4 <= len(v) <= 12:
        raise _Bad("must have 4 to 12 digits")
    return v


def _segments(v: Any) -> tuple[tuple[int, int], ...] | None:
    if v == "auto":
        return None
    if not isinstance(v, list) or not all(
        isinstance(s, list) and len(s) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in s)
        for s in v
    ):
        raise _Bad('must be "auto" or a list of [first_led, count] pairs, one per seat')
    if len(v) != RING_SEATS:
        raise _Bad(
            f"needs one segment per corner of the board: {RING_SEATS} pairs, not {len(v)} "
            "(the card game cuts equal arcs of its own)"
        )
    return tuple((a, b) for a, b in v)


def _quiet_hours(v: Any) -> tuple[int, int] | None:
    from kiosk.sound import parse_quiet_hours  # one parser for the config and the sound module

    if not isinstance(v, str):
        raise _Bad(f'must be a string like "22:00-08:00" or "none", not {_type_name(v)}')
    try:
        return parse_quiet_hours(v)
    except ValueError as exc:
        raise _Bad(str(exc).split(": ", 1)[-1]) from None


def _dump_quiet_hours(v: tuple[int, int] | None) -> str:
    from kiosk.sound import format_quiet_hours

    return format_quiet_hours(v)


def _theme(v: Any) -> str:
    from kiosk.themes.pack import BUILTIN_ID, ID_PATTERN

    s = _str(v)
    if not ID_PATTERN.fullmatch(s):
        raise _Bad(
            f'must be "{BUILTIN_ID}" or the id of an installed theme (a-z, 0-9, - and _; '
            "labyrinth-kiosk --install-theme PATH lists them)"
        )
    return s


def _path(v: Any) -> Path:
    s = _str(v)
    if not s.startswith("/"):
        raise _Bad("must be an absolute path")
    return Path(s)


# command-line strings -> TOML values
def _text_int(s: str) -> Any:
    try:
        return int(s)
    except ValueError:
        return s  # the parser names the problem


def _text_bool(s: str) -> Any:
    low = s.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    return s


def _text_list(s: str) -> list[str]:
    return [p.strip() for p in s.split(",") if p.strip()]


def _text_int_or_word(s: str) -> Any:
    return _text_int(s) if s.strip().lstrip("-").isdigit() else s


def _text_hints(s: str) -> Any:
    return "auto" if s.strip().lower() == "auto" else _text_bool(s)


@dataclass(frozen=True)
class _Section:
    cls: type
    fields: dict[str, _Field]


def _declared_variants() -> tuple[Any, ...]:
    """Every registered game's variants (kiosk.games.all_variants): one [game] key each."""
    return games.all_variants()


def _variant_field(variant: Any) -> _Field:
    """A [game] key a game's variant declares: one of its choices."""

    def parse(value: Any) -> Any:
        try:
            return variant.check(value)
        except ValueError:
            shown = ", ".join(str(c).lower() if isinstance(c, bool) else str(c) for c in variant.choices)
            raise _Bad(f"must be one of {shown}") from None

    return _Field(parse, from_text=_text_bool if isinstance(variant.default, bool) else _text_int)


#: The sections, each key's schema read from its dataclass field (declared once, there); the [game]
#: section has the games' variants' keys too (GameConfig.variants).
_SECTIONS: dict[str, _Section] = {
    name: _Section(
        cls,
        {
            **{f.name: f.metadata["schema"]() for f in fields(cls) if "schema" in f.metadata},
            **({v.key: _variant_field(v) for v in _declared_variants()} if cls is GameConfig else {}),
        },
    )
    for name, cls in (
        ("display", DisplayConfig),
        ("buttons", ButtonsConfig),
        ("ring", RingConfig),
        ("game", GameConfig),
        ("kiosk", KioskConfig),
        ("sound", SoundConfig),
        ("paths", PathsConfig),
    )
}


def _suggest(word: str, options) -> str:
    close = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _show(v: Any, depth: int = 0) -> str:
    """A value as it would be written in TOML, for messages (a long one cut short)."""
    text = _show_full(v, depth)
    return text if len(text) <= 120 else text[:100] + " ... (" + str(len(text)) + " characters)"


def _show_full(v: Any, depth: int = 0) -> str:
    if depth > MAX_NESTING:
        return "..."
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) >= 10**30:
        return f"<a number of {len(str(abs(v)))} digits>"
    if isinstance(v, str) and len(v) > 200:
        return f'"{v[:100]}..."'
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):  # as TOML escapes them: a control character never reaches the journal raw
        return '"' + _CONTROL.sub(lambda m: f"\\u{ord(m.group()):04X}", v) + '"'
    if hasattr(v, "isoformat"):  # a TOML date or time, as it was written
        return str(v.isoformat())
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{k} = {_show_full(x, depth + 1)}" for k, x in list(v.items())[:20]) + " }"
    if isinstance(v, list):
        return "[" + ", ".join(_show_full(x, depth + 1) for x in v[:20]) + "]"
    return repr(v)


def _nesting(v: Any, limit: int) -> int:
    """How deep `v` nests, counting no further than `limit` + 1 (so a hostile file stays cheap)."""
    if limit < 0 or not isinstance(v, (dict, list)):
        return 0
    items = v.values() if isinstance(v, dict) else v
    return 1 + max((_nesting(x, limit - 1) for x in items), default=0)


# ----------------------------------------------------------------------- loading
def from_raw(raw: Mapping[str, Any], source: str = "config.toml") -> Config:
    """Build and check a Config from TOML-shaped values; `source` prefixes every message."""

    def fail(section: str, message: str) -> ConfigError:
        return ConfigError(f"{source}: [{section}] {message}")

    _check_shape(raw, source)
    sections = {name: _read_section(name, spec, raw.get(name, {}), fail) for name, spec in _SECTIONS.items()}
    sections["kiosk"] = _with_preset(sections["kiosk"], raw.get("kiosk", {}))
    sections["game"] = _game_with_preset(sections["game"], sections["kiosk"].preset, raw.get("game", {}))
    config = Config(**sections, source=source)
    _check_across(config, raw, fail)
    return config


def _with_preset(kiosk: KioskConfig, written: Mapping[str, Any]) -> KioskConfig:
    """`kiosk` with its preset's times (PRESETS) for the keys the file does not write itself."""
    from dataclasses import replace

    preset = PRESETS[kiosk.preset]
    times: dict[str, Any] = {k: v for k, v in preset.items() if k not in written}
    return replace(kiosk, **times)


def _game_with_preset(game: GameConfig, preset: str, written: Mapping[str, Any]) -> GameConfig:
    """`game` with its variants' defaults under `preset` (Variant.default_for) for the keys the file
    does not write itself."""
    from dataclasses import replace

    chosen = {v.key: v.default_for(preset) for v in _declared_variants() if v.key not in written}
    return replace(game, variants={**game.variants, **chosen})


def switch_preset(config: Config, name: str) -> Config:
    """`config` with preset `name`, all of its times and its games' defaults: the operator picked it in the menu, which
    wins over the file (as the menu's volume wins over ``[sound] volume``). A ValueError names the presets."""
    from dataclasses import replace

    if name not in PRESETS:
        raise ValueError(f"preset {name!r}: use one of {', '.join(PRESETS)}")
    times = PRESETS[name]
    kiosk = replace(
        config.kiosk,
        preset=name,
        idle_timeout_s=times["idle_timeout_s"],
        continue_s=times["continue_s"],
        seat_timeout_s=times["seat_timeout_s"],
    )
    return replace(config, kiosk=kiosk, game=_game_with_preset(config.game, name, {}))


def _check_shape(raw: Mapping[str, Any], source: str) -> None:
    """Known sections, each a table, no value nested deeper than a key takes (so a hostile file stays cheap)."""
    if not isinstance(raw, Mapping):
        raise ConfigError(f"{source}: must be a TOML document with tables")
    for name, value in raw.items():
        if name not in _SECTIONS:
            raise ConfigError(
                f"{source}: unknown section [{name}]{_suggest(name, _SECTIONS)} (known: {', '.join(_SECTIONS)})"
            )
        if not isinstance(value, Mapping):
            raise ConfigError(f"{source}: {name} must be a table [{name}], not {_type_name(value)}")
        for key, v in value.items():
            if _nesting(v, MAX_NESTING) > MAX_NESTING - 1:
                raise ConfigError(
                    f"{source}: [{name}] {str(key)[:60]} nests tables or lists too deep "
                    f"(no key takes more than {MAX_NESTING - 1} levels)"
                )


def _read_section(name: str, spec: _Section, given: Mapping[str, Any], fail: Callable[[str, str], ConfigError]) -> Any:
    """One section's dataclass from its TOML table: unknown keys refused, each given key parsed."""
    for key in given:
        if key not in spec.fields:
            raise fail(name, f"unknown key {key!r}{_suggest(key, spec.fields)} (known: {', '.join(spec.fields)})")
    values = {}
    for key, f in spec.fields.items():
        if key in given:
            try:
                values[key] = f.parse(given[key])
            except _Bad as e:
                raise fail(name, f"{key} = {_show(given[key])} {e}") from None
    if name == "game":
        _complete_seats(values, given, fail)
        declared = {v.key: v.default for v in _declared_variants()}
        values["variants"] = {k: values.pop(k, default) for k, default in declared.items()}
    return spec.cls(**values)


def _complete_seats(values: dict, given: Mapping, fail) -> None:
    """`players` and `seats` describe the same thing: fill in whichever is missing."""
    default = GameConfig()
    game = values.get("game", default.game)
    lo, hi = PLAYER_RANGE[game]
    if "seats" in values and "players" not in values:
        values["players"] = len(values["seats"])
    players = values.get("players", default.players)
    if not lo <= players <= hi:
        key = "players" if "players" in given else "seats"
        shown = given.get(key, players)
        raise fail("game", f"{key} = {_show(shown)}: the {game} game is for {lo} to {hi} players")
    if "seats" not in values:
        values["seats"] = (HUMAN,) + ("medium",) * (players - 1)
    elif len(values["seats"]) != players:
        raise fail(
            "game", f"seats = {_show(list(values['seats']))} has {len(values['seats'])} seats but players = {players}"
        )
    first = values.get("first_player")
    if first is not None and first >= players:
        raise fail(
            "game",
            f"first_player = {first} does not exist with {players} players (seats are numbered 0 to {players - 1})",
        )


def _check_across(config: Config, raw: Mapping, fail) -> None:
    """Checks that involve several keys: one GPIO per job, segments inside the ring."""
    r = config.ring
    if ring_drivers.needs_port(r.driver) and not r.port.strip():
        raise fail(
            "ring",
            f'port = "{r.port}": the {r.driver} driver needs a serial port '
            '(e.g. "/dev/serial/by-id/...", or driver = "none")',
        )
    _check_pins(config.buttons, r, fail)
    _check_ring(r, fail)
    k = config.kiosk
    if 0 < k.idle_timeout_s <= k.idle_countdown_s:
        raise fail(
            "kiosk", f"idle_timeout_s = {k.idle_timeout_s} must be longer than idle_countdown_s = {k.idle_countdown_s}"
        )


def _check_pins(b: ButtonsConfig, r: RingConfig, fail) -> None:
    """One GPIO per job: the buttons, their LEDs and a ring on the header's UART never share a pin."""
    claimed: dict[int, str] = {}

    def claim(pin: int, key: str) -> None:
        if pin in claimed:
            raise fail("buttons", f"{key} = {pin} is already used by {claimed[pin]}")
        claimed[pin] = key

    if ring_drivers.needs_port(r.driver) and r.port in UART_PORTS:
        claimed[14] = f'[ring] port = "{r.port}" (UART TX)'
        claimed[15] = f'[ring] port = "{r.port}" (UART RX)'
    for name in ARROWS:
        claim(b.pins[name], f"pins.{name}")
    for key in ("rotate_pin", "stay_pin"):
        pin = getattr(b, key)
        if pin is not None:
            claim(pin, key)
    for name, pin in b.led_pins.items():
        claim(pin, f"led_pins.{name}")
    for extra, key in (("rotate", "rotate_pin"), ("stay", "stay_pin")):
        if extra in b.led_pins and getattr(b, key) is None:
            raise fail(
                "buttons",
                f'led_pins.{extra} = {b.led_pins[extra]} lights a button that does not exist ({key} is "none")',
            )


def _check_ring(r: RingConfig, fail) -> None:
    """The offset and every seat's segment lie inside the ring."""
    if r.seat_segments is not None:
        for seat, (first, count) in enumerate(r.seat_segments):
            if not (0 <= first < r.led_count and 1 <= count <= r.led_count):
                raise fail(
                    "ring",
                    f"seat_segments = {_show([list(s) for s in r.seat_segments])}: "
                    f"seat {seat} [{first}, {count}] lies outside the "
                    f"{r.led_count} LEDs of led_count",
                )
    if r.offset >= r.led_count:
        raise fail("ring", f"offset = {r.offset} must be smaller than led_count = {r.led_count}")
    if r.seat_segments is None and r.led_count < 4:
        raise fail("ring", f"led_count = {r.led_count} is too small for 4 seats")


def load(path: str | Path | None = None) -> Config:
    """Read and check the configuration file.

    `path` None means the default path: when that file is missing the defaults
    are used (with a log line). A path given explicitly must exist.
    """
    explicit = path is not None
    p = Path(path) if path is not None else DEFAULT_PATH
    try:
        data = read_bounded(p, CONFIG_LIMIT)
    except FileNotFoundError:
        if explicit:
            raise ConfigError(f"{p}: no such configuration file") from None
        log.info("no configuration file at %s: using the built-in defaults", p)
        return Config(source="defaults")
    except (IsADirectoryError, UnsafeFile) as e:
        if isinstance(e, IsADirectoryError) or "a directory" in getattr(e, "reason", ""):
            raise ConfigError(f"{p}: is a directory, not a configuration file") from None
        raise ConfigError(f"{p}: not a configuration file: {e.reason}") from None
    except OSError as e:
        raise ConfigError(f"{p}: cannot read the configuration file: {e.strerror or e}") from None
    try:
        raw = tomllib.loads(data.decode("utf-8-sig"))  # a byte-order mark some editors write first
    except UnicodeDecodeError as e:
        raise ConfigError(f"{p}: not UTF-8 text (byte {e.start})") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{p}: not valid TOML: {str(e)[:300]}") from None
    except (RecursionError, MemoryError):
        raise ConfigError(f"{p}: not a usable configuration: it nests tables or lists too deep") from None
    config = from_raw(raw, str(p))
    if config.kiosk.operator_pin == KioskConfig.operator_pin:
        log.warning("%s: [kiosk] operator_pin is the default; set your own PIN", p)
    return config


def apply_overrides(config: Config, overrides: Mapping[str, Any]) -> Config:
    """Return `config` with command-line overrides applied and checked again.

    Keys are ``"section.key"`` (``"display.mode"``, ``"game.seats"``); values are
    either TOML-shaped (``["human", "hard"]``) or command-line strings
    (``"human,hard"``, ``"1280x800"``, ``"on"``). Setting ``game.seats`` alone
    also sets ``game.players``; setting ``game.players`` alone resets the seats
    to one person and AI opponents. ``None`` values are ignored, so an argparse
    namespace with unset options can be passed through as a dict.
    """
    raw = config.to_raw()
    touched: set[str] = set()
    for dotted, value in overrides.items():
        if value is None:
            continue
        section, _, key = dotted.partition(".")
        spec = _SECTIONS.get(section)
        if spec is None or key not in spec.fields:
            known = [f"{s}.{k}" for s, sp in _SECTIONS.items() for k in sp.fields]
            raise ConfigError(f"command line: unknown setting {dotted!r}{_suggest(dotted, known)}")
        raw[section][key] = _toml_value(spec.fields[key], value)
        touched.add(dotted)
    _reconcile_game(raw["game"], touched)
    source = "command line" if config.source == "defaults" else f"{config.source} + command line"
    return from_raw(raw, source)


def _toml_value(f: _Field, value: Any) -> Any:
    """A command-line value as TOML would hold it (a string read by the key's own reader)."""
    if isinstance(value, str) and f.from_text is not None:
        return f.from_text(value)
    if isinstance(value, Path):
        return str(value.absolute())
    if isinstance(value, tuple):
        return list(value)
    return value


def _reconcile_game(game: dict[str, Any], touched: set[str]) -> None:
    """Make the [game] keys the command line left alone fit the ones it set: seats and players
    follow each other, a new game resets a player count it does not allow, and a first player
    who no longer has a seat becomes "random"."""
    if "game.seats" in touched and "game.players" not in touched:
        game.pop("players")
    elif "game.players" in touched and "game.seats" not in touched:
        game.pop("seats")
    if "game.game" in touched and not touched & {"game.players", "game.seats"}:
        lo, hi = PLAYER_RANGE.get(game["game"], (1, 6))
        if not lo <= game["players"] <= hi:
            game["players"] = lo
            game.pop("seats")
    first = game.get("first_player")
    if (
        isinstance(first, int)
        and "game.first_player" not in touched
        and touched & {"game.players", "game.seats", "game.game"}
    ):
        players = game.get("players") or len(game.get("seats") or ())
        if first >= players:
            game["first_player"] = "random"


def check_config(path: str | Path | None = None, *, out=None, err=None) -> int:
    """`labyrinth-kiosk --check-config`: 0 and a summary if the file is usable, else 2 and why."""
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        config = load(path)
    except ConfigError as e:
        print(f"configuration error: {e}", file=err)
        return 2
    g, b, r = config.game, config.buttons, config.ring
    print(f"{config.source}: OK", file=out)
    print(
        f"  display {config.display.mode}, {_dump_size(config.display.size)}, "
        f"{config.display.layout}; buttons on {len(b.used_pins())} GPIOs; ring {r.driver}"
        + ("" if r.driver in ("none", "virtual") else f" on {r.port}"),
        file=out,
    )
    print(
        f"  {g.game}: {g.players} players ({', '.join(g.seats)}), language {g.language}; "
        f"state in {config.paths.state_dir}",
        file=out,
    )
    return 0


def default_example() -> str:
    """The defaults as TOML, for comparing against config.example.toml in tests."""
    lines = []
    for name, section in Config().to_raw().items():
        lines.append(f"[{name}]")
        for key, value in section.items():
            lines.append(f"{key} = {_show(value)}")
        lines.append("")
    return "\n".join(lines)


__all__ = [
    "ARROWS",
    "LANGUAGES",
    "SEAT_KINDS",
    "DEFAULT_PATH",
    "ConfigError",
    "Config",
    "DisplayConfig",
    "ButtonsConfig",
    "RingConfig",
    "GameConfig",
    "KioskConfig",
    "SoundConfig",
    "PathsConfig",
    "load",
    "from_raw",
    "apply_overrides",
    "check_config",
]
