"""``zerosum solve GAME --split K``: the solve by independent jobs
(:mod:`zerosum.distributed`), on this machine's cores (``--workers N``) or a
Ray cluster (``--cluster ADDRESS``, ``$ZEROSUM_CLUSTER``).

Progress goes to stderr: one line rewritten in place on a terminal, else a
line whenever a job comes back (at most one every :data:`LOG_SECONDS`
seconds, and always the last), so a log shows the rate. The answer goes to
stdout as a plain solve's does, with one line on the jobs.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

from .. import i18n
from ..distributed import SplitProgress, split_solve
from ..distributed.cluster import ENV_VAR
from ..game import ZerosumError
from ..i18n import _
from ..registry import load
from ..search.proven import KnownResults
from ..search.types import SearchResult
from .store import store_for

#: Without a terminal, at most one progress line this often (seconds).
LOG_SECONDS = 30.0


def _duration(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return _("{n} s").format(n=seconds)
    if seconds < 3600:
        return _("{m} min {s} s").format(m=seconds // 60, s=seconds % 60)
    return _("{h} h {m} min").format(h=seconds // 3600, m=seconds % 3600 // 60)


def progress_line(progress: SplitProgress) -> str:
    """``jobs: 12 done, 2 running, 30 left, 5 from the store; 31 s; about
    4 min left``."""
    line = _(
        "jobs: {done} done, {running} running, {left} left, {stored} from the store;"
        " {elapsed} so far"
    ).format(
        done=f"{progress.solved:,}",
        running=progress.running,
        left=f"{progress.left:,}",
        stored=f"{progress.from_store:,}",
        elapsed=_duration(progress.seconds),
    )
    if progress.solved:
        line += "; " + _("{seconds:.1f} s and {nodes} positions a job").format(
            seconds=progress.job_seconds / progress.solved,
            nodes=f"{progress.nodes // progress.solved:,}",
        )
    left = progress.seconds_left
    if left is not None:
        line += "; " + _("about {time} left").format(time=_duration(left))
    return line


class _Reporter:
    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.live = stream.isatty()
        self.last_solved = -1
        self.last_time = 0.0
        self.shown = False

    def __call__(self, progress: SplitProgress) -> None:
        now = time.monotonic()
        if self.live:
            print("\r" + progress_line(progress) + "\x1b[K", end="", file=self.stream, flush=True)
            self.shown = True
            return
        finished = progress.running == 0 and progress.left == 0
        if progress.solved == self.last_solved and not finished:
            return
        if now - self.last_time < LOG_SECONDS and not finished and self.last_solved >= 0:
            return
        self.last_solved, self.last_time = progress.solved, now
        # A log's lines carry the time, so that rates can be read from it.
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime())
        print(f"{stamp} {progress_line(progress)}", file=self.stream, flush=True)

    def done(self) -> None:
        if self.live and self.shown:
            print(file=self.stream, flush=True)


def check_split_options(args: argparse.Namespace) -> None:
    """One line for the options a split solve does not take."""
    for name, flag in (("depth", "--depth"), ("time", "--time"), ("nodes", "--nodes")):
        if getattr(args, name, None) is not None:
            raise ZerosumError(
                _("--split solves to the end; expected no {flag}").format(flag=flag)
            )
    if getattr(args, "algorithm", "engine") != "engine":
        raise ZerosumError(_("--split solves with the engine; expected no --algorithm"))
    if getattr(args, "batch", False):
        raise ZerosumError(_("--split solves one position; expected no --batch"))
    if args.workers is not None and args.workers < 1:
        raise ZerosumError(
            _("--workers must be at least 1, got {value}").format(value=args.workers)
        )


def cluster_address(args: argparse.Namespace) -> str | None:
    """``--cluster``, else ``$ZEROSUM_CLUSTER``, else None (local workers)."""
    given: str | None = args.cluster or os.environ.get(ENV_VAR) or None
    return given


def run_split(
    args: argparse.Namespace,
    out: Callable[[str], None],
    position: Callable[[Any, str | None, str | None], Any],
    show: Callable[[Any, Any, SearchResult[Any], dict[str, Any]], None],
) -> int:
    """The ``solve --split`` command; ``position`` reads the position from
    the options, ``show`` prints the answer as a plain solve does (with
    ``--json``, the ``split`` object given joins the result)."""
    check_split_options(args)
    store: KnownResults | None = store_for(args)
    if store is None:
        raise ZerosumError(
            _(
                "--split keeps every job's result in the store; expected a usable store"
                " (--store PATH), not --no-store"
            )
        )
    game = load(args.game)
    state = position(game, args.position, args.moves)
    reporter = _Reporter(sys.stderr)
    try:
        report = split_solve(
            game,
            state,
            args.split,
            store,
            weak=args.weak,
            workers=args.workers,
            cluster=cluster_address(args),
            backend=args.backend,
            hash_mb=getattr(args, "hash", None),
            imports=tuple(args.imports),
            lang=i18n.activate(getattr(args, "lang", None)),
            on_progress=None if args.json else reporter,
        )
    finally:
        reporter.done()
    progress = report.progress
    if report.result is None:  # Ctrl+C
        print(progress_line(progress), file=sys.stderr)
        print(
            _("Stopped: the finished jobs are in the store; the same command resumes."),
            file=sys.stderr,
        )
        return 130
    show(
        game,
        state,
        report.result,
        {
            "plies": args.split,
            "jobs": progress.leaves,
            "solved": progress.solved,
            "from_store": progress.from_store,
            "spared": progress.spared,
            "cancelled": progress.cancelled,
            "lost_workers": report.lost_workers,
            "retried": report.retried,
        },
    )
    if not args.json:
        out(
            _(
                "Split at {plies} plies into {leaves} jobs: {solved} solved now, {stored} from"
                " the store, {spared} spared by cuts; {seconds:.1f} s."
            ).format(
                plies=args.split,
                leaves=f"{progress.leaves:,}",
                solved=f"{progress.solved:,}",
                stored=f"{progress.from_store:,}",
                spared=f"{progress.spared:,}",
                seconds=progress.seconds,
            )
        )
    return 0
