"""Scripts of inputs: one input per line, for headless runs, tests and screenshots.

    # comments and blank lines are ignored
    button N3        # press and release the arcade button N3 (through the mock pins)
    button rotate    # the rotate button; `button stay` the stay button
    wait 500         # let 500 ms pass
    undo             # tap the acting person's Undo button
    away 1           # the person at seat 1 walked away: the computer plays it ([kiosk] seat_level)
    join 1           # a newcomer tapped Join at seat 1: a person plays it again

Every other line is an input of a game, read by that game's ``ScriptWords``
(kiosk.games): the board game's ``tap ROW COL`` and ``stay``
(kiosk/games/labyrinth/script.py), the card game's ``card K``, ``rotate``,
``lay X Y``, ``take ...``, ``discard K``, ``ready`` (kiosk/games/cards/script.py).

``button`` lines drive the mock GPIO pins of the real button adapter (so its
debounce runs), not the bus. Before each input the runner waits until the
kiosk is *settled*: the bus is empty, no AI seat is acting and no game start
is pending — so a script plays a human seat against AI seats without guessing
how long the AI takes. A bad line is reported with its line number before
anything runs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hardware import BUTTON_NAMES

from kiosk.errors import KioskError
from kiosk import games
from kiosk.store.safeio import SCRIPT_LIMIT, UnsafeFile, read_bounded

#: The longest wait a line may ask for (ms): an hour.
MAX_WAIT_MS = 3_600_000
#: The longest line read (characters); a longer one is refused without being echoed whole.
MAX_LINE = 1000


def clip(text: str, most: int = 60) -> str:
    """`text` for a message: a long line is cut short, so an error never echoes megabytes."""
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


class ScriptError(KioskError, ValueError):
    """A script line that cannot be understood; the message names the file and line."""


@dataclass(frozen=True)
class Step:
    """One input: ``verb`` with its arguments, and where it came from."""

    verb: str
    args: tuple
    line: int
    text: str
    source: str = "script"

    def __str__(self) -> str:
        return self.text


_WHOLE = re.compile(r"[+-]?[0-9]+")


def whole_number(word: str, digits: int) -> int | None:
    """`word` as a whole number of at most `digits` digits, or None: ASCII digits with at most one
    sign (``str.isdigit`` takes "²" and ``int`` takes "٣", and "--5" passes a stripped sign)."""
    if len(word) > digits + 1 or not _WHOLE.fullmatch(word):
        return None
    return int(word)


def _button_name(word: str) -> str | None:
    for name in BUTTON_NAMES:
        if name.lower() == word.lower():
            return name
    return None


def parse_line(text: str, line: int = 1, source: str = "script", *, pixels: bool = False) -> Step | None:
    """One line to a Step (None for blank/comment). ``pixels`` allows ``tap-px X Y`` (display modes)."""
    where = f"{source} line {line}"
    if len(text) > MAX_LINE:
        raise ScriptError(f"{where}: {clip(text)!r}: a line of {len(text)} characters; lines have at most {MAX_LINE}")
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    words = body.split()
    verb = words[0].lower()

    def bad(why: str) -> ScriptError:
        return ScriptError(f"{where}: {clip(body)!r}: {why}")

    if verb in _KIOSK_WORDS:
        return Step(verb, _KIOSK_WORDS[verb](words, bad, pixels), line, body, source)
    for game in games.all_games():
        if game.script is not None and verb in game.script.verbs:
            return Step(verb, game.script.parse(words, bad), line, body, source)
    inputs = "; ".join(f"{g.name}: {g.script.usage}" for g in games.all_games() if g.script is not None)
    kiosk_lines = "button NAME, wait MS, undo, away SEAT, join SEAT"
    raise bad(f"unknown input {clip(words[0], 30)!r}; use one of: {kiosk_lines} ({inputs})")


def _button_args(words: list[str], bad: Callable[[str], ScriptError], pixels: bool) -> tuple:
    """``button NAME``: one of the arcade buttons, named in any case."""
    if len(words) != 2:
        raise bad("write `button NAME` with one of " + " ".join(BUTTON_NAMES))
    name = _button_name(words[1])
    if name is None:
        raise bad(f"unknown button {words[1]!r}; the buttons are " + " ".join(BUTTON_NAMES))
    return (name,)


def _wait_args(words: list[str], bad: Callable[[str], ScriptError], pixels: bool) -> tuple:
    """``wait MS``: whole milliseconds, 0 to an hour."""
    if len(words) != 2:
        raise bad("write `wait MILLISECONDS`")
    ms = whole_number(words[1], 12)
    if ms is None:
        raise bad(f"the wait must be a whole number of milliseconds, 0 to {MAX_WAIT_MS}")
    if ms < 0:
        raise bad("the wait cannot be negative")
    if ms > MAX_WAIT_MS:
        raise bad(f"a wait of at most {MAX_WAIT_MS} ms (an hour)")
    return (ms,)


def _tap_px_args(words: list[str], bad: Callable[[str], ScriptError], pixels: bool) -> tuple:
    """``tap-px X Y``: a touch at pixels from the top-left, only where there is a display."""
    if not pixels:
        raise bad("`tap-px` needs a display (use --display offscreen); headless runs use `tap ROW COL`")
    if len(words) != 3:
        raise bad("write `tap-px X Y` (pixels from the top-left)")
    try:
        x, y = float(words[1]), float(words[2])
    except ValueError:
        raise bad("X and Y must be numbers") from None
    if not (-100_000 <= x <= 100_000 and -100_000 <= y <= 100_000):
        raise bad("X and Y must be pixels of the screen")
    return (x, y)


def _undo_args(words: list[str], bad: Callable[[str], ScriptError], pixels: bool) -> tuple:
    """``undo``: the acting person takes their last action back (any game)."""
    if len(words) != 1:
        raise bad("`undo` takes nothing after it")
    return ()


def _seat_args(words: list[str], bad: Callable[[str], ScriptError], pixels: bool) -> tuple[int]:
    """``away N`` / ``join N``: seat N (0 is the first player) is left to the computer / taken by a person."""
    seat = whole_number(words[1], 2) if len(words) == 2 else None
    if seat is None or seat < 0:
        raise bad(f"write `{words[0].lower()} SEAT` with the seat's number (0 is the first player)")
    return (seat,)


#: The readers of the kiosk's own lines, each returning the step's arguments; the games add theirs.
_KIOSK_WORDS: dict[str, Callable[[list[str], Callable[[str], ScriptError], bool], tuple]] = {
    "button": _button_args,
    "wait": _wait_args,
    "tap-px": _tap_px_args,
    "undo": _undo_args,
    "away": _seat_args,
    "join": _seat_args,
}
#: The kiosk's own lines.
KIOSK_VERBS = tuple(_KIOSK_WORDS)


def game_of(verb: str) -> str | None:
    """The game whose script line `verb` is (None for the kiosk's own lines)."""
    if verb in KIOSK_VERBS:
        return None
    for game in games.all_games():
        if game.script is not None and verb in game.script.verbs:
            return game.name
    return None


def wrong_game(verb: str, game: str) -> str | None:
    """Why a line of another game cannot be played in `game` (None when it belongs: two games
    may share a word, as the puzzles share the board game's)."""
    script = games.get(game).script
    owner = game_of(verb)
    if owner is None or owner == game or (script is not None and verb in script.verbs):
        return None
    usage = script.usage if script is not None else "no lines of its own"
    return f"`{verb}` is an input of the {owner} game (run it with --game {owner}); {game} uses: {usage}"


def parse(text: str, source: str = "script", *, pixels: bool = False) -> list[Step]:
    """All steps of a script; raises ScriptError naming the first bad line."""
    steps = []
    # Lines end at "\n" only (with an optional "\r"): str.splitlines() would also split at a
    # form feed or a vertical tab and report every later line under a wrong number.
    for n, raw in enumerate(text.split("\n"), 1):
        step = parse_line(raw.removesuffix("\r"), n, source, pixels=pixels)
        if step is not None:
            steps.append(step)
    return steps


def load(path: str | Path, *, pixels: bool = False) -> list[Step]:
    """Read and parse a script file (a regular file, at most SCRIPT_LIMIT bytes)."""
    p = Path(path)
    try:
        text = read_bounded(p, SCRIPT_LIMIT).decode("utf-8")
    except UnsafeFile as e:
        raise ScriptError(f"{p}: not a script file: {e.reason}") from None
    except OSError as e:
        raise ScriptError(f"{p}: cannot read the script: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ScriptError(f"{p}: not UTF-8 text (byte {e.start})") from None
    return parse(text, str(p), pixels=pixels)


class ScriptRunner:
    """Feeds steps to a kiosk one at a time, each once the kiosk is settled.

    The main loop calls :meth:`poll` every tick; it returns True when it did
    something. ``wait`` steps hold the script for that long on the kiosk's
    clock (virtual or real) while the loop keeps ticking.
    """

    def __init__(self, steps: list[Step]) -> None:
        self.steps = list(steps)
        self.index = 0
        self.resume_at: float | None = None

    @property
    def done(self) -> bool:
        return self.index >= len(self.steps) and self.resume_at is None

    def wakeup(self) -> float | None:
        """When a running ``wait`` ends (clock time), or None."""
        return self.resume_at

    def poll(self, kiosk) -> bool:
        now = kiosk.clock.now()
        if self.resume_at is not None:
            if now < self.resume_at:
                return False
            self.resume_at = None
        if self.index >= len(self.steps) or not kiosk.settled():
            return False
        step = self.steps[self.index]
        self.index += 1
        if step.verb == "wait":
            self.resume_at = now + step.args[0] / 1000
        else:
            try:
                kiosk.script_input(step)
            except ValueError as e:
                raise ScriptError(f"{step.source} line {step.line}: {clip(step.text)!r}: {e}") from None
        return True
