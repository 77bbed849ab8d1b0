"""The bus: in-order dispatch on the main thread, posting from any thread, budgets, failing handlers."""

from __future__ import annotations

import importlib
import logging
import threading
import time
from pathlib import Path

import pytest

from engine.outcome import Termination
from kiosk.core.bus import Bus
from kiosk.core.events import (
    AbandonGame,
    ActionUndone,
    Undo,
    UndoChanged,
    AIThinking,
    ButtonPressed,
    Command,
    ContinueGame,
    Event,
    GameAbandoned,
    GameSetup,
    IllegalInput,
    KioskStopping,
    Message,
    NewGame,
    Quit,
    REGISTRY,
    SeatSetup,
    SuspendGame,
    CallSeat,
    ChangeSeat,
    SeatCalled,
    SeatChanged,
)
from kiosk.games.labyrinth.events import (
    AIDecided,
    BoardShifted,
    GameOver,
    GameStarted,
    HintReady,
    PawnCarry,
    PawnMoved,
    PlayerInfo,
    PreviewMoved,
    PushArrow,
    RequestHint,
    RotateSpare,
    SelectArrow,
    SpareRotated,
    Stay,
    TapCell,
    TargetChanged,
    TileInfo,
    TreasureFound,
    TurnChanged,
)


def test_dispatch_in_posting_order_across_types_and_subscription_kinds():
    bus = Bus()
    seen = []
    bus.subscribe_all(lambda m: seen.append(("all", m.type)))
    bus.subscribe(TapCell, lambda m: seen.append(("class", m.cell)))
    bus.subscribe("stay", lambda m: seen.append(("name", m.type)))
    bus.subscribe(Command, lambda m: seen.append(("family", m.type)))
    bus.post(TapCell((1, 2)))
    bus.post(Stay())
    bus.post(GameAbandoned("x"))
    assert seen == []  # post never runs handlers
    assert bus.dispatch_pending() == 3
    assert seen == [
        ("all", "tap_cell"),
        ("class", (1, 2)),
        ("family", "tap_cell"),
        ("all", "stay"),
        ("name", "stay"),
        ("family", "stay"),
        ("all", "game_abandoned"),
    ]


def test_unsubscribe_stops_delivery():
    bus = Bus()
    seen = []
    unsub = bus.subscribe(Stay, seen.append)
    bus.post(Stay())
    bus.dispatch_pending()
    unsub()
    bus.post(Stay())
    bus.dispatch_pending()
    assert len(seen) == 1


def test_handler_posts_go_to_the_end_of_the_queue_without_recursion():
    bus = Bus()
    order = []
    depth = [0]

    def on_tap(m):
        depth[0] += 1
        assert depth[0] == 1, "dispatch must not recurse"
        order.append(m.type)
        bus.post(Stay())
        depth[0] -= 1

    bus.subscribe(TapCell, on_tap)
    bus.subscribe(Stay, lambda m: order.append(m.type))
    bus.subscribe(RotateSpare, lambda m: order.append(m.type))
    bus.post(TapCell((0, 0)))
    bus.post(RotateSpare())
    assert bus.dispatch_pending() == 3
    assert order == ["tap_cell", "rotate_spare", "stay"]


def test_dispatch_from_a_handler_is_refused_and_logged(caplog):
    bus = Bus()
    bus.subscribe(Stay, lambda m: bus.dispatch_pending())
    later = []
    bus.subscribe(Stay, later.append)
    bus.post(Stay())
    with caplog.at_level(logging.ERROR, logger="kiosk.core.bus"):
        bus.dispatch_pending()
    assert bus.errors == 1 and len(later) == 1
    assert "post() instead" in caplog.text


def test_a_failing_handler_is_logged_and_the_others_still_run(caplog):
    bus = Bus()
    got = []

    def broken(m):
        raise RuntimeError("view exploded")

    bus.subscribe(Stay, broken)
    bus.subscribe(Stay, got.append)
    with caplog.at_level(logging.ERROR, logger="kiosk.core.bus"):
        bus.post(Stay())
        bus.post(Stay())
        assert bus.dispatch_pending() == 2
    assert len(got) == 2 and bus.errors == 2
    assert "view exploded" in caplog.text and "stay" in caplog.text


