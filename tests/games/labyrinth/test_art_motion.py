"""The finished look: illustrated and fixed tiles, high contrast, the wordmark, and the motions.

Rendered offscreen with the screens tests' UI (a real bus, session and virtual
clock). Pixels are read back from the frame; motions are followed frame by
frame with the board view's own effect list.
"""

from __future__ import annotations

import math

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import GameOver, PushArrow, Stay, TreasureFound

from tests.kiosk.ui.screens.test_screens import _button, pixels, rgb_at, save_png, tap_widget
from tests.kiosk.ui.screens.test_screens import ui  # noqa: F401  (the fixture: UIs made in a test are closed after it)

pytestmark = pytest.mark.display


def near(a, b, tol):
    return all(abs(p - q) <= tol for p, q in zip(a, b))


def luminance(rgb):
    return 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]


def start_game(u, kinds="human,human", seed=3):
    u.post(NewGame(GameSetup.of(kinds, seed=seed)))
    for _ in range(20):
        u.step(0.1)
    assert u.screen.name == "play"
    u.screen.cue.hide()  # "<colour>'s turn" stays until the first touch: these tests look at the board under it
    u.step(0.1)
    return u.k.sessions["labyrinth"].game


def settle(u, seconds=3.0, dt=0.05):
    for _ in range(int(seconds / dt)):
        u.step(dt)


def wall_points(L, r, c):
    """Four points on a tile's wall, one towards each corner: off the path, inside the tile's edge.

    A treasure's medallion (36 px at 800x480) or its shadow may cover one of them, so the checks
    below go by what most of the four show.
    """
    rect = L.cell_rect(r, c)
    return [(rect.x + rect.w * fx, rect.y + rect.h * fy) for fx in (0.17, 0.83) for fy in (0.17, 0.83)]


def wall_point(L, r, c):
    """One of them, towards the tile's lower left corner."""
    return wall_points(L, r, c)[0]


def mostly(px, L, r, c, test) -> bool:
    """At least three of the tile's four wall points pass `test`."""
    return sum(bool(test(rgb_at(px, x, y))) for x, y in wall_points(L, r, c)) >= 3


def test_fixed_tiles_are_stone_movable_tiles_hedge_and_paths_read_as_paths(ui, shots_dir):
    from kiosk.ui.art.tiles import NORMAL

    u = ui(size=(800, 480), layout="tabletop", first="play")
    start_game(u)
    u.render(force=True)
    px = pixels(u)
    save_png(shots_dir / "art-800x480.png", px)
    L = u.layout

    def grey(p):
        return max(p) - min(p) < 30

    def green(p):
        return p[1] > p[0] + 30 and p[1] > p[2] + 30

    # stone is grey (channels close together), hedge is green
    fixed = [(r, c) for r in (0, 2, 4, 6) for c in (0, 2, 4, 6)]
    movable = [(r, c) for r in (1, 3, 5) for c in (1, 3, 5)]
    assert sum(mostly(px, L, r, c, grey) for r, c in fixed) >= 14, fixed
    assert sum(mostly(px, L, r, c, green) for r, c in movable) >= 8, movable
    assert not any(mostly(px, L, r, c, green) for r, c in fixed)
    # the centre of every tile without a treasure is path (a treasure's tile shows its medallion there)
    tiles = u.screen.board.model.tiles
    pawns = {tuple(p) for p in u.screen.board.model.positions}
    plain = [i for i in range(49) if not tiles[i].treasure and divmod(i, 7) not in pawns]
    assert len(plain) > 10
    for i in plain:
        r, c = divmod(i, 7)
        x, y = L.cell_center(r, c)
        centre = rgb_at(px, x, y)
        assert near(centre, NORMAL.path, 45) or near(centre, NORMAL.pebble, 45), (r, c, centre)
        assert luminance(centre) > luminance(NORMAL.wall) + 80


