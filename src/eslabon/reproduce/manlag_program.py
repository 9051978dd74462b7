"""The program MANLAG of Rojas (1987, Appendix) run on an input file, and the T3's task
written as one: what the listing does with a file at each step — the pose (TRAYE), the
inverse kinematics (NLLS), the rates and accelerations (VELAC) and the forces (FZA) —
through eslabon's inverse kinematics and dynamics. The file format itself (its records,
reading and writing) is :mod:`eslabon.model.manlag`."""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from ..dynamics import inverse_dynamics
from ..kinematics import ik
from ..model import Model
from ..model.manlag import ManlagInput, read_manlag, write_manlag
from ..spatial import rotation_from_invariants
from ..zoo.rojas import _ALPHA_DEG, _B, _D, _INERTIA, _MASS, _RHO, INITIAL_THETA_DEG
from .printed_cells import cell_status


def t3_manlag_input():
    """The T3's straight-line task as a MANLAG input file's values
    (:class:`eslabon.model.manlag.ManlagInput`; write it with
    :func:`eslabon.model.manlag.write_manlag`): Table 4.4.1's DH parameters, masses,
    centres of mass and inertias, the initial θ, the pose 2 vect(R) = (1, 1, −1),
    tr(R) = 0 on the path x = 1.33125, z = 1.79875 m (Table 5.4.1), 20 steps of 0.05 s,
    and the 21 knots of β(t) (``trajectory.t3_beta_law("spline")``, with
    EX = 0.5, EY = 1, XO = YO = 0 so that PERIOD's ξ is t)."""
    from ..trajectory import T3_X, T3_Z, t3_beta_law

    pd = np.concatenate(
        [
            [_MASS[j], *_RHO[j], _INERTIA[j][0], 0.0, 0.0, _INERTIA[j][1], 0.0, _INERTIA[j][2]]
            for j in range(6)
        ]
    )
    spline = t3_beta_law("spline").spline
    a_, b_, c_, d_ = spline.c  # x³, x², x, 1 per interval
    end = spline.x[-1]
    # the 21st row: SPLINE evaluates none of AX, BX, CX there; they hold the last knot's
    # cubic terms at x = 0 (rate, half the acceleration)
    ax = np.append(a_, 0.0)
    bx = np.append(b_, spline(end, 2) / 2)
    cx = np.append(c_, spline(end, 1))
    return ManlagInput(
        theta_deg=np.array(INITIAL_THETA_DEG, dtype=float),
        d=np.array(_D),
        b=np.array(_B),
        alpha_deg=np.array(_ALPHA_DEG),
        pd=pd,
        u=np.array([1.0, 1.0, -1.0, 0.0, T3_X, 0.0, T3_Z]),
        v=np.zeros(7),
        a=np.zeros(7),
        af=T3_X,
        cf=T3_Z,
        nrep=20,
        ex=0.5,
        ey=1.0,
        xo=0.0,
        yo=0.0,
        dta=0.05,
        t=0.0,
        ax=ax,
        bx=bx,
        cx=cx,
        xa=np.asarray(spline.x, dtype=float),
        ya=np.append(d_, spline(end)),
        pa=np.zeros(24),
    )


class ManlagRun(NamedTuple):
    """What :func:`run_manlag` returns: the program's output at each step.

    Attributes
    ----------
    t : ndarray (N,)
        Times [s] (T + k·DTA, k = 1 … NREP; the file's T alone when NREP ≤ 0).
    q, qd, qdd : ndarray (N, 6)
        θ [rad], θ̇ [rad/s], θ̈ [rad/s²] (NLLS, VELAC).
    tau : ndarray (N, 6)
        f* [N·m] (FZA), by eslabon's inverse dynamics.
    iterations : ndarray of int (N,)
        Newton–Gauss iterations per step.
    """

    t: np.ndarray
    q: np.ndarray
    qd: np.ndarray
    qdd: np.ndarray
    tau: np.ndarray
    iterations: np.ndarray


