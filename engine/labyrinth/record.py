"""Turn lines of the sliding-maze game: ``12. red N3 ES 2,3 +bat``.

After the pawn's colour: the insertion, the openings of the spare as it was
pushed in (so the reader sees the tile, not a rotation count), the cell the
pawn ended on as ``row,col`` (its own cell when it stayed), then what the
turn achieved: ``+treasure`` per collected card and ``wins`` on the winning
turn. Both are checked on replay, so a damaged line is caught where it is.
"""

from __future__ import annotations

import sys

from engine.labyrinth.game import Game, Move, Shift
from engine.labyrinth.parts import Phase, Rules
from engine.labyrinth.maze import CELLS, INSERTION_LINES, INSERTIONS, ROTATED, mask_of, openings_of
from engine.labyrinth.tiles import SEATS, TREASURES
from engine.records.notation import (
    NOBODY,
    UNFINISHED,
    add_start_tags,
    end_words,
    register_codec,
    seed_of,
    start_position,
)

KIND = "labyrinth"
COLOURS = tuple(colour for colour, _ in SEATS)
WIN_MARK = "wins"
BEGUN = "-"  # in place of the shift of a turn begun before the record began
#: Rules tag words for the variants (RULES.md section 1, "Variants"); a quick game adds
#: ``treasures-N`` (N cards each), the classic rules are ``classic``.
VARIANT_WORDS = {"open_cards": "open-cards", "return_home": "no-return"}
TREASURES_WORD = "treasures-"


def player_count(state: Game) -> int:
    return len(state.players)


def player_name(state: Game, index: int) -> str:
    return state.players[index].color


def rules_text(rules: Rules) -> str:
    words = [w for w, on in (("open-cards", rules.open_cards), ("no-return", not rules.return_home)) if on]
    if rules.treasures:
        words.append(f"{TREASURES_WORD}{rules.treasures}")
    return " ".join(words) or "classic"


def rules_from_text(text: str, turn_limit: int) -> Rules:
    words = set(text.split()) - {"classic"}
    counts = {w for w in words if w.startswith(TREASURES_WORD) and w[len(TREASURES_WORD) :].isdigit()}
    unknown = words - counts - {"open-cards", "no-return"}
    if unknown or len(counts) > 1:
        bad = sorted(unknown or counts)[0]
        raise ValueError(f"unknown rule {bad!r} (known: classic, open-cards, no-return, {TREASURES_WORD}N)")
    treasures = int(next(iter(counts))[len(TREASURES_WORD) :]) if counts else 0
    return Rules(
        open_cards="open-cards" in words,
        return_home="no-return" not in words,
        turn_limit=turn_limit,
        treasures=treasures,
    )


def start_tags(state: Game) -> dict[str, str]:
    tags = {"Rules": rules_text(state.rules)}
    if state.rules.turn_limit:
        tags["TurnLimit"] = str(state.rules.turn_limit)
    tags["First"] = state.player.color
    add_start_tags(tags, state, mid_turn=state.phase == Phase.MOVE)  # the shift is not in the record
    return tags


def start(tags: dict[str, str]) -> Game:
    saved = start_position(tags)
    if saved is not None:
        return Game.from_dict(saved)
    colours = [part.partition(":")[0] for part in tags.get("Players", "").split()]
    if not colours:
        raise ValueError("no Players tag: who played is unknown")
    for c in colours:
        if c not in COLOURS:
            raise ValueError(f"player {c!r} is not a pawn colour ({', '.join(COLOURS)})")
    first = tags.get("First", colours[0])
    if first not in colours:
        raise ValueError(f"First names {first!r}, who is not playing")
    limit = tags.get("TurnLimit", "0")
    if not limit.isdigit():
        raise ValueError(f"TurnLimit {limit!r} is not a whole number")
    rules = rules_from_text(tags.get("Rules", "classic"), int(limit))
    return Game.new(
        players=len(colours),
        seed=seed_of(tags),
        rules=rules,
        seats=[COLOURS.index(c) for c in colours],
        first=colours.index(first),
    )


def winners(state: Game) -> list[int]:
    """The winning players of a finished game (several when a turn limit ends in a tie)."""
    return list(state.winners)


