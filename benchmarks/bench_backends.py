"""Both engine backends on every built-in game with native code: positions
visited (exact, equal or nearly so) and positions per second, in one run so
the ratio is meaningful on a noisy machine; then the native backend's start
in a new process, with an empty compile cache (the first use on a machine)
and with a warm one, and the command line's start with a warm one.

Run from the repository root::

    python benchmarks/bench_backends.py            # everything (a few minutes)
    python benchmarks/bench_backends.py --quick    # smaller searches
    python benchmarks/bench_backends.py --startup-only

Each row runs the same search on a new engine of each backend (warmed up by a
depth-1 search, its table then cleared: the time is the search's own,
``stats.time_s``) and checks that both give the same score and best moves;
exit status 1 if any differs.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from typing import Any

import zerosum
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.solver import solve
from zerosum.search.types import Limits, SearchResult


@dataclass(frozen=True)
class Case:
    label: str
    spec: str
    moves: str
    mode: str  # "solve", "weak" or "depth:N"


CASES = [
    Case("tic-tac-toe, solve from the start", "tictactoe", "", "solve"),
    Case("Connect Four, middle game solve", "connect4", "32131537322374512174", "solve"),
    Case("Connect Four, analysis to depth 9", "connect4", "4453", "depth:9"),
    Case("Domineering 5x5, weak solve", "domineering(rows=5,cols=5)", "", "weak"),
    Case("Othello 6x6, analysis to depth 6", "othello(size=6)", "", "depth:6"),
    Case("Othello 8x8, analysis to depth 5", "othello", "", "depth:5"),
    Case("gomoku, depth 2 after h8", "gomoku", "h8", "depth:2"),
]
QUICK = {"Othello 8x8, analysis to depth 5", "Connect Four, analysis to depth 9"}


def run(case: Case, backend: str) -> SearchResult[Any]:
    game = zerosum.load(case.spec)
    state = game.play(game.split_moves(case.moves)) if case.moves else game.initial_state()
    engine: Engine[Any] = Engine(game, EngineOptions(backend=backend))
    # Warm up (the first calls of a process, the table's pages), then forget:
    # the timed search starts with an empty table that is already in memory.
    engine.search(state, Limits(depth=1))
    engine.clear()
    if case.mode in ("solve", "weak"):
        return solve(game, state, engine=engine, weak=case.mode == "weak")
    return engine.analyze(state, Limits(depth=int(case.mode.split(":")[1])))


def compare(cases: list[Case]) -> int:
    print(f"{'search':<38} {'backend':<7} {'positions':>11} {'seconds':>8} {'pos/s':>11}")
    wrong = 0
    for case in cases:
        results = {}
        for backend in ("python", "native"):
            result = run(case, backend)
            seconds = result.stats.time_s
            results[backend] = result
            nps = result.stats.nodes / result.stats.time_s if result.stats.time_s else 0
            print(f"{case.label:<38} {backend:<7} {result.stats.nodes:>11,} {seconds:>8.3f}"
                  f" {nps:>11,.0f}", flush=True)
        fast, slow = results["native"], results["python"]
        same = fast.score == slow.score and set(fast.best_moves) == set(slow.best_moves)
        ratio = slow.stats.time_s / fast.stats.time_s if fast.stats.time_s else 0.0
        print(f"{'':<38} native is {ratio:.1f}x faster;"
              f" {'same answer' if same else 'DIFFERENT ANSWERS'}")
        wrong += not same
    return wrong


STARTUP = """
import time
began = time.perf_counter()
import zerosum
from zerosum.search.engine import Engine, EngineOptions
from zerosum.search.types import Limits
game = zerosum.load("connect4")
engine = Engine(game, EngineOptions(backend="native"))
ready = time.perf_counter()
engine.search(game.play(list("4453")), Limits(depth=8))
print(f"{ready - began:.3f} {time.perf_counter() - began:.3f}")
"""


#: Runs the command line (argv after ``--``) and prints when its native
#: search starts: the second call of ``NativeCore.child_value`` (the first is
#: the engine's warm-up), then ends the process there (a solve of 4444 takes
#: minutes; its start-up is what is measured).
CLI_START = """
import importlib.abc, importlib.util, os, sys, time
began = time.perf_counter()
calls = []

class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name != "zerosum.native.core":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        run = spec.loader.exec_module

        def exec_module(module):
            run(module)
            value = module.NativeCore.child_value

            def child_value(core, *args):
                calls.append(time.perf_counter() - began)
                if len(calls) == 2:
                    print(f"{calls[-1]:.3f}", flush=True)
                    os._exit(0)
                return value(core, *args)

            module.NativeCore.child_value = child_value

        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Hook())
from zerosum.cli import main
sys.argv = ["zerosum", *sys.argv[1:]]
main()
"""

#: The commands whose start the issue asks about.
CLI_CASES = [
    ("solve connect4 --moves 4444 --backend native", True),
    ("analyze connect4 --moves 44 --depth 8", False),
]


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, str]:
    began = time.perf_counter()
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    return time.perf_counter() - began, out


def startup() -> None:
    """A new process: imports, engine (compiling or loading the kernel), and
    a depth-8 Connect Four search, with an empty and with a warm cache; then
    the command line with the warm cache: when a solve's search starts, and
    an analysis from start to end; and the floor, importing numba alone."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("empty cache (first use)", "warm cache", "warm cache"):
            total, out = _timed([sys.executable, "-c", STARTUP], env)
            ready, searched = out.split()
            print(f"  {label:<26} ready to search {float(ready):6.2f} s,"
                  f" searched {float(searched):6.2f} s, process {total:6.2f} s", flush=True)
        for command, stop_at_start in CLI_CASES:
            for _ in range(3):
                argv = command.split()
                if stop_at_start:
                    total, out = _timed([sys.executable, "-c", CLI_START, *argv], env)
                    print(f"  zerosum {command}: search starts {float(out):5.2f} s after"
                          f" the interpreter, process {total:5.2f} s", flush=True)
                else:
                    total, _out = _timed([sys.executable, "-m", "zerosum", *argv], env)
                    print(f"  zerosum {command}: process {total:5.2f} s", flush=True)
    for module in ("numba", "numpy"):
        total, _out = _timed([sys.executable, "-c", f"import {module}"], dict(os.environ))
        print(f"  floor: python -c 'import {module}': {total:5.2f} s", flush=True)
    total, _out = _timed([sys.executable, "-c", "pass"], dict(os.environ))
    print(f"  floor: python -c 'pass': {total:5.2f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="skip the longest searches")
    parser.add_argument("--startup-only", action="store_true")
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    wrong = 0
    if not args.startup_only:
        cases = [c for c in CASES if not (args.quick and c.label in QUICK)]
        wrong = compare(cases)
    print("native backend start-up (connect4):")
    startup()
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
