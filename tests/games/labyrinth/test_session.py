"""The session: commands in, engine actions, events out; AI turns off the main thread."""

from __future__ import annotations

import json
import threading

import pytest

from engine.labyrinth import TREASURES, Game, Move, Shift
from engine.labyrinth.ai import make_ai
from kiosk.core.bus import Bus
from kiosk.core.clock import VirtualClock
from kiosk.core.events import AbandonGame, AIThinking, GameAbandoned, GameSetup, IllegalInput, NewGame
from kiosk.games import Moment
from kiosk.games.labyrinth.events import (
    AIDecided,
    BoardShifted,
    GameOver,
    GameStarted,
    HintReady,
    PawnMoved,
    PreviewMoved,
    PushArrow,
    RequestHint,
    RotateSpare,
    SelectArrow,
    SpareRotated,
    Stay,
    TapCell,
    TargetChanged,
    TreasureFound,
    TurnChanged,
)
from kiosk.games.labyrinth.session import Pacing, Session

from tests.support.kiosk_pump import pump, replay


class Rig:
    """A real bus, a virtual clock, a real session, and everything that passed the bus."""

    def __init__(self, *, pacing=Pacing.FAST, confirm_push=True, ai_factory=None, save=None):
        self.bus = Bus()
        self.clock = VirtualClock()
        self.seen = []
        self.bus.subscribe_all(self.seen.append)
        self.session = Session(
            self.bus, self.clock, pacing=pacing, confirm_push=confirm_push, ai_factory=ai_factory, save=save
        )

    def post(self, *msgs):
        start = len(self.seen)
        for m in msgs:
            self.bus.post(m)
        self.run()
        return self.seen[start:]

    def run(self, until=None, timeout=30.0):
        pump(self.bus, self.clock, until, session=self.session, timeout=timeout)

    def of(self, cls, since=0):
        return [m for m in self.seen[since:] if isinstance(m, cls)]

    @property
    def game(self) -> Game:
        return self.session.game

    def close(self):
        self.session.close()


@pytest.fixture
def rig():
    r = Rig()
    yield r
    r.close()


def start(rig, kinds="human,human", settle=True, **kw):
    """Start a game; with settle=False only until it is announced (an AI seat has not played yet)."""
    if settle:
        rig.post(NewGame(GameSetup.of(kinds, **kw)))
    else:
        rig.bus.post(NewGame(GameSetup.of(kinds, **kw)))
        rig.bus.dispatch_pending()
    return rig.game


def test_new_game_equals_the_engine_game_and_announces_the_public_picture(rig):
    game = start(rig, "human,human", seed=5)
    assert game == Game.new(players=2, seed=5)
    started = rig.of(GameStarted)[0]
    assert started.seed == 5 and started.current == 0 and started.phase == "shift"
    assert [t.openings for t in started.board] == [game.board[(r, c)].openings for r in range(7) for c in range(7)]
    assert [p.position for p in started.players] == [(0, 0), (6, 6)]
    # no cards in the public picture, only counts
    assert [p.cards_left for p in started.players] == [12, 12]
    data = started.to_dict()
    assert set(data["players"][0]) == {"index", "seat", "color", "kind", "home", "position", "cards_left", "found"}
    assert not {"cards", "target", "targets"} & set(data)
    turn = rig.of(TurnChanged)[-1]
    assert (turn.player, turn.phase, turn.kind) == (0, "shift", "human")


def test_select_previews_and_the_same_arrow_again_pushes(rig):
    game = start(rig, seed=1)
    before = game.to_dict()
    out = rig.post(SelectArrow("N3"))
    assert [m.type for m in out] == ["select_arrow", "preview_moved"]
    assert out[1].arrow == "N3" and out[1].rotation == 0
    assert game.to_dict() == before  # a preview changes nothing
    out = rig.post(SelectArrow("W1"))  # another arrow moves the preview
    assert rig.of(PreviewMoved)[-1].arrow == "W1" and game.to_dict() == before
    out = rig.post(SelectArrow("W1"))
    shifted = [m for m in out if isinstance(m, BoardShifted)]
    assert len(shifted) == 1 and shifted[0].insertion == "W1"
    expected = Game.new(players=2, seed=1)
    expected.apply(Shift("W1", 0))
    assert game == expected
    assert rig.of(TurnChanged)[-1].phase == "move"


