"""The layout audit: every screen and state, at every size, layout and language, checked for overlap.

Why: translations differ a lot in length and the kiosk runs from a 7-inch
screen to full HD and portrait; a button that covers another or a word that
runs off its panel is only found by looking at all of them. The audit walks
the screens through a real kiosk (sessions, bus, the UI's own screens),
collects every text made by ``widgets.label`` (the recorder there), every touch
target the screen answers to (its widgets, the board's arrows and cells, the
card table's places) with its box in screen pixels, and checks the rules:

* no two touch targets overlap;
* every text stays inside its container (its button, its panel) and the screen, and does not run
  into a touch target it is not part of;
* no text is smaller than the minimum (the type scale's ``typeface.BODY`` / ``HEADLINE``
  at 800x480, scaled with the screen like everything else);
* no touch target is smaller than a finger (``layout.MIN_TOUCH``, 48 px on every screen: the kiosk's
  own buttons grow with the screen, but 48 px is the floor the issue sets);
* no touch target reaches outside the screen;
* what a screen says must show at least how large (``audit_floors``: the board game's spare tile and
  hint button in the active panel) is there and that large, whatever the texts beside it;
* every treasure picture off the board (a target, a treasure found, an open card, a card's symbol)
  is at least ``typeface.PICTURE`` (40 px) at 800x480, scaled;
* every text has the contrast it needs against what is drawn behind it (kiosk/ui/kit/contrast.py:
  4.5:1, 3:1 for text of 24 px and more at 800x480); each text item carries its colour and the
  colour behind it (``"fg"``, ``"bg"``);
* the seats' colours stay apart for people with a colour-vision deficiency, in every look
  (kiosk/ui/audit/colour_vision.py; the report's ``"looks"``).

Only text is laid out again per language; one frame without the texts is drawn per entry, for
the colours behind them, so the whole walk takes seconds, not minutes. ``labyrinth-kiosk --layout-report FILE.json``
writes what it collected; tests/kiosk/ui/audit/test_layout_audit.py runs it in ``make test``:
every language at 800x480, and at every size two stand-in languages, each text in the language
it is widest in (``WIDEST``) and narrowest in (``NARROWEST``), the two ends between which a
screen that arranges itself by its words' width picks.
"""

from __future__ import annotations

import fnmatch
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from kiosk.ui.audit import colour_vision
from kiosk.ui.kit import contrast
from kiosk.ui.kit import widgets
from kiosk.ui.kit.layout import MIN_TOUCH, SIZES, Layout, Rect
from kiosk.ui.kit.typeface import BODY as MIN_BODY_PX, HEADLINE as MIN_HEADLINE_PX, PICTURE as PICTURE_PX
from kiosk.ui.kit.i18n import LANGUAGES

LAYOUTS = ("tabletop", "upright")
#: The walk's stand-in language (``walk(languages=[WIDEST])``): every text in the language in which it
#: is widest (widest_catalog). One pass in it at every size finds what any one language's longest
#: label breaks there (a German Undo at 1280x800, a Spanish Stay in portrait), at the cost of one language.
WIDEST = "widest"
#: The other stand-in: every text in the language in which it is narrowest. A screen that picks its
#: arrangement by how wide its words are (the card result: blocks side by side where the names fit,
#: else a row each) takes in it the roomy arrangement the widest words never reach, and what runs
#: out of its panel there is found too (the German six-player result at 720x1280: blocks whose
#: numbers ran out of them, while the widest pass saw rows). Text only (no colours): it is about room.
NARROWEST = "narrowest"
#: A text's box may stick out of its container by this much (anti-aliasing, rounding to whole pixels).
SLACK_PX = 1.5
#: Reader's edge by the angle a text is turned (pyglet turns clockwise).
FACES = {0: "S", 90: "W", 180: "N", 270: "E"}


