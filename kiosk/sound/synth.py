"""The kiosk's sounds, synthesised by the project in pure Python (no files, nothing downloaded).

Each cue is a few soft notes: sine partials (a fundamental with a little of its
octave and twelfth, like a marimba or a music box) under a quick attack and an
exponential decay, so nothing clicks and nothing is shrill (every note is below
1.1 kHz, levels stay under half of full scale). Each cue starts with its own
*lead note* (``LEAD_HZ``): the end-to-end test tells the cues apart by that
note in a recording.

The result is 16-bit mono PCM at ``RATE``, wrapped as an in-memory WAV. Every
cue is padded with silence to at least ``MIN_SECONDS``: PulseAudio starts a
stream only once its pre-buffer (~0.45 s with pyglet's buffer sizes) is full,
so a shorter sound would never play.
"""

from __future__ import annotations

import hashlib
import io
import logging
import math
import os
import random
import struct
import wave
from pathlib import Path

log = logging.getLogger(__name__)

RATE = 22050
MIN_SECONDS = 0.6
PEAK = 0.45  # of full scale, the loudest a cue gets

# The notes we use (equal temperament, A4 = 440 Hz).
C4, D4, E4, F4, G4, A4, B4 = 261.63, 293.66, 329.63, 349.23, 392.00, 440.00, 493.88
C5, D5, E5, F5, G5, A5, B5 = 523.25, 587.33, 659.26, 698.46, 783.99, 880.00, 987.77
C6 = 1046.50
D3, G3, A3 = 146.83, 196.00, 220.00

#: The first note of every cue: distinct, so a recording shows which cue sounded.
LEAD_HZ = {
    "arrow": B5,  # a light tick: an arrow was chosen
    "push": D3,  # a low thump with a rustle: the row slides
    "blocked": A3,  # two low notes going down: not this arrow
    "step": D5,  # a wooden tock per cell walked
    "treasure": C5,  # a rising arpeggio
    "turn": E5,  # a two-note chime: your turn
    "won": G4,  # a short fanfare
    "attract": F4,  # the attract jingle
    "lay": A4,  # a card laid: a soft knock with a papery flick
    "take": G5,  # cards taken: a quick rising pair
}
CUES = tuple(LEAD_HZ)


def _note(
    buf: list[float],
    start: float,
    freq: float,
    dur: float,
    level: float,
    *,
    decay: float = 6.0,
    partials=((1, 1.0), (2, 0.25), (3, 0.08)),
    attack: float = 0.006,
) -> None:
    """Add one note into `buf` (a list of floats at RATE) at `start` seconds."""
    i0 = int(start * RATE)
    n = int(dur * RATE)
    if len(buf) < i0 + n:
        buf.extend([0.0] * (i0 + n - len(buf)))
    a = max(1, int(attack * RATE))
    release = max(1, int(0.02 * RATE))
    # the envelope (attack ramp, exponential decay, release ramp) once, then each partial by the
    # sine recurrence s[k] = 2 cos(w) s[k-1] - s[k-2]: no math.sin per sample
    r = math.exp(-decay / RATE)
    env = [0.0] * n
    e = level
    for k in range(n):
        env[k] = e * min(1.0, k / a) * min(1.0, (n - k) / release)
        e *= r
    wave_ = [0.0] * n
    for mult, amp in partials:
        w = 2 * math.pi * freq * mult / RATE
        if w >= math.pi:
            continue
        c2 = 2 * math.cos(w)
        s1, s0 = 0.0, -amp * math.sin(w)  # s[-1]; s[0] = 0
        for k in range(n):
            wave_[k] += s1
            s1, s0 = c2 * s1 - s0, s1
    for k in range(n):
        buf[i0 + k] += env[k] * wave_[k]


def _noise(buf: list[float], start: float, dur: float, level: float, seed: int = 1) -> None:
    """A soft rustle (low-passed noise with a swell): the tiles' sliding."""
    rnd = random.Random(seed)
    i0 = int(start * RATE)
    n = int(dur * RATE)
    if len(buf) < i0 + n:
        buf.extend([0.0] * (i0 + n - len(buf)))
    y = 0.0
    for k in range(n):
        y += 0.08 * (rnd.uniform(-1, 1) - y)  # one-pole low-pass
        env = math.sin(math.pi * k / n) ** 2
        buf[i0 + k] += level * env * y * 3


