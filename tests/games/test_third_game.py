"""A third game, declared only in this module, runs in the kiosk like the two built-in ones.

The game is a trivial race (test-only): each turn the player to act rolls a
die (from the game's seed) and moves on; the first past square 12 wins; with
a turn limit, the furthest ahead wins, ties share. Everything the kiosk needs
is declared here -- engine state, messages, session, script word and a
GameType -- and reaches the kiosk through the ``labyrinth_kiosk.games``
entry-point group, as a separately installed game would (a dist-info folder
on the path of the kiosk's process). The kiosk then plays it headless from a
script: setup, play, save after every roll, SIGKILL, resume from the save,
game over -- and nothing outside this module names the race.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from engine.errors import IllegalAction, InvalidState
from engine.outcome import Outcome, Termination, most
from kiosk import games
from kiosk.core.events import (
    AIThinking,
    Command,
    Event,
    GameBegan,
    GameEnded,
    GameSetup,
    Seat,
    SeatSetup,
    TurnBegan,
    message,
)
from kiosk.core.session import GameSession, PacingBase

ROOT = Path(__file__).resolve().parents[2]
NAME = "race"
GOAL = 12
COLOURS = ("red", "yellow", "green")


# ----------------------------------------------------------------- the engine (pure, seeded)


class Race:
    """The race's whole state: positions, whose turn, how many turns, how it ended."""

    def __init__(self, players: int, seed: int | None, first: int = 0, turn_limit: int = 0) -> None:
        self.positions = [0] * players
        self.seed = seed
        self.current = first
        self.turns = 0
        self.turn_limit = turn_limit
        self.outcome: Outcome | None = None

    @classmethod
    def new(cls, players: int, seed: int | None, first: int = 0, turn_limit: int = 0) -> "Race":
        if not 2 <= players <= 3:
            raise ValueError(f"a race has 2 or 3 players, not {players}")
        return cls(players, seed, first, turn_limit)

    @property
    def num_players(self) -> int:
        return len(self.positions)

    @property
    def phase(self) -> str:
        return "over" if self.outcome else "roll"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.outcome.winners if self.outcome else ()

    def legal_actions(self) -> list[str]:
        return [] if self.outcome else ["roll"]

    def die(self) -> int:
        """The next roll: the same seed and turn give the same roll (a resumed game rolls on unchanged)."""
        return random.Random(f"{self.seed}:{self.turns}").randint(1, 6)

    def apply(self, action: str) -> int:
        if self.outcome is not None:
            raise IllegalAction("The race is over.")
        if action != "roll":
            raise IllegalAction(f"{action!r} is not a move of the race: roll.")
        rolled = self.die()
        self.positions[self.current] += rolled
        self.turns += 1
        if self.positions[self.current] >= GOAL:
            self.outcome = Outcome(Termination.WON, (self.current,))
        elif self.turn_limit and self.turns >= self.turn_limit:
            self.outcome = Outcome(Termination.TURN_LIMIT, most(self.positions))
        else:
            self.current = (self.current + 1) % self.num_players
        return rolled

    def to_dict(self) -> dict:
        return {
            "game": NAME,
            "version": 1,
            "seed": self.seed,
            "positions": list(self.positions),
            "current": self.current,
            "turns": self.turns,
            "turn_limit": self.turn_limit,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }

    @classmethod
    def from_dict(cls, data: Any) -> "Race":
        if not isinstance(data, dict) or data.get("game") != NAME or data.get("version") != 1:
            raise InvalidState("not a race save")
        race = cls(len(data["positions"]), data["seed"], data["current"], data["turn_limit"])
        race.positions, race.turns = list(data["positions"]), data["turns"]
        race.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        return race


# ----------------------------------------------------------------- its messages


@message("race_roll")
class Roll(Command):
    """Roll the die and move on."""

    source: str = "touch"


@message("race_started")
class RaceStarted(GameBegan):
    seed: int | None
    kinds: tuple[str, ...]
    positions: tuple[int, ...]
    current: int
    turns: int
    resumed: bool = False

    def seating(self) -> tuple[Seat, ...]:
        return tuple(Seat(i, i, COLOURS[i], k) for i, k in enumerate(self.kinds))


@message("race_turn")
class RaceTurn(TurnBegan):
    player: int
    kind: str
    turn: int


@message("race_rolled")
class Rolled(Event):
    player: int
    rolled: int
    position: int

    def narrate(self, who) -> str:
        return f"{who(self.player)} rolls {self.rolled}, now at {self.position}"


@message("race_over")
class RaceOver(GameEnded):
    winners: tuple[int, ...]
    turns: int
    kinds: tuple[str, ...] = ()
    termination: Termination = Termination.WON
    duration: float = 0.0


