"""Log lines for a terminal or for the journal.

Under systemd (the unit sends stderr to the journal) journald reads a
``<N>`` prefix on each line as its syslog priority (``SyslogLevelPrefix=``,
on by default). Without it every line is stored at priority 6 (info) and
``journalctl -p warning`` shows none of the kiosk's warnings. systemd says it
is listening by setting ``$JOURNAL_STREAM`` to ``device:inode`` of the stream
it connected; we prefix only when stderr *is* that stream, so a run started
from a service but redirected to a file (or a terminal) keeps plain lines.

Every line of a multi-line record (a traceback) carries the prefix, or
journald would file the continuation lines at info.
"""

from __future__ import annotations

import logging
import os
import sys
import time
from typing import IO, Callable, Mapping

#: syslog priorities (RFC 5424) of Python's levels.
PRIORITIES = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}
PLAIN_FORMAT = "%(levelname)s %(name)s: %(message)s"
# journald adds time, host and unit itself; the level is in the prefix.
JOURNAL_FORMAT = "%(name)s: %(message)s"


def syslog_priority(levelno: int) -> int:
    """The syslog priority of a Python level (levels between the named ones round down in severity)."""
    for level in (logging.CRITICAL, logging.ERROR, logging.WARNING, logging.INFO):
        if levelno >= level:
            return PRIORITIES[level]
    return PRIORITIES[logging.DEBUG]


class JournalFormatter(logging.Formatter):
    """``<N>`` before every line of the formatted record."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"<{syslog_priority(record.levelno)}>"
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


def stream_is_journal(stream: IO, env: Mapping[str, str] | None = None) -> bool:
    """True when `stream` is the journal stream systemd announced in ``$JOURNAL_STREAM``."""
    env = os.environ if env is None else env
    announced = env.get("JOURNAL_STREAM", "")
    dev, sep, ino = announced.partition(":")
    if not (sep and dev.isdigit() and ino.isdigit()):
        return False
    try:
        st = os.fstat(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return False
    return (st.st_dev, st.st_ino) == (int(dev), int(ino))


#: ``extra=`` of a record that is never held back as a repeat: each one says something new (a
#: finished game lost to a full disk), however many come in a minute.
EVERY_TIME = {"every_time": True}


class RepeatFilter(logging.Filter):
    """Warnings and errors that repeat are logged once, then once a `window` with a count.

    A ring that answers every command with ``ERR``, a full disk that refuses
    every save: months unattended would fill the journal (and its rate limit
    would then drop other messages). Records are the same when their logger,
    level and message template (before ``%`` formatting) are; the first passes,
    the next ones within `window` seconds are counted and dropped, and the
    first after the window passes saying how many were held back.
    """

    def __init__(
        self,
        window: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
        level: int = logging.WARNING,
        keep: int = 1000,
    ) -> None:
        super().__init__()
        self.window, self.clock, self.level, self.keep = window, clock, level, keep
        self._seen: dict[tuple, list] = {}  # key -> [time of the last record let through, held back]

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < self.level or getattr(record, "every_time", False):
            return True
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        entry = self._seen.get(key)
        if entry is not None and now - entry[0] < self.window:
            entry[1] += 1
            return False
        if entry is not None and entry[1]:
            record.msg = (
                f"{record.msg} [the same message came {entry[1]} more time(s) in the "
                f"{now - entry[0]:.0f} s before, not shown]"
            )
        self._seen.pop(key, None)
        self._seen[key] = [now, 0]
        if len(self._seen) > self.keep:
            del self._seen[next(iter(self._seen))]
        return True

    def held_back(self) -> int:
        """Records dropped so far and not yet reported (tests, the operator menu)."""
        return sum(n for _, n in self._seen.values())


def setup(level: str | int = "INFO", stream: IO | None = None, env: Mapping[str, str] | None = None) -> logging.Handler:
    """Configure the root logger like ``logging.basicConfig``: journal lines under systemd, plain
    lines otherwise; a root logger that already has handlers (a test harness) is left alone."""
    stream = sys.stderr if stream is None else stream
    handler = logging.StreamHandler(stream)
    if stream_is_journal(stream, env):
        handler.setFormatter(JournalFormatter(JOURNAL_FORMAT))
    else:
        handler.setFormatter(logging.Formatter(PLAIN_FORMAT))
    handler.addFilter(RepeatFilter())
    root = logging.getLogger()
    if not root.handlers:
        root.addHandler(handler)
    root.setLevel(level.upper() if isinstance(level, str) else level)
    return handler
