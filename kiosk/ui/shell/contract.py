"""What the UI needs from the kiosk: a typed contract instead of ``Any``.

The UI (kiosk/ui) depends on this Protocol only; :class:`kiosk.core.kiosk.Kiosk`,
the stand-in :class:`kiosk.core.testing.MiniKiosk` and a replay's
:class:`kiosk.ui.screens.playback.ReplayKiosk` satisfy it (mypy checks them against it:
kiosk/core/testing.py). Screens read game state through
``sessions`` (one per registered game, kiosk.games) and change it only by
posting commands on ``bus``.

Members the kiosk may change but the UI only reads are read-only properties
here, so a kiosk may declare them narrower (``Config`` for ``Config | None``).

:class:`UIView` is the other side: the UI (kiosk/ui/shell/window.py ``UI``) as a screen or a part
of one sees it, so a screen asks the shell by name and type, not with ``getattr(ui, name, default)``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, runtime_checkable

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.core.bus import Bus
    from kiosk.core.clock import Clock
    from kiosk.core.config import Config
    from kiosk.core.events import GameSetup
    from kiosk.store.history import History
    from kiosk.core.session import GameSession
    from kiosk.themes import Theme
    from kiosk.ui.kit.i18n import Texts
    from kiosk.ui.kit.layout import Layout, Rect


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
    def sessions(self) -> Mapping[str, "GameSession[Any]"]:
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
    def pins_problem(self) -> str | None:
        """Why the arcade buttons cannot work (no real pins on a Raspberry Pi), or None."""

    @property
    def game_session(self) -> "GameSession[Any]":
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


class UIView(Protocol):
    """The UI as a screen, or a part of one, sees it (kiosk/ui/shell/window.py ``UI``)."""

    #: the UI's clock: seconds (virtual in fast and offscreen runs)
    now: Callable[[], float]

    @property
    def kiosk(self) -> KioskView:
        """The kiosk the UI shows."""

    @property
    def layout(self) -> "Layout":
        """The screen's size and layout (tabletop or upright) now."""

    @property
    def window(self) -> Any:
        """The pyglet window (its GL context: ``switch_to`` before making textures)."""

    @property
    def theme(self) -> "Theme | None":
        """The theme the operator chose (its treasures and names), None: the built-in one."""

    @property
    def translator(self) -> "Texts":
        """The texts in the visitors' language."""

    @property
    def high_contrast(self) -> bool:
        """The low-vision palette is on."""

    @property
    def atlas(self) -> Any:
        """The board game's drawings at the current cell size (kiosk/ui/art)."""

    def t(self, key: str, **fields: Any) -> str:
        """Text `key` in the visitors' language."""

    def post(self, command: Any) -> None:
        """A command on the kiosk's bus."""

    def request_frame(self) -> None:
        """Draw the next frame even if nothing in the frame cache changed."""

    def invalidate(self, rect: "Rect | None" = None) -> None:
        """The still picture changed inside `rect` (None: anywhere): the frame cache draws it again."""

    def goto(self, name: str, **kw: Any) -> Any:
        """Show screen `name` (``ui.goto``)."""


if TYPE_CHECKING:  # pragma: no cover
    from kiosk.ui.shell.window import UI

    def _ui_is_a_view(ui: UI) -> UIView:
        """mypy holds the UI to what a screen sees of it."""
        return ui
