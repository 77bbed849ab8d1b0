"""labyrinth-sim: play many games between computer players and report how they fare.

    labyrinth-sim --games 1000 --players 4 --ai hard,medium,easy,random --seed 1 --jobs 2 --json results.json

Games run in parallel over --jobs processes, in chunks. Every game's seed is
derived from --seed and the game's number, so the same command gives the same
results whatever the number of jobs (only the decision timings differ).
Seats rotate between games by default, so no AI profits from always starting;
when the levels differ, every deal is played from every seat rotation (paired
deals), so no AI profits from a lucky deal either.

Statistics stream (kiosk.tools.sim.stats): the parent's memory stays the same for a
thousand games or a million, a sweep can run in shards (``--shard I/N``) that
``labyrinth-sim merge`` adds up to exactly one run, a checkpoint resumes an
interrupted sweep, and ``--scheduler`` runs it on a Dask cluster.

A game kind plugs in as a :class:`Runner` (``GameType.sim``, e.g. kiosk/games/cards/simulation.py for
``--game cards``): it plays one game with the AI levels and player counts its game declares,
returning a :class:`GameResult`. Everything else (seeds, seats, parallelism, statistics,
table, JSON) is shared. docs/ai.md has the measured figures.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from engine.outcome import Termination
from engine.records import Recorder
from kiosk import games
from kiosk.errors import KioskError
from kiosk.tools.cli import add_variant_options, chosen_variants
from kiosk.tools.sim.stats import Counts, Durations, add_range, missing
from kiosk.version import version_action

# ----------------------------------------------------------------- one game


@dataclass
class GameResult:
    """What one game produced. Seats are 0..players-1 in playing order (seat 0 starts)."""

    winners: list[int]  # [] for a draw (turn cap reached, or nobody won)
    turns: int  # turns played by all players together
    seat_turns: list[int]  # turns each seat played
    decision_ms: list[list[float]]  # per seat, the wall-clock time of each decision
    capped: bool = False
    decision_cpu_ms: list[list[float]] | None = None  # per seat, CPU time (unaffected by other load)
    limited: bool = False  # ended by the game's turn limit (RULES.md section 3)
    record: str | None = None  # the game record (docs/notation.md) when asked for


@dataclass(frozen=True)
class Spec:
    """Everything a worker needs to play its share of the games (picklable)."""

    game: str
    entries: tuple[str, ...]  # the AI of each entry in --ai order
    seed: int
    turn_cap: int
    rotate: bool
    #: the game's variants chosen other than their default (kiosk.games.Variant), in its declaration's order
    variants: tuple[tuple[str, Any], ...] = ()
    paired: bool = False  # every deal from every seat rotation
    turn_limit: int = 0  # the game's own turn limit (0: none); unlike turn_cap it has winners
    #: > 0: the searching AIs get the kiosk's clock cap divided by this (a Pi's slowness against
    #: this machine's); 0: no clock cap, only their fixed work budget (reproducible)
    pi_factor: float = 0.0


def variant(spec: Spec, name: str) -> Any:
    """The value of the game's variant `name` in this sweep (its declared default when not chosen)."""
    return dict(spec.variants).get(name, games.get(spec.game).variant_named(name).default)


def rules_of(spec: Spec) -> dict[str, Any]:
    """Every variant the game declares, with its value in this sweep (the figures' ``rules``)."""
    return {v.name: variant(spec, v.name) for v in games.get(spec.game).variants}


def rules_words(game: str, rules: dict[str, Any]) -> list[str]:
    """The variants of `rules` other than their default, in words ("open cards", "treasures 3")."""
    return [w.replace("_", " ") for w in games.get(game).words_of(rules)]


def ended_by_limit(state: Any) -> bool:
    """Whether a finished game was ended by its turn limit rather than by its own rules."""
    return state.outcome is not None and state.outcome.termination is Termination.TURN_LIMIT


class Runner:
    """A game kind for the simulation: how to play one game (kiosk/games/<game>/sim.py).

    Its AI levels and player counts are the game's own (``GameType``, kiosk.games)."""

    name = ""
    default_turn_cap = 1000
    #: the --ai line-up when none is given, strongest first (cut to the number of players);
    #: () means every AI level of the game, strongest first
    default_lineup: tuple[str, ...] = ()

    @property
    def levels(self) -> tuple[str, ...]:

        return games.get(self.name).ai_levels

    @property
    def min_players(self) -> int:

        return games.get(self.name).players[0]

    @property
    def max_players(self) -> int:

        return games.get(self.name).players[1]

    def lineup(self, players: int) -> list[str]:
        """The AI of each of `players` seats when --ai names none."""
        names = list(self.default_lineup or reversed(self.levels))
        return (names * players)[:players]

    def check(self, spec: Spec) -> None:
        """Raise ValueError naming the problem if the options do not fit this game."""

    def play(
        self,
        levels: Sequence[str],
        seed: int,
        spec: Spec,
        timer: Callable[[], float],
        record: dict[str, Any] | None = None,
    ) -> GameResult:
        """Play one game; with `record` (extra record tags) the GameResult carries the game's record."""
        raise NotImplementedError


