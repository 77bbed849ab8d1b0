"""Crash points: the kiosk stopped at every single disk step, then restarted, never loses a game.

Random SIGKILLs (tests/kiosk/store/test_power_cut.py) hit the slow steps often and the
quick ones rarely. Here every write, fsync, rename and unlink the kiosk makes
goes through ``kiosk.store.safeio.OPS``; :class:`CrashingOps` counts them and, at
step N, stops the program: that step and every later one do nothing and raise
:class:`Crash` (a ``BaseException``, so no ``except Exception`` clean-up runs,
as after a real crash). Then a fresh kiosk starts on the same state directory
with the real operations, and the test checks what a person would: the game
is still there (resumable) or its history line is, exactly once — never both,
never neither. Steps are counted, not timed: the runs are deterministic.

Sequences covered, each crashed at every one of its steps:

- finishing a game: the end is saved, the history line appended, the save removed;
  and the restart that finds each of those states, itself crashed at every step
  and restarted again;
- an ordinary save after an action (the old or the new state resumes);
- abandoning a game (its save moves to archive/: in one place, once);
- resuming an old save (archived) and a corrupt one (set aside), crashed at every step.
"""

from __future__ import annotations

import errno
import json
import os
from functools import lru_cache
from pathlib import Path

import pytest

from engine.labyrinth import Game, Move
from engine.labyrinth.ai import make_ai
from kiosk.store import safeio
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.config import Config
from kiosk.core.events import AbandonGame
from kiosk.games import Moment
from kiosk.games.labyrinth.events import TapCell
from kiosk.store.history import History
from kiosk.store.persistence import SAVE_NAME, GameStore

from tests.support.kiosk_pump import pump

GAME_ID = "c0ffee00c0ffee00c0ffee00c0ffee00"


class Crash(BaseException):
    """The program stopped at this step (nothing after it runs)."""


class CrashingOps(safeio.FileOps):
    """The real operations, counted; from step `crash_at` on, none is done and each raises Crash."""

    def __init__(self, crash_at: int | None = None) -> None:
        self.crash_at = crash_at
        self.steps: list[str] = []
        self.dead = False

    def _step(self, name: str) -> None:
        if self.dead:
            raise Crash(name)
        self.steps.append(name)
        if self.crash_at is not None and len(self.steps) >= self.crash_at:
            self.dead = True
            raise Crash(name)

    def mkstemp(self, directory, prefix, suffix):
        self._step("create temporary")
        return super().mkstemp(directory, prefix, suffix)

    def open(self, path, flags, mode=0o600):
        self._step(f"open {Path(path).name}")
        return super().open(path, flags, mode)

    def write(self, fd, data):
        self._step("write")
        super().write(fd, data)

    def fsync(self, fd):
        self._step("fsync")
        super().fsync(fd)

    def close(self, fd):
        if self.dead:  # a dead process's descriptors are closed by the kernel
            os.close(fd)
            raise Crash("close")
        super().close(fd)

    def replace(self, src, dst):
        self._step(f"rename to {Path(dst).parent.name}/{Path(dst).name}")
        super().replace(src, dst)

    def unlink(self, path):
        self._step(f"unlink {Path(path).name}")
        super().unlink(path)

    def mkdir(self, path):
        self._step(f"mkdir {Path(path).name}")
        super().mkdir(path)


@lru_cache(maxsize=None)
def near_end() -> tuple[dict, tuple[int, int], dict]:
    """A solo game one walk from its end (the state, the winning cell) and one in the move phase mid-game."""
    game = Game.new(players=1, seed=5)
    ai = make_ai("medium", seed=1)
    middle = None
    while True:
        shift, move = ai.choose(game)
        game.apply(shift)
        if middle is None and game.turns >= 3:
            middle = game.to_dict()
        before = game.copy()
        game.apply(move)
        if game.phase == "over":
            return before.to_dict(), tuple(move.cell), middle


def write_save(state_dir: Path, state: dict, *, saved_at: float | None = None) -> None:
    """A save as the kiosk writes it, for a one-seat human game with a known id."""
    import time

    store = GameStore(state_dir, loaders={}, clock=(lambda: saved_at) if saved_at else time.time)
    assert store.save("labyrinth", state, meta={"game_id": GAME_ID, "kinds": ["human"], "started": 0, "setup": None})


