"""`python -m bench`: run every benchmark module that is present and print its figures."""

from __future__ import annotations

import importlib
import platform
import sys
import time

MODULES = ("engine", "ai", "cards", "puzzles", "bus", "ui", "screens", "window", "sim_memory", "history")


def main(argv: list[str]) -> int:
    wanted = argv or list(MODULES)
    print(
        f"# {platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
        f"{time.strftime('%Y-%m-%d %H:%M')}"
    )
    failed = 0
    for name in wanted:
        try:
            module = importlib.import_module(f"bench.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bench.{name}":
                print(f"[{name}] no benchmark yet")
                continue
            raise
        print(f"[{name}]", flush=True)
        try:
            module.main()
        except Exception as exc:  # one broken benchmark must not hide the others
            failed += 1
            print(f"[{name}] failed: {exc!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
