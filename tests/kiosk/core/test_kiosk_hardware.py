"""The kiosk with its hardware edges: arcade buttons on gpiozero mock pins, the LED ring, button LEDs.

Everything between the pins and the ring is real: the button adapter with its
debounce, the bus, the session, the engine, the AI, the ring controller thread.
"""

from __future__ import annotations

import os
import select
import time
from types import MappingProxyType

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import DEFAULT_LED_PINS
from hardware.ring.picture import CELEBRATE, FLASH, IDLE, SEGMENT
from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.config import ButtonsConfig, Config, RingConfig
from kiosk.core.events import ButtonPressed, GameSetup, IllegalInput, NewGame
from kiosk.games.labyrinth.events import (
    BoardShifted,
    GameOver,
    PreviewMoved,
    SelectArrow,
    Stay,
)
from kiosk.core.ring_view import PAWN_RGB
from kiosk.core.seat_marks import BY_NAME
from kiosk.games.labyrinth.session import Pacing

from tests.support.kiosk_pump import pump

BOUNCE = 0.030


def make_kiosk(config=None, **opts) -> Kiosk:
    opts.setdefault("fast", True)
    opts.setdefault("ring", "virtual")
    opts.setdefault("show_ai_games_on_ring", True)
    kiosk = Kiosk(config or Config(), KioskOptions(**opts), pin_factory=MockFactory())
    kiosk.seen = []
    kiosk.bus.subscribe_all(kiosk.seen.append)
    return kiosk


def run(kiosk, until=None, timeout=30.0):
    pump(kiosk.bus, kiosk.clock, until, session=kiosk.sessions["labyrinth"], timeout=timeout, tick=kiosk.tick)


def of(kiosk, cls):
    return [m for m in kiosk.seen if isinstance(m, cls)]


def press(kiosk, name, hold=0.05, gap=0.05):
    """A clean press and release on the mock pin, the clock moving on meanwhile."""
    pin = kiosk.buttons.pin_of(name)
    pin.drive_low()
    kiosk.clock.advance(hold)
    pin.drive_high()
    kiosk.clock.advance(gap)


@pytest.fixture
def kiosk():
    k = make_kiosk()
    yield k
    k.close()


def start(kiosk, kinds="human,human", **kw):
    kiosk.bus.post(NewGame(GameSetup.of(kinds, **kw)))
    run(kiosk)
    return kiosk.sessions["labyrinth"].game


def test_a_button_press_on_the_pin_previews_and_a_second_press_pushes(kiosk):
    game = start(kiosk, seed=1)
    press(kiosk, "N3")
    run(kiosk)
    assert [e.button for e in of(kiosk, ButtonPressed)] == ["N3"]
    assert of(kiosk, SelectArrow)[0].source == "button"
    assert of(kiosk, PreviewMoved)[-1].arrow == "N3"
    press(kiosk, "rotate")
    press(kiosk, "N3")
    run(kiosk)
    shift = of(kiosk, BoardShifted)[0]
    assert (shift.insertion, shift.rotation) == ("N3", 1)
    press(kiosk, "stay")
    run(kiosk)
    assert game.current == 1 and game.phase == "shift"


def test_contact_chatter_is_one_press(kiosk):
    start(kiosk, seed=2)
    pin = kiosk.buttons.pin_of("E3")
    for _ in range(6):  # a burst of bounces, 2 ms apart
        pin.drive_low()
        kiosk.clock.advance(0.002)
        pin.drive_high()
        kiosk.clock.advance(0.002)
    pin.drive_low()  # and it settles pressed
    kiosk.clock.advance(0.1)
    for _ in range(4):  # release chatter
        pin.drive_high()
        kiosk.clock.advance(0.002)
        pin.drive_low()
        kiosk.clock.advance(0.002)
    pin.drive_high()
    run(kiosk)
    assert [e.button for e in of(kiosk, ButtonPressed)] == ["E3"]
    assert kiosk.sessions["labyrinth"].game.phase == "shift"  # one press previews, it did not push
    assert len(of(kiosk, PreviewMoved)) == 1


