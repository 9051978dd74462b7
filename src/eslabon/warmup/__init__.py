"""Compile the kernels ahead of time: ``eslabon warmup`` / ``python -m eslabon warmup``.

A kernel compiles on its first use and numba keeps the machine code in its cache on disk
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), so a later process only
loads it. Warming up makes the calls a user of each family of robots makes first, on a
small built-in robot of the family, in each form that compiles something of its own:
inverse and forward dynamics, bias and gravity, the mass matrix, the derivatives and the
linearization for one state, as arrays (the lean C entries) and as lists or with a
method (the general path); :func:`eslabon.crosscheck` (every formulation it compares);
the kinematics, the momentum, the Coriolis matrix and the energies; simulation; the
batches of the energies and the world poses (plotting and viewing a trajectory), and for
arms those of inverse dynamics, the mass matrix and the forward dynamics. The families
are the arms (revolute, prismatic, universal and planar joints; mimic joints) and the
floating bases (free-flyer, spherical and helical joints: the kernels of the extended
joint set, :mod:`eslabon._engine.joints`). ``everything=True`` (``eslabon warmup
--all``) also compiles a floating base's batches of ID, M and FD, the other batches
(derivatives, linearization, the other methods of M and FD, Coriolis, Jacobians), the
Newton–Euler trace and external wrenches: what the test suite uses.

The groups of calls (:data:`GROUPS`) run in worker processes, a group once the group it
follows has ended (whose kernels it shares: it loads them from the cache instead of
compiling them a second time in another process), the costliest ready group first.
Each group says whether it compiled anything — ``cached`` when every kernel it needed
was loaded from the cache — with its wall and CPU seconds.

When to run it: after installing or upgrading eslabon (numba's cache is keyed by each
source file's time stamp, so an upgrade starts cold), or in a container build.

Each version of eslabon's compiled sources has its own cache folder
(``eslabon-<hash>``, :func:`eslabon._engine.cachedir.cache_folders`), and the folders of
earlier versions are not removed by themselves (a full warm-up fills 40–60 MB). Warming
up says how many this install left; ``prune=True`` (``eslabon warmup --prune``) removes
them, never another install's folders in a shared cache directory.
"""

from __future__ import annotations

import os
import time

from . import groups
from .groups import FIRST_USE, GROUPS, MORE, run_group, selected  # noqa: F401 (re-exported)

LIBRARY = "start-up library"  # linked once the groups ending so have ended
LIBRARY_AFTER = ": first calls"


def _start_worker() -> None:
    """Each worker: warnings and the compile notice off, eslabon imported once."""
    import warnings

    warnings.simplefilter("ignore")
    from .._engine.compile import compile_notice

    compile_notice(False)
    import eslabon  # noqa: F401


def _start_library() -> dict:
    """Build the start-up library (:mod:`eslabon._engine.startlib`) in this worker: what
    :func:`eslabon._engine.startlib_build.build` returns, or ``{"reason": …}``."""
    from .._engine.startlib_build import NotBuilt, build

    try:
        return build()
    except NotBuilt as exc:
        return {"reason": str(exc)}
    except OSError as exc:  # the cache folder cannot be written, the disk is full, …
        return {"reason": f"{exc.filename or 'the cache folder'}: {exc.strerror or exc}"}


def _library_line(library: dict) -> str:
    if "reason" in library:
        return f"eslabon warmup: no start-up library ({library['reason']}); processes start slower"
    return (
        f"eslabon warmup: start-up library of {len(library['entries'])} entries "
        f"({len(library['left_to_numba'])} left to numba's cache) in "
        f"{library['seconds']:.1f} s: {library['path']}"
    )


_compilations = [0, False]  # compiler passes run in this process; listening yet


def _count_compilations() -> None:
    """Count numba's compiler passes in this process from now on: a kernel loaded from
    the cache runs none, a compilation (a C entry's too) runs them all."""
    from numba.core import event as ev

    class _Passes(ev.Listener):
        def on_start(self, event):
            _compilations[0] += 1

        def on_end(self, event):
            pass

    if not _compilations[1]:
        ev.register("numba:run_pass", _Passes())
        _compilations[1] = True


def _worker(name: str) -> dict:
    """Run one group in this worker; its wall and CPU seconds and whether it compiled."""
    _count_compilations()
    before = _compilations[0]
    t0, c0 = time.perf_counter(), time.process_time()
    groups.run_group(name)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return {
        "group": name,
        "compiled": _compilations[0] > before,
        "wall_s": round(wall, 2),
        "cpu_s": round(cpu, 2),
    }


