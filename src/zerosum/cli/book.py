"""``zerosum book``: build an opening book, show what one holds, export and
import it as JSON lines, verify a sample against the solver.

* ``book build GAME --plies K [--weak] [--jobs N] [--out PATH]`` -- every
  position within K plies, one per symmetry class, into a book file (default:
  the game's book in the user's books folder, where searches find it);
  stopped (Ctrl+C, or killed) and run again, it goes on where it was;
* ``book info BOOK``, ``book export BOOK [-o FILE]``,
  ``book import FILE [--into BOOK]``, ``book verify BOOK --sample N``.

A book file is a store file (:mod:`zerosum.store`); the build and import
write it, the other commands only read it.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

from .. import i18n
from ..book import shipped
from ..book.build import build_book
from ..book.lines import ExportReport, Located, export_lines, import_lines, locate
from ..book.positions import DEFAULT_MAX_POSITIONS, check_plies, enumerate_positions
from ..book.workers import PositionSolver, WorkerSetup
from ..game import Game, ZerosumError
from ..i18n import _
from ..registry import load
from ..search.proven import Entry
from ..store import Store, StoreError, identity_of
from .bookbar import BuildBar, duration
from .inputs import input_lines
from .render import pad
from .store import warn as store_warn
from .usage import EXIT_USAGE, UsageError, error_line

#: Exit status of ``book verify`` when the book and the solver disagree.
EXIT_MISMATCH = 1

# A book that cannot be used is one warning line, as a store's is.
shipped.warn = store_warn


def add_parser(commands: Any, whole_number: Callable[[str], int]) -> None:
    """Add ``book`` and its subcommands to the command line."""
    from ..search.engine import BACKENDS

    book = commands.add_parser(
        "book", help=_("build, inspect, export, import and verify opening books")
    )
    sub = book.add_subparsers(dest="book_command", metavar="ACTION", parser_class=type(book))
    sub.required = True

    build = sub.add_parser(
        "build", help=_("solve every position up to K plies into a book (resumable)")
    )
    build.add_argument("game", metavar="GAME", help=_("game spec, e.g. connect4"))
    build.add_argument(
        "--plies", type=whole_number, required=True, metavar="K",
        help=_("every position within K plies of the start"),
    )
    build.add_argument(
        "--weak", action="store_true", help=_("prove only win, draw or loss (faster)")
    )
    build.add_argument(
        "--jobs", type=whole_number, metavar="N",
        help=_("worker processes (default: the number of cores)"),
    )
    build.add_argument(
        "--out", metavar="PATH",
        help=_("the book file (default: the game's book in your books folder, beside the store)"),
    )
    build.add_argument(
        "--backend", choices=BACKENDS, default="auto",
        help=_("engine: auto (native when compiled code is available), python or native"),
    )
    build.add_argument(
        "--max-positions", type=whole_number, default=DEFAULT_MAX_POSITIONS, metavar="N",
        help=_("refuse a book of more positions (default {n})").format(
            n=f"{DEFAULT_MAX_POSITIONS:,}"
        ),
    )

    info = sub.add_parser("info", help=_("what a book holds: games, positions per ply, size"))
    info.add_argument("book", metavar="BOOK", help=_("a book file"))
    info.add_argument("--json", action="store_true", help=_("print one JSON object"))
    walk_option(info, whole_number)

    export = sub.add_parser("export", help=_("write a book as JSON lines"))
    export.add_argument("book", metavar="BOOK", help=_("a book file"))
    export.add_argument(
        "-o", "--output", metavar="FILE", help=_("the file to write (default: standard output)")
    )
    walk_option(export, whole_number)

    imports = sub.add_parser(
        "import", help=_("merge JSON lines into a book, checking each against the rules")
    )
    imports.add_argument("file", metavar="FILE", help=_("JSON lines (- for standard input)"))
    imports.add_argument(
        "--into", metavar="BOOK",
        help=_("the book file (default: each game's book in your books folder)"),
    )

    verify = sub.add_parser(
        "verify", help=_("solve a random sample of a book's positions again and compare")
    )
    verify.add_argument("book", metavar="BOOK", help=_("a book file"))
    verify.add_argument(
        "--sample", type=whole_number, required=True, metavar="N", help=_("positions to check")
    )
    verify.add_argument(
        "--seed", type=whole_number, default=0, help=_("seed of the sample (default 0)")
    )
    verify.add_argument(
        "--backend", choices=BACKENDS, default="auto",
        help=_("engine: auto (native when compiled code is available), python or native"),
    )
    walk_option(verify, whole_number)


def walk_option(p: argparse.ArgumentParser, whole_number: Callable[[str], int]) -> None:
    """``--max-positions`` of the commands that find a book's positions again
    by walking the game from the start."""
    p.add_argument(
        "--max-positions", type=whole_number, default=DEFAULT_MAX_POSITIONS, metavar="N",
        help=_("walk at most N positions from the start to find the book's (default {n})")
        .format(n=f"{DEFAULT_MAX_POSITIONS:,}"),
    )


def _walk_limit(args: argparse.Namespace) -> int:
    if args.max_positions < 1:
        raise UsageError(
            _("--max-positions must be at least 1, got {n}").format(n=args.max_positions)
        )
    return int(args.max_positions)


def cmd_book(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    commands = {
        "build": _build,
        "info": _info,
        "export": _export,
        "import": _import,
        "verify": _verify,
    }
    return commands[args.book_command](args, out)


# -- build -----------------------------------------------------------------------------
def _book_of_game(store: Store, game: Game[Any, Any]) -> None:
    """Refuse a book file that holds positions of another game (or of other
    rules of this one)."""
    ours = identity_of(game)
    others = [g for g in store.games() if g != ours]
    if others:
        other = others[0]
        raise UsageError(
            _("{path} is a book of {other} (rules version {version}), not of {game}"
              " (rules version {ours}); expected its own book file").format(
                path=store.path, other=other.spec, version=other.rules_version,
                game=game.spec(), ours=ours.rules_version,
            )
        )


def _game_of(identity: Any) -> Game[Any, Any] | None:
    try:
        return load(identity.spec)
    except ZerosumError:
        return None


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


def _build(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    game = load(args.game)
    plies = check_plies(args.plies)
    jobs = args.jobs if args.jobs is not None else os.cpu_count() or 1
    if jobs < 1:
        raise UsageError(_("--jobs must be at least 1, got {n}").format(n=jobs))
    if args.max_positions < 1:
        raise UsageError(
            _("--max-positions must be at least 1, got {n}").format(n=args.max_positions)
        )
    path = Path(args.out).expanduser() if args.out else shipped.default_book_path(game)
    with Store.open(path, label="book") as book:
        _book_of_game(book, game)
        tree = enumerate_positions(game, plies, max_positions=args.max_positions)
        setup = WorkerSetup(
            spec=game.spec(),
            weak=args.weak,
            backend=args.backend,
            imports=tuple(args.imports),
            lang=args.lang or i18n.language_from_environment(),
        )
        print(
            _(
                "Book of {game} to {plies} plies in {path}: {total} positions"
                " (one per symmetry class, by ply: {counts}); {jobs} worker processes."
            ).format(
                game=game.spec(), plies=plies, path=path, total=f"{len(tree):,}",
                counts=" ".join(str(n) for n in tree.counts()), jobs=jobs,
            ),
            file=sys.stderr,
            flush=True,
        )
        # A bar rewritten in place on a terminal; plain lines in a log.
        bar = BuildBar(sys.stderr, live=sys.stderr.isatty())
        # SIGTERM stops a build as Ctrl+C does: the workers ended, the book kept.
        previous = signal.signal(signal.SIGTERM, _raise_interrupt)
        try:
            report = build_book(
                game, plies, book, setup, jobs=jobs, tree=tree,
                on_progress=bar,
            )
        finally:
            signal.signal(signal.SIGTERM, previous)
            bar.done()
    what = _("exact values") if not args.weak else _("outcomes")
    summary = _(
        "{done} of {total} positions are in the book ({what}): {solved} solved by search"
        " ({nodes} positions searched), {derived} settled from their children, {skipped}"
        " there before; {time}."
    ).format(
        done=f"{report.done:,}", total=f"{report.total:,}", what=what,
        solved=f"{report.solved:,}", nodes=f"{report.nodes:,}",
        derived=f"{report.derived:,}", skipped=f"{report.skipped:,}",
        time=duration(report.seconds),
    )
    if report.stopped:
        print(_("Stopped. {summary}").format(summary=summary), file=sys.stderr)
        print(
            _("Run the same command again to go on where it stopped."), file=sys.stderr
        )
        return 130
    out(summary)
    out(_("Book: {path}").format(path=path))
    return 0


# -- info ------------------------------------------------------------------------------
def _open_read(path_text: str) -> Store:
    path = Path(path_text).expanduser()
    if not path.is_file():
        raise StoreError(_("book {path}: no such file").format(path=path))
    return Store.open(path, readonly=True, label="book")


def _file_size(path: Path) -> int:
    total = 0
    for suffix in ("", "-wal"):
        part = Path(str(path) + suffix)
        if part.is_file():
            total += part.stat().st_size
    return total


def _megabytes(size: int) -> str:
    return f"{size / 1e6:.2f} MB" if size >= 10_000 else f"{size:,} bytes"


def _info(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    with _open_read(args.book) as book:
        size = _file_size(book.path)
        games: list[dict[str, Any]] = []
        problems = 0
        for identity in book.games():
            game = _game_of(identity)
            records = [] if game is None else list(book.entries(game))
            if game is None or getattr(game, "rules_version", 1) != identity.rules_version:
                problems += 1
                print(
                    error_line(
                        _("{game} (rules version {version}): cannot be read by this zerosum"
                          " (an unknown game, or other rules)").format(
                            game=identity.spec, version=identity.rules_version
                        )
                    ),
                    file=sys.stderr,
                )
                continue
            if not records:
                continue
            # A book's entries say their ply; others are found from the start.
            unplaced = [r.key for r in records if r.ply is None]
            places = locate(game, unplaced, _walk_limit(args)) if unplaced else {}
            by_ply: dict[int, list[int]] = {}
            for record in records:
                where = places.get(record.key)
                ply = record.ply if record.ply is not None else None if where is None else (
                    where.ply
                )
                if ply is not None:
                    row = by_ply.setdefault(ply, [0, 0])
                    row[0] += 1
                    row[1] += record.lower == record.upper
            games.append(
                {
                    "game": identity.spec,
                    "rules": identity.rules_version,
                    "positions": len(records),
                    "exact": sum(r.lower == r.upper for r in records),
                    "bounds": sum(r.lower != r.upper for r in records),
                    "plies": [
                        {"ply": p, "positions": n, "exact": e}
                        for p, (n, e) in sorted(by_ply.items())
                    ],
                    "not_found": len(unplaced) - len(places),
                }
            )
    if args.json:
        out(json.dumps({"type": "book", "path": str(book.path), "bytes": size, "games": games}))
        return EXIT_USAGE if problems else 0
    out(_("Book {path}: {size} on disk.").format(path=book.path, size=_megabytes(size)))
    for item in games:
        out(
            _(
                "{game} (rules version {rules}): {positions} positions, {exact} exact values,"
                " {bounds} outcomes only."
            ).format(
                game=item["game"], rules=item["rules"], positions=f"{item['positions']:,}",
                exact=f"{item['exact']:,}", bounds=f"{item['bounds']:,}",
            )
        )
        head = (_("ply"), _("positions"), _("exact"))
        out(f"  {pad(head[0], 5, right=True)} {pad(head[1], 12, right=True)}"
            f" {pad(head[2], 12, right=True)}")
        for row in item["plies"]:
            out(f"  {row['ply']:>5} {row['positions']:>12,} {row['exact']:>12,}")
        if item["not_found"]:
            out(
                _("  {n} positions not reached from the start within {most} positions.").format(
                    n=f"{item['not_found']:,}", most=f"{args.max_positions:,}"
                )
            )
    if not games and not problems:
        out(_("The book holds no positions."))
    return EXIT_USAGE if problems else 0


# -- export and import -----------------------------------------------------------------
def _export(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    report = ExportReport()
    with _open_read(args.book) as book:
        if args.output is None:
            for line in export_lines(book, report, _walk_limit(args)):
                out(line)
        else:
            target = Path(args.output).expanduser()
            partial = target.with_name(target.name + ".partial")
            try:
                with partial.open("w", encoding="utf-8") as file:
                    for line in export_lines(book, report, _walk_limit(args)):
                        file.write(line + "\n")
                partial.replace(target)
            except OSError as error:
                partial.unlink(missing_ok=True)
                raise ZerosumError(
                    _("cannot write {path}: {error}").format(
                        path=target, error=error.strerror or error
                    )
                ) from None
    for spec, missing in report.not_found.items():
        store_warn(
            _(
                "{game}: {n} positions not exported: not reached from the start within"
                " {most} positions"
            ).format(game=spec, n=f"{missing:,}", most=f"{args.max_positions:,}")
        )
    for problem in report.problems:
        print(error_line(problem), file=sys.stderr)
    if args.output is not None:
        out(
            _("Exported {n} positions to {path}.").format(
                n=f"{report.written:,}", path=args.output
            )
        )
    return EXIT_USAGE if report.problems else 0


def _read_lines(name: str) -> Iterator[tuple[int, str | None]]:
    if name == "-":

        yield from input_lines()
        return
    try:
        file = open(name, "rb")  # noqa: SIM115 (closed below, read lazily)
    except OSError as error:
        raise ZerosumError(
            _("cannot read {path}: {error}").format(path=name, error=error.strerror or error)
        ) from None
    with file:
        for number, data in enumerate(file, 1):
            try:
                yield number, data.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                yield number, None


def _import(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    opened: dict[Path, Store] = {}

    def book_for(game: Game[Any, Any]) -> Store:
        path = (
            Path(args.into).expanduser() if args.into else shipped.default_book_path(game)
        )
        if path not in opened:
            opened[path] = Store.open(path, label="book")
        store = opened[path]
        _book_of_game(store, game)
        return store

    try:
        report = import_lines(_read_lines(args.file), book_for)
    finally:
        for store in opened.values():
            store.close()
    for number, reason in report.bad:
        print(
            error_line(_("line {number}: {reason}").format(number=number, reason=reason)),
            file=sys.stderr,
        )
    out(
        _(
            "Imported {accepted} of {read} lines ({written} positions new or better) into {books};"
            " {bad} bad lines."
        ).format(
            accepted=f"{report.accepted:,}", read=f"{report.read:,}",
            written=f"{report.written:,}",
            books=", ".join(str(p) for p in opened) or "-", bad=len(report.bad),
        )
    )
    return EXIT_USAGE if report.bad else 0


# -- verify ----------------------------------------------------------------------------
def describe(game: Game[Any, Any], entry: Entry) -> str:
    """An entry as a person reads it: the result and the best moves."""
    moves = " ".join(game.format_move(m) for m in entry.best_moves) or "-"
    return _("{result}, best {moves}").format(result=entry.describe(), moves=moves)


def _verify(args: argparse.Namespace, out: Callable[[str], None]) -> int:
    if args.sample < 1:
        raise UsageError(_("--sample must be at least 1, got {n}").format(n=args.sample))
    checked = wrong = 0
    started = time.perf_counter()
    with _open_read(args.book) as book:
        pool: list[tuple[Game[Any, Any], str]] = []
        for identity in book.games():
            game = _game_of(identity)
            if game is None or getattr(game, "rules_version", 1) != identity.rules_version:
                raise ZerosumError(
                    _("book {path}: holds positions of {game} (rules version {version}),"
                      " which this zerosum cannot solve").format(
                        path=book.path, game=identity.spec, version=identity.rules_version
                    )
                )
            pool.extend((game, r.key) for r in book.entries(game))
        if not pool:
            raise ZerosumError(_("book {path}: holds no positions").format(path=book.path))
        rng = random.Random(args.seed)
        chosen = rng.sample(pool, min(args.sample, len(pool)))
        by_game: dict[str, tuple[Game[Any, Any], list[str]]] = {}
        for game, key in chosen:
            by_game.setdefault(game.spec(), (game, []))[1].append(key)
        for game, keys in by_game.values():
            places = locate(game, keys, _walk_limit(args))
            solvers: dict[bool, PositionSolver] = {}
            for key in keys:
                where: Located | None = places.get(key)
                if where is None:
                    store_warn(
                        _("{game}: a position not reached from the start; not verified").format(
                            game=game.spec()
                        )
                    )
                    continue
                entry = book.get(game, where.state)
                assert entry is not None
                weak = not entry.exact
                if weak not in solvers:
                    solvers[weak] = PositionSolver(
                        WorkerSetup(game.spec(), weak=weak, backend=args.backend)
                    )
                moves = [game.format_move(m) for m in where.moves]
                fresh = solvers[weak].solve(moves)
                checked += 1
                same = (
                    (fresh.lower, fresh.upper) == (entry.lower, entry.upper)
                    if entry.exact
                    else fresh.outcome == entry.outcome
                ) and set(fresh.best_moves) == set(entry.best_moves)
                if not same:
                    wrong += 1
                    out(
                        _(
                            "MISMATCH {game} after {moves}: the book says {book}; the solver"
                            " says {solver}"
                        ).format(
                            game=game.spec(), moves=" ".join(moves) or _("(the start)"),
                            book=describe(game, entry), solver=describe(game, fresh),
                        )
                    )
    elapsed = time.perf_counter() - started
    if wrong:
        out(
            _("{wrong} of {n} positions disagree with the solver ({time}).").format(
                wrong=wrong, n=checked, time=duration(elapsed)
            )
        )
        return EXIT_MISMATCH
    out(
        _("All {n} positions checked agree with the solver ({time}).").format(
            n=checked, time=duration(elapsed)
        )
    )
    return 0
