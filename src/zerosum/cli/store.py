"""The store of proven results as the command line opens it: ``--store
PATH``, else ``$ZEROSUM_STORE``, else the user's default store;
``--no-store`` none. A store that cannot be used is one warning line on
stderr naming the file and what is wrong, and the command goes on without
it (its answer is still printed, its exit status the usual)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..i18n import _
from ..search.proven import KnownResults
from ..store import (
    Store,
    books_off_by_default,
    default_store_path,
    open_store,
    store_off_by_default,
)
from .usage import one_line

#: Stores opened by this process, by path: one connection each, kept open
#: for the commands that follow (a batch, the games of ``play``).
_OPENED: dict[Path, Store | None] = {}


def warn(message: str) -> None:
    """One warning line on stderr."""
    print(_("zerosum: warning: {message}").format(message=one_line(message)), file=sys.stderr)


def store_for(args: argparse.Namespace) -> KnownResults | None:
    """The store the command's options name (None: none, or unusable):
    ``--store PATH``; else, unless ``--no-store`` or ``$ZEROSUM_NO_STORE``,
    the default store."""
    if getattr(args, "no_store", True):
        return None
    given = getattr(args, "store", None)
    if not given and store_off_by_default():
        return None
    path = Path(given).expanduser() if given else default_store_path()
    if path not in _OPENED:
        _OPENED[path] = open_store(path, warn=warn)
    return _OPENED[path]


def use_store(args: argparse.Namespace) -> bool:
    """Whether the command reads and writes a store at all."""
    return store_for(args) is not None


def use_book(args: argparse.Namespace) -> bool:
    """Whether the command reads opening books: not with ``--no-book`` or
    ``$ZEROSUM_NO_BOOK``."""
    return not getattr(args, "no_book", True) and not books_off_by_default()


def close_stores() -> None:
    """Close every store this process opened."""
    for store in _OPENED.values():
        if store is not None:
            store.close()
    _OPENED.clear()


__all__ = ["Store", "close_stores", "store_for", "use_book", "use_store", "warn"]
