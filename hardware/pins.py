"""Choosing gpiozero's pin library, and checking pin numbers from config.

On a Raspberry Pi, gpiozero's own choice is right (lgpio on a Pi 5 and the
recommended one on a Pi 4). Off a Pi (a desktop, a CI machine, headless runs)
there is no GPIO library or no GPIO hardware; the kiosk must still start, so it
falls back to gpiozero's ``MockFactory`` and says so in one log line. Buttons
then respond only to simulated input (``pin.drive_low()``).
"""

from __future__ import annotations

import glob
import logging
import os
import re
import warnings
from typing import TYPE_CHECKING

from hardware import plugins
from hardware.errors import HardwareSettingError

if TYPE_CHECKING:
    from gpiozero.pins import Factory
    from gpiozero.pins.mock import MockFactory

log = logging.getLogger("hardware.pins")

#: Pin library names accepted by :func:`choose_pin_factory` besides auto/mock.
FACTORY_NAMES = ("lgpio", "rpigpio", "pigpio", "native")
#: Every choice :func:`choose_pin_factory` accepts (``[buttons] pin_factory``).
PIN_FACTORIES = ("auto", "mock", *FACTORY_NAMES)


def _mock_factory() -> MockFactory:
    from gpiozero.pins.mock import MockFactory

    return MockFactory()


def _named_factory(name: str) -> Factory:
    """Build gpiozero's pin factory registered under ``name``."""
    ep = plugins.announced("gpiozero_pin_factories").get(name)
    if ep is not None:
        return ep.load()()
    raise LookupError(f"gpiozero has no pin library called {name!r}")


#: where the kernel's GPIO character devices are (tests point it elsewhere)
GPIO_DEV = "/dev"


def gpio_chips() -> list[str]:
    """The GPIO chips of this machine (``/dev/gpiochip*``): a Pi has some, a PC usually none."""
    return sorted(glob.glob(os.path.join(GPIO_DEV, "gpiochip*")))


def gpio_chip_problem() -> str | None:
    """Why this user cannot use the GPIO chips there are, or None (no chips, or one is usable)."""
    chips = gpio_chips()
    if not chips or any(os.access(chip, os.R_OK | os.W_OK) for chip in chips):
        return None
    return (
        f"{', '.join(chips)} cannot be opened by this user (plain Debian gives them to root only; "
        "install.sh's udev rule 60-labyrinth-kiosk-gpio.rules gives them to the gpio group)"
    )


def lgpio_workdir_problem(directory: str | None = None) -> str | None:
    """Why lgpio could fail in ``directory`` (default: the current one), or None.

    lgpio creates its notification pipes (``.lgd-nfy*``) in the working
    directory, so a service started in ``/`` or on a read-only root gets no
    button callbacks. The systemd unit sets a writable ``WorkingDirectory=``.
    """
    try:
        directory = directory or os.getcwd()
    except OSError as exc:  # the working directory was deleted
        return f"the working directory is unusable ({exc})"
    if not os.path.isdir(directory):
        return f"the working directory {directory} does not exist"
    if not os.access(directory, os.W_OK | os.X_OK):
        return f"the working directory {directory} is not writable"
    return None


