"""Power cuts for real: the headless kiosk is killed with SIGKILL at random moments and restarted.

Each cycle starts ``labyrinth-kiosk --display none --players hard,medium,easy
--seed S --fast --state-dir DIR --events-out EVENTS`` on the same state
directory, kills it after a seeded random delay (during start-up, during a
resume, in the middle of a save, between games...) and checks:

- the save left on disk is valid JSON in the save format and loads through
  ``kiosk.store.persistence.GameStore`` with ``Game.from_dict`` (nothing set aside);
- the restarted kiosk resumes it: its first ``game_started`` event says
  ``resumed`` and shows exactly the saved board, spare, pawns, card counts,
  found treasures, whose turn, phase, forbidden arrow and turn count;
- the resumed game continues from exactly the saved state, hidden cards
  included: every shift and walk the restarted kiosk reports is replayed on
  ``Game.from_dict(saved)``, and the save the kiosk leaves when it is killed
  again is that replayed game (or one committed action further, or, after a
  win, the next new game), compared with ``to_dict()`` field by field;
- temporary files left by a kill inside a save are removed at the next start,
  and nothing is ever moved to ``corrupt/`` or ``archive/``.

The suite runs ``POWER_CUT_RUNS`` cycles (default 25, about half a minute).
For the long run quoted in docs/operations.md::

    POWER_CUT_RUNS=500 .venv/bin/python -m pytest tests/kiosk/store/test_power_cut.py -q -s

``POWER_CUT_SEED`` changes the kill delays. The summary (runs, failures,
what the kills hit) is printed; ``-s`` shows it. The kill-and-restart
machinery is shared with the card game's test in tests/support/power_cut.py; this file
holds what is the board game's own.
"""

from __future__ import annotations

import os
import time

from engine.labyrinth import Game, Move, Shift

from tests.support.power_cut import KILL_DELAY_S, KILL_SEED, PowerCutGame, Replay, orderly_restart, run_power_cuts

PLAYERS = ("hard", "medium", "easy")
GAME_SEED = 11
RUNS = int(os.environ.get("POWER_CUT_RUNS", "25"))


def check_snapshot(ev: dict, saved: Game) -> None:
    """A resumed game_started event shows exactly the saved game (all that is public)."""
    assert ev["resumed"] is True, "a save was on disk but the kiosk started a new game"
    assert ev["seed"] == saved.seed
    assert [[t["openings"], t["treasure"]] for t in ev["board"]] == saved.to_dict()["board"]
    assert [ev["spare"]["openings"], ev["spare"]["treasure"]] == saved.to_dict()["spare"]
    assert (ev["current"], ev["phase"], ev["forbidden"], ev["turns"]) == (
        saved.current,
        saved.phase,
        saved.forbidden,
        saved.turns,
    )
    assert (ev["open_cards"], ev["return_home"]) == (saved.rules.open_cards, saved.rules.return_home)
    assert len(ev["players"]) == len(saved.players)
    for info, p in zip(ev["players"], saved.players):
        assert (info["seat"], info["color"], tuple(info["position"]), info["cards_left"], info["found"]) == (
            p.seat,
            p.color,
            p.position,
            p.cards_left,
            p.found,
        ), f"player {info['index']} differs"
        assert info["kind"] == PLAYERS[info["index"]]


def legal_actions(game: Game) -> list:
    """Every action (a shift or a walk) the kiosk could commit next in `game`."""
    return game.legal_shifts() if game.phase == "shift" else game.legal_moves() if game.phase == "move" else []


def step(replay: Replay, e: dict) -> None:
    """Replay one shift, walk or game end the kiosk reported."""
    t = e["type"]
    if t == "board_shifted":
        assert replay.game is not None and e["player"] == replay.game.current
        replay.game.apply(Shift(e["insertion"], e["rotation"]))
        assert [e["pushed_out"]["openings"], e["pushed_out"]["treasure"]] == replay.game.to_dict()["spare"]
        replay.actions += 1
    elif t == "pawn_moved":
        assert replay.game is not None and e["player"] == replay.game.current
        assert tuple(e["path"][0]) == replay.game.player.position
        replay.game.apply(Move(tuple(e["path"][-1])))
        replay.actions += 1
    elif t == "game_over":
        assert replay.game.phase == "over" and list(e["winners"]) == list(replay.game.winners)
        replay.finished += 1


BOARD = PowerCutGame(
    name="labyrinth",
    cls=Game,
    players=PLAYERS,
    game_seed=GAME_SEED,
    started_event="game_started",
    check_snapshot=check_snapshot,
    legal_actions=legal_actions,
    step=step,
    new_game=lambda seed, _event: Game.new(players=len(PLAYERS), seed=seed),
)


def test_sigkill_at_random_moments_never_loses_or_spoils_the_game(tmp_path, capsys):
    started = time.monotonic()
    tally, state, work, config = run_power_cuts(BOARD, RUNS, tmp_path, "power-cut")

    records: list = []
    try:
        records = orderly_restart(BOARD, state, work, config)
    except AssertionError as e:
        tally.failures.append(f"orderly restart: {e}")

    with capsys.disabled():
        print(
            f"\npower cut: {tally.runs} runs (SIGKILL in start-up or {KILL_DELAY_S[0]}-{KILL_DELAY_S[1]} s "
            f"after the game was announced, "
            f"kill seed {KILL_SEED}), {len(tally.failures)} failures, "
            f"{time.monotonic() - started:.0f} s; {len(records)} games in the history"
        )
        for what, n in sorted(tally.seen.items()):
            print(f"  {what}: {n}")
        for f in tally.failures[:20]:
            print(f"  FAILED {f}")
    assert not tally.failures, f"{len(tally.failures)} failures in {tally.runs} runs:\n" + "\n".join(
        tally.failures[:10]
    )
