"""The store of proven results (issue 18): what it costs and what it saves.

Three measurements, each printed as a small table:

1. **Solved twice through the command line** -- ``zerosum solve GAME
   --weak`` run twice in new processes on one new store: the first time
   searches, the second answers from the store (process start-up included,
   as a user sees it; its CPU time too, which load does not inflate).
2. **Look-up cost per position** -- ``Store.get`` on positions that are in
   the store (hits) and positions that are not (misses), and ``put_many``
   per position, on a store of ``--positions`` Connect Four positions.
3. **Search speed with the store on and off** -- the same positions of the
   public Connect Four set (``../shared/data/connect4/Test_L2_R1``) solved
   with a store (empty at first: read at the root, written at the end) and
   without; the positions visited must be equal, and positions per second
   are compared.

    python benchmarks/bench_store.py [--game SPEC] [--positions N] [--solves N]
        [--backend B] [--set Test_L2_R1]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import zerosum
from zerosum.search.front import Searcher, SearchOptions
from zerosum.search.proven import Entry
from zerosum.store import Store, position_key

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "connect4"


def twice(spec: str, store: Path) -> None:
    """Solve ``spec`` weakly twice through the CLI on one new store."""
    print(f"## `zerosum solve '{spec}' --weak`, twice, one new store")
    print("| run | source | positions | search time (s) | process time (s) | process CPU (s) |")
    print("| --- | --- | ---: | ---: | ---: | ---: |")
    env = {**os.environ, "ZEROSUM_STORE": str(store), "ZEROSUM_NO_STORE": ""}
    for run in (1, 2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "zerosum", "solve", spec, "--weak", "--json"],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        result = json.loads(done.stdout.splitlines()[-1])
        print(
            f"| {run} | {result['source']} | {result['nodes']:,} | {result['time_s']:.3f}"
            f" | {wall:.2f} | {cpu:.2f} |"
        )


def lookups(count: int, folder: Path) -> None:
    """Look-up and write cost per position on a store of ``count``
    Connect Four positions."""
    game = zerosum.load("connect4")
    rng = random.Random(18)
    positions: dict[Any, None] = {}
    while len(positions) < 2 * count:
        state = game.initial_state()
        for _ in range(rng.randrange(4, 20)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            positions[state] = None
    every = list(positions)
    kept = every[:count]
    classes = {position_key(game, s)[0] for s in kept}
    # Not in the store: not a mirror image of a kept position either.
    absent = [s for s in every[count:] if position_key(game, s)[0] not in classes]
    with Store.open(folder / "lookups.sqlite") as store:
        started = time.perf_counter()
        store.put_many(
            game, [(s, Entry.exact_value(0, game.actions(s)[:1], nodes=1)) for s in kept]
        )
        put = (time.perf_counter() - started) / len(kept)
        started = time.perf_counter()
        hits = sum(store.get(game, s) is not None for s in kept)
        hit = (time.perf_counter() - started) / len(kept)
        started = time.perf_counter()
        misses = sum(store.get(game, s) is None for s in absent)
        miss = (time.perf_counter() - started) / len(absent)
    # Closed: the write-ahead log is now in the file.
    size = (folder / "lookups.sqlite").stat().st_size
    assert hits == len(kept) and misses == len(absent)
    print(f"## Look-up cost, a store of {len(kept):,} positions")
    print("| operation | per position (µs) |")
    print("| --- | ---: |")
    print(f"| get, in the store (the best moves mapped back) | {hit * 1e6:.1f} |")
    print(f"| get, not in the store | {miss * 1e6:.1f} |")
    print(f"| put_many (one transaction) | {put * 1e6:.1f} |")
    print(f"file size: {size:,} bytes ({size / len(kept):.0f} bytes a position, classes merged)")


def speed(solves: int, folder: Path, backend: str, data: Path) -> None:
    """Positions per second solving the same positions with the store and
    without. With the store on, a position may be answered from the store
    (a transposition of one solved before, or every move's result kept):
    the rate is taken over the positions searched, whose positions visited
    must equal those of the search without the store."""
    if not data.exists():
        print(f"({data} is missing: search speed not measured)")
        return
    game = zerosum.load("connect4")
    lines = data.read_text().split("\n")[:solves]
    states = [game.play_text(line.split()[0]) for line in lines if line.strip()]
    print(f"## Search speed, {len(states)} positions of {data.name}, backend {backend}")
    print("| store | searched | positions | time (s) | positions/s | from the store |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    off_nodes: list[int] = []
    same = True
    for label in ("off", "on", "on, second time"):
        store = None if label == "off" else Store.open(folder / "speed.sqlite")
        options = SearchOptions(
            store=store, use_store=store is not None, use_book=False, backend=backend
        )
        Searcher(game, SearchOptions(use_store=False, use_book=False, backend=backend)).solve(
            states[0]
        )  # load the compiled code before timing
        nodes, seconds, searched, kept = 0, 0.0, 0, 0
        for index, state in enumerate(states):
            searcher = Searcher(game, options)
            started = time.perf_counter()
            result = searcher.solve(state)
            elapsed = time.perf_counter() - started
            if label == "off":
                off_nodes.append(result.stats.nodes)
            if result.source == "search":
                searched += 1
                nodes += result.stats.nodes
                seconds += elapsed
                same = same and result.stats.nodes == off_nodes[index]
            else:
                kept += 1
        if store is not None:
            store.close()
        rate = nodes / seconds if seconds else 0.0
        print(f"| {label} | {searched} | {nodes:,} | {seconds:.3f} | {rate:,.0f} | {kept} |")
    print(f"positions searched visit as many positions with the store on as off: {same}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="domineering(rows=8,cols=8,first=vertical)")
    parser.add_argument("--positions", type=int, default=20_000)
    parser.add_argument("--solves", type=int, default=50)
    parser.add_argument("--backend", default="auto")
    parser.add_argument("--set", default="Test_L2_R1", help="Connect Four set for the speed")
    args = parser.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        twice(args.game, Path(folder) / "twice.sqlite")
        lookups(args.positions, Path(folder))
        speed(args.solves, Path(folder), args.backend, DATA / args.set)
    print(f"load average: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
