"""The card-game session over the real bus and engine: commands, refusals, AI turns, privacy, saves."""

from __future__ import annotations

import json
import threading

import pytest

from engine.cards import CardGame, Discard, Place, Take
from engine.cards.deck import OPEN
from kiosk.core.bus import Bus
from kiosk.games.cards.events import (
    CardAIDecided,
    CardDiscarded,
    CardGameOver,
    CardGameStarted,
    CardLaid,
    CardsTaken,
    CardTurnChanged,
    ConfirmTake,
    DiscardCard,
    HandChanged,
    HandOver,
    LayCard,
    RotateHandCard,
    SelectHandCard,
    TakeChanged,
    ToggleTake,
)
from kiosk.games.cards.session import CardPacing, CardSession
from kiosk.core.clock import VirtualClock
from kiosk.core.events import AbandonGame, AIThinking, GameAbandoned, GameSetup, IllegalInput, Message, NewGame
from kiosk.games.labyrinth.events import GameStarted

from tests.support.kiosk_pump import pump


class Rig:
    def __init__(self, *, pacing=CardPacing.FAST, ai_factory=None, save=None):
        self.bus = Bus()
        self.clock = VirtualClock()
        self.seen = []
        self.bus.subscribe_all(self.seen.append)
        self.session = CardSession(self.bus, self.clock, pacing=pacing, ai_factory=ai_factory, save=save)

    def post(self, *msgs):
        start = len(self.seen)
        for m in msgs:
            self.bus.post(m)
        pump(self.bus, self.clock, None, session=self.session)
        return self.seen[start:]

    def run(self, until=None):
        pump(self.bus, self.clock, until, session=self.session)

    def of(self, cls, since=0):
        return [m for m in self.seen[since:] if isinstance(m, cls)]

    @property
    def game(self) -> CardGame:
        return self.session.game


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.session.close()


def start(rig, kinds="human,human", seed=4, **kw):
    rig.post(NewGame(GameSetup.of(kinds, seed=seed, game="cards", **kw)))
    return rig.game


def fitting(game, slot):
    """(rotation, cell) where hand card `slot` of the current player may be laid."""
    card = game.hand[slot]
    for cell, mask in sorted(game.legal_cells().items()):
        for rot in range(4):
            if OPEN[card][rot] & mask:
                return rot, cell
    raise AssertionError("no fitting place")


def lay(rig, slot=0, source="touch"):
    """Pick hand card `slot`, turn it until it fits somewhere, lay it; returns the Place."""
    g = rig.game
    rot, cell = fitting(g, slot)
    place = Place(g.hand[slot], rot, cell)
    rig.post(SelectHandCard(slot, source=source))
    for _ in range(rot):
        rig.post(RotateHandCard(source=source))
    rig.post(LayCard(cell, source=source))
    return place


def test_a_card_game_starts_as_the_engine_deals_it_and_announces_only_public_things(rig):
    game = start(rig, "human,easy,hard", seed=11)
    assert game == CardGame.new(players=3, seed=11)
    started = rig.of(CardGameStarted)[0]
    assert started.current == 0 and started.phase == "place" and started.pile == len(game.draw_pile)
    assert {(c.cell, c.card, c.rotation) for c in started.layout} == {
        (cell, p.card, p.rotation) for cell, p in game.layout.items()
    }
    assert [p.color for p in started.players] == ["red", "yellow", "green"]
    assert [p.hand_size for p in started.players] == [2, 2, 2]
    turn = rig.of(CardTurnChanged)[0]
    assert turn.player == 0 and turn.kind == "human" and not turn.handover
    assert set(turn.cells) == set(game.legal_cells())
    # the board session stays out of it
    assert not rig.of(GameStarted)


def test_a_human_turn_through_commands_is_the_engine_turn(rig):
    game = start(rig, "human,human", seed=4)
    expected = game.copy()
    place = lay(rig, slot=1)
    laid = rig.of(CardLaid)[-1]
    assert (laid.card, laid.rotation, laid.cell) == (place.card, place.rotation, place.cell)
    expected.apply(place)
    if expected.phase == "take":
        rig.post(ConfirmTake())
        expected.apply(Take())
    assert rig.game == expected


