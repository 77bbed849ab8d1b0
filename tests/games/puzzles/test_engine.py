"""The puzzles' rules: the solver's optimum against a plain brute force, the generator's seeds,
the grades, the stars, the puzzle of the day, saves and records."""

from __future__ import annotations

import datetime
import json

import pytest

from engine import GameState, IllegalAction, InvalidState
from engine.labyrinth import Game, Move, Shift
from engine.outcome import Termination
from engine.puzzles import GRADES, Puzzle, PuzzleGame, best_turn, daily, generate, optimum, stars
from engine.puzzles.generator import grade, grade_of
from engine.puzzles.solver import Search, position
from engine.records import Recorder, read_record

# ------------------------------------------------------------------ a plain brute force


def _turns(game: Game):
    """Every (shift, walk) of a turn, played on copies of the board game itself."""
    for shift in game.legal_shifts():
        pushed = game.copy()
        pushed.apply(shift)
        for cell in sorted(pushed.reachable()):
            yield shift, cell, pushed


def brute_force(game: Game, target: str, limit: int) -> int | None:
    """The fewest turns to end a walk on `target`, by trying every shift and every walk."""
    frontier = [game]
    for depth in range(1, limit + 1):
        nxt = []
        seen = set()
        for g in frontier:
            for shift, cell, pushed in _turns(g):
                tile = pushed.board[cell]
                if tile.treasure == target:
                    return depth
                if depth < limit:
                    walked = pushed.copy()
                    walked.apply(Move(cell))
                    m = walked.maze
                    key = (tuple(m.masks), tuple(m.treasures), m.spare_mask, walked.players[0].cell, shift.insertion)
                    if key not in seen:
                        seen.add(key)
                        nxt.append(walked)
        frontier = nxt
    return None


def _board_puzzle(board_seed: int, seat: int, target: str) -> PuzzleGame:
    return PuzzleGame.start(Puzzle(0, board_seed, seat, target, 1, 1, 1, "easy"))


@pytest.mark.parametrize("board_seed, seat, target", [(11, 0, "owl"), (12, 1, "ring"), (13, 2, "map"), (14, 3, "bat")])
def test_the_solvers_optimum_is_the_brute_forces_on_small_cases(board_seed, seat, target):
    game = _board_puzzle(board_seed, seat, target)
    found = optimum(game, target, limit=2)
    assert found == brute_force(game, target, limit=2)


def test_a_two_turn_optimum_is_verified_by_brute_force():
    """A puzzle the solver says takes two turns: one turn is too few for every shift and walk, two are enough."""
    p = generate(4, "hard")
    assert p.optimum == 2
    game = PuzzleGame.start(p)
    assert brute_force(game, p.target, limit=1) is None
    assert brute_force(game, p.target, limit=2) == 2


def test_a_three_turn_optimum_is_verified_by_brute_force():
    """The deepest puzzles: no shifts and walks reach the target in two turns, some do in three."""
    p = next(q for q in (generate(s, "hard") for s in range(40)) if q.optimum == 3)
    game = PuzzleGame.start(p)
    assert brute_force(game, p.target, limit=2) is None
    assert brute_force(game, p.target, limit=3) == 3


def test_the_sets_of_cells_make_the_search_exact_where_the_walks_matter():
    """best_turn plays the optimum turn by turn: the walks it picks do reach the target in time."""
    for seed in (1, 2, 3, 4, 5):
        p = generate(seed, "hard")
        game = PuzzleGame.start(p)
        while game.outcome is None:
            shift, move = best_turn(game, game.target)
            game.apply(shift)
            game.apply(move)
        assert game.solved and game.turns == p.optimum and game.stars == 3


# ------------------------------------------------------------------ the generator and the grades


def test_the_same_seed_gives_the_same_puzzle_and_another_seed_another():
    assert generate(21) == generate(21)
    assert generate(21, "hard") == generate(21, "hard")
    assert generate(21) != generate(22)
    assert {generate(s).board_seed for s in range(8)} != {generate(0).board_seed}


def test_a_generated_puzzle_is_what_grading_its_board_says():
    for g in GRADES:
        p = generate(9, g)
        assert p.grade == g
        assert grade(p.board_seed, p.seat, p.target, p.seed) == p
        game = PuzzleGame.start(p)
        assert optimum(game, p.target) == p.optimum
        assert game.player.position != game.treasure_cell(p.target)


def test_grades_follow_the_optimum_and_how_many_first_shifts_lead_on():
    assert grade_of(1, 30, 48) == "easy"
    assert grade_of(1, 4, 48) == "medium"  # one push does it, but only a few of them
    assert grade_of(2, 30, 48) == "medium"
    assert grade_of(2, 4, 48) == "hard"
    assert grade_of(3, 40, 48) == "hard"


