"""Compile the kernels ahead of time: ``eslabon warmup`` / ``python -m eslabon warmup``.

A kernel compiles on its first use and numba keeps the machine code in its cache on disk
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), so a later process only
loads it. Warming up makes the calls a user of each family of robots makes first, on a
small built-in robot of the family, in each form that compiles something of its own:
inverse and forward dynamics, bias and gravity, the mass matrix, the derivatives and the
linearization for one state, as arrays (the lean C entries) and as lists or with a
method (the general path); :func:`eslabon.crosscheck` (every formulation it compares);
the kinematics, the momentum, the Coriolis matrix and the energies; simulation; batches
of inverse dynamics, the mass matrix and the forward dynamics. The families are the
arms (revolute, prismatic, universal and planar joints; mimic joints) and the floating
bases (free-flyer, spherical and helical joints: the kernels of the extended joint set,
:mod:`eslabon._engine.joints`). ``everything=True`` (``eslabon warmup --all``) also
compiles the other batches (derivatives, linearization, the other methods of M and FD,
Coriolis, energies, kinematics), the Newton–Euler trace and the tip wrench: what the
test suite uses.

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

FIRST_USE, MORE = "first use", "more"
_ARMS, _FLOATING = "arms: ", "floating bases: "
# group -> (what it compiles; the groups it runs after, whose kernels it shares: it loads
# them from the cache instead of compiling them again in another process; its CPU
# seconds from empty on the reference machine; FIRST_USE, or MORE for ``--all`` only)
GROUPS = {
    _ARMS + "first calls": (
        "ID, bias, gravity, M, FD, their derivatives and the linearization on arrays",
        (),
        21.0,
        FIRST_USE,
    ),
    _ARMS + "other one-state calls": (
        "lists, every method, crosscheck, kinematics, momentum, a mimic joint",
        (_ARMS + "first calls",),
        11.0,
        FIRST_USE,
    ),
    _ARMS + "batches": (
        "ID, bias, gravity, M, FD, energies, poses on (N, n) states",
        (_ARMS + "first calls",),
        6.5,
        FIRST_USE,
    ),
    _ARMS + "simulation": (
        "RK4 and Euler loops, a mobile manipulator",
        (_ARMS + "other one-state calls", _ARMS + "batches"),
        5.0,
        FIRST_USE,
    ),
    _ARMS + "more batches": (
        "derivatives, linearization, other methods, C, Jacobians, link motion",
        (_ARMS + "batches", _ARMS + "other one-state calls"),
        16.0,
        MORE,
    ),
    _ARMS + "trace and tip wrench": (
        "the Newton–Euler trace, inverse dynamics with a tip wrench",
        (_ARMS + "other one-state calls",),
        2.5,
        MORE,
    ),
    _FLOATING + "first calls": (
        "the same for free-flyer, spherical and helical joints",
        (),
        28.0,
        FIRST_USE,
    ),
    _FLOATING + "other one-state calls": (
        "the same",
        (_FLOATING + "first calls",),
        4.0,
        FIRST_USE,
    ),
    _FLOATING + "batches": ("the same", (_FLOATING + "first calls",), 12.0, FIRST_USE),
    _FLOATING + "simulation": (
        "RK4 on charts (batches of FD and energies) and on a screw",
        (_FLOATING + "other one-state calls", _FLOATING + "batches"),
        4.0,
        FIRST_USE,
    ),
    _FLOATING + "more batches": (
        "the same",
        (_FLOATING + "simulation",),
        17.0,
        MORE,
    ),
    _FLOATING + "trace and tip wrench": (
        "the same",
        (_FLOATING + "other one-state calls",),
        3.0,
        MORE,
    ),
}


def _states(model, batch: int = 0):
    """q (a valid configuration), q̇, q̈: one state (nq,), (nv,) or a batch (batch, …)."""
    import numpy as np

    import eslabon as es

    rng = np.random.default_rng(0)
    if batch:
        q = np.stack([es.random_configuration(model, rng) for _ in range(batch)])
    else:
        q = es.random_configuration(model, rng)
    shape = (batch, model.nv) if batch else (model.nv,)
    return q, rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)


def _first_calls(model) -> None:
    """One state as float64 arrays: the lean C entries."""
    import eslabon as es
    from eslabon.control import linearize

    q, v, a = _states(model)
    es.inverse_dynamics(model, q, v, a)
    es.bias_forces(model, q, v)
    es.gravity_torques(model, q)
    es.mass_matrix(model, q)
    es.forward_dynamics(model, q, v, a)
    es.inverse_dynamics_derivatives(model, q, v, a)
    es.forward_dynamics_derivatives(model, q, v, a)
    linearize(model, q, v, a)


def _other_calls(model) -> None:
    """One state through the general path: lists, every method; crosscheck (every
    formulation it compares), kinematics, momentum."""
    import eslabon as es
    from eslabon.control import linearize

    q, v, a = _states(model)
    x, y, z = (list(map(float, w)) for w in (q, v, a))
    es.inverse_dynamics(model, x, y, z)
    es.bias_forces(model, x, y)
    es.gravity_torques(model, x)
    for method in ("walker_orin_3", "walker_orin_1"):
        es.mass_matrix(model, q, method=method)
    for method in ("aba", "walker_orin_3", "walker_orin_1"):
        es.forward_dynamics(model, q, v, a, method=method)
    es.inverse_dynamics_derivatives(model, x, y, z)
    es.forward_dynamics_derivatives(model, x, y, z)
    linearize(model, x, y, z)
    es.crosscheck(model, q, v, a)  # every formulation, M's and FD's methods, C, energies
    es.forward_kinematics(model, q)
    es.end_effector_pose(model, q)
    es.jacobian(model, q)
    es.kinematics.link_velocities(model, q, v)
    es.kinematics.link_accelerations(model, q, v, a)
    es.momentum(model, q, v)
    es.kinetic_energy(model, q, v)
    es.potential_energy(model, q)
    es.coriolis_matrix(model, q, v)


def _mimic_calls() -> None:
    """A model with a mimic joint: the coupled system, general paths over the kernels of
    its joints (:mod:`eslabon.model.mimic`)."""
    import numpy as np

    import eslabon as es
    from eslabon.control import linearize

    tree = es.zoo.random_tree(3, "RRRPR", friction=False)
    model = tree.replace(  # body 4's joint copies body 1's
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )
    q, v, a = _states(model)
    es.inverse_dynamics(model, q, v, a)
    es.mass_matrix(model, q)
    es.forward_dynamics(model, q, v, a, method="walker_orin_3")
    es.inverse_dynamics_derivatives(model, q, v, a)
    es.forward_dynamics_derivatives(model, q, v, a)
    linearize(model, q, v, a)
    es.crosscheck(model, q, v, a)
    es.momentum(model, q, v)
    es.simulate(model, 0.002, 0.001, q0=q, fd_method="walker_orin_3")


def _batches(model) -> None:
    """The batches of Newton–Euler, the mass matrix and the articulated-body algorithm;
    those of the energies and the world poses, which plotting and viewing a trajectory
    make."""
    import eslabon as es

    Q, V, A = _states(model, 9)
    es.inverse_dynamics(model, Q, V, A)
    es.bias_forces(model, Q, V)
    es.gravity_torques(model, Q)
    es.mass_matrix(model, Q)
    es.forward_dynamics(model, Q, V, A)
    es.kinetic_energy(model, Q, V)
    es.forward_kinematics(model, Q)


def _more_batches(model) -> None:
    """Every other batch call."""
    import eslabon as es
    from eslabon.control import linearize

    Q, V, A = _states(model, 9)
    es.mass_matrix(model, Q, method="walker_orin_1")
    for method in ("walker_orin_3", "walker_orin_1"):
        es.forward_dynamics(model, Q, V, A, method=method)
    es.inverse_dynamics_derivatives(model, Q, V, A)
    es.forward_dynamics_derivatives(model, Q, V, A)
    linearize(model, Q, V, A)
    es.jacobian(model, Q)
    es.kinematics.link_velocities(model, Q, V)
    es.momentum(model, Q, V)
    es.coriolis_matrix(model, Q, V)


def _simulation(model, family: str) -> None:
    """The compiled RK4 (and Euler) loops with every forward-dynamics method."""
    import numpy as np

    import eslabon as es

    q, _, tau = _states(model)
    if family == "floating bases":
        es.simulate(model, 0.002, 0.001, q0=q, torque=np.zeros(model.nv))  # on charts
        model = es.zoo.random_tree(0, "RHR")  # a helical joint: the compiled loop
        q, _, tau = _states(model)
    for method in ("aba", "walker_orin_3", "walker_orin_1"):
        es.simulate(model, 0.002, 0.001, q0=q, torque=tau, fd_method=method)
        es.simulate(model, 0.002, 0.001, q0=q, torque=np.tile(tau, (3, 1)), fd_method=method)
    es.simulate(model, 0.002, 0.001, q0=q, torque=tau, method="euler")
    if family == "arms":
        from . import mobile as mb

        mm = mb.MobileManipulator(
            mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
            es.zoo.load("puma560_araujo"),
            mb.Mount.araujo_assumed(),
        )
        mb.simulate(mm, 0.02, 0.01, torque=np.zeros(6), u=[150.0, 0.3])


def run_group(name: str) -> None:
    """Make one group's calls in this process, compiling what is not in the cache.

    Parameters
    ----------
    name : str
        A group of :data:`GROUPS`.

    Raises
    ------
    ValueError
        An unknown group.
    """
    import numpy as np

    import eslabon as es

    if name not in GROUPS:
        raise ValueError(f"group: expected one of {list(GROUPS)}, got {name!r}")
    family, part = name.split(": ")
    if family == "arms":
        model = es.zoo.load("practica_4dof")  # revolute and prismatic joints
    else:
        model = es.zoo.load("space_manipulator")  # a free flyer and revolute joints
    if part == "first calls":
        _first_calls(model)
        if family == "floating bases":
            _first_calls(es.zoo.random_tree(0, "RHR"))  # a helical joint (nq = nv)
    elif part == "other one-state calls":
        _other_calls(model)
        if family == "arms":
            _mimic_calls()
    elif part == "batches":
        _batches(model)
    elif part == "more batches":
        _more_batches(model)
    elif part == "simulation":
        _simulation(model, family)
    else:  # trace and tip wrench
        q, v, a = _states(model)
        es.rnea_trace(model, q, v, a)
        es.inverse_dynamics(model, q, v, a, tip_wrench=np.ones(6))


def selected(everything: bool = False) -> list:
    """The groups a warm-up runs.

    Parameters
    ----------
    everything : bool
        All the groups (``eslabon warmup --all``), not only those of first use.

    Returns
    -------
    list of str
        Names of :data:`GROUPS`, in their order there.
    """
    return [n for n, g in GROUPS.items() if everything or g[3] == FIRST_USE]


def _start_worker() -> None:
    """Each worker: warnings and the compile notice off, eslabon imported once."""
    import warnings

    warnings.simplefilter("ignore")
    from ._engine.compile import compile_notice

    compile_notice(False)
    import eslabon  # noqa: F401


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
    run_group(name)
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
            after = [m for m in names if n in GROUPS[m][1]]
            tails[n] = GROUPS[n][2] + max((tail(m) for m in after), default=0.0)
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
    names = list(GROUPS if names is None else names)
    tails = _tails(names)
    done: list = []
    while len(done) < len(names):
        ready = [n for n in names if n not in done and _ready(n, done, names)]
        done.append(max(ready, key=lambda n: tails[n]))
    return done


def _ready(name: str, done, names) -> bool:
    """Every group ``name`` follows that is run (in ``names``) has ended (in ``done``)."""
    return all(a in done for a in GROUPS[name][1] if a in names)


def warmup(
    jobs: int | None = None, log=None, prune: bool = False, everything: bool = False
) -> dict:
    """Compile the kernels of first use (or of every group) in worker processes.

    Runs the groups of calls of :data:`GROUPS` — those of first use, or all of them — in
    ``jobs`` worker processes: a group starts once the groups it follows have ended, on
    the next free worker, the ready group with the longest chain of groups after it
    first (:func:`order`). Then, with ``prune``, removes this install's cache folders of
    other versions of its sources.

    Parameters
    ----------
    jobs : int, optional
        Worker processes, at least 1 (default: one per core, at most one per group).
    log : callable, optional
        ``log(line)`` is called with a line as the warm-up starts and as each group
        lands (compiled, with its wall and CPU seconds, or cached).
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
        platform does not say); ``old_cache``: the cache folders of other versions,
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
        from ._args import whole_number

        jobs = whole_number(jobs, "--jobs", 1)
    names = order(selected(everything))
    tails = _tails(names)  # among the groups ready, the longest chain after it first
    jobs = max(1, min(jobs or os.cpu_count() or 1, len(names)))
    log = log or (lambda line: None)
    from ._engine.cachedir import (
        _code_hash,
        cache_folders,
        remove_old_cache_folders,
    )
    from ._engine.compile import settle_for_workers

    started_with = "eslabon-" + _code_hash()  # the sources may change during a warm-up
    settle_for_workers()  # a refused cache folder said here, not by every worker
    t0, cpu0 = time.perf_counter(), _children_cpu()
    tasks: dict = {}
    if names:
        log(
            f"eslabon warmup: {len(names)} groups of calls in {jobs} "
            f"process{'es' * (jobs > 1)}; what is not in the cache is compiled "
            "(once per machine and version)"
        )
        ctx = multiprocessing.get_context("spawn")  # a fresh interpreter per worker
        with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_start_worker) as pool:
            running: dict = {}
            while len(tasks) < len(names):
                waiting = [n for n in names if n not in tasks and n not in running.values()]
                for name in sorted(waiting, key=lambda n: -tails[n]):
                    if len(running) < jobs and _ready(name, list(tasks), names):
                        running[pool.submit(_worker, name)] = name
                finished, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in finished:
                    result = fut.result()
                    name = running.pop(fut)
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
