"""The furniture of docs/art.md: the board's frame with its arrows, the table, the podium.

Rendered offscreen with the screens tests' UI; pixels are read back from the frame (a 16-bit
framebuffer shows colours a few steps off, hence the tolerances).
"""

from __future__ import annotations

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import GameOver

from tests.games.labyrinth.test_art_motion import near, start_game
from tests.kiosk.ui.screens.test_screens import _button, pixels, rgb_at, tap_widget
from tests.kiosk.ui.screens.test_screens import ui  # noqa: F401  (the fixture: UIs made in a test are closed after it)
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_the_board_lies_in_an_oak_frame_with_big_arrows_in_it(ui, size):
    """The ring around the board is the frame's oak (not the table), and each arrow a person may press
    fills most of its hole: gold near the ends of its base, 0.33 of a slot from its middle (an arrow
    0.6 of a slot across, as before, left the frame showing there)."""
    from kiosk.ui.kit.table import FRAME, RECESS

    u = ui(size=size, layout="tabletop", first="attract")
    start_game(u)
    u.render(force=True)
    px = pixels(u)
    L, c = u.layout, u.layout.cell
    for row, col in ((-1, 2), (2, -1), (7, 4), (4, 7)):  # frame between two arrows, one on each side
        x, y = geometry.cell_center(L, row, col)
        spots = [rgb_at(px, x + dx * c, y + dy * c) for dx in (-0.04, 0.0, 0.04) for dy in (-0.1, 0.0, 0.1)]
        oak = [p for p in spots if near(p, FRAME, 12)]
        assert len(oak) >= 6, (size, row, col, spots)  # a thin grain line may cross a few
    from kiosk.games.labyrinth.screens.board import ARROW_ON

    for name in ("N1", "N5"):  # pointing down: the base at the top
        r = geometry.arrow_rect(L, name)
        for dx in (-0.33, 0.33):
            p = rgb_at(px, r.cx + dx * c, r.cy + 0.18 * c)
            assert near(p, ARROW_ON, 12), (size, name, dx, p)
        # beside the arrow, inside the hole: the recess
        p = rgb_at(px, r.cx + 0.4 * c, r.cy - 0.25 * c)
        assert near(p, RECESS, 12), (size, name, p)


def test_high_contrast_frame_is_black_with_white_rims(ui):
    """High contrast keeps the frame plain: black wood, white-rimmed holes, no oak."""
    u = ui(size=(800, 480), layout="tabletop", first="attract")
    u.set_high_contrast(True)
    start_game(u)
    u.render(force=True)
    px = pixels(u)
    L, c = u.layout, u.layout.cell
    x, y = geometry.cell_center(L, -1, 2)
    assert max(rgb_at(px, x, y)) < 20
    r = geometry.arrow_rect(L, "N1")
    rim = rgb_at(px, r.x + c * 0.09, r.cy)  # the hole's white rim, at its left
    assert min(rim) > 235, rim


def test_the_table_is_made_once_per_size_and_kept_when_a_screen_is_drawn_again(ui):
    """The table's lines are in a batch of the screen's own that no rebuild replaces: setup draws
    itself again in a new batch after a choice (menu.clear_drawing) and the table stays; a new size
    makes it again."""
    u = ui(size=(800, 480), layout="tabletop", first="setup")
    scr = u.screen
    u.render(force=True)
    first = list(scr._table)
    assert first and all(line.batch is scr.table_batch for line in first)
    tap_widget(u, _button(u, "3"))  # three players: the setup is drawn again
    u.render(force=True)
    assert scr._table == first and all(line.batch is scr.table_batch for line in first)
    from kiosk.ui.kit.layout import Layout

    assert scr.lay_table(Layout(1280, 800, "tabletop")) and scr._table != first
    assert not scr.lay_table(Layout(1280, 800, "tabletop"))


def test_game_over_podium_puts_the_winner_highest_and_shows_what_each_found(ui):
    """Four players: the winner's pawn stands highest (though Blue found more), then by treasures
    found; every player's finds are shown."""
    u = ui(size=(800, 480), layout="tabletop", first="attract")
    found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))
    ev = GameOver(winners=(0,), turns=31, found=found, kinds=("human",) * 4)
    u.goto("gameover", event=ev)
    scr = u.screen
    assert scr.places(ev) == [0, 2, 3, 1]
    atlas = u.atlas
    pawns = {}
    shown: list[str] = []
    for seat in range(4):
        region = atlas.pawn(seat)
        pawns[seat] = [s for s in scr._shapes if getattr(s, "image", None) is region]
    for name in {t for f in found for t in f}:
        region = atlas.treasure(name)
        shown += [name for s in scr._shapes if getattr(s, "image", None) is region]
    seats = [seat for seat, _ in scr.players]
    # the podium's pawn is the biggest picture of each player's pawn (the headline's winner is smaller)
    tops = {i: max(pawns[seats[i]], key=lambda s: s.scale).y for i in range(4)}
    assert tops[0] > tops[3] > tops[1] > tops[2], tops
    assert sorted(shown) == sorted([*(t for f in found for t in f), "crown", "crown"])  # the headlines' crowns too
    u.render(force=True)


def test_card_game_cards_cast_a_shadow_on_the_table(ui):
    """A card laid on the table has a dark shadow below and to the right of it."""
    u = ui(size=(800, 480), layout="tabletop", first="attract")
    u.post(NewGame(GameSetup.of("human,human", seed=3, game="cards")))
    for _ in range(20):
        u.step(0.1)
    scr = u.screen
    assert scr.name == "cards_play"
    shadows = [(shape, cell, kind) for shape, cell, kind in scr.table.marks if kind in ("shadow_r", "shadow_b")]
    assert len(shadows) == 2 * len(scr.table.sprites) >= 2  # a strip right of each card and one below it
    for shape, cell, kind in shadows:
        sprite = scr.table.sprites[cell]
        half = sprite.width / 2
        if kind == "shadow_r":  # beside the card, not under it (no layer drawn under it all)
            assert shape.x >= sprite.x + half - 1 and shape.y < sprite.y - half
        else:
            assert shape.y + shape.height <= sprite.y - half + 1 and shape.x + shape.width > sprite.x + half - 1