def _pose(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """R and p from U: 2 vect(R) = U(1..3), tr(R) = U(4), p = U(5..7) (TRAYE)."""
    lam, lam0 = 0.5 * u[:3], 0.5 * (u[3] - 1.0)
    try:
        R = rotation_from_invariants(lam, lam0, tol=1e-4)
    except ValueError:
        raise ValueError(
            f"U(1..4): expected 2 vect(R) and tr(R) of a rotation ((tr − 1)²/4 + "
            f"‖vect‖² = 1), got {u[:4].tolist()}"
        ) from None
    return R, u[4:7]


def run_manlag(data: ManlagInput, model: Model | None = None, tol: float = 1e-12) -> ManlagRun:
    """Do what the program MANLAG does with a file: at each step the pose, the inverse
    kinematics (NLLS), the rates and accelerations (VELAC) and the forces (FZA).

    With NREP > 0 the steps are t = T + k·DTA (k = 1 … NREP), each from the previous θ,
    on TRAYE's straight path: U = (2 vect(R), tr(R)) from the file with x = AF,
    y = β(t), z = CF; ṗ = (0, β̇, 0), p̈ = (0, β̈, 0), ω = ω̇ = 0. With NREP ≤ 0 one
    solve of the file's U, V, A (ω = V(1..3), ṗ = V(5..7), ω̇ = A(1..3), p̈ = A(5..7)).

    Parameters
    ----------
    data : ManlagInput
    model : Model, optional
        The arm; ``data.model()`` by default.
    tol : float
        Newton–Gauss tolerance (the listing's TOL is 1e-6 in single precision).

    Returns
    -------
    ManlagRun

    Raises
    ------
    ValueError
        U(1..4) not the invariants of a rotation; a step whose inverse kinematics does
        not converge (naming its time); β outside the knots.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.reproduce.manlag_program import run_manlag, t3_manlag_input
    >>> import eslabon as es
    >>> run = run_manlag(t3_manlag_input(), es.zoo.load("cincinnati_t3"))
    >>> round(float(np.degrees(run.q[0, 0])), 5)  # Table 5.4.1, t = 0.05 s: 0.05073
    0.05073
    """
    arm = data.model() if model is None else model
    R, p = _pose(np.asarray(data.u, dtype=float))
    if data.nrep > 0:
        times = data.t + data.dta * np.arange(1, data.nrep + 1)
        y, yd, ydd = (data.beta(times, nu) for nu in range(3))
        zero = np.zeros(3)
        steps: list[tuple] = [
            (
                t,
                np.array([data.af, y[k], data.cf]),
                zero,
                np.array([0.0, yd[k], 0.0]),
                zero,
                np.array([0.0, ydd[k], 0.0]),
            )
            for k, t in enumerate(times)
        ]
    else:
        v, a = np.asarray(data.v, dtype=float), np.asarray(data.a, dtype=float)
        steps = [(data.t, p, v[:3], v[4:7], a[:3], a[4:7])]
    q = np.radians(np.asarray(data.theta_deg, dtype=float))
    out: dict[str, list] = {k: [] for k in ("t", "q", "qd", "qdd", "iterations")}
    for t, point, omega, p_dot, omega_dot, p_ddot in steps:
        sol = ik.newton_gauss(arm, R, point, q, tol=tol)
        if not sol.converged:
            raise ValueError(f"step t = {t:g} s: the inverse kinematics did not converge")
        qd = ik.rates(arm, sol, omega, p_dot)
        qdd = ik.accelerations(arm, sol, qd, omega_dot, p_ddot)
        q = sol.q
        for key, value in zip(out, (t, q, qd, qdd, sol.iterations), strict=True):
            out[key].append(value)
    qs, qds, qdds = (np.array(out[k]) for k in ("q", "qd", "qdd"))
    return ManlagRun(
        np.array(out["t"], dtype=float),
        qs,
        qds,
        qdds,
        inverse_dynamics(arm, qs, qds, qdds),
        np.array(out["iterations"], dtype=int),
    )


def report(t3: Model, out) -> tuple[dict, list, dict]:
    """The T3's task as a MANLAG input file (Rojas (1987), Appendix): written to
    ``out/t3_task.manlag``, read back, run, and its steps t = 0.05 s and 0.45 s set beside
    Tables 5.4.1 and 5.6.2 cell by cell (:func:`.printed_cells.cell_status`).

    Returns
    -------
    data : dict
        The file, the round trip's largest difference, the iterations and each table's
        cell statuses.
    lines : list of str
        The report.
    files : dict
        ``{"manlag": path}``.
    """
    from ..zoo.rojas_tables import JOINT_TABLES

    path = Path(out) / "t3_task.manlag"
    written = t3_manlag_input()
    write_manlag(written, path)
    back = read_manlag(path)
    round_trip = max(
        float(np.max(np.abs(np.asarray(getattr(back, f), dtype=float) - getattr(written, f))))
        for f in ("theta_deg", "d", "b", "alpha_deg", "pd", "u", "xa", "ya")
    )
    run = run_manlag(back, t3)
    data: dict = {"file": str(path), "round_trip": round_trip, "tables": {}}
    lines = [
        "Appendix, MANLAG: the T3 task written as the program's input file "
        f"({path.name}, 6F10.5 records, PD(60), 21 knots), read back (largest change "
        f"{round_trip:.1e}) and run: {len(run.t)} steps, Newton–Gauss "
        f"iterations {int(run.iterations.min())}–{int(run.iterations.max())}"
    ]
    for table in ("5.4.1", "5.6.2"):
        row = JOINT_TABLES[table]
        k = int(np.argmin(np.abs(run.t - row["t"])))
        computed = {
            "theta": np.degrees(run.q[k]),
            "thd": run.qd[k],
            "thdd": run.qdd[k],
            "total": run.tau[k],
        }
        status = {
            key: [cell_status(v, p, key) for v, p in zip(computed[key], row[key], strict=True)]
            for key in computed
        }
        cells = [s for column in status.values() for s in column]
        data["tables"][table] = {"t": float(run.t[k]), "status": status}
        lines.append(
            f"  step t = {run.t[k]:.2f} s against Table {table} (θ, θ̇, θ̈, f* total): "
            f"{sum(s != 'DIFF' for s in cells)} of {len(cells)} cells ok or noise"
        )
        if "DIFF" in cells:
            y = float(back.beta(run.t[k]))
            symbol = {"theta": "θ", "thd": "θ̇", "thdd": "θ̈", "total": "f*"}
            differ = [f"{symbol[key]}{j + 1}" for key, col in status.items() for j in range(6)]
            differ = [d for d, c in zip(differ, cells, strict=True) if c == "DIFF"]
            lines.append(
                f"    {', '.join(differ)} differ: the table prints y = {row['y']:g} m, "
                f"the file's spline gives β = {y:.6f} m; those rates are proportional to y "
                "there (with the printed y every cell is met)"
            )
    return data, lines, {"manlag": path}
