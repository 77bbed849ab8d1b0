"""The puzzles in the kiosk: found by their folder, played through the bus, headless from a script,
killed with SIGKILL and resumed; the shipped pack is what its seed generates."""

from __future__ import annotations

import datetime
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.labyrinth import Move, Shift
from engine.puzzles import GRADES, PuzzleGame, best_turn, generate
from engine.records import read_record
from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import VirtualClock
from kiosk.core.events import GameSetup, IllegalInput, NewGame, SeatSetup
from kiosk.games.labyrinth.events import SelectArrow, TapCell, TreasureFound
from kiosk.games.labyrinth.session import Pacing, Session
from kiosk.games.puzzles import pack
from kiosk.games.puzzles.events import (
    PuzzleOver,
    PuzzleRotateSpare,
    PuzzleSelectArrow,
    PuzzleStarted,
    PuzzleTapCell,
)
from kiosk.games.puzzles.session import PuzzleSession
from tests.support.kiosk_pump import pump

ROOT = Path(__file__).resolve().parents[3]
SEED = 1205  # a hard puzzle of the pack: two turns, few first pushes lead on


class Rig:
    """A real bus and clock, the puzzles' session and the board game's beside it, as in the kiosk."""

    def __init__(self, today=datetime.date(2026, 12, 2)) -> None:
        self.bus = Bus()
        self.clock = VirtualClock()
        self.seen: list = []
        self.bus.subscribe_all(self.seen.append)
        self.session = PuzzleSession(self.bus, self.clock, pacing=Pacing.FAST, today=lambda: today)
        self.board = Session(self.bus, self.clock, pacing=Pacing.FAST)

    def post(self, *msgs) -> list:
        start = len(self.seen)
        for m in msgs:
            self.bus.post(m)
        pump(self.bus, self.clock, None, session=self.session, timeout=30)
        return self.seen[start:]

    def of(self, cls) -> list:
        return [m for m in self.seen if isinstance(m, cls)]

    def close(self) -> None:
        self.session.close()
        self.board.close()


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def play_turn(rig: Rig, shift: Shift, cell: tuple[int, int]) -> None:
    rig.post(*[PuzzleRotateSpare(1)] * shift.rotation)
    rig.post(PuzzleSelectArrow(shift.insertion), PuzzleSelectArrow(shift.insertion))
    rig.post(PuzzleTapCell(cell))


def test_the_puzzles_are_found_by_their_folder_in_their_declared_place():
    assert "kiosk.games.puzzles" in games.built_in()
    built_in = [g for g in games.all_games() if f"kiosk.games.{g.name}" in games.built_in()]
    assert [g.order for g in built_in] == sorted(g.order for g in built_in)  # the setup's order
    assert games.get("puzzles") in built_in and games.default() == built_in[0].name
    game = games.get("puzzles")
    assert game.players == (1, 1) and game.seat_kinds == ("human", "solver")


def test_a_puzzle_solved_in_the_fewest_turns_earns_three_stars(rig):
    rig.post(NewGame(GameSetup(seats=(SeatSetup("human"),), seed=SEED, game="puzzles")))
    started = rig.of(PuzzleStarted)[-1]
    puzzle = pack.by_seed(SEED)
    assert (started.puzzle, started.target, started.optimum, started.grade) == (
        puzzle.name,
        puzzle.target,
        puzzle.optimum,
        "hard",
    )
    game = rig.session.game
    while game.outcome is None:
        shift, move = best_turn(game.copy(), game.target)
        play_turn(rig, shift, move.cell)
    (over,) = rig.of(PuzzleOver)
    assert over.winners == (0,) and over.turns == puzzle.optimum and over.stars == 3
    assert started.players[0].cards_left == 1 and rig.of(TreasureFound)[-1].cards_left == 0  # one card counts
    assert not rig.of(IllegalInput)  # the board game's session, idle beside it, answered nothing


def test_a_puzzle_solved_in_more_turns_earns_fewer_stars(rig):
    rig.post(NewGame(GameSetup(seats=(SeatSetup("human"),), seed=SEED, game="puzzles")))
    game = rig.session.game
    # a first turn that does not lead on: a push after which even the solver needs the optimum again
    for shift in game.legal_shifts():
        trial = game.copy()
        trial.apply(shift)
        trial.apply(Move(trial.player.position))
        if trial.outcome is None and _optimum(trial) == 2:
            break
    play_turn(rig, shift, trial.player.position)
    assert game.turns == 1 and game.outcome is None
    while game.outcome is None:
        s, m = best_turn(game.copy(), game.target)
        play_turn(rig, s, m.cell)
    (over,) = rig.of(PuzzleOver)
    assert over.turns == 3 and over.optimum == 2 and over.stars == 2


def _optimum(game: PuzzleGame) -> int | None:
    from engine.puzzles import optimum

    return optimum(game, game.target)


def test_the_board_games_commands_do_not_move_a_puzzle(rig):
    rig.post(NewGame(GameSetup(seats=(SeatSetup("human"),), seed=SEED, game="puzzles")))
    before = rig.session.game.to_dict()
    rig.post(SelectArrow("N1"), SelectArrow("N1"), TapCell((0, 0)))
    assert rig.session.game.to_dict() == before


