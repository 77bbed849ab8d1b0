"""A stand-in kiosk for the UI, its tests and the UI benchmark (like gpiozero's MockFactory).

:class:`MiniKiosk` is the real bus, a clock and every registered game's real
session -- everything of :class:`kiosk.core.kiosk.Kiosk` a screen talks to, without
hardware, persistence or the systemd watchdog. It answers the contract the UI
depends on (:class:`kiosk.ui.shell.contract.KioskView`), so a screen that works
with it works with the kiosk.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock, VirtualClock
from kiosk.core.events import Message
from kiosk.core.session import GameSession

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.kiosk import Kiosk
    from kiosk.store.history import History
    from kiosk.ui.shell.contract import KioskView, StartOptions
    from kiosk.ui.screens.playback import ReplayKiosk


class MiniKiosk:
    """The real bus, clock and sessions, ticked by the UI like the kiosk does.

    ``seen`` keeps every message dispatched; ``button_test`` and ``ring`` record
    the operator page's calls.
    """

    def __init__(self, config: Any = None, clock: Clock | None = None) -> None:
        self.clock = clock or VirtualClock()
        self.bus = Bus()
        self.config = config
        options = games.SessionOptions(
            self.bus, self.clock, fast=True, config=config, button_test=lambda: self.button_test[-1:] == [True]
        )
        self.sessions: dict[str, GameSession[Any]] = {g.name: g.session(options) for g in games.all_games()}
        self.seen: list[Message] = []
        self.bus.subscribe_all(self.seen.append)
        self.button_test: list[bool] = []
        self.ring: list[tuple[int, int, int] | None] = []
        self.history: History | None = None  # no state folder: no statistics
        self.options: StartOptions | None = None  # nobody started it with a game
        self.stopping = False
        self.exit_status = 0
        self.pins_problem: str | None = None  # mock pins, as on a PC: nothing to report

    @property
    def game_session(self) -> GameSession[Any]:
        session: GameSession[Any] = games.session_in_play(self.sessions)
        return session

    def first_player(self, players: int) -> int:
        return 0

    def tick(self, budget: float | None = None) -> int:
        self.clock.run_due()
        return self.bus.dispatch_pending()

    def settled(self) -> bool:
        return not self.bus.pending() and not any(s.busy for s in self.sessions.values())

    def of(self, cls: type) -> list[Any]:
        return [e for e in self.seen if isinstance(e, cls)]

    def set_button_test(self, on: bool) -> None:
        self.button_test.append(on)

    def test_ring(self, rgb: tuple[int, int, int] | None) -> None:
        self.ring.append(rgb)

    def close(self) -> None:
        for session in self.sessions.values():
            session.close()


if TYPE_CHECKING:  # pragma: no cover

    def _all_answer_the_contract(
        mini: MiniKiosk, kiosk: Kiosk, replay: ReplayKiosk
    ) -> tuple[KioskView, KioskView, KioskView]:
        """Checked by mypy only: the test kiosk, the kiosk and a replay's kiosk satisfy the UI's contract."""
        return mini, kiosk, replay
