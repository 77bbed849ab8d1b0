"""``labyrinth-kiosk``: the kiosk's command line (docs/headless.md has examples).

    labyrinth-kiosk                        # the kiosk as configured (/etc/labyrinth-kiosk/config.toml)
    labyrinth-kiosk --simulate             # simulated hardware: a window, or AI-vs-AI in the terminal
    labyrinth-kiosk --display none --players human,hard --seed 3 --script inputs.txt \\
                    --events-out events.jsonl --games 1 --fast --state-dir /tmp/state
    labyrinth-kiosk --display none --game cards --players hard,easy,random --seed 7 --games 2 --fast
    labyrinth-kiosk --check-config         # validate the config file and exit (0 ok, 2 bad)
    labyrinth-kiosk --stats                # summary of the finished games
    labyrinth-kiosk --stats --state-dir DIR --export games.csv   # ... and every game for a spreadsheet
    labyrinth-kiosk --install-theme museum.zip   # check a theme pack and install it (docs/themes.md)

Exit status: 0 normal end, 1 failure at run time, 2 bad configuration or
command line (the systemd unit does not restart on 2).
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import signal
import sys
from pathlib import Path
from types import ModuleType
from typing import IO, TYPE_CHECKING, Any, Callable, Mapping, Sequence

from kiosk import games
from kiosk.errors import KioskError
from kiosk.games import HUMAN

if TYPE_CHECKING:  # the rest is imported when used: the kiosk's start-up counts
    from kiosk.core.kiosk import Kiosk, KioskOptions
    from kiosk.core.config import Config
    from kiosk.core.events import GameSetup
    from kiosk.games import GameType
    from kiosk.core.script import Step

log = logging.getLogger("kiosk")

DISPLAYS = ("auto", "window", "fullscreen", "offscreen", "none")


def build_parser() -> argparse.ArgumentParser:
    from kiosk.core.config import LANGUAGES

    kinds = "; ".join(f"{g.name}: {', '.join(g.seat_kinds)}" for g in games.all_games())
    lines = "; ".join(f"{g.name}: {g.script.usage}" for g in games.all_games() if g.script is not None)
    p = argparse.ArgumentParser(
        prog="labyrinth-kiosk",
        description="The sliding-maze game kiosk: touchscreen, arcade buttons, LED ring.",
        epilog="Headless runs and scripts: docs/headless.md. Bus events: docs/events.md.",
    )
    from kiosk.version import version_action

    version_action(p)
    p.add_argument("--config", metavar="PATH", help="configuration file (default /etc/labyrinth-kiosk/config.toml)")
    p.add_argument("--check-config", action="store_true", help="validate the configuration and exit")
    p.add_argument(
        "--stats",
        action="store_true",
        help="print the summary of finished games and exit (the history in the state directory: "
        "[paths] state_dir of --config, or --state-dir)",
    )
    p.add_argument(
        "--export",
        metavar="FILE",
        help="with --stats: also write every finished game to FILE.csv (a spreadsheet) or FILE.json",
    )
    p.add_argument(
        "--install-theme",
        metavar="PATH",
        help="check the theme pack PATH (a folder or a .zip; docs/themes.md) and install it into the "
        "state directory, or name every problem and exit 2; then list the installed themes",
    )
    p.add_argument(
        "--theme",
        metavar="ID",
        help='the treasures\' pictures and names: "builtin" or an installed theme (default: [display] theme)',
    )
    p.add_argument(
        "--display",
        choices=DISPLAYS,
        help="window, fullscreen, offscreen (no screen, for screenshots), none (headless), "
        "auto (full screen where a display exists)",
    )
    p.add_argument("--size", metavar="WxH", help="window or offscreen size, e.g. 1280x800")
    p.add_argument("--gl", choices=("auto", "gl", "gles"), help="OpenGL API (gles on a Pi)")
    p.add_argument("--layout", choices=("tabletop", "upright"), help="screen layout")
    p.add_argument("--language", help=f"language of the texts ({', '.join(LANGUAGES)})")
    p.add_argument(
        "--game",
        choices=games.names(),
        help="which game: "
        + ", ".join(f"{g.name} ({g.title}, {g.players[0]}-{g.players[1]} players)" for g in games.all_games())
        + "; default: [game] game of the config",
    )
    p.add_argument("--players", metavar="KINDS", help=f"seats as a comma-separated list of ({kinds})")
    p.add_argument("--seed", type=int, help="seed of the first game (game k of a run uses seed+k)")
    p.add_argument(
        "--first",
        type=int,
        metavar="N",
        help="index of the player who starts (default: [game] first_player; random in a "
        "display mode, 0 in a headless run, so that scripts replay)",
    )
    p.add_argument(
        "--turn-limit",
        type=int,
        metavar="N",
        help="end each game after N turns, most treasures / cards wins (default: [game] turn_limit)",
    )
    add_variant_options(p)
    p.add_argument("--script", metavar="FILE", help=f"a file of inputs, one per line (button NAME, wait MS; {lines})")
    p.add_argument("--events-out", metavar="FILE", help="write every bus message as one JSON line")
    p.add_argument("--games", type=int, metavar="N", help="stop after N finished games (default: run on)")
    p.add_argument("--fast", action="store_true", help="no pacing for human eyes; virtual clock")
    p.add_argument(
        "--state-dir",
        metavar="DIR",
        help="where the current game is saved after every action and the history kept "
        "(overrides [paths] state_dir; --stats reads the history there)",
    )
    p.add_argument(
        "--no-save-if-busy",
        action="store_true",
        help="when another kiosk holds the state directory, run without saving anything "
        "(default: name the process that holds it and exit 2)",
    )
    p.add_argument("--screenshot-dir", metavar="DIR", help="offscreen: a PNG after each scripted input")
    p.add_argument(
        "--layout-report",
        metavar="FILE.json",
        help="walk every screen and state offscreen (all sizes, layouts, languages, or those given "
        "with --size, --layout, --language), write every text and touch target with its box, "
        "list what breaks the layout rules, and exit",
    )
    p.add_argument(
        "--simulate",
        action="store_true",
        help="simulated hardware (mock pins, virtual ring): a window if there is a display, "
        "else AI-vs-AI games with a readable log",
    )
    p.add_argument(
        "--sound",
        choices=("auto", "on", "off"),
        help="sound cues: auto = as [sound] says with a screen, off offscreen and headless",
    )
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"), help="log detail on stderr")
    p.add_argument(
        "--exit-status-file",
        metavar="FILE",
        help="write the exit status to FILE on the way out (the unit reads it: cage hides it)",
    )
    return p


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _layout_report(args) -> int:
    """--layout-report: the layout audit (kiosk/ui/audit/layout.py) as a JSON file and a summary."""
    import json

    from kiosk.ui.audit import layout as layout_audit, states as audit_states
    from kiosk.ui.kit.i18n import LANGUAGES
    from kiosk.ui.kit.layout import SIZES, parse_size

    sizes = [parse_size(args.size)] if args.size else list(SIZES)
    layouts = [args.layout] if args.layout else list(layout_audit.LAYOUTS)
    if args.language and args.language not in LANGUAGES:
        print(f"language {args.language!r}: use one of {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    languages = [args.language] if args.language else list(LANGUAGES)
    try:
        report = layout_audit.walk(sizes, layouts, languages, states=audit_states.STATES)
    except Exception as e:  # no offscreen OpenGL here, most likely
        print(f"layout report: could not render offscreen: {e}", file=sys.stderr)
        return 2
    out = Path(args.layout_report)
    out.write_text(json.dumps(layout_audit.to_json(report), ensure_ascii=False, indent=1), encoding="utf-8")
    problems = layout_audit.problems_of(report)
    items = sum(len(e["items"]) for e in report["entries"])
    print(f"{len(report['entries'])} entries, {items} items in {report['seconds']:.0f} s -> {out}")
    by_rule: dict[str, int] = {}
    for line in problems:
        rule = line.split(": ", 2)[1].split(":")[0]
        by_rule[rule] = by_rule.get(rule, 0) + 1
    for rule, n in sorted(by_rule.items()):
        print(f"  {rule}: {n}")
    for line in problems[:40]:
        print("  " + line)
    if len(problems) > 40:
        print(f"  ... and {len(problems) - 40} more (all boxes are in {out})")
    return 0


#: Output errors that end a command-line tool quietly: its reader went away or the disk is full.
_OUTPUT_GONE = (errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT)


def output_guarded(run: Callable[[], int], prog: str) -> int:
    """`run()`'s exit status, or 1 when standard output fails: a closed pipe (``| head``) ends
    quietly, a full disk with one line on stderr, never a traceback; the output is flushed here so
    that Python's own flush at exit cannot fail afterwards."""
    try:
        status = run()
        if sys.stdout is not None:  # None: started with standard output closed (``>&-``)
            sys.stdout.flush()
        return status
    except OSError as e:
        if e.errno not in _OUTPUT_GONE:
            raise
        try:  # what is still buffered goes nowhere, and the final flush at exit succeeds
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            os.close(devnull)
        except (OSError, ValueError):
            pass
        if e.errno != errno.EPIPE:
            print(f"{prog}: cannot write the output: {e.strerror or e}", file=sys.stderr)
        return 1


