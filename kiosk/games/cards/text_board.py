"""The card game's positions as text, for ``labyrinth-replay`` in a terminal.

Each card is 7 x 3 characters (# is wall) with its two treasures' first
letters; the hands, the cards taken and the draw pile below the layout.
"""

from __future__ import annotations

from engine.outcome import GAME_OVER
from engine.cards.deck import CARDS, OPEN
from engine.cards.game import CardGame
from engine.cards.record import card_name, player_name as card_player


def card_tile(card: int, rotation: int) -> list[str]:
    mask = OPEN[card][rotation]
    a, b = CARDS[card].names
    n, e, s, w = (mask >> k & 1 for k in range(4))
    return [
        "##" + ("   " if n else "###") + "##",
        (" " if w else "#") + f"{a[:2]} {b[:2]}" + (" " if e else "#"),
        "##" + ("   " if s else "###") + "##",
    ]


def card_layout(state: CardGame) -> str:
    """The laid cards on their grid (x east, y south), then hands, cards taken and the draw pile."""
    lines = []
    if state.layout:
        xs = [x for x, _ in state.layout]
        ys = [y for _, y in state.layout]
        lines.append("     " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1)))
        for y in range(min(ys), max(ys) + 1):
            rows = ["", "", ""]
            for x in range(min(xs), max(xs) + 1):
                placed = state.layout.get((x, y))
                parts = card_tile(placed.card, placed.rotation) if placed else ["       "] * 3
                for k in range(3):
                    rows[k] += parts[k]
            lines += [f"     {rows[0]}", f"{y:>4} {rows[1]}", f"     {rows[2]}"]
    lines.append("")
    for k in range(state.players):
        mark = ">" if k == state.current and state.phase != GAME_OVER else " "
        hand = ", ".join(card_name(c) for c in state.hands[k]) or "-"
        lines.append(f"{mark} {card_player(state, k)}  taken {len(state.taken[k]):>2}  hand {hand}")
    lines.append(f"  draw pile {len(state.draw_pile)}")
    return "\n".join(lines)
