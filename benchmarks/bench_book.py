"""Opening books (issue 18): what a book build costs, which order to build
in, and what a book look-up costs.

1. **Builds** -- ``build_book`` as ``zerosum book build`` runs it (worker
   processes, deepest first, shallower plies settled from their children)
   for each ``SPEC:K`` given: positions, positions searched, time, the
   book's size on disk.
2. **Order** -- one book built three ways in this process (``jobs=0``, one
   warm searcher, so the orders are compared on one searcher): deepest first
   settling from children (what the build does), deepest first searching
   every position, and shallowest first searching every position.
3. **Look-up** -- ``Store.get`` on every position of the last book built.

    python benchmarks/bench_book.py [--build SPEC:K ...] [--order SPEC:K]
        [--jobs N] [--backend B]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import zerosum
from zerosum.book.build import BuildReport, build_book
from zerosum.book.positions import enumerate_positions
from zerosum.book.workers import WorkerSetup
from zerosum.store import Store


def _size(path: Path) -> int:
    return sum(
        Path(str(path) + s).stat().st_size for s in ("", "-wal") if Path(str(path) + s).is_file()
    )


def build(
    spec: str,
    plies: int,
    path: Path,
    jobs: int,
    backend: str,
    derive: bool = True,
    deepest_first: bool = True,
) -> tuple[BuildReport, float]:
    game = zerosum.load(spec)
    started = time.perf_counter()
    with Store.open(path, label="book") as book:
        report = build_book(
            game, plies, book, WorkerSetup(spec, backend=backend), jobs=jobs,
            derive=derive, deepest_first=deepest_first,
        )
    return report, time.perf_counter() - started


def builds(cases: list[tuple[str, int]], jobs: int, backend: str, folder: Path) -> Path:
    print(f"## Book builds ({jobs} worker processes, backend {backend})")
    print("| game | plies | positions | searched | settled | positions searched"
          " | time (s) | size on disk |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    last = folder / "none"
    for spec, plies in cases:
        last = folder / f"{spec}-{plies}.sqlite"
        report, seconds = build(spec, plies, last, jobs, backend)
        print(
            f"| {spec} | {plies} | {report.total:,} | {report.solved:,} | {report.derived:,}"
            f" | {report.nodes:,} | {seconds:.1f} | {_size(last) / 1e6:.2f} MB |"
        )
    return last


def order(spec: str, plies: int, backend: str, folder: Path) -> None:
    print(f"\n## Order of work: {spec} to {plies} plies, one warm searcher in this process")
    print("| order | searched | settled | positions searched | time (s) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    build(spec, 1, folder / "warm-up.sqlite", 0, backend)  # compiled code loaded, not timed
    ways = (
        ("deepest first, settled from children", True, True),
        ("deepest first, every position searched", False, True),
        ("shallowest first, every position searched", False, False),
    )
    for name, derive, deepest in ways:
        path = folder / f"order-{derive}-{deepest}.sqlite"
        report, seconds = build(
            spec, plies, path, 0, backend, derive=derive, deepest_first=deepest
        )
        print(f"| {name} | {report.solved:,} | {report.derived:,} | {report.nodes:,}"
              f" | {seconds:.1f} |")


def lookups(spec: str, plies: int, path: Path) -> None:
    game = zerosum.load(spec)
    tree = enumerate_positions(game, plies)
    states = [tree.state(i) for i in range(len(tree))]
    with Store.open(path, readonly=True, label="book") as book:
        started = time.perf_counter()
        found = sum(book.get(game, s) is not None for s in states)
        seconds = time.perf_counter() - started
    print(f"\n## Look-up: `Store.get` on every position of {spec} to {plies} plies")
    print(f"{found:,} of {len(states):,} found; {seconds / len(states) * 1e6:.0f} us per"
          " position (canonical key, query, best moves mapped back)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--build", nargs="*",
        default=["tictactoe:9", "connect4(width=5,height=4):6",
                 "connect4(width=5,height=4):8", "connect4(width=6,height=5):4"],
    )
    parser.add_argument("--order", default="connect4(width=5,height=4):6")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--backend", default="auto")
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    cases = [(s.rsplit(":", 1)[0], int(s.rsplit(":", 1)[1])) for s in args.build]
    with tempfile.TemporaryDirectory() as folder:
        last = builds(cases, args.jobs, args.backend, Path(folder))
        if args.order:
            spec, plies = args.order.rsplit(":", 1)
            order(spec, int(plies), args.backend, Path(folder))
        if cases:
            lookups(cases[-1][0], cases[-1][1], last)
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
