"""Each rule of docs/rules.md section 1, checked on the real engine."""

from collections import Counter

import pytest

from engine import IllegalAction
from engine.labyrinth import INSERTIONS, OPPOSITE, SEATS, TREASURES, Game, Move, Rules, Shift
from engine.labyrinth.maze import ROTATED, mask_of
from engine.labyrinth.tiles import FIXED_TILES


def shape(openings):
    n = len(openings)
    if n == 3:
        return "T"
    return "straight" if openings in ("NS", "EW") else "corner"


def all_tiles(game):
    return [game.board[c] for c in game.board] + [game.spare]


def put(game, index, cell):
    """Place a pawn by hand (test set-up only)."""
    game.players[index].cell = cell[0] * 7 + cell[1]


def snapshot(game):
    return game.to_dict()


# ---------------------------------------------------------------- components and setup


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_fixed_tiles_are_where_the_rules_put_them(seed):
    game = Game.new(players=4, seed=seed)
    for cell, openings, treasure in FIXED_TILES:
        assert game.board[cell].openings == openings
        assert game.board[cell].treasure == treasure
    assert len(FIXED_TILES) == 16
    assert {c for c, _, _ in FIXED_TILES} == {(r, c) for r in range(0, 7, 2) for c in range(0, 7, 2)}


def test_tile_and_treasure_counts():
    game = Game.new(players=4, seed=3)
    tiles = all_tiles(game)
    assert len(tiles) == 50
    fixed = {cell for cell, _, _ in FIXED_TILES}
    movable = [game.board[c] for c in game.board if c not in fixed] + [game.spare]
    assert Counter(shape(t.openings) for t in movable) == {"straight": 13, "corner": 15, "T": 6}
    assert all(t.treasure for t in movable if shape(t.openings) == "T")
    assert not any(t.treasure for t in movable if shape(t.openings) == "straight")
    assert sum(1 for t in movable if shape(t.openings) == "corner" and t.treasure) == 6
    treasures = [t.treasure for t in tiles if t.treasure]
    assert sorted(treasures) == sorted(TREASURES) and len(TREASURES) == 24


@pytest.mark.parametrize("players,per", [(1, 24), (2, 12), (3, 8), (4, 6)])
def test_cards_are_dealt_evenly(players, per):
    game = Game.new(players=players, seed=5)
    assert [p.cards_left for p in game.players] == [per] * players
    dealt = [t for p in game.players for t in p.cards]
    assert sorted(dealt) == sorted(TREASURES)
    assert all(p.found == [] for p in game.players)
    assert all(p.target == p.cards[0] for p in game.players)


def test_pawns_start_on_their_corners_clockwise_and_two_players_sit_diagonally():
    four = Game.new(players=4, seed=1)
    assert [(p.color, p.position) for p in four.players] == [
        ("red", (0, 0)),
        ("yellow", (0, 6)),
        ("green", (6, 6)),
        ("blue", (6, 0)),
    ]
    two = Game.new(players=2, seed=1)
    assert [p.position for p in two.players] == [(0, 0), (6, 6)]
    assert all(p.home == p.position for p in four.players)


def test_same_seed_same_game_and_other_seeds_differ():
    assert Game.new(players=3, seed=42) == Game.new(players=3, seed=42)
    assert Game.new(players=3, seed=42) != Game.new(players=3, seed=43)


def test_first_player_and_seats_can_be_chosen():
    game = Game.new(players=2, seed=1, seats=(1, 3), first=1)
    assert game.current == 1
    assert [p.color for p in game.players] == [SEATS[1][0], SEATS[3][0]]
    with pytest.raises(ValueError):
        Game.new(players=2, seats=(1, 1))
    with pytest.raises(ValueError):
        Game.new(players=5)


# ---------------------------------------------------------------- the shift


def test_first_turn_allows_all_twelve_insertions_in_four_rotations():
    game = Game.new(players=2, seed=1)
    shifts = game.legal_shifts()
    assert len(shifts) == 48
    assert {s.insertion for s in shifts} == set(INSERTIONS)


def test_no_push_back_rule():
    game = Game.new(players=2, seed=1)
    game.apply(Shift("N3"))
    game.apply(Move(game.player.position))
    assert game.forbidden == "S3"
    assert "S3" not in {s.insertion for s in game.legal_shifts()}
    assert len(game.legal_shifts()) == 44
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="push straight back"):
        game.apply(Shift("S3", 2))
    assert snapshot(game) == before
    game.apply(Shift("W1"))
    game.apply(Move(game.player.position))
    assert game.forbidden == "E1"


def test_opposites():
    assert OPPOSITE["N3"] == "S3" and OPPOSITE["W1"] == "E1" and OPPOSITE["E5"] == "W5"
    assert all(OPPOSITE[OPPOSITE[n]] == n for n in INSERTIONS)


