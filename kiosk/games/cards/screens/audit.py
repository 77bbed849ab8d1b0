"""The card game's screens in the layout audit (kiosk/ui/audit/layout.py): the states it walks.

Each state brings a real kiosk there through the game's own commands (a new game,
a card laid) and then opens the screen: the most seats and the fewest, the hand in
every phase, the hand-over sheet and the result.
"""

from __future__ import annotations

from typing import Any, Callable

from engine.cards.parts import CardPhase
from kiosk.games import HUMAN
from kiosk.core.events import GameSetup, NewGame, SeatSetup
from kiosk.ui.audit.layout import Env, State, goto, setup_state

from engine.cards.parts import GAME_NAME
from kiosk import games


def cards_game(env: Env, kinds: tuple[str, ...], seed: int = 11) -> Any:
    env.post(NewGame(GameSetup(seats=tuple(SeatSetup(k) for k in kinds), seed=seed, first=0, game=GAME_NAME)))
    env.ui.goto(games.get(GAME_NAME).play_screen)
    env.tick()
    return env.kiosk.sessions[GAME_NAME]


def _cards_screen(env: Env) -> Any:
    screen: Any = env.ui.screen
    screen.resize(env.ui.layout)
    return screen


def _lay_first(env: Env, session: Any, want_take: bool = False) -> None:
    """The current person lays a card (one that joins treasures when `want_take` and one exists)."""
    from kiosk.games.cards.events import HandOver, LayCard, RotateHandCard, SelectHandCard

    g = session.game
    if session.handover:
        env.post(HandOver())
    places = g.legal_placements()
    if want_take:
        places = sorted(places, key=lambda p: -sum(len(c) for c in g.preview(p).values()))
    place = places[0]
    env.post(SelectHandCard(g.hand.index(place.card)))
    for _ in range(place.rotation):
        env.post(RotateHandCard())
    env.post(LayCard(place.cell))


def cards_place(kinds: tuple[str, ...]) -> Callable[[Env], None]:
    def prepare(env: Env) -> None:
        from kiosk.games.cards.events import SelectHandCard

        cards_game(env, kinds)
        env.post(SelectHandCard(0))
        _cards_screen(env)

    return prepare


def cards_handover(env: Env) -> None:
    """Two people: after the first one's turn the sheet asks to pass the screen."""
    session = cards_game(env, (HUMAN, HUMAN, HUMAN))
    from kiosk.games.cards.events import ConfirmTake

    _lay_first(env, session)
    if session.game.phase == CardPhase.TAKE:
        env.post(ConfirmTake())
    _cards_screen(env)


def cards_take(env: Env) -> None:
    """A card laid that joins treasures: the cards that may be taken light up, the take button."""
    session = cards_game(env, (HUMAN, HUMAN), seed=5)
    from kiosk.games.cards.events import ConfirmTake

    for _ in range(40):
        _lay_first(env, session, want_take=True)
        if session.game.phase == CardPhase.TAKE:
            break
        if session.game.phase == CardPhase.OVER:
            break
    if session.game.phase == CardPhase.TAKE:
        from kiosk.games.cards.events import ToggleTake

        takeable = sorted(session.game.takeable())
        if takeable:
            env.post(ToggleTake(takeable[0]))
    else:
        env.post(ConfirmTake())
    _cards_screen(env)


def cards_late(env: Env) -> None:
    """Four people ten turns in: a layout larger than the table's room (it pans, cards keep their size),
    a card picked."""
    from kiosk.games.cards.events import ConfirmTake, HandOver, SelectHandCard, ToggleTake

    session = cards_game(env, (HUMAN,) * 4, seed=3)
    for _ in range(10):
        _lay_first(env, session, want_take=True)
        if session.game.phase == CardPhase.TAKE:
            for card in sorted(session.game.takeable())[:1]:
                env.post(ToggleTake(card))
            env.post(ConfirmTake())
    if session.handover:
        env.post(HandOver())
    env.post(SelectHandCard(0))
    screen = _cards_screen(env)
    for _ in range(100):  # at rest: the last card's pop and the taken cards' fading over
        if not screen.busy:
            break
        screen.update(0.05)


def cards_finished(env: Env) -> None:
    """Four people play a whole game (each turn the first placement, taking what the best take allows),
    then the result with the cards each took."""
    from kiosk.games.cards.events import ConfirmTake, DiscardCard, HandOver, ToggleTake

    session = cards_game(env, (HUMAN,) * 4, seed=8)
    g = session.game
    for _ in range(200):
        if g.phase == CardPhase.OVER:
            break
        if session.handover:
            env.post(HandOver())
        if g.phase == CardPhase.DISCARD:
            env.post(DiscardCard(0))
            continue
        _lay_first(env, session, want_take=True)
        if g.phase == CardPhase.TAKE:
            takes = g.legal_takes()
            for card in sorted(takes[0].cards) if takes else ():
                env.post(ToggleTake(card))
            env.post(ConfirmTake())
    env.ui.goto(games.get(GAME_NAME).over_screen)


def cards_over(players: int) -> Callable[[Env], None]:
    def prepare(env: Env) -> None:
        from kiosk.games.cards.events import CardGameOver

        scores = (9, 4, 9, 0, 7, 2)[:players]
        kinds = (HUMAN, "hard", HUMAN, "random", "easy", HUMAN)[:players]
        best = max(scores)
        env.ui.goto(
            games.get(GAME_NAME).over_screen,
            event=CardGameOver(tuple(i for i, s in enumerate(scores) if s == best), scores, 40, kinds),
        )

    return prepare


def _seats(players: int, kinds: tuple[str, ...] = ()) -> Callable[[Any], None]:
    """The setup's choices for the card game: `players` seats, the first ones `kinds`."""

    def choose(c: Any) -> None:
        c.players = players
        c.kinds[: len(kinds)] = list(kinds)

    return choose


def states() -> tuple[State, ...]:
    """The card game's screens in the states the audit measures."""
    name = GAME_NAME
    six = (HUMAN, "random", "easy", "hard", HUMAN, "easy")
    return (
        State("setup", "cards-2", name, setup_state(name, _seats(2))),
        State("setup", "cards-6", name, setup_state(name, _seats(6, six))),
        State("cards_howto", "first-step", name, goto("cards_howto")),
        State(games.get(GAME_NAME).play_screen, "place-2", name, cards_place((HUMAN, "easy"))),
        State(games.get(GAME_NAME).play_screen, "place-4", name, cards_place((HUMAN, "easy", HUMAN, "hard"))),
        State(games.get(GAME_NAME).play_screen, "place-6", name, cards_place(six)),
        State(games.get(GAME_NAME).play_screen, "late-4", name, cards_late),
        State(games.get(GAME_NAME).play_screen, "handover-3", name, cards_handover),
        State(games.get(GAME_NAME).play_screen, "take-2", name, cards_take),
        State(games.get(GAME_NAME).over_screen, "players-2", name, cards_over(2)),
        State(games.get(GAME_NAME).over_screen, "players-4", name, cards_over(4)),
        State(games.get(GAME_NAME).over_screen, "finished-4", name, cards_finished),
        State(games.get(GAME_NAME).over_screen, "players-6", name, cards_over(6)),
    )
