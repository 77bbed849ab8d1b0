"""Arrow buttons and their LEDs, through gpiozero's MockFactory."""

from __future__ import annotations

import logging
import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.buttons import ARROWS, DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS, ArrowButtons, ArrowLeds
from hardware.debounce import Debouncer
from hardware.errors import HardwareContractError, HardwareSettingError
from hardware.pins import choose_pin_factory, lgpio_workdir_problem, pin_key

from tests.support.waiting import wait_for


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.close()


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def buttons(factory, clock):
    presses: list[str] = []
    b = ArrowButtons(DEFAULT_BUTTON_PINS, presses.append, bounce=0.030, clock=clock, pin_factory=factory)
    b.presses = presses
    yield b
    b.close()


def press(buttons, clock, name, hold=0.1):
    pin = buttons.pin_of(name)
    pin.drive_low()
    clock.advance(hold)
    pin.drive_high()
    clock.advance(0.2)


def test_every_button_reports_its_own_name(buttons, clock):
    assert set(buttons.names) == set(ARROWS) | {"rotate", "stay"}
    for name in buttons.names:
        press(buttons, clock, name)
    assert buttons.presses == list(buttons.names)


def test_pins_rest_high_with_pull_up_and_press_pulls_low(buttons):
    pin = buttons.pin_of("N3")
    assert pin.state == 1 and not buttons.is_pressed("N3")
    pin.drive_low()
    assert buttons.is_pressed("N3")


def test_chatter_on_press_and_release_is_one_press(buttons, clock):
    pin = buttons.pin_of("E3")
    # Contact bounce: five edges within 8 ms, then held down.
    for _ in range(4):
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.5)
    # Release bounces too.
    for _ in range(3):
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    assert buttons.presses == ["E3"]
    clock.advance(0.2)
    press(buttons, clock, "E3")
    assert buttons.presses == ["E3", "E3"]


def test_edges_at_the_same_instant_are_one_press(buttons, clock):
    pin = buttons.pin_of("W1")
    for _ in range(10):
        pin.drive_low()
        pin.drive_high()
    assert buttons.presses == ["W1"]


def test_quick_real_double_tap_is_two_presses(buttons, clock):
    pin = buttons.pin_of("S5")
    pin.drive_low()
    clock.advance(0.05)
    pin.drive_high()
    clock.advance(0.05)
    pin.drive_low()
    assert buttons.presses == ["S5", "S5"]


def test_two_buttons_at_once_are_two_presses(buttons, clock):
    a, b = buttons.pin_of("N1"), buttons.pin_of("S5")
    a.drive_low()
    b.drive_low()  # same instant
    a.drive_high()
    b.drive_high()  # chatter on both, same instant
    a.drive_low()
    b.drive_low()
    assert sorted(buttons.presses) == ["N1", "S5"]


def test_bounce_window_is_configurable(factory, clock):
    presses = []
    with ArrowButtons({"N1": 4}, presses.append, bounce=0.2, clock=clock, pin_factory=factory) as b:
        pin = b.pin_of("N1")
        pin.drive_low()
        clock.advance(0.1)
        pin.drive_high()
        clock.advance(0.1)
        pin.drive_low()
        assert presses == ["N1"]  # 100 ms apart: chatter for a 200 ms window
        clock.advance(0.3)
        pin.drive_high()
        clock.advance(0.25)
        pin.drive_low()
        assert presses == ["N1", "N1"]


def test_a_failing_handler_is_logged_and_the_next_press_still_counts(factory, clock, caplog):
    calls = []

    def handler(name):
        calls.append(name)
        raise RuntimeError("bus is gone")

    with ArrowButtons({"N1": 4}, handler, clock=clock, pin_factory=factory) as b:
        with caplog.at_level(logging.ERROR, logger="hardware.buttons"):
            press(b, clock, "N1")
            press(b, clock, "N1")
    assert calls == ["N1", "N1"]
    assert "handler for button N1 failed" in caplog.text


def test_pin_names_and_numbers_both_work(factory, clock):
    presses = []
    with ArrowButtons({"N1": "GPIO4", "rotate": 23}, presses.append, clock=clock, pin_factory=factory):
        factory.pin(4).drive_low()
        factory.pin(23).drive_low()
        assert presses == ["N1", "rotate"]


@pytest.mark.parametrize(
    "pins, message",
    [
        ({"N2": 4}, "unknown name 'N2'"),
        ({"N1": 4, "S3": "GPIO4"}, "pin 'GPIO4' is used twice (N1 and S3)"),
        ({"N1": -1}, "0 or more"),
        ({"N1": 4.5}, "BCM number or a gpiozero pin name"),
        ({"N1": 99}, "button N1 on pin 99"),
    ],
)
def test_bad_pin_config_names_the_problem(factory, pins, message):
    with pytest.raises(HardwareSettingError) as err:
        ArrowButtons(pins, lambda name: None, pin_factory=factory)
    assert message in str(err.value)


def test_close_releases_the_pins_and_stops_reporting(factory, clock):
    from gpiozero import Button

    presses = []
    b = ArrowButtons(DEFAULT_BUTTON_PINS, presses.append, clock=clock, pin_factory=factory)
    pin = b.pin_of("N3")
    b.close()
    b.close()
    assert b.names == ()
    pin.drive_low()
    assert presses == []
    again = Button(17, pin_factory=factory)  # the pin is free again
    again.close()


def test_a_failed_construction_releases_what_it_took(factory):
    from gpiozero import Button

    with pytest.raises(ValueError):
        ArrowButtons({"N1": 4, "N3": 99}, lambda n: None, pin_factory=factory)
    Button(4, pin_factory=factory).close()


