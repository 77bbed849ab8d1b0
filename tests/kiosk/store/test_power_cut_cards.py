"""Power cuts during a card game: the headless kiosk (``--game cards``) is killed with SIGKILL and restarted.

The same method as tests/kiosk/store/test_power_cut.py (the kill-and-restart machinery is
shared in tests/support/power_cut.py; this file holds the card game's adapter), for
the travel card game: each cycle starts
``labyrinth-kiosk --display none --game cards --players hard,easy,random
--seed S --fast --state-dir DIR --events-out EVENTS`` on the same state
directory, kills it after a seeded random delay, and checks that

- the save on disk is valid and loads through ``GameStore`` with
  ``CardGame.from_dict`` (nothing set aside, nothing archived);
- the restarted kiosk resumes it: its first ``card_game_started`` says
  ``resumed`` and shows exactly the saved layout, turn, phase, pile, discards,
  hand sizes and scores;
- the resumed game goes on from exactly the saved state, hidden hands and the
  pile order included: every placement, take and discard the restarted kiosk
  reports is replayed on ``CardGame.from_dict(saved)``, and the save left by
  the next kill is that game (or one committed action further, or after a
  game's end the next new game);
- temporary files left by a kill inside a save are removed at the next start.

``POWER_CUT_CARD_RUNS`` cycles (default 6, a few seconds);
``POWER_CUT_SEED`` changes the kill delays.
"""

from __future__ import annotations

import os

from engine.cards import CardGame, Discard, Place, Take

from tests.support.power_cut import PowerCutGame, Replay, run_power_cuts

PLAYERS = ("hard", "easy", "random")
GAME_SEED = 11
RUNS = int(os.environ.get("POWER_CUT_CARD_RUNS", "6"))


def check_snapshot(ev: dict, saved: CardGame) -> None:
    """A resumed card_game_started shows exactly the saved game (all that is public)."""
    assert ev["resumed"] is True, "a save was on disk but the kiosk started a new game"
    assert ev["seed"] == saved.seed
    assert {(tuple(c["cell"]), c["card"], c["rotation"]) for c in ev["layout"]} == {
        (cell, p.card, p.rotation) for cell, p in saved.layout.items()
    }
    assert (ev["current"], ev["phase"], ev["turns"], ev["pile"], ev["discards"]) == (
        saved.current,
        saved.phase,
        saved.turns,
        len(saved.draw_pile),
        list(saved.discards),
    )
    assert (tuple(ev["placed"]) if ev["placed"] else None) == saved.placed
    assert [(p["kind"], p["hand_size"], p["taken"]) for p in ev["players"]] == [
        (PLAYERS[i], len(saved.hands[i]), len(saved.taken[i])) for i in range(saved.players)
    ]


def legal_actions(game: CardGame) -> list:
    """Every action (a placement, a take, a discard) the kiosk could commit next in `game`."""
    return game.legal_actions() if game.phase != "over" else []


def step(replay: Replay, e: dict) -> None:
    """Replay one placement, take, discard or game end the kiosk reported."""
    t = e["type"]
    if t == "card_laid":
        assert e["player"] == replay.game.current
        replay.game.apply(Place(e["card"], e["rotation"], tuple(e["cell"])))
    elif t == "cards_taken":
        assert e["player"] == replay.game.current
        replay.game.apply(Take(frozenset(e["cards"])))
        assert e["score"] == len(replay.game.taken[e["player"]])
    elif t == "card_discarded":
        replay.game.apply(Discard(e["card"]))
    elif t == "card_game_over":
        assert replay.game.phase == "over" and tuple(e["winners"]) == tuple(replay.game.winners)
        replay.finished += 1
    elif t == "game_started":
        raise AssertionError("a board game started in a card game run")


def new_game(seed: int, event: dict | None) -> CardGame:
    """A fresh card game; its first player is the one the started event names (seat 0 by default)."""
    if event is None:
        return CardGame.new(players=len(PLAYERS), seed=seed)
    return CardGame.new(players=len(PLAYERS), seed=seed, first=event["current"])


CARDS = PowerCutGame(
    name="cards",
    cls=CardGame,
    players=PLAYERS,
    game_seed=GAME_SEED,
    started_event="card_game_started",
    check_snapshot=check_snapshot,
    legal_actions=legal_actions,
    step=step,
    new_game=new_game,
    extra_args=("--game", "cards"),
)


def test_sigkill_during_card_games_never_loses_or_spoils_the_game(tmp_path, capsys):
    tally, *_ = run_power_cuts(CARDS, RUNS, tmp_path, "card power-cut")
    with capsys.disabled():
        print(
            f"\ncard power cut: {tally.runs} runs, {len(tally.failures)} failures; "
            + ", ".join(f"{what}: {n}" for what, n in sorted(tally.seen.items()))
        )
    assert not tally.failures, "\n".join(tally.failures[:10])
    assert tally.seen.get("resumed", 0) >= 1, "no run resumed a saved card game"
