"""The store of proven results: one SQLite file (the standard library's
``sqlite3``; no server), shared safely by several processes.

Layout (schema 2; ``PRAGMA user_version`` holds the schema, ``PRAGMA
application_id`` marks the file as zerosum's)::

    games(id, name, spec, rules_version)            -- one row per identity
    positions(game, key, lower, upper, moves, nodes, solved_at, source, ply,
              every_best)                           -- one row per symmetry class

``key`` and ``moves`` are as :mod:`zerosum.store.identity` writes them;
``lower`` / ``upper`` / ``nodes`` / ``solved_at`` / ``source`` / ``ply`` /
``every_best`` are an :class:`~zerosum.search.proven.Entry`'s fields. Schema 1
lacked ``every_best`` (every row named every best move): a writable schema-1
file gains the column when opened; a read-only one (a shipped book) is read
as it is. A position put twice keeps
the better answer (:func:`~zerosum.search.proven.merge`), decided inside
one write transaction so that two writers never lose each other's proofs.

Several processes: the file is in WAL mode (readers never wait for a
writer), every write is one short ``BEGIN IMMEDIATE`` transaction, a busy
file is waited for (``timeout``) and a locked one retried a few times.

Problems: every failure of the file (missing when read-only, unreadable,
not SQLite, damaged, not zerosum's, a newer schema, read-only, disk full)
becomes one :class:`StoreError` line naming the file and what is wrong.
Opened with ``on_error``, the store instead reports the first problem
through it and goes on without the file (a read problem: every later call
answers "not known"; a write problem: later puts are dropped), so a search
never fails because of its store.
"""

from __future__ import annotations

import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from ..game import Game, ZerosumError
from ..i18n import _
from ..search.proven import Entry, merge
from .identity import GameIdentity, UnstableKey, identity_of, moves_text, position_key, read_moves
from .paths import default_store_path

