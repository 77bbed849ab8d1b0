"""Levels `easy` and `medium`: one-turn greedy players, the way a child or a casual adult plays.

Both look one turn ahead only: for a shift they see where the pawn can walk and
where the target lies. `medium` checks every shift, always takes its target
when it can, and otherwise walks as close to it as possible (Manhattan
distance, walls ignored). `easy` looks at only some of the shifts, sometimes
overlooks a target it could reach, and sometimes settles for a nearly-closest
cell: it still plays sensibly, just less sharply, so children can beat it.
"""

from __future__ import annotations

from engine.labyrinth.ai.base import AI, View, first_ply
from engine.labyrinth.ai.bits import cells_of, dilate

FAR = 99


def distance(reach: int, targets: int) -> tuple[int, int]:
    """(steps, cells of `reach` at that distance) between two bitboards, walls ignored."""
    if not targets:
        return FAR, reach
    ring = targets
    for d in range(13):
        near = reach & ring
        if near:
            return d, near
        ring = dilate(ring)
    return FAR, reach


class MediumAI(AI):
    """Every shift, greedy: collect if possible, otherwise end the move closest to the target."""

    level = "medium"
    look = 1.0  # share of the shifts it considers
    notice = 1.0  # chance to take a reachable target it has seen
    slack = 0  # how many steps from the best distance it may settle for

    def decide(self, view: View) -> tuple[str, int, int]:
        options = list(first_ply(view))
        if self.look < 1.0:
            k = max(1, round(len(options) * self.look))
            options = self.rng.sample(options, k)
        collect = [(o[0].name, o[1], c) for o in options for c in cells_of(o[5] & o[6])]
        if collect and self.rng.random() < self.notice:
            return self.rng.choice(collect)
        scored = []
        for line, rotation, _mask, _board, _pawn, reach, tb, _ts in options:
            d, near = distance(reach, tb)
            scored.append((d, line.name, rotation, reach, tb, near))
        best = min(s[0] for s in scored)
        limit = best + (self.rng.randint(0, self.slack) if self.slack else 0)
        pool = [s for s in scored if s[0] <= limit]
        _d, name, rotation, _reach, _tb, near = self.rng.choice(pool)
        return name, rotation, self.rng.choice(cells_of(near))


class EasyAI(MediumAI):
    """Like medium, but sees half the shifts, overlooks a reachable target one time in four,
    and may end a step or two further from its target than it could."""

    level = "easy"
    look = 0.5
    notice = 0.75
    slack = 2