def test_high_contrast_makes_paths_brighter_and_walls_darker(ui, shots_dir):
    from kiosk.ui.art.tiles import HIGH_CONTRAST

    u = ui(size=(800, 480), layout="tabletop", first="play")
    start_game(u)
    L = u.layout

    def contrast(px):
        """The mean brightness of the hedge walls of five movable tiles."""
        walls = [luminance(rgb_at(px, *wall_point(L, r, c))) for r, c in ((1, 1), (3, 3), (5, 5), (1, 3), (3, 5))]
        return sum(walls) / len(walls)

    u.render(force=True)
    normal_walls = contrast(pixels(u))
    u.set_high_contrast(True)
    assert u.atlas.high_contrast
    settle(u, 0.2)
    u.render(force=True)
    px = pixels(u)
    save_png(shots_dir / "art-high-contrast-800x480.png", px)
    assert contrast(px) < normal_walls - 40  # walls much darker
    wall = rgb_at(px, *wall_point(L, 3, 3))
    assert luminance(wall) < 70
    assert luminance(HIGH_CONTRAST.path) - luminance(HIGH_CONTRAST.wall) > 200
    u.set_high_contrast(False)
    assert not u.atlas.high_contrast


def test_pushed_out_tile_flies_to_the_next_players_panel_without_holding_anything(ui):
    from kiosk.games.labyrinth.screens.board import FLY_S

    u = ui(size=(800, 480), layout="tabletop", first="play")
    g = start_game(u)
    board = u.screen.board
    arrow = next(a for a in ("N1", "E3", "S5") if a != g.forbidden)
    u.post(PushArrow(arrow))
    u.step(0.02)
    settle(u, 0.32, 0.02)  # the slide lands
    assert board.effects.active
    flying = [o for run, objs in board.effects._running for o in objs]
    assert flying
    L = u.layout
    target = L.panel(board.model.seats[1]).center
    spr = flying[0]
    d0 = abs(spr.x - target[0]) + abs(spr.y - target[1])
    assert not board.busy  # the queue (and so the session's view) is free
    u.step(0.15)
    d1 = abs(spr.x - target[0]) + abs(spr.y - target[1])
    assert d1 < d0  # on its way to the panel
    settle(u, FLY_S, 0.05)
    assert not board.effects.active  # arrived and gone
    u.post(Stay())  # input is taken at once
    settle(u, 0.3)
    assert g.current == 1


def test_found_treasure_turns_a_card_at_the_panel_and_the_winner_gets_confetti(ui, shots_dir):
    u = ui(size=(1280, 800), layout="upright", first="play")
    start_game(u)
    board = u.screen.board
    m = board.model
    board.on_event(TreasureFound(0, "owl", 5))
    u.step(0.05)
    assert board.busy  # the found moment is part of the picture's story
    settle(u, 0.9, 0.05)  # popped and flown: the card turns at the panel
    shapes_now = [o for run, objs in board.effects._running for o in objs]
    from pyglet import sprite

    cards = [o for o in shapes_now if isinstance(o, sprite.Sprite)]
    assert cards, "no card turning at the panel"
    panel = u.layout.panel(m.seats[0])
    assert any(panel.contains(c.x, c.y) for c in cards)
    settle(u, 1.2)
    assert m.found[0] == ["owl"]
    board.on_event(GameOver((0,), 5, (("owl",), ())))
    u.step(0.05)
    assert board.effects.active and not board.busy
    assert m.phase == "over"  # no panel asks anyone to play any more
    settle(u, 0.6, 0.05)
    u.render(force=True)
    px = pixels(u)
    save_png(shots_dir / "finale-1280x800.png", px)
    settle(u, 2.0)
    assert not board.effects.active


