"""The sliding-maze game in labyrinth-sim (kiosk.tools.sim.sweep): one game between engine.labyrinth.ai players."""

from __future__ import annotations

import math
import time

from engine.labyrinth import Game, Rules
from engine.labyrinth.ai import LEVELS, make_ai
from engine.labyrinth.parts import GAME_NAME, Phase
from kiosk.games.labyrinth.session import Pacing, think_budget
from kiosk.tools.sim.sweep import GameResult, Runner, Spec, derive, ended_by_limit, make_recorder, variant


def pi_budget_s(level: str, pi_factor: float) -> float | None:
    """A decision's CPU time at a Pi's speed, for the levels that search (None: no clock cap, only
    their work budget): what the kiosk gives a computer that follows a computer, divided by the Pi
    factor. It thinks while people watch, at least for the pause in which a computer is shown
    thinking (``Pacing.think``; the walk before and an undo grace are often longer), with the
    operator's cap above that (``think_budget``)."""

    if pi_factor > 0 and level in LEVELS and LEVELS[level].clock_capped:
        return think_budget(Pacing().think, math.inf) / pi_factor
    return None


def pi_speed_ai(level: str, seed: int, pi_factor: float):
    """An engine.labyrinth.ai player; with a Pi factor, the searching ones get `pi_budget_s`.
    This process's CPU time is their clock: on a machine busy with other work that is what a
    Pi running only the kiosk would give them (the kiosk itself caps wall-clock time)."""

    budget = pi_budget_s(level, pi_factor)
    if budget is not None:
        return make_ai(level, seed=seed, clock=time.process_time, time_limit=budget)
    return make_ai(level, seed=seed)


class LabyrinthRunner(Runner):
    """The sliding-maze game (engine.Game with engine.labyrinth.ai players)."""

    name = GAME_NAME
    default_turn_cap = 1000
    default_lineup = ("hard", "medium", "easy", "random")

    def clock_budget_ms(self, level: str, spec: Spec) -> float | None:
        budget = pi_budget_s(level, spec.pi_factor)
        return None if budget is None else budget * 1000.0

    def play(self, levels, seed, spec, timer, record=None):

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
