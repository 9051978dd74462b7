"""Chapter 5 of seed 000 for ``eslabon reproduce rojas``: Table 5.4.1's perturbation block,
Fig. 5.4.2 and Tables 5.4.2, 5.6.3 and 5.6.4.

Printed values beside exact ones (:mod:`eslabon.zoo.rojas_tables`). Cell marks: "ok"
(4 significant digits), "noise" (printed at single-precision noise level, ours too),
"OCR" (a cell misprinted in the OCR text, listed with its check in
:data:`eslabon.zoo.rojas_tables.OCR_CELLS`; the exact value is shown), "WRONG" (the
thesis's W (5.3.18) is wrong in columns 1–4, so its K_p and block (a) are, and rows 1
and 5 of Table 5.4.2's W δθ), "DIFF".
"""

from __future__ import annotations

import numpy as np

from .. import control as ctl
from .. import inverse_dynamics
from .._files import atomic_file
from ..kinematics import ik
from ..sim import Trajectory
from ..trajectory import T3_ROTATION, t3_path, t3_straight_line_task
from ..zoo.rojas_tables import (
    EXACT_EIGENVALUES_T045,
    JOINT_TABLES,
    OCR_CELLS,
    PERTURBATION,
    PERTURBATION_Z_WAVE,
    TABLE_5_4_2,
    TABLE_5_6_3,
    TABLE_5_6_4,
    WRONG_BLOCKS,
)

PSI, OMEGA = np.sqrt(2) / 2, 1.0


def four_digit_status(value, printed, noise) -> str:
    if abs(printed) < noise:
        return "noise" if abs(value) < noise else "DIFF"
    return (
        "ok" if abs(value - printed) <= 10.0 ** (np.floor(np.log10(abs(printed))) - 3) else "DIFF"
    )


def table_state(t3, table, q0, z_wave=0.0):
    """θ, θ̇, θ̈ from a table's printed end-effector data (on the wavy path if z_wave)."""
    row = JOINT_TABLES[table]
    d = t3_path(z_wave).derivatives(row["y"], 2)
    p, pd, pdd = d[0], d[1] * row["yd"], d[2] * row["yd"] ** 2 + d[1] * row["ydd"]
    sol = ik.newton_gauss(t3, T3_ROTATION, p, q0)
    if not sol.converged:
        raise RuntimeError(f"Table {table}: {sol.message}")
    qd = ik.rates(t3, sol, np.zeros(3), pd)
    return sol.q, qd, ik.accelerations(t3, sol, qd, np.zeros(3), pdd)


def _vector_rows(label, computed, printed, noise=1e-3, note="", thesis_wrong=False):
    """Rows of exact, printed and status; ``thesis_wrong`` (bool, or one per row) turns
    a "DIFF" into "WRONG" where the thesis's own value is known to be wrong."""
    status = [four_digit_status(x, p, noise) for x, p in zip(computed, printed, strict=True)]
    wrong = np.broadcast_to(np.asarray(thesis_wrong, dtype=bool), len(status))
    status = ["WRONG" if s == "DIFF" and w else s for s, w in zip(status, wrong, strict=True)]
    lines = [
        f"  {label}{note}",
        "    exact    " + " ".join(f"{v:>12.5g}" for v in computed),
        "    printed  " + " ".join(f"{v:>12.5g}" for v in printed),
        "             " + " ".join(f"{s:>12}" for s in status),
    ]
    return {
        "computed": list(map(float, computed)),
        "printed": list(printed),
        "status": status,
    }, lines


def joint_panel_files(traj, out, stem, title, lines, key=None, **options) -> dict:
    """One four-panel PNG per joint of the T3 (``{stem}{j}.png``, ``title`` formatted with
    the joint's number; ``options`` to :func:`eslabon.viz.plot_joint_panels`), by file key
    ``{key}{j}_png`` (``key`` defaults to ``stem``); without matplotlib none, and a line in
    ``lines`` says why."""
    files = {}
    try:
        from ..viz import plot_joint_panels

        for j in range(traj.q.shape[1]):
            path = out / f"{stem}{j + 1}.png"
            plot_joint_panels(traj, j, path=path, title=title.format(j + 1), **options)
            files[f"{key or stem}{j + 1}_png"] = path
    except ValueError as exc:  # matplotlib missing: the numbers and data are still written
        lines.append(f"  (no plots: {exc})")
    return files