#: The schema this code writes; a file with a greater one is refused.
SCHEMA_VERSION = 2
#: ``PRAGMA application_id`` of a zerosum store ("zsto").
APPLICATION_ID = 0x7A73746F
#: How long a call waits for another process's write, in seconds.
DEFAULT_TIMEOUT = 30.0
#: How many times a write still locked after the timeout is tried again.
RETRIES = 5

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    spec TEXT NOT NULL,
    rules_version INTEGER NOT NULL,
    UNIQUE (spec, rules_version)
);
CREATE TABLE IF NOT EXISTS positions (
    game INTEGER NOT NULL REFERENCES games (id),
    key TEXT NOT NULL,
    lower INTEGER NOT NULL,
    upper INTEGER NOT NULL,
    moves TEXT NOT NULL,
    nodes INTEGER NOT NULL,
    solved_at REAL NOT NULL,
    source TEXT NOT NULL,
    ply INTEGER,
    every_best INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (game, key)
) WITHOUT ROWID;
"""

T = TypeVar("T")


class StoreError(ZerosumError):
    """A store file that cannot be used: the message is one line naming the
    file and what is wrong."""


@dataclass(frozen=True)
class Record:
    """One stored position as the file holds it, for iteration, export and
    import: the game's identity, the class key (text), the bounds, the best
    moves in the frame of the class representative (the game's notation),
    and the entry's nodes, time and source."""

    game: GameIdentity
    key: str
    lower: int
    upper: int
    moves: tuple[str, ...]
    nodes: int
    solved_at: float
    source: str
    ply: int | None = None
    every_best: bool = True

    def entry(self) -> Entry:
        """The record as an :class:`Entry` whose best moves are the move
        names (in the representative's frame)."""
        return Entry(
            self.lower, self.upper, self.moves, self.nodes, self.solved_at, self.source, self.ply,
            self.every_best,
        )


class Store:
    """A store of proven results in one SQLite file. Open it with
    :meth:`open`; use it as a context manager or :meth:`close` it. Safe to
    share between threads (calls are serialised) and between processes."""

    def __init__(
        self,
        path: Path,
        connection: sqlite3.Connection,
        *,
        readonly: bool,
        label: str,
        on_error: Callable[[str], None] | None,
    ) -> None:
        self.path = path
        self.readonly = readonly
        self._label = label
        self.on_error = on_error
        self._db: sqlite3.Connection | None = connection
        self._lock = threading.RLock()
        self._game_ids: dict[GameIdentity, int] = {}
        #: How a query reads ``every_best``: the column, or 1 in a read-only
        #: schema-1 file (which named every best move in every row).
        self._every_best = "p.every_best"
        #: Identities whose other rules versions were already reported.
        self._noted: set[GameIdentity] = set()
        #: Set after a reported problem: reading (or writing) is then off.
        self.read_failed = False
        self.write_failed = False

    # -- opening and closing -------------------------------------------------------
    @classmethod
    def open(
        cls,
        path: str | Path | None = None,
        *,
        readonly: bool = False,
        on_error: Callable[[str], None] | None = None,
        label: str = "store",
        timeout: float = DEFAULT_TIMEOUT,
        max_bytes: int | None = None,
    ) -> Store:
        """Open (and, unless ``readonly``, create) the store at ``path``
        (default: :func:`~zerosum.store.default_store_path`). ``label`` is
        ``store`` or ``book`` (how messages and front ends name it).
        Raises :class:`StoreError` when the file cannot be used; with
        ``on_error``, later problems are reported through it instead of
        raised (see the module notes). ``max_bytes`` caps the file's size
        (SQLite's ``max_page_count``): a put past it fails as on a full
        disk."""
        where = Path(path).expanduser() if path is not None else default_store_path()
        try:
            connection = _connect(where, readonly, timeout)
        except sqlite3.Error as error:
            raise StoreError(_describe(where, label, error)) from None
        except OSError as error:
            raise StoreError(
                _("{what} {path}: cannot be created ({reason})").format(
                    what=_what(label), path=where, reason=error.strerror or error
                )
            ) from None
        store = cls(where, connection, readonly=readonly, label=label, on_error=on_error)
        try:
            store._prepare()
            if max_bytes is not None:
                page = connection.execute("PRAGMA page_size").fetchone()[0]
                connection.execute(f"PRAGMA max_page_count = {max(1, int(max_bytes) // page)}")
        except sqlite3.Error as error:
            store.close()
            raise StoreError(_describe(where, label, error)) from None
        except StoreError:
            store.close()
            raise
        return store

    def close(self) -> None:
        """Close the file (idempotent)."""
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r}, readonly={self.readonly})"

    @property
    def label(self) -> str:
        """``store`` or ``book``."""
        return self._label

    def _prepare(self) -> None:
        db = self._conn()
        short = _truncated(self.path)
        if short:
            raise StoreError(
                _("{what} {path}: damaged ({reason})").format(
                    what=_what(self._label), path=self.path, reason=short
                )
            )
        app = db.execute("PRAGMA application_id").fetchone()[0]
        version = db.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if tables and app != APPLICATION_ID:
            raise StoreError(
                _("{what} {path}: an SQLite file but not a zerosum store; expected one "
                  "written by zerosum").format(what=_what(self._label), path=self.path)
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                _("{what} {path}: written by a newer zerosum (store schema {found}); "
                  "expected schema {ours} or older").format(
                    what=_what(self._label), path=self.path, found=version, ours=SCHEMA_VERSION
                )
            )
        if tables >= {"games", "positions"} or self.readonly:
            self._every_best = "p.every_best" if version >= 2 else "1"
            if version == 1 and not self.readonly:
                _retry(lambda: self._upgrade_from_1(db))
                self._every_best = "p.every_best"
            return
        self._every_best = "p.every_best"

        def create() -> None:
            db.execute("BEGIN IMMEDIATE")
            try:
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise

        _retry(create)
        # WAL: readers never wait for the writer. Set after the schema so a
        # new file is a zerosum store before anything else happens to it.
        _retry(lambda: db.execute("PRAGMA journal_mode = WAL").fetchone())

    @staticmethod
    def _upgrade_from_1(db: sqlite3.Connection) -> None:
        """Schema 1 -> 2: add ``every_best`` (every schema-1 row named every
        best move), in one transaction another process may have done first."""
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("PRAGMA user_version").fetchone()[0] == 1:
                db.execute(
                    "ALTER TABLE positions ADD COLUMN every_best INTEGER NOT NULL DEFAULT 1"
                )
                db.execute("PRAGMA user_version = 2")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _conn(self) -> sqlite3.Connection:
        if self._db is None:
            raise StoreError(
                _("{what} {path}: already closed").format(what=_what(self._label), path=self.path)
            )
        return self._db

    # -- guarding every call -------------------------------------------------------
    def _guard(self, writing: bool, call: Callable[[], T], otherwise: T) -> T:
        """Run ``call`` under the lock; turn a failure of the file into a
        :class:`StoreError`, or report it (``on_error``) and answer
        ``otherwise``."""
        with self._lock:
            if self.read_failed or (writing and self.write_failed):
                return otherwise
            damaged = False
            try:
                return call()
            except StoreError as error:
                problem = str(error)
            except sqlite3.Error as error:
                problem = _describe(self.path, self._label, error, writing)
                damaged = _is_damage(error)
            except (ValueError, OSError) as error:
                damaged = True
                problem = _("{what} {path}: damaged ({reason})").format(
                    what=_what(self._label), path=self.path, reason=str(error)[:80]
                )
            if self.on_error is None:
                raise StoreError(problem)
            if writing and not damaged:
                self.write_failed = True
                self.on_error(_("{problem}; answers are not saved").format(problem=problem))
            else:
                self.read_failed = True
                self.on_error(_("{problem}; going on without it").format(problem=problem))
            return otherwise

    def _game_id(self, game: Game[Any, Any]) -> int | None:
        """The row id of ``game``'s identity, or None when the store holds
        nothing of it. Answers kept for other rules of the game are never
        used; with ``on_error`` that is said once (one line)."""
        identity = identity_of(game)
        found = self._game_ids.get(identity)
        if found is not None:
            return found
        db = self._conn()
        row = db.execute(
            "SELECT id FROM games WHERE spec = ? AND rules_version = ?",
            (identity.spec, identity.rules_version),
        ).fetchone()
        if row is None:
            if self.on_error is not None and identity not in self._noted:
                self._noted.add(identity)
                other = db.execute(
                    "SELECT rules_version FROM games WHERE spec = ? ORDER BY rules_version DESC",
                    (identity.spec,),
                ).fetchone()
                if other is not None:
                    self.on_error(
                        _(
                            "{what} {path}: holds answers for {game} under rules version"
                            " {found}, not {ours}; they are not used"
                        ).format(
                            what=_what(self._label),
                            path=self.path,
                            game=identity.spec,
                            found=other[0],
                            ours=identity.rules_version,
                        )
                    )
            return None
        self._game_ids[identity] = int(row[0])
        return int(row[0])

    # -- reading -------------------------------------------------------------------
    def get(self, game: Game[Any, Any], state: Any) -> Entry | None:
        """What the store knows of ``state`` (best moves in its frame), or
        None."""
        def call() -> Entry | None:
            try:
                key, transform = position_key(game, state)
            except UnstableKey:
                return None
            game_id = self._game_id(game)
            if game_id is None:
                return None
            row = self._conn().execute(
                "SELECT lower, upper, moves, nodes, solved_at, source, ply,"
                f" {self._every_best} FROM positions p WHERE game = ? AND key = ?",
                (game_id, key),
            ).fetchone()
            if row is None:
                return None
            lower, upper, moves, nodes, solved_at, source, ply, every = row
            try:
                best = read_moves(game, state, moves, transform)
            except ZerosumError as error:
                raise ValueError(f"a stored move is not legal here: {error}") from None
            return Entry(
                int(lower), int(upper), best, int(nodes), float(solved_at), str(source),
                None if ply is None else int(ply), bool(every),
            )

        return self._guard(False, call, None)

    def count(self, game: Game[Any, Any] | None = None) -> int:
        """How many positions are stored (of ``game`` only, when given)."""
        def call() -> int:
            db = self._conn()
            if game is None:
                return int(db.execute("SELECT count(*) FROM positions").fetchone()[0])
            game_id = self._game_id(game)
            if game_id is None:
                return 0
            sql = "SELECT count(*) FROM positions WHERE game = ?"
            return int(db.execute(sql, (game_id,)).fetchone()[0])

        return self._guard(False, call, 0)

    def games(self) -> list[GameIdentity]:
        """Every game identity the store holds positions of."""
        def call() -> list[GameIdentity]:
            rows = self._conn().execute(
                "SELECT name, spec, rules_version FROM games ORDER BY id"
            ).fetchall()
            return [GameIdentity(str(n), str(s), int(v)) for n, s, v in rows]

        nothing: list[GameIdentity] = []
        return self._guard(False, call, nothing)

    def entries(self, game: Game[Any, Any] | None = None) -> Iterator[Record]:
        """Every stored position (of ``game`` only, when given) as a
        :class:`Record`, in key order. Read in one snapshot."""
        def call() -> list[Record]:
            db = self._conn()
            sql = (
                "SELECT g.name, g.spec, g.rules_version, p.key, p.lower, p.upper, p.moves,"
                f" p.nodes, p.solved_at, p.source, p.ply, {self._every_best}"
                " FROM positions p JOIN games g ON g.id = p.game"
            )
            args: tuple[Any, ...] = ()
            if game is not None:
                identity = identity_of(game)
                sql += " WHERE g.spec = ? AND g.rules_version = ?"
                args = (identity.spec, identity.rules_version)
            out = []
            for row in db.execute(sql + " ORDER BY p.game, p.key", args):
                name, spec, version, key, lower, upper, moves, nodes, when, source, ply, every = row
                names = _move_names(moves)
                out.append(
                    Record(
                        GameIdentity(name, spec, int(version)),
                        key,
                        int(lower),
                        int(upper),
                        names,
                        int(nodes),
                        float(when),
                        str(source),
                        None if ply is None else int(ply),
                        bool(every),
                    )
                )
            return out

        nothing: list[Record] = []
        yield from self._guard(False, call, nothing)

    # -- writing -------------------------------------------------------------------
    def put(self, game: Game[Any, Any], state: Any, entry: Entry) -> None:
        """Keep ``entry`` for ``state`` (best moves in its frame), merged with
        what the store has (:func:`~zerosum.search.proven.merge`)."""
        self.put_many(game, [(state, entry)])

    def put_many(self, game: Game[Any, Any], items: Iterable[tuple[Any, Entry]]) -> int:
        """:meth:`put` for many positions in one transaction. Returns how
        many rows were written (a position whose stored answer was as good
        is not)."""
        rows = []
        for state, entry in items:
            try:
                key, transform = position_key(game, state)
            except UnstableKey:
                continue
            rows.append((key, _with_text(entry, moves_text(game, entry.best_moves, transform))))
        if not rows:
            return 0
        identity = identity_of(game)
        return self._guard(True, lambda: self._write(identity, game, rows), 0)

    def put_records(self, records: Iterable[Record]) -> int:
        """Merge records (from :meth:`entries` of another store, or an
        import) into this store, in one transaction. Returns how many rows
        were written."""
        by_game: dict[GameIdentity, list[tuple[str, Entry]]] = {}
        for record in records:
            entry = _with_text(
                record.entry(), _moves_json(record.moves)
            )
            by_game.setdefault(record.game, []).append((record.key, entry))

        def call() -> int:
            written = 0
            for identity, rows in by_game.items():
                written += self._write(identity, None, rows)
            return written

        return self._guard(True, call, 0)

    def _write(
        self, identity: GameIdentity, game: Game[Any, Any] | None, rows: list[tuple[str, Entry]]
    ) -> int:
        if self.readonly:
            raise StoreError(
                _("{what} {path}: opened read-only; expected a writable store").format(
                    what=_what(self._label), path=self.path
                )
            )
        db = self._conn()

        def transaction() -> int:
            db.execute("BEGIN IMMEDIATE")
            try:
                game_id = self._identity_id(identity)
                written = 0
                for key, entry in rows:
                    old = db.execute(
                        "SELECT lower, upper, moves, nodes, solved_at, source, ply, every_best"
                        " FROM positions WHERE game = ? AND key = ?",
                        (game_id, key),
                    ).fetchone()
                    kept = entry
                    if old is not None:
                        previous = Entry(
                            int(old[0]), int(old[1]), (str(old[2]),), int(old[3]),
                            float(old[4]), str(old[5]), None if old[6] is None else int(old[6]),
                            bool(old[7]),
                        )
                        kept = merge(previous, entry)
                        if kept is previous:
                            continue
                        if kept.ply is None and previous.ply is not None:
                            kept = replace(kept, ply=previous.ply)
                    db.execute(
                        "INSERT OR REPLACE INTO positions"
                        " (game, key, lower, upper, moves, nodes, solved_at, source, ply,"
                        " every_best) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (game_id, key, kept.lower, kept.upper, kept.best_moves[0],
                         kept.nodes, kept.solved_at, kept.source, kept.ply,
                         int(kept.every_best)),
                    )
                    written += 1
                db.execute("COMMIT")
                return written
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                self._game_ids.pop(identity, None)
                raise

        return _retry(transaction)

    def _identity_id(self, identity: GameIdentity) -> int:
        found = self._game_ids.get(identity)
        if found is not None:
            return found
        db = self._conn()
        row = db.execute(
            "SELECT id FROM games WHERE spec = ? AND rules_version = ?",
            (identity.spec, identity.rules_version),
        ).fetchone()
        if row is None:
            cursor = db.execute(
                "INSERT INTO games (name, spec, rules_version) VALUES (?, ?, ?)",
                (identity.name, identity.spec, identity.rules_version),
            )
            row = (cursor.lastrowid,)
        self._game_ids[identity] = int(row[0])
        return int(row[0])


