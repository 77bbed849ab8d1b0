"""Continue: a game left alone is set aside, offered on the attract screen for a while, then archived.

Through the real kiosk (kiosk.core.kiosk.Kiosk with a state directory, a virtual clock) and the real
UI offscreen: nobody touches a game for ``idle_timeout_s``, the countdown runs out, the attract
screen asks "Continue the game of Red and Green?" facing each long side; a tap on Continue
brings back the very position (and its save stayed in place meanwhile, so a power cut would
have resumed it too); without the tap, ``continue_s`` later it is archived as abandoned.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from kiosk.core.clock import VirtualClock
from kiosk.core.config import Config
from kiosk.core.events import ContinueGame, GameAbandoned, GameSetup, SuspendGame

from tests.support.mini_ui import Now, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


@pytest.fixture
def table(window, tmp_path):
    """A kiosk running a board game of two people (Red and Green), with its UI."""
    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.ui.shell.window import UI

    base = Config()
    config = replace(base, kiosk=replace(base.kiosk, idle_timeout_s=30, idle_countdown_s=10, continue_s=60))
    clock = VirtualClock()
    kiosk = Kiosk(
        config,
        KioskOptions(
            fast=True,
            mock_pins=True,
            ring="virtual",
            state_dir=tmp_path,
            setup=GameSetup.of("human,human", seed=4),
            start_game=True,
        ),
        clock=clock,
    )
    kiosk.seen = []
    kiosk.bus.subscribe_all(kiosk.seen.append)
    kiosk.start()
    now = Now()
    ui = UI(kiosk, window, layout="tabletop", language="en", clock=now)
    ui.now_at, ui.k, ui.vclock = now, kiosk, clock
    settle(ui)
    yield ui
    ui.close()
    kiosk.stop("test over")


def settle(ui, n=8):
    for _ in range(n):
        ui.step(0.02)


def leave_it_alone(ui):
    """Nobody touches the game: the countdown appears, then runs out."""
    ui.now_at.t += 31
    settle(ui, 2)
    assert ui.idle.showing
    ui.now_at.t += 10.5
    settle(ui)


def shot(ui, tmp_path, name):
    ui.draw()
    ui.screenshot(tmp_path / f"{name}.png")
    if os.environ.get("KIOSK_SHOTS"):
        ui.screenshot(Path(os.environ["KIOSK_SHOTS"]) / f"{name}.png")


def test_a_game_left_alone_is_offered_and_continues_where_it_stood(table, tmp_path):
    ui = table
    session = ui.k.sessions["labyrinth"]
    assert ui.screen.name == "play"
    before, game_id = session.game.to_dict(), session.game_id
    leave_it_alone(ui)
    assert ui.screen.name == "attract"
    assert [e.reason for e in ui.k.seen if isinstance(e, SuspendGame)] == ["idle"]
    assert session.game is None and session.set_aside is not None
    assert (tmp_path / "current-game.json").exists()  # kept in place: a power cut would resume it
    question = ui.t("attract.continue", players="Red and Green")  # the two-player seats 0 and 2
    texts = [getattr(s, "text", "") for s in ui.screen._shapes]
    assert texts.count(question) == 2, (ui.screen.offer_text(), [t for t in texts if t][6:])  # each long side
    buttons = ui.screen.continue_buttons
    assert sorted(b.frame.angle for b in buttons) == [0, 180]
    shot(ui, tmp_path, "continue_offer_800x480_tabletop")
    ui.tap(*buttons[1].rect.center)  # from the far side
    settle(ui)
    assert ui.screen.name == "play"
    assert session.game is not None and session.game_id == game_id
    assert session.game.to_dict() == before  # the very position it was left in
    assert session.set_aside is None


def test_a_game_not_continued_is_archived_when_the_offer_ends(table, tmp_path):
    ui = table
    session = ui.k.sessions["labyrinth"]
    leave_it_alone(ui)
    assert ui.screen.continue_buttons
    ui.vclock.advance(59)
    settle(ui)
    assert session.set_aside is not None and ui.screen.continue_buttons  # still offered
    ui.vclock.advance(2)
    settle(ui)
    assert session.set_aside is None and not ui.screen.continue_buttons
    assert not (tmp_path / "current-game.json").exists()
    assert list((tmp_path / "archive").iterdir()), "archived as abandoned"
    ui.k.bus.post(ContinueGame("labyrinth"))  # too late: refused, nothing starts
    settle(ui)
    assert session.game is None and ui.screen.name == "attract"


def test_a_new_game_meanwhile_archives_the_one_set_aside(table, tmp_path):
    ui = table
    session = ui.k.sessions["labyrinth"]
    leave_it_alone(ui)
    old = session.set_aside.game_id
    ui.tap(ui.layout.width / 2, 30)  # not on the offer: a new visitor opens the setup
    settle(ui)
    assert ui.screen.name == "setup"
    ui.screen.start()
    settle(ui)
    assert session.set_aside is None and session.game_id != old
    assert len(list((tmp_path / "archive").iterdir())) == 1
    assert [e for e in ui.k.seen if isinstance(e, GameAbandoned)]
