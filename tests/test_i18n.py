"""The Chinese catalog covers every message, keeps every placeholder, and the
compiled .mo the package loads matches the .po translators edit."""

from __future__ import annotations

import ast
import gettext
import string
from pathlib import Path

import pytest

from zerosum import i18n

SOURCE = Path(i18n.__file__).resolve().parent
PO = SOURCE / "locale" / "zh" / "LC_MESSAGES" / "zerosum.po"
MO = PO.with_suffix(".mo")


def marked_messages() -> set[str]:
    """Every literal passed to _() or N_() anywhere in the package."""
    found = set()
    for path in SOURCE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("_", "N_")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                found.add(node.args[0].value)
    return found


def read_po(path: Path) -> dict[str, str]:
    """A small .po reader: msgid/msgstr pairs, multi-line strings joined."""
    entries: dict[str, str] = {}
    key: str | None = None
    current: list[str] = []
    msgid = ""

    def literal(text: str) -> str:
        value = ast.literal_eval(text)
        assert isinstance(value, str)
        return value

    def flush() -> None:
        nonlocal msgid
        if key == "msgid":
            msgid = "".join(current)
        elif key == "msgstr" and msgid:
            entries[msgid] = "".join(current)

    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith("#") or not line:
            continue
        if line.startswith(("msgid ", "msgstr ")):
            flush()
            key, _, rest = line.partition(" ")
            current = [literal(rest)]
        elif line.startswith('"'):
            current.append(literal(line))
    flush()
    return entries


def fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_every_marked_message_is_translated() -> None:
    catalog = read_po(PO)
    missing = sorted(m for m in marked_messages() if not catalog.get(m))
    assert not missing, f"untranslated (run scripts/i18n.sh and translate): {missing}"


@pytest.mark.parametrize("msgid", sorted(read_po(PO)))
def test_translation_keeps_the_placeholders(msgid: str) -> None:
    assert fields(read_po(PO)[msgid]) == fields(msgid)


def test_compiled_catalog_matches_the_po() -> None:
    with MO.open("rb") as handle:
        compiled = gettext.GNUTranslations(handle)
    for msgid, msgstr in read_po(PO).items():
        assert compiled.gettext(msgid) == msgstr, f"{MO.name} is stale: run scripts/i18n.sh"


def test_activate_switches_language() -> None:
    try:
        assert i18n.activate("zh") == "zh"
        assert i18n._("draw") == "和棋"
        assert i18n._("alpha-beta pruning") == "α-β剪枝"
        assert i18n._("minimax search") == "极大极小搜索"
        assert i18n.activate("en") == "en"
        assert i18n._("draw") == "draw"
    finally:
        i18n.activate("en")


def test_locale_variables_choose_the_language(monkeypatch: pytest.MonkeyPatch) -> None:
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)
    assert i18n.language_from_environment() == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert i18n.language_from_environment() == "zh"
    monkeypatch.setenv("LC_ALL", "en_US.UTF-8")
    assert i18n.language_from_environment() == "en"


def test_no_translation_is_left_fuzzy() -> None:
    """msgfmt leaves fuzzy entries out of the compiled catalog, so a message
    translated in the .po but flagged fuzzy is shown in English (it was:
    the match's "lost every game, too few" line)."""
    flagged = [
        number
        for number, line in enumerate(PO.read_text(encoding="utf-8").splitlines(), 1)
        if line.startswith("#,") and "fuzzy" in line
    ]
    assert not flagged, f"fuzzy entries at lines {flagged} of {PO} (check them, drop the flag)"
