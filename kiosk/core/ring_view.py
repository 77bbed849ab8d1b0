"""What the LED ring shows, decided from bus events.

The ring adapter (hardware/) knows colours and seats, not the game; this
subscriber translates: the current player's colour and pattern (lit and dark
LEDs: the seat is told apart without colour, kiosk/core/seat_marks.py) on the
arc facing their seat, a short red flash on a refused input, a chase in the
winner's colour and pattern at the end, and the slow idle animation when
nobody plays (no game, a game abandoned, a demo game of AI seats only, and a
while after a game ended).
Every call into the ring is non-blocking (its own thread talks to the device).
"""

from __future__ import annotations

import logging
from typing import Any

from hardware.ring.layout import RingLayout
from kiosk.games import HUMAN
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock
from kiosk.core.seat_marks import BY_NAME, SEATS
from kiosk.core.events import (
    GameAbandoned,
    GameBegan,
    GameEnded,
    IllegalInput,
    KioskStopping,
    SeatCalled,
    SeatChanged,
    TurnBegan,
)

log = logging.getLogger(__name__)

#: The pawn colours as LED colours (kiosk/core/seat_marks.py).
PAWN_RGB: dict[str, tuple[int, int, int]] = {s.name: s.led for s in SEATS}
ILLEGAL_RGB = (255, 0, 0)
#: A called seat ("Red, still there?") pulses between its colour and white, this many times a second.
CALL_RGB = (255, 255, 255)
CALL_PULSE_HZ = 2.0