class DiskKiosk(Kiosk):
    """The kiosk without its arcade buttons: none is pressed here, and gpiozero's mock pins
    take half a second to set up, hundreds of times over."""

    def _open_buttons(self) -> None:
        self.buttons = None


def make_kiosk(state_dir: Path) -> Kiosk:
    return DiskKiosk(Config(), KioskOptions(fast=True, ring="none", state_dir=state_dir))


def run_kiosk(state_dir: Path, ops: safeio.FileOps, action=None) -> bool:
    """Start a kiosk with `ops`, resume, play `action(kiosk)`, run until idle; False if it crashed."""
    saved_ops = safeio.OPS
    safeio.OPS = ops
    kiosk = None
    try:
        kiosk = make_kiosk(state_dir)
        kiosk.start()
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        if action is not None:
            action(kiosk)
            pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        return True
    except Crash:
        return False
    finally:
        safeio.OPS = saved_ops
        if kiosk is not None:
            kiosk.close()


def count_step(state_dir: Path, action=None) -> list[str]:
    """The steps a run makes (on a copy of the state directory)."""
    import shutil

    copy = state_dir.parent / (state_dir.name + "-count")
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(state_dir, copy)
    ops = CrashingOps()
    assert run_kiosk(copy, ops, action)
    shutil.rmtree(copy)
    return ops.steps


def where_is_the_game(state_dir: Path) -> dict:
    """Where game GAME_ID is: resumable save, history lines, archive files, corrupt files."""
    places = {"save": 0, "history": 0, "archive": 0, "corrupt": 0}
    save = state_dir / SAVE_NAME
    if save.exists():
        wrapper = json.loads(save.read_bytes())
        if wrapper["meta"].get("game_id") == GAME_ID:
            places["save"] = 1
    records, skipped = History(state_dir).read()
    assert skipped == 0, "a torn history line"
    places["history"] = sum(r.game_id == GAME_ID for r in records)
    for folder in ("archive", "corrupt"):
        for f in (state_dir / folder).glob("*.json") if (state_dir / folder).is_dir() else ():
            if json.loads(f.read_bytes())["meta"].get("game_id") == GAME_ID:
                places[folder] += 1
    return places


def tap_the_winning_cell(kiosk: Kiosk) -> None:
    _, cell, _ = near_end()
    assert kiosk.sessions["labyrinth"].game is not None, "the game did not resume"
    kiosk.bus.post(TapCell(cell, source="touch"))


def no_leftovers(state_dir: Path) -> None:
    assert not list(state_dir.glob(".*.tmp")), "a temporary file survived a restart"


# ---------------------------------------------------------------- finishing a game
def test_finishing_a_game_crashed_at_every_step_keeps_it_exactly_once(tmp_path):
    final, _, _ = near_end()
    base = tmp_path / "base"
    write_save(base, final)
    steps = count_step(base, tap_the_winning_cell)
    # the end saved (temporary, write, fsync, rename, directory fsync), the history line, the save removed
    assert "rename to base-count/current-game.json" in steps and "unlink current-game.json" in steps
    assert (
        steps.index("rename to base-count/current-game.json")
        < steps.index("open history.jsonl")
        < steps.index("unlink current-game.json")
    ), steps
    covered = 0
    for n in range(1, len(steps) + 1):
        state = tmp_path / f"finish-{n}"
        import shutil

        shutil.copytree(base, state)
        assert not run_kiosk(state, CrashingOps(crash_at=n), tap_the_winning_cell), f"no crash at step {n}"
        # the restart, and for every state it finds, a crash at each of its own steps too
        restart_steps = count_step(state)
        for m in range(1, len(restart_steps) + 1):
            again = tmp_path / f"finish-{n}-restart-{m}"
            shutil.copytree(state, again)
            assert not run_kiosk(again, CrashingOps(crash_at=m))
            assert run_kiosk(again, safeio.FileOps())
            check_once(again, f"crash at finishing step {n} ({steps[n - 1]}), restart step {m}")
            covered += 1
        assert run_kiosk(state, safeio.FileOps())
        check_once(state, f"crash at finishing step {n} ({steps[n - 1]})")
        covered += 1
    assert covered >= len(steps)


