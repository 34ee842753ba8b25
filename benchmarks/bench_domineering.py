"""Weak solves of Domineering boards on both backends, every outcome checked
against the published results.

Run from the repository root::

    python benchmarks/bench_domineering.py                  # 6x6 both backends, 7x7 native
    python benchmarks/bench_domineering.py --python-7x7     # also 7x7 on the Python backend
    python benchmarks/bench_domineering.py --8x8            # also 8x8 natively (the long one)
    python benchmarks/bench_domineering.py --all-boards --limit 300000000  # every board <= 64 cells
    python benchmarks/bench_domineering.py --classes        # outcomes_small.csv natively only
    python benchmarks/bench_domineering.py --cross-check 2x13,4x7  # a second algorithm

Each solve is ``solver.solve(game, start, weak=True, all_moves=False)``:
who wins with best play (one winning move, not every one), from a fresh
engine (an empty table). Printed per solve: the result, positions visited,
the solver's own seconds (``stats.time_s``) and the process's CPU seconds
for it (``cpu``, which a busy machine inflates less than the wall clock).

Checked against: ``../shared/data/domineering/outcomes_small.csv`` (every
board of up to 20 cells, both first movers), and the published results
that the first player wins 6x6, 7x7 and 8x8 (Breuker, Uiterwijk and van
den Herik; Bullock). Boards of up to 64 cells that the table does not list
are printed with the class found, checked only against their transposes
(a quarter turn swaps the players: rows x cols of class V is cols x rows of
class H); ``--cross-check`` solves chosen boards again by a plain memoised
negamax that shares no code with the engine. Exit status 1 if any outcome
is wrong.

The 9x9 estimate: 9x9 has 81 cells, more than the native backend's one
word, so it would run on the Python backend; the script prints the growth
of the native positions per side from 6x6 (to 8x8 with ``--8x8``) and what
the last factor gives for 9x9 (``--estimate`` stops there). For 8x8 a
larger table pays: ``--hash 1024``.
"""

from __future__ import annotations

import argparse
import functools
import gc
import itertools
import sys
import time
from pathlib import Path

import zerosum
from zerosum.games.domineering import Domineering
from zerosum.search.engine import EngineOptions
from zerosum.search.solver import SolveInterrupted, solve
from zerosum.search.types import Limits

ROOT = Path(__file__).resolve().parents[1]
TABLE = ROOT.parent / "shared" / "data" / "domineering" / "outcomes_small.csv"
FIRSTS = ("vertical", "horizontal")
#: Published: the first player wins these square boards (class "1").
PUBLISHED_SQUARES = {6: "1", 7: "1", 8: "1"}


def published() -> dict[tuple[int, int], str]:
    """The outcome class of each board in outcomes_small.csv."""
    classes: dict[tuple[int, int], str] = {}
    if not TABLE.exists():
        print(f"note: {TABLE} is missing; only the square boards are checked")
        return classes
    for line in TABLE.read_text().splitlines():
        if not line or line.startswith("#") or line.startswith("rows"):
            continue
        rows, cols, cls = line.split(",")
        classes[int(rows), int(cols)] = cls
    return classes


def outcome_class(vertical_first: bool, horizontal_first: bool) -> str:
    if vertical_first and horizontal_first:
        return "1"
    if not vertical_first and not horizontal_first:
        return "2"
    return "V" if vertical_first else "H"


