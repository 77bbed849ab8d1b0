"""labyrinth-replay: step through a game record in the terminal, or analyse it.

    labyrinth-replay game.txt                 # step with Enter (b back, a number jumps, q quits)
    labyrinth-replay game.txt --turn 12       # the position after turn 12
    labyrinth-replay game.txt --all           # every position, one after another
    labyrinth-replay game.txt --analyze [--json]
    labyrinth-replay --display window game.txt          # the kiosk's own art: taps and arrow keys step
    labyrinth-replay --display offscreen --size 800x480 --screenshot-dir shots/ game.txt

Records are the notation of docs/notation.md (written by labyrinth-sim
--records, for example). A record with an illegal or damaged turn is refused
with the turn named. Each game draws its positions as text (its
``GameType.text_board``: kiosk/games/<name>/text_board.py) and analyses its
own records (``GameType.analyze``).
With ``--display`` the record is shown by the kiosk's own screens (kiosk/ui/screens/playback.py);
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

from engine.records import Record, RecordError, lines_by_turn, read_record
from kiosk import games
from kiosk.store.safeio import RECORD_LIMIT, RECORD_LINE_LIMIT, UnsafeFile, check_lines, read_text


def board_text(record: Record, state) -> str:
    """A position as text, drawn by its game (``GameType.text_board``); a game without one shows its save."""
    kind = games.get(record.kind)
    if kind.text_board is not None:
        return kind.text_board(state)
    return json.dumps(state.to_dict(), sort_keys=True)


# ----------------------------------------------------------------- the command


def header_text(record: Record) -> str:
    return "\n".join(f"{k}: {v}" for k, v in record.tags.items() if k != "Start")


def position_text(record: Record, states: list, lines: dict[int, str], k: int) -> str:
    """Position k: 0 is the start, k >= 1 the position after the k-th turn of the record."""
    if k == 0:
        title = "start"
    else:
        turn = record.turns[k - 1]
        title = f"after {lines.get(turn.number, f'turn {turn.number}')}"
    return f"--- {title} ({k}/{len(states) - 1})\n{board_text(record, states[k])}"


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
        from kiosk.ui.kit.layout import parse_size

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
    from kiosk.tools.cli import output_guarded

    return output_guarded(lambda: _main(argv), "labyrinth-replay")


def _main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    games.all_games()  # a plug-in game's record notation registers when its game is loaded
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
    lines = lines_by_turn(text)
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
    """The record on the kiosk's own screens (kiosk/ui/screens/playback.py)."""
    try:
        kind = games.get(record.kind)
    except KeyError:
        print(f"labyrinth-replay: {args.file}: this kiosk has no {record.kind!r} game", file=sys.stderr)
        return 2
    if not kind.replay_screen:
        print(f"labyrinth-replay: the {record.kind} game has no replay screen", file=sys.stderr)
        return 2
    args.size = args.size or "800x480"
    try:
        return run_replay(record, text, args)
    except Exception as exc:  # no display, no OpenGL (as kiosk/tools/cli.py): one line, not a traceback
        if type(exc).__name__ not in ("NoSuchDisplayException", "NoSuchConfigException"):
            raise
        print(f"labyrinth-replay: cannot open the {args.display} display: {exc}", file=sys.stderr)
        return 1


def run_replay(record: Record, text: str, options: argparse.Namespace) -> int:
    """Show `record` with the kiosk's art: offscreen (every position rendered, PNGs with
    ``options.screenshot_dir``) or in a window (stepped by taps and keys). Returns the exit status."""
    from kiosk.core.config import Config
    from kiosk.ui.screens.playback import Playback, ReplayKiosk, ReplaySteps, replay_screen
    from kiosk.ui.shell.runner import Offscreen, open_ui, run_window

    display = options.display
    playback = Playback(record, text, Config())
    kiosk = ReplayKiosk(playback, Config(), virtual=display == "offscreen")
    options.first_screen = replay_screen(record)
    options.sound = "off"
    ui = open_ui(kiosk, options)
    try:
        screen = ui.screen
        if not isinstance(screen, ReplaySteps):
            raise RuntimeError(f"the replay opened on {screen.name if screen else 'no screen'!r}, not a replay screen")
        if display != "offscreen":
            screen.autoplay_s = float(getattr(options, "autoplay", 0) or 0)
            return run_window(ui, kiosk)
        runner = Offscreen(ui, kiosk, getattr(options, "screenshot_dir", None))
        for k in range(playback.last + 1):
            screen.show_position(k)
            runner.settle(1.0)
            runner.frame()
            label = "start" if k == 0 else f"turn-{record.turns[k - 1].number}"
            runner.shot(label)
        if runner.dir is not None:
            print(f"labyrinth-replay: {runner.shots} screenshots in {runner.dir}")
        return 0
    finally:
        ui.close()
        if display != "offscreen":
            ui.window.close()
        playback.close()


def analyze_command(record: Record, args) -> int:
    """The game's own analysis (``GameType.analyze``): marks on the turns worth a second look."""
    kind = games.get(record.kind)
    if kind.analyze is None:
        print(f"labyrinth-replay: the {record.kind} game has no analysis", file=sys.stderr)
        return 2
    level = args.level or (kind.analysis_level() if kind.analysis_level is not None else None)
    try:
        marks = kind.analyze(record, level)
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
    print(f"analysis by {level or 'every legal turn'}: {len(marks)} marks in {len(record.turns)} turns")
    for m in marks:
        print(f"  turn {m.turn:>3} {m.kind:<19} {m.text}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
