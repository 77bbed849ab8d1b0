"""The operator menu's charts: the numbers (kiosk/store/stats.py) and the drawing on the stats page."""

from __future__ import annotations

from datetime import date, datetime, timezone

import pytest

from kiosk.store.history import GameRecord, History
from kiosk.store.stats import DAYS, chart_data


def at(day: int, hour: int) -> float:
    return datetime(2024, 5, day, hour, 30, tzinfo=timezone.utc).timestamp()


RECORDS = [
    GameRecord.make(
        game="labyrinth", seats=["human", "hard"], winners=[1], turns=30, duration_s=600, ended_at=at(1, 9)
    ),
    GameRecord.make(
        game="labyrinth", seats=["human", "hard"], winners=[0], turns=30, duration_s=1200, ended_at=at(1, 9)
    ),
    GameRecord.make(
        game="labyrinth", seats=["human", "easy", "hard"], winners=[1], turns=30, duration_s=900, ended_at=at(3, 15)
    ),
    GameRecord.make(
        game="cards", seats=["human", "human", "easy"], winners=[0, 1], turns=9, duration_s=300, ended_at=at(10, 21)
    ),
    GameRecord.make(
        game="labyrinth", seats=["medium", "hard"], winners=[1], turns=50, duration_s=100, ended_at=at(10, 21)
    ),  # no person: not in the levels chart
    GameRecord.make(
        game="labyrinth", seats=["human", "hard"], winners=[1], turns=5, duration_s=60, ended_at=at(1, 9) - 30 * 86400
    ),  # older than the 14 days: hours and totals only
]


def test_the_numbers_behind_the_charts():
    d = chart_data(RECORDS, today=date(2024, 5, 10), tz=timezone.utc)
    assert d.games == 6
    assert len(d.per_day) == DAYS and d.per_day[-1] == (date(2024, 5, 10), 2)
    days = dict(d.per_day)
    assert days[date(2024, 5, 1)] == 2 and days[date(2024, 5, 3)] == 1 and days[date(2024, 5, 2)] == 0
    assert d.per_day[0][0] == date(2024, 4, 27)
    assert d.per_hour[9] == 3 and d.per_hour[15] == 1 and d.per_hour[21] == 2 and sum(d.per_hour) == 6
    assert d.by_game == {"cards": (1, 300.0), "labyrinth": (5, pytest.approx((600 + 1200 + 900 + 100 + 60) / 5))}
    levels = {r.level: (r.games, r.computer_wins, r.people_wins) for r in d.levels}
    assert levels == {"easy": (2, 1, 1), "hard": (4, 2, 1)}  # medium only ever played computers


def test_local_time_decides_day_and_hour():
    from datetime import timedelta

    plus_three = timezone(timedelta(hours=3))
    d = chart_data(RECORDS[:1], today=date(2024, 5, 1), tz=plus_three)
    assert d.per_hour[12] == 1 and d.per_day[-1] == (date(2024, 5, 1), 1)


def test_an_empty_history_gives_empty_charts():
    d = chart_data([], today=date(2024, 5, 10), tz=timezone.utc)
    assert d.games == 0 and all(n == 0 for _, n in d.per_day) and d.levels == [] and d.by_game == {}


