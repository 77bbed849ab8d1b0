"""What is left of the label pool: texts are drawn once by the text cache (kiosk/ui/kit/text_cache.py),
so there is nothing to keep. The card screen still calls this until it adopts the cache; then it goes."""

from __future__ import annotations

from typing import Any, Hashable

from kiosk.ui.shell import widgets


class LabelPool:
    """:meth:`take` is :func:`widgets.label`; :meth:`give_back` deletes the text (its sprite only)."""

    fresh = True  # every text is settled by its maker as if new (the cache makes that cheap)

    def take(self, *args: Any, variant: Hashable = None, **kw: Any) -> Any:
        return widgets.label(*args, **kw)

    def give_back(self, lab: Any, changed: bool = False) -> None:
        lab.delete()

    def clear(self) -> None:
        pass
