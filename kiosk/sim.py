"""labyrinth-sim: play many games between computer players and report how they fare.

    labyrinth-sim --games 1000 --players 4 --ai hard,medium,easy,random --seed 1 --jobs 2 --json results.json

Games run in parallel over --jobs processes, in chunks. Every game's seed is
derived from --seed and the game's number, so the same command gives the same
results whatever the number of jobs (only the decision timings differ).
Seats rotate between games by default, so no AI profits from always starting.

A game kind plugs in as a :class:`Runner` (``--game labyrinth`` or ``--game cards``):
it names its AI levels and player counts and plays one game, returning a
:class:`Outcome`. Everything else (seeds, seats, parallelism, statistics,
table, JSON) is shared. docs/ai.md has the measured figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

# ----------------------------------------------------------------- one game


@dataclass
class Outcome:
    """What one game produced. Seats are 0..players-1 in playing order (seat 0 starts)."""

    winners: list[int]                 # [] for a draw (turn cap reached, or nobody won)
    turns: int                         # turns played by all players together
    seat_turns: list[int]              # turns each seat played
    decision_ms: list[list[float]]     # per seat, the wall-clock time of each decision
    capped: bool = False
    decision_cpu_ms: list[list[float]] | None = None   # per seat, CPU time (unaffected by other load)


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play its share of the games (picklable)."""

    game: str
    entries: tuple[str, ...]           # the AI of each entry in --ai order
    seed: int
    turn_cap: int
    rotate: bool
    open_cards: bool = False
    return_home: bool = True


class Runner:
    """A game kind for the simulation: its AI levels, player counts and how to play one game."""

    name = ""
    levels: tuple[str, ...] = ()
    min_players = 1
    max_players = 4
    default_turn_cap = 1000

    def check(self, spec: Spec) -> None:
        """Raise ValueError naming the problem if the options do not fit this game."""

    def play(self, levels: Sequence[str], seed: int, spec: Spec, timer: Callable[[], float]) -> Outcome:
        raise NotImplementedError


class LabyrinthRunner(Runner):
    """The sliding-maze game (engine.Game with engine.ai players)."""

    name = "labyrinth"
    levels = ("random", "easy", "medium", "hard")
    min_players, max_players = 1, 4
    default_turn_cap = 1000

    def play(self, levels, seed, spec, timer):
        from engine import Game, Rules
        from engine.ai import make_ai
        rules = Rules(open_cards=spec.open_cards, return_home=spec.return_home)
        game = Game.new(players=len(levels), seed=seed, rules=rules)
        ais = [make_ai(level, seed=derive(seed, "ai", seat)) for seat, level in enumerate(levels)]
        times: list[list[float]] = [[] for _ in levels]
        cpu: list[list[float]] = [[] for _ in levels]
        while game.phase != "over" and game.turns < spec.turn_cap:
            seat = game.current
            start, start_cpu = timer(), time.process_time()
            shift, move = ais[seat].choose(game)
            cpu[seat].append((time.process_time() - start_cpu) * 1000.0)
            times[seat].append((timer() - start) * 1000.0)
            game.apply(shift)
            game.apply(move)
        winners = list(game.winners)
        return Outcome(winners, game.turns, [len(t) for t in times], times, capped=game.phase != "over",
                       decision_cpu_ms=cpu)


class CardsRunner(Runner):
    """The travel card game (engine.cards: CardGame, its AI levels and play_game)."""

    name = "cards"
    levels = ("random", "easy", "hard")
    min_players, max_players = 2, 6
    default_turn_cap = 500

    def check(self, spec):
        if spec.open_cards or not spec.return_home:
            raise ValueError("--open-cards and --no-return are variants of the maze game, not of the card game")

    def play(self, levels, seed, spec, timer):
        from engine.cards import play_game
        from engine.cards.ai import make_ai
        ais = [make_ai(level, seed=derive(seed, "ai", seat)) for seat, level in enumerate(levels)]
        result = play_game(ais, seed=seed, turn_cap=spec.turn_cap, timer=timer)
        if result["illegal"]:
            raise RuntimeError(f"card game {seed}: an AI made an illegal move: {result['illegal']}")
        times: list[list[float]] = [[] for _ in levels]
        turns = [0] * len(levels)
        for d in result["decisions"]:
            times[d["seat"]].append(d["seconds"] * 1000.0)
            if d["phase"] == "place":
                turns[d["seat"]] += 1
        return Outcome(list(result["winners"]), result["turns"], turns, times, capped=result["capped"])


