"""What the UI needs from the kiosk: a typed contract instead of ``Any``.

The UI (kiosk/ui) depends on this Protocol only; :class:`kiosk.core.kiosk.Kiosk`,
the stand-in :class:`kiosk.core.testing.MiniKiosk` and a replay's
:class:`kiosk.ui.screens.playback.ReplayKiosk` satisfy it (mypy checks them against it:
kiosk/core/testing.py). Screens read game state through
``sessions`` (one per registered game, kiosk.games) and change it only by
posting commands on ``bus``.

Members the kiosk may change but the UI only reads are read-only properties
here, so a kiosk may declare them narrower (``Config`` for ``Config | None``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.bus import Bus
    from kiosk.core.clock import Clock
    from kiosk.core.config import Config
    from kiosk.core.events import GameSetup
    from kiosk.store.history import History
    from kiosk.core.session import GameSession


class StartOptions(Protocol):
    """How the kiosk was started, as far as the UI's first screen cares (kiosk.core.kiosk.KioskOptions)."""

    @property
    def setup(self) -> "GameSetup | None":
        """The game to start (``--players``), or None: the visitors set one up."""

    @property
    def start_game(self) -> bool:
        """`setup` is started once at start-up (then the UI opens on its play screen)."""


@runtime_checkable
class KioskView(Protocol):
    """The kiosk as the UI sees it."""

    @property
    def bus(self) -> "Bus":
        """Where screens post commands and hear events."""

    @property
    def clock(self) -> "Clock":
        """The kiosk's clock (virtual in fast and offscreen runs: the UI's timers follow it)."""

    @property
    def config(self) -> "Config | None":
        """The configuration (None: built-in defaults, in demos and tests)."""

    @property
    def sessions(self) -> Mapping[str, "GameSession"]:
        """One session per registered game (kiosk.games), by game name."""

    @property
    def history(self) -> "History | None":
        """The finished games (the operator's statistics); None without a state folder."""

    @property
    def options(self) -> StartOptions | None:
        """How the kiosk was started (None: the test kiosk, started by nobody)."""

    @property
    def stopping(self) -> bool:
        """The kiosk was asked to stop: the display loop ends."""

    @property
    def exit_status(self) -> int:
        """The process's exit status once stopped."""

    @property
    def game_session(self) -> "GameSession":
        """The session whose game runs (or ran last)."""

    def first_player(self, players: int) -> int:
        """Who starts a game set up on the screen ([game] first_player)."""

    def tick(self, budget: float | None = None) -> int:
        """One turn of the loop: timers, then queued messages."""

    def settled(self) -> bool:
        """Nothing will happen without new input (bus empty, no AI acting, no game start pending)."""

    def set_button_test(self, on: bool) -> None:
        """The operator's button test takes the arcade buttons over (or gives them back)."""

    def test_ring(self, rgb: Any) -> None:
        """The operator's ring test paints the ring (None gives it back)."""
