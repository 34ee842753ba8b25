"""Opening books: every position up to some plies from the start, solved
once and kept in a store file (the same SQLite format as the store of
proven results, :mod:`zerosum.store`).

* :mod:`.positions` -- the positions of a book, one per symmetry class;
* :mod:`.proof`     -- a position settled from its children's entries;
* :mod:`.workers`   -- the worker processes that solve positions, each with
  a warm searcher;
* :mod:`.build`     -- the build: order, resuming, stopping;
* :mod:`.lines`     -- books as JSON lines (export, import);
* :mod:`.shipped`   -- the books shipped inside the package, found by a
  game's identity.

Layer: beside :mod:`zerosum.store` (above search and native, below play and
the front ends).
"""
