"""The event bus: any thread posts, only the main loop dispatches, in order.

Why this shape: gpiozero callbacks, serial readers and AI workers run on their
own threads, while game state and drawing belong to the main loop. So
``post()`` only appends to one queue (a lock held for an append), and
``dispatch_pending()`` — called by the main loop once per frame/tick — hands
queued messages to their handlers in the order they were posted. A handler
that causes further messages posts them; they join the end of the queue and
are dispatched later in the same call or the next one, never recursively.
A budget (count and/or seconds) keeps a flood from stalling a frame, and a
handler that raises is logged and skipped: one broken view cannot stop the game.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from typing import Any, Callable, Iterable, TypeVar, overload

from kiosk.core.events import Message

log = logging.getLogger(__name__)

Handler = Callable[[Message], None]
_M = TypeVar("_M", bound=Message)


class Bus:
    """One queue of messages; subscribe by message class (or its ``type`` name), or to all."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter):
        self._queue: collections.deque[tuple[Message, float]] = collections.deque()
        # An RLock, so a signal handler on the main thread may post() even mid-dispatch.
        self._cond = threading.Condition(threading.RLock())
        self._clock = clock
        self._by_class: dict[type, list[Handler]] = {}
        self._by_name: dict[str, list[Handler]] = {}
        self._all: list[Handler] = []
        self._route_cache: dict[type, tuple[Handler, ...]] = {}
        self._main_thread: int | None = None
        self._dispatching = False
        self.dispatched = 0  # messages handed out so far
        self.errors = 0  # handler exceptions caught so far
        self.on_dispatch: Callable[[Message, float], None] | None = None  # (message, seconds queued)
        # called after every post, on the posting thread: a display loop that sleeps while nothing
        # happens sets it to wake itself (kiosk/ui/shell/runner.py); it must be thread-safe and quick
        self.on_post: Callable[[], None] | None = None

    # ------------------------------------------------------------ posting (any thread)
    def post(self, msg: Message) -> None:
        """Queue `msg` for dispatch by the main loop. Safe from any thread; never blocks on handlers."""
        if not isinstance(msg, Message):
            raise TypeError(f"only kiosk.core.events messages go on the bus, not {msg!r}")
        with self._cond:
            self._queue.append((msg, self._clock()))
            self._cond.notify_all()
        wake = self.on_post
        if wake is not None:
            wake()

    def post_all(self, msgs: Iterable[Message]) -> None:
        for m in msgs:
            self.post(m)

    def pending(self) -> int:
        """How many messages wait for dispatch."""
        return len(self._queue)

    def wait(self, timeout: float | None) -> bool:
        """Block until a message is queued or `timeout` seconds pass; True if one is waiting."""
        with self._cond:
            if self._queue:
                return True
            self._cond.wait(timeout)
            return bool(self._queue)

    # ------------------------------------------------------------ subscribing (main thread)
    @overload
    def subscribe(self, kind: type[_M], handler: Callable[[_M], None]) -> Callable[[], None]: ...

    @overload
    def subscribe(self, kind: str, handler: Callable[[Any], None]) -> Callable[[], None]: ...

    def subscribe(self, kind: Any, handler: Any) -> Callable[[], None]:
        """Call `handler(msg)` for messages of class `kind` (subclasses included) or type name.

        ``kind`` may be a base class (``Event``, ``Command``) to get a whole family.
        Returns a function that unsubscribes.
        """
        table = self._by_name if isinstance(kind, str) else self._by_class
        table.setdefault(kind, []).append(handler)
        self._route_cache.clear()

        def unsubscribe() -> None:
            try:
                table[kind].remove(handler)
            except (KeyError, ValueError):
                pass
            self._route_cache.clear()

        return unsubscribe

    def subscribe_all(self, handler: Handler) -> Callable[[], None]:
        """Call `handler` for every message (event logs, tests). Runs before typed handlers."""
        self._all.append(handler)
        self._route_cache.clear()

        def unsubscribe() -> None:
            if handler in self._all:
                self._all.remove(handler)
            self._route_cache.clear()

        return unsubscribe

    def _route(self, cls: type) -> tuple[Handler, ...]:
        route = self._route_cache.get(cls)
        if route is None:
            handlers: list[Handler] = list(self._all)
            handlers += self._by_name.get(getattr(cls, "type", ""), ())
            for base in cls.__mro__:
                handlers += self._by_class.get(base, ())
            route = self._route_cache[cls] = tuple(handlers)
        return route

    # ------------------------------------------------------------ dispatching (main thread)
    def dispatch_pending(self, max_count: int | None = None, max_seconds: float | None = None) -> int:
        """Hand queued messages to their handlers in order; return how many were dispatched.

        Stops after `max_count` messages or once `max_seconds` have been spent
        (checked between messages), leaving the rest for the next call. Messages
        posted by handlers during this call are dispatched in the same call,
        budget permitting.
        """
        if self._dispatching:
            raise RuntimeError("dispatch_pending() called from a handler: post() instead")
        ident = threading.get_ident()
        if self._main_thread is None:
            self._main_thread = ident
        elif self._main_thread != ident:
            raise RuntimeError("dispatch_pending() must always be called from the same (main) thread")
        start = time.perf_counter()
        count = 0
        queue = self._queue
        self._dispatching = True
        try:
            while queue:
                if max_count is not None and count >= max_count:
                    break
                if max_seconds is not None and count and time.perf_counter() - start >= max_seconds:
                    break
                with self._cond:
                    msg, posted = queue.popleft()
                if self.on_dispatch is not None:
                    self.on_dispatch(msg, self._clock() - posted)
                for handler in self._route(type(msg)):
                    try:
                        handler(msg)
                    except Exception:
                        self.errors += 1
                        log.exception("handler %s failed on %s", _name(handler), msg.type)
                count += 1
        finally:
            self._dispatching = False
        self.dispatched += count
        return count

    def drain(self, max_messages: int = 100_000) -> int:
        """Dispatch until the queue is empty (tests, headless runs); guards against endless posting."""
        n = self.dispatch_pending(max_count=max_messages)
        if self._queue:
            raise RuntimeError(f"bus still busy after {max_messages} messages: handlers keep posting")
        return n


def _name(handler: Handler) -> str:
    return getattr(handler, "__qualname__", None) or repr(handler)
