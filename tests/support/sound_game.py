"""Scripted offscreen games with sound on, in real time, for tests/kiosk/test_sound.py.

Run as ``python -m tests.support.sound_game OUT.json MODE`` (MODE: normal or quiet)
with ``PULSE_SERVER`` pointing at the test's PulseAudio server. It opens the
kiosk's offscreen UI exactly as ``labyrinth-kiosk --display offscreen --sound on``
does (attract screen first). MODE normal then plays a two-person board game
whose moves were searched with the engine so that every cue has its moment:
the attract jingle, "your turn", an arrow chosen, the push, a walk of several
cells, a blocked arrow (the push back), another push and a walk onto the
second player's last treasure, which wins the game. Every MODE then plays a
one-turn card game (a person against the computer, a turn limit of one):
"your turn", a lay refused (the cell is taken: blocked), a card laid, cards
taken, and the game won. Each input is marked with the time it was given
(``time.monotonic``, the same clock in every process), and between inputs the
loop runs in real time, so the parent can line the recording up with the marks.

MODE quiet sets quiet hours that cover now (the attract jingle must stay
silent, the card game not), then mutes the sound as the operator menu does
and plays the card game again (nothing may sound). One process for both keeps
the test short: most of a run is the kiosk starting.
"""

from __future__ import annotations

import json
import os
import sys
import time
from types import SimpleNamespace

from engine.labyrinth import Game
from engine.labyrinth.game import Move, Shift
from engine.labyrinth.parts import Rules

OPPOSITE = {"N": "S", "S": "N", "E": "W", "W": "E"}


def opposite(arrow: str) -> str:
    return OPPOSITE[arrow[0]] + arrow[1]


def find_script(max_seed: int = 200):
    """A game and moves: player 0 pushes A and walks >= 2 cells (finding nothing); player 1 pushes
    B and walks >= 2 cells onto treasure T, which becomes their only card (return_home off: a win)."""
    arrows = ["N1", "N3", "N5", "E1", "E3", "E5", "S1", "S3", "S5", "W1", "W3", "W5"]
    for seed in range(max_seed):
        g0 = Game.new(players=2, seed=seed, rules=Rules(return_home=False))
        for a in arrows:
            g1 = g0.copy()
            g1.apply(Shift(a, 0))
            target0 = g1.treasure_cell(g1.players[0].target)
            for cell in sorted(g1.reachable()):
                path = g1.path_to(cell)
                if path is None or len(path) < 3 or cell == target0:
                    continue
                g2 = g1.copy()
                g2.apply(Move(cell))
                for b in arrows:
                    if b == opposite(a):
                        continue
                    g3 = g2.copy()
                    g3.apply(Shift(b, 0))
                    start = g3.players[1].position
                    for c2 in sorted(g3.reachable()):
                        p2 = g3.path_to(c2)
                        if p2 is None or len(p2) < 3:
                            continue
                        treasure = next((t for t in _treasures(g3) if g3.treasure_cell(t) == c2), None)
                        if treasure is None or c2 == start:
                            continue
                        g0.players[1].cards = [treasure]
                        return g0, a, cell, b, c2, len(path) - 1, len(p2) - 1
                break  # one cell per arrow is enough to try
    raise RuntimeError("no scripted game found")


def _treasures(game):
    from engine.labyrinth.tiles import TREASURES

    return sorted(TREASURES)


def find_card_script(max_seed: int = 200):
    """A card game (two players, one turn) and the first player's turn: the hand position and the
    quarter turns of a card, the cell where it joins cards that may be taken, those cards, and a
    cell where it may not go (a laid card's)."""
    from engine.cards.game import CardGame
    from engine.cards.parts import CardRules

    for seed in range(max_seed):
        g = CardGame.new(2, seed=seed, rules=CardRules(turn_limit=1))
        for place in g.legal_placements():
            h = g.copy()
            h.apply(place)
            takes = [t for t in h.legal_takes() if t.cards] if h.phase == "take" else []
            if takes:
                taken = next(iter(g.layout))
                return seed, g.hand.index(place.card), place.rotation, place.cell, sorted(takes[0].cards), taken
    raise RuntimeError("no scripted card game found")


