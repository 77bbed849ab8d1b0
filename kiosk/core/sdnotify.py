"""Talking to systemd (``Type=notify``, ``WatchdogSec=``) without libsystemd.

The protocol is one datagram of ``KEY=value`` lines sent to the AF_UNIX
socket named in ``$NOTIFY_SOCKET`` (a path, or ``@name`` for the abstract
namespace). Outside systemd the variable is unset and every call is a no-op,
so the kiosk can call these unconditionally.

The watchdog is pinged from the main loop, never from a thread of its own:
a hung main loop then stops the pings and systemd restarts the service. That
is the point of the watchdog. :class:`Watchdog` rate-limits the pings to half
the interval systemd asked for (``$WATCHDOG_USEC``).

Under cage the kiosk is a child of the compositor, so ``$WATCHDOG_PID`` names
the unit's main process (the start command's shell), not us; the unit sets
``NotifyAccess=all`` and we ignore that variable. READY=1 is sent once the
first frame is on the screen (``Kiosk.report_ready``), headless right after
start.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from typing import Callable, Mapping

log = logging.getLogger(__name__)


class Notifier:
    """Sends state changes to systemd; does nothing when not started by systemd."""

    def __init__(self, env: Mapping[str, str] | None = None):
        env = os.environ if env is None else env
        self.socket_name = env.get("NOTIFY_SOCKET", "")
        self.address = self._address(self.socket_name)
        usec = env.get("WATCHDOG_USEC", "")
        self.watchdog_usec = int(usec) if usec.isdigit() and int(usec) > 0 else None
        self._sock: socket.socket | None = None
        self._warned = False

    @staticmethod
    def _address(value: str) -> str | bytes | None:
        if not value:
            return None
        if value.startswith("@"):
            return b"\0" + value[1:].encode()  # abstract namespace
        if value.startswith("/"):
            return value
        log.warning("NOTIFY_SOCKET=%r is not a socket path this kiosk understands; not notifying systemd", value)
        return None

    @property
    def enabled(self) -> bool:
        return self.address is not None

    @property
    def watchdog_interval_s(self) -> float | None:
        """How often to ping: half the watchdog timeout, or None without a watchdog."""
        return None if self.watchdog_usec is None else self.watchdog_usec / 2e6

    def notify(self, *lines: str) -> bool:
        """Send ``KEY=value`` lines as one message; True if systemd got it. Never raises."""
        if self.address is None:
            return False
        message = "\n".join(lines).encode("utf-8")
        try:
            if self._sock is None:
                self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            self._sock.sendto(message, self.address)
        except OSError as e:
            if not self._warned:  # once: a lost systemd socket must not flood the journal
                log.warning("could not notify systemd at %s: %s", self.socket_name, e)
                self._warned = True
            self.close()
            return False
        return True

    def ready(self, status: str | None = None) -> bool:
        """Start-up is complete: systemd considers the service started from now on."""
        return self.notify("READY=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def status(self, text: str) -> bool:
        """Free text shown by ``systemctl status``."""
        return self.notify(f"STATUS={_one_line(text)}")

    def watchdog(self) -> bool:
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str | None = None) -> bool:
        return self.notify("STOPPING=1", *([f"STATUS={_one_line(status)}"] if status else []))

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


class Watchdog:
    """Call :meth:`kick` every main-loop iteration; it pings systemd at half the timeout."""

    def __init__(self, notifier: Notifier, clock: Callable[[], float] = time.monotonic):
        self.notifier = notifier
        self.interval = notifier.watchdog_interval_s
        self.clock = clock
        self._last: float | None = None

    @property
    def enabled(self) -> bool:
        return self.interval is not None and self.notifier.enabled

    def due_in(self) -> float | None:
        """Seconds until :meth:`kick` must run again to ping in time (None: no watchdog), so a loop
        that sleeps while nothing happens still wakes for it."""
        if self.interval is None or not self.notifier.enabled:
            return None
        if self._last is None:
            return 0.0
        return max(0.0, self._last + self.interval - self.clock())

    def kick(self) -> bool:
        """Ping if half the watchdog interval has passed since the last ping; True if sent."""
        interval = self.interval
        if interval is None or not self.notifier.enabled:
            return False
        now = self.clock()
        if self._last is not None and now - self._last < interval:
            return False
        self._last = now
        return self.notifier.watchdog()


__all__ = ["Notifier", "Watchdog"]
