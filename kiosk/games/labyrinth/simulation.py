"""The sliding-maze game in labyrinth-sim (kiosk.tools.sim.sweep): one game between engine.labyrinth.ai players."""

from __future__ import annotations

import time

from kiosk.tools.sim.sweep import Outcome, Runner, derive, ended_by_limit, make_recorder
from engine.labyrinth.parts import GAME_NAME, Phase


class LabyrinthRunner(Runner):
    """The sliding-maze game (engine.Game with engine.labyrinth.ai players)."""

    name = GAME_NAME
    default_turn_cap = 1000
    default_lineup = ("hard", "medium", "easy", "random")

    def play(self, levels, seed, spec, timer, record=None):
        from engine.labyrinth import Game, Rules
        from engine.labyrinth.ai import make_ai

        rules = Rules(open_cards=spec.open_cards, return_home=spec.return_home, turn_limit=spec.turn_limit)
        game = Game.new(players=len(levels), seed=seed, rules=rules)
        recorder = make_recorder(game, levels, record)
        ais = [make_ai(level, seed=derive(seed, "ai", seat)) for seat, level in enumerate(levels)]
        times: list[list[float]] = [[] for _ in levels]
        cpu: list[list[float]] = [[] for _ in levels]
        while game.phase != Phase.OVER and game.turns < spec.turn_cap:
            seat = game.current
            start, start_cpu = timer(), time.process_time()
            shift, move = ais[seat].choose(game)
            cpu[seat].append((time.process_time() - start_cpu) * 1000.0)
            times[seat].append((timer() - start) * 1000.0)
            game.apply(shift)
            game.apply(move)
            if recorder:
                recorder.apply(shift)
                recorder.apply(move)
        winners = list(game.winners)
        return Outcome(
            winners,
            game.turns,
            [len(t) for t in times],
            times,
            capped=game.phase != Phase.OVER,
            decision_cpu_ms=cpu,
            limited=ended_by_limit(game),
            record=recorder.text() if recorder else None,
        )