def test_confirm_push_off_pushes_on_the_first_press():
    rig = Rig(confirm_push=False)
    try:
        game = start(rig, seed=1)
        out = rig.post(SelectArrow("E5"))
        assert [m.type for m in out][:2] == ["select_arrow", "board_shifted"]
        assert game.phase == "move" and game.last_insertion == "E5"
    finally:
        rig.close()


def test_the_forbidden_arrow_is_refused_with_no_state_change(rig):
    game = start(rig, seed=2)
    rig.post(SelectArrow("N1"), SelectArrow("N1"), Stay())
    assert game.forbidden == "S1" and game.current == 1
    rig.post(SelectArrow("E3"))  # a preview to keep
    before, preview = game.to_dict(), rig.session.preview
    out = rig.post(SelectArrow("S1"))
    refused = [m for m in out if isinstance(m, IllegalInput)]
    assert len(refused) == 1 and refused[0].arrow == "S1" and refused[0].command == "select_arrow"
    assert "push straight back" in refused[0].reason
    assert game.to_dict() == before and rig.session.preview == preview
    assert not [m for m in out if isinstance(m, (PreviewMoved, BoardShifted))]
    out = rig.post(PushArrow("S1"))
    assert isinstance(out[-1], IllegalInput) and game.to_dict() == before


def test_rotation_turns_the_previewed_spare_and_is_used_by_the_push(rig):
    game = start(rig, seed=4)
    spare = game.spare
    rig.post(RotateSpare(), SelectArrow("S5"), RotateSpare(2))
    rotated = rig.of(SpareRotated)
    assert [r.rotation for r in rotated] == [1, 3]
    assert rotated[-1].spare.openings == spare.rotated(3).openings
    assert rig.of(PreviewMoved)[-1].rotation == 1
    rig.post(SelectArrow("S5"))
    shift = rig.of(BoardShifted)[-1]
    assert shift.rotation == 3 and shift.inserted.openings == spare.rotated(3).openings
    assert game.board[(6, 5)].openings == spare.rotated(3).openings
    assert rig.session.rotation == 0 and rig.session.preview is None


def test_push_arrow_needs_an_arrow(rig):
    start(rig, seed=4)
    out = rig.post(PushArrow())
    assert isinstance(out[-1], IllegalInput) and "Choose an arrow" in out[-1].reason
    rig.post(SelectArrow("E1"))
    out = rig.post(PushArrow())
    assert any(isinstance(m, BoardShifted) and m.insertion == "E1" for m in out)


def test_inputs_for_the_wrong_phase_are_refused(rig):
    game = start(rig, seed=6)
    out = rig.post(TapCell((0, 0)))
    assert isinstance(out[-1], IllegalInput) and "push the spare" in out[-1].reason
    out = rig.post(Stay())
    assert isinstance(out[-1], IllegalInput)
    rig.post(SelectArrow("N5"), SelectArrow("N5"))
    before = game.to_dict()
    for cmd in (SelectArrow("E1"), RotateSpare(), PushArrow("E1"), RequestHint()):
        out = rig.post(cmd)
        assert isinstance(out[-1], IllegalInput) and "already pushed in" in out[-1].reason
    assert game.to_dict() == before


def test_walking_reports_a_connected_path_and_refuses_unreachable_cells(rig):
    for seed in range(40):
        game = start(rig, seed=seed)
        rig.post(SelectArrow("N1"), SelectArrow("N1"))
        reach = game.reachable()
        far = [c for c in reach if c != game.player.position]
        if far and len(reach) < 49:
            break
    unreachable = next((r, c) for r in range(7) for c in range(7) if (r, c) not in reach)
    before = game.to_dict()
    out = rig.post(TapCell(unreachable))
    assert isinstance(out[-1], IllegalInput) and "cannot reach" in out[-1].reason
    assert game.to_dict() == before
    out = rig.post(TapCell((9, 9)))
    assert isinstance(out[-1], IllegalInput) and game.to_dict() == before
    turn = rig.of(TurnChanged)[-1]
    assert set(turn.reachable) == set(reach)
    goal = max(far, key=lambda c: len(game.path_to(c)))
    start_cell = game.player.position
    player = game.current
    out = rig.post(TapCell(goal))
    moved = [m for m in out if isinstance(m, PawnMoved)][0]
    assert moved.player == player and moved.path[0] == start_cell and moved.path[-1] == goal
    for a, b in zip(moved.path, moved.path[1:]):
        assert abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1
    assert game.players[player].position == goal and game.current == 1 - player


