"""Seats that change hands at the table: "Red, still there?", the computer takes over, Join.

Through the real kiosk (a virtual clock, the virtual LED ring, a state directory)
and the real UI offscreen at 800x480 in the tabletop layout: a person's turn
untouched for ``seat_timeout_s`` while another person plays calls that seat on
the screen (turned to them) and on the ring; "I'm here" keeps it theirs;
unanswered, the computer plays it, the panel says so, and a Join at that corner
gives it back to a person. The last person at the table gets the idle question,
never the call. Screenshots of each step in English, German and Estonian.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import pytest

from hardware.ring.picture import SEGMENT
from kiosk.core.clock import VirtualClock
from kiosk.core.config import Config
from kiosk.core.events import CallSeat, ChangeSeat, GameSetup, SeatCalled
from kiosk.core.ring_view import CALL_RGB, PAWN_RGB
from kiosk.games import HUMAN
from kiosk.games.labyrinth.events import PushArrow, RotateSpare, Stay
from kiosk.games.labyrinth.geometry import ARROWS
from kiosk.ui.overlays.seats import JOINED_CALL_S

from tests.support.mini_ui import Now, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display

SEAT_S, CALL_S, IDLE_S = 40, 20, 120


@pytest.fixture
def table(window, tmp_path):
    """A kiosk running a board game of two people (Red at seat 0, Green at seat 2), with its UI."""
    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.ui.shell.window import UI

    base = Config()
    kiosk_keys = dict(idle_timeout_s=IDLE_S, seat_timeout_s=SEAT_S, seat_countdown_s=CALL_S, seat_level="easy")
    config = replace(base, kiosk=replace(base.kiosk, **kiosk_keys))
    clock = VirtualClock()
    kiosk = Kiosk(
        config,
        KioskOptions(
            fast=True,
            ring="virtual",
            state_dir=tmp_path,
            setup=GameSetup.of("human,human", seed=4, first=0),
            start_game=True,
        ),
        clock=clock,
    )
    kiosk.seen = []
    kiosk.bus.subscribe_all(kiosk.seen.append)
    kiosk.start()
    now = Now()
    ui = UI(kiosk, window, layout="tabletop", language="en", clock=now)
    ui.now_at, ui.k = now, kiosk
    settle(ui)
    yield ui
    ui.close()
    kiosk.close()


def settle(ui, n=8, until=None):
    """Frames until `until()` holds (the computer thinks on its own thread), or `n` frames."""
    deadline = time.monotonic() + 30
    for _ in range(n):
        ui.step(0.02)
    while until is not None and not until():
        assert time.monotonic() < deadline, "the table did not get there in time"
        ui.step(0.02)
        time.sleep(0.01)


def shot(ui, tmp_path: Path, name: str) -> None:
    for _ in range(40):  # the board plays out what the (unpaced) computer did
        ui.step(0.25)
    ui.draw()
    ui.screenshot(tmp_path / f"{name}.png")
    if os.environ.get("KIOSK_SHOTS"):
        ui.screenshot(Path(os.environ["KIOSK_SHOTS"]) / f"{name}.png")


def leave_it(ui, seconds: float) -> None:
    ui.now_at.t += seconds
    settle(ui, 3)


def test_a_called_person_says_im_here_and_keeps_their_seat(table):
    ui = table
    session = ui.k.sessions["labyrinth"]
    assert session.running.current == 0 and session.kinds == (HUMAN, HUMAN)
    leave_it(ui, SEAT_S - 1)
    assert ui.seats.calling is None  # not yet
    leave_it(ui, 2)
    assert ui.seats.calling == 0 and not ui.idle.showing
    assert [e for e in ui.k.seen if isinstance(e, SeatCalled)] == [SeatCalled(0, CALL_S)]
    # the panel faces Red's side (seat 0 sits at the far edge of the table) and says who is called
    texts = [getattr(s, "text", "") for s in ui.seats._shapes]
    assert ui.t("seat.still_there", player="Red") in texts
    assert ui.t("seat.takes_over", seconds=CALL_S) in texts
    assert ui.seats._facing(session, 0) == 180
    # the ring: Red's arc pulses between red and white
    assert ui.k.ring.sync(2.0)
    ui.k.clock.advance(1.0)
    ui.k.tick()
    assert ui.k.ring.sync(2.0)
    colours = {p.colour for _, p in ui.k.ring.driver.history() if p.kind == SEGMENT}
    assert {CALL_RGB, PAWN_RGB["red"]} <= colours
    ui.tap(*ui.seats.here_rect.center)
    settle(ui)
    assert ui.seats.calling is None and session.kinds == (HUMAN, HUMAN)
    assert [c.seconds for c in ui.k.seen if isinstance(c, CallSeat)] == [CALL_S, 0.0]
    leave_it(ui, SEAT_S - 1)
    assert ui.seats.calling is None  # the wait began again with "I'm here"


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_nobody_answers_the_computer_plays_the_seat_and_join_gives_it_back(table, tmp_path, language):
    ui = table
    ui.set_language(language)
    session = ui.k.sessions["labyrinth"]
    leave_it(ui, SEAT_S + 1)
    assert ui.seats.calling == 0
    shot(ui, tmp_path, f"seat_call_800x480_{language}")
    leave_it(ui, CALL_S)
    settle(ui, until=lambda: session.running.current == 1 and not session.busy)
    assert session.kinds == ("easy", HUMAN)
    assert [c for c in ui.k.seen if isinstance(c, ChangeSeat)] == [ChangeSeat(0, "easy", "away")]
    assert session.running.turns == 1  # the computer played Red's turn; Green is to act
    assert ui.seats.note is not None and ui.seats.note[0] == 0
    texts = [getattr(s, "text", "") for s in ui.seats._shapes]
    assert ui.t("seat.computer_plays", player=ui.t("colour.red")) in texts
    assert set(ui.seats.joins) == {0}  # Join at the computer's corner, none at Green's
    shot(ui, tmp_path, f"seat_taken_over_800x480_{language}")
    # a newcomer at Red's corner taps Join during Green's turn, and says yes: Red is a person's again
    ui.tap(*ui.seats.joins[0].center)
    settle(ui)
    assert ui.seats.asking == 0 and session.kinds == ("easy", HUMAN)
    ui.tap(*ui.seats.yes_rect.center)
    settle(ui)
    assert session.kinds == (HUMAN, HUMAN) and not ui.seats.joins
    shot(ui, tmp_path, f"seat_joined_800x480_{language}")
    assert ui.k.store is not None
    saved = ui.k.store.resume()
    assert saved is not None and saved.meta["seat_changes"] == [[1, 0, "easy"], [3, 0, HUMAN]]


def test_the_last_person_at_the_table_gets_the_idle_question_not_the_call(table):
    ui = table
    session = ui.k.sessions["labyrinth"]
    ui.k.bus.post(ChangeSeat(0, "easy", "away"))  # Red left earlier: Green is the last person
    settle(ui, until=lambda: session.running.current == 1 and not session.busy)
    leave_it(ui, SEAT_S + CALL_S + 1)
    assert ui.seats.calling is None and not ui.idle.showing
    leave_it(ui, IDLE_S - SEAT_S - CALL_S)
    assert ui.idle.showing and ui.seats.calling is None


def a_newcomer_joins_at_reds_corner(ui) -> None:
    """Red's seat is the computer's (Red went away); during Green's turn a newcomer joins there, saying yes."""
    session = ui.k.sessions["labyrinth"]
    ui.k.bus.post(ChangeSeat(0, "medium", "away"))
    settle(ui, until=lambda: session.running.current == 1 and not session.busy)
    ui.tap(*ui.seats.joins[0].center)
    settle(ui)
    ui.tap(*ui.seats.yes_rect.center)
    settle(ui)


