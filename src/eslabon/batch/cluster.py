"""The Dask side of a sweep: the embedded local cluster, a connection to an existing
scheduler (checked before any work: one clear error), distributed's logs kept quiet, and
Ctrl-C.

Ctrl-C in a terminal sends SIGINT to the whole process group, the local cluster's worker
processes included. Only the sweep's own process acts on it: it closes the cluster and
says in one line what is written (:class:`SweepInterrupted`). The workers never see it:
they start with SIGINT blocked, a signal mask inherited from the thread of this process
that starts them (a mask passes to a new thread, through a fork and through an exec), so
none prints a traceback, and a worker the nanny restarts later inherits it too. A Ctrl-C
while the cluster starts (seconds) is held meanwhile and raised as soon as the cluster is
up, so that it closes cleanly.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import signal
import threading
import warnings
from concurrent.futures import CancelledError

from .._args import caller_stacklevel
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
    """While the local cluster starts: SIGINT blocked in this thread, and so in every
    thread and worker process the start creates (they inherit the mask and keep it), and
    the workers' distributed log level set to critical (read from the environment as they
    start). Ctrl-C in a terminal reaches the whole process group: only this process acts
    on it, instead of every worker printing its traceback, or a warning for each task the
    close cancels (chunk errors reach this process through the futures).

    In the main thread, a SIGINT that arrives meanwhile (kept pending by the mask, or
    taken by a thread started earlier) is recorded instead of raised halfway through the
    start, and raised again on the way out, with the caller's handler back in place: a
    KeyboardInterrupt once the cluster is whole, which then closes cleanly."""
    saved_env = os.environ.get(_WORKER_LOGGING)
    os.environ[_WORKER_LOGGING] = "critical"
    caught: list = []
    old_handler = None
    if threading.current_thread() is threading.main_thread():
        old_handler = signal.getsignal(signal.SIGINT)
        if old_handler in (signal.SIG_IGN, None):  # ignored, or not set from Python
            old_handler = None
        else:
            signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    blocks = hasattr(signal, "pthread_sigmask")  # POSIX
    if blocks:
        # multiprocessing's resource tracker, started with the first worker, unblocks
        # SIGINT in the thread that starts it: started now, before the mask, it is not
        from multiprocessing import resource_tracker

        resource_tracker.ensure_running()
    old_mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocks else None
    try:
        yield
    finally:
        if old_mask is not None:  # a pending SIGINT is delivered now, and recorded
            signal.pthread_sigmask(signal.SIG_SETMASK, old_mask)
        if old_handler is not None:
            signal.signal(signal.SIGINT, old_handler)
        if saved_env is None:
            os.environ.pop(_WORKER_LOGGING, None)
        else:
            os.environ[_WORKER_LOGGING] = saved_env
    if caught:  # the Ctrl-C of the start, to the caller's handler (a KeyboardInterrupt)
        signal.raise_signal(signal.SIGINT)


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
    one clear error; the cluster is then None). A Ctrl-C while the local cluster starts
    raises KeyboardInterrupt once it is up, after closing it."""
    from dask.distributed import Client, LocalCluster

    if scheduler is None:
        from .._engine.compile import settle_for_workers

        settle_for_workers()  # a refused cache folder said here, not by every worker
        client = cluster = None
        try:
            with _quiet_workers_start():
                cluster = LocalCluster(
                    n_workers=workers,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=":0",  # any free port: never "8787 in use"
                    env=WORKER_ENV,
                )
                client = Client(cluster)
        except BaseException:
            disconnect(client, cluster)
            raise
        return client, cluster
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
            stacklevel=caller_stacklevel(),
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