def check_once(state_dir: Path, what: str) -> None:
    places = where_is_the_game(state_dir)
    assert places["save"] + places["history"] == 1 and places["corrupt"] == places["archive"] == 0, (
        f"{what}: the game is {places}"
    )
    no_leftovers(state_dir)
    if places["save"]:  # still running: it resumes, and finishing it records it once
        assert run_kiosk(state_dir, safeio.FileOps(), tap_the_winning_cell)
        assert where_is_the_game(state_dir) == {"save": 0, "history": 1, "archive": 0, "corrupt": 0}, what


# ---------------------------------------------------------------- an ordinary save
def test_a_save_crashed_at_every_step_leaves_the_old_or_the_new_state(tmp_path):
    _, _, middle = near_end()
    base = tmp_path / "base"
    write_save(base, middle)
    before = Game.from_dict(middle)
    after = before.copy()
    after.apply(Move(before.player.position))

    def stay(kiosk: Kiosk) -> None:
        kiosk.bus.post(TapCell(before.player.position, source="touch"))

    steps = count_step(base, stay)
    assert steps.count("fsync") >= 2, steps
    import shutil

    seen = set()
    for n in range(1, len(steps) + 1):
        state = tmp_path / f"save-{n}"
        shutil.copytree(base, state)
        assert not run_kiosk(state, CrashingOps(crash_at=n), stay)
        kiosk = make_kiosk(state)
        try:
            kiosk.start()
            game = kiosk.sessions["labyrinth"].game
            assert game in (before, after), f"crash at step {n} ({steps[n - 1]}): neither the old nor the new game"
            seen.add("new" if game == after else "old")
        finally:
            kiosk.close()
        no_leftovers(state)
    assert seen == {"old", "new"}


# ---------------------------------------------------------------- abandoning, archiving, setting aside
def test_abandoning_a_game_crashed_at_every_step_keeps_it_in_one_place(tmp_path):
    _, _, middle = near_end()
    base = tmp_path / "base"
    write_save(base, middle)

    def abandon(kiosk: Kiosk) -> None:
        kiosk.bus.post(AbandonGame("nobody there"))

    steps = count_step(base, abandon)
    assert any(s.startswith("rename to archive/") for s in steps), steps
    import shutil

    for n in range(1, len(steps) + 1):
        state = tmp_path / f"abandon-{n}"
        shutil.copytree(base, state)
        assert not run_kiosk(state, CrashingOps(crash_at=n), abandon)
        assert run_kiosk(state, safeio.FileOps())
        places = where_is_the_game(state)
        assert places["save"] + places["archive"] == 1 and places["history"] == places["corrupt"] == 0, (
            f"crash at step {n} ({steps[n - 1]}): {places}"
        )
        no_leftovers(state)


@pytest.mark.parametrize("kind", ["old", "corrupt"])
def test_setting_a_save_aside_at_start_crashed_at_every_step(tmp_path, kind):
    _, _, middle = near_end()
    base = tmp_path / "base"
    if kind == "old":
        write_save(base, middle, saved_at=1_714_564_800.0)  # 2024: long past resume_within_s
    else:
        broken = dict(middle, turns=-1)
        write_save(base, broken)
    data = (base / SAVE_NAME).read_bytes()
    steps = count_step(base)
    folder = "archive" if kind == "old" else "corrupt"
    assert any(s.startswith(f"rename to {folder}/") for s in steps), steps
    import shutil

    for n in range(1, len(steps) + 1):
        state = tmp_path / f"{kind}-{n}"
        shutil.copytree(base, state)
        assert not run_kiosk(state, CrashingOps(crash_at=n))
        assert run_kiosk(state, safeio.FileOps())
        moved = list((state / folder).glob("*.json"))
        assert len(moved) == 1 and moved[0].read_bytes() == data, f"crash at step {n} ({steps[n - 1]})"
        assert not (state / SAVE_NAME).exists()
        no_leftovers(state)


