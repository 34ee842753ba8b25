"""How well ``zerosum engine`` keeps to its clock, and where the time goes
when it does not (issue 26 item 17: 0.3-0.6 s stalls in 42 of 29,560
small searches; one Othello move of 8.4 s with 2.4 s on the clock).

Runs the engine protocol in this process (the same code ``zerosum engine``
runs) on seeded positions of each game, ``go movetime M`` after
``go movetime M``, and records for every search the time from the ``go`` to
its ``bestmove`` beside the movetime, and every garbage collection with its
duration (``gc.callbacks``). It then reports the overshoot (answer time
minus movetime): median, 99th percentile, the largest, how many were later
than 300 ms, and how many of those overlapped a collection.

    python benchmarks/bench_ugi_clock.py --games tictactoe,connect4,othello \
        --searches 300 --movetime 20,50,100

Times depend on the machine and its load: give ``uptime`` with the figures.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import threading
import time
from typing import Any

import zerosum
from zerosum.cli.engine import Engine

LATE = 0.3


def positions(game: Any, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: list[str] = []
    while len(found) < count:
        state = game.initial_state()
        for _ in range(rng.randint(0, 30)):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            found.append(game.format_position(state))
    return found


def run(game_name: str, searches: int, movetimes: list[int], seed: int) -> dict[str, Any]:
    game = zerosum.load(game_name)
    answered = threading.Event()
    stamps: list[float] = []

    def write(line: str) -> None:
        if line.startswith("bestmove"):
            stamps.append(time.perf_counter())
            answered.set()

    collections: list[tuple[float, float, int]] = []
    began: dict[str, float] = {}

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            began["t"] = time.perf_counter()
        else:
            collections.append((began.get("t", 0.0), time.perf_counter(), info["generation"]))

    engine = Engine(game, write)
    engine.handle("isready")
    gc.callbacks.append(on_gc)
    late: list[tuple[float, bool]] = []
    overshoot: list[float] = []
    try:
        for index, text in enumerate(positions(game, searches, seed)):
            movetime = movetimes[index % len(movetimes)]
            engine.handle(f"position fen {text}")
            answered.clear()
            start = time.perf_counter()
            engine.handle(f"go movetime {movetime}")
            answered.wait()
            end = stamps[-1]
            over = end - start - movetime / 1000
            overshoot.append(over)
            if over > LATE:
                in_gc = any(a < end and b > start and b - a > 0.05 for a, b, _g in collections)
                late.append((over, in_gc))
    finally:
        gc.callbacks.remove(on_gc)
        engine.handle("quit")
    pauses = [b - a for a, b, _g in collections]
    ordered = sorted(overshoot)
    return {
        "game": game_name,
        "searches": len(overshoot),
        "median_ms": round(statistics.median(ordered) * 1000, 1),
        "p99_ms": round(ordered[int(0.99 * (len(ordered) - 1))] * 1000, 1),
        "max_ms": round(ordered[-1] * 1000, 1),
        "late": len(late),
        "late_in_gc": sum(1 for _o, g in late if g),
        "collections": len(collections),
        "gc_max_ms": round(max(pauses, default=0.0) * 1000, 1),
        "gc_gen2": sum(1 for _a, _b, g in collections if g == 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="tictactoe,connect4,othello")
    parser.add_argument("--searches", type=int, default=200)
    parser.add_argument("--movetime", default="20,50,100", help="milliseconds, in turn")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    movetimes = [int(m) for m in args.movetime.split(",")]
    for name in args.games.split(","):
        print(run(name, args.searches, movetimes, args.seed), flush=True)


if __name__ == "__main__":
    main()
