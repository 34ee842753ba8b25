"""Where a game's opening book is found: the books shipped inside the
package, and the books a user built.

A book is named by its game's identity (:func:`book_file_name`: the spec and
the rules version, so a changed rule never uses an old book), and looked
for, in this order, in

1. the user's books folder, ``books/`` beside the store file
   (:func:`user_books_dir`; where ``zerosum book build`` writes by default);
2. the package's own folder, ``zerosum/book/shipped/`` (package data: the
   books that ship with zerosum).

A book found is opened read-only (SQLite ``mode=ro``, or ``immutable=1``
when its folder cannot be written, as in a read-only install) once per
process, and consulted by every search through the front door's book finder
(:func:`zerosum.search.proven.register_book_finder`; ``--no-book`` turns it
off). A book that cannot be used (damaged, not a zerosum store) is reported
once through :data:`warn` -- one line naming the file -- and searches go on
without it.

>>> import zerosum
>>> book_file_name(zerosum.load("connect4"))
'connect4-width7-height6.r1.sqlite'
>>> book_file_name(zerosum.load("tictactoe"))
'tictactoe.r1.sqlite'
"""

from __future__ import annotations

import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..search.proven import KnownResults, register_book_finder

#: The folder of the books shipped in the package.
SHIPPED_DIR = Path(__file__).resolve().parent / "shipped"


def _stderr_line(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


#: Where the one line about a book that cannot be used goes (front ends may
#: replace it; by default, standard error).
warn: Callable[[str], None] = _stderr_line

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


def book_file_name(game: Any) -> str:
    """The file name of ``game``'s book: its spec without brackets, ``=``
    or commas (``connect4-width7-height6``), then ``.r`` and the rules
    version, then ``.sqlite``."""
    spec = game.spec() if getattr(game, "name", "") else type(game).__name__
    text = spec.replace("(", "-").replace(")", "").replace("=", "").replace(",", "-")
    version = getattr(game, "rules_version", 1)
    return f"{_UNSAFE.sub('_', text)}.r{version}.sqlite"


def user_books_dir() -> Path:
    """The user's books folder: ``books`` beside the store file (so
    ``ZEROSUM_STORE`` moves it too)."""
    from ..store import default_store_path

    return default_store_path().parent / "books"


def default_book_path(game: Any) -> Path:
    """Where ``zerosum book build`` writes ``game``'s book unless told: the
    user's books folder, where searches find it."""
    return user_books_dir() / book_file_name(game)


def book_paths(game: Any) -> list[Path]:
    """Every place ``game``'s book is looked for, in order."""
    name = book_file_name(game)
    return [user_books_dir() / name, SHIPPED_DIR / name]


def find_book_file(game: Any) -> Path | None:
    """The first of :func:`book_paths` that exists, or None."""
    for path in book_paths(game):
        if path.is_file():
            return path
    return None


_opened: dict[Path, KnownResults | None] = {}
_lock = threading.Lock()


def open_book(game: Any) -> KnownResults | None:
    """``game``'s book, opened read-only (once per process and file), or None
    when there is none or it cannot be used (reported once, see
    :data:`warn`)."""
    path = find_book_file(game)
    if path is None:
        return None
    with _lock:
        if path in _opened:
            return _opened[path]
        from ..store import open_store

        book = open_store(path, readonly=True, warn=lambda line: warn(line), label="book")
        _opened[path] = book
        return book


def forget_opened() -> None:
    """Close the books opened so far (a test, or a book just rebuilt, opens
    them again on next use)."""
    with _lock:
        for book in _opened.values():
            close = getattr(book, "close", None)
            if close is not None:
                close()
        _opened.clear()


register_book_finder(open_book)
