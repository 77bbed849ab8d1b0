"""Loading a saved game: every field checked, so a damaged save is refused, never half-loaded.

A save that breaks the rules (wrong tile counts, a treasure twice, a pawn off
the board, an impossible phase) raises InvalidState with a message naming the
problem; the kiosk then moves the file aside and starts fresh.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from engine.checks import check_header, check_rules, check_seed, check_turns, need, read_outcome
from engine.errors import InvalidState
from engine.outcome import Outcome, Termination, most
from engine.labyrinth.parts import FORMAT_VERSION, GAME_NAME, MAX_PLAYERS, MIN_PLAYERS, PHASES, Phase, Player, Rules
from engine.labyrinth.maze import INSERTIONS, ROTATED, SIZE, Maze, mask_of
from engine.labyrinth.tiles import FIXED_TILES, SEATS, TREASURES, movable_tiles

if TYPE_CHECKING:
    from engine.labyrinth.game import Game


def _shape(mask: int) -> int:
    """A rotation-independent name for a tile's shape: its smallest rotated mask."""
    return min(ROTATED[mask])


def _tile(value: Any, where: str) -> tuple[int, int]:
    need(isinstance(value, (list, tuple)) and len(value) == 2, f"{where}: expected [openings, treasure]")
    openings, treasure = value
    need(isinstance(openings, str), f"{where}: openings must be a string")
    try:
        mask = mask_of(openings)
    except ValueError as exc:
        raise InvalidState(f"{where}: {exc}") from None
    need(
        len(openings) == bin(mask).count("1") and openings == "".join(s for s in "NESW" if s in openings),
        f"{where}: openings {openings!r} must list sides once, in NESW order",
    )
    need(bin(mask).count("1") in (2, 3), f"{where}: a tile has 2 or 3 openings, not {openings!r}")
    if treasure is None:
        return mask, -1
    need(treasure in TREASURES, f"{where}: unknown treasure {treasure!r}")
    return mask, TREASURES.index(treasure)