def test_selecting_the_picked_card_again_turns_it_and_hand_events_name_no_card(rig):
    start(rig, "human,easy", seed=4)
    rig.post(SelectHandCard(0))
    assert (rig.session.selected, rig.session.rotation) == (0, 0)
    rig.post(SelectHandCard(0), SelectHandCard(0), RotateHandCard(3))
    assert rig.session.rotation == (2 + 3) % 4
    rig.post(SelectHandCard(1))
    assert (rig.session.selected, rig.session.rotation) == (1, 0)
    changed = rig.of(HandChanged)[-1]
    assert (changed.player, changed.size, changed.selected, changed.rotation, changed.shown) == (0, 2, 1, 0, True)
    assert set(changed.to_dict()) == {"type", "player", "size", "selected", "rotation", "shown"}


def reasons(events):
    return [(e.command, e.reason) for e in events if isinstance(e, IllegalInput)]


def test_refusals_say_why_and_change_nothing(rig):
    assert reasons(rig.post(SelectHandCard(0))) == [
        ("select_hand_card", "No card game is running: start a new game first.")
    ]
    game = start(rig, "human,easy", seed=4)
    before = game.to_dict()
    out = reasons(rig.post(LayCard((5, 5))))
    assert out and "Choose a card from your hand first" in out[0][1]
    out = reasons(rig.post(RotateHandCard()))
    assert "Tap a card in your hand first" in out[0][1]
    out = reasons(rig.post(SelectHandCard(2)))
    assert "no card 2 in your hand" in out[0][1]
    rig.post(SelectHandCard(0))
    out = reasons(rig.post(LayCard((9, 9))))
    assert "not next to the layout" in out[0][1]
    out = reasons(rig.post(LayCard((0, 0))))
    assert "taken already" in out[0][1]
    out = reasons(rig.post(ToggleTake(game.layout[(0, 0)].card), ConfirmTake(), DiscardCard(0)))
    assert [c for c, _ in out] == ["toggle_take", "confirm_take", "discard_card"]
    assert "Lay a card first" in out[0][1]
    out = reasons(rig.post(HandOver()))
    assert "No hand-over is due" in out[0][1]
    assert rig.game.to_dict() == before
    out = reasons(rig.post(LayCard((0, 0), source="ai")))
    assert "computer move arrived during a person's turn" in out[0][1]


def take_position(seed_from=0):
    """A game in phase take where some choice of the joined cards is not allowed (a card left alone)."""
    from engine.cards.ai import make_ai

    for seed in range(seed_from, seed_from + 400):
        g = CardGame.new(players=2, seed=seed)
        ais = [make_ai("easy", 1), make_ai("easy", 2)]
        while g.phase != "over":
            if g.phase == "take":
                bad = [c for c in g.takeable() if g.take_problem({c}) is not None]
                if bad:
                    return g, bad[0]
            g.apply(ais[g.current].choose(g))
    raise AssertionError("no take with a forbidden card in 400 games")


def test_taking_ticks_cards_refuses_a_take_that_leaves_a_card_alone_and_takes_a_legal_one(rig):
    game, bad = take_position()
    rig.session.resume(game.copy(), ("human", "human"))
    rig.run()
    rig.post(HandOver())
    turn = rig.of(CardTurnChanged)[-1]
    assert turn.phase == "take" and set(turn.takeable) == set(game.takeable())
    outsider = next(p.card for p in game.layout.values() if p.card not in game.takeable())
    assert "not joined by a path" in reasons(rig.post(ToggleTake(outsider)))[0][1]
    rig.post(ToggleTake(bad))
    changed = rig.of(TakeChanged)[-1]
    assert changed.chosen == (bad,) and "Cannot take those" in changed.problem
    out = reasons(rig.post(ConfirmTake()))
    assert out and "Cannot take those" in out[0][1] and rig.game.phase == "take"
    rig.post(ToggleTake(bad))  # untick it again, tick the largest legal choice
    best = game.legal_takes()[0]
    for card in sorted(best.cards):
        rig.post(ToggleTake(card))
    player = game.current
    rig.post(ConfirmTake())
    taken = rig.of(CardsTaken)[-1]
    assert (
        taken.player == player
        and set(taken.cards) == set(best.cards)
        and taken.score == len(game.taken[player]) + len(best.cards)
    )
    game.apply(best)
    assert rig.game == game


