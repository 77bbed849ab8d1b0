"""Paths across the open layout: which treasures a laid card joins, and which cards may leave.

The layout is a mapping ``(x, y) -> Placed(card, rotation)`` on an unbounded
grid (x grows east, y grows south). Two cards touch along a full side when
their cells differ by one step in x or y; a path crosses that side only when
both cards are open there. Inside a card a path runs along one segment; the
two segments of a two-segment card do not meet.

Two independent ways to find the joined treasures live here on purpose:
``joined_cards`` walks the laid layout (what the game uses after a card is
laid), ``Survey`` answers "what would this card join if laid here?" for every
candidate cell at once (what the AI and the kiosk's hints use). Tests check
that they agree.
"""

from __future__ import annotations

from typing import Collection, Iterable, Mapping, NamedTuple

from engine.cards.deck import CARDS, OPEN, SIDE_SEGMENT, STEP, Card

Cell = tuple[int, int]


class Placed(NamedTuple):
    """A card on the layout: its id and how many clockwise quarter turns it was laid with."""

    card: int
    rotation: int

    @property
    def face(self) -> Card:
        """The card as it lies: segments turned by the rotation."""
        return CARDS[self.card].rotated(self.rotation)


Layout = Mapping[Cell, Placed]


def step(cell: Cell, side: int) -> Cell:
    dx, dy = STEP[side]
    return (cell[0] + dx, cell[1] + dy)


def edge_neighbours(cells: Iterable[Cell] | Mapping[Cell, object], cell: Cell) -> list[Cell]:
    """The cells of `cells` touching `cell` along a full side (corners do not count)."""
    return [n for n in (step(cell, s) for s in range(4)) if n in cells]


def open_ports(layout: Layout, cell: Cell) -> int:
    """Bit mask of the sides of the (empty) `cell` that face an open side of a laid card."""
    mask = 0
    for s in range(4):
        placed = layout.get(step(cell, s))
        if placed is not None and OPEN[placed.card][placed.rotation] >> ((s + 2) % 4) & 1:
            mask |= 1 << s
    return mask


def frontier(layout: Layout) -> list[Cell]:
    """The empty cells touching the layout along a full side, sorted (y, then x)."""
    seen = set()
    for cell in layout:
        for s in range(4):
            n = step(cell, s)
            if n not in layout:
                seen.add(n)
    return sorted(seen, key=lambda c: (c[1], c[0]))


def joined_cards(layout: Layout, cell: Cell) -> dict[str, frozenset[int]]:
    """For each treasure on the card at `cell`: the other cards carrying the same treasure
    on a continuous path from it (through segments and across shared open sides)."""
    placed = layout[cell]
    face = CARDS[placed.card]
    result: dict[str, frozenset[int]] = {}
    reach_cache: dict[int, set[tuple[Cell, int]]] = {}
    for name, seg in face.treasures:
        if seg not in reach_cache:
            reach_cache[seg] = _reach(layout, cell, seg)
        found = set()
        for other_cell, other_seg in reach_cache[seg]:
            if other_cell == cell:
                continue
            other = layout[other_cell]
            if (name, other_seg) in CARDS[other.card].treasures:
                found.add(other.card)
        result[name] = frozenset(found)
    return result


def joined_cells(layout: Layout, cell: Cell) -> dict[str, frozenset[Cell]]:
    """For each treasure on the card at `cell` that is joined to another card with the same
    treasure (``joined_cards``): the cells its path runs through, the card at `cell` included, so a
    screen can show why those cards may be taken."""
    placed = layout[cell]
    result: dict[str, frozenset[Cell]] = {}
    for name, seg in CARDS[placed.card].treasures:
        reach = _reach(layout, cell, seg)
        if any(c != cell and (name, k) in CARDS[layout[c].card].treasures for c, k in reach):
            result[name] = frozenset(c for c, _ in reach)
    return result


def _reach(layout: Layout, cell: Cell, seg: int) -> set[tuple[Cell, int]]:
    """Every (cell, segment) joined to segment `seg` of the card at `cell`."""
    start = (cell, seg)
    seen = {start}
    todo = [start]
    while todo:
        here, k = todo.pop()
        placed = layout[here]
        sides = SIDE_SEGMENT[placed.card][placed.rotation]
        for s in range(4):
            if sides[s] != k:
                continue
            there = step(here, s)
            other = layout.get(there)
            if other is None:
                continue
            k2 = SIDE_SEGMENT[other.card][other.rotation][(s + 2) % 4]
            if k2 >= 0 and (there, k2) not in seen:
                seen.add((there, k2))
                todo.append((there, k2))
    return seen


