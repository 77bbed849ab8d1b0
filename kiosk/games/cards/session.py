"""The card-game session: the only writer of the running :class:`engine.cards.CardGame`.

The same principles as the board game's session (kiosk/games/labyrinth/session.py): it listens
on the bus for commands (kiosk/games/cards/events.py), turns them into engine
actions, and posts events saying what happened. People and AI seats send the
very same commands: an AI decision is computed on a worker thread (which only
posts its answer), then played here step by step -- pick the hand card, turn
it, lay it; tick the cards to take, confirm -- paced by the clock so people
can follow it (``CardPacing.FAST`` for headless runs and tests).

Hands are private on a shared screen. The session keeps the "hand-over"
state: when a human seat follows another human, their hand stays hidden until
they acknowledge the prompt (``HandOver``); ``visible_hand`` answers only for
the human whose turn it is, after that. The first person of a new game has
nobody to hand over from and sees their hand at once; a resumed game starts
with the prompt. No event carries a hand card.

Everything here runs on the main thread (bus dispatch, clock callbacks), so
there are no locks. The game is saved after every committed action through
the ``save(session, moment)`` hook (the kiosk writes it with ``"game":
"cards"``).
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import functools
import logging
import random
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Mapping

from engine.cards import CardGame, CardRules, Discard, IllegalAction, Place, Take
from engine.cards.ai import LEVELS, make_ai
from engine.cards.parts import GAME_NAME, CardPhase
from kiosk.core.bus import Bus
from kiosk.core.clock import Clock
from kiosk.core.events import AIThinking, Command, GameSetup, SeatSetup
from kiosk.core.session import GameSession, PacingBase, Step
from kiosk.errors import ContractError
from kiosk.games import HUMAN, Moment
from kiosk.games.cards.events import (
    CardAIDecided,
    CardDiscarded,
    CardGameOver,
    CardGameStarted,
    CardLaid,
    CardPlayerInfo,
    CardsTaken,
    CardTurnChanged,
    ConfirmTake,
    DiscardCard,
    HandChanged,
    HandOver,
    LaidCard,
    LayCard,
    RotateHandCard,
    SelectHandCard,
    TakeChanged,
    ToggleTake,
)

log = logging.getLogger(__name__)

#: Seat colours of the card game, in seat order (the board game has the first four).
COLORS = ("red", "yellow", "green", "blue", "purple", "turquoise")


@dataclass(frozen=True)
class CardPacing(PacingBase):
    """Pauses (seconds) that let people follow an AI turn."""

    think: float = 1.0  # an AI seems to think at least this long
    select: float = 0.6  # the chosen hand card is shown before it turns
    rotate: float = 0.35  # between two quarter turns
    lay: float = 0.6  # before the card goes down
    after_lay: float = 0.8  # the card slides in, the joined cards light up
    toggle: float = 0.45  # between two cards ticked for taking
    confirm: float = 0.7  # before the take is confirmed
    after_take: float = 0.6  # the taken cards fly off
    undo: float = 3.0  # after a person's turn, before a computer's first step: time to take it back

    FAST: ClassVar[CardPacing]  # no pauses at all (headless runs, tests)


CardPacing.FAST = CardPacing.fast()

# save(session, moment): the moment of the game to keep (kiosk.games.Moment; a card laid, taken or discarded is a STEP).
SaveHook = Callable[["CardSession", Moment], None]


def default_ai_factory(level: str, seed: int | None):
    """The engine's card AI players (``engine.cards.ai.make_ai``)."""

    return make_ai(level, seed)