class Table:
    """The kiosk with its offscreen UI and sound, run in real time; each input marked with its time."""

    def __init__(self, mode: str):
        from kiosk.core.kiosk import Kiosk, KioskOptions
        from kiosk.core.config import Config, SoundConfig
        from kiosk.ui.shell.runner import open_ui

        quiet = None
        if mode == "quiet":
            now = time.localtime()
            minute = now.tm_hour * 60 + now.tm_min
            quiet = ((minute - 30) % 1440, (minute + 30) % 1440)
        config = Config(sound=SoundConfig(enabled=True, volume=80, quiet_hours=quiet))
        self.mode = mode
        self.kiosk = Kiosk(config, KioskOptions(fast=True))
        self.ui = open_ui(self.kiosk, SimpleNamespace(display="offscreen", size="800x480", sound="on"))
        self.sound = self.ui.sound
        assert self.sound is not None, "sound did not start"
        self.marks: list[tuple[float, str]] = []

    def pump(self, seconds: float) -> None:
        """Frames in real time for `seconds` (the virtual clock follows)."""
        from kiosk.ui.shell.runner import FRAME_S

        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.monotonic()
            self.kiosk.clock.advance(FRAME_S)
            self.ui.step(FRAME_S)
            time.sleep(max(0.0, FRAME_S - (time.monotonic() - t)))

    def act(self, label: str, *commands) -> None:
        self.marks.append((time.monotonic(), label))
        for command in commands:
            self.kiosk.bus.post(command)

    def until_turn(self, seconds: float = 10.0) -> None:
        """Frames until "your turn" sounded after the last input (the play screen is built on its
        first frame: slow on a busy CPU), at most `seconds`; muted, nothing will sound."""
        deadline = time.monotonic() + seconds
        since = self.marks[-1][0]
        while (
            not self.sound.muted
            and time.monotonic() < deadline
            and not any(n == "turn" and t >= since for t, n in self.sound.played)
        ):
            self.pump(0.05)

    def hear_out(self, seconds: float = 10.0) -> None:
        """Frames until every cue started has sounded to its end (a busy CPU may have started one late)."""
        from kiosk.sound import synth

        deadline = time.monotonic() + seconds
        while (
            time.monotonic() < deadline
            and self.sound.played
            and time.monotonic() < max(t + synth.sounding_seconds(n) + 0.3 for t, n in self.sound.played)
        ):
            self.pump(0.1)


def play_board(table: Table) -> tuple[bool, tuple[int, int]]:
    """The board game (see the module docstring); whether it ended, and the two walks' steps."""
    from kiosk.games.labyrinth.events import SelectArrow, TapCell

    game, a, cell1, b, cell2, steps1, steps2 = find_script()
    table.act("start")
    session = table.kiosk.sessions["labyrinth"]
    session.resume(game, ["human", "human"])
    table.until_turn()
    pump, act = table.pump, table.act
    pump(0.8)
    act("arrow", SelectArrow(a))
    pump(0.8)
    act("push", SelectArrow(a))  # the same arrow again pushes
    pump(1.0)
    act("walk", TapCell(cell1))
    pump(1.6 + 0.12 * steps1)  # the steps, then the next turn's chime, heard out
    act("blocked", SelectArrow(opposite(a)))
    pump(0.8)
    act("arrow", SelectArrow(b))
    pump(0.8)
    act("push", SelectArrow(b))
    pump(1.0)
    act("walk", TapCell(cell2))
    pump(3.0 + 0.12 * steps2)  # the steps, the treasure's moment, the fanfare
    return session.game.phase == "over", (steps1, steps2)


def play_cards(table: Table) -> bool:
    """One turn of the card game, a person against the computer; whether it ended."""
    from kiosk.core.events import GameSetup, NewGame
    from kiosk.games.cards.events import ConfirmTake, LayCard, RotateHandCard, SelectHandCard, ToggleTake

    seed, slot, turns, cell, take, taken_cell = find_card_script()
    pump, act = table.pump, table.act
    act("cards", NewGame(GameSetup.of("human,easy", game="cards", seed=seed, turn_limit=1)))
    table.until_turn()
    pump(0.6)
    act("select", SelectHandCard(slot), *([RotateHandCard(turns)] if turns else []))
    pump(0.4)
    act("blocked", LayCard(taken_cell))  # a laid card's cell: refused
    pump(0.8)
    act("lay", LayCard(cell))
    pump(0.8)
    for card in take:
        table.kiosk.bus.post(ToggleTake(card))
    pump(0.3)
    act("take", ConfirmTake())
    pump(1.0)  # the take, then the win
    return table.kiosk.sessions["cards"].game.phase == "over"


def main(out_path: str, mode: str) -> int:
    table = Table(mode)
    sound = table.sound
    deadline = time.monotonic() + 60
    while not sound.ready.is_set() and time.monotonic() < deadline:
        table.pump(0.1)  # the device opens and the cues are made (or read)
    if not sound.ready.is_set():
        raise SystemExit("the sound never became ready")
    table.act("ready")
    # the attract jingle, heard out; in quiet hours and muted the sound decided at once (``played``)
    table.pump(2.6 if mode == "normal" else 0.5)
    over, steps = play_board(table) if mode == "normal" else (False, (0, 0))
    cards_over = [play_cards(table)]
    table.hear_out()
    if mode == "quiet":
        table.act("mute")
        sound.set_muted(True)  # as the operator menu's mute does
        cards_over.append(play_cards(table))
        table.pump(1.0)
    played = list(sound.played)
    sound.close()
    with open(out_path, "w") as f:
        json.dump(
            {
                "marks": table.marks,
                "played": played,
                "steps": list(steps),
                "over": over,
                "cards_over": cards_over,
                "screen": table.ui.screen.name,
            },
            f,
        )
    return 0


if __name__ == "__main__":
    status = main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "normal")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)  # the report is written: skip the GL teardown at exit (seconds, and not under test)
