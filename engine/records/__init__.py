"""Game records: a small text notation for a whole game of either kind (docs/notation.md).

Like a chess record: tag lines (game, rules, players and levels, seed, date,
result), then one line per turn. Reading a record replays every turn on the
engine and refuses an illegal or damaged one, naming the turn.

    from engine.records import Recorder, read_record
    recorder = Recorder(game, levels=["human", "hard"], date="2026-11-30")
    ...  game.apply(action); recorder.apply(action)  ...
    text = recorder.text()
    record = read_record(text)          # RecordError("turn 12 (line 20): ...") if damaged
    final = record.final()
    for turn, state in record.replay(): ...

Pure: strings in and out, no files.
"""

from engine.records.notation import (
    NOBODY,
    NOTATION_VERSION,
    UNFINISHED,
    Record,
    RecordError,
    Recorder,
    Turn,
    Codec,
    codec_for,
    register_codec,
    lines_by_turn,
    format_record,
    read_record,
)

__all__ = [
    "NOBODY",
    "NOTATION_VERSION",
    "Record",
    "RecordError",
    "Recorder",
    "Turn",
    "UNFINISHED",
    "Codec",
    "codec_for",
    "register_codec",
    "lines_by_turn",
    "format_record",
    "read_record",
]