def perturbation_block(t3, q_initial):
    """Table 5.4.1's second block: perturbed minus nominal θ, θ̇, θ̈ and f* at t = 0.05 s
    for the path z + 0.03 sin 2πβ (§5.4)."""
    nominal = table_state(t3, "5.4.1", q_initial)
    perturbed = table_state(t3, "5.4.1", q_initial, PERTURBATION_Z_WAVE)
    f = [inverse_dynamics(t3, *state) for state in (nominal, perturbed)]
    data, lines = {}, ["Table 5.4.1, perturbation block  δ = perturbed − nominal at t = 0.05 s"]
    rows = [
        ("dq", "δθ [rad]", perturbed[0] - nominal[0]),
        ("dqd", "δθ̇ [rad/s]", perturbed[1] - nominal[1]),
        ("dqdd", "δθ̈ [rad/s²]", perturbed[2] - nominal[2]),
        ("df", "δf* [N·m]", f[1] - f[0]),
    ]
    for key, label, value in rows:
        data[key], more = _vector_rows(label, value, PERTURBATION[key], noise=1e-4)
        if key == "dq":  # a difference of single-precision angles: to about 1e-6 rad
            data[key]["status"] = [
                "ok" if st == "DIFF" and abs(v - p_) <= 1.5e-6 else st
                for st, v, p_ in zip(data[key]["status"], value, PERTURBATION[key], strict=True)
            ]
            more[0] += (
                " (the thesis's is a difference of single-precision angles near 1.6 rad:"
                " ok to 1.5e-6 rad)"
            )
            more[-1] = "             " + " ".join(f"{st:>12}" for st in data[key]["status"])
        lines += more
    return data, lines


def figure_5_4_2(t3, q_initial, out):
    """Fig. 5.4.2: each joint's θ, θ̇, θ̈ and moment over 1 s on the nominal and the
    perturbed task (z + 0.03 sin 2πβ), 101 samples, β(t) the thesis's 21-knot spline
    (§5.4: "as described in the example of §4.4"); the thesis notes that joints 1, 5 and
    6 have identical graphs. Returns (data, lines, files)."""
    times = np.linspace(0.0, 1.0, 101)
    runs = {}
    for name, wave in (("nominal", 0.0), ("perturbed", PERTURBATION_Z_WAVE)):
        path = ik.solve_path(t3, t3_straight_line_task(wave), times, q_initial)
        if not path.converged.all():
            raise RuntimeError(f"{name} task: {path.message}")
        tau = inverse_dynamics(t3, path.q, path.qd, path.qdd)
        runs[name] = Trajectory(times, path.q, path.qd, path.qdd, tau, t3.name)
    nom, per = runs["nominal"], runs["perturbed"]
    gaps = {
        k: np.abs(getattr(per, k) - getattr(nom, k)).max(axis=0) for k in ("q", "qd", "qdd", "tau")
    }
    lines = [
        "Fig. 5.4.2  nominal and perturbed motions over 1 s (β(t) the 21-knot spline of §4.4):"
        " max |perturbed − nominal| per joint"
    ]
    for key, label in (
        ("q", "θ [rad]"),
        ("qd", "θ̇ [rad/s]"),
        ("qdd", "θ̈ [rad/s²]"),
        ("tau", "f* [N·m]"),
    ):
        lines.append(f"  {label:<12}" + " ".join(f"{v:>12.4g}" for v in gaps[key]))
    same = max(float(gaps[k][[0, 4, 5]].max()) for k in ("q", "qd", "qdd"))
    lines.append(
        f"  joints 1, 5, 6 move identically on both paths (the thesis: identical graphs), "
        f"largest gap {same:.1e}; their moments: joints 5, 6 too "
        f"({max(gaps['tau'][4], gaps['tau'][5]):.1e} N·m), joint 1 not ({gaps['tau'][0]:.4g} "
        "N·m: the other joints' motion changes the inertia it turns, as Table 5.4.1's "
        "δf*₁ = 2.53 shows)"
    )
    files = joint_panel_files(
        nom,
        out,
        "fig_5_4_2_joint",
        "Cincinnati T3, joint {}: nominal and perturbed (cf. Fig. 5.4.2)",
        lines,
        compare=per,
        labels=("nominal", "perturbed z + 0.03 sin 2πβ"),
    )
    data = {k: v.tolist() for k, v in gaps.items()} | {"joints_1_5_6_largest_gap": same}
    return data, lines, files


