"""Turns worth a second look in a record of the sliding-maze game (``labyrinth-replay --analyze``).

Three kinds of mark, each about the player to act, judged on the position
before the turn:

* ``missed-collection``: some shift made a card the player held (its target;
  with open cards any of its cards; with all cards found, the home corner)
  reachable, and the turn collected nothing;
* ``opponent-wins-next``: after the turn the next player can win at once (the
  replay knows every card), while another shift would have stopped that;
* ``weak-shift``: the strongest AI level suggests a turn, and the turn played
  leaves a far smaller chance to collect next turn than the suggestion: the
  chance is the share of next-turn shifts that would bring the target within
  reach of the cell the pawn ended on (the measure ``hard`` plans with, walls
  and all; the opponents' shifts in between are not counted).

Pure: records in, marks out. The AI sees only what the player could know.
"""

from __future__ import annotations

from typing import Any

from engine.labyrinth.ai import LEVELS, make_ai
from engine.labyrinth.ai.base import Ply, View, first_ply
from engine.labyrinth.ai.bits import LINES, ROTATIONS, flood, pawns_before, shifted, tiles_after
from engine.labyrinth.game import Game, Move, Shift
from engine.labyrinth.parts import Phase
from engine.labyrinth.maze import CELLS, ROTATED, SIZE, openings_of
from engine.labyrinth.tiles import TREASURES
from engine.labyrinth.record import KIND
from engine.records.analysis import Mark, started
from engine.records.notation import Record

#: A played turn is "far worse" when its chance to collect next turn is this much below the suggestion's.
FAR_WORSE = 0.4
MISSED, LETS_WIN, WEAK = "missed-collection", "opponent-wins-next", "weak-shift"


def strongest_level() -> str:
    """The strongest AI level this engine has (the last of the known ladder that exists)."""
    for level in ("expert", "hard", "medium"):
        if level in LEVELS:
            return level
    return next(iter(LEVELS))


def shift_words(state: Game, shift: Shift, move: Move | None = None) -> str:
    """A turn in record notation (insertion, the spare's openings, the cell)."""
    words = [shift.insertion, openings_of(ROTATED[state.maze.spare_mask][shift.rotation % 4])]
    if move is not None:
        words.append(f"{move.cell[0]},{move.cell[1]}")
    return " ".join(words)


def analyze(record: Record, level: str | None = None, far_worse: float = FAR_WORSE) -> list[Mark]:
    """The marks of every turn of a record, in turn order."""
    if record.kind != KIND:
        raise ValueError(f"no board-game analysis for records of {record.kind!r}")
    level = level or strongest_level()
    marks: list[Mark] = []
    state = started(record, Game)
    for turn in record.turns:
        before = state.copy()
        for action in turn.actions:
            state.apply(action)
        marks += analyze_turn(before, turn.actions, state, turn.number, level, far_worse)
    return marks