def make_recorder(state: Any, levels: Sequence[str], tags: dict[str, Any] | None) -> Any:
    """A game recorder (engine.records) for `state` with its seats' `levels`, when `tags` asks for a record."""
    if tags is None:
        return None

    return Recorder(state, list(levels), **tags)


def runners() -> dict[str, Runner]:
    """Every registered game's simulation runner (``GameType.sim``, kiosk.games), by game name."""
    return {g.name: g.sim() for g in games.all_games() if g.sim is not None}


def _default_game() -> str:

    return games.default()


def derive(seed: int, *parts: object) -> int:
    """A 64-bit seed from a base seed and labels: independent streams, the same on every machine."""
    text = ":".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def seating(spec: Spec, index: int) -> list[int]:
    """Which entry sits in each seat for game `index` (rotating one seat per game)."""
    k = len(spec.entries)
    shift = index % k if spec.rotate else 0
    return [(seat + shift) % k for seat in range(k)]


def deal_of(spec: Spec, index: int) -> int:
    """The deal game `index` is played on: with paired deals, k games (one per rotation) share one."""
    return index // len(spec.entries) if spec.paired else index


def game_seed(spec: Spec, index: int) -> int:
    return derive(spec.seed, spec.game, deal_of(spec, index))


def record_name(spec: Spec, index: int) -> str:
    """The file name of a game's record in --records DIR (seed and game number: unique per sweep)."""
    return f"{spec.game}-seed{spec.seed}-game{index:07d}.txt"


def play_one(spec: Spec, index: int, records: str | None = None) -> dict[str, Any]:
    """Play game `index` and return its record (entries instead of seats)."""
    runner = runners()[spec.game]
    entries = seating(spec, index)
    tags = None
    if records is not None:
        tags = {"date": time.strftime("%Y-%m-%d"), "Event": f"labyrinth-sim --seed {spec.seed} game {index}"}
    outcome = runner.play(
        [spec.entries[e] for e in entries], game_seed(spec, index), spec, time.perf_counter, record=tags
    )
    if records is not None and outcome.record is not None:
        path = os.path.join(records, record_name(spec, index))
        with open(path + ".part", "w", encoding="utf-8") as fh:
            fh.write(outcome.record)
        os.replace(path + ".part", path)
    return {
        "index": index,
        "seats": entries,
        "winners": [entries[s] for s in outcome.winners],
        "turns": outcome.turns,
        "entry_turns": {entries[s]: n for s, n in enumerate(outcome.seat_turns)},
        "decision_ms": {entries[s]: t for s, t in enumerate(outcome.decision_ms)},
        "decision_cpu_ms": {entries[s]: t for s, t in enumerate(outcome.decision_cpu_ms or [])},
        "capped": outcome.capped,
        "limited": outcome.limited,
    }


def play_chunk(job: tuple[Any, ...]) -> "Summary":
    """Play games [start, stop) in a worker and return their summary (small: histograms)."""
    spec, start, stop, records = job
    began = time.process_time()
    summary = Summary(spec)
    for i in range(start, stop):
        summary.add(play_one(spec, i, records))
    summary.cpu_seconds = time.process_time() - began
    return summary


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


STATE_VERSION = 2  # 2: the spec's variants as the game declares them


