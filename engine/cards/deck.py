"""The 50 path cards of the travel card game, as one table (docs/rules.md section 2).

Each row is one card, written as its path segments separated by spaces. A
segment is the sides it joins (a subset of ``NESW``, in that order), then
``:`` and the treasures sitting on it, comma-separated; a segment without a
treasure has no ``:``. Sides that belong to no segment are walls.

    "NES:apple,bell"         one T-shaped segment carrying both treasures
    "NE:flag SW:hat"         two corner segments, one treasure on each
    "N:kite S:lamp"          two dead ends: a straight blocked in the middle

The composition follows the published game: 25 treasures x 4 cards, two
different treasures per card, one or two segments per card. The treasure
pairs form a 4-regular pattern (each treasure shares a card with four
different treasures: its neighbours 1 and 7 further along the list), so no two
cards carry the same pair. The mix of shapes was tuned by simulation so that
treasures get connected regularly (see docs/card-game.md for the figures).

The row order is the card id (0-49): saves and actions refer to cards by id.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

SIDES = "NESW"
#: (dx, dy) of the neighbour across each side: x grows east, y grows south.
STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
DECK_NAME = "travel-50"

TREASURES = (
    "anchor",
    "acorn",
    "apple",
    "bell",
    "boot",
    "candle",
    "clock",
    "compass",
    "cup",
    "drum",
    "feather",
    "fish",
    "flag",
    "hat",
    "horn",
    "key",
    "kite",
    "lamp",
    "leaf",
    "mask",
    "moon",
    "shell",
    "star",
    "umbrella",
    "vase",
)

DECK_TABLE = (
    "NESW:anchor,acorn",
    "NES:acorn,apple",
    "NES:apple,bell",
    "NE:bell,boot",
    "NE:boot,candle",
    "NE:candle,clock",
    "NS:clock,compass",
    "NS:compass,cup",
    "NE:cup SW:drum",
    "NE:drum SW:feather",
    "NE:feather SW:fish",
    "NE:fish S:flag",
    "NE:flag S:hat",
    "NE:hat S:horn",
    "N:horn S:key",
    "N:key S:kite",
    "N:kite E:lamp",
    "NESW:lamp,leaf",
    "NES:leaf,mask",
    "NES:mask,moon",
    "NE:moon,shell",
    "NE:shell,star",
    "NE:star,umbrella",
    "NS:umbrella,vase",
    "NS:vase,anchor",
    "NE:anchor SW:compass",
    "NE:acorn SW:cup",
    "NE:apple SW:drum",
    "NE:bell S:feather",
    "NE:boot S:fish",
    "NE:candle S:flag",
    "N:clock S:hat",
    "N:compass E:horn",
    "N:cup E:key",
    "NES:drum,kite",
    "NES:feather,lamp",
    "NE:fish,leaf",
    "NE:flag,mask",
    "NE:hat,moon",
    "NS:horn,shell",
    "NS:key,star",
    "NS:kite,umbrella",
    "NE:lamp SW:vase",
    "NE:leaf SW:anchor",
    "NE:mask S:acorn",
    "NE:moon S:apple",
    "NE:shell S:bell",
    "N:star S:boot",
    "N:umbrella S:candle",
    "N:vase E:clock",
)


def rotate_sides(sides: str, turns: int) -> str:
    """Rotate a side string clockwise by quarter turns (N->E->S->W->N), result in NESW order."""
    moved = {SIDES[(SIDES.index(s) + turns) % 4] for s in sides}
    return "".join(s for s in SIDES if s in moved)


@dataclass(frozen=True)
class Card:
    """One path card, unrotated or as laid (``rotated``): segments and the treasures on them.

    ``segments``: tuple of side strings (NESW order), disjoint; ``treasures``:
    two ``(treasure, segment index)`` pairs.
    """

    id: int
    segments: tuple[str, ...]
    treasures: tuple[tuple[str, int], ...]

    @property
    def openings(self) -> str:
        """All open sides, NESW order; the others are walls."""
        return "".join(s for s in SIDES if any(s in seg for seg in self.segments))

    def segment_of(self, side: str) -> int | None:
        """The index of the segment reaching `side`, or None for a wall."""
        for k, seg in enumerate(self.segments):
            if side in seg:
                return k
        return None

    def rotated(self, turns: int) -> "Card":
        """The same card turned clockwise by `turns` quarter turns."""
        return Card(self.id, tuple(rotate_sides(seg, turns) for seg in self.segments), self.treasures)

    @property
    def names(self) -> tuple[str, ...]:
        """The two treasures on the card."""
        return tuple(t for t, _ in self.treasures)


def parse_card(card_id: int, row: str) -> Card:
    """Read one table row; raises ValueError naming the row when it breaks the deck's rules."""
    segments: list[str] = []
    treasures: list[tuple[str, int]] = []
    for k, part in enumerate(row.split()):
        sides, _, names = part.partition(":")
        if not sides or any(s not in SIDES for s in sides) or sides != rotate_sides(sides, 0):
            raise ValueError(f"card {card_id} {row!r}: sides {sides!r} must be letters of NESW, once, in order")
        segments.append(sides)
        for name in filter(None, names.split(",")):
            if name not in TREASURES:
                raise ValueError(f"card {card_id} {row!r}: unknown treasure {name!r}")
            treasures.append((name, k))
    used = "".join(segments)
    if len(used) != len(set(used)):
        raise ValueError(f"card {card_id} {row!r}: a side belongs to two segments")
    if not 1 <= len(segments) <= 2:
        raise ValueError(f"card {card_id} {row!r}: a card has one or two path segments")
    if len(treasures) != 2 or treasures[0][0] == treasures[1][0]:
        raise ValueError(f"card {card_id} {row!r}: a card carries two different treasures")
    return Card(card_id, tuple(segments), tuple(treasures))


def build_deck(table: tuple[str, ...] = DECK_TABLE) -> tuple[Card, ...]:
    """Parse and check the whole table: 50 cards, each treasure on exactly 4 cards."""
    cards = tuple(parse_card(i, row) for i, row in enumerate(table))
    if len(cards) != 50:
        raise ValueError(f"the deck has {len(cards)} cards, not 50")
    counts = Counter(name for card in cards for name in card.names)
    wrong = sorted(t for t in TREASURES if counts[t] != 4)
    if wrong:
        raise ValueError(f"treasures not on exactly 4 cards: {', '.join(wrong)}")
    return cards


CARDS: tuple[Card, ...] = build_deck()

# Lookup tables by card id and rotation, for the hot paths (placement, paths, AI).
#: OPEN[card][rot]: bit mask of open sides (bit 0 = N ... bit 3 = W).
#: SIDE_SEGMENT[card][rot][side index]: segment index reaching that side, or -1 for a wall.
OPEN: tuple[tuple[int, ...], ...]
SIDE_SEGMENT: tuple[tuple[tuple[int, ...], ...], ...]


def _tables() -> None:
    global OPEN, SIDE_SEGMENT
    opens, side_segs = [], []
    for card in CARDS:
        o_row, s_row = [], []
        for rot in range(4):
            turned = card.rotated(rot)
            seg = tuple(-1 if (k := turned.segment_of(s)) is None else k for s in SIDES)
            s_row.append(seg)
            o_row.append(sum(1 << i for i in range(4) if seg[i] >= 0))
        opens.append(tuple(o_row))
        side_segs.append(tuple(s_row))
    OPEN, SIDE_SEGMENT = tuple(opens), tuple(side_segs)


_tables()
