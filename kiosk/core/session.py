"""What every game's session has in common.

Every game's session (kiosk/games/<name>/session.py) is the only writer of
its game, runs entirely on the main thread, and works the same way around the
rules: a game is started from a ``GameSetup`` or resumed from a save; AI seats
think on one worker thread that only posts its answer; that answer is played
out step by step through the very commands a person sends, each step paced by
the clock; the game is saved through a hook after every committed action; a
game is abandoned by ``AbandonGame``, by a new game of the other kind, or by a
new game of its own kind; a refused command is answered with
``IllegalInput`` carrying a stable ``code``; and a person may take their
actions back (``Undo``) until the next player acts.

Undo is the physical game's "hand still on the pawn": before each action of a
person the session keeps a copy of the engine state; ``Undo`` puts the last
copy back (exact: the engine state is the whole game), saves it, and tells the
views to reload. The copies belong to that person's turn: they are dropped
when another player acts (a person's first input, a computer's first step) or
the game ends, so an undo never reaches into someone else's turn. When a
computer follows a person, its first step waits ``pacing.undo`` seconds, so
the person has time to take the walk back.

That machinery lives here once, in :class:`GameSession`; a session adds only
its rules: which commands it takes, how a turn begins, what an AI answer means.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import itertools
import logging
import time
import uuid
from typing import Any, Callable, ClassVar, Generic, Mapping, Protocol, Self, TypeVar

from engine.outcome import GAME_OVER
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock, RealClock, Timer
from kiosk.core.events import (
    AbandonGame,
    ActionUndone,
    CallSeat,
    ChangeSeat,
    Command,
    ContinueGame,
    GameAbandoned,
    GameSetup,
    IllegalInput,
    Message,
    NewGame,
    SeatCalled,
    SeatChanged,
    SuspendGame,
    Undo,
    UndoChanged,
)
from kiosk.games import HUMAN, Moment
from kiosk.games import get as game_type

log = logging.getLogger(__name__)

#: A paced plan step: (seconds after the previous step was handled, a function building the command).
Step = tuple[float, Callable[[], Command | None]]


class EngineState(Protocol):
    """What the shared machinery reads of a game's engine state (docs/adding-a-game.md, item 1)."""

    @property
    def phase(self) -> str: ...  # "over" once finished
    @property
    def current(self) -> int: ...  # the player to act
    @property
    def seed(self) -> int | None: ...
    def copy(self) -> Self: ...  # an independent copy: what an undo goes back to


#: The engine state a session plays (engine.Game, engine.cards.CardGame, ...).
G = TypeVar("G", bound=EngineState)


class PacingBase:
    """Mixin of the frozen pacing dataclasses: every field is a pause in seconds."""

    __slots__ = ()
    __dataclass_fields__: ClassVar[dict[str, dataclasses.Field[Any]]]  # set by @dataclass on the subclass

    @classmethod
    def fast(cls) -> Self:
        """No pauses at all (headless runs, tests)."""
        return cls(**{f.name: 0 for f in dataclasses.fields(cls)})

    def scaled(self, factor: float) -> Self:
        """Every pause times `factor` (``[kiosk] ai_pace_ms``)."""
        return dataclasses.replace(self, **{f.name: getattr(self, f.name) * factor for f in dataclasses.fields(self)})


@dataclasses.dataclass
class SetAside(Generic[G]):
    """A game nobody touched for a while, kept to be continued until `until` (session clock time)."""

    game: G
    setup: GameSetup
    game_id: str | None
    started_at: float
    until: float
    keep_s: float = 0.0  # how long it is kept in all
    colours: tuple[str, ...] = ()  # each player's colour (the offer names the people's)
    timer: Timer | None = None
    seat_log: list[tuple[int, int, str]] = dataclasses.field(default_factory=list)

    @property
    def people(self) -> tuple[str, ...]:
        """The colours of the people who played it (all the colours when nobody did)."""
        mine = tuple(c for c, k in zip(self.colours, self.setup.kinds) if k == HUMAN)
        return mine or self.colours


