"""Fixtures shared by several test modules."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def shots_dir(tmp_path_factory, request):
    """Where a UI test saves its screenshots: $UI_SHOTS_DIR to look at them, else pytest's tmp dir."""
    env = os.environ.get("UI_SHOTS_DIR")
    if env:
        Path(env).mkdir(parents=True, exist_ok=True)
        return Path(env)
    return tmp_path_factory.mktemp(request.module.__name__.rsplit(".", 1)[-1])


@pytest.fixture(scope="session", autouse=True)
def _own_cache_dir(tmp_path_factory):
    """The kiosk caches baked art and made sounds in $XDG_CACHE_HOME: the tests (and the kiosks they
    start) use a folder of their own, never the home folder of whoever runs them."""
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


@pytest.fixture
def drawn_art(tmp_path, monkeypatch):
    """Our drawn treasures and pawns instead of the built-in pictures (kiosk/ui/art/pictures.py), as
    when their files cannot be read: the picture set pointed at an empty folder, and a cache folder
    of the test's own (the baked atlas is cached by what it shows)."""
    from kiosk.ui.art import pictures

    monkeypatch.setattr(pictures, "SET", tmp_path / "no-pictures")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert pictures.load() is None


#: The modules that take longest (paths under tests/) (each from a few tens of seconds to over a minute on 2 cores),
#: longest first. ``make test`` hands whole modules to the workers (pytest-xdist ``--dist loadfile``:
#: a module's shared fixtures are made once) in collection order; starting with these keeps the
#: workers busy to the end instead of one of them finishing a long module alone.
LONGEST_FIRST = (
    "kiosk/ui/test_layout_audit",
    "systemd/test_bundle_update",
    "kiosk/ui/test_screens",
    "games/cards/test_screens",
    "engine/cards/test_ai",
    "games/cards/test_howto",
    "kiosk/ui/test_frames",
    "games/test_conformance",
    "kiosk/test_sound",
    "kiosk/ui/test_play",
    "engine/cards/test_properties",
    "kiosk/tools/test_sim",
    "games/cards/test_headless",
    "engine/test_records",
    "kiosk/test_fuzz_inputs",
    "kiosk/store/test_crash_points",
    "games/test_fourth_game",
)


def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist only: LONGEST_FIRST first, the rest in their usual order."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return

    def rank(item) -> int:
        name = item.nodeid.split("::", 1)[0].removeprefix("tests/").removesuffix(".py")
        return LONGEST_FIRST.index(name) if name in LONGEST_FIRST else len(LONGEST_FIRST)

    items.sort(key=rank)  # stable: within a module and among the rest, nothing moves


@pytest.fixture(autouse=True)
def _clock_synchronised(tmp_path_factory, monkeypatch):
    """History lines say when the clock was not synchronised (kiosk/store/persistence.py); the test machine's
    own clock state must not change what the tests write, so it counts as synchronised here. A test
    of the mark points ``TIMESYNC_FLAG`` elsewhere and patches the kernel's answer itself."""
    from kiosk.store import persistence

    flag = tmp_path_factory.getbasetemp() / "timesync-synchronized"
    flag.touch()
    monkeypatch.setattr(persistence, "TIMESYNC_FLAG", flag)
