"""labyrinth-replay: step through a game record in the terminal, or analyse it.

    labyrinth-replay game.txt                 # step with Enter (b back, a number jumps, q quits)
    labyrinth-replay game.txt --turn 12       # the position after turn 12
    labyrinth-replay game.txt --all           # every position, one after another
    labyrinth-replay game.txt --analyze [--json]
    labyrinth-replay --display window game.txt          # the kiosk's own art: taps and arrow keys step
    labyrinth-replay --display offscreen --size 800x480 --screenshot-dir shots/ game.txt

Records are the notation of docs/notation.md (written by labyrinth-sim
--records, for example). A record with an illegal or damaged turn is refused
with the turn named. Boards are drawn as text: each maze tile is 5 x 3
characters (# is wall), pawns by their initial (R Y G B), treasures by their
first three letters; each card is 7 x 3 with its two treasures' first letters.
With ``--display`` the record is shown by the kiosk's own screens (kiosk/ui/replay.py);
offscreen with ``--screenshot-dir`` every position is saved as a numbered PNG.

A record that cannot be read or replayed is refused with one message (naming
the turn) and exit status 2.
"""

from __future__ import annotations

import argparse
import errno
import json
import sys
from typing import Sequence

from engine.cards.deck import CARDS, OPEN
from engine.maze import SIZE, openings_of
from engine.records import Record, RecordError, read_record
from engine.records.cards import card_name, player_name as card_player
from engine.tiles import TREASURES

from kiosk.safeio import RECORD_LIMIT, RECORD_LINE_LIMIT, UnsafeFile, check_lines, read_text

PAWN_LETTERS = {"red": "R", "yellow": "Y", "green": "G", "blue": "B"}
INSERTION_INDEXES = (1, 3, 5)


# ----------------------------------------------------------------- text boards


def maze_tile(openings: str, centre: str) -> list[str]:
    """A tile as three rows of five characters; `centre` is up to three characters."""
    return [
        "#" + ("   " if "N" in openings else "###") + "#",
        (" " if "W" in openings else "#") + centre.center(3)[:3] + (" " if "E" in openings else "#"),
        "#" + ("   " if "S" in openings else "###") + "#",
    ]


def maze_board(state) -> str:
    """The 7 x 7 maze with pawns, treasures, the insertion arrows, the spare and each player."""
    pawns: dict[int, str] = {}
    for p in state.players:
        pawns[p.cell] = pawns.get(p.cell, "") + PAWN_LETTERS.get(p.color, "?")
    top = "    " + "".join(("  v  " if c in INSERTION_INDEXES else "     ") for c in range(SIZE))
    cols = "    " + "".join(f"  {c}  " for c in range(SIZE))
    lines = [top, cols]
    for r in range(SIZE):
        rows = ["", "", ""]
        for c in range(SIZE):
            i = r * SIZE + c
            t = state.maze.treasures[i]
            centre = pawns.get(i) or (TREASURES[t][:3] if t >= 0 else "")
            for k, part in enumerate(maze_tile(openings_of(state.maze.masks[i]), centre)):
                rows[k] += part
        arrow = ">" if r in INSERTION_INDEXES else " "
        back = "<" if r in INSERTION_INDEXES else " "
        lines += [f"   {arrow}{rows[0]}{back}", f" {r} {arrow}{rows[1]}{back}", f"   {arrow}{rows[2]}{back}"]
    lines.append(top.replace("v", "^"))
    spare_t = state.maze.spare_treasure
    spare = maze_tile(openings_of(state.maze.spare_mask), TREASURES[spare_t][:3] if spare_t >= 0 else "")
    info = []
    for k, p in enumerate(state.players):
        mark = ">" if k == state.current and state.phase != "over" else " "
        target = ("home" if p.cards or state.rules.return_home else "-") if not p.cards else p.cards[0]
        info.append(
            f"{mark} {p.color:<6} at {p.position[0]},{p.position[1]}  found {len(p.found):>2}"
            f"  left {len(p.cards):>2}  target {target}"
        )
    lines.append("")
    lines.append(f"   spare {spare[0]}   " + (info[0] if info else ""))
    lines.append(f"         {spare[1]}   " + (info[1] if len(info) > 1 else ""))
    lines.append(f"         {spare[2]}   " + (info[2] if len(info) > 2 else ""))
    lines += ["                 " + extra for extra in info[3:]]
    return "\n".join(lines)


def card_tile(card: int, rotation: int) -> list[str]:
    mask = OPEN[card][rotation]
    a, b = CARDS[card].names
    n, e, s, w = (mask >> k & 1 for k in range(4))
    return [
        "##" + ("   " if n else "###") + "##",
        (" " if w else "#") + f"{a[:2]} {b[:2]}" + (" " if e else "#"),
        "##" + ("   " if s else "###") + "##",
    ]


