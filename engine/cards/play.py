"""Play one whole card game between AI players (for the simulation command and tests).

The engine stays clock-free: to time decisions, pass ``timer`` (for example
``time.perf_counter``); it is called just before and after each ``choose``.
"""

from __future__ import annotations

from typing import Callable, Protocol, Sequence, TypedDict

from engine.cards.game import Action, CardGame, Place, Take
from engine.cards.parts import CardPhase, CardRules


class CardPlayer(Protocol):
    """What ``play_game`` asks of a seat's player (an ``engine.cards.ai`` AI, or a wrapper of one)."""

    def choose(self, game: CardGame) -> Action: ...


class Decision(TypedDict):
    """One timed ``choose`` call."""

    seat: int
    phase: str
    seconds: float


class GameSummary(TypedDict):
    """What ``play_game`` returns (its docstring says what each key means)."""

    game: str
    seed: int
    players: int
    levels: list[str]
    winners: list[int]
    scores: list[int]
    turns: int
    capped: bool
    end: str | None
    placements: int
    scoring_turns: int
    taken: int
    discards: int
    decisions: list[Decision]
    illegal: str | None


def play_game(
    ais: Sequence[CardPlayer],
    seed: int,
    turn_cap: int = 500,
    rules: CardRules | None = None,
    first: int = 0,
    timer: Callable[[], float] | None = None,
) -> GameSummary:
    """Play a game with one AI per seat (``len(ais)`` players, 2-6) and return a summary.

    Result keys: ``game`` ("cards"), ``seed``, ``players``, ``levels`` (each AI's
    ``level``), ``winners`` (seats; ties share; [] when the turn cap stopped the
    game), ``scores`` (cards taken per seat), ``turns``, ``capped``, ``end``
    (why it ended: a Termination value, or None), ``placements`` (cards laid), ``scoring_turns`` (turns in
    which cards were taken), ``taken`` (total cards taken), ``discards``,
    ``decisions`` (one ``{"seat", "phase", "seconds"}`` per choose call when
    `timer` is given, else []), ``illegal`` (None, or the first refused
    action's message: the game stops there).
    """
    game = CardGame.new(players=len(ais), seed=seed, rules=rules, first=first)
    decisions: list[Decision] = []
    placements = scoring = 0
    illegal = None
    while game.phase != CardPhase.OVER and game.turns < turn_cap:
        seat, phase = game.current, game.phase
        if timer is not None:
            start = timer()
            action = ais[seat].choose(game)
            decisions.append({"seat": seat, "phase": phase, "seconds": timer() - start})
        else:
            action = ais[seat].choose(game)
        try:
            game.apply(action)
        except ValueError as exc:  # IllegalAction: an AI bug must not hang a simulation
            illegal = f"seat {seat} ({getattr(ais[seat], 'level', '?')}): {exc}"
            break
        if isinstance(action, Place):
            placements += 1
        elif isinstance(action, Take) and action.cards:
            scoring += 1
    over = game.phase == CardPhase.OVER
    return {
        "game": "cards",
        "seed": seed,
        "players": len(ais),
        "levels": [getattr(ai, "level", type(ai).__name__) for ai in ais],
        "winners": list(game.winners),
        "scores": game.scores,
        "turns": game.turns,
        "capped": not over and illegal is None,
        "end": None if game.outcome is None else game.outcome.termination.value,
        "placements": placements,
        "scoring_turns": scoring,
        "taken": sum(game.scores),
        "discards": len(game.discards),
        "decisions": decisions,
        "illegal": illegal,
    }
