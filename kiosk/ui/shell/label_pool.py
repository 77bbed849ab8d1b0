"""Gone: texts are drawn once (kiosk/ui/kit/text_cache.py). The card screen calls this until it adopts the cache."""

from typing import Any

from kiosk.ui.kit import widgets


class LabelPool:
    fresh = True  # (every text is settled by its maker as if new: the cache makes that cheap)

    def take(self, *args: Any, variant: Any = None, **kw: Any) -> Any:
        return widgets.label(*args, **kw)

    def give_back(self, lab: Any, changed: bool = False) -> None:
        lab.delete()

    def clear(self) -> None:
        """Nothing is kept."""
