"""The LED ring controller, its layout and pictures, with the virtual ring."""

from __future__ import annotations

import itertools
import logging
import threading
import time

import pytest

from hardware.errors import HardwareContractError, HardwareSettingError
from hardware.ring import NoRing, Ring, backoff_delays, make_ring
from hardware.ring.layout import RingLayout
from hardware.ring.picture import BLACK, CELEBRATE, FLASH, IDLE, OFF, SEGMENT, RingPicture, check_colour, render_frame
from hardware.ring.virtual import VirtualRing

from tests.support.waiting import wait_for

BLUE, GREEN, YELLOW = (0, 0, 255), (0, 200, 0), (255, 200, 0)


@pytest.fixture
def virtual():
    return VirtualRing(24)


@pytest.fixture
def ring(virtual):
    r = Ring(virtual, brightness=255, backoff_min=0.01, backoff_max=0.05)
    yield r
    r.close()


# --- layout ----------------------------------------------------------------


def test_equal_arcs_start_at_the_offset_and_go_round():
    layout = RingLayout(24, 4, offset=22)
    assert [layout.segment(s) for s in range(4)] == [(22, 6), (4, 6), (10, 6), (16, 6)]
    assert layout.leds_of(0) == [22, 23, 0, 1, 2, 3]
    assert sorted(sum((layout.leds_of(s) for s in range(4)), [])) == list(range(24))


def test_uneven_rings_share_the_leds_without_gaps_or_overlap():
    for leds, seats in [(10, 4), (7, 3), (25, 4), (5, 5)]:
        layout = RingLayout(leds, seats, offset=3)
        covered = sum((layout.leds_of(s) for s in range(seats)), [])
        assert sorted(covered) == list(range(leds))
        counts = [layout.segment(s)[1] for s in range(seats)]
        assert max(counts) - min(counts) <= 1


def test_reversed_numbering_runs_the_seats_the_other_way():
    layout = RingLayout(24, 4, offset=0, reverse=True)
    assert layout.leds_of(0) == [19, 20, 21, 22, 23, 0]
    assert layout.leds_of(1) == list(range(13, 19))
    assert layout.leds_of(3) == list(range(1, 7))


def test_hand_placed_segments():
    layout = RingLayout(30, 2, segments=[[28, 4], [10, 5]])
    assert layout.leds_of(0) == [28, 29, 0, 1]
    assert layout.segment(1) == (10, 5)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(led_count=0), "led_count"),
        (dict(led_count=3, seat_count=4), "too few for 4 seats"),
        (dict(led_count=24, seat_count=2, segments=[[0, 6]]), "1 segments for 2 seats"),
        (dict(led_count=24, seat_count=1, segments=[[24, 6]]), "seat_segments[0] = [24, 6]"),
        (dict(led_count=24, seat_count=1, segments=[[0, 0]]), "does not fit"),
        (dict(led_count=24, seat_count=1, segments=[["a", 2]]), "[first LED, count]"),
    ],
)
def test_bad_layouts_name_the_problem(kwargs, message):
    with pytest.raises(HardwareSettingError) as err:
        RingLayout(**kwargs)
    assert message in str(err.value)


def test_a_seat_off_the_ring_is_refused():
    # the kiosk asks for a seat it made the ring with: a caller's mistake, not a setting
    with pytest.raises(HardwareContractError, match="seat 4 is not on a ring of 4 seats"):
        RingLayout(24).segment(4)


# --- pictures -------------------------------------------------------------


def test_segment_frame_wraps_and_scales_with_brightness():
    frame = render_frame(RingPicture(SEGMENT, (200, 100, 0), 22, 4, brightness=128), 24, 0)
    lit = {i: c for i, c in enumerate(frame) if c != BLACK}
    assert lit == {22: (100, 50, 0), 23: (100, 50, 0), 0: (100, 50, 0), 1: (100, 50, 0)}


def test_animations_change_over_time():
    for kind in (FLASH, CELEBRATE, IDLE):
        picture = RingPicture(kind, (255, 0, 0), since=10.0, seconds=1.0)
        frames = {tuple(render_frame(picture, 12, 10.0 + t / 20)) for t in range(20)}
        assert len(frames) >= 2, kind
    flash_on = render_frame(RingPicture(FLASH, (255, 0, 0), since=0.0), 12, 0.01)
    assert flash_on == [(255, 0, 0)] * 12


