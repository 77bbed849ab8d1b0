"""Nim's sticks, a game for tests only, declared whole as a separately installed game would be.

Players take one, two or three sticks in turn from a seeded pile; who takes the
last one wins; with a turn limit, who holds most. Engine state, messages,
session (with undo), script words and the ``GAME`` declaration are all here;
tests/games/test_fourth_game.py registers it and writes no test for it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.errors import IllegalAction, InvalidState
from engine.outcome import Outcome, Termination, most
from kiosk import games
from kiosk.core.events import AIThinking, Command, Event, GameBegan, GameEnded, GameSetup, Seat, SeatSetup, TurnBegan
from kiosk.core.events import message
from kiosk.core.session import GameSession, PacingBase

NAME = "sticks"
COLOURS = ("red", "blue", "green")


class Sticks:
    """The whole state: the pile, what each player holds, whose turn, how it ended."""

    def __init__(self, players: int, seed: int | None, turn_limit: int = 0) -> None:
        self.pile = 9 + (seed or 0) % 7
        self.held = [0] * players
        self.seed, self.current, self.turns, self.turn_limit = seed, 0, 0, turn_limit
        self.outcome: Outcome | None = None

    @property
    def num_players(self) -> int:
        return len(self.held)

    @property
    def phase(self) -> str:
        return "over" if self.outcome else "take"

    @property
    def winners(self) -> tuple[int, ...]:
        return self.outcome.winners if self.outcome else ()

    def legal_actions(self) -> list[int]:
        return [] if self.outcome else [n for n in (1, 2, 3) if n <= self.pile]

    def apply(self, action: Any) -> None:
        if action not in self.legal_actions():
            raise IllegalAction(f"{action!r} sticks cannot be taken now")
        self.pile -= action
        self.held[self.current] += action
        self.turns += 1
        if self.pile == 0:
            self.outcome = Outcome(Termination.WON, (self.current,))
        elif self.turn_limit and self.turns >= self.turn_limit:
            self.outcome = Outcome(Termination.TURN_LIMIT, most(self.held))
        else:
            self.current = (self.current + 1) % self.num_players

    def copy(self) -> "Sticks":
        return Sticks.from_dict(self.to_dict())

    def to_dict(self) -> dict[str, Any]:
        outcome = self.outcome.to_dict() if self.outcome else None
        return {"game": NAME, "seed": self.seed, "pile": self.pile, "held": list(self.held), "current": self.current,
                "turns": self.turns, "turn_limit": self.turn_limit, "outcome": outcome}  # fmt: skip

    @classmethod
    def from_dict(cls, data: Any) -> "Sticks":
        if not isinstance(data, dict) or data.get("game") != NAME:
            raise InvalidState("not a sticks save")
        s = cls(len(data["held"]), data["seed"], data["turn_limit"])
        s.pile, s.held, s.current, s.turns = data["pile"], list(data["held"]), data["current"], data["turns"]
        s.outcome = Outcome.from_dict(data["outcome"]) if data["outcome"] else None
        return s


# ----------------------------------------------------------------- its messages
@message("sticks_take")
class TakeSticks(Command):
    count: int
    source: str = "touch"


@message("sticks_started")
class SticksStarted(GameBegan):
    seed: int | None
    kinds: tuple[str, ...]
    pile: int
    held: tuple[int, ...]
    current: int
    resumed: bool = False

    def seating(self) -> tuple[Seat, ...]:
        return tuple(Seat(i, i, COLOURS[i], k) for i, k in enumerate(self.kinds))


@message("sticks_turn")
class SticksTurn(TurnBegan):
    player: int
    kind: str
    turn: int


@message("sticks_taken")
class SticksTaken(Event):
    player: int
    count: int
    pile: int


@message("sticks_over")
class SticksOver(GameEnded):
    winners: tuple[int, ...]
    turns: int
    kinds: tuple[str, ...] = ()
    termination: Termination = Termination.WON
    duration: float = 0.0


@message("sticks_decided")
class SticksDecided(Event):
    player: int
    token: int
    count: int


# ----------------------------------------------------------------- its session
@dataclass(frozen=True)
class SticksPacing(PacingBase):
    think: float = 0.0
    undo: float = 0.0


class SticksSession(GameSession[Sticks]):
    """Owns the running game: TakeSticks in; a person may take their take back until the next acts."""

    game_name = NAME
    noun = "sticks game"
    ai_levels = ("dice",)

    def __init__(self, opts: games.SessionOptions) -> None:
        super().__init__(
            opts.bus,
            opts.clock,
            pacing=SticksPacing(),
            ai_factory=lambda level, seed: random.Random(seed),
            save=opts.save,
            executor=opts.executor,
            button_test=opts.button_test,
        )
        self._subscribe({TakeSticks: self._on_take}, {}, SticksDecided)

    def color_of(self, player: int) -> str:
        return COLOURS[player]

    def public_snapshot(self, resumed: bool = False) -> SticksStarted:
        g = self.running
        return SticksStarted(g.seed, self.kinds, g.pile, tuple(g.held), g.current, resumed)

    def start(self, setup: GameSetup) -> None:
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        self._begin(Sticks(len(setup.seats), seed, setup.turn_limit), setup)

    def resume(self, game: Sticks, kinds, *, game_id=None, started=None, meta=None) -> None:
        setup = GameSetup(tuple(SeatSetup(k) for k in kinds), game.seed, game=NAME, turn_limit=game.turn_limit)
        self._continue(game, setup, game_id, started, meta)

    def _turn_begins(self, new_turn: bool = True) -> None:
        g = self.game
        if g is None or g.outcome is not None:
            return
        token, player = self._new_turn_token(), g.current
        self.bus.post(SticksTurn(player, self.kinds[player], g.turns))
        if self.kinds[player] != games.HUMAN:
            self.bus.post(AIThinking(player, self.kinds[player]))
            count = self._ais[player].choice(g.legal_actions())
            self._submit(lambda: SticksDecided(player, token, count), lambda e: SticksDecided(player, token, 1), "AI")

    def _on_ai_decided(self, ev: SticksDecided) -> None:
        if self._answer_is_current(ev):
            self._run_steps([(0.0, lambda: TakeSticks(ev.count, source="ai"))])

    def _on_take(self, cmd: TakeSticks) -> None:
        if not self._check_player(cmd):
            return
        g, before = self.running, self._undo_point()
        player = g.current
        try:
            g.apply(cmd.count)
        except IllegalAction as exc:
            self._refuse(cmd, str(exc), code="refused")
            return
        self.bus.post(SticksTaken(player, cmd.count, g.pile))
        if g.outcome is not None:
            self._game_ended(SticksOver(g.winners, g.turns, self.kinds, g.outcome.termination, self.duration))
            return
        self._undoable(player, before)
        self._save(games.Moment.STEP)
        self._turn_begins()


def _take_words(words: list[str], bad) -> tuple:
    if len(words) != 2 or words[1] not in ("1", "2", "3"):
        raise bad("write `pick N` with N 1, 2 or 3")
    return (int(words[1]),)


GAME = games.GameType(
    name=NAME,
    title="Sticks",
    players=(2, 3),
    ai_levels=("dice",),
    load=Sticks.from_dict,
    new=lambda players, seed, turn_limit: Sticks(players, seed, turn_limit),
    session=SticksSession,
    events=__name__,
    default_seats=(games.HUMAN, "dice"),
    script=games.ScriptWords(
        ("pick",),
        "pick N",
        _take_words,
        lambda session, verb, args: [TakeSticks(args[0], source="script")],
        lambda session, action: [f"pick {action}"],
    ),
)
