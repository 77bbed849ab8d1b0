"""The touchscreen kiosk's views (pyglet): ``run(kiosk, options)`` is the entry for display modes.

See kiosk/ui/shell/window.py for the window and loop, kiosk/ui/shell/screen.py for the Screen
base class, kiosk/ui/kit/layout.py for geometry, kiosk/games/labyrinth/screens/play.py for the board.
pyglet is imported lazily so ``--display none`` never needs a GL library.
"""

from __future__ import annotations

from typing import Any


def run(kiosk: Any, options: Any) -> int:
    """Open the display given by `options` and run the kiosk in it until it stops; exit status."""
    from kiosk.ui.shell.runner import run as _run

    return _run(kiosk, options)
