"""The card screen's picture in parts, and what a part asks of the screen it belongs to.

Each part (the table's room, each card laid, the board's marks, the pointers, each score chip, the
hand panel, the hand-over sheet) is built again only when its key, what it shows, changed: a tap
on a hand card or a score that changes redraws that part, not the whole table (laying out a dozen
texts and a hundred shapes took ~13 ms here, ~65 ms on a Pi 4). A part built marks its own area
of the frame cache. The layout audit sees every part built (its recorder notes texts as they are
made).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Protocol

import pyglet

from kiosk.ui.kit import widgets
from kiosk.ui.kit.layout import Layout, Rect
from kiosk.ui.kit.text_cache import Text

if TYPE_CHECKING:  # pragma: no cover
    from kiosk.games.cards.art import CardAtlas
    from kiosk.games.cards.screens.model import TableModel


class Parts:
    """The parts of a picture in one batch, by name: (key, items, widgets) each."""

    def __init__(self, batch: pyglet.graphics.Batch, mark: Callable[[Rect | None], None]) -> None:
        self.batch = batch
        self.mark = mark  # the frame cache's: this area of the screen changed (None: anywhere)
        self.built: dict[Any, tuple[Any, list[Any], list[Any]]] = {}
        self._areas: dict[Any, Rect | None] = {}  # where each part lies (None: anywhere)
        self.items: list[Any] = []  # the items of the part being built
        self.widgets: list[Any] = []  # and its widgets

    def part(self, name: Any, key: Any, build: Callable[[], None], area: Rect | None) -> bool:
        """Part `name`, built by `build()` again only when its `key` changed (always while the layout
        audit records); `area`: where it lies (None: anywhere), marked changed when built. True if built."""
        old = self.built.get(name)
        if old is not None and old[0] == key and widgets.RECORDER is None:
            return False
        if old is not None:
            self.delete(old[1])
            if self._areas.get(name) != area:
                self.mark(self._areas.get(name))  # (it moved: where it was changed too)
        self.items, self.widgets = [], []
        try:
            build()
            self.built[name] = (key, self.items, self.widgets)
            self._areas[name] = area
        finally:
            self.items, self.widgets = [], []
        self.mark(area)
        return True

    def add(self, *items: Any) -> None:
        """Items (shapes, texts, sprites, buttons) of the part being built."""
        self.items.extend(items)

    def touch(self, widget: Any) -> Any:
        """A widget of the part being built: it answers taps while the part is shown."""
        self.widgets.append(widget)
        return widget

    def text(self, *args: Any, **kw: Any) -> Text:
        """A text of the part being built, as :func:`widgets.label` makes it (drawn once, by the text cache)."""
        lab = widgets.label(*args, **kw)
        self.items.append(lab)
        return lab

    def items_of(self, name: Any) -> list[Any]:
        return self.built[name][1]

    def widgets_of(self, names: Iterable[Any]) -> list[Any]:
        return [w for name in names if name in self.built for w in self.built[name][2]]

    def all_items(self) -> list[Any]:
        return [item for _key, items, _widgets in self.built.values() for item in items]

    def drop(self, keep: set[Any]) -> None:
        """Delete the parts not in `keep` (a hand-over sheet taken away, the chips of a smaller table)."""
        for name in [n for n in self.built if n not in keep]:
            self.delete(self.built.pop(name)[1])
            self.mark(self._areas.pop(name, None))

    def clear(self) -> None:
        """Drop every part: the next build makes each anew."""
        for _key, items, _widgets in self.built.values():
            self.delete(items)
        self.built, self._areas = {}, {}
        self.mark(None)

    @staticmethod
    def delete(items: list[Any]) -> None:
        """Delete a part's items (a text's sprite: its pixels stay in the text cache)."""
        for item in items:
            item.delete()


class Host(Protocol):
    """What a part of the card screen asks of the screen (kiosk/games/cards/screens/play.py)."""

    model: "TableModel"
    parts: Parts
    batch: pyglet.graphics.Batch

    @property
    def layout(self) -> Layout: ...

    def t(self, key: str, **kw: Any) -> str: ...

    def facing(self, player: int | None) -> int:
        """The angle texts for `player` are turned by (their side of the table)."""
        ...

    def player_name(self, player: int) -> str: ...

    def card_atlas(self) -> "CardAtlas":
        """The card pictures at the screen's size."""
        ...

    def post(self, command: Any) -> None:
        """A command on the bus."""
        ...

    def refresh(self) -> None:
        """What the table shows changed: build the parts again at the next update."""
        ...
