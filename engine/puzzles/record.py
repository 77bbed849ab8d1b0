"""Turn lines of a puzzle: the board game's (``2. red N3 ES 2,3 +bat wins``).

A puzzle's start is always written whole (the Start tag), so a record reads back
without running the generator; the Puzzle tag names it (grade and number) and
Optimum says the fewest turns, for a reader who wants to compare.
"""

from __future__ import annotations

import sys

from engine.labyrinth import record as board
from engine.labyrinth.game import Move, Shift
from engine.records.notation import NOBODY, UNFINISHED, end_words, register_codec, start_json, start_position
from engine.puzzles.state import NAME, PuzzleGame

KIND = NAME


def player_count(state: PuzzleGame) -> int:
    return 1


def player_name(state: PuzzleGame, index: int) -> str:
    return state.players[index].color


def start_tags(state: PuzzleGame) -> dict[str, str]:
    tags = {
        "Puzzle": state.puzzle.name,
        "Optimum": str(state.puzzle.optimum),
        "First": state.player.color,
        "TurnLimit": str(state.rules.turn_limit),
        "Start": start_json(state),
    }
    if state.seed is not None:
        tags["Seed"] = str(state.seed)
    return tags


def start(tags: dict[str, str]) -> PuzzleGame:
    saved = start_position(tags)
    if saved is None:
        raise ValueError("a puzzle's record needs its Start tag (the puzzle as set)")
    return PuzzleGame.from_dict(saved)


def result_tags(state: PuzzleGame) -> dict[str, str]:
    if state.outcome is None:
        return {"Result": UNFINISHED}
    won = " ".join(state.players[i].color for i in state.winners) or NOBODY
    return {"Result": won, "End": end_words(state, "over"), "Stars": str(state.stars)}


def turn_text(before: PuzzleGame, actions: tuple[Shift | Move, ...], after: PuzzleGame) -> str:
    return board.turn_text(before, actions, after)


def play_turn(state: PuzzleGame, words: list[str]) -> list[Shift | Move]:
    return board.play_turn(state, words)


def infer_action(before: PuzzleGame, after: PuzzleGame) -> Shift | Move | None:
    return board.infer_action(before, after)


register_codec(sys.modules[__name__])
