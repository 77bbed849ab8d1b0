"""What every LED-ring driver offers the :class:`~hardware.ring.Ring`, and the
serial plumbing the three device drivers share.

Only the ring's worker thread calls a driver, so drivers need no locks for
their port. A driver raises :class:`RingUnavailable` for anything that means
"the device cannot be reached now"; the worker then closes it and retries.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from typing import TypedDict

from hardware.errors import HardwareError, HardwareSettingError
from hardware.ring.picture import RingPicture

log = logging.getLogger("hardware.ring")


class RingUnavailable(HardwareError):
    """The ring's device is absent, unplugged or not answering."""


class RingDriver:
    """The interface: open, show pictures, poll for replies, close."""

    name = "driver"
    #: it talks to a device on a serial port: ``[ring] port`` must name one
    needs_port = False

    @classmethod
    def build(cls, led_count: int, port: str | None, baud: int) -> "RingDriver":
        """The driver for the ``[ring]`` settings (hardware.ring.make_ring calls this)."""
        return cls(led_count)

    def __init__(self, led_count: int) -> None:
        if not isinstance(led_count, int) or led_count < 1:
            raise HardwareSettingError(f"ring led_count must be at least 1, not {led_count!r}")
        self.led_count = led_count

    def describe(self) -> str:
        return self.name

    def open(self) -> None:
        """Connect to the device; raise :class:`RingUnavailable` when absent."""

    def show(self, picture: RingPicture, now: float) -> float | None:
        """Bring the device up to ``picture`` (resend only what is needed).

        Returns the seconds until the driver wants to be called again (next
        animation frame or keep-alive), or None when only a change matters.
        """
        raise NotImplementedError

    def poll(self) -> None:
        """Read what the device sent; raise :class:`RingUnavailable` when gone."""

    def close(self) -> None:
        """Disconnect; safe to call when not connected."""


class SerialOptions(TypedDict, total=False):
    """The keyword arguments of :class:`SerialRingDriver`, passed on by its subclasses."""

    baud: int
    write_timeout: float


class SerialRingDriver(RingDriver):
    """A ring behind a serial port, opened with pyserial's ``serial_for_url``.

    ``port`` is a device path (use the stable ``/dev/serial/by-id/...``
    name) or any pyserial URL such as ``loop://``. Reads never block
    (timeout 0); a write that cannot finish within ``write_timeout`` seconds
    counts as the device being gone. Everything received is kept, bounded, in
    :meth:`received_bytes` for diagnostics and tests.
    """

    #: Resend an unchanged picture this often, so a device that rebooted on
    #: its own (without the port going away) is back in step soon.
    keepalive = 2.0
    RECEIVED_LIMIT = 64 * 1024
    needs_port = True

    @classmethod
    def build(cls, led_count: int, port: str | None, baud: int) -> "RingDriver":
        if not port:
            raise HardwareSettingError(f"ring driver {cls.name!r} needs a serial port")
        return cls(port, led_count, baud=baud)

    def __init__(self, port: str, led_count: int, *, baud: int = 115200, write_timeout: float = 0.5) -> None:
        super().__init__(led_count)
        if not port:
            raise HardwareSettingError(f"the {self.name} ring needs a serial port")
        self.port = port
        self.baud = int(baud)
        self.write_timeout = write_timeout
        self._serial = None
        self._sent: RingPicture | None = None
        self._sent_at = -math.inf
        self._received = bytearray()
        self._received_lock = threading.Lock()

    def describe(self) -> str:
        where = self.port
        if "://" not in where:
            real = os.path.realpath(where)
            if real != where:
                where = f"{where} -> {real}"
        return f"{self.name} on {where} at {self.baud} baud"

    def open(self) -> None:
        import serial  # noqa: PLC0415 -- pyserial only where a serial ring is opened

        self.close()
        try:
            port = serial.serial_for_url(
                self.port,
                do_not_open=True,
                baudrate=self.baud,
                timeout=0,
                write_timeout=self.write_timeout,
                exclusive=True,
            )
            # Do not assert DTR/RTS: many Arduino and ESP boards reset on it.
            port.dtr = False
            port.rts = False
            port.open()
        except (serial.SerialException, OSError, ValueError) as exc:
            raise RingUnavailable(f"cannot open {self.port}: {exc}") from exc
        self._serial = port
        self._sent = None
        self._sent_at = -math.inf
        try:
            port.reset_input_buffer()
            self.on_open()
        except RingUnavailable:
            self.close()
            raise
        except (serial.SerialException, OSError) as exc:
            self.close()
            raise RingUnavailable(f"{self.port}: {exc}") from exc

    def on_open(self) -> None:
        """Called right after the port opened (a handshake, for instance)."""

    def close(self) -> None:
        port, self._serial = self._serial, None
        self._sent = None
        if port is not None:
            try:
                port.close()
            except Exception:  # closing a vanished device may fail; it is closed anyway
                pass

    def write(self, data: bytes) -> None:
        import serial  # noqa: PLC0415 -- pyserial only where a serial ring is opened

        if self._serial is None:
            raise RingUnavailable("not connected")
        try:
            self._serial.write(data)
        except (serial.SerialException, OSError) as exc:
            raise RingUnavailable(f"write to {self.port} failed: {exc}") from exc

    def poll(self) -> None:
        import serial  # noqa: PLC0415 -- pyserial only where a serial ring is opened

        if self._serial is None:
            raise RingUnavailable("not connected")
        try:
            for _ in range(16):  # bounded: never spin on a chatty device
                data = self._serial.read(4096)
                if not data:
                    break
                with self._received_lock:
                    self._received += data
                    del self._received[: -self.RECEIVED_LIMIT]
                self.on_data(bytes(data))
        except (serial.SerialException, OSError) as exc:
            raise RingUnavailable(f"read from {self.port} failed: {exc}") from exc

    def on_data(self, data: bytes) -> None:
        """Called with every chunk the device sent."""

    def received_bytes(self) -> bytes:
        """The last bytes the device sent (at most 64 KiB)."""
        with self._received_lock:
            return bytes(self._received)

    # Helpers for subclasses: send a still picture once, then keep it alive.
    def due(self, picture: RingPicture, now: float) -> bool:
        return picture != self._sent or now - self._sent_at >= self.keepalive

    def mark_sent(self, picture: RingPicture, now: float) -> None:
        self._sent = picture
        self._sent_at = now

    def until_keepalive(self, now: float) -> float:
        return max(0.0, self.keepalive - (now - self._sent_at))

    def forget_sent(self) -> None:
        """Resend at the next chance (the device said it restarted)."""
        self._sent = None