def main(argv: Sequence[str] | None = None) -> int:
    """``labyrinth-kiosk``: its exit status (docs/headless.md)."""
    standard_fds_opened()
    return output_guarded(lambda: _command(argv), "labyrinth-kiosk")


def standard_fds_opened() -> None:
    """Put /dev/null where standard input, output or error is closed (``>&-``): else the next file
    opened (the state lock, a save) takes its number, and whatever writes to standard output
    writes into it."""
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, os.O_RDWR)  # the lowest free number: this one
            if null != fd:
                os.dup2(null, fd)
                os.close(null)


def _command(argv: Sequence[str] | None = None) -> int:
    """The command, and its exit status written where ``--exit-status-file`` says."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.exit_status_file:
        return _main(parser, args)
    status: int | str | None = 1  # an exception on the way out is a failure
    try:
        status = _main(parser, args)
    except SystemExit as e:
        status = e.code
        raise
    finally:
        _write_exit_status(args.exit_status_file, status)
    return status


def _write_exit_status(path: str, status: int | str | None) -> None:
    """--exit-status-file: the status this process exits with, for the unit to exit with in turn.
    cage 0.1.4 always exits 0 whatever its client did, so systemd would never see a failure or the
    no-restart status 2 of a kiosk running inside it (systemd/labyrinth-kiosk.service reads it)."""
    code = status if isinstance(status, int) else (0 if status is None else 1)
    try:
        with open(_output_fd(path), "w", encoding="ascii") as f:
            f.write(f"{code}\n")
    except OSError as e:
        print(f"error: cannot write the exit status to {path}: {_why(e)}", file=sys.stderr)


def _output_fd(path: str) -> int:
    """A file the kiosk writes its output to, opened for writing without blocking: a FIFO nobody
    reads refuses at once (ENXIO) instead of waiting for ever; writes then block as usual."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
    os.set_blocking(fd, True)
    return fd