# ---------------------------------------------------------------------------- boxes
def text_box(lab: Any) -> Rect:
    """The screen box of a pyglet label's text (its ink extent, turned with the label)."""
    w, h = float(lab.content_width), float(lab.content_height)
    box_w = float(lab.width) if lab.width else w
    ax = {"left": 0.0, "center": box_w / 2, "right": box_w}[lab.anchor_x]
    # inside a wider layout box the text sits by its alignment (multiline) or centred by pyglet's label
    align = lab.get_style("align") if lab.multiline else "center" if lab.width else "left"
    lead = {"left": 0.0, "center": (box_w - w) / 2, "right": box_w - w}.get(align, 0.0)
    x0 = -ax + lead
    font_px = lab.font_size * 4 / 3
    if lab.anchor_y == "top":
        y1 = 0.0
    elif lab.anchor_y == "bottom":
        y1 = h
    elif lab.anchor_y == "baseline":
        y1 = font_px * 0.95
    else:
        y1 = h / 2
    y0 = y1 - h
    x, y = lab.x, lab.y
    angle = int(lab.rotation) % 360
    corners = [(x0, y0), (x0 + w, y0), (x0, y1), (x0 + w, y1)]
    if angle == 180:
        corners = [(-u, -v) for u, v in corners]
    elif angle == 90:  # clockwise on screen: up becomes right
        corners = [(v, -u) for u, v in corners]
    elif angle == 270:
        corners = [(-v, u) for u, v in corners]
    xs = [x + u for u, _ in corners]
    ys = [y + v for _, v in corners]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _on_top(group: Any, least: int = 10) -> bool:
    """Drawn in an overlay (a group of order `least` or more, or inside one)."""
    while group is not None:
        if getattr(group, "order", 0) >= least:
            return True
        group = getattr(group, "parent", None)
    return False


def _alive(lab: Any) -> bool:
    return (
        bool(getattr(lab, "_vertex_lists", True))
        and getattr(lab, "visible", True)
        and getattr(lab, "_batch", None) is not None
    )


def _rid(rect: Rect) -> str:
    return "%d,%d,%d,%d" % tuple(round(v) for v in rect)


def _yflip(rect: Rect, height: int) -> list[float]:
    """Screen pixels as image viewers count them: origin top-left (the issue's schema)."""
    return [round(rect.x, 1), round(height - rect.top, 1), round(rect.w, 1), round(rect.h, 1)]


# ---------------------------------------------------------------------------- collecting
def collect(ui: Any, recorder: widgets.Recorder) -> list[dict]:
    """Every text, touch target and panel the current screen shows, in screen pixels (origin bottom-left)."""
    screen = ui.screen
    menu = getattr(ui, "menu", None)
    if menu is not None and menu.open:  # the in-game menu's sheet covers the screen and answers alone
        screen = menu
    used: dict[str, int] = {}

    def uid(base: str) -> str:
        used[base] = used.get(base, 0) + 1
        return base if used[base] == 1 else f"{base}#{used[base]}"

    items = _targets(screen, ui.layout, uid)
    if menu is not None and not menu.open:  # its buttons over a game's play screen (kiosk/ui/overlays/game_menu.py)
        menu.update()
        items += [
            _item(uid(f"menu@{_rid(rect)}"), "button", rect, touch=True, faces=FACES[angle % 360])
            for rect, angle in menu.spots()
        ]
    items += _texts(screen, recorder, uid)
    items += _pictures(screen, recorder, uid)
    for name, rect, least in getattr(screen, "audit_floors", lambda: ())():  # a missing one is an empty box
        items.append(_item(uid(f"control:{name}"), "control", rect or Rect(0, 0, 0, 0), touch=False, least=least))
    seats = getattr(ui, "seats", None)
    if seats is not None and screen is ui.screen:  # the seats' Join buttons and call (kiosk/ui/overlays/seats.py)
        seats.update()
        cover = seats.panel_rect  # the call's panel: what lies under it is neither seen nor tapped
        if cover is not None:
            items = [it for it in items if it["kind"] == "panel" or not _overlap(it["rect"], cover)]
        items += _seat_items(seats, recorder, uid)
    return items


