"""Seats follow where people sit: taps from each edge, the panel facing its person, the two-tap move."""

from __future__ import annotations

import pytest

from kiosk.core.config import Config
from kiosk.core.events import NewGame
from kiosk.games.labyrinth.events import TapCell
from kiosk.ui.kit import seating
from kiosk.ui.kit.layout import Layout

from tests.kiosk.ui.screens.test_screens import _close_windows, make_ui, tap_widget  # noqa: F401  (the shared windows)
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display

# a touch near each corner of an 800x480 screen (pyglet coordinates, y up) and the seat there
CORNERS = {0: (40, 440), 1: (760, 440), 2: (760, 40), 3: (40, 40)}


def test_seat_edge_and_facing_follow_the_corner():
    table, upright = Layout(800, 480, "tabletop"), Layout(800, 480, "upright")
    for seat, (x, y) in CORNERS.items():
        assert seating.corner_seat(table, x, y) == seat
        assert seating.seat_edge(table, seat) == ("N" if seat in (0, 1) else "S")
        assert table.facing(seat) == (180 if seat in (0, 1) else 0)
        assert upright.facing(seat) == 0
    assert seating.edge_at(table, 400, 400) == "N" and seating.edge_at(table, 400, 80) == "S"
    assert seating.edge_at(upright, 400, 400) == "S"


def test_people_get_the_near_edge_unless_they_joined_elsewhere():
    assert seating.seats_for(1) == (3,)  # solo: the near edge
    assert seating.seats_for(2) == (3, 1)  # against the computer: person near, computer far
    assert seating.seats_for(2, [0]) == (0, 2)
    assert seating.seats_for(3, [1, 0]) == (1, 0, 3)
    assert sorted(seating.seats_for(4, [2])) == [0, 1, 2, 3]
    with pytest.raises(ValueError):
        seating.seats_for(5)


def _ui(**kw):
    ui = make_ui(**kw)
    return ui


def _corner(size, seat):
    """A touch 40 px in from a corner of a `size` screen (pyglet coordinates, y up)."""
    w, h = size
    return {0: (40, h - 40), 1: (w - 40, h - 40), 2: (w - 40, 40), 3: (40, 40)}[seat]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=("landscape", "portrait"))
@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_a_person_joining_at_a_corner_gets_that_seat_facing_their_edge(seat, size):
    ui = _ui(size=size, layout="tabletop", first="attract")
    try:
        x, y = _corner(size, seat)
        # touch to play, from this corner (in portrait a little in from it: the how-to button is there)
        ui.tap(x, y if size[0] > size[1] else (200 if seat in (2, 3) else size[1] - 200))
        ui.step(0.02)
        setup = ui.screen
        assert setup.name == "setup"
        assert setup.choices.joined == [seat]
        assert setup.edge == ("N" if seat in (0, 1) else "S")  # the setup faces the opener
        joins = [
            w
            for w in setup.widgets
            if getattr(w, "frame", None) is not None and w.frame.w < 200 and w.rect.contains(x, y)
        ]
        assert joins and joins[0].frame.angle == ui.layout.facing(seat)  # its join control faces outward
        tap_widget(ui, setup.start_button)
        new = ui.k.of(NewGame)[-1].setup
        assert new.seats[0].seat == seat and new.seats[0].kind == "human"
        assert ui.screen.name == "play"
        ui.step(0.02)
        panel = ui.screen.panels[0]
        assert panel.frame.angle == (180 if seat in (0, 1) else 0)  # the panel faces that edge
        assert panel.frame.rect.contains(*ui.layout.panel(seat, seat).center)
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=("landscape", "portrait"))
def test_join_controls_at_every_corner_add_people_in_their_seats(size):
    ui = _ui(size=size, layout="tabletop", first="setup")
    try:
        scr = ui.screen
        scr.panel.set_players(3)  # how many play: the players row, the one way to add a seat
        for seat in (1, 2, 0):
            x, y = _corner(size, seat)
            ui.tap(x, y)
            ui.step(0.02)
        assert scr.choices.joined == [1, 2, 0]
        assert scr.choices.players == 3 and scr.choices.kinds[:3] == ["human"] * 3
        assert scr.choices.seats() == (1, 2, 0)
        ui.tap(*_corner(size, 2))  # tapping again: that person leaves
        ui.step(0.02)
        assert scr.choices.joined == [1, 0]
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


