"""Jobs on a Ray cluster (the ``cluster`` extra: ``pip install
'zerosum[cluster]'``).

Each job is a Ray task that runs :func:`.jobs.run_job` in one of the
cluster's worker processes; Ray reuses its workers, so each keeps its warm
searcher from task to task. A task whose worker dies is run again by Ray
(``max_retries``); a driver that dies leaves the finished jobs in the store,
and the same command resumes. The cluster's nodes need zerosum installed
(the same version) and, for a user's own game, its module.

The address is ``ray://HOST:PORT`` (Ray Client, port 10001 by default),
``HOST:PORT`` (a cluster's head from one of its nodes) or ``auto`` (the
cluster this machine belongs to). An address that does not answer is one
line within :data:`CONNECT_SECONDS` seconds.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import socket
import tempfile
from pathlib import Path
from typing import Any

from ..game import ZerosumError
from ..i18n import _
from .jobs import Job, JobResult, JobSetup, run_job
from .pool import MAX_ATTEMPTS, Event, Failed

#: How long an address may take to answer.
CONNECT_SECONDS = 5.0
#: The environment variable naming the cluster when ``--cluster`` is not given.
ENV_VAR = "ZEROSUM_CLUSTER"
INSTALL_HINT = "pip install 'zerosum[cluster]'"


def _ray() -> Any:
    try:
        # Imported by name: Ray is optional, and typed as Any here.
        ray = importlib.import_module("ray")
    except ImportError:
        raise ZerosumError(
            _("running on a cluster needs Ray, which is not installed; install it with {command}")
            .format(command=INSTALL_HINT)
        ) from None
    return ray


def check_address(address: str, connect: bool = True) -> None:
    """One line when ``address`` (not ``auto``) is not of the form
    ``[ray://]HOST:PORT`` or (``connect``) nothing answers there within
    :data:`CONNECT_SECONDS` seconds."""
    if address == "auto":
        return
    rest = address.removeprefix("ray://")
    host, _sep, port = rest.rpartition(":")
    if not host or not port.isdigit():
        raise ZerosumError(
            _("cannot read the cluster address {address!r}; expected ray://HOST:PORT,"
              " HOST:PORT or auto").format(address=address)
        )
    if not connect:
        return
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as error:
        raise ZerosumError(
            _("the cluster at {address} does not answer ({reason}); expected a running Ray"
              " head there (ray start --head)").format(
                address=address, reason=error.strerror or type(error).__name__
            )
        ) from None


def running_cluster() -> str:
    """The address of the Ray cluster this machine belongs to, as ``ray
    start`` left it (``$RAY_ADDRESS``, else the ``ray_current_cluster`` file
    of Ray's temporary folder); one line when there is none. Checked here,
    not by Ray, which waits for minutes on a cluster that has stopped."""
    given = os.environ.get("RAY_ADDRESS")
    if given:
        return given
    noted = Path(tempfile.gettempdir()) / "ray" / "ray_current_cluster"
    try:
        text = noted.read_text(encoding="utf-8").strip()
    except OSError:
        text = ""
    if not text:
        raise ZerosumError(
            _("no Ray cluster runs on this machine; expected one started with ray start --head,"
              " or --cluster HOST:PORT")
        )
    return text


def _task(setup: JobSetup, job: Job) -> JobResult | Failed:
    try:
        return run_job(setup, job)
    except ZerosumError as error:
        return Failed(job.key, str(error))


class RayPool:
    """Jobs as Ray tasks on the cluster at ``address``; as many run at once
    as the cluster has CPUs."""

    def __init__(self, setup: JobSetup, address: str) -> None:
        check_address(address, connect=False)
        ray = _ray()
        if address == "auto":
            address = running_cluster()
        check_address(address)
        try:
            ray.init(
                address=address,
                ignore_reinit_error=True,
                log_to_driver=False,
                logging_level="ERROR",
                configure_logging=False,
            )
        except (ConnectionError, RuntimeError, ValueError, ImportError) as error:
            text = str(error).strip()
            first = text.splitlines()[0] if text else type(error).__name__
            raise ZerosumError(
                _("cannot join the cluster at {address}: {reason}").format(
                    address=address, reason=first
                )
            ) from None
        self._ray = ray
        self.setup = setup
        self._remote = ray.remote(num_cpus=1, max_retries=MAX_ATTEMPTS - 1)(_task)
        self._refs: dict[Any, Job] = {}
        self._lost = 0

    @property
    def capacity(self) -> int:
        cpus = self._ray.cluster_resources().get("CPU", 1)
        return max(1, int(cpus))

    @property
    def lost_workers(self) -> int:
        return self._lost

    @property
    def retried(self) -> int:
        return 0  # Ray retries a task inside the cluster, unseen here

    def running(self) -> list[str]:
        return [job.key for job in self._refs.values()]

    def submit(self, job: Job) -> None:
        self._refs[self._remote.remote(self.setup, job)] = job

    def cancel(self, key: str) -> None:
        for ref, job in list(self._refs.items()):
            if job.key == key:
                del self._refs[ref]
                with contextlib.suppress(Exception):  # finished already
                    self._ray.cancel(ref, force=True)

    def wait(self, timeout: float) -> list[Event]:
        if not self._refs:
            return []
        ray = self._ray
        ready, _rest = ray.wait(list(self._refs), num_returns=1, timeout=timeout)
        if ready:
            more, _rest = ray.wait(list(self._refs), num_returns=len(self._refs), timeout=0)
            ready = list({*ready, *more})
        events: list[Event] = []
        for ref in ready:
            job = self._refs.pop(ref)
            try:
                events.append(ray.get(ref))
            except ray.exceptions.RayError as error:
                self._lost += 1
                first = str(error).strip().splitlines()[0] if str(error).strip() else ""
                events.append(
                    Failed(
                        job.key,
                        _("the position after {moves} failed on the cluster: {reason}").format(
                            moves=" ".join(job.moves) or _("(the start)"),
                            reason=first or type(error).__name__,
                        ),
                    )
                )
        return events

    def close(self) -> None:
        for ref in list(self._refs):
            with contextlib.suppress(Exception):
                self._ray.cancel(ref, force=True)
        self._refs.clear()
        self._ray.shutdown()
