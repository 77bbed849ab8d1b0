"""Level `random`: a legal shift and a reachable cell, each picked uniformly.

A baseline for measurements (anything that plays worse than this is broken) and
the lightest opponent for the very young.
"""

from __future__ import annotations

from engine.labyrinth.ai.base import AI, View
from engine.labyrinth.ai.bits import CARRY, LINES, cells_of, flood, shifted
from engine.labyrinth.maze import ROTATED


class RandomAI(AI):
    level = "random"

    def decide(self, view: View) -> tuple[str, int, int]:
        names = [name for name in LINES if name != view.banned]
        name = self.rng.choice(names)
        rotation = self.rng.randrange(4)
        line = LINES[name]
        board = shifted(view.board, line, ROTATED[view.maze.spare_mask][rotation])
        me = view.cells[view.me]
        pawn = CARRY[name].get(me, me)
        return name, rotation, self.rng.choice(cells_of(flood(1 << pawn, board)))
