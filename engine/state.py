"""The contract every game's engine state keeps: what the kiosk and the simulator may rely on.

Each game is a package of its own (``engine.labyrinth``, ``engine.cards``); its
state class satisfies :class:`GameState` structurally, like python-chess's
``Board`` API or an OpenSpiel ``State``: the kiosk's sessions, saves, records
and the conformance test over every registered game use only these members.
"""

from __future__ import annotations

from typing import Any, Protocol, Self, runtime_checkable

from engine.outcome import Outcome


@runtime_checkable
class GameState(Protocol):
    """One game in progress: whose turn, what may be played, playing it, copying and saving it.

    ``apply`` raises :class:`engine.errors.IllegalAction` and leaves the state
    unchanged when the action is not allowed; ``phase`` is ``"over"`` exactly
    when ``outcome`` is set.
    """

    @property
    def phase(self) -> str: ...
    @property
    def current(self) -> int: ...
    @property
    def seed(self) -> int | None: ...
    @property
    def turns(self) -> int: ...
    @property
    def num_players(self) -> int: ...
    @property
    def outcome(self) -> Outcome | None: ...

    def legal_actions(self) -> list[Any]:
        """Every action the current player may play now (empty once the game is over)."""
        ...

    def apply(self, action: Any) -> None:
        """Play `action` for the current player."""
        ...

    def copy(self) -> Self:
        """An independent copy: playing on it never changes this state."""
        ...

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready picture of the whole state, read back by the class's ``from_dict``."""
        ...
