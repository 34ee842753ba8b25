"""What lasts: a store of proven results (solved positions), one SQLite file.

Everything a solve proves can be kept here and answered at once the next
time, by any process: the command line, the browser and ``zerosum engine``
use the store by default (``--store PATH``, ``ZEROSUM_STORE``,
``--no-store``), and so can a user's own game.

The API (names kept stable):

* :func:`default_store_path` -- ``$ZEROSUM_STORE``, else ``store.sqlite`` in
  the user data directory (``platformdirs`` when installed, the ``store``
  extra; else the XDG rule, ``~/.local/share/zerosum/store.sqlite``);
  ``$ZEROSUM_NO_STORE`` / ``$ZEROSUM_NO_BOOK`` turn the front ends' default
  store / books off (:func:`store_off_by_default`, :func:`books_off_by_default`);
* :meth:`Store.open` ``(path=None, *, readonly=False, on_error=None,
  label="store")`` -- open or create; :meth:`Store.close`, or use it as a
  context manager; :func:`open_store` -- the same, reporting problems
  through a ``warn`` callback (a front end's way: None when unusable);
* :meth:`Store.get` ``(game, state) -> Entry | None``,
  :meth:`Store.put` ``(game, state, entry)``, :meth:`Store.put_many`
  ``(game, [(state, entry), ...])`` (one transaction),
  :meth:`Store.entries` ``(game=None)`` (:class:`Record` rows),
  :meth:`Store.put_records`, :meth:`Store.count` ``(game=None)``,
  :meth:`Store.games`;
* :class:`Entry` -- the proven bounds (``lower == upper``: exact, with the
  distance), the best moves, the positions the proof took, when, and what
  produced it (``solve``, ``analyze``, ``book``); :func:`merge` -- which of
  two answers for one position is kept (exact beats a bound, a tighter
  bound a looser one, never worse for better);
* :class:`GameIdentity` / :func:`identity_of` -- a game's name, canonical
  parameter spec and ``rules_version`` (a :class:`~zerosum.game.Game`
  attribute, 1 by default: raise it when a rule changes, and old answers
  are never used for the new rules);
* :class:`StoreError` -- one line naming the file and what is wrong.

One row per symmetry class (``game.canonical``); best moves are kept for
the class representative and mapped back to the position asked about:

>>> import tempfile, zerosum
>>> from pathlib import Path
>>> from zerosum.store import Entry, Store
>>> game = zerosum.load("connect4")
>>> folder = tempfile.mkdtemp()
>>> with Store.open(Path(folder) / "s.sqlite") as store:
...     store.put(game, game.play_text("1"), Entry.exact_value(-3, [3], nodes=10))
...     mirrored = store.get(game, game.play_text("7"))
>>> mirrored.best_moves, mirrored.lower
((3,), -3)
"""

from __future__ import annotations

from ..search.proven import Entry, KnownResults, merge, outcome_bounds
from .db import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    Record,
    Store,
    StoreError,
    open_store,
)
from .identity import GameIdentity, identity_of, key_text, position_key
from .paths import (
    ENV_VAR,
    NO_BOOK_VAR,
    NO_STORE_VAR,
    books_off_by_default,
    default_store_path,
    store_off_by_default,
    user_data_dir,
)

__all__ = [
    "APPLICATION_ID",
    "ENV_VAR",
    "NO_BOOK_VAR",
    "NO_STORE_VAR",
    "SCHEMA_VERSION",
    "Entry",
    "GameIdentity",
    "KnownResults",
    "Record",
    "Store",
    "StoreError",
    "books_off_by_default",
    "default_store_path",
    "identity_of",
    "key_text",
    "merge",
    "open_store",
    "outcome_bounds",
    "position_key",
    "store_off_by_default",
    "user_data_dir",
]
