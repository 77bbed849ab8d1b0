"""The header's GPIO chip found by its label on every Raspberry Pi, and no silent mock pins on one.

Each machine is a fake tree (dev/gpiochipN, sys/bus/gpio/devices/gpiochipN/label,
proc/device-tree/model) given to hardware.pins as its root; lgpio's factory is a stand-in that
records the chip it was asked to open, as gpiozero's ``LGPIOFactory(chip=N)`` would be.
"""

from __future__ import annotations

import dataclasses
import logging
from pathlib import Path

import pytest

from hardware import pins
from hardware.pins import choose_pin_factory, header_chip, raspberry_pi_model

PI4 = "Raspberry Pi 4 Model B Rev 1.5"
PI5 = "Raspberry Pi 5 Model B Rev 1.0"
# gpiodetect's lines, as reported for each kernel (number: label)
MACHINES = {
    "pi4": (PI4, {0: "pinctrl-bcm2711", 1: "raspberrypi-exp-gpio"}),
    # a Pi 5 on a 2024 kernel before 6.6.45: the header's chip is the fifth
    "pi5-2024": (
        PI5,
        {
            0: "gpio-brcmstb@107d508500",
            1: "gpio-brcmstb@107d508520",
            2: "gpio-brcmstb@107d517c00",
            3: "gpio-brcmstb@107d517c20",
            4: "pinctrl-rp1",
        },
    ),
    # a Pi 5 on a 2026 kernel (6.12.96+rpt-rpi-2712): gpiochip11-15, neither 0 nor 4
    "pi5-2026": (
        PI5,
        {
            11: "gpio-brcmstb@107d508500",
            12: "gpio-brcmstb@107d508520",
            13: "pinctrl-rp1",
            14: "gpio-brcmstb@107d517c00",
            15: "gpio-brcmstb@107d517c20",
        },
    ),
    "pi5-no-chip": (PI5, {}),
    "pc": (None, {}),
}
HEADER = {"pi4": (0, "pinctrl-bcm2711"), "pi5-2024": (4, "pinctrl-rp1"), "pi5-2026": (13, "pinctrl-rp1")}


def machine(root: Path, name: str) -> Path:
    model, chips = MACHINES[name]
    (root / "dev").mkdir(parents=True)
    for number, label in chips.items():
        (root / "dev" / f"gpiochip{number}").write_text("")
        sysfs = root / "sys/bus/gpio/devices" / f"gpiochip{number}"
        sysfs.mkdir(parents=True)
        (sysfs / "label").write_text(label + "\n")
    if model:
        (root / "proc/device-tree").mkdir(parents=True)
        (root / "proc/device-tree/model").write_bytes(model.encode() + b"\0")
    return root


class LGPIOFactory:
    """Stands in for gpiozero.pins.lgpio.LGPIOFactory (whose module names the library)."""

    __module__ = "gpiozero.pins.lgpio"

    def __init__(self, chip: int | None = None):
        self.chip = chip

    def close(self) -> None:
        pass


@pytest.fixture
def lgpio(monkeypatch):
    """lgpio's factory as gpiozero registers it, recording the chip; every other library missing."""
    opened: list[dict] = []

    def named(name, **options):
        if name != "lgpio":
            raise ImportError(f"no {name} here")
        opened.append(options)
        return LGPIOFactory(**options)

    monkeypatch.setattr(pins, "_named_factory", named)
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    return opened


@pytest.mark.parametrize("name", sorted(HEADER))
def test_the_headers_chip_is_found_by_its_label(tmp_path, name, lgpio):
    root = str(machine(tmp_path, name))
    assert header_chip(root) == HEADER[name]
    chosen = choose_pin_factory("auto", root=root)
    number, label = HEADER[name]
    assert lgpio == [{"chip": number}]
    assert chosen.factory.chip == number and chosen.problem is None
    assert f"on gpiochip{number} ({label})" in chosen.description


