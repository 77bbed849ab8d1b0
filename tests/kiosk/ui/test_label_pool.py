"""The panels' texts are kept and moved, not laid out again (kiosk/ui/shell/label_pool.py): a second
round of turns makes no new text, a push's landing uses the texts laid out ahead while the
person thought, the texts shown sit in their panel and the kept ones show nothing; the card game's
counts (the pile, the chips) are laid out ahead too.

Runs on an offscreen EGL context (libegl1 + Mesa); skips with the reason when none can be made.
"""

from __future__ import annotations

import functools

import pytest

from kiosk.core.events import GameSetup, NewGame
from kiosk.games.labyrinth.events import PushArrow, Stay

from tests.support.offscreen import offscreen_window
from tests.support.mini_ui import play_table

pytestmark = pytest.mark.display

window_of = functools.cache(offscreen_window)
# a moment of thought, in frames: longer than the pushed-out tile's flight (0.45 s), as the texts
# are laid out ahead only in loop turns that draw nothing (Screen.prepare_ahead)
THINK_FRAMES = 40


@pytest.fixture
def ui():
    with play_table(window_of((800, 480))) as made:
        yield made


def _turn(ui) -> None:
    """The current person pushes at the first arrow allowed and stays; a moment of thought first."""
    game = ui.k.sessions["labyrinth"].game
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    arrow = next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)
    ui.post(PushArrow(arrow))
    ui.off.settle()
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    ui.post(Stay())
    ui.off.settle()


def _start(ui) -> None:
    ui.post(NewGame(GameSetup.of("human,human,human,human", seed=7)))
    ui.off.settle()
    assert ui.screen.board.model.started


def test_a_second_round_moves_the_texts_of_the_first(ui):
    _start(ui)
    pool = ui.screen.labels
    for _ in range(4):
        _turn(ui)
    made, reused = pool.made, pool.reused
    for _ in range(4):
        _turn(ui)
    assert pool.made == made, "every text of the second round was laid out in the first"
    assert pool.reused > reused


def test_a_push_lands_with_the_texts_laid_out_while_the_person_thought(ui):
    _start(ui)
    pool = ui.screen.labels
    for _ in range(THINK_FRAMES):  # the first person thinks: the first move phase is laid out meanwhile
        ui.off.frame()
    game = ui.k.sessions["labyrinth"].game
    assert game.phase == "shift"
    made = pool.made
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    assert game.phase == "move"
    assert ui.screen.panels[game.current].state.phase == "move"  # the panel shows the move phase
    assert pool.made == made, "the move phase's texts were laid out ahead"


def test_shown_texts_sit_in_their_panel_and_kept_texts_show_nothing(ui):
    _start(ui)
    for _ in range(3):
        _turn(ui)
    screen = ui.screen
    shown = set()
    for panel in screen.panels.values():
        r = panel.frame.rect
        for lab in panel.texts:
            assert lab.visible, lab.text
            assert r.x <= lab.x <= r.right and r.y <= lab.y <= r.top, (lab.text, (lab.x, lab.y), r)
            shown.add(id(lab))
    kept = [lab for _key, lab in screen.labels._free.values()]
    assert kept, "texts of earlier panels are kept for reuse"
    assert not any(lab.visible for lab in kept)
    assert not shown & {id(lab) for lab in kept}


def test_a_changed_text_is_not_kept_and_the_oldest_go_beyond_the_limit(ui):
    import pyglet

    from kiosk.ui.shell.label_pool import LabelPool
    from kiosk.ui.kit.layout import Rect
    from kiosk.ui.kit.widgets import Frame

    batch = pyglet.graphics.Batch()
    frame = Frame(Rect(0, 0, 200, 100), 180)
    pool = LabelPool(keep=2)
    a = pool.take("one", frame, 10, 10, 12, batch)
    assert pool.fresh and a.rotation == 180 and (a.x, a.y) == (190, 90)
    pool.give_back(a)
    again = pool.take("one", frame, 50, 20, 12, batch)
    assert again is a and not pool.fresh and a.visible and (a.x, a.y) == (150, 80)
    other = pool.take("one", frame, 50, 20, 14, batch)  # another size: another text
    assert other is not a and pool.fresh
    a.color = (255, 0, 0, 255)
    pool.give_back(a, changed=True)  # its key no longer says what it is
    assert pool.take("one", frame, 0, 0, 12, batch) is not a
    texts = [pool.take(w, frame, 0, 0, 12, batch) for w in ("x", "y", "z")]
    for lab in texts:
        pool.give_back(lab)
    assert len(pool._free) == 2 and texts[0]._vertex_lists == []  # the oldest was deleted
    assert pool.take("z", frame, 0, 0, 12, batch) is texts[2]


def test_a_new_game_lays_out_its_own_coming_panels(ui):
    _start(ui)
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    pool = ui.screen.labels
    pool.clear()  # nothing kept from the first game: the second lays out its own
    ui.post(NewGame(GameSetup.of("human,human", seed=8)))
    ui.off.settle()
    for _ in range(THINK_FRAMES):
        ui.off.frame()
    game = ui.k.sessions["labyrinth"].game
    assert len(game.players) == 2 and game.phase == "shift"
    made = pool.made
    ui.post(PushArrow(next(a for a in ("N1", "E3", "S5", "W1") if a != game.forbidden)))
    ui.off.settle()
    assert game.phase == "move"
    assert pool.made == made, "the new game's move phase was laid out ahead"


