"""A fourth game, registered by the test, gets every registry-wide check with no test written for it.

The game (tests/support/sticks.py, Nim's sticks) is declared whole in its own
module, as a separately installed game would be. This module only registers
it: the checks of tests/games/test_conformance.py -- the engine's contract, a
headless game with a person, power cuts in process and by SIGKILL with an exact
resume, an undo, seat changes, a log without errors -- run over it because it
is registered.
"""

from __future__ import annotations

import pytest

from tests.games import test_conformance
from tests.support.registry_play import registered
from tests.support.sticks import GAME


@pytest.fixture
def game():
    with registered(GAME) as kind:
        yield kind


# Every registry-wide check, over this game: nothing below is written for it.
globals().update({name: check for name, check in vars(test_conformance).items() if name.startswith("test_")})
