"""The layers' import contracts (shared/ARCHITECTURE.md), read from the source itself.

Every ``import`` statement of the product's packages counts, the ones inside
functions too (a lazy import is still a dependency); only imports under
``if TYPE_CHECKING:`` do not, as they never run. Checked:

* ``engine/`` imports nothing but itself and the standard library, and
  ``hardware/`` nothing but itself, the standard library and its device
  libraries: both stay usable (and testable) without the kiosk.
* A game's folders (``engine/<game>/``, ``kiosk/games/<game>/``) are imported
  by nothing outside them: the kiosk reaches a game through its registry. A game
  that builds on another (the puzzles on the board game) says so in its own
  folder, ``BUILDS_ON = ("labyrinth",)`` in ``engine/<game>/__init__.py`` or
  ``kiosk/games/<game>/__init__.py``: its folders may import that game's, and
  no other module gains anything by it.
* There are no import cycles.
* The core (``kiosk/core/``) and the store (``kiosk/store/``) import nothing of
  the UI (``kiosk/ui/``), directly or through another module: the headless
  kiosk, the config check and the tools run without it.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("engine", "hardware", "kiosk", "bench")
#: What hardware/ may import besides itself: the device libraries it adapts.
HARDWARE_LIBRARIES = {"gpiozero", "serial", "lgpio"}
#: Folders of engine/ that are shared, not a game.
ENGINE_SHARED = {"records"}
#: The benchmarks measure particular games (the engine's and the AI's speed): they may name them.
MAY_NAME_GAMES = ("bench",)


@dataclass(frozen=True)
class Import:
    module: str  # the importing module
    target: str  # what it names (a module, or a name in one)
    line: int


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for pkg in PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _type_checking_only(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                skip.update(id(n) for n in ast.walk(sub))
    return skip


@cache
def imports() -> tuple[Import, ...]:
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = _type_checking_only(tree)
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            if isinstance(node, ast.Import):
                found += [Import(name, alias.name, node.lineno) for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                assert node.level == 0, f"{name}:{node.lineno}: a relative import (ruff TID252 forbids them)"
                base = node.module or ""
                found += [Import(name, f"{base}.{alias.name}", node.lineno) for alias in node.names]
    return tuple(found)


def resolve(target: str) -> str | None:
    """The product module a dotted name lives in (the longest prefix that is a module), or None."""
    parts = target.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules():
            return candidate
        parts.pop()
    return None


def game_of(module: str) -> str | None:
    """The game whose folders hold `module` (engine.<game>... or kiosk.games.<game>...), or None."""
    parts = module.split(".")
    if parts[0] == "engine" and len(parts) > 1 and parts[1] not in ENGINE_SHARED and f"engine.{parts[1]}" in modules():
        if (ROOT / "engine" / parts[1]).is_dir():
            return parts[1]
    if parts[:2] == ["kiosk", "games"] and len(parts) > 2:
        return parts[2]
    return None


def graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in modules()}
    for imp in imports():
        target = resolve(imp.target)
        if target is not None and target != imp.module:
            edges[imp.module].add(target)
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.append(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))
    return groups


def _top(target: str) -> str:
    return target.split(".")[0]


def test_the_engine_imports_only_itself_and_the_standard_library():
    bad = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in imports()
        if i.module.startswith("engine")
        and _top(i.target) != "engine"
        and _top(i.target) not in sys.stdlib_module_names
    ]
    assert bad == []


def test_the_hardware_adapters_import_only_themselves_and_their_device_libraries():
    allowed = {"hardware", *HARDWARE_LIBRARIES}
    bad = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in imports()
        if i.module.startswith("hardware")
        and _top(i.target) not in allowed
        and _top(i.target) not in sys.stdlib_module_names
    ]
    assert bad == []


@cache
def builds_on(game: str) -> frozenset[str]:
    """The games `game` declares it builds on: ``BUILDS_ON``, a tuple of names, at the top of
    its engine package or its kiosk package (read from the source, never imported)."""
    found: set[str] = set()
    for init in (ROOT / "engine" / game / "__init__.py", ROOT / "kiosk" / "games" / game / "__init__.py"):
        if not init.exists():
            continue
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            targets = (
                node.targets
                if isinstance(node, ast.Assign)
                else [node.target]
                if isinstance(node, ast.AnnAssign)
                else []
            )
            if any(isinstance(t, ast.Name) and t.id == "BUILDS_ON" for t in targets) and node.value is not None:
                value = ast.literal_eval(node.value)
                assert isinstance(value, tuple) and all(isinstance(v, str) for v in value), f"{init}: BUILDS_ON"
                found.update(value)
    return frozenset(found)


def naming_a_game() -> list[str]:
    """Every import of a game's module from outside that game's folders (and the folders of the
    games that declare they build on it)."""
    out = []
    for imp in imports():
        target = resolve(imp.target)
        if target is None or imp.module.startswith(MAY_NAME_GAMES):
            continue
        game = game_of(target)
        importer = game_of(imp.module)
        if game is not None and importer != game and not (importer is not None and game in builds_on(importer)):
            out.append(f"{imp.module}:{imp.line} imports {imp.target}")
    return sorted(out)


def test_nothing_outside_a_games_folders_imports_that_game():
    assert naming_a_game() == []


def test_there_are_no_import_cycles():
    assert cycles(graph()) == []


#: The layers that run without a display, and the one they must not reach.
HEADLESS_LAYERS = ("kiosk.core", "kiosk.store")
UI = "kiosk.ui"


def reaching(start: str, edges: dict[str, set[str]], forbidden: str) -> list[str]:
    """A chain of imports from `start` to a module under `forbidden`, or []."""
    came_from: dict[str, str | None] = {start: None}
    todo = [start]
    while todo:
        module = todo.pop()
        if module == forbidden or module.startswith(forbidden + "."):
            chain = [module]
            while (back := came_from[chain[-1]]) is not None:
                chain.append(back)
            return chain[::-1]
        for nxt in sorted(edges.get(module, ())):
            if nxt not in came_from:
                came_from[nxt] = module
                todo.append(nxt)
    return []


def test_the_core_and_the_store_import_nothing_of_the_ui():
    edges = graph()
    chains = [
        " -> ".join(chain)
        for module in sorted(edges)
        if module.startswith(HEADLESS_LAYERS)
        if (chain := reaching(module, edges, UI))
    ]
    assert chains == []


def test_a_chain_to_the_ui_is_found():
    edges = {"kiosk.core.a": {"kiosk.themes.b"}, "kiosk.themes.b": {"kiosk.ui.kit.i18n"}}
    assert reaching("kiosk.core.a", edges, UI) == ["kiosk.core.a", "kiosk.themes.b", "kiosk.ui.kit.i18n"]
    assert reaching("kiosk.themes.b", {"kiosk.themes.b": {"kiosk.uikit"}}, UI) == []


# ------------------------------------------------------------- the checks check


@pytest.mark.parametrize(
    "edges, expected",
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
        ({"a": {"b"}, "b": {"a"}}, [["a", "b"]]),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ],
)
def test_the_cycle_finder_finds_cycles(edges, expected):
    assert cycles(edges) == expected


def test_a_game_module_is_told_from_a_shared_one():
    assert game_of("engine.labyrinth.ai.hard") == "labyrinth"
    assert game_of("kiosk.games.cards.screens.play") == "cards"
    assert game_of("engine.records.notation") is None
    assert game_of("engine.outcome") is None
    assert game_of("kiosk.games") is None
    assert game_of("kiosk.ui.shell.window") is None


def test_a_game_that_builds_on_another_says_so_in_its_own_folder():
    assert builds_on("puzzles") == {"labyrinth"}
    assert builds_on("cards") == frozenset() and builds_on("labyrinth") == frozenset()
    leaning = [
        i
        for i in imports()
        if game_of(i.module) == "puzzles" and (t := resolve(i.target)) is not None and game_of(t) == "labyrinth"
    ]
    assert leaning, "the puzzles play on the board game's engine"


def test_function_level_imports_count():
    lazy = [
        i for i in imports() if i.module == "kiosk.games.labyrinth" and i.target.startswith("kiosk.games.labyrinth.")
    ]
    assert lazy, "the board game's declaration imports its session and screens inside functions"