@dataclass
class Summary:
    """Everything a sweep measured, in a form that merges exactly (kiosk.tools.sim.stats)."""

    spec: Spec
    games: int = 0
    draws: int = 0  # stopped by the simulation's turn cap: nobody won
    limited: int = 0  # ended by the game's turn limit (most treasures/cards win)
    wins: list[int] = field(default_factory=list)
    turns: Counts = field(default_factory=Counts)
    finished_turns: Counts = field(default_factory=Counts)
    entry_turns: list[int] = field(default_factory=list)
    times: dict[str, Durations] = field(default_factory=dict)
    cpu_times: dict[str, Durations] = field(default_factory=dict)
    longest: tuple[int, int] | None = None  # (turns, game index): the first of the longest
    ranges: list[list[int]] = field(default_factory=list)  # the games counted, as [start, stop)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    jobs: int = 1

    def __post_init__(self) -> None:
        k = len(self.spec.entries)
        self.wins = self.wins or [0] * k
        self.entry_turns = self.entry_turns or [0] * k

    def add(self, record: dict[str, Any]) -> None:
        self.ranges = add_range(self.ranges, record["index"], record["index"] + 1)
        self.games += 1
        turns = record["turns"]
        self.turns.add(turns)
        if record["winners"]:
            for e in record["winners"]:
                self.wins[e] += 1
            self.finished_turns.add(turns)
        else:
            self.draws += 1
        if record.get("limited"):
            self.limited += 1
        self._longest((turns, record["index"]))
        for e, n in record["entry_turns"].items():
            self.entry_turns[int(e)] += n
        for e, t in record["decision_ms"].items():
            self.times.setdefault(self.spec.entries[int(e)], Durations()).extend(t)
        for e, t in record["decision_cpu_ms"].items():
            self.cpu_times.setdefault(self.spec.entries[int(e)], Durations()).extend(t)

    def _longest(self, candidate: tuple[int, int]) -> None:
        if self.longest is None or (candidate[0], -candidate[1]) > (self.longest[0], -self.longest[1]):
            self.longest = candidate

    def merge(self, other: "Summary") -> None:
        """Add another summary of other games of the same sweep (raises ValueError otherwise)."""
        if other.spec != self.spec:
            raise ValueError("the results are of different sweeps (game, levels, seed, rules or options differ)")
        for a, b in other.ranges:
            self.ranges = add_range(self.ranges, a, b)
        self.games += other.games
        self.draws += other.draws
        self.limited += other.limited
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]
        self.entry_turns = [a + b for a, b in zip(self.entry_turns, other.entry_turns)]
        self.turns.merge(other.turns)
        self.finished_turns.merge(other.finished_turns)
        for mine, theirs in ((self.times, other.times), (self.cpu_times, other.cpu_times)):
            for level, d in theirs.items():
                mine.setdefault(level, Durations()).merge(d)
        if other.longest is not None:
            self._longest((other.longest[0], other.longest[1]))
        self.seconds += other.seconds
        self.cpu_seconds += other.cpu_seconds

    # -------------------------------------------------------------- JSON
    def state(self) -> dict[str, Any]:
        """The raw counts (JSON): what `merge`, --checkpoint and the figures are made from."""
        spec = self.spec
        return {
            "version": STATE_VERSION,
            "spec": {
                "game": spec.game,
                "entries": list(spec.entries),
                "seed": spec.seed,
                "turn_cap": spec.turn_cap,
                "rotate": spec.rotate,
                "variants": dict(spec.variants),
                "paired": spec.paired,
                "turn_limit": spec.turn_limit,
                "pi_factor": spec.pi_factor,
            },
            "ranges": self.ranges,
            "games": self.games,
            "draws": self.draws,
            "limited": self.limited,
            "wins": self.wins,
            "entry_turns": self.entry_turns,
            "turns": self.turns.to_json(),
            "finished_turns": self.finished_turns.to_json(),
            "decision_ms": {k: v.to_json() for k, v in sorted(self.times.items())},
            "decision_cpu_ms": {k: v.to_json() for k, v in sorted(self.cpu_times.items())},
            "longest": list(self.longest) if self.longest else None,
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
        }

    @classmethod
    def from_state(cls, data: dict[str, Any]) -> "Summary":
        """Rebuild a summary from :meth:`state` (raises ValueError on anything else)."""
        try:
            if data.get("version") != STATE_VERSION:
                raise ValueError(f"state version {data.get('version')!r}, expected {STATE_VERSION}")
            s = data["spec"]
            spec = Spec(
                game=s["game"],
                entries=tuple(s["entries"]),
                seed=int(s["seed"]),
                turn_cap=int(s["turn_cap"]),
                rotate=bool(s["rotate"]),
                variants=tuple(dict(s["variants"]).items()),
                paired=bool(s["paired"]),
                turn_limit=int(s["turn_limit"]),
                pi_factor=float(s.get("pi_factor", 0.0)),
            )
            summary = cls(
                spec,
                games=int(data["games"]),
                draws=int(data["draws"]),
                limited=int(data["limited"]),
                wins=[int(w) for w in data["wins"]],
                entry_turns=[int(t) for t in data["entry_turns"]],
                turns=Counts(data["turns"]),
                finished_turns=Counts(data["finished_turns"]),
                times={k: Durations.from_json(v) for k, v in data["decision_ms"].items()},
                cpu_times={k: Durations.from_json(v) for k, v in data["decision_cpu_ms"].items()},
                longest=tuple(data["longest"]) if data["longest"] else None,
                seconds=float(data["seconds"]),
                cpu_seconds=float(data["cpu_seconds"]),
            )
            for a, b in data["ranges"]:
                summary.ranges = add_range(summary.ranges, int(a), int(b))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a labyrinth-sim result: {exc!r} missing or wrong") from None
        if summary.games != sum(b - a for a, b in summary.ranges) or len(summary.wins) != len(spec.entries):
            raise ValueError("the result's counts do not add up: the file is damaged")
        return summary

    def to_json(self, planned: int | None = None, shard: str | None = None) -> dict[str, Any]:
        spec = self.spec
        players = []
        for e, ai in enumerate(spec.entries):
            lo, hi = wilson(self.wins[e], self.games)
            players.append(
                {
                    "entry": e,
                    "seat": None if spec.rotate else e,
                    "ai": ai,
                    "wins": self.wins[e],
                    "win_rate": self.wins[e] / self.games if self.games else 0.0,
                    "ci95": [lo, hi],
                    "turns_per_game": self.entry_turns[e] / self.games if self.games else 0.0,
                }
            )
        planned = self.games if planned is None else planned
        out = {
            "game": spec.game,
            "games": self.games,
            "games_planned": planned,
            "complete": not missing(self.ranges, 0, planned),
            "seed": spec.seed,
            "rotate_seats": spec.rotate,
            # Every deal played from every seat rotation: games = deals x players.
            "paired_deals": spec.paired,
            "deals": _deals(spec, self.ranges),
            "turn_cap": spec.turn_cap,
            "turn_limit": spec.turn_limit,
            "pi_factor": spec.pi_factor,
            "rules": rules_of(spec),
            "players": players,
            "draws": self.draws,
            "turn_limit_games": self.limited,
            "turns": _stats(self.turns),
            "longest_game": self._longest_json(),
            "decision_ms": {ai: d.summary() for ai, d in sorted(self.times.items())},
            # The same decisions in CPU time: what the AI costs when it has a core to itself.
            "decision_cpu_ms": {
                ai: {"p50": d.percentile(50), "p99": d.percentile(99)} for ai, d in sorted(self.cpu_times.items())
            },
            "jobs": self.jobs,
            "seconds": self.seconds,
            "games_per_second_per_core": self.games / self.seconds / self.jobs if self.seconds else 0.0,
            # Games per second of CPU time: the same figure on a machine shared with other work.
            "games_per_cpu_second": self.games / self.cpu_seconds if self.cpu_seconds else 0.0,
        }
        if shard:
            out["shard"] = shard
        if len(spec.entries) == 1:
            out["solo"] = {"finished": self.finished_turns.n, **_stats(self.finished_turns)}
        out["state"] = self.state()
        return out

    def _longest_json(self) -> dict[str, Any] | None:
        if self.longest is None:
            return None
        turns, index = self.longest
        return {
            "turns": turns,
            "game": index,
            "seed": game_seed(self.spec, index),
            "seats": [self.spec.entries[e] for e in seating(self.spec, index)],
        }


