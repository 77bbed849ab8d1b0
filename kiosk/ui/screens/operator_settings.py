"""The operator menu's "Sound & display" page: volume, mute, the high-contrast palette, the preset and the theme.

Changes are kept across restarts in the state directory (kiosk/store/operator_choices.py)
and then take the place of ``[sound] volume``, ``[display] high_contrast``,
``[display] theme`` and ``[kiosk] preset`` in the config (docs/operations.md, docs/themes.md).
The preset button shows where the kiosk stands (public or home) with the two times in force (how long
a game left alone waits, then how long it is offered to continue); a tap switches to the other preset
and its times, at once. The theme
button shows once a theme is installed; each tap shows the next. Without sound
(headless, ``--sound off``, ``[sound] enabled = false``, no audio device) the
volume buttons still show and say "sound off".
"""

from __future__ import annotations

from typing import Any

from kiosk.core.config import DEFAULT_PRESET, PRESETS
from kiosk.store.operator_choices import OperatorChoices

from kiosk.ui.kit.layout import Rect
from kiosk.ui.kit.menu import GO, TOGGLE_OFF, config_value, make_button
from kiosk.ui.kit.widgets import DIM, INK, label

VOLUME_STEP = 10


def build_settings(screen, c, frame, area: Rect) -> None:
    """Draw the page into `screen` (an OperatorScreen) inside `area` (canvas units)."""
    t = screen.t
    ui = screen.ui
    sound = getattr(ui, "sound", None)
    row_h, gap = 56, 14
    x = area.x + 20
    w = area.w - 40
    y = area.top - 30
    screen._text(c, frame, t("operator.sound_display"), area.cx, y, 18, width=w)
    y -= 30 + row_h
    if sound is None:
        screen._text(
            c, frame, t("operator.sound_off"), x, y + row_h / 2, 16, anchor_x="left", color=DIM, bold=False, width=w
        )
    else:
        level = t("operator.muted") if sound.muted else f"{sound.volume} %"
        bw = min(90.0, w / 5)
        screen._text(
            c, frame, f"{t('operator.volume')}: {level}", x, y + row_h / 2, 17, anchor_x="left", width=w - 3 * (bw + 10)
        )
        right = x + w
        make_button(
            screen,
            c,
            frame,
            Rect(right - bw, y, bw, row_h),
            "+",
            screen.batch,
            screen._bg,
            size=24,
            on_tap=lambda: _volume(screen, +VOLUME_STEP),
        )
        make_button(
            screen,
            c,
            frame,
            Rect(right - 2 * bw - 10, y, bw, row_h),
            "\u2212",
            screen.batch,
            screen._bg,
            size=24,
            on_tap=lambda: _volume(screen, -VOLUME_STEP),
        )
        make_button(
            screen,
            c,
            frame,
            Rect(right - 3 * bw - 20, y, bw, row_h),
            # a note and what the tap does ("on" when muted); DejaVu has no loudspeaker emoji
            f"\u266a {t('operator.on') if sound.muted else t('operator.off')}",
            screen.batch,
            screen._bg,
            size=20,
            color=GO if sound.muted else TOGGLE_OFF,
            on_tap=lambda: _mute(screen),
        )
    y -= row_h + gap
    on = bool(getattr(ui, "high_contrast", False))
    make_button(
        screen,
        c,
        frame,
        Rect(x, y, w, row_h),
        f"{t('operator.high_contrast')}: {t('operator.on') if on else t('operator.off')}",
        screen.batch,
        screen._bg,
        size=17,
        color=GO if on else TOGGLE_OFF,
        text_color=INK,
        on_tap=lambda: _contrast(screen, not on),
    )
    y -= row_h + gap
    preset = str(config_value(ui, "kiosk", "preset", DEFAULT_PRESET))
    idle, keep = (int(config_value(ui, "kiosk", k, PRESETS[preset][k])) for k in ("idle_timeout_s", "continue_s"))
    make_button(
        screen,
        c,
        frame,
        Rect(x, y, w, row_h),
        f"{t('operator.preset')}: {t('operator.preset_' + preset)}",
        screen.batch,
        screen._bg,
        size=17,
        text_color=INK,
        on_tap=lambda: _next_preset(screen, preset),
    )
    # the times in force under it, on two lines if need be (a time the file writes wins over its preset)
    times = label(
        t("operator.preset_times", idle=_duration(idle), keep=_duration(keep)),
        frame,
        c.px(x),
        c.px(y - 8),
        c.font(16),
        screen.batch,
        screen._fg,
        color=DIM,
        anchor_x="left",
        anchor_y="top",
        width=c.px(w),
        multiline=True,
        align="left",
    )
    screen._shapes.append(times)
    y -= 8 + times.content_height / c.s
    themes = theme_choices(ui)
    if len(themes) > 1:  # only when a theme is installed (kiosk/themes)
        y -= row_h + gap
        current = getattr(getattr(ui, "theme", None), "id", "builtin")
        caption = f"{t('operator.theme')}: {_theme_title(screen, current)}"
        make_button(
            screen,
            c,
            frame,
            Rect(x, y, w, row_h),
            caption,
            screen.batch,
            screen._bg,
            size=17,
            text_color=INK,
            on_tap=lambda: _next_theme(screen, themes, current),
        )


