"""The screens and states the layout audit walks (kiosk/ui/layout_audit.py).

Each state brings a real kiosk there through its own commands (a new game, an
arrow pressed twice, a card laid) and then opens the screen, so what the audit
measures is what a visitor would see. Chosen to cover what grows: the most
seats (4 and 6), the fewest (1 and 2), the active panel with every control
(hint on, the peek, stay, the blocked-arrow message), the card hand in every
phase, the hand-over sheet and both games' results.
"""

from __future__ import annotations

from typing import Any

from kiosk.events import GameSetup, NewGame, SeatSetup

from .layout_audit import Env, State

# The states reach into a screen's own parts (the play screen's message, the setup's choices):
# a screen is Any here, as the audit sets what no visitor's input could set that quickly.


def _board(env: Env, kinds: tuple[str, ...], *, hints: bool = True, open_cards: bool = False,
           first: int = 0, seed: int = 3) -> Any:
    from engine.tiles import DEFAULT_SEATS
    seats = DEFAULT_SEATS[len(kinds)]
    env.post(NewGame(GameSetup(seats=tuple(SeatSetup(k, s) for k, s in zip(kinds, seats)), seed=seed,
                               first=first, hints=hints, open_cards=open_cards, game="labyrinth")))
    return env.kiosk.sessions["labyrinth"]


def _play(env: Env, hints: bool = True) -> Any:
    """The play screen, showing the session as it is now (as after a resume), no message left over."""
    screen: Any = env.ui.goto("play", hints=hints)
    screen.toast, screen.toast_until = "", 0.0
    screen._refresh_panels()
    return screen


def board_shift(kinds: tuple[str, ...], **kw: Any):
    def prepare(env: Env) -> None:
        _board(env, kinds, **kw)
        _play(env)
    return prepare


def board_blocked(env: Env) -> None:
    """The arrow opposite the last push refused: its message in the active panel."""
    _board(env, ("human", "human", "human", "human"))
    from kiosk.games.labyrinth.events import SelectArrow, Stay
    env.post(SelectArrow("N1"))
    env.post(SelectArrow("N1"))
    env.post(Stay())
    _play(env)
    blocked_message(env)


def blocked_message(env: Env) -> None:
    """What the play screen says to the active person when the blocked arrow is pressed."""
    screen: Any = env.ui.screen
    screen._show_toast(screen.t("play.blocked"), screen.board.model.current)
    screen.toast_until = env.ui.now() + 3600


def board_move(env: Env) -> None:
    """After a push: the stay button and the lit cells."""
    _board(env, ("human", "medium"))
    from kiosk.games.labyrinth.events import SelectArrow
    env.post(SelectArrow("W3"))
    env.post(SelectArrow("W3"))
    _play(env)


def board_peek(env: Env) -> None:
    _board(env, ("human", "easy", "hard"))
    screen = _play(env)
    screen.peek.set(True)
    screen._refresh_panels()


def board_over(players: int):
    def prepare(env: Env) -> None:
        from kiosk.games.labyrinth.events import GameOver
        found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))[:players]
        kinds = ("human", "medium", "human", "hard")[:players]
        env.ui.goto("gameover", event=GameOver((0,), 31, found, kinds))
    return prepare


def cards_game(env: Env, kinds: tuple[str, ...], seed: int = 11) -> Any:
    env.post(NewGame(GameSetup(seats=tuple(SeatSetup(k) for k in kinds), seed=seed, first=0, game="cards")))
    env.ui.goto("cards_play")
    env.tick()
    return env.kiosk.sessions["cards"]


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


def cards_place(kinds: tuple[str, ...]):
    def prepare(env: Env) -> None:
        from kiosk.games.cards.events import SelectHandCard
        cards_game(env, kinds)
        env.post(SelectHandCard(0))
        _cards_screen(env)
    return prepare