def test_raspberry_pi_oss_link_to_the_pi_5s_chip_is_not_a_chip_of_its_own(tmp_path, lgpio):
    """A 6.6.45+ kernel: the header's chip is gpiochip0, and Raspberry Pi OS links gpiochip4 to it."""
    root = machine(tmp_path, "pi4")
    (root / "sys/bus/gpio/devices/gpiochip0/label").write_text("pinctrl-rp1\n")
    (root / "dev/gpiochip4").symlink_to("gpiochip0")
    assert [Path(p).name for p in pins.gpio_chips(str(root))] == ["gpiochip0", "gpiochip1"]
    assert header_chip(str(root)) == (0, "pinctrl-rp1")


def test_buttons_gpio_chip_overrides_the_label_search(tmp_path, lgpio):
    root = str(machine(tmp_path, "pi5-2026"))
    chosen = choose_pin_factory("lgpio", chip=15, root=root)
    assert lgpio == [{"chip": 15}]
    assert "on gpiochip15 ([buttons] gpio_chip)" in chosen.description


def test_a_pi_with_no_gpio_chip_is_an_error_the_operator_sees(tmp_path, lgpio, monkeypatch, caplog):
    """gpiozero's own guess (chip 4 or 0) fails there; the fallback to mock pins is not silent."""
    from gpiozero import Device

    def no_chip():
        raise OSError("can not open gpiochip")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_chip))
    root = str(machine(tmp_path, "pi5-no-chip"))
    assert raspberry_pi_model(root) == PI5
    with caplog.at_level(logging.INFO, logger="hardware.pins"):
        chosen = choose_pin_factory("auto", root=root)
    chosen.factory.close()
    assert type(chosen.factory).__name__ == "MockFactory"
    assert lgpio == []  # no chip to give lgpio
    assert chosen.problem and PI5 in chosen.problem and "can not open gpiochip" in chosen.problem
    (line,) = [r for r in caplog.records if "simulated pins" in r.getMessage()]
    assert line.levelno == logging.ERROR and PI5 in line.getMessage()


def test_off_a_pi_mock_pins_are_expected_and_no_problem(tmp_path, monkeypatch, caplog):
    from gpiozero import Device

    def no_chip():
        raise OSError("can not open gpiochip")

    monkeypatch.setattr(Device, "_default_pin_factory", staticmethod(no_chip))
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    root = str(machine(tmp_path, "pc"))
    assert raspberry_pi_model(root) is None and header_chip(root) is None
    with caplog.at_level(logging.INFO, logger="hardware.pins"):
        chosen = choose_pin_factory(None, root=root)
    chosen.factory.close()
    assert type(chosen.factory).__name__ == "MockFactory" and chosen.problem is None
    (line,) = [r for r in caplog.records if "simulated pins" in r.getMessage()]
    assert line.levelno == logging.WARNING


def test_gpio_chip_is_a_config_key_auto_or_a_number():
    from kiosk.core.config import ConfigError, from_raw

    assert from_raw({}).buttons.gpio_chip is None
    assert from_raw({"buttons": {"gpio_chip": "auto"}}).buttons.gpio_chip is None
    assert from_raw({"buttons": {"gpio_chip": 13}}).buttons.gpio_chip == 13
    with pytest.raises(ConfigError, match="gpio_chip"):
        from_raw({"buttons": {"gpio_chip": "rp1"}})


def test_the_kiosk_keeps_the_problem_for_the_operators_hardware_page(monkeypatch):
    import hardware
    from gpiozero.pins.mock import MockFactory

    from kiosk.core.config import Config
    from kiosk.core.kiosk import Kiosk, KioskOptions

    asked = []

    def chosen(prefer, chip=None, root="/"):
        asked.append((prefer, chip))
        return pins.PinChoice(MockFactory(), "mock pins (fallback: no chip)", "No arcade buttons on this Raspberry Pi")

    monkeypatch.setattr(hardware, "choose_pin_factory", chosen)
    config = Config()
    config = dataclasses.replace(config, buttons=dataclasses.replace(config.buttons, gpio_chip=13))
    kiosk = Kiosk(config, KioskOptions(fast=True, ring="none", mock_pins=False))
    try:
        assert asked == [("auto", 13)]
        assert kiosk.pins_problem == "No arcade buttons on this Raspberry Pi"
    finally:
        kiosk.close()
