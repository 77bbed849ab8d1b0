"""Sound: the cues themselves, the rules that pick them, and what the kiosk really plays.

The end-to-end tests start a real PulseAudio server of their own (a null sink,
no hardware, its own runtime folder, so it works as root on a fresh machine
with no session), record the sink's monitor with ``parec`` while a scripted
offscreen game runs in real time (tests/support/sound_game.py), and read the
recording: sox measures the levels, and each sound's start is told apart by
its lead note (kiosk/sound/synth.py ``LEAD_HZ``, found with a Goertzel filter).
"""

from __future__ import annotations

import json
import math
import os
import shutil
import struct
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kiosk.sound import Sound, SoundSettings, in_quiet_hours, parse_quiet_hours, synth

ROOT = Path(__file__).resolve().parents[2]
RATE = synth.RATE
FRAME = RATE // 100  # 10 ms


# ---------------------------------------------------------------- the cues
def goertzel(samples, freq: float) -> float:
    """Power of `freq` in `samples` (one bin of a Fourier transform)."""
    w = 2 * math.pi * freq / RATE
    c = 2 * math.cos(w)
    s1 = s2 = 0.0
    for x in samples:
        s1, s2 = x + c * s1 - s2, s1
    return s1 * s1 + s2 * s2 - c * s1 * s2


def lead_of(samples) -> str:
    """Which cue's lead note is strongest in `samples`."""
    return max(synth.LEAD_HZ, key=lambda name: goertzel(samples, synth.LEAD_HZ[name]))


