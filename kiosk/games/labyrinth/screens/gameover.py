"""The game-over screen: who won, in how many turns, and every player's treasures.

The winner's name is their pawn colour, written in that colour next to their
pawn shape (so it reads for colour-blind players too), with a little confetti.
Each player's found treasures are shown as the same drawings as on the board.
The winners stand tallest even when another found more (the winner came home
first, RULES.md 1), so a line under the headline says why they won.
"Play again" starts the same seats and rules with a new board; "Back to start"
returns to the attract screen, as does a minute without a touch. In the
tabletop layout the winner line and the two buttons are also there upside down
for the far side (people sit on every side).
"""

from __future__ import annotations

import random
from typing import Any

import pyglet
from pyglet import shapes

from engine.outcome import Termination
from kiosk.ui.kit.text_cache import Text
from kiosk.games.labyrinth.events import GameOver

from kiosk.ui.kit.contrast import text_shade
from kiosk.ui.art import SEAT_COLORS
from kiosk.ui.kit.i18n import names_list
from kiosk.ui.screens.game_end import GameEndScreen
from kiosk.ui.kit.layout import Rect
from kiosk.ui.screens import podium
from kiosk.ui.kit.menu import Canvas, fit_font, measure, panel, picture
from kiosk.ui.screens.podium import NAME_W
from kiosk.ui.shell.screen import register
from kiosk.ui.kit.typeface import BODY, HEADLINE, RESULT
from kiosk.ui.kit.widgets import DIM, INK, Frame, label

COLOR_KEYS = ("red", "yellow", "green", "blue")
CONFETTI = 70
CONFETTI_S = 8.0  # the confetti falls this long after the result shows, then lies still (nothing drawn)
PAWN_ON_PODIUM = 64  # the pawns standing on the podium, this tall at most
ICON_ON_PODIUM = 44  # a found treasure on a block's front, at most
NAME_ON_PODIUM = 28  # the band at the top of a block's front that holds the name
LINE_UNDER_HEADLINE = 24  # design units from one line under the headline (turns, why) to the next
FAR_WHY_H = 32  # design units: the far side's why line under its headline (a body-size line box)
HEAD_H = 70  # design units: the near headline's box (crown, pawns, words); the far one's is FAR_HEAD_H
FAR_HEAD_H = 52
FAR_HEADLINE_W = 360  # design units: the far headline's least width between the far side's buttons