def _seat_items(seats: Any, recorder: widgets.Recorder, uid: Callable[[str], str]) -> list[dict[str, Any]]:
    """The Join buttons at the computers' corners, the call's "I'm here", Join's Yes and No, and the
    texts they show."""
    items = [_item(uid(f"join@{_rid(rect)}"), "button", rect, touch=True) for rect in seats.joins.values()]
    for name, rect in (("here", seats.here_rect), ("yes", seats.yes_rect), ("no", seats.no_rect)):
        if rect is not None:
            items.append(_item(uid(f"{name}@{_rid(rect)}"), "button", rect, touch=True))
    return items + _texts(seats, recorder, uid)


def _pictures(screen: Any, recorder: widgets.Recorder, uid: Callable[[str], str]) -> list[dict]:
    """The treasure pictures the screen shows off the board (targets, found, open cards, card symbols)."""
    # the screen's batches, those it keeps in a tuple or list too (the play screen's two sides)
    held = [w for v in vars(screen).values() for w in (v if isinstance(v, (tuple, list)) else (v,))]
    batches = {id(v) for v in held if v.__class__.__name__ == "Batch"}
    items = []
    for sprite, kind, treasure, px in recorder.pictures:
        shown = getattr(sprite, "_vertex_list", None) is not None and getattr(sprite, "visible", True)
        if not shown or id(getattr(sprite, "batch", None)) not in batches:
            continue
        rect = Rect(sprite.x - px / 2, sprite.y - px / 2, px, px)
        items.append(
            _item(uid(f"picture:{kind}@{_rid(rect)}"), "picture", rect, touch=False, text=treasure, kind_of=kind)
        )
    return items


def _item(
    id_: str,
    kind: str,
    rect: Rect,
    *,
    touch: bool,
    text: str | None = None,
    font_px: float | None = None,
    container: str | None = None,
    faces: str = "S",
    **more: Any,
) -> dict:
    return dict(
        id=id_,
        kind=kind,
        rect=Rect(*rect),
        touch=touch,
        font_px=font_px,
        text=text,
        container=container,
        faces=faces,
        **more,
    )


def _targets(screen: Any, L: Layout, uid: Callable[[str], str]) -> list[dict]:
    """What a finger can tap: the screen's widgets (only a picker's while it is open) and what the
    screen names itself (``audit_targets``: the board game's arrows and cells)."""
    items = []
    targets = screen.widgets
    if getattr(screen, "picking", ""):  # the setup's language or game picker: only it answers
        targets = screen._picker
    for w in targets:
        if not getattr(w, "visible", True):
            continue
        kind = "button" if isinstance(w, widgets.Button) else "touch"
        frame = getattr(w, "frame", None)
        items.append(
            _item(
                uid(f"{kind}@{_rid(w.rect)}"),
                kind,
                w.rect,
                touch=True,
                text=getattr(w, "text", None) or None,
                faces=FACES[frame.angle % 360] if frame is not None else "S",
            )
        )
    for name, kind, rect in getattr(screen, "audit_targets", lambda: ())():
        items.append(_item(uid(name), kind, rect, touch=True))
    return items


def _texts(screen: Any, recorder: widgets.Recorder, uid: Callable[[str], str]) -> list[dict]:
    """The texts of the screen's batches still shown, and the panels they must stay in."""
    # the screen's batches, those it keeps in a tuple or list too (the play screen's two sides)
    held = [w for v in vars(screen).values() for w in (v if isinstance(v, (tuple, list)) else (v,))]
    batches = {id(v) for v in held if v.__class__.__name__ == "Batch"}
    items: list[dict] = []
    panels: dict[str, Rect] = {}
    modal = bool(getattr(screen, "picking", ""))  # the setup's picker: what is under it is dimmed
    sheet = getattr(screen, "audit_sheet", None)  # the group order of a sheet over the whole screen, if one is up
    for lab, frame, container, role, name in recorder.texts:
        if id(getattr(lab, "_batch", None)) not in batches or not _alive(lab) or not lab.text.strip():
            continue
        if modal and not _on_top(getattr(lab, "group", None)):
            continue
        if sheet is not None and not _on_top(getattr(lab, "group", None), sheet):
            continue  # under a sheet that covers the screen (the card game's hand-over): not shown
        box = text_box(lab)
        holder = Rect(*container) if container is not None else frame.rect
        cid = ("button@" if name == "button" else "panel@") + _rid(holder)
        if name != "button":
            panels.setdefault(cid, holder)
        items.append(
            _item(
                uid(f"text:{name or role}@{_rid(box)}"),
                "text",
                box,
                touch=False,
                text=lab.text,
                font_px=round(lab.font_size * 4 / 3, 2),
                container=cid,
                faces=FACES[int(lab.rotation) % 360],
                role=role,
                fg=[int(c) for c in lab.color[:3]],
                label=lab,
            )
        )
    items += [_item(cid, "panel", rect, touch=False) for cid, rect in panels.items()]
    return items


