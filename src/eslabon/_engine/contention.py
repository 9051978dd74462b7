"""How many threads a batch may use now: fewer when other work holds the cores.

Why (docs/performance.md, "Batches beside other work"): GNU OpenMP's threads spin at the
end of each parallel loop waiting for each other. When other processes hold the cores (a
notebook, a simulator, a second eslabon, a Dask worker per core), the OS deschedules one
of a batch's threads for a whole time slice while the others spin: a batch of 10,000
mass matrices on 2 threads took 8–23 ms against 1.3–2.2 ms on one. Passive waiting
(``OMP_WAIT_POLICY=PASSIVE``) removes the collapse but costs 10–45 % on an idle machine,
where every parallel loop then starts by waking its threads.

So the thread count of a batch is decided before it runs, from what the kernel says of
the machine, at most every :data:`INTERVAL` seconds:

- Linux's CPU pressure (``/proc/pressure/cpu``, "some": the share of wall time in which
  a runnable task waited for a CPU) over the last interval. Above
  :data:`STALLED` the cores are oversubscribed, eslabon's own threads included: the
  batch runs on as many threads as there are cores no other task holds.
- Cores no other task holds: the tasks running now (``/proc/loadavg``, fourth field),
  less the calling thread; looked at only after an interval in which no batch of this
  process ran on more than one thread, when its own pool threads have gone to sleep
  and are not counted. So a batch reduced to fewer threads comes back to the user's
  count once the other work is gone.
- Otherwise (no pressure) the count the user set (:func:`eslabon.set_num_threads`).

It never raises the count above the user's. Without ``/proc/pressure/cpu`` (not Linux, or
a kernel without pressure information) nothing changes. ``ESLABON_ADAPTIVE_THREADS=0``
turns it off.
"""

from __future__ import annotations

import os
import threading
import time

INTERVAL = 0.05  # seconds between two looks at the machine
STALLED = 0.05  # share of the interval some runnable task waited for a CPU
DISABLE_ENV = "ESLABON_ADAPTIVE_THREADS"
PRESSURE = "/proc/pressure/cpu"
LOADAVG = "/proc/loadavg"

_lock = threading.Lock()
_state = {"t": None, "stall_us": None, "limit": None, "last_parallel_end": 0.0}


def _stall_us() -> int | None:
    """Total microseconds some task waited for a CPU since boot; None without PSI."""
    try:
        with open(PRESSURE, "rb") as f:
            first = f.readline()
    except OSError:
        return None
    for field in first.split():
        if field.startswith(b"total="):
            return int(field[6:])
    return None


def _running_elsewhere() -> int | None:
    """Tasks running or runnable now other than the calling thread."""
    try:
        with open(LOADAVG, "rb") as f:
            running = int(f.read().split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return None
    return max(0, running - 1)


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def limit(requested: int) -> int:
    """The threads a batch should run on now, at most ``requested``."""
    if requested <= 1 or os.environ.get(DISABLE_ENV, "") == "0":
        return requested
    now = time.monotonic()
    with _lock:
        s = _state
        if s["t"] is not None and now - s["t"] < INTERVAL:
            return min(requested, s["limit"] or requested)
        stall = _stall_us()
        if stall is None:
            return requested
        free = s["limit"]
        if s["t"] is not None and s["stall_us"] is not None:
            waited = (stall - s["stall_us"]) / 1e6 / max(now - s["t"], 1e-9)
            quiet = now - s["last_parallel_end"] > INTERVAL  # our pool threads asleep
            if waited > STALLED or (free is not None and quiet):
                others = _running_elsewhere() if quiet else None
                if others is None:  # our own spinning threads would be counted
                    free = 1
                else:
                    free = None if others == 0 else max(1, _cores() - others)
        s["t"], s["stall_us"], s["limit"] = now, stall, free
        return min(requested, free or requested)


def batch_ended(threads: int) -> None:
    """Note that a batch of this process ran on ``threads`` threads and just ended: with
    more than one, its pool threads may spin a while and count as running."""
    if threads > 1:
        _state["last_parallel_end"] = time.monotonic()
