"""The kill-and-restart machinery shared by the power-cut tests of both games.

tests/kiosk/store/test_power_cut.py (the board game) and tests/kiosk/store/test_power_cut_cards.py
(the travel card game) run the same method: start the headless kiosk on one
state directory, SIGKILL it after a seeded random delay, prove the save left
on disk loads through the kiosk's own loader, and replay the events the run
wrote on the engine from the save it started from. What differs between the
games is small and lives in a ``PowerCutGame`` adapter: the game class, its
kiosk arguments, the started event and its snapshot check, the actions it
could commit next, the per-event replay step and how a fresh game is dealt.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from kiosk.store.history import History
from kiosk.store.persistence import SAVE_NAME, GameStore

ROOT = Path(__file__).resolve().parents[2]
KILL_SEED = int(os.environ.get("POWER_CUT_SEED", "20240501"))
# Where the kills land is chosen by what the kiosk has done, not by the wall
# clock alone, so a busy machine changes the timing but not what is tested: one
# run in START_UP_SHARE is killed in start-up (before or during the resume);
# the others are killed KILL_DELAY_S after the kiosk announced its game, in
# mid-game saves and across game ends (a 3-player game takes 1-1.5 s with --fast).
START_UP_SHARE = 0.2
START_UP_DELAY_S = (0.05, 0.6)
KILL_DELAY_S = (0.0, 1.5)
ANNOUNCE_TIMEOUT_S = 60.0


@dataclass(frozen=True)
class PowerCutGame:
    """What one game brings to the power-cut method; everything else is shared."""

    name: str  # the game kind in the save ("labyrinth", "cards")
    cls: type  # its engine class (from_dict, to_dict, copy, apply)
    players: tuple  # the seats' kinds, passed to --players
    game_seed: int  # --seed; the n-th new game of a run has game_seed + n
    started_event: str  # the event that announces (or resumes) a game
    check_snapshot: Callable[[dict, Any], None]  # a resumed started event shows the saved game
    legal_actions: Callable[[Any], list]  # every action the kiosk could commit next
    step: Callable[["Replay", dict], None]  # replay one event other than the started one
    new_game: Callable[[int, dict | None], Any]  # a fresh game from a seed (and its started event)
    extra_args: tuple = ()  # kiosk arguments that choose the game, e.g. ("--game", "cards")


def kiosk_command(game: PowerCutGame, state: Path, events: Path, config: Path) -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    prog = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    return prog + [
        "--config",
        str(config),
        "--display",
        "none",
        *game.extra_args,
        "--players",
        ",".join(game.players),
        "--seed",
        str(game.game_seed),
        "--fast",
        "--state-dir",
        str(state),
        "--events-out",
        str(events),
        "--log-level",
        "warning",
    ]


def kiosk_env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


# ----------------------------------------------------------------- reading the disk
class Unusable(AssertionError):
    pass


def load_save(game: PowerCutGame, state: Path, scratch: Path) -> dict | None:
    """The save's wrapper, after proving the kiosk's own loader accepts it; None if there is none.

    The check runs on a copy of the state directory, so the copy's clean-up
    (stale temporary files) does not hide anything from the real restart.
    """
    path = state / SAVE_NAME
    if not path.exists():
        return None
    raw = path.read_bytes()
    try:
        wrapper = json.loads(raw)
    except ValueError as e:
        raise Unusable(f"the save is not valid JSON ({e}): {raw[:200]!r}") from None
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(state, scratch)
    store = GameStore(scratch, loaders={game.name: game.cls.from_dict}, resume_within_s=10**9)
    resumed = store.resume()
    if resumed is None:
        raise Unusable(f"the kiosk's loader refuses the save: {store.last_setaside}")
    assert resumed.game == game.name and isinstance(resumed.state, game.cls)
    assert resumed.state.to_dict() == wrapper["state"], "the loader changed the state"
    assert list(resumed.meta.get("kinds", [])) == list(game.players)
    return wrapper


def read_events(path: Path) -> list[dict]:
    """The events a killed run wrote; a last line torn by the kill is dropped."""
    if not path.exists():
        return []
    out = []
    lines = path.read_text(encoding="utf-8", errors="replace").split("\n")
    for i, line in enumerate(lines):
        if not line:
            continue
        try:
            out.append(json.loads(line))
        except ValueError:
            assert i == len(lines) - 1, f"a torn events line that is not the last: {line!r}"
    return out


# ----------------------------------------------------------------- the replay
def successors(kind: PowerCutGame, game: Any) -> list:
    """Every state one committed action after `game`."""
    out = []
    for action in kind.legal_actions(game):
        g = game.copy()
        g.apply(action)
        out.append(g)
    return out


@dataclass
class Replay:
    """The run's game as the events tell it, replayed on the engine from the save it started from."""

    kind: PowerCutGame
    game: Any
    fresh_games: int = 0
    resumed: int = 0
    finished: int = 0
    actions: int = 0
    started: bool = False  # the kiosk got as far as announcing a game

    def feed(self, events: list[dict], saved: Any) -> None:
        for e in events:
            if e["type"] == self.kind.started_event:
                # A save of a game that has ended (killed between its end and its history
                # line) is recorded at the restart, not resumed.
                resumable = saved is not None and saved.phase != "over"
                if not self.started and resumable:
                    self.kind.check_snapshot(e, saved)
                assert e["resumed"] is (not self.started and resumable)
                if e["resumed"]:
                    self.resumed += 1
                else:
                    assert e["seed"] == self.kind.game_seed + self.fresh_games, "unexpected seed of a new game"
                    self.game = self.kind.new_game(e["seed"], e)
                    self.fresh_games += 1
                self.started = True
            else:
                self.kind.step(self, e)

    def check_left_on_disk(self, wrapper: dict | None) -> str:
        """The save after the kill must be the replayed game or one committed action further."""
        g = self.game
        nexts = successors(self.kind, g) if g is not None else []
        game_may_have_ended = g is None or g.phase == "over" or any(n.phase == "over" for n in nexts)
        if wrapper is None:
            assert game_may_have_ended, f"the save vanished in the middle of a game ({g!r})"
            return "no save"
        state = wrapper["state"]
        if g is not None and state == g.to_dict():
            return "as replayed"
        if any(state == n.to_dict() for n in nexts):
            return "one action ahead of the events"
        assert game_may_have_ended, (
            f"the save ({state['phase']}, turn {state['turns']}) is neither the game the events "
            f"describe ({g!r}) nor one action further"
        )
        fresh = self.kind.new_game(self.kind.game_seed + self.fresh_games, None)
        assert state == fresh.to_dict(), "after a game end the save is not the next new game"
        return "next new game"