def cards_handover(env: Env) -> None:
    """Two people: after the first one's turn the sheet asks to pass the screen."""
    session = cards_game(env, ("human", "human", "human"))
    from kiosk.games.cards.events import ConfirmTake
    _lay_first(env, session)
    if session.game.phase == "take":
        env.post(ConfirmTake())
    _cards_screen(env)


def cards_take(env: Env) -> None:
    """A card laid that joins treasures: the cards that may be taken light up, the take button."""
    session = cards_game(env, ("human", "human"), seed=5)
    from kiosk.games.cards.events import ConfirmTake
    for _ in range(40):
        _lay_first(env, session, want_take=True)
        if session.game.phase == "take":
            break
        if session.game.phase == "over":
            break
    if session.game.phase == "take":
        from kiosk.games.cards.events import ToggleTake
        takeable = sorted(session.game.takeable())
        if takeable:
            env.post(ToggleTake(takeable[0]))
    else:
        env.post(ConfirmTake())
    _cards_screen(env)


def cards_over(players: int):
    def prepare(env: Env) -> None:
        from kiosk.games.cards.events import CardGameOver
        scores = (9, 4, 9, 0, 7, 2)[:players]
        kinds = ("human", "hard", "human", "random", "easy", "human")[:players]
        best = max(scores)
        env.ui.goto("cards_gameover", event=CardGameOver(tuple(i for i, s in enumerate(scores) if s == best),
                                                         scores, 40, kinds))
    return prepare


def setup_state(game: str, players: int, kinds: tuple[str, ...] | None = None, picker: bool = False):
    def prepare(env: Env) -> None:
        screen: Any = env.ui.goto("setup")
        c = screen.choices
        c.game = game
        if game == "cards":
            c.card_players = players
            if kinds:
                c.card_kinds[:len(kinds)] = list(kinds)
        else:
            c.players = players
            if kinds:
                c.kinds[:len(kinds)] = list(kinds)
        screen.picking_language = picker
        screen._build()
    return prepare


def goto(name: str, **kw: Any):
    def prepare(env: Env) -> None:
        env.ui.goto(name, **kw)
    return prepare


STATES: tuple[State, ...] = (
    State("attract", "idle", "", goto("attract")),
    State("setup", "board-1", "labyrinth", setup_state("labyrinth", 1)),
    State("setup", "board-4", "labyrinth", setup_state("labyrinth", 4, ("human", "easy", "medium", "hard"))),
    State("setup", "cards-2", "cards", setup_state("cards", 2)),
    State("setup", "cards-6", "cards", setup_state("cards", 6, ("human", "random", "easy", "hard", "human", "easy"))),
    State("setup", "language", "labyrinth", setup_state("labyrinth", 2, picker=True)),
    State("howto", "first-step", "labyrinth", goto("howto")),
    State("cards_howto", "first-step", "cards", goto("cards_howto")),
    State("play", "shift-hint-4", "labyrinth", board_shift(("human", "medium", "human", "hard"))),
    State("play", "shift-hint-1", "labyrinth", board_shift(("human",))),
    State("play", "open-cards-2", "labyrinth", board_shift(("human", "easy"), open_cards=True)),
    State("play", "blocked-arrow", "labyrinth", board_blocked, blocked_message),
    State("play", "move-stay", "labyrinth", board_move),
    State("play", "peek", "labyrinth", board_peek),
    State("gameover", "players-2", "labyrinth", board_over(2)),
    State("gameover", "players-4", "labyrinth", board_over(4)),
    State("cards_play", "place-2", "cards", cards_place(("human", "easy"))),
    State("cards_play", "place-6", "cards", cards_place(("human", "random", "easy", "hard", "human", "easy"))),
    State("cards_play", "handover-3", "cards", cards_handover),
    State("cards_play", "take-2", "cards", cards_take),
    State("cards_gameover", "players-2", "cards", cards_over(2)),
    State("cards_gameover", "players-6", "cards", cards_over(6)),
)
