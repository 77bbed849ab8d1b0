"""The eight catalogs: complete, well-formed, placeholders intact; the .po reader itself."""

import pytest

from engine.labyrinth.tiles import SEATS, TREASURES
from kiosk.ui.kit import i18n
from kiosk.ui.kit.i18n import LANGUAGES, CatalogError, Translator, load_catalog, parse_po, placeholders

EN = load_catalog("en")


def test_english_has_every_treasure_and_colour():
    for name in TREASURES:
        assert EN.get(f"treasure.{name}"), name
    for colour, _ in SEATS:
        assert EN.get(f"colour.{colour}"), colour


@pytest.mark.parametrize("lang", LANGUAGES)
def test_catalog_complete_and_placeholders_match(lang):
    cat = load_catalog(lang)
    missing = sorted(set(EN) - set(cat))
    assert not missing, f"{lang}.po lacks {missing}"
    extra = sorted(set(cat) - set(EN))
    assert not extra, f"{lang}.po has keys unknown to en.po: {extra}"
    for key, text in cat.items():
        assert text.strip(), f"{lang}.po: {key} is empty"
        assert placeholders(text) == placeholders(EN[key]), f"{lang}.po: {key} placeholders differ: {text!r}"
        assert text.format(**{p: "X" for p in placeholders(text)})  # formats without error


def test_languages_have_their_own_names_and_differ():
    names = {lang: i18n.language_name(lang) for lang in LANGUAGES}
    assert names["de"] == "Deutsch" and names["et"] == "Eesti"
    assert len(set(names.values())) == len(LANGUAGES)
    # Not an untranslated copy of English: most texts differ from en.
    for lang in LANGUAGES[1:]:
        cat = load_catalog(lang)
        same = [k for k in EN if cat[k] == EN[k]]
        assert len(same) < len(EN) // 4, f"{lang}: {len(same)} texts identical to English: {same[:10]}"


def test_translator_fills_placeholders_and_falls_back():
    t = Translator("de")
    assert t.t("play.turn", player=t.colour("red")) == "Rot ist dran"
    assert t.treasure("owl") == "Eule"
    assert t.t("attract.touch_to_play", language="fr") == "Touche pour jouer"
    assert t.t("no.such.key") == "no.such.key"
    # a missing field never crashes a frame: it stays visible
    assert "{player}" in t.t("play.turn")
    t.set_language("et")
    assert t.t("setup.start") == "Alusta"
    with pytest.raises(CatalogError, match="xx"):
        t.set_language("xx")


def test_parse_po_multiline_escapes_context_and_errors():
    text = """# comment
msgid ""
msgstr "Language: en\\n"

#. note
msgid "a"
msgstr ""
"first "
"second \\"q\\"\\n"

msgctxt "menu"
msgid "b"
msgstr "B"
"""
    cat = parse_po(text)
    assert cat == {"a": 'first second "q"\n', "menu\x04b": "B"}
    with pytest.raises(CatalogError, match=":3: msgid 'a' appears twice"):
        parse_po('msgid "a"\nmsgstr "1"\nmsgid "a"\nmsgstr "2"\n')
    with pytest.raises(CatalogError, match="plural"):
        parse_po('msgid "a"\nmsgid_plural "as"\nmsgstr[0] "x"\n')
    with pytest.raises(CatalogError, match="quoted string"):
        parse_po('msgid a\nmsgstr "x"\n')
    with pytest.raises(CatalogError, match="has no msgstr"):
        parse_po('msgid "a"\n')
