"""Rules of the travel card game (docs/rules.md section 2) on hand-built layouts.

Cells are (x, y): x grows east, y grows south. Cards used below (deck ids):
  0  cross NESW, anchor + acorn on one segment
  3  corner NE, bell + boot;  4 corner NE, boot + candle;  5 corner NE, candle + clock
  6  straight NS, clock + compass           (rotation 1: EW)
  8  two corners NE | SW, cup | drum (the segments do not meet)
  14 two dead ends N | S, horn | key;  15 two dead ends N | S, key | kite
  20 corner NE, moon + shell
  24 straight NS, vase + anchor            (rotation 1: EW)
  25 two corners NE | SW, anchor | compass
"""

from __future__ import annotations

import json

import pytest

from engine.cards import CARDS, CardGame, CardRules, Discard, IllegalAction, InvalidState, Place, Take, Termination
from engine.cards.parts import START_CELLS
from engine.cards.paths import frontier, joined_cards, open_ports


def build(layout, hands, taken=None, pile=None, current=0, rules=None, turns=0):
    """A game in phase place/discard from a layout {(x, y): (card, rotation)} and hands.
    Cards not mentioned go to the draw pile (or, with pile=[], to the discards)."""
    used = {c for c, _ in layout.values()} | {c for h in hands for c in h}
    taken = taken or [[] for _ in hands]
    used |= {c for t in taken for c in t}
    rest = [c for c in range(len(CARDS)) if c not in used]
    pile_cards = rest if pile is None else list(pile)
    discards = [] if pile is None else [c for c in rest if c not in pile_cards]
    placed = {cell: (c, r) for cell, (c, r) in layout.items()}
    from engine.cards.paths import Placed

    can = any(open_ports({k: Placed(*v) for k, v in placed.items()}, c) for c in frontier(placed))
    data = {
        "game": "cards",
        "version": 1,
        "deck": "travel-50",
        "seed": None,
        "rules": {"keep_connected": bool(rules and rules.keep_connected)},
        "layout": [[x, y, c, r] for (x, y), (c, r) in layout.items()],
        "hands": [list(h) for h in hands],
        "draw_pile": pile_cards,
        "taken": [list(t) for t in taken],
        "discards": discards,
        "current": current,
        "phase": "place" if can else "discard",
        "placed": None,
        "stuck": [],
        "turns": turns,
        "end": None,
    }
    return CardGame.from_dict(data)


def refused(game, action, *words):
    """Apply `action`, expect IllegalAction naming `words`, and the state unchanged."""
    before = game.to_dict()
    with pytest.raises(IllegalAction) as info:
        game.apply(action)
    assert game.to_dict() == before
    for w in words:
        assert w in str(info.value), str(info.value)
    return str(info.value)


# A row: cross with anchor at (0,0), an east-west straight at (1,0).
ROW = {(0, 0): (0, 0), (1, 0): (6, 1)}


# ---------------------------------------------------------------- setup
@pytest.mark.parametrize("players", range(2, 7))
def test_setup_deals_two_each_and_lays_a_two_by_two_square(players):
    game = CardGame.new(players=players, seed=11)
    assert sorted(game.layout) == sorted(START_CELLS)
    assert all(len(h) == 2 for h in game.hands)
    assert len(game.draw_pile) == 50 - 4 - 2 * players
    assert game.phase == "place" and game.current == 0 and game.scores == [0] * players
    assert game.winners == ()


@pytest.mark.parametrize("players", [1, 7, 0, "2"])
def test_setup_refuses_wrong_player_counts(players):
    with pytest.raises(ValueError, match="players must be 2 to 6"):
        CardGame.new(players=players, seed=1)


def test_same_seed_same_game_and_different_seeds_differ():
    assert CardGame.new(players=3, seed=5) == CardGame.new(players=3, seed=5)
    assert CardGame.new(players=3, seed=5).to_dict() != CardGame.new(players=3, seed=6).to_dict()


def test_start_square_always_leaves_somewhere_to_lay_a_card():
    for seed in range(300):
        assert CardGame.new(players=2, seed=seed).legal_cells(), seed


# ---------------------------------------------------------------- placement
def test_a_card_must_touch_the_layout_along_a_full_side():
    game = build(ROW, [[24, 3], [4, 5]])
    refused(game, Place(24, 1, (2, 1)), "not next to the layout")  # corner contact only
    refused(game, Place(24, 1, (5, 5)), "not next to the layout")
    refused(game, Place(24, 1, (1, 0)), "taken already")


