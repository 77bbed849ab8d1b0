"""What the UI needs from the kiosk: a typed contract instead of ``Any``.

The UI (kiosk/ui) depends on this Protocol only; :class:`kiosk.app.Kiosk`
and the stand-in :class:`kiosk.testing.MiniKiosk` both satisfy it. Screens
read game state through ``sessions`` (one per registered game, kiosk.games)
and change it only by posting commands on ``bus``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:                                   # pragma: no cover
    from kiosk.bus import Bus
    from kiosk.clock import Clock
    from kiosk.session_base import GameSession


@runtime_checkable
class KioskView(Protocol):
    """The kiosk as the UI sees it."""

    bus: "Bus"
    clock: "Clock"
    config: Any                                   # kiosk.config.Config, or None (demos, tests)
    sessions: Mapping[str, "GameSession"]

    @property
    def game_session(self) -> "GameSession":
        """The session whose game runs (or ran last)."""

    def first_player(self, players: int) -> int:
        """Who starts a game set up on the screen ([game] first_player)."""

    def tick(self, budget: float | None = None) -> int:
        """One turn of the loop: timers, then queued messages."""

    def set_button_test(self, on: bool) -> None:
        """The operator's button test takes the arcade buttons over (or gives them back)."""

    def test_ring(self, rgb: Any) -> None:
        """The operator's ring test paints the ring (None gives it back)."""
