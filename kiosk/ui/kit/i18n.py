"""The kiosk's texts in the eight languages of the rulebooks, read from gettext .po catalogs.

Why .po, parsed here: .po is the format every translator and tool (Poedit,
Weblate, msgfmt) knows, so a museum can fix a word without touching code. The
kiosk needs only the simple part of it (msgid/msgstr, comments, continued
strings, C escapes): a 60-line reader is smaller than a new dependency and
avoids a compile step (.mo files) in the build. Plural forms are not used: the
texts put numbers after a colon ("Cards left: 3") so every language reads right.

msgids are stable keys (``"play.choose_arrow"``); en.po holds the English text
and is the fallback for a key missing in another catalog. ``{name}``
placeholders are filled with :meth:`Translator.t` keyword arguments.

This module imports no pyglet: the headless kiosk and the tests use it too.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Protocol, Sequence

from kiosk.errors import KioskError

#: The languages of the rulebooks, in the order the setup screen offers them.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "it", "nl", "es", "pt", "et")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parents[2] / "locale"


class CatalogError(KioskError, ValueError):
    """A .po file that cannot be read; the message names the file and the line."""


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_STRING = re.compile(r'^"((?:[^"\\]|\\.)*)"$')


def _unquote(token: str, where: str) -> str:
    m = _STRING.match(token)
    if not m:
        raise CatalogError(f"{where}: expected a quoted string, found {token!r}")
    body = m.group(1)
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1]
            if nxt not in _ESCAPES:
                raise CatalogError(f"{where}: unknown escape \\{nxt}")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def parse_po(text: str, name: str = "<po>") -> dict[str, str]:
    """The msgid -> msgstr pairs of a .po text (the header and fuzzy entries left out).

    A ``#, fuzzy`` entry is a guess by a tool that no translator has checked;
    GNU gettext never shows one, and neither do we (the English text shows).

    Supports comments, ``msgctxt`` (joined to the key as ``ctxt\\x04id``, as
    gettext does), multi-line strings. Plural entries are refused: the kiosk
    does not use them, and silently dropping one would hide a mistake.
    """
    reader = _PoReader(name)
    lineno = 0
    for lineno, raw in enumerate(text.splitlines(), 1):
        reader.line(raw.strip(), lineno)
    reader.flush(lineno + 1)
    return reader.entries


class _PoReader:
    """The state of reading one .po text, a line at a time (`parse_po`)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.entries: dict[str, str] = {}
        self.field: str | None = None  # the keyword a continued string adds to
        self.cur: dict[str, str] = {}  # the entry being read: keyword -> text
        self.start = 0  # line where the current entry began, for messages
        self.fuzzy_next = False  # a "#, fuzzy" flag line was read: it belongs to the next entry
        self.fuzzy = False  # the current entry is fuzzy

    def line(self, line: str, lineno: int) -> None:
        where = f"{self.name}:{lineno}"
        if not line:
            return
        if line.startswith("#"):
            self.comment(line, lineno)
        elif line.startswith('"'):
            if self.field is None:
                raise CatalogError(f"{where}: a continued string with nothing before it")
            self.cur[self.field] += _unquote(line, where)
        else:
            self.keyword(line, lineno, where)

    def comment(self, line: str, lineno: int) -> None:
        """Comments are skipped but for the fuzzy flag, which marks the next entry."""
        if line.startswith("#,") and "fuzzy" in (f.strip() for f in line[2:].split(",")):
            if "msgstr" in self.cur:
                self.flush(lineno)
            self.fuzzy_next = True

    def keyword(self, line: str, lineno: int, where: str) -> None:
        keyword, _, rest = line.partition(" ")
        if keyword in ("msgid_plural",) or keyword.startswith("msgstr["):
            raise CatalogError(f"{where}: plural forms are not supported (write 'Label: {{n}}' instead)")
        if keyword not in ("msgctxt", "msgid", "msgstr"):
            raise CatalogError(f"{where}: unknown keyword {keyword!r}")
        if keyword in ("msgctxt", "msgid") and ("msgstr" in self.cur):
            self.flush(lineno)
        if not self.cur:
            self.start = lineno
            self.fuzzy, self.fuzzy_next = self.fuzzy_next, False
        if keyword in self.cur:
            raise CatalogError(f"{where}: {keyword} given twice in one entry")
        self.cur[keyword] = _unquote(rest.strip(), where)
        self.field = keyword

    def flush(self, lineno: int) -> None:
        """The entry read so far is complete: keep it (unless it is the header or fuzzy)."""
        cur = self.cur
        if "msgid" not in cur:
            if cur:
                raise CatalogError(f"{self.name}:{lineno}: msgstr without msgid")
            return
        if "msgstr" not in cur:
            raise CatalogError(f"{self.name}:{lineno}: msgid {cur['msgid']!r} has no msgstr")
        key = cur["msgid"] if "msgctxt" not in cur else f"{cur['msgctxt']}\x04{cur['msgid']}"
        if key and not self.fuzzy:  # the empty msgid is the header
            if key in self.entries:
                raise CatalogError(f"{self.name}:{self.start}: msgid {key!r} appears twice")
            self.entries[key] = cur["msgstr"]
        cur.clear()


