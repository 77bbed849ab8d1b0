"""What an analysis of a record says: marks on turns worth a second look (``labyrinth-replay --analyze``).

Each game analyses its own records (engine/labyrinth/analysis.py,
engine/cards/analysis.py, declared to the kiosk by the game's ``analyze``);
they all answer with :class:`Mark` so the command prints and exports them alike.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field


@dataclass
class Mark:
    """One remark on one turn, for people (`text`) and programs (the other fields)."""

    turn: int
    player: str
    kind: str
    text: str
    played: str
    suggestion: str | None = None
    details: dict = field(default_factory=dict)

    def to_json(self) -> dict:
        return asdict(self)
