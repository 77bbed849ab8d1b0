"""Power cuts for real: the headless kiosk is killed with SIGKILL at random moments and restarted.

Each cycle starts ``labyrinth-kiosk --display none --players hard,medium,easy
--seed S --fast --state-dir DIR --events-out EVENTS`` on the same state
directory, kills it after a seeded random delay (during start-up, during a
resume, in the middle of a save, between games...) and checks:

- the save left on disk is valid JSON in the save format and loads through
  ``kiosk.persistence.GameStore`` with ``Game.from_dict`` (nothing set aside);
- the restarted kiosk resumes it: its first ``game_started`` event says
  ``resumed`` and shows exactly the saved board, spare, pawns, card counts,
  found treasures, whose turn, phase, forbidden arrow and turn count;
- the resumed game continues from exactly the saved state, hidden cards
  included: every shift and walk the restarted kiosk reports is replayed on
  ``Game.from_dict(saved)``, and the save the kiosk leaves when it is killed
  again is that replayed game (or one committed action further, or, after a
  win, the next new game), compared with ``to_dict()`` field by field;
- temporary files left by a kill inside a save are removed at the next start,
  and nothing is ever moved to ``corrupt/`` or ``archive/``.

The suite runs ``POWER_CUT_RUNS`` cycles (default 25, about half a minute).
For the long run quoted in docs/operations.md::

    POWER_CUT_RUNS=500 .venv/bin/python -m pytest tests/test_power_cut.py -q -s

``POWER_CUT_SEED`` changes the kill delays. The summary (runs, failures,
what the kills hit) is printed; ``-s`` shows it.
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

from engine import Game, Move, Rules, Shift
from kiosk.history import History
from kiosk.persistence import SAVE_NAME, GameStore

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = ("hard", "medium", "easy")
GAME_SEED = 11
RUNS = int(os.environ.get("POWER_CUT_RUNS", "25"))
KILL_SEED = int(os.environ.get("POWER_CUT_SEED", "20240501"))
# Start-up takes 0.3-0.9 s, a 3-player game 1-1.5 s with --fast: the kills
# land in start-up, in the resume, in mid-game saves and across game ends.
KILL_DELAY_S = (0.3, 2.0)


def kiosk_command(state: Path, events: Path, config: Path) -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    prog = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    return prog + ["--config", str(config), "--display", "none", "--players", ",".join(PLAYERS),
                   "--seed", str(GAME_SEED), "--fast", "--state-dir", str(state),
                   "--events-out", str(events), "--log-level", "warning"]


def kiosk_env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


# ----------------------------------------------------------------- reading the disk
class Unusable(AssertionError):
    pass


def load_save(state: Path, scratch: Path, game: str = "labyrinth", cls=Game,
              players: tuple = PLAYERS) -> dict | None:
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
    store = GameStore(scratch, loaders={game: cls.from_dict}, resume_within_s=10 ** 9)
    resumed = store.resume()
    if resumed is None:
        raise Unusable(f"the kiosk's loader refuses the save: {store.last_setaside}")
    assert resumed.game == game and isinstance(resumed.state, cls)
    assert resumed.state.to_dict() == wrapper["state"], "the loader changed the state"
    assert list(resumed.meta.get("kinds", [])) == list(players)
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


# ----------------------------------------------------------------- the checks
def check_snapshot(ev: dict, saved: Game) -> None:
    """A resumed game_started event shows exactly the saved game (all that is public)."""
    assert ev["resumed"] is True, "a save was on disk but the kiosk started a new game"
    assert ev["seed"] == saved.seed
    assert [[t["openings"], t["treasure"]] for t in ev["board"]] == saved.to_dict()["board"]
    assert [ev["spare"]["openings"], ev["spare"]["treasure"]] == saved.to_dict()["spare"]
    assert (ev["current"], ev["phase"], ev["forbidden"], ev["turns"]) == (
        saved.current, saved.phase, saved.forbidden, saved.turns)
    assert (ev["open_cards"], ev["return_home"]) == (saved.rules.open_cards, saved.rules.return_home)
    assert len(ev["players"]) == len(saved.players)
    for info, p in zip(ev["players"], saved.players):
        assert (info["seat"], info["color"], tuple(info["position"]), info["cards_left"], info["found"]) == (
            p.seat, p.color, p.position, p.cards_left, p.found), f"player {info['index']} differs"
        assert info["kind"] == PLAYERS[info["index"]]


def successors(game: Game) -> list[Game]:
    """Every state one committed action (a shift or a walk) after `game`."""
    out = []
    actions = game.legal_shifts() if game.phase == "shift" else game.legal_moves() if game.phase == "move" else []
    for action in actions:
        g = game.copy()
        g.apply(action)
        out.append(g)
    return out


@dataclass
class Replay:
    """The run's game as the events tell it, replayed on the engine from the save it started from."""

    game: Game | None
    fresh_games: int = 0
    resumed: int = 0
    finished: int = 0
    actions: int = 0
    started: bool = False           # the kiosk got as far as announcing a game

    def feed(self, events: list[dict], saved: Game | None) -> None:
        for e in events:
            t = e["type"]
            if t == "game_started":
                if not self.started and saved is not None:
                    check_snapshot(e, saved)
                assert e["resumed"] is (not self.started and saved is not None)
                if e["resumed"]:
                    self.resumed += 1
                else:
                    assert e["seed"] == GAME_SEED + self.fresh_games, "unexpected seed of a new game"
                    self.game = Game.new(players=len(PLAYERS), seed=e["seed"])
                    self.fresh_games += 1
                self.started = True
            elif t == "board_shifted":
                assert self.game is not None and e["player"] == self.game.current
                self.game.apply(Shift(e["insertion"], e["rotation"]))
                assert [e["pushed_out"]["openings"], e["pushed_out"]["treasure"]] == self.game.to_dict()["spare"]
                self.actions += 1
            elif t == "pawn_moved":
                assert self.game is not None and e["player"] == self.game.current
                assert tuple(e["path"][0]) == self.game.player.position
                self.game.apply(Move(tuple(e["path"][-1])))
                self.actions += 1
            elif t == "game_over":
                assert self.game.phase == "over" and e["winner"] == self.game.winner
                self.finished += 1

    def check_left_on_disk(self, wrapper: dict | None) -> str:
        """The save after the kill must be the replayed game or one committed action further."""
        g = self.game
        nexts = successors(g) if g is not None else []
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
            f"describe ({g!r}) nor one action further")
        fresh = Game.new(players=len(PLAYERS), seed=GAME_SEED + self.fresh_games)
        assert state == fresh.to_dict(), "after a game end the save is not the next new game"
        return "next new game"


