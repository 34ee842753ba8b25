"""Compile the native search of every built-in game once, before the tests.

The first use of a game's compiled code compiles it (seconds to a minute per
family on a loaded 2-core machine) and numba caches it on disk; every later
process loads it in well under a second. The test suite starts servers and
engines in processes of their own with hang guards, and a server compiling
on its first use of a game still blocks its page (the browser issue, item 1,
is open), so scripts/test.sh compiles everything here first, as an install
would, rather than in whichever test happens to come first.
"""

from __future__ import annotations

import sys

import zerosum
from zerosum.search.front import SearchOptions, analyze, available_backends, solve


def main() -> int:
    if available_backends().get("native") != "yes":
        print("warm_native: no native backend here", file=sys.stderr)
        return 0
    specs = [name for name, _params, _about in zerosum.games_table()]
    for spec in [*specs, "connect4(width=9,height=7)", "gomoku", "othello(size=6)"]:
        try:
            game = zerosum.load(spec)
        except zerosum.ZerosumError:
            continue
        state = game.initial_state()
        for algorithm in ("engine", "mcts"):
            options = SearchOptions(algorithm=algorithm, backend="native", seed=1)
            try:
                if algorithm == "engine":
                    analyze(game, state, options, depth=2)
                else:
                    analyze(game, state, options, time=0.2)
            except zerosum.ZerosumError:
                continue  # no native code for this game (or algorithm)
    # The Othello endgame solver (exact margins) is a compiled family of its own.
    game = zerosum.load("othello(size=4)")
    solve(game, game.initial_state(), SearchOptions(backend="native", use_store=False))
    print("warm_native: compiled the native search of every built-in game", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
