"""Helpers shared by the test modules (not tests themselves)."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from zerosum.game import Game


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
