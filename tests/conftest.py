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
