"""The ``--display none`` main loop: the whole kiosk without a window.

The same Kiosk (bus, session, button adapter on mock pins, ring) runs as on the
Pi; only the loop differs. Either game runs (``--game cards``: the card
session's game, the same loop). With a virtual clock (``--fast``) the loop never
sleeps: when nothing is queued and no AI worker is computing, it jumps the
clock to the next timer, so paced AI turns cost no waiting. With the real
clock it sleeps until the next timer or the next posted message.
"""

from __future__ import annotations

import logging

from .app import Kiosk
from .card_events import CardDiscarded, CardGameOver, CardGameStarted, CardLaid, CardsTaken
from .events import (BoardShifted, GameAbandoned, GameOver, GameStarted, IllegalInput, PawnMoved,
                     TreasureFound)
from .script import ScriptRunner, Step

log = logging.getLogger(__name__)

IDLE_WAIT_S = 0.25      # the longest the real-time loop sleeps between checks


def run(kiosk: Kiosk, steps: list[Step] | None = None, *, narrate: bool = False) -> int:
    """Run until the kiosk stops (Quit, --games reached, script ended); returns the exit status."""
    runner = ScriptRunner(steps) if steps is not None else None
    if narrate:
        Narrator(kiosk)
    kiosk.start()
    clock, bus = kiosk.clock, kiosk.bus
    try:
        while not kiosk.stopping:
            kiosk.tick(budget=None)
            if bus.pending():
                continue
            if runner is not None:
                if runner.poll(kiosk):
                    continue
                if runner.done and kiosk.settled():
                    kiosk.stop("the script has ended")
                    continue
            if clock.run_due():
                continue
            nxt = clock.next_due()
            if runner is not None and runner.wakeup() is not None:
                nxt = runner.wakeup() if nxt is None else min(nxt, runner.wakeup())
            if kiosk.session.thinking or kiosk.card_session.thinking:   # its answer arrives on the bus
                bus.wait(IDLE_WAIT_S)
                continue
            if clock.virtual:
                if nxt is not None:
                    clock.advance_to(nxt)
                    continue
                session = kiosk.game_session    # the board game's or the card game's
                if session.awaiting_human() or session.game is None or session.game.phase == "over":
                    kiosk.stop("waiting for a person's input, but there is no (more) script", 0)
                    log.warning("a human seat is to play and no script input is left: stopping")
                    continue
                bus.wait(IDLE_WAIT_S)
            else:
                timeout = IDLE_WAIT_S if nxt is None else max(0.0, min(IDLE_WAIT_S, nxt - clock.now()))
                bus.wait(timeout)
        kiosk.tick(budget=None)
    finally:
        kiosk.close()
    return kiosk.exit_status


class Narrator:
    """A readable log of the games (``--simulate`` without a display): one line per event that matters."""

    def __init__(self, kiosk: Kiosk) -> None:
        self.kiosk = kiosk
        self.colours: list[str] = []
        self.kinds: list[str] = []
        bus = kiosk.bus
        bus.subscribe(GameStarted, self._started)
        bus.subscribe(BoardShifted, self._shifted)
        bus.subscribe(PawnMoved, self._moved)
        bus.subscribe(TreasureFound, self._found)
        bus.subscribe(IllegalInput, lambda e: log.info("refused %s: %s", e.command, e.reason))
        bus.subscribe(GameOver, self._over)
        bus.subscribe(GameAbandoned, lambda e: log.info("game abandoned: %s", e.reason))
        bus.subscribe(CardGameStarted, self._cards_started)
        bus.subscribe(CardLaid, self._laid)
        bus.subscribe(CardsTaken, self._taken)
        bus.subscribe(CardDiscarded, lambda e: log.info("%s can lay no card and discards card %d",
                                                        self._who(e.player), e.card))
        bus.subscribe(CardGameOver, self._cards_over)

    def _who(self, i: int) -> str:
        return f"{self.colours[i]} ({self.kinds[i]})" if i < len(self.colours) else str(i)

    def _started(self, e: GameStarted) -> None:
        self.colours = [p.color for p in e.players]
        self.kinds = [p.kind for p in e.players]
        log.info("%s game, seed %s: %s", "resumed" if e.resumed else "new", e.seed,
                 ", ".join(self._who(i) for i in range(len(self.colours))))

    def _shifted(self, e: BoardShifted) -> None:
        carried = "".join(f"; carried {self.colours[p.player]} to {p.end}" for p in e.pawns)
        log.info("%s pushes the spare in at %s (turned %d)%s", self._who(e.player), e.insertion,
                 e.rotation, carried)

    def _moved(self, e: PawnMoved) -> None:
        if e.stayed:
            log.info("%s stays at %s", self._who(e.player), e.path[0])
        else:
            log.info("%s walks %s -> %s (%d steps)", self._who(e.player), e.path[0], e.path[-1],
                     len(e.path) - 1)

    def _found(self, e: TreasureFound) -> None:
        log.info("%s finds the %s, %d card(s) left", self._who(e.player), e.treasure, e.cards_left)

    def _over(self, e: GameOver) -> None:
        log.info("%s wins after %d turns (found: %s)", self._who(e.winner), e.turns,
                 "; ".join(f"{self.colours[i]} {len(f)}" for i, f in enumerate(e.found)))

    def _cards_started(self, e: CardGameStarted) -> None:
        self.colours = [p.color for p in e.players]
        self.kinds = [p.kind for p in e.players]
        log.info("%s card game, seed %s: %s", "resumed" if e.resumed else "new", e.seed,
                 ", ".join(self._who(i) for i in range(len(self.colours))))

    def _laid(self, e: CardLaid) -> None:
        joined = sum(len(cards) for _, cards in e.joined)
        log.info("%s lays card %d at %s (turned %d)%s", self._who(e.player), e.card, e.cell, e.rotation,
                 f", joining {joined} card(s)" if joined else "")

    def _taken(self, e: CardsTaken) -> None:
        if e.cards:
            log.info("%s takes %s, %d card(s) taken so far", self._who(e.player),
                     " ".join(map(str, e.cards)), e.score)

    def _cards_over(self, e: CardGameOver) -> None:
        log.info("%s %s after %d turns (cards taken: %s)", " and ".join(self._who(w) for w in e.winners),
                 "win" if len(e.winners) > 1 else "wins", e.turns,
                 "; ".join(f"{self.colours[i]} {n}" for i, n in enumerate(e.scores)))