def test_attract_shows_the_wordmark_and_keeps_the_board_and_corners_clear(ui, shots_dir):
    from kiosk.ui.art.wordmark import PRODUCT_NAME

    for size, layout in (
        ((800, 480), "tabletop"),
        ((800, 480), "upright"),
        ((1280, 800), "upright"),
        ((720, 1280), "tabletop"),
        ((720, 1280), "upright"),
    ):
        u = ui(size=size, layout=layout, first="attract")
        scr = u.screen
        scr.demo_seed = 5  # the same demo game every time
        scr._start_demo()
        settle(u, 1.5, 0.1)
        texts = [getattr(s, "text", "") for s in scr._shapes]
        for word in PRODUCT_NAME.upper().split():  # on two lines, or on one in a wide, low box
            assert sum(word in text for text in texts) >= 2, (size, layout)  # the word and its shadow
        L = scr.layout  # the attract screen's own: its board smaller than the play screen's
        for band in scr._bands:
            # every invite's band lies outside the board (the cells and start corners stay in sight)
            # and clear of the buttons
            assert band.top <= L.board.y + 1 or band.y >= L.board.top - 1, (size, layout, band)
            for w in scr.widgets:
                r = w.rect
                assert r.right <= band.x or r.x >= band.right or r.top <= band.y or r.y >= band.top, (
                    size,
                    layout,
                    band,
                    r,
                )
        u.render(force=True)
        px = pixels(u)
        save_png(shots_dir / f"attract-{size[0]}x{size[1]}-{layout}.png", px)
        for r, c in ((0, 0), (0, 6), (6, 0), (6, 6)):  # the start corners: stone tiles
            cell = L.cell_rect(r, c)  # a point on the wall clear of the rivet, the pawn, the home ring
            p = rgb_at(px, cell.x + cell.w * 0.1, cell.y + cell.h * 0.22)
            assert max(p) - min(p) < 40 and 70 < luminance(p) < 220, (size, layout, r, c, p)


@pytest.mark.parametrize("size", [(800, 480), (1280, 800), (480, 800), (800, 1280)])
def test_attract_name_reads_from_afar_on_both_long_sides(ui, size):
    """The product's name is set at least NAME_PX tall on 800x480 (scaled with the screen), for each
    long side of a table: before, the landscape columns set it at 20 px and portrait at 15 px, under the
    type scale. The demo's board is smaller than the play screen's to make the room."""
    from kiosk.ui.art.wordmark import PRODUCT_NAME

    NAME_PX = 26
    u = ui(size=size, layout="tabletop", first="attract")
    scr = u.screen
    L = scr.layout
    names = [s for s in scr._shapes if getattr(s, "text", "") in (PRODUCT_NAME.upper(), *PRODUCT_NAME.upper().split())]
    big = [s for s in names if s.font_size >= L.font(NAME_PX) - 0.01]
    assert sorted({s.rotation for s in big}) == [0, 180], [(s.text, s.font_size) for s in names]
    assert L.ring.h < u.layout.ring.h or L.portrait  # landscape: the demo's board gives up the room


def test_attract_bands_hide_the_arrows_and_the_spare_under_them(ui):
    """The "touch to play" bands are opaque: where an arrow or the spare lies under a band, the
    band's own colour shows (the words are hidden for the check), not a mix of both."""
    for size, layout in (((800, 480), "tabletop"), ((1280, 800), "upright")):
        u = ui(size=size, layout=layout, first="attract")
        from kiosk.ui.screens.attract import BAND  # after the window: pyglet is set up for offscreen
        from kiosk.ui.kit.layout import ARROWS

        scr = u.screen
        scr.demo_seed = 5
        scr._start_demo()
        settle(u, 1.0, 0.1)
        for lbl in scr._invites:
            lbl.color = (*lbl.color[:3], 0)
        u.render(force=True)
        px = pixels(u)
        L = scr.layout  # the attract screen's own: its board smaller than the play screen's
        under = [name for name in ARROWS if any(b.contains(*L.arrow_rect(name).center) for b in scr._bands)]
        assert len(under) >= 3, (size, layout)  # a row of arrows (and the spare beside one) lies under
        for name in under:
            r = L.arrow_rect(name)
            for x, y in ((r.cx, r.cy), (r.cx, r.y + r.h * 0.3), (r.cx, r.top - r.h * 0.3)):
                assert near(rgb_at(px, x, y), BAND, 3), (size, layout, name, rgb_at(px, x, y))


