"""The travel card game (docs/rules.md section 2): lay path cards, join treasures, take cards.

Pure Python like the rest of ``engine``: no I/O, no clocks, no threads;
randomness only from a seed.

>>> from engine.cards import CardGame, CardPhase
>>> game = CardGame.new(players=3, seed=7)
>>> game.num_players, [len(hand) for hand in game.hands], len(game.layout)
(3, [2, 2, 2], 4)
>>> game.apply(game.legal_placements()[0])
>>> if game.phase == CardPhase.TAKE:
...     game.apply(game.legal_takes()[0])      # the largest legal choice first
>>> game.current, game.turns, game.outcome
(1, 1, None)

The rules are docs/rules.md section 2.

AI players are in ``engine.cards.ai``; ``play_game`` plays a whole game
between AIs (for the simulation command). See docs/card-game.md.
"""

from engine.errors import IllegalAction, InvalidState
from engine.outcome import Outcome, Termination
from engine.cards.deck import CARDS, SIDES, TREASURES, Card
from engine.cards.game import CardGame, Discard, Place, Take
from engine.cards.parts import HAND_SIZE, PHASES, CardPhase, CardRules
from engine.cards.paths import Placed
from engine.cards.play import play_game

from engine.cards import record  # noqa: F401  (registers the game's record notation)

__all__ = [
    "CARDS",
    "Card",
    "CardGame",
    "CardPhase",
    "CardRules",
    "Discard",
    "HAND_SIZE",
    "IllegalAction",
    "InvalidState",
    "Outcome",
    "PHASES",
    "Place",
    "Placed",
    "SIDES",
    "Take",
    "TREASURES",
    "Termination",
    "play_game",
]
