"""The checks both save loaders (engine/validate.py, engine/cards/validate.py) start with.

A save is refused whole with InvalidState naming the first problem found, so
the two games word the same mistakes the same way: not an object, another
game's save, an unknown format version, missing fields, bad rule switches.
"""

from __future__ import annotations

from typing import Any, Iterable

from .errors import InvalidState


def need(cond: bool, message: str) -> None:
    """Refuse the save with `message` unless `cond` holds."""
    if not cond:
        raise InvalidState(message)


def check_header(data: Any, game: str, version: int, fields: Iterable[str], what: str) -> None:
    """`data` is a JSON object saved by `game` in format `version`, with every one of `fields`.

    `what` names the game in the refusal ("not a <what> save").
    """
    need(isinstance(data, dict), "a saved game must be a JSON object")
    need(data.get("game") == game, f"not a {what} save (game={data.get('game')!r})")
    need(data.get("version") == version,
         f"save format version {data.get('version')!r} is not supported (expected {version})")
    missing = set(fields) - data.keys()
    need(not missing, f"save is missing {', '.join(sorted(missing))}")


def check_switches(rules: Any, names: Iterable[str], message: str) -> None:
    """`rules` is an object whose keys are some of `names`, every value a boolean."""
    need(isinstance(rules, dict) and set(rules) <= set(names)
         and all(isinstance(v, bool) for v in rules.values()), message)
