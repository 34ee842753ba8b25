"""Helpers shared by the test modules (not tests themselves)."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

from zerosum.game import Game

#: Seconds after which a search that should have been stopped counts as hung.
#: Only a guard: how soon a limit or a stop ends a search depends on the
#: machine's load and is measured by the benchmarks, never a test's verdict.
HANG_GUARD = 120.0


def reachable(game: Game[Any, Any]) -> set[Any]:
    """Every position reachable from the start, terminal ones included."""
    seen = {game.initial_state()}
    frontier = list(seen)
    while frontier:
        state = frontier.pop()
        for move in game.actions(state):
            child = game.result(state, move)
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return seen


def sample_positions(
    game: Game[Any, Any], plies: Sequence[int], count: int, seed: int
) -> list[Any]:
    """Up to ``count`` distinct non-terminal positions, each after a seeded
    random number of random plies (drawn from ``plies``), in the order found."""
    rng = random.Random(seed)
    found: dict[Any, None] = {}
    attempts = 0
    while len(found) < count and attempts < 50 * count:
        attempts += 1
        state = game.initial_state()
        for _ in range(rng.choice(list(plies))):
            if game.is_terminal(state):
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
        if not game.is_terminal(state):
            found[state] = None
    return list(found)


def playout_positions(
    game: Game[Any, Any], count: int, seed: int, terminal: bool = False
) -> list[Any]:
    """The first ``count`` positions met along seeded random games, in order
    (terminal positions included only with ``terminal``)."""
    rng = random.Random(seed)
    states: list[Any] = []
    while len(states) < count:
        state = game.initial_state()
        while True:
            over = game.is_terminal(state)
            if terminal or not over:
                states.append(state)
            if over:
                break
            state = game.result(state, rng.choice(list(game.actions(state))))
    return states[:count]


def check_involutive_symmetries(game: Game[Any, Any], states: Sequence[Any]) -> None:
    """Each of ``game``'s symmetries is its own inverse and keeps the class
    key, and ``canonical``'s transform leads to the key (for games whose
    symmetry group is made of involutions, such as the board flips of
    Othello and Domineering; the rest of the symmetry contract is checked for
    every game by the conformance suite)."""
    for state in states:
        key, t = game.canonical(state)
        assert game.key(game.transform(state, t)) == key
        for u in range(game.symmetry_count()):
            image = game.transform(state, u)
            assert game.transform(image, u) == state
            assert game.canonical(image)[0] == key


def run_cli(
    *args: str, stdin: str = "", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the real ``zerosum`` command (as ``python -m zerosum``) in English
    unless ``env`` says otherwise."""
    environment = {**os.environ, "LANG": "C.UTF-8", "LANGUAGE": "", "LC_ALL": ""}
    environment.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "zerosum", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        env=environment,
    )
