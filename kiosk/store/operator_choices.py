"""What the operator chose on the "Sound & display" page, kept across restarts.

The volume, the mute, the high-contrast palette, the theme and the preset
(home or public: the idle and continue times) set in the operator menu are
written to ``operator-settings.json`` in the state directory (atomically, as
the PIN guard's count, kiosk/store/pin.py) and read back at start, where they
take the place of ``[sound] volume``, ``[display] high_contrast``,
``[display] theme`` and ``[kiosk] preset`` (with its two times) from the
config. Only what the operator changed is written: a key not in the file
keeps following the config. A file that cannot be read or makes no sense is
reported in one log line and left as it is (the next change replaces it);
the kiosk then starts with the config's values.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from kiosk.store.persistence import atomic_write
from kiosk.store.safeio import UnsafeFile, read_json

log = logging.getLogger(__name__)

STATE_NAME = "operator-settings.json"
MAX_STATE_BYTES = 4096  # a few dozen bytes; anything bigger is not ours
#: each key and the check its value must pass
KEYS = {
    "volume": lambda v: type(v) is int and 0 <= v <= 100,
    "muted": lambda v: type(v) is bool,
    "high_contrast": lambda v: type(v) is bool,
    "theme": lambda v: type(v) is str and 0 < len(v) <= 64,
    "preset": lambda v: type(v) is str and 0 < len(v) <= 16,  # a name of kiosk.core.config.PRESETS
}


class OperatorChoices:
    """The operator's lasting choices: ``get(key)`` (None: follow the config), ``set(key, value)``.

    `state_dir` None keeps them in memory only (a kiosk that saves nothing, e.g. a scripted run).
    """

    def __init__(self, state_dir: Path | str | None = None):
        self.path = Path(state_dir) / STATE_NAME if state_dir is not None else None
        self.values: dict[str, Any] = {}
        self._load()

    def get(self, key: str) -> Any:
        return self.values.get(key)

    def set(self, key: str, value: Any) -> None:
        """Keep `value` for `key` (and write the file); a bad key or value is a ValueError."""
        check = KEYS.get(key)
        if check is None:
            raise ValueError(f"no operator setting called {key!r}; known: {', '.join(KEYS)}")
        if not check(value):
            raise ValueError(f"{value!r} is no value for the operator setting {key!r}")
        if self.values.get(key) == value and key in self.values:
            return
        self.values[key] = value
        self._save()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            # bounded, never blocking on a FIFO, never through a link out of the state directory
            obj = read_json(self.path, MAX_STATE_BYTES, follow_symlinks=False)
        except FileNotFoundError:
            return
        except OSError as e:
            reason = e.reason if isinstance(e, UnsafeFile) else e
            log.warning("cannot read %s (%s): the config's sound and display settings hold", self.path, reason)
            return
        except ValueError as e:  # not UTF-8, not JSON, nested too deep
            log.warning("%s is unusable (%s): the config's sound and display settings hold", self.path, e)
            return
        try:
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            bad = [k for k, v in obj.items() if k not in KEYS or not KEYS[k](v)]
            if bad:
                raise ValueError(f"unknown or bad: {', '.join(map(str, bad))}")
        except (ValueError, RecursionError) as e:
            log.warning("%s is unusable (%s): the config's sound and display settings hold", self.path, e)
            return
        self.values = dict(obj)

    def _save(self) -> None:
        if self.path is None:
            return
        try:
            atomic_write(self.path, json.dumps(self.values, sort_keys=True).encode())
        except OSError as e:
            log.warning("operator settings not kept across a restart: cannot write %s (%s)", self.path, e)
