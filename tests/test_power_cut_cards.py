"""Power cuts during a card game: the headless kiosk (``--game cards``) is killed with SIGKILL and restarted.

The same method as tests/test_power_cut.py (whose process, events-file and
tally helpers are used here), for the travel card game: each cycle starts
``labyrinth-kiosk --display none --game cards --players hard,easy,random
--seed S --fast --state-dir DIR --events-out EVENTS`` on the same state
directory, kills it after a seeded random delay, and checks that

- the save on disk is valid and loads through ``GameStore`` with
  ``CardGame.from_dict`` (nothing set aside, nothing archived);
- the restarted kiosk resumes it: its first ``card_game_started`` says
  ``resumed`` and shows exactly the saved layout, turn, phase, pile, discards,
  hand sizes and scores;
- the resumed game goes on from exactly the saved state, hidden hands and the
  pile order included: every placement, take and discard the restarted kiosk
  reports is replayed on ``CardGame.from_dict(saved)``, and the save left by
  the next kill is that game (or one committed action further, or after a
  game's end the next new game).

``POWER_CUT_CARD_RUNS`` cycles (default 6, a few seconds);
``POWER_CUT_SEED`` changes the kill delays.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from engine.cards import CardGame, Discard, Place, Take

from .test_power_cut import KILL_DELAY_S, KILL_SEED, ROOT, Tally, Unusable, kiosk_env, read_events
from .test_power_cut import load_save as load_checked_save

PLAYERS = ("hard", "easy", "random")
GAME_SEED = 11
RUNS = int(os.environ.get("POWER_CUT_CARD_RUNS", "6"))


def kiosk_command(state: Path, events: Path, config: Path) -> list[str]:
    entry = Path(sys.executable).with_name("labyrinth-kiosk")
    prog = [str(entry)] if entry.exists() else [sys.executable, "-m", "kiosk"]
    return prog + ["--config", str(config), "--display", "none", "--game", "cards",
                   "--players", ",".join(PLAYERS), "--seed", str(GAME_SEED), "--fast",
                   "--state-dir", str(state), "--events-out", str(events), "--log-level", "warning"]


def load_save(state: Path, scratch: Path) -> dict | None:
    """The save's wrapper once the kiosk's own loader accepts it (checked on a copy); None if there is none."""
    return load_checked_save(state, scratch, game="cards", cls=CardGame, players=PLAYERS)


def check_snapshot(ev: dict, saved: CardGame) -> None:
    """A resumed card_game_started shows exactly the saved game (all that is public)."""
    assert ev["resumed"] is True, "a save was on disk but the kiosk started a new game"
    assert ev["seed"] == saved.seed
    assert {(tuple(c["cell"]), c["card"], c["rotation"]) for c in ev["layout"]} == {
        (cell, p.card, p.rotation) for cell, p in saved.layout.items()}
    assert (ev["current"], ev["phase"], ev["turns"], ev["pile"], ev["discards"]) == (
        saved.current, saved.phase, saved.turns, len(saved.draw_pile), list(saved.discards))
    assert (tuple(ev["placed"]) if ev["placed"] else None) == saved.placed
    assert [(p["kind"], p["hand_size"], p["taken"]) for p in ev["players"]] == [
        (PLAYERS[i], len(saved.hands[i]), len(saved.taken[i])) for i in range(saved.players)]


def successors(game: CardGame) -> list[CardGame]:
    """Every state one committed action (a placement, a take, a discard) after `game`."""
    out = []
    for action in game.legal_actions() if game.phase != "over" else []:
        g = game.copy()
        g.apply(action)
        out.append(g)
    return out


@dataclass
class Replay:
    """The run's card game as its events tell it, replayed on the engine from the save it started from."""

    game: CardGame | None
    fresh_games: int = 0
    resumed: int = 0
    finished: int = 0
    started: bool = False

    def feed(self, events: list[dict], saved: CardGame | None) -> None:
        for e in events:
            t = e["type"]
            if t == "card_game_started":
                if not self.started and saved is not None:
                    check_snapshot(e, saved)
                assert e["resumed"] is (not self.started and saved is not None)
                if e["resumed"]:
                    self.resumed += 1
                else:
                    assert e["seed"] == GAME_SEED + self.fresh_games, "unexpected seed of a new game"
                    self.game = CardGame.new(players=len(PLAYERS), seed=e["seed"], first=e["current"])
                    self.fresh_games += 1
                self.started = True
            elif t == "card_laid":
                assert e["player"] == self.game.current
                self.game.apply(Place(e["card"], e["rotation"], tuple(e["cell"])))
            elif t == "cards_taken":
                assert e["player"] == self.game.current
                self.game.apply(Take(frozenset(e["cards"])))
                assert e["score"] == len(self.game.taken[e["player"]])
            elif t == "card_discarded":
                self.game.apply(Discard(e["card"]))
            elif t == "card_game_over":
                assert self.game.phase == "over" and e["winners"] == self.game.winners
                self.finished += 1
            elif t == "game_started":
                raise AssertionError("a board game started in a card game run")

    def check_left_on_disk(self, wrapper: dict | None) -> str:
        """The save after the kill must be the replayed game or one committed action further."""
        g = self.game
        nexts = successors(g) if g is not None else []
        may_have_ended = g is None or g.phase == "over" or any(n.phase == "over" for n in nexts)
        if wrapper is None:
            assert may_have_ended, f"the save vanished in the middle of a game ({g!r})"
            return "no save"
        state = wrapper["state"]
        if g is not None and state == g.to_dict():
            return "as replayed"
        if any(state == n.to_dict() for n in nexts):
            return "one action ahead of the events"
        assert may_have_ended, (f"the save ({state['phase']}, turn {state['turns']}) is neither the game the "
                                f"events describe ({g!r}) nor one action further")
        fresh = CardGame.new(players=len(PLAYERS), seed=GAME_SEED + self.fresh_games)
        assert state == fresh.to_dict(), "after a game end the save is not the next new game"
        return "next new game"