def test_debouncer_keeps_contacts_apart():
    clock = FakeClock()
    d = Debouncer(0.03, clock)
    assert d.edge("a", True)
    assert d.edge("b", True)
    assert not d.edge("a", False)
    assert not d.edge("a", True)
    clock.advance(0.03)
    assert not d.edge("a", False)
    clock.advance(0.05)
    assert d.edge("a", True)
    with pytest.raises(ValueError):
        Debouncer(-1)


# --- LEDs -----------------------------------------------------------------


@pytest.fixture
def leds(factory):
    l = ArrowLeds(DEFAULT_LED_PINS, pin_factory=factory, blink_on=0.01, blink_off=0.01)
    yield l
    l.close()


def lit_pins(leds):
    return {name for name in leds.names if leds.pin_of(name).state}


def test_leds_start_dark_and_show_exactly_the_lit_set(leds):
    assert lit_pins(leds) == set()
    shift_phase = set(ARROWS) - {"S3"}  # N3 was pushed last: S3 is forbidden
    leds.show(shift_phase)
    assert lit_pins(leds) == shift_phase
    leds.show(set())  # move phase: all dark
    assert lit_pins(leds) == set()


def test_the_selected_arrow_blinks_and_stops_when_told(leds):
    leds.show(set(ARROWS) - {"S3"}, blinking="E1")
    pin = leds.pin_of("E1")
    start = len(pin.states)
    assert wait_for(lambda: len(pin.states) - start >= 4), "E1 did not blink"
    assert lit_pins(leds) - {"E1"} == set(ARROWS) - {"S3", "E1"}
    leds.show(set(ARROWS) - {"S3"})  # selection cleared: E1 steady on
    time.sleep(0.05)
    settled = len(pin.states)
    time.sleep(0.05)
    assert len(pin.states) == settled and pin.state == 1
    leds.off()
    assert lit_pins(leds) == set()


def test_leds_ignore_arrows_without_an_led_but_refuse_unknown_names(factory):
    with ArrowLeds({"N1": 12}, pin_factory=factory) as l:
        l.show({"N1", "E5"})
        assert factory.pin(12).state == 1
        with pytest.raises(HardwareContractError, match="X9"):
            l.show({"X9"})
        assert l.shown == (frozenset({"N1", "E5"}), None)


def test_closing_leds_turns_them_off_and_frees_the_pins(factory):
    from gpiozero import LED

    l = ArrowLeds({"N1": 12, "N3": 18}, pin_factory=factory, blink_on=0.01, blink_off=0.01)
    l.show({"N1"}, blinking="N3")
    l.close()
    assert factory.pin(12).state == 0 and factory.pin(18).state == 0
    LED(12, pin_factory=factory).close()


# --- pin library choice ---------------------------------------------------


def test_off_a_pi_the_pin_factory_falls_back_to_mock_with_a_log_line(caplog, monkeypatch, tmp_path):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with caplog.at_level(logging.INFO, logger="hardware.pins"):
        factory, description, problem = choose_pin_factory(None, root=str(tmp_path))
    try:
        assert problem is None
        assert type(factory).__name__ == "MockFactory"
        assert description.startswith("mock pins (fallback")
        fallback_lines = [r for r in caplog.records if "simulated pins" in r.getMessage()]
        assert len(fallback_lines) == 1
    finally:
        factory.close()


def test_on_a_machine_with_gpio_chips_the_fallback_is_an_error_that_says_why(caplog, monkeypatch, tmp_path):
    """Plain Debian on a Pi: chips there but root's only, no lgpio. Not the quiet "off a Pi" line."""
    from hardware import pins

    (tmp_path / "dev").mkdir()
    (tmp_path / "dev/gpiochip0").write_text("")
    monkeypatch.setattr(pins.os, "access", lambda path, mode: not str(path).startswith(str(tmp_path)))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    with caplog.at_level(logging.INFO, logger="hardware.pins"):
        factory, description, problem = choose_pin_factory(None, root=str(tmp_path))
    factory.close()
    if "mock pins (fallback" not in description:
        pytest.skip(f"this machine has a working pin library: {description}")
    (line,) = [r for r in caplog.records if "simulated pins" in r.getMessage()]
    assert line.levelno == logging.ERROR
    text = line.getMessage()
    assert "machine with GPIO chips" in text and "cannot be opened by this user" in text
    assert problem and "cannot be opened by this user" in problem
    assert "60-labyrinth-kiosk-gpio.rules" in text


def test_a_forced_library_that_is_missing_falls_back_loudly(caplog):
    with caplog.at_level(logging.ERROR, logger="hardware.pins"):
        factory, description, problem = choose_pin_factory("pigpio")
    factory.close()
    assert problem
    assert type(factory).__name__ == "MockFactory"
    assert any(r.levelno == logging.ERROR for r in caplog.records)


def test_mock_on_request_and_unknown_names_refused():
    factory, description, problem = choose_pin_factory("mock")
    factory.close()
    assert problem is None
    assert description == "mock pins (configured)"
    with pytest.raises(ValueError, match="unknown pin library 'gpio9000'"):
        choose_pin_factory("gpio9000")


def test_lgpio_working_directory_check(tmp_path):
    assert lgpio_workdir_problem(str(tmp_path)) is None
    assert "does not exist" in lgpio_workdir_problem(str(tmp_path / "gone"))


def test_pin_key_spellings():
    assert pin_key(17) == pin_key("17") == pin_key("GPIO17") == pin_key("bcm17") == "GPIO17"
    assert pin_key("BOARD11") == "BOARD11"