def _deals(spec: Spec, ranges: list[list[int]]) -> int:
    """How many different deals the counted games were played on."""
    if not spec.paired:
        return sum(b - a for a, b in ranges)
    k = len(spec.entries)
    deals: set[int] = set()
    for a, b in ranges:
        deals.update(range(a // k, (b - 1) // k + 1))
    return len(deals)


def _stats(values: Counts) -> dict[str, Any]:
    return {"mean": values.mean(), "p50": values.percentile(50), "p99": values.percentile(99), "max": values.max()}


def format_table(data: dict[str, Any]) -> str:
    """The summary a person reads at the end of a run."""
    lines = []
    rules = rules_words(data["game"], data["rules"])
    seats = "fixed"
    if data["rotate_seats"]:
        seats = f"rotating, paired deals ({data['deals']} deals)" if data.get("paired_deals") else "rotating"
    limit = f", turn limit {data['turn_limit']}" if data.get("turn_limit") else ""
    if data.get("pi_factor"):
        limit += f", AI clock cap at Pi speed (factor {data['pi_factor']:g})"
    lines.append(
        f"{data['game']}: {data['games']} games, {len(data['players'])} players, seed {data['seed']}"
        f"{', ' + ', '.join(rules) if rules else ''}"
        f", seats {seats}, turn cap {data['turn_cap']}{limit}"
    )
    if not data.get("complete", True):
        lines.append(f"PARTIAL: {data['games']} of {data['games_planned']} games")
    head = f"{'seat':>8}  {'AI':<8} {'wins':>6} {'win rate':>9}  {'95% CI':<15} {'turns/game':>10}"
    lines.append(head)
    for p in data["players"]:
        seat = "rotating" if p["seat"] is None else str(p["seat"])
        lo, hi = p["ci95"]
        ci = f"[{lo:.1%}, {hi:.1%}]"
        lines.append(
            f"{seat:>8}  {p['ai']:<8} {p['wins']:>6} {p['win_rate']:>9.1%}  {ci:<15} {p['turns_per_game']:>10.1f}"
        )
    t = data["turns"]
    lines.append(
        f"draws (turn cap): {data['draws']}    turns per game (all players): "
        f"mean {t['mean']:.1f}  p50 {t['p50']:.0f}  p99 {t['p99']:.0f}  max {t['max']}"
    )
    longest = data.get("longest_game")
    lines.append(
        f"turn limit reached: {data.get('turn_limit_games', 0)} games"
        + (
            f"    longest game: {longest['turns']} turns (game {longest['game']}, {','.join(longest['seats'])})"
            if longest
            else ""
        )
    )
    if "solo" in data:
        s = data["solo"]
        lines.append(f"solo: {s['finished']} finished, turns to finish mean {s['mean']:.1f}  p50 {s['p50']:.0f}")
    lines.append(
        "decision time (wall):  "
        + "   ".join(f"{ai} p50 {d['p50']:.2f} ms p99 {d['p99']:.2f} ms" for ai, d in data["decision_ms"].items())
    )
    if data["decision_cpu_ms"]:
        lines.append(
            "decision time (CPU):   "
            + "   ".join(
                f"{ai} p50 {d['p50']:.2f} ms p99 {d['p99']:.2f} ms" for ai, d in data["decision_cpu_ms"].items()
            )
        )
    lines.append(
        f"{data['seconds']:.1f} s on {data['jobs']} jobs: "
        f"{data['games_per_second_per_core']:.2f} games per second per core "
        f"({data['games_per_cpu_second']:.2f} per CPU second)"
    )
    return "\n".join(lines)


# ----------------------------------------------------------------- progress


class Progress:
    """A bar on a terminal; elsewhere (logs, CI) a plain line every 10% or 30 s."""

    def __init__(self, total: int, stream: Any = None, done: int = 0) -> None:
        self.total = total
        self.done = done
        self.first = done
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.start = self.last = time.monotonic()
        self.next_line = 0.1

    def update(self, n: int) -> None:
        self.done += n
        now = time.monotonic()
        share = self.done / self.total if self.total else 1.0
        rate = (self.done - self.first) / (now - self.start) if now > self.start else 0.0
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


class LocalWorkers:
    """Worker processes on this machine (or none: jobs=1 plays in this process)."""

    def __init__(self, jobs: int):
        self.jobs = jobs
        self.pool = None
        if jobs > 1:
            context = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
            self.pool = context.Pool(jobs, initializer=_worker_signals)

    @property
    def slots(self) -> int:
        return self.jobs

    def submit(self, job: Any) -> "_Done | _Waiting":
        if self.pool is None:
            return _Done(play_chunk(job))
        return _Waiting(self.pool.apply_async(play_chunk, (job,)))

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()


class _Done:
    def __init__(self, value: Summary) -> None:
        self.value = value

    def result(self) -> Summary:
        return self.value


class _Waiting:
    def __init__(self, handle: Any) -> None:
        self.handle = handle

    def result(self) -> Summary:
        # A timeout keeps the wait interruptible by Ctrl-C.
        while True:
            try:
                done: Summary = self.handle.get(timeout=0.5)
                return done
            except multiprocessing.TimeoutError:
                continue


class _CtrlCGuard:
    """Holds Ctrl-C back while the summary is being merged or saved, then raises it.

    Elsewhere Ctrl-C interrupts at once (also a game being played in this
    process). Only the main thread can have signal handlers; elsewhere it does nothing.
    """

    def __init__(self) -> None:
        self.busy = self.pending = self.installed = False
        self.old: Any = None
        if threading.current_thread() is threading.main_thread():
            self.old = signal.signal(signal.SIGINT, self._on_sigint)
            self.installed = True

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if self.busy:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def __enter__(self) -> "_CtrlCGuard":
        self.busy = True
        return self

    def __exit__(self, *exc: object) -> None:
        self.busy = False
        if self.pending and exc[0] is None:
            self.pending = False
            raise KeyboardInterrupt

    def close(self) -> None:
        if self.installed:
            signal.signal(signal.SIGINT, self.old if self.old is not None else signal.default_int_handler)
            self.installed = False


def chunk_size(games: int, slots: int) -> int:
    return max(1, min(25, games // (slots * 8) or 1))


def shard_range(spec: Spec, games: int, shard: tuple[int, int] | None) -> tuple[int, int]:
    """Games [start, stop) of shard I of N (1-based); whole deals stay in one shard."""
    if shard is None:
        return 0, games
    i, n = shard
    unit = len(spec.entries) if spec.paired else 1
    units = games // unit
    return (i - 1) * units // n * unit, i * units // n * unit


def run(
    spec: Spec,
    games: int,
    jobs: int,
    progress: Progress | None = None,
    *,
    span: tuple[int, int] | None = None,
    resume: Summary | None = None,
    workers: Any = None,
    records: str | None = None,
    checkpoint: Callable[[Summary], None] | None = None,
    checkpoint_every: float = 5.0,
) -> Summary:
    """Play the games of `span` (default all `games`) and summarise them.

    Chunks of games go to `workers` (default: local processes), at most a few per
    worker at a time so the parent holds only small summaries; results are merged
    in order, so `checkpoint(summary)` always sees a whole prefix. With `resume`
    (a checkpoint's summary), the games it counts are not played again. On
    Ctrl-C the summary of the finished chunks is passed to `checkpoint` and the
    KeyboardInterrupt goes on with ``.summary`` attached.
    """
    runners()[spec.game].check(spec)
    start, stop = span or (0, games)
    summary = resume or Summary(spec)
    summary.jobs = jobs
    todo = missing(summary.ranges, start, stop)
    own = workers is None
    workers = workers or LocalWorkers(jobs)
    size = chunk_size(stop - start, workers.slots)
    jobs_iter = ((spec, a, min(a + size, b), records) for a0, b in todo for a in range(a0, b, size))
    window: deque[Any] = deque()
    started = time.perf_counter()
    seconds_before = summary.seconds
    last_save = time.monotonic()

    def fill() -> None:
        while len(window) < workers.slots * 3:
            job = next(jobs_iter, None)
            if job is None:
                return
            window.append(workers.submit(job))

    guard = _CtrlCGuard()
    try:
        fill()
        while window:
            part = window.popleft().result()
            fill()
            with guard:  # a half-merged summary must never be saved
                summary.merge(part)
                summary.seconds = seconds_before + time.perf_counter() - started
                if checkpoint and time.monotonic() - last_save >= checkpoint_every:
                    checkpoint(summary)
                    last_save = time.monotonic()
            if progress:
                progress.update(part.games)
    except KeyboardInterrupt as exc:
        summary.seconds = seconds_before + time.perf_counter() - started
        if checkpoint:
            checkpoint(summary)
        exc.summary = summary  # type: ignore[attr-defined]  # main() shows and saves what was played
        raise
    finally:
        guard.close()
        if own:
            workers.close()
        if progress:
            progress.close()
    summary.seconds = seconds_before + time.perf_counter() - started
    if checkpoint:
        checkpoint(summary)
    return summary


def write_json(path: str, data: dict[str, Any]) -> None:
    """Write atomically: a reader (or a resume after a power cut) sees the old file or the new one."""
    tmp = f"{path}.tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(data, fh, indent=1)
        fh.write("\n")
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)


def read_result(path: str) -> dict[str, Any]:
    """A labyrinth-sim JSON file (a result, a shard or a checkpoint); ValueError says what is wrong."""
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except OSError as exc:
        raise ValueError(f"{path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or "state" not in data:
        raise ValueError(f"{path}: not a labyrinth-sim result (no 'state': written by an older version?)")
    return data


def parse_shard(text: str) -> tuple[int, int]:
    first, sep, second = text.partition("/")
    try:
        i, n = int(first), int(second)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: write I/N, e.g. 2/4 for the second of four shards") from None
    if not sep or n < 1 or not 1 <= i <= n:
        raise argparse.ArgumentTypeError(f"{text!r}: I must be 1 to N, e.g. 2/4")
    return i, n


def _entries(parser: argparse.ArgumentParser, runner: Runner, args: argparse.Namespace) -> list[str]:
    """The level of each player, from --ai and --players (parser.error names what does not fit)."""
    names = [n.strip() for n in args.ai.split(",")] if args.ai else None
    players = args.players if args.players is not None else (len(names) if names else 2)
    if not runner.min_players <= players <= runner.max_players:
        parser.error(
            f"--players {players}: the {runner.name} game takes {runner.min_players} to {runner.max_players} players"
        )
    if names is None:
        names = runner.lineup(players)
    elif len(names) == 1:
        names = names * players
    if len(names) != players:
        parser.error(
            f"--ai names {len(names)} AIs but --players is {players}: give one name per player or a single name for all"
        )
    for n in names:
        if n not in runner.levels:
            parser.error(
                f"--ai: unknown level {n!r} for the {runner.name} game; choose from {', '.join(runner.levels)}"
            )
    return names


def _check_numbers(parser: argparse.ArgumentParser, runner: Runner, args: argparse.Namespace) -> int:
    """Check the counts and limits; returns the turn cap."""
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    cap = args.turn_cap if args.turn_cap is not None else runner.default_turn_cap
    if cap < 1:
        parser.error("--turn-cap must be at least 1")
    if args.turn_limit < 0:
        parser.error("--turn-limit must be 0 (none) or more")
    if args.pi_factor is not None and not args.pi_factor >= 1:
        parser.error("--pi-factor must be 1 or more (how many times slower the Pi is; 5 for a Pi 4)")
    return cap


def parse_args(argv: Sequence[str] | None = None) -> tuple[argparse.Namespace, Spec]:
    parser = argparse.ArgumentParser(
        prog="labyrinth-sim",
        description="Play many games between computer players and report win rates, game length "
        "and decision times. `labyrinth-sim merge A.json B.json ...` adds up shards.",
    )

    version_action(parser)
    parser.add_argument(
        "--game",
        choices=sorted(runners()),
        default=_default_game(),
        help="which game: the sliding maze (default) or the travel card game",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=100,
        help="number of games (default 100; with paired deals rounded up to whole deals)",
    )
    parser.add_argument(
        "--players", type=int, default=None, help="players per game (default: as many as --ai names; 1 = solo)"
    )
    parser.add_argument(
        "--ai",
        default=None,
        help="comma-separated AI level per player, e.g. hard,medium,easy,random (one name fills every seat)",
    )
    parser.add_argument("--seed", type=int, default=1, help="base seed: same seed, same results (default 1)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="worker processes (default: all cores)")
    parser.add_argument(
        "--turn-cap",
        type=int,
        default=None,
        help="turns (all players together) after which a game is stopped as a draw "
        "(default 1000 for the maze, 500 for the cards)",
    )
    parser.add_argument(
        "--turn-limit",
        type=int,
        default=0,
        help="the game's turn limit (RULES.md section 3): after N turns the game ends and "
        "the most treasures (cards) win; 0 = none (default)",
    )
    parser.add_argument(
        "--pi-factor",
        type=float,
        default=None,
        metavar="F",
        help="give the searching AIs the kiosk's clock cap divided by F, in CPU time: how they play "
        "on a Pi F times slower than this machine (5 for a Pi 4); results then depend on the "
        "machine's speed. Default: no clock cap, only their fixed work budget",
    )
    seats = parser.add_mutually_exclusive_group()
    seats.add_argument(
        "--rotate-seats",
        dest="rotate",
        action="store_true",
        default=True,
        help="rotate the AIs one seat per game (default)",
    )
    seats.add_argument(
        "--no-rotate-seats", dest="rotate", action="store_false", help="keep each AI in its seat (seat 0 always starts)"
    )
    pairing = parser.add_mutually_exclusive_group()
    pairing.add_argument(
        "--paired",
        dest="paired",
        action="store_true",
        default=None,
        help="play every deal from every seat rotation (default when the levels differ)",
    )
    pairing.add_argument("--no-paired", dest="paired", action="store_false", help="a fresh deal for every game")
    add_variant_options(parser)  # each game's declared variants, as labyrinth-kiosk has them
    parser.add_argument(
        "--shard",
        type=parse_shard,
        default=None,
        metavar="I/N",
        help="play only the I-th of N equal parts of the games (merge the parts with `labyrinth-sim merge`)",
    )
    parser.add_argument(
        "--checkpoint",
        metavar="FILE",
        default=None,
        help="save progress to FILE and resume from it when it exists (default with "
        "--json FILE: FILE.checkpoint, removed when the run completes)",
    )
    parser.add_argument(
        "--checkpoint-every",
        type=float,
        default=5.0,
        metavar="SECONDS",
        help="how often the checkpoint is saved (default 5 s; also on Ctrl-C and at the end)",
    )
    parser.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="run on an existing Dask cluster, e.g. tcp://10.0.0.5:8786 "
        "(needs the 'cluster' extra: pip install 'labyrinth-kiosk[cluster]')",
    )
    parser.add_argument(
        "--records", metavar="DIR", default=None, help="write every game's record (docs/notation.md) into DIR"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE as JSON")
    parser.add_argument(
        "--plot",
        metavar="FILE.png",
        default=None,
        help="draw win rates with their intervals and game lengths (needs matplotlib)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress output")
    args = parser.parse_args(argv)

    runner = runners()[args.game]
    names = _entries(parser, runner, args)
    cap = _check_numbers(parser, runner, args)
    paired: bool = args.paired if args.paired is not None else (args.rotate and len(set(names)) > 1)
    if paired and not args.rotate:
        parser.error("--paired plays every seat rotation: it cannot go with --no-rotate-seats")
    if paired and args.games % len(names):
        args.games += len(names) - args.games % len(names)
    spec = Spec(
        game=args.game,
        entries=tuple(names),
        seed=args.seed,
        turn_cap=cap,
        rotate=args.rotate,
        variants=_variants(parser, args),
        paired=paired,
        turn_limit=args.turn_limit,
        pi_factor=args.pi_factor or 0.0,
    )
    try:
        runner.check(spec)
    except ValueError as exc:
        parser.error(str(exc))
    args.own_checkpoint = args.checkpoint is None and bool(args.json)
    if args.own_checkpoint:
        args.checkpoint = args.json + ".checkpoint"
    return args, spec


def _variants(parser: argparse.ArgumentParser, args: argparse.Namespace) -> tuple[tuple[str, Any], ...]:
    """The variants the command line chose, other than their defaults; one the game does not
    declare, or a value it does not take, is refused naming it."""

    kind = games.get(args.game)
    chosen = chosen_variants(args, {}, kind)
    try:
        for name, value in chosen.items():
            kind.variant_named(name).check(value)
    except ValueError as exc:
        parser.error(str(exc))
    return tuple((v.name, chosen[v.name]) for v in kind.variants if chosen.get(v.name, v.default) != v.default)


def _load_checkpoint(path: str, spec: Spec, planned: int) -> Summary | None:
    if not os.path.exists(path):
        return None
    data = read_result(path)
    summary = Summary.from_state(data["state"])
    if summary.spec != spec or data.get("games_planned") != planned:
        raise ValueError(
            f"{path} is the checkpoint of another sweep (different options); delete it or give another --checkpoint"
        )
    return summary


class _Stop(KioskError):
    """Ends the command with an exit status after its message was printed."""

    def __init__(self, status: int):
        self.status = status


def _fail(message: str, status: int) -> _Stop:
    print(f"labyrinth-sim: {message}", file=sys.stderr)
    return _Stop(status)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["merge"]:
        return merge_main(argv[1:])
    args, spec = parse_args(argv)
    if signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        # Stopped by a service manager or `kill`: unwind so the worker processes are ended too.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        return _sweep(args, spec)
    except _Stop as stop:
        return stop.status


def _prepare(args: argparse.Namespace, spec: Spec, planned: int) -> Summary | None:
    """The checkpoint to resume from (if any) and the records folder; _Stop on trouble."""
    try:
        resume = _load_checkpoint(args.checkpoint, spec, planned) if args.checkpoint else None
    except ValueError as exc:
        raise _fail(str(exc), 2) from None
    if resume is not None and not args.quiet:
        print(f"resuming from {args.checkpoint}: {resume.games} games already played", file=sys.stderr)
    if args.records:
        try:
            os.makedirs(args.records, exist_ok=True)
        except OSError as exc:
            raise _fail(f"cannot create {args.records}: {exc.strerror}", 1) from None
    return resume


def _sweep(args: argparse.Namespace, spec: Spec) -> int:
    planned = args.games
    span = shard_range(spec, planned, args.shard)
    shard = f"{args.shard[0]}/{args.shard[1]}" if args.shard else None
    jobs = max(1, min(args.jobs, span[1] - span[0]))
    resume = _prepare(args, spec, planned)
    progress = None if args.quiet else Progress(span[1] - span[0], done=resume.games if resume else 0)

    def save(summary: Summary) -> None:
        write_json(args.checkpoint, summary.to_json(planned, shard))

    workers = None
    try:
        if args.scheduler:
            from kiosk.tools.sim.cluster import ClusterWorkers  # noqa: PLC0415 -- an optional extra (cluster), only with --scheduler

            workers = ClusterWorkers(args.scheduler, play_chunk)
            jobs = workers.slots
        summary = run(
            spec,
            planned,
            jobs,
            progress,
            span=span,
            resume=resume,
            workers=workers,
            records=args.records,
            checkpoint=save if args.checkpoint else None,
            checkpoint_every=args.checkpoint_every,
        )
    except KeyboardInterrupt as exc:
        _interrupted(getattr(exc, "summary", None), args, planned, shard)
        return 130
    except ImportError as exc:
        raise _fail(str(exc), 2) from None
    except OSError as exc:
        raise _fail(str(exc), 1) from None
    finally:
        if workers is not None:
            workers.close()
    status = _report(summary.to_json(planned, shard), args.json, args.plot)
    if status == 0 and args.own_checkpoint:
        # The JSON holds everything now; a later run of the same command plays afresh.
        with contextlib.suppress(OSError):
            os.remove(args.checkpoint)
    return status


def _interrupted(partial: Summary | None, args: argparse.Namespace, planned: int, shard: str | None) -> None:
    print("\ninterrupted", file=sys.stderr)
    if partial is not None and partial.games:
        print(format_table(partial.to_json(planned, shard)))
        if args.checkpoint:
            print(
                f"{partial.games} games saved in {args.checkpoint}: run the same command again to go on",
                file=sys.stderr,
            )


def _report(data: dict[str, Any], json_path: str | None, plot_path: str | None) -> int:
    print(format_table(data))
    if json_path:
        try:
            write_json(json_path, data)
        except OSError as exc:
            print(f"labyrinth-sim: cannot write {json_path}: {exc.strerror}", file=sys.stderr)
            return 1
    if plot_path:
        try:
            from kiosk.tools.sim.plot import plot  # noqa: PLC0415 -- an optional extra (plot), only with --plot

            plot(data, plot_path)
        except ImportError:
            print("labyrinth-sim: --plot needs matplotlib: pip install 'labyrinth-kiosk[plot]'", file=sys.stderr)
            return 2
        except OSError as exc:
            print(f"labyrinth-sim: cannot write {plot_path}: {exc.strerror}", file=sys.stderr)
            return 1
    return 0


def merge_main(argv: Sequence[str]) -> int:
    """`labyrinth-sim merge A.json B.json ...`: shards (or checkpoints) of one sweep into one result."""
    parser = argparse.ArgumentParser(
        prog="labyrinth-sim merge",
        description="Add up the JSON results of shards of one sweep (--shard I/N, or checkpoints): the "
        "figures are exactly those of one run of all the games.",
    )
    parser.add_argument("files", nargs="+", metavar="FILE.json")
    parser.add_argument("--json", metavar="FILE", help="write the merged figures to FILE")
    parser.add_argument("--plot", metavar="FILE.png", default=None, help="draw the merged figures")
    args = parser.parse_args(argv)
    total: Summary | None = None
    planned: int | None = None
    try:
        for path in args.files:
            data = read_result(path)
            part = Summary.from_state(data["state"])
            if planned is not None and data.get("games_planned") != planned:
                raise ValueError(f"{path}: a sweep of {data.get('games_planned')} games, the others of {planned}")
            planned = data.get("games_planned", part.games)
            if total is None:
                total = part
                total.jobs = data.get("jobs", 1)
            else:
                try:
                    total.merge(part)
                except ValueError as exc:
                    raise ValueError(f"{path}: {exc}") from None
                total.jobs = max(total.jobs, data.get("jobs", 1))
    except ValueError as exc:
        print(f"labyrinth-sim merge: {exc}", file=sys.stderr)
        return 2
    assert total is not None and planned is not None  # argparse asks for one file at least
    gaps = missing(total.ranges, 0, planned)
    if gaps:
        print(
            "labyrinth-sim merge: incomplete, games missing: "
            + ", ".join(f"{a}-{b - 1}" for a, b in gaps[:5])
            + (" ..." if len(gaps) > 5 else ""),
            file=sys.stderr,
        )
    return _report(total.to_json(planned), args.json, args.plot)


if __name__ == "__main__":
    sys.exit(main())