@lru_cache(maxsize=None)
def load_catalog(language: str, directory: Path = LOCALE_DIR) -> dict[str, str]:
    """The catalog of `language` (read once, then cached)."""
    if language not in LANGUAGES:
        raise CatalogError(f"language {language!r} is not one of {', '.join(LANGUAGES)}")
    path = Path(directory) / f"{language}.po"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise CatalogError(f"cannot read the {language} texts from {path}: {e.strerror}") from None
    return parse_po(text, str(path))


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a text (what the test compares across catalogs)."""
    return {f for _, f, _, _ in string.Formatter().parse(text) if f is not None}


def names_list(t: Callable[..., str], names: Sequence[str]) -> str:
    """Names as people say them: "Red", "Red and Green", "Red, Green and Blue" (``common.and``)."""
    if len(names) < 2:
        return names[0] if names else ""
    return ", ".join(names[:-1]) + f" {t('common.and')} " + names[-1]


def language_name(language: str) -> str:
    """A language's own name ("Deutsch", "Eesti"), as a visitor looks for it."""
    return load_catalog(language).get("language.name") or language


class Texts(Protocol):
    """What the UI asks of its texts (a :class:`Translator`, or keys only when the catalogs fail)."""

    language: str

    def t(self, key: str, language: str | None = None, **fields: Any) -> str: ...

    def set_language(self, language: str) -> None: ...

    def has(self, key: str) -> bool: ...


class Translator:
    """The active language's texts; English for a missing key, the key itself as a last resort."""

    def __init__(self, language: str = DEFAULT_LANGUAGE, directory: Path = LOCALE_DIR):
        self._dir = Path(directory)
        self._fallback = load_catalog(DEFAULT_LANGUAGE, self._dir)
        self.language = DEFAULT_LANGUAGE
        self._catalog = self._fallback
        self.set_language(language)

    def set_language(self, language: str) -> None:
        self._catalog = load_catalog(language, self._dir)
        self.language = language

    def use_catalog(self, catalog: Mapping[str, str], language: str = DEFAULT_LANGUAGE) -> None:
        """Texts from `catalog`, not a language's file (the layout audit's widest text of every
        language, kiosk/ui/audit/layout.py); `language` is what ``language`` then says."""
        self._catalog = dict(catalog)
        self.language = language

    def has(self, key: str) -> bool:
        return key in self._catalog or key in self._fallback

    def t(self, key: str, language: str | None = None, **fields: Any) -> str:
        """The text for `key` with its ``{placeholders}`` filled from `fields`.

        `language` picks another catalog for one text (the attract screen shows
        "touch to play" in every language in turn).
        """
        catalog = self._catalog if language is None else load_catalog(language, self._dir)
        text = catalog.get(key) or self._fallback.get(key) or key
        if fields:
            try:
                text = text.format(**fields)
            except (KeyError, IndexError, ValueError):
                text = self._fallback.get(key, key).format_map(_Lenient(fields))
        return text

    __call__ = t

    def treasure(self, name: str) -> str:
        return self.t(f"treasure.{name}")

    def colour(self, name: str) -> str:
        return self.t(f"colour.{name}")


class _Lenient(dict[str, object]):
    """format_map helper: an unknown field stays visible as {field} instead of crashing a frame."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