def test_two_humans_hand_over_between_turns_and_the_hand_stays_hidden_until_then(rig):
    game = start(rig, "human,human", seed=9)
    s = rig.session
    # the first person of a new game has nobody to hand over from: their hand shows at once
    assert not rig.of(CardTurnChanged)[-1].handover
    assert s.visible_hand(0) == tuple(game.hands[0]) and s.visible_hand(1) == ()
    assert rig.of(HandChanged)[-1].shown
    lay(rig, 0)
    if rig.game.phase == "take":
        rig.post(ConfirmTake())
    turn = rig.of(CardTurnChanged)[-1]
    assert turn.player == 1 and turn.handover
    assert s.visible_hand(1) == () and s.visible_hand(0) == ()
    assert not rig.of(HandChanged)[-1].shown
    out = reasons(rig.post(SelectHandCard(0)))
    assert "Pass the screen to yellow first" in out[0][1]
    rig.post(HandOver())
    assert s.visible_hand(1) == tuple(rig.game.hands[1]) and s.visible_hand(0) == ()
    assert rig.of(HandChanged)[-1].shown


def test_the_first_person_after_computer_turns_gets_no_hand_over_but_the_next_person_does(rig):
    start(rig, "easy,human,human", seed=3)
    rig.run(lambda: rig.game.current == 1 and rig.session.awaiting_human())
    assert not rig.session.handover and rig.session.visible_hand(1)
    lay(rig, 0)
    if rig.game.phase == "take":
        rig.post(ConfirmTake())
    assert rig.game.current == 2 and rig.session.handover and rig.session.visible_hand(2) == ()


def test_a_resumed_game_of_two_people_starts_behind_the_hand_over(rig):
    game = CardGame.new(players=2, seed=9)
    rig.session.resume(game.copy(), ("human", "human"))
    rig.run()
    assert rig.session.handover and rig.session.visible_hand(0) == ()
    rig.post(HandOver())
    assert rig.session.visible_hand(0) == tuple(game.hands[0])


def test_one_person_against_computers_gets_no_hand_over_and_never_sees_a_computer_hand(rig):
    start(rig, "human,easy,random", seed=2)
    s = rig.session
    assert not rig.of(CardTurnChanged)[-1].handover and s.visible_hand(0)
    lay(rig, 0)
    if rig.game.phase == "take":
        rig.post(ConfirmTake())
    rig.run(lambda: rig.game.current == 0)
    assert all(not t.handover for t in rig.of(CardTurnChanged))
    assert s.visible_hand(1) == () and s.visible_hand(2) == ()


def test_no_event_names_a_card_before_it_is_public():
    """Replay every event: a card id may appear only once it lies open (layout, laid, taken, discarded)."""
    r = Rig()
    try:
        r.post(NewGame(GameSetup.of("easy,hard,random", seed=21, game="cards")))
        r.run(lambda: r.game.phase == "over")
        public: set[int] = set()
        for e in r.seen:
            if isinstance(e, CardGameStarted):
                public |= {c.card for c in e.layout}
            elif isinstance(e, CardLaid):
                public.add(e.card)
            elif isinstance(e, CardDiscarded):
                public.add(e.card)
            named = set()
            if isinstance(e, (CardLaid, CardDiscarded)):
                named = {e.card}
            if isinstance(e, (CardLaid, CardTurnChanged)):
                named |= set(e.takeable)
            if isinstance(e, CardsTaken):
                named |= set(e.cards)
            if isinstance(e, TakeChanged):
                named |= set(e.chosen)
            assert named <= public, e
            assert not isinstance(e, HandChanged) or "card" not in json.dumps(e.to_dict()).replace("hand_changed", "")
    finally:
        r.session.close()


def test_computer_seats_think_off_the_main_thread_and_play_through_paced_commands():
    threads = []

    def factory(level, seed):
        from engine.cards.ai import make_ai

        ai = make_ai(level, seed)
        choose = ai.choose

        def spy(game):
            threads.append(threading.get_ident())
            return choose(game)

        ai.choose = spy
        return ai

    r = Rig(pacing=CardPacing(), ai_factory=factory)
    try:
        r.post(NewGame(GameSetup.of("hard,easy", seed=5, game="cards")))
        r.run(lambda: len(r.of(CardLaid)) >= 4)
        assert threads and threading.get_ident() not in threads
        ai_cmds = [
            m for m in r.seen if isinstance(m, (SelectHandCard, RotateHandCard, LayCard, ToggleTake, ConfirmTake))
        ]
        assert ai_cmds and all(m.source == "ai" for m in ai_cmds)
        assert r.of(AIThinking) and r.of(CardAIDecided)
        assert not [e for e in r.seen if isinstance(e, IllegalInput)]
    finally:
        r.session.close()