def test_count_budget_leaves_the_rest_for_the_next_call():
    bus = Bus()
    got = []
    bus.subscribe(TapCell, lambda m: got.append(m.cell))
    for i in range(10):
        bus.post(TapCell((i, 0)))
    assert bus.dispatch_pending(max_count=4) == 4
    assert bus.pending() == 6
    assert bus.dispatch_pending() == 6
    assert [c[0] for c in got] == list(range(10))


def test_time_budget_stops_a_flood_between_messages():
    bus = Bus()
    bus.subscribe(Stay, lambda m: time.sleep(0.005))
    for _ in range(100):
        bus.post(Stay())
    t0 = time.perf_counter()
    n = bus.dispatch_pending(max_seconds=0.02)
    assert 1 <= n < 100
    assert time.perf_counter() - t0 < 0.2
    assert bus.pending() == 100 - n


def test_a_handler_that_keeps_posting_cannot_hang_drain():
    bus = Bus()
    bus.subscribe(Stay, lambda m: bus.post(Stay()))
    bus.post(Stay())
    with pytest.raises(RuntimeError, match="keep posting"):
        bus.drain(max_messages=500)


def test_posts_from_many_threads_all_arrive_in_per_thread_order():
    bus = Bus()
    got = []
    bus.subscribe(TapCell, lambda m: got.append(m.cell))
    threads = [threading.Thread(target=lambda k=k: [bus.post(TapCell((k, i))) for i in range(2000)]) for k in range(4)]
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads) or bus.pending():
        bus.dispatch_pending(max_count=100)
    for t in threads:
        t.join()
    assert len(got) == 8000
    for k in range(4):
        assert [i for kk, i in got if kk == k] == list(range(2000))


def test_only_the_main_loop_thread_dispatches():
    bus = Bus()
    bus.dispatch_pending()
    errors = []

    def other():
        try:
            bus.dispatch_pending()
        except RuntimeError as e:
            errors.append(str(e))

    t = threading.Thread(target=other)
    t.start()
    t.join()
    assert errors and "same (main) thread" in errors[0]


def test_wait_wakes_up_when_another_thread_posts():
    bus = Bus()
    threading.Timer(0.05, lambda: bus.post(Stay())).start()
    t0 = time.monotonic()
    assert bus.wait(5.0) is True
    assert time.monotonic() - t0 < 2.0
    assert bus.wait(0.0) is True  # still queued
    bus.dispatch_pending()
    assert bus.wait(0.01) is False


def test_only_messages_go_on_the_bus():
    with pytest.raises(TypeError):
        Bus().post({"type": "stay"})


# ---------------------------------------------------------------- the messages themselves

TILE = TileInfo("ESW", "owl")
EXAMPLES: list[Message] = [
    SelectArrow("N3", "button"),
    PushArrow(None),
    PushArrow("W5", "ai"),
    RotateSpare(3),
    TapCell((2, 4)),
    Stay(),
    RequestHint(),
    NewGame(GameSetup.of("human,hard", seed=3, open_cards=True)),
    NewGame(GameSetup(seats=(SeatSetup("easy", 1), SeatSetup("human", 3)), first=1)),
    AbandonGame("idle"),
    SuspendGame("idle", keep_s=120.0),
    ContinueGame("labyrinth"),
    Quit("operator", 0),
    ButtonPressed("rotate"),
    GameStarted(
        3,
        (
            PlayerInfo(0, 0, "red", "human", (0, 0), (0, 0), 12, ()),
            PlayerInfo(1, 2, "green", "hard", (6, 6), (5, 6), 11, ("owl",)),
        ),
        (TILE,) * 49,
        TileInfo("NS"),
        1,
        "move",
        "S3",
        4,
        False,
        True,
        True,
    ),
    PreviewMoved(0, "E1", 2, TILE),
    PreviewMoved(0, None, 0, TILE),
    SpareRotated(0, 1, TILE),
    BoardShifted(
        0, "N1", 1, tuple((r, 1) for r in range(7)), TILE, TileInfo("NS"), (PawnCarry(1, (6, 1), (0, 1), True),), "S1"
    ),
    PawnMoved(1, ((6, 6), (5, 6))),
    TreasureFound(0, "owl", 11),
    TargetChanged(0, 11, False),
    TurnChanged(0, "move", 4, "S1", "human", ((0, 0), (0, 1))),
    IllegalInput("no", "select_arrow", 0, "S1"),
    GameOver((0,), 30, (("owl",), ()), ("human", "hard"), 12.5, Termination.HOME),
    GameAbandoned("idle"),
    AIThinking(1, "hard"),
    AIDecided(1, "N3", 2, (3, 3), 7),
    AIDecided(1, "", 0, (0, 0), 7, False, "ValueError: x"),
    HintReady(0, "E3", 1, (2, 2)),
    KioskStopping("quit", 0),
    Undo(0),
    Undo(None, "script"),
    UndoChanged(0, True),
    ActionUndone(1),
    CallSeat(0, 20.0),
    ChangeSeat(0, "easy", "away"),
    ChangeSeat(1, "human", "join", "touch"),
    SeatCalled(0, 20.0),
    SeatChanged(0, "easy", "human", 13, "away"),
]

