"""The operator PIN's lock-out: escalating, capped, kept across restarts, safe on a bad file."""

from __future__ import annotations

import json
import os

import pytest

from kiosk.store import pin
from kiosk.store.pin import FIRST_LOCK_S, FREE_TRIES, MAX_LOCK_S, PinGuard, lock_length

PIN = "4711"


class Clocks:
    """The run's clock and the wall clock, moved by hand."""

    def __init__(self, wall=1_700_000_000.0):
        self.t = 0.0
        self.w = wall

    def run(self):
        return self.t

    def wall(self):
        return self.w

    def wait(self, s):
        self.t += s
        self.w += s


def guard(state_dir, clocks):
    return PinGuard(state_dir, clock=clocks.run, wall=clocks.wall)


def fail_until_locked(g):
    while g.check("0000", PIN) == "wrong" and not g.locked:
        pass


def test_three_tries_then_locks_that_double_up_to_the_cap(tmp_path):
    c = Clocks()
    g = guard(tmp_path, c)
    assert [g.check("0000", PIN) for _ in range(FREE_TRIES - 1)] == ["wrong"] * (FREE_TRIES - 1)
    assert not g.locked
    locks = []
    for _ in range(16):
        assert g.check("0000", PIN) == "wrong"
        locks.append(g.remaining())
        assert g.check(PIN, PIN) == "locked"  # even the right PIN is not looked at
        c.wait(g.remaining())
    assert locks[:4] == [FIRST_LOCK_S, 2 * FIRST_LOCK_S, 4 * FIRST_LOCK_S, 8 * FIRST_LOCK_S]
    assert max(locks) == MAX_LOCK_S == locks[-1]
    assert all(b >= a for a, b in zip(locks, locks[1:]))
    # the right PIN after the lock opens and resets the count
    assert g.check(PIN, PIN) == "ok"
    assert g.failures == 0 and not g.locked
    assert g.check("0000", PIN) == "wrong" and not g.locked


def test_guessing_every_four_digit_pin_takes_years():
    total = sum(lock_length(n) for n in range(1, 10_001))
    assert total > 3 * 365 * 24 * 3600


def test_the_lock_survives_a_restart(tmp_path):
    c = Clocks()
    g = guard(tmp_path, c)
    for _ in range(FREE_TRIES + 1):
        g.check("0000", PIN)
        c.wait(g.remaining())
    g.check("0000", PIN)  # 5th wrong: 4 x 30 s
    assert g.remaining() == 4 * FIRST_LOCK_S
    c.wait(10)
    # the kiosk restarts: a new process, its monotonic clock starts again
    c2 = Clocks(wall=c.w)
    g2 = guard(tmp_path, c2)
    assert g2.failures == FREE_TRIES + 2
    assert g2.remaining() == pytest.approx(4 * FIRST_LOCK_S - 10, abs=0.01)
    c2.wait(g2.remaining())
    assert g2.check("0000", PIN) == "wrong" and g2.remaining() == 8 * FIRST_LOCK_S  # still escalating


def test_a_clock_jump_never_lengthens_the_lock(tmp_path):
    c = Clocks()
    g = guard(tmp_path, c)
    fail_until_locked(g)
    assert g.remaining() == FIRST_LOCK_S
    # after a power cut the Pi boots with its clock a year behind
    g2 = guard(tmp_path, Clocks(wall=c.w - 365 * 24 * 3600))
    assert g2.remaining() == FIRST_LOCK_S
    # ... or network time arrives and jumps a day ahead: the lock is over, the count is not
    g3 = guard(tmp_path, Clocks(wall=c.w + 24 * 3600))
    assert not g3.locked and g3.failures == FREE_TRIES


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"{",
        b"[]",
        b'{"failures": "3", "locked_until": 0}',
        b'{"failures": -1, "locked_until": 0}',
        b'{"failures": 3, "locked_until": NaN}',
        b"[" * 100_000,
        b" " * 10_000,
    ],
)
def test_an_unusable_file_locks_once_instead_of_crashing_or_unlocking(tmp_path, content):
    (tmp_path / pin.STATE_NAME).write_bytes(content)
    g = guard(tmp_path, Clocks())
    assert g.failures == FREE_TRIES and g.remaining() == FIRST_LOCK_S