def card_layout(state) -> str:
    """The laid cards on their grid (x east, y south), then hands, cards taken and the draw pile."""
    lines = []
    if state.layout:
        xs = [x for x, _ in state.layout]
        ys = [y for _, y in state.layout]
        lines.append("     " + "".join(f"{x:^7}" for x in range(min(xs), max(xs) + 1)))
        for y in range(min(ys), max(ys) + 1):
            rows = ["", "", ""]
            for x in range(min(xs), max(xs) + 1):
                placed = state.layout.get((x, y))
                parts = card_tile(placed.card, placed.rotation) if placed else ["       "] * 3
                for k in range(3):
                    rows[k] += parts[k]
            lines += [f"     {rows[0]}", f"{y:>4} {rows[1]}", f"     {rows[2]}"]
    lines.append("")
    for k in range(state.players):
        mark = ">" if k == state.current and state.phase != "over" else " "
        hand = ", ".join(card_name(c) for c in state.hands[k]) or "-"
        lines.append(f"{mark} {card_player(state, k)}  taken {len(state.taken[k]):>2}  hand {hand}")
    lines.append(f"  draw pile {len(state.draw_pile)}")
    return "\n".join(lines)


def board_text(state) -> str:
    return maze_board(state) if hasattr(state, "maze") else card_layout(state)


# ----------------------------------------------------------------- the command


def header_text(record: Record) -> str:
    return "\n".join(f"{k}: {v}" for k, v in record.tags.items() if k != "Start")


def turn_lines(text: str) -> dict[int, str]:
    """The turn lines of the record as written, by turn number."""
    out = {}
    for line in text.splitlines():
        head, _, _ = line.partition(".")
        if head.strip().isdigit():
            out[int(head)] = line.strip()
    return out


def position_text(record: Record, states: list, lines: dict[int, str], k: int) -> str:
    """Position k: 0 is the start, k >= 1 the position after the k-th turn of the record."""
    if k == 0:
        title = "start"
    else:
        turn = record.turns[k - 1]
        title = f"after {lines.get(turn.number, f'turn {turn.number}')}"
    return f"--- {title} ({k}/{len(states) - 1})\n{board_text(states[k])}"


def step(record: Record, states: list, lines: dict[int, str], read=input, out=sys.stdout) -> None:
    """Interactive stepping: Enter next, b back, a number jumps to that position, q quits."""
    k = 0
    while True:
        print(position_text(record, states, lines, k), file=out)
        try:
            answer = read("[Enter] next  b back  NUMBER jump  q quit > ").strip().lower()
        except EOFError:
            return
        if answer == "q":
            return
        if answer == "b":
            k = max(0, k - 1)
        elif answer.isdigit():
            k = min(int(answer), len(states) - 1)
        elif k == len(states) - 1:
            return
        else:
            k += 1


DISPLAYS = ("window", "offscreen")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="labyrinth-replay",
        description="Step through a game record (docs/notation.md) in the "
        "terminal or with the kiosk's own art (--display), or mark "
        "its doubtful turns with --analyze.",
    )
    parser.add_argument("file", help="the record (a text file; - reads standard input)")
    parser.add_argument("--turn", type=int, default=None, help="show only the position after this turn")
    parser.add_argument("--all", action="store_true", help="print every position without waiting")
    parser.add_argument(
        "--analyze",
        action="store_true",
        help="mark missed collections, opponents let win, and far weaker shifts "
        "(card game: bigger takes that were there)",
    )
    parser.add_argument("--level", default=None, help="the AI level that suggests turns (default: the strongest)")
    parser.add_argument("--json", action="store_true", help="with --analyze: print the marks as JSON")
    parser.add_argument(
        "--display",
        choices=DISPLAYS,
        default=None,
        help="show the record with the kiosk's own art: in a window (taps, Right/Space "
        "next, Left back, Home/End, Q quits) or offscreen (every position rendered)",
    )
    parser.add_argument("--size", default=None, help="the picture's size, WIDTHxHEIGHT (default 800x480)")
    parser.add_argument(
        "--layout", choices=("tabletop", "upright"), default="tabletop", help="the kiosk's layout (default tabletop)"
    )
    parser.add_argument(
        "--screenshot-dir", default=None, help="with --display offscreen: a numbered PNG of the start and of every turn"
    )
    parser.add_argument(
        "--autoplay",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="with --display window: the next position every SECONDS",
    )
    args = parser.parse_args(argv)
    if args.screenshot_dir and args.display != "offscreen":
        parser.error("--screenshot-dir needs --display offscreen")
    if args.size is not None:
        from kiosk.ui.layout import parse_size

        try:
            width, height = parse_size(args.size)
        except ValueError as exc:
            parser.error(str(exc))
        if max(width, height) > MAX_SIDE:
            parser.error(f"--size {args.size} is too large (at most {MAX_SIDE} pixels a side)")
    return args


#: The largest picture --size draws (each side, pixels): a 8K screen, not gigabytes of pixels.
MAX_SIDE = 8192


