"""Results as they happened: a shared win is named as shared in both games, every winner marked (starred
in the board game, crowned in the card game, where stars are a computer's strength).

Real games played by seeded computer players to a turn limit (no hand-made result events): the
board game's seed 3 ends 0-0 after two turns, the card game's seed 4 ends 1-1 after four.
Screenshots go to the test's tmp dir (and ``$KIOSK_SHOTS`` when set, to look at them).
"""

from __future__ import annotations

import time

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.cards.events import CardGameOver
from kiosk.games.labyrinth.events import GameOver

from tests.support.mini_ui import Now, make, shot, window  # noqa: F401  (fixtures)

pytestmark = pytest.mark.display


def play_out(ui, setup, over_type):
    """Post `setup` and let its computers play it to the end; the game-over event."""
    ui.post(NewGame(setup))
    deadline = time.monotonic() + 60
    while not ui.k.of(over_type) and time.monotonic() < deadline:
        ui.k.tick()
        time.sleep(0.002)
    (over,) = ui.k.of(over_type)
    return over


def texts(screen) -> list[str]:
    return [getattr(s, "text", "") for s in screen._shapes if getattr(s, "text", "")]


def crowns(ui) -> int:
    """The card result's winners' crowns (the crown treasure's picture)."""
    crown = ui.atlas.treasure("crown")
    return sum(type(s).__name__ == "Sprite" and s.image is crown for s in ui.screen._shapes)


def card_faces(ui) -> list:
    """The cards taken, fanned on the card result's blocks (its sprites other than the crowns)."""
    crown = ui.atlas.treasure("crown")
    return [s for s in ui.screen._shapes if type(s).__name__ == "Sprite" and s.image is not crown]


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_board_game_tie_at_the_turn_limit_names_both_winners(make, tmp_path, language):
    ui = make(language=language)
    over = play_out(ui, GameSetup.of("easy,easy", seed=3, turn_limit=2), GameOver)
    assert over.winners == (0, 1) and over.found == ((), ())  # 0-0: both share the win
    ui.goto("gameover")
    shown = texts(ui.screen)
    red, green = ui.t("colour.red"), ui.t("colour.green")  # seats 0 and 2: the computers' corners
    shared = ui.t("cards.shared_win", players=f"{red} {ui.t('common.and')} {green}")  # "Red and Green"
    assert shown.count(shared) == 2  # for the near side and, turned, for the far side
    assert ui.t("gameover.winner", player=red) not in shown  # not seat 0 named the winner
    assert f"{red}  \u2605" in shown and f"{green}  \u2605" in shown  # every winner starred
    shot(ui, tmp_path, f"tie_labyrinth_{language}")


def test_board_game_single_winner_is_the_only_one_starred(make, tmp_path):
    ui = make()
    over = play_out(ui, GameSetup.of("easy,easy", seed=0, turn_limit=2), GameOver)
    assert over.winners == (1,)
    ui.goto("gameover")
    shown = texts(ui.screen)
    green = ui.t("colour.green")
    assert ui.t("gameover.winner", player=green) in shown
    assert f"{green}  \u2605" in shown and ui.t("colour.red") in shown  # the loser: no star


@pytest.mark.parametrize("language", ["en", "de"])
def test_board_game_over_at_the_turn_limit_says_why(make, language):
    """The result read from the finished game keeps its reason: at the turn limit the most treasures
    win, and the screen says so (not "came home first")."""
    ui = make(language=language)
    over = play_out(ui, GameSetup.of("easy,easy", seed=0, turn_limit=2), GameOver)
    ui.goto("gameover")  # no event given: the screen reads the session's game
    shown = " ".join(texts(ui.screen))
    assert over.termination.value == "turn_limit"
    assert ui.t("gameover.why_turn_limit") in shown
    assert ui.t("gameover.why_home", player=ui.t("colour.green")) not in shown