def _arrow(b):
    _note(b, 0.0, B5, 0.09, 0.5, decay=40)


def _push(b):
    _note(b, 0.0, D3, 0.28, 0.9, decay=14, partials=((1, 1.0), (2, 0.5), (3, 0.2)))
    _noise(b, 0.02, 0.26, 0.25)


def _blocked(b):
    _note(b, 0.0, A3, 0.16, 0.7, decay=12, partials=((1, 1.0), (3, 0.2), (5, 0.08)))
    _note(b, 0.17, G3, 0.22, 0.7, decay=10, partials=((1, 1.0), (3, 0.2), (5, 0.08)))


def _step(b):
    _note(b, 0.0, D5, 0.04, 0.45, decay=80, partials=((1, 1.0), (2.76, 0.15)))


def _treasure(b):
    for k, f in enumerate((C5, E5, G5, C6)):
        _note(b, k * 0.09, f, 0.45 - k * 0.05, 0.42, decay=7)


def _turn(b):
    _note(b, 0.0, E5, 0.35, 0.5, decay=8)
    _note(b, 0.14, A5, 0.4, 0.45, decay=7)


def _won(b):
    for k, f in enumerate((G4, C5, E5)):
        _note(b, k * 0.13, f, 0.25, 0.45, decay=6)
    for f in (C5, E5, G5, C6):
        _note(b, 0.42, f, 0.9, 0.24, decay=3)


def _attract(b):
    melody = ((F4, 0.18), (A4, 0.18), (C5, 0.18), (A4, 0.18), (B4, 0.18), (D5, 0.18), (G5, 0.5))
    t = 0.0
    for f, d in melody:
        _note(b, t, f, d + 0.25, 0.4, decay=5)
        t += d
    _note(b, t - 0.5, G4, 0.7, 0.18, decay=3)


def _lay(b):
    _note(b, 0.0, A4, 0.16, 0.8, decay=30, partials=((1, 1.0), (2.4, 0.12)))
    _noise(b, 0.0, 0.07, 0.12, seed=2)


def _take(b):
    _note(b, 0.0, G5, 0.18, 0.45, decay=14)
    _note(b, 0.08, C6, 0.3, 0.4, decay=10)


_COMPOSERS = {
    "arrow": _arrow,
    "push": _push,
    "blocked": _blocked,
    "step": _step,
    "treasure": _treasure,
    "turn": _turn,
    "won": _won,
    "attract": _attract,
    "lay": _lay,
    "take": _take,
}


def _compose(name: str) -> list[float]:
    try:
        compose = _COMPOSERS[name]
    except KeyError:
        raise KeyError(f"no sound cue called {name!r}; known: {', '.join(CUES)}") from None
    b: list[float] = []
    compose(b)
    return b


def pcm(name: str) -> bytes:
    """Cue `name` as 16-bit little-endian mono PCM at RATE, normalised to PEAK, padded to MIN_SECONDS."""
    b = _compose(name)
    top = max((abs(x) for x in b), default=0.0) or 1.0
    gain = PEAK / top * 32767
    b.extend([0.0] * max(0, int(MIN_SECONDS * RATE) - len(b)))
    return struct.pack(f"<{len(b)}h", *(int(x * gain) for x in b))


def cache_dir() -> Path:
    """Where made cues are kept between runs: one folder per version of this file's sounds."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    digest = hashlib.sha1(Path(__file__).read_bytes()).hexdigest()[:12]
    return base / "labyrinth-kiosk" / f"sound-{digest}"


def cached_pcm(name: str) -> bytes:
    """`pcm(name)`, read from the cache when this version made it before (else made and stored;
    a cache that cannot be written only costs the time to make the cue again)."""
    path = cache_dir() / f"{name}.pcm"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = pcm(name)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError as exc:
        log.debug("sound cache not written (%s)", exc)
    return data


def sounding_seconds(name: str) -> float:
    """How long cue `name` is audible (before its padding)."""
    return len(_compose(name)) / RATE


def wav(data: bytes) -> bytes:
    """PCM from `pcm` as the bytes of a WAV file."""
    out = io.BytesIO()
    with wave.open(out, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data)
    return out.getvalue()