def test_two_buttons_at_once_are_two_presses_in_order(kiosk):
    start(kiosk, seed=3)
    a, b = kiosk.buttons.pin_of("W1"), kiosk.buttons.pin_of("S5")
    a.drive_low()
    b.drive_low()  # pressed while W1 is still held
    kiosk.clock.advance(0.1)
    a.drive_high()
    b.drive_high()
    run(kiosk)
    assert [e.button for e in of(kiosk, ButtonPressed)] == ["W1", "S5"]
    assert [e.arrow for e in of(kiosk, PreviewMoved)] == ["W1", "S5"]
    assert kiosk.sessions["labyrinth"].game.phase == "shift"


def test_the_forbidden_arrow_flashes_the_ring_and_changes_nothing(kiosk):
    game = start(kiosk, seed=4)
    press(kiosk, "W3")
    press(kiosk, "W3")
    press(kiosk, "stay")
    run(kiosk)
    assert game.forbidden == "E3" and game.current == 1
    before = game.to_dict()
    assert kiosk.ring.sync(2.0)
    press(kiosk, "E3")
    run(kiosk)
    refused = of(kiosk, IllegalInput)
    assert [(e.command, e.arrow) for e in refused] == [("select_arrow", "E3")]
    assert game.to_dict() == before and kiosk.sessions["labyrinth"].preview is None
    assert kiosk.ring.sync(2.0)
    kinds = [p.kind for _, p in kiosk.ring.driver.history()]
    assert FLASH in kinds[-2:]


def test_presses_during_an_ai_turn_are_refused(kiosk):
    kiosk.sessions["labyrinth"].pacing = Pacing()  # an AI turn that takes (virtual) seconds
    kiosk.bus.post(NewGame(GameSetup.of("easy,human", seed=5)))
    run(kiosk, until=lambda: bool(of(kiosk, PreviewMoved)))
    game = kiosk.sessions["labyrinth"].game
    before = game.to_dict()
    press(kiosk, "N1")
    press(kiosk, "rotate")
    press(kiosk, "stay")
    run(kiosk, until=lambda: len(of(kiosk, IllegalInput)) == 3)
    assert all("please wait" in e.reason for e in of(kiosk, IllegalInput))
    assert game.to_dict() == before
    run(kiosk, until=lambda: game.current == 1)
    assert len(of(kiosk, BoardShifted)) == 1
    # now it is the person's turn and the same button works
    press(kiosk, "N1")
    run(kiosk)
    assert of(kiosk, PreviewMoved)[-1].arrow == "N1" and of(kiosk, PreviewMoved)[-1].player == 1


def test_button_test_mode_reports_presses_but_plays_nothing(kiosk):
    game = start(kiosk, seed=6)
    kiosk.set_button_test(True)
    press(kiosk, "N5")
    run(kiosk)
    assert of(kiosk, ButtonPressed) and not of(kiosk, PreviewMoved)
    kiosk.set_button_test(False)
    press(kiosk, "N5")
    run(kiosk)
    assert of(kiosk, PreviewMoved)
    assert game.phase == "shift"


def _pictures(kiosk):
    assert kiosk.ring.sync(2.0)
    return [p for _, p in kiosk.ring.driver.history()]


def test_the_ring_follows_the_game(kiosk):
    layout = kiosk.ring.layout
    assert _pictures(kiosk)[-1].kind == IDLE  # nobody plays yet
    game = start(kiosk, "human,human", seed=7)
    last = _pictures(kiosk)[-1]
    assert (last.kind, last.colour, last.pattern) == (SEGMENT, PAWN_RGB["red"], BY_NAME["red"].ring)
    assert (last.start, last.count) == layout.segment(0)
    kiosk.bus.post(SelectArrow("N1"))
    kiosk.bus.post(SelectArrow("N1"))
    kiosk.bus.post(Stay())
    run(kiosk)
    last = _pictures(kiosk)[-1]
    # 2 players sit diagonally: the second pawn (green) has seat 2
    assert game.players[1].seat == 2
    assert (last.kind, last.colour, last.pattern) == (SEGMENT, PAWN_RGB["green"], BY_NAME["green"].ring)
    assert (last.start, last.count) == layout.segment(2)


