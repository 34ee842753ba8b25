"""Layers without cycles (issue 26, item 10): every module's imports, the
function-local ones and those for type checking included, go one way:
rules -> search -> native -> store -> play -> front ends, and no two
modules import each other, directly or round a loop.

The imports are read from the source with :mod:`ast` (nothing is
imported), each resolved to the module it names (``from . import x`` to the
module ``x`` when there is one, else to the package)."""

from __future__ import annotations

import ast
from pathlib import Path

import zerosum

PACKAGE = Path(zerosum.__file__).resolve().parent

#: The layers, lowest first; a module belongs to the layer of the longest
#: prefix listed. ``zerosum`` itself (``zerosum/__init__.py``) is the
#: package's face, above everything.
LAYERS: dict[str, int] = {
    # rules: the Game protocol, the games, their errors and translations
    "zerosum.errors": 0,
    "zerosum.i18n": 0,
    "zerosum.game": 0,
    "zerosum.registry": 0,
    "zerosum.games": 0,
    "zerosum.testing": 0,
    "zerosum.locale": 0,
    # search: any game's algorithms (and the published data sets' conventions)
    "zerosum.search": 1,
    "zerosum.datasets": 1,
    # native: compiled kernels, found by search through a registry
    "zerosum.native": 2,
    # store: what lasts (solved positions, books)
    "zerosum.store": 3,
    "zerosum.book": 3,
    # play: players, the game loop, matches, Elo, records
    "zerosum.play": 4,
    # front ends: render what search returns
    "zerosum.report": 5,
    "zerosum.cli": 5,
    "zerosum.web": 5,
    "zerosum.notebook": 5,
    "zerosum.exercises": 5,
    "zerosum.__main__": 5,
    "zerosum": 6,
}
NAMES = ["rules", "search", "native", "store", "play", "front ends", "the package"]

#: Search knows nothing of any particular game. The one exception is the
#: pure-Python Connect Four core, which is being retired (issue 26, item 6).
GAME_IMPORTS_ALLOWED = {"zerosum.search.cores.connect4"}


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of the package: its file and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, package)
    return found


def imports(known: dict[str, tuple[Path, bool]]) -> dict[str, dict[str, int]]:
    """module -> {imported module of the package: line of the first import}."""
    edges: dict[str, dict[str, int]] = {}
    for name, (path, package) in known.items():
        found = edges.setdefault(name, {})
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            targets: list[str] = []
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                if node.level:
                    base = name.split(".") if package else name.split(".")[:-1]
                    base = base[: len(base) - (node.level - 1)]
                    module = ".".join(base + ([node.module] if node.module else []))
                else:
                    module = node.module or ""
                for alias in node.names:
                    inner = f"{module}.{alias.name}"
                    targets.append(inner if inner in known else module)
            for target in targets:
                # import a.b.c names the package a.b too, but what it uses is a.b.c
                if target in known and target != name:
                    found.setdefault(target, node.lineno)
    return edges


def layer(name: str) -> int:
    prefixes = [p for p in LAYERS if name == p or name.startswith(p + ".")]
    assert prefixes, f"{name} is in no layer: add it to LAYERS in {__file__}"
    return LAYERS[max(prefixes, key=len)]


def cycles(edges: dict[str, dict[str, int]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in edges.get(node, {}):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_the_scan_sees_function_local_and_type_checking_imports() -> None:
    """The scan is not blind: known imports of each kind are found."""
    edges = imports(modules())
    assert "zerosum.search.types" in edges["zerosum"]  # top level
    assert "zerosum.search.perft" in edges["zerosum.search"]  # relative, from a package
    assert "zerosum.native.registry" in edges["zerosum.native"]  # inside a function
    assert len(edges) > 70


def test_every_module_is_in_a_layer() -> None:
    for name in modules():
        layer(name)


def test_no_import_goes_up_a_layer() -> None:
    known = modules()
    wrong = [
        f"{source} ({NAMES[layer(source)]}) imports {target} ({NAMES[layer(target)]}),"
        f" line {line}"
        for source, targets in imports(known).items()
        for target, line in targets.items()
        if layer(target) > layer(source)
    ]
    assert not wrong, "\n".join(wrong)


def test_no_modules_import_each_other_round_a_loop() -> None:
    loops = cycles(imports(modules()))
    assert not loops, loops


def test_the_search_imports_no_particular_game() -> None:
    wrong = [
        f"{source} imports {target}"
        for source, targets in imports(modules()).items()
        if layer(source) == LAYERS["zerosum.search"] and source not in GAME_IMPORTS_ALLOWED
        for target in targets
        if target.startswith("zerosum.games.")
    ]
    assert not wrong, wrong


def test_the_scan_finds_a_loop_and_an_upward_import() -> None:
    """The checks above can fail: a made-up graph with a hidden loop."""
    edges = {"a": {"b": 1}, "b": {"c": 1}, "c": {"a": 1}, "d": {"a": 1}}
    assert cycles(edges) == [["a", "b", "c"]]
    assert layer("zerosum.play.runner") > layer("zerosum.search.engine")
