"""The shared contract of the games' rules; each game is a package beside it.

- :mod:`engine.labyrinth`: the sliding-maze board game (docs/rules.md section 1),
  its computer players (``engine.labyrinth.ai``) and its record codec;
- :mod:`engine.cards`: the travel card game (section 2), likewise;
- here: :class:`GameState`, what every game's state offers the kiosk;
  :class:`IllegalAction` and :class:`InvalidState`, the one error of each kind;
  :class:`Outcome` and :class:`Termination`, how a game ended;
  ``engine.records``, the record notation both games write.

Pure Python: no I/O, no clocks, no threads; randomness only from a seed.
"""

from engine.errors import IllegalAction, InvalidState
from engine.outcome import Outcome, Termination
from engine.state import GameState

__all__ = ["GameState", "IllegalAction", "InvalidState", "Outcome", "Termination"]
