"""Compile every kernel ahead of time: ``eslabon warmup`` / ``python -m eslabon warmup``.

A kernel compiles on its first use and numba keeps the machine code in its cache on disk
(``__pycache__`` beside the sources, or ``NUMBA_CACHE_DIR``), so a later process only
loads it. Warming up runs each public function once, on a small built-in robot, in each
form that compiles something of its own: one state through the fast path and the general
path, a batch, each method. The groups are independent, so they run in separate
processes, one per core by default (numba compiles one function at a time per process).

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

# group -> what it compiles (the functions below are run in a worker process each)
GROUPS = {  # longest first: two processes then finish close together
    "floating-base derivatives": "the derivatives again for spherical and free-flyer joints",
    "floating bases": "every other algorithm again for helical, spherical and free-flyer joints",
    "kinematics and energy": "poses, Jacobians, link motion, energies, Coriolis",
    "forward dynamics": "articulated body, mass matrix and Cholesky (one state, batches)",
    "derivatives": "analytic inverse and forward dynamics derivatives",
    "inverse dynamics": "Newton–Euler: τ, bias and gravity (one state, batches, trace)",
    "mass matrix": "composite body and Newton–Euler columns (one state, batches)",
    "simulation": "the compiled RK4 loop with every forward-dynamics method",
    "mobile manipulators": "the moving-base recursion of a platform-mounted arm",
}


def _states(model, batch: int = 0):
    import numpy as np

    rng = np.random.default_rng(0)
    shape = (batch, model.nq) if batch else (model.nq,)
    return tuple(rng.uniform(-1, 1, shape) for _ in range(3))


def run_group(name: str) -> float:
    """Run one group's calls in this process; its CPU seconds."""
    t0 = time.process_time()
    import numpy as np

    import eslabon as es

    model = es.zoo.load("practica_4dof")  # revolute and prismatic joints
    q, qd, qdd = _states(model)
    Q, QD, QDD = _states(model, 9)
    lists = [list(map(float, x)) for x in (q, qd, qdd)]
    if name == "inverse dynamics":
        for args in ((q, qd, qdd), lists, (Q, QD, QDD)):
            es.inverse_dynamics(model, *args)
            es.bias_forces(model, *args[:2])
            es.gravity_torques(model, args[0])
        es.inverse_dynamics(model, q, qd, qdd, tip_wrench=np.ones(6))
        es.rnea_trace(model, q, qd, qdd)
    elif name == "mass matrix":
        for method in ("walker_orin_3", "walker_orin_1"):
            es.mass_matrix(model, q, method=method)
            es.mass_matrix(model, Q, method=method)
        es.mass_matrix(model, lists[0])
    elif name == "forward dynamics":
        for method in ("aba", "walker_orin_3", "walker_orin_1"):
            es.forward_dynamics(model, q, qd, qdd, method=method)
            es.forward_dynamics(model, Q, QD, QDD, method=method)
        es.forward_dynamics(model, *lists)
    elif name == "derivatives":
        for args in ((q, qd, qdd), lists, (Q, QD, QDD)):
            es.inverse_dynamics_derivatives(model, *args)
            es.forward_dynamics_derivatives(model, *args)
    elif name == "kinematics and energy":
        rigid = es.zoo.load("practica_6dof")
        x, v, a = _states(rigid)
        X, V, A = _states(rigid, 9)
        for args in ((x, v, a), (X, V, A)):
            es.forward_kinematics(rigid, args[0])
            es.end_effector_pose(rigid, args[0])
            es.jacobian(rigid, args[0])
            es.kinematics.link_velocities(rigid, *args[:2])
            es.kinematics.link_accelerations(rigid, *args)
            es.kinetic_energy(rigid, *args[:2])
            es.potential_energy(rigid, args[0])
            es.coriolis_matrix(rigid, *args[:2])
    elif name == "simulation":
        for method in ("aba", "walker_orin_3", "walker_orin_1"):
            es.simulate(model, 0.002, 0.001, q0=q, torque=qdd, fd_method=method)
            es.simulate(model, 0.002, 0.001, q0=q, torque=np.tile(qdd, (3, 1)), fd_method=method)
    elif name == "mobile manipulators":
        from . import mobile as mb

        mm = mb.MobileManipulator(
            mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
            es.zoo.load("puma560_araujo"),
            mb.Mount.araujo_assumed(),
        )
        mb.simulate(mm, 0.02, 0.01, torque=np.zeros(6), u=[150.0, 0.3])
    elif name == "floating bases":  # the extended joint set (eslabon._engine.joints)
        _extended_joints(es, derivatives=False)
    elif name == "floating-base derivatives":
        _extended_joints(es, derivatives=True)
    else:
        raise ValueError(f"group: expected one of {list(GROUPS)}, got {name!r}")
    return time.process_time() - t0


