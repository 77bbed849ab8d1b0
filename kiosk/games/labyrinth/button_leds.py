"""What the LEDs inside the arcade arrow buttons show, decided from bus events.

In a person's shift phase every arrow is lit except the forbidden one (the
no-push-back rule made visible), and the previewed arrow blinks ("press again
to push"). In the move phase, during AI turns, and with no game, all are dark:
a lit button always means "you can press me now".
"""

from __future__ import annotations

import logging

from engine.labyrinth.parts import Phase
from kiosk.games import HUMAN
from kiosk.core.bus import Bus
from kiosk.core.events import GameAbandoned, GameBegan, KioskStopping
from kiosk.games.labyrinth.events import ARROWS_ORDER, BoardShifted, GameOver, GameStarted, PreviewMoved, TurnChanged

log = logging.getLogger(__name__)


class ButtonLeds:
    """Keeps `leds` (a hardware.ArrowLeds, or anything with ``show(lit, blinking)``) in step."""

    def __init__(self, bus: Bus, leds) -> None:
        self.leds = leds
        self.enabled = True  # False while the operator's button test owns them
        self._kinds: tuple[str, ...] = ()
        self._wanted: tuple[frozenset[str], str | None] = (frozenset(), None)
        self._forbidden: str | None = None
        self._subs = [
            bus.subscribe(GameBegan, self._on_started),
            bus.subscribe(TurnChanged, self._on_turn),
            bus.subscribe(PreviewMoved, self._on_preview),
            bus.subscribe(BoardShifted, lambda e: self._show((), None)),
            bus.subscribe(GameOver, lambda e: self._show((), None)),
            bus.subscribe(GameAbandoned, lambda e: self._show((), None)),
            bus.subscribe(KioskStopping, lambda e: self._show((), None)),
        ]
        self._show((), None)

    @property
    def wanted(self) -> tuple[frozenset[str], str | None]:
        """What the LEDs should show now: ``(lit, blinking)``."""
        return self._wanted

    def close(self) -> None:
        for unsub in self._subs:
            unsub()

    def refresh(self) -> None:
        self._show(*self._wanted)

    def _show(self, lit, blinking: str | None) -> None:
        self._wanted = (frozenset(lit), blinking)
        if not self.enabled:
            return
        try:
            self.leds.show(self._wanted[0], blinking)
        except Exception:
            log.exception("arrow LEDs: show failed")

    def _on_started(self, ev: GameBegan) -> None:
        # any game's start darkens the arrows; the board game's first turn lights them
        self._kinds = tuple(s.kind for s in ev.seating()) if isinstance(ev, GameStarted) else ()
        self._show((), None)

    def _on_turn(self, ev: TurnChanged) -> None:
        if ev.phase == Phase.SHIFT and ev.kind == HUMAN:
            self._forbidden = ev.forbidden
            self._show([a for a in ARROWS_ORDER if a != ev.forbidden], None)
        else:
            self._show((), None)

    def _on_preview(self, ev: PreviewMoved) -> None:
        if ev.player < len(self._kinds) and self._kinds[ev.player] != HUMAN:
            return
        lit = [a for a in ARROWS_ORDER if a != self._forbidden and a != ev.arrow]
        self._show(lit, ev.arrow)
