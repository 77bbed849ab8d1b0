"""A scripted offscreen game with sound on, in real time, for tests/test_sound.py.

Run as ``python -m tests.sound_game OUT.json MODE`` (MODE: normal, mute, quiet)
with ``PULSE_SERVER`` pointing at the test's PulseAudio server. It opens the
kiosk's offscreen UI exactly as ``labyrinth-kiosk --display offscreen --sound on``
does (attract screen first), then plays a two-person game whose moves were
searched with the engine so that every cue has its moment: the attract
jingle, "your turn", an arrow chosen, the push, a walk of several cells, a
blocked arrow (the push back), another push and a walk onto the second
player's last treasure, which wins the game. Each input is marked with the
time it was given (``time.monotonic``, the same clock in every process), and
between inputs the loop runs in real time, so the parent can line the
recording up with the marks.

MODE mute mutes the sound as the operator menu does; quiet sets quiet hours
that cover now (the attract jingle must stay silent, the game not).
"""

from __future__ import annotations

import json
import sys
import time
from types import SimpleNamespace

from engine import Game
from engine.game import Move, Rules, Shift

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
                break       # one cell per arrow is enough to try
    raise RuntimeError("no scripted game found")


def _treasures(game):
    from engine.tiles import TREASURES
    return sorted(TREASURES)


def main(out_path: str, mode: str) -> int:
    from kiosk.app import Kiosk, KioskOptions
    from kiosk.config import Config, SoundConfig
    from kiosk.games.labyrinth.events import SelectArrow, TapCell
    from kiosk.ui.runner import FRAME_S, open_ui

    quiet = None
    if mode == "quiet":
        now = time.localtime()
        minute = now.tm_hour * 60 + now.tm_min
        quiet = ((minute - 30) % 1440, (minute + 30) % 1440)
    config = Config(sound=SoundConfig(enabled=True, volume=80, quiet_hours=quiet))
    kiosk = Kiosk(config, KioskOptions(fast=True))
    game, a, cell1, b, cell2, steps1, steps2 = find_script()
    ui = open_ui(kiosk, SimpleNamespace(display="offscreen", size="800x480", sound="on"))
    sound = ui.sound
    assert sound is not None, "sound did not start"
    if mode == "mute":
        sound.set_muted(True)
    marks: list[tuple[float, str]] = []

    def pump(seconds: float) -> None:
        """Frames in real time for `seconds` (the virtual clock follows)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            t = time.monotonic()
            kiosk.clock.advance(FRAME_S)
            ui.step(FRAME_S)
            time.sleep(max(0.0, FRAME_S - (time.monotonic() - t)))

    def act(label: str, command) -> None:
        marks.append((time.monotonic(), label))
        if command is not None:
            kiosk.bus.post(command)

    deadline = time.monotonic() + 60
    while not sound.ready.is_set() and time.monotonic() < deadline:
        pump(0.1)                               # the device opens and the cues are made (or read)
    if not sound.ready.is_set():
        raise SystemExit("the sound never became ready")
    act("ready", None)
    pump(2.6)                                   # the attract jingle
    act("start", None)
    session = kiosk.sessions["labyrinth"]
    session.resume(game, ["human", "human"])
    deadline = time.monotonic() + 10        # the play screen is built on its first frame (slow on a busy CPU)
    while mode != "mute" and time.monotonic() < deadline and not any(n == "turn" for _, n in sound.played):
        pump(0.05)
    pump(0.8)
    act("arrow", SelectArrow(a))
    pump(0.8)
    act("push", SelectArrow(a))                 # the same arrow again pushes
    pump(1.0)
    act("walk", TapCell(cell1))
    pump(1.6 + 0.12 * steps1)                  # the steps, then the next turn's chime, heard out
    act("blocked", SelectArrow(opposite(a)))
    pump(0.8)
    act("arrow", SelectArrow(b))
    pump(0.8)
    act("push", SelectArrow(b))
    pump(1.0)
    act("walk", TapCell(cell2))
    pump(3.5 + 0.12 * steps2)
    over = session.game.phase == "over"
    played = list(sound.played)
    sound.close()
    with open(out_path, "w") as f:
        json.dump({"marks": marks, "played": played, "steps": [steps1, steps2], "over": over,
                   "screen": ui.screen.name}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "normal"))
