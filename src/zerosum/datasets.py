"""Published data sets and their conventions (benchmark code, not rules).

The data themselves are third-party and not part of the package: the tests
and benchmarks read them from ``../shared/data``.

* Connect Four benchmark sets (Pascal Pons, ``Test_L*_R*``): one position per
  line, ``moves score``; :func:`connect4_score` converts an exact search score
  to the sets' convention and :func:`read_connect4_set` reads a file.

>>> import zerosum
>>> from zerosum.search.types import WIN
>>> game = zerosum.load("connect4")
>>> connect4_score(game, game.play("445566"), WIN - 1)  # Red wins with 7 stones
18
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .search.types import WIN, is_decisive


def connect4_score(game: Any, state: Any, raw: int) -> int:
    """An exact score of ``state`` for the side to move (a win ``p`` plies
    on scores ``WIN - p``, a loss ``-(WIN - p)``, a draw 0) in the published
    sets' convention: a win with ``T`` stones on the board at the end scores
    ``(width*height + 2 - T) // 2`` (``22 - ceil(T/2)`` on 7x6: the empty
    cells left, counted for the winner), a loss the negative, a draw 0.
    Raises :class:`ValueError` for a heuristic score."""
    if raw == 0:
        return 0
    if not is_decisive(raw):
        raise ValueError(f"score {raw} is not an exact win or loss")
    end = state[1].bit_count() + (WIN - abs(raw))
    value: int = (game.width * game.height + 2 - end) // 2
    return value if raw > 0 else -value


def read_connect4_set(path: Path, count: int | None = None) -> list[tuple[str, int]]:
    """The first ``count`` (default all) ``(moves, score)`` lines of a set."""
    rows: list[tuple[str, int]] = []
    for line in path.read_text(encoding="ascii").splitlines():
        if line.strip():
            moves, score = line.split()
            rows.append((moves, int(score)))
        if count is not None and len(rows) >= count:
            break
    return rows
