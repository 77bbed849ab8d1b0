"""The card screen's table model (kiosk/games/cards/screens/model.py), fed only by the card game's
events, holds what the session holds after every step of a game of two people and a computer: the
hand-over between the people, a card picked and turned, laid, cards ticked and taken, an undo; and a
model loaded from the session's public picture mid-turn (a screen opened late) is the same as one fed
all along."""

from __future__ import annotations

from engine.cards import Place

from kiosk.core.bus import Bus
from kiosk.core.clock import VirtualClock
from kiosk.core.events import GameSetup, SeatSetup, Undo
from kiosk.games.cards.events import (
    ConfirmTake,
    DiscardCard,
    HandOver,
    LayCard,
    RotateHandCard,
    SelectHandCard,
    ToggleTake,
)
from kiosk.games.cards.screens.model import TableModel
from kiosk.games.cards.session import CardPacing, CardSession

from tests.support.kiosk_pump import pump


def _picture(model: TableModel) -> tuple:
    """What the screen draws from the model."""
    return (
        dict(model.layout),
        model.current,
        model.phase,
        model.pile,
        model.hand_sizes,
        model.scores,
        model.last_taken,
        model.kinds,
        model.selected,
        model.rotation,
        model.chosen,
        model.handover,
        model.undo_player,
        model.legal_cells() if model.phase == "place" else {},
        model.takeable(),
        model.joined_paths(),
    )


def _session_picture(s: CardSession) -> tuple:
    """The same, as the session and its game hold it."""
    g = s.game
    assert g is not None
    return (
        dict(g.layout),
        g.current,
        g.phase,
        len(g.draw_pile),
        [len(h) for h in g.hands],
        list(g.scores),
        [t[-1] if t else None for t in g.taken],
        list(s.kinds),
        s.selected,
        s.rotation,
        frozenset(s.chosen),
        s.handover,
        s.undo_player,
        g.legal_cells() if g.phase == "place" else {},
        g.takeable(),
        g.joined_paths(),
    )


def _loaded(s: CardSession) -> TableModel:
    model = TableModel()
    model.load(s.public_snapshot())
    return model


def test_the_model_fed_by_events_holds_what_the_session_holds():
    bus, clock = Bus(), VirtualClock()
    session = CardSession(bus, clock, pacing=CardPacing.FAST)
    model = TableModel()
    bus.subscribe_all(model.apply)
    checked = 0
    try:
        seats = ("human", "human", "easy")
        session.start(GameSetup(seats=tuple(SeatSetup(k) for k in seats), seed=5, first=0, game="cards"))
        for turn in range(60):
            pump(bus, clock, None, session=session)
            g = session.game
            assert g is not None
            if g.phase == "over":
                break
            assert _picture(model) == _session_picture(session), turn
            assert _picture(_loaded(session)) == _picture(model), turn  # a screen opened now sees the same
            checked += 1
            if session.kinds[g.current] != "human":
                continue
            if session.handover:
                bus.post(HandOver())
            elif g.phase == "discard":
                bus.post(DiscardCard(0))
            elif g.phase == "take":
                for card in sorted(g.takeable())[:1]:
                    bus.post(ToggleTake(card))
                    pump(bus, clock, None, session=session)
                    assert _picture(model) == _session_picture(session)  # a card ticked
                bus.post(ConfirmTake())
            else:
                place: Place = g.legal_placements()[-1]
                bus.post(SelectHandCard(g.hand.index(place.card)))
                for _ in range(place.rotation):
                    bus.post(RotateHandCard())
                pump(bus, clock, None, session=session)
                assert _picture(model) == _session_picture(session)  # a card picked and turned
                bus.post(LayCard(place.cell))
                if turn % 7 == 3:  # now and then the person takes it back, and lays it again
                    pump(bus, clock, None, session=session)
                    bus.post(Undo(g.current))
                    pump(bus, clock, None, session=session)
                    model.load(session.public_snapshot())  # (as the screen does on ActionUndone)
                    assert _picture(model) == _session_picture(session)
        assert checked > 20
    finally:
        session.close()