def test_operator_page_changes_volume_mute_and_contrast(ui):
    from kiosk.sound import Sound, SoundSettings

    class Silent:
        reason = "test"

        def open(self):
            return False

    u = ui(size=(800, 480), layout="upright", first="attract")
    u.sound = Sound(None, SoundSettings(volume=50), output=Silent(), start=False)
    u.goto("operator")
    op = u.screen
    op.open_page("settings")
    tap_widget(u, _button(u, "+"))
    assert u.sound.volume == 60
    tap_widget(u, _button(u, "\u2212"))
    tap_widget(u, _button(u, "\u2212"))
    assert u.sound.volume == 40
    tap_widget(u, _button(u, "\u266a off"))
    assert u.sound.muted and not u.sound.audible
    tap_widget(u, _button(u, "\u266a on"))
    assert not u.sound.muted
    tap_widget(u, _button(u, "\u266a off"))
    tap_widget(u, _button(u, "High contrast"))
    assert u.high_contrast
    tap_widget(u, _button(u, "High contrast"))
    assert not u.high_contrast
    u.sound = None
    op.open_page("settings")
    assert any("Sound is off" in getattr(s, "text", "") for s in op._shapes)


def _texture_pixels(texture) -> bytes:
    """A texture's pixels, read through a framebuffer (as the bake does)."""
    from pyglet import gl

    fbo = gl.GLuint(0)
    gl.glGenFramebuffers(1, fbo)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, fbo)
    gl.glFramebufferTexture2D(gl.GL_FRAMEBUFFER, gl.GL_COLOR_ATTACHMENT0, gl.GL_TEXTURE_2D, texture.id, 0)
    buf = (gl.GLubyte * (texture.width * texture.height * 4))()
    gl.glPixelStorei(gl.GL_PACK_ALIGNMENT, 1)
    gl.glReadPixels(0, 0, texture.width, texture.height, gl.GL_RGBA, gl.GL_UNSIGNED_BYTE, buf)
    gl.glBindFramebuffer(gl.GL_FRAMEBUFFER, 0)
    gl.glDeleteFramebuffers(1, fbo)
    return bytes(buf)


def test_the_baked_atlas_is_kept_on_disk_and_loaded_the_same(tmp_path, monkeypatch):
    from kiosk.ui.art import Atlas
    from tests.kiosk.ui.screens.test_screens import window_of

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    window = window_of((800, 480))
    window.switch_to()
    first = Atlas(64, window)
    files = list((tmp_path / "labyrinth-kiosk" / "atlas").glob("board-64-n-*.rgba"))
    assert len(files) == 1
    drawn = []
    monkeypatch.setattr(Atlas, "_draw", lambda self, *a: drawn.append(a) or [])
    second = Atlas(64, window)
    assert drawn == []  # loaded, not drawn again
    assert _texture_pixels(second.texture) == _texture_pixels(first.texture)
    Atlas(64, window, high_contrast=True)  # another palette is another picture
    assert drawn
    files[0].write_bytes(b"broken")  # a damaged cache is drawn again
    drawn.clear()
    Atlas(64, window)
    assert drawn


