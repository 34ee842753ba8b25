"""How the browser app's session behaves while the engine thinks.

Measures, for an AI move searched for ``--time`` seconds on a position:

* the event loop's lag while the search runs in its worker thread (how late
  a 10 ms timer fires: what a click or another tab waits at worst);
* the search's speed in the session's thread against the same search called
  directly (the cost of running off the event loop);
* how long ``stop`` takes to end a search that would otherwise run for ever
  (the perfect AI on Connect Four from the start).

Usage: ``python benchmarks/bench_web.py [--game connect4] [--moves "4 4"] [--time 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from typing import Any

import zerosum
from zerosum.search.engine import Engine
from zerosum.search.types import Limits
from zerosum.web.session import Session


async def _wait(sent: list[dict[str, Any]], kind: str, timeout: float) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for message in sent:
            if message["type"] == kind:
                return message
        await asyncio.sleep(0.001)
    raise TimeoutError(kind)


async def _session(**new: Any) -> tuple[Session, list[dict[str, Any]]]:
    """A session, and what it sends, after a ``new`` message."""
    sent: list[dict[str, Any]] = []
    session = Session(sent.append)
    await session.start()
    await session.handle(json.dumps({"type": "new", **new}))
    return session, sent


async def ai_move(game: str, moves: str, seconds: float) -> dict[str, Any]:
    humans = [{"kind": "human"}, {"kind": "human"}]
    session, sent = await _session(game=game, moves=moves, players=humans)
    sent.clear()
    # Hand the move to the AI (as the page does when a side is switched).
    mover = session.game.to_move(session.state)
    players: list[dict[str, Any]] = [{"kind": "human"}, {"kind": "human"}]
    players[mover] = {"kind": "ai", "time": seconds}
    lags: list[float] = []
    await session.handle(json.dumps({"type": "players", "players": players}))
    while not any(m["type"] == "result" for m in sent):
        before = time.perf_counter()
        await asyncio.sleep(0.01)
        lags.append(time.perf_counter() - before - 0.01)
    result = next(m for m in sent if m["type"] == "result")
    await session.close()
    return {
        "nodes": result["nodes"],
        "time_s": result["time_s"],
        "lag_ms_mean": 1000 * statistics.mean(lags),
        "lag_ms_p99": 1000 * sorted(lags)[int(0.99 * (len(lags) - 1))],
        "lag_ms_max": 1000 * max(lags),
        "progress_messages": sum(m["type"] == "progress" for m in sent),
    }


async def stop_latency() -> float:
    session, sent = await _session(
        game="connect4", players=[{"kind": "ai", "level": "perfect"}, {"kind": "human"}]
    )
    await _wait(sent, "progress", 30)
    started = time.perf_counter()
    await session.handle(json.dumps({"type": "stop"}))
    await _wait(sent, "result", 30)
    elapsed = time.perf_counter() - started
    await session.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--moves", default="4 4")
    parser.add_argument("--time", type=float, default=3.0)
    args = parser.parse_args()

    game = zerosum.load(args.game)
    state = game.play(game.split_moves(args.moves))
    direct = Engine(game).search(state, Limits(time=args.time))
    direct_nps = direct.stats.nodes / direct.stats.time_s

    measured = asyncio.run(ai_move(args.game, args.moves, args.time))
    session_nps = measured["nodes"] / measured["time_s"]
    print(f"{args.game} after {args.moves!r}, AI with {args.time} s:")
    print(f"  direct search     {direct.stats.nodes:>10,} positions  {direct_nps:>9,.0f} /s")
    print(
        f"  in the session    {measured['nodes']:>10,} positions  {session_nps:>9,.0f} /s"
        f"  ({session_nps / direct_nps:.0%} of direct)"
    )
    print(
        f"  event-loop lag    mean {measured['lag_ms_mean']:.2f} ms, "
        f"p99 {measured['lag_ms_p99']:.2f} ms, max {measured['lag_ms_max']:.2f} ms"
    )
    print(f"  progress messages {measured['progress_messages']}")
    print(f"  stop -> move      {1000 * asyncio.run(stop_latency()):.1f} ms")


if __name__ == "__main__":
    main()
