"""The board treasures drawn offscreen: the dragon reads as a dragon (green head, yellow eye, fire), not a lizard.

The dragon was the least recognisable icon: its eye was a circle, which a batch
draws before the polygons of the head, so it vanished. This renders the atlas
pictures big on an offscreen window and looks for each part's colour.
"""

from __future__ import annotations

import pytest

from .test_ui_screens import colours_in, make_ui, pixels

pytestmark = pytest.mark.display


def _near(c, ref, tol=30):
    return all(abs(a - b) <= tol for a, b in zip(c, ref))


def test_dragon_shows_its_eye_its_fire_and_differs_from_the_lizard():
    import pyglet
    from kiosk.ui.menu import picture
    u = make_ui(size=(800, 480), first="setup")
    try:
        u.step(0.05)
        u.window.switch_to()
        batch = pyglet.graphics.Batch()
        keep = [picture(u, "treasure", "dragon", 200, 240, 300, batch),
                picture(u, "treasure", "lizard", 600, 240, 300, batch)]
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
