"""Match statistics as chess engine testers compute them: the Elo difference
from a score, its 95% interval, and the sequential probability ratio test.

>>> round(elo_from_score(0.75), 1)
190.8
>>> elo_from_score(0.5)
0.0
>>> round(score_from_elo(190.848), 4)
0.75

Model: the logistic Elo curve, ``score = 1 / (1 + 10 ** (-elo / 400))``.
Games are counted as wins, draws and losses of player A (trinomial), each
game an independent draw of a result 1, 1/2 or 0.

* The interval: the mean score ``s`` with its standard error
  ``sqrt(var / n)`` (``var`` the per-game variance of the results), the
  normal 95% quantile 1.959964 either side, both ends mapped through the
  Elo curve (as cutechess-cli does).
* The SPRT (``elo0``, ``elo1``, error rates ``alpha`` and ``beta``): the
  generalised SPRT (Michel Van den Bergh's, as fishtest uses it) on the
  trinomial model: the log-likelihood of the wins, draws and losses under
  the most likely win/draw/loss probabilities whose expected score is
  ``s1`` (the score of ``elo1``), minus the same under ``s0``; stop and
  accept H1 (A is ``elo1`` stronger) when ``LLR >= log((1 - beta) /
  alpha)``, accept H0 (``elo0``) when ``LLR <= log(beta / (1 - alpha))``.
  For large samples it equals the usual normal approximation
  ``n * ((s - s0)**2 - (s - s1)**2) / (2 * var)`` (:meth:`SPRT.llr_normal`);
  unlike it, it is defined when every game had the same result (n wins:
  ``n * log(s1 / s0)``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..game import ZerosumError
from ..i18n import _

#: The normal distribution's 97.5% quantile (a two-sided 95% interval).
Z95 = 1.959963984540054


def score_from_elo(elo: float) -> float:
    """The expected score of a player ``elo`` points stronger."""
    return 1.0 / (1.0 + math.pow(10.0, -elo / 400.0))


def elo_from_score(score: float) -> float:
    """The Elo difference that gives ``score`` (0 < score < 1); infinite at
    0 or 1."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    # + 0.0: an even score is 0.0, not -0.0
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0


def sweep_margin(games: int, confidence: float = 0.95) -> float:
    """The Elo margin a clean sweep of ``games`` games proves with
    ``confidence``: a player whose expected score is ``p`` loses a game
    with probability at most ``1 - p`` (a draw scores), so it loses every
    one of ``games`` games with probability at most ``(1 - p) ** games``;
    that is at most ``1 - confidence`` once ``p >= 1 - (1 - confidence) **
    (1 / games)``. The player who lost every game is weaker than that
    score's Elo by at least the returned margin (positive).

    >>> round(sweep_margin(10)), round(sweep_margin(100))
    (183, 607)

    Below 5 games the margin is not positive: a sweep that short proves
    nothing at this confidence.
    """
    if games < 1:
        raise ValueError("a sweep needs at least one game")
    best = 1.0 - (1.0 - confidence) ** (1.0 / games)
    return -elo_from_score(best)


@dataclass(frozen=True)
class Tally:
    """Player A's wins, draws and losses."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2

    @property
    def score(self) -> float:
        """A's mean score (0.5 before any game)."""
        return self.points / self.games if self.games else 0.5

    def variance(self) -> float:
        """The per-game variance of A's results."""
        n = self.games
        if n == 0:
            return 0.0
        s = self.score
        return (
            self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s**2
        ) / n

    def elo(self) -> float:
        return elo_from_score(self.score)

    def interval(self) -> tuple[float, float]:
        """The 95% interval of the Elo difference (may be infinite)."""
        n = self.games
        if n == 0:
            return (-math.inf, math.inf)
        margin = Z95 * math.sqrt(self.variance() / n)
        return (elo_from_score(self.score - margin), elo_from_score(self.score + margin))

    def add(self, result: float) -> Tally:
        """With one more game: A's result 1, 0.5 or 0."""
        if result == 1:
            return Tally(self.wins + 1, self.draws, self.losses)
        if result == 0:
            return Tally(self.wins, self.draws, self.losses + 1)
        return Tally(self.wins, self.draws + 1, self.losses)


#: The largest Elo difference an SPRT may test (score 0.99999 at 2,000).
MAX_SPRT_ELO = 2000