def result_tags(state: Game) -> dict[str, str]:
    if state.phase != Phase.OVER:
        return {"Result": UNFINISHED}
    won = winners(state)
    end = end_words(state, "home" if won else "over")
    return {"Result": " ".join(state.players[i].color for i in won) or NOBODY, "End": end}


def turn_text(before: Game, actions: tuple[Shift | Move, ...], after: Game) -> str:
    shift = actions[0]
    if isinstance(shift, Move):
        # A record that begins in the middle of a turn (after its shift): "- -" stands for the shift.
        words = [BEGUN, BEGUN]
    else:
        spare = ROTATED[before.maze.spare_mask][shift.rotation % 4]
        words = [shift.insertion, openings_of(spare)]
    moves = [action for action in actions if isinstance(action, Move)]
    if moves:
        r, c = moves[0].cell
        words.append(f"{r},{c}")
    player = before.current
    words += [f"+{t}" for t in after.players[player].found[len(before.players[player].found) :]]
    if after.phase == Phase.OVER and player in winners(after):
        words.append(WIN_MARK)
    return " ".join(words)


def _cell(word: str) -> tuple[int, int]:
    r, sep, c = word.partition(",")
    if not sep or not r.isdigit() or not c.isdigit():
        raise ValueError(f"{word!r} is not a cell: write row,col (for example 2,3)")
    return int(r), int(c)


def play_turn(state: Game, words: list[str]) -> list[Shift | Move]:
    """Apply one turn line's actions to `state`; raises ValueError saying what is wrong."""
    if len(words) < 3:
        raise ValueError("a turn needs an insertion, the spare's openings and a cell, e.g. 'N3 ES 2,3'")
    insertion, openings, where, *marks = words
    if insertion == BEGUN and openings == BEGUN and state.phase == Phase.MOVE:
        player, before = state.current, len(state.players[state.current].found)
        move = Move(_cell(where))
        state.apply(move)
        _check_marks(state, player, before, marks)
        return [move]
    if insertion not in INSERTIONS:
        raise ValueError(f"{insertion!r} is not an insertion point ({' '.join(INSERTIONS)})")
    try:
        wanted = mask_of(openings)
    except ValueError as exc:
        raise ValueError(str(exc)) from None
    if openings_of(wanted) != openings:
        raise ValueError(f"openings {openings!r}: write each side once, in NESW order")
    spare = state.maze.spare_mask
    turns = [r for r in range(4) if ROTATED[spare][r] == wanted]
    if not turns:
        raise ValueError(f"the spare tile ({openings_of(spare)}) cannot be turned to show {openings}")
    player = state.current
    before = len(state.players[player].found)
    shift, move = Shift(insertion, turns[0]), Move(_cell(where))
    state.apply(shift)
    state.apply(move)
    _check_marks(state, player, before, marks)
    return [shift, move]


def _check_marks(state: Game, player: int, before: int, marks: list[str]) -> None:
    """The +treasure and wins marks of a turn line must be what the turn gave."""
    got = [f"+{t}" for t in state.players[player].found[before:]]
    if state.phase == Phase.OVER and player in winners(state):
        got.append(WIN_MARK)
    for mark in marks:
        if not (mark == WIN_MARK or (mark.startswith("+") and mark[1:] in TREASURES)):
            raise ValueError(f"{mark!r} is not a mark: after the cell come +treasure and {WIN_MARK}")
    if sorted(marks) != sorted(got):
        said = " ".join(marks) or "nothing"
        raise ValueError(f"the line says {said} but the turn gives {' '.join(got) or 'nothing'}")


def infer_action(before: Game, after: Game) -> Shift | Move | None:
    """The one action that took the game from `before` to `after` (None if it cannot be told).

    How the kiosk's record catches up with a save written one action ahead of it.
    """
    if before.phase == Phase.SHIFT and after.last_insertion:
        name = after.last_insertion
        mask = after.maze.masks[INSERTION_LINES[name][0][0]]
        turns = [r for r in range(4) if ROTATED[before.maze.spare_mask][r] == mask]
        return Shift(name, turns[0]) if turns else None
    if before.phase == Phase.MOVE:
        return Move(CELLS[after.players[before.current].cell])
    return None


register_codec(sys.modules[__name__])