def test_a_fifo_in_place_of_the_file_does_not_hang(tmp_path):
    os.mkfifo(tmp_path / pin.STATE_NAME)
    g = guard(tmp_path, Clocks())
    assert g.remaining() == FIRST_LOCK_S


def test_the_file_is_small_json_and_the_right_pin_clears_it(tmp_path):
    c = Clocks()
    g = guard(tmp_path, c)
    fail_until_locked(g)
    saved = json.loads((tmp_path / pin.STATE_NAME).read_text())
    assert saved == {"failures": FREE_TRIES, "locked_until": pytest.approx(c.w + FIRST_LOCK_S)}
    c.wait(FIRST_LOCK_S)
    assert g.check(PIN, PIN) == "ok"
    assert json.loads((tmp_path / pin.STATE_NAME).read_text())["failures"] == 0


def test_without_a_state_directory_the_count_lives_in_memory(tmp_path):
    c = Clocks()
    g = guard(None, c)
    fail_until_locked(g)
    assert g.locked and list(tmp_path.iterdir()) == []


# ------------------------------------------------------------ on the operator screen
@pytest.mark.display
def test_the_keypad_escalates_and_stays_locked_after_a_restart(tmp_path):
    pytest.importorskip("pyglet")
    from kiosk.store.history import History

    from tests.kiosk.ui.screens.test_screens import make_ui

    def open_pad():
        u = make_ui(size=(800, 480), layout="tabletop", first="attract")
        u.k.history = History(tmp_path)  # the kiosk's state directory
        u.goto("operator")
        u.screen._armed = True
        return u

    def typed(u, pin):
        for d in pin:
            u.screen.key(d)
        u.screen.key("ok")

    u = open_pad()
    for _ in range(FREE_TRIES):
        typed(u, "9999")
    assert u.screen.locked and u.screen.guard.remaining() == FIRST_LOCK_S
    u.clock.t += FIRST_LOCK_S
    u.step(0.02)
    typed(u, "9999")  # the 4th wrong PIN: twice as long
    assert u.screen.guard.remaining() == 2 * FIRST_LOCK_S
    u.close()
    u.k.close()
    # the kiosk restarts: the pad is still locked, the right PIN is not even looked at
    u2 = open_pad()
    try:
        assert u2.screen.locked
        typed(u2, "2580")
        assert u2.screen.page == "pin"
        for _ in range(2):  # an operator waits at the pad (touching it now and then)
            u2.clock.t += FIRST_LOCK_S
            u2.screen.press(1, 1)
            u2.step(0.02)
        typed(u2, "2580")
        assert u2.screen.page == "hardware"
    finally:
        u2.close()
        u2.k.close()


def test_wrong_pins_typed_while_the_state_dir_is_read_only_are_not_forgotten(tmp_path, monkeypatch):
    import errno

    def read_only(path, data):
        raise OSError(errno.EROFS, "Read-only file system")

    c = Clocks()
    monkeypatch.setattr(pin, "atomic_write", read_only)
    g = guard(tmp_path, c)
    for _ in range(9):
        c.wait(g.remaining())
        assert g.check("0000", PIN) == "wrong"
    again = guard(tmp_path, c)  # the operator screen opened again
    assert again.failures == 9 and again.remaining() == lock_length(9) == 32 * 60
    monkeypatch.undo()  # writable again: the right PIN clears both
    c.wait(again.remaining())
    assert again.check(PIN, PIN) == "ok"
    assert guard(tmp_path, c).failures == 0
