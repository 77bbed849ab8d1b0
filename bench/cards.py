"""Card-game figures: AI decision time per level, legal placements per position, games per second."""

from __future__ import annotations

import statistics
import time

from engine.cards import CardGame, play_game
from engine.cards.ai import LEVELS, make_ai

from bench.timing import summary, time_calls


def main() -> None:
    for level in LEVELS:
        seconds = []
        games = 6 if level == "hard" else 20
        t0 = time.process_time()
        for seed in range(games):
            result = play_game([make_ai(level, seed), make_ai("easy", seed + 1000)], seed=seed, timer=time.perf_counter)
            seconds += [d["seconds"] for d in result["decisions"] if d["seat"] == 0]
        cpu = time.process_time() - t0
        print(
            f"cards: {level:6} decision time: "
            + summary(seconds)
            + f"; {games / cpu:.1f} games per CPU second (vs easy)"
        )
    game = CardGame.new(players=4, seed=3)
    per = time_calls(lambda: game.legal_placements(), 50)
    print(f"cards: legal placements at the start ({len(game.legal_placements())} of them): " + summary(per))
    taken = [sum(play_game([make_ai("easy", s), make_ai("easy", s + 1)], seed=s)["scores"]) for s in range(20)]
    print(f"cards: mean cards taken per 2-player easy game: {statistics.mean(taken):.1f}")


if __name__ == "__main__":
    main()
