"""The sliding-maze board game: its rules, its computer players (engine.labyrinth.ai), its record codec.

Pure Python: no I/O, no clocks, no threads; randomness only from a seed.

>>> from engine.labyrinth import Game, Move, Phase, Rules, Shift, Termination
>>> game = Game.new(players=2, seed=7, rules=Rules(turn_limit=2))
>>> game.num_players, game.current, game.phase
(2, 0, <Phase.SHIFT: 'shift'>)
>>> game.phase == "shift"                       # a StrEnum: saves keep the plain word
True
>>> game.apply(Shift("N3", rotation=1))
>>> game.phase, game.forbidden
(<Phase.MOVE: 'move'>, 'S3')
>>> game.apply(Move(sorted(game.reachable())[0]))
>>> game.current, game.turns
(1, 1)
>>> game.apply(game.legal_actions()[0])        # a shift
>>> game.apply(game.legal_actions()[0])        # a walk: the second turn reaches the limit
>>> game.outcome.termination is Termination.TURN_LIMIT, game.phase
(True, <Phase.OVER: 'over'>)

An illegal action raises IllegalAction and changes nothing:

>>> Game.new(players=2, seed=7).apply(Move((3, 3)))
Traceback (most recent call last):
    ...
engine.errors.IllegalAction: First push the spare tile in at one of the arrows.

The rules are docs/rules.md section 1 (and 3 for the turn limit); the record
codec is engine/labyrinth/record.py.
"""

from engine.errors import IllegalAction, InvalidState
from engine.labyrinth.game import Board, Game, Move, Shift, Tile
from engine.labyrinth.maze import INSERTIONS, OPPOSITE
from engine.labyrinth.parts import Phase, Player, Rules
from engine.labyrinth.tiles import SEATS, TREASURES
from engine.outcome import Outcome, Termination

from engine.labyrinth import record  # noqa: F401, E402  (registers the game's record notation)

__all__ = [
    "Board",
    "Game",
    "IllegalAction",
    "INSERTIONS",
    "InvalidState",
    "Move",
    "OPPOSITE",
    "Outcome",
    "Phase",
    "Player",
    "Rules",
    "SEATS",
    "Shift",
    "Tile",
    "TREASURES",
    "Termination",
]
