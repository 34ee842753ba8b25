"""The split solve (issue 19 items 2-4): job throughput with 1 and 2 local
workers and on a local Ray cluster (two one-CPU nodes on this machine), and
what splitting costs in positions against one direct solve.

For each ``SPEC:K`` and each pool, a fresh store: jobs run (and spared by
cuts), positions of all jobs, wall time, jobs per second, the mean job's
time and positions, and positions per second per worker. ``--direct`` also
solves the position in one search (this process, native when available)
for the overhead of splitting: positions split / positions direct.

    python benchmarks/bench_split.py [--case SPEC:K ...] [--weak]
        [--workers 1 2] [--ray] [--direct] [--backend B]
"""

from __future__ import annotations

import argparse
import importlib
import tempfile
import time
from pathlib import Path
from typing import Any

import zerosum
from zerosum.distributed import JobSetup, LocalPool, Pool, split_solve
from zerosum.game import Game
from zerosum.search.front import Searcher, SearchOptions
from zerosum.store import Store


def _warm(pool: Pool, game: Game[Any, Any], weak: bool) -> None:
    """Start every worker and compile: a split of a position 8 plies on,
    into a store of its own (tiny jobs, little in the workers' tables)."""
    state = game.initial_state()
    for _ in range(8):
        if game.is_terminal(state):
            break
        moves = list(game.actions(state))
        after = [game.result(state, m) for m in moves]
        alive = [s for s in after if not game.is_terminal(s)]
        if not alive:
            break
        state = alive[0]
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "w.sqlite") as store:
        split_solve(game, state, 1, store, weak=weak, pool=pool)


def run(spec: str, plies: int, weak: bool, backend: str, workers: int | None,
        cluster: str | None) -> None:
    game = zerosum.load(spec)
    state = game.initial_state()
    where = f"ray {cluster}" if cluster else f"{workers} local worker(s)"
    setup = JobSetup(game.spec(), weak, backend)
    pool: Pool
    if cluster:
        from zerosum.distributed.cluster import RayPool

        pool = RayPool(setup, cluster)
    else:
        pool = LocalPool(setup, workers or 1)
    _warm(pool, game, weak)
    with tempfile.TemporaryDirectory() as folder, Store.open(Path(folder) / "s.sqlite") as store:
        started = time.perf_counter()
        report = split_solve(game, state, plies, store, weak=weak, pool=pool)
        wall = time.perf_counter() - started
    pool.close()
    p = report.progress
    assert report.result is not None
    jobs = max(p.solved, 1)
    print(
        f"{spec} K={plies} {'weak' if weak else 'strong'} on {where}: "
        f"{report.result.score.describe()}; {p.leaves:,} jobs, {p.solved:,} run, "
        f"{p.spared:,} spared; {p.nodes:,} positions; {wall:.1f} s wall; "
        f"{p.solved / wall:.2f} jobs/s; mean job {p.job_seconds / jobs:.3f} s and "
        f"{p.nodes // jobs:,} positions; {p.nodes / max(p.job_seconds, 1e-9):,.0f} positions/s"
        " per worker",
        flush=True,
    )


def direct(spec: str, weak: bool, backend: str) -> None:
    game = zerosum.load(spec)
    searcher = Searcher(game, SearchOptions(backend=backend, use_store=False, use_book=False))
    searcher.prepare()  # compiled (or loaded) before timing
    started = time.perf_counter()
    result = searcher.solve(game.initial_state(), weak=weak, all_moves=not weak)
    wall = time.perf_counter() - started
    print(f"{spec} direct {'weak' if weak else 'strong'}: {result.score.describe()}; "
          f"{result.stats.nodes:,} positions; {wall:.1f} s; "
          f"{result.stats.nodes / wall:,.0f} positions/s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", nargs="*", default=["domineering(rows=7,cols=7):2"])
    parser.add_argument("--weak", action="store_true")
    parser.add_argument("--workers", nargs="*", type=int, default=[1, 2])
    parser.add_argument("--ray", action="store_true", help="also on a local two-node Ray cluster")
    parser.add_argument("--direct", action="store_true")
    parser.add_argument("--backend", default="auto")
    args = parser.parse_args()
    for case in args.case:
        spec, _sep, k = case.rpartition(":")
        if args.direct:
            direct(spec, args.weak, args.backend)
        for workers in args.workers:
            run(spec, int(k), args.weak, args.backend, workers, None)
        if args.ray:
            # Ray is optional (the cluster extra), and untyped here.
            cluster = importlib.import_module("ray.cluster_utils").Cluster(initialize_head=True,
                              head_node_args={"num_cpus": 1, "include_dashboard": False})
            try:
                cluster.add_node(num_cpus=1)
                cluster.wait_for_nodes()
                run(spec, int(k), args.weak, args.backend, None, cluster.address)
            finally:
                cluster.shutdown()


if __name__ == "__main__":
    main()
