"""What an analysis of a record says: marks on turns worth a second look (``labyrinth-replay --analyze``).

Each game analyses its own records (engine/labyrinth/analysis.py,
engine/cards/analysis.py, declared to the kiosk by the game's ``analyze``);
they all answer with :class:`Mark` so the command prints and exports them alike.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, TypeVar

from engine.records.notation import Record, RecordedState


@dataclass
class Mark:
    """One remark on one turn, for people (`text`) and programs (the other fields)."""

    turn: int
    player: str
    kind: str
    text: str
    played: str
    suggestion: str | None = None
    details: dict[str, int | float | str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


S = TypeVar("S", bound=RecordedState)


def started(record: Record, kind: type[S]) -> S:
    """The record's start position, which its Game tag says is a `kind`."""
    state = record.start()
    if not isinstance(state, kind):
        raise TypeError(f"a {record.kind!r} record starts as {type(state).__name__}, not {kind.__name__}")
    return state
