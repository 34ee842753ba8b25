"""Translations of what a player reads, through GNU gettext catalogs.

Messages are written in English in the code, marked with ``_()``; the
Simplified Chinese catalog lives in ``locale/zh/LC_MESSAGES/zerosum.po``
(compiled to ``zerosum.mo`` with ``msgfmt``; a test checks the two agree and
that every marked message is translated). The language is chosen by
:func:`activate`: ``"en"``, ``"zh"``, or ``None`` to follow the locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``).

>>> activate("en")
'en'
>>> _("draw")
'draw'
"""

from __future__ import annotations

import gettext
import os
from pathlib import Path

DOMAIN = "zerosum"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "zh")

_active: gettext.NullTranslations = gettext.NullTranslations()


def language_from_environment() -> str:
    """``"zh"`` when the first locale variable that is set names Chinese,
    else ``"en"``."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def activate(language: str | None) -> str:
    """Make ``language`` (en, zh, or None for the locale's) the one ``_()``
    translates into; returns the language chosen."""
    global _active
    chosen = language or language_from_environment()
    if chosen not in LANGUAGES:
        from .game import ZerosumError

        raise ZerosumError(_("unknown language {name!r}; expected en or zh").format(name=chosen))
    if chosen == "en":
        _active = gettext.NullTranslations()
    else:
        _active = gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[chosen])
    return chosen


def _(message: str) -> str:
    """``message`` in the active language (English when untranslated)."""
    return _active.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (for
    texts defined at import time, such as game titles; they are translated
    with ``_()`` where they are shown)."""
    return message