def test_staying_by_tapping_the_own_pawn_or_by_stay(rig):
    game = start(rig, seed=3)
    rig.post(SelectArrow("W3"), SelectArrow("W3"))
    out = rig.post(TapCell(game.player.position))
    moved = [m for m in out if isinstance(m, PawnMoved)]
    assert moved[0].stayed and moved[0].path == ((0, 0),)
    rig.post(SelectArrow("W5"), SelectArrow("W5"))
    out = rig.post(Stay())
    moved = [m for m in out if isinstance(m, PawnMoved)]
    assert moved[0].stayed and moved[0].path == ((6, 6),) and game.current == 0


def test_a_pawn_pushed_out_comes_back_on_the_inserted_tile():
    rig = Rig()
    try:
        data = Game.new(players=2, seed=8).to_dict()
        data["players"][1]["position"] = [6, 1]
        game = Game.from_dict(data)
        rig.session.resume(game, ("human", "human"))
        rig.run()
        out = rig.post(SelectArrow("N1"), SelectArrow("N1"))
        shift = [m for m in out if isinstance(m, BoardShifted)][0]
        assert shift.line == tuple((r, 1) for r in range(7))
        assert len(shift.pawns) == 1
        carry = shift.pawns[0]
        assert (carry.player, carry.start, carry.end, carry.wrapped) == (1, (6, 1), (0, 1), True)
        assert shift.forbidden == "S1"
        assert game.players[1].position == (0, 1)
        assert rig.of(GameStarted)[0].resumed
    finally:
        rig.close()


def _turn_that_collects(game: Game):
    """A (shift, cell) with which the current player ends on their target, or None."""
    target = game.player.target
    for shift in game.legal_shifts():
        g = game.copy()
        g.apply(shift)
        cell = g.treasure_cell(target)
        if cell is not None and cell in g.reachable():
            return shift, cell
    return None


def test_treasure_found_and_the_new_target_stays_secret(rig):
    for seed in range(200):
        game = start(rig, seed=seed)
        plan = _turn_that_collects(game)
        if plan:
            break
    shift, cell = plan
    target = game.player.target
    second = game.player.cards[1]
    since = len(rig.seen)
    rig.post(
        SelectArrow(shift.insertion),
        RotateSpare(shift.rotation) if shift.rotation else Stay(),
        SelectArrow(shift.insertion),
    )
    rig.post(TapCell(cell) if cell != game.player.position else Stay())
    found = rig.of(TreasureFound, since)
    assert [(f.player, f.treasure, f.cards_left) for f in found] == [(0, target, 11)]
    changed = rig.of(TargetChanged, since)
    assert [(c.player, c.cards_left, c.heading_home) for c in changed] == [(0, 11, False)]
    assert rig.session.target_of(0) == second
    assert rig.session.visible_cards(0) == (second,)
    # no event ever names a target that is still secret
    for m in rig.seen:
        if isinstance(m, (TargetChanged, TurnChanged, IllegalInput)):
            assert not set(json.dumps(m.to_dict()).split('"')) & set(TREASURES)


def test_open_cards_shows_all_own_cards(rig):
    game = start(rig, seed=3, open_cards=True)
    assert rig.session.visible_cards(0) == tuple(game.players[0].cards)
    assert len(rig.session.visible_cards(1)) == 12


def test_ai_turns_are_computed_off_the_main_thread_and_played_through_commands():
    threads = []

    def factory(level, seed):
        ai = make_ai(level, seed)
        choose = ai.choose

        def spy(game):
            threads.append(threading.current_thread())
            return choose(game)

        ai.choose = spy
        return ai

    rig = Rig(ai_factory=factory)
    try:
        game = start(rig, "easy,human", settle=False, seed=11)
        rig.run(until=lambda: game.current == 1 and game.phase == "shift" and not rig.session.busy)
        assert threads and all(t is not threading.main_thread() for t in threads)
        ai_cmds = [m for m in rig.seen if getattr(m, "source", None) == "ai"]
        decided = rig.of(AIDecided)[0]
        assert [m.type for m in ai_cmds][0] == "select_arrow" and ai_cmds[0].arrow == decided.insertion
        assert sum(1 for m in ai_cmds if m.type == "rotate_spare") == decided.rotation
        assert ai_cmds[-1].type in ("tap_cell", "stay")
        assert not rig.of(IllegalInput)
        assert rig.of(AIThinking)[0].player == 0
        expected = Game.new(players=2, seed=11)
        expected.apply(Shift(decided.insertion, decided.rotation))
        expected.apply(Move(decided.cell))
        assert game == expected
    finally:
        rig.close()


