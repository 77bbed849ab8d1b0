"""The kiosk's puzzle pack: puzzles generated and graded offline, shipped as pack.json.

The search that grades a puzzle never runs on the kiosk's frame: the pack is
made once, by the project, with

    python -m kiosk.games.puzzles.pack generate --seed 1 --count 30 --out kiosk/games/puzzles/pack.json

(the same seed and count give the same file; tests/games/puzzles checks the
shipped one against it) and the kiosk only looks puzzles up in it. A seed the
pack does not hold is generated on the spot (a few hundredths of a second here).
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import sys
from functools import cache
from pathlib import Path
from typing import Any, Sequence

from engine.errors import InvalidState
from engine.puzzles import GRADES, Puzzle, daily, generate

PACK_FILE = Path(__file__).with_name("pack.json")
PACK_VERSION = 1


def build(seed: int, count: int) -> dict[str, Any]:
    """The pack of `count` (at most 100) puzzles per grade from `seed`: puzzle k of the grade g
    (0 easy, 1 medium, 2 hard) is generate(seed * 1000 + 100 * g + k, its grade), so a seed names
    one puzzle of the pack (1000-1029 easy, 1100-1129 medium, 1200-1229 hard from seed 1)."""
    if not 0 < count <= 100:
        raise ValueError(f"a pack holds 1 to 100 puzzles per grade, not {count}")
    return {
        "version": PACK_VERSION,
        "seed": seed,
        "count": count,
        "puzzles": {
            g: [generate(seed * 1000 + 100 * i + k, g).to_dict() for k in range(count)] for i, g in enumerate(GRADES)
        },
    }


def read(data: Any) -> dict[str, tuple[Puzzle, ...]]:
    """A pack's puzzles by grade; InvalidState naming the problem."""
    if not isinstance(data, dict) or data.get("version") != PACK_VERSION or not isinstance(data.get("puzzles"), dict):
        raise InvalidState(f"not a puzzle pack of version {PACK_VERSION}")
    out: dict[str, tuple[Puzzle, ...]] = {}
    for grade in GRADES:
        entries = data["puzzles"].get(grade)
        if not isinstance(entries, list) or not entries:
            raise InvalidState(f"the puzzle pack has no {grade} puzzles")
        puzzles = tuple(Puzzle.from_dict(e) for e in entries)
        wrong = [p.name for p in puzzles if p.grade != grade]
        if wrong:
            raise InvalidState(f"the pack's {grade} puzzles hold {wrong[0]}")
        out[grade] = puzzles
    return out


@cache
def pack() -> dict[str, tuple[Puzzle, ...]]:
    """The shipped pack (read once)."""
    return read(json.loads(PACK_FILE.read_text(encoding="utf-8")))


def of_day(date: datetime.date) -> Puzzle:
    """The puzzle of the day: the day's grade (by weekday), the day's place in that grade's list."""
    number, grade = daily(date)
    puzzles = pack()[grade]
    return puzzles[number % len(puzzles)]


def by_seed(seed: int) -> Puzzle:
    """The pack's puzzle of that seed, else the puzzle generated from it."""
    for puzzles in pack().values():
        for p in puzzles:
            if p.seed == seed:
                return p
    return generate(seed)


def any_of(grade: str, rng: random.Random) -> Puzzle:
    """A puzzle of `grade` from the pack, chosen by `rng`."""
    if grade not in GRADES:
        raise ValueError(f"grade {grade!r} is not one of {', '.join(GRADES)}")
    return rng.choice(pack()[grade])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kiosk.games.puzzles.pack", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    gen = sub.add_parser("generate", help="generate and grade a pack (or one puzzle with --grade and no --count)")
    gen.add_argument("--seed", type=int, required=True)
    gen.add_argument("--count", type=int, default=0, help="puzzles per grade: a whole pack")
    gen.add_argument("--grade", choices=GRADES, help="one puzzle of this grade")
    gen.add_argument("--out", type=Path, help="write here instead of printing")
    day = sub.add_parser("daily", help="the puzzle of a day")
    day.add_argument("--date", type=datetime.date.fromisoformat, default=datetime.date.today())
    args = parser.parse_args(argv)
    if args.command == "daily":
        result: Any = of_day(args.date).to_dict()
    elif args.count:
        try:
            result = build(args.seed, args.count)
        except ValueError as exc:
            parser.error(str(exc))
    else:
        result = generate(args.seed, args.grade).to_dict()
    text = json.dumps(result, indent=1) + "\n"
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