def test_a_full_disk_at_the_end_keeps_the_finished_game_for_the_next_start(tmp_path):
    """The history cannot be written: the finished game's save stays, and the next start records it."""
    final, _, _ = near_end()
    write_save(tmp_path, final)

    class FullHistory(safeio.FileOps):
        def write(self, fd, data):
            if b'"duration_s"' in data and b'"format"' not in data:
                raise OSError(errno.ENOSPC, "No space left on device")
            super().write(fd, data)

    assert run_kiosk(tmp_path, FullHistory(), tap_the_winning_cell)
    assert where_is_the_game(tmp_path)["save"] == 1
    assert Game.from_dict(json.loads((tmp_path / SAVE_NAME).read_bytes())["state"]).phase == "over"
    assert run_kiosk(tmp_path, safeio.FileOps())
    assert where_is_the_game(tmp_path) == {"save": 0, "history": 1, "archive": 0, "corrupt": 0}


# ---------------------------------------------------------------- the history cannot be written
def pending_of(state_dir: Path) -> int:
    """How many pending files (kiosk/store/history.py) hold game GAME_ID."""
    folder = state_dir / "pending"
    if not folder.is_dir():
        return 0
    return sum(json.loads(f.read_bytes()).get("game_id") == GAME_ID for f in folder.glob("*.json"))


def test_finishing_with_a_broken_history_crashed_at_every_step_keeps_the_game_until_it_is_written(tmp_path):
    """The history is a directory (or another user's file, or a link): the finished game waits in
    pending/, through a crash at every step of finishing and of the restart; once the history can be
    written it is appended exactly once and nothing waits any more."""
    import shutil

    final, _, _ = near_end()
    base = tmp_path / "base"
    write_save(base, final)
    (base / "history.jsonl").mkdir()  # every append fails: EISDIR
    steps = count_step(base, tap_the_winning_cell)
    assert any(s.startswith("rename to pending/") for s in steps), steps
    for n in range(1, len(steps) + 1):
        state = tmp_path / f"broken-{n}"
        shutil.copytree(base, state)
        assert not run_kiosk(state, CrashingOps(crash_at=n), tap_the_winning_cell)
        restart_steps = count_step(state)
        for m in [*range(1, len(restart_steps) + 1), None]:
            again = tmp_path / f"broken-{n}-restart-{m}"
            shutil.copytree(state, again)
            if m is not None:
                assert not run_kiosk(again, CrashingOps(crash_at=m))
            assert run_kiosk(again, safeio.FileOps())
            what = f"crash at finishing step {n} ({steps[n - 1]}), restart step {m}"
            places = where_is_the_game(again)
            assert places["save"] + pending_of(again) == 1 and places["history"] == 0, (what, places)
            (again / "history.jsonl").rmdir()  # the operator repairs it
            assert run_kiosk(again, safeio.FileOps())
            if places["save"]:  # the game was not finished before the crash: finish it now
                assert run_kiosk(again, safeio.FileOps(), tap_the_winning_cell)
            assert where_is_the_game(again) == {"save": 0, "history": 1, "archive": 0, "corrupt": 0}, what
            assert pending_of(again) == 0 and History(again).pending() == 0, what
            no_leftovers(again)
            shutil.rmtree(again)


def test_a_finished_game_that_waits_is_never_overwritten_by_the_next_one(tmp_path):
    """Two games end while the history cannot be written: each waits in a file of its own, and
    both are appended, once each, when it can."""
    final, _, _ = near_end()
    (tmp_path / "history.jsonl").mkdir()
    for game_id in ("a1" * 16, "b2" * 16):
        store = GameStore(tmp_path, loaders={})
        assert store.save("labyrinth", final, meta={"game_id": game_id, "kinds": ["human"], "started": 0})
        assert run_kiosk(tmp_path, safeio.FileOps(), tap_the_winning_cell)
    assert sorted(json.loads(f.read_bytes())["game_id"] for f in (tmp_path / "pending").glob("*.json")) == [
        "a1" * 16,
        "b2" * 16,
    ]
    assert not (tmp_path / SAVE_NAME).exists()
    assert History(tmp_path).pending() == 2
    (tmp_path / "history.jsonl").rmdir()
    assert run_kiosk(tmp_path, safeio.FileOps())
    assert run_kiosk(tmp_path, safeio.FileOps())  # a second start appends nothing more
    records, _ = History(tmp_path).read()
    assert sorted(r.game_id for r in records) == ["a1" * 16, "b2" * 16]
    assert History(tmp_path).pending() == 0