class RingView:
    """Keeps `ring` (a hardware.Ring, NoRing, or anything with the same calls) in step with the game.

    ``show_ai_games``: False (the kiosk) idles during demo games with no human
    seat; True (headless runs, the simulator) follows every game.
    ``idle_after_s``: how long the winner's celebration runs before idling.
    """

    def __init__(
        self, bus: Bus, ring: Any, clock: Clock, *, show_ai_games: bool = False, idle_after_s: float = 12.0
    ) -> None:
        self.ring = ring
        self.clock = clock
        self.show_ai_games = show_ai_games
        self.idle_after_s = idle_after_s
        self.enabled = True  # False while the operator's ring test paints it
        self._seats: dict[int, tuple[int, str]] = {}  # player -> (seat, colour)
        self._arcs: RingLayout | None = None  # card game: equal arcs per player
        self._following = False
        self._idle_timer: Any = None  # the clock's timer that idles the ring after a celebration
        self._last: tuple[Any, ...] | None = None
        self._calling: tuple[int, float] | None = None  # (player, until): the seat being called
        self._call_timer: Any = None
        self._call_bright = False
        self._subs = [
            bus.subscribe(GameBegan, self._on_started),
            bus.subscribe(TurnBegan, self._on_turn),
            bus.subscribe(IllegalInput, self._on_illegal),
            bus.subscribe(GameEnded, self._on_over),
            bus.subscribe(SeatCalled, self._on_seat_called),
            bus.subscribe(SeatChanged, lambda e: self._stop_call()),
            bus.subscribe(GameAbandoned, lambda e: self.idle()),
            bus.subscribe(KioskStopping, lambda e: self._call("off")),
        ]
        self.idle()

    def close(self) -> None:
        for unsub in self._subs:
            unsub()
        self._cancel_idle()
        self._stop_call(show=False)

    # ------------------------------------------------------------ pictures
    def idle(self) -> None:
        self._cancel_idle()
        self._stop_call(show=False)
        self._following = False
        self._call("idle")

    def _call(self, what: str, *args: Any) -> None:
        """Call the ring; a broken ring must never break the game."""
        self._last = (what, *args)
        if not self.enabled:
            return
        try:
            getattr(self.ring, what)(*args)
        except Exception:
            log.exception("LED ring: %s%s failed", what, args)

    def refresh(self) -> None:
        """Show the last picture again (after the operator's ring test)."""
        if self._last is not None:
            self._call(*self._last)

    def _cancel_idle(self) -> None:
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None

    # ------------------------------------------------------------ events
    def _on_started(self, ev: GameBegan) -> None:
        """Any game: fixed seats (the board's corners) or one equal arc per player round the table."""
        self._cancel_idle()
        seating = ev.seating()
        self._seats = {s.index: (s.seat, s.color) for s in seating}
        self._arcs = _arcs(self.ring, len(seating)) if ev.around_the_table else None
        self._following = self.show_ai_games or any(s.kind == HUMAN for s in seating)
        if not self._following:
            self._call("idle")

    def _on_turn(self, ev: TurnBegan) -> None:
        self._stop_call(show=False)
        self._show_player(ev.player)

    def _show_player(self, player: int, rgb: tuple[int, int, int] | None = None) -> None:
        """`player`'s arc in their colour (or `rgb`): whose turn it is."""
        if not self._following or player not in self._seats:
            return
        seat, colour = self._seats[player]
        rgb = rgb or PAWN_RGB.get(colour, (255, 255, 255))
        pattern = _pattern(colour)
        if self._arcs is not None:
            self._call("show_segment", *self._arcs.segment(seat), rgb, pattern)
        else:
            self._call("show_seat", seat, rgb, pattern)

    def _on_seat_called(self, ev: SeatCalled) -> None:
        """ "Red, still there?": Red's arc pulses (colour, white) for the call's seconds."""
        self._stop_call()
        if ev.seconds <= 0 or not self._following or ev.player not in self._seats:
            return
        self._calling = (ev.player, self.clock.now() + ev.seconds)
        self._pulse()

    def _pulse(self) -> None:
        call = self._calling
        if call is None:
            return
        player, until = call
        if self.clock.now() >= until:
            self._stop_call()
            return
        self._call_bright = not self._call_bright
        self._show_player(player, CALL_RGB if self._call_bright else None)
        self._call_timer = self.clock.call_later(0.5 / CALL_PULSE_HZ, self._pulse)

    def _stop_call(self, show: bool = True) -> None:
        """The call is over: the arc in the player's colour again (`show`)."""
        if self._call_timer is not None:
            self._call_timer.cancel()
            self._call_timer = None
        call, self._calling, self._call_bright = self._calling, None, False
        if call is not None and show:
            self._show_player(call[0])

    def _on_illegal(self, ev: IllegalInput) -> None:
        # Every refusal answers a person's input (computer seats are not refused), whether the
        # game is followed or not: a button pressed during a demo game flashes too.
        self._call_flash()

    def _call_flash(self) -> None:
        if not self.enabled:
            return
        try:
            self.ring.flash(ILLEGAL_RGB)
        except Exception:
            log.exception("LED ring: flash failed")

    def _on_over(self, ev: GameEnded) -> None:
        if not self._following:
            return
        _, colour = self._seats.get(ev.winners[0] if ev.winners else 0, (0, "red"))
        self._call("celebrate", PAWN_RGB.get(colour, (255, 255, 255)), _pattern(colour))
        self._cancel_idle()
        self._idle_timer = self.clock.call_later(self.idle_after_s, self.idle)


def _pattern(colour: str) -> tuple[int, int] | None:
    """The seat's own pattern of lit and dark LEDs (kiosk/core/seat_marks.py), or None (solid)."""
    mark = BY_NAME.get(colour)
    return None if mark is None else mark.ring


def _arcs(ring: Any, players: int) -> "RingLayout | None":
    """Equal arcs for `players` seats on `ring` (its LED count, offset and direction), or None.

    Fixed seats (the board's four corners) use the ring's seat arcs (possibly
    placed by hand in ``[ring] seat_segments``); players evenly round the
    table get the ring cut anew. None when the ring does not say its layout (then
    the seat arcs are used as they are).
    """

    layout = getattr(ring, "layout", None)
    if layout is None or layout.led_count < players:
        return None
    return RingLayout(layout.led_count, players, layout.offset, layout.reverse)
