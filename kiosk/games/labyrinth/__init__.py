"""The sliding-maze board game (docs/rules.md section 1), declared once for the kiosk.

Its parts: the engine (``engine.Game``, ``engine.labyrinth.ai``), the session
(session.py), its messages (events.py), its script lines (script.py) and its
screens (``kiosk/ui``: play, game over, how-to).
"""

from __future__ import annotations

from typing import Any

from engine.labyrinth.ai import LEVELS
from engine.labyrinth.parts import GAME_NAME, MAX_PLAYERS, MIN_PLAYERS

from kiosk.games import HUMAN
from engine.labyrinth.tiles import TREASURES
from kiosk.games import GameType, ScriptWords, SessionOptions, Variant, register_game
from kiosk.games.labyrinth import script


def _load(data: Any):
    from engine.labyrinth import Game

    return Game.from_dict(data)


def _new(players: int, seed: int | None, turn_limit: int):
    from engine.labyrinth import Game, Rules

    return Game.new(players=players, seed=seed, rules=Rules(turn_limit=turn_limit))


def _session(opts: SessionOptions):
    from kiosk.games.labyrinth.session import Pacing, Session

    pacing = Pacing.fast() if opts.fast else Pacing().scaled(opts.pace)
    confirm = opts.config.buttons.confirm_push if opts.config is not None else True
    return Session(opts.bus, opts.clock, confirm_push=confirm, pacing=pacing, save=opts.save, executor=opts.executor)


#: An arrow button pressed again this soon after it pushed is a hand still hammering it, not an undo.
BUTTON_UNDO_AFTER_S = 1.0


def _button(session: Any, name: str):
    """An arrow button previews (and again pushes) there; rotate turns the spare; stay ends the move.
    The arrow that just pushed, pressed again before the walk, takes the push back (docs/keys.md)."""
    from kiosk.core.events import Undo
    from kiosk.games.labyrinth.events import RotateSpare, SelectArrow, Stay

    if name == "rotate":
        return RotateSpare(1, source="button")
    if name == "stay":
        return Stay(source="button")
    if takes_push_back(session, name):
        return Undo(session.game.current, source="button")
    return SelectArrow(name, source="button")


def takes_push_back(session: Any, name: str) -> bool:
    """Whether a press of arrow button `name` now takes the push back: it is the arrow the person whose
    turn it is just pushed, they have not walked yet (the push is theirs to undo), and the press is not
    the same hand still on it (BUTTON_UNDO_AFTER_S). Safe: in the move phase an arrow does nothing
    else, and the arrow that would push the row back is the one the no-push-back rule forbids."""
    g = session.game
    if g is None or g.phase != "move" or name != g.last_insertion or session.undo_player != g.current:
        return False
    pushed_at = getattr(session, "pushed_at", None)
    return pushed_at is not None and session.clock.now() - pushed_at >= BUTTON_UNDO_AFTER_S


def _button_leds(bus: Any, leds: Any):
    from kiosk.games.labyrinth.button_leds import ButtonLeds

    return ButtonLeds(bus, leds)


#: The board game's rule choices (docs/rules.md section 1): the two "younger children" variants
#: and the quick game's treasures per player (0: all, the classic deal). The history's words and
#: the [game] config keys are these; saves and records keep them in the engine's Rules.
#: The public preset deals 3 treasures each: two people finish in about 3-4 minutes (docs/ai.md,
#: "How long a game lasts"); at home the classic deal.
VARIANTS = (
    Variant("open_cards", (False, True), False, text_key="setup.open_cards", history="open_cards"),
    Variant("return_home", (True, False), True, text_key="setup.no_return_home", history="no_return_home"),
    Variant(
        "treasures", (0, 3, 5), 0, text_key="setup.treasures", history="treasures_{}", preset_defaults=(("public", 3),)
    ),
)


def _variant_values(game: Any) -> dict[str, Any]:
    rules = game.rules
    return {"open_cards": rules.open_cards, "return_home": rules.return_home, "treasures": rules.treasures}


def _screens() -> dict[str, type]:
    from kiosk.games.labyrinth.screens.gameover import GameOverScreen
    from kiosk.games.labyrinth.screens.howto import HowToScreen
    from kiosk.games.labyrinth.screens.play import PlayScreen
    from kiosk.games.labyrinth.screens.replay import BoardReplayScreen

    return {"play": PlayScreen, "gameover": GameOverScreen, "howto": HowToScreen, "labyrinth_replay": BoardReplayScreen}


def _sounds():
    from kiosk.games.labyrinth.cues import sounds

    return sounds()


def _sim():
    from kiosk.games.labyrinth.simulation import LabyrinthRunner

    return LabyrinthRunner()


def _text_board(state: Any) -> str:
    from kiosk.games.labyrinth.text_board import maze_board

    return maze_board(state)


def _analyze(record: Any, level: str | None):
    from engine.labyrinth.analysis import analyze

    return analyze(record, level=level)


def _analysis_level() -> str:
    from engine.labyrinth.analysis import strongest_level

    return strongest_level()


def _demo():
    from kiosk.games.labyrinth.demo import BoardDemo

    return BoardDemo()


def _audit():
    from kiosk.games.labyrinth.screens.audit import states

    return states()


def _setup_panel() -> type:
    from kiosk.games.labyrinth.screens.setup_panel import BoardSetup

    return BoardSetup


GAME = register_game(
    GameType(
        name=GAME_NAME,
        title="the sliding maze",
        title_key="setup.board_game",
        order=0,
        players=(MIN_PLAYERS, MAX_PLAYERS),
        ai_levels=tuple(LEVELS),
        load=_load,
        new=_new,
        session=_session,
        events="kiosk.games.labyrinth.events",
        default_seats=(HUMAN, "medium"),
        script=ScriptWords(script.VERBS, script.USAGE, script.parse_words, script.play),
        button=_button,
        button_leds=_button_leds,
        variants=VARIANTS,
        variant_values=_variant_values,
        screens=_screens,
        setup_panel=_setup_panel,
        play_screen="play",
        replay_screen="labyrinth_replay",
        over_screen="gameover",
        howto_screen="howto",
        sounds=_sounds,
        sim=_sim,
        audit=_audit,
        demo=_demo,
        corner_seats=True,
        theme_kinds={"board": tuple(TREASURES)},
        theme_texts={"board": "treasure."},
        text_board=_text_board,
        analyze=_analyze,
        analysis_level=_analysis_level,
    )
)
