"""``zerosum lessons [--lang zh|en] [DIR]``: copy the Jupyter lessons (the
game formalism and minimax, alpha-beta, depth-limited search, openings,
iterative deepening, MCTS; each ending with self-checking exercises) to a
folder, and say how to open them."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from .. import i18n
from ..game import ZerosumError
from ..i18n import _

#: Where the lessons go without DIR.
DEFAULT_DIR = "zerosum-lessons"


def add_parser(commands: Any) -> None:
    """Add ``lessons`` to the command line's subcommands."""
    p = commands.add_parser(
        "lessons", help=_("copy the Jupyter lessons on game search to a folder")
    )
    p.add_argument(
        "--lang",
        dest="lessons_lang",
        choices=i18n.LANGUAGES,
        help=_("the lessons' language: en or zh (default: the language in use)"),
    )
    p.add_argument(
        "dir",
        nargs="?",
        metavar="DIR",
        help=_("the folder to copy them to (default: {dir})").format(dir=DEFAULT_DIR),
    )


def cmd_lessons(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    """Copy the lessons; a notebook already in the folder is kept (it may
    hold the student's work) and named."""
    lang = args.lessons_lang or args.lang or i18n.language_from_environment()
    target = Path(args.dir or DEFAULT_DIR)
    if target.exists() and not target.is_dir():
        raise ZerosumError(
            _("{path} is a file; expected a folder to copy the lessons to").format(path=target)
        )
    source = resources.files("zerosum") / "lessons" / lang
    names = sorted(entry.name for entry in source.iterdir() if entry.name.endswith(".ipynb"))
    try:
        target.mkdir(parents=True, exist_ok=True)
        copied, kept = [], []
        for name in names:
            destination = target / name
            if destination.exists():
                kept.append(name)
                continue
            with resources.as_file(source / name) as path:
                shutil.copyfile(path, destination)
            copied.append(name)
    except OSError as error:
        raise ZerosumError(
            _("cannot copy the lessons to {path}: {reason}").format(
                path=target, reason=error.strerror or error
            )
        ) from None
    out(_("Copied {n} lessons ({lang}) to {path}:").format(n=len(copied), lang=lang, path=target))
    for name in copied:
        out(f"  {name}")
    for name in kept:
        out(_("  {name} (already there: kept)").format(name=name))
    out(_("Open them with:  jupyter lab {path}").format(path=target))
    out(_("(the search-tree and game widgets need: pip install 'zerosum[notebook]')"))
    return 0
