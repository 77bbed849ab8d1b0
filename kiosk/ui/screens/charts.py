"""The operator menu's statistics as pictures: four small charts drawn with pyglet shapes.

Laid out in the page's area as a 2 x 2 grid (landscape) or a column of four
(portrait): games per day (bars for the last 14 days), busiest hours (24
bars), board game vs card game (bars with the mean length, one per mode: a game and its variants), and each
computer level against people (the computer's share of wins). Numbers come
from kiosk/store/stats.py; this module only draws them.
"""

from __future__ import annotations

from pyglet import shapes

from kiosk import games
from kiosk.store.stats import ChartData

from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.typeface import BODY
from kiosk.ui.kit.widgets import ACCENT, BUTTON, DIM, INK

BAR = ACCENT
PEOPLE = (90, 200, 130)
COMPUTER = (230, 120, 90)
TRACK = (52, 60, 74)
#: the games' bars, in the registry's order (kiosk.games)
GAME_COLOURS = (BAR, BUTTON)
#: the most modes the games chart lists (the most played of each game first)
MAX_MODES = 5
#: design units: a chart's row of words (its title, its ticks, a bar's name): a body-size line; every
#: word on the charts is at the body size at least, cut short rather than set smaller
ROW = 24
BAR_ROW = 22  # design units: a named bar's row at least (a body-size line, no gap)


def draw(screen, c, frame, area: Rect, data: ChartData) -> int:
    """Draw the four charts into `area`; returns the number of bars drawn (for tests)."""
    gap = 12
    if area.w >= area.h:
        w, h = (area.w - gap) / 2, (area.h - gap) / 2
        cells = [
            Rect(area.x, area.y + h + gap, w, h),
            Rect(area.x + w + gap, area.y + h + gap, w, h),
            Rect(area.x, area.y, w, h),
            Rect(area.x + w + gap, area.y, w, h),
        ]
    else:
        h = (area.h - 3 * gap) / 4
        cells = [Rect(area.x, area.y + (3 - i) * (h + gap), area.w, h) for i in range(4)]
    bars = 0
    bars += _columns(
        screen,
        c,
        frame,
        cells[0],
        screen.t("operator.chart_per_day"),
        [n for _, n in data.per_day],
        [data.per_day[0][0].strftime("%d.%m."), data.per_day[-1][0].strftime("%d.%m.")] if data.per_day else [],
    )
    bars += _columns(
        screen, c, frame, cells[1], screen.t("operator.chart_hours"), data.per_hour, ["0", "6", "12", "18", "24"]
    )
    bars += _games(screen, c, frame, cells[2], data)
    bars += _levels(screen, c, frame, cells[3], data)
    return bars


def _title(screen, c, frame, cell: Rect, text: str) -> float:
    """The chart's title at the top of `cell`; returns the y below it."""
    screen._text(
        c, frame, text, cell.x + 4, cell.top - ROW / 2, BODY, anchor_x="left", color=DIM, width=cell.w - 8, least=BODY
    )
    return cell.top - ROW - 2


def _rect(screen, c, x, y, w, h, color):
    r = shapes.Rectangle(
        c.px(x), c.px(y), max(1, c.px(w)), max(1, c.px(h)), color=color, batch=screen.batch, group=screen._bg
    )
    screen._shapes.append(r)
    return r


def _columns(screen, c, frame, cell: Rect, title: str, values: list[int], ticks: list[str]) -> int:
    top = _title(screen, c, frame, cell, title)
    base = cell.y + ROW
    plot_h = top - base - ROW
    n = len(values)
    if n == 0 or plot_h <= 4:
        return 0
    most = max(values) or 1
    step = (cell.w - 8) / n
    width = max(1.0, step * 0.7)
    _rect(screen, c, cell.x + 4, base - 1, cell.w - 8, 1, TRACK)
    drawn = 0
    for i, v in enumerate(values):
        if v:
            _rect(screen, c, cell.x + 4 + i * step + (step - width) / 2, base, width, plot_h * v / most, BAR)
            drawn += 1
    screen._text(
        c, frame, str(max(values)), cell.right - 4, top - ROW / 2, BODY, anchor_x="right", color=DIM, bold=False
    )
    for k, tick in enumerate(ticks):
        x = cell.x + 4 + (cell.w - 8) * (k / (len(ticks) - 1) if len(ticks) > 1 else 0)
        anchor = "left" if k == 0 else "right" if k == len(ticks) - 1 else "center"
        screen._text(c, frame, tick, x, cell.y + ROW / 2, BODY, anchor_x=anchor, color=DIM, bold=False)
    return drawn