@dataclass(frozen=True)
class SPRT:
    """A sequential probability ratio test of H0: A is ``elo0`` stronger
    against H1: A is ``elo1`` stronger (see the module docstring)."""

    elo0: float = 0.0
    elo1: float = 30.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, value in (("elo0", self.elo0), ("elo1", self.elo1)):
            # Beyond this the expected score is 1 or 0 to a float (10**(elo/400)
            # overflows near 1.2e5): the test would measure nothing.
            if not -MAX_SPRT_ELO <= value <= MAX_SPRT_ELO:
                raise ZerosumError(
                    _("SPRT {name} must lie between -{most} and {most}, got {value:g}").format(
                        name=name, most=MAX_SPRT_ELO, value=value
                    )
                )
        if not self.elo0 < self.elo1:
            raise ZerosumError(
                _("SPRT needs elo0 < elo1, got elo0={elo0} and elo1={elo1}").format(
                    elo0=self.elo0, elo1=self.elo1
                )
            )
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0 < value < 0.5:
                raise ZerosumError(
                    _("SPRT {name} must lie between 0 and 0.5, got {value}").format(
                        name=name, value=value
                    )
                )

    @classmethod
    def parse(cls, text: str) -> SPRT:
        """``elo0=0,elo1=30[,alpha=0.05,beta=0.05]``."""
        values: dict[str, float] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, eq, raw = item.partition("=")
            name = name.strip()
            try:
                if not eq or name not in ("elo0", "elo1", "alpha", "beta"):
                    raise ValueError
                values[name] = float(raw)
                if not math.isfinite(values[name]):
                    raise ValueError
            except ValueError:
                raise ZerosumError(
                    _("cannot read SPRT setting {item!r}; expected e.g. elo0=0,elo1=30").format(
                        item=item[:40]
                    )
                ) from None
        return cls(**values)

    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept H0 at or below, H1 at or above."""
        return (
            math.log(self.beta / (1 - self.alpha)),
            math.log((1 - self.beta) / self.alpha),
        )

    def llr(self, tally: Tally) -> float:
        """The generalised log-likelihood ratio of H1 against H0 after
        ``tally`` (see the module docstring)."""
        if tally.games == 0:
            return 0.0
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return _max_log_likelihood(tally, s1) - _max_log_likelihood(tally, s0)

    def llr_normal(self, tally: Tally) -> float:
        """The normal approximation of :meth:`llr` (0 while the variance
        is 0)."""
        var = tally.variance()
        if tally.games == 0 or var == 0:
            return 0.0
        s = tally.score
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return tally.games * ((s - s0) ** 2 - (s - s1) ** 2) / (2 * var)

    def verdict(self, tally: Tally) -> str | None:
        """``"H1"``, ``"H0"`` or None (go on)."""
        llr = self.llr(tally)
        lower, upper = self.bounds()
        if llr >= upper:
            return "H1"
        if llr <= lower:
            return "H0"
        return None


def _log_likelihood(tally: Tally, win: float, draw: float, loss: float) -> float:
    total = 0.0
    for count, p in ((tally.wins, win), (tally.draws, draw), (tally.losses, loss)):
        if count:
            if p <= 0.0:
                return -math.inf
            total += count * math.log(p)
    return total


def _max_log_likelihood(tally: Tally, score: float) -> float:
    """The largest log-likelihood of ``tally`` over win/draw/loss
    probabilities whose expected score is ``score``: with ``d`` the draw
    probability, win ``score - d/2`` and loss ``1 - score - d/2``; the
    log-likelihood is concave in ``d``, so a golden-section search over
    ``[0, min(2 * score, 2 * (1 - score))]`` finds its maximum."""
    low, high = 0.0, min(2 * score, 2 * (1 - score))

    def value(d: float) -> float:
        return _log_likelihood(tally, score - d / 2, d, 1 - score - d / 2)

    ratio = (math.sqrt(5) - 1) / 2
    a, b = low, high
    c, d = b - ratio * (b - a), a + ratio * (b - a)
    fc, fd = value(c), value(d)
    for _step in range(100):
        if fc < fd:
            a, c, fc = c, d, fd
            d = a + ratio * (b - a)
            fd = value(d)
        else:
            b, d, fd = d, c, fc
            c = b - ratio * (b - a)
            fc = value(c)
    return max(value(low), value(high), fc, fd)
