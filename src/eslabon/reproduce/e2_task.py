"""The task of Rojas Salgado (1987) §3.6 (Figs. 3.6.2–3.6.8), part of ``eslabon reproduce
rojas``: a closed curve, the upper branch of a sphere–cylinder intersection, traced in
one minute with the end effector's orientation given by the curve's Frenet–Serret frame,
joint histories by the redundant 7 × 6 Newton–Gauss IK every 0.5 s.

The thesis runs it on the Argonne E2 manipulator (Whitney 1972, Fig. 3.6.1), whose
geometry it does not give, nor the curve's a, b, c; its figures are lost (captions
only). Here the curve p(β) = [−a cos β, a√(14 − 2cos β) − b, a sin β] with a = 0.1 m,
b = 0 is turned 90° about z and placed with its start at the Cincinnati T3's end effector
in Table 4.4.1's configuration, and the T3 follows it. Unturned, or with a = 0.2 m, the
tool's rotation passes φ = π on the way, the redundant system's spurious singularity
(§3.4), and the solve stops there. β(t) rises from 0 to 2π in T = 60 s with zero rate and
acceleration at both ends, as the thesis asks; its spline (Angeles 1983) is not given, so
the cycloid β = 2π (t/T − sin(2πt/T)/2π), which meets the same conditions, is used.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import trajectory as tr
from .._files import atomic_file, savefig_atomic
from ..kinematics import ik
from ..kinematics.forward import end_effector_pose
from ..spatial import rot_z
from ..zoo import rojas

A, B = 0.1, 0.0  # the curve's a, b [m]
PERIOD = 60.0  # one cycle in a minute [s]
STEP = 0.5  # an IK solve every half second [s]


def task(t3) -> tr.Task:
    """The §3.6 task placed in the T3's workspace (module docstring)."""
    curve = tr.e2_sphere_cylinder(A, B)
    turn = rot_z(np.pi / 2)
    start = end_effector_pose(t3, np.radians(rojas.INITIAL_THETA_DEG))[:3, 3]
    offset = start - turn @ curve(np.array(0.0))

    def derivative(k):
        return lambda g: curve.derivatives(g, k)[k] @ turn.T

    path = tr.ParametricPath(
        lambda g: curve(g) @ turn.T + offset,
        [derivative(k) for k in range(1, 5)],
        (0.0, 2 * np.pi),
        "sphere-cylinder curve (§3.6) on the T3",
    )
    return tr.Task(path, tr.cycloid(PERIOD, 0.0, 2 * np.pi), "frenet")


def solve(t3):
    """(times (K,), PathSolution) of the task, K = 121 samples."""
    the_task = task(t3)
    first = the_task.at(0.0)
    start = ik.approach(t3, first.R, first.p, np.radians(rojas.INITIAL_THETA_DEG), steps=20)
    if not start.converged:
        raise RuntimeError(f"§3.6 task: the approach to its start failed ({start.message})")
    times = np.arange(0.0, PERIOD + STEP / 2, STEP)
    # the Newton steps of the approach may leave whole turns on the angles: start the
    # path from the same configuration with every angle in (−π, π]
    q0 = np.angle(np.exp(1j * start.q))
    return times, ik.solve_path(t3, the_task, times, q0)


def reproduce(t3, out: Path, plt) -> tuple[dict, list, dict]:
    """``e2_task.csv`` and, with matplotlib, ``e2_task.png`` in ``out``."""
    times, sol = solve(t3)
    the_task = task(t3)
    miss = max(
        float(np.abs(end_effector_pose(t3, q)[:3, 3] - the_task.at(t).p).max())
        for t, q in zip(times, sol.q, strict=True)
    )
    converged = bool(np.all(sol.converged))
    with atomic_file(out / "e2_task.csv", "w") as fh:
        fh.write(
            "t,"
            + ",".join(f"{k}{j}" for k in ("q", "qd", "qdd") for j in range(1, 7))
            + ",iterations\n"
        )
        for i, t in enumerate(times):
            values = np.concatenate([sol.q[i], sol.qd[i], sol.qdd[i]])
            fh.write(f"{float(t)!r}," + ",".join(repr(float(x)) for x in values))
            fh.write(f",{int(sol.iterations[i])}\n")
    files = {"e2_task_csv": out / "e2_task.csv"}
    data = {
        "samples": len(times),
        "converged": converged,
        "max_iterations": int(np.max(sol.iterations)),
        "max_position_miss": miss,
        "joint_range_deg": np.degrees(np.ptp(sol.q, axis=0)).tolist(),
    }
    lines = [
        f"§3.6 task (Figs. 3.6.2–3.6.8) on the T3: the sphere–cylinder curve, a = {A} m, "
        f"Frenet–Serret orientation, one cycle in {PERIOD:g} s, IK every {STEP} s: "
        f"{'all' if converged else 'not all'} {len(times)} solves converged, at most "
        f"{data['max_iterations']} iterations, end-effector miss ≤ {miss:.1e} m; joint "
        "ranges " + ", ".join(f"{x:.0f}°" for x in data["joint_range_deg"])
    ]
    if plt is None:
        return data, lines, files
    beta = the_task.law(times)
    fig, axes = plt.subplots(7, 3, figsize=(11, 15), sharex=True)
    rows = [("Fig. 3.6.2: β", (beta.s, beta.s_dot, beta.s_ddot), "rad")]
    rows += [
        (f"Fig. 3.6.{j + 3}: joint {j + 1}", (sol.q[:, j], sol.qd[:, j], sol.qdd[:, j]), "rad")
        for j in range(6)
    ]
    for r, (label, series, unit) in enumerate(rows):
        for c, (values, suffix) in enumerate(zip(series, ("", "/s", "/s²"), strict=True)):
            axes[r, c].plot(times, values, lw=1)
            axes[r, c].set_ylabel(f"[{unit}{suffix}]", fontsize=8)
            axes[r, c].grid(True, alpha=0.3)
        for c, what in enumerate(("", " — rate", " — acceleration")):
            axes[r, c].set_title(label + what, fontsize=9, loc="left")
    for c in range(3):
        axes[-1, c].set_xlabel("t [s]")
    fig.tight_layout()
    files["e2_task_png"] = savefig_atomic(fig, out / "e2_task.png", dpi=80)
    plt.close(fig)
    return data, lines, files