def test_an_opening_must_meet_an_opening_across_a_shared_side():
    game = build(ROW, [[24, 3], [4, 5]])
    # (1,0) is east-west: its north side is a wall, so a north-south straight above it meets nothing.
    refused(game, Place(24, 0, (1, -1)), "none of the card's openings meets an opening")
    # East of it: a north-south straight faces the opening with a wall.
    refused(game, Place(24, 0, (2, 0)), "none of the card's openings meets an opening")
    assert Place(24, 1, (2, 0)) in game.legal_placements()
    assert Place(24, 0, (2, 0)) not in game.legal_placements()


def test_openings_facing_walls_or_empty_cells_are_allowed():
    # (1,1) touches the straight at (1,0), whose south side is a wall, and card 8 at (0,1),
    # whose east side is open.
    game = build({(0, 0): (0, 0), (1, 0): (6, 1), (0, 1): (8, 0)}, [[3, 14], [4, 5]])
    # Corner 3 turned to NW at (1,1): north faces the wall of the straight, west meets the
    # east opening of card 8. One opening meets an opening: legal.
    assert game.placement_problem(Place(3, 3, (1, 1))) is None
    game.apply(Place(3, 3, (1, 1)))
    assert game.layout[(1, 1)].card == 3


def test_only_hand_cards_in_the_place_phase_with_sane_values():
    game = build(ROW, [[24, 3], [4, 5]])
    refused(game, Place(4, 1, (2, 0)), "not in your hand")
    refused(game, Place(24, 4, (2, 0)), "Rotation must be 0 to 3")
    refused(game, Place(24, 1, (2, 0.5)), "is not a cell")
    refused(game, Take(), "nothing to take")
    refused(game, Discard(24), "only when no hand card can be laid")
    refused(game, "lay it", "not a Place, Take or Discard")


def test_legal_placements_are_exactly_the_placements_without_a_problem():
    game = CardGame.new(players=4, seed=3)
    legal = set(game.legal_placements())
    cells = set(frontier(game.layout)) | {(5, 5)}
    for card in game.hand:
        for rot in range(4):
            for cell in cells:
                place = Place(card, rot, cell)
                assert (game.placement_problem(place) is None) == (place in legal)


# ---------------------------------------------------------------- joining treasures
def test_a_path_through_another_card_joins_the_same_treasure():
    game = build(ROW, [[24, 3], [4, 5]])
    assert game.preview(Place(24, 1, (2, 0))) == {"vase": frozenset(), "anchor": frozenset({0})}
    game.apply(Place(24, 1, (2, 0)))
    assert game.phase == "take" and game.current == 0
    assert game.takeable() == {0}
    assert game.joined() == {"vase": frozenset(), "anchor": frozenset({0})}
    assert game.legal_takes() == [Take({0}), Take()]


def test_the_two_segments_of_a_card_do_not_meet():
    # Card 8 (NE | SW) in the middle: the path from the east enters NE and turns north.
    game = build({(0, 0): (0, 0), (1, 0): (8, 0)}, [[24, 3], [4, 5]])
    assert game.preview(Place(24, 1, (2, 0)))["anchor"] == frozenset()
    game.apply(Place(24, 1, (2, 0)))
    assert game.phase == "place" and game.current == 1  # nothing joined: the turn ended
    assert joined_cards(game.layout, (2, 0))["anchor"] == frozenset()


def test_a_wall_on_either_side_stops_the_path():
    # Card 14 turned east-west is two dead ends: W and E do not meet inside the card.
    game = build({(0, 0): (0, 0), (1, 0): (14, 1)}, [[24, 3], [4, 5]])
    assert game.preview(Place(24, 1, (2, 0)))["anchor"] == frozenset()


LOOP = {(0, 0): (3, 1), (1, 0): (4, 2), (0, 1): (5, 0), (2, 0): (14, 0), (2, 1): (6, 1)}


def test_a_path_may_leave_the_new_card_and_come_back_into_its_other_segment():
    # Three corners (0,0) E-S, (1,0) S-W, (0,1) N-E form one path that reaches the new cell
    # (1,1) from the north and from the west. New card 25: NE segment (anchor), SW (compass).
    # The compass card 6 lies east of the new card, on the NE side: the compass joins it by
    # leaving through W, running round the corners and coming back in through N.
    game = build(LOOP, [[25, 15], [20, 21]])
    joined = game.preview(Place(25, 0, (1, 1)))
    assert joined == {"anchor": frozenset(), "compass": frozenset({6})}
    game.apply(Place(25, 0, (1, 1)))
    assert joined_cards(game.layout, (1, 1)) == joined
    assert game.takeable() == {6}
    # Turn the corner at (0,1) to E-S: the loop is broken and the compass joins nothing.
    broken = build({**LOOP, (0, 1): (5, 1)}, [[25, 15], [20, 21]])
    assert broken.preview(Place(25, 0, (1, 1))) == {"anchor": frozenset(), "compass": frozenset()}


