"""``labyrinth-kiosk --stats --export FILE.csv`` (or ``.json``): the history for a spreadsheet.

One row per finished game, in the order played, with the summary the
operator menu shows alongside in the JSON. The CSV is what a spreadsheet
opens without questions: UTF-8 with a byte-order mark, a header row, comma
separated, seats and winners joined with ``+``. A text cell that starts
like a formula (``=``, ``+``, ``-``, ``@``) gets a leading apostrophe, since
the history is a file on disk and a spreadsheet must not run what it holds.
The file is written to a temporary name and renamed, so a failed export
never leaves half a file under the name asked for.
"""

from __future__ import annotations

import csv
import io
import json
import os
import tempfile
from dataclasses import asdict
from pathlib import Path

from kiosk.errors import KioskError
from kiosk.store.history import GameRecord, History, Summary, summarize

FORMATS = (".csv", ".json")
COLUMNS = (
    "time",
    "game",
    "players",
    "seats",
    "variant",
    "winners",
    "winner_kinds",
    "turns",
    "duration_s",
    "outcome",
    "seat_changes",  # how often a seat changed hands (who took over: the JSON export)
    "score",  # the game's score of the result (a puzzle's stars), empty if it has none
)


class ExportError(KioskError):
    """The export cannot be written (bad name, unwritable place); the message says why."""


def _cell(value: str) -> str:
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def row(r: GameRecord) -> dict[str, object]:
    return {
        "time": _cell(r.time),
        "game": _cell(r.game),
        "players": r.players,
        "seats": _cell("+".join(r.seats)),
        "variant": _cell("+".join(r.variant)),
        "winners": "+".join(str(w) for w in r.winners),
        "winner_kinds": _cell("+".join(r.seats[w] for w in r.winners)),
        "turns": r.turns,
        "duration_s": r.duration_s,
        "outcome": _cell(r.outcome),
        "seat_changes": len(r.seat_changes),
        "score": "" if r.score is None else r.score,
    }


def to_csv(records: list[GameRecord]) -> bytes:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for r in records:
        writer.writerow(row(r))
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def to_json(records: list[GameRecord], summary: Summary, source: Path) -> bytes:
    games = [{**asdict(r), "winner_kinds": [r.seats[w] for w in r.winners]} for r in records]
    doc = {"history": str(source), "games": games, "summary": asdict(summary)}
    return (json.dumps(doc, ensure_ascii=False, indent=1, allow_nan=False) + "\n").encode("utf-8")


def export(state_dir: Path | str, target: Path | str) -> tuple[int, int]:
    """Write the history of `state_dir` to `target`; returns (games written, lines skipped)."""
    target = Path(target)
    kind = target.suffix.lower()
    if kind not in FORMATS:
        raise ExportError(f"--export {target}: the name must end in .csv or .json")
    history = History(state_dir)
    records, skipped = history.read()

    data = (
        to_csv(records) if kind == ".csv" else to_json(records, summarize(records, skipped_lines=skipped), history.path)
    )
    directory = target.parent if str(target.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{target.name}.", suffix=".tmp")
    except OSError as e:
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise ExportError(f"cannot write {target}: {e.strerror or e}") from None
    return len(records), skipped
