"""Benchmark of the computer players: decision time per level, search primitives, games per second.

Run by ``make bench`` (``python -m bench`` calls every bench module's ``main``);
alone: ``python -m bench.ai``. The goal for `hard` is a median under 100 ms and
a 99th percentile under 500 ms on the development machine, for `expert` (and
`fair`, which plays expert turns) a median CPU time under 250 ms and a 99th
percentile under 1 s (a Raspberry Pi 4 is several times slower; the kiosk passes
a clock so the search stops in time).
Win rates are measured with ``labyrinth-sim``; see docs/ai.md.
"""

from __future__ import annotations

import time

from engine.labyrinth import Game
from engine.labyrinth.ai import LEVELS, make_ai
from engine.labyrinth.ai.bits import CARRY, LINES, ROTATIONS, flood, shifted


GOALS = {
    "hard": "   (goal p50 < 100, p99 < 500)",
    "expert": "   (goal CPU p50 < 250, p99 < 1000)",
    "fair": "   (goal CPU p50 < 250, p99 < 1000)",
}


def _positions(players: int, games: int, seed: int) -> list[Game]:
    """Shift-phase positions from games between hard players (the positions hard meets)."""
    out = []
    for k in range(games):
        game = Game.new(players=players, seed=seed + k)
        ais = [make_ai("hard", seed=seed + k * 10 + i) for i in range(players)]
        while game.phase == "shift" and game.turns < 400:
            out.append(game.copy())
            shift, move = ais[game.current].choose(game)
            game.apply(shift)
            game.apply(move)
    return out


def _pct(values: list[float], q: float) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, int(round((len(data) - 1) * q / 100)))]


def decision_times(positions: list[Game]) -> dict[str, tuple[float, float, float, float, float]]:
    """Per level over the same positions, in ms: wall p50, p99, max, and CPU-time p50, p99
    (CPU time is what the AI costs with a core to itself, on a machine shared with other work)."""
    out = {}
    for level in LEVELS:
        ai = make_ai(level, seed=1)
        wall, cpu = [], []
        for game in positions:
            start, start_cpu = time.perf_counter(), time.process_time()
            ai.choose(game)
            cpu.append((time.process_time() - start_cpu) * 1000)
            wall.append((time.perf_counter() - start) * 1000)
        out[level] = (_pct(wall, 50), _pct(wall, 99), max(wall), _pct(cpu, 50), _pct(cpu, 99))
    return out


def primitive_cost(game: Game, repeat: int = 200) -> float:
    """Microseconds for one search step: shift the open-side boards and flood from the pawn."""
    board = game.maze.open_sides
    steps = [(LINES[name], mask) for name in LINES for _r, mask in ROTATIONS[game.maze.spare_mask]]
    cell = game.player.cell
    start = time.perf_counter()
    for _ in range(repeat):
        for line, mask in steps:
            flood(1 << CARRY[line.name].get(cell, cell), shifted(board, line, mask))
    return (time.perf_counter() - start) * 1e6 / (repeat * len(steps))


def games_per_second(players: int, games: int, levels: tuple[str, ...] = ("hard",)) -> float:
    """Whole games between the given levels (seats in turn; default: all hard) on one core."""
    start = time.perf_counter()
    for k in range(games):
        game = Game.new(players=players, seed=900 + k)
        ais = [make_ai(levels[(i + k) % len(levels)], seed=k * 10 + i) for i in range(players)]
        while game.phase != "over" and game.turns < 1000:
            shift, move = ais[game.current].choose(game)
            game.apply(shift)
            game.apply(move)
    return games / (time.perf_counter() - start)


def main() -> None:
    print("AI players (engine.labyrinth.ai)")
    print(f"  search step (shift + flood fill): {primitive_cost(Game.new(players=2, seed=1)):.2f} us")
    for players in (2, 4):
        positions = _positions(players, games=3, seed=100 * players)
        print(f"  decision time, {players} players, {len(positions)} positions from hard-vs-hard games:")
        for level, (p50, p99, worst, c50, c99) in decision_times(positions).items():
            goal = GOALS.get(level, "")
            print(
                f"    {level:<7} p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   max {worst:7.2f} ms   "
                f"CPU p50 {c50:7.2f} ms  p99 {c99:7.2f} ms{goal}"
            )
    for players in (2, 4):
        print(f"  hard-vs-hard, {players} players: {games_per_second(players, 3):.2f} games per second on one core")
    print(f"  expert-vs-hard, 2 players: {games_per_second(2, 3, ('expert', 'hard')):.2f} games per second on one core")


if __name__ == "__main__":
    main()
