"""labyrinth-replay with the kiosk's own art (offscreen PNGs, both games) and the attract's replay of the day's best game."""

from __future__ import annotations

import time
from datetime import date

import pytest

from engine.labyrinth import Rules
from engine.cards.parts import CardRules
from engine.records import read_record
from kiosk.tools import replay
from kiosk.ui.kit.layout import Layout
from tests.support.offscreen import offscreen_window
from tests.engine.test_records import play_cards, play_maze
from kiosk.games.labyrinth import geometry

pytestmark = pytest.mark.display
Image = pytest.importorskip("PIL.Image")
SIZE = (800, 480)


@pytest.fixture(scope="module", autouse=True)
def _gl():
    offscreen_window(SIZE).close()  # skips the module where there is no offscreen OpenGL


@pytest.fixture(scope="module")
def maze_text():
    """A short board game: three computers, ended by a turn limit of 6."""
    _, recorder = play_maze(3, 5, Rules(turn_limit=6), levels=["easy", "medium", "hard"])
    return recorder.text()


def shots(tmp_path, text, name="game.txt"):
    path = tmp_path / name
    path.write_text(text)
    out = tmp_path / "shots"
    status = replay.main(["--display", "offscreen", "--size", "800x480", "--screenshot-dir", str(out), str(path)])
    return status, sorted(out.glob("*.png")) if out.exists() else []


def cell_pixels(img, layout: Layout, cell):
    """The pixels of board cell (row, col), a little inside its square (PNG rows run top-down)."""
    r = geometry.cell_rect(layout, *cell)
    inset = r.w * 0.12
    box = (
        round(r.x + inset),
        round(layout.height - r.top + inset),
        round(r.right - inset),
        round(layout.height - r.y - inset),
    )
    return img.crop(box).tobytes()


def differ(a: bytes, b: bytes) -> float:
    """Mean absolute difference per byte (0 = identical)."""
    return sum(abs(x - y) for x, y in zip(a, b)) / max(1, len(a))