def table_5_4_2(t3, q_initial):
    """Nominal and perturbed (z + 0.03 sin 2πβ) states at t = 0.05 s and the linear terms.

    W δθ takes Table 5.4.1's printed δθ, as the thesis did (the exact δθ differs from it
    in the 3rd digit of rows 2–4, a difference of single-precision angles), and is
    compared to 4 digits in every row: the exact W meets rows 2–4 and 6 and misses rows
    1 and 5, the thesis's W (5.3.18) errors (its formula as written with the appendix's
    DERAC meets all six: :func:`.t3_uvw_terms.uvw_terms_report`). Only those rows of W δθ
    and of the residual are marked "WRONG".
    """
    nominal = table_state(t3, "5.4.1", q_initial)
    perturbed = table_state(t3, "5.4.1", q_initial, PERTURBATION_Z_WAVE)
    check = ctl.perturbation_check(t3, nominal, perturbed)
    lin = ctl.linearize(t3, *nominal)
    data, lines = (
        {},
        [
            "Table 5.4.2  t = 0.05 s, perturbed path z + 0.03 sin(2πβ): linear "
            "prediction δf* = Wδθ + Vδθ̇ + Uδθ̈ against the true δf*"
        ],
    )
    data["W_dq"], more = _vector_rows(
        "W δθ",
        lin.W @ PERTURBATION["dq"],
        TABLE_5_4_2["W_dq"],
        noise=0.0,
        note=" (with the printed δθ; rows 1 and 5 differ: the thesis's W (5.3.18) is wrong)",
        thesis_wrong=True,
    )
    data["W_dq"]["with_exact_dq"] = check.W_dq.tolist()
    lines += more
    w_wrong = [s == "WRONG" for s in data["W_dq"]["status"]]
    rows = [
        (
            "V_dqd",
            "V δθ̇",
            lin.V @ PERTURBATION["dqd"],
            " (with the printed δθ̇, whose noise entries the thesis used)",
            False,
        ),
        ("U_dqdd", "U δθ̈", check.U_dqdd, "", False),
        (
            "residual",
            "δf*(lin) − δf(true)",
            check.residual,
            " (WRONG: the rows of the thesis's wrong W δθ; the other rows differ by under"
            " 3 units of single precision's last place at |f*| ≈ 2.1e3 N·m, 2.4e-4 N·m)",
            w_wrong,
        ),
    ]
    for key, label, value, note, wrong in rows:
        data[key], more = _vector_rows(
            label, value, TABLE_5_4_2[key], note=note, thesis_wrong=wrong
        )
        lines += more
    data["max_abs_residual"] = float(np.abs(check.residual).max())
    lines.append(f"  max |residual| = {data['max_abs_residual']:.3g} N·m")
    return data, lines


def _matrix_status(block, value, printed):
    noise = 1e-4 * np.abs(printed).max()
    out = np.empty(printed.shape, dtype=object)
    for (i, j), p in np.ndenumerate(printed):
        status = four_digit_status(value[i, j], p, noise)
        if (block, i, j) in OCR_CELLS:
            status = "OCR"
        elif status == "DIFF" and block in WRONG_BLOCKS and j < 4:
            status = "WRONG"
        out[i, j] = status
    return out


