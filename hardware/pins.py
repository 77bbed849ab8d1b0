"""Choosing gpiozero's pin library, and checking pin numbers from config.

On a Raspberry Pi the buttons use lgpio on the GPIO chip of the 40-pin header, found by the
chip's label: its number changes with the model and the kernel (a Pi 5 had gpiochip4, then
gpiochip0, and on 2026 kernels one of gpiochip11-15, where gpiozero's own guess finds nothing).
``[buttons] gpio_chip`` names the chip where the label search is wrong. Off a Pi (a desktop, a
CI machine, headless runs) there is no GPIO library or no GPIO hardware; the kiosk must still
start, so it falls back to gpiozero's ``MockFactory`` and says so in one log line. On a Pi (or
a board with GPIO chips) that fallback is a fault: an ERROR, and a ``problem`` the operator menu
shows, since the buttons will not respond.
"""

from __future__ import annotations

import fcntl
import glob
import logging
import os
import re
import stat
import warnings
from typing import TYPE_CHECKING, NamedTuple

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
#: The labels of the GPIO chip wired to the 40-pin header, as the kernel names them
#: (``gpiodetect``): Pi 5, 500 and CM5 (RP1); Pi 4, 400 and CM4; Pi 3, Zero 2 and older.
HEADER_CHIP_LABELS = ("pinctrl-rp1", "pinctrl-bcm2711", "pinctrl-bcm2835")
#: GPIO_GET_CHIPINFO_IOCTL of <linux/gpio.h>: struct gpiochip_info {name[32], label[32], lines}
_CHIPINFO_IOCTL, _CHIPINFO_SIZE = 0x8044B401, 68


class PinChoice(NamedTuple):
    """What :func:`choose_pin_factory` chose: the factory, a line for the log, and why the
    buttons cannot work (``None``: they can, or simulated pins are expected here)."""

    factory: Factory
    description: str
    problem: str | None


def _mock_factory() -> MockFactory:
    from gpiozero.pins.mock import MockFactory  # noqa: PLC0415 -- gpiozero only where pins are driven

    return MockFactory()


def _named_factory(name: str, **options: int) -> Factory:
    """Build gpiozero's pin factory registered under ``name`` (``chip=N`` for lgpio)."""
    ep = plugins.announced("gpiozero_pin_factories").get(name)
    if ep is not None:
        return ep.load()(**options)
    raise LookupError(f"gpiozero has no pin library called {name!r}")


def _chip_number(path: str) -> int:
    return int(os.path.basename(path)[len("gpiochip") :])


def gpio_chips(root: str = "/") -> list[str]:
    """The GPIO chips of this machine (``/dev/gpiochip*``, by number): a Pi has some, a PC
    usually none. Links are left out (Raspberry Pi OS links gpiochip4 to a Pi 5's header chip)."""
    paths = glob.glob(os.path.join(root, "dev", "gpiochip*"))
    chips = [p for p in paths if re.fullmatch(r"gpiochip\d+", os.path.basename(p)) and not os.path.islink(p)]
    return sorted(chips, key=_chip_number)


def chip_label(path: str, root: str = "/") -> str | None:
    """The kernel's label of the GPIO chip at ``path`` (``pinctrl-rp1``...), or None (unreadable).

    Asked of the device itself as ``gpiodetect`` does; sysfs's ``label`` where the kernel has one
    (and in the tests' fake trees, whose devices are plain files)."""
    sysfs = os.path.join(root, "sys", "bus", "gpio", "devices", os.path.basename(path), "label")
    try:
        with open(sysfs, encoding="utf-8", errors="replace") as f:
            return f.read().strip()
    except OSError:
        pass
    try:
        if not stat.S_ISCHR(os.stat(path).st_mode):
            return None
        info = bytearray(_CHIPINFO_SIZE)
        with open(path, "rb", buffering=0) as device:
            fcntl.ioctl(device.fileno(), _CHIPINFO_IOCTL, info)
    except OSError:
        return None
    return info[32:64].split(b"\0", 1)[0].decode("ascii", "replace")


def header_chip(root: str = "/") -> tuple[int, str] | None:
    """The number and label of the GPIO chip of the 40-pin header (see HEADER_CHIP_LABELS), or None."""
    labels = {_chip_number(p): chip_label(p, root) for p in gpio_chips(root)}
    for wanted in HEADER_CHIP_LABELS:
        for number, label in labels.items():
            if label == wanted:
                return number, wanted
    return None


def raspberry_pi_model(root: str = "/") -> str | None:
    """``Raspberry Pi 5 Model B Rev 1.0`` on a Raspberry Pi (its device tree's model), else None."""
    for where in ("proc/device-tree/model", "sys/firmware/devicetree/base/model"):
        try:
            with open(os.path.join(root, where), "rb") as f:
                model = f.read().decode("utf-8", "replace").strip("\0 \n")
        except OSError:
            continue
        return model if model.startswith("Raspberry Pi") else None
    return None