@pytest.mark.display
def test_the_stats_page_draws_a_bar_for_every_non_zero_number(tmp_path):
    pytest.importorskip("pyglet")
    from tests.kiosk.ui.screens.test_screens import make_ui

    history = History(tmp_path)
    now = datetime.now(timezone.utc)
    # a level the setup offers apart (fair, as "Family") and one only the config seats (expert)
    others = [
        GameRecord.make(
            game="labyrinth", seats=["human", level], winners=[1], turns=20, duration_s=500, ended_at=at(2, 10)
        )
        for level in ("fair", "expert")
    ]
    for r in RECORDS[:5] + others:  # re-dated to the last days so they fall inside the 14-day chart
        shifted = GameRecord.make(
            game=r.game,
            seats=r.seats,
            winners=r.winners,
            turns=r.turns,
            duration_s=r.duration_s,
            ended_at=now.timestamp() - 86400 * (10 - datetime.fromisoformat(r.time).day),
        )
        history.append(shifted)
    expected = chart_data(history.read()[0])
    want = (
        sum(1 for _, n in expected.per_day if n)
        + sum(1 for n in expected.per_hour if n)
        + len(expected.by_game)
        + sum(1 for r in expected.levels if r.computer_wins)
    )
    for size, layout in (((800, 480), "tabletop"), ((720, 1280), "upright")):
        u = make_ui(size=size, layout=layout, first="attract")
        try:
            u.k.history = history
            u.goto("operator")
            scr = u.screen
            scr.open_page("stats")
            assert scr.stats_job is not None
            scr.stats_job._thread.join(30)  # counted on a worker thread; the next frame draws it
            u.step(0.02)
            assert scr.chart_bars == want
            texts = {lab.text for lab in scr._shapes if hasattr(lab, "text")}
            assert {u.t("setup.level.fair"), "expert"} <= texts
            assert {u.t("setup.board_game"), u.t("setup.card_game")} <= texts  # each game by its own name
            from pyglet import shapes

            rects = [s for s in scr._shapes if isinstance(s, shapes.Rectangle)]
            assert rects and all(
                0 <= r.x and r.x + r.width <= size[0] + 1 and 0 <= r.y and r.y + r.height <= size[1] + 1 for r in rects
            )
        finally:
            u.close()
            u.k.close()


class SlowHistory(History):
    """A history whose reading waits for the test: the page is seen while the count runs, and after."""

    def __init__(self, state_dir):
        import threading

        super().__init__(state_dir)
        self.go = threading.Event()

    def records(self, skipped=None):
        assert self.go.wait(60), "the test never let the count go on"
        yield from super().records(skipped)


def test_the_stats_page_counts_on_a_worker_and_shows_games_waiting_for_the_history(tmp_path, shots_dir):
    """The UI loop never waits for the count (the watchdog goes on being kicked): the page says it is
    counting, then draws the result, including the finished games still waiting in pending/."""
    pytest.importorskip("pyglet")
    import pyglet

    from tests.kiosk.ui.screens.test_screens import make_ui

    history = SlowHistory(tmp_path)
    now = datetime.now(timezone.utc).timestamp()
    for k in range(6):
        history.append(
            GameRecord.make(
                game="labyrinth",
                seats=["human", "hard"],
                winners=[k % 2],
                turns=30,
                duration_s=600,
                ended_at=now - k * 3600,
            )
        )
    (tmp_path / "history-broken").mkdir()
    waiting = History(tmp_path, name="history-broken")  # a history that cannot be written: games wait
    for k in range(2):
        waiting.record(
            GameRecord.make(game="labyrinth", seats=["human"], winners=[0], turns=20, duration_s=300, game_id=f"w{k}")
        )
    assert history.pending() == 2
    for size in ((800, 480), (1280, 800)):
        history.go.clear()
        u = make_ui(size=size, layout="tabletop", first="attract")
        try:
            u.k.history = history
            u.goto("operator")
            scr = u.screen
            scr.open_page("stats")
            for _ in range(3):
                u.step(0.02)  # frames go on while the worker waits
            texts = {lab.text for lab in scr._shapes if hasattr(lab, "text")}
            assert u.t("operator.stats_counting") in texts and not scr.stats_job.done
            pyglet.image.get_buffer_manager().get_color_buffer().save(str(shots_dir / f"stats-counting-{size[0]}.png"))
            history.go.set()
            scr.stats_job._thread.join(30)
            u.step(0.02)
            texts = {lab.text for lab in scr._shapes if hasattr(lab, "text")}
            assert u.t("operator.games_played", n=6) in texts, texts
            assert u.t("operator.pending", n=2) in texts, texts
            pyglet.image.get_buffer_manager().get_color_buffer().save(str(shots_dir / f"stats-counted-{size[0]}.png"))
        finally:
            history.go.set()
            u.close()
            u.k.close()