def test_screenshot_dir_renders_the_start_and_every_turn_of_a_board_game(tmp_path, maze_text):
    record = read_record(maze_text)
    states = [record.start()] + [s for _, s in record.replay()]
    status, pngs = shots(tmp_path, maze_text)
    assert status == 0
    assert len(pngs) == len(record.turns) + 1 == 7
    assert pngs[0].name == "0001-start.png" and pngs[1].name == f"0002-turn-{record.turns[0].number}.png"
    layout = Layout(*SIZE, "tabletop")
    images = [Image.open(p).convert("RGB") for p in pngs]
    assert images[0].size == SIZE
    for k in range(len(record.turns)):
        before, after = states[k], states[k + 1]
        pawns = {p.cell for p in before.players} | {p.cell for p in after.players}
        changed = still = 0
        for i in range(49):
            cell = (i // 7, i % 7)
            tile_changed = (before.maze.masks[i], before.maze.treasures[i]) != (
                after.maze.masks[i],
                after.maze.treasures[i],
            )
            d = differ(cell_pixels(images[k], layout, cell), cell_pixels(images[k + 1], layout, cell))
            if tile_changed:
                assert d > 8, f"turn {k + 1}: cell {cell} got another tile but looks the same"
                changed += 1
            elif i not in pawns and i not in (0, 6, 42, 48):  # no pawn, no home corner: untouched
                assert d < 2, f"turn {k + 1}: cell {cell} kept its tile but looks different ({d:.1f})"
                still += 1
        assert changed >= 6 and still > 10  # a push moves a whole line of seven tiles (some alike)


def test_screenshot_dir_renders_every_turn_of_a_card_game(tmp_path):
    _, recorder = play_cards(2, 3, rules=CardRules(turn_limit=5))
    text = recorder.text()
    record = read_record(text)
    status, pngs = shots(tmp_path, text)
    assert status == 0
    assert len(pngs) == len(record.turns) + 1
    states = [record.start()] + [s for _, s in record.replay()]
    images = [Image.open(p).convert("RGB") for p in pngs]
    table = (0, 80, 520, 480)  # the table, left of the scores and the hand (below the caption)
    laid = 0
    for k in range(len(pngs) - 1):
        d = differ(images[k].crop(table).tobytes(), images[k + 1].crop(table).tobytes())
        if states[k + 1].layout != states[k].layout:
            laid += 1
            assert d > 0.05, f"turn {k + 1} laid a card but the table looks the same"
        else:
            assert d < 0.01, f"turn {k + 1} laid nothing but the table changed"
    assert laid >= len(record.turns) // 2


def test_the_card_replay_shows_the_hand_but_no_rotate_button(tmp_path):
    """A replay only steps: the hand of the player to act is shown, but not the play screen's rotate
    button (which would do nothing there)."""
    from kiosk.core.config import Config
    from kiosk.ui.shell.window import UI
    from kiosk.ui.screens.playback import Playback, ReplayKiosk

    _, recorder = play_cards(2, 3, rules=CardRules(turn_limit=5))
    text = recorder.text()
    playback = Playback(read_record(text), text, Config())
    kiosk = ReplayKiosk(playback, Config(), virtual=True)
    u = UI(kiosk, offscreen_window(SIZE), layout="tabletop", first="cards_replay")
    try:
        scr = u.screen
        rotate = u.t("cards.rotate")
        placing = 0
        for k in range(playback.last + 1):
            scr.show_position(k)
            u.step(0.05)
            g = scr.model
            if g.started and g.phase == "place":
                placing += 1
                assert any(getattr(s, "image", None) is not None for s in scr._items)  # the hand's cards
                assert not [w for w in scr.widgets if rotate in getattr(w, "text", "")], k
        assert placing >= 2
    finally:
        u.close()
        playback.close()


def test_a_damaged_record_is_refused_with_its_turn_named_and_exit_2(tmp_path, maze_text, capsys):
    line = next(x for x in maze_text.splitlines() if x.startswith("4. "))
    damaged = maze_text.replace(line, line.split()[0] + " " + line.split()[1] + " N2 ES 0,0")
    status, pngs = shots(tmp_path, damaged)
    assert status == 2 and pngs == []
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "turn 4" in err[0]
    assert replay.main(["--display", "offscreen", str(tmp_path / "missing.txt")]) == 2


# ---------------------------------------------------------------------- the attract's replay
def attract_ui(tmp_path, config=None, records=()):
    from kiosk.core.config import Config
    from kiosk.store.records import RecordShelf
    from kiosk.core.testing import MiniKiosk
    from kiosk.ui.shell.window import UI

    kiosk = MiniKiosk(config=config or Config())
    kiosk.record_shelf = RecordShelf(tmp_path / "state")
    for recorder in records:
        kiosk.record_shelf.finish(recorder)
    return UI(kiosk, offscreen_window(SIZE), layout="tabletop", first="attract")


def captions(u) -> list[str]:
    """The attract's caption(s) saying what game plays behind the invitation, as drawn (their first
    line: the second says the kiosk has both games)."""
    return [lbl.text.split("\n")[0] for lbl in u.screen._captions]


def todays_game(seed: int = 7):
    """A short finished board game as the kiosk records it: a person (played here by `medium`) against `easy`."""
    from engine.labyrinth import Game
    from engine.labyrinth.ai import make_ai
    from engine.records import Recorder

    game = Game.new(players=2, seed=seed, rules=Rules(turn_limit=5))
    recorder = Recorder(game, ["human", "easy"], date=date.today().isoformat())
    ais = [make_ai("medium", seed=seed), make_ai("easy", seed=seed + 1)]
    while game.phase != "over":
        for action in ais[game.current].choose(game):
            game.apply(action)
            recorder.apply(action)
    return recorder


def board_picture(model):
    return tuple(model.tiles), model.spare, tuple(tuple(p) for p in model.positions)


def state_picture(state):
    from kiosk.games.labyrinth.events import tile_info

    return (
        tuple(tile_info(state.board[(r, c)]) for r in range(7) for c in range(7)),
        tile_info(state.spare),
        tuple(tuple(p.position) for p in state.players),
    )


def test_the_attract_replays_the_days_best_game_position_by_position(tmp_path):
    from kiosk.games.labyrinth.demo import RecordDemo

    recorder = todays_game()
    record = read_record(recorder.text())
    u = attract_ui(tmp_path, records=[recorder])
    try:
        scr = u.screen
        assert isinstance(scr.demo, RecordDemo)
        assert scr.demo.record.text() == record.text()
        assert captions(u) == ["Today's best game."] * 2  # not "The computers play": one for each side
        wanted = [state_picture(s) for s in [record.start()] + [s for _, s in record.replay()]]
        seen = [board_picture(scr.board.model)]
        deadline = time.monotonic() + 60
        while scr.demo.turn < len(record.turns) or scr.board.busy or scr.demo._steps:
            assert time.monotonic() < deadline, "the replay did not finish"
            u.step(0.25)  # the board rests ~1 s between a push and a walk: every rest is seen
            picture = board_picture(scr.board.model)
            if not scr.board.busy and picture != seen[-1]:
                seen.append(picture)
        shown = [p for p in seen if p in wanted]
        assert shown == wanted  # every position of the record, in order, none left out
        assert u.kiosk.sessions["labyrinth"].game is None  # the kiosk's own session stays free
    finally:
        u.close()


def test_the_attract_plays_a_fresh_demo_without_a_good_record_of_today(tmp_path):
    from kiosk.core.config import Config, KioskConfig
    from kiosk.ui.screens.attract import Demo

    recorder = todays_game()
    u = attract_ui(tmp_path)  # nothing filed today
    try:
        assert type(u.screen.demo) is Demo
        assert captions(u) == ["The computers play."] * 2
    finally:
        u.close()
    (tmp_path / "state" / "records").mkdir(parents=True)
    stamp = date.today().strftime("%Y-%m-%d")
    (tmp_path / "state" / "records" / f"{stamp}_120000-labyrinth.txt").write_text('[Game "labyrinth"]\n1. red Z9\n')
    u = attract_ui(tmp_path)  # only an unreadable one
    try:
        assert type(u.screen.demo) is Demo
    finally:
        u.close()
    off = Config(kiosk=KioskConfig(attract_replay=False))
    u = attract_ui(tmp_path / "off", config=off, records=[recorder])  # a good one, but switched off
    try:
        assert type(u.screen.demo) is Demo
    finally:
        u.close()


def test_a_replay_that_fails_gives_way_to_a_fresh_demo(tmp_path):
    from kiosk.ui.screens.attract import Demo
    from kiosk.games.labyrinth.demo import RecordDemo

    recorder = todays_game()
    u = attract_ui(tmp_path, records=[recorder])
    try:
        scr = u.screen
        assert isinstance(scr.demo, RecordDemo)
        scr.demo.session.abandon("test: the replay's game is gone")  # its commands are refused now
        for _ in range(40):
            u.step(0.25)
        assert type(scr.demo) is Demo
        assert captions(u) == ["The computers play."] * 2  # the caption follows the game behind
        scr._start_demo()
        assert type(scr.demo) is Demo  # not tried again
    finally:
        u.close()


def test_the_days_records_are_read_again_only_when_a_game_was_filed(tmp_path, monkeypatch):
    from kiosk.store.records import RecordShelf
    from kiosk.ui.screens.playback import best_record_of_day

    shelf = RecordShelf(tmp_path)
    reads = []
    real = RecordShelf.best_of_day
    monkeypatch.setattr(RecordShelf, "best_of_day", lambda self, *a, **kw: reads.append(a) or real(self, *a, **kw))
    assert best_record_of_day(shelf, "labyrinth") is None
    first = todays_game(7)
    shelf.finish(first, when=time.time())
    assert best_record_of_day(shelf, "labyrinth").text() == first.text()
    assert best_record_of_day(shelf, "labyrinth").text() == first.text()
    assert len(reads) == 2  # the empty day, then once after the game was filed
    shelf.finish(todays_game(8), when=time.time() + 1)
    best_record_of_day(shelf, "labyrinth")
    assert len(reads) == 3
