"""The Kiosk: bus + session + hardware + persistence wired together; one ``tick()`` per loop.

Every way of running (full screen, window, offscreen, headless) builds one
``Kiosk`` and calls ``tick()`` from its main loop: clock timers run, then the
bus dispatches what is queued (within a time budget), then the systemd
watchdog is pinged. The edges are chosen by options:

- buttons: the real ``hardware.ArrowButtons`` on gpiozero's pin library, or on
  its ``MockFactory`` (headless, ``--simulate``, off a Pi), posting
  ``ButtonPressed`` from gpiozero's thread;
- the LED ring: ``hardware.make_ring`` from config, or a virtual ring that
  records its pictures (headless);
- persistence: ``kiosk.store.game_persistence.GamePersistence`` in the state directory: each
  session tells it every moment of its game (saved after every committed action; at the end the
  history line, the record, the clean-up).

The games come from the registry (kiosk.games): one session per registered
game on the same bus, started by ``NewGame(setup)`` with ``setup.game`` its
name. The kiosk names no game: the life-cycle events every game shares
(kiosk.core.events: GameBegan, TurnBegan, GameEnded) are all it listens to.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, Callable

from engine.outcome import GAME_OVER

from kiosk.games import HUMAN, Moment
from kiosk import games
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock, RealClock, Timer, VirtualClock
from kiosk.core.config import Config
from kiosk.core.events import ButtonPressed, GameEnded, GameSetup, KioskStopping, Message, NewGame, Quit, SeatSetup
from kiosk.core.ring_view import RingView
from kiosk.core.session import GameSession

if TYPE_CHECKING:  # imported when used: the kiosk's start-up counts
    from hardware import ArrowButtons, ArrowLeds

    from kiosk.store.game_persistence import GamePersistence
    from kiosk.store.records import RecordShelf
    from kiosk.store.history import History
    from kiosk.store.persistence import GameStore, StateLock
    from kiosk.core.sdnotify import Notifier, Watchdog

log = logging.getLogger(__name__)

# Pauses of the default pacing that [kiosk] ai_pace_ms = 800 stands for.
_DEFAULT_PACE_MS = 800


@dataclass
class KioskOptions:
    """How this kiosk runs (the CLI fills it from the command line and the config)."""

    fast: bool = False  # virtual clock, no pacing (headless runs, tests)
    mock_pins: bool = True  # gpiozero MockFactory instead of the configured pin library
    ring: str | None = None  # ring driver override ("virtual", "none"); None: config
    ring_object: Any = None  # a ready ring (tests)
    state_dir: Path | None = None  # None: no saving
    setup: GameSetup | None = None  # the game to start (headless); None: the UI decides
    auto_play: bool = False  # start `setup` at once and again after each game
    start_game: bool = False  # start `setup` once at start (display modes with --players)
    games: int | None = None  # stop after this many finished games
    next_game_delay: float = 5.0  # pause between games with auto_play (0 with fast)
    resume: bool = True  # resume a recent saved game at start
    persist_ai_games: bool = False  # also save games with no human seat (demo games)
    record_ai_games: bool = False  # also put them in the history
    show_ai_games_on_ring: bool = False
    events_out: IO[str] | None = None  # a text file: every bus message as one JSON line
    dispatch_budget_s: float = 0.008  # bus time per tick, so a flood cannot stall a frame
    ai_executor: Any = None  # a concurrent.futures executor (tests)
    random_first: bool = False  # each game's first player from [game] first_player (random)
    #: another kiosk holds the state directory: "exit" (StateDirBusy from the constructor) or
    #: "unsaved" (run without saving anything)
    if_busy: str = "exit"


class Kiosk:
    """The running application without its window. See the module docstring."""

    def __init__(
        self,
        config: Config | None = None,
        options: KioskOptions | None = None,
        *,
        clock: Clock | None = None,
        pin_factory=None,
    ) -> None:
        self.config = config or Config()
        self.options = options or KioskOptions()
        opts = self.options
        self.clock = clock or (VirtualClock() if opts.fast else RealClock())
        self.bus = Bus()
        self.exit_status = 0
        self.stopping = False
        self.stopped = False
        self.stop_reason = ""
        self.games_finished = 0
        self.button_test = False
        self._next_game_timer: Timer | None = None
        self._game_index = 0
        self._closers: list[Callable[[], None]] = []
        self._events_lock = threading.Lock()
        self._events_failed = False  # writing the events file failed: no more lines are tried

        if opts.events_out is not None:
            self.bus.subscribe_all(self._write_event)

        # persistence: the three parts of `persistence` by themselves, for the screens that read them
        self.persistence: GamePersistence | None = None
        self.store: GameStore | None = None
        self.history: History | None = None
        self.record_shelf: RecordShelf | None = None  # kiosk/store/records.py: every finished game as a record
        self.state_lock: StateLock | None = None  # held while a state directory is open
        if opts.state_dir is not None:
            try:
                self._open_state_dir(Path(opts.state_dir))
            except BaseException:  # no kiosk to close(): the lock must not outlive this attempt
                if self.state_lock is not None:
                    self.state_lock.release()
                raise

        # one session per registered game, on the same bus; NewGame(setup) starts setup.game's
        session_options = games.SessionOptions(
            self.bus,
            self.clock,
            fast=opts.fast,
            pace=self.config.kiosk.ai_pace_ms / _DEFAULT_PACE_MS,
            save=self._save,
            executor=opts.ai_executor,
            config=self.config,
        )
        self.sessions: dict[str, GameSession] = {}
        for game in games.all_games():
            session = self.sessions[game.name] = game.session(session_options)
            self._closers.append(session.close)

        # hardware
        self.pin_factory = pin_factory
        self.buttons: ArrowButtons | None = None
        self.leds: ArrowLeds | None = None
        self._open_buttons()
        self.ring = opts.ring_object if opts.ring_object is not None else self._open_ring()
        self.ring_view = RingView(self.bus, self.ring, self.clock, show_ai_games=opts.show_ai_games_on_ring)
        # the games' button LED views (the board game lights the arrows it allows)
        self.button_views: list[games.ButtonLedView] = (
            [g.button_leds(self.bus, self.leds) for g in games.all_games() if g.button_leds is not None]
            if self.leds is not None
            else []
        )

        self.bus.subscribe(ButtonPressed, self._on_button)
        self.bus.subscribe(GameEnded, self._on_game_over)
        self.bus.subscribe(Quit, lambda c: self.stop(c.reason or "quit", c.status))
        self.bus.subscribe(NewGame, self._on_new_game)

        # systemd watchdog (harmless outside systemd)
        self.notifier: Notifier | None = None
        self.watchdog: Watchdog | None = None
        self._starting = False
        self._ready_sent = False
        try:
            from kiosk.core.sdnotify import Notifier, Watchdog

            self.notifier = Notifier()
            self.watchdog = Watchdog(self.notifier)
        except Exception:  # pragma: no cover - sd_notify is optional
            log.debug("no sd_notify support", exc_info=True)

    # ------------------------------------------------------------ set-up helpers
    def _open_state_dir(self, state_dir: Path) -> None:
        """The store and history; a state directory that cannot be written still resumes what it
        can read, and every save tries again (the directory may become writable, e.g. a late mount)."""
        from kiosk.store.game_persistence import GamePersistence
        from kiosk.store.persistence import StateDirBusy, StateLock
        from kiosk.store import safeio

        try:
            safeio.OPS.mkdir(state_dir)
        except OSError as e:
            log.warning("cannot create the state directory %s: %s", state_dir, e.strerror or e)
        try:
            self.state_lock = StateLock(state_dir)
            self._closers.append(self.state_lock.release)
        except StateDirBusy as e:
            if self.options.if_busy != "unsaved":
                raise
            log.warning("%s: running without saving anything", e)
            return
        except OSError as e:  # a read-only directory: nothing can be saved, nobody to guard against
            log.warning("cannot lock the state directory %s: %s", state_dir, e.strerror or e)
        try:
            safeio.probe_writable(state_dir)
        except OSError as e:
            log.warning(
                "state directory %s is not writable (%s): resuming what can be read; each save tries again",
                state_dir,
                e.strerror or e,
            )
        self.persistence = GamePersistence(
            state_dir,
            loaders={g.name: g.load for g in games.all_games()},
            resume_within_s=self.config.kiosk.resume_within_s,
            saves_ai_games=self.options.persist_ai_games,
            records_ai_games=self.options.record_ai_games,
        )
        self.store, self.history = self.persistence.store, self.persistence.history
        self.record_shelf = self.persistence.shelf
        from kiosk.themes.pack import remove_leftovers

        remove_leftovers(state_dir)  # an install cut short by a power cut: its half-written folder

    def _open_buttons(self) -> None:
        from hardware import ArrowButtons, ArrowLeds, choose_pin_factory

        b = self.config.buttons
        if self.pin_factory is None:
            self.pin_factory, how = choose_pin_factory("mock" if self.options.mock_pins else b.pin_factory)
            log.info("buttons: %s", how)
        pins: dict[str, int | str] = dict(b.pins)
        if b.rotate_pin is not None:
            pins["rotate"] = b.rotate_pin
        if b.stay_pin is not None:
            pins["stay"] = b.stay_pin
        bus = self.bus
        self.buttons = ArrowButtons(
            pins,
            lambda name: bus.post(ButtonPressed(name)),
            bounce=b.bounce_ms / 1000,
            clock=self.clock.now,
            pin_factory=self.pin_factory,
        )
        self._closers.append(self.buttons.close)
        if b.led_pins:
            self.leds = ArrowLeds(dict(b.led_pins), pin_factory=self.pin_factory)
            self._closers.append(self.leds.close)

    def _open_ring(self):
        from hardware import make_ring

        r = self.config.ring
        driver = self.options.ring or r.driver
        try:
            ring = make_ring(
                driver,
                r.port,
                baud=r.baud,
                led_count=r.led_count,
                offset=r.offset,
                reverse=r.reverse,
                seat_segments=list(r.seat_segments) if r.seat_segments else None,
                brightness=r.brightness,
            )
        except ValueError as e:
            log.error("LED ring: %s; running without it", e)
            ring = make_ring("none")
        log.info("LED ring: %s", ring.driver.describe() if ring.driver is not None else "none")
        self._closers.append(ring.close)
        return ring

    # ------------------------------------------------------------ the loop
    @property
    def running(self) -> bool:
        return not self.stopped

    def start(self, ready: bool = True) -> None:
        """Resume a recent saved game, or start the configured one (auto_play); with `ready`, tell
        systemd we're up. With a screen, pass ready=False: the UI calls :meth:`report_ready` after
        its first frame, so a window that never opens is never reported as started."""
        resumed = self.resume_saved() if self.options.resume else False
        self._starting = not resumed and (self.options.auto_play or self.options.start_game)
        if self._starting:
            self.new_game()  # posted: the session has no game until the bus dispatches it
        if ready:
            self.report_ready()

    def report_ready(self) -> None:
        """READY=1 to systemd (Type=notify), with what the kiosk shows; sent once."""
        if self.notifier is None or self._ready_sent:
            return
        self._ready_sent = True
        playing = self._starting or any(s.game is not None for s in self.sessions.values())
        self.notifier.ready("playing" if playing else "attract")

    def tick(self, budget: float | None = None) -> int:
        """One turn of the main loop: due timers, then queued messages; returns messages dispatched."""
        self.clock.run_due()
        n = self.bus.dispatch_pending(max_seconds=self.options.dispatch_budget_s if budget is None else budget)
        if self.watchdog is not None:
            self.watchdog.kick()
        return n

    @property
    def game_session(self) -> GameSession:
        """The session whose game runs (or ran last); with none, the default game's."""
        return games.session_in_play(self.sessions)

    @property
    def thinking(self) -> bool:
        """An AI worker is computing (its answer will arrive on the bus)."""
        return any(s.thinking for s in self.sessions.values())

    def settled(self) -> bool:
        """Nothing will happen without new input: bus empty, no AI acting, no game start pending."""
        return (
            not self.bus.pending() and not any(s.busy for s in self.sessions.values()) and self._next_game_timer is None
        )

    def stop(self, reason: str = "", status: int = 0) -> None:
        """Ask the loop to end (it finishes the current tick)."""
        if self.stopping:
            return
        self.stopping = True
        self.stop_reason = reason
        self.exit_status = status
        log.info("stopping: %s", reason or "asked to")
        self.bus.post(KioskStopping(reason, status))

    def close(self) -> None:
        """Release the hardware and the worker; dispatch the last messages. Safe to call twice."""
        if self.stopped:
            return
        if not self.stopping:
            self.stop("closed")
        try:
            self.bus.dispatch_pending(max_count=10_000)
        except RuntimeError:
            pass
        lost = self.persistence.close() if self.persistence is not None else 0
        if lost:  # said in the log, game by game; the exit status says it to systemd
            self.exit_status = self.exit_status or 1
        self.stopped = True
        if self.notifier is not None:
            self.notifier.stopping(self.stop_reason or "stopping")
        for close in reversed(self._closers):
            try:
                close()
            except Exception:
                log.exception("closing %s failed", close)
        if self.options.events_out is not None:
            with self._events_lock:
                try:
                    self.options.events_out.flush()
                except OSError as e:
                    if not self._events_failed:
                        log.error("cannot write the events file: %s", e.strerror or e)
                    self._events_failed = True
                    self.exit_status = self.exit_status or 2

    def __enter__(self) -> "Kiosk":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ games
    def next_setup(self) -> GameSetup:
        """The setup of the next auto-played game: game k uses seed S + k (or a fresh random seed)."""
        base = self.options.setup or setup_from_config(self.config)
        if base.seed is not None:
            seed = base.seed + self._game_index
        else:
            seed = random.SystemRandom().randrange(2**31)
        self._game_index += 1
        first = self.first_player(len(base.seats)) if self.options.random_first else base.first
        return dataclasses.replace(base, seed=seed, first=first)

    def first_player(self, players: int) -> int:
        """Who starts a game the kiosk sets up: ``[game] first_player``, by default a random seat
        (docs/rules.md section 3)."""
        first = self.config.game.first_player
        if first is None or first >= players:
            return random.SystemRandom().randrange(players)
        return first

    def new_game(self, setup: GameSetup | None = None) -> None:
        """Start a game now (via the bus, so it is logged like any command)."""
        self._next_game_timer = None
        self.bus.post(NewGame(setup or self.next_setup()))

    def _on_new_game(self, cmd: NewGame) -> None:
        if self._next_game_timer is not None:
            self._next_game_timer.cancel()
            self._next_game_timer = None

    def resume_saved(self) -> bool:
        """Continue the saved game (either kind: the save says which) if the store has a recent valid one.

        A saved game that has ended is recorded in the history (unless its line is there
        already) and removed. A save that passed every check but still cannot be resumed is
        set aside like a corrupt one: no save can make the kiosk fail at every start.
        """
        if self.store is None:
            return False
        saved = self.store.resume()
        session = self.sessions.get(saved.game) if saved else None
        if saved is None or session is None:
            return False
        game = saved.state
        players = game.num_players
        kinds = saved.meta.get("kinds")
        if (
            not isinstance(kinds, list)
            or len(kinds) != players
            or not all(k == HUMAN or k in session.ai_levels for k in kinds)
        ):
            log.warning("the saved %s does not say who plays which seat; all seats human", session.noun)
            kinds = [HUMAN] * players
        if game.phase == GAME_OVER:
            assert self.persistence is not None
            self.persistence.finish_saved(saved, kinds)
            return False
        try:
            session.resume(
                game, tuple(kinds), game_id=saved.meta.get("game_id"), started=saved.started_at, meta=saved.meta
            )
        except Exception as e:
            log.exception("the saved %s could not be resumed", session.noun)
            session.game = None
            session._cancel_timers()
            self.store.set_aside(f"resuming failed: {type(e).__name__}: {str(e)[:200]}", "resume-failed")
            return False
        return True

    def _save(self, session: GameSession, moment: Moment) -> None:
        """A session's hook at every moment of its game (runs on the main thread)."""
        if self.persistence is not None:
            self.persistence.at(session, moment)

    def _on_game_over(self, ev: GameEnded) -> None:
        """Any game ended (its session has kept it: GamePersistence.end): count it, start the next one."""
        self.games_finished += 1
        self._game_finished()

    def _game_finished(self) -> None:
        if self.options.games is not None and self.games_finished >= self.options.games:
            self.stop(f"{self.games_finished} game(s) finished")
            return
        if self.options.auto_play:
            delay = 0.0 if self.options.fast else self.options.next_game_delay
            self._next_game_timer = self.clock.call_later(delay, self.new_game)

    # ------------------------------------------------------------ buttons and scripts
    def _on_button(self, ev: ButtonPressed) -> None:
        """A debounced physical press: an arrow, rotate or stay (unless the button test owns them)."""
        if self.button_test:
            return
        session = self.game_session
        button = games.get(session.game_name).button
        command = button(session, ev.button) if button is not None else None
        if command is not None:
            self.bus.post(command)

    def set_button_test(self, on: bool) -> None:
        """The operator's hardware test page: presses light up on screen but play nothing."""
        self.button_test = bool(on)
        for view in self.button_views:
            view.enabled = not on
        if on and self.leds is not None:
            self.leds.show(self.leds.names)
        elif not on:
            for view in self.button_views:
                view.refresh()

    def test_ring(self, rgb) -> None:
        """The operator's ring test: paint the whole ring; None gives it back to the game."""
        if rgb is None:
            self.ring_view.enabled = True
            self.ring_view.refresh()
            return
        self.ring_view.enabled = False
        n = self.config.ring.led_count
        self.ring.show_segment(0, n, tuple(rgb))

    def press_button(self, name: str, hold: float = 0.06, gap: float = 0.06) -> None:
        """Press and release button `name` on its mock pin, honouring the debounce window."""
        if self.buttons is None or name not in self.buttons.names:
            raise ValueError(f"button {name} is not fitted (no pin for it in [buttons])")
        bounce = self.config.buttons.bounce_ms / 1000
        hold = max(hold, bounce * 1.5)
        gap = max(gap, bounce * 1.5)
        pin = self.buttons.pin_of(name)
        if not hasattr(pin, "drive_low"):
            raise ValueError("scripted button presses need mock pins (headless or --simulate)")
        pin.drive_low()
        self.clock.sleep(hold)
        pin.drive_high()
        self.clock.sleep(gap)

    def script_input(self, step) -> None:
        """Carry out one parsed script step (kiosk.core.script.Step) or a raw line."""
        if isinstance(step, str):
            from kiosk.core.script import parse_line

            step = parse_line(step)
            if step is None:
                return
        if step.verb == "button":
            self.press_button(step.args[0])
        elif step.verb == "wait":
            self.clock.sleep(step.args[0] / 1000)
        elif step.verb == "undo":
            from kiosk.core.events import Undo

            self.bus.post(Undo(source="script"))
        elif step.verb in ("away", "join"):
            from kiosk.core.events import ChangeSeat

            kind = HUMAN if step.verb == "join" else self.config.kiosk.seat_level
            self.bus.post(ChangeSeat(step.args[0], kind, step.verb, source="script"))
        else:
            session = self.game_session
            script = games.get(session.game_name).script
            if script is None or step.verb not in script.verbs:
                raise ValueError(f"{step.text!r} cannot be played without a display")
            self.bus.post_all(script.play(session, step.verb, step.args))

    # ------------------------------------------------------------ the events file
    def _write_event(self, msg: Message) -> None:
        out = self.options.events_out
        if out is None:  # subscribed only with a file
            return
        line = msg.to_json()
        with self._events_lock:
            if self._events_failed:
                return
            try:
                out.write(line + "\n")
            except OSError as e:  # a full disk, /dev/full: one line, then the run stops (status 2)
                self._events_failed = True
                log.error("cannot write the events file: %s; stopping", e.strerror or e)
                self.stop("the events file cannot be written", 2)


def setup_from_config(config: Config) -> GameSetup:
    """The game ``[game]`` describes: its game, seats, variants and turn limit (docs/keys.md)."""
    c = config.game
    kind = games.get(c.game)
    return GameSetup(
        seats=tuple(SeatSetup(kind.seat_kind(k)) for k in c.seats),
        game=kind.name,
        variants={v.name: c.variants[v.key] for v in kind.variants if c.variants.get(v.key, v.default) != v.default},
        turn_limit=c.turn_limit,
        first=c.first_player if c.first_player is not None and c.first_player < len(c.seats) else 0,
    )
