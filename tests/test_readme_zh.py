"""README.zh.md is kept in step with README.md (issue 20, item 8): linked
from the top of the English one, the same two first commands, the same
section structure (the same headings' levels in the same order)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _read(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def _first_commands(text: str) -> str:
    found = re.search(r"```bash\n(.*?)```", text, re.S)
    assert found is not None
    return found.group(1)


def _structure(text: str) -> list[int]:
    """The level of every heading outside code blocks, in order."""
    levels, code = [], False
    for line in text.splitlines():
        if line.startswith("```"):
            code = not code
        elif not code and re.match(r"#{1,6} ", line):
            levels.append(len(line.split(" ", 1)[0]))
    return levels


def test_the_english_readme_links_the_chinese_one_at_its_top() -> None:
    top = _read("README.md").split("```", 1)[0]
    assert "(README.zh.md)" in top


def test_the_same_two_first_commands() -> None:
    english, chinese = _first_commands(_read("README.md")), _first_commands(_read("README.zh.md"))
    assert chinese == english
    assert len([line for line in english.splitlines() if line.strip()]) == 2


def test_the_same_section_structure() -> None:
    english, chinese = _structure(_read("README.md")), _structure(_read("README.zh.md"))
    assert chinese == english