def test_colours_are_checked():
    assert check_colour([1, 2, 3]) == (1, 2, 3)
    for bad in [(1, 2), (0, 0, 256), (0.5, 0, 0), "red", None, (True, 0, 0)]:
        with pytest.raises(HardwareSettingError):
            check_colour(bad)


def test_backoff_doubles_from_a_quarter_second_up_to_a_cap():
    assert list(itertools.islice(backoff_delays(0.25, 1.5), 6)) == [0.25, 0.5, 1.0, 1.5, 1.5, 1.5]


# --- controller with the virtual ring -------------------------------------


def test_show_seat_reaches_the_ring(ring, virtual):
    ring.show_seat(2, BLUE)
    assert ring.sync()
    assert virtual.picture == RingPicture(SEGMENT, BLUE, 12, 6, brightness=255)
    lit = [i for i, c in enumerate(virtual.frame()) if c != BLACK]
    assert lit == ring.layout.leds_of(2)


def test_flash_shows_then_returns_to_the_current_seat(ring, virtual):
    ring.show_seat(0, GREEN)
    assert ring.sync()
    ring.flash(seconds=0.1)
    ring.show_seat(1, YELLOW)  # turn passes while the flash runs
    assert wait_for(lambda: virtual.picture.kind == SEGMENT and virtual.picture.colour == YELLOW)
    kinds = [(p.kind, p.colour) for _, p in virtual.history()]
    assert (FLASH, (255, 0, 0)) in kinds
    assert kinds[-1] == (SEGMENT, YELLOW)
    assert kinds.index((FLASH, (255, 0, 0))) < len(kinds) - 1


def test_celebrate_idle_off_and_brightness(ring, virtual):
    ring.celebrate(BLUE)
    assert ring.sync() and virtual.picture.kind == CELEBRATE and virtual.picture.colour == BLUE
    since = virtual.picture.since
    ring.celebrate(BLUE)  # the same again does not restart the animation
    assert ring.sync() and virtual.picture.since == since
    ring.idle()
    assert ring.sync() and virtual.picture.kind == IDLE
    ring.set_brightness(40)
    assert ring.sync() and virtual.picture.brightness == 40 and virtual.picture.kind == IDLE
    ring.off()
    assert ring.sync() and virtual.picture.kind == OFF


def test_bad_arguments_raise_at_once(ring):
    with pytest.raises(HardwareContractError):
        ring.show_seat(7, BLUE)
    with pytest.raises(HardwareSettingError):
        ring.show_seat(0, (300, 0, 0))
    with pytest.raises(HardwareContractError):
        ring.flash(seconds=0)
    with pytest.raises(HardwareSettingError):
        ring.set_brightness(256)


def test_calls_never_wait_for_a_hung_device_and_only_the_latest_picture_is_sent(virtual):
    ring = Ring(virtual, brightness=255)
    try:
        assert ring.sync()
        virtual.hold = threading.Event()  # the device stops answering
        ring.show_seat(0, BLUE)  # the worker takes this and hangs in show()
        assert wait_for(lambda: ring._applied < ring._version)
        caller = threading.Thread(
            target=lambda: [
                ring.show_seat(1, GREEN),
                ring.flash(seconds=5),
                ring.show_seat(2, YELLOW),
                ring.show_seat(3, BLUE),
                ring.celebrate(GREEN),
                ring.show_seat(3, YELLOW),
            ]
        )
        caller.start()
        caller.join(1.0)
        assert not caller.is_alive(), "a ring call blocked on the device"
        before = len(virtual.history())
        virtual.hold.set()
        virtual.hold = None
        assert wait_for(lambda: virtual.picture.kind == FLASH)
        # Everything asked for in between collapsed into the latest state.
        assert len(virtual.history()) - before <= 3
        assert ring.picture == RingPicture(SEGMENT, YELLOW, 18, 6, brightness=255)
    finally:
        virtual.hold = None
        ring.close(turn_off=False)