def _hrows(screen, c, frame, cell: Rect, top: float, rows) -> int:
    rows = rows[: max(1, int((top - cell.y - 4) // BAR_ROW))]  # as many as have a body-size line each
    if not rows:
        return 0
    row_h = min(28.0, (top - cell.y - 4) / len(rows))
    after_w = 86.0
    label_w = min(150.0, cell.w * 0.42)
    track_w = cell.w - label_w - after_w - 6
    drawn = 0
    for i, (label_text, fraction, after, colour) in enumerate(rows):
        y = top - (i + 1) * row_h + 4
        screen._text(
            c,
            frame,
            label_text,
            cell.x + 4,
            y + row_h * 0.35,
            BODY,
            anchor_x="left",
            bold=False,
            width=label_w - 6,
            least=BODY,
        )
        _rect(screen, c, cell.x + label_w, y + 2, track_w, row_h * 0.55, TRACK)
        if fraction > 0:
            _rect(screen, c, cell.x + label_w, y + 2, track_w * min(1.0, fraction), row_h * 0.55, colour)
            drawn += 1
        screen._text(
            c,
            frame,
            after,
            cell.x + label_w + track_w + 6,
            y + row_h * 0.35,
            BODY,
            anchor_x="left",
            color=INK,
            bold=False,
            width=after_w,
            least=BODY,
        )
    return drawn


def _games(screen, c, frame, cell: Rect, data: ChartData) -> int:
    """Games by mode: each game, and each variant of it the history names (its own words)."""
    top = _title(screen, c, frame, cell, screen.t("operator.chart_games"))
    modes = data.by_mode or {(game, ()): counts for game, counts in data.by_game.items()}
    total = sum(n for n, _ in modes.values()) or 1
    known = {g.name: g for g in games.all_games()}
    order = list(known)

    def rank(game: str) -> int:
        """The registry's order; a game in the history that is no longer installed last."""
        return order.index(game) if game in known else len(order)

    def name(game: str, variant: tuple[str, ...]) -> str:
        kind = known.get(game)
        title = game if kind is None else screen.t(kind.title_key) if kind.title_key else kind.title
        return " ".join((title, *(word.replace("_", " ") for word in variant)))

    shown = sorted(modes.items(), key=lambda kv: (rank(kv[0][0]), -kv[1][0], kv[0][1]))[:MAX_MODES]
    rows = []
    for k, ((game, variant), (n, mean)) in enumerate(shown):
        # a game's first row names it; its other modes below say only what differs ("+ open cards")
        same = k > 0 and shown[k - 1][0][0] == game and variant
        text = "+ " + " ".join(w.replace("_", " ") for w in variant) if same else name(game, variant)
        rows.append((text, n / total, f"{n} \u00b7 {mean / 60:.0f} min", GAME_COLOURS[rank(game) % len(GAME_COLOURS)]))
    return _hrows(screen, c, frame, cell, top, rows)


def _level_name(screen, level: str) -> str:
    """A computer level as the setup screen names it (the operator's word for random); a level the
    setup does not offer (expert, seated by the config) by its own name."""
    for key in (f"setup.level.{level}", f"operator.level.{level}"):
        if screen.ui.translator.has(key):
            return screen.t(key)
    return level


def _levels(screen, c, frame, cell: Rect, data: ChartData) -> int:
    top = _title(screen, c, frame, cell, screen.t("operator.chart_levels"))
    rows = [
        (
            _level_name(screen, rec.level),
            rec.computer_wins / rec.games,
            f"{100 * rec.computer_wins / rec.games:.0f} % ({rec.games})",
            COMPUTER,
        )
        for rec in data.levels
    ]
    return _hrows(screen, c, frame, cell, top, rows)
