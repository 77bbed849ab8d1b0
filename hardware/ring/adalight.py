"""Adalight: raw pixel frames over serial, animations rendered here.

Frame: ``b"Ada"``, the LED count minus one as two bytes (high, low), a
checksum byte (high XOR low XOR 0x55), then red, green, blue for every LED.
Understood by the classic Adalight Arduino sketch, by WLED (which also accepts
it on its serial port) and by many bias-lighting controllers. Devices drop back
to their own idea of the lights when frames stop arriving (WLED after a few
seconds), so still pictures are resent every second.
"""

from __future__ import annotations

from typing import Unpack

from hardware.errors import HardwareSettingError
from hardware.ring.driver import SerialOptions, SerialRingDriver
from hardware.ring.picture import RGB, RingPicture, render_frame

FRAMES_PER_SECOND = 30


def adalight_frame(colours: list[RGB]) -> bytes:
    """One Adalight frame for ``colours`` (one ``(r, g, b)`` per LED)."""
    if not colours:
        raise HardwareSettingError("an Adalight frame needs at least one LED")
    hi, lo = divmod(len(colours) - 1, 256)
    if hi > 255:
        raise HardwareSettingError(f"Adalight frames carry at most 65536 LEDs, not {len(colours)}")
    body = bytearray(b"Ada")
    body += bytes((hi, lo, hi ^ lo ^ 0x55))
    for r, g, b in colours:
        body += bytes((r, g, b))
    return bytes(body)


class AdalightDriver(SerialRingDriver):
    """Streams pixel frames: up to 30 a second while animating, 1 a second when still."""

    name = "adalight"
    keepalive = 1.0

    def __init__(self, port: str, led_count: int, **kwargs: Unpack[SerialOptions]) -> None:
        super().__init__(port, led_count, **kwargs)
        self._last_frame: list[RGB] | None = None
        # Long rings at low baud rates cannot take 30 frames a second: use at
        # most 80 % of the link (10 bits a byte) so writes never back up.
        seconds_per_frame = (6 + 3 * led_count) * 10 / self.baud
        self.frame_interval = max(1.0 / FRAMES_PER_SECOND, seconds_per_frame / 0.8)

    def open(self) -> None:
        self._last_frame = None
        super().open()

    def show(self, picture: RingPicture, now: float) -> float | None:
        frame = render_frame(picture, self.led_count, now)
        if frame != self._last_frame or self.due(picture, now):
            self.write(adalight_frame(frame))
            self._last_frame = frame
            self.mark_sent(picture, now)
        if picture.animated:
            return self.frame_interval
        return self.until_keepalive(now)