def test_unplug_is_survived_and_replug_restores_the_current_picture(ring, virtual, caplog):
    ring.show_seat(0, BLUE)
    assert ring.sync()
    with caplog.at_level(logging.DEBUG, logger="hardware.ring"):
        virtual.unplug()
        assert wait_for(lambda: not ring.connected)
        ring.show_seat(3, GREEN)  # no error while the ring is away
        assert not ring.sync(timeout=0.1)
        assert wait_for(lambda: sum("still unavailable" in r.getMessage() for r in caplog.records) >= 2)
        virtual.plug()
        assert ring.sync()
    assert virtual.picture.colour == GREEN and virtual.picture.start == 18
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "carries on" in warnings[0].getMessage()
    assert sum("connected" in r.getMessage() for r in caplog.records if r.levelno == logging.INFO) == 1


def test_a_driver_bug_is_logged_and_retried_not_raised(caplog):
    class Flaky(VirtualRing):
        failures = 2

        def show(self, picture, now):
            if self.failures:
                self.failures -= 1
                raise KeyError("bug")
            return super().show(picture, now)

    driver = Flaky(24)
    with caplog.at_level(logging.WARNING, logger="hardware.ring"):
        with Ring(driver, backoff_min=0.01, backoff_max=0.02) as ring:
            ring.show_seat(1, BLUE)
            assert ring.sync()
    assert "KeyError" in caplog.text
    assert driver.opens == 3


def test_close_turns_off_and_stops_the_worker(virtual):
    ring = Ring(virtual)
    ring.show_seat(1, BLUE)
    assert ring.sync()
    ring.close()
    assert virtual.picture.kind == OFF
    assert not ring._thread.is_alive()
    ring.close()  # twice is fine
    assert not ring.sync(timeout=0.05)


def test_close_while_unplugged_returns_promptly():
    virtual = VirtualRing(24)
    virtual.unplug()
    ring = Ring(virtual, backoff_min=5, backoff_max=5)
    time.sleep(0.05)  # the worker is now waiting to retry
    ring.close(timeout=2.0)
    assert not ring._thread.is_alive()


def test_layout_and_driver_must_agree():
    with pytest.raises(HardwareContractError, match="24 LEDs but the virtual driver has 12"):
        Ring(VirtualRing(12), RingLayout(24))


# --- make_ring from config values -----------------------------------------


def test_make_ring_builds_each_driver_from_config_values(tmp_path):
    none = make_ring("none", led_count=24)
    assert isinstance(none, NoRing)
    none.show_seat(1, BLUE)
    none.flash()
    none.idle()
    none.celebrate(GREEN)
    none.off()
    assert none.sync() and not none.connected
    with pytest.raises(HardwareContractError):
        none.show_seat(9, BLUE)

    virtual = make_ring("virtual", led_count=16, offset=2, brightness=90)
    try:
        virtual.show_seat(0, BLUE)
        assert virtual.sync()
        assert virtual.driver.picture == RingPicture(SEGMENT, BLUE, 2, 4, brightness=90)
    finally:
        virtual.close()

    for name in ("wled", "adalight", "line"):
        r = make_ring(name, str(tmp_path / "absent"), led_count=24, seat_segments=[[0, 2], [6, 2], [12, 2], [18, 2]])
        try:
            assert r.driver.name == name and r.layout.segment(2) == (12, 2)
            r.show_seat(2, BLUE)  # absent device: no error
            assert not r.connected
        finally:
            r.close()


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (("laser",), {}, "unknown ring driver 'laser'"),
        (("wled",), {}, "needs a serial port"),
        (("none",), {"brightness": 300}, "0-255"),
        (("none",), {"seat_segments": [[0, 6]]}, "1 segments for 4 seats"),
    ],
)
def test_make_ring_refuses_bad_config(args, kwargs, message):
    with pytest.raises(HardwareSettingError) as err:
        make_ring(*args, **kwargs)
    assert message in str(err.value)


def test_every_hardware_error_is_a_hardware_error():
    """One base for what the adapters raise; bad settings stay ValueErrors (the kiosk's config
    checks catch those), a caller's mistake is a TypeError that no handler of bad input hides."""
    from hardware.errors import HardwareError
    from hardware.ring.driver import RingUnavailable

    assert issubclass(RingUnavailable, HardwareError)
    assert issubclass(HardwareSettingError, HardwareError) and issubclass(HardwareSettingError, ValueError)
    assert issubclass(HardwareContractError, HardwareError) and issubclass(HardwareContractError, TypeError)
    assert not issubclass(HardwareContractError, ValueError)