def seat_changes_of(meta: Mapping[str, Any] | None, players: int) -> list[tuple[int, int, str]]:
    """The seat changes a save's `meta` lists (``[[first turn, player, kind], ...]``); a damaged
    list is dropped whole (logged): the game resumes with the kinds the save names."""
    raw = (meta or {}).get("seat_changes")
    if not raw:
        return []
    try:
        changes = [(int(t), int(p), str(k)) for t, p, k in raw]
        if any(t < 1 or not 0 <= p < players for t, p, _ in changes):
            raise ValueError("a turn or a seat out of range")
    except (TypeError, ValueError) as exc:
        log.warning("the save's seat changes are unreadable (%s): left out", exc)
        return []
    return changes


class GameSession(Generic[G]):
    """Game life cycle, AI worker, paced play-out, saving and common refusals for one game kind.

    A subclass names its engine state (``GameSession[Game]``), sets
    ``game_name`` (the ``GameSetup.game`` it plays, also the save's
    ``"game"``), ``noun`` (how its refusals and log lines name it),
    ``ai_levels`` (its computer seat kinds), and implements ``start``,
    ``resume``, ``public_snapshot``, ``color_of`` and ``_turn_begins``;
    ``_reset_turn_state`` clears its per-turn input state.
    """

    game_name: ClassVar[str] = ""
    noun: ClassVar[str] = "game"
    ai_levels: ClassVar[tuple[str, ...]] = ()  # the seat kinds besides "human"
    worker_name: ClassVar[str] = "ai"

    def __init__(
        self,
        bus: Bus,
        clock: Clock | None,
        *,
        pacing,
        ai_factory: Callable[[str, int | None], Any],
        save: Callable[[Any, Moment], None] | None,
        executor: concurrent.futures.Executor | None,
    ) -> None:
        self.bus = bus
        self.clock = clock or RealClock()
        self.pacing = pacing
        self.ai_factory = ai_factory
        self.save = save
        self._own_executor = executor is None
        self._executor = executor or concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix=self.worker_name
        )
        self.game: G | None = None
        self.setup: GameSetup | None = None
        self.game_id: str | None = None
        self.started_at: float = 0.0  # wall-clock time.time() of the start
        self._started_clock: float = 0.0  # self.clock time of the start
        self._ais: dict[int, Any] = {}
        self._token = itertools.count(1)
        self._turn_token = 0  # changes with every turn, new game and abandon
        self._ai_thinking_since: float | None = None
        self._jobs = 0  # worker jobs not yet answered
        self._quiet_until = 0.0  # animations running until then (clock time)
        self._timers: list[Timer] = []
        self._plan: tuple[int, list[Step]] = (0, [])  # (turn token, paced AI steps still to post)
        self._subs: list[Callable[[], None]] = []
        self.set_aside: SetAside[G] | None = None  # a game left alone, offered to be continued
        self._undo: list[G] = []  # the states before the undoable actions of `_undo_player`, oldest first
        self._undo_player: int | None = None
        self._undo_until = 0.0  # a computer's first step waits until then (clock time): the person may undo
        #: who took over which seat when: (first turn played by them, player, new kind), oldest first
        self.seat_log: list[tuple[int, int, str]] = []
        self._ai_acted_token = 0  # the turn token of the last turn a computer committed a step in

    def _subscribe(
        self, commands: dict[type, Callable[[Any], None]], others: dict[type, Callable[[Any], None]], ai_decided: type
    ) -> None:
        """Subscribe the game's commands (paced AI steps follow them), other messages, and the shared ones.

        ``new_game`` is heard twice: by type name to abandon this game when the
        other kind starts (name handlers run before class handlers, so the old
        game is archived before the new one is saved), by class to start one
        of this kind.
        """
        bus = self.bus
        self._subs += [bus.subscribe(cls, self._handled(handler)) for cls, handler in commands.items()]
        self._subs += [bus.subscribe(cls, handler) for cls, handler in others.items()]
        self._subs += [
            bus.subscribe(NewGame.type, self._on_other_game),
            bus.subscribe(NewGame, self._on_new_game),
            bus.subscribe(AbandonGame, lambda c: self.abandon(c.reason)),
            bus.subscribe(SuspendGame, lambda c: self.suspend(c.reason, c.keep_s)),
            bus.subscribe(ContinueGame, self._on_continue),
            bus.subscribe(Undo, self._on_undo),
            bus.subscribe(CallSeat, self._on_call_seat),
            bus.subscribe(ChangeSeat, self._on_change_seat),
            bus.subscribe(ai_decided, self._on_ai_decided),
        ]

    # ------------------------------------------------------------ queries (main thread)
    @property
    def running(self) -> G:
        """The game in play, for code that runs only while there is one.

        Command handlers after their checks (``_check_player``), AI answers found
        current, and paced steps all run with a game; a call without one is a bug
        in the session, said here rather than as an AttributeError on None.
        """
        g = self.game
        if g is None:
            raise RuntimeError(f"no {self.noun} is running")
        return g

    @property
    def kinds(self) -> tuple[str, ...]:
        return self.setup.kinds if self.setup else ()

    def kind_of(self, player: int) -> str:
        return self.kinds[player]

    def color_of(self, player: int) -> str:
        raise NotImplementedError

    @property
    def humans(self) -> int:
        return sum(1 for k in self.kinds if k == HUMAN)

    @property
    def ai_turn(self) -> bool:
        """True while an AI seat is to act (computing or playing its turn out)."""
        g = self.game
        return g is not None and g.phase != GAME_OVER and self.kinds[g.current] != HUMAN

    @property
    def busy(self) -> bool:
        """True while the session will act without further input (AI turn, pending worker jobs)."""
        return self.ai_turn or self._jobs > 0

    @property
    def thinking(self) -> bool:
        """True while a worker computes (its answer will arrive on the bus)."""
        return self._jobs > 0

    def awaiting_human(self) -> bool:
        """True when a human seat is to act and nothing else is pending."""
        g = self.game
        return g is not None and g.phase != GAME_OVER and not self.busy

    @property
    def undo_player(self) -> int | None:
        """The player who can take an action back now, or None."""
        return self._undo_player if self._undo else None

    def meta(self) -> dict[str, Any]:
        """What a save needs besides the engine state: who plays which seat, since when."""
        return {
            "game_id": self.game_id,
            "kinds": list(self.kinds),
            "started": self.started_at,
            "setup": dataclasses.asdict(self.setup) if self.setup else None,
            "seat_changes": [list(change) for change in self.seat_log],
        }

    def public_snapshot(self, resumed: bool = False) -> Message:
        raise NotImplementedError

    # ------------------------------------------------------------ starting and stopping
    def start(self, setup: GameSetup) -> None:
        raise NotImplementedError

    def resume(
        self,
        game: G,
        kinds: tuple[str, ...] | list[str],
        *,
        game_id: str | None = None,
        started: float | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Continue a saved `game` exactly where it stopped (`meta`: what the save says besides the state)."""
        raise NotImplementedError

    def _begin(self, game: G, setup: GameSetup) -> None:
        """Start `game` fresh (abandoning a running one of this kind)."""
        if self.game is not None and self.game.phase != GAME_OVER:
            self.abandon("a new game was started", replaced=True)
        self._install(game, setup, uuid.uuid4().hex, time.time(), resumed=False)

    def _continue(
        self,
        game: G,
        setup: GameSetup,
        game_id: str | None,
        started: float | None,
        meta: Mapping[str, Any] | None = None,
        seat_log: list[tuple[int, int, str]] | None = None,
    ) -> None:
        """Continue a saved `game` exactly where it stopped (`meta`: the save's, for its seat changes;
        `seat_log`: a game set aside keeps its own)."""
        log_ = seat_log if seat_log is not None else seat_changes_of(meta, len(setup.seats))
        self._install(
            game,
            setup,
            game_id or uuid.uuid4().hex,
            started if started is not None else time.time(),
            resumed=True,
            seat_log=log_,
        )

    def _install(
        self,
        game: G,
        setup: GameSetup,
        game_id: str,
        started: float,
        resumed: bool,
        seat_log: list[tuple[int, int, str]] | None = None,
    ) -> None:
        if self.set_aside is not None and self.set_aside.game is not game:
            self.let_go()  # another game starts: the one set aside is archived first
        self._cancel_timers()
        self._drop_undo()
        self.seat_log = list(seat_log or [])
        self.game, self.setup, self.game_id = game, setup, game_id
        self.started_at = started
        self._started_clock = self.clock.now()
        self._quiet_until = self.clock.now()
        self._game_installed(resumed)
        self._ais = {}
        for i, kind in enumerate(setup.kinds):
            if kind != HUMAN:
                seed = None if game.seed is None else game.seed * 10 + i
                self._ais[i] = self.ai_factory(kind, seed)
        log.info(
            "%s %s %s: %s, seed %s",
            self.noun,
            game_id[:8],
            "resumed" if resumed else "started",
            ",".join(setup.kinds),
            game.seed,
        )
        self.bus.post(self.public_snapshot(resumed))
        self._save(Moment.RESUME if resumed else Moment.BEGIN)
        self._turn_begins(new_turn=True)

    def _game_installed(self, resumed: bool) -> None:
        """Hook: a game was just started or resumed (before its snapshot is posted)."""

    def abandon(self, reason: str = "", replaced: bool = False) -> None:
        """Stop the running game without a winner (its save is archived through the hook); `replaced`:
        a new game takes its place (the screens wait for it instead of going back to start)."""
        if self.game is None:
            return
        self._cancel_timers()
        self._new_turn_token()
        self._drop_undo()
        if self.game.phase != GAME_OVER:
            self._save(Moment.ABANDON)
            self.bus.post(GameAbandoned(reason or "abandoned", replaced))
            log.info("%s %s abandoned: %s", self.noun, (self.game_id or "")[:8], reason)
        self.game = None
        self._reset_turn_state()

    def suspend(self, reason: str = "", keep_s: float = 0.0) -> None:
        """Set the running game aside for `keep_s` seconds (``SuspendGame``): to everyone it stops
        as if abandoned, but its save stays where it is (a power cut meanwhile resumes it) and
        ``ContinueGame`` brings it back exactly as it stood; then it is archived (``let_go``)."""
        g = self.game
        if g is None or g.phase == "over" or self.setup is None:
            return
        if keep_s <= 0:
            self.abandon(reason)
            return
        if self.set_aside is not None:
            self.let_go()
        self._cancel_timers()
        self._new_turn_token()
        colours = tuple(self.color_of(i) for i in range(len(self.kinds)))
        kept = SetAside(
            g,
            self.setup,
            self.game_id,
            self.started_at,
            self.clock.now() + keep_s,
            keep_s,
            colours,
            None,
            self.seat_log,
        )
        kept.timer = self.clock.call_later(keep_s, self.let_go)
        self.set_aside = kept
        self.bus.post(GameAbandoned(reason or "set aside"))
        log.info("%s %s set aside for %.0f s: %s", self.noun, (self.game_id or "")[:8], keep_s, reason)
        self.game = None
        self._reset_turn_state()

    def let_go(self) -> None:
        """The game set aside is not continued: archive it as abandoned (through the save hook)."""
        kept, self.set_aside = self.set_aside, None
        if kept is None:
            return
        if kept.timer is not None:
            kept.timer.cancel()
        running = self.game, self.setup, self.game_id, self.seat_log
        self.game, self.setup, self.game_id, self.seat_log = kept.game, kept.setup, kept.game_id, kept.seat_log
        try:
            self._save(Moment.ABANDON)
        finally:
            self.game, self.setup, self.game_id, self.seat_log = running
        log.info("%s %s was not continued: archived", self.noun, (kept.game_id or "")[:8])

    def continue_set_aside(self) -> bool:
        """Bring back the game set aside, exactly as it stood; False if there is none."""
        kept = self.set_aside
        if kept is None:
            return False
        if self.game is not None and self.game.phase != "over":
            return False  # a game runs: it is not thrown away for the old one
        self.set_aside = None
        if kept.timer is not None:
            kept.timer.cancel()
        self._continue(kept.game, kept.setup, kept.game_id, kept.started_at, seat_log=kept.seat_log)
        return True

    def _on_continue(self, cmd: ContinueGame) -> None:
        if cmd.game and cmd.game != self.game_name:
            return
        if not self.continue_set_aside() and cmd.game == self.game_name:
            self._refuse(cmd, "There is no game to continue any more.", code="nothing_to_continue")

    def _reset_turn_state(self) -> None:
        """Hook: forget the current player's half-made input (selection, rotation...)."""

    def close(self) -> None:
        """Stop timers and the worker (at kiosk shutdown)."""
        self._cancel_timers()
        self._new_turn_token()
        for unsub in self._subs:
            unsub()
        if self._own_executor:
            self._executor.shutdown(wait=False, cancel_futures=True)

    def _on_other_game(self, cmd: NewGame) -> None:
        if cmd.setup.game != self.game_name:
            self.let_go()  # archived before the other game's first save takes the save's place
            if self.game is not None:
                self.abandon("another game was started", replaced=True)

    def _on_new_game(self, cmd: NewGame) -> None:
        if cmd.setup.game != self.game_name:
            return
        try:
            self.start(cmd.setup)
        except ValueError as exc:
            self._refuse(cmd, f"Cannot start this game: {exc}", code="bad_setup")

    def _game_ended(self, over: Message) -> None:
        """The game is over: no more turns; save the end and announce it."""
        self._new_turn_token()
        self._drop_undo()
        self._save(Moment.END)
        self.bus.post(over)

    @property
    def _duration(self) -> float:
        """Seconds of play on the session's clock."""
        return round(self.clock.now() - self._started_clock, 3)

    # ------------------------------------------------------------ turn flow
    def _turn_begins(self, new_turn: bool) -> None:
        raise NotImplementedError

    def _new_turn_token(self) -> int:
        self._turn_token = next(self._token)
        return self._turn_token

    def _submit(self, job: Callable[[], Message], failed: Callable[[str], Message], what: str) -> None:
        """Run `job` on the worker; it posts the answer `job` returns, or `failed(error)` if it raises.

        The worker must always answer: the session counts the jobs in flight
        (``thinking``), and a person would otherwise wait for ever.
        """
        self._jobs += 1
        bus = self.bus

        def think() -> None:
            try:
                answer = job()
            except BaseException as exc:
                log.exception("%s failed", what)
                answer = failed(f"{type(exc).__name__}: {exc}")
            bus.post(answer)

        self._executor.submit(think)

    def _answer_is_current(self, ev) -> bool:
        """A worker answered: count it; True if it is for the decision still due (else it is dropped)."""
        self._jobs = max(0, self._jobs - 1)
        g = self.game
        if g is None or ev.token != self._turn_token or ev.player != g.current or g.phase == GAME_OVER:
            log.debug("dropping a stale AI answer for player %s", ev.player)
            return False
        return True

    def _on_ai_decided(self, ev) -> None:
        raise NotImplementedError

    def _first_delay(self, think: bool = True) -> float:
        """The pause before an AI's first step: the rest of its thinking time, and running animations."""
        now = self.clock.now()
        thought = self.pacing.think - (now - (self._ai_thinking_since or now)) if think else 0.0
        return max(thought, self._quiet_until - now, self._undo_until - now, 0.0)

    def _run_steps(self, steps: list[Step]) -> None:
        """Start a paced plan for this turn: each step is posted `delay` after the previous one was handled."""
        self._plan = (self._turn_token, list(steps))
        self._plan_next()

    def _plan_next(self) -> None:
        token, steps = self._plan
        if not steps or self.game is None or token != self._turn_token:
            self._plan = (0, [])
            return
        delay, make = steps.pop(0)

        def fire() -> None:
            if self.game is None or token != self._turn_token:
                return
            cmd = make()  # built now: it may depend on the state the previous step left
            if cmd is not None:
                self.bus.post(cmd)

        self._timers = [t for t in self._timers if not t.cancelled]
        self._timers.append(self.clock.call_later(delay, fire))

    def _handled(self, handler: Callable[[Any], None]) -> Callable[[Any], None]:
        """Wrap a command handler: after an AI seat's command is handled, the next paced step follows."""

        def run(cmd) -> None:
            if getattr(cmd, "source", "") == "ai":
                self._ai_acted_token = self._turn_token  # a Join now would take over a turn half played
            try:
                handler(cmd)
            finally:
                if getattr(cmd, "source", "") == "ai":
                    self._plan_next()

        return run

    def _cancel_timers(self) -> None:
        for t in self._timers:
            t.cancel()
        self._timers.clear()
        self._plan = (0, [])

    # ------------------------------------------------------------ undo
    def _undo_point(self) -> G | None:
        """Before an action: the state an undo goes back to (None: a computer acts, no undo)."""
        g = self.running
        return g.copy() if self.kinds[g.current] == "human" else None

    def _undoable(self, player: int, before: G | None) -> None:
        """After `player`'s action (started from `before`): it can be taken back until another player acts."""
        g = self.running
        if before is None or g.phase == "over":
            self._drop_undo()
            return
        if self._undo_player != player:
            self._drop_undo()
        self._undo.append(before)
        self._undo_player = player
        if g.current != player and self.kinds[g.current] != "human":
            self._undo_until = self.clock.now() + self.pacing.undo
        if len(self._undo) == 1:
            self.bus.post(UndoChanged(player, True))

    def _drop_undo(self) -> None:
        """The undoable actions are final now (another player acts, the game ended or stopped)."""
        player, had = self._undo_player, bool(self._undo)
        self._undo, self._undo_player, self._undo_until = [], None, 0.0
        if had and player is not None:
            self.bus.post(UndoChanged(player, False))

    def _on_undo(self, cmd: Undo) -> None:
        g = self.game
        if g is None:
            return  # every game's session hears Undo: the one with a game answers
        if g.phase == "over" or not self._undo:
            self._refuse(cmd, "There is nothing to take back now.", code="nothing_to_undo")
            return
        player = self._undo_player
        assert player is not None
        if getattr(cmd, "source", "") == "ai" or (cmd.player is not None and cmd.player != player):
            self._refuse(
                cmd,
                f"Only {self.color_of(player)} can take back their move, before the next player acts.",
                code="not_your_undo",
            )
            return
        self._cancel_timers()
        self._new_turn_token()  # a computer's answer for the turn after is dropped
        self.game = self._undo.pop()
        self._undo_until = 0.0
        self._reset_turn_state()
        log.info("%s %s: player %s took an action back", self.noun, (self.game_id or "")[:8], player)
        self.bus.post(ActionUndone(player))
        if not self._undo:
            self._undo_player = None
            self.bus.post(UndoChanged(player, False))
        self._save(Moment.UNDO)
        self._turn_begins(new_turn=False)

    # ------------------------------------------------------------ seats that change hands
    def _on_call_seat(self, cmd: CallSeat) -> None:
        """ "Red, still there?": the person's seat is called (the ring and the screen show it)."""
        g = self.game
        if g is None or g.phase == GAME_OVER:
            return  # every game's session hears it: the one with a game answers
        if not self._seat_exists(cmd, cmd.player) or self.kinds[cmd.player] != HUMAN:
            return
        self.bus.post(SeatCalled(cmd.player, max(0.0, float(cmd.seconds))))

    def seat_mid_turn(self, player: int) -> bool:
        """True while `player`'s seat is a computer halfway through its turn (a Join waits for its end)."""
        g = self.game
        return (
            g is not None
            and g.current == player
            and self.kinds[player] != HUMAN
            and self._ai_acted_token == self._turn_token
        )

    def _seat_exists(self, cmd: Command, player: Any) -> bool:
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < len(self.kinds):
            self._refuse(cmd, f"There is no seat {player!r} in this {self.noun}.", code="no_such_seat")
            return False
        return True

    def _on_change_seat(self, cmd: ChangeSeat) -> None:
        """A seat changes hands: to a computer (its person walked away) or to a person (Join).

        The last person's seat is never handed to the computer (the idle timeout deals with an
        empty table: docs/rules.md); a computer's seat is taken over at the start of its turn or
        between turns, not halfway through a turn it has begun to play."""
        g = self.game
        if g is None:
            return  # every game's session hears it: the one with a game answers
        if g.phase == GAME_OVER:
            self._refuse(cmd, "The game is over: start a new game to play again.", code="game_over")
            return
        if not self._seat_exists(cmd, cmd.player):
            return
        player, was = cmd.player, self.kinds[cmd.player]
        kind = cmd.kind if cmd.kind == HUMAN else self._seat_level(cmd.kind)
        if kind not in (HUMAN, *self.ai_levels):
            self._refuse(
                cmd, f"{cmd.kind!r} cannot play here: {', '.join((HUMAN, *self.ai_levels))}.", code="bad_seat_kind"
            )
            return
        if kind == was:
            self._refuse(cmd, f"{self.color_of(player)} is played by {kind} already.", code="seat_unchanged")
            return
        if kind != HUMAN and was == HUMAN and self.humans == 1:
            self._refuse(cmd, "The last person's seat stays theirs.", code="last_person")
            return
        if kind == HUMAN and self.seat_mid_turn(player):
            self._refuse(
                cmd, f"{self.color_of(player)} is in the middle of a move: join when it is done.", code="seat_mid_turn"
            )
            return
        assert self.setup is not None
        seats = tuple(dataclasses.replace(s, kind=kind) if i == player else s for i, s in enumerate(self.setup.seats))
        self.setup = dataclasses.replace(self.setup, seats=seats)
        if kind == HUMAN:
            self._ais.pop(player, None)
        else:
            self._ais[player] = self.ai_factory(kind, None if g.seed is None else g.seed * 10 + player)
        # the turn being played is the seat's own (finished by the new player) or someone else's
        first_turn = int(getattr(g, "turns", 0)) + (1 if g.current == player else 2)
        self.seat_log.append((first_turn, player, kind))
        log.info(
            "%s %s: %s's seat is played by %s from turn %d (%s)",
            self.noun,
            (self.game_id or "")[:8],
            self.color_of(player),
            kind,
            first_turn,
            cmd.reason or "asked",
        )
        self.bus.post(SeatChanged(player, kind, was, first_turn, cmd.reason))
        if g.current == player:
            self._cancel_timers()
            self._drop_undo()
            self._reset_turn_state()
            self._save(Moment.SEAT_CHANGE)
            self._turn_begins(new_turn=True)  # the new player's turn: a computer is asked at once
        else:
            self._save(Moment.SEAT_CHANGE)

    def _seat_level(self, kind: str) -> str:
        """A computer level of this game for `kind` (another game's level it plays as one of its own)."""
        try:
            return game_type(self.game_name).seat_kind(kind)
        except ValueError:
            return kind  # a session of no registered game (tests): the level as given

    # ------------------------------------------------------------ refusals
    def _refuse(self, cmd: Command, reason: str, arrow: str | None = None, code: str = "refused") -> None:
        """Answer `cmd` with IllegalInput: `reason` for a person (English), `code` for translations."""
        player = self.game.current if self.game is not None else None
        log.debug("refused %s: %s", cmd.type, reason)
        self.bus.post(IllegalInput(reason, cmd.type, player, arrow, code))

    def _check_player(self, cmd: Command) -> bool:
        """The refusals every game shares: no game, game over, a person during a computer's turn and back."""
        g = self.game
        if g is None:
            self._refuse(cmd, f"No {self.noun} is running: start a new game first.", code="no_game")
            return False
        if g.phase == GAME_OVER:
            self._refuse(cmd, "The game is over: start a new game to play again.", code="game_over")
            return False
        source = getattr(cmd, "source", "")
        kind = self.kinds[g.current]
        if kind != HUMAN and source != "ai":
            self._refuse(
                cmd, f"It is {self.color_of(g.current)}'s turn (computer, {kind}): please wait.", code="computer_turn"
            )
            return False
        if kind == HUMAN and source == "ai":
            self._refuse(cmd, "A computer move arrived during a person's turn; ignored.", code="not_computer_turn")
            return False
        if self._undo and g.current != self._undo_player:
            self._drop_undo()  # the next player acts: the last player's actions are final
        return True

    # ------------------------------------------------------------ saving
    def _save(self, moment: Moment) -> None:
        if self.save is None:
            return
        try:
            self.save(self, moment)
        except Exception:
            # The game goes on; the operator sees it in the journal.
            log.exception("saving the %s failed (%s)", self.noun, moment.value)