# ---------------------------------------------------------------------------- the rules
@dataclass(frozen=True)
class Exception_:
    """A listed, reasoned exception to a rule: where (a pattern, fnmatch, of "screen/state WxH layout
    language"), the rule, a part of the item's text or id ("" for any), and why."""

    where: str
    rule: str
    match: str
    why: str

    def covers(self, where: str, rule: str, item: dict) -> bool:
        return (
            fnmatch.fnmatchcase(where, self.where)
            and self.rule == rule
            and (self.match in (item.get("text") or "") or self.match in item["id"])
        )


def minimums(layout: Layout) -> dict[str, float]:
    """The smallest text (body, headline) and touch target here, in px: the 800x480 figures scaled."""
    return dict(body=MIN_BODY_PX * layout.scale, headline=MIN_HEADLINE_PX * layout.scale, touch=MIN_TOUCH)


def _overlap(a: Rect, b: Rect, slack: float = 0.5) -> bool:
    return (min(a.right, b.right) - max(a.x, b.x) > slack) and (min(a.top, b.top) - max(a.y, b.y) > slack)


def _inside(inner: Rect, outer: Rect, slack: float = SLACK_PX) -> bool:
    return (
        inner.x >= outer.x - slack
        and inner.y >= outer.y - slack
        and inner.right <= outer.right + slack
        and inner.top <= outer.top + slack
    )


def check(where: str, layout: Layout, items: list[dict], exceptions: Iterable[Exception_] = ()) -> list[str]:
    """The rules broken by one entry's items (screen coordinates, origin bottom-left), one line each;
    `where` ("screen/state WxH layout language") is what the exceptions are matched against."""
    ex = list(exceptions)
    problems: list[str] = []

    def bad(rule: str, text: str, *about: dict) -> None:
        if not any(e.covers(where, rule, it) for e in ex for it in about):
            problems.append(f"{rule}: {text}")

    _check_targets(layout, [it for it in items if it["touch"]], bad)
    _check_texts(layout, items, bad)
    _check_contrast(layout, items, bad)
    _check_pictures(layout, items, bad)
    _check_floors(items, bad)
    return problems


def _check_floors(items: list[dict[str, Any]], bad: Callable[..., None]) -> None:
    """The controls a screen names with their least size (``audit_floors``): shown, and that large."""
    for it in items:
        if it["kind"] == "control" and min(it["rect"].w, it["rect"].h) < it["least"] - 0.5:
            size = "missing" if it["rect"].w <= 0 else f"{it['rect'].w:.0f}x{it['rect'].h:.0f} px"
            bad("small_control", f"{it['id']} is {size} (at least {it['least']:.0f})", it)


def _check_contrast(layout: Layout, items: list[dict], bad: Callable[..., None]) -> None:
    """Each text against the colour drawn behind it (items without a measured background are skipped).
    A shadow (the same words drawn again under a readable copy, offset a little) is not text to read."""
    texts = [it for it in items if it["kind"] == "text" and it.get("fg") is not None and it.get("bg") is not None]

    def short(it: dict) -> float:
        need = contrast.needed(it["font_px"], layout.scale)
        return need - contrast.ratio(it["fg"], it["bg"])

    for it in texts:
        if short(it) <= 0.005:
            continue
        if any(
            o is not it and o["text"] == it["text"] and _overlap(o["rect"], it["rect"]) and short(o) <= 0 for o in texts
        ):
            continue  # its shadow
        have, need = contrast.ratio(it["fg"], it["bg"]), contrast.needed(it["font_px"], layout.scale)
        if have < need - 0.005:
            bad(
                "low_contrast",
                f"{it['text']!r} {tuple(it['fg'])} on {tuple(it['bg'])} is {have:.2f}:1 (at least {need:g}:1)",
                it,
            )