def cycle(k: int, rng: random.Random, state: Path, work: Path, config: Path, tally: Tally) -> None:
    before = load_save(state, work / "scratch")
    saved = CardGame.from_dict(before["state"]) if before else None
    events_path = work / f"events-{k}.jsonl"
    proc = subprocess.Popen(kiosk_command(state, events_path, config), cwd=ROOT, env=kiosk_env(),
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    time.sleep(rng.uniform(*KILL_DELAY_S))
    alive = proc.poll() is None
    proc.send_signal(signal.SIGKILL)
    _, err = proc.communicate(timeout=30)
    assert alive, f"the kiosk ended by itself (status {proc.returncode}): {err.decode()[-2000:]}"
    assert b"Traceback" not in err, err.decode()[-2000:]

    replay = Replay(saved.copy() if saved else None)
    replay.feed(read_events(events_path), saved)
    after = load_save(state, work / "scratch")
    tally.count(replay.check_left_on_disk(after))
    if not replay.started:
        tally.count("killed before the game was announced")
    if before is not None and replay.resumed:
        tally.count("resumed")
    tally.count(f"games finished: {min(replay.finished, 2)}{'+' if replay.finished >= 2 else ''}")
    assert not (state / "corrupt").exists(), f"a save was set aside: {list((state / 'corrupt').iterdir())}"
    assert not (state / "archive").exists(), f"a save was archived: {list((state / 'archive').iterdir())}"
    events_path.unlink(missing_ok=True)


def test_sigkill_during_card_games_never_loses_or_spoils_the_game(tmp_path, capsys):
    state, work = tmp_path / "state", tmp_path / "work"
    work.mkdir()
    config = tmp_path / "config.toml"
    config.write_text("# the card power-cut test: built-in defaults (resume within 30 min)\n")
    rng = random.Random(KILL_SEED)
    tally = Tally()
    for k in range(RUNS):
        tally.runs += 1
        try:
            cycle(k, rng, state, work, config, tally)
        except AssertionError as e:
            tally.failures.append(f"run {k}: {e}")
    with capsys.disabled():
        print(f"\ncard power cut: {tally.runs} runs, {len(tally.failures)} failures; "
              + ", ".join(f"{what}: {n}" for what, n in sorted(tally.seen.items())))
    assert not tally.failures, "\n".join(tally.failures[:10])
    assert tally.seen.get("resumed", 0) >= 1, "no run resumed a saved card game"