def _children_cpu() -> float:
    """CPU seconds (user and system) of this process's children that have ended."""
    try:
        import resource
    except ImportError:  # not on this platform: the groups' own seconds are still said
        return 0.0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def describe(result: dict) -> str:
    """One group's outcome in words.

    Parameters
    ----------
    result : dict
        ``{"compiled": bool, "wall_s": float, "cpu_s": float}``, as :func:`warmup`
        returns for each group.

    Returns
    -------
    str
        ``"compiled in 12.3 s wall, 20.5 s CPU"``, or ``"cached (loaded in 0.2 s
        wall)"`` when it compiled nothing.
    """
    if result["compiled"]:
        return f"compiled in {result['wall_s']:.1f} s wall, {result['cpu_s']:.1f} s CPU"
    return f"cached (loaded in {result['wall_s']:.1f} s wall)"


def _tails(names) -> dict:
    """Each group's CPU seconds and those of the longest chain of groups after it (the
    groups run first are those the rest waits on longest)."""
    tails: dict = {}

    def tail(n):
        if n not in tails:
            after = [m for m in names if n in groups.GROUPS[m][1]]
            tails[n] = groups.GROUPS[n][2] + max((tail(m) for m in after), default=0.0)
        return tails[n]

    for n in names:
        tail(n)
    return tails


def order(names=None) -> list:
    """The order one process runs groups in.

    Parameters
    ----------
    names : list of str, optional
        Groups of :data:`GROUPS` (default: all).

    Returns
    -------
    list of str
        ``names``, each after the groups it follows that are among them, the ready group
        with the longest chain of groups after it (in CPU seconds) first.
    """
    names = list(groups.GROUPS if names is None else names)
    tails = _tails(names)
    done: list = []
    while len(done) < len(names):
        ready = [n for n in names if n not in done and _ready(n, done, names)]
        done.append(max(ready, key=lambda n: tails[n]))
    return done


def _ready(name: str, done, names) -> bool:
    """Every group ``name`` follows that is run (in ``names``) has ended (in ``done``)."""
    return all(a in done for a in groups.GROUPS[name][1] if a in names)