@message("race_ai_decided")
class RaceDecided(Event):
    player: int
    token: int


# ----------------------------------------------------------------- its session


class RacePacing(PacingBase):
    pass


class RaceSession(GameSession):
    """Owns the running race: Roll in, Rolled / RaceTurn / RaceOver out."""

    game_name = NAME
    noun = "race"
    ai_levels = ("dice",)

    def __init__(self, opts: games.SessionOptions) -> None:
        super().__init__(
            opts.bus,
            opts.clock,
            pacing=_FAST,
            ai_factory=lambda level, seed: level,
            save=opts.save,
            executor=opts.executor,
        )
        self._subscribe({Roll: self._on_roll}, {}, RaceDecided)

    def color_of(self, player: int) -> str:
        return COLOURS[player]

    def public_snapshot(self, resumed: bool = False) -> RaceStarted:
        g = self.game
        return RaceStarted(g.seed, self.kinds, tuple(g.positions), g.current, g.turns, resumed)

    def start(self, setup: GameSetup) -> None:
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        self._begin(Race.new(len(setup.seats), seed, setup.first, setup.turn_limit), setup)

    def resume(self, game: Race, kinds, *, game_id=None, started=None, meta=None) -> None:
        setup = GameSetup(
            seats=tuple(SeatSetup(k) for k in kinds), seed=game.seed, game=NAME, turn_limit=game.turn_limit
        )
        self._continue(game, setup, game_id, started)

    def _turn_begins(self, new_turn: bool = True) -> None:
        g = self.game
        if g is None or g.outcome is not None:
            return
        token = self._new_turn_token()
        kind = self.kinds[g.current]
        self.bus.post(RaceTurn(g.current, kind, g.turns))
        if kind != "human":
            self.bus.post(AIThinking(g.current, kind))
            player = g.current
            self._submit(lambda: RaceDecided(player, token), lambda error: RaceDecided(player, token), "race AI")

    def _on_ai_decided(self, ev: RaceDecided) -> None:
        if self._answer_is_current(ev):
            self._run_steps([(0.0, lambda: Roll(source="ai"))])

    def _on_roll(self, cmd: Roll) -> None:
        if not self._check_player(cmd):
            return
        g = self.game
        player = g.current
        rolled = g.apply("roll")
        self.bus.post(Rolled(player, rolled, g.positions[player]))
        if g.outcome is not None:
            self._game_ended(RaceOver(g.winners, g.turns, self.kinds, g.outcome.termination, self._duration))
            return
        self._save("roll")
        self._turn_begins()


_FAST = RacePacing()


# ----------------------------------------------------------------- its declaration


def _roll_words(words: list[str], bad) -> tuple:
    if len(words) != 1:
        raise bad("`roll` takes nothing after it")
    return ()


GAME = games.GameType(
    name=NAME,
    title="Dice race",
    players=(2, 3),
    ai_levels=("dice",),
    load=Race.from_dict,
    session=RaceSession,
    events=__name__,
    default_seats=("human", "dice"),
    script=games.ScriptWords(
        ("roll",),
        "roll",
        lambda words, bad: _roll_words(words, bad),
        lambda session, verb, args: [Roll(source="script")],
    ),
    button=lambda session, name: Roll(source="button") if name == "stay" else None,
)


# ----------------------------------------------------------------- the proof


def entry_point_dir(tmp_path: Path) -> Path:
    """A dist-info folder announcing this module's GAME in the kiosk's entry-point group."""
    site = tmp_path / "site"
    info = site / "race_game-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: race-game\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{games.ENTRY_POINT_GROUP}]\n{NAME} = {__name__}:GAME\n")
    return site


def kiosk_env(site: Path) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(site), str(ROOT)]))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


