"""What the card game's screens say about each seat, offscreen at 800x480 tabletop (in de and et where
it is about words): a computer's strength in the same stars on the setup, the table and the result (a
star never marks a winner there: a crown does); six players' chips that say whose they are and what
their number means; the cards the others laid, rimmed in their colours; cards cut off by the room's rim
pointed to; a table that holds still while the card laid is in view.
"""

from __future__ import annotations

import pyglet
import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.cards.events import CardGameOver

from tests.games.cards.test_screens import close_ui, open_ui

pytestmark = pytest.mark.display

STAR = "\u2605"
KINDS = ("human", "random", "easy", "hard")


def _texts(items) -> list[str]:
    return [getattr(x, "text", "") for x in items]


def lay(ui, place) -> None:
    """The current person lays `place` (the hand-over first, taking nothing after), and the computers
    play."""
    from kiosk.games.cards.events import ConfirmTake, HandOver, LayCard, RotateHandCard, SelectHandCard

    s = ui.k.sessions["cards"]
    if s.handover:
        ui.post(HandOver())
    ui.post(SelectHandCard(s.game.hand.index(place.card)))
    for _ in range(place.rotation):
        ui.post(RotateHandCard())
    ui.post(LayCard(place.cell))
    if s.game.phase == "take":
        ui.post(ConfirmTake())
    ui.off.settle()


@pytest.mark.parametrize("language", ["de", "et"])
def test_a_computers_strength_shows_the_same_stars_on_the_setup_the_table_and_the_result(tmp_path, language):
    ui = open_ui((800, 480), "tabletop", tmp_path)
    try:
        ui.set_language(language)
        setup = ui.goto("setup")
        setup.game = "cards"
        setup.choices.players = 4
        setup.choices.kinds[:4] = list(KINDS)
        setup._build()
        levels = [w.text for w in setup.widgets if getattr(w, "text", "") and set(w.text) == {STAR}]
        assert levels[:3] == [STAR, STAR * 2, STAR * 3]  # a seat's strengths: one to three stars, weakest first
        ui.post(NewGame(GameSetup.of(",".join(KINDS), seed=4, game="cards")))
        ui.off.settle()
        screen = ui.screen
        assert screen.name == "cards_play"
        chips = {i: _texts(screen.parts.items_of(("chip", i))) for i in range(4)}
        marks = {i: [t for t in chips[i] if t and set(t) <= {STAR}] for i in range(4)}
        assert marks == {0: [], 1: [STAR], 2: [STAR * 2], 3: [STAR * 3]}  # as on the setup's buttons
        assert not any("\u2684" in t for ts in chips.values() for t in ts)  # no die any more
        ev = CardGameOver((0,), (9, 4, 2, 0), 40, KINDS)
        over = ui.goto("cards_gameover", event=ev)
        ui.off.settle()
        said = " ".join(_texts(over._shapes))
        assert said.count(STAR) == 1 + 2 + 3  # the computers' strengths, and no star for the winner
        crowns = [
            s for s in over._shapes if isinstance(s, pyglet.sprite.Sprite) and s.image is ui.atlas.treasure("crown")
        ]
        assert len(crowns) == 1  # the winner is crowned
    finally:
        close_ui(ui)


@pytest.mark.parametrize("language", ["de", "et"])
def test_six_players_chips_say_whose_they_are_and_what_their_number_means(tmp_path, language):
    """Six at 800x480: each chip names its player and says its number in words ("0 genommen"), no bare
    number, every text at the body size at least and turned to the chip's own edge."""
    from kiosk.ui.kit import typeface

    ui = open_ui((800, 480), "tabletop", tmp_path)
    try:
        ui.set_language(language)
        ui.post(NewGame(GameSetup.of("human,easy,random,human,hard,easy", seed=4, game="cards")))
        ui.off.settle()
        screen = ui.screen
        assert screen.name == "cards_play"
        body = screen.layout.font(typeface.BODY)
        for i in range(6):
            items = [x for x in screen.parts.items_of(("chip", i)) if getattr(x, "text", "")]
            said = _texts(items)
            assert screen.player_name(i) in said
            assert ui.t("cards.chip_taken", n=0) in said
            assert not [t for t in said if t.strip().isdigit()]  # no bare number
            assert all(x.font_size >= body - 0.01 for x in items)
            assert {int(x.rotation) % 360 for x in items} == {screen.facing(i) % 360}
    finally:
        close_ui(ui)