def test_the_first_puzzle_is_the_puzzle_of_the_day_and_play_again_keeps_its_grade(rig):
    rig.post(NewGame(GameSetup(seats=(SeatSetup("human"),), game="puzzles")))
    started = rig.of(PuzzleStarted)[-1]
    today = pack.of_day(datetime.date(2026, 12, 2))
    assert started.daily and started.puzzle == today.name and today.grade == "medium"  # a Wednesday
    rig.post(NewGame(GameSetup(seats=(SeatSetup("human"),), game="puzzles")))
    assert rig.of(PuzzleStarted)[-1].grade == "medium"


def test_the_solver_seat_solves_it_alone(rig):
    rig.post(NewGame(GameSetup(seats=(SeatSetup("solver"),), seed=SEED, game="puzzles")))
    (over,) = rig.of(PuzzleOver)
    assert over.stars == 3 and over.kinds == ("solver",)


def test_the_shipped_pack_is_what_its_seed_generates():
    data = json.loads(pack.PACK_FILE.read_text(encoding="utf-8"))
    first = {g: data["puzzles"][g][:2] for g in GRADES}
    again = pack.build(data["seed"], 2)["puzzles"]
    assert first == again
    puzzles = pack.read(data)
    assert all(len(puzzles[g]) == data["count"] for g in GRADES)
    assert {p.grade for g in GRADES for p in puzzles[g]} == set(GRADES)


def test_the_pack_command_generates_a_puzzle_from_a_seed(capsys):
    assert pack.main(["generate", "--seed", "7", "--grade", "hard"]) == 0
    assert json.loads(capsys.readouterr().out) == generate(7, "hard").to_dict()
    with pytest.raises(SystemExit):
        pack.main(["generate", "--seed", "7", "--count", "500"])
    assert "1 to 100 puzzles" in capsys.readouterr().err


# ------------------------------------------------------------------ the kiosk's own process


def _env() -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "NOTIFY_SOCKET", "WATCHDOG_USEC"):
        env.pop(name, None)
    return env


def _script(seed: int) -> tuple[list[str], PuzzleGame]:
    """The script lines of a shortest solution, and the puzzle played to its end."""
    game = PuzzleGame.start(pack.by_seed(seed))
    turns = []
    while game.outcome is None:
        shift, move = best_turn(game, game.target)
        lines = ["button rotate"] * shift.rotation + [f"button {shift.insertion}"] * 2
        turns.append(lines + [f"tap {move.cell[0]} {move.cell[1]}"])
        game.apply(shift)
        game.apply(move)
    return ["\n".join(t) for t in turns], game


def _kiosk(*args, timeout: float = 120) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "kiosk", "--display", "none", "--game", "puzzles", "--players", "human"]
    return subprocess.run(
        cmd + [str(a) for a in args], env=_env(), cwd=ROOT, capture_output=True, text=True, timeout=timeout
    )


def _events(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()] if path.exists() else []


def test_the_kiosk_solves_a_puzzle_headless_and_files_its_record(tmp_path):
    turns, solved = _script(SEED)
    script = tmp_path / "solve.txt"
    script.write_text("\n".join(turns) + "\n")
    events = tmp_path / "events.jsonl"
    state = tmp_path / "state"
    r = _kiosk("--seed", SEED, "--fast", "--script", script, "--events-out", events, "--games", 1, "--state-dir", state)
    assert r.returncode == 0, r.stderr
    assert "ERROR" not in r.stderr and "Traceback" not in r.stderr, r.stderr
    over = next(e for e in _events(events) if e["type"] == "puzzle_over")
    assert over["stars"] == 3 and over["turns"] == solved.turns and over["termination"] == "won"
    (filed,) = (state / "records").glob("*-puzzles-*.txt")
    assert read_record(filed.read_text(encoding="utf-8")).final().to_dict() == solved.to_dict()


def test_the_history_keeps_each_puzzles_grade_and_stars(tmp_path):
    turns, _ = _script(SEED)
    script = tmp_path / "solve.txt"
    script.write_text("\n".join(turns) + "\n")
    state = tmp_path / "state"
    r = _kiosk("--seed", SEED, "--fast", "--script", script, "--games", 1, "--state-dir", state)
    assert r.returncode == 0, r.stderr
    (line,) = (state / "history.jsonl").read_text().splitlines()
    entry = json.loads(line)
    assert entry["game"] == "puzzles" and entry["variant"] == ["grade-hard"] and entry["winners"] == [0]
    assert entry["score"] == 3  # GameType.score: the statistics count a puzzle's stars


def test_the_text_board_names_the_puzzle_and_counts_only_its_target():
    from kiosk.games.puzzles.text_board import puzzle_board

    game = PuzzleGame.start(pack.by_seed(SEED))
    text = puzzle_board(game)
    assert text.startswith(f"puzzle hard-{SEED} (hard): reach the {game.target}, fewest turns 2, turn 0")
    assert f"left  1  target {game.target}" in text
    assert games.get("puzzles").text_board is not None and games.get("puzzles").text_board(game) == text