def game_from_dict(cls: type[Game], data: Any) -> Game:
    # Version 1 had no turn limit and saved "winner" where version 2 saves "outcome".
    last_field = "winner" if isinstance(data, dict) and data.get("version") == 1 else "outcome"
    check_header(
        data,
        GAME_NAME,
        FORMAT_VERSION,
        ("rules", "board", "spare", "players", "current", "phase", "last_insertion", last_field, "turns"),
        what=GAME_NAME,
        older=(1,),
    )

    need(isinstance(data["rules"], dict), "rules must be open_cards/return_home booleans and a turn_limit")
    given = dict(data["rules"])
    treasures = given.pop("treasures", 0)  # a quick game's (saves of the classic rules have none)
    need(
        isinstance(treasures, int) and not isinstance(treasures, bool) and 0 <= treasures <= len(TREASURES),
        f"treasures per player must be a whole number 0-{len(TREASURES)}, not {str(treasures)[:40]}",
    )
    rules = check_rules(
        given, ("open_cards", "return_home"), "rules must be open_cards/return_home booleans and a turn_limit"
    )
    rules["treasures"] = treasures

    board = data["board"]
    need(isinstance(board, list) and len(board) == SIZE * SIZE, "board must list 49 tiles")
    tiles = [_tile(t, f"board cell {divmod(i, SIZE)}") for i, t in enumerate(board)]
    spare = _tile(data["spare"], "spare")
    for (r, c), openings, treasure in FIXED_TILES:
        i = r * SIZE + c
        want = (mask_of(openings), TREASURES.index(treasure) if treasure else -1)
        need(tiles[i] == want, f"fixed tile at {(r, c)} must be {openings} with {treasure}")
    fixed_cells = {r * SIZE + c for (r, c), _, _ in FIXED_TILES}
    loose = [tiles[i] for i in range(SIZE * SIZE) if i not in fixed_cells] + [spare]
    have_tiles = Counter((_shape(m), t) for m, t in loose)
    want_tiles = Counter((_shape(mask_of(o)), TREASURES.index(t) if t else -1) for o, t in movable_tiles())
    need(
        have_tiles == want_tiles, "the movable tiles do not match the tile set (a tile is missing, doubled or reshaped)"
    )

    players_data = data["players"]
    need(
        isinstance(players_data, list) and MIN_PLAYERS <= len(players_data) <= MAX_PLAYERS,
        f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players",
    )
    players = []
    dealt: list[str] = []
    for k, pd in enumerate(players_data):
        where = f"player {k}"
        need(isinstance(pd, dict), f"{where}: expected an object")
        seat = pd.get("seat")
        need(isinstance(seat, int) and 0 <= seat < 4, f"{where}: seat must be 0-3")
        need(pd.get("color") in (None, SEATS[seat][0]), f"{where}: seat {seat} plays {SEATS[seat][0]}")
        pos = pd.get("position")
        need(
            isinstance(pos, (list, tuple)) and len(pos) == 2 and all(isinstance(v, int) and 0 <= v < SIZE for v in pos),
            f"{where}: position off the board",
        )
        cards, found = pd.get("cards"), pd.get("found")
        need(isinstance(cards, list) and isinstance(found, list), f"{where}: cards and found must be lists")
        need(all(t in TREASURES for t in cards + found), f"{where}: unknown treasure in cards")
        dealt += cards + found
        players.append(Player(seat, pos[0] * SIZE + pos[1], list(cards), list(found)))
    need(len({p.seat for p in players}) == len(players), "two players share a seat")
    per = Rules(treasures=treasures).per_player(len(players))
    if treasures:  # a quick game: part of the deck, no card twice
        need(len(set(dealt)) == len(dealt), "a treasure card is dealt twice")
    else:
        need(sorted(dealt) == sorted(TREASURES), "every treasure card must be dealt exactly once")
    need(
        all(p.cards_left + len(p.found) == per for p in players),
        f"each of {len(players)} players must hold {per} cards in all",
    )

    phase_word, current = data["phase"], data["current"]
    need(phase_word in PHASES, f"phase must be one of {PHASES}")
    phase = Phase(phase_word)
    need(isinstance(current, int) and 0 <= current < len(players), "current player out of range")
    turns = check_turns(data["turns"])
    need(
        phase == Phase.OVER or not rules["turn_limit"] or turns < rules["turn_limit"],
        f"a running game has played fewer turns than the turn limit {rules['turn_limit']}",
    )
    if data["version"] == 1:
        winner = data["winner"]
        if phase == Phase.OVER:
            need(winner == current, "a finished game must name the current player as winner")
        else:
            need(winner is None, "only a finished game has a winner")
        outcome = Outcome(Termination.HOME, (winner,)) if phase == Phase.OVER else None
    else:
        outcome = read_outcome(data, phase == Phase.OVER, len(players))
        if outcome is not None and outcome.termination is Termination.HOME:
            need(outcome.winners == (current,), "a game won by reaching home names the current player as winner")
        elif outcome is not None:
            need(
                outcome.termination is Termination.TURN_LIMIT, f"a board game cannot end by {outcome.termination.value}"
            )
            need(0 < rules["turn_limit"] <= turns, "a game ended by the turn limit has played that many turns")
            need(
                outcome.winners == most([len(p.found) for p in players]),
                "after the turn limit the players with the most treasures win",
            )
    last = data["last_insertion"]
    need(last is None or last in INSERTIONS, f"unknown insertion {last!r}")
    need(not (phase == Phase.MOVE and last is None), "the move phase follows a shift")

    game = cls.__new__(cls)
    game.rules = Rules(**rules)
    game.maze = Maze([m for m, _ in tiles], [t for _, t in tiles], spare[0], spare[1])
    game.players = players
    game.current = current
    game.phase = phase
    game.last_insertion = last
    game.outcome = outcome
    game.turns = turns
    game.seed = check_seed(data)
    return game