def green_plays_a_turn(ui) -> None:
    """Green (player 1), a person, pushes at the first arrow allowed and stays."""
    session = ui.k.sessions["labyrinth"]
    arrow = next(a for a in ARROWS if a != session.running.forbidden)
    ui.k.bus.post(PushArrow(arrow))
    settle(ui, until=lambda: session.running.phase == "move" and not session.busy)
    ui.k.bus.post(Stay())
    settle(ui, until=lambda: session.running.current == 0 and not session.busy)


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_a_tap_on_join_asks_the_tapper_first_and_no_keeps_the_computer(table, tmp_path, language):
    ui = table
    ui.set_language(language)
    session = ui.k.sessions["labyrinth"]
    ui.k.bus.post(ChangeSeat(0, "medium", "away"))
    settle(ui, until=lambda: session.running.current == 1 and not session.busy)
    ui.tap(*ui.seats.joins[0].center)
    settle(ui)
    # the question, turned to the one who tapped at Red's corner (the far edge of the table)
    assert ui.seats.asking == 0 and ui.seats._facing(session, 0) == 180
    texts = [getattr(s, "text", "") for s in ui.seats._shapes]
    assert ui.t("seat.join_ask", player=ui.t("colour.red")) in texts
    assert {ui.t("seat.join_yes"), ui.t("seat.join_no")} <= set(texts)
    assert ui.seats.yes_rect is not None and ui.seats.no_rect is not None
    assert not ui.seats.yes_rect.contains(*ui.seats.no_rect.center)
    shot(ui, tmp_path, f"seat_join_asked_800x480_{language}")
    ui.tap(*ui.seats.no_rect.center)
    settle(ui)
    assert ui.seats.asking is None and session.kinds == ("medium", HUMAN)
    # a tap anywhere else says no as well; nothing changed hands
    ui.tap(*ui.seats.joins[0].center)
    settle(ui)
    ui.tap(4, 4)
    settle(ui)
    assert ui.seats.asking is None and session.kinds == ("medium", HUMAN)
    assert not [c for c in ui.k.seen if isinstance(c, ChangeSeat) and c.kind == HUMAN]


def test_one_who_joined_and_does_not_play_hands_the_seat_back_within_a_turn(table):
    ui = table
    session = ui.k.sessions["labyrinth"]
    a_newcomer_joins_at_reds_corner(ui)
    assert session.kinds == (HUMAN, HUMAN)
    green_plays_a_turn(ui)
    # Red's turn, and nobody at Red's corner: called after JOINED_CALL_S, not SEAT_S
    leave_it(ui, JOINED_CALL_S + 1)
    assert ui.seats.calling == 0
    leave_it(ui, CALL_S)
    settle(ui, until=lambda: session.kinds[0] != HUMAN)
    assert session.kinds == ("medium", HUMAN)  # back to the level it had before the Join
    assert JOINED_CALL_S + CALL_S < SEAT_S + CALL_S


def test_one_who_joined_and_plays_is_called_as_anyone_else(table):
    ui = table
    a_newcomer_joins_at_reds_corner(ui)
    green_plays_a_turn(ui)
    ui.k.bus.post(RotateSpare())  # Red's newcomer touches the game: they play
    settle(ui)
    assert 0 not in ui.seats.joined
    leave_it(ui, JOINED_CALL_S + 1)
    assert ui.seats.calling is None
    leave_it(ui, SEAT_S - JOINED_CALL_S)
    assert ui.seats.calling == 0
