"""The 12 arcade buttons (one per insertion arrow), the optional rotate/stay
buttons, and the optional LEDs inside the arrow buttons.

Game-agnostic: the adapter reports a press by name (``"N3"``, ``"rotate"``)
and lights the LEDs it is told to; what a press means is the kiosk's business.

Thread model: gpiozero calls back from its own thread (the pin library's
callback thread on a Pi; with ``MockFactory``, the thread that drives the mock
pin). ``on_press`` runs on that thread, so it must do nothing but post an
event to the kiosk's bus, which is safe from any thread. An exception raised by
``on_press`` is logged and swallowed so the pin library's thread survives.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from typing import TYPE_CHECKING, Callable, Iterable

from hardware.errors import HardwareContractError, HardwareSettingError
from hardware.debounce import DEFAULT_BOUNCE_SECONDS, Debouncer
from hardware.pins import check_pins

if TYPE_CHECKING:
    from gpiozero import LED, DigitalInputDevice
    from gpiozero.pins import Factory, Pin

log = logging.getLogger("hardware.buttons")

#: The insertion arrows, in the order the rules list them.
ARROWS: tuple[str, ...] = ("N1", "N3", "N5", "E1", "E3", "E5", "S1", "S3", "S5", "W1", "W3", "W5")
#: Optional extra buttons: rotate the spare tile, stay (end the move in place).
EXTRA_BUTTONS: tuple[str, ...] = ("rotate", "stay")
BUTTON_NAMES: tuple[str, ...] = ARROWS + EXTRA_BUTTONS

#: Default BCM pins, matching docs/wiring.md and the example config. The
#: buttons avoid the I2C, SPI and UART pins entirely.
DEFAULT_BUTTON_PINS: dict[str, int] = {
    "N1": 4,
    "N3": 17,
    "N5": 27,
    "E1": 22,
    "E3": 5,
    "E5": 6,
    "S5": 13,
    "S3": 19,
    "S1": 26,
    "W5": 16,
    "W3": 20,
    "W1": 21,
    "rotate": 23,
    "stay": 24,
}
#: Default BCM pins of the LEDs in the arrow buttons. There are not enough
#: plain GPIOs for 14 buttons and 12 LEDs, so LEDs use the pins of the SPI0,
#: UART and I2C interfaces, which the kiosk leaves disabled (docs/wiring.md).
DEFAULT_LED_PINS: dict[str, int] = {
    "N1": 12,
    "N3": 18,
    "N5": 25,
    "E1": 7,
    "E3": 8,
    "E5": 9,
    "S5": 10,
    "S3": 11,
    "S1": 14,
    "W5": 15,
    "W3": 2,
    "W1": 3,
}


class ArrowButtons:
    """Arcade buttons wired between a GPIO and ground (internal pull-up).

    Each is a gpiozero ``DigitalInputDevice``: a ``Button`` without the
    per-button "held" thread, which we do not need.

    ``pins``: name -> BCM number or gpiozero pin name, for any of
    :data:`ARROWS` and :data:`EXTRA_BUTTONS` (a button left out is simply not
    fitted). ``on_press(name)`` is called once per debounced press, from
    gpiozero's thread. ``bounce`` is the debounce window in seconds;
    ``clock`` the time source of the debouncer (tests inject a fake one).
    ``pin_factory``: a gpiozero pin factory (see ``choose_pin_factory``).
    """

    def __init__(
        self,
        pins: dict[str, int | str],
        on_press: Callable[[str], None],
        *,
        bounce: float = DEFAULT_BOUNCE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
        pin_factory: Factory | None = None,
    ) -> None:
        # gpiozero's Button is this class plus a "held" thread per button that
        # polls ten times a second and makes close() slow; we need no hold.
        from gpiozero import DigitalInputDevice  # noqa: PLC0415 -- gpiozero only where the buttons are driven

        pins = check_pins(pins, BUTTON_NAMES, "buttons")
        self._on_press = on_press
        self._debouncer = Debouncer(bounce, clock)
        self._buttons: dict[str, DigitalInputDevice] = {}
        self._closed = False
        try:
            for name, pin in pins.items():
                try:
                    # bounce_time=None: debouncing is ours (see debounce.py).
                    button = DigitalInputDevice(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
                except Exception as exc:
                    raise HardwareSettingError(f"button {name} on pin {pin!r}: {exc}") from exc
                button.when_activated = functools.partial(self._edge, name, True)
                button.when_deactivated = functools.partial(self._edge, name, False)
                self._buttons[name] = button
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        """The fitted buttons, in the order they were configured."""
        return tuple(self._buttons)

    def pin_of(self, name: str) -> Pin:
        """The gpiozero pin object of button ``name`` (tests drive mock pins)."""
        return self._buttons[name].pin

    def is_pressed(self, name: str) -> bool:
        """The raw contact state of ``name`` right now (not debounced)."""
        return bool(self._buttons[name].is_active)

    def _edge(self, name: str, pressed: bool) -> None:
        if self._closed or not self._debouncer.edge(name, pressed):
            return
        log.debug("button %s pressed", name)
        try:
            self._on_press(name)
        except Exception:
            log.exception("the handler for button %s failed", name)

    def close(self) -> None:
        """Release the pins. Safe to call twice."""
        self._closed = True
        for button in self._buttons.values():
            try:
                button.when_activated = None
                button.when_deactivated = None
                button.close()
            except Exception:  # pragma: no cover - closing must not fail
                log.exception("closing a button failed")
        self._buttons.clear()

    def __enter__(self) -> "ArrowButtons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class ArrowLeds:
    """The LEDs inside the arrow buttons (optional, any subset fitted).

    Each LED is a gpiozero ``LED`` (pin high = lit; drive arcade-button lamps
    through a transistor array, see docs/wiring.md). The adapter does not know
    the game; the kiosk decides what to show and calls :meth:`show`:

    - shift phase: every arrow lit except the forbidden one (the opposite of
      the previous insertion), the previewed arrow blinking;
    - move phase, other players' AI turns, game over: all dark.

    ``blink_on``/``blink_off`` are the blink timings in seconds.
    """

    def __init__(
        self,
        pins: dict[str, int | str],
        *,
        pin_factory: Factory | None = None,
        blink_on: float = 0.25,
        blink_off: float = 0.25,
    ) -> None:
        from gpiozero import LED  # noqa: PLC0415 -- gpiozero only where the buttons are driven

        pins = check_pins(pins, BUTTON_NAMES, "button LEDs")
        self._blink = (float(blink_on), float(blink_off))
        self._leds: dict[str, LED] = {}
        self._lock = threading.Lock()
        self._shown: tuple[frozenset[str], str | None] = (frozenset(), None)
        try:
            for name, pin in pins.items():
                try:
                    self._leds[name] = LED(pin, active_high=True, initial_value=False, pin_factory=pin_factory)
                except Exception as exc:
                    raise HardwareSettingError(f"LED {name} on pin {pin!r}: {exc}") from exc
        except BaseException:
            self.close()
            raise

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(self._leds)

    def pin_of(self, name: str) -> Pin:
        return self._leds[name].pin

    @property
    def shown(self) -> tuple[frozenset[str], str | None]:
        """What was last asked for: ``(lit, blinking)``."""
        return self._shown

    def show(self, lit: Iterable[str], blinking: str | None = None) -> None:
        """Light exactly the arrows in ``lit``; ``blinking`` blinks instead.

        Names without a fitted LED are ignored (the kiosk need not know which
        are fitted); unknown names raise ``ValueError``.
        """
        lit = frozenset(lit)
        unknown = sorted(n for n in lit | ({blinking} if blinking else set()) if n not in BUTTON_NAMES)
        if unknown:
            raise HardwareContractError(f"unknown button names for LEDs: {' '.join(unknown)}")
        with self._lock:
            if (lit, blinking) == self._shown:
                return
            previous_blinking = self._shown[1]
            self._shown = (lit, blinking)
            for name, led in self._leds.items():
                if name == blinking:
                    if previous_blinking != name:
                        on, off = self._blink
                        led.blink(on_time=on, off_time=off, background=True)
                elif name in lit:
                    led.on()
                else:
                    led.off()

    def off(self) -> None:
        """All LEDs dark."""
        self.show((), None)

    def close(self) -> None:
        """Turn the LEDs off and release the pins. Safe to call twice."""
        with self._lock:
            for led in self._leds.values():
                try:
                    led.off()
                    led.close()
                except Exception:  # pragma: no cover
                    log.exception("closing an LED failed")
            self._leds.clear()

    def __enter__(self) -> "ArrowLeds":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
