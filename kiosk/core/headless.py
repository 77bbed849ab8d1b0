"""The ``--display none`` main loop: the whole kiosk without a window.

The same Kiosk (bus, session, button adapter on mock pins, ring) runs as on the
Pi; only the loop differs. Any registered game runs (``--game NAME``), the
same loop. With a virtual clock (``--fast``) the loop never
sleeps: when nothing is queued and no AI worker is computing, it jumps the
clock to the next timer, so paced AI turns cost no waiting. With the real
clock it sleeps until the next timer or the next posted message.
"""

from __future__ import annotations

import logging

from engine.outcome import GAME_OVER
from kiosk.core.kiosk import Kiosk
from kiosk.core.clock import VirtualClock
from kiosk.core.events import GameAbandoned, GameBegan, GameEnded, IllegalInput, Message
from kiosk.core.script import ScriptRunner, Step

log = logging.getLogger(__name__)

IDLE_WAIT_S = 0.25  # the longest the real-time loop sleeps between checks


def run(kiosk: Kiosk, steps: list[Step] | None = None, *, narrate: bool = False) -> int:
    """Run until the kiosk stops (Quit, --games reached, script ended); returns the exit status."""
    runner = ScriptRunner(steps) if steps is not None else None
    if narrate:
        Narrator(kiosk)
    kiosk.start()
    try:
        while not kiosk.stopping:
            kiosk.tick(budget=None)
            if kiosk.bus.pending() or _script_acted(kiosk, runner) or kiosk.clock.run_due():
                continue
            _idle(kiosk, runner)
        kiosk.tick(budget=None)
    finally:
        kiosk.close()
    return kiosk.exit_status


def _script_acted(kiosk: Kiosk, runner: ScriptRunner | None) -> bool:
    """True if the script posted its next input now, or has ended with nothing left to happen (then
    the kiosk is told to stop)."""
    if runner is None:
        return False
    if runner.poll(kiosk):
        return True
    if runner.done and kiosk.settled():
        kiosk.stop("the script has ended")
        return True
    return False


def _idle(kiosk: Kiosk, runner: ScriptRunner | None) -> None:
    """Nothing is queued or due: wait for the AI worker's answer, else for the next timer or script
    step (a virtual clock jumps to it). With a virtual clock and nothing ahead, a person would have to
    play: the run stops."""
    clock, bus = kiosk.clock, kiosk.bus
    nxt = clock.next_due()
    wake = runner.wakeup() if runner is not None else None
    if wake is not None:
        nxt = wake if nxt is None else min(nxt, wake)
    if kiosk.thinking:  # an AI worker's answer arrives on the bus
        bus.wait(IDLE_WAIT_S)
    elif not isinstance(clock, VirtualClock):
        bus.wait(IDLE_WAIT_S if nxt is None else max(0.0, min(IDLE_WAIT_S, nxt - clock.now())))
    elif nxt is not None:
        clock.advance_to(nxt)
    elif _waiting_for_a_person(kiosk):
        kiosk.stop("waiting for a person's input, but there is no (more) script", 0)
        log.warning("a human seat is to play and no script input is left: stopping")
    else:
        bus.wait(IDLE_WAIT_S)


def _waiting_for_a_person(kiosk: Kiosk) -> bool:
    """Only a person's input could move the game on (or no game runs any more)."""
    session = kiosk.game_session  # the game's that runs
    return session.awaiting_human() or session.game is None or session.game.phase == GAME_OVER


class Narrator:
    """A readable log of the games (``--simulate`` without a display): one line per event that matters.

    The start and the end of any game come from the life cycle every game shares; a
    game's own events are told by their ``narrate()`` (a sentence, or None to stay quiet).
    """

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.colours: list[str] = []
        self.kinds: list[str] = []
        bus = kiosk.bus
        bus.subscribe(GameBegan, self._started)
        bus.subscribe(IllegalInput, lambda e: log.info("refused %s: %s", e.command, e.reason))
        bus.subscribe(GameEnded, self._over)
        bus.subscribe(GameAbandoned, lambda e: log.info("game abandoned: %s", e.reason))
        bus.subscribe_all(self._told)

    def _who(self, i: int) -> str:
        return f"{self.colours[i]} ({self.kinds[i]})" if i < len(self.colours) else str(i)

    def _started(self, e: GameBegan) -> None:
        seating = e.seating()
        self.colours = [s.color for s in seating]
        self.kinds = [s.kind for s in seating]
        log.info(
            "%s %s, seed %s: %s",
            "resumed" if e.resumed else "new",
            self.kiosk.game_session.noun,
            e.seed,
            ", ".join(self._who(i) for i in range(len(self.colours))),
        )

    def _told(self, e: Message) -> None:
        narrate = getattr(e, "narrate", None)
        line = narrate(self._who) if narrate is not None else None
        if line:
            log.info("%s", line)

    def _over(self, e: GameEnded) -> None:
        log.info(
            "%s %s after %d turns (%s)",
            " and ".join(self._who(w) for w in e.winners) or "nobody",
            "win" if len(e.winners) > 1 else "wins",
            e.turns,
            e.termination.value.replace("_", " "),
        )