def edge_groups(cells: Iterable[Cell]) -> list[set[Cell]]:
    """The groups of cells joined through full-side contact."""
    left = set(cells)
    groups = []
    while left:
        first = left.pop()
        group = {first}
        todo = [first]
        while todo:
            for n in edge_neighbours(left, todo.pop()):
                left.discard(n)
                group.add(n)
                todo.append(n)
        groups.append(group)
    return groups


def layout_problem(cells: Iterable[Cell], keep_connected: bool = False) -> str | None:
    """Why a remaining layout breaks the taking rule, or None when it is fine.

    docs/rules.md: every card left must touch another along a full side. With
    ``keep_connected`` (a variant) the cards left must also form one group.
    """
    cells = set(cells)
    alone = sorted((c for c in cells if not edge_neighbours(cells, c)), key=lambda c: (c[1], c[0]))
    if alone:
        where = ", ".join(str(c) for c in alone)
        return f"the card at {where} would be left without a neighbour along a full side"
    if keep_connected and len(edge_groups(cells)) > 1:
        return "the layout would fall apart into separate groups"
    return None


def removal_problem(cells: Collection[Cell], removed: set[Cell], keep_connected: bool = False) -> str | None:
    """``layout_problem`` for `cells` minus `removed`, checking only the cards next to the
    removed ones. Valid when every card of `cells` has a neighbour (the layout invariant)."""
    if keep_connected:
        return layout_problem(set(cells) - removed, True)
    for cell in removed:
        for s in range(4):
            n = step(cell, s)
            if n in cells and n not in removed:
                if not any((m := step(n, t)) in cells and m not in removed for t in range(4)):
                    return f"the card at {n} would be left without a neighbour along a full side"
    return None


class Survey:
    """The open ends of a layout, for asking what a card would join before laying it.

    Paths are grouped into components (joined (cell, segment) pairs). For each
    empty cell next to the layout, ``ports[cell]`` maps a side of that cell to
    the component whose open side it faces.
    """

    __slots__ = ("layout", "component", "treasures", "ports")

    def __init__(self, layout: Layout):
        self.layout = layout
        self.component: dict[tuple[Cell, int], int] = {}
        #: treasures[component] -> {treasure: set of card ids on that component}
        self.treasures: list[dict[str, set[int]]] = []
        for cell, placed in layout.items():
            for k in range(len(CARDS[placed.card].segments)):
                if (cell, k) in self.component:
                    continue
                comp = len(self.treasures)
                found: dict[str, set[int]] = {}
                for node in _reach(layout, cell, k):
                    self.component[node] = comp
                    node_cell, node_seg = node
                    node_card = layout[node_cell].card
                    for name, seg in CARDS[node_card].treasures:
                        if seg == node_seg:
                            found.setdefault(name, set()).add(node_card)
                self.treasures.append(found)
        self.ports: dict[Cell, dict[int, int]] = {}
        for cell, placed in layout.items():
            sides = SIDE_SEGMENT[placed.card][placed.rotation]
            for s in range(4):
                if sides[s] < 0:
                    continue
                there = step(cell, s)
                if there not in layout:
                    self.ports.setdefault(there, {})[(s + 2) % 4] = self.component[(cell, sides[s])]

    def matches(self, card: int, rotation: int, cell: Cell) -> dict[str, frozenset[int]]:
        """What laying `card` turned by `rotation` at the empty `cell` would join, per treasure
        on it: the same result ``joined_cards`` gives after laying it."""
        ports = self.ports.get(cell, {})
        sides = SIDE_SEGMENT[card][rotation]
        # The components each segment of the new card touches; two segments touching the
        # same component are joined through it, so their reaches merge.
        touch: list[set[int]] = [set() for _ in CARDS[card].segments]
        for s, comp in ports.items():
            if sides[s] >= 0:
                touch[sides[s]].add(comp)
        if len(touch) == 2 and touch[0] & touch[1]:
            touch = [touch[0] | touch[1]] * 2
        result = {}
        for name, seg in CARDS[card].treasures:
            found: set[int] = set()
            for comp in touch[seg]:
                found |= self.treasures[comp].get(name, set())
            result[name] = frozenset(found)
        return result