def test_the_ring_celebrates_the_winner_then_idles():
    k = make_kiosk()
    try:
        k.bus.post(NewGame(GameSetup.of("hard", seed=8, open_cards=True, return_home=False)))
        run(k, until=lambda: bool(of(k, GameOver)), timeout=120)
        run(k, until=lambda: k.ring.picture.kind == CELEBRATE)
        assert (k.ring.picture.colour, k.ring.picture.pattern) == (PAWN_RGB["red"], BY_NAME["red"].ring)
        k.clock.advance(k.ring_view.idle_after_s + 1)
        run(k)
        assert k.ring.picture.kind == IDLE
    finally:
        k.close()


def test_demo_games_of_ai_seats_leave_the_ring_idle():
    k = make_kiosk(show_ai_games_on_ring=False)
    try:
        k.bus.post(NewGame(GameSetup.of("easy,easy", seed=9)))
        run(k, until=lambda: len(of(k, BoardShifted)) >= 2)
        assert k.ring.picture.kind == IDLE
    finally:
        k.close()


def test_arrow_leds_show_what_can_be_pressed():
    config = Config(buttons=ButtonsConfig(led_pins=MappingProxyType(dict(DEFAULT_LED_PINS))))
    k = make_kiosk(config)
    try:
        leds = k.leds
        assert leds.shown == (frozenset(), None)
        game = start(k, "human,human", seed=10)
        assert leds.shown == (frozenset(DEFAULT_LED_PINS), None)  # first turn: all 12 allowed
        assert leds.pin_of("N1").state == 1
        press(k, "S3")
        run(k)
        lit, blinking = leds.shown
        assert blinking == "S3" and "S3" not in lit and len(lit) == 11
        press(k, "S3")  # pushed: move phase, all dark
        run(k)
        assert leds.shown == (frozenset(), None)
        assert all(leds.pin_of(n).state == 0 for n in DEFAULT_LED_PINS)
        press(k, "stay")
        run(k)
        lit, blinking = leds.shown
        assert game.forbidden == "N3" and "N3" not in lit and len(lit) == 11 and blinking is None
        assert leds.pin_of("N3").state == 0 and leds.pin_of("E1").state == 1
    finally:
        k.close()


def test_arrow_leds_are_dark_during_ai_turns():
    config = Config(buttons=ButtonsConfig(led_pins=MappingProxyType(dict(DEFAULT_LED_PINS))))
    k = make_kiosk(config)
    try:
        k.sessions["labyrinth"].pacing = Pacing()
        k.bus.post(NewGame(GameSetup.of("medium,human", seed=11)))
        run(k, until=lambda: bool(of(k, PreviewMoved)))
        assert k.leds.shown == (frozenset(), None)
        run(k, until=lambda: k.sessions["labyrinth"].game.current == 1 and not k.sessions["labyrinth"].busy)
        assert len(k.leds.shown[0]) == 11
    finally:
        k.close()


def _read_lines(fd, want, timeout=3.0):
    """Lines the kiosk wrote to the far end of a pseudo-terminal until one starts with `want`."""
    buf = b""
    deadline = time.monotonic() + timeout
    lines = []
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            buf += os.read(fd, 4096)
            *done, buf = buf.split(b"\n")
            lines += [d.decode().strip() for d in done]
            if any(line.startswith(want) for line in lines):
                return lines
    raise AssertionError(f"no {want!r} line in {lines}")


def test_turns_reach_a_serial_ring_speaking_the_line_protocol():
    master, slave = os.openpty()
    import tty

    tty.setraw(master)
    tty.setraw(slave)
    port = os.ttyname(slave)
    config = Config(ring=RingConfig(driver="line", port=port, led_count=24, brightness=255))
    k = make_kiosk(config, ring=None)
    try:
        _read_lines(master, "IDLE")
        start(k, "human,human", seed=12)
        first, count = k.ring.layout.segment(0)
        lines = _read_lines(master, "SEG")
        assert f"SEG {first} {count} 255 0 0" in lines
        k.bus.post(SelectArrow("W5"))
        k.bus.post(SelectArrow("W5"))
        k.bus.post(Stay())
        run(k)
        first, count = k.ring.layout.segment(2)
        lines = _read_lines(master, f"SEG {first}")
        assert f"SEG {first} {count} {' '.join(map(str, PAWN_RGB['green']))}" in lines
    finally:
        k.close()
        os.close(master)
        os.close(slave)