def _with_text(entry: Entry, moves: str) -> Entry:
    """``entry`` carrying its moves as the one JSON text the file stores."""
    return replace(entry, best_moves=(moves,))


def _moves_json(names: tuple[str, ...]) -> str:
    import json

    return json.dumps(list(names), ensure_ascii=False)


def _move_names(text: str) -> tuple[str, ...]:
    import json

    names = json.loads(text)
    if not isinstance(names, list):
        raise ValueError("the moves are not a list")
    return tuple(str(n) for n in names)


def _connect(path: Path, readonly: bool, timeout: float) -> sqlite3.Connection:
    if readonly:
        if not path.exists():
            raise sqlite3.OperationalError("no such file")
        uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?mode=ro"
        try:
            db = sqlite3.connect(
                uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
            )
            db.execute("SELECT count(*) FROM sqlite_master").fetchone()
            return db
        except sqlite3.OperationalError:
            # A WAL file in a folder we cannot write (a book inside an
            # installed package): read it as an unchanging file.
            uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?immutable=1"
            return sqlite3.connect(
                uri, uri=True, timeout=timeout, isolation_level=None, check_same_thread=False
            )
    path.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(
        str(path), timeout=timeout, isolation_level=None, check_same_thread=False
    )
    db.execute("PRAGMA synchronous = NORMAL")
    return db


