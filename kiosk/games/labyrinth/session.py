"""The game session: the only writer of game state.

It listens on the bus for commands (arrow selected, spare rotated, cell tapped,
stay, new game), turns them into engine actions, and posts events saying what
happened. Humans and AI seats go through the very same commands: an AI turn is
computed on a worker thread (which only posts its answer), then played here
step by step — select the arrow, turn the spare, push, walk — paced by the
clock so people can follow it (``Pacing.FAST`` for headless runs).

Everything in this class runs on the main thread, inside bus dispatch or clock
callbacks; that is why it needs no locks.
"""

from __future__ import annotations

import concurrent.futures
import logging
import random
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping

from engine import IllegalAction
from engine.labyrinth import INSERTIONS, OPPOSITE, Game, Move, Rules, Shift
from engine.labyrinth.ai import LEVELS, make_ai
from engine.labyrinth.maze import CELLS, INSERTION_LINES
from engine.labyrinth.parts import GAME_NAME, Phase
from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock
from kiosk.core.events import AIThinking, Command, GameSetup, SeatSetup, Undo
from kiosk.core.session import GameSession, PacingBase, Step
from kiosk.games import HUMAN, Moment
from kiosk.games.labyrinth.events import (
    BOARD_COMMANDS,
    AIDecided,
    BoardShifted,
    Commands,
    GameOver,
    GameStarted,
    HintReady,
    PawnCarry,
    PawnMoved,
    PlayerInfo,
    PreviewMoved,
    PushArrow,
    RequestHint,
    RotateSpare,
    SelectArrow,
    SpareRotated,
    Stay,
    TapCell,
    TargetChanged,
    TileInfo,
    TreasureFound,
    TurnChanged,
    tile_info,
)

log = logging.getLogger(__name__)

#: An arrow button pressed again this soon after it pushed is a hand still hammering it, not an undo.
BUTTON_UNDO_AFTER_S = 1.0


def _chosen(game: Game) -> dict[str, Any]:
    """The variants of a running game that differ from the declared defaults (GameSetup.variants)."""

    kind = games.get(GAME_NAME)
    values = kind.variant_values(game)
    return {v.name: values[v.name] for v in kind.variants if values[v.name] != v.default}


@dataclass(frozen=True)
class Pacing(PacingBase):
    """Pauses (seconds) that let people follow an AI turn and the animations."""

    think: float = 1.0  # an AI seems to think at least this long
    select: float = 0.7  # preview at the chosen arrow before turning the spare
    rotate: float = 0.35  # between two quarter turns of the spare
    push: float = 0.6  # before the push
    after_shift: float = 0.7  # the row slides in, pawns are carried
    walk_step: float = 0.18  # per cell of the pawn's walk
    after_move: float = 0.5  # after the walk, before the next player acts
    undo: float = 3.0  # after a person's walk, before a computer's first step: time to take it back

    FAST: ClassVar[Pacing]  # no pauses at all (headless runs, tests)


Pacing.FAST = Pacing.fast()

# save(session, moment): the moment of the game to keep (kiosk.games.Moment; a shift or a move is a STEP).
SaveHook = Callable[["Session", Moment], None]


#: the searching AIs' least wall-clock time per decision in the kiosk: what they had before they
#: thought while people watch (``think_budget``)
AI_TIME_LIMIT_S = 0.4
#: a decision overruns its budget by this share at most (engine.labyrinth.ai's hard cap, tested)
AI_OVERRUN = 1.1


def think_budget(wait_s: float, cap_s: float) -> float:
    """How long a computer may think when the people at the table wait `wait_s` seconds anyway
    before its first step (the undo grace after a person's walk, the walk's animation, the
    pause in which a computer is shown thinking): so long that even a decision overrunning its
    budget ends within that wait, never less than it always had (AI_TIME_LIMIT_S), never more
    than the operator's cap `cap_s` (``[kiosk] ai_think_ms``). labyrinth-sim --pi-factor divides it."""
    return min(cap_s, max(AI_TIME_LIMIT_S, wait_s / AI_OVERRUN))


def default_ai_factory(level: str, seed: int | None):
    """The engine's AI players (``engine.labyrinth.ai.make_ai``).

    The searching players (their class is ``clock_capped``) stop after a fixed amount of work
    (deterministic); the clock here is only a safety cap so that a slow Pi never
    leaves a visitor waiting.
    """

    if level in LEVELS and LEVELS[level].clock_capped:
        return make_ai(level, seed=seed, clock=time.monotonic, time_limit=AI_TIME_LIMIT_S)
    return make_ai(level, seed=seed)


