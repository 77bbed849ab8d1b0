"""The race in the kiosk: its messages, its session and its declaration (``GAME``)."""

from __future__ import annotations

import random

from engine.outcome import Termination
from kiosk import games
from kiosk.core.events import (
    AIThinking,
    Command,
    Event,
    GameBegan,
    GameEnded,
    GameSetup,
    Seat,
    SeatSetup,
    TurnBegan,
    message,
)
from kiosk.core.session import GameSession, PacingBase
from tests.support.race import record  # noqa: F401  (registers the race's record notation)
from tests.support.race.engine import NAME, PLAYERS, Race

COLOURS = ("red", "yellow", "green")

# ----------------------------------------------------------------- its messages


@message("race_roll")
class Roll(Command):
    """Roll the die and move on."""

    source: str = "touch"


@message("race_started")
class RaceStarted(GameBegan):
    seed: int | None
    kinds: tuple[str, ...]
    positions: tuple[int, ...]
    current: int
    turns: int
    resumed: bool = False

    def seating(self) -> tuple[Seat, ...]:
        return tuple(Seat(i, i, COLOURS[i], k) for i, k in enumerate(self.kinds))


@message("race_turn")
class RaceTurn(TurnBegan):
    player: int
    kind: str
    turn: int


@message("race_rolled")
class Rolled(Event):
    player: int
    rolled: int
    position: int

    def narrate(self, who) -> str:
        return f"{who(self.player)} rolls {self.rolled}, now at {self.position}"


@message("race_over")
class RaceOver(GameEnded):
    winners: tuple[int, ...]
    turns: int
    kinds: tuple[str, ...] = ()
    termination: Termination = Termination.WON
    duration: float = 0.0


@message("race_ai_decided")
class RaceDecided(Event):
    player: int
    token: int


# ----------------------------------------------------------------- its session


class RacePacing(PacingBase):
    pass


class RaceSession(GameSession):
    """Owns the running race: Roll in, Rolled / RaceTurn / RaceOver out."""

    game_name = NAME
    noun = "race"
    ai_levels = ("dice",)

    def __init__(self, opts: games.SessionOptions) -> None:
        super().__init__(
            opts.bus,
            opts.clock,
            pacing=_FAST,
            ai_factory=lambda level, seed: level,
            save=opts.save,
            executor=opts.executor,
            button_test=opts.button_test,
        )
        self._subscribe({Roll: self._on_roll}, {}, RaceDecided)

    def color_of(self, player: int) -> str:
        return COLOURS[player]

    def button(self, name: str) -> Command | None:
        return Roll(source="button") if name == "stay" else None

    def public_snapshot(self, resumed: bool = False) -> RaceStarted:
        g = self.game
        return RaceStarted(g.seed, self.kinds, tuple(g.positions), g.current, g.turns, resumed)

    def start(self, setup: GameSetup) -> None:
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        self._begin(Race.new(len(setup.seats), seed, setup.first, setup.turn_limit), setup)

    def resume(self, game: Race, kinds, *, game_id=None, started=None, meta=None) -> None:
        setup = GameSetup(
            seats=tuple(SeatSetup(k) for k in kinds), seed=game.seed, game=NAME, turn_limit=game.turn_limit
        )
        self._continue(game, setup, game_id, started)

    def _turn_begins(self, new_turn: bool = True) -> None:
        g = self.game
        if g is None or g.outcome is not None:
            return
        token = self._new_turn_token()
        kind = self.kinds[g.current]
        self.bus.post(RaceTurn(g.current, kind, g.turns))
        if kind != "human":
            self.bus.post(AIThinking(g.current, kind))
            player = g.current
            self._submit(lambda: RaceDecided(player, token), lambda error: RaceDecided(player, token), "race AI")

    def _on_ai_decided(self, ev: RaceDecided) -> None:
        if self._answer_is_current(ev):
            self._run_steps([(0.0, lambda: Roll(source="ai"))])

    def _on_roll(self, cmd: Roll) -> None:
        if not self._check_player(cmd):
            return
        g = self.game
        player = g.current
        rolled = g.apply("roll")
        self.bus.post(Rolled(player, rolled, g.positions[player]))
        if g.outcome is not None:
            self._game_ended(RaceOver(g.winners, g.turns, self.kinds, g.outcome.termination, self.duration))
            return
        self._save(games.Moment.STEP)
        self._turn_begins()


_FAST = RacePacing()


# ----------------------------------------------------------------- its declaration


def _screens() -> dict[str, type]:
    from tests.support.race.screens import screens

    return screens()


def _setup_panel() -> type:
    from tests.support.race.screens import RaceSetup

    return RaceSetup


def _roll_words(words: list[str], bad) -> tuple:
    if len(words) != 1:
        raise bad("`roll` takes nothing after it")
    return ()


GAME = games.GameType(
    name=NAME,
    title="Dice race",
    players=PLAYERS,
    new=lambda players, seed, turn_limit: Race.new(players, seed, 0, turn_limit),
    ai_levels=("dice",),
    load=Race.from_dict,
    session=RaceSession,
    events=__name__,
    default_seats=("human", "dice"),
    script=games.ScriptWords(
        ("roll",),
        "roll",
        lambda words, bad: _roll_words(words, bad),
        lambda session, verb, args: [Roll(source="script")],
        lambda session, action: ["roll"],
    ),
    screens=_screens,
    setup_panel=_setup_panel,
    play_screen="race_play",
    over_screen="race_gameover",
    replay_screen="race_replay",
)