class Run:
    """Solves and their checks, printed as they finish."""

    def __init__(self, hash_mb: float | None, limit: int | None = None) -> None:
        self.hash_mb = hash_mb
        #: Positions one solve of --all-boards may visit (None: no limit). A
        #: node budget, not a time limit: a timed search's deadline keeps its
        #: engine (and table) alive until the deadline passes.
        self.limit = limit
        self.wrong: list[str] = []
        self.nodes: dict[tuple[int, int, str, str], int] = {}
        self.seconds: dict[tuple[int, int, str, str], float] = {}

    def first_wins(
        self, rows: int, cols: int, first: str, backend: str, show: bool, limited: bool = False
    ) -> bool | None:
        """Whether the first player wins (None: not solved within the limit)."""
        game = zerosum.load(f"domineering(rows={rows},cols={cols},first={first})")
        assert isinstance(game, Domineering)
        start = game.initial_state()
        if game.is_terminal(start):
            return False  # the first player has no tile at all
        options = EngineOptions(backend=backend, hash_mb=self.hash_mb)
        cpu = time.process_time()
        limits = Limits(nodes=self.limit) if limited and self.limit else None
        try:
            result = solve(game, start, weak=True, options=options, all_moves=False, limits=limits)
        except SolveInterrupted as stopped:
            print(
                f"  {rows}x{cols} {first:>10} first, {backend:>6}: not solved in"
                f" {stopped.stats.nodes:,} positions",
                flush=True,
            )
            return None
        cpu = time.process_time() - cpu
        gc.collect()  # the engine's table goes before the next one is made
        wins = result.score.raw > 0
        self.nodes[rows, cols, first, backend] = result.stats.nodes
        self.seconds[rows, cols, first, backend] = result.stats.time_s
        if show:
            print(
                f"  {rows}x{cols} {first:>10} first, {backend:>6}: "
                f"{'first player wins' if wins else 'second player wins':<18}"
                f" {result.stats.nodes:>13,} positions {result.stats.time_s:9.3f} s"
                f" (cpu {cpu:8.3f} s)",
                flush=True,
            )
        return wins

    def board(
        self,
        rows: int,
        cols: int,
        backend: str,
        expected: str | None,
        show: bool,
        limited: bool = False,
    ) -> str:
        wins = [self.first_wins(rows, cols, first, backend, show, limited) for first in FIRSTS]
        if wins[0] is None or wins[1] is None:
            return "?"
        found = outcome_class(wins[0], wins[1])
        if expected is not None and found != expected:
            self.wrong.append(f"{rows}x{cols} ({backend}): {found}, published {expected}")
            print(f"  WRONG: {rows}x{cols} is class {found}, published {expected}", flush=True)
        return found


def estimate_9x9(run: Run) -> None:
    """Extrapolate the native positions to 9x9 from the last growth factor
    per side (the factor itself grows with the board, so this is low)."""
    sizes = [n for n in (6, 7, 8) if (n, n, "vertical", "native") in run.nodes]
    if len(sizes) < 2:
        print("9x9 estimate: needs native solves of at least two of 6x6, 7x7, 8x8")
        return
    counts = [run.nodes[n, n, "vertical", "native"] for n in sizes]
    factors = [later / earlier for earlier, later in itertools.pairwise(counts)]
    guess = counts[-1] * factors[-1] ** (9 - sizes[-1])
    growth = ", ".join(
        f"{a}x{a} -> {a + 1}x{a + 1}: {f:,.0f}x" for a, f in zip(sizes, factors, strict=False)
    )
    rates = [
        run.nodes[key] / run.seconds[key]
        for key in run.nodes
        if key[3] == "python" and run.seconds[key] > 0
    ]
    python_rate = max(rates) if rates else 100_000.0
    native_rate = max(
        run.nodes[key] / run.seconds[key]
        for key in run.nodes
        if key[3] == "native" and run.seconds[key] > 0
    )
    print(
        f"9x9 estimate (Vertical first): positions grew {growth} per side, so at least"
        f" {guess:.1e} positions. 9x9 has 81 cells, more than the native backend's one"
        f" 64-bit word: on the Python backend ({python_rate:,.0f} positions/s here) that"
        f" is at least {guess / python_rate / 86_400:,.1f} days; a two-word native"
        f" version at this machine's native speed ({native_rate:,.0f} positions/s)"
        f" would take at least {guess / native_rate / 3600:,.1f} hours, and a table"
        " far larger than memory allows for its positions."
    )


def plain_class(rows: int, cols: int) -> tuple[str, int]:
    """The board's class by a plain memoised negamax written for this check
    alone: no bounds, no ordering, no symmetry, no engine code -- a second
    algorithm for boards too large for the published table but small enough
    to enumerate (up to about 30 cells). Returns the class and the number of
    positions it memoised."""
    vertical_moves = [
        (1 << (r * cols + c)) | (1 << ((r + 1) * cols + c))
        for r in range(rows - 1)
        for c in range(cols)
    ]
    horizontal_moves = [
        (1 << (r * cols + c)) | (1 << (r * cols + c + 1))
        for r in range(rows)
        for c in range(cols - 1)
    ]

    @functools.cache
    def mover_wins(occupied: int, vertical: bool) -> bool:
        moves = vertical_moves if vertical else horizontal_moves
        return any(
            not occupied & tile and not mover_wins(occupied | tile, not vertical)
            for tile in moves
        )

    found = outcome_class(mover_wins(0, True), mover_wins(0, False))
    return found, mover_wins.cache_info().currsize