def analyze_turn(
    before: Game, actions: tuple[Any, ...], after: Game, number: int, level: str, far_worse: float = FAR_WORSE
) -> list[Mark]:
    shift, move = actions[0], actions[1] if len(actions) > 1 else Move(before.player.position)
    me = before.current
    name = before.players[me].color
    played = shift_words(before, shift, move)
    collected = len(after.players[me].found) > len(before.players[me].found) or (
        after.phase == Phase.OVER and me in after.winners
    )
    marks = []
    view = View(before)
    options = list(first_ply(view))
    reachable = [(o, o[5] & o[6]) for o in options if o[5] & o[6]]
    if reachable and not collected:
        o, hits = reachable[0]
        cell = (hits & -hits).bit_length() - 1
        what = _target_words(before, Shift(o[0].name, o[1]), cell)
        example = f"{o[0].name} {openings_of(o[2])} {cell // SIZE},{cell % SIZE}"
        marks.append(
            Mark(
                number,
                name,
                MISSED,
                f"{name} could have {what} (e.g. {example}) but played {played}",
                played,
                example,
                {"ways": sum(bin(h).count("1") for _, h in reachable)},
            )
        )
    threat = _next_player_wins(after)
    if threat is not None:
        blocks = _blocking_shifts(before)
        if blocks:
            example = shift_words(before, blocks[0])
            who = after.players[after.current].color
            marks.append(
                Mark(
                    number,
                    name,
                    LETS_WIN,
                    f"{name} let {who} win next move ({who} can reach {threat}); "
                    f"{len(blocks)} shifts would have stopped it, e.g. {example}",
                    played,
                    example,
                    {"opponent": who, "blocking_shifts": len(blocks)},
                )
            )
    if not reachable and not collected and after.phase != Phase.OVER:
        ai = make_ai(level, seed=number)
        s2, m2 = ai.choose(before.copy())
        mine = next_turn_chance(view, options, shift, move)
        theirs = next_turn_chance(view, options, s2, m2)
        if theirs - mine >= far_worse:
            suggestion = shift_words(before, s2, m2)
            marks.append(
                Mark(
                    number,
                    name,
                    WEAK,
                    f"{name} played {played}: {mine:.0%} chance to collect next turn; "
                    f"{level} suggests {suggestion}: {theirs:.0%}",
                    played,
                    suggestion,
                    {"chance": mine, "suggested_chance": theirs, "level": level},
                )
            )
    return marks


def _target_words(state: Game, shift: Shift, cell: int) -> str:
    """What reaching `cell` after `shift` would have given the player to act."""
    if not state.player.cards:
        return "reached home and won"
    trial = state.copy()
    trial.apply(shift)
    treasure = trial.maze.treasures[cell]
    return f"collected the {TREASURES[treasure]}" if treasure >= 0 else "collected a card"


def next_turn_chance(view: View, options: list[Ply], shift: Shift, move: Move) -> float:
    """The share of next-turn shifts after which the target is reachable from where `move` ends."""
    mask = ROTATED[view.maze.spare_mask][shift.rotation % 4]
    option = next((o for o in options if o[0].name == shift.insertion and o[2] == mask), None)
    if option is None:
        return 0.0
    line, board, tb, ts = option[0], option[3], option[6], option[7]
    cell = move.cell[0] * SIZE + move.cell[1]
    spare = view.maze.masks[line.out_cell]
    served = total = 0
    for line2 in LINES.values():
        tb2, _ = tiles_after(tb, ts, line2)
        for _r, mask2 in ROTATIONS[spare]:
            total += 1
            if tb2 and (pawns_before(flood(tb2, shifted(board, line2, mask2)), line2) >> cell) & 1:
                served += 1
    return served / total if total else 0.0


def _wins_now(state: Game) -> str | None:
    """Whether the player to act can win this turn (knowing every card): what they reach, or None."""
    if state.phase != Phase.SHIFT:
        return None
    p = state.player
    rules = state.rules
    if not ((not p.cards and rules.return_home) or (len(p.cards) == 1 and not rules.return_home)):
        return None
    view = View(state)
    for o in first_ply(view):
        if o[5] & o[6]:
            return "home" if not p.cards else f"the {p.cards[0]}"
    return None


def _next_player_wins(after: Game) -> str | None:
    return None if after.phase == Phase.OVER else _wins_now(after)


def _blocking_shifts(before: Game) -> list[Shift]:
    """The shifts of the player to act after which the next player cannot win at once."""
    found = []
    seen = set()
    for shift in before.legal_shifts():
        mask = ROTATED[before.maze.spare_mask][shift.rotation]
        if (shift.insertion, mask) in seen:
            continue
        seen.add((shift.insertion, mask))
        trial = before.copy()
        trial.apply(shift)
        trial.apply(Move(CELLS[trial.player.cell]))
        if _next_player_wins(trial) is None:
            found.append(shift)
    return found