class Session(GameSession[Game]):
    """Owns the running :class:`engine.Game`; commands in, events out (see docs/events.md).

    The life cycle, the AI worker, pacing, saving and the common refusals are
    :class:`kiosk.core.session.GameSession`'s; this class adds the board game's
    commands and turn flow.
    """

    game_name = GAME_NAME
    noun = "game"
    ai_levels = tuple(LEVELS)
    #: the commands it hears and its computer seats post (events.Commands)
    commands: ClassVar[Commands] = BOARD_COMMANDS
    #: the arrow button that just pushed, pressed again before the walk, takes the push back
    arrow_takes_back: ClassVar[bool] = True

    def __init__(
        self,
        bus: Bus,
        clock: Clock | None = None,
        *,
        confirm_push: bool = True,
        pacing: Pacing | None = None,
        ai_factory: Callable[[str, int | None], Any] | None = None,
        save: SaveHook | None = None,
        hint_level: str = "medium",
        executor: concurrent.futures.Executor | None = None,
        think_cap_s: float = AI_TIME_LIMIT_S,
        button_test: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(
            bus,
            clock,
            pacing=pacing or Pacing(),
            ai_factory=ai_factory or default_ai_factory,
            save=save,
            executor=executor,
            button_test=button_test,
        )
        self.confirm_push = confirm_push
        self.hint_level = hint_level
        self.think_cap_s = think_cap_s  # the most a computer thinks about a turn (think_budget)
        self._ai_stop = threading.Event()  # set: the search running on the worker is no longer wanted
        self.preview: str | None = None  # the arrow the spare is previewed at
        self.pushed_at: float | None = None  # clock time of the last push (the arrow button's undo)
        self.rotation: int = 0  # quarter turns of the spare since the turn began
        self._hint_player = None
        c = self.commands
        self._subscribe(
            {
                c.select: self._on_select,
                c.push: self._on_push,
                c.rotate: self._on_rotate,
                c.tap: self._on_tap,
                c.stay: self._on_stay,
            },
            {c.hint: self._on_hint},
            AIDecided,
        )

    # ------------------------------------------------------------ queries (main thread)
    def color_of(self, player: int) -> str:
        return self.running.players[player].color

    def target_of(self, player: int) -> str | None:
        """The secret target (top card) of `player`, or None when heading home. For the peek only."""
        return self.game.players[player].target if self.game else None

    def visible_cards(self, player: int) -> tuple[str, ...]:
        """What `player` may look at now: the top card (classic) or all cards (open cards)."""
        if not self.game:
            return ()
        p = self.game.players[player]
        return tuple(p.cards) if self.game.rules.open_cards else tuple(p.cards[:1])

    def spare_preview(self) -> TileInfo | None:
        """The spare as shown now (turned by the pending rotation)."""
        return self._turned_spare(self.game) if self.game else None

    def _turned_spare(self, g: Game) -> TileInfo:
        return tile_info(g.spare.rotated(self.rotation))

    def public_snapshot(self, resumed: bool = False) -> GameStarted:
        g = self.game
        assert g is not None
        players = tuple(
            PlayerInfo(i, p.seat, p.color, self.kinds[i], p.home, p.position, p.cards_left, tuple(p.found))
            for i, p in enumerate(g.players)
        )
        board = tuple(tile_info(g.board[(r, c)]) for r in range(7) for c in range(7))
        return GameStarted(
            g.seed,
            players,
            board,
            tile_info(g.spare),
            g.current,
            g.phase,
            g.forbidden,
            g.turns,
            g.rules.open_cards,
            g.rules.return_home,
            resumed,
        )

    # ------------------------------------------------------------ starting and stopping
    def start(self, setup: GameSetup) -> None:
        """Start a new game (abandoning any running one)."""
        corners = [s.seat for s in setup.seats]
        seats = [c for c in corners if c is not None]
        if seats and len(seats) != len(corners):
            raise ValueError("give a seat corner for every player or for none")
        game = Game.new(
            players=len(setup.seats),
            seed=setup.seed,
            rules=Rules(
                open_cards=setup.variant("open_cards"),
                return_home=setup.variant("return_home"),
                turn_limit=setup.turn_limit,
                treasures=setup.variant("treasures"),
            ),
            seats=seats or None,
            first=setup.first,
        )
        self._begin(game, setup)

    def resume(
        self,
        game: Game,
        kinds: tuple[str, ...] | list[str],
        *,
        game_id: str | None = None,
        started: float | None = None,
        hints: bool | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Continue a saved game exactly where it stopped (`hints`: the saved setup's choice,
        else read from the save's `meta`)."""
        saved_setup = (meta or {}).get("setup")
        if hints is None and isinstance(saved_setup, dict):
            hints = saved_setup.get("hints")
        setup = GameSetup(
            seats=tuple(SeatSetup(k, p.seat) for k, p in zip(kinds, game.players, strict=True)),
            seed=game.seed,
            first=0,
            variants=_chosen(game),
            hints=hints if isinstance(hints, bool) else None,
            turn_limit=game.rules.turn_limit,
            game=GAME_NAME,
        )
        self._continue(game, setup, game_id, started, meta)

    def _reset_turn_state(self) -> None:
        self.preview, self.rotation = None, 0

    # ------------------------------------------------------------ turn flow
    def _turn_begins(self, new_turn: bool = True) -> None:
        """Announce whose turn and phase it is; at a new turn, hand an AI seat to the worker.

        The turn token changes with every new turn (and new game, abandon), so
        answers and paced steps meant for an earlier turn are dropped.
        """
        g = self.game
        if g is None or g.phase == Phase.OVER:
            return
        self.preview, self.rotation = None, 0
        if new_turn:
            self._new_turn_token()
        kind = self.kinds[g.current]
        reachable = tuple(sorted(g.reachable())) if g.phase == Phase.MOVE else ()
        self.bus.post(TurnChanged(g.current, g.phase, g.turns, g.forbidden, kind, reachable))
        if kind != HUMAN and new_turn:
            self._ask_ai(hint=False)

    def _ask_ai(self, hint: bool) -> None:
        g = self.game
        assert g is not None
        player, token = g.current, self._turn_token
        level = self.hint_level if hint else self.kinds[player]
        budget = None  # the search's time, for the levels that search (clock_capped)
        if hint:
            ai = self._hint_ai()
        else:
            ai = self._ais[player]
            now = self._ai_thinking_since = self.clock.now()
            self.bus.post(AIThinking(player, level))
            if getattr(ai, "clock_capped", False):
                # It thinks while people watch: as long as they wait anyway before its first step.
                wait = max(self.pacing.think, self._quiet_until - now, self._undo_until - now)
                budget = think_budget(wait, self.think_cap_s)
        snapshot, stop = g.copy(), self._ai_stop.is_set

        def think() -> AIDecided:
            if snapshot.phase == Phase.SHIFT:
                if budget is None:
                    shift, move = ai.choose(snapshot)
                else:
                    shift, move = ai.choose(snapshot, time_limit=budget, stop=stop)
                cell = move.cell
            else:  # resumed in the move phase: only the walk is left
                shift, cell = Shift(snapshot.last_insertion or "N1", 0), _best_walk(snapshot)
            return AIDecided(player, shift.insertion, shift.rotation, tuple(cell), token, hint)

        self._submit(think, lambda error: AIDecided(player, "", 0, (0, 0), token, hint, error=error), f"AI {level}")

    def _new_turn_token(self) -> int:
        """A new turn, an undo, a new or abandoned game: the search still running on the worker
        answers a position that no longer comes, so it stops now (its answer would be dropped)
        and the worker is free for the next one."""
        self._ai_stop.set()
        self._ai_stop = threading.Event()
        return super()._new_turn_token()

    def _hint_ai(self):
        if self._hint_player is None:
            self._hint_player = self.ai_factory(self.hint_level, None)
        return self._hint_player

    def _on_ai_decided(self, ev: AIDecided) -> None:
        if not self._answer_is_current(ev):
            return
        g = self.running
        if ev.hint:
            if not ev.error and g.phase == Phase.SHIFT:
                # a hint a child can follow: the spare waits at the suggested arrow, turned as
                # suggested (one more tap on that arrow pushes); the board then marks where to walk
                self.preview, self.rotation = ev.insertion, ev.rotation % 4
                self.bus.post(PreviewMoved(ev.player, ev.insertion, self.rotation, self._turned_spare(g)))
                self.bus.post(HintReady(ev.player, ev.insertion, ev.rotation, ev.cell))
            return
        insertion, rotation = ev.insertion, ev.rotation
        cell: tuple[int, int] | None = ev.cell
        if ev.error or (g.phase == Phase.SHIFT and (insertion not in INSERTIONS or insertion == g.forbidden)):
            log.error("AI answer unusable (%s): playing a random legal turn instead", ev.error or insertion)
            rng = random.Random()
            shift = rng.choice(g.legal_shifts()) if g.phase == Phase.SHIFT else Shift("N1")
            insertion, rotation, cell = shift.insertion, shift.rotation, None
        self._play_out(insertion, rotation % 4, cell)

    def _play_out(self, insertion: str, rotation: int, cell: tuple[int, int] | None) -> None:
        """Play an AI decision through the same commands a person would send, paced."""
        p = self.pacing
        g = self.running
        steps: list[Step] = []
        c = self.commands
        first = self._first_delay()
        if g.phase == Phase.SHIFT:
            steps.append((first, lambda: c.select(insertion, source="ai")))
            for k in range(rotation):
                steps.append((p.rotate if k else p.select, lambda: c.rotate(1, source="ai")))
            steps.append(
                (
                    p.push,
                    lambda: c.select(insertion, source="ai") if self.confirm_push else c.push(insertion, source="ai"),
                )
            )
            first = p.after_shift
        steps.append((first, lambda: self._ai_walk_command(cell)))
        self._run_steps(steps)

    def _ai_walk_command(self, cell: tuple[int, int] | None) -> Command:
        g = self.running
        walk = (cell[0], cell[1]) if cell is not None and tuple(cell) in g.reachable() else _best_walk(g)
        c = self.commands
        command: Command = c.stay(source="ai") if walk == g.player.position else c.tap(walk, source="ai")
        return command

    # ------------------------------------------------------------ refusals
    def _check_turn(self, cmd: Command, phase: str | None) -> bool:
        """Common refusals (no game, game over, someone else's turn), then the wrong phase."""
        if not self._check_player(cmd):
            return False
        g = self.running
        if phase == Phase.SHIFT and g.phase != Phase.SHIFT:
            self._refuse(
                cmd,
                "The spare is already pushed in: now tap a cell to walk there, or your own pawn to stay.",
                code="already_pushed",
            )
            return False
        if phase == Phase.MOVE and g.phase != Phase.MOVE:
            self._refuse(cmd, "First push the spare tile in at one of the arrows.", code="push_first")
            return False
        return True

    def _check_arrow(self, cmd: Command, arrow: str | None) -> bool:
        if arrow is None or arrow not in INSERTIONS:
            self._refuse(cmd, f"{arrow!r} is not an arrow; the arrows are {' '.join(INSERTIONS)}.", code="not_an_arrow")
            return False
        if arrow == self.running.forbidden:
            self._refuse(
                cmd,
                f"{arrow} would push straight back the tile just pushed in at {OPPOSITE[arrow]}: choose another arrow.",
                arrow,
                code="push_back",
            )
            return False
        return True

    # ------------------------------------------------------------ command handlers
    def _on_select(self, cmd: SelectArrow) -> None:
        if not self._check_turn(cmd, "shift") or not self._check_arrow(cmd, cmd.arrow):
            return
        if cmd.arrow == self.preview or not self.confirm_push:
            self._push(cmd, cmd.arrow)
            return
        g = self.running
        self.preview = cmd.arrow
        self.bus.post(PreviewMoved(g.current, cmd.arrow, self.rotation, self._turned_spare(g)))

    def _on_push(self, cmd: PushArrow) -> None:
        if not self._check_turn(cmd, "shift"):
            return
        arrow = cmd.arrow or self.preview
        if arrow is None:
            self._refuse(cmd, "Choose an arrow first: the spare goes in where you point.", code="choose_arrow")
            return
        if self._check_arrow(cmd, arrow):
            self._push(cmd, arrow)

    def _on_rotate(self, cmd: RotateSpare) -> None:
        if not self._check_turn(cmd, "shift"):
            return
        if not isinstance(cmd.turns, int) or isinstance(cmd.turns, bool):
            self._refuse(cmd, f"Turn the spare by whole quarter turns, not {cmd.turns!r}.", code="whole_turns")
            return
        g = self.running
        self.rotation = (self.rotation + cmd.turns) % 4
        self.bus.post(SpareRotated(g.current, self.rotation, self._turned_spare(g)))

    def _on_tap(self, cmd: TapCell) -> None:
        if not self._check_turn(cmd, "move"):
            return
        try:
            cell = tuple(int(v) for v in cmd.cell)
        except (TypeError, ValueError):
            cell = None
        if cell is None or len(cell) != 2:
            self._refuse(cmd, f"{cmd.cell!r} is not a cell of the board.", code="not_a_cell")
            return
        self._walk(cmd, cell)

    def _on_stay(self, cmd: Stay) -> None:
        if self._check_turn(cmd, "move"):
            self._walk(cmd, self.running.player.position)

    def _on_hint(self, cmd: RequestHint) -> None:
        if not self._check_turn(cmd, "shift"):
            return
        self._ask_ai(hint=True)

    def button(self, name: str) -> Command | None:
        """An arrow button previews (and again pushes) there; rotate turns the spare; stay ends the move.
        The arrow that just pushed, pressed again before the walk, takes the push back (docs/keys.md)."""
        c = self.commands
        if name == "rotate":
            return c.rotate(1, source="button")
        if name == "stay":
            return c.stay(source="button")
        if self.arrow_takes_back and self.takes_push_back(name):
            return Undo(self.running.current, source="button")
        return c.select(name, source="button")

    def takes_push_back(self, name: str) -> bool:
        """Whether a press of arrow button `name` now takes the push back: it is the arrow the person whose
        turn it is just pushed, they have not walked yet (the push is theirs to undo), and the press is not
        the same hand still on it (BUTTON_UNDO_AFTER_S). Safe: in the move phase an arrow does nothing
        else, and the arrow that would push the row back is the one the no-push-back rule forbids."""
        g = self.game
        if g is None or g.phase != "move" or name != g.last_insertion or self.undo_player != g.current:
            return False
        pushed_at = self.pushed_at
        return pushed_at is not None and self.clock.now() - pushed_at >= BUTTON_UNDO_AFTER_S

    # ------------------------------------------------------------ committing actions
    def _push(self, cmd: Command, arrow: str) -> None:
        g = self.running
        player = g.current
        line_cells = _LINE_CELLS[arrow]
        before = {i: p.position for i, p in enumerate(g.players)}
        inserted = self._turned_spare(g)
        undo_point = self._undo_point()
        try:
            g.apply(Shift(arrow, self.rotation))
        except IllegalAction as exc:
            self._refuse(cmd, str(exc), arrow, code="push_refused")
            return
        pawns = []
        for i, p in enumerate(g.players):
            if p.position != before[i]:
                wrapped = before[i] == line_cells[-1]
                pawns.append(PawnCarry(i, before[i], p.position, wrapped))
        rotation = self.rotation
        self.preview, self.rotation = None, 0
        self.bus.post(
            BoardShifted(
                player, arrow, rotation, line_cells, inserted, tile_info(g.spare), tuple(pawns), OPPOSITE[arrow]
            )
        )
        self._quiet_until = self.clock.now() + self.pacing.after_shift
        self.pushed_at = self.clock.now()  # the arrow button's undo waits a moment after (takes_push_back)
        self._undoable(player, undo_point)
        self._save(Moment.STEP)
        self._turn_begins(new_turn=False)

    def _walk(self, cmd: Command, cell: tuple[int, int]) -> None:
        g = self.running
        player = g.current
        p = g.player
        route = g.path_to(cell) if 0 <= cell[0] < 7 and 0 <= cell[1] < 7 else None
        found_before = len(p.found)
        cards_before = p.cards_left
        undo_point = self._undo_point()
        try:
            g.apply(Move(cell))
        except IllegalAction as exc:
            on_board = 0 <= cell[0] < 7 and 0 <= cell[1] < 7
            self._refuse(cmd, str(exc), code="unreachable" if on_board else "not_a_cell")
            return
        path = tuple(route or [cell])
        self.bus.post(PawnMoved(player, path))
        self._quiet_until = self.clock.now() + self.pacing.walk_step * (len(path) - 1) + self.pacing.after_move
        for treasure in p.found[found_before:]:
            self.bus.post(TreasureFound(player, treasure, p.cards_left))
        if p.cards_left != cards_before and g.phase != Phase.OVER:
            self.bus.post(TargetChanged(player, p.cards_left, p.cards_left == 0 and g.rules.return_home))
        if g.outcome is not None:  # the game is over
            self._game_ended(
                GameOver(
                    g.winners,
                    g.turns,
                    tuple(tuple(q.found) for q in g.players),
                    self.kinds,
                    self.duration,
                    g.outcome.termination,
                )
            )
            log.info(
                "game %s over (%s): player(s) %s won after %s turns",
                (self.game_id or "")[:8],
                g.outcome.termination.value,
                list(g.winners),
                g.turns,
            )
            return
        self._undoable(player, undo_point)
        self._save(Moment.STEP)
        self._turn_begins()


def _best_walk(game: Game) -> tuple[int, int]:
    """A sensible walk when only the move is left: onto a target if reachable, else closest to it."""
    reach = game.reachable()
    p = game.player
    cells = [game.treasure_cell(t) for t in game.targets()]
    goals = [c for c in cells if c is not None] or [p.home]
    return min(sorted(reach), key=lambda c: min(abs(c[0] - g[0]) + abs(c[1] - g[1]) for g in goals))


def _lines() -> dict[str, tuple[tuple[int, int], ...]]:

    return {name: tuple(CELLS[i] for i in cells) for name, (cells, _) in INSERTION_LINES.items()}


_LINE_CELLS = _lines()
