"""The browser's own code and style, made into one widget module.

The notebook widgets draw with the browser app's modules
(``web/static/tree.js``, ``board.js`` and what they import), not a second
drawing: :func:`bundle` joins them into one ES module (a widget's code is a
single module with no files beside it), each in a function scope of its
own where ``fetch``, ``document`` and ``window`` are the widget's (the tree
view asks the server for traces and boards; in a notebook the widget
answers from what Python sent). :func:`scoped_css` is the page's style
sheet with every rule moved under the widget's class, so that it styles
the widget and nothing else of the notebook.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
HERE = Path(__file__).resolve().parent
#: The browser modules a widget uses, each after those it imports.
MODULES = ("i18n.js", "scores.js", "board.js", "tree.js")
#: The class of a widget's root element: the page's rules apply under it.
SCOPE = ".zerosum-widget"

_IMPORT = re.compile(r'^import\s*\{([^}]*)\}\s*from\s*"\./([\w.-]+)";\s*$', re.M)
_EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|class|const|let)\s+(\w+)", re.M)


def _module(name: str) -> str:
    """One browser module as a function scope that returns its exports."""
    source = (STATIC / name).read_text(encoding="utf-8")

    def local(match: re.Match[str]) -> str:
        names = []
        for part in match.group(1).split(","):
            words = part.split()
            if not words:
                continue
            names.append(
                f"{words[0]}: {words[2]}" if len(words) == 3 and words[1] == "as" else words[0]
            )
        if match.group(2) not in MODULES:
            raise ValueError(f"{name} imports {match.group(2)}, which is not bundled")
        return f"const {{ {', '.join(names)} }} = __zs[{json.dumps(match.group(2))}];"

    exported = _EXPORT.findall(source)
    body = _EXPORT.sub(lambda m: m.group(0)[len("export ") :], _IMPORT.sub(local, source))
    if re.search(r"^export\b", body, re.M):
        raise ValueError(f"{name} has an export the bundler does not read")
    return (
        f"__zs[{json.dumps(name)}] = (function (fetch, document, window) {{\n{body}\n"
        f"return {{ {', '.join(exported)} }};\n}})(__fetch, __document, __window);\n"
    )


@cache
def bundle() -> str:
    """The widgets' ES module: the browser modules, then the widget code
    (``widget.js``), with the tree view's page markup (from ``index.html``)."""
    prelude = (HERE / "prelude.js").read_text(encoding="utf-8")
    markup = f"const TREE_MARKUP = {json.dumps(tree_markup())};\n"
    modules = "".join(_module(name) for name in MODULES)
    return prelude + markup + modules + (HERE / "widget.js").read_text(encoding="utf-8")


def tree_markup() -> str:
    """The tree view's markup, as the page has it (``#tree-view`` of
    ``index.html``)."""
    page = (STATIC / "index.html").read_text(encoding="utf-8")
    start = page.index('<div id="tree-view"')
    depth, at = 0, start
    for match in re.finditer(r"<(/?)div\b[^>]*>", page[start:]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            at = start + match.end()
            break
    return page[start:at]


def _selectors(selectors: str) -> str:
    """A rule's selectors moved under the widget's class."""
    parts, depth, current = [], 0, ""
    for char in selectors:
        depth += (char in "([" and 1) or ((char in ")]" and -1) or 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    scoped = []
    for part in (p.strip() for p in parts):
        match = re.match(r"^(:root|html|body)\b", part)
        if match:
            scoped.append(SCOPE + part[match.end() :])
        else:
            scoped.append(f"{SCOPE} {part}")
    return ", ".join(scoped)


def _scope(css: str) -> str:
    out, at = [], 0
    while True:
        brace = css.find("{", at)
        if brace < 0:
            break
        head = css[at:brace].strip()
        depth, end = 1, brace + 1
        while depth:
            depth += {"{": 1, "}": -1}.get(css[end], 0)
            end += 1
        body = css[brace + 1 : end - 1]
        if head.startswith("@media") or head.startswith("@supports"):
            out.append(f"{head} {{\n{_scope(body)}}}\n")
        elif head.startswith("@"):
            out.append(f"{head} {{{body}}}\n")
        else:
            out.append(f"{_selectors(head)} {{{body}}}\n")
        at = end
    return "".join(out)


@cache
def scoped_css() -> str:
    """The page's style sheet applying only inside a widget, plus the
    widget's own layout (the tree view as a block, not a dialog)."""
    css = re.sub(r"/\*.*?\*/", "", (STATIC / "style.css").read_text(encoding="utf-8"), flags=re.S)
    return _scope(css) + (HERE / "widget.css").read_text(encoding="utf-8")
