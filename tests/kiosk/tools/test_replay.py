"""labyrinth-replay: text boards, stepping, refusing damaged records, and --analyze checked on the engine."""

from __future__ import annotations

import io
import json

import pytest

from engine.labyrinth import Move, Rules, Shift
from engine.labyrinth.ai.base import View, first_ply
from engine.records import read_record
from kiosk.games.labyrinth.text_board import maze_board
from engine.labyrinth.analysis import LETS_WIN, MISSED, WEAK, analyze, next_turn_chance
from kiosk.tools import replay
from tests.engine.test_records import play_cards, play_maze


@pytest.fixture(scope="module")
def easy_game():
    """An `easy` player (who sometimes leaves a card lying) against `medium` (who never does)."""
    game, recorder = play_maze(2, 2, Rules(), levels=["easy", "medium"], cap=400)
    return recorder.text()


@pytest.fixture(scope="module")
def marks(easy_game):
    return analyze(read_record(easy_game))


def _parse(state, words: str):
    insertion, openings, cell = words.split()[:3]
    from engine.labyrinth.maze import ROTATED, mask_of

    rotation = next(r for r in range(4) if ROTATED[state.maze.spare_mask][r] == mask_of(openings))
    r, c = cell.split(",")
    return Shift(insertion, rotation), Move((int(r), int(c)))


def _before(record, number):
    state = record.start()
    for turn in record.turns:
        if turn.number == number:
            return state, turn
        for action in turn.actions:
            state.apply(action)
    raise KeyError(number)


def test_missed_collections_are_real_and_only_easy_misses(easy_game, marks):
    record = read_record(easy_game)
    missed = [m for m in marks if m.kind == MISSED]
    assert missed, "easy leaves a card lying now and then"
    levels = dict(part.split(":") for part in record.tags["Players"].split())
    assert {levels[m.player] for m in missed} == {"easy"}  # medium always takes a reachable target
    for m in missed:
        before, turn = _before(record, m.turn)
        trial = before.copy()
        player = trial.current
        shift, move = _parse(trial, m.suggestion)
        trial.apply(shift)
        trial.apply(move)
        assert len(trial.players[player].found) > len(before.players[player].found) or trial.phase == "over"
        after = before.copy()
        for action in turn.actions:
            after.apply(action)
        assert len(after.players[player].found) == len(before.players[player].found)


def test_an_opponent_let_win_could_really_win_and_could_have_been_stopped():
    found = 0
    for seed, rules in enumerate([Rules(), Rules(return_home=False), Rules(open_cards=True)]):
        _, recorder = play_maze(2, seed, rules, levels=["medium", "easy"], cap=300)
        record = read_record(recorder.text())
        for m in analyze(record, level="medium"):
            if m.kind != LETS_WIN:
                continue
            found += 1
            before, turn = _before(record, m.turn)
            after = before.copy()
            for action in turn.actions:
                after.apply(action)
            assert any(o[5] & o[6] for o in first_ply(View(after)))  # the opponent can win now
            blocked = before.copy()
            shift, _ = _parse(blocked, m.suggestion + " 0,0")
            blocked.apply(shift)
            blocked.apply(Move(blocked.player.position))
            assert blocked.phase == "over" or not any(o[5] & o[6] for o in first_ply(View(blocked)))
    assert found


def test_weak_shifts_are_far_below_the_suggestion():
    found = 0
    for seed in range(2):
        _, recorder = play_maze(2, seed, Rules(), levels=["random", "medium"], cap=40)
        record = read_record(recorder.text())
        for m in analyze(record, level="hard", far_worse=0.1):
            if m.kind != WEAK:
                continue
            found += 1
            before, turn = _before(record, m.turn)
            view = View(before)
            options = list(first_ply(view))
            mine = next_turn_chance(view, options, *turn.actions)
            theirs = next_turn_chance(view, options, *_parse(before, m.suggestion))
            assert theirs - mine >= 0.1 and mine == m.details["chance"]
    assert found


def test_the_text_board_shows_pawns_treasures_and_the_spare(easy_game):
    record = read_record(easy_game)
    state = record.start()
    text = maze_board(state)
    rows = text.splitlines()
    assert len([r for r in rows if r.startswith(" 3 ")]) == 1
    assert " R " in rows[3] and "green" in text and "spare" in text
    width = {len(r) for r in rows[2:23]}
    assert width == {3 + 1 + 35 + 1}  # row label, arrows at both ends, 7 tiles of 5


def test_stepping_goes_forward_back_and_jumps(easy_game, capsys):
    record = read_record(easy_game)
    states = [record.start()] + [s for _, s in record.replay()]
    answers = iter(["", "", "b", "7", "q"])
    out = io.StringIO()
    replay.step(record, states, replay.lines_by_turn(easy_game), read=lambda _: next(answers), out=out)
    titles = [line for line in out.getvalue().splitlines() if line.startswith("---")]
    assert [t.split("(")[-1] for t in titles] == [f"{k}/{len(states) - 1})" for k in (0, 1, 2, 1, 7)]


def test_the_command_shows_a_turn_and_refuses_a_damaged_record(tmp_path, easy_game, capsys):
    path = tmp_path / "game.txt"
    path.write_text(easy_game)
    assert replay.main([str(path), "--turn", "3"]) == 0
    out = capsys.readouterr().out
    assert "--- after 3. " in out and "Players: red:easy green:medium" in out
    line = next(x for x in easy_game.splitlines() if x.startswith("5. "))
    path.write_text(easy_game.replace(line, line.split()[0] + " " + line.split()[1] + " N2 ES 0,0"))
    assert replay.main([str(path)]) == 2
    assert "turn 5" in capsys.readouterr().err


def test_analyze_json(tmp_path, easy_game, capsys, marks):
    path = tmp_path / "game.txt"
    path.write_text(easy_game)
    assert replay.main([str(path), "--analyze", "--json", "--level", "hard"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["level"] == "hard" and data["turns"] == len(read_record(easy_game).turns)
    assert [(m["turn"], m["kind"]) for m in data["marks"] if m["kind"] != WEAK] == [
        (m.turn, m.kind) for m in marks if m.kind != WEAK
    ]


def test_card_records_step_too(tmp_path, capsys):
    _, recorder = play_cards(3, 5)
    path = tmp_path / "cards.txt"
    path.write_text(recorder.text())
    assert replay.main([str(path), "--all"]) == 0
    out = capsys.readouterr().out
    assert "draw pile" in out and "p3" in out
    assert replay.main([str(path), "--analyze"]) == 0
    assert "analysis by" in capsys.readouterr().out


def test_card_analysis_finds_bigger_takes_that_were_there():
    from engine.cards.analysis import MISSED_TAKE, analyze as analyze_cards
    from engine.cards.record import play_turn

    _, recorder = play_cards(3, 6)
    record = read_record(recorder.text())
    marks = analyze_cards(record)
    assert marks and {m.kind for m in marks} == {MISSED_TAKE}
    for m in marks:
        before, turn = _before(record, m.turn)
        trial = before.copy()
        play_turn(trial, m.suggestion.split())  # the suggested turn is legal ...
        player = before.current
        taken = len(trial.taken[player]) - len(before.taken[player])
        assert taken == m.details["best"] > m.details["took"]  # ... and takes more
