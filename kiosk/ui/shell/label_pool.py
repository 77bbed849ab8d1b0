"""Laid-out texts kept for reuse, so a turn change moves texts instead of setting them again.

Making a pyglet text costs a layout (glyph look-up, line breaking, vertex lists) and, for a
size not seen lately, a font and its glyph bitmaps: on the Pi-class CPU this is a few
milliseconds a text, and a turn change rebuilt a dozen of them in one frame (tens of ms,
over the 33 ms frame budget). The texts a panel shows come back all game long (a colour's
name, "tap an arrow twice", "stay", the card counts), so a panel gives its texts back to
the pool instead of deleting them; the next build takes an equal one, hidden in the batch,
and only moves it (a translation, no new layout) and shows it again.

Equal means made with the same words and the same settings (`key`): size, weight, colour,
anchors, width, the turn of its frame, its group, and whatever the maker did to it
afterwards (``variant``: e.g. a width it was narrowed to). Where on screen is not part of
it. Free texts stay in their batch, hidden (no pixels); the oldest beyond ``keep`` are
deleted.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, Hashable

import pyglet

from kiosk.ui.kit import widgets
from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.widgets import Frame


class LabelPool:
    """Texts of one batch: :meth:`take` one (made or reused), :meth:`give_back` it when done."""

    def __init__(self, keep: int = 160) -> None:
        self.keep = keep
        self._free: OrderedDict[int, tuple[Hashable, pyglet.text.Label]] = OrderedDict()  # oldest first
        self._by_key: dict[Hashable, list[int]] = {}
        self._keys: dict[int, Hashable] = {}  # every text out of the pool: its key
        self.made = 0  # how many texts were laid out (tests, bench)
        self.reused = 0
        self.fresh = False  # the last take made a new text (its maker settles it)

    def take(
        self,
        text: str,
        frame: Frame,
        u: float,
        v: float,
        size: float,
        batch,
        group=None,
        *,
        variant: Hashable = None,
        container: Rect | None = None,
        role: str = "body",
        name: str = "",
        **kw: Any,
    ) -> pyglet.text.Label:
        """A text as :func:`widgets.label` makes it; `variant` names what the caller does to a new
        one (``fresh`` is then True) so that only equally treated texts are shared."""
        key = (
            text,
            round(size, 3),
            frame.angle,
            id(batch),
            group,
            variant,
            tuple(sorted((k, tuple(a) if isinstance(a, list) else a) for k, a in kw.items())),
        )
        ids = self._by_key.get(key)
        if ids:
            lab = self._free.pop(ids.pop())[1]
            if not ids:
                del self._by_key[key]
            x, y = frame.point(u, v)
            lab.position = (round(x), round(y), lab.position[2])  # whole pixels, as widgets.label places them
            lab.visible = True
            if widgets.RECORDER is not None:
                widgets.RECORDER.note(lab, frame, container, role, name)
            self.reused += 1
            self.fresh = False
        else:
            lab = widgets.label(text, frame, u, v, size, batch, group, container=container, role=role, name=name, **kw)
            self.made += 1
            self.fresh = True
        self._keys[id(lab)] = key
        return lab

    def give_back(self, lab: pyglet.text.Label, changed: bool = False) -> None:
        """Done with `lab`: hidden, kept for the next equal text; deleted if it is not from here or
        was `changed` since it was taken (its words or colour are no longer what its key says)."""
        if id(lab) in self._free:
            return
        key = self._keys.get(id(lab))
        if key is None or changed:
            self._keys.pop(id(lab), None)
            lab.delete()
            return
        lab.visible = False
        self._free[id(lab)] = (key, lab)
        self._by_key.setdefault(key, []).append(id(lab))
        while len(self._free) > self.keep:
            old_id, (old_key, old) = self._free.popitem(last=False)
            self._by_key[old_key].remove(old_id)
            if not self._by_key[old_key]:
                del self._by_key[old_key]
            del self._keys[old_id]
            old.delete()

    def clear(self) -> None:
        """Delete the free texts (the layout changed: their sizes will not come back)."""
        for _key, lab in self._free.values():
            del self._keys[id(lab)]
            lab.delete()
        self._free.clear()
        self._by_key.clear()