def measure_backgrounds(ui: Any, items: list[dict]) -> None:
    """Give each text item the colour behind it as drawn (``"bg"``): one frame without the texts."""
    texts = [it for it in items if it["kind"] == "text" and it.get("label") is not None]
    if not texts:
        return
    backdrop = contrast.Backdrop(ui, [it["label"] for it in texts])
    for it in texts:
        it["bg"] = list(backdrop.behind(it["rect"]))


def _check_targets(layout: Layout, touch: list[dict], bad: Callable[..., None]) -> None:  # noqa: C901
    least = minimums(layout)["touch"]
    for i, a in enumerate(touch):
        if not _inside(a["rect"], layout.screen):
            bad(
                "off_screen",
                f"{a['id']} {a.get('text')!r} at {tuple(round(v) for v in a['rect'])} reaches outside the screen",
                a,
            )
        if min(a["rect"].w, a["rect"].h) < least - 0.5:
            bad(
                "small_target",
                f"{a['id']} {a.get('text')!r} is {a['rect'].w:.0f}x{a['rect'].h:.0f} px (at least {least:.0f})",
                a,
            )
        for b in touch[i + 1 :]:
            if a["kind"] == b["kind"] == "cell":
                continue  # the board's grid: side by side by construction
            if _inside(layout.screen, a["rect"]) or _inside(layout.screen, b["rect"]):
                continue  # a backdrop ("tap anywhere"): what lies on it is on top of it
            if _overlap(a["rect"], b["rect"]):
                bad("target_overlap", f"{a['id']} {a.get('text')!r} and {b['id']} {b.get('text')!r}", a, b)


def _check_pictures(layout: Layout, items: list[dict], bad: Callable[..., None]) -> None:
    """Treasure pictures off the board: at least ``typeface.PICTURE`` px at 800x480, scaled."""
    least = PICTURE_PX * layout.scale
    for it in items:
        if it["kind"] == "picture" and min(it["rect"].w, it["rect"].h) < least - 0.5:
            what = f"{it.get('kind_of', 'picture')} {it['text']!r}"
            bad("small_picture", f"{what} is {it['rect'].w:.0f} px (at least {least:.0f})", it)


def _check_texts(layout: Layout, items: list[dict], bad: Callable[..., None]) -> None:
    mins = minimums(layout)
    by_id = {it["id"]: it for it in items}
    targets = [t for t in items if t["touch"] and t["kind"] != "cell"]
    for it in items:
        if it["kind"] != "text":
            continue
        r, what = it["rect"], f"{it['text']!r}"
        for t in targets:  # a text half on a button: neither reads well nor is it clear what a tap does
            if _overlap(r, t["rect"], SLACK_PX) and not _inside(r, t["rect"]):
                bad("text_on_target", f"{what} runs into {t['id']} {t.get('text')!r}", it)
        if not _inside(r, layout.screen):
            bad("off_screen", f"{what} at {tuple(round(v) for v in r)} is outside the screen", it)
        holder = by_id.get(it["container"])
        if holder is not None and not _inside(r, holder["rect"]):
            bad("overflow", f"{what} ({r.w:.0f}x{r.h:.0f} px) runs out of {it['container']}", it)
        need = mins["headline"] if it.get("role") == "headline" else mins["body"]
        if it["font_px"] is not None and it["font_px"] < need - 0.05:
            bad("small_text", f"{what} is {it['font_px']:.1f} px (at least {need:.1f})", it)


# ---------------------------------------------------------------------------- the walk
_STAND_INS: dict[bool, dict[str, str]] = {}