def warmup(
    jobs: int | None = None, log=None, prune: bool = False, everything: bool = False
) -> dict:
    """Compile the kernels of first use (or of every group) in worker processes.

    Runs the groups of calls of :data:`GROUPS` — those of first use, or all of them — in
    ``jobs`` worker processes: a group starts once the groups it follows have ended, on
    the next free worker, the ready group with the longest chain of groups after it
    first (:func:`order`). Once the first calls of every family have ended, a worker
    links the C entries into the start-up library (:mod:`eslabon._engine.startlib`), so
    that a later process runs its first dynamics without importing numba. Then, with
    ``prune``, removes this install's cache folders of other versions of its sources.

    Parameters
    ----------
    jobs : int, optional
        Worker processes, at least 1 (default: one per core, at most one per group).
    log : callable, optional
        ``log(line)`` is called with a line as the warm-up starts and as each group
        lands (compiled, with its wall and CPU seconds, or cached), and when the start-up
        library is built (or why it was not).
    prune : bool
        Then remove this install's cache folders of other versions of its sources.
    everything : bool
        Run every group (``eslabon warmup --all``), not only those of first use.

    Returns
    -------
    dict
        ``tasks``: for each group, ``{"compiled": bool, "wall_s": float, "cpu_s":
        float}``, its own seconds in its worker (``compiled`` False when every kernel it
        needed was loaded from the cache); ``compiled``: how many groups compiled;
        ``jobs``: the worker processes; ``wall_s``: the warm-up's wall seconds;
        ``cpu_s``: the workers' CPU seconds, their start-up included (0.0 where the
        platform does not say); ``start_library``: the library's path, entries, those
        left to numba's cache and build seconds, or the ``"reason"`` it was not built;
        ``old_cache``: the cache folders of other versions,
        ``{"folders", "bytes", "removed", "not_removed"}`` (their count and bytes, how
        many were removed, the paths of those that could not be).

    Raises
    ------
    ValueError
        ``jobs`` not a whole number of at least 1.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    if jobs is not None:
        from .._args import whole_number

        jobs = whole_number(jobs, "--jobs", 1)
    names = order(groups.selected(everything))
    tails = _tails(names)  # among the groups ready, the longest chain after it first
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    log = log or (lambda line: None)
    from .._engine.cachedir import (
        _code_hash,
        cache_folders,
        remove_old_cache_folders,
    )
    from .._engine.compile import settle_for_workers

    started_with = "eslabon-" + _code_hash()  # the sources may change during a warm-up
    settle_for_workers()  # a refused cache folder said here, not by every worker
    t0, cpu0 = time.perf_counter(), _children_cpu()
    tasks: dict = {}
    library = None  # not started; {} while it is built; then what the build returned
    if names:
        log(
            f"eslabon warmup: {len(names)} groups of calls in {jobs} "
            f"process{'es' * (jobs > 1)}; what is not in the cache is compiled "
            "(once per machine and version)"
        )
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter per worker
        with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start_worker) as pool:
            running: dict = {}
            # the C entries are compiled by the first calls: the library is linked as
            # soon as those groups have ended, beside the groups still running
            library_after = [n for n in names if n.endswith(LIBRARY_AFTER)]
            while len(tasks) < len(names) or not library:
                waiting = [n for n in names if n not in tasks and n not in running.values()]
                for name in sorted(waiting, key=lambda n: -tails[n]):
                    if len(running) < jobs and _ready(name, list(tasks), names):
                        running[pool.submit(_worker, name)] = name
                if (
                    library is None
                    and len(running) < jobs
                    and all(n in tasks for n in library_after)
                ):
                    running[pool.submit(_start_library)] = LIBRARY
                    library = {}
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    result = fut.result()
                    name = running.pop(fut)
                    if name == LIBRARY:
                        library = result
                        log(_library_line(library))
                        continue
                    del result["group"]
                    tasks[name] = result
                    log(
                        f"eslabon warmup [{len(tasks)}/{len(names)}, "
                        f"{time.perf_counter() - t0:.0f} s elapsed] {name}: {describe(result)}"
                    )
    wall = round(time.perf_counter() - t0, 2)
    cpu = round(_children_cpu() - cpu0, 2)  # the workers, start-up included
    if prune:
        old, failed = remove_old_cache_folders(keep=(started_with,))
    else:
        old = [
            f
            for f in cache_folders()
            if f["ours"] and not f["current"] and not f["path"].endswith(started_with)
        ]
        failed = []
    return {
        "tasks": tasks,
        "compiled": sum(t["compiled"] for t in tasks.values()),
        "jobs": jobs,
        "wall_s": wall,
        "cpu_s": cpu,
        "start_library": library or {"reason": "no groups were run"},
        "old_cache": {
            "folders": len(old) + len(failed),
            "bytes": sum(f["bytes"] for f in old + failed),
            "removed": len(old) if prune else 0,
            "not_removed": [f["path"] for f in failed],
        },
    }


def summary(data: dict, prune: bool = False) -> list:
    """The closing lines of ``eslabon warmup``.

    Parameters
    ----------
    data : dict
        What :func:`warmup` returned.
    prune : bool
        Whether it was asked to remove the cache folders of other versions.

    Returns
    -------
    list of str
        How many groups compiled and how many were cached, with the warm-up's wall and CPU
        seconds; then, if any, the cache folders of other versions and what became of them.
    """
    n, compiled, jobs = len(data["tasks"]), data["compiled"], data["jobs"]
    if compiled:
        lines = [
            f"compiled {compiled} of {n} groups of kernels ({n - compiled} were cached) in "
            f"{data['wall_s']:.1f} s wall, {data['cpu_s']:.1f} s CPU in {jobs} "
            f"process{'es' * (jobs > 1)}"
        ]
    else:
        lines = [
            f"all {n} groups of kernels were cached: nothing compiled (checked in "
            f"{data['wall_s']:.1f} s wall)"
        ]
    old = data["old_cache"]
    folders = old["folders"]
    if folders:
        what = (
            f"{folders} cache folder{'s' * (folders > 1)} of other versions of eslabon's "
            f"sources ({old['bytes'] / 2**20:.1f} MiB)"
        )
        if old["not_removed"]:
            lines.append(
                f"{what}: removed {old['removed']}, could not remove "
                + ", ".join(old["not_removed"])
            )
        elif prune:
            lines.append(f"{what}: removed")
        else:
            them = "them" if folders > 1 else "it"
            lines.append(f"{what}: `eslabon warmup --prune` removes {them}")
    return lines