@pytest.mark.parametrize("language", ["de", "et"])
def test_the_cards_the_others_laid_are_rimmed_in_their_colours_and_cut_off_cards_pointed_to(tmp_path, language):
    """A person against two computers, three rounds: at the person's turn the card each computer laid
    since is rimmed in its colour; every side of the room past which a laid card lies out of view
    (cut off by the rim) has a pointer."""
    from kiosk.games.cards.screens.seats import player_rgb

    ui = open_ui((800, 480), "tabletop", tmp_path)
    try:
        ui.set_language(language)
        ui.post(NewGame(GameSetup.of("human,easy,easy", seed=7, game="cards", first=0)))
        ui.off.settle()
        g, table = ui.k.sessions["cards"].game, ui.screen.table
        for _ in range(3):
            assert g.current == 0
            lay(ui, g.legal_placements()[0])
        assert g.current == 0 and g.phase == "place"
        others = table.laid_by_others()
        assert sorted(p for _cell, p in others) == [1, 2] and all(cell in g.layout for cell, _p in others)
        rims = {(cell, tuple(shape.color[:3])) for shape, cell, kind in table.marks if kind == "box"}
        for cell, p in others:
            assert (cell, player_rgb(p)) in rims
        room, view = table.room, table.view
        (cx, cy, _c), half_w, half_h = view.target, room.w / view.target[2] / 2, room.h / view.target[2] / 2
        beyond = set()  # the sides of the room past which a laid card lies out of view
        for x, y in (cell for cell in g.layout if not view.seen(room, cell)):
            dx, dy = x - cx, y - cy
            beyond.add(("E" if dx > 0 else "W") if abs(dx) - half_w >= abs(dy) - half_h else ("S" if dy > 0 else "N"))
        assert beyond and beyond <= set(table.pointers)
        assert beyond <= set(table._pointer_sides({}, None, True))  # cards alone, no place beyond: pointed to too
    finally:
        close_ui(ui)


def test_the_table_holds_still_while_the_card_laid_is_in_view(tmp_path):
    """Four people ten turns in (a layout larger than the room: the view pans): a card laid where the
    table shows it leaves the view where it is for the next player; one laid out of view brings it there."""
    from kiosk.games.cards.events import HandOver

    ui = open_ui((800, 480), "tabletop", tmp_path)
    try:
        ui.post(NewGame(GameSetup.of("human,human,human,human", seed=3, game="cards")))
        ui.off.settle()
        s, table = ui.k.sessions["cards"], ui.screen.table
        g = s.game
        for _ in range(10):
            lay(ui, g.legal_placements()[0])
        if s.handover:
            ui.post(HandOver())
            ui.off.settle()
        room, view = table.room, table.view
        assert not all(view.seen(room, c) for c in g.layout)  # larger than the room
        before = view.target
        xs, ys = [c[0] for c in g.layout], [c[1] for c in g.layout]

        def quiet(p):  # in view, inside the layout's bounds (it does not grow), taking nothing
            x, y = p.cell
            inside = min(xs) <= x <= max(xs) and min(ys) <= y <= max(ys)
            return view.seen(room, p.cell) and inside and not any(g.preview(p).values())

        shown = sorted(
            (p for p in g.legal_placements() if quiet(p)),
            key=lambda p: -abs(p.cell[0] - before[0]) - abs(p.cell[1] - before[1]),  # the farthest from the middle
        )
        assert shown
        lay(ui, shown[0])
        assert g.phase == "place" and table.last_cell == shown[0].cell
        assert view.target == before  # held still
        hidden = [p for p in g.legal_placements() if not view.seen(room, p.cell)]
        assert hidden
        lay(ui, hidden[0])
        assert view.seen(room, hidden[0].cell)  # followed the play out of view
    finally:
        close_ui(ui)
