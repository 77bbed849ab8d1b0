"""The board game's positions as text, for ``labyrinth-replay`` in a terminal.

Each maze tile is 5 x 3 characters (# is wall), pawns by their initial
(R Y G B), treasures by their first three letters; the spare and each
player's cards below the board.
"""

from __future__ import annotations

from engine.outcome import GAME_OVER
from engine.labyrinth.game import Game
from engine.labyrinth.maze import SIZE, openings_of
from engine.labyrinth.tiles import TREASURES

PAWN_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
INSERTION_INDEXES = (1, 3, 5)


def maze_tile(openings: str, centre: str) -> list[str]:
    """A tile as three rows of five characters; `centre` is up to three characters."""
    return [
        "#" + ("   " if "N" in openings else "###") + "#",
        (" " if "W" in openings else "#") + centre.center(3)[:3] + (" " if "E" in openings else "#"),
        "#" + ("   " if "S" in openings else "###") + "#",
    ]


def maze_board(state: Game) -> str:
    """The 7 x 7 maze with pawns, treasures, the insertion arrows, the spare and each player."""
    pawns: dict[int, str] = {}
    for p in state.players:
        pawns[p.cell] = pawns.get(p.cell, "") + PAWN_LETTERS.get(p.color, "?")
    top = "    " + "".join(("  v  " if c in INSERTION_INDEXES else "     ") for c in range(SIZE))
    cols = "    " + "".join(f"  {c}  " for c in range(SIZE))
    lines = [top, cols]
    for r in range(SIZE):
        rows = ["", "", ""]
        for c in range(SIZE):
            i = r * SIZE + c
            t = state.maze.treasures[i]
            centre = pawns.get(i) or (TREASURES[t][:3] if t >= 0 else "")
            for k, part in enumerate(maze_tile(openings_of(state.maze.masks[i]), centre)):
                rows[k] += part
        arrow = ">" if r in INSERTION_INDEXES else " "
        back = "<" if r in INSERTION_INDEXES else " "
        lines += [f"   {arrow}{rows[0]}{back}", f" {r} {arrow}{rows[1]}{back}", f"   {arrow}{rows[2]}{back}"]
    lines.append(top.replace("v", "^"))
    spare_t = state.maze.spare_treasure
    spare = maze_tile(openings_of(state.maze.spare_mask), TREASURES[spare_t][:3] if spare_t >= 0 else "")
    info = []
    for k, p in enumerate(state.players):
        mark = ">" if k == state.current and state.phase != GAME_OVER else " "
        target = ("home" if p.cards or state.rules.return_home else "-") if not p.cards else p.cards[0]
        info.append(
            f"{mark} {p.color:<6} at {p.position[0]},{p.position[1]}  found {len(p.found):>2}"
            f"  left {len(p.cards):>2}  target {target}"
        )
    lines.append("")
    lines.append(f"   spare {spare[0]}   " + (info[0] if info else ""))
    lines.append(f"         {spare[1]}   " + (info[1] if len(info) > 1 else ""))
    lines.append(f"         {spare[2]}   " + (info[2] if len(info) > 2 else ""))
    lines += ["                 " + extra for extra in info[3:]]
    return "\n".join(lines)
