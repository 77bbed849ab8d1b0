"""Our own line protocol for a small microcontroller (docs/ring-protocol.md).

ASCII lines ending in ``\\n``. Every command describes the whole ring, so a
resend is harmless and one line after a reconnect restores the picture. The
device answers ``HELLO`` with ``RING <version> <led count>``, announces
itself the same way when it boots (an Arduino resets when the port opens), and
reports a bad line with ``ERR <reason>``. The driver never waits for replies:
it reads them when they come, resends the picture when the device announces a
restart, and logs errors.
"""

from __future__ import annotations

from typing import Unpack

import logging

from hardware.errors import HardwareContractError
from hardware.ring.driver import SerialOptions, SerialRingDriver
from hardware.ring.picture import CELEBRATE, FLASH, IDLE, OFF, SEGMENT, RingPicture

log = logging.getLogger("hardware.ring")

PROTOCOL_VERSION = 2
#: The first version whose SEG and CELEBRATE take a pattern (two more numbers: lit and dark LEDs).
PATTERN_VERSION = 2


def line_commands(picture: RingPicture, version: int = PROTOCOL_VERSION) -> list[str]:
    """The protocol lines (without newline) that show ``picture`` on a device speaking `version`
    (before version 2 without the seat's pattern: such a device would refuse the line)."""
    r, g, b = picture.colour
    bri = f"BRI {picture.brightness}"
    pattern = ""
    if picture.pattern is not None and version >= PATTERN_VERSION:
        pattern = " {} {}".format(*picture.pattern)
    if picture.kind == OFF:
        return ["OFF"]
    if picture.kind == SEGMENT:
        return [bri, f"SEG {picture.start} {picture.count} {r} {g} {b}{pattern}"]
    if picture.kind == FLASH:
        return [bri, f"FLASH {r} {g} {b} {round(picture.seconds * 1000)}"]
    if picture.kind == CELEBRATE:
        return [bri, f"CELEBRATE {r} {g} {b}{pattern}"]
    if picture.kind == IDLE:
        return [bri, "IDLE"]
    raise HardwareContractError(f"unknown picture kind {picture.kind!r}")  # pragma: no cover


class LineDriver(SerialRingDriver):
    """A microcontroller running docs/ring-sketch/ (or anything speaking the protocol)."""

    name = "line"

    def __init__(self, port: str, led_count: int, **kwargs: Unpack[SerialOptions]) -> None:
        super().__init__(port, led_count, **kwargs)
        self._partial = b""
        #: ``(protocol version, LED count)`` the device announced, or None.
        self.device_info: tuple[int, int] | None = None

    def on_open(self) -> None:
        self._partial = b""
        self.device_info = None
        self.write(b"HELLO\n")

    def show(self, picture: RingPicture, now: float) -> float | None:
        if self.due(picture, now):
            # until the device greets, the version 1 lines every version understands
            version = self.device_info[0] if self.device_info is not None else 1
            text = "".join(line + "\n" for line in line_commands(picture, version))
            self.write(text.encode("ascii"))
            self.mark_sent(picture, now)
        return self.until_keepalive(now)

    def on_data(self, data: bytes) -> None:
        lines = (self._partial + data).split(b"\n")
        self._partial = lines.pop()[-256:]
        for raw in lines:
            self._reply(raw.decode("ascii", "replace").strip())

    def _reply(self, line: str) -> None:
        words = line.split()
        if not words:
            return
        if words[0] == "RING":
            try:
                version, leds = int(words[1]), int(words[2])
            except (IndexError, ValueError):
                log.warning("LED ring (%s) sent a malformed greeting %r", self.port, line)
                return
            first = self.device_info is None
            self.device_info = (version, leds)
            self.forget_sent()  # it (re)started: send the picture again
            if first:
                log.info("LED ring on %s speaks protocol %d with %d LEDs", self.port, version, leds)
            if version < PATTERN_VERSION:
                log.warning(
                    "LED ring on %s speaks protocol %d: it shows the seats' colours but not their patterns "
                    "(version %d; docs/ring-protocol.md)",
                    self.port,
                    version,
                    PATTERN_VERSION,
                )
            elif version != PROTOCOL_VERSION:
                log.warning(
                    "LED ring on %s speaks protocol %d; this kiosk speaks %d", self.port, version, PROTOCOL_VERSION
                )
            if leds != self.led_count:
                log.warning("LED ring on %s has %d LEDs but the config says %d", self.port, leds, self.led_count)
        elif words[0] == "ERR":
            log.warning("LED ring on %s refused a command: %s", self.port, line[3:].strip())
        else:
            log.debug("LED ring on %s said %r", self.port, line)