def _extended_joints(es, derivatives: bool) -> None:
    """The calls of the other groups on a free-flying robot: the kernels compiled for
    the extended joint set; the derivatives (the longest to compile) or everything else,
    so that two processes share the work."""
    import numpy as np

    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(0)
    Q = np.stack([es.random_configuration(model, rng) for _ in range(9)])
    V, A = (rng.uniform(-1, 1, (9, model.nv)) for _ in range(2))
    for q, v, a in ((Q[0], V[0], A[0]), (Q, V, A)):
        if derivatives:
            es.inverse_dynamics_derivatives(model, q, v, a)
            es.forward_dynamics_derivatives(model, q, v, a)
            continue
        es.inverse_dynamics(model, q, v, a)
        es.bias_forces(model, q, v)
        es.gravity_torques(model, q)
        for method in ("aba", "walker_orin_3", "walker_orin_1"):
            es.forward_dynamics(model, q, v, a, method=method)
        for method in ("walker_orin_3", "walker_orin_1"):
            es.mass_matrix(model, q, method=method)
        es.forward_kinematics(model, q)
        es.jacobian(model, q)
        es.kinetic_energy(model, q, v)
        es.potential_energy(model, q)
        es.coriolis_matrix(model, q, v)
    if derivatives:
        return
    es.rnea_trace(model, Q[0], V[0], A[0])
    es.simulate(model, 0.002, 0.001, q0=Q[0], torque=np.zeros(model.nv))
    screw = es.zoo.random_tree(0, "RHR")  # the compiled RK4 loop (q of nv entries)
    for method in ("aba", "walker_orin_3", "walker_orin_1"):
        es.simulate(screw, 0.002, 0.001, torque=np.zeros(screw.nv), fd_method=method)


def _worker(name: str) -> tuple:
    import warnings

    warnings.simplefilter("ignore")
    from ._engine.compile import compile_notice

    compile_notice(False)
    return name, run_group(name)


def _start_library() -> dict:
    """Build the start-up library (:mod:`eslabon._engine.startlib`) in this process:
    what :func:`eslabon._engine.startlib_build.build` returns, or ``{"reason": …}``."""
    from ._engine.compile import compile_notice
    from ._engine.startlib_build import NotBuilt, build

    compile_notice(False)
    try:
        return build()
    except NotBuilt as exc:
        return {"reason": str(exc)}
    except OSError as exc:  # the cache folder cannot be written, the disk is full, …
        return {"reason": f"{exc.filename or 'the cache folder'}: {exc.strerror or exc}"}


def warmup(jobs: int | None = None, log=None, prune: bool = False) -> dict:
    """Compile every group of kernels, ``jobs`` processes at once (default: one per core);
    ``log(line)`` reports each group as it lands. With ``prune``, then remove this
    install's cache folders of other versions of its sources. Last, the C entries are
    linked into the start-up library, so that a later process runs its first dynamics
    without importing numba (:mod:`eslabon._engine.startlib`). Returns the timings;
    under ``"start_library"``, the library's path, entries and build seconds, or the
    ``"reason"`` it was not built; under ``"old_cache"``, those folders' count and
    bytes, how many were removed and the paths of those that could not be."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    if jobs is not None:
        from ._args import whole_number

        jobs = whole_number(jobs, "--jobs", 1)
    jobs = jobs or min(len(GROUPS), os.cpu_count() or 1)
    log = log or (lambda line: None)
    from ._engine.cachedir import (
        _code_hash,
        cache_folders,
        remove_old_cache_folders,
    )
    from ._engine.compile import settle_for_workers

    started_with = "eslabon-" + _code_hash()  # the sources may change during a warm-up
    settle_for_workers()  # a refused cache folder said here, not by every worker
    t0 = time.perf_counter()
    cpu = {}
    log(
        f"eslabon warmup: compiling {len(GROUPS)} groups of kernels in {jobs} processes "
        f"(once per machine and version)"
    )
    ctx = multiprocessing.get_context("spawn")  # a fresh interpreter per worker
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        futures = [pool.submit(_worker, name) for name in GROUPS]
        for k, fut in enumerate(as_completed(futures), start=1):
            name, seconds = fut.result()
            cpu[name] = round(seconds, 2)
            log(
                f"eslabon warmup [{k}/{len(GROUPS)}, {time.perf_counter() - t0:.0f} s] "
                f"{name}: {GROUPS[name]} ({seconds:.1f} s)"
            )
        library = pool.submit(_start_library).result()  # after every group: in the cache
    if "reason" in library:
        log(f"eslabon warmup: no start-up library ({library['reason']}); processes start slower")
    else:
        log(
            f"eslabon warmup: start-up library of {len(library['entries'])} entries "
            f"({len(library['left_to_numba'])} left to numba's cache) in "
            f"{library['seconds']:.1f} s: {library['path']}"
        )
    wall = round(time.perf_counter() - t0, 2)
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
        "tasks": cpu,
        "jobs": jobs,
        "wall_s": wall,
        "cpu_s": round(sum(cpu.values()), 2),
        "start_library": library,
        "old_cache": {
            "folders": len(old) + len(failed),
            "bytes": sum(f["bytes"] for f in old + failed),
            "removed": len(old) if prune else 0,
            "not_removed": [f["path"] for f in failed],
        },
    }