def choose_pin_factory(prefer: str | None = None) -> tuple[Factory, str]:
    """Pick gpiozero's pin library: ``(factory, description)``; never raises.

    ``prefer``: ``None``/``"auto"`` lets gpiozero choose (it honours the
    ``GPIOZERO_PIN_FACTORY`` environment variable), ``"mock"`` asks for
    simulated pins, or one of :data:`FACTORY_NAMES` forces that library. When
    the wanted library cannot be loaded (no GPIO library installed, or not a
    Raspberry Pi), the result is a ``MockFactory`` and one log line says why.
    """
    choice = (prefer or "auto").strip().lower()
    if choice == "mock":
        log.info("GPIO: simulated pins (gpiozero MockFactory), as configured")
        return _mock_factory(), "mock pins (configured)"
    if choice != "auto" and choice not in FACTORY_NAMES:
        raise HardwareSettingError(
            f"unknown pin library {prefer!r}: use auto, mock or one of {', '.join(FACTORY_NAMES)}"
        )

    reasons: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            if choice == "auto":
                from gpiozero import Device

                factory = Device._default_pin_factory()
            else:
                factory = _named_factory(choice)
        reasons = [str(w.message) for w in caught]
    except Exception as exc:  # BadPinFactory, ImportError, OSError, ...
        reasons = [str(w.message) for w in caught] + [str(exc)]
        chips = gpio_chips()
        problem = gpio_chip_problem()
        if problem:
            reasons.append(problem)
        # a machine with GPIO chips is a Pi (or a board like it): simulated pins there are a fault
        level = logging.ERROR if choice != "auto" or chips else logging.WARNING
        log.log(
            level,
            "GPIO: no usable pin library (%s); using simulated pins "
            "(gpiozero MockFactory): the arcade buttons will not respond. %s",
            "; ".join(reasons) or "unknown reason",
            f"This machine has GPIO chips ({', '.join(chips)}): install lgpio (python3-lgpio, or run install.sh)."
            if chips
            else "Expected off a Raspberry Pi; on a Pi install lgpio.",
        )
        return _mock_factory(), "mock pins (fallback: " + "; ".join(reasons) + ")"

    name = type(factory).__name__
    description = f"{name} ({type(factory).__module__})"
    if "lgpio" in type(factory).__module__.lower():
        problem = lgpio_workdir_problem()
        if problem:
            log.warning(
                "GPIO: lgpio needs a writable working directory for its "
                "notification files, but %s; button presses may be lost. "
                "Set WorkingDirectory= to a writable place.",
                problem,
            )
        else:
            log.info("GPIO: lgpio (it keeps its notification files in %s)", os.getcwd())
    for reason in reasons:
        log.debug("GPIO: %s", reason)
    log.info("GPIO: using %s", description)
    return factory, description


_GPIO_NAME = re.compile(r"^(?:GPIO|BCM)?(\d+)$", re.IGNORECASE)


def pin_key(pin: int | str) -> str:
    """A canonical spelling of a pin, to find the same pin given twice.

    ``17``, ``"17"``, ``"GPIO17"`` and ``"BCM17"`` are all ``"GPIO17"``; other
    gpiozero names (``"BOARD11"``, ``"J8:11"``) are kept as written, upper case.
    """
    if isinstance(pin, bool) or not isinstance(pin, (int, str)):
        raise HardwareSettingError(f"a pin is a BCM number or a gpiozero pin name, not {pin!r}")
    if isinstance(pin, int):
        if pin < 0:
            raise HardwareSettingError(f"pin numbers are 0 or more, not {pin}")
        return f"GPIO{pin}"
    match = _GPIO_NAME.match(pin.strip())
    if match:
        return f"GPIO{int(match.group(1))}"
    if not pin.strip():
        raise HardwareSettingError("a pin name is empty")
    return pin.strip().upper()


def check_pins(pins: dict[str, int | str], allowed: tuple[str, ...], what: str) -> dict[str, int | str]:
    """Validate a name->pin mapping: known names only, every pin used once."""
    if not isinstance(pins, dict):
        raise HardwareSettingError(f"{what}: expected a mapping of name to pin, got {type(pins).__name__}")
    seen: dict[str, str] = {}
    clean: dict[str, int | str] = {}
    for name, pin in pins.items():
        if name not in allowed:
            raise HardwareSettingError(f"{what}: unknown name {name!r}; known names: {' '.join(allowed)}")
        if pin is None:
            continue
        key = pin_key(pin)
        if key in seen:
            raise HardwareSettingError(f"{what}: pin {pin!r} is used twice ({seen[key]} and {name})")
        seen[key] = name
        clean[name] = pin
    return clean