# ---------------------------------------------------------------- the taking rule
def test_taking_a_card_may_not_leave_another_card_alone():
    # Corner 3 at (0,1) hangs below the cross: taking the cross would leave it alone.
    layout = {(0, 0): (0, 0), (1, 0): (6, 1), (0, 1): (3, 0)}
    game = build(layout, [[24, 4], [5, 20]])
    game.apply(Place(24, 1, (2, 0)))
    # The only joined card may not be taken: the turn ends at once, nothing taken.
    assert game.phase == "place" and game.current == 1 and game.taken == [[], []]
    assert 0 in {p.card for p in game.layout.values()}


def test_taking_several_cards_together_can_be_legal_when_one_alone_is_not():
    # Card 25 (anchor on NE) below the cross: both joined. The cross alone would leave 25 alone.
    layout = {(0, 0): (0, 0), (1, 0): (6, 1), (0, 1): (25, 0)}
    game = build(layout, [[24, 4], [5, 20]])
    game.apply(Place(24, 1, (2, 0)))
    assert game.takeable() == {0, 25}
    assert game.legal_takes() == [Take({0, 25}), Take({25}), Take()]
    msg = refused(game, Take({0}), "Cannot take those", "(0, 1)", "without a neighbour")
    assert "full side" in msg
    refused(game, Take({24}), "stays on the layout")
    refused(game, Take({6}), "not joined")
    game.apply(Take({0, 25}))
    assert game.taken[0] == [0, 25]
    assert sorted(game.layout) == [(1, 0), (2, 0)]
    assert game.current == 1 and len(game.hands[0]) == 2


SPLIT = {(0, 0): (3, 1), (1, 0): (6, 1), (2, 0): (0, 0), (3, 0): (14, 0), (4, 0): (15, 0)}


def test_taking_may_split_the_layout_when_every_card_keeps_a_neighbour():
    # Row corner(E-S) - straight - cross - deadends - deadends; the new card 25 lies below the
    # corner and joins the cross's anchor. Taking the cross splits the row in two groups.
    game = build(SPLIT, [[25, 4], [5, 20]])
    game.apply(Place(25, 0, (0, 1)))
    assert game.takeable() == {0}
    game.apply(Take({0}))
    assert game.taken[0] == [0]
    assert sorted(game.layout) == [(0, 0), (0, 1), (1, 0), (3, 0), (4, 0)]


def test_with_keep_connected_taking_may_not_split_the_layout():
    game = build(SPLIT, [[25, 4], [5, 20]], rules=CardRules(keep_connected=True))
    game.apply(Place(25, 0, (0, 1)))
    # Nothing can be taken, so the turn ends straight away.
    assert game.phase == "place" and game.current == 1 and game.taken == [[], []]
    assert game.to_dict()["rules"] == {"keep_connected": True, "turn_limit": 0}


def test_taking_nothing_is_allowed():
    game = build(ROW, [[24, 3], [4, 5]])
    game.apply(Place(24, 1, (2, 0)))
    game.apply(Take())
    assert game.taken == [[], []] and len(game.layout) == 3 and game.current == 1


# ---------------------------------------------------------------- drawing, end, ties
def test_draw_back_up_to_two_after_a_turn():
    game = CardGame.new(players=2, seed=4)
    pile = len(game.draw_pile)
    top = game.draw_pile[-1]
    game.apply(game.legal_placements()[0])
    if game.phase == "take":
        game.apply(Take())
    assert len(game.hands[0]) == 2 and top in game.hands[0]
    assert len(game.draw_pile) == pile - 1 and game.current == 1 and game.turns == 1


def test_with_the_pile_empty_play_goes_on_until_every_hand_is_empty_and_ties_share():
    # Pile empty; player 0 holds one card, player 1 holds none; 3 cards taken each.
    game = build(ROW, [[3], []], taken=[[40, 41, 42], [43, 44, 45]], pile=[])
    assert game.current == 0
    game.apply(Place(3, 0, (0, 1)))  # corner N-E below the cross: joins no bell or boot
    assert game.phase == "over", game
    assert game.outcome.termination is Termination.CARDS_PLAYED
    assert game.scores == [3, 3] and game.winners == (0, 1)
    refused(game, Place(3, 0, (1, 1)), "game is over")
    refused(game, Take(), "game is over")


def test_a_player_without_cards_is_skipped():
    game = build(ROW, [[3], [], [4]], taken=[[], [], []], pile=[])
    game.apply(Place(3, 0, (0, 1)))
    assert game.current == 2 and game.phase == "place"


def test_most_cards_taken_wins():
    game = build(ROW, [[3], [4]], taken=[[40, 41, 42], [43]], pile=[])
    game.apply(Place(3, 0, (0, 1)))
    game.apply(game.legal_placements()[0])
    if game.phase == "take":
        game.apply(game.legal_takes()[0])
    assert game.phase == "over" and game.scores[1] <= 2 and game.winners == (0,)