@dataclass
class Tally:
    runs: int = 0
    failures: list[str] = field(default_factory=list)
    seen: dict = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1


# ----------------------------------------------------------------- the runs
def cycle(game: PowerCutGame, k: int, rng: random.Random, state: Path, work: Path, config: Path, tally: Tally) -> None:
    """One start, one SIGKILL after a seeded delay, and every check of what it left."""
    before = load_save(game, state, work / "scratch")
    saved = game.cls.from_dict(before["state"]) if before else None
    stale = {p.name for p in state.glob(".*.tmp")} if state.exists() else set()
    events_path = work / f"events-{k}.jsonl"
    in_start_up = rng.random() < START_UP_SHARE
    delay = rng.uniform(*(START_UP_DELAY_S if in_start_up else KILL_DELAY_S))
    proc = subprocess.Popen(
        kiosk_command(game, state, events_path, config),
        cwd=ROOT,
        env=kiosk_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if not in_start_up:
        wait_for_announcement(game, proc, events_path)
    time.sleep(delay)
    alive = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert alive, f"the kiosk ended by itself (status {proc.returncode}): {err.decode()[-2000:]}"
    assert b"Traceback" not in err, err.decode()[-2000:]

    replay = Replay(game, game.cls.from_dict(before["state"]) if before else None)
    replay.feed(read_events(events_path), saved)
    try:
        after = load_save(game, state, work / "scratch")
    except AssertionError:
        # keep the evidence, and let the next run start from a clean directory
        os.replace(state / SAVE_NAME, work / f"unusable-save-{k}.json")
        raise
    tally.count(replay.check_left_on_disk(after))
    if replay.started:
        left = stale & {p.name for p in state.glob(".*.tmp")}
        assert not left, f"temporary files of an interrupted save were not removed at start: {left}"
    else:
        tally.count("killed before the game was announced")
    if any(state.glob(".*.tmp")):
        tally.count("killed inside a save (temporary file left)")
    if before is not None and replay.resumed:
        tally.count("resumed")
    tally.count(f"games finished: {replay.finished}" if replay.finished < 2 else "games finished: 2+")
    assert not (state / "corrupt").exists(), f"a save was set aside: {list((state / 'corrupt').iterdir())}"
    assert not (state / "archive").exists(), f"a save was archived: {list((state / 'archive').iterdir())}"
    events_path.unlink(missing_ok=True)


def wait_for_announcement(game: PowerCutGame, proc: subprocess.Popen, events_path: Path) -> None:
    """Block until the kiosk has announced (or resumed) its game, however slow the machine is."""
    deadline = time.monotonic() + ANNOUNCE_TIMEOUT_S
    while not any(e["type"] == game.started_event for e in read_events(events_path)):
        if proc.poll() is not None or time.monotonic() > deadline:
            return  # the checks after the kill say what went wrong
        time.sleep(0.01)


def run_power_cuts(game: PowerCutGame, runs: int, tmp_path: Path, what: str) -> tuple[Tally, Path, Path, Path]:
    """`runs` kill cycles on one state directory; failures are collected in the tally, not raised.

    Returns the tally and the state, work and config paths for a last look.
    """
    state, work = tmp_path / "state", tmp_path / "work"
    work.mkdir()
    config = tmp_path / "config.toml"
    config.write_text(f"# the {what} test: built-in defaults (resume within 30 min)\n")
    rng = random.Random(KILL_SEED)
    tally = Tally()
    for k in range(runs):
        tally.runs += 1
        try:
            cycle(game, k, rng, state, work, config, tally)
        except AssertionError as e:
            tally.failures.append(f"run {k}: {e}")
    return tally, state, work, config


def orderly_restart(game: PowerCutGame, state: Path, work: Path, config: Path) -> list:
    """A last start and SIGTERM: it resumes, stops with status 0, leaves no temporary file behind."""
    before = load_save(game, state, work / "scratch")
    events_path = work / "events-last.jsonl"
    proc = subprocess.Popen(
        kiosk_command(game, state, events_path, config),
        cwd=ROOT,
        env=kiosk_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_for_announcement(game, proc, events_path)
        assert proc.poll() is None and any(e["type"] == game.started_event for e in read_events(events_path)), (
            "the kiosk did not start"
        )
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()[-2000:]
    first = next(e for e in read_events(events_path) if e["type"] == game.started_event)
    if before is not None and before["state"]["phase"] != "over":
        game.check_snapshot(first, game.cls.from_dict(before["state"]))
    assert not list(state.glob(".*.tmp")), "a temporary file survived an orderly stop"
    records, skipped = History(state).read()
    assert skipped <= 1, "more than a torn last line in the history"
    ids = [r.game_id for r in records]
    assert None not in ids and len(set(ids)) == len(ids), "a finished game is in the history twice"
    assert all(r.seats == list(game.players) or tuple(r.seats) == game.players for r in records)
    return records