def test_people_cannot_play_during_an_ai_turn():
    rig = Rig(pacing=Pacing())  # paced: the AI turn takes seconds of (virtual) time
    try:
        game = start(rig, "medium,human", settle=False, seed=12)
        rig.run(until=lambda: bool(rig.of(PreviewMoved)))
        assert rig.session.ai_turn and game.phase == "shift"
        before = game.to_dict()
        for cmd in (SelectArrow("N3", "button"), RotateSpare(1, "button"), TapCell((0, 0)), Stay(), RequestHint()):
            rig.bus.post(cmd)
        rig.run(until=lambda: len(rig.of(IllegalInput)) == 5)
        assert all("please wait" in e.reason for e in rig.of(IllegalInput))
        assert game.to_dict() == before
        rig.run(until=lambda: game.current == 1)
        assert len(rig.of(BoardShifted)) == 1 and len(rig.of(PawnMoved)) == 1
    finally:
        rig.close()


def test_ai_turns_are_paced_on_the_clock():
    pacing = Pacing(think=1.0, select=0.5, rotate=0.25, push=0.5, after_shift=0.75, walk_step=0.1, after_move=0.5)
    rig = Rig(pacing=pacing)
    times = {}
    rig.bus.subscribe_all(lambda m: times.setdefault(m.type, rig.clock.now()))
    try:
        game = start(rig, "easy,human", settle=False, seed=13)
        rig.run(until=lambda: game.current == 1)
        assert times["preview_moved"] >= 1.0
        assert times["board_shifted"] - times["preview_moved"] >= 0.5
        assert times["pawn_moved"] - times["board_shifted"] >= 0.75
    finally:
        rig.close()


def test_a_stale_ai_answer_is_dropped_after_the_game_is_abandoned():
    gate = threading.Event()

    class SlowAI:
        def __init__(self, seed):
            self.inner = make_ai("random", seed)

        def choose(self, game):
            gate.wait(5)
            return self.inner.choose(game)

    rig = Rig(ai_factory=lambda level, seed: SlowAI(seed))
    try:
        start(rig, "random,human", settle=False, seed=14)
        assert rig.session.thinking
        rig.bus.post(AbandonGame("idle"))
        rig.bus.dispatch_pending()
        assert rig.session.game is None and rig.of(GameAbandoned)
        gate.set()
        rig.run(until=lambda: bool(rig.of(AIDecided)))
        rig.run()
        assert not rig.of(BoardShifted) and not rig.of(PreviewMoved)
        assert not rig.session.thinking
    finally:
        gate.set()
        rig.close()


def test_a_failing_ai_still_plays_a_legal_turn(caplog):
    class Broken:
        def choose(self, game):
            raise RuntimeError("search blew up")

    rig = Rig(ai_factory=lambda level, seed: Broken())
    try:
        game = start(rig, "hard,human", settle=False, seed=15)
        rig.run(until=lambda: game.current == 1)
        assert "search blew up" in rig.of(AIDecided)[0].error
        assert len(rig.of(BoardShifted)) == 1 and len(rig.of(PawnMoved)) == 1
        assert not rig.of(IllegalInput)
    finally:
        rig.close()


def test_a_broken_save_does_not_stop_the_game(caplog):
    def save(session, reason):
        raise OSError("disk full")

    rig = Rig(save=save)
    try:
        game = start(rig, seed=17)
        rig.post(SelectArrow("N3"), SelectArrow("N3"))
        assert game.phase == "move"
        assert "saving the game failed" in caplog.text
    finally:
        rig.close()


def test_resumed_in_the_move_phase_an_ai_finishes_its_turn():
    rig = Rig()
    try:
        game = Game.new(players=2, seed=19)
        game.apply(Shift("S3", 1))
        rig.session.resume(Game.from_dict(game.to_dict()), ("medium", "human"))
        rig.run(until=lambda: rig.game.current == 1)
        assert len(rig.of(PawnMoved)) == 1 and not rig.of(BoardShifted) and not rig.of(IllegalInput)
    finally:
        rig.close()