def test_a_result_of_four_after_a_game_of_two_names_each_of_the_four(make):
    """A four-player result shown while the session still holds a two-player game (the layout audit
    does that) takes the four usual seats: it named Green twice and no Yellow."""
    ui = make()
    play_out(ui, GameSetup.of("easy,easy", seed=0, turn_limit=2), GameOver)
    found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))
    ui.goto("gameover", event=GameOver((0,), 31, found, ("human",) * 4))
    names = [ui.t(f"colour.{c}") for c in ("red", "yellow", "green", "blue")]
    shown = " ".join(texts(ui.screen))
    assert all(name in shown for name in names), shown
    assert len({colour for _, colour in ui.screen.players}) == 4


def test_a_winner_with_fewer_treasures_is_explained(make):
    """Red came home first with two treasures; Blue found three and stands lower: the line under the
    headline says why Red won."""
    ui = make()
    found = (("ring", "crown"), ("keys",), (), ("map", "owl", "bat"))
    ui.goto("gameover", event=GameOver((0,), 31, found, ("human",) * 4))
    why = ui.t("gameover.why_home", player=ui.t("colour.red"))
    assert sum(why in text for text in texts(ui.screen)) == 2  # the near side's line and, turned, the far side's
    assert ui.screen.places(ui.screen.event)[3] > ui.screen.places(ui.screen.event)[0]  # Blue below Red


@pytest.mark.parametrize("language", ["en", "de", "et"])
def test_card_game_shared_win_names_both_and_crowns_both(make, tmp_path, language):
    ui = make(language=language)
    over = play_out(ui, GameSetup.of("easy,easy", seed=4, game="cards", turn_limit=4), CardGameOver)
    assert over.winners == (0, 1) and over.scores == (1, 1)
    ui.goto("cards_gameover")
    shown = texts(ui.screen)
    red, yellow = ui.t("colour.red"), ui.t("colour.yellow")
    assert shown.count(ui.t("cards.shared_win", players=f"{red} {ui.t('common.and')} {yellow}")) == 2
    assert shown.count("1") == 2 and crowns(ui) == 2  # both winners' numbers crowned, on their podium blocks
    assert ui.t("cards.most_wins") in shown  # why the order is what it is
    # what each took: the cards themselves, fanned on their blocks; both blocks as tall (a shared step)
    assert len(card_faces(ui)) == 2
    blocks = ui.screen.blocks
    assert len(blocks) == 2 and blocks[0].h == blocks[1].h
    shot(ui, tmp_path, f"tie_cards_{language}")


def test_card_game_result_of_another_game_shows_no_cards_from_the_finished_one(make):
    """The session holds a finished game (two players, one card each), and the screen is given a
    result of another shape (a record played back, six players): no block gets a fan of cards it
    did not take; the finished game's own result still shows its cards."""
    ui = make()
    play_out(ui, GameSetup.of("easy,easy", seed=4, game="cards", turn_limit=4), CardGameOver)
    ui.goto("cards_gameover", event=CardGameOver((0,), (9, 4, 9, 0, 7, 2), 40, ("human",) * 6))
    assert not card_faces(ui)
    ui.goto("cards_gameover")  # the finished game's own result: its two cards, fanned
    assert len(card_faces(ui)) == 2


def test_card_game_podium_orders_by_cards_taken_and_crowns_every_winner(make):
    ui = make()
    ui.goto("cards_gameover", event=CardGameOver((0, 2), (9, 4, 9, 0), 40, ("human", "hard", "human", "random")))
    blocks = ui.screen.blocks
    assert blocks[0].h == blocks[2].h > blocks[1].h > blocks[3].h  # the winners share the top step
    # left to right as a podium: the second, the first (the shared win: both winners first), then the rest
    assert sorted(range(4), key=lambda i: blocks[i].x) == [2, 0, 1, 3]
    shown = texts(ui.screen)
    assert shown.count("9") == 2 and "4" in shown and "0" in shown and crowns(ui) == 2  # only the winners crowned
