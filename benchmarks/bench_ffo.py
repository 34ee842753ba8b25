"""The FFO endgame test: exact final disc difference and best move, position
by position, by the native endgame solver (and by Edax, side by side).

Run from the repository root (needs the ``fast`` extra: numba)::

    python benchmarks/bench_ffo.py                       # FFO #40-#49
    python benchmarks/bench_ffo.py --first 40 --last 59  # #40-#59
    python benchmarks/bench_ffo.py --first 1 --last 19   # the quick ones
    python benchmarks/bench_ffo.py --edax /path/to/edax  # Edax too
    python benchmarks/bench_ffo.py --six --hash 1024     # Othello 6x6 from the start

The positions are read from ``../shared/data/othello/fforum-*.obf`` (never
copied into the repository; ``--data`` points elsewhere). For each: the
exact score and a best move (the solver's ``all_moves=False``), checked
against the published answer (the score exactly; the move among those the
file lists with the best score), the positions visited and the CPU and wall
seconds (CPU seconds are what compare on a shared, loaded machine). The
table (``--hash`` MB) is cleared before each position, as Edax does.

With ``--edax`` the same positions are solved by Edax
(``edax -solve FILE -l 60 -n 1 -h BITS``, the table of the same size in
entries as near as a power of two allows), its score, positions and CPU time
read from its output (its CPU time for all of them together), and the ratios
of positions and CPU time given. Edax needs an
``data/eval.dat`` beside its binary; its published weights are not in its
repository, so a file of zero weights solves exactly (with worse move
ordering than the published figures, which use its trained weights).

Exits with status 1 when any answer is wrong.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from zerosum.native.othello_end import EndgameSolver

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "othello"
FILES = ((1, 19), (20, 39), (40, 59), (60, 79))
SQUARES = [f"{'ABCDEFGH'[i % 8]}{i // 8 + 1}" for i in range(64)]
#: Bytes a table entry takes (a key and a packed value).
ENTRY_BYTES = 16


def problems(data: Path, first: int, last: int) -> list[tuple[int, str]]:
    """``(number, obf line)`` of FFO #first..#last."""
    found: list[tuple[int, str]] = []
    for low, high in FILES:
        if high < first or low > last:
            continue
        path = data / f"fforum-{low}-{high}.obf"
        if not path.exists():
            sys.exit(f"bench_ffo: {path} is missing (see ../shared/data/othello/README.md)")
        for number, line in enumerate(path.read_text().splitlines(), start=low):
            if first <= number <= last and line.strip():
                found.append((number, line.strip()))
    return found


def parse(line: str) -> tuple[int, int, int, set[str]]:
    """``(mine, theirs, score, best moves)`` of an obf line (the side to
    move's discs first; the moves the file lists with the best score)."""
    board, rest = line.split(None, 1)
    side = rest[0]
    x = sum(1 << i for i, ch in enumerate(board) if ch == "X")
    o = sum(1 << i for i, ch in enumerate(board) if ch == "O")
    answers = [a.strip().split(":") for a in rest.split(";")[1:] if ":" in a]
    score = int(answers[0][1])
    best = {move.upper() for move, value in answers if int(value) == score}
    return (x, o, score, best) if side == "X" else (o, x, score, best)


def cpu() -> float:
    return time.process_time()


def run_edax(edax: Path, lines: list[str], bits: int) -> tuple[list[tuple[int, int]], float]:
    """Edax's ``(score, positions)`` per line and its CPU seconds for all of
    them (one process, as its own test runs: its start, about 0.3 s to load
    its weights and table, included)."""
    with tempfile.NamedTemporaryFile("w", suffix=".obf", delete=False) as f:
        f.write("\n".join(lines) + "\n")
        name = f.name
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [str(edax), "-solve", name, "-l", "60", "-n", "1", "-h", str(bits)],
        cwd=edax.parent, capture_output=True, text=True, check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    os.unlink(name)
    spent = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    rows = re.findall(r"^\s*\d+\|\s*\S+\s+([+-]\d+)\s+\S+\s+(\d+)", done.stdout, re.M)
    if len(rows) != len(lines):
        sys.exit(f"bench_ffo: could not read Edax's answers:\n{done.stdout}{done.stderr}")
    return [(int(score), int(nodes)) for score, nodes in rows], spent