def as_samples(data: bytes) -> list[int]:
    return list(struct.unpack(f"<{len(data) // 2}h", data[: len(data) // 2 * 2]))


def test_every_cue_is_short_soft_and_starts_with_its_own_lead_note():
    for name in synth.CUES:
        s = as_samples(synth.pcm(name))
        peak = max(abs(x) for x in s)
        assert 0.3 * 32767 < peak <= 0.46 * 32767, name  # audible, never near full scale
        assert len(s) >= synth.MIN_SECONDS * RATE  # long enough for PulseAudio to start it
        assert synth.sounding_seconds(name) <= (2.0 if name == "attract" else 1.4), name
        assert abs(s[0]) < 400, name  # no click at the start
        assert lead_of(s[: 4 * FRAME]) == name, name
    leads = sorted(synth.LEAD_HZ.values())
    assert max(leads) < 1100  # nothing shrill


def test_quiet_hours_parse_and_may_cross_midnight():
    assert parse_quiet_hours("22:00-08:30") == (1320, 510)
    assert parse_quiet_hours("none") is None
    for bad in ("22-8", "25:00-08:00", "22:00", "10:61-11:00"):
        with pytest.raises(ValueError):
            parse_quiet_hours(bad)
    night = (1320, 480)
    assert in_quiet_hours(night, 23 * 60) and in_quiet_hours(night, 7 * 60)
    assert not in_quiet_hours(night, 12 * 60)
    assert in_quiet_hours((600, 660), 630) and not in_quiet_hours((600, 660), 660)


class FakeOutput:
    """Stands in for the audio device in the rules tests (the real one is tested below)."""

    def __init__(self, ok=True):
        self.ok = ok
        self.reason = "fake"
        self.plays = []

    def open(self):
        return self.ok

    def load(self, name, data):
        pass

    def play(self, name, volume):
        self.plays.append((name, volume))

    def reap(self):
        pass

    def close(self):
        pass


def test_events_become_cues_in_the_order_the_board_animates_them(monkeypatch):
    from kiosk.core.bus import Bus
    from kiosk.core.events import IllegalInput
    from kiosk.games.labyrinth.events import (
        BoardShifted,
        GameOver,
        PawnMoved,
        PreviewMoved,
        TileInfo,
        TreasureFound,
        TurnChanged,
    )

    monkeypatch.setattr(synth, "cached_pcm", lambda name: b"")
    t = [100.0]
    bus = Bus()
    sound = Sound(bus, SoundSettings(), output=FakeOutput(), now=lambda: t[0], start=False)
    queued = []
    sound._thread = object()  # accept cues without the thread: record them instead
    sound.cue = lambda name, at=None: queued.append((name, round((t[0] if at is None else at) - 100.0, 2)))
    tile = TileInfo("NS")
    bus.post(TurnChanged(0, "shift", 1, None, "human"))
    bus.post(TurnChanged(1, "shift", 2, None, "medium"))  # a computer's turn: no chime
    bus.post(PreviewMoved(0, "N1", 0, tile))
    bus.post(PreviewMoved(0, None, 0, tile))  # back beside the board: nothing
    bus.post(IllegalInput("no", "select_arrow", 0, "S1", code="push_back"))
    bus.post(IllegalInput("no", "tap_cell", 0, None, code="unreachable"))  # not an arrow: nothing
    bus.post(BoardShifted(0, "N1", 0, ((0, 1), (1, 1)), tile, tile, (), "S1"))
    bus.post(PawnMoved(0, ((0, 0), (0, 1), (0, 2))))
    bus.post(TreasureFound(0, "owl", 3))
    bus.post(GameOver((0,), 5, ((), ())))
    bus.dispatch_pending()
    assert queued == [
        ("turn", 0.0),
        ("arrow", 0.0),
        ("blocked", 0.0),
        ("push", 0.0),
        ("step", 0.3),
        ("step", 0.42),
        ("treasure", 0.79),
        ("won", 2.09),
    ]


def test_card_game_events_become_cues_through_the_games_declaration(monkeypatch):
    """The card game declares its cues with its registration; your turn and the win come from the
    life cycle every game shares (once per turn, not at each phase)."""
    from kiosk.core.bus import Bus
    from kiosk.core.events import IllegalInput
    from kiosk.games.cards.events import CardGameOver, CardLaid, CardsTaken, CardTurnChanged

    monkeypatch.setattr(synth, "cached_pcm", lambda name: b"")
    t = [100.0]
    bus = Bus()
    sound = Sound(bus, SoundSettings(), output=FakeOutput(), now=lambda: t[0], start=False)
    queued = []
    sound.cue = lambda name, at=None: queued.append((name, round((t[0] if at is None else at) - 100.0, 2)))
    bus.post(CardTurnChanged(0, "place", 0, "human", 40))
    bus.post(IllegalInput("no", "lay_card", 0, code="cell_taken"))
    bus.post(IllegalInput("no", "rotate_hand_card", 0, code="pick_card_first"))  # not a refused lay: nothing
    bus.post(CardLaid(0, 7, 1, (2, 1)))
    bus.post(CardTurnChanged(0, "take", 0, "human", 40))  # the same turn's next phase: no chime
    bus.post(CardsTaken(0, (3,), ((0, 0),), 1))
    bus.post(CardsTaken(1, (), (), 0))  # took nothing: nothing
    bus.post(CardTurnChanged(1, "place", 1, "easy", 40))  # a computer's turn: no chime
    bus.post(CardGameOver((0,), (1, 0), 2))
    bus.dispatch_pending()
    assert queued == [("turn", 0.0), ("blocked", 0.0), ("lay", 0.0), ("take", 0.35), ("won", 0.85)]
    sound.close()


def wait_for(condition, seconds=5.0):
    """Until `condition()` (the sound thread works on its own); a bound, not a timing assumption."""
    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        time.sleep(0.01)


def test_mute_volume_and_no_device_mean_silence(monkeypatch, caplog):
    monkeypatch.setattr(synth, "cached_pcm", lambda name: b"")
    out = FakeOutput()
    sound = Sound(None, SoundSettings(volume=40), output=out)
    assert sound.ready.wait(5)
    assert sound.cue("arrow")
    wait_for(lambda: len(out.plays) == 1)
    sound.set_muted(True)
    assert not sound.cue("arrow")
    sound.set_muted(False)
    sound.set_volume(0)
    assert not sound.cue("step")
    sound.set_volume(55)
    assert sound.cue("step")
    wait_for(lambda: len(out.plays) == 2)
    sound.close()
    assert out.plays == [("arrow", 0.4), ("step", 0.55)]
    caplog.set_level("INFO")
    silent = Sound(None, SoundSettings(), output=FakeOutput(ok=False))
    wait_for(lambda: silent._thread is None)  # the thread gives up and says so once
    assert not silent.cue("won")
    assert [r.getMessage() for r in caplog.records if "sound off" in r.getMessage()] == ["sound off: fake"]
    silent.close()


def test_a_visitor_may_turn_it_down_or_off_but_not_above_the_operators_volume(monkeypatch):
    monkeypatch.setattr(synth, "cached_pcm", lambda name: b"")
    out = FakeOutput()
    sound = Sound(None, SoundSettings(volume=50), output=out)
    assert sound.ready.wait(5)
    assert sound.set_visitor_volume(90) == 50  # the operator's volume is the ceiling
    assert sound.set_visitor_volume(20) == 20
    assert sound.cue("arrow")
    wait_for(lambda: len(out.plays) == 1)
    sound.set_visitor_muted(True)
    assert not sound.audible and not sound.cue("arrow")
    sound.screen_shown("attract")  # the next visitor: the operator's volume again
    assert sound.audible and sound.playing_volume == 50
    assert sound.volume == 50 and not sound.muted  # the operator's own choice never changed
    sound.close()
    assert out.plays[0] == ("arrow", 0.2)


def test_the_attract_jingle_keeps_quiet_in_quiet_hours(monkeypatch):
    monkeypatch.setattr(synth, "cached_pcm", lambda name: b"")
    noon = time.struct_time((2026, 1, 1, 12, 0, 0, 3, 1, 0))
    for hours, expect in (((11 * 60, 13 * 60), []), ((22 * 60, 8 * 60), ["attract"])):
        out = FakeOutput()
        sound = Sound(None, SoundSettings(quiet_hours=hours), output=out, wall=lambda: noon)
        assert sound.ready.wait(5)
        sound.screen_shown("attract")
        sound.screen_shown("play")
        time.sleep(0.3)
        sound.close()
        assert [name for name, _ in out.plays] == expect


# ---------------------------------------------------------------- the real thing: PulseAudio
@pytest.fixture(scope="module")
def pulse(tmp_path_factory):
    """A PulseAudio server of our own with a null sink; yields the environment that reaches it."""
    for tool in ("pulseaudio", "parec", "sox"):
        if shutil.which(tool) is None:
            pytest.skip(f"{tool} is not installed (make test installs pulseaudio, pulseaudio-utils, sox)")
    home = tmp_path_factory.mktemp("pulse")
    run = home / "run"
    run.mkdir(mode=0o700)
    socket = run / "native"
    env = dict(
        os.environ,
        HOME=str(home),
        XDG_RUNTIME_DIR=str(run),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        PULSE_SERVER=f"unix:{socket}",
    )
    env.pop("DISPLAY", None)
    cmd = [
        "pulseaudio",
        "--daemonize=no",
        "--exit-idle-time=-1",
        "--disallow-exit",
        "-n",
        "--use-pid-file=no",
        "--disable-shm=yes",
        "--load=module-null-sink sink_name=kiosk_test rate=22050 channels=1",
        f"--load=module-native-protocol-unix socket={socket} auth-anonymous=1",
    ]
    log_path = home / "pulseaudio.log"
    server = subprocess.Popen(cmd, env=env, stdout=open(log_path, "w"), stderr=subprocess.STDOUT, preexec_fn=_priority)
    try:
        for _ in range(100):
            if server.poll() is not None:
                break
            if subprocess.run(["pactl", "info"], env=env, capture_output=True).returncode == 0:
                break
            time.sleep(0.1)
        else:
            pytest.fail("PulseAudio did not answer within 10 s:\n" + log_path.read_text()[-2000:])
        if server.poll() is not None:
            pytest.fail("PulseAudio would not start:\n" + log_path.read_text()[-2000:])
        yield env
    finally:
        server.terminate()
        try:
            server.wait(5)
        except subprocess.TimeoutExpired:
            server.kill()


def _priority() -> None:
    """Run ahead of other work when allowed (root, as in CI): the game and the recorder keep real
    time on a machine busy with other jobs, as the kiosk does on its own Pi. Elsewhere: as is."""
    try:
        os.nice(-10)
    except OSError:
        pass


class Recording:
    """``parec`` on the null sink's monitor: raw 16-bit mono at RATE.

    It is recording before anything plays (the constructor waits for its first
    data), and it stops only once it holds everything up to a given moment (a
    busy machine may run the recorder behind): the checks read whole cues, not
    what a fixed wait happened to catch. Both waits have generous deadlines and
    end as soon as their condition holds."""

    BYTES_PER_S = RATE * 2
    DEADLINE_S = 30.0

    def __init__(self, env, path: Path):
        self.path = path
        self.proc = subprocess.Popen(
            [
                "parec",
                "--latency-msec=10",
                "--format=s16le",
                f"--rate={RATE}",
                "--channels=1",
                "-d",
                "kiosk_test.monitor",
                "--raw",
            ],
            env=env,
            stdout=open(path, "wb"),
            preexec_fn=_priority,
        )
        deadline = time.monotonic() + self.DEADLINE_S
        while self._size() < self.BYTES_PER_S // 10:  # 0.1 s recorded: parec is live
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"parec did not start recording (exit status {self.proc.poll()})")
            time.sleep(0.01)
        self.started = time.monotonic() - self._size() / self.BYTES_PER_S  # when its first sample came

    def _size(self) -> int:
        return self.path.stat().st_size

    def stop(self, until: float | None = None) -> list[int]:
        """Stop once the recording reaches the moment `until` (time.monotonic; default now) and 0.3 s
        more, or at the deadline; the samples."""
        end = (time.monotonic() if until is None else until) + 0.3
        deadline = time.monotonic() + self.DEADLINE_S
        while self._size() < (end - self.started) * self.BYTES_PER_S and time.monotonic() < deadline:
            time.sleep(0.05)
        self.proc.terminate()
        self.proc.wait(5)
        return as_samples(self.path.read_bytes())

    def sox_max(self) -> float:
        """sox's "Maximum amplitude" of the recording (0..1)."""
        out = subprocess.run(
            ["sox", "-t", "raw", "-r", str(RATE), "-e", "signed", "-b", "16", "-c", "1", str(self.path), "-n", "stat"],
            capture_output=True,
            text=True,
        ).stderr
        line = next(l for l in out.splitlines() if l.startswith("Maximum amplitude"))
        return float(line.split(":")[1])


def onsets(samples: list[int]) -> list[tuple[float, str]]:
    """Where a sound starts after quiet (seconds into the recording) and which cue's lead note it has.

    A start: a 10 ms frame louder than 1500 whose frame before was not, with 20 ms of near
    silence before that (one frame of rise is allowed: a note starts anywhere in a frame)."""
    levels = [max(abs(x) for x in samples[i : i + FRAME]) for i in range(0, len(samples) - FRAME, FRAME)]
    out = []
    for k in range(4, len(levels) - 4):
        if levels[k] > 1500 and levels[k - 1] <= 1500 and max(levels[k - 3 : k - 1]) < 300:
            start = (k - 1) * FRAME if levels[k - 1] > 300 else k * FRAME
            out.append((start / RATE, lead_of(samples[start : start + 4 * FRAME])))
    return out


def run_game(pulse, tmp_path, mode: str):
    rec = Recording(pulse, tmp_path / f"{mode}.raw")
    out = tmp_path / f"{mode}.json"
    proc = subprocess.run(
        [sys.executable, "-m", "tests.support.sound_game", str(out), mode],
        cwd=ROOT,
        env=pulse,
        capture_output=True,
        text=True,
        timeout=240,
        preexec_fn=_priority,
    )
    if proc.returncode != 0:
        rec.stop()
        pytest.fail(proc.stderr[-3000:])
    report = json.loads(out.read_text())
    # the game heard out every cue before it ended: the recording must reach this moment
    return rec, rec.stop(), report


CARD_CUES = ["turn", "blocked", "lay", "take", "won"]


def expected_cues(steps, mode="normal"):
    """What the scripted games (tests/support/sound_game.py) sound: in MODE normal the attract jingle and the
    board game, then in every mode the one-turn card game."""
    if mode != "normal":
        return list(CARD_CUES)
    s1, s2 = steps
    return (
        ["attract", "turn", "arrow", "push"]
        + ["step"] * s1
        + ["turn", "blocked", "arrow", "push"]
        + ["step"] * s2
        + ["treasure", "won"]
        + CARD_CUES
    )


def groups(timed):
    """(time, cue) in order -> [time, cue, count]: a walk's steps become one entry with their count."""
    out = []
    for t, name in timed:
        if name == "step" and out and out[-1][1] == "step":
            out[-1][2] += 1
        else:
            out.append([t, name, 1])
    return out


def check_heard(rec, samples, report, mode="normal"):
    """The kiosk chose exactly the expected cues, each right after the input that asked for it, and
    the recording holds them in that order at those moments.

    The checks leave room for a busy machine (CI, or several jobs at once): a new stream may start
    a little late, so the recording is lined up by the median lag and two steps of a walk may
    start close enough to be heard as one (the step count itself is checked in what the kiosk
    played)."""
    want = expected_cues(report["steps"], mode)
    assert [name for _, name in report["played"]] == want
    heard = groups(onsets(samples))
    played = groups(report["played"])
    assert [g[1] for g in heard] == [g[1] for g in played], (
        "heard",
        heard,
        "played",
        [(round(t - rec.started, 2), n) for t, n in report["played"]],
        "inputs",
        [(round(t - rec.started, 2), m) for t, m in report["marks"]],
    )
    for (_, name, n_heard), (_, _, n_played) in zip(heard, played):
        assert 1 <= n_heard <= n_played, (name, n_heard, n_played)
    # line the recording up with the game's clock (parec's own start-up delay is unknown)
    lags = sorted(h[0] - (p[0] - rec.started) for h, p in zip(heard, played))
    offset = lags[len(lags) // 2]
    # within a second: on a loaded machine the kiosk's own note of a cue's moment and the sound
    # server's stream can each be late by a few hundred ms (the order is checked exactly above)
    for h, p in zip(heard, played):
        assert abs(h[0] - (p[0] - rec.started) - offset) < 1.0, (h, p[0] - rec.started, offset)
    # each cue came right after the input that caused it
    marks = report["marks"]
    by_label: dict[str, list[float]] = {}
    for t, label in marks:
        by_label.setdefault(label, []).append(t)
    names = [n for _, n in report["played"]]
    times = [t for t, _ in report["played"]]

    def first_after(name, t0):
        return next(t for t, n in zip(times, names) if n == name and t >= t0 - 0.01)

    def next_mark(t0):
        return min((t for t, _ in marks if t > t0), default=math.inf)

    # the answer to an input sounds before the next input (the script waits between inputs; a
    # computer busy with other work may take a while to build a screen, which is no error)
    answers = [("blocked", "blocked"), ("lay", "lay"), ("take", "take"), ("cards", "turn")]
    if mode == "normal":
        answers += [("arrow", "arrow"), ("push", "push"), ("walk", "step"), ("start", "turn")]
    for label, cue in answers:
        for t0 in by_label[label]:
            assert first_after(cue, t0) < next_mark(t0), (label, cue)
    take = first_after("take", by_label["take"][0])
    assert 0.4 < first_after("won", take) - take < 1.5  # after the taken cards' fade (0.5 s)
    assert all(report["cards_over"])
    if mode == "normal":
        assert report["over"]
        last_walk = by_label["walk"][-1]
        treasure = first_after("treasure", last_walk)
        won = first_after("won", last_walk)
        assert treasure - last_walk < 1.0 + 0.12 * report["steps"][1]  # when the pawn arrives
        assert 1.0 < won - treasure < 2.0  # after the treasure's moment (1.3 s)


def test_a_scripted_game_sounds_each_cue_at_its_moment(pulse, tmp_path):
    """The attract jingle, a board game and a card game, heard in order."""
    rec, samples, report = run_game(pulse, tmp_path, "normal")
    assert rec.sox_max() > 0.3
    check_heard(rec, samples, report)


@pytest.fixture(scope="module")
def quiet_then_muted(pulse, tmp_path_factory):
    """One run (tests/support/sound_game.py MODE quiet): quiet hours, a card game, then muted, another one."""
    rec, samples, report = run_game(pulse, tmp_path_factory.mktemp("quiet"), "quiet")
    muted_at = next(t for t, label in report["marks"] if label == "mute")
    return rec, samples, report, muted_at


def test_quiet_hours_silence_the_attract_jingle_but_not_the_game(quiet_then_muted):
    rec, samples, report, muted_at = quiet_then_muted
    before = dict(report, marks=[m for m in report["marks"] if m[0] < muted_at])
    check_heard(rec, samples, before, mode="quiet")


def test_muted_the_kiosk_plays_nothing(quiet_then_muted):
    rec, samples, report, muted_at = quiet_then_muted
    assert [n for t, n in report["played"] if t >= muted_at] == []
    assert report["cards_over"] == [True, True]  # the muted game was played to its end
    silent = samples[int((muted_at - rec.started + 0.3) * RATE) :]
    assert len(silent) > 4 * RATE  # the whole muted game was recorded
    assert max(abs(x) for x in silent) < 0.01 * 32767


def test_headless_plays_nothing(pulse, tmp_path):
    rec = Recording(pulse, tmp_path / "headless.raw")
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "kiosk",
            "--display",
            "none",
            "--players",
            "easy,easy",
            "--seed",
            "4",
            "--fast",
            "--games",
            "1",
            "--sound",
            "on",
        ],
        cwd=ROOT,
        env=pulse,
        capture_output=True,
        text=True,
        timeout=240,
    )
    rec.stop()
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert rec.sox_max() < 0.01
