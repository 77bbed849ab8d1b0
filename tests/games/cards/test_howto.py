"""The card game's how-to offscreen: its example is a legal position, it renders, taps advance, setup opens it.

Rendered at 800x480, 1280x800 and 720x1280 in both layouts; pixels checked
where the cards and the step dots must be. The example position (a layout, a
hand card laid turned at a cell, the card it joins) is replayed through the
real engine so the picture never teaches a wrong rule.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from engine.cards import CardGame, Place
from engine.cards.deck import CARDS

from tests.kiosk.ui.screens.test_screens import _button, colours_in, pixels, rgb_at, save_png, tap_widget
from tests.kiosk.ui.screens.test_screens import ui  # noqa: F401  (the fixture: UIs made in a test are closed after it)

pytestmark = pytest.mark.display

SIZES = ((800, 480), (1280, 800), (720, 1280))


def test_the_example_is_a_legal_join_and_take():
    from kiosk.games.cards.screens.howto import HAND, LAY_CELL, LAY_ROT, LAYOUT, TAKEN_CELL, TREASURE

    game = CardGame.new(players=2, seed=1)
    d = game.to_dict()
    used = {card for card, _ in LAYOUT.values()} | set(HAND)
    other = [c for c in range(len(CARDS)) if c not in used]
    d["layout"] = [[x, y, card, rot] for (x, y), (card, rot) in LAYOUT.items()]
    d["hands"] = [list(HAND), other[:2]]
    d["draw_pile"] = other[2:]
    game = CardGame.from_dict(d)
    joins = {name: cards for name, cards in game.preview(Place(HAND[0], LAY_ROT, LAY_CELL)).items() if cards}
    assert joins == {TREASURE: frozenset({LAYOUT[TAKEN_CELL][0]})}
    game.apply(Place(HAND[0], LAY_ROT, LAY_CELL))
    assert game.phase == "take"
    assert game.take_problem({LAYOUT[TAKEN_CELL][0]}) is None


def _dots_lit(u, px):
    """How many step dots show the accent colour (done or current)."""
    lit = 0
    for dot in u.screen._dots:
        r, g, b = rgb_at(px, dot.x, dot.y)
        lit += r > 220 and g > 160 and b < 120  # the accent, not the grey of steps to come
    return lit


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_card_howto_renders_every_step(ui, size, tmp_path):
    from kiosk.games.cards.screens.howto import STEPS
    from kiosk.games.cards.art import PATH

    out = Path(os.environ.get("KIOSK_SHOTS", tmp_path))
    for layout in ("tabletop", "upright"):
        u = ui(size=size, layout=layout, first="setup")
        u.goto("cards_howto", then="setup")
        scr = u.screen
        assert scr.name == "cards_howto"
        for step in range(len(STEPS)):
            assert scr.step == step
            for _ in range(3):
                u.step(0.8)  # into the step's animation
            assert scr.step == step, "a step ended before its time"
            px = pixels(u)
            save_png(out / f"cards_howto_{step}_{size[0]}x{size[1]}_{layout}.png", px)
            # cards on the stage: their light paths are there
            st = scr.stage_rect
            sc = u.layout.scale
            cols = colours_in(px, (st.x * sc, st.y * sc, st.w * sc, st.h * sc), step=max(3, int(st.w * sc // 150)))
            assert any(all(abs(a - b) < 20 for a, b in zip(c, PATH)) for c in cols), (
                f"no card paths on the stage at step {step} {size} {layout}"
            )
            assert _dots_lit(u, px) == step + 1, f"the step dots do not show step {step}"
            # every card sprite lies inside the window
            for sprite in scr._scene["cards"].values():
                assert 0 <= sprite.x <= px[0] and 0 <= sprite.y <= px[1]
            if step < len(STEPS) - 1:
                u.tap(u.layout.width / 2, u.layout.height / 2)
                u.step(0.02)
        assert scr.step == len(STEPS) - 1


def test_card_howto_advances_by_itself_and_the_last_step_ends(ui):
    from kiosk.games.cards.screens.howto import STEPS
    from kiosk.ui.screens.guide import STEP_S

    u = ui(size=(800, 480), first="setup")
    u.screen.set_game("cards")
    u.goto("cards_howto", then="setup")
    scr = u.screen
    u.step(STEP_S + 0.05)
    assert scr.step == 1
    tap_widget(u, _button(u, "Next"))
    assert scr.step == 2
    u.tap(u.layout.width / 2, u.layout.height / 2)
    u.step(0.02)
    assert scr.step == len(STEPS) - 1
    tap_widget(u, _button(u, "Let's play"))
    # opened from the setup, "Let's play!" starts the card game with the players set there
    assert u.screen.name == "cards_play"
    assert u.k.sessions["cards"].game is not None and u.screen_named("setup").game == "cards"
    # left alone, the last step replays, then the guide goes back where it came from
    u.goto("setup")
    u.screen.set_game("cards")
    u.goto("cards_howto", then="setup")
    for _ in range(len(STEPS) - 1):
        u.screen.next()
    for _ in range(int(STEP_S * 3 / 0.5) + 2):
        u.step(0.5)
        if u.screen.name != "cards_howto":
            break
    assert u.screen.name == "setup"


def test_setup_how_to_opens_the_guide_of_the_chosen_game(ui):
    u = ui(size=(1280, 800), first="setup")
    tap_widget(u, _button(u, "How to play"))
    assert u.screen.name == "howto"
    tap_widget(u, _button(u, "Back"))
    assert u.screen.name == "setup"
    u.screen.set_game("cards")
    u.step(0.02)
    tap_widget(u, _button(u, "How to play"))
    assert u.screen.name == "cards_howto" and u.screen.step == 0
    tap_widget(u, _button(u, "Back"))
    assert u.screen.name == "setup" and u.screen.game == "cards"