@pytest.mark.parametrize(
    "name,line,reverse",
    [
        ("N3", [(r, 3) for r in range(7)], False),
        ("S5", [(r, 5) for r in range(7)], True),
        ("W1", [(1, c) for c in range(7)], False),
        ("E3", [(3, c) for c in range(7)], True),
    ],
)
def test_shift_slides_the_line_and_the_pushed_out_tile_becomes_the_spare(name, line, reverse):
    game = Game.new(players=2, seed=11)
    order = line[::-1] if reverse else line
    before = [game.board[c] for c in order]
    spare = game.spare
    game.apply(Shift(name, rotation=1))
    after = [game.board[c] for c in order]
    assert after[0] == spare.rotated(1)
    assert after[1:] == before[:-1]
    assert game.spare == before[-1]
    assert game.phase == "move"


def test_rotation_turns_the_spare_clockwise():
    assert ROTATED[mask_of("N")][1] == mask_of("E")
    assert ROTATED[mask_of("ES")][1] == mask_of("SW")
    game = Game.new(players=1, seed=2)
    spare = game.spare
    game.apply(Shift("N1", rotation=3))
    assert game.board[(0, 1)] == spare.rotated(3)


def test_pawns_of_any_player_wrap_around_and_ride_along():
    game = Game.new(players=4, seed=4)
    put(game, 0, (1, 6))  # current player, on the tile that will be pushed out
    put(game, 2, (1, 6))  # another player on the same tile
    put(game, 3, (1, 2))  # another player in the line
    game.apply(Shift("W1"))
    assert game.players[0].position == (1, 0)
    assert game.players[2].position == (1, 0)
    assert game.players[3].position == (1, 3)
    assert game.players[1].position == (0, 6)  # not in the line


def test_pawn_pushed_out_at_the_top_lands_on_the_new_tile_at_the_bottom():
    game = Game.new(players=2, seed=4)
    put(game, 1, (0, 5))
    game.apply(Shift("S5"))
    assert game.players[1].position == (6, 5)


# ---------------------------------------------------------------- the move


def test_move_only_along_open_paths():
    for seed in range(30):
        game = Game.new(players=2, seed=seed)
        game.apply(Shift("N1"))
        reach = game.reachable()
        blocked = [(r, c) for r in range(7) for c in range(7) if (r, c) not in reach]
        if blocked:
            before = snapshot(game)
            with pytest.raises(IllegalAction, match="cannot reach"):
                game.apply(Move(blocked[0]))
            assert snapshot(game) == before
            return
    pytest.fail("no position with an unreachable cell found")


def test_reachability_needs_both_tiles_open_towards_each_other():
    game = Game.new(players=1, seed=8)
    board = game.board
    for cell in game.reachable():
        r, c = cell
        for dr, dc, a, b in ((0, 1, "E", "W"), (1, 0, "S", "N")):
            other = (r + dr, c + dc)
            if other in board:
                joined = a in board[cell].openings and b in board[other].openings
                if joined:
                    assert other in game.reachable()


def test_path_to_follows_open_sides():
    game = Game.new(players=2, seed=21)
    game.apply(Shift("E3"))
    for goal in game.reachable():
        path = game.path_to(goal)
        assert path[0] == game.player.position and path[-1] == goal
        for a, b in zip(path, path[1:]):
            dr, dc = b[0] - a[0], b[1] - a[1]
            side = {(0, 1): ("E", "W"), (0, -1): ("W", "E"), (1, 0): ("S", "N"), (-1, 0): ("N", "S")}[(dr, dc)]
            assert side[0] in game.board[a].openings and side[1] in game.board[b].openings


def test_stay_and_turn_passes_clockwise():
    game = Game.new(players=3, seed=2)
    game.apply(Shift("N1"))
    game.apply(Move(game.player.position))
    assert (game.current, game.phase, game.turns) == (1, "shift", 1)


def test_actions_in_the_wrong_phase_are_refused():
    game = Game.new(players=2, seed=2)
    before = snapshot(game)
    with pytest.raises(IllegalAction, match="First push"):
        game.apply(Move((0, 0)))
    with pytest.raises(IllegalAction, match="not an insertion"):
        game.apply(Shift("N2"))
    with pytest.raises(IllegalAction, match="quarter turns"):
        game.apply(Shift("N1", rotation="1"))
    with pytest.raises(IllegalAction):
        game.apply("N1")
    assert snapshot(game) == before
    game.apply(Shift("N1"))
    with pytest.raises(IllegalAction, match="pushed in already"):
        game.apply(Shift("N3"))
    with pytest.raises(IllegalAction, match="not a cell"):
        game.apply(Move((7, 0)))


