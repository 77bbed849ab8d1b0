"""Playing any registered game through the kiosk, knowing nothing of it but its declaration.

The registry-wide checks (tests/games/test_conformance.py) run every game the
kiosk knows through the same life: a headless kiosk with a person seat, the
person's input typed as the game's own script lines (``ScriptWords.lines``
turns a legal engine action, chosen by a seeded die, into them), computers in
the other seats, saves in a state directory, power cuts and restarts. Nothing
here names a game.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Callable, Iterator

from gpiozero.pins.mock import MockFactory

from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import VirtualClock
from kiosk.core.config import Config
from kiosk.core.events import GameBegan, GameSetup, Message, SeatSetup
from kiosk.core.kiosk import Kiosk, KioskOptions

ROOT = Path(__file__).resolve().parents[2]
HUMAN = games.HUMAN
#: every game ends by this many turns (the engine's turn limit), so a run is short
TURN_LIMIT = 30


@contextmanager
def registered(kind: games.GameType) -> Iterator[games.GameType]:
    """`kind` registered for the test's time (a built-in game is registered already)."""
    own = kind.name not in games.names()
    if own:
        games.register_game(kind)
    try:
        yield kind
    finally:
        if own:
            games.unregister_game(kind.name)


def seats(kind: games.GameType, people: int = 1) -> tuple[str, ...]:
    """`people` person seats (as many as the game seats), the rest its weakest computer, two seats
    where the game allows."""
    low, high = kind.players
    n = max(low, min(2, high), min(people, high))
    people = min(people, n)
    return (HUMAN,) * people + (kind.ai_levels[0],) * (n - people)


def kiosk(kind: games.GameType, state_dir: Path | None, kinds: tuple[str, ...], seed: int = 1) -> Kiosk:
    """A headless kiosk on mock pins that starts (or resumes) a game of `kind`."""
    setup = GameSetup(seats=tuple(SeatSetup(k) for k in kinds), game=kind.name, seed=seed, turn_limit=TURN_LIMIT)
    options = KioskOptions(fast=True, ring="none", state_dir=state_dir, setup=setup, start_game=True)
    return Kiosk(Config(), options, pin_factory=MockFactory())


def settle(k: Kiosk, timeout: float = 60.0) -> None:
    """Run the loop until nothing happens without new input (computers' turns played out)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        k.tick()
        if k.bus.pending():
            continue
        if k.thinking:
            k.bus.wait(0.02)
            continue
        due = k.clock.next_due()
        if due is not None:
            k.clock.advance_to(due)
            continue
        return
    raise AssertionError("the kiosk did not settle in time")


def person_acts(k: Kiosk, rng: random.Random, then: Callable[[Kiosk], None] | None = settle) -> Any:
    """The person to act plays a random legal action, typed as the game's script lines (`then`
    after each line: by default the loop runs until it settles; None: the lines are only posted)."""
    session = k.game_session
    game = session.running
    kind = games.get(session.game_name)
    assert kind.script is not None and kind.script.lines is not None, f"{kind.name}: no ScriptWords.lines"
    action = rng.choice(game.legal_actions())
    for line in kind.script.lines(session, action):
        k.script_input(line)
        if then is not None:
            then(k)
    return action


def play_to_end(k: Kiosk, rng: random.Random, limit: int = 5000) -> None:
    """Every person's turn played from the die until the game is over."""
    settle(k)
    for _ in range(limit):
        game = k.game_session.game
        if game is None or game.phase == "over":
            return
        assert k.game_session.awaiting_human(), "the game waits for nobody"
        person_acts(k, rng)
    raise AssertionError("the game did not end")


def state_of(k: Kiosk) -> dict[str, Any] | None:
    game = k.game_session.game
    return None if game is None else game.to_dict()


def saved(state_dir: Path) -> dict[str, Any] | None:
    """The save's wrapper on disk, or None."""
    from kiosk.store.persistence import SAVE_NAME

    path = state_dir / SAVE_NAME
    return json.loads(path.read_text()) if path.exists() else None


def errors(caplog: Any) -> list[str]:
    return [f"{r.name}: {r.getMessage()}" for r in caplog.records if r.levelno >= 40]


# ----------------------------------------------------------------- a kiosk in its own process
def snapshot_of_save(kind: games.GameType, wrapper: dict[str, Any]) -> dict[str, Any]:
    """The public picture a session shows when it resumes the save `wrapper` (its GameBegan)."""
    bus = Bus()
    seen: list[Message] = []
    bus.subscribe_all(seen.append)
    session = kind.session(games.SessionOptions(bus, VirtualClock(), fast=True))
    try:
        meta = wrapper.get("meta", {})
        session.resume(kind.load(wrapper["state"]), tuple(meta["kinds"]), game_id=meta.get("game_id"), meta=meta)
        bus.dispatch_pending(max_count=1)
    finally:
        session.close()
    began = [m for m in seen if isinstance(m, GameBegan)]
    assert began, f"{kind.name}: resuming posts no GameBegan"
    return began[0].to_dict()


def plug_in_dir(kind: games.GameType, tmp_path: Path) -> Path | None:
    """For a game that is not built in: a dist-info folder announcing it in the entry-point group
    (as a separately installed game), so a kiosk process finds it; its declaration lives in the
    module of its messages."""
    if f"kiosk.games.{kind.name}" in games.built_in():
        return None
    module = importlib.import_module(kind.events)
    attr = next(name for name, value in vars(module).items() if value is kind)
    site = tmp_path / "site"
    info = site / f"{kind.name}_game-0.1.dist-info"
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {kind.name}-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{games.ENTRY_POINT_GROUP}]\n{kind.name} = {kind.events}:{attr}\n")
    return site


def kiosk_env(*first: Path) -> dict[str, str]:
    """The environment of a kiosk process: this tree (and `first` folders before it) on its path, no
    display, no systemd."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([*map(str, first), str(ROOT)]))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


def process(kind: games.GameType, kinds: tuple[str, ...], state: Path, events: Path, site: Path | None, seed: int):
    """The headless kiosk in its own process, playing `kind` fast on `state`, every message in `events`."""
    config = state.parent / "config.toml"
    config.write_text("# the power-cut test: built-in defaults\n")
    args = ["--config", config, "--display", "none", "--game", kind.name, "--players", ",".join(kinds)]
    args += ["--seed", seed, "--fast", "--state-dir", state, "--events-out", events, "--log-level", "warning"]
    return subprocess.Popen(
        [sys.executable, "-m", "kiosk", *map(str, args)],
        cwd=ROOT,
        env=kiosk_env(*([site] if site else [])),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


def began(events: Path) -> list[dict[str, Any]]:
    """The GameBegan messages a run wrote so far, as written (a line torn by a kill is left out)."""
    out = []
    if not events.exists():
        return out
    for line in events.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            data = json.loads(line)
            msg = Message.from_dict(data)
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(msg, GameBegan):
            out.append(data)
    return out


def copy_state(state: Path, to: Path) -> Path:
    """What a power cut leaves: the state directory as it is on disk now."""
    shutil.copytree(state, to)
    return to