def test_hint_suggests_a_legal_shift(rig):
    game = start(rig, seed=20)
    rig.bus.post(RequestHint())
    rig.run(until=lambda: bool(rig.of(HintReady)))
    hint = rig.of(HintReady)[0]
    assert hint.player == 0 and Shift(hint.insertion, hint.rotation) in game.legal_shifts()
    g = game.copy()
    g.apply(Shift(hint.insertion, hint.rotation))
    assert hint.cell in g.reachable()
    assert game == Game.new(players=2, seed=20)  # a hint changes nothing on the board
    # the spare waits at the suggested arrow, turned as suggested: one more tap there pushes it so
    preview = rig.of(PreviewMoved)[-1]
    assert (preview.arrow, preview.rotation) == (hint.insertion, hint.rotation % 4)
    assert (rig.session.preview, rig.session.rotation) == (hint.insertion, hint.rotation % 4)
    rig.post(SelectArrow(hint.insertion))
    shifted = rig.of(BoardShifted)[-1]
    assert (shifted.insertion, shifted.rotation) == (hint.insertion, hint.rotation % 4)


def test_commands_without_a_game_are_refused(rig):
    out = rig.post(SelectArrow("N1"))
    assert isinstance(out[-1], IllegalInput) and "No game" in out[-1].reason and out[-1].player is None


def test_a_solo_ai_game_runs_to_the_end_and_the_events_replay_on_the_engine():
    rig = Rig()
    try:
        game = start(rig, "hard", seed=21, open_cards=True, return_home=False)
        rig.run(until=lambda: bool(rig.of(GameOver)), timeout=120)
        over = rig.of(GameOver)[0]
        assert over.winner == 0 and over.turns == game.turns and len(over.found[0]) == 24
        from engine.labyrinth import Rules

        again = replay(rig.seen, 1, 21, rules=Rules(open_cards=True, return_home=False))
        assert again == game and again.phase == "over"
        assert sum(1 for m in rig.seen if isinstance(m, TreasureFound)) == 24
        out = rig.post(SelectArrow("N1"))
        assert "game is over" in out[-1].reason
    finally:
        rig.close()


def test_an_impossible_setup_is_refused_not_crashed(rig):
    from kiosk.core.events import SeatSetup

    setup = GameSetup(seats=(SeatSetup("human", 0), SeatSetup("human", 0)))
    out = rig.post(NewGame(setup))
    assert isinstance(out[-1], IllegalInput) and "Cannot start this game" in out[-1].reason
    assert rig.session.game is None and rig.bus.errors == 0


def now(rig, *msgs):
    """Post `msgs` and dispatch what is due now, without jumping the virtual clock (as pump does)."""
    start = len(rig.seen)
    for m in msgs:
        rig.bus.post(m)
    rig.clock.run_due()
    rig.bus.dispatch_pending()
    return rig.seen[start:]


def test_a_game_set_aside_continues_exactly_or_is_archived_once_its_time_is_up():
    """SuspendGame keeps the game (its save untouched) for keep_s; ContinueGame brings back the very
    position, mid-turn too; left alone it is archived through the save hook exactly once."""
    from kiosk.core.events import ContinueGame, SuspendGame

    saves = []
    rig = Rig(save=lambda session, reason: saves.append(reason))
    try:
        start(rig, seed=3)
        rig.post(SelectArrow("N3"), SelectArrow("N3"))  # pushed: mid-turn, the walk to come
        assert rig.game.phase == "move"
        before, game_id = rig.game.to_dict(), rig.session.game_id
        saves.clear()
        out = now(rig, SuspendGame("idle", keep_s=60))
        assert [m.type for m in out] == ["suspend_game", "game_abandoned"]
        assert rig.game is None and saves == []  # nothing archived yet: the save stays in place
        now(rig, ContinueGame("labyrinth"))
        assert rig.game.to_dict() == before and rig.session.game_id == game_id
        assert saves == [Moment.RESUME] and rig.session.set_aside is None
        now(rig, SuspendGame("idle", keep_s=60))
        rig.clock.advance(59)
        now(rig)
        assert saves == [Moment.RESUME] and rig.session.set_aside is not None
        rig.clock.advance(2)
        now(rig)
        assert saves == [Moment.RESUME, Moment.ABANDON] and rig.session.set_aside is None
        refused = now(rig, ContinueGame("labyrinth"))
        assert [m.code for m in refused if isinstance(m, IllegalInput)] == ["nothing_to_continue"]
        assert rig.game is None
    finally:
        rig.close()