def kiosk(site: Path, *args: Any, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "kiosk", *map(str, args)],
        env=kiosk_env(site),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def events_of(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def replay(seed: int, players: int, upto: int | None = None) -> Race:
    """The race the engine plays from `seed` (first player 0), `upto` turns or to the end."""
    race = Race.new(players, seed)
    while race.outcome is None and (upto is None or race.turns < upto):
        race.apply("roll")
    return race


@pytest.fixture
def registered():
    """The race in this process's registry (for the in-process checks), gone afterwards."""
    games.register_game(GAME)
    yield GAME
    games.unregister_game(NAME)


def test_the_race_is_found_through_the_entry_point_group(tmp_path):
    site = entry_point_dir(tmp_path)
    code = "from kiosk import games; g = games.get('race'); print(g.title, g.players, g.seat_kinds, games.names())"
    r = subprocess.run(
        [sys.executable, "-c", code], env=kiosk_env(site), cwd=ROOT, capture_output=True, text=True, timeout=60
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Dice race (2, 3) ('human', 'dice') ('labyrinth', 'cards', 'race')"


def test_the_kiosk_plays_the_race_headless_from_setup_to_game_over(tmp_path):
    site = entry_point_dir(tmp_path)
    script = tmp_path / "race.txt"
    script.write_text("roll\n" * 30)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        site,
        "--display",
        "none",
        "--game",
        NAME,
        "--players",
        "human,dice",
        "--seed",
        5,
        "--fast",
        "--first",
        0,
        "--script",
        script,
        "--events-out",
        events,
        "--games",
        1,
        "--simulate",
    )
    assert r.returncode == 0, r.stderr
    log = events_of(events)
    types = [e["type"] for e in log]
    assert types.index("new_game") < types.index("race_started") < types.index("race_over")
    expected = replay(5, 2)
    over = next(e for e in log if e["type"] == "race_over")
    assert over["winners"] == list(expected.winners) and over["turns"] == expected.turns
    assert over["termination"] == "won"
    rolls = [(e["player"], e["rolled"]) for e in log if e["type"] == "race_rolled"]
    assert len(rolls) == expected.turns and [p for p, _ in rolls] == [t % 2 for t in range(expected.turns)]
    assert "rolls" in r.stderr  # the headless narrator tells the race's own events


def test_a_turn_limit_ends_the_race_with_the_furthest_ahead_winning(tmp_path):
    site = entry_point_dir(tmp_path)
    events = tmp_path / "events.jsonl"
    r = kiosk(
        site,
        "--display",
        "none",
        "--game",
        NAME,
        "--players",
        "dice,dice,dice",
        "--seed",
        9,
        "--fast",
        "--first",
        0,
        "--turn-limit",
        2,
        "--events-out",
        events,
        "--games",
        1,
    )
    assert r.returncode == 0, r.stderr
    over = next(e for e in events_of(events) if e["type"] == "race_over")
    expected = replay(9, 3, upto=2)
    assert over["turns"] == 2 and over["termination"] == "turn_limit"
    assert tuple(over["winners"]) == most(expected.positions)


def test_the_race_survives_a_power_cut_and_resumes_where_it_stopped(tmp_path):
    """Play a few rolls with a save after each, SIGKILL, restart on the same state folder, finish."""
    site = entry_point_dir(tmp_path)
    state = tmp_path / "state"
    first_part = tmp_path / "first.txt"
    first_part.write_text("roll\nroll\nroll\nwait 60000\n")  # then it waits, long enough to be killed
    events1 = tmp_path / "events1.jsonl"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kiosk",
            "--display",
            "none",
            "--game",
            NAME,
            "--players",
            "human,human",
            "--seed",
            "3",
            "--first",
            "0",
            "--script",
            str(first_part),
            "--state-dir",
            str(state),
            "--events-out",
            str(events1),
        ],
        env=kiosk_env(site),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            rolled = [e for e in events_of(events1) if e["type"] == "race_rolled"] if events1.exists() else []
            if len(rolled) == 3:
                break
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.05)
        else:
            pytest.fail("the first three rolls did not come")
        time.sleep(0.3)  # the save after the third roll is written on the main thread
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    saved = json.loads((state / "current-game.json").read_text())
    assert saved["game"] == NAME
    assert Race.from_dict(saved["state"]).to_dict() == replay(3, 2, upto=3).to_dict()

    rest = tmp_path / "rest.txt"
    rest.write_text("roll\n" * 30)
    events2 = tmp_path / "events2.jsonl"
    r = kiosk(
        site,
        "--display",
        "none",
        "--game",
        NAME,
        "--players",
        "human,human",
        "--seed",
        3,
        "--fast",
        "--first",
        0,
        "--script",
        rest,
        "--state-dir",
        state,
        "--events-out",
        events2,
        "--games",
        1,
    )
    assert r.returncode == 0, r.stderr
    log = events_of(events2)
    started = next(e for e in log if e["type"] == "race_started")
    assert started["resumed"] and started["turns"] == 3
    over = next(e for e in log if e["type"] == "race_over")
    expected = replay(3, 2)
    assert over["winners"] == list(expected.winners) and over["turns"] == expected.turns
    assert not (state / "current-game.json").exists()  # a finished game leaves no save behind


def test_in_process_the_race_is_a_game_like_the_others(registered):
    assert NAME in games.names()
    setup = GameSetup(seats=(SeatSetup("human"), SeatSetup("dice")), game=NAME)
    assert setup.kinds == ("human", "dice")
    with pytest.raises(ValueError, match="seat kind 'hard'"):
        GameSetup(seats=(SeatSetup("human"), SeatSetup("hard")), game=NAME)
    with pytest.raises(ValueError, match="no open_cards variant"):
        GameSetup(seats=(SeatSetup("human"), SeatSetup("dice")), game=NAME, open_cards=True)
