"""``eslabon reproduce rojas``: seed 000's Cincinnati T3 tables, task and 7R benchmark.

Printed values are those of Rojas Salgado (1987), Tables 5.4.1 (§5.4, t = 0.05 s) and
5.6.2 (§5.6, t = 0.45 s). The thesis's program ran in single precision and prints 5
significant digits. A cell agrees ("ok") when θ is within 1e-3°, a rate or acceleration
agrees to 4 significant digits, a torque is within one unit of its 5th digit; cells
printed at noise level (single-precision round-off, as the thesis says of joint 6 in
§4.4) agree when ours are at noise level too ("noise"). Anything else is marked "DIFF".
No OCR error was found in these two tables (those of Table 5.6.3 are listed in
:data:`eslabon.zoo.rojas_tables.OCR_CELLS`).

The tables are solved from the *printed* end-effector data (y, ẏ and the spline's
ÿ = 1.95774). The 1 s task (Figs. 4.4.3–4.4.8, and Fig. 5.4.2 in
:mod:`.t3_linear_control`) uses the thesis's β(t), synthesized with splines on 21 knots
(§4.4, Angeles 1983): the knots' values are in an input file the thesis does not print,
and the spline identified from the printed β, β̇, β̈ is the one taking the cycloid's rate
at each knot (:func:`eslabon.trajectory.t3_beta_law`, :func:`beta_spline_candidates`).
The exact cycloid β(t) = t − sin(2πt)/(2π), which the printed y and ẏ of both tables
also follow to 5 digits, is ``t3_straight_line_task(beta="cycloid")``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import gravity_torques, inverse_dynamics, zoo
from .._files import atomic_file, savefig_atomic, write_text_atomic
from ..dynamics import lagrange, opcount
from ..kinematics import ik
from ..sim import Trajectory
from ..trajectory import T3_BETA_KNOTS, T3_ROTATION, T3_X, T3_Z, t3_straight_line_task
from ..zoo import rojas
from ..zoo.rojas_tables import JOINT_TABLES as TABLES
from . import (
    e2_task,
    lagrange_term_counts,
    manlag_program,
    mechanism_mobility,
    seven_r_loop,
    t3_rate_reading,
    t3_uvw_terms,
)
from .printed_cells import NOISE, cell_status  # noqa: F401  (NOISE: kept importable here)


def _table(t3, name, q0):
    row = TABLES[name]
    sol = ik.newton_gauss(t3, T3_ROTATION, [T3_X, row["y"], T3_Z], q0)
    if not sol.converged:
        raise RuntimeError(f"Table {name}: {sol.message}")
    qd = ik.rates(t3, sol, np.zeros(3), [0.0, row["yd"], 0.0])
    qdd = ik.accelerations(t3, sol, qd, np.zeros(3), [0.0, row["ydd"], 0.0])
    computed = {
        "theta": np.degrees(sol.q),
        "thd": qd,
        "thdd": qdd,
        "gravity": gravity_torques(t3, sol.q),
        "total": inverse_dynamics(t3, sol.q, qd, qdd),
        "total_lagrange": lagrange.inverse_dynamics(t3, sol.q, qd, qdd),
    }
    entry = {"t": row["t"], "iterations": sol.iterations, "columns": {}}
    lines = [
        f"Table {name}  t = {row['t']} s: IK in {sol.iterations} iterations "
        f"(‖f‖∞ = {sol.residual:.1e}); θ in degrees, rates in rad/s, torques in N·m"
    ]
    for key, label in (
        ("theta", "θ"),
        ("thd", "θ̇"),
        ("thdd", "θ̈"),
        ("gravity", "f* gravity"),
        ("total", "f* total (Newton–Euler)"),
        ("total_lagrange", "f* total (Lagrange)"),
    ):
        printed = row["total" if key == "total_lagrange" else key]
        status = [cell_status(v, p, key) for v, p in zip(computed[key], printed, strict=True)]
        entry["columns"][key] = {
            "computed": computed[key].tolist(),
            "printed": printed,
            "status": status,
        }
        lines.append(f"  {label}")
        lines.append("    computed " + " ".join(f"{v:>12.5g}" for v in computed[key]))
        lines.append("    printed  " + " ".join(f"{v:>12.5g}" for v in printed))
        lines.append("             " + " ".join(f"{s:>12}" for s in status))
    return sol, entry, lines


def _task(t3, out):
    times = np.round(np.arange(0.0, 1.0 + 1e-9, 0.05), 10)
    path = ik.solve_path(t3, t3_straight_line_task(), times, np.radians(rojas.INITIAL_THETA_DEG))
    if not path.converged.all():
        raise RuntimeError(f"straight-line task: {path.message}")
    tau = inverse_dynamics(t3, path.q, path.qd, path.qdd)
    traj = Trajectory(times, path.q, path.qd, path.qdd, tau, t3.name)
    files = {"task_csv": traj.save(out / "t3_task.csv"), "task_npz": traj.save(out / "t3_task.npz")}
    cyc = ik.solve_path(
        t3, t3_straight_line_task(beta="cycloid"), times, np.radians(rojas.INITIAL_THETA_DEG)
    )
    if not cyc.converged.all():
        raise RuntimeError(f"straight-line task, cycloid β: {cyc.message}")
    tau_cyc = inverse_dynamics(t3, cyc.q, cyc.qd, cyc.qdd)
    gap = {
        "qdd": np.abs(path.qdd - cyc.qdd).max(0).tolist(),
        "tau": np.abs(tau - tau_cyc).max(0).tolist(),
    }
    lines = [
        f"Straight-line task (§4.4): β(t) the thesis's 21-knot spline (Fig. 4.4.2); "
        f"21 samples, 0–1 s; IK iterations per sample {path.iterations.tolist()}",
        "  peak |τ| per joint [N·m]: " + " ".join(f"{v:.5g}" for v in np.abs(tau).max(0)),
        '  with the cycloid β instead (beta="cycloid"): max |Δθ̈| [rad/s²] '
        + " ".join(f"{v:.2g}" for v in gap["qdd"])
        + "; max |Δτ| [N·m] "
        + " ".join(f"{v:.2g}" for v in gap["tau"]),
        f"  joint 6: |θ − 90°| ≤ {np.abs(np.degrees(path.q[:, 5]) - 90).max():.1e}°, "
        f"|τ₆| ≤ {np.abs(tau[:, 5]).max():.1e} N·m (the thesis: stays at π/2, torque noise)",
    ]
    from .t3_linear_control import joint_panel_files

    title = "Cincinnati T3, straight-line task: joint {} (cf. Figs. 4.4.3–4.4.8)"
    files.update(joint_panel_files(traj, out, "t3_joint", title, lines, key="joint"))
    summary = {
        "beta": "spline",
        "iterations": path.iterations.tolist(),
        "peak_abs_tau": np.abs(tau).max(0).tolist(),
        "cycloid_gap": gap,
    }
    return summary, lines, files, path


#: starts for the (3.3.1.12) experiment: Table 4.4.1's configuration perturbed by
#: uniform ±0.8 rad (numpy's default_rng(0)), the first six draws
LEAST_CONDITION_STARTS = 6


def _least_condition(t3, out):
    """(3.3.1.12): the approach to the task's first pose from perturbed starts, and from
    the start of least κ(J) found near each (:func:`ik.least_condition_start`)."""
    first = t3_straight_line_task().at(0.0)
    rng = np.random.default_rng(0)
    base = np.radians(rojas.INITIAL_THETA_DEG)
    rows = []
    for _ in range(LEAST_CONDITION_STARTS):
        q0 = base + rng.uniform(-0.8, 0.8, 6)
        found = ik.least_condition_start(t3, q0)
        given = ik.approach(t3, first.R, first.p, q0, steps=5)
        least = ik.approach(t3, first.R, first.p, found.q, steps=5)
        rows.append(
            {
                "condition_given": found.condition_given,
                "condition_least": found.condition,
                "given_converged": given.converged,
                "given_iterations": given.iterations,
                "least_converged": least.converged,
                "least_iterations": least.iterations,
            }
        )
    keys = list(rows[0])
    with atomic_file(out / "least_condition_starts.csv", "w") as fh:
        fh.write(",".join(keys) + "\n")
        for r in rows:
            fh.write(",".join(str(r[k]) for k in keys) + "\n")
    lines = [
        "(3.3.1.12) start of least κ(J): approach (5 poses) to the task's first pose from "
        f"{LEAST_CONDITION_STARTS} starts, Table 4.4.1's θ ± 0.8 rad"
    ]
    for r in rows:
        lines.append(
            f"  κ {r['condition_given']:8.1f} → {r['condition_least']:5.2f};  from the given "
            f"start: {'converged' if r['given_converged'] else 'failed':<9} "
            f"{r['given_iterations']:3d} it.;  from the least-κ start: "
            f"{'converged' if r['least_converged'] else 'failed':<9} {r['least_iterations']:3d} it."
        )
    return rows, lines, {"least_condition_csv": out / "least_condition_starts.csv"}


#: ÿ = β̈ printed at t = 0.05 s and 0.45 s (Tables 5.4.1 and 5.6.2)
PRINTED_BETA_DDOT = 1.95774

#: the 21 knots t = 0, 0.05, …, 1 s of §4.4's β(t) spline (the program's XA, YA, AX, BX,
#: CX are arrays of 21 read from its input file; its PERIOD calls SPLINE(21, 20, …))
BETA_KNOTS = T3_BETA_KNOTS

#: the candidate that reproduces the printed β̈ (and β, β̇) of Tables 5.4.1 and 5.6.2
BETA_SPLINE_IDENTIFIED = "rates at the knots"

#: each reading of §4.4's spline tried, with why it is a faithful one
BETA_SPLINE_READINGS = {
    "natural": "through the 21 cycloid values, β̈ = 0 at both ends",
    "clamped": "through the 21 cycloid values, β̇ = 0 at both ends",
    "rest": "through the 21 cycloid values, β̇ = β̈ = 0 at both ends (2 added breakpoints)",
    "periodic β − t": "the listing's SPLINE returns C(1), 2B(1) at the last knot: periodic rate",
    "rest, values at 0.05 and 0.95 s free": "all six §4.4 end conditions, 23 coefficients",
    "0 → 1 → 0 over 2 s, periodic": "PERIOD's ξ = (t − XO)/(2·EX) with EX = T = 1 s",
    BETA_SPLINE_IDENTIFIED: "the cycloid's β̇ at the 21 knots, β(0) = β̈(0) = 0",
}


def knot_rate_spline(t_knots, rates, start=0.0):
    """The C² cubic spline s(t) whose rate at every knot is given, with s(t₀) = ``start``
    and s̈(t₀) = 0: the ``spline`` of :func:`eslabon.trajectory.knot_rate_law` (its
    docstring has the equations). For the cycloid's rates at Rojas Salgado (1987) §4.4's
    21 knots it is β(t) of Tables 5.4.1 and 5.6.2.

    Parameters
    ----------
    t_knots : array_like (N + 1,)
        Strictly increasing finite times [s], N ≥ 1.
    rates : array_like (N + 1,)
        ṡ(t_k) [units of s per s].
    start : float
        s(t₀).

    Returns
    -------
    scipy.interpolate.CubicHermiteSpline
        ``spline(t, nu)`` gives s, ṡ, s̈ for nu = 0, 1, 2 inside [t₀, t_N].

    Raises
    ------
    ValueError
        Knots or rates not finite 1-D arrays of one length ≥ 2, or knots not strictly
        increasing.
    """
    from ..trajectory import knot_rate_law

    return knot_rate_law(t_knots, rates, start).spline


def t3_beta_spline():
    """β(t) [m] of the T3 task as Tables 5.4.1 and 5.6.2 print it (Rojas Salgado (1987),
    §4.4): the C² cubic spline on the 21 knots t = 0, 0.05, …, 1 s taking the cycloid's
    rate β̇ = 1 − cos 2πt at every knot, with β(0) = β̈(0) = 0. It also meets β(1) = 1 m
    and β̇(1) = β̈(1) = 0, the six conditions §4.4 states, which no cubic spline through
    the 21 cycloid values with breakpoints only there can (23 coefficients, 25
    conditions). ``t3_beta_spline()(t, 2)`` is β̈ [m/s²]; it rounds to the printed
    1.95774 at t = 0.05 and 0.45 s."""
    from ..trajectory import t3_beta_law

    return t3_beta_law("spline").spline


def beta_spline_candidates() -> dict:
    """β̈(0.05) and β̈(0.45) of each reading of §4.4's 21-knot β(t) spline tried
    (:data:`BETA_SPLINE_READINGS`), and the cycloid's own β̈.

    The knots are t = 0, 0.05, …, 1 s; the data are the cycloid β(t) = t − sin 2πt / 2π
    (or its rate), which the printed β, β̇ of Tables 5.4.1 and 5.6.2 follow. For the end
    conditions of :func:`eslabon.trajectory.spline_law` the knot values are also tried
    rounded to the printed 5 decimals and to single precision (suffixed labels).
    """
    from scipy.interpolate import CubicSpline

    from ..trajectory import spline_law

    t = BETA_KNOTS
    beta = t - np.sin(2 * np.pi * t) / (2 * np.pi)
    at = np.array([0.05, 0.45])
    out = {"cycloid": (2 * np.pi * np.sin(2 * np.pi * at)).tolist()}
    knots = {
        "": beta,
        ", knots to 5 decimals": np.round(beta, 5),
        ", knots in single precision": beta.astype(np.float32).astype(float),
    }
    for label, values in knots.items():
        for ends in ("natural", "clamped", "rest"):
            out[f"{ends}{label}"] = spline_law(t, values, ends=ends)(at).s_ddot.tolist()
    periodic = beta - t
    periodic[-1] = periodic[0]
    out["periodic β − t"] = CubicSpline(t, periodic, bc_type="periodic")(at, 2).tolist()
    # rest to rest through the cycloid except at the 2nd and 20th knots, whose values
    # make β̈(0) = β̈(1) = 0 on the clamped spline (linear in the values: a 2×2 solve)
    free = [1, t.size - 2]
    base = beta.copy()
    base[free] = 0.0

    def end_acc(y):
        return CubicSpline(t, y, bc_type="clamped")([0.0, 1.0], 2)

    columns = [end_acc(base + np.eye(t.size)[i]) - end_acc(base) for i in free]
    base[free] = np.linalg.solve(np.array(columns).T, -end_acc(base))
    key = "rest, values at 0.05 and 0.95 s free"
    out[key] = CubicSpline(t, base, bc_type="clamped")(at, 2).tolist()
    # PERIOD's ξ = (t − XO)/(2·EX) read as a 2 s period: out 0 → 1 and back
    t2 = np.linspace(0.0, 2.0, 21)
    there_back = np.where(t2 <= 1.0, t2, 2.0 - t2)
    y2 = there_back - np.sin(2 * np.pi * there_back) / (2 * np.pi)
    y2[-1] = y2[0]
    out["0 → 1 → 0 over 2 s, periodic"] = CubicSpline(t2, y2, bc_type="periodic")(at, 2).tolist()
    out[BETA_SPLINE_IDENTIFIED] = t3_beta_spline()(at, 2).tolist()
    return out


def _beta_spline(out):
    """The 21-knot β(t) spline of §4.4 sought among faithful readings; the identified
    spline's β̈ plotted with the printed points, and every candidate's miss."""
    candidates = beta_spline_candidates()
    misses = {k: max(abs(x - PRINTED_BETA_DDOT) for x in v) for k, v in candidates.items()}
    closest = min((k for k in candidates if k != "cycloid"), key=misses.get)
    at = np.array([0.05, 0.45])
    spline = t3_beta_spline()
    found = {
        name: spline(at, nu).tolist() for nu, name in enumerate(("beta", "beta_dot", "beta_ddot"))
    }
    lines = [
        f"β(t) spline (§4.4): printed β̈(0.05) = β̈(0.45) = {PRINTED_BETA_DDOT} "
        "(Tables 5.4.1, 5.6.2); 21-knot cubic splines (t = 0, 0.05, …, 1 s) give "
        "(t = 0.05, 0.45):"
    ]
    for name, (a, b) in candidates.items():
        why = BETA_SPLINE_READINGS.get(name.split(", knots")[0], "the exact law")
        lines.append(f"  {name:<38} {a:.6f} {b:.6f}  {why}")
    rest = float(np.abs([spline([0.0, 1.0], nu) for nu in (1, 2)]).max())
    lines.append(
        f"  identified: {BETA_SPLINE_IDENTIFIED} (β̈ {found['beta_ddot'][0]:.6f}, "
        f"{found['beta_ddot'][1]:.6f}; β {found['beta'][0]:.5f}, {found['beta'][1]:.5f}; "
        f"β̇ {found['beta_dot'][0]:.5f}, {found['beta_dot'][1]:.5f}, as printed); "
        f"β(1) = {float(spline(1.0)):.5f}, |β̇|, |β̈| ≤ {rest:.0e} at both ends"
    )
    data = {
        "candidates": candidates,
        "closest": closest,
        "closest_miss": misses[closest],
        "identified": BETA_SPLINE_IDENTIFIED,
        "identified_at": {"t": at.tolist(), **found},
    }
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return data, lines, {}
    tt = np.linspace(0.0, 1.0, 1001)
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.plot(tt, spline(tt, 2), "-", label=f"identified: {BETA_SPLINE_IDENTIFIED}")
    left.plot(tt, 2 * np.pi * np.sin(2 * np.pi * tt), "--", label="cycloid")
    left.plot(BETA_KNOTS, spline(BETA_KNOTS, 2), ".", color="C0")
    left.plot(at, [PRINTED_BETA_DDOT] * 2, "rs", mfc="none", label="printed (5.4.1, 5.6.2)")
    left.set(xlabel="t [s]", ylabel="β̈ [m/s²]", title="β̈ of the T3 task's 21-knot spline")
    left.grid(True, alpha=0.3)
    left.legend(fontsize=8)
    names = [k for k in candidates if ", knots" not in k]
    y = np.arange(len(names))
    right.barh(y, [max(misses[k], 1e-8) for k in names], color="C1")
    right.axvline(5e-6, color="r", lw=1, label="half a printed unit (5e-6)")
    right.set_xscale("log")
    right.set_yticks(y, names, fontsize=8)
    right.set(
        xlabel="max |β̈ − 1.95774| at t = 0.05, 0.45 s [m/s²]",
        title="each reading tried against the printed value",
    )
    right.legend(fontsize=8)
    fig.tight_layout()
    path = savefig_atomic(fig, out / "beta_spline.png", dpi=90)
    plt.close(fig)
    return data, lines, {"beta_spline_png": path}


def reproduce(out) -> tuple[dict, list]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    t3 = zoo.load("cincinnati_t3")
    data, files = {}, {}
    lines = [
        "Seed 000, Rojas Salgado (1987): Cincinnati Milacron T3 (Rojas DH naming; "
        "gravity +9.81 along +Z₁ as the thesis's program and tables; its §4.3 says −9.81)"
    ]
    sol05, data["table_5_4_1"], more = _table(t3, "5.4.1", np.radians(rojas.INITIAL_THETA_DEG))
    lines += more
    sol45, data["table_5_6_2"], more = _table(t3, "5.6.2", sol05.q)
    lines += more
    from .t3_linear_control import (
        figure_5_4_2,
        gain_norms,
        perturbation_block,
        table_5_4_2,
        table_5_6_3,
        table_state,
    )

    q_start = np.radians(rojas.INITIAL_THETA_DEG)
    data["table_5_4_1_perturbation"], more = perturbation_block(t3, q_start)
    lines += more
    data["table_5_4_2"], more = table_5_4_2(t3, q_start)
    lines += more
    data["figure_5_4_2"], more, f = figure_5_4_2(t3, q_start, out)
    lines += more
    files.update(f)
    data["table_5_6_3"], more = table_5_6_3(t3, table_state(t3, "5.6.2", sol05.q))
    lines += more
    data["gain_norms"], more = gain_norms(t3, table_state(t3, "5.6.2", sol05.q))
    lines += more
    data["uvw_terms"], more = t3_uvw_terms.uvw_terms_report(t3, q_start)
    lines += more
    data["task"], more, f, path = _task(t3, out)
    lines += more
    files.update(f)
    data["rate_reading"], more = t3_rate_reading.rate_reading_report(t3, path)
    lines += more
    from .t3_linear_control import closed_loop

    data["closed_loop"], more, f = closed_loop(t3, path, out)
    lines += more
    files.update(f)
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        plt = None
    data["e2_task"], more, f = e2_task.reproduce(t3, out, plt)
    lines += more
    files.update(f)
    data["beta_spline"], more, f = _beta_spline(out)
    lines += more
    files.update(f)
    data["least_condition"], more, f = _least_condition(t3, out)
    lines += more
    files.update(f)
    data["seven_r"], more, f = seven_r_loop.sweep(out)
    lines += more
    files.update(f)
    data["seven_r_round_off"], more, f = seven_r_loop.round_off(out)
    lines += more
    files.update(f)
    lines.append("Operation counts, n = 6 (multiplications / additions)")
    data["opcount"] = [list(r) for r in opcount.table(6)]
    lines += [f"  {name:<44} {m:>6} {a:>6}   {origin}" for name, m, a, origin in opcount.table(6)]
    ratio = opcount.efficiency(6)["lagrange/rnea"]
    data["lagrange_over_newton_euler"] = ratio
    lines.append(
        f"  §4.4's claim, counted on eslabon's own code: the Lagrange model's τ costs "
        f"{ratio:.1f}× Newton–Euler's multiplications (the thesis's programs: 1896 / 852 = 2.2×)"
    )
    data["lagrange_term_counts"], more = lagrange_term_counts.report(6)
    lines += more
    data["mobility"], more = mechanism_mobility.report()
    lines += more
    data["manlag"], more, f = manlag_program.report(t3, out)
    lines += more
    files.update(f)
    data["files"] = {k: str(v) for k, v in files.items()}
    write_text_atomic(out / "summary.json", json.dumps(data, indent=2))
    lines.append(
        "files: " + ", ".join(str(v) for v in files.values()) + f", {out / 'summary.json'}"
    )
    return data, lines
