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


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Under pytest-xdist (``make test`` runs ``-n auto --dist loadgroup``), a module whose tests
    ask for a costly module- or session-scoped fixture of its own (the bundles built once, the
    PulseAudio server, the layout audit's walk, a compiled sketch...) runs on one worker, so that
    fixture is still made once; every other test goes to whichever worker is free. (Autouse
    fixtures only set and restore cheap state: they do not tie a module to one worker.)"""
    for item in items:
        info = getattr(item, "_fixtureinfo", None)
        if info is None:
            continue
        module = item.nodeid.split("::", 1)[0]
        todo, seen = list(info.argnames), set()
        while todo:
            name = todo.pop()
            if name in seen or name not in info.name2fixturedefs:
                continue
            seen.add(name)
            d = info.name2fixturedefs[name][-1]
            if d.scope != "function" and d.baseid == module:
                item.add_marker(pytest.mark.xdist_group(module))
                break
            todo.extend(d.argnames)