class CardSession(GameSession[CardGame]):
    """Owns the running card game; commands in, events out (docs/events.md, docs/card-game.md).

    The life cycle, the AI worker, pacing, saving and the common refusals are
    :class:`kiosk.core.session.GameSession`'s; this class adds the card game's
    commands, turn flow and the hand-over between people.
    """

    game_name = GAME_NAME
    noun = "card game"
    ai_levels = LEVELS
    worker_name = "card-ai"

    def __init__(
        self,
        bus: Bus,
        clock: Clock | None = None,
        *,
        pacing: CardPacing | None = None,
        ai_factory: Callable[[str, int | None], Any] | None = None,
        save: SaveHook | None = None,
        executor: concurrent.futures.Executor | None = None,
        button_test: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(
            bus,
            clock,
            pacing=pacing or CardPacing(),
            ai_factory=ai_factory or default_ai_factory,
            save=save,
            executor=executor,
            button_test=button_test,
        )
        self.selected: int | None = None  # hand position picked by the current player
        self.rotation: int = 0  # quarter turns of the picked card
        self.chosen: set[int] = set()  # cards ticked for taking (phase take)
        self.handover: bool = False  # the hand-over prompt is up: the hand stays hidden
        self._last_viewer: int | None = None  # the human who saw their hand last (None: nobody yet)
        self._subscribe(
            {
                SelectHandCard: self._on_select,
                RotateHandCard: self._on_rotate,
                LayCard: self._on_lay,
                ToggleTake: self._on_toggle,
                ConfirmTake: self._on_confirm,
                DiscardCard: self._on_discard,
            },
            {HandOver: self._on_hand_over},
            CardAIDecided,
        )

    # ------------------------------------------------------------ queries (main thread)
    def color_of(self, player: int) -> str:
        return COLORS[player]

    def visible_hand(self, player: int) -> tuple[int, ...]:
        """The hand `player` may look at now: their own, on their turn, after the hand-over; else ()."""
        g = self.game
        if (
            g is None
            or g.phase == CardPhase.OVER
            or player != g.current
            or self.kinds[player] != HUMAN
            or self.handover
        ):
            return ()
        return tuple(g.hands[player])

    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.game.hands) if self.game else ()

    def public_snapshot(self, resumed: bool = False) -> CardGameStarted:
        g = self.game
        assert g is not None
        players = tuple(
            CardPlayerInfo(i, COLORS[i], self.kinds[i], len(g.hands[i]), len(g.taken[i]), _last(g.taken[i]))
            for i in range(g.players)
        )
        layout = tuple(
            LaidCard(cell, p.card, p.rotation)
            for cell, p in sorted(g.layout.items(), key=lambda kv: (kv[0][1], kv[0][0]))
        )
        return CardGameStarted(
            g.seed,
            players,
            layout,
            g.current,
            g.phase,
            g.turns,
            len(g.draw_pile),
            tuple(g.discards),
            g.placed,
            resumed,
            self.selected,
            self.rotation,
            tuple(sorted(self.chosen)),
            self.handover,
            self.undo_player,
        )

    # ------------------------------------------------------------ starting and stopping
    def start(self, setup: GameSetup) -> None:
        """Start a new card game (abandoning a running one)."""
        if setup.game != GAME_NAME:
            raise ContractError(f"the card session plays 'cards', not {setup.game!r}")
        seed = setup.seed if setup.seed is not None else random.SystemRandom().randrange(2**31)
        game = CardGame.new(
            players=len(setup.seats), seed=seed, first=setup.first, rules=CardRules(turn_limit=setup.turn_limit)
        )
        self._begin(game, dataclasses.replace(setup, seed=seed))

    def resume(
        self,
        game: CardGame,
        kinds: tuple[str, ...] | list[str],
        *,
        game_id: str | None = None,
        started: float | None = None,
        meta: Mapping[str, Any] | None = None,
    ) -> None:
        """Continue a saved card game exactly where it stopped (its seats checked where the save was read)."""
        setup = GameSetup(
            seats=tuple(SeatSetup(k) for k in kinds), seed=game.seed, game=GAME_NAME, turn_limit=game.rules.turn_limit
        )
        self._continue(game, setup, game_id, started, meta)

    def _game_installed(self, resumed: bool) -> None:
        # A new game: nobody has seen a hand, so the first person needs no hand-over. A resumed game:
        # whoever stands at the screen now may not be the player to act, so the hand-over comes first.
        self._last_viewer = _SOMEONE if resumed else None

    def _reset_turn_state(self) -> None:
        self.selected, self.rotation, self.chosen, self.handover = None, 0, set(), False

    # ------------------------------------------------------------ turn flow
    def _hand_changed(self, player: int) -> None:
        g = self.running
        sel = self.selected if player == g.current else None
        self.bus.post(
            HandChanged(
                player,
                len(g.hands[player]),
                sel,
                self.rotation if sel is not None else 0,
                bool(self.visible_hand(player)),
            )
        )

    def _turn_begins(self, new_turn: bool) -> None:
        """Announce whose decision it is; a human after another human gets the hand-over prompt first.

        Only between two different people: the first person of a new game (even after computer
        turns) sees their hand at once; in a resumed game the first person gets the prompt too.
        """
        g = self.game
        if g is None or g.phase == CardPhase.OVER:
            return
        if new_turn:
            self._new_turn_token()
            self.selected, self.rotation = None, 0
        self.chosen = set()
        kind = self.kinds[g.current]
        if kind == HUMAN:
            if new_turn and self.humans >= 2 and self._last_viewer is not None and g.current != self._last_viewer:
                self.handover = True
            if not self.handover:
                self._last_viewer = g.current
        else:
            self.handover = False
        cells = tuple(sorted(g.legal_cells())) if g.phase == CardPhase.PLACE else ()
        takeable = tuple(sorted(g.takeable())) if g.phase == CardPhase.TAKE else ()
        self.bus.post(
            CardTurnChanged(g.current, g.phase, g.turns, kind, len(g.draw_pile), self.handover, cells, takeable)
        )
        self._hand_changed(g.current)
        if kind != HUMAN:
            self._ask_ai()

    def _ask_ai(self) -> None:
        g = self.running
        player, token = g.current, self._turn_token
        ai = self._ais[player]
        level = self.kinds[player]
        if g.phase != CardPhase.TAKE:
            self._ai_thinking_since = self.clock.now()
            self.bus.post(AIThinking(player, level))
        snapshot = g.copy()
        self._submit(
            lambda: _decision(player, token, snapshot, ai.choose(snapshot)),
            lambda error: CardAIDecided(player, "", token, error=error),
            f"card AI {level}",
        )

    def _on_ai_decided(self, ev: CardAIDecided) -> None:
        if not self._answer_is_current(ev):
            return
        g = self.running
        if ev.error or ev.action != g.phase:
            log.error(
                "card AI answer unusable (%s): playing a random legal action instead",
                ev.error or f"{ev.action} in phase {g.phase}",
            )
            ev = _decision(ev.player, ev.token, g, random.Random().choice(g.legal_actions()))
        self._play_out(ev)

    def _play_out(self, ev: CardAIDecided) -> None:
        """Play an AI decision through the same commands a person would send, paced."""
        p = self.pacing
        steps: list[Step] = []
        if ev.action == "place":
            steps.append((self._first_delay(), lambda: SelectHandCard(ev.slot, source="ai")))
            for k in range(ev.rotation % 4):
                steps.append((p.rotate if k else p.select, lambda: RotateHandCard(1, source="ai")))
            x, y = ev.cell
            steps.append((p.lay, lambda: LayCard((x, y), source="ai")))
        elif ev.action == "take":
            first = self._first_delay(think=False)
            for k, card in enumerate(ev.cards):
                steps.append((first if k == 0 else p.toggle, functools.partial(ToggleTake, card, source="ai")))
            steps.append((p.confirm if ev.cards else max(first, p.confirm), lambda: ConfirmTake(source="ai")))
        else:
            steps.append((self._first_delay(), lambda: DiscardCard(ev.slot, source="ai")))
        self._run_steps(steps)

    # ------------------------------------------------------------ refusals
    def _check_turn(self, cmd: Command, phase: str) -> bool:
        """Common refusals (no game, game over, someone else's turn), the hand-over not yet done, wrong phase."""
        if not self._check_player(cmd):
            return False
        g = self.running
        if self.handover:
            colour = COLORS[g.current]
            self._refuse(cmd, f"Pass the screen to {colour} first: {colour} taps when ready.", code="pass_screen")
            return False
        if g.phase != phase:
            reason, code = _WRONG_PHASE[g.phase]
            self._refuse(cmd, reason, code=code)
            return False
        return True

    def _slot(self, cmd: Command, slot: Any) -> int | None:
        hand = self.running.hand
        if not isinstance(slot, int) or isinstance(slot, bool) or not 0 <= slot < len(hand):
            self._refuse(
                cmd,
                f"There is no card {slot!r} in your hand: you hold {len(hand)} card(s), "
                f"positions 0 to {len(hand) - 1}.",
                code="no_such_card",
            )
            return None
        return slot

    # ------------------------------------------------------------ command handlers
    def button(self, name: str) -> Command | None:
        """Rotate turns the picked hand card, stay confirms the take; the arrows do nothing here."""
        if name == "rotate":
            return RotateHandCard(1, source="button")
        if name == "stay":
            return ConfirmTake(source="button")
        return None

    def _on_hand_over(self, cmd: HandOver) -> None:
        g = self.game
        if g is None or g.phase == CardPhase.OVER or not self.handover:
            self._refuse(cmd, "No hand-over is due: play on.", code="no_hand_over")
            return
        if self._undo and g.current != self._undo_player:
            self._drop_undo()  # the next person takes the screen: the last turn is final
        self.handover = False
        self._last_viewer = g.current
        self._hand_changed(g.current)

    def _on_select(self, cmd: SelectHandCard) -> None:
        if not self._check_turn(cmd, "place"):
            return
        slot = self._slot(cmd, cmd.slot)
        if slot is None:
            return
        if slot == self.selected:
            self.rotation = (self.rotation + 1) % 4
        else:
            self.selected, self.rotation = slot, 0
        self._hand_changed(self.running.current)

    def _on_rotate(self, cmd: RotateHandCard) -> None:
        if not self._check_turn(cmd, "place"):
            return
        if self.selected is None:
            self._refuse(cmd, "Tap a card in your hand first, then turn it.", code="pick_card_first")
            return
        if not isinstance(cmd.turns, int) or isinstance(cmd.turns, bool):
            self._refuse(cmd, f"Turn the card by whole quarter turns, not {cmd.turns!r}.", code="card_whole_turns")
            return
        self.rotation = (self.rotation + cmd.turns) % 4
        self._hand_changed(self.running.current)

    def _on_lay(self, cmd: LayCard) -> None:
        if not self._check_turn(cmd, "place"):
            return
        g = self.running
        if self.selected is None:
            self._refuse(
                cmd, "Choose a card from your hand first, then tap a highlighted place.", code="pick_card_first"
            )
            return
        try:
            cell = tuple(int(v) for v in cmd.cell)
        except (TypeError, ValueError):
            cell = ()
        if len(cell) != 2:
            self._refuse(cmd, f"{cmd.cell!r} is not a place on the table: give (x, y).", code="not_a_place")
            return
        player = g.current
        place = Place(g.hand[self.selected], self.rotation, cell)
        problem = g.placement_problem(place)
        if problem:
            self._refuse(cmd, problem, code=_placement_code(g, cell))
            return
        joined = g.preview(place)
        undo_point = self._undo_point()
        try:
            g.apply(place)
        except IllegalAction as exc:  # placement_problem said yes: should not happen
            self._refuse(cmd, str(exc))
            return
        self.selected, self.rotation = None, 0
        takeable = tuple(sorted(g.takeable())) if g.phase == CardPhase.TAKE and g.current == player else ()
        self.bus.post(
            CardLaid(
                player,
                place.card,
                place.rotation,
                cell,
                tuple((t, tuple(sorted(cs))) for t, cs in sorted(joined.items()) if cs),
                takeable,
            )
        )
        self._quiet_until = self.clock.now() + self.pacing.after_lay
        self._undoable(player, undo_point)
        if g.phase == CardPhase.TAKE and g.current == player and g.placed == cell:
            self._save(Moment.STEP)
            self._turn_begins(new_turn=False)
            return
        self._turn_ends(player, "lay")

    def _on_toggle(self, cmd: ToggleTake) -> None:
        if not self._check_turn(cmd, "take"):
            return
        g = self.running
        card = cmd.card
        if card not in g.takeable():
            self._refuse(
                cmd, "That card is not joined by a path to the same treasure on the card you laid.", code="not_joined"
            )
            return
        self.chosen ^= {card}
        chosen = tuple(sorted(self.chosen))
        self.bus.post(TakeChanged(g.current, chosen, g.take_problem(chosen) if chosen else None))

    def _on_confirm(self, cmd: ConfirmTake) -> None:
        if not self._check_turn(cmd, "take"):
            return
        g = self.running
        player = g.current
        chosen = frozenset(self.chosen)
        problem = g.take_problem(chosen)
        if problem:
            self._refuse(cmd, problem, code="cannot_take")
            return
        cells = tuple(sorted((c for c, p in g.layout.items() if p.card in chosen), key=lambda c: (c[1], c[0])))
        cards = tuple(g.layout[c].card for c in cells)
        undo_point = self._undo_point()
        g.apply(Take(chosen))
        self.chosen = set()
        self.bus.post(CardsTaken(player, cards, cells, len(g.taken[player])))
        self._quiet_until = self.clock.now() + (self.pacing.after_take if cards else 0.0)
        self._undoable(player, undo_point)
        self._turn_ends(player, "take")

    def _on_discard(self, cmd: DiscardCard) -> None:
        if not self._check_turn(cmd, "discard"):
            return
        g = self.running
        slot = self._slot(cmd, cmd.slot)
        if slot is None:
            return
        player, card = g.current, g.hand[slot]
        undo_point = self._undo_point()
        try:
            g.apply(Discard(card))
        except IllegalAction as exc:
            self._refuse(cmd, str(exc))
            return
        self.bus.post(CardDiscarded(player, card))
        self._undoable(player, undo_point)
        self._turn_ends(player, "discard")

    # ------------------------------------------------------------ committing
    def _turn_ends(self, player: int, reason: str) -> None:
        """After a committed action that ended `player`'s turn: their hand was refilled; next turn or the end."""
        g = self.running
        self.selected, self.rotation, self.chosen = None, 0, set()
        self.bus.post(HandChanged(player, len(g.hands[player]), None, 0, False))
        if g.outcome is not None:  # the game is over
            self._game_ended(
                CardGameOver(
                    tuple(g.winners), tuple(g.scores), g.turns, self.kinds, g.outcome.termination, self.duration
                )
            )
            log.info("card game %s over: %s", (self.game_id or "")[:8], g.outcome.termination.value)
            return
        self._save(Moment.STEP)
        self._turn_begins(new_turn=True)


