"""One exception base for the kiosk (kiosk/errors.py): every exception class under kiosk/ is a KioskError."""

from __future__ import annotations

import ast
import dataclasses
import builtins
import importlib
from pathlib import Path

import pytest

from kiosk.errors import ContractError, KioskError

ROOT = Path(__file__).resolve().parents[2]
BUILTIN_ERRORS = {
    name for name, value in vars(builtins).items() if isinstance(value, type) and issubclass(value, BaseException)
}


def _exception_classes() -> list[tuple[str, str]]:
    """(module, class) of every class under kiosk/ that names an exception among its bases,
    a built-in one or one defined in the kiosk (found from the source, so a new one is seen)."""
    found: list[tuple[str, str]] = []
    defined: set[str] = set()
    trees = {}
    for path in sorted((ROOT / "kiosk").rglob("*.py")):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        trees[module] = ast.parse(path.read_text(encoding="utf-8"))
    changed = True
    while changed:  # a class based on a kiosk exception is one too, wherever it is defined
        changed = False
        for module, tree in trees.items():
            for node in ast.walk(tree):
                if not isinstance(node, ast.ClassDef) or (module, node.name) in found:
                    continue
                bases = {
                    b.id if isinstance(b, ast.Name) else b.attr if isinstance(b, ast.Attribute) else ""
                    for b in node.bases
                }
                if bases & (BUILTIN_ERRORS | defined):
                    found.append((module, node.name))
                    defined.add(node.name)
                    changed = True
    return found


def test_the_kiosk_defines_exceptions_to_check():
    names = {name for _, name in _exception_classes()}
    assert {"ConfigError", "ScriptError", "UnsafeFile", "ThemeUnusable", "ExportError"} <= names


@pytest.mark.parametrize("module, name", _exception_classes())
def test_every_kiosk_exception_is_a_kiosk_error(module, name):
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, KioskError), f"{module}.{name} is not a KioskError"


def test_errors_keep_the_builtin_base_their_callers_catch():
    from kiosk.core.config import ConfigError
    from kiosk.store.safeio import UnsafeFile
    from kiosk.core.script import ScriptError

    assert issubclass(ConfigError, ValueError) and issubclass(ScriptError, ValueError)
    assert issubclass(UnsafeFile, OSError)
    err = UnsafeFile("/tmp/x", "a FIFO, not a regular file")
    assert err.filename == "/tmp/x" and err.reason == "a FIFO, not a regular file"


def test_a_contract_error_is_no_value_error():
    """A caller's mistake must not be swallowed by the handlers of bad input (except ValueError)."""
    assert issubclass(ContractError, TypeError) and issubclass(ContractError, KioskError)
    assert not issubclass(ContractError, ValueError)


def test_a_callers_mistakes_are_contract_errors():
    """Registering twice, a message of no game, a frame turned sideways: the code is wrong, not
    its input, so these are ContractErrors, which an ``except ValueError`` does not swallow."""
    from kiosk import games
    from kiosk.core import events
    from kiosk.ui.kit.seating import angle
    from kiosk.ui.kit.widgets import Frame

    with pytest.raises(ContractError, match="defined twice"):
        events.message(next(iter(events.REGISTRY)))(type("Again", (), {}))
    game = games.get(games.names()[0])
    with pytest.raises(ContractError, match="registered already"):
        games.register_game(dataclasses.replace(game))
    with pytest.raises(ContractError, match="no registered game's message"):
        games.of_event(object())
    with pytest.raises(ContractError, match="0 or 180"):
        Frame((0, 0, 10, 10), 90)
    with pytest.raises(ContractError, match="texts face"):
        angle("W")
