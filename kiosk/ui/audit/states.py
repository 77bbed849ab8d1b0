"""The screens and states the layout audit walks (kiosk/ui/audit/layout.py).

Each state brings a real kiosk there through its own commands (a new game, an
arrow pressed twice, a card laid) and then opens the screen, so what the audit
measures is what a visitor would see. Chosen to cover what grows: the most
seats and the fewest, every control a panel can show, each phase of a turn and
the results. The shell's screens are listed here; each game lists its own
(``GameType.audit``, e.g. kiosk/games/cards/screens/audit.py).
"""

from __future__ import annotations

from engine.outcome import GAME_OVER
from kiosk.games import HUMAN
from kiosk.ui.audit.layout import State, goto, setup_state


def _attract_replaying(env) -> None:
    """The attract screen replaying the day's best game (its caption says so): a short finished
    game between computers, with a person's seat as the kiosk records it, filed on the kiosk's shelf."""
    from datetime import date

    from engine.labyrinth import Game, Rules
    from engine.labyrinth.ai import make_ai
    from engine.records import Recorder
    from kiosk.ui.screens.playback import best_record_of_day

    shelf = env.kiosk.record_shelf
    if shelf is not None and best_record_of_day(shelf) is None:
        game = Game.new(players=2, seed=7, rules=Rules(turn_limit=3))
        recorder = Recorder(game, [HUMAN, "easy"], date=date.today().isoformat())
        ais = [make_ai("easy", seed=7), make_ai("easy", seed=8)]
        while game.phase != GAME_OVER:
            for action in ais[game.current].choose(game):
                game.apply(action)
                recorder.apply(action)
        shelf.finish(recorder)
    env.ui.goto("attract")


def _states() -> tuple[State, ...]:
    """The shell's own screens and each registered game's (``GameType.audit``): the attract screen,
    every game's setup, the setup's language picker, then the games' other screens."""
    from kiosk import games

    theirs = [st for game in games.all_games() if game.audit is not None for st in game.audit()]
    default = games.default()
    return (
        State("attract", "idle", "", goto("attract")),
        State("attract", "replay", "", _attract_replaying),
        *(st for st in theirs if st.screen == "setup"),
        State("setup", "language", default, setup_state(default, lambda choices: None, picker=True)),
        *(st for st in theirs if st.screen != "setup"),
    )


STATES: tuple[State, ...] = _states()