def test_the_good_first_shifts_are_the_pushes_after_which_the_target_is_in_reach():
    """For a one-turn puzzle, counted again on the board game itself: push, look at the reachable cells."""
    for seed in (1, 2, 3):
        p = generate(seed, "easy")
        game = PuzzleGame.start(p)
        good = set(Search().good_first_shifts(position(game, p.target), p.optimum))
        by_hand = set()
        for shift in game.legal_shifts():
            trial = game.copy()
            trial.apply(shift)
            if trial.treasure_cell(p.target) in trial.reachable():
                by_hand.add((shift.insertion, trial.maze.masks[_entry(shift.insertion)]))
        # the search names each distinct rotation once (a straight tile has two): compare by the tile pushed in
        assert {(i, _pushed_mask(game, i, r)) for i, r in good} == by_hand
        assert len(good) == p.good_first


def _entry(insertion: str) -> int:
    from engine.labyrinth.maze import INSERTION_LINES

    return INSERTION_LINES[insertion][0][0]


def _pushed_mask(game: PuzzleGame, insertion: str, rotation: int) -> int:
    from engine.labyrinth.maze import ROTATED

    return ROTATED[game.maze.spare_mask][rotation]


def test_the_puzzle_of_the_day_comes_from_the_date():
    monday = datetime.date(2026, 11, 30)
    assert daily(monday) == (monday.toordinal(), "easy")
    assert daily(datetime.date(2026, 12, 2)) == (datetime.date(2026, 12, 2).toordinal(), "medium")
    assert daily(datetime.date(2026, 12, 5))[1] == "hard"  # a Saturday


# ------------------------------------------------------------------ playing, stars, saves, records


def test_stars_three_for_the_optimum_two_for_one_more_one_for_solving():
    assert [stars(2, t, True) for t in (2, 3, 4, 9)] == [3, 2, 1, 1]
    assert stars(2, 12, False) == 0


def _solve_in_one_more_turn(p: Puzzle) -> PuzzleGame:
    """A first turn that pushes and stays away from the solution, then the solver's turns."""
    game = PuzzleGame.start(p)
    for shift in game.legal_shifts():
        trial = game.copy()
        trial.apply(shift)
        here = trial.player.position
        trial.apply(Move(here))
        if trial.outcome is None and optimum(trial, p.target) == p.optimum:
            game = trial
            break
    else:
        pytest.fail("no first turn that loses exactly one turn")
    while game.outcome is None:
        shift, move = best_turn(game, game.target)
        game.apply(shift)
        game.apply(move)
    return game


def test_a_puzzle_solved_in_one_turn_more_earns_two_stars():
    p = generate(3, "medium")
    game = _solve_in_one_more_turn(p)
    assert game.solved and game.turns == p.optimum + 1 and game.stars == 2
    assert game.outcome.termination is Termination.WON and game.outcome.winners == (0,)


def test_a_puzzle_out_of_turns_ends_unsolved_with_no_winner():
    game = PuzzleGame.start(generate(3, "easy"), turn_limit=2)
    target = game.target
    for _ in range(2):
        for shift in game.legal_shifts():
            trial = game.copy()
            trial.apply(shift)
            if trial.treasure_cell(target) not in trial.reachable() or trial.treasure_cell(target) is None:
                game = trial
                break
        game.apply(Move(game.player.position))
    assert game.outcome is not None and game.outcome.termination is Termination.TURN_LIMIT
    assert game.outcome.winners == () and not game.solved and game.stars == 0
    with pytest.raises(IllegalAction):
        game.apply(Shift("N1"))


def test_the_state_keeps_the_contract_and_its_saves_round_trip_and_refuse_damage():
    game = PuzzleGame.start(generate(5, "hard"))
    assert isinstance(game, GameState)
    shift, move = best_turn(game, game.target)
    game.apply(shift)
    for state in (game, _solve_in_one_more_turn(generate(5, "medium"))):
        data = json.loads(json.dumps(state.to_dict()))
        assert PuzzleGame.from_dict(data).to_dict() == state.to_dict()
    data = game.to_dict()
    bad = dict(data, puzzle=dict(data["puzzle"], target="unicorn"))
    with pytest.raises(InvalidState, match="unknown puzzle target"):
        PuzzleGame.from_dict(bad)
    with pytest.raises(InvalidState, match="turns do not match"):
        PuzzleGame.from_dict(dict(data, turns=5))
    with pytest.raises(InvalidState, match="not a puzzle save"):
        PuzzleGame.from_dict(dict(data, game="labyrinth"))


def test_a_record_of_a_puzzle_replays_to_the_same_end_with_its_stars():
    p = generate(8, "medium")
    game = PuzzleGame.start(p)
    recorder = Recorder(game.copy(), ["human"], date="2026-12-02")
    while game.outcome is None:
        for action in best_turn(game, game.target):
            game.apply(action)
            recorder.apply(action)
    text = recorder.text()
    assert f'[Puzzle "{p.name}"]' in text and '[Stars "3"]' in text
    record = read_record(text)
    assert record.kind == "puzzles" and record.final().to_dict() == game.to_dict()
