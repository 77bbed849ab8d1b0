"""The rules of the sliding-maze game (and, in engine.cards, the travel card game).

Pure Python: no I/O, no clocks, no threads; randomness only from a seed.

    from engine import Game, Rules, Shift, Move, IllegalAction
    game = Game.new(players=2, seed=7)
    game.apply(Shift("N3", rotation=1))
    game.apply(Move(sorted(game.reachable())[0]))
"""

from .errors import IllegalAction, InvalidState
from .game import Board, Game, Move, Player, Rules, Shift, Tile
from .maze import INSERTIONS, OPPOSITE
from .outcome import Outcome, Termination
from .tiles import SEATS, TREASURES

__all__ = [
    "Board", "Game", "IllegalAction", "INSERTIONS", "InvalidState", "Move", "OPPOSITE",
    "Outcome", "Player", "Rules", "SEATS", "Shift", "Tile", "TREASURES", "Termination",
]