@register("gameover")
class GameOverScreen(GameEndScreen):
    """Winner, turns, treasures; play again or back to start."""

    game_name = "labyrinth"

    def __init__(self, ui):
        super().__init__(ui)
        self.players: list[tuple[int, str]] = []  # (seat, colour) per player
        self.return_home = True  # the rules' "come home after the last treasure" (off: no return home)
        self._confetti: list[tuple[shapes.Rectangle, float, float, float]] = []
        self._words: list[Rect] = []  # pixels: where headlines and lines stand (no confetti shows there)
        self._falling = 0.0  # seconds the confetti still falls
        self._rng = random.Random(7)

    # ------------------------------------------------------------ lifecycle
    def event_of(self, game, session) -> GameOver:
        found = tuple(tuple(p.found) for p in game.players)
        return GameOver(game.winners, game.turns, found, tuple(session.kinds), termination=game.outcome.termination)

    def prepare(self, game, event: GameOver | None) -> None:
        """Each player's seat and colour: from the game, else the usual seats for that many players."""
        self.return_home = True
        # (a result for another game than the session's, as the layout audit shows one after a game of
        # two, takes the usual seats of its own count: it showed "Green" twice and no Yellow)
        if game is not None and (event is None or len(game.players) == len(event.found)):
            self.players = [(p.seat, p.color) for p in game.players]
            self.return_home = game.rules.return_home
        elif event is not None:
            from engine.labyrinth.tiles import DEFAULT_SEATS

            seats = DEFAULT_SEATS[len(event.found)]
            self.players = [(s, COLOR_KEYS[s]) for s in seats]

    @property
    def animating(self) -> bool:
        """The confetti falls: a frame every frame for CONFETTI_S, then the result stands still and
        is not drawn again until it changes (it stays up until the idle time: 60 frames a second
        all that while kept a Pi's CPU busy for a still picture)."""
        return bool(self._confetti) and self._falling > 0

    def update(self, dt: float) -> None:
        if self.back_when_idle(dt):
            return
        if not self.animating:
            return
        self._falling -= dt
        if self._falling <= 0:
            self.ui.request_frame()  # where it came to rest is drawn
        h = self.layout.height
        for piece, vx, vy, spin in self._confetti:
            x, y = piece.x + vx * dt, piece.y - vy * dt
            if y < -20:
                y = h + 10
            piece.x, piece.y = x % self.layout.width, y
            piece.rotation = (piece.rotation + spin * dt) % 360
            piece.visible = self._clear(piece.x, piece.y)

    def _clear(self, x: float, y: float) -> bool:
        """Whether a confetti piece at (x, y) pixels is clear of the words (behind a headline it
        made the letters hard to read)."""
        return not any(r.grow(6).contains(x, y) for r in self._words)

    # ------------------------------------------------------------ drawing
    def _build(self) -> None:
        self._confetti = []
        self._words = []
        self._falling = CONFETTI_S
        super()._build()

    def _draw(self, ev, L, c: Canvas, frame: Frame) -> None:
        bg, mid, fg = (pyglet.graphics.Group(order=k) for k in (0, 2, 4))
        t = self.t
        headline, winner_seats = self.headline(ev)
        # one winner: the headline in their colour; a shared win (or none) in the ink every colour reads on
        rgb = SEAT_COLORS[winner_seats[0]] if len(winner_seats) == 1 else INK
        m = 12
        # confetti behind everything
        for _ in range(CONFETTI):
            col = SEAT_COLORS[self._rng.randrange(4)] if self._rng.random() < 0.7 else (255, 236, 120)
            piece = shapes.Rectangle(
                self._rng.uniform(0, L.width),
                self._rng.uniform(0, L.height),
                c.px(7),
                c.px(12),
                color=col,
                batch=self.batch,
                group=bg,
            )
            piece.anchor_position = (c.px(3.5), c.px(6))
            piece.opacity = 150
            self._confetti.append(
                (piece, self._rng.uniform(-20, 20) * c.s, self._rng.uniform(30, 80) * c.s, self._rng.uniform(-180, 180))
            )
        # the headline with the winner's pawn (and a copy for the far side in tabletop)
        head_y = c.H - m - HEAD_H
        btn_h = 58
        top_taken = 0
        why = self.why(ev)
        if L.tabletop:
            # the far side of the table gets the news too: a smaller upside-down line along the top edge,
            # and why under it (as they read it: nearer their edge) where it fits at the body size; its
            # own two buttons at its corners (people sit on every side), the headline between them
            # (a narrow screen: the buttons in a row of their own above it, as they read it)
            far_bw = self._button_w(c)
            self.add_buttons(c, Frame(L.screen, 180), m, btn_h, fg, width=far_bw)
            side = far_bw + 8
            beside = c.W - 2 * m - 2 * side >= FAR_HEADLINE_W
            far_w = c.W - 2 * m - (2 * side if beside else 0)
            far_why = why if measure(why, c.font(BODY), bold=False)[0] <= c.px(far_w) else ""
            below = FAR_WHY_H if far_why else 0
            above = 0 if beside else btn_h + 4  # (the buttons' row, between the far edge and the headline)
            far = Frame(
                c.r(m + (side if beside else 0), c.H - m - above - FAR_HEAD_H - below, far_w, FAR_HEAD_H + below), 180
            )
            head = Frame(far.area(Rect(0, c.px(below), far.w, c.px(FAR_HEAD_H))), 180)
            self._headline(c, head, headline, winner_seats, rgb, mid, fg, size=HEADLINE)
            if far_why:
                far_line = label(far_why, far, far.w / 2, c.px(below / 2), c.font(BODY), self.batch, fg, color=INK)
                self._shapes.append(far_line)
                self._words.append(_extent(far_line))
            top_taken = max(above + FAR_HEAD_H + below, btn_h) + 4
        self._headline(
            c, Frame(c.r(m, head_y - top_taken, c.W - 2 * m, HEAD_H), 0), headline, winner_seats, rgb, mid, fg
        )
        turns = t("gameover.turns", n=ev.turns)
        lines = [turns]
        if why:  # on the turns' line where both fit, else on a line of its own
            both = f"{turns} \u00b7 {why}"
            lines = [both] if measure(both, c.font(BODY), bold=False)[0] <= c.px(c.W - 2 * m) else [turns, why]
        for k, line in enumerate(lines):
            self._shapes.append(
                under := label(
                    line,
                    frame,
                    L.width / 2,
                    c.px(head_y - top_taken - 4 - k * LINE_UNDER_HEADLINE),
                    c.font(BODY),
                    self.batch,
                    fg,
                    color=INK,
                    bold=False,
                )
            )
            self._words.append(_extent(under))
        area_top = head_y - top_taken - 26 - (len(lines) - 1) * LINE_UNDER_HEADLINE
        bottom = m + btn_h + 14
        n = len(ev.found)
        if podium.fits(n, c.W - 2 * m):
            # the podium: each player's pawn on a block, the winners' the tallest, what they found on its front
            self._podium(c, frame, Rect(m, bottom, c.W - 2 * m, area_top - bottom), ev, mid, fg)
        else:  # too narrow for the names side by side (portrait, four players): a row each
            self._rows(c, frame, Rect(m, bottom, c.W - 2 * m, area_top - bottom), ev, mid, fg)
        self.add_buttons(c, frame, m, btn_h, fg)
        for piece, *_ in self._confetti:
            piece.visible = self._clear(piece.x, piece.y)

    def _button_w(self, c: Canvas) -> float:
        """Design units a button needs for the longer of the two buttons' words at their size."""
        return max(measure(words, c.font(size))[0] / c.px(1) for words, size in self.button_words()) + 24

    def headline(self, ev: GameOver) -> tuple[str, tuple[int, ...]]:
        """The result line and the seats of the winners: "<colour> wins!", "<colours> share the win!"
        (a tie, e.g. at the turn limit), "You did it in n turns!" (solo), or "Game over" (no winner)."""
        t = self.t
        winners = [i for i in ev.winners if i < len(self.players)]
        seats = tuple(self.players[i][0] for i in winners)
        names = [t(f"colour.{self.players[i][1]}") for i in winners]
        if len(ev.found) == 1:
            return t("gameover.solo", n=ev.turns), seats
        if len(names) == 1:
            return t("gameover.winner", player=names[0]), seats
        if names:
            return t("cards.shared_win", players=names_list(t, names)), seats  # the same words as the card game's
        return t("cards.no_winner"), seats

    def why(self, ev: GameOver) -> str:
        """Why the winners won, in few words ("Red came home first", "Turn limit: the most treasures
        wins"): the podium puts them on top even when another player found more. Empty for a solo
        game or a game without a winner."""
        winners = [i for i in ev.winners if i < len(self.players)]
        if len(ev.found) == 1 or not winners:
            return ""
        if ev.termination == Termination.TURN_LIMIT:
            return self.t("gameover.why_turn_limit")
        name = self.t(f"colour.{self.players[winners[0]][1]}")
        return self.t("gameover.why_home" if self.return_home else "gameover.why_last", player=name)

    def _headline(self, c, frame, text, seats, rgb, mid, fg, size: float = RESULT) -> None:
        """Crown, the winners' pawns and the result line centred in `frame`."""
        items = []
        w, h = frame.w, frame.h
        pawns = max(1, len(seats))
        shift = c.px(28 + (pawns - 1) * size * 0.55)  # the text moves right to make room for the pawns
        pts = fit_font(text, c.font(size), w - c.px(150) - 2 * (shift - c.px(28)))
        lbl = label(text, frame, w / 2 + shift, h / 2, pts, self.batch, fg, color=text_shade(rgb), bold=True)
        items.append(lbl)
        # crown and pawns left of the text
        text_w = lbl.content_width
        x = w / 2 + shift - text_w / 2 - c.px(34)
        for k, seat in enumerate(reversed(seats)):
            px_, py_ = frame.point(x - k * c.px(size * 1.1), h / 2)
            items.append(picture(self.ui, "pawn", seat, px_, py_, c.px(size * 1.1), self.batch, fg))
        if seats:
            cx, cy = frame.point(x - (len(seats) - 1) * c.px(size * 1.1) - c.px(size * 1.3), h / 2)
            items.append(picture(self.ui, "treasure", "crown", cx, cy, c.px(size * 1.4), self.batch, fg))
        self._shapes += items
        self._words += [_extent(item) for item in items]

    def places(self, ev: GameOver) -> list[int]:
        """Each player's place on the podium (0: the top step): winners first, then by treasures found;
        players who found as many share a step."""
        return podium.places([(i not in ev.winners, -len(found)) for i, found in enumerate(ev.found)])

    def _podium(self, c: Canvas, frame: Frame, area: Rect, ev: GameOver, mid: Any, fg: Any) -> None:
        """A wooden block per player side by side (the best in the middle: 2-1-3-4), the pawn standing on
        it and, on its front, the name (a winner's starred) and the treasures found."""
        places = self.places(ev)
        n = len(ev.found)
        bw = podium.block_width(area, n)
        pawn = min(PAWN_ON_PODIUM, area.h * 0.3)
        tallest = area.h - pawn
        most = max((len(f) for f in ev.found), default=0)
        per_row = max(1, int((bw - 12) // ICON_ON_PODIUM))
        lines = max(1, -(-most // per_row))
        icon = min(ICON_ON_PODIUM, (bw - 12) / min(max(1, most), per_row))
        shortest = NAME_ON_PODIUM + 8 + lines * icon
        if shortest > tallest:  # a solo game's 24 treasures: smaller pictures
            icon = max(12.0, (tallest - NAME_ON_PODIUM - 8) / lines)
            shortest = NAME_ON_PODIUM + 8 + lines * icon
        for i, block in enumerate(podium.blocks(area, places, pawn, shortest)):
            seat, colour = self.players[i] if i < len(self.players) else (i, COLOR_KEYS[i % 4])
            winner = i in ev.winners
            self._shapes += podium.draw_block(c, frame, block, winner, self.batch, mid)
            cx = block.x + bw / 2
            self._shapes.append(
                picture(self.ui, "pawn", seat, c.px(cx), c.px(block.top + pawn * 0.46), c.px(pawn), self.batch, fg)
            )
            name = self.t(f"colour.{colour}") + ("  \u2605" if winner else "")
            self._shapes.append(
                label(
                    name,
                    frame,
                    c.px(cx),
                    c.px(block.top - 10 - NAME_ON_PODIUM / 2),
                    fit_font(name, c.font(BODY), c.px(bw - 12)),
                    self.batch,
                    fg,
                    color=text_shade(SEAT_COLORS[seat]),
                    bold=True,
                    container=c.r(*block),
                )
            )
            found = ev.found[i]
            if not found:
                dash_y = block.top - 10 - NAME_ON_PODIUM - icon / 2
                self._shapes.append(
                    label("\u2013", frame, c.px(cx), c.px(dash_y), c.font(BODY), self.batch, fg, color=DIM)
                )
            row_w = min(len(found), per_row) * icon
            for j, treasure in enumerate(found):
                r, col = divmod(j, per_row)
                tx = cx - row_w / 2 + (col + 0.5) * icon
                ty = block.top - 10 - NAME_ON_PODIUM - (r + 0.5) * icon
                self._shapes.append(
                    picture(self.ui, "treasure", treasure, c.px(tx), c.px(ty), c.px(icon * 0.92), self.batch, fg)
                )

    def _rows(self, c: Canvas, frame: Frame, room: Rect, ev: GameOver, mid: Any, fg: Any) -> None:
        """Each player's pawn, name and treasures on a row of one tray (where blocks side by side would be
        too narrow for the names)."""
        portrait = c.H > c.W
        t = self.t
        area_top, avail = room.top, room.h
        want = 44 + len(ev.found) * (84.0 if portrait else 64.0)
        area_h = min(avail, want)
        area = Rect(room.x, area_top - area_h - (avail - area_h) / 3, room.w, area_h)
        self._shapes += panel(frame, c.r(*area), self.batch, mid, radius=c.px(12))
        self._shapes.append(
            label(
                t("gameover.treasures"),
                frame,
                c.px(area.x + 16),
                c.px(area.top - 18),
                c.font(BODY),
                self.batch,
                fg,
                color=DIM,
                anchor_x="left",
                bold=True,
            )
        )
        rows = len(ev.found)
        row_h = min(84.0 if portrait else 64.0, (area.h - 36) / max(1, rows))
        for i, found in enumerate(ev.found):
            seat, colour = self.players[i] if i < len(self.players) else (i, COLOR_KEYS[i % 4])
            cy = area.top - 36 - (i + 0.5) * row_h
            self._player_row(
                c,
                frame,
                area,
                cy,
                row_h,
                seat,
                colour,
                found,
                i in ev.winners,  # every winner of a shared win wears the star
                mid,
                fg,
                most=max(len(f) for f in ev.found),
            )

    def _player_row(self, c, frame, area, cy, row_h, seat, colour, found, winner, mid, fg, most: int) -> None:
        x = area.x + 16
        size = min(row_h * 0.8, 60)
        self._shapes.append(
            picture(self.ui, "pawn", seat, c.px(x + size / 2), c.px(cy), c.px(size * 0.8), self.batch, fg)
        )
        name = self.t(f"colour.{colour}")
        self._shapes.append(
            label(
                name + ("  \u2605" if winner else ""),
                frame,
                c.px(x + size + 8),
                c.px(cy),
                c.font(BODY),
                self.batch,
                fg,
                color=text_shade(SEAT_COLORS[seat]),
                anchor_x="left",
                bold=True,
            )
        )
        x0 = x + size + 8 + NAME_W
        room = area.right - 12 - x0
        per_row = max(1, int(room // (size * 0.95)))
        icon = min(size, room / max(1, min(most, per_row)) * 0.95)  # one icon size for every row
        if most > per_row:  # a solo game: 24 treasures on two lines
            icon = min(icon, row_h / 2 * 0.95)
            per_row = max(1, int(room // icon))
        for k, treasure in enumerate(found):
            r, col = divmod(k, per_row)
            lines = (len(found) + per_row - 1) // per_row
            ty = cy + (lines - 1) * icon / 2 - r * icon
            self._shapes.append(
                picture(
                    self.ui,
                    "treasure",
                    treasure,
                    c.px(x0 + (col + 0.5) * icon),
                    c.px(ty),
                    c.px(icon * 0.92),
                    self.batch,
                    fg,
                )
            )
        if not found:
            self._shapes.append(
                label(
                    "\u2013", frame, c.px(x0 + 10), c.px(cy), c.font(BODY), self.batch, fg, color=DIM, anchor_x="left"
                )
            )


def _extent(item: Any) -> Rect:
    """The pixels a centred label or picture covers (either way up: both are centred on their point)."""
    if isinstance(item, Text):
        w, h = item.content_width, item.content_height
    else:
        w, h = item.width, item.height
    return Rect(item.x - w / 2, item.y - h / 2, w, h)
