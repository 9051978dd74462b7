"""Speed benchmark of eslabon, side by side with Pinocchio and MuJoCo (``eslabon bench``).

One run measures, in one process, interleaving ours, Pinocchio's and MuJoCo's calls close
in time:

a. per call (µs) on zoo ``puma560``, ``panda`` and ``space_manipulator`` (a free-flying
   base, nq = 13, nv = 12), and the quadruped ``solo12`` (nv = 18) and the humanoids
   ``talos`` (nv = 38) and ``g1`` (nv = 35) of example-robot-data on a free-flyer root
   where that package is installed
   (the bench extra), at one seeded state: ``inverse_dynamics`` vs ``pin.rnea``,
   ``mass_matrix`` vs ``pin.crba``, ``forward_dynamics`` vs ``pin.aba``,
   ``inverse_dynamics_derivatives`` vs ``pin.computeRNEADerivatives``,
   ``forward_dynamics_derivatives`` and ``control.linearize`` vs
   ``pin.computeABADerivatives``, ``jacobian`` of one frame (``ee``, else the last
   body) vs ``pin.computeFrameJacobian`` (LOCAL_WORLD_ALIGNED, from q) and its
   ``kinematics.frame_pose`` vs ``pin.framesForwardKinematics``; every output is first
   checked against Pinocchio (max abs difference < 1e-8; a floating base's derivatives
   in the tangent space, as Pinocchio's, and A without its −ad(v̄) block). Target ratio
   ≤ 0.8 (≤ 0.6 for ID, M and FD of a floating base; FD derivatives ≤ 0.6, linearize
   ≤ 0.7, the frame's Jacobian and pose ≤ 1.0; the derivatives and the frame rows of a
   floating base have no target). Beside ID, M and FD of a
   fixed base, MuJoCo's ``mj_inverse``, ``mj_kinematics``+``mj_comPos``+``mj_crb``+
   ``mj_fullM`` and ``mj_forward`` on its twin loaded from the URDF eslabon writes
   (:mod:`.mujoco_twin`; checked against eslabon first, relative 1e-9).
b. a batch of 10,000 random states (seed 7) on 2 threads: ``inverse_dynamics`` /
   ``forward_dynamics`` on (N, n) arrays vs ``pin.rneaInParallel`` / ``pin.abaInParallel``
   (ModelPool, (n, N) column-major inputs), target ratio ≤ 0.35 (≤ 0.3 for the floating
   base); ``mass_matrix``, ``inverse_dynamics_derivatives`` and
   ``forward_dynamics_derivatives`` vs a Python loop of ``pin.crba``,
   ``computeRNEADerivatives``, ``computeABADerivatives``, target ratio ≤ 0.25 on fixed
   bases (none on a floating base); A_G, J_c and a frame's J̇q̇ vs a loop of ``ccrba``,
   ``jacobianCenterOfMass`` and the frame's classical acceleration, and the joint-torque
   regressor (a new array, and into a reused buffer) vs a loop of
   ``computeJointTorqueRegressor``, target ≤ 0.2, beside the regressor's memory floor
   (numpy filling the same (N, nv, p) buffer, no target). µs per state.
c. scaling on ``zoo.random_chain(n, seed=0)``, n = 6 … 96: ID, FD, M per call and the
   log-log slope (targets ID, FD ≤ 1.1, M ≈ 2; judged on n ≥ 24).
d. ``simulate(puma, None, None, 1.0, 1e-3, integrator="rk4")`` wall time, best of 5
   (target ≤ 10 ms);
   and ``simulate`` of ``solo12`` (a floating base, the compiled loop on charts) against
   ``mujoco.rollout`` RK4 on 1 thread on its twin, 1 s at 1 kHz from a random state,
   target ratio ≤ 0.3, checked by the largest difference of the last configuration.
e. start-up in a fresh interpreter: ``import eslabon`` + first ``inverse_dynamics`` with a
   warm numba cache and the start-up library (target ≤ 0.2 s) and with an empty one
   (``NUMBA_CACHE_DIR``).
f. batch rollouts (``--only rollout``): 1,000 arms × 1 s at 1 kHz from random states,
   RK4 and semi-implicit Euler, ``eslabon.rollout`` vs ``mujoco.rollout`` on 2 threads,
   Puma 560 and Panda (target ratio ≤ 0.3 RK4, ≤ 1.0 Euler), and 100 runs of ``solo12``
   (a floating base: RK4 on charts, target ratio ≤ 0.3), checked by the largest
   difference of the final positions (:mod:`.rollout`).

Neither Pinocchio nor MuJoCo is a runtime dependency: Pinocchio is imported only when
asked for (``against_pin=True`` / ``--against pin``), MuJoCo whenever it imports (the
bench extra; ``mujoco=False`` leaves it out) and otherwise its columns show "—" with a
note. Timings are never asserted anywhere.

>>> from eslabon import bench                                      # doctest: +SKIP
>>> res = bench.run(quick=True)                                    # doctest: +SKIP
>>> print(bench.render_markdown(res))                              # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import json
import os
import time
import traceback

from .._files import check_output, write_text_atomic
from . import sections as _sec
from ._core import load_pin, log, machine_info, pin_available, settings
from .batch import batch
from .mujoco_twin import load_mujoco
from .per_call import per_call
from .report import print_results, render_markdown
from .rollout import ROLLOUT_ROBOTS, rollout

SECTIONS = ("per_call", "batch", "scaling", "simulate", "startup", "rollout")
ROBOTS = ("puma560", "panda", "space_manipulator", "erd:solo12", "erd:talos", "erd:g1")
CHAIN_SIZES = (6, 12, 24, 48, 96)
LONG_CHAIN_SIZES = (96, 192, 384)  # the mass matrix's O(n²) regime


def run(
    *,
    against_pin: bool = False,
    quick: bool = False,
    robots=ROBOTS,
    sim_robot="puma560",
    chain_sizes=CHAIN_SIZES,
    long_chain_sizes=LONG_CHAIN_SIZES,
    batch_size: int | None = None,
    sections=SECTIONS,
    mujoco: bool = True,
    rollout_robots=ROLLOUT_ROBOTS,
    overrides: dict | None = None,
) -> dict:
    """Run the benchmark; returns ``{"meta", "settings", "sections", "ok"}`` (JSON-able).

    ``robots``: zoo names (or Models) for the per-call and batch sections; ``sim_robot``: zoo
    name for the simulation and start-up sections; ``rollout_robots``: zoo names for the
    rollouts; ``mujoco``: time MuJoCo too where it imports; ``overrides``: fields of
    :class:`._core.Settings` to change (e.g. ``{"rollout_arms": 200}``). Each section is
    ``{"title", "rows", "checks", "notes"}``; a row has ``figure, unit, ours, pin, ratio,
    target, met`` (+ ``mujoco, ratio_mujoco`` where MuJoCo has the operation, None when it
    is not installed; + details such as ``ours_min``, ``pin_min``, the timed statements).
    A check has ``what, against ('pin' or 'mujoco'), max_abs_diff, tol, ok``. A section
    that raises is reported with ``"error"`` and the run goes on.
    """
    unknown = set(sections) - set(SECTIONS)
    if unknown:
        raise ValueError(f"sections: unknown {sorted(unknown)}; expected some of {SECTIONS}")
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # for the start-up subprocesses
    s = settings(quick, batch_size, **(overrides or {}))
    pc = load_pin() if against_pin else None
    mj, mj_note = None, "MuJoCo columns show —: not asked for (mujoco=False)"
    if mujoco and {"per_call", "rollout", "simulate"} & set(sections):
        mj, mj_note = load_mujoco()
    start = time.perf_counter()
    calls = {
        "per_call": lambda: per_call(robots, pc, s, mj, mj_note),
        "batch": lambda: batch(robots, pc, s),
        "scaling": lambda: _sec.scaling(chain_sizes, pc, s, m_sizes=long_chain_sizes),
        "simulate": lambda: _sec.simulation(sim_robot, pc, s, mj, mj_note),
        "startup": lambda: _sec.startup(sim_robot, pc, s),
        "rollout": lambda: rollout(rollout_robots, s, mj, mj_note),
    }
    out = {}
    for name in SECTIONS:
        if name not in sections:
            continue
        log(f"--- {name}")
        try:
            out[name] = calls[name]()
        except Exception as exc:  # report and go on with the other sections
            log(traceback.format_exc())
            out[name] = {
                "title": name,
                "rows": [],
                "checks": [],
                "notes": [],
                "error": f"{type(exc).__name__}: {exc}",
            }
    meta = machine_info(pc[0] if pc else None)
    meta["to_pinocchio"] = pc[2] if pc else None
    meta["mujoco"] = getattr(mj, "__version__", None)
    meta["wall_s"] = round(time.perf_counter() - start, 1)
    ok = all(c["ok"] for sec in out.values() for c in sec.get("checks", [])) and not any(
        sec.get("error") for sec in out.values()
    )
    return {"meta": meta, "settings": s.__dict__.copy(), "sections": out, "ok": ok}


def parse_sections(only: str | None) -> tuple:
    if not only:
        return SECTIONS
    names = tuple(x.strip() for x in only.split(",") if x.strip())
    bad = [x for x in names if x not in SECTIONS]
    if bad or not names:
        raise ValueError(
            f"--only: expected a comma-separated subset of {','.join(SECTIONS)}, got {only!r}"
        )
    return names


def check_against(against: str | None) -> bool:
    """True for 'pin'; ValueError (one line) for other names or a missing Pinocchio."""
    if against is None:
        return False
    if against.lower() not in ("pin", "pinocchio"):
        raise ValueError(f"--against: expected 'pin', got {against!r}")
    if not pin_available():
        raise ValueError("--against pin: Pinocchio is not installed (pip install pin)")
    return True


def execute(
    *,
    against: str | None = None,
    json_path=None,
    markdown=None,
    quick=False,
    only: str | None = None,
    force: bool = False,
) -> int:
    """Run, print the tables, write the files; exit status 0, or 1 if a check failed.
    The output files are checked first: an existing one is refused unless ``force``."""
    against_pin = check_against(against)
    for field, path in (("--json", json_path), ("--markdown", markdown)):
        if path:
            check_output(path, overwrite=force, field=field)
    results = run(against_pin=against_pin, quick=quick, sections=parse_sections(only))
    print_results(results)
    files = (
        (
            json_path,
            lambda: json.dumps(results, indent=2, default=float, ensure_ascii=False) + "\n",
        ),
        (markdown, lambda: render_markdown(results)),
    )
    for path, text in files:
        if path:
            write_text_atomic(path, text(), overwrite=force)
            log(f"wrote {path}")
    log(f"({results['meta']['wall_s']} s wall)")
    if not results["ok"]:
        log("error: a check against Pinocchio or MuJoCo failed or a section raised (see above)")
        return 1
    return 0


def main(argv=None) -> int:
    """``python -m eslabon.bench`` / ``benchmarks/bench_speed.py``; same options as the CLI."""
    p = argparse.ArgumentParser(prog="eslabon bench", description=__doc__.splitlines()[0])
    p.add_argument("--against", choices=["pin"], help="also time Pinocchio side by side")
    p.add_argument("--json", dest="json_path", metavar="PATH", help="write all numbers here")
    p.add_argument("--markdown", metavar="PATH", help="write the results as Markdown here")
    p.add_argument("--quick", action="store_true", help="short repeats (CI smoke run)")
    p.add_argument("--only", metavar="SECTIONS", help=f"subset of {','.join(SECTIONS)}")
    p.add_argument("--force", action="store_true", help="replace existing output files")
    args = p.parse_args(argv)
    try:
        return execute(**vars(args))
    except ValueError as exc:
        log(f"error: {exc}")
        return 2


__all__ = ["run", "execute", "main", "print_results", "render_markdown", "SECTIONS"]
