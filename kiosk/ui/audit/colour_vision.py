"""Can people with a colour-vision deficiency tell the seats apart? Simulation and colour difference.

About 1 in 12 men sees red and green (or, rarely, blue and yellow) much alike, and a pawn, a panel
edge, a score chip and the LED ring's arc all say "whose" by colour first. This module simulates the
three dichromacies with the model of Machado, Oliveira and Fernandes (2009, "A physiologically-based
model for simulation of color vision deficiency", IEEE TVCG 15(6)) at full severity -- the
published 3x3 matrices, applied to linear sRGB -- and measures the difference of two colours in
CAM02-UCS (Luo, Cui and Li 2006), where 1 is about the least difference one notices side by side.
The figures agree with the colorspacious package (tests/kiosk/ui/audit/test_colour_vision.py); this is
pure Python so neither the audit nor the kiosk needs another library.

:func:`problems` is the seat check of the layout audit: every pair of the board game's four seats
at least :data:`BOARD_MIN` apart, of the card game's six at least :data:`CARDS_MIN`, seen with each
deficiency and with normal vision, in every look (the default, high contrast, each theme).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from pathlib import Path

from kiosk.core.seat_marks import BOARD_SEATS, SEAT_RGB

RGB = tuple[int, int, int]
Matrix = tuple[tuple[float, float, float], ...]

#: Machado et al. 2009, Table 1, severity 1.0 (dichromacy); for linear sRGB.
MACHADO: dict[str, Matrix] = {
    "protan": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deutan": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritan": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}
#: The ways of seeing checked: normal vision (None) and the three dichromacies.
VISIONS: tuple[str | None, ...] = (None, "protan", "deutan", "tritan")
#: Least CAM02-UCS difference between any two seats (issue 44): four seats are set far apart, six as
#: far as six hues allow.
BOARD_MIN = 20.0
CARDS_MIN = 12.0

# sRGB (D65) to CIE XYZ (Y of white = 100), the white, and CIECAM02's matrices.
_SRGB_XYZ: Matrix = ((41.24, 35.76, 18.05), (21.26, 71.52, 7.22), (1.93, 11.92, 95.05))
_WHITE = (95.047, 100.0, 108.883)
_CAT02: Matrix = ((0.7328, 0.4296, -0.1624), (-0.7036, 1.6975, 0.0061), (0.0030, 0.0136, 0.9834))
_HPE: Matrix = ((0.38971, 0.68898, -0.07868), (-0.22981, 1.18340, 0.04641), (0.0, 0.0, 1.0))


def _mul(m: Matrix, v: Sequence[float]) -> tuple[float, float, float]:
    return (
        m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
        m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
        m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
    )


def _inverse(m: Matrix) -> Matrix:
    (a, b, c), (d, e, f), (g, h, i) = m
    det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    return (
        ((e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det),
        ((f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det),
        ((d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det),
    )


def _linear(c: float) -> float:
    c /= 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _encoded(c: float) -> int:
    c = min(1.0, max(0.0, c))
    c = 12.92 * c if c <= 0.0031308 else 1.055 * c ** (1 / 2.4) - 0.055
    return round(c * 255)


def seen_linear(rgb: Sequence[float], vision: str | None) -> tuple[float, float, float]:
    """An sRGB colour (0-255) as `vision` sees it, in linear sRGB (not clipped, as the model gives it)."""
    lin = tuple(_linear(c) for c in rgb[:3])
    return lin if vision is None else _mul(MACHADO[vision], lin)  # type: ignore[return-value]


def seen(rgb: Sequence[float], vision: str | None) -> RGB:
    """An sRGB colour (0-255) as `vision` sees it, as a displayable sRGB colour: for pictures."""
    r, g, b = seen_linear(rgb, vision)
    return (_encoded(r), _encoded(g), _encoded(b))


# ------------------------------------------------------------------------------------------ CIECAM02
# Viewing conditions as colorspacious's default (CIECAM02 "average" surround, a 64 lux room seen on
# a 20% grey background): L_A = 64 / pi / 5 cd/m2, Y_b = 20.
_F, _C, _NC = 1.0, 0.69, 1.0
_LA, _YB = 64 / math.pi / 5, 20.0
_RGB_W = _mul(_CAT02, _WHITE)
_D = min(1.0, max(0.0, _F * (1 - (1 / 3.6) * math.exp((-_LA - 42) / 92))))
_D_RGB = tuple(_D * _WHITE[1] / c + 1 - _D for c in _RGB_W)
_K = 1 / (5 * _LA + 1)
_FL = 0.2 * _K**4 * (5 * _LA) + 0.1 * (1 - _K**4) ** 2 * (5 * _LA) ** (1 / 3)
_N = _YB / _WHITE[1]
_Z = 1.48 + math.sqrt(_N)
_NBB = 0.725 * (1 / _N) ** 0.2
_TO_HPE = tuple(tuple(sum(_HPE[i][k] * _inverse(_CAT02)[k][j] for k in range(3)) for j in range(3)) for i in range(3))


def _adapted(x: float) -> float:
    f = (_FL * abs(x) / 100) ** 0.42
    return math.copysign(400 * f / (f + 27.13), x) + 0.1


def _response(xyz: Sequence[float]) -> tuple[float, float, float]:
    rgb = _mul(_CAT02, xyz)
    r, g, b = _mul(_TO_HPE, [d * c for d, c in zip(_D_RGB, rgb)])  # type: ignore[arg-type]
    return (_adapted(r), _adapted(g), _adapted(b))


_RW, _GW, _BW = _response(_WHITE)
_AW = (2 * _RW + _GW + _BW / 20 - 0.305) * _NBB


def ucs_of_linear(lin: Sequence[float]) -> tuple[float, float, float]:
    """CAM02-UCS (J', a', b') of a linear sRGB colour (0-1 per channel)."""
    r, g, b = _response(_mul(_SRGB_XYZ, lin))
    a, bb = r - 12 * g / 11 + b / 11, (r + g - 2 * b) / 9
    h = math.atan2(bb, a)
    et = 0.25 * (math.cos(h + 2) + 3.8)
    big_a = (2 * r + g + b / 20 - 0.305) * _NBB
    j = 100 * (max(0.0, big_a) / _AW) ** (_C * _Z)
    t = (50000 / 13 * _NC * _NBB * et * math.hypot(a, bb)) / (r + g + 21 / 20 * b)
    m = t**0.9 * math.sqrt(j / 100) * (1.64 - 0.29**_N) ** 0.73 * _FL**0.25
    jp = 1.7 * j / (1 + 0.007 * j)
    mp = math.log(1 + 0.0228 * m) / 0.0228
    return (jp, mp * math.cos(h), mp * math.sin(h))


def ucs(rgb: Sequence[float], vision: str | None = None) -> tuple[float, float, float]:
    """CAM02-UCS (J', a', b') of an sRGB colour (0-255) as `vision` sees it."""
    return ucs_of_linear(seen_linear(rgb, vision))


def difference(a: Sequence[float], b: Sequence[float], vision: str | None = None) -> float:
    """How far apart two sRGB colours (0-255) look to `vision`: CAM02-UCS's Delta E'."""
    return math.dist(ucs(a, vision), ucs(b, vision))


def closest(colours: Sequence[Sequence[float]], vision: str | None = None) -> tuple[float, int, int]:
    """The two of `colours` that look most alike to `vision`: (difference, i, j)."""
    return min(
        (difference(colours[i], colours[j], vision), i, j) for i, j in itertools.combinations(range(len(colours)), 2)
    )


Look = tuple[str, Sequence[RGB], Sequence[RGB]]


def looks(state_dir: Path | str | None = None) -> list[Look]:
    """Each look the seats are shown in, with the board game's and the card game's seat colours: the
    default, high contrast, and each theme (the packs that come with the kiosk, kiosk/themes/*/, and
    those installed under `state_dir`). High contrast changes the board and the outlines, and a theme
    the treasures and the medallions (kiosk/themes/pack.py COLOURS), not the seats: all show them in
    kiosk/core/seat_marks.py's colours, which is what this checks."""
    from kiosk import themes

    packs = sorted(p.parent.name for p in Path(themes.__file__).parent.glob("*/theme.json"))
    ids = sorted(set(packs) | set(themes.installed(state_dir)))
    board, cards = SEAT_RGB[:BOARD_SEATS], SEAT_RGB
    out: list[Look] = [("default", board, cards), ("high contrast", board, cards)]
    return out + [(f"theme {t}", board, cards) for t in ids]


def problems(looks: Iterable[Look]) -> list[str]:
    """The seat-colour rule broken in each look (its name, the board game's four seat colours, the
    card game's six): one line per pair of seats too much alike, naming the look and the vision."""
    out = []
    for look, board, cards in looks:
        for game, colours, least in (("board", board, BOARD_MIN), ("cards", cards, CARDS_MIN)):
            for vision in VISIONS:
                for i, j in itertools.combinations(range(len(colours)), 2):
                    d = difference(colours[i], colours[j], vision)
                    if d < least:
                        out.append(
                            f"seats/{look}: seat_colours: {game} seats {i} {tuple(colours[i])} and {j} "
                            f"{tuple(colours[j])} are {d:.1f} apart seen {vision or 'normal'} (at least {least:g})"
                        )
    return out
