"""Adapters for the physical devices, knowing nothing of the game.

- :class:`ArrowButtons` reports debounced presses of the arrow, rotate and
  stay buttons by name; :class:`ArrowLeds` lights the LEDs in the arrows.
- :class:`Ring` (or :func:`make_ring` from config) shows a seat's colour,
  flashes, celebrates or idles on a serial LED ring, from its own thread.
- :func:`choose_pin_factory` picks gpiozero's pin library, falling back to
  simulated pins off a Raspberry Pi.
"""

from hardware.buttons import (
    ARROWS,
    BUTTON_NAMES,
    DEFAULT_BUTTON_PINS,
    DEFAULT_LED_PINS,
    EXTRA_BUTTONS,
    ArrowButtons,
    ArrowLeds,
)
from hardware.debounce import DEFAULT_BOUNCE_SECONDS, Debouncer
from hardware.pins import choose_pin_factory
from hardware.ring import NoRing, Ring, make_ring
from hardware.ring.adalight import AdalightDriver
from hardware.ring.driver import RingDriver, RingUnavailable
from hardware.ring.layout import RingLayout
from hardware.ring.line import LineDriver
from hardware.ring.picture import RingPicture, render_frame
from hardware.ring.virtual import VirtualRing
from hardware.ring.wled import WledDriver

__all__ = [
    "ARROWS",
    "BUTTON_NAMES",
    "DEFAULT_BUTTON_PINS",
    "DEFAULT_LED_PINS",
    "EXTRA_BUTTONS",
    "ArrowButtons",
    "ArrowLeds",
    "DEFAULT_BOUNCE_SECONDS",
    "Debouncer",
    "choose_pin_factory",
    "NoRing",
    "Ring",
    "make_ring",
    "AdalightDriver",
    "LineDriver",
    "WledDriver",
    "VirtualRing",
    "RingDriver",
    "RingUnavailable",
    "RingLayout",
    "RingPicture",
    "render_frame",
]