def _read(path: str) -> str:
    """The text of `path` (- is standard input), bounded; a FIFO or a device is refused, not waited on."""
    if path == "-":
        data = sys.stdin.buffer.read(RECORD_LIMIT + 1)
        if len(data) > RECORD_LIMIT:
            raise UnsafeFile(path, f"more than the {RECORD_LIMIT} bytes read here", errno.EFBIG)
        return check_lines(data.decode("utf-8-sig"), RECORD_LINE_LIMIT)
    return read_text(path, RECORD_LIMIT, line_limit=RECORD_LINE_LIMIT)


def _clip(message: str, most: int = 300) -> str:
    """A message quoting a damaged record's text, cut to one readable line."""
    message = " ".join(message.split())
    return message if len(message) <= most else message[: most - 3] + "..."


def load(path: str) -> tuple[Record, str] | None:
    """The record in `path` (- is standard input) and its text; None after saying why it cannot be read."""
    try:
        text = _read(path)
    except UnsafeFile as exc:
        print(f"labyrinth-replay: cannot read {path}: {exc.reason}", file=sys.stderr)
        return None
    except OSError as exc:
        print(f"labyrinth-replay: cannot read {path}: {exc.strerror or exc}", file=sys.stderr)
        return None
    except UnicodeDecodeError as exc:
        print(f"labyrinth-replay: {path} is not a text record (not UTF-8 at byte {exc.start})", file=sys.stderr)
        return None
    except ValueError as exc:
        print(f"labyrinth-replay: {path}: {exc}", file=sys.stderr)
        return None
    try:
        return read_record(text), text
    except RecordError as exc:
        print(f"labyrinth-replay: {path}: {_clip(str(exc))}", file=sys.stderr)
    except (ValueError, RecursionError, TypeError, KeyError) as exc:  # what a damaged tag makes a decoder raise
        print(
            f"labyrinth-replay: {path}: not a usable record ({type(exc).__name__}: {str(exc)[:120]})", file=sys.stderr
        )
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """``labyrinth-replay``: its exit status (0, 1 no display, 2 a record or argument it cannot use)."""
    from kiosk.cli import output_guarded

    return output_guarded(lambda: _main(argv), "labyrinth-replay")


def _main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    loaded = load(args.file)
    if loaded is None:
        return 2  # one message said why; nothing was shown
    record, text = loaded
    if args.analyze:
        return analyze_command(record, args)
    if args.display is not None:
        return display_command(record, text, args)
    start = record.start()
    states = [start] + [state for _, state in record.replay()]
    lines = turn_lines(text)
    print(header_text(record))
    if args.turn is not None:
        first = record.turns[0].number if record.turns else 1
        k = args.turn - first + 1
        if not 0 <= k < len(states):
            print(
                f"labyrinth-replay: turn {args.turn} is not in the record (turns {first}-"
                f"{first + len(record.turns) - 1})",
                file=sys.stderr,
            )
            return 2
        print(position_text(record, states, lines, k))
        return 0
    if args.all or not (sys.stdin.isatty() and sys.stdout.isatty()):
        for k in range(len(states)):
            print(position_text(record, states, lines, k))
        return 0
    step(record, states, lines)
    return 0


def display_command(record: Record, text: str, args) -> int:
    """The record on the kiosk's own screens (kiosk/ui/replay.py)."""
    from kiosk import games

    try:
        kind = games.get(record.kind)
    except KeyError:
        print(f"labyrinth-replay: {args.file}: this kiosk has no {record.kind!r} game", file=sys.stderr)
        return 2
    if not kind.replay_screen:
        print(f"labyrinth-replay: the {record.kind} game has no replay screen", file=sys.stderr)
        return 2
    from kiosk.ui.replay import run_replay

    args.size = args.size or "800x480"
    try:
        return run_replay(record, text, args)
    except Exception as exc:  # no display, no OpenGL (as kiosk/cli.py): one line, not a traceback
        if type(exc).__name__ not in ("NoSuchDisplayException", "NoSuchConfigException"):
            raise
        print(f"labyrinth-replay: cannot open the {args.display} display: {exc}", file=sys.stderr)
        return 1


def analyze_command(record: Record, args) -> int:
    from engine.records.analysis import analyze, strongest_level

    level = args.level or strongest_level()
    try:
        marks = analyze(record, level=level)
    except ValueError as exc:
        print(f"labyrinth-replay: {exc}", file=sys.stderr)
        return 2
    if args.json:
        json.dump(
            {
                "tags": {k: v for k, v in record.tags.items() if k != "Start"},
                "level": level,
                "turns": len(record.turns),
                "marks": [m.to_json() for m in marks],
            },
            sys.stdout,
            indent=1,
        )
        print()
        return 0
    print(header_text(record))
    print(f"analysis by {level}: {len(marks)} marks in {len(record.turns)} turns")
    for m in marks:
        print(f"  turn {m.turn:>3} {m.kind:<19} {m.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
