"""The board treasures drawn offscreen: the dragon reads as a dragon (green head, yellow eye, fire), not a lizard.

The dragon was the least recognisable icon: its eye was a circle, which a batch
draws before the polygons of the head, so it vanished. This renders the atlas
pictures big on an offscreen window and looks for each part's colour.
"""

from __future__ import annotations

import pytest

from tests.kiosk.ui.screens.test_screens import colours_in, make_ui, pixels, rgb_at

pytestmark = pytest.mark.display


def _near(c, ref, tol=30):
    return all(abs(a - b) <= tol for a, b in zip(c, ref))


def test_dragon_shows_its_eye_its_fire_and_differs_from_the_lizard(drawn_art):
    """The drawn dragon (the fallback's and high contrast's) keeps its eye and fire."""
    import pyglet
    from kiosk.ui.kit.menu import picture

    u = make_ui(size=(800, 480), first="setup")
    try:
        u.step(0.05)
        u.window.switch_to()
        batch = pyglet.graphics.Batch()
        keep = [
            picture(u, "treasure", "dragon", 200, 240, 300, batch),
            picture(u, "treasure", "lizard", 600, 240, 300, batch),
        ]
        pyglet.gl.glClearColor(0.1, 0.1, 0.1, 1)
        u.window.clear()
        batch.draw()
        px = pixels(u)
        dragon = colours_in(px, (60, 100, 280, 280), step=2)
        lizard = colours_in(px, (460, 100, 280, 280), step=2)
        assert any(_near(c, (255, 230, 60)) for c in dragon), "the dragon's yellow eye is not drawn"
        assert any(_near(c, (255, 120, 30)) for c in dragon), "the dragon breathes no fire"
        assert any(_near(c, (60, 170, 70)) for c in dragon), "the dragon is not green"
        assert not any(_near(c, (255, 120, 30)) for c in lizard), "the lizard should not look like the dragon"
        del keep
    finally:
        u.close()
        u.k.sessions["labyrinth"].close()


def test_pawns_are_standing_pieces_not_medallions_and_each_seat_has_its_own_shape():
    """A pawn is a solid piece in its seat's colour, taller than wide, with no light disc behind it
    (a treasure sits on one); the four silhouettes differ, not only their colours."""
    import pyglet
    from kiosk.ui.art import MEDALLION, MEDALLION_RIM, SEAT_COLORS
    from kiosk.ui.kit.menu import picture

    u = make_ui(size=(800, 480), first="setup")
    try:
        u.step(0.05)
        u.window.switch_to()
        batch = pyglet.graphics.Batch()
        xs = (90, 250, 410, 570, 730)
        keep = [picture(u, "pawn", seat, xs[seat], 240, 150, batch) for seat in range(4)]
        keep.append(picture(u, "treasure", "ghost", xs[4], 240, 150, batch))
        bg = (26, 26, 26)
        pyglet.gl.glClearColor(*(c / 255 for c in bg), 1)
        u.window.clear()
        batch.draw()
        px = pixels(u)

        def silhouette(x):
            """The drawn pixels around x: (set of points, their colours)."""
            pts = {
                (i, j)
                for i in range(x - 78, x + 78, 2)
                for j in range(160, 320, 2)
                if not _near(rgb_at(px, i, j), bg, 12)
            }
            return pts, [rgb_at(px, i, j) for i, j in pts]

        masks = []
        for seat in range(4):
            pts, colours = silhouette(xs[seat])
            w = max(i for i, _ in pts) - min(i for i, _ in pts)
            h = max(j for _, j in pts) - min(j for _, j in pts)
            assert h > 1.25 * w, f"seat {seat}: the pawn should stand taller than wide ({w}x{h} px)"
            light = sum(_near(c, MEDALLION, 20) for c in colours)
            assert light < 0.02 * len(colours), f"seat {seat}: the pawn has a light disc like a medallion"
            own = sum(_near(c, SEAT_COLORS[seat], 40) for c in colours)
            assert own > 0.3 * len(colours), f"seat {seat}: the pawn is not mostly its seat's colour"
            cx = sum(i for i, _ in pts) / len(pts)
            masks.append({(round(i - cx), j) for i, j in pts if j > 244})  # the head: the seat's shape
        medallion_pts, medallion = silhouette(xs[4])
        # the test sees a disc: the ivory face in its gold rim (a wide rim: set into the tile, docs/art.md)
        disc = sum(_near(c, MEDALLION, 20) or _near(c, MEDALLION_RIM, 20) for c in medallion)
        assert disc > 0.4 * len(medallion)
        for a in range(4):
            for b in range(a + 1, 4):
                differ = len(masks[a] ^ masks[b]) / len(masks[a] | masks[b])
                assert differ > 0.12, f"seats {a} and {b} have the same shape ({differ:.0%} differs)"
        del keep
    finally:
        u.close()
        u.k.sessions["labyrinth"].close()


def test_a_tile_face_ends_at_its_square_where_the_whole_tile_runs_its_paths_on():
    """The spare in a player's panel is the tile cut to its own square: its path stops at the edge,
    while the board's tile drawing runs the path on to meet the next tile across the gap."""
    import pyglet
    from kiosk.ui.art import CORRIDOR
    from kiosk.ui.art.tiles import TILE_BODY

    u = make_ui(size=(800, 480), first="setup")
    try:
        u.step(0.05)
        u.window.switch_to()
        atlas = u.atlas
        batch = pyglet.graphics.Batch()
        size = 200
        keep = []
        for x, region in ((200, atlas.tile("NS")), (600, atlas.tile_face("NS"))):
            s = pyglet.sprite.Sprite(region, x, 240, batch=batch)
            s.scale = size / atlas.px
            keep.append(s)
        bg = (26, 26, 26)
        pyglet.gl.glClearColor(*(c / 255 for c in bg), 1)
        u.window.clear()
        batch.draw()
        px = pixels(u)
        edge = size * TILE_BODY / 2  # the tile's square, from its centre
        for x, whole in ((200, True), (600, False)):
            inside = rgb_at(px, x, 240 + edge - 4)
            past = [rgb_at(px, x, 240 + edge + d) for d in (3, 6)] + [rgb_at(px, x, 240 - edge - d) for d in (3, 6)]
            assert _near(inside, CORRIDOR, 40), (whole, inside)  # the path runs up to the edge
            if whole:
                assert any(_near(c, CORRIDOR, 40) for c in past), past  # and on, on the board
            else:
                assert all(_near(c, bg, 6) for c in past), past  # and no further, alone
        del keep
    finally:
        u.close()
        u.k.sessions["labyrinth"].close()