ENCLOSED = {(0, 0): (3, 1), (1, 0): (4, 2), (0, 1): (5, 0), (1, 1): (20, 3)}


def test_no_legal_placement_means_discard_and_draw_and_a_full_round_ends_the_game():
    game = build(ENCLOSED, [[0, 6], [24, 8], [14, 15]], pile=[21, 22, 23, 25], current=1)
    assert game.legal_cells() == {} and game.legal_placements() == []
    assert game.phase == "discard" and game.legal_discards() == [Discard(24), Discard(8)]
    refused(game, Place(24, 0, (2, 0)), "discard one")
    refused(game, Discard(0), "not in your hand")
    game.apply(Discard(8))
    assert game.discards[-1] == 8 and game.hands[1] == [24, 25] and game.draw_pile == [21, 22, 23]
    assert game.current == 2 and game.phase == "discard"
    game.apply(Discard(14))
    game.apply(Discard(0))
    assert game.current == 1 and game.phase == "over"
    assert game.outcome.termination is Termination.BLOCKED
    assert game.winners == (0, 1, 2)


def test_can_place_does_not_depend_on_the_card():
    # Every card has an opening, so any card fits any cell facing an opening.
    game = CardGame.new(players=2, seed=9)
    for card in range(len(CARDS)):
        assert any(CARDS[card].rotated(r).openings for r in range(4))
    assert {p.cell for p in game.legal_placements(game.hand[0])} == set(game.legal_cells())


# ---------------------------------------------------------------- saves
def test_round_trip_through_json_in_every_phase():
    layout = {(0, 0): (0, 0), (1, 0): (6, 1), (0, 1): (25, 0)}
    game = build(layout, [[24, 4], [5, 20]])
    game.apply(Place(24, 1, (2, 0)))
    assert game.phase == "take"
    again = CardGame.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again == game and again.takeable() == {0, 25}
    again.apply(Take({0, 25}))
    game.apply(Take({0, 25}))
    assert again == game


def test_copy_is_independent():
    game = CardGame.new(players=3, seed=2)
    twin = game.copy()
    twin.apply(twin.legal_placements()[0])
    assert twin != game and game == CardGame.new(players=3, seed=2)


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d.update(game="labyrinth"), "not a card-game save"),
        (lambda d: d.update(version=99), "version 99"),
        (lambda d: d.update(deck="other"), "unknown deck"),
        (lambda d: d["hands"][0].append(d["draw_pile"].pop()), "at most 2"),
        (lambda d: d["draw_pile"].append(d["hands"][0][0]), "in two places"),
        (lambda d: d["draw_pile"].pop(), "missing"),
        (lambda d: d["layout"].append([7, 7, d["draw_pile"].pop(), 0]), "without a neighbour"),
        (lambda d: d["layout"][0].__setitem__(3, 4), "rotation must be 0-3"),
        (lambda d: d.update(phase="take"), "every hand holds 2"),
        (
            lambda d: d.update(phase="take", draw_pile=[], discards=d["discards"] + d["draw_pile"]),
            "placed must be the cell",
        ),
        (lambda d: d.update(placed=[0, 0]), "placed must be null"),
        (lambda d: d.update(phase="dance"), "phase 'dance'"),
        (lambda d: d.update(current=5), "current player 5"),
        (lambda d: d.pop("taken"), "missing taken"),
        (lambda d: d.update(phase="over"), "only a finished game, has an outcome"),
    ],
)
def test_damaged_saves_are_refused_with_a_reason(change, words):
    data = CardGame.new(players=2, seed=8).to_dict()
    change(data)
    with pytest.raises(InvalidState, match=words):
        CardGame.from_dict(data)


def test_joined_paths_run_from_the_card_just_laid_to_every_card_it_joins():
    """Seed 5: card 16 laid unturned at (1, 2) joins its kite to card 41's; the path's cells are
    what a screen lights to show why card 41 may be taken (and nothing outside phase take)."""
    game = CardGame.new(players=2, seed=5)
    assert game.joined_paths() == {}
    game.apply(Place(16, 0, (1, 2)))
    assert game.phase == "take" and game.takeable() == {41}
    paths = game.joined_paths()
    assert set(paths) == {name for name, cards in game.joined().items() if cards} == {"kite"}
    path = paths["kite"]
    assert (1, 2) in path and game.cell_of(41) in path and path <= set(game.layout)
    # the path is one piece: every cell but the first touches another of it along a side
    for cell in path - {(1, 2)}:
        assert any((cell[0] + dx, cell[1] + dy) in path for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)))