def _last(cards: list[int]) -> int | None:
    """The last of `cards`, None if there are none."""
    return cards[-1] if cards else None


#: ``_last_viewer`` of a resumed game: someone (unknown) may have seen a hand.
_SOMEONE = -1

#: The refusal of an input meant for another phase: (reason, code) by the phase the game is in.
_WRONG_PHASE = {
    "take": (
        "The card is laid: tick the joined cards you want to take, then confirm "
        "(or confirm without ticking to take none).",
        "take_now",
    ),
    "place": ("Lay a card first: tap a card in your hand, then a highlighted place.", "lay_first"),
    "discard": ("No card in your hand fits anywhere: tap one to discard it.", "discard_now"),
}


def _placement_code(game: CardGame, cell: tuple[int, int]) -> str:
    """The refusal code of a placement the engine refused at `cell` (phase place, a hand card)."""
    if cell in game.layout:
        return "cell_taken"
    x, y = cell
    if not any(n in game.layout for n in ((x, y - 1), (x + 1, y), (x, y + 1), (x - 1, y))):
        return "not_next_to_layout"
    return "no_opening_meets"


def _decision(player: int, token: int, game: CardGame, action) -> CardAIDecided:
    """An engine action as the worker's answer; a hand card is named by its position, never its id."""
    if isinstance(action, Place):
        x, y = action.cell
        return CardAIDecided(
            player, "place", token, slot=game.hand.index(action.card), rotation=action.rotation, cell=(x, y)
        )
    if isinstance(action, Take):
        return CardAIDecided(player, "take", token, cards=tuple(sorted(action.cards)))
    if isinstance(action, Discard):
        return CardAIDecided(player, "discard", token, slot=game.hand.index(action.card))
    raise TypeError(f"the AI answered {action!r}")
