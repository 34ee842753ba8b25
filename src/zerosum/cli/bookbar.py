"""The progress of ``zerosum book build`` on stderr: a bar rewritten in place
on a terminal, plain lines elsewhere (one at each tenth of the positions, so
a log stays short and the same from run to run)."""

from __future__ import annotations

import time
from typing import TextIO

from ..book.build import BuildProgress
from ..i18n import _

#: Characters of the bar.
WIDTH = 24
#: Plain lines: one each time this fraction more of the positions is done.
STEP = 0.1
#: The bar is drawn again at most this often (seconds): thousands of
#: positions a second would otherwise be thousands of writes.
REDRAW = 0.1


def duration(seconds: float) -> str:
    """``seconds`` as ``2h 05m``, ``3m 07s`` or ``12s``.

    >>> duration(7507), duration(187.4), duration(12.6)
    ('2h 05m', '3m 07s', '13s')
    """
    whole = round(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def status(progress: BuildProgress) -> str:
    """One line: positions done of all, the ply, the search rate and the
    time left for the searches known to be left."""
    line = _("{done}/{total} positions (ply {ply})").format(
        done=f"{progress.done:,}", total=f"{progress.total:,}", ply=progress.ply
    )
    rate = progress.rate
    if rate > 0:
        line += "  " + _("{rate} solved/s").format(
            rate=f"{rate:.1f}" if rate < 100 else f"{rate:,.0f}"
        )
    left = progress.seconds_left
    if left is not None and progress.pending:
        line += "  " + _("{time} left at this ply").format(time=duration(left))
    return line


class BuildBar:
    """Called with each :class:`BuildProgress`; ``live``: a bar rewritten in
    place (a terminal), else a plain line at each tenth done."""

    def __init__(self, stream: TextIO, live: bool) -> None:
        self.stream = stream
        self.live = live
        self.shown = False
        self.next_step = 0.0
        self.drawn = 0.0

    def __call__(self, progress: BuildProgress) -> None:
        fraction = progress.done / progress.total if progress.total else 1.0
        if self.live:
            now = time.monotonic()
            if now - self.drawn < REDRAW and progress.done < progress.total:
                return
            self.drawn = now
            filled = round(WIDTH * fraction)
            bar = "#" * filled + "." * (WIDTH - filled)
            self.stream.write(f"\r\033[K[{bar}] {status(progress)}")
            self.stream.flush()
            self.shown = True
            return
        if fraction + 1e-12 >= self.next_step:
            self.stream.write(status(progress) + "\n")
            self.stream.flush()
            while self.next_step <= fraction + 1e-12:
                self.next_step += STEP

    def done(self) -> None:
        """End the bar's line so that what follows starts on its own."""
        if self.shown:
            self.stream.write("\r\033[K")
            self.stream.flush()
            self.shown = False