def six(megabytes: int) -> int:
    """Othello 6x6 from the start: the exact margin for Black (published:
    White wins 20-16, -4) and one best move."""
    slots = megabytes * (1 << 20) // ENTRY_BYTES
    solver = EndgameSolver(6, slots)
    black = (1 << 19) | (1 << 26)  # d3 and c4 in the 8x8 layout (c3, d4 White)
    white = (1 << 18) | (1 << 27)
    t0, w0 = cpu(), time.perf_counter()
    solved = solver.solve(black, white, all_moves=False)
    spent, wall = cpu() - t0, time.perf_counter() - w0
    move = SQUARES[solved.best_moves[0]] if solved.best_moves else "-"
    print(f"6x6 from the start: margin {solved.margin:+d} for Black (published -4), "
          f"a best move {move.lower()}, {solved.positions:,d} positions, "
          f"{spent:.1f} CPU s, {wall:.1f} s; table {megabytes} MB")
    print(f"# load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 0 if solved.margin == -4 else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--first", type=int, default=40)
    parser.add_argument("--last", type=int, default=49)
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--hash", type=int, default=64, help="table megabytes (default 64)")
    parser.add_argument("--edax", type=Path, help="an Edax binary, to solve the same positions")
    parser.add_argument(
        "--six", action="store_true", help="solve Othello 6x6 from the start instead"
    )
    args = parser.parse_args()
    if args.six:
        return six(args.hash)
    todo = problems(args.data, args.first, args.last)
    slots = args.hash * (1 << 20) // ENTRY_BYTES
    started = time.perf_counter()
    # Compile (or load) the solver outside the timings: 4x4 from the start.
    EndgameSolver(4, 1009).solve((1 << 10) | (1 << 17), (1 << 9) | (1 << 18))
    solver = EndgameSolver(8, slots)
    print(f"# table {args.hash} MB ({slots} entries); setup {time.perf_counter() - started:.1f} s")
    edax = None
    if args.edax is not None:
        bits = max(slots.bit_length() - 1, 10)
        edax = run_edax(args.edax.resolve(), [line for _n, line in todo], bits)
    print("  #  empties  score  want  move  ok   positions    cpu s   wall s"
          + ("   edax pos  ratio" if edax else ""))
    wrong = 0
    totals = [0, 0.0, 0.0, 0, 0.0]
    for i, (number, line) in enumerate(todo):
        mine, theirs, want, moves = parse(line)
        empties = 64 - bin(mine | theirs).count("1")
        solver.clear()
        before, t0, w0 = solver.positions, cpu(), time.perf_counter()
        solved = solver.solve(mine, theirs, all_moves=False)
        spent, wall = cpu() - t0, time.perf_counter() - w0
        positions = solver.positions - before
        move = SQUARES[solved.best_moves[0]] if solved.best_moves else "PS"
        ok = solved.margin == want and (move in moves or not moves)
        wrong += not ok
        totals[0] += positions
        totals[1] += spent
        totals[2] += wall
        text = (f"{number:3d}  {empties:7d}  {solved.margin:+5d}  {want:+4d}  {move:>4}  "
                f"{'yes' if ok else 'NO ':3}  {positions:11,d}  {spent:7.2f}  {wall:7.2f}")
        if edax is not None:
            e_score, e_pos = edax[0][i]
            totals[3] += e_pos
            text += f"  {e_pos:11,d}  {positions / max(e_pos, 1):5.2f}"
            if e_score != want:
                text += "  (Edax wrong)"
        print(text, flush=True)
    text = f"all  {'':7}  {'':5}  {'':4}  {'':4}  {wrong:3d}x {totals[0]:11,d}  {totals[1]:7.2f}"
    text += f"  {totals[2]:7.2f}"
    if edax is not None:
        text += f"  {totals[3]:11,d}  {totals[0] / max(totals[3], 1):5.2f}"
    print(text)
    if edax is not None:
        print(f"# Edax: {edax[1]:.2f} CPU s for all; zerosum / Edax CPU time: "
              f"{totals[1] / max(edax[1], 1e-9):.2f}")
    print(f"# load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
