"""Waiting in real time for something a worker thread does (the hardware adapters' threads)."""

from __future__ import annotations

import time


def wait_for(predicate, timeout=30.0):
    """Poll `predicate` every 5 ms until it holds or `timeout` s pass; its last answer.

    The timeout is a bound for a hung worker, not an expectation of speed: a shared, loaded
    machine may take seconds where a quiet one takes milliseconds.
    """
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()
