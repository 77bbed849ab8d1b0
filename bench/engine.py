"""Engine figures: one shift+reachable evaluation, all legal shifts of a position, random games/s."""

from __future__ import annotations

import random
import statistics
import time

from engine.labyrinth import Game, Move

from bench.timing import percentile, summary, time_calls


def positions(count: int, seed: int = 1) -> list[Game]:
    """Mid-game positions (shift phase) from random play, so the figures are not of one board."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        game = Game.new(players=4, seed=seed + k)
        for _ in range(rng.randrange(1, 30)):
            game.apply(rng.choice(game.legal_shifts()))
            game.apply(Move(rng.choice(sorted(game.reachable()))))
        out.append(game)
    return out


def evaluate_all(game: Game) -> int:
    """The AI's hot path through the public API: shift a copy, compute the reachable set."""
    total = 0
    for shift in game.legal_shifts():
        trial = game.copy()
        trial.apply(shift)
        total += len(trial.reachable())
    return total


def random_game(seed: int, cap: int = 3000) -> int:
    rng = random.Random(seed)
    game = Game.new(players=2, seed=seed)
    while game.phase != "over" and game.turns < cap:
        game.apply(rng.choice(game.legal_shifts()))
        game.apply(Move(rng.choice(sorted(game.reachable()))))
    return game.turns


def main() -> None:
    games = positions(40)
    per_position = []
    per_eval = []
    for game in games:
        times = time_calls(lambda: evaluate_all(game), 15)  # noqa: B023 (called at once, inside this turn)
        per_position += times
        per_eval += [t / len(game.legal_shifts()) for t in times]
    print("engine: (a) one shift + reachable set:   " + summary(per_eval, 1e6, "us"))
    print("engine: (b) all legal shifts, one position: " + summary(per_position))
    t0 = time.perf_counter()
    turns = [random_game(s) for s in range(40)]
    elapsed = time.perf_counter() - t0
    print(
        f"engine: (c) random-play games (2 players, cap 3000 turns): {len(turns) / elapsed:.1f} games/s, "
        f"mean {statistics.mean(turns):.0f} turns, {sum(turns) / elapsed:.0f} turns/s"
    )
    print(
        f"engine: goal (b) median < 1 ms: {'met' if statistics.median(per_position) < 1e-3 else 'NOT met'}"
        f" (p99 {percentile(per_position, 99) * 1e3:.3f} ms)"
    )


if __name__ == "__main__":
    main()
