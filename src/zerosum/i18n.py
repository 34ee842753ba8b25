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
from contextvars import ContextVar
from functools import cache
from pathlib import Path

from .errors import ZerosumError

DOMAIN = "zerosum"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "zh")

# A context variable rather than a global: each connection of the web server
# runs in its own context (asyncio task, and the threads it searches in), so
# two browser tabs can use two languages at once.
_active: ContextVar[gettext.NullTranslations | None] = ContextVar(
    "zerosum_translations", default=None
)
_ENGLISH = gettext.NullTranslations()


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
    translates into, in the current context (the whole program, unless it
    runs tasks in contexts of their own); returns the language chosen."""
    chosen = language or language_from_environment()
    _active.set(translations(chosen))
    return chosen


@cache
def translations(language: str) -> gettext.NullTranslations:
    """The catalog of ``language`` (en or zh); raises ZerosumError otherwise."""
    if language not in LANGUAGES:
        raise ZerosumError(
            _("unknown language {name!r}; expected en or zh").format(name=language)
        )
    if language == "en":
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, localedir=LOCALE_DIR, languages=[language])


def _(message: str) -> str:
    """``message`` in the active language (English when untranslated)."""
    return (_active.get() or _ENGLISH).gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for translation without translating it now (for
    texts defined at import time, such as game titles; they are translated
    with ``_()`` where they are shown)."""
    return message
