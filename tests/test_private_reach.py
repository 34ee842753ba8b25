"""No module of the search, the native backend or the games reads another
module's private names (issue 26, item 7): what one needs of another is a
named, public interface (``ConnectFour.bit_layout``, ``Engine.start_search``,
``reference.ReferenceSearch``...). Checked on the source: private names
imported from another module, and private attributes read through a name
that is not ``self`` or ``cls``, except objects of the module's own classes
(listed below, each with why)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "zerosum"
PACKAGES = ("search", "native", "games")

#: ``(file, name, attribute)`` reads of a private attribute through a name
#: that are not reaches into another module.
ALLOWED = {
    # warm_up reads the NativeCore it just built (the same module).
    ("native/core.py", "core", "_tt"),
    # numba's documented extension API (cgutils struct proxies).
    ("native/borrow.py", "value", "_getvalue"),
    # The engine trace's recorder, a class of the same module.
    ("search/enginetrace.py", "recorder", "_gen_moves"),
}


def _sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (SRC / package).rglob("*.py"))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def test_no_private_name_is_imported_from_another_module() -> None:
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                found += [
                    f"{path.relative_to(SRC)}: from {node.module} import {alias.name}"
                    for alias in node.names
                    if _private(alias.name)
                ]
    assert found == []


def test_no_private_attribute_is_read_through_another_object() -> None:
    found = []
    for path in _sources():
        relative = path.relative_to(SRC).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and _private(node.attr)
                and isinstance(node.value, ast.Name)
                and node.value.id not in ("self", "cls")
                and (relative, node.value.id, node.attr) not in ALLOWED
            ):
                found.append(f"{relative}:{node.lineno}: {node.value.id}.{node.attr}")
    assert found == []
