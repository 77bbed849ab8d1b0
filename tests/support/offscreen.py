"""Helpers for the offscreen UI tests: a window (or a skip naming why there is none) and pixels read back."""

from __future__ import annotations

import pytest


def offscreen_window(size: tuple[int, int]):
    """An offscreen pyglet window of `size` px; skips the test with the reason when none can be made."""
    try:
        from kiosk.ui.shell.window import make_window, prepare_pyglet

        prepare_pyglet("offscreen")
        return make_window("offscreen", size, "auto")
    except Exception as exc:  # no EGL / no Mesa on this machine
        pytest.skip(f"no offscreen OpenGL context: {exc}")


class Pixels:
    """The current colour buffer, read once (RGBA, the buffer's own format: no slow conversion)."""

    def __init__(self):
        import pyglet

        image = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        self.width = image.width
        self.data = image.get_data("RGBA", image.width * 4)

    def __call__(self, x: float, y: float) -> tuple[int, int, int]:
        """Colour at window pixel (x, y) (origin bottom-left)."""
        i = int(y) * self.width * 4 + int(x) * 4
        return tuple(self.data[i : i + 3])


def near(a, b, tol=40) -> bool:
    """Every channel of colour `a` within `tol` of `b`."""
    return all(abs(p - q) <= tol for p, q in zip(a, b))
