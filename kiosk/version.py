"""The kiosk's version: declared once here, read by the package build and shown everywhere.

``pyproject.toml`` takes the package version from ``__version__`` (setuptools'
``attr:``), so the wheel's metadata, ``--version`` of both commands, the log
line at start and the operator menu all say the same. A release is this
number, a line in CHANGELOG.md and a git tag ``v<version>``.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version as dist_version

__version__ = "0.4.5"

DIST_NAME = "labyrinth-kiosk"


def version() -> str:
    """The installed distribution's version, or this file's when running from a plain checkout."""
    try:
        return dist_version(DIST_NAME)
    except PackageNotFoundError:
        return __version__


def version_action(parser) -> None:
    """Add ``--version`` to an argparse parser: prints ``<prog> <version>`` and exits 0."""
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