# ---------------------------------------------------------------- targets and winning


def shift_away_from(game, cell):
    """A legal shift that leaves `cell`'s row and column alone (so a pawn there stays put)."""
    r, c = cell
    for s in game.legal_shifts():
        k = int(s.insertion[1])
        if (s.insertion[0] in "NS" and k != c) or (s.insertion[0] in "EW" and k != r):
            return s
    raise AssertionError("no quiet shift")


def test_collecting_happens_only_at_the_end_of_ones_own_move():
    game = Game.new(players=2, seed=6)
    target = game.players[1].target
    spot = game.treasure_cell(target)
    if spot is None:
        game = Game.new(players=2, seed=7)
        target = game.players[1].target
        spot = game.treasure_cell(target)
    # player 1 is "carried" onto their target during player 0's turn
    put(game, 1, spot)
    game.apply(shift_away_from(game, spot))
    game.apply(Move(game.player.position))
    assert game.players[1].found == [] and game.players[1].target == target
    # on their own turn, standing still on it counts
    game.apply(shift_away_from(game, spot))
    assert game.players[1].position == spot
    game.apply(Move(spot))
    assert game.players[1].found == [target]
    assert game.players[1].target != target and game.players[1].cards_left == 11


def test_passing_through_a_target_does_not_collect_it():
    for seed in range(200):
        game = Game.new(players=1, seed=seed)
        game.apply(Shift("N1"))
        spot = game.treasure_cell(game.player.target)
        if spot is None or spot not in game.reachable():
            continue
        for goal in game.reachable():
            path = game.path_to(goal)
            if spot in path[1:-1]:
                game.apply(Move(goal))
                assert game.players[0].found == []
                return
    pytest.fail("no position where a walk passes through the target")


def test_only_the_top_card_counts_in_the_classic_rules():
    game = Game.new(players=2, seed=9)
    later = game.players[0].cards[1]
    spot = game.treasure_cell(later) or game.treasure_cell(game.players[0].cards[2])
    later = game.board[spot].treasure
    put(game, 0, spot)
    game.apply(shift_away_from(game, spot))
    game.apply(Move(spot))
    assert game.players[0].found == [] and later in game.players[0].cards


def test_open_cards_any_remaining_treasure_collects():
    game = Game.new(players=2, seed=9, rules=Rules(open_cards=True))
    cards = game.players[0].cards
    later = next(t for t in cards[1:] if game.treasure_cell(t))
    spot = game.treasure_cell(later)
    assert game.targets() == frozenset(cards)
    put(game, 0, spot)
    game.apply(shift_away_from(game, spot))
    game.apply(Move(spot))
    assert game.players[0].found == [later]
    assert later not in game.players[0].cards


def heading_home(game, index):
    p = game.players[index]
    p.found += p.cards
    p.cards.clear()
    assert p.target is None


def test_win_only_on_own_home_corner_with_all_cards():
    game = Game.new(players=2, seed=3)
    heading_home(game, 0)
    put(game, 0, (0, 6))  # someone else's corner
    game.apply(shift_away_from(game, (0, 6)))
    game.apply(Move((0, 6)))
    assert game.winner is None and game.phase == "shift"
    game.apply(shift_away_from(game, (0, 0)))
    game.apply(Move(game.player.position))
    put(game, 0, (0, 0))
    game.apply(shift_away_from(game, (0, 0)))
    game.apply(Move((0, 0)))
    assert game.winner == 0 and game.phase == "over"
    with pytest.raises(IllegalAction, match="over"):
        game.apply(Shift("N1"))


def test_home_corner_does_not_win_with_cards_left():
    game = Game.new(players=2, seed=3)
    game.apply(shift_away_from(game, (0, 0)))
    game.apply(Move((0, 0)))
    assert game.winner is None


def test_no_return_home_wins_when_the_last_card_is_collected():
    game = Game.new(players=2, seed=12, rules=Rules(return_home=False))
    p = game.players[0]
    last = next(t for t in p.cards if game.treasure_cell(t))
    p.found += [t for t in p.cards if t != last]
    p.cards[:] = [last]
    spot = game.treasure_cell(last)
    put(game, 0, spot)
    game.apply(shift_away_from(game, spot))
    game.apply(Move(spot))
    assert game.winner == 0 and game.phase == "over" and p.cards_left == 0


def test_solo_game_counts_turns_until_home():
    game = Game.new(players=1, seed=4)
    assert game.players[0].cards_left == 24
    for _ in range(3):
        game.apply(shift_away_from(game, game.player.position))
        game.apply(Move(game.player.position))
    assert game.turns == 3 and game.current == 0
    assert game.forbidden is not None  # no push-back applies to a lone player too