# The card game's messages share the registry (kiosk/games/cards/events.py).
from kiosk.games.cards import events as ce  # noqa: E402

EXAMPLES += [
    NewGame(GameSetup.of("human,easy,hard", seed=2, game="cards")),
    ce.SelectHandCard(1),
    ce.RotateHandCard(1, "button"),
    ce.LayCard((-1, 2)),
    ce.ToggleTake(17),
    ce.ConfirmTake("ai"),
    ce.DiscardCard(0),
    ce.HandOver(),
    ce.CardGameStarted(
        5,
        (ce.CardPlayerInfo(0, "red", "human", 2, 0), ce.CardPlayerInfo(1, "yellow", "easy", 2, 3)),
        (ce.LaidCard((0, 0), 12, 3), ce.LaidCard((1, 0), 40, 0)),
        1,
        "take",
        7,
        30,
        (9,),
        (1, 0),
        True,
    ),
    ce.CardTurnChanged(1, "place", 7, "easy", 30, False, ((2, 0), (-1, 0)), ()),
    ce.HandChanged(0, 2, 1, 3, True),
    ce.CardLaid(0, 12, 1, (2, 0), (("moon", (4, 7)),), (4, 7)),
    ce.TakeChanged(0, (4,), "Cannot take those: card 7 would be left alone."),
    ce.CardsTaken(0, (4, 7), ((3, 0), (3, 1)), 5),
    ce.CardDiscarded(1, 22),
    ce.CardGameOver((0, 2), (9, 4, 9), 46, ("human", "easy", "hard"), Termination.CARDS_PLAYED, 301.5),
    ce.CardAIDecided(1, "place", 8, slot=0, rotation=2, cell=(1, -1)),
    ce.CardAIDecided(1, "take", 9, cards=(3, 5)),
]


def _games_examples() -> list[Message]:
    """The examples a game keeps beside its own tests (tests/games/<name>/messages.py): a game added
    in its own folders brings its messages' examples with it."""
    found: list[Message] = []
    for path in sorted((Path(__file__).parents[2] / "games").glob("*/messages.py")):
        found += importlib.import_module(f"tests.games.{path.parent.name}.messages").EXAMPLES
    return found


EXAMPLES += _games_examples()


def test_examples_cover_every_message_type():
    # the kiosk's own messages (a test may register a game of its own: tests/games/test_third_game.py)
    shipped = {name for name, cls in REGISTRY.items() if cls.__module__.startswith("kiosk.")}
    assert {m.type for m in EXAMPLES} == shipped


@pytest.mark.parametrize("msg", EXAMPLES, ids=lambda m: m.type)
def test_json_round_trip_and_type_name(msg):
    import json

    data = json.loads(msg.to_json())
    assert data["type"] == msg.type
    assert Message.from_dict(data) == msg
    assert isinstance(msg, (Command, Event))


def test_messages_are_immutable_and_slotted():
    m = TapCell((1, 1))
    with pytest.raises(AttributeError):
        m.cell = (2, 2)
    assert not hasattr(m, "__dict__")
    assert hash(m) == hash(TapCell((1, 1)))


def test_unknown_type_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown message type 'nope'"):
        Message.from_dict({"type": "nope"})


def test_game_setup_validates():
    with pytest.raises(ValueError, match="seat kind 'wizard'"):
        GameSetup.of("human,wizard")
    with pytest.raises(ValueError, match="1 to 4 players"):
        GameSetup.of("human,human,human,human,human")
    with pytest.raises(ValueError, match="first player 2"):
        GameSetup.of("human,easy", first=2)
    assert GameSetup.of(" human , hard ").kinds == ("human", "hard")
