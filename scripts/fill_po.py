"""Fill empty translations of a .po file from a JSON object {msgid: msgstr}.

Usage: python3 scripts/fill_po.py TRANSLATIONS.json [PO]
(then run scripts/i18n.sh again to compile). Only entries whose msgstr is
empty are filled; a msgid not in the catalog is reported.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DEFAULT_PO = Path(__file__).resolve().parents[1] / "src/zerosum/locale/zh/LC_MESSAGES/zerosum.po"


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def fill(po: Path, translations: dict[str, str]) -> list[str]:
    """Fill ``po`` in place; returns the msgids that were not found empty."""
    lines = po.read_text(encoding="utf-8").split("\n")
    left = dict(translations)
    for index, line in enumerate(lines[:-1]):
        if line.startswith("msgid ") and lines[index + 1] == 'msgstr ""':
            msgid = json.loads(line[len("msgid ") :])
            if msgid in left:
                lines[index + 1] = "msgstr " + _quote(left.pop(msgid))
    po.write_text("\n".join(lines), encoding="utf-8")
    return sorted(left)


def main() -> int:
    translations = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    po = Path(sys.argv[2]) if len(sys.argv) > 2 else DEFAULT_PO
    missing = fill(po, translations)
    for msgid in missing:
        print(f"not an empty entry: {msgid!r}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