def test_a_newcomer_at_a_free_corner_of_a_full_table_joins_as_one_more_player():
    """A visitor review found a third person could not join a table set for two people: the free
    corners offered nothing, and the player count was upside down for them. A free corner's Join
    now adds the seat, up to four."""
    size = (800, 480)
    ui = _ui(size=size, layout="tabletop", first="setup")
    try:
        scr = ui.screen
        scr.panel.set_players(2)
        for seat in (1, 3):
            ui.tap(*_corner(size, seat))
            ui.step(0.02)
        assert scr.choices.joined == [1, 3] and scr.choices.players == 2

        def joins() -> list[str]:
            return [w.text for w in scr.widgets if getattr(w, "text", "") == ui.t("setup.join")]

        assert len(joins()) == 2  # corners 0 and 2 still offer a place
        ui.tap(*_corner(size, 0))
        ui.step(0.02)
        assert scr.choices.joined == [1, 3, 0] and scr.choices.players == 3
        assert scr.choices.kinds[:3] == ["human"] * 3 and scr.choices.seats() == (1, 3, 0)
        ui.tap(*_corner(size, 2))
        ui.step(0.02)
        assert scr.choices.joined == [1, 3, 0, 2] and scr.choices.players == 4 and joins() == []
        ui.tap(*_corner(size, 0))  # one leaves: the count stays, their seat is free again
        ui.step(0.02)
        assert scr.choices.joined == [1, 3, 2] and scr.choices.players == 4 and len(joins()) == 1
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


def test_a_joined_seat_is_marked_by_a_label_not_a_second_button_beside_start():
    """After joining, the corner shows the seat's pawn and colour flat on the screen (no filled
    button, no tick that reads as "confirm" next to Start); a tap there still leaves the seat."""
    from tests.kiosk.ui.screens.test_screens import pixels, rgb_at

    ui = _ui(size=(800, 480), layout="tabletop", first="setup")
    try:
        scr = ui.screen
        ui.tap(*_corner((800, 480), 2))
        ui.step(0.02)
        assert scr.choices.joined == [2]
        mark = next(
            w
            for w in scr.widgets
            if getattr(w, "frame", None) is not None and w.frame.w < 200 and w.rect.contains(*_corner((800, 480), 2))
        )
        assert "\u2713" not in mark.text and mark.text == "Green"
        ui.render(force=True)
        px = pixels(ui)
        r = mark.rect
        # along its top and bottom edges and its right end, where a button shows its fill
        edge = [(r.x + r.w * f, r.y + 3) for f in (0.3, 0.6, 0.9)] + [
            (r.x + r.w * f, r.top - 3) for f in (0.3, 0.6, 0.9)
        ]

        def plain(c):
            # the table behind it (its planks differ by a few shades: docs/art.md), no button's fill
            return all(abs(a - b) <= 10 for a, b in zip(c, scr.background))

        assert all(plain(rgb_at(px, x, y)) for x, y in edge), [rgb_at(px, x, y) for x, y in edge]
        assert not plain(rgb_at(px, *scr.start_button.rect.center))  # Start is still a button
        ui.tap(*_corner((800, 480), 2))
        ui.step(0.02)
        assert scr.choices.joined == []
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


def test_who_starts_is_picked_in_the_setup():
    ui = _ui(size=(800, 480), layout="upright", first="setup")
    try:
        scr = ui.screen
        assert "Random" in scr.panel.first_button.text
        tap_widget(ui, scr.panel.first_button)
        tap_widget(ui, ui.screen.panel.first_button)
        assert ui.screen.choices.first == 1
        tap_widget(ui, ui.screen.start_button)
        assert ui.k.of(NewGame)[-1].setup.first == 1
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


def test_a_move_needs_a_second_tap_and_a_resting_finger_is_no_tap():
    ui = _ui(size=(800, 480), layout="tabletop", first="setup")
    try:
        tap_widget(ui, ui.screen.start_button)
        play = ui.screen
        session = ui.k.sessions["labyrinth"]
        game = session.game
        assert game.current == 0 and session.kinds[0] == "human"  # the test kiosk lets player 0 start
        arrow = next(a for a in ("N1", "N3", "N5", "E1", "E3", "E5") if a != game.forbidden)
        for _ in range(2):
            ui.tap(*geometry.arrow_rect(ui.layout, arrow).center)
            ui.step(0.02)
        for _ in range(200):
            if game.phase == "move" and not play.board.busy:
                break
            ui.clock.t += 1 / 30
            ui.step(1 / 30)
        assert game.phase == "move"
        cell = sorted(play.board.model.reachable)[-1]
        before = len(ui.k.of(TapCell))
        ui.finger_down(*geometry.cell_rect(ui.layout, *cell).center)  # a resting palm: down ...
        ui.clock.t += 2.0
        ui.finger_up(*geometry.cell_rect(ui.layout, *cell).center)  # ... and up two seconds later
        ui.step(0.02)
        assert play.destination.pending is None and len(ui.k.of(TapCell)) == before
        ui.tap(*geometry.cell_rect(ui.layout, *cell).center)  # first tap: only chosen
        ui.step(0.02)
        assert play.destination.pending == cell and len(ui.k.of(TapCell)) == before
        assert game.phase == "move"
        assert play.panels[0].state.pending  # the stay button now confirms
        ui.tap(*geometry.cell_rect(ui.layout, *cell).center)  # second tap on it: walk there
        ui.step(0.02)
        assert [c.cell for c in ui.k.of(TapCell)][before:] == [cell]
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