def table_5_6_3(t3, state):
    """K_p, K_d and the blocks (a) U⁻¹W, (b) U⁻¹V, (c) U⁻¹ at t = 0.45 s; Table 5.6.4."""
    lin = ctl.linearize(t3, *state)
    Kp, Kd = ctl.model_assignment(lin, PSI, OMEGA)
    exact = {"Kp": Kp, "Kd": Kd, "a": lin.M_inv @ lin.W, "b": lin.M_inv @ lin.V, "c": lin.M_inv}
    labels = {
        "Kp": "K_p = UΩ² − W",
        "Kd": "K_d = 2UΨΩ − V",
        "a": "(a) U⁻¹W (printed ∂ṗ/∂θ)",
        "b": "(b) U⁻¹V (printed ∂ṗ/∂θ)",
        "c": "(c) U⁻¹ = ∂ṗ/∂f*",
    }
    data = {}
    lines = ["Table 5.6.3  t = 0.45 s, Ψ = √2/2, Ω = 1: exact (top) and printed (bottom) rows"]
    for key, value in exact.items():
        printed = TABLE_5_6_3[key]
        status = _matrix_status(key, value, printed)
        counts = {s: int(np.sum(status == s)) for s in ("ok", "noise", "OCR", "WRONG", "DIFF")}
        data[key] = {
            "exact": value.tolist(),
            "printed": printed.tolist(),
            "status": status.tolist(),
            "counts": counts,
        }
        lines.append(f"  {labels[key]}   " + ", ".join(f"{k} {v}" for k, v in counts.items() if v))
        for i in range(value.shape[0]):
            lines.append("    " + " ".join(f"{x:>11.4e}" for x in value[i]))
            lines.append(
                "    "
                + " ".join(f"{x:>11.4e}" for x in printed[i])
                + "   "
                + " ".join(f"{s:<5}" for s in status[i])
            )
    ev = ctl.frozen_eigenvalues(lin.A)
    data["eigenvalues"] = {
        "exact": [[e.real, e.imag] for e in ev],
        "reference_exact": [[e.real, e.imag] for e in ctl.sort_eigenvalues(EXACT_EIGENVALUES_T045)],
        "printed_5_6_4": [[e.real, e.imag] for e in ctl.sort_eigenvalues(TABLE_5_6_4)],
    }
    fmt = lambda evs: ", ".join(f"{e.real:.5g}{e.imag:+.5g}j" for e in evs)  # noqa: E731
    lines += [
        "Table 5.6.4  eigenvalues of A(t) at t = 0.45 s",
        "  exact           " + fmt(ev),
        "  printed (wrong) " + fmt(ctl.sort_eigenvalues(TABLE_5_6_4)),
    ]
    return data, lines


#: the distinct natural frequencies of the minimum-norm comparison [rad/s] (ours, not the
#: thesis's: with its Ω = 1 every pole is repeated n/2 times and the gain is unique)
DISTINCT_OMEGA = np.arange(1.0, 7.0)


def _model_poles(psi, omega):
    """The poles of s² + 2ψω s + ω² for each ω (n,): −ψω ± iω√(1 − ψ²), (2n,)."""
    w = np.asarray(omega, dtype=float)
    upper = -psi * w + 1j * w * np.sqrt(1 - psi**2)
    return np.concatenate([upper, upper.conj()])


def placement_error(A, B, K, poles):
    """Largest distance from a requested pole to the nearest eigenvalue of A − BK."""
    ev = np.linalg.eigvals(A - B @ K)
    return float(max(np.abs(ev - p).min() for p in poles))


def gain_norms(t3, state):
    """§5.6 at t = 0.45 s: model assignment, pole placement (scipy, Sylvester with a
    random G) and Keel's minimum-norm assignment for the same poles, by ‖K‖_F, and how
    far each closed loop's eigenvalues are from the poles. Two sets of poles: the
    thesis's (Ψ = √2/2, Ω = 1: each pole 6 times) and distinct ones (Ω = 1 … 6 rad/s)."""
    lin = ctl.linearize(t3, *state)
    A, B = lin.A, lin.B
    data = {}
    lines = ["§5.6 gain norms at t = 0.45 s, ‖K‖_F of K = [K_θ, K_θ̇] (u = −Kx), same poles"]
    for label, omega in (("thesis", OMEGA), ("distinct", DISTINCT_OMEGA)):
        poles = _model_poles(PSI, np.broadcast_to(omega, (t3.nq,)))
        Kp, Kd = ctl.model_assignment(lin, PSI, omega)
        gains = {
            "model_assignment": np.hstack([Kp, Kd]),
            "scipy": ctl.place_poles(A, B, poles),
            "sylvester": ctl.place_poles(A, B, poles, backend="sylvester"),
        }
        keel = ctl.min_norm_place_poles(A, B, poles, initial=[gains["model_assignment"]])
        gains["min_norm"] = keel.K
        entry: dict = {
            key: {"norm": float(np.linalg.norm(K)), "pole_error": placement_error(A, B, K, poles)}
            for key, K in gains.items()
        }
        entry["min_norm_gradient"] = keel.gradient_norm
        entry["min_norm_cond_T"] = float(np.linalg.cond(keel.T))
        data[label] = entry
        what = (
            "Ω = 1 (the thesis's): each pole 6 times"
            if label == "thesis"
            else "Ω = 1 … 6 rad/s, distinct poles"
        )
        lines.append(f"  Ψ = √2/2, {what}")
        lines += [
            f"    {key:<17} ‖K‖ = {v['norm']:>11.6g}   max |pole error| {v['pole_error']:.1e}"
            for key, v in data[label].items()
            if isinstance(v, dict)
        ]
        lines.append(
            f"    min-norm: gradient left {keel.gradient_norm:.1e} (relative), cond T "
            f"{data[label]['min_norm_cond_T']:.2g}"
        )
    lines.append(
        "  with each pole repeated n/2 = rank B times the closed loop [[0, 1], [X, Y]] must "
        "satisfy (M − p)(M − p̄) = 0, so X = −|p|²1, Y = 2 Re(p) 1: one gain, model "
        "assignment's; with distinct poles the family is 60-dimensional and the least "
        "norm found (a local minimum) is far below model assignment's, at the price "
        "of an ill-conditioned eigenvector matrix T (sensitive poles)"
    )
    return data, lines


