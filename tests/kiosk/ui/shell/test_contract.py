"""The UI's contract with the kiosk (kiosk/ui/shell/contract.py): the kiosk and the shared test kiosk
both answer it, at run time as mypy checks statically (kiosk/core/testing.py)."""

from __future__ import annotations

from types import SimpleNamespace

from kiosk.core.kiosk import Kiosk, KioskOptions
from kiosk.core.events import GameSetup, NewGame
from kiosk.core.testing import MiniKiosk
from kiosk.ui.shell.contract import KioskView


def test_the_kiosk_and_the_test_kiosk_answer_the_contract(tmp_path):
    mini = MiniKiosk()
    kiosk = Kiosk(options=KioskOptions(fast=True, mock_pins=True, ring="virtual", state_dir=tmp_path))
    try:
        assert isinstance(mini, KioskView) and isinstance(kiosk, KioskView)
        # what the UI reads of a kiosk nobody started: no history, no game to open on, running
        assert mini.history is None and mini.options is None and not mini.stopping and mini.exit_status == 0
        assert kiosk.history is not None and kiosk.options.setup is None and not kiosk.stopping
        # a stand-in with only some of the members is not a kiosk to the UI
        assert not isinstance(SimpleNamespace(bus=mini.bus, clock=mini.clock, sessions=mini.sessions), KioskView)
    finally:
        mini.close()
        kiosk.close()


def test_the_test_kiosk_is_settled_only_once_its_messages_are_handled():
    mini = MiniKiosk()
    try:
        assert mini.settled()
        mini.bus.post(NewGame(GameSetup.of("human,medium", seed=2, first=0)))
        assert not mini.settled()  # the new game waits on the bus
        for _ in range(10_000):
            mini.tick()
            if mini.settled():
                break
        assert mini.settled()  # the person's turn: nothing happens until they act
        assert mini.game_session.awaiting_human
    finally:
        mini.close()