def test_attract_cycle_starts_with_the_configured_language():
    from kiosk.core import testing
    from kiosk.ui.shell.window import UI

    from tests.kiosk.ui.screens.test_screens import Now, window_of
    import dataclasses

    config = Config()
    config = dataclasses.replace(config, game=dataclasses.replace(config.game, language="et"))
    kiosk = testing.MiniKiosk(config=config)
    ui = UI(kiosk, window_of((800, 480)), layout="tabletop", language="et", first="attract", clock=Now())
    try:
        assert ui.screen.cycle_language == "et"
        ui.step(3.05)
        assert ui.screen.cycle_language != "et"
    finally:
        ui.close()
        kiosk.sessions["labyrinth"].close()


def test_the_typeface_is_andika_with_dejavu_for_signs(tmp_path, caplog):
    from kiosk.ui.kit import typeface

    assert typeface.load() == "Andika", "install the Debian package fonts-sil-andika (make test does)"
    assert typeface.font_for("Yellow's turn") == "Andika"
    assert typeface.font_for("\u2605\u2605") == "DejaVu Sans"  # stars: Andika has none
    assert typeface.BODY >= 18 and typeface.HEADLINE >= 28
    # a board's treasure: a medallion set into the path's crossing, big enough to tell apart, small
    # enough that the path's arms show round it (docs/art.md), on the 52 px cell of 800x480
    assert typeface.TREASURE >= 32 and typeface.TREASURE_OF_CELL <= 0.7
    assert abs(typeface.TREASURE - 52 * typeface.TREASURE_OF_CELL) < 1


@pytest.mark.parametrize(
    "players, human_seats", [("human", (3,)), ("human,hard", (3,)), ("hard,human", (3,)), ("human,easy,human", (3, 1))]
)
def test_the_command_line_puts_people_at_the_near_edge_first(players, human_seats):
    """``--players``: solo and one person against the computer sit at the near edge (seat 3, upright);
    their panel is there and faces them. Headless runs keep the game's own corners."""
    from kiosk import games
    from kiosk.tools import cli
    from kiosk.core.config import apply_overrides

    args = cli.build_parser().parse_args(["--players", players, "--seed", "3"])
    config = apply_overrides(Config(), {"game.seats": players})  # as the command line does
    kind = games.get("labyrinth")
    setup = cli._setup(args, config, kind, at_table=True)
    kinds = [s.kind for s in setup.seats]
    assert tuple(s.seat for s, k in zip(setup.seats, kinds) if k == "human") == human_seats
    assert sorted(s.seat for s in setup.seats) == sorted(seating.seats_for(len(kinds)))
    assert all(s.seat is None for s in cli._setup(args, config, kind).seats)  # headless: the game's own
    ui = _ui(size=(800, 480), layout="tabletop", first="setup")
    try:
        ui.k.bus.post(NewGame(setup))
        ui.k.tick()
        ui.goto("play")
        ui.step(0.02)
        person = kinds.index("human")
        panel = ui.screen.panels[person]
        assert panel.frame.angle == 0  # upright: the near edge reads it
        assert panel.frame.rect.cy < ui.layout.height / 2  # ... and it sits there
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()


@pytest.mark.parametrize("opened_at", ["S", "N"])
def test_the_how_to_faces_whoever_opened_it(opened_at):
    """From the attract screen (a How-to button on each long side) and from the setup (which faces
    its opener), the guide's caption, its buttons and its stage are turned to that person's edge."""
    ui = _ui(size=(800, 480), layout="tabletop", first="attract")
    angle = seating.angle(opened_at)
    try:
        buttons = [w for w in ui.screen.widgets if "How to play" in getattr(w, "text", "")]
        assert sorted(b.frame.angle for b in buttons) == [0, 180]  # one for each side
        tap_widget(ui, next(b for b in buttons if b.frame.angle == angle))
        guide = ui.screen
        assert guide.name == "howto" and guide.edge == opened_at
        assert guide.caption.rotation == angle
        assert {w.frame.angle for w in guide.widgets} == {angle}  # Skip, Back, Next
        # Skip sits at its reader's top right: the screen's top right, or its bottom left turned over
        skip = next(w for w in guide.widgets if "Skip" in getattr(w, "text", ""))
        top_right = skip.rect.cx > 400 and skip.rect.cy > 240
        assert top_right if angle == 0 else (skip.rect.cx < 400 and skip.rect.cy < 240)
        # from the setup, opened by a touch at the same edge
        ui.goto("setup", opener=(400, 400 if opened_at == "N" else 80))
        tap_widget(ui, next(w for w in ui.screen.widgets if "How to play" in getattr(w, "text", "")))
        assert ui.screen.name == "howto" and ui.screen.edge == opened_at
        assert ui.screen.caption.rotation == angle
    finally:
        ui.close()
        ui.k.sessions["labyrinth"].close()