def test_paced_ai_lays_its_card_no_sooner_than_the_thinking_pause():
    times = {}
    r = Rig(pacing=CardPacing(think=1.0, select=0.5, rotate=0.3, lay=0.5))
    r.bus.subscribe(AIThinking, lambda e: times.setdefault("think", r.clock.now()))
    r.bus.subscribe(CardLaid, lambda e: times.setdefault("laid", r.clock.now()))
    try:
        r.post(NewGame(GameSetup.of("easy,human", seed=3, game="cards")))
        r.run(lambda: "laid" in times)
        assert times["laid"] - times["think"] >= 1.0 + 0.5 - 1e-9
    finally:
        r.session.close()


def test_computer_games_run_to_the_end_like_the_engine_and_tell_the_winners(rig):
    start(rig, "hard,easy,random", seed=8)
    rig.run(lambda: rig.game.phase == "over")
    over = rig.of(CardGameOver)[-1]
    g = rig.game
    assert over.winners == tuple(g.winners) and over.scores == tuple(g.scores) and over.turns == g.turns
    assert over.kinds == ("hard", "easy", "random") and over.termination is g.outcome.termination
    # the same game replayed from the events alone
    replay = CardGame.new(players=3, seed=8)
    for e in rig.seen:
        if isinstance(e, CardLaid):
            replay.apply(Place(e.card, e.rotation, tuple(e.cell)))
        elif isinstance(e, CardsTaken):
            replay.apply(Take(e.cards))
        elif isinstance(e, TakeChanged):
            continue
        elif isinstance(e, CardDiscarded):
            replay.apply(Discard(e.card))
        elif isinstance(e, CardTurnChanged) and replay.phase == "take" and e.phase != "take":
            replay.apply(Take())
    assert replay == g


def test_a_board_game_abandons_the_card_game_and_the_other_way_round(rig):
    from kiosk.games.labyrinth.session import Pacing, Session

    board = Session(rig.bus, rig.clock, pacing=Pacing.FAST)
    try:
        start(rig, "human,easy")
        rig.post(NewGame(GameSetup.of("human,medium", seed=1)))
        assert rig.session.game is None and board.game is not None
        assert rig.of(GameAbandoned)[-1].reason == "another game was started"
        start(rig, "human,easy")
        assert board.game is None and rig.session.game is not None
        rig.post(AbandonGame("idle"))
        assert rig.session.game is None
    finally:
        board.close()


def test_card_setups_are_checked():
    with pytest.raises(ValueError, match="2 to 6 players"):
        GameSetup.of("human", game="cards")
    with pytest.raises(ValueError, match="not one of human, random, easy, hard"):
        GameSetup.of("human,medium", game="cards")
    assert len(GameSetup.of("human," * 5 + "hard", game="cards").seats) == 6
    with pytest.raises(ValueError, match="game 'chess'"):
        GameSetup.of("human,human", game="chess")


def test_every_card_message_survives_json(rig):
    start(rig, "easy,hard", seed=6)
    rig.run(lambda: rig.game.phase == "over")
    kinds = set()
    for m in rig.seen:
        back = Message.from_dict(json.loads(m.to_json()))
        assert back == m
        kinds.add(m.type)
    assert {
        "card_game_started",
        "card_turn_changed",
        "card_laid",
        "cards_taken",
        "hand_changed",
        "card_game_over",
        "card_ai_decided",
        "select_hand_card",
        "lay_card",
        "confirm_take",
    } <= kinds


# ---------------------------------------------------------------- through the kiosk: saves, resume, history


def make_kiosk(tmp_path, **kw):
    from kiosk.core.kiosk import Kiosk, KioskOptions

    return Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=tmp_path, **kw))


def kiosk_run(k, until):
    pump(k.bus, k.clock, until, session=k.sessions["cards"], tick=k.tick)


