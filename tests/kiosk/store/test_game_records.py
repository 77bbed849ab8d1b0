"""The kiosk's shelf of game records: filed when a game ends, bounded, continued on resume."""

from __future__ import annotations

from datetime import date, datetime

from engine.labyrinth import Game
from engine.labyrinth.ai import make_ai
from engine.cards import CardGame
from engine.cards.ai import make_ai as card_ai
from engine.records import read_record
from kiosk.store.records import CURRENT_NAME, RecordShelf, margin

WHEN = datetime(2026, 11, 30, 15, 4, 5).timestamp()


def play(game, recorder, turns=None, shelf=None):
    ais = [make_ai("medium", seed=k) for k in range(len(game.players))]
    while game.phase != "over" and (turns is None or turns > 0):
        for action in ais[game.current].choose(game):
            game.apply(action)
            recorder.apply(action)
        if shelf is not None:
            shelf.save_current(recorder)
        turns = None if turns is None else turns - 1


def test_a_finished_game_is_filed_and_reads_back(tmp_path):
    shelf = RecordShelf(tmp_path)
    game = Game.new(players=2, seed=4)
    recorder = shelf.start(game, ["human", "medium"], when=WHEN)
    play(game, recorder, shelf=shelf)
    assert (tmp_path / CURRENT_NAME).exists()
    path = shelf.finish(recorder, when=WHEN)
    assert path.name == "2026-11-30_150405-labyrinth.txt"
    assert not (tmp_path / CURRENT_NAME).exists()
    record = read_record(path.read_text())
    assert record.final() == game and record.tags["Date"] == "2026-11-30"
    assert shelf.finish(recorder, when=WHEN).name == "2026-11-30_150405-labyrinth-2.txt"


def test_a_resumed_game_continues_its_record_even_in_the_middle_of_a_turn(tmp_path):
    shelf = RecordShelf(tmp_path)
    game = Game.new(players=2, seed=8)
    recorder = shelf.start(game, ["human", "medium"])
    play(game, recorder, turns=5, shelf=shelf)
    shift, _ = make_ai("medium", seed=1).choose(game)
    game.apply(shift)  # the power goes after this shift
    resumed = RecordShelf(tmp_path).resume(Game.from_dict(game.to_dict()), ["human", "medium"])
    assert len(resumed.turns) == 5 and resumed.state == game
    from engine.labyrinth import Move

    stay = Move(game.player.position)  # the turn goes on after the resume
    game.apply(stay)
    resumed.apply(stay)
    play(game, resumed)
    record = read_record(resumed.text())
    assert record.final() == game and "Start" not in record.tags


def test_a_record_that_does_not_fit_starts_afresh_from_the_position(tmp_path):
    (tmp_path / CURRENT_NAME).write_text('[Game "labyrinth"]\n garbage\n')
    game = Game.new(players=2, seed=3)
    recorder = RecordShelf(tmp_path).resume(game, ["medium", "medium"])
    play(game, recorder, turns=3)
    assert read_record(recorder.text()).final() == game


def test_the_shelf_is_bounded(tmp_path):
    shelf = RecordShelf(tmp_path, keep=3)
    for k in range(5):
        game = Game.new(players=2, seed=k)
        recorder = shelf.start(game, ["medium", "medium"])
        play(game, recorder, turns=2)
        shelf.finish(recorder, when=WHEN + k)
    names = [p.name for p in shelf.files()]
    assert names == [f"2026-11-30_1504{5 + k:02d}-labyrinth.txt" for k in (2, 3, 4)]
    small = RecordShelf(tmp_path, keep=100, max_bytes=sum(p.stat().st_size for p in shelf.files()[1:]))
    small.prune()
    assert [p.name for p in small.files()] == names[1:]


def test_the_best_of_the_day_has_people_then_the_closest_finish(tmp_path):
    shelf = RecordShelf(tmp_path)
    finals = {}
    for k, levels in enumerate([["medium", "medium"], ["human", "medium"], ["human", "medium"]]):
        game = Game.new(players=2, seed=10 + k)
        recorder = shelf.start(game, levels, when=WHEN)
        play(game, recorder)
        finals[shelf.finish(recorder, when=WHEN + k).name] = game
    cards = CardGame.new(players=2, seed=1)
    recorder = shelf.start(cards, ["human", "easy"], when=WHEN)
    ais = [card_ai("easy", 1), card_ai("easy", 2)]
    while cards.phase != "over":
        action = ais[cards.current].choose(cards)
        cards.apply(action)
        recorder.apply(action)
    finals[shelf.finish(recorder, when=WHEN + 9).name] = cards
    path, record = shelf.best_of_day(date(2026, 11, 30))
    humans = {n: g for n, g in finals.items() if n != "2026-11-30_150405-labyrinth.txt"}
    closest = min(margin(g) for g in humans.values())
    assert margin(finals[path.name]) == closest and path.name in humans
    assert "human" in record.levels
    assert shelf.best_of_day(date(2026, 12, 1)) is None


def test_recording_reads_every_action_off_the_change_of_state(tmp_path):
    """As in the kiosk: the recording sees the start, then the game after each committed action."""
    from kiosk.store.records import Recording

    shelf = RecordShelf(tmp_path)
    recording = Recording(shelf)
    game = Game.new(players=3, seed=21)
    recording.begin(game.copy(), ["human", "medium", "easy"])
    ais = [make_ai(level, seed=k) for k, level in enumerate(["hard", "medium", "easy"])]
    while game.phase != "over":
        for action in ais[game.current].choose(game):
            game.apply(action)
            recording.step(game)
    path = recording.end(game)
    assert read_record(path.read_text()).final() == game

    cards = CardGame.new(players=4, seed=5)
    recording.begin(cards.copy(), ["human", "easy", "random", "hard"])
    players = [card_ai(level, k) for k, level in enumerate(["easy", "easy", "random", "hard"])]
    while cards.phase != "over":
        cards.apply(players[cards.current].choose(cards))
        recording.step(cards)
    path = recording.end(cards)
    record = read_record(path.read_text())
    assert record.final() == cards and record.levels == ["human", "easy", "random", "hard"]


def test_an_abandoned_game_leaves_no_record(tmp_path):
    from kiosk.store.records import Recording

    shelf = RecordShelf(tmp_path)
    recording = Recording(shelf)
    game = Game.new(players=2, seed=2)
    recording.begin(game.copy(), ["human", "medium"])
    ai = make_ai("medium", seed=1)
    for _ in range(3):
        for action in ai.choose(game):
            game.apply(action)
            recording.step(game)
    assert (tmp_path / CURRENT_NAME).exists()
    assert recording.end(game, abandoned=True) is None
    assert not (tmp_path / CURRENT_NAME).exists() and shelf.files() == []


def test_temporaries_of_an_interrupted_record_write_go_at_start(tmp_path):
    (tmp_path / "records").mkdir()
    left = [tmp_path / f".{CURRENT_NAME}.x1.tmp", tmp_path / "records" / ".2026-11-30_150405-cards.txt.y2.tmp"]
    for path in left:
        path.write_text("half a record")
    keep = tmp_path / ".current-game.json.z3.tmp"  # the game store's own: not ours to remove
    keep.write_text("{")
    RecordShelf(tmp_path)
    assert not any(p.exists() for p in left) and keep.exists()
