"""Adapters for the physical devices, knowing nothing of the game.

- :class:`ArrowButtons` reports debounced presses of the arrow, rotate and
  stay buttons by name; :class:`ArrowLeds` lights the LEDs in the arrows.
- :class:`Ring` (or :func:`make_ring` from config) shows a seat's colour,
  flashes, celebrates or idles on a serial LED ring, from its own thread.
- :func:`choose_pin_factory` picks gpiozero's pin library, falling back to
  simulated pins off a Raspberry Pi.
"""

from .buttons import (ARROWS, BUTTON_NAMES, DEFAULT_BUTTON_PINS, DEFAULT_LED_PINS,
                      EXTRA_BUTTONS, ArrowButtons, ArrowLeds)
from .debounce import DEFAULT_BOUNCE_SECONDS, Debouncer
from .pins import choose_pin_factory
from .ring import DRIVERS as RING_DRIVERS
from .ring import SERIAL_DRIVERS as SERIAL_RING_DRIVERS
from .ring import NoRing, Ring, make_ring
from .ring_adalight import AdalightDriver
from .ring_driver import RingDriver, RingUnavailable
from .ring_layout import RingLayout
from .ring_line import LineDriver
from .ring_picture import RingPicture, render_frame
from .ring_virtual import VirtualRing
from .ring_wled import WledDriver

__all__ = [
    "ARROWS", "BUTTON_NAMES", "DEFAULT_BUTTON_PINS", "DEFAULT_LED_PINS", "EXTRA_BUTTONS",
    "ArrowButtons", "ArrowLeds", "DEFAULT_BOUNCE_SECONDS", "Debouncer",
    "choose_pin_factory", "RING_DRIVERS", "SERIAL_RING_DRIVERS", "NoRing", "Ring", "make_ring",
    "AdalightDriver", "LineDriver", "WledDriver", "VirtualRing", "RingDriver",
    "RingUnavailable", "RingLayout", "RingPicture", "render_frame",
]