def test_the_kiosk_saves_a_card_game_after_every_action_and_resumes_it(tmp_path):
    k = make_kiosk(tmp_path)
    try:
        k.bus.post(NewGame(GameSetup.of("human,hard", seed=13, game="cards")))
        kiosk_run(k, lambda: k.sessions["cards"].awaiting_human())
        g = k.sessions["cards"].game
        rot, cell = fitting(g, 0)
        for cmd in [SelectHandCard(0)] + [RotateHandCard()] * rot + [LayCard(cell)]:
            k.bus.post(cmd)
        kiosk_run(k, lambda: k.sessions["cards"].awaiting_human() and k.sessions["cards"].game.turns >= 1)
        if k.sessions["cards"].game.phase == "take":
            k.bus.post(ConfirmTake())
            kiosk_run(k, lambda: k.sessions["cards"].awaiting_human() and k.sessions["cards"].game.phase == "place")
        saved = json.loads((tmp_path / "current-game.json").read_text())
        assert saved["game"] == "cards" and saved["state"]["game"] == "cards"
        assert saved["meta"]["kinds"] == ["human", "hard"]
        assert CardGame.from_dict(saved["state"]) == k.sessions["cards"].game
        expected = k.sessions["cards"].game.copy()
    finally:
        k.close()
    k2 = make_kiosk(tmp_path)
    try:
        assert k2.resume_saved()
        assert k2.sessions["cards"].game == expected and k2.sessions["cards"].kinds == ("human", "hard")
        assert k2.sessions["labyrinth"].game is None
    finally:
        k2.close()


def test_finished_card_games_go_to_the_history_with_every_winner(tmp_path):
    from kiosk.store.history import History

    k = make_kiosk(tmp_path, persist_ai_games=True, record_ai_games=True)
    try:
        k.bus.post(NewGame(GameSetup.of("easy,easy", seed=31, game="cards")))
        kiosk_run(k, lambda: k.games_finished >= 1)
        g = k.sessions["cards"].game
        assert g.phase == "over"
    finally:
        k.close()
    records, _ = History(tmp_path).read()
    assert len(records) == 1
    rec = records[0]
    assert rec.game == "cards" and rec.seats == ("easy", "easy") and rec.winners == tuple(g.winners)
    assert rec.turns == g.turns
    assert not (tmp_path / "current-game.json").exists()  # a finished game's save is removed


def test_arcade_buttons_turn_the_card_and_confirm_the_take_during_a_card_game(tmp_path):
    from kiosk.core.events import ButtonPressed

    k = make_kiosk(tmp_path)
    try:
        k.bus.post(NewGame(GameSetup.of("human,easy", seed=13, game="cards")))
        kiosk_run(k, lambda: k.sessions["cards"].awaiting_human())
        k.bus.post(SelectHandCard(0))
        k.bus.post(ButtonPressed("rotate"))
        k.bus.post(ButtonPressed("N1"))  # arrows do nothing in the card game
        kiosk_run(k, lambda: not k.bus.pending())
        assert k.sessions["cards"].rotation == 1 and k.sessions["labyrinth"].game is None
    finally:
        k.close()


def test_the_ring_lights_one_equal_arc_per_card_player():
    from hardware.ring.layout import RingLayout
    from kiosk.core.ring_view import RingView

    class Recorder:
        """The ring edge: records what it is asked to show."""

        def __init__(self):
            self.layout = RingLayout(24)
            self.calls = []

        def __getattr__(self, name):
            return lambda *a: self.calls.append((name, *a))

    ring = Recorder()
    r = Rig()
    view = RingView(r.bus, ring, r.clock)
    try:
        r.bus.post(NewGame(GameSetup.of("easy,easy,easy,easy,hard,human", seed=3, game="cards")))
        r.run(lambda: r.session.awaiting_human())
        shown = [c for c in ring.calls if c[0] == "show_segment"]
        arcs = {(c[1], c[2]) for c in shown}
        assert len(arcs) == 6 and all(count == 4 for _, count in arcs)
        assert shown[0][1:] == (0, 4, (255, 0, 0))
        assert (20, 4, (0, 210, 160)) in [c[1:] for c in shown]  # turquoise, the sixth seat
    finally:
        view.close()
        r.session.close()


# ---------------------------------------------------------------- refusal codes


def codes(events):
    return [(e.command, e.code) for e in events if isinstance(e, IllegalInput)]