def closed_loop(t3, path, out):
    """§5.6 on the nonlinear T3: model assignment along the task from a 1e-3 rad error on
    joints 2–4, against the assigned model δθ̈ + 2ΨΩδθ̇ + Ω²δθ = 0; frozen eigenvalues of
    the open loop A(t) along the task. Writes CSV and PNG files."""
    nominal = ctl.Nominal.from_trajectory(path)
    dq0 = np.array([0.0, 1e-3, 1e-3, 1e-3, 0.0, 0.0])
    run = ctl.simulate_closed_loop(
        t3,
        nominal,
        ctl.model_assignment_law(t3, nominal, PSI, OMEGA),
        nominal(0.0)[0] + dq0,
        dt=2e-3,
    )
    t = run.trajectory.t
    wd = OMEGA * np.sqrt(1 - PSI**2)
    model = (
        np.exp(-PSI * OMEGA * t) * (np.cos(wd * t) + PSI / np.sqrt(1 - PSI**2) * np.sin(wd * t))
    )[:, None] * dq0
    deviation = float(np.abs(run.error - model).max() / 1e-3)
    lin = ctl.linearize_along(t3, path)
    ev = ctl.frozen_eigenvalues(lin.A)
    with atomic_file(out / "closed_loop_error.csv") as fh:
        np.savetxt(
            fh,
            np.column_stack([t, run.error, model]),
            delimiter=",",
            comments="",
            fmt="%.10g",
            header="t,"
            + ",".join(f"e{j + 1}" for j in range(6))
            + ","
            + ",".join(f"model{j + 1}" for j in range(6)),
        )
    files = {"closed_loop_csv": out / "closed_loop_error.csv"}
    lines = [
        f"Closed loop (§5.6): model assignment Ψ = √2/2, Ω = 1 on the nonlinear T3, 1e-3 rad "
        f"initial error on joints 2–4: max |δθ − model| = {deviation:.2%} of the initial "
        f"error over 1 s",
        f"  open-loop A(t) along the task: largest real eigenvalue from "
        f"{ev.real.max(axis=1).min():.4g} to {ev.real.max(axis=1).max():.4g} 1/s",
    ]
    try:
        from ..viz import plot_eigenvalues, plot_tracking_error

        plot_tracking_error(
            t,
            run.error,
            reference=model,
            path=out / "closed_loop_error.png",
            title="T3 tracking error under model assignment (dashed: assigned model)",
        )
        files["closed_loop_png"] = out / "closed_loop_error.png"
        plot_eigenvalues(
            lin.t,
            ev,
            path=out / "open_loop_eigenvalues.png",
            title="T3 straight-line task: eigenvalues of A(t) frozen in time",
        )
        files["eigenvalues_png"] = out / "open_loop_eigenvalues.png"
    except ValueError as exc:
        lines.append(f"  (no plots: {exc})")
    return {"max_deviation_fraction": deviation}, lines, files