def test_operator_sound_and_contrast_choices_outlast_a_restart(tmp_path, caplog):
    """Volume, mute and high contrast set in the operator menu come back after a restart (the
    state directory's operator-settings.json); a broken file is reported and the config holds."""
    from types import SimpleNamespace

    from kiosk.core import testing
    from kiosk.core.config import Config, DisplayConfig
    from kiosk.store.operator_choices import STATE_NAME, OperatorChoices
    from kiosk.sound import Sound, SoundSettings
    from kiosk.ui.shell.window import UI
    from kiosk.ui.screens.operator_settings import apply_to_sound
    from tests.kiosk.ui.screens.test_screens import Now, window_of

    class Silent:
        reason = "test"

        def open(self):
            return False

    made = []

    def start_kiosk(config=None):
        """A UI on a kiosk keeping its state in tmp_path, with a (silent) sound as the runner makes it."""
        kiosk = testing.MiniKiosk(config=config or Config())
        kiosk.history = SimpleNamespace(path=tmp_path / "history.jsonl")
        u = UI(kiosk, window_of((800, 480)), layout="upright", first="attract", clock=Now())
        made.append((u, kiosk))
        u.sound = Sound(None, SoundSettings(volume=50), output=Silent(), start=False)
        apply_to_sound(u, u.sound)
        return u

    try:
        u = start_kiosk()
        assert (u.sound.volume, u.sound.muted, u.high_contrast) == (50, False, False)
        u.goto("operator")
        u.screen.open_page("settings")
        tap_widget(u, _button(u, "+"))
        tap_widget(u, _button(u, "+"))
        tap_widget(u, _button(u, "\u266a off"))
        tap_widget(u, _button(u, "High contrast"))
        assert (u.sound.volume, u.sound.muted, u.high_contrast) == (70, True, True)

        again = start_kiosk()  # the restart: the choices are back
        assert (again.sound.volume, again.sound.muted, again.high_contrast) == (70, True, True)
        again.goto("operator")
        again.screen.open_page("settings")
        tap_widget(again, _button(again, "High contrast"))  # off again, and kept off even though
        tap_widget(again, _button(again, "\u266a on"))  # the config asks for high contrast
        third = start_kiosk(Config(display=DisplayConfig(high_contrast=True)))
        assert (third.sound.volume, third.sound.muted, third.high_contrast) == (70, False, False)

        (tmp_path / STATE_NAME).write_text('{"volume": "loud"}')
        caplog.set_level("WARNING")
        fourth = start_kiosk(Config(display=DisplayConfig(high_contrast=True)))
        assert (fourth.sound.volume, fourth.sound.muted, fourth.high_contrast) == (50, False, True)
        assert any(STATE_NAME in r.getMessage() and "unusable" in r.getMessage() for r in caplog.records)
        assert (tmp_path / STATE_NAME).read_text() == '{"volume": "loud"}'  # left as it was
        with pytest.raises(ValueError):
            OperatorChoices(tmp_path).set("volume", 101)
    finally:
        for u, kiosk in made:
            u.close()
            kiosk.sessions["labyrinth"].close()


def test_high_contrast_treasures_have_thicker_outlines_and_a_dark_rim(drawn_art):
    """In the high-contrast palette every drawn treasure's dark outline covers clearly more of its
    picture than in the normal one (compared with the drawings in both: the normal palette shows
    the built-in pictures when they can be read), and its medallion's rim is dark (it sets the
    medallion off the near-white path)."""
    from kiosk.ui.art import DRAWINGS, Atlas
    from tests.kiosk.ui.screens.test_screens import window_of

    window = window_of((800, 480))
    pictures = {}
    for contrast in (False, True):
        atlas = Atlas(96, window, high_contrast=contrast)
        data, width = _texture_pixels(atlas.texture), atlas.texture.width
        pictures[contrast] = {}
        for name in DRAWINGS:
            r = atlas.treasure(name)

            def at(x, y, r=r, data=data, width=width):
                i = ((r.y + int(y)) * width + r.x + int(x)) * 4
                return data[i : i + 3]

            # the whole picture, and 24 points round the medallion's rim (radius 0.46 of the drawing)
            rim = [
                at(
                    r.width / 2 + 0.46 * atlas.px * math.cos(k * math.pi / 12),
                    r.height / 2 + 0.46 * atlas.px * math.sin(k * math.pi / 12),
                )
                for k in range(24)
            ]
            pictures[contrast][name] = ([at(x, y) for y in range(r.height) for x in range(r.width)], rim)

    def dark(pixels):
        return sum(1 for p in pixels if luminance(p) < 60)

    for name in DRAWINGS:
        (normal, normal_rim), (strong, strong_rim) = pictures[False][name], pictures[True][name]
        assert dark(strong) > 1.4 * dark(normal), name
        assert dark(strong_rim) >= 20 and dark(normal_rim) <= 12, (name, dark(strong_rim), dark(normal_rim))