def cross_check(boards: str, run: Run) -> None:
    """Each board's class by :func:`plain_class` and by the native solver;
    a difference is recorded as wrong."""
    print("Cross-check against a plain memoised negamax (no engine code):")
    for spec in boards.split(","):
        rows, cols = (int(side) for side in spec.lower().split("x"))
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * rows * cols))
        started = time.perf_counter()
        plain, positions = plain_class(rows, cols)
        plain_s = time.perf_counter() - started
        native = run.board(rows, cols, "native", plain, False)
        print(
            f"  {rows}x{cols}: plain {plain} ({positions:,} positions, {plain_s:.1f} s),"
            f" native {native}",
            flush=True,
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python-7x7", action="store_true", help="7x7 on the Python backend too")
    parser.add_argument("--8x8", dest="eight", action="store_true", help="8x8 natively")
    parser.add_argument(
        "--all-boards", action="store_true", help="every board of up to 64 cells, natively"
    )
    parser.add_argument(
        "--classes", action="store_true", help="only the boards of outcomes_small.csv, natively"
    )
    parser.add_argument("--max-side", type=int, default=16, help="--all-boards: longest side")
    parser.add_argument("--hash", type=float, default=None, help="table size in MB")
    parser.add_argument(
        "--limit", type=int, default=None, help="--all-boards: positions a solve may visit"
    )
    parser.add_argument("--estimate", action="store_true", help="only the 9x9 estimate")
    parser.add_argument(
        "--cross-check",
        metavar="BOARDS",
        help="only: boards such as 2x13,4x7 by a plain memoised negamax and natively",
    )
    args = parser.parse_args(argv)
    run = Run(args.hash, args.limit)
    if args.cross_check:
        cross_check(args.cross_check, run)
        if run.wrong:
            print("Wrong outcomes:", *run.wrong, sep="\n  ")
            return 1
        return 0
    classes = published()
    found: dict[tuple[int, int], str] = {}

    if not args.classes:
        print("Square boards, weak solve, each first mover:")
        found[6, 6] = run.board(6, 6, "native", PUBLISHED_SQUARES[6], True)
        run.board(6, 6, "python", PUBLISHED_SQUARES[6], True)
        found[7, 7] = run.board(7, 7, "native", PUBLISHED_SQUARES[7], True)
        if args.python_7x7:
            run.board(7, 7, "python", PUBLISHED_SQUARES[7], True)
        if args.eight:
            found[8, 8] = run.board(8, 8, "native", PUBLISHED_SQUARES[8], True)
        estimate_9x9(run)
        if args.estimate:
            return 0

    print("Published classes of small boards, natively:")
    started = time.perf_counter()
    for (rows, cols), cls in sorted(classes.items()):
        run.board(rows, cols, "native", cls, False)
    print(f"  {len(classes)} boards checked in {time.perf_counter() - started:.2f} s")

    if args.all_boards:
        print("Every board of up to 64 cells (listed boards checked), natively:")
        for rows in range(1, args.max_side + 1):
            for cols in range(1, args.max_side + 1):
                if rows * cols > 64 or (rows, cols) in classes or (rows, cols) in found:
                    continue
                started = time.perf_counter()
                expected = PUBLISHED_SQUARES.get(rows) if rows == cols else None
                cls = run.board(rows, cols, "native", expected, False, limited=True)
                found[rows, cols] = cls
                print(f"  {rows}x{cols}: {cls} ({time.perf_counter() - started:.1f} s)")
        found.update(classes)
        # Turning the board a quarter swaps the players' roles: the class of
        # rows x cols is that of cols x rows with V and H exchanged.
        swap = {"V": "H", "H": "V", "1": "1", "2": "2"}
        for (rows, cols), cls in found.items():
            other = found.get((cols, rows), "?")
            if "?" not in (cls, other) and swap[cls] != other:
                run.wrong.append(f"{rows}x{cols} is {cls} but {cols}x{rows} is {other}")
        print("Classes (rows down, columns across; ? not solved within --limit positions):")
        side = args.max_side
        print("      " + "".join(f"{c:>3}" for c in range(1, side + 1)))
        for rows in range(1, side + 1):
            cells = [found.get((rows, cols), " ") for cols in range(1, side + 1)]
            print(f"  {rows:>3} " + "".join(f"{cell:>3}" for cell in cells))

    if run.wrong:
        print("Wrong outcomes:", *run.wrong, sep="\n  ")
        return 1
    print("Every outcome agrees with the published results.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
