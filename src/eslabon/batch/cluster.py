"""The Dask side of a sweep: the embedded local cluster, a connection to an existing
scheduler (checked before any work: one clear error), distributed's logs kept quiet, and
Ctrl-C (:class:`SweepInterrupted`)."""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
import warnings
from concurrent.futures import CancelledError

from .parts import SweepNotice, one_line

#: seconds to wait for ``--scheduler`` to answer before saying it does not; the
#: environment variable ESLABON_SCHEDULER_TIMEOUT (seconds) changes it
SCHEDULER_TIMEOUT = 5.0
# one compiled thread per local worker process: the processes are the parallelism
WORKER_ENV = {"NUMBA_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
# the workers' own distributed log level, read from the environment when they start
_WORKER_LOGGING = "DASK_LOGGING__DISTRIBUTED"
_ADDRESS = re.compile(r"^(tcp|tls|inproc|ws|wss)://[^\s:/]+(:\d+)?$|^[^\s:/]+:\d+$")


class SweepInterrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) stopped a sweep: the message says how many chunks were written and
    that ``--resume`` finishes it (a KeyboardInterrupt still, for callers that stop on
    one)."""


@contextlib.contextmanager
def _quiet_workers_start():
    """While the local cluster's worker processes start, ignore SIGINT and set their
    distributed log level to critical, both inherited by the processes (an exec keeps an
    ignored signal, and Python then installs no handler of its own). Ctrl-C in a terminal
    reaches the whole process group: only this process acts on it, closing the cluster,
    instead of every worker printing its traceback, or a warning for each task the close
    cancels (chunk errors reach this process through the futures)."""
    saved_env = os.environ.get(_WORKER_LOGGING)
    os.environ[_WORKER_LOGGING] = "critical"
    main = threading.current_thread() is threading.main_thread()
    old = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
        if saved_env is None:
            os.environ.pop(_WORKER_LOGGING, None)
        else:
            os.environ[_WORKER_LOGGING] = saved_env


def _scheduler_timeout() -> float:
    """:data:`SCHEDULER_TIMEOUT`, or ESLABON_SCHEDULER_TIMEOUT when it is a positive number."""
    raw = os.environ.get("ESLABON_SCHEDULER_TIMEOUT", "")
    try:
        value = float(raw)
    except ValueError:
        return SCHEDULER_TIMEOUT
    return value if 0.0 < value < float("inf") else SCHEDULER_TIMEOUT


def disconnect(client, cluster=None) -> None:
    """Close ``client``, then ``cluster`` (either may be None), each within 5 s; their
    errors are not raised (the sweep's own outcome is what is reported)."""
    if client is not None:
        with contextlib.suppress(Exception):
            client.close(timeout=5)
    if cluster is not None:
        with contextlib.suppress(Exception):
            cluster.close(timeout=5)


def connect(scheduler, workers):
    """A Dask client and the cluster to close with it: an embedded local cluster of
    ``workers`` processes, or the scheduler at ``scheduler`` (checked before any work:
    one clear error; the cluster is then None)."""
    from dask.distributed import Client, LocalCluster

    if scheduler is None:
        with _quiet_workers_start():
            cluster = LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                env=WORKER_ENV,
            )
        return Client(cluster), cluster
    if not _ADDRESS.match(str(scheduler)):
        raise ValueError(
            f"--scheduler: expected an address like tcp://host:8786, got {scheduler!r}"
        )
    try:
        client = Client(scheduler, timeout=f"{_scheduler_timeout()}s")
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ValueError(
            f"--scheduler: no Dask scheduler answers at {scheduler} "
            f"({one_line(exc)}); nothing was written"
        ) from None
    try:
        idle = not client.scheduler_info().get("workers")
    except (OSError, TimeoutError) as exc:
        client.close()
        raise ValueError(
            f"--scheduler: the Dask scheduler at {scheduler} stopped answering "
            f"({one_line(exc)}); nothing was written"
        ) from None
    if idle:
        warnings.warn(
            f"sweep: the Dask scheduler at {scheduler} has no workers yet; the chunks wait for one",
            SweepNotice,
            stacklevel=3,
        )
    return client, None


@contextlib.contextmanager
def quiet_dask_logs():
    """Keep distributed's and tornado's log records below CRITICAL off stderr while a
    sweep runs: a lost scheduler is reported once, as one line, by
    :func:`eslabon.batch.run_sweep`."""
    names = [
        n
        for n in list(logging.root.manager.loggerDict)
        if n.split(".")[0] in ("distributed", "tornado")
    ] + ["distributed", "tornado"]
    saved = {n: logging.getLogger(n).level for n in names}
    for n in names:
        logging.getLogger(n).setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for n, level in saved.items():
            logging.getLogger(n).setLevel(level)


def lost_errors() -> tuple:
    """The exception types that mean the connection to the Dask cluster is gone."""
    from distributed.client import FutureCancelledError
    from distributed.comm.core import CommClosedError

    return (CommClosedError, OSError, TimeoutError, CancelledError, FutureCancelledError)