def unfitting(game):
    """(slot, rotation, cell): a hand card turned so that it meets no opening at an empty place by the layout."""
    for slot, card in enumerate(game.hand):
        for cell, mask in sorted(game.legal_cells().items()):
            for rot in range(4):
                if not OPEN[card][rot] & mask:
                    return slot, rot, cell
    raise AssertionError("every card fits everywhere")


def test_every_card_refusal_carries_a_stable_code(rig):
    assert codes(rig.post(SelectHandCard(0))) == [("select_hand_card", "no_game")]
    game = start(rig, "human,easy", seed=4)
    assert codes(rig.post(LayCard((5, 5)), RotateHandCard())) == [
        ("lay_card", "pick_card_first"),
        ("rotate_hand_card", "pick_card_first"),
    ]
    assert codes(rig.post(SelectHandCard(2))) == [("select_hand_card", "no_such_card")]
    rig.post(SelectHandCard(0))
    assert codes(rig.post(RotateHandCard(0.5))) == [("rotate_hand_card", "card_whole_turns")]
    assert codes(rig.post(LayCard("x"))) == [("lay_card", "not_a_place")]
    assert codes(rig.post(LayCard((9, 9)))) == [("lay_card", "not_next_to_layout")]
    assert codes(rig.post(LayCard((0, 0)))) == [("lay_card", "cell_taken")]
    slot, rot, cell = unfitting(game)
    rig.post(SelectHandCard(slot))
    for _ in range((rot - rig.session.rotation) % 4):
        rig.post(RotateHandCard())
    assert codes(rig.post(LayCard(cell))) == [("lay_card", "no_opening_meets")]
    out = codes(rig.post(ToggleTake(game.layout[(0, 0)].card), ConfirmTake(), DiscardCard(0)))
    assert out == [("toggle_take", "lay_first"), ("confirm_take", "lay_first"), ("discard_card", "lay_first")]
    assert codes(rig.post(HandOver())) == [("hand_over", "no_hand_over")]
    assert codes(rig.post(LayCard((0, 0), source="ai"))) == [("lay_card", "not_computer_turn")]
    # a person during the computer's turn, then the screen not yet handed over
    rig.bus.post(NewGame(GameSetup.of("easy,human", seed=4, game="cards")))
    rig.bus.post(SelectHandCard(0))
    assert ("select_hand_card", "computer_turn") in codes(rig.post())
    # the take (a resumed game of two people: the screen is handed over first), a card not joined,
    # a take that leaves a card alone, a hand card meanwhile
    taking, bad = take_position()
    rig.session.resume(taking.copy(), ("human", "human"))
    rig.run()
    assert codes(rig.post(SelectHandCard(0))) == [("select_hand_card", "pass_screen")]
    rig.post(HandOver())
    outsider = next(p.card for p in taking.layout.values() if p.card not in taking.takeable())
    assert codes(rig.post(ToggleTake(outsider))) == [("toggle_take", "not_joined")]
    rig.post(ToggleTake(bad))
    assert codes(rig.post(ConfirmTake())) == [("confirm_take", "cannot_take")]
    assert codes(rig.post(SelectHandCard(0))) == [("select_hand_card", "take_now")]
    # the end
    start(rig, "easy,hard", seed=6)
    rig.run(lambda: rig.game.phase == "over")
    assert codes(rig.post(SelectHandCard(0))) == [("select_hand_card", "game_over")]


def test_every_card_refusal_code_is_translated_in_every_catalog():
    """The codes the card session (and the base it shares with the board game) can send, read from the source."""
    import re
    from pathlib import Path

    from kiosk.games.cards import session as card_session
    from kiosk.ui.kit.i18n import LANGUAGES, load_catalog
    import kiosk.core.session

    source = Path(card_session.__file__).read_text() + Path(kiosk.core.session.__file__).read_text()
    sent = set(re.findall(r'code="(\w+)"', source)) | set(re.findall(r'return "(\w+)"', source))
    sent |= {code for _, code in card_session._WRONG_PHASE.values()} | {"refused"}  # refused: the default
    assert {"pass_screen", "take_now", "lay_first", "discard_now", "cannot_take"} <= sent
    for lang in LANGUAGES:
        catalog = load_catalog(lang)
        missing = sorted(code for code in sent if f"refusal.{code}" not in catalog)
        assert not missing, f"{lang}.po has no translation for refusal codes {missing}"
