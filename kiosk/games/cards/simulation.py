"""The travel card game in labyrinth-sim (kiosk.tools.sim.sweep): one game between engine.cards AI players."""

from __future__ import annotations

from engine.cards import CardGame, CardRules, play_game
from engine.cards.ai import CardAI, make_ai
from engine.cards.parts import GAME_NAME, CardPhase
from engine.outcome import Termination
from kiosk.tools.sim.sweep import GameResult, Runner, derive, make_recorder


class CardsRunner(Runner):
    """The travel card game (engine.cards: CardGame, its AI levels and play_game)."""

    name = GAME_NAME
    default_turn_cap = 500

    def play(self, levels, seed, spec, timer, record=None):

        rules = CardRules(turn_limit=spec.turn_limit)
        # each seat's player: the level's AI, or one that also records its choices
        ais: list[CardAI | _RecordingAI] = [
            make_ai(level, seed=derive(seed, "ai", seat)) for seat, level in enumerate(levels)
        ]
        recorder = make_recorder(CardGame.new(players=len(levels), seed=seed, rules=rules), levels, record)
        if recorder:
            ais = [_RecordingAI(ai, recorder) for ai in ais]
        result = play_game(ais, seed=seed, turn_cap=spec.turn_cap, timer=timer, rules=rules)
        if result["illegal"]:
            raise RuntimeError(f"card game {seed}: an AI made an illegal move: {result['illegal']}")
        times: list[list[float]] = [[] for _ in levels]
        turns = [0] * len(levels)
        for d in result["decisions"]:
            times[d["seat"]].append(d["seconds"] * 1000.0)
            if d["phase"] == CardPhase.PLACE:
                turns[d["seat"]] += 1

        limited = result["end"] == Termination.TURN_LIMIT.value
        return GameResult(
            list(result["winners"]),
            result["turns"],
            turns,
            times,
            capped=result["capped"],
            limited=limited,
            record=recorder.text() if recorder else None,
        )


class _RecordingAI:
    """Passes an AI's choices to a game recorder as they are made (its own copy of the game
    checks them), so the card game's play_game needs no hook."""

    def __init__(self, ai, recorder):
        self.ai, self.recorder = ai, recorder
        self.level = getattr(ai, "level", type(ai).__name__)

    def choose(self, game):
        action = self.ai.choose(game)
        self.recorder.apply(action)
        return action