def widest_catalog(languages: Iterable[str] = LANGUAGES, narrowest: bool = False) -> dict[str, str]:
    """Each text key's translation that is widest when laid out on one line (bold, at the body size),
    over `languages`: what the layout has to make room for at every size; with `narrowest`, the
    narrowest (``NARROWEST``)."""
    from kiosk.ui.kit.i18n import load_catalog
    from kiosk.ui.kit.menu import measure

    languages = tuple(languages)
    cached = _STAND_INS.setdefault(narrowest, {}) if languages == LANGUAGES else {}
    pick = min if narrowest else max
    if cached:
        return cached
    catalogs = [load_catalog(lang) for lang in languages]
    out: dict[str, str] = {}
    for key in set().union(*catalogs):
        texts = [c[key] for c in catalogs if c.get(key)]
        if texts:
            out[key] = pick(
                texts, key=lambda text: max(measure(line, MIN_BODY_PX * 0.75)[0] for line in text.split("\n"))
            )
    cached.update(out)
    return out


@dataclass
class State:
    """One screen in one state: `prepare(env)` brings the kiosk and the UI there."""

    screen: str
    name: str
    game: str
    prepare: Callable[["Env"], None]
    #: what must be said again in each language (a message the screen keeps as text), or None
    each_language: Callable[["Env"], None] | None = None


class Env:
    """One offscreen window, one UI, one kiosk with real sessions: what the states drive."""

    def __init__(self, window: Any = None):
        from kiosk.core.kiosk import Kiosk, KioskOptions
        from kiosk.ui.shell.window import UI, make_window, prepare_pyglet

        self._tmp = tempfile.TemporaryDirectory(prefix="layout-audit-")
        if window is None:
            prepare_pyglet("offscreen")
            window = make_window("offscreen", (800, 480), "auto")
        self.window = window
        self.now = 1000.0
        self._atlases: dict[int, Any] = {}
        self.kiosk = Kiosk(options=KioskOptions(fast=True, ring="none", state_dir=Path(self._tmp.name), resume=False))
        self.ui = UI(self.kiosk, window, layout="tabletop", first="attract", clock=lambda: self.now)

    def tick(self, n: int = 4) -> None:
        for _ in range(n):
            self.kiosk.tick()

    def post(self, command: Any) -> None:
        self.kiosk.bus.post(command)
        self.tick()

    def set_view(self, size: tuple[int, int], mode: str) -> None:
        """Lay the screens out for `size` and `mode` (no window resize: nothing is drawn). The drawings
        of each size are kept, so going back to a size does not draw them again."""
        ui = self.ui
        if ui._atlas is not None:
            self._atlases[ui._atlas_px] = ui._atlas
        ui.layout_mode = mode
        ui.layout = Layout(size[0], size[1], mode)
        px = int(ui.layout.cell * 2 + 0.5)
        if px in self._atlases:
            ui._atlas, ui._atlas_px = self._atlases[px], px

    def set_language(self, language: str) -> None:
        """A language of LANGUAGES, or a stand-in: each text in the language it is widest (WIDEST) or
        narrowest (NARROWEST) in."""
        translator: Any = getattr(self.ui.translator, "inner", self.ui.translator)  # under a theme's names
        if language in (WIDEST, NARROWEST):
            translator.use_catalog(widest_catalog(narrowest=language == NARROWEST))
            return
        translator.set_language(language)

    def close(self) -> None:
        self.ui.close()
        self.kiosk.close()
        self._tmp.cleanup()


