"""An example of each of the puzzles' own messages, for the bus's round-trip test
(tests/kiosk/core/test_bus.py collects every game's ``messages.py``)."""

from __future__ import annotations

from engine.outcome import Termination
from kiosk.core.events import Message
from kiosk.games.labyrinth.events import PlayerInfo, TileInfo
from kiosk.games.puzzles import events as pe

TILE = TileInfo("ESW", "owl")

EXAMPLES: list[Message] = [
    pe.PuzzleSelectArrow("N3"),
    pe.PuzzlePushArrow(None, "button"),
    pe.PuzzleRotateSpare(2),
    pe.PuzzleTapCell((3, 4)),
    pe.PuzzleStay(),
    pe.PuzzleRequestHint(),
    pe.PuzzleStarted(
        7,
        (PlayerInfo(0, 0, "red", "human", (0, 0), (0, 0), 1, ()),),
        (TILE,) * 49,
        TileInfo("NS"),
        0,
        "shift",
        None,
        0,
        False,
        True,
        False,
        puzzle="hard-17",
        grade="hard",
        target="owl",
        optimum=3,
        turn_limit=6,
        daily=True,
    ),
    pe.PuzzleOver((0,), 4, (("owl",),), ("human",), 61.5, Termination.HOME, "hard-17", "hard", 3, 2, True),
]
