"""The sliding-maze game in labyrinth-sim (kiosk.tools.sim.sweep): one game between engine.labyrinth.ai players."""

from __future__ import annotations

import time

from kiosk.tools.sim.sweep import GameResult, Runner, derive, ended_by_limit, make_recorder, variant
from engine.labyrinth.parts import GAME_NAME, Phase


def pi_speed_ai(level: str, seed: int, pi_factor: float):
    """An engine.labyrinth.ai player; with a Pi factor, the searching ones get the kiosk's clock cap divided by
    it. This process's CPU time is their clock: on a machine busy with other work that is what a
    Pi running only the kiosk would give them (the kiosk itself caps wall-clock time)."""
    from engine.labyrinth.ai import LEVELS, make_ai

    if pi_factor > 0 and level in LEVELS and LEVELS[level].clock_capped:
        from kiosk.games.labyrinth.session import AI_TIME_LIMIT_S

        return make_ai(level, seed=seed, clock=time.process_time, time_limit=AI_TIME_LIMIT_S / pi_factor)
    return make_ai(level, seed=seed)


class LabyrinthRunner(Runner):
    """The sliding-maze game (engine.Game with engine.labyrinth.ai players)."""

    name = GAME_NAME
    default_turn_cap = 1000
    default_lineup = ("hard", "medium", "easy", "random")

    def play(self, levels, seed, spec, timer, record=None):
        from engine.labyrinth import Game, Rules

        rules = Rules(
            open_cards=variant(spec, "open_cards"),
            return_home=variant(spec, "return_home"),
            turn_limit=spec.turn_limit,
            treasures=variant(spec, "treasures"),
        )
        game = Game.new(players=len(levels), seed=seed, rules=rules)
        recorder = make_recorder(game, levels, record)
        ais = [pi_speed_ai(level, derive(seed, "ai", seat), spec.pi_factor) for seat, level in enumerate(levels)]
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
        return GameResult(
            winners,
            game.turns,
            [len(t) for t in times],
            times,
            capped=game.phase != Phase.OVER,
            decision_cpu_ms=cpu,
            limited=ended_by_limit(game),
            record=recorder.text() if recorder else None,
        )