def choices(ui) -> OperatorChoices:
    """The operator's kept choices, in the kiosk's state directory when it has one (as the PIN
    guard's count; a kiosk that saves nothing keeps them in memory)."""
    kept = getattr(ui, "_operator_choices", None)
    if kept is None:
        history = getattr(getattr(ui, "kiosk", None), "history", None)
        path = getattr(history, "path", None)
        kept = ui._operator_choices = OperatorChoices(path.parent if path is not None else None)
    return kept


def apply_to_sound(ui, sound) -> None:
    """The kept volume and mute on a new ``Sound`` (at start)."""
    kept = choices(ui)
    if kept.get("volume") is not None:
        sound.set_volume(kept.get("volume"))
    if kept.get("muted") is not None:
        sound.set_muted(kept.get("muted"))


def _keep_sound(screen) -> None:
    kept = choices(screen.ui)
    kept.set("volume", screen.ui.sound.volume)
    kept.set("muted", screen.ui.sound.muted)


def _volume(screen, step: int) -> None:
    sound = screen.ui.sound
    sound.set_muted(False)
    sound.set_volume(sound.volume + step)
    _keep_sound(screen)
    sound.cue("arrow")  # hear the new level
    screen._build()


def _mute(screen) -> None:
    sound = screen.ui.sound
    sound.set_muted(not sound.muted)
    _keep_sound(screen)
    screen._build()


def _contrast(screen, on: bool) -> None:
    setter = getattr(screen.ui, "set_high_contrast", None)
    if callable(setter):
        setter(on)
    choices(screen.ui).set("high_contrast", bool(on))
    screen._build()


def _duration(seconds: int) -> str:
    """A preset's time as the operator reads it: "90 s", "10 min", "2 h"."""
    if seconds < 120:
        return f"{seconds} s"
    if seconds < 2 * 3600:
        return f"{round(seconds / 60, 1):g} min"
    return f"{round(seconds / 3600, 1):g} h"


def _next_preset(screen: Any, current: str) -> None:
    """The other preset (public / home), at once and kept across restarts."""
    names = list(PRESETS)
    name = names[(names.index(current) + 1) % len(names)] if current in names else DEFAULT_PRESET
    setter = getattr(screen.ui, "set_preset", None)
    if callable(setter):
        setter(name)
    choices(screen.ui).set("preset", name)
    screen._build()


def theme_choices(ui) -> list[str]:
    """The themes the operator can show: the built-in drawings, then each installed theme."""
    from kiosk.themes import BUILTIN_ID, installed

    return [BUILTIN_ID] + installed(config_value(ui, "paths", "state_dir", None))


def _theme_title(screen, theme_id: str) -> str:
    from kiosk.themes import BUILTIN_ID, title_of

    if theme_id == BUILTIN_ID:
        return screen.t("operator.theme_builtin")
    language = getattr(getattr(screen.ui, "translator", None), "language", "en")
    return title_of(config_value(screen.ui, "paths", "state_dir", None), theme_id, language)


def _next_theme(screen, themes: list[str], current: str) -> None:
    setter = getattr(screen.ui, "set_theme", None)
    if callable(setter):
        k = themes.index(current) if current in themes else -1
        setter(themes[(k + 1) % len(themes)])
        choices(screen.ui).set("theme", themes[(k + 1) % len(themes)])
    screen._build()
