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
from ..store import Store, default_store_path, open_store
from .parser import one_line

#: Stores opened by this process, by path: one connection each, kept open
#: for the commands that follow (a batch, the games of ``play``).
_OPENED: dict[Path, Store | None] = {}


def warn(message: str) -> None:
    """One warning line on stderr."""
    print(_("zerosum: warning: {message}").format(message=one_line(message)), file=sys.stderr)


def store_for(args: argparse.Namespace) -> KnownResults | None:
    """The store the command's options name (None: none, or unusable)."""
    if getattr(args, "no_store", True):
        return None
    given = getattr(args, "store", None)
    path = Path(given).expanduser() if given else default_store_path()
    if path not in _OPENED:
        _OPENED[path] = open_store(path, warn=warn)
    return _OPENED[path]


def close_stores() -> None:
    """Close every store this process opened."""
    for store in _OPENED.values():
        if store is not None:
            store.close()
    _OPENED.clear()


__all__ = ["Store", "close_stores", "store_for", "warn"]