def runners() -> dict[str, Runner]:
    """Every registered game's simulation runner (``GameType.sim``, kiosk.games), by game name."""
    from . import games
    return {g.name: g.sim() for g in games.all_games() if g.sim is not None}


def _default_game() -> str:
    from . import games
    return games.default()


def derive(seed: int, *parts) -> int:
    """A 64-bit seed from a base seed and labels: independent streams, the same on every machine."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def seating(spec: Spec, index: int) -> list[int]:
    """Which entry sits in each seat for game `index` (rotating one seat per game)."""
    k = len(spec.entries)
    shift = index % k if spec.rotate else 0
    return [(seat + shift) % k for seat in range(k)]


def play_one(spec: Spec, index: int) -> dict:
    """Play game `index` and return its record (entries instead of seats)."""
    runner = runners()[spec.game]
    entries = seating(spec, index)
    outcome = runner.play([spec.entries[e] for e in entries], derive(spec.seed, spec.game, index),
                          spec, time.perf_counter)
    return {
        "index": index,
        "seats": entries,
        "winners": [entries[s] for s in outcome.winners],
        "turns": outcome.turns,
        "entry_turns": {entries[s]: n for s, n in enumerate(outcome.seat_turns)},
        "decision_ms": {entries[s]: t for s, t in enumerate(outcome.decision_ms)},
        "decision_cpu_ms": {entries[s]: t for s, t in enumerate(outcome.decision_cpu_ms or [])},
        "capped": outcome.capped,
    }


def _play_chunk(job: tuple[Spec, list[int]]) -> tuple[list[dict], float]:
    """Play some games in a worker: their records and the CPU seconds they took."""
    spec, indices = job
    start = time.process_time()
    records = [play_one(spec, i) for i in indices]
    return records, time.process_time() - start


# ----------------------------------------------------------------- statistics


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (sound also near 0 and 1 and for small n)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    data = sorted(values)
    pos = (len(data) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return data[lo] + (data[hi] - data[lo]) * (pos - lo)


@dataclass
class Summary:
    spec: Spec
    games: int = 0
    draws: int = 0
    wins: list[int] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    finished_turns: list[int] = field(default_factory=list)
    entry_turns: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    cpu_times: dict[str, list[float]] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    jobs: int = 1

    def __post_init__(self) -> None:
        self.wins = [0] * len(self.spec.entries)
        self.entry_turns = [0] * len(self.spec.entries)

    def add(self, record: dict) -> None:
        self.games += 1
        self.turns.append(record["turns"])
        if record["winners"]:
            for e in record["winners"]:
                self.wins[e] += 1
            self.finished_turns.append(record["turns"])
        else:
            self.draws += 1
        for e, n in record["entry_turns"].items():
            self.entry_turns[int(e)] += n
        for e, t in record["decision_ms"].items():
            self.times.setdefault(self.spec.entries[int(e)], []).extend(t)
        for e, t in record["decision_cpu_ms"].items():
            self.cpu_times.setdefault(self.spec.entries[int(e)], []).extend(t)

    def to_json(self) -> dict:
        spec = self.spec
        players = []
        for e, ai in enumerate(spec.entries):
            lo, hi = wilson(self.wins[e], self.games)
            players.append({
                "entry": e,
                "seat": None if spec.rotate else e,
                "ai": ai,
                "wins": self.wins[e],
                "win_rate": self.wins[e] / self.games if self.games else 0.0,
                "ci95": [lo, hi],
                "turns_per_game": self.entry_turns[e] / self.games if self.games else 0.0,
            })
        out = {
            "game": spec.game,
            "games": self.games,
            "seed": spec.seed,
            "rotate_seats": spec.rotate,
            "turn_cap": spec.turn_cap,
            "rules": {"open_cards": spec.open_cards, "return_home": spec.return_home},
            "players": players,
            "draws": self.draws,
            "turns": _stats(self.turns),
            "decision_ms": {ai: {"p50": percentile(t, 50), "p99": percentile(t, 99),
                                 "mean": sum(t) / len(t) if t else 0.0, "max": max(t, default=0.0),
                                 "decisions": len(t)}
                            for ai, t in sorted(self.times.items())},
            # The same decisions in CPU time: what the AI costs when it has a core to itself.
            "decision_cpu_ms": {ai: {"p50": percentile(t, 50), "p99": percentile(t, 99)}
                                for ai, t in sorted(self.cpu_times.items())},
            "jobs": self.jobs,
            "seconds": self.seconds,
            "games_per_second_per_core": self.games / self.seconds / self.jobs if self.seconds else 0.0,
            # Games per second of CPU time: the same figure on a machine shared with other work.
            "games_per_cpu_second": self.games / self.cpu_seconds if self.cpu_seconds else 0.0,
        }
        if len(spec.entries) == 1:
            out["solo"] = {"finished": len(self.finished_turns), **_stats(self.finished_turns)}
        return out


def _stats(values: Sequence[int]) -> dict:
    return {"mean": sum(values) / len(values) if values else 0.0,
            "p50": percentile(values, 50), "p99": percentile(values, 99)}


def format_table(data: dict) -> str:
    """The summary a person reads at the end of a run."""
    lines = []
    rules = [k for k, v in (("open cards", data["rules"]["open_cards"]),
                            ("no return home", not data["rules"]["return_home"])) if v]
    lines.append(f"{data['game']}: {data['games']} games, {len(data['players'])} players, seed {data['seed']}"
                 f"{', ' + ', '.join(rules) if rules else ''}"
                 f", seats {'rotating' if data['rotate_seats'] else 'fixed'}, turn cap {data['turn_cap']}")
    head = f"{'seat':>8}  {'AI':<8} {'wins':>6} {'win rate':>9}  {'95% CI':<15} {'turns/game':>10}"
    lines.append(head)
    for p in data["players"]:
        seat = "rotating" if p["seat"] is None else str(p["seat"])
        lo, hi = p["ci95"]
        ci = f"[{lo:.1%}, {hi:.1%}]"
        lines.append(f"{seat:>8}  {p['ai']:<8} {p['wins']:>6} {p['win_rate']:>9.1%}  {ci:<15} "
                     f"{p['turns_per_game']:>10.1f}")
    t = data["turns"]
    lines.append(f"draws (turn cap): {data['draws']}    turns per game (all players): "
                 f"mean {t['mean']:.1f}  p50 {t['p50']:.0f}  p99 {t['p99']:.0f}")
    if "solo" in data:
        s = data["solo"]
        lines.append(f"solo: {s['finished']} finished, turns to finish mean {s['mean']:.1f}  p50 {s['p50']:.0f}")
    lines.append("decision time (wall):  " + "   ".join(
        f"{ai} p50 {d['p50']:.2f} ms p99 {d['p99']:.2f} ms" for ai, d in data["decision_ms"].items()))
    if data["decision_cpu_ms"]:
        lines.append("decision time (CPU):   " + "   ".join(
            f"{ai} p50 {d['p50']:.2f} ms p99 {d['p99']:.2f} ms" for ai, d in data["decision_cpu_ms"].items()))
    lines.append(f"{data['seconds']:.1f} s on {data['jobs']} jobs: "
                 f"{data['games_per_second_per_core']:.2f} games per second per core "
                 f"({data['games_per_cpu_second']:.2f} per CPU second)")
    return "\n".join(lines)


# ----------------------------------------------------------------- progress


class Progress:
    """A bar on a terminal; elsewhere (logs, CI) a plain line every 10% or 30 s."""

    def __init__(self, total: int, stream=None):
        self.total = total
        self.done = 0
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = self.last = time.monotonic()
        self.next_line = 0.1

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        share = self.done / self.total if self.total else 1.0
        rate = self.done / (now - self.start) if now > self.start else 0.0
        eta = (self.total - self.done) / rate if rate else 0.0
        text = f"{self.done}/{self.total} games  {rate:.1f} games/s  eta {int(eta) // 60}:{int(eta) % 60:02d}"
        if self.tty:
            width = 30
            filled = int(width * share)
            self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {text} ")
            self.stream.flush()
        elif share >= self.next_line or now - self.last >= 30 or self.done == self.total:
            self.stream.write(f"progress: {text}\n")
            self.stream.flush()
            self.last = now
            while self.next_line <= share:
                self.next_line += 0.1

    def close(self) -> None:
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()


# ----------------------------------------------------------------- running


def _worker_signals() -> None:
    """Workers leave Ctrl-C to the main process, which then ends them; SIGTERM just ends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def run(spec: Spec, games: int, jobs: int, progress: Progress | None = None) -> Summary:
    """Play `games` games over `jobs` processes and summarise them (order-independent)."""
    runners()[spec.game].check(spec)
    summary = Summary(spec, jobs=jobs)
    started = time.perf_counter()
    size = max(1, min(25, games // (jobs * 8) or 1))
    chunks = [(spec, list(range(i, min(i + size, games)))) for i in range(0, games, size)]
    if jobs <= 1:
        results: Iterable[tuple[list[dict], float]] = map(_play_chunk, chunks)
        pool = None
    else:
        context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        pool = context.Pool(jobs, initializer=_worker_signals)
        results = pool.imap(_play_chunk, chunks)   # in order: the summary is the same for any jobs
    try:
        for records, cpu in results:
            summary.cpu_seconds += cpu
            for record in records:
                summary.add(record)
            if progress:
                progress.update(len(records))
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
        if progress:
            progress.close()
    summary.seconds = time.perf_counter() - started
    return summary


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, Spec]:
    parser = argparse.ArgumentParser(
        prog="labyrinth-sim",
        description="Play many games between computer players and report win rates, game length "
                    "and decision times.")
    from .version import version_action
    version_action(parser)
    parser.add_argument("--game", choices=sorted(runners()), default=_default_game(),
                        help="which game: the sliding maze (default) or the travel card game")
    parser.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    parser.add_argument("--players", type=int, default=None,
                        help="players per game (default: as many as --ai names; 1 = solo)")
    parser.add_argument("--ai", default=None,
                        help="comma-separated AI level per player, e.g. hard,medium,easy,random "
                             "(one name fills every seat)")
    parser.add_argument("--seed", type=int, default=1, help="base seed: same seed, same results (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="worker processes (default: all cores)")
    parser.add_argument("--turn-cap", type=int, default=None,
                        help="turns (all players together) after which a game is a draw "
                             "(default 1000 for the maze, 500 for the cards)")
    seats = parser.add_mutually_exclusive_group()
    seats.add_argument("--rotate-seats", dest="rotate", action="store_true", default=True,
                       help="rotate the AIs one seat per game (default)")
    seats.add_argument("--no-rotate-seats", dest="rotate", action="store_false",
                       help="keep each AI in its seat (seat 0 always starts)")
    parser.add_argument("--open-cards", action="store_true", help="variant: players see all their cards")
    parser.add_argument("--no-return", action="store_true",
                        help="variant: a player wins when the last card is collected")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    args = parser.parse_args(argv)

    runner = runners()[args.game]
    names = [n.strip() for n in args.ai.split(",")] if args.ai else None
    players = args.players if args.players is not None else (len(names) if names else 2)
    if not runner.min_players <= players <= runner.max_players:
        parser.error(f"--players {players}: the {runner.name} game takes "
                     f"{runner.min_players} to {runner.max_players} players")
    if names is None:
        names = (["hard", "medium", "easy", "random"] if runner.name == "labyrinth" else ["hard", "easy", "random"])
        names = (names * players)[:players]
    elif len(names) == 1:
        names = names * players
    if len(names) != players:
        parser.error(f"--ai names {len(names)} AIs but --players is {players}: give one name per player "
                     f"or a single name for all")
    for n in names:
        if n not in runner.levels:
            parser.error(f"--ai: unknown level {n!r} for the {runner.name} game; "
                         f"choose from {', '.join(runner.levels)}")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    cap = args.turn_cap if args.turn_cap is not None else runner.default_turn_cap
    if cap < 1:
        parser.error("--turn-cap must be at least 1")
    spec = Spec(game=args.game, entries=tuple(names), seed=args.seed, turn_cap=cap, rotate=args.rotate,
                open_cards=args.open_cards, return_home=not args.no_return)
    try:
        runner.check(spec)
    except ValueError as exc:
        parser.error(str(exc))
    return args, spec


def main(argv: Sequence[str] | None = None) -> int:
    args, spec = parse_args(argv)
    jobs = min(args.jobs, args.games)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # Stopped by a service manager or `kill`: unwind so the worker processes are ended too.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    progress = None if args.quiet else Progress(args.games)
    try:
        summary = run(spec, args.games, jobs, progress)
    except KeyboardInterrupt:
        print("\ninterrupted: no summary written", file=sys.stderr)
        return 130
    except ImportError as exc:
        print(f"labyrinth-sim: the {spec.game} game is not available: {exc}", file=sys.stderr)
        return 2
    data = summary.to_json()
    print(format_table(data))
    if args.json:
        try:
            with open(args.json, "w", encoding="utf-8") as fh:
                json.dump(data, fh, indent=2)
                fh.write("\n")
        except OSError as exc:
            print(f"labyrinth-sim: cannot write {args.json}: {exc.strerror}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