def _truncated(path: Path) -> str:
    """Why the file at ``path`` is shorter than its own header says (a copy
    cut short), or ``""``. Only checked when no write-ahead log is beside it
    (with one, the log holds pages the file does not have yet)."""
    if Path(str(path) + "-wal").exists():
        return ""
    try:
        with path.open("rb") as file:
            header = file.read(100)
            size = file.seek(0, 2)
    except OSError:
        return ""
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        return ""
    page = int.from_bytes(header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(header[28:32], "big")
    counter, valid_for = header[24:28], header[92:96]
    if counter == valid_for and pages * page > size:
        return f"truncated: {size} of {pages * page} bytes"
    return ""


def _retry(call: Callable[[], T]) -> T:
    """``call``, tried again (with a growing pause) while another process
    holds the file past the busy timeout."""
    for attempt in range(RETRIES):
        try:
            return call()
        except sqlite3.OperationalError as error:
            text = str(error).lower()
            if attempt + 1 == RETRIES or ("locked" not in text and "busy" not in text):
                raise
            time.sleep(0.05 * 2**attempt)
    raise AssertionError("unreachable")


def _what(label: str) -> str:
    return _("book") if label == "book" else _("store")


def _is_damage(error: sqlite3.Error) -> bool:
    low = str(error).lower()
    return "not a database" in low or "malformed" in low or "corrupt" in low


def _describe(path: Path, label: str, error: sqlite3.Error, writing: bool = False) -> str:
    """One line naming the file and what is wrong with it."""
    text = str(error)
    low = text.lower()
    what = _what(label)
    if "no such file" in low:
        return _("{what} {path}: no such file").format(what=what, path=path)
    if _is_damage(error):
        return _(
            "{what} {path}: not a zerosum store or damaged ({reason}); expected an SQLite file"
            " written by zerosum"
        ).format(what=what, path=path, reason=text)
    if "full" in low:
        return _("{what} {path}: the disk is full").format(
            what=what, path=path
        )
    if "readonly" in low or "read-only" in low:
        return _("{what} {path}: cannot be written ({reason})").format(
            what=what, path=path, reason=text
        )
    if "unable to open" in low:
        return _("{what} {path}: cannot be opened ({reason})").format(
            what=what, path=path, reason=text
        )
    if writing:
        return _("{what} {path}: cannot be written ({reason})").format(
            what=what, path=path, reason=text
        )
    return _("{what} {path}: cannot be read ({reason})").format(
        what=what, path=path, reason=text
    )


def open_store(
    path: str | Path | None = None,
    *,
    readonly: bool = False,
    warn: Callable[[str], None],
    label: str = "store",
) -> Store | None:
    """A front end's way in: the store at ``path`` (default:
    :func:`~zerosum.store.default_store_path`), reporting every problem
    through ``warn`` (one line) -- then None when it cannot be opened, so
    the search goes on without it."""
    try:
        return Store.open(path, readonly=readonly, on_error=warn, label=label)
    except StoreError as error:
        warn(_("{problem}; going on without it").format(problem=error))
        return None