@dataclass
class Tally:
    runs: int = 0
    failures: list[str] = field(default_factory=list)
    seen: dict = field(default_factory=dict)

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1


def cycle(k: int, rng: random.Random, state: Path, work: Path, config: Path, tally: Tally) -> None:
    before = load_save(state, work / "scratch")
    saved = Game.from_dict(before["state"]) if before else None
    stale = {p.name for p in state.glob(".*.tmp")} if state.exists() else set()
    events_path = work / f"events-{k}.jsonl"
    delay = rng.uniform(*KILL_DELAY_S)
    proc = subprocess.Popen(kiosk_command(state, events_path, config), cwd=ROOT, env=kiosk_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(delay)
    alive = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert alive, f"the kiosk ended by itself (status {proc.returncode}): {err.decode()[-2000:]}"
    assert b"Traceback" not in err, err.decode()[-2000:]

    replay = Replay(Game.from_dict(before["state"]) if before else None)
    replay.feed(read_events(events_path), saved)
    try:
        after = load_save(state, work / "scratch")
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


def orderly_restart(state: Path, work: Path, config: Path) -> list:
    """A last start and SIGTERM: it resumes, stops with status 0, leaves no temporary file behind."""
    before = load_save(state, work / "scratch")
    events_path = work / "events-last.jsonl"
    proc = subprocess.Popen(kiosk_command(state, events_path, config), cwd=ROOT, env=kiosk_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not any(e["type"] == "game_started" for e in read_events(events_path)):
            assert time.monotonic() < deadline and proc.poll() is None, "the kiosk did not start"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 0, err.decode()[-2000:]
    first = next(e for e in read_events(events_path) if e["type"] == "game_started")
    if before is not None:
        check_snapshot(first, Game.from_dict(before["state"]))
    assert not list(state.glob(".*.tmp")), "a temporary file survived an orderly stop"
    records, skipped = History(state).read()
    assert skipped <= 1, "more than a torn last line in the history"
    assert all(r.seats == list(PLAYERS) or tuple(r.seats) == PLAYERS for r in records)
    return records


def test_sigkill_at_random_moments_never_loses_or_spoils_the_game(tmp_path, capsys):
    state, work = tmp_path / "state", tmp_path / "work"
    work.mkdir()
    config = tmp_path / "config.toml"
    config.write_text("# the power-cut test: built-in defaults (resume within 30 min)\n")
    rng = random.Random(KILL_SEED)
    tally = Tally()
    started = time.monotonic()
    for k in range(RUNS):
        tally.runs += 1
        try:
            cycle(k, rng, state, work, config, tally)
        except AssertionError as e:
            tally.failures.append(f"run {k}: {e}")

    records: list = []
    try:
        records = orderly_restart(state, work, config)
    except AssertionError as e:
        tally.failures.append(f"orderly restart: {e}")

    with capsys.disabled():
        print(f"\npower cut: {tally.runs} runs (SIGKILL after {KILL_DELAY_S[0]}-{KILL_DELAY_S[1]} s, "
              f"kill seed {KILL_SEED}), {len(tally.failures)} failures, "
              f"{time.monotonic() - started:.0f} s; {len(records)} games in the history")
        for what, n in sorted(tally.seen.items()):
            print(f"  {what}: {n}")
        for f in tally.failures[:20]:
            print(f"  FAILED {f}")
    assert not tally.failures, f"{len(tally.failures)} failures in {tally.runs} runs:\n" + "\n".join(tally.failures[:10])