def _card_turn(ui) -> None:
    """The person lays the first card allowed (turned as it must be) or discards, takes none, and the
    computer plays its turn."""
    from kiosk.games.cards.events import ConfirmTake, DiscardCard, LayCard, RotateHandCard, SelectHandCard

    session = ui.k.sessions["cards"]
    g = session.game
    if g.phase == "place":
        place = g.legal_placements()[0]
        ui.post(SelectHandCard(g.hand.index(place.card)))
        ui.off.settle()
        if place.rotation:
            ui.post(RotateHandCard(turns=place.rotation))
            ui.off.settle()
        ui.post(LayCard(place.cell))
        ui.off.settle()
    elif g.phase == "discard":
        ui.post(DiscardCard(0))
        ui.off.settle()
    if g.phase == "take":
        ui.post(ConfirmTake())
        ui.off.settle()
    for _ in range(200):
        if g.phase == "over" or (g.current == 0 and not session.busy):
            break
        ui.off.frame()
    ui.off.settle()


def test_a_card_turn_shows_counts_laid_out_while_the_person_thought(ui, monkeypatch):
    """The card game's pile after a draw and its chips' new counts are laid out ahead (loop turns
    that draw nothing): the turns that change them lay out no new count."""
    from kiosk.ui.kit import widgets

    made: list[str] = []  # the texts laid out, but not ahead
    ahead = _note_ahead(monkeypatch)
    real_label = widgets.label

    def label(text, *args, **kw):
        if not ahead:
            made.append(text)
        return real_label(text, *args, **kw)

    monkeypatch.setattr(widgets, "label", label)
    ui.post(NewGame(GameSetup.of("human,easy", seed=5, game="cards")))
    ui.off.settle()
    assert ui.screen.name == "cards_play"
    session = ui.k.sessions["cards"]
    g = session.game
    counts = {ui.t("cards.pile", n=n) for n in range(len(g.draw_pile) + 1)}
    counts |= {ui.t(key, n=n) for key in ("cards.chip_taken", "cards.chip_hand") for n in range(40)}
    for _ in range(3):  # the person's turn after a moment of thought, then the computer's
        for _ in range(THINK_FRAMES):
            ui.off.frame()
        made.clear()
        _card_turn(ui)
        assert not counts & set(made), counts & set(made)


def test_a_card_game_lays_out_no_text_in_its_frames(ui, monkeypatch):
    """Every text a card turn shows is laid out ahead, in loop turns that draw nothing: the hand panel's
    buttons (rotate, take, the Undo's icon), the chips' names as a turn lights or dims them, the counts'
    widths the chips measure, the tick on a card the computer chooses to take. The frames drawn while a
    person and the computer play lay out no text at all (a text is ~1 ms of a frame here)."""
    import pyglet

    from kiosk.games.cards.screens.play import CardsPlayScreen

    made: list[str] = []  # the texts laid out in a frame
    ahead = _note_ahead(monkeypatch)
    real_init = pyglet.text.Label.__init__

    def init(self, text="", *args, **kw):
        if not ahead:
            made.append(text)
        real_init(self, text, *args, **kw)

    ticks, real_tick = [], CardsPlayScreen._tick

    def tick(screen, clip):
        if not ahead:
            ticks.append(clip)
        return real_tick(screen, clip)

    monkeypatch.setattr(pyglet.text.Label, "__init__", init)
    monkeypatch.setattr(CardsPlayScreen, "_tick", tick)
    ui.post(NewGame(GameSetup.of("human,easy", seed=5, game="cards")))
    ui.off.settle()
    for _ in range(6):  # the person's turn after a moment of thought, then the computer's
        for _ in range(THINK_FRAMES):
            ui.off.frame()
        made.clear()
        _card_turn(ui)
        assert made == [], made
    assert ticks, "the computer chose cards to take (their ticks were made ahead)"


def test_the_card_texts_made_ahead_share_one_group(ui, monkeypatch):
    """The texts the card screen makes ahead wait hidden in its batch, where a text's layout groups are
    told apart by their parent group object and each is a draw call of every frame: all of them have
    one parent (equal to the parts' own), so the texts of one font are drawn in one call (a button's
    text is in the button's own group)."""
    from kiosk.ui.shell.label_pool import LabelPool

    ahead, parents = _note_ahead(monkeypatch), set()
    real_take = LabelPool.take

    def take(pool, *args, **kw):
        lab = real_take(pool, *args, **kw)
        if ahead and pool.fresh and lab._user_group.order == 12:  # (a button's text sits in the button's group)
            parents.add(id(lab._user_group))
        return lab

    monkeypatch.setattr(LabelPool, "take", take)
    ui.post(NewGame(GameSetup.of("human,easy", seed=5, game="cards")))
    ui.off.settle()
    for _ in range(3):
        for _ in range(THINK_FRAMES):
            ui.off.frame()
        _card_turn(ui)
    assert len(parents) == 1, len(parents)


def _note_ahead(monkeypatch) -> list:
    """A list that holds the card screen while its work ahead runs (``prepare_ahead``), else is empty."""
    from kiosk.games.cards.screens.play import CardsPlayScreen

    ahead: list = []
    real = CardsPlayScreen.prepare_ahead

    def prepare_ahead(screen):
        ahead.append(screen)
        try:
            return real(screen)
        finally:
            ahead.pop()

    monkeypatch.setattr(CardsPlayScreen, "prepare_ahead", prepare_ahead)
    return ahead
