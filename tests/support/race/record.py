"""The race's record notation: ``3. p1 roll 4`` (the roll is checked on replay)."""

from __future__ import annotations

import sys

from engine.records.notation import NOBODY, UNFINISHED, add_start_tags, end_words, register_codec, seed_of

from tests.support.race.engine import NAME, Race

KIND = NAME


def player_count(state: Race) -> int:
    return state.num_players


def player_name(state: Race, index: int) -> str:
    return f"p{index + 1}"


def start_tags(state: Race) -> dict[str, str]:
    tags = {"Rules": "classic", "First": player_name(state, state.current)}
    if state.turn_limit:
        tags["TurnLimit"] = str(state.turn_limit)
    add_start_tags(tags, state)
    return tags


def start(tags: dict[str, str]) -> Race:
    names = [part.partition(":")[0] for part in tags.get("Players", "").split()]
    first = tags.get("First", "p1")
    if first not in names:
        raise ValueError(f"First names {first!r}, who is not racing")
    return Race.new(len(names), seed_of(tags), names.index(first), int(tags.get("TurnLimit", "0")))


def result_tags(state: Race) -> dict[str, str]:
    if state.phase != "over":
        return {"Result": UNFINISHED}
    won = " ".join(player_name(state, i) for i in state.winners) or NOBODY
    return {"Result": won, "End": end_words(state, "over")}


def turn_text(before: Race, actions: tuple, after: Race) -> str:
    return f"roll {after.positions[before.current] - before.positions[before.current]}"


def play_turn(state: Race, words: list[str]) -> list:
    if len(words) != 2 or words[0] != "roll" or not words[1].isdigit():
        raise ValueError("a race turn is 'roll N'")
    player = state.current
    was = state.positions[player]
    state.apply("roll")
    if state.positions[player] - was != int(words[1]):
        raise ValueError(f"the die showed {state.positions[player] - was}, not {words[1]}")
    return ["roll"]


def infer_action(before: Race, after: Race) -> str | None:
    return "roll" if after.turns == before.turns + 1 else None


register_codec(sys.modules[__name__])
