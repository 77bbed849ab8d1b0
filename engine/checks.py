"""The checks both save loaders (engine/labyrinth/validate.py, engine/cards/validate.py) start with.

A save is refused whole with InvalidState naming the first problem found, so
the two games word the same mistakes the same way: not an object, another
game's save, an unknown format version, missing fields, bad rule switches.
"""

from __future__ import annotations

from typing import Any, Iterable

from engine.errors import InvalidState
from engine.outcome import Outcome


def need(cond: bool, message: str) -> None:
    """Refuse the save with `message` unless `cond` holds."""
    if not cond:
        raise InvalidState(message)


def check_header(
    data: Any, game: str, version: int, fields: Iterable[str], what: str, older: Iterable[int] = ()
) -> int:
    """`data` is a JSON object saved by `game` in format `version` (or one of the `older`
    formats still read), with every one of `fields`. Returns the format version found.

    `what` names the game in the refusal ("not a <what> save").
    """
    need(isinstance(data, dict), "a saved game must be a JSON object")
    need(data.get("game") == game, f"not a {what} save (game={data.get('game')!r})")
    found = data.get("version")
    need(
        found == version or (found in tuple(older) and not isinstance(found, bool)),
        f"save format version {found!r} is not supported (expected {version})",
    )
    missing = set(fields) - data.keys()
    need(not missing, f"save is missing {', '.join(sorted(missing))}")
    checked: int = found  # a whole number: need() refused anything else
    return checked


#: A game's seed is a whole number the size the kiosk writes (its AI seeds are seed * 10 + seat).
SEED_LIMIT = 2**62
#: More turns than any game lasts (a board game is over in a few hundred).
TURNS_LIMIT = 10**6


def check_seed(data: dict[str, Any]) -> int | None:
    """The saved ``seed``: null (dealt from the system's randomness) or a whole number in range."""
    seed = data.get("seed")
    need(
        seed is None or (isinstance(seed, int) and not isinstance(seed, bool) and -SEED_LIMIT < seed < SEED_LIMIT),
        f"seed must be null or a whole number below 2**62, not {str(seed)[:40]!r}",
    )
    return seed


def check_turns(turns: Any) -> int:
    """The saved ``turns``: a whole number from 0 to TURNS_LIMIT."""
    need(
        isinstance(turns, int) and not isinstance(turns, bool) and 0 <= turns <= TURNS_LIMIT,
        f"turns must be a whole number 0-{TURNS_LIMIT}",
    )
    checked: int = turns  # a whole number: need() refused anything else
    return checked


def check_switches(rules: Any, names: Iterable[str], message: str) -> None:
    """`rules` is an object whose keys are some of `names`, every value a boolean."""
    need(
        isinstance(rules, dict) and set(rules) <= set(names) and all(isinstance(v, bool) for v in rules.values()),
        message,
    )


def check_rules(rules: Any, switches: Iterable[str], message: str) -> dict[str, Any]:
    """`rules` holds some of the boolean `switches` and, optionally, ``turn_limit`` (a whole
    number >= 0, docs/rules.md section 3). Returns them as keyword arguments."""
    need(isinstance(rules, dict), message)
    rules = dict(rules)
    limit = rules.pop("turn_limit", 0)
    need(
        isinstance(limit, int) and not isinstance(limit, bool) and 0 <= limit <= TURNS_LIMIT,
        f"turn_limit must be a whole number 0-{TURNS_LIMIT}, not {str(limit)[:40]}",
    )
    check_switches(rules, switches, message)
    return {**rules, "turn_limit": limit}


def read_outcome(data: dict[str, Any], phase_over: bool, players: int) -> Outcome | None:
    """The saved ``outcome`` field: None while running, an Outcome with known seats once over."""

    raw = data.get("outcome")
    need((raw is None) != phase_over, "a finished game, and only a finished game, has an outcome")
    if raw is None:
        return None
    outcome = Outcome.from_dict(raw)
    need(all(0 <= w < players for w in outcome.winners), f"outcome names a winner out of {players} players")
    return outcome