def _why(e: OSError) -> str:
    return "a FIFO that nobody reads" if e.errno == errno.ENXIO else str(e.strerror or e)


def _main(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    from kiosk.core import logs

    logs.setup((args.log_level or "info").upper())

    from kiosk.core.config import ConfigError, apply_overrides, check_config, load

    if args.check_config:
        return check_config(args.config)
    try:
        config = load(args.config)
        overrides = {
            "display.size": args.size,
            "display.gl": args.gl,
            "display.layout": args.layout,
            "game.game": args.game,
            "game.seats": args.players,
            "game.language": args.language,
            "paths.state_dir": Path(args.state_dir) if args.state_dir else None,
            "display.theme": args.theme,
        }
        config = apply_overrides(config, overrides)
    except ConfigError as e:
        print(f"configuration error: {e}", file=sys.stderr)
        return 2
    if args.log_level is None:
        logging.getLogger().setLevel(config.kiosk.log_level.upper())
    if args.export and not args.stats:
        parser.error("--export goes with --stats (labyrinth-kiosk --stats --export FILE.csv)")
    if args.stats:
        return _stats(config.paths.state_dir, args.export)
    if args.install_theme:
        return _install_theme(args.install_theme, config.paths.state_dir, config.game.language)
    if args.layout_report:
        return _layout_report(args)
    _check_numbers(parser, args)
    from kiosk.version import version

    log.info("labyrinth-kiosk %s starting (Python %s)", version(), sys.version.split()[0])

    display = _display(args, config)
    args.display = display
    if display in ("window", "fullscreen") and not _has_display():
        print(
            f"error: the {display} display needs a display server ($DISPLAY or $WAYLAND_DISPLAY is "
            'not set); use --display none for a headless run, or [display] mode = "auto"',
            file=sys.stderr,
        )
        return 2
    if display in ("window", "fullscreen") and (args.script or args.screenshot_dir):
        log.warning(
            "--script and --screenshot-dir drive the offscreen and headless modes only; "
            "a %s run ignores them (use --display offscreen)",
            display,
        )
    try:
        return _run(args, config, display)
    except KeyboardInterrupt:
        return 130


def _check_numbers(parser: argparse.ArgumentParser, args: argparse.Namespace) -> None:
    """The command line's numbers in the ranges a game and its save take (else usage and exit 2)."""
    from engine.checks import SEED_LIMIT, TURNS_LIMIT

    if args.games is not None and args.games < 1:
        parser.error("--games must be 1 or more")
    if args.seed is not None and not 0 <= args.seed < SEED_LIMIT // 1024:
        parser.error(f"--seed must be 0 to {SEED_LIMIT // 1024 - 1}")
    if args.turn_limit is not None and not 0 <= args.turn_limit <= TURNS_LIMIT:
        parser.error(f"--turn-limit must be 0 to {TURNS_LIMIT}")
    if args.first is not None and not 0 <= args.first < 99:
        parser.error("--first must be a seat number (0 is the first seat)")


class _Refused(KioskError):
    """The run cannot start: the message for stderr, and the exit status."""

    def __init__(self, message: str, status: int = 2) -> None:
        super().__init__(message)
        self.status = status


def _stats(state_dir: Path, export_to: str | None) -> int:
    """``--stats``: the summary of the finished games, and with ``--export`` every game in a file."""
    from kiosk.store.history import print_stats

    status = print_stats(state_dir)
    if export_to:
        from kiosk.tools.stats_export import ExportError, export

        try:
            games, _ = export(state_dir, export_to)
        except ExportError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        print(f"Exported {games} game(s) to {export_to}")
    return status


def _install_theme(path: str, state_dir: Path, language: str) -> int:
    """``--install-theme``: check the pack completely (one line per problem, exit 2, nothing written),
    then install it beside the others and list them."""
    from kiosk.themes import installed, title_of
    from kiosk.themes.pack import install, read_pack

    problems, pack = read_pack(path)
    if pack is None:
        for line in problems:
            print(f"error: {line}", file=sys.stderr)
        print(
            f"the theme pack {path} was not installed ({len(problems)} problem(s)); nothing was changed",
            file=sys.stderr,
        )
        return 2
    try:
        target = install(pack, state_dir)
    except OSError as e:
        print(f"error: cannot install the theme into {e.filename or state_dir}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"Installed theme {pack.id!r} in {target}")
    print('Installed themes (choose one with [display] theme = "ID" or in the operator menu):')
    print("  builtin: the kiosk's own drawings")
    for theme_id in installed(state_dir):
        print(f"  {theme_id}: {title_of(state_dir, theme_id, language)}")
    return 0


def _display(args: argparse.Namespace, config: Config) -> str:
    """The display mode: ``--display``, else a window or none for ``--simulate``, else the config's;
    ``auto`` is full screen where there is a display and headless where there is none."""
    display = args.display
    if display is None:
        display = ("window" if _has_display() else "none") if args.simulate else config.display.mode
    if display == "auto":
        if _has_display():
            return "fullscreen"
        log.warning("no display ($DISPLAY / $WAYLAND_DISPLAY unset): running headless")
        return "none"
    return display


def _run(args: argparse.Namespace, config: Config, display: str) -> int:
    from kiosk.core.kiosk import Kiosk
    from kiosk.core.clock import VirtualClock
    from kiosk.store.persistence import StateDirBusy

    headless = display == "none"
    kind = games.get(args.game or config.game.game)
    try:
        steps = _script_steps(args.script, kind.name, headless)
        setup = _setup(args, config, kind, at_table=not headless)
        ui = None if headless else _ui(display)
        events_out = _events_file(args.events_out)
    except _Refused as e:
        print(e, file=sys.stderr)
        return e.status
    try:
        try:
            # Offscreen runs step a virtual clock one frame at a time (see kiosk.ui.shell.runner).
            kiosk = Kiosk(
                config,
                _options(args, config, headless, setup, events_out),
                clock=VirtualClock() if display == "offscreen" else None,
            )
        except ValueError as e:  # e.g. a pin the pin library refuses
            print(f"error: {e}", file=sys.stderr)
            return 2
        except StateDirBusy as e:
            print(f"error: {e}; stop it first, or add --no-save-if-busy to play without saving", file=sys.stderr)
            return 2
        return _play(kiosk, args, steps, ui)
    finally:
        if events_out is not None:
            try:
                events_out.close()
            except OSError:  # already said by the kiosk (Kiosk._write_event)
                pass


def _script_steps(path: str | None, game: str, headless: bool) -> list[Step] | None:
    """``--script``: its steps, each checked against the game being played."""
    from kiosk.core.script import ScriptError, clip, wrong_game
    from kiosk.core.script import load as load_script

    if not path:
        return None
    try:
        steps = load_script(path, pixels=not headless)
        for step in steps:
            why = wrong_game(step.verb, game)
            if why:
                raise ScriptError(f"{step.source} line {step.line}: {clip(step.text)!r}: {why}")
    except ScriptError as e:
        raise _Refused(f"script error: {e}") from None
    return steps


def _seat_kinds(args: argparse.Namespace, config: Config, kind: GameType) -> list[str]:
    """Who plays: ``--players``, else ``[game] seats`` in the game's own seat kinds (computers only in
    a simulated demo), filled up with computers to the game's fewest players."""
    kinds = list(config.game.seats)
    if args.simulate and args.display == "none" and not args.players and not args.script:
        kinds = [k if k != HUMAN else "medium" for k in kinds]
        if len(kinds) < 2:
            kinds = ["medium", "hard"]
    if not args.players:
        # [game] seats may name another game's computer (cards has no "medium": its "easy")
        kinds = [kind.seat_kind(k) for k in kinds]
        kinds += [next((k for k in kinds if k != HUMAN), kind.ai_levels[0])] * max(0, kind.players[0] - len(kinds))
    return kinds


def _first(args: argparse.Namespace, config: Config) -> int | None:
    """Who starts: ``--first``, else ``[game] first_player`` (None: a random seat)."""
    return args.first if args.first is not None else config.game.first_player


def _setup(args: argparse.Namespace, config: Config, kind: GameType, at_table: bool = False) -> GameSetup:
    """The game the command line and the config describe.

    `at_table` (a screen people sit around): a game whose players sit at the board's corners
    (``GameType.corner_seats``, the board game) seats its people at the near corners first, so
    solo and one person against the computer sit at the near edge, reading upright (kiosk/ui/kit/seating.py);
    headless runs keep the game's own corners, which records and scripts were written for."""
    from kiosk.core.events import GameSetup, SeatSetup

    kinds = _seat_kinds(args, config, kind)
    corners: tuple[int | None, ...] = (None,) * len(kinds)
    if at_table and kind.corner_seats and HUMAN in kinds and len(kinds) <= 4:
        from kiosk.ui.kit.seating import seats_for_kinds

        corners = seats_for_kinds(kinds)
    turn_limit = args.turn_limit if args.turn_limit is not None else config.game.turn_limit
    try:
        return GameSetup(
            seats=tuple(SeatSetup(k, c) for k, c in zip(kinds, corners)),
            seed=args.seed,
            first=_first(args, config) or 0,
            variants=chosen_variants(args, config.game.variants, kind),
            game=kind.name,
            turn_limit=turn_limit,
        )
    except ValueError as e:
        raise _Refused(f"error: {e}") from None


def add_variant_options(p: argparse.ArgumentParser) -> None:
    """An option for each variant a registered game declares (kiosk.games.variant_option)."""
    for v in games.all_variants():
        option, dest = games.variant_option(v), f"variant_{v.name}"
        what = f"variant {v.name} (default: [game] {v.key})"
        if isinstance(v.default, bool):
            p.add_argument(option, dest=dest, action="store_const", const=not v.default, default=None, help=what)
        else:
            shown = ", ".join(map(str, v.choices))
            p.add_argument(option, dest=dest, type=int, choices=v.choices, metavar="N", help=f"{what}: {shown}")


def chosen_variants(args: argparse.Namespace, configured: Mapping[str, Any], kind: games.GameType) -> dict[str, Any]:
    """The variants of a game the command line and the config ask for: the config's apply to the
    games that have them; one asked for on the command line, to any (a game without it refuses)."""
    out = {v.name: configured[v.key] for v in kind.variants if configured.get(v.key, v.default) != v.default}
    for v in games.all_variants():
        given = getattr(args, f"variant_{v.name}", None)
        if given is not None:
            out[v.name] = given
    return out


def _ui(display: str) -> ModuleType:
    """The pyglet UI (kiosk.ui) for a display mode."""
    try:
        from kiosk import ui
    except ImportError as e:
        raise _Refused(
            f"the {display} display needs the pyglet UI (kiosk.ui), which cannot be loaded: {e}. "
            "Use --display none for a headless run.",
            status=1,
        ) from None
    return ui


def _events_file(path: str | None) -> IO[str] | None:
    """``--events-out``: the file every bus message is written to, one JSON line each (line-buffered)."""
    if not path:
        return None
    try:
        fd = _output_fd(path)
    except OSError as e:
        raise _Refused(f"cannot write the events file {path}: {_why(e)}") from None
    return open(fd, "w", encoding="utf-8", buffering=1)


def _options(
    args: argparse.Namespace, config: Config, headless: bool, setup: GameSetup, events_out: IO[str] | None
) -> KioskOptions:
    from kiosk.core.kiosk import KioskOptions

    if headless:
        return KioskOptions(
            fast=args.fast,
            mock_pins=True,
            ring="virtual",
            state_dir=Path(args.state_dir) if args.state_dir else None,
            setup=setup,
            auto_play=True,
            games=args.games,
            persist_ai_games=True,
            record_ai_games=True,
            show_ai_games_on_ring=True,
            events_out=events_out,
            if_busy="unsaved" if args.no_save_if_busy else "exit",
        )
    # A scripted run is a reproducible check: like a headless run it neither resumes
    # nor overwrites the kiosk's own saved game unless --state-dir names a folder.
    if args.state_dir:
        state_dir: Path | None = Path(args.state_dir)
    else:
        state_dir = None if args.script else config.paths.state_dir
    return KioskOptions(
        fast=args.fast,
        mock_pins=args.simulate or config.buttons.pin_factory == "mock",
        ring="virtual" if args.simulate else None,
        state_dir=state_dir,
        setup=setup,
        start_game=bool(args.players),
        auto_play=False,
        games=args.games,
        events_out=events_out,
        random_first=_first(args, config) is None,
        if_busy="unsaved" if args.no_save_if_busy else "exit",
    )


def _play(kiosk: Kiosk, args: argparse.Namespace, steps: list[Step] | None, ui: ModuleType | None) -> int:
    """Run the kiosk until it stops (headless, or with the UI); its exit status."""
    from kiosk.core.events import Quit
    from kiosk.core.script import ScriptError

    def on_signal(signum, frame) -> None:
        kiosk.bus.post(Quit(signal.Signals(signum).name, 0))

    signal.signal(signal.SIGTERM, on_signal)
    try:
        if ui is None:
            from kiosk.core.headless import run

            status = run(kiosk, steps, narrate=args.simulate or args.log_level == "debug")
        else:
            kiosk.start(ready=False)  # the UI reports ready after its first frame
            try:
                status = ui.run(kiosk, args)
            except Exception as e:
                if type(e).__name__ not in ("NoSuchDisplayException", "NoSuchConfigException"):
                    raise
                # The display server is there but does not answer (yet): systemd tries again.
                print(f"error: cannot open the {args.display} display: {e}", file=sys.stderr)
                return 1
            if status is None:
                status = kiosk.exit_status
    except ScriptError as e:
        print(f"script error: {e}", file=sys.stderr)
        status = 2
    except ValueError as e:
        # a script line the kiosk cannot play (e.g. a button with no pin)
        print(f"error: {e}", file=sys.stderr)
        status = 2
    finally:
        kiosk.close()
    return status or kiosk.exit_status  # closing may fail it: finished games the disk refused are lost


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