def walk(
    sizes: Iterable[tuple[int, int]] = SIZES,
    layouts: Iterable[str] = LAYOUTS,
    languages: Iterable[str] = LANGUAGES,
    states: Iterable[State] = (),
    env: Env | None = None,
    shots: Path | None = None,
    colours: bool = True,
) -> dict:
    """Collect every (state, size, layout, language): ``{"entries": [...], "seconds": s}``.

    Each state is prepared once per size and layout (``prepare`` builds the screen), then only
    laid out again per language. `shots`: also save one PNG per state, size and layout (English).
    `colours`: measure the colour behind each text (one frame per entry) for the contrast rule.
    """
    t0 = time.perf_counter()
    own = env is None
    env = env or Env()
    sizes, layouts, languages = list(sizes), list(layouts), list(languages)
    entries = []
    previous = widgets.RECORDER
    try:
        for st in states:
            env.set_view(sizes[0], layouts[0])
            env.set_language(languages[0])
            st.prepare(env)
            for size in sizes:
                for mode in layouts:
                    env.set_view(size, mode)
                    for k, lang in enumerate(languages):
                        rec = widgets.RECORDER = widgets.Recorder()
                        env.set_language(lang)
                        if st.each_language is not None:
                            st.each_language(env)
                        relabel(env.ui.screen, env.ui.layout, k == 0)
                        if shots is not None and lang == languages[0]:
                            seats = getattr(env.ui, "seats", None)
                            if seats is not None:
                                seats.update()  # the Join buttons of this state's seats, in this language
                            env.ui.render(force=True)
                            env.ui.screenshot(shots / f"{st.screen}-{st.name}-{size[0]}x{size[1]}-{mode}-{lang}.png")
                        items = collect(env.ui, rec)
                        if colours:
                            measure_backgrounds(env.ui, items)
                        for it in items:
                            it.pop("label", None)  # the pyglet label: not part of the report
                        entries.append(
                            dict(
                                screen=st.screen,
                                state=st.name,
                                size=f"{size[0]}x{size[1]}",
                                layout=mode,
                                language=lang,
                                items=items,
                            )
                        )
        looks = colour_vision.looks(env.kiosk.options.state_dir)
    finally:
        widgets.RECORDER = previous
        if own:
            env.close()
    return dict(entries=entries, looks=looks, seconds=time.perf_counter() - t0)


def relabel(screen: Any, layout: Layout, new_size: bool) -> None:
    """Lay the screen out again: all of it for a new size, only what has words for a new language
    (the play screen's board has none: its panels are enough)."""
    if not new_size and getattr(screen, "relabel", None) is not None:
        screen.relabel()
        return
    screen.resize(layout)


def problems_of(report: dict, exceptions: Iterable[Exception_] = ()) -> list[str]:
    """Every broken rule in a walk's report, each with where it happened (the seat colours: in which look)."""
    out = colour_vision.problems(report.get("looks", []))
    for e in report["entries"]:
        w, h = (int(v) for v in e["size"].split("x"))
        where = where_of(e)
        for p in check(where, Layout(w, h, e["layout"]), e["items"], exceptions):
            out.append(f"{where}: {p}")
    return out


def where_of(entry: dict) -> str:
    return f"{entry['screen']}/{entry['state']} {entry['size']} {entry['layout']} {entry['language']}"


def to_json(report: dict) -> dict:
    """The report in the issue's schema: rects [x, y, w, h] in screen pixels from the top-left."""
    entries = []
    for e in report["entries"]:
        h = int(e["size"].split("x")[1])
        items = [
            dict(
                id=it["id"],
                kind=it["kind"],
                rect=_yflip(it["rect"], h),
                touch=it["touch"],
                font_px=it["font_px"],
                text=it["text"],
                container=it["container"],
                faces=it["faces"],
                **({k: it[k] for k in ("fg", "bg") if it.get(k) is not None} if it["kind"] == "text" else {}),
            )
            for it in e["items"]
        ]
        entries.append(
            dict(
                screen=e["screen"],
                state=e["state"],
                size=e["size"],
                layout=e["layout"],
                language=e["language"],
                items=items,
            )
        )
    return {"entries": entries}


# ------------------------------------------------------------------ helpers for the states
# (kiosk/ui/audit/states.py and each game's screens/audit.py). They reach into a screen's own
# parts (the setup's choices): a screen is Any here, as the audit sets what no visitor's input
# could set that quickly.
def setup_state(game: str, choose: Callable[[Any], None], picker: bool = False) -> Callable[[Env], None]:
    """The setup screen with `game` chosen, then `choose(choices)` (the game's seats), and the
    language picker open when `picker`."""

    def prepare(env: Env) -> None:
        screen: Any = env.ui.goto("setup")
        screen.game = game
        choose(screen.choices)
        screen.picking = "language" if picker else ""
        screen._build()

    return prepare


def goto(name: str, **kw: Any) -> Callable[[Env], None]:
    """The screen `name` opened (``ui.goto(name, **kw)``) as it is."""

    def prepare(env: Env) -> None:
        env.ui.goto(name, **kw)

    return prepare