def test_a_full_disk_keeps_the_finished_game_in_its_save_through_the_next_game(tmp_path):
    """Neither the history nor a pending file can be written (ENOSPC): the finished game's save is
    the only copy, so the next game does not replace it; when the disk has room again the game is
    appended once and saving resumes."""
    final, _, _ = near_end()
    write_save(tmp_path, final)

    class FullDisk(safeio.FileOps):
        full = True

        def write(self, fd, data):
            if self.full and b'"format"' not in data:  # the history line and the pending file
                raise OSError(errno.ENOSPC, "No space left on device")
            super().write(fd, data)

    ops = FullDisk()
    saved_ops, safeio.OPS = safeio.OPS, ops
    kiosk = make_kiosk(tmp_path)
    try:
        kiosk.start()
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        tap_the_winning_cell(kiosk)
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        assert kiosk.history.pending() == 1 and kiosk.store.held
        from kiosk.core.events import GameSetup, NewGame, SeatSetup

        kiosk.bus.post(NewGame(GameSetup(seats=(SeatSetup("human"),), seed=9)))
        pump(kiosk.bus, kiosk.clock, tick=kiosk.tick)
        assert kiosk.sessions["labyrinth"].game is not None
        assert where_is_the_game(tmp_path)["save"] == 1, "the next game replaced the finished one"
        ops.full = False  # room again: the new game's next save writes the old one first
        session = kiosk.sessions["labyrinth"]
        kiosk._save(session, Moment.STEP)  # the hook a session calls after each committed action
        assert not kiosk.store.held
        saved = json.loads((tmp_path / SAVE_NAME).read_bytes())
        assert saved["meta"]["game_id"] == session.game_id, "saving did not resume"
    finally:
        safeio.OPS = saved_ops
        kiosk.close()
    assert where_is_the_game(tmp_path)["history"] == 1
    assert History(tmp_path).pending() == 0


class FailingOps(CrashingOps):
    """The real operations, counted; step `fail_at` alone fails with EIO (a disk error, not a crash:
    the program goes on and its own error handling runs)."""

    def __init__(self, fail_at: int) -> None:
        super().__init__()
        self.fail_at = fail_at

    def _step(self, name: str) -> None:
        self.steps.append(name)
        if len(self.steps) == self.fail_at:
            raise OSError(errno.EIO, "Input/output error (injected)")


def test_a_disk_error_at_every_step_of_finishing_and_restarting_loses_no_game(tmp_path):
    """Each disk step of finishing a game, and then of the restart after it, fails once with EIO:
    the game ends up exactly once in the history (after a restart with a working disk), never lost."""
    import shutil

    final, _, _ = near_end()
    base = tmp_path / "base"
    write_save(base, final)
    steps = count_step(base, tap_the_winning_cell)
    for n in range(1, len(steps) + 1):
        state = tmp_path / f"eio-{n}"
        shutil.copytree(base, state)
        assert run_kiosk(state, FailingOps(n), tap_the_winning_cell)
        restart_steps = count_step(state)
        for m in range(1, len(restart_steps) + 1):
            again = tmp_path / f"eio-{n}-restart-{m}"
            shutil.copytree(state, again)
            assert run_kiosk(again, FailingOps(m))
            assert run_kiosk(again, safeio.FileOps())
            what = f"EIO at finishing step {n} ({steps[n - 1]}), restart step {m} ({restart_steps[m - 1]})"
            places = where_is_the_game(again)
            if places["save"]:  # the end itself was not saved: the game resumes and is finished now
                assert run_kiosk(again, safeio.FileOps(), tap_the_winning_cell)
                places = where_is_the_game(again)
            assert places == {"save": 0, "history": 1, "archive": 0, "corrupt": 0}, (what, places)
            assert pending_of(again) == 0, what
            shutil.rmtree(again)
