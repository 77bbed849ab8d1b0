"""``labyrinth-kiosk``: the kiosk's command line (docs/headless.md has examples).

    labyrinth-kiosk                        # the kiosk as configured (/etc/labyrinth-kiosk/config.toml)
    labyrinth-kiosk --simulate             # simulated hardware: a window, or AI-vs-AI in the terminal
    labyrinth-kiosk --display none --players human,hard --seed 3 --script inputs.txt \\
                    --events-out events.jsonl --games 1 --fast --state-dir /tmp/state
    labyrinth-kiosk --display none --game cards --players hard,easy,random --seed 7 --games 2 --fast
    labyrinth-kiosk --check-config         # validate the config file and exit (0 ok, 2 bad)
    labyrinth-kiosk --stats                # summary of the finished games
    labyrinth-kiosk --stats --state-dir DIR --export games.csv   # ... and every game for a spreadsheet

Exit status: 0 normal end, 1 failure at run time, 2 bad configuration or
command line (the systemd unit does not restart on 2).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from pathlib import Path
from typing import Sequence

log = logging.getLogger("kiosk")

DISPLAYS = ("auto", "window", "fullscreen", "offscreen", "none")


def build_parser() -> argparse.ArgumentParser:
    from . import games
    kinds = "; ".join(f"{g.name}: {', '.join(g.seat_kinds)}" for g in games.all_games())
    lines = "; ".join(f"{g.name}: {g.script.usage}" for g in games.all_games() if g.script is not None)
    p = argparse.ArgumentParser(
        prog="labyrinth-kiosk",
        description="The sliding-maze game kiosk: touchscreen, arcade buttons, LED ring.",
        epilog="Headless runs and scripts: docs/headless.md. Bus events: docs/events.md.")
    from .version import version_action
    version_action(p)
    p.add_argument("--config", metavar="PATH", help="configuration file (default /etc/labyrinth-kiosk/config.toml)")
    p.add_argument("--check-config", action="store_true", help="validate the configuration and exit")
    p.add_argument("--stats", action="store_true",
                   help="print the summary of finished games and exit (the history in the state directory: "
                        "[paths] state_dir of --config, or --state-dir)")
    p.add_argument("--export", metavar="FILE",
                   help="with --stats: also write every finished game to FILE.csv (a spreadsheet) or FILE.json")
    p.add_argument("--display", choices=DISPLAYS,
                   help="window, fullscreen, offscreen (no screen, for screenshots), none (headless), "
                        "auto (full screen where a display exists)")
    p.add_argument("--size", metavar="WxH", help="window or offscreen size, e.g. 1280x800")
    p.add_argument("--gl", choices=("auto", "gl", "gles"), help="OpenGL API (gles on a Pi)")
    p.add_argument("--layout", choices=("tabletop", "upright"), help="screen layout")
    p.add_argument("--language", help="language of the texts (en, de, fr, it, nl, es, pt, et)")
    p.add_argument("--game", choices=games.names(),
                   help="which game: " + ", ".join(f"{g.name} ({g.title}, {g.players[0]}-{g.players[1]} players)"
                                                   for g in games.all_games())
                        + "; default: [game] game of the config")
    p.add_argument("--players", metavar="KINDS", help=f"seats as a comma-separated list of ({kinds})")
    p.add_argument("--seed", type=int, help="seed of the first game (game k of a run uses seed+k)")
    p.add_argument("--first", type=int, metavar="N",
                   help="index of the player who starts (default: [game] first_player; random in a "
                        "display mode, 0 in a headless run, so that scripts replay)")
    p.add_argument("--turn-limit", type=int, metavar="N",
                   help="end each game after N turns, most treasures / cards wins (default: [game] turn_limit)")
    p.add_argument("--open-cards", action="store_true", help="variant: all own cards visible")
    p.add_argument("--no-return-home", action="store_true", help="variant: win on the last card")
    p.add_argument("--script", metavar="FILE",
                   help=f"a file of inputs, one per line (button NAME, wait MS; {lines})")
    p.add_argument("--events-out", metavar="FILE", help="write every bus message as one JSON line")
    p.add_argument("--games", type=int, metavar="N", help="stop after N finished games (default: run on)")
    p.add_argument("--fast", action="store_true", help="no pacing for human eyes; virtual clock")
    p.add_argument("--state-dir", metavar="DIR",
                   help="where the current game is saved after every action and the history kept "
                        "(overrides [paths] state_dir; --stats reads the history there)")
    p.add_argument("--screenshot-dir", metavar="DIR", help="offscreen: a PNG after each scripted input")
    p.add_argument("--layout-report", metavar="FILE.json",
                   help="walk every screen and state offscreen (all sizes, layouts, languages, or those given "
                        "with --size, --layout, --language), write every text and touch target with its box, "
                        "list what breaks the layout rules, and exit")
    p.add_argument("--simulate", action="store_true",
                   help="simulated hardware (mock pins, virtual ring): a window if there is a display, "
                        "else AI-vs-AI games with a readable log")
    p.add_argument("--log-level", choices=("debug", "info", "warning", "error"), help="log detail on stderr")
    return p


def _has_display() -> bool:
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _layout_report(args) -> int:
    """--layout-report: the layout audit (kiosk/ui/layout_audit.py) as a JSON file and a summary."""
    import json

    from .ui import layout_audit
    from .ui.i18n import LANGUAGES
    from .ui.layout import SIZES, parse_size
    sizes = [parse_size(args.size)] if args.size else list(SIZES)
    layouts = [args.layout] if args.layout else list(layout_audit.LAYOUTS)
    if args.language and args.language not in LANGUAGES:
        print(f"language {args.language!r}: use one of {', '.join(LANGUAGES)}", file=sys.stderr)
        return 2
    languages = [args.language] if args.language else list(LANGUAGES)
    try:
        report = layout_audit.walk(sizes, layouts, languages)
    except Exception as e:        # no offscreen OpenGL here, most likely
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    from . import logs
    logs.setup((args.log_level or "info").upper())

    from .config import ConfigError, apply_overrides, check_config, load
    if args.check_config:
        return check_config(args.config)
    try:
        config = load(args.config)
        overrides = {"display.size": args.size, "display.gl": args.gl, "display.layout": args.layout,
                     "game.seats": args.players, "game.language": args.language,
                     "paths.state_dir": Path(args.state_dir) if args.state_dir else None}
        config = apply_overrides(config, overrides)
    except ConfigError as e:
        print(f"configuration error: {e}", file=sys.stderr)
        return 2
    if args.log_level is None:
        logging.getLogger().setLevel(config.kiosk.log_level.upper())
    if args.export and not args.stats:
        parser.error("--export goes with --stats (labyrinth-kiosk --stats --export FILE.csv)")
    if args.stats:
        from .history import print_stats
        status = print_stats(config.paths.state_dir)
        if args.export:
            from .stats_export import ExportError, export
            try:
                games, _ = export(config.paths.state_dir, args.export)
            except ExportError as e:
                print(f"error: {e}", file=sys.stderr)
                return 2
            print(f"Exported {games} game(s) to {args.export}")
        return status
    if args.layout_report:
        return _layout_report(args)
    if args.games is not None and args.games < 1:
        parser.error("--games must be 1 or more")
    from .version import version
    log.info("labyrinth-kiosk %s starting (Python %s)", version(), sys.version.split()[0])

    display = args.display
    if display is None:
        display = ("window" if _has_display() else "none") if args.simulate else config.display.mode
    if display == "auto":
        if _has_display():
            display = "fullscreen"
        else:
            log.warning("no display ($DISPLAY / $WAYLAND_DISPLAY unset): running headless")
            display = "none"
    args.display = display
    if display in ("window", "fullscreen") and (args.script or args.screenshot_dir):
        log.warning("--script and --screenshot-dir drive the offscreen and headless modes only; "
                    "a %s run ignores them (use --display offscreen)", display)
    try:
        return _run(args, config, display)
    except KeyboardInterrupt:
        return 130


def _run(args: argparse.Namespace, config, display: str) -> int:
    from .app import Kiosk, KioskOptions
    from . import games
    from .events import GameSetup, Quit, SeatSetup
    from .script import ScriptError, wrong_game
    from .script import load as load_script

    headless = display == "none"
    kind = games.get(args.game or config.game.game)
    game = kind.name
    steps = None
    if args.script:
        try:
            steps = load_script(args.script, pixels=not headless)
            for step in steps:
                why = wrong_game(step.verb, game)
                if why:
                    raise ScriptError(f"{step.source} line {step.line}: {step.text!r}: {why}")
        except ScriptError as e:
            print(f"script error: {e}", file=sys.stderr)
            return 2

    kinds = list(config.game.seats)
    simulated_demo = args.simulate and headless and not args.players and not args.script
    if simulated_demo:
        kinds = [k if k != "human" else "medium" for k in kinds]
        if len(kinds) < 2:
            kinds = ["medium", "hard"]
    if not args.players:
        # [game] seats may name another game's computer (cards has no "medium": its "easy")
        kinds = [kind.seat_kind(k) for k in kinds]
        kinds += [next((k for k in kinds if k != "human"), kind.ai_levels[0])] * max(0, kind.players[0] - len(kinds))
    first = args.first if args.first is not None else config.game.first_player
    turn_limit = args.turn_limit if args.turn_limit is not None else config.game.turn_limit
    # the config's variants apply to the games that have them; asked for on the command line, to any
    open_cards = args.open_cards or ("open_cards" in kind.variants and config.game.open_cards)
    return_home = not args.no_return_home and ("return_home" not in kind.variants or config.game.return_home)
    try:
        setup = GameSetup(seats=tuple(SeatSetup(k) for k in kinds), seed=args.seed, first=first or 0,
                          open_cards=open_cards, return_home=return_home, game=game, turn_limit=turn_limit)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2

    events_out = None
    if args.events_out:
        try:
            events_out = open(args.events_out, "w", encoding="utf-8", buffering=1)
        except OSError as e:
            print(f"cannot write the events file {args.events_out}: {e.strerror or e}", file=sys.stderr)
            return 2

    if headless:
        state_dir = Path(args.state_dir) if args.state_dir else None
        options = KioskOptions(fast=args.fast, mock_pins=True, ring="virtual", state_dir=state_dir,
                               setup=setup, auto_play=True, games=args.games,
                               persist_ai_games=True, record_ai_games=True, show_ai_games_on_ring=True,
                               events_out=events_out)
        clock = None
    else:
        # A scripted run is a reproducible check: like a headless run it neither resumes
        # nor overwrites the kiosk's own saved game unless --state-dir names a folder.
        if args.state_dir:
            state_dir = Path(args.state_dir)
        else:
            state_dir = None if args.script else config.paths.state_dir
        options = KioskOptions(fast=args.fast, mock_pins=args.simulate or config.buttons.pin_factory == "mock",
                               ring="virtual" if args.simulate else None,
                               state_dir=state_dir, setup=setup,
                               start_game=bool(args.players), auto_play=False, games=args.games,
                               events_out=events_out, random_first=first is None)
        # Offscreen runs step a virtual clock one frame at a time (see kiosk.ui.runner).
        from .clock import VirtualClock
        clock = VirtualClock() if display == "offscreen" else None
        try:
            from . import ui
        except ImportError as e:
            print(f"the {display} display needs the pyglet UI (kiosk.ui), which cannot be loaded: {e}. "
                  "Use --display none for a headless run.", file=sys.stderr)
            return 1

    try:
        kiosk = Kiosk(config, options, clock=clock)
    except ValueError as e:      # e.g. a pin the pin library refuses
        print(f"error: {e}", file=sys.stderr)
        return 2

    def on_signal(signum, frame) -> None:
        kiosk.bus.post(Quit(signal.Signals(signum).name, 0))

    signal.signal(signal.SIGTERM, on_signal)
    try:
        if headless:
            from .headless import run
            status = run(kiosk, steps, narrate=args.simulate or args.log_level == "debug")
        else:
            kiosk.start()
            status = ui.run(kiosk, args)
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
        if events_out is not None:
            events_out.close()
    return status


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
