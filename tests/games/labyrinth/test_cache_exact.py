"""Every frame the frame cache gives, after its partial updates, is the frame the cache gives when
drawn again whole, through pushes, slides, walks, stays and turn changes of a 4-seat game, on the
7-inch screen and a bigger one. The cache is redrawn only in the rectangles that changed, each with
only the still layers that touch it (kiosk/ui/shell/window.py ``_draw_in``, a screen's
``static_parts``): a layer left out of a rectangle it draws in shows here as the old picture.

Within a few levels, not byte for byte: the offscreen window's 16-bit colour rounds a blend drawn
over a cleared rectangle a step apart from the same blend over the whole picture (up to 17 of 255
here, at the edges of the redrawn areas, the same before the partial updates were made finer).

Offscreen EGL window; skips when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, Stay, TapCell

from tests.support.mini_ui import play_table
from tests.support.offscreen import offscreen_window

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)

#: the most a colour channel of a partly updated cache may differ from the cache drawn whole
ROUNDING = 24


def _picture():
    import pyglet
    from PIL import Image

    image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
    data = image.get_data("RGBA", image.width * 4)
    return Image.frombytes("RGBA", (image.width, image.height), data).convert("RGB")


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)])
def test_every_partly_updated_frame_is_the_cache_drawn_whole(size):
    from PIL import ImageChops

    with play_table(window_of(size)) as ui:
        ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
        ui.off.settle()
        game = ui.k.sessions["labyrinth"].game
        compared = 0
        partial = ui.cache.partial

        def frames(n: int) -> None:
            nonlocal compared
            for _ in range(n):
                if not ui.step(1 / 30):
                    continue
                cached = _picture()
                ui.invalidate()  # the whole cache drawn again, every still layer
                ui.draw()
                whole = _picture()
                worst = max(hi for _lo, hi in ImageChops.difference(cached, whole).getextrema())
                assert worst <= ROUNDING, f"frame {ui.frames}: the partly updated cache differs by {worst}"
                compared += 1

        last = None
        for turn in range(4):
            arrow = next(a for a in ("N1", "E3", "S5", "W1", "N5") if a not in (game.forbidden, last))
            last = arrow
            ui.post(PushArrow(arrow))
            frames(40)
            far = sorted(game.reachable() - {game.players[game.current].position})
            ui.post(TapCell(far[-1]) if turn % 2 and far else Stay())
            frames(40)
        assert compared > 60 and ui.cache.partial > partial + 10
