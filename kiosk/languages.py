"""The kiosk's languages: those of the rulebooks, each with a text catalog in kiosk/locale/.

Neutral ground below every layer: the config (``[kiosk] language``), the theme
packs (a name per language), the command lines and the screens' texts read the
list from here, so the core needs nothing of the UI to check a config.
"""

#: The languages of the rulebooks, in the order the setup screen offers them.
LANGUAGES: tuple[str, ...] = ("en", "de", "fr", "it", "nl", "es", "pt", "et")
DEFAULT_LANGUAGE = "en"