def gpio_chip_problem(root: str = "/") -> str | None:
    """Why this user cannot use the GPIO chips there are, or None (no chips, or one is usable)."""
    chips = gpio_chips(root)
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


def choose_pin_factory(prefer: str | None = None, chip: int | None = None, root: str = "/") -> PinChoice:
    """Pick gpiozero's pin library; never raises but for a setting that cannot be.

    ``prefer``: ``None``/``"auto"`` takes lgpio on the header's GPIO chip (``chip``, from
    ``[buttons] gpio_chip``, else found by its label) and otherwise lets gpiozero choose (which
    honours the ``GPIOZERO_PIN_FACTORY`` environment variable); ``"mock"`` asks for simulated
    pins, or one of :data:`FACTORY_NAMES` forces that library. When the wanted library cannot be
    loaded, the result is a ``MockFactory`` and one log line says why: an ERROR, with a
    ``problem``, on a Raspberry Pi or a machine with GPIO chips. ``root``: where /dev, /sys and
    /proc are (tests give a fake tree).
    """
    choice = (prefer or "auto").strip().lower()
    if choice == "mock":
        log.info("GPIO: simulated pins (gpiozero MockFactory), as configured")
        return PinChoice(_mock_factory(), "mock pins (configured)", None)
    if choice != "auto" and choice not in FACTORY_NAMES:
        raise HardwareSettingError(
            f"unknown pin library {prefer!r}: use auto, mock or one of {', '.join(FACTORY_NAMES)}"
        )
    on_chip = ""
    if choice == "lgpio" or (choice == "auto" and not os.environ.get("GPIOZERO_PIN_FACTORY")):
        found = (chip, "[buttons] gpio_chip") if chip is not None else header_chip(root)
        if found is not None:
            chip, on_chip = found[0], f" on gpiochip{found[0]} ({found[1]})"
    else:
        chip = None  # a chip is lgpio's: the other libraries find their own
    reasons: list[str] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            factory = _open_factory(choice, chip, on_chip, reasons)
        reasons += [str(w.message) for w in caught]
    except Exception as exc:  # BadPinFactory, ImportError, OSError, ...
        reasons += [str(w.message) for w in caught] + [str(exc)]
        return _fallback(choice, reasons, root)

    lgpio = "lgpio" in type(factory).__module__.lower()
    description = f"{type(factory).__name__} ({type(factory).__module__}){on_chip if lgpio else ''}"
    if lgpio:
        _check_lgpio_workdir()
    for reason in reasons:
        log.debug("GPIO: %s", reason)
    log.info("GPIO: using %s", description)
    return PinChoice(factory, description, None)


def _open_factory(choice: str, chip: int | None, on_chip: str, reasons: list[str]) -> Factory:
    """lgpio on ``chip`` when there is one; for auto, gpiozero's own choice after that."""
    if chip is not None:
        try:
            return _named_factory("lgpio", chip=chip)
        except Exception as exc:
            if choice == "lgpio":
                raise
            reasons.append(f"lgpio{on_chip}: {exc}")
    if choice == "auto":
        from gpiozero import Device  # noqa: PLC0415 -- gpiozero only where pins are driven

        return Device._default_pin_factory()
    return _named_factory(choice)


def _check_lgpio_workdir() -> None:
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


def _fallback(choice: str, reasons: list[str], root: str) -> PinChoice:
    """Simulated pins, said once: quietly off a Pi, as an ERROR with a problem on one."""
    chips = gpio_chips(root)
    model = raspberry_pi_model(root)
    problem = gpio_chip_problem(root)
    if problem:
        reasons.append(problem)
    elif model and not chips:
        reasons.append(f"no GPIO chip in {os.path.join(root, 'dev')}")
    why = "; ".join(reasons) or "unknown reason"
    if model or chips or choice != "auto":
        where = model or (f"machine with GPIO chips ({', '.join(chips)})" if chips else "machine")
        log.error(
            "GPIO: no usable pin library (%s); using simulated pins (gpiozero MockFactory): "
            "the arcade buttons will not respond on this %s. Install lgpio (python3-lgpio, or run "
            "install.sh), or name the header's chip with [buttons] gpio_chip.",
            why,
            where,
        )
        return PinChoice(_mock_factory(), f"mock pins (fallback: {why})", f"No arcade buttons on this {where}: {why}")
    log.warning(
        "GPIO: no usable pin library (%s); using simulated pins (gpiozero MockFactory): "
        "the arcade buttons will not respond. Expected off a Raspberry Pi; on a Pi install lgpio.",
        why,
    )
    return PinChoice(_mock_factory(), f"mock pins (fallback: {why})", None)


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
