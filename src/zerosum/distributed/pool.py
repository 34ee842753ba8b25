"""Where jobs run: the interface a split solve asks of a pool of workers,
and the local pool of worker processes on this machine.

A pool takes jobs (:meth:`Pool.submit`) up to its :attr:`Pool.capacity`,
hands back what finished (:meth:`Pool.wait`), and drops a job no longer
needed (:meth:`Pool.cancel`: a running job's worker is stopped). A worker
keeps its warm searcher from job to job (:func:`.jobs.run_job`).

:class:`LocalPool` watches its workers: one that dies (killed, out of
memory) has its job given to a fresh worker, up to :data:`MAX_ATTEMPTS`
times a job; each worker also dies with the process that leads it (on
Linux), so a killed driver leaves no orphan searching for hours.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import signal
from dataclasses import dataclass
from typing import Any, Protocol

from ..game import ZerosumError
from ..i18n import _
from .jobs import Job, JobResult, JobSetup, run_job

#: The times a job is started before a pool gives up on it (its workers died).
MAX_ATTEMPTS = 3


@dataclass(frozen=True)
class Failed:
    """A job that failed with a one-line reason (not a worker's death: the
    solver itself refused, which running it again would not change)."""

    key: str
    reason: str


Event = JobResult | Failed


class Pool(Protocol):
    """What a split solve asks of the workers that run its jobs."""

    @property
    def capacity(self) -> int:
        """How many jobs run at once."""
        ...

    @property
    def lost_workers(self) -> int:
        """Workers that died while this pool led them."""
        ...

    @property
    def retried(self) -> int:
        """Jobs started again after their worker died."""
        ...

    def running(self) -> list[str]:
        """The keys of the jobs submitted and not finished."""
        ...

    def submit(self, job: Job) -> None: ...

    def cancel(self, key: str) -> None: ...

    def wait(self, timeout: float) -> list[Event]:
        """What finished, waiting at most ``timeout`` seconds for the first."""
        ...

    def close(self) -> None: ...


def _die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent dies (a killed
    driver's workers stop at once instead of finishing an hours-long job
    nobody will read)."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _serve(conn: multiprocessing.connection.Connection, setup: JobSetup) -> None:
    """A worker process: solve the jobs the leader sends, one at a time,
    until the leader closes the pipe. Ctrl+C is the leader's to handle."""
    _die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: Event = run_job(setup, job)
        except ZerosumError as error:
            reply = Failed(job.key, str(error))
        try:
            conn.send(reply)
        except (BrokenPipeError, OSError):
            return


@dataclass
class _Worker:
    process: Any
    conn: multiprocessing.connection.Connection
    job: Job | None = None


class LocalPool:
    """``workers`` processes on this machine (spawned: a clean interpreter
    each), started as jobs come."""

    def __init__(self, setup: JobSetup, workers: int) -> None:
        if workers < 1:
            raise ZerosumError(
                _("the number of workers must be at least 1, got {value}").format(value=workers)
            )
        self.setup = setup
        self.size = workers
        self._context = multiprocessing.get_context("spawn")
        self._workers: list[_Worker] = []
        self._attempts: dict[str, int] = {}
        self._lost = 0
        self._retried = 0

    @property
    def capacity(self) -> int:
        return self.size

    @property
    def lost_workers(self) -> int:
        return self._lost

    @property
    def retried(self) -> int:
        return self._retried

    def pids(self) -> list[int]:
        """The worker processes running a job now."""
        return [w.process.pid for w in self._workers if w.job is not None]

    def running(self) -> list[str]:
        return [w.job.key for w in self._workers if w.job is not None]

    def _start(self) -> _Worker:
        mine, theirs = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(theirs, self.setup), daemon=True)
        process.start()
        theirs.close()
        worker = _Worker(process, mine)
        self._workers.append(worker)
        return worker

    def submit(self, job: Job) -> None:
        idle = next((w for w in self._workers if w.job is None), None)
        if idle is None:
            if len(self._workers) >= self.size:
                raise RuntimeError("submit beyond the pool's capacity")
            idle = self._start()
        self._attempts[job.key] = self._attempts.get(job.key, 0) + 1
        idle.job = job
        idle.conn.send(job)

    def _drop(self, worker: _Worker) -> None:
        self._workers.remove(worker)
        worker.conn.close()
        if worker.process.is_alive():
            worker.process.kill()
        worker.process.join()

    def cancel(self, key: str) -> None:
        for worker in list(self._workers):
            if worker.job is not None and worker.job.key == key:
                self._drop(worker)

    def wait(self, timeout: float) -> list[Event]:
        busy = [w for w in self._workers if w.job is not None]
        if not busy:
            return []
        handles: list[Any] = [w.conn for w in busy] + [w.process.sentinel for w in busy]
        ready = set(multiprocessing.connection.wait(handles, timeout))
        events: list[Event] = []
        for worker in busy:
            if worker.conn in ready:
                try:
                    reply = worker.conn.recv()
                except (EOFError, OSError):
                    reply = None
                if reply is not None:
                    worker.job = None
                    events.append(reply)
                    continue
            if worker.process.sentinel in ready or not worker.process.is_alive():
                events.extend(self._lost_worker(worker))
        return events

    def _lost_worker(self, worker: _Worker) -> list[Event]:
        """A worker died with a job: start it again on a fresh worker, or give
        up on it after :data:`MAX_ATTEMPTS`."""
        job = worker.job
        self._lost += 1
        self._drop(worker)
        if job is None:
            return []
        if self._attempts.get(job.key, 0) >= MAX_ATTEMPTS:
            return [
                Failed(
                    job.key,
                    _("the position after {moves} lost its worker {times} times").format(
                        moves=" ".join(job.moves) or _("(the start)"), times=MAX_ATTEMPTS
                    ),
                )
            ]
        self._retried += 1
        self.submit(job)
        return []

    def close(self) -> None:
        for worker in list(self._workers):
            self._drop(worker)

