"""The travel card game (docs/rules.md section 2), declared once for the kiosk.

Its parts: the engine (``engine.cards``), the session (session.py), its
messages (events.py), its script lines (script.py) and its screens
(``kiosk/ui``: cards_play, cards_gameover, cards_howto).
"""

from __future__ import annotations

from typing import Any

from engine.cards.ai import LEVELS
from engine.cards.parts import GAME_NAME, MAX_PLAYERS, MIN_PLAYERS

from kiosk.games import HUMAN
from engine.cards.deck import TREASURES
from kiosk.games import GameType, ScriptWords, SessionOptions, register_game
from kiosk.games.cards import script


def _load(data: Any):
    from engine.cards import CardGame

    return CardGame.from_dict(data)


def _new(players: int, seed: int | None, turn_limit: int):
    from engine.cards import CardGame, CardRules

    return CardGame.new(players=players, seed=seed, rules=CardRules(turn_limit=turn_limit))


def _session(opts: SessionOptions):
    from kiosk.games.cards.session import CardPacing, CardSession

    pacing = CardPacing.fast() if opts.fast else CardPacing().scaled(opts.pace)
    return CardSession(
        opts.bus, opts.clock, save=opts.save, executor=opts.executor, pacing=pacing, button_test=opts.button_test
    )


def _screens() -> dict[str, type]:
    from kiosk.games.cards.screens.gameover import CardsGameOverScreen
    from kiosk.games.cards.screens.howto import CardsHowToScreen
    from kiosk.games.cards.screens.play import CardsPlayScreen
    from kiosk.games.cards.screens.replay import CardsReplayScreen

    return {
        "cards_play": CardsPlayScreen,
        "cards_gameover": CardsGameOverScreen,
        "cards_howto": CardsHowToScreen,
        "cards_replay": CardsReplayScreen,
    }


def _sounds():
    from kiosk.games.cards.cues import sounds

    return sounds()


def _sim():
    from kiosk.games.cards.simulation import CardsRunner

    return CardsRunner()


def _text_board(state: Any) -> str:
    from kiosk.games.cards.text_board import card_layout

    return card_layout(state)


def _analyze(record: Any, level: str | None):
    from engine.cards.analysis import analyze

    return analyze(record, level)


def _audit():
    from kiosk.games.cards.screens.audit import states

    return states()


def _setup_panel() -> type:
    from kiosk.games.cards.screens.setup_panel import CardSetup

    return CardSetup


GAME = register_game(
    GameType(
        name=GAME_NAME,
        title="the travel card game",
        title_key="setup.card_game",
        order=1,
        players=(MIN_PLAYERS, MAX_PLAYERS),
        ai_levels=tuple(LEVELS),
        load=_load,
        new=_new,
        session=_session,
        events="kiosk.games.cards.events",
        default_seats=(HUMAN, "easy"),
        # a config's seats are often the board game's: its "medium" computer is the card game's "easy"
        ai_aliases={"medium": "easy"},
        script=ScriptWords(script.CARD_VERBS, script.USAGE, script.parse_card_words, script.play, script.lines),
        screens=_screens,
        setup_panel=_setup_panel,
        play_screen="cards_play",
        replay_screen="cards_replay",
        over_screen="cards_gameover",
        howto_screen="cards_howto",
        sounds=_sounds,
        sim=_sim,
        audit=_audit,
        theme_kinds={"cards": tuple(TREASURES)},
        theme_texts={"cards": "cards.treasure."},
        text_board=_text_board,
        analyze=_analyze,
    )
)
