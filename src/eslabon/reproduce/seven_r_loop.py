"""The 7R closed loop of Rojas Salgado (1987) §3.3.3 (Fig. 3.3.2), part of
``eslabon reproduce rojas``.

Two experiments on the loop cut at joint 1 (:func:`eslabon.zoo.rojas.seven_r_chain`):

* :func:`sweep` — θ₁ swept 121°–239° one degree at a time with continuation; each
  solution checked against the exact input–output relation (2 + cos θ₂) cos θ₁ = −1.5
  (3.3.3.7);
* :func:`round_off` — the experiment of Figs. 3.3.3–3.3.5: θ₁ moves in time, and the
  errors of θ₂, θ̇₂ and θ̈₂ against the exact relation are compared for the square 6 × 6
  system (without the trace equation 3.3.1.9b) and the redundant 7 × 6 one. The thesis's
  figures are lost (only their captions survive) and it does not say how θ₁ moved; here
  θ₁(t) = θ₁⁰ + 10° (t − sin 2πt / 2π) over 1 s from the symmetric solution θ₁⁰ =
  126.87° (θ₂ = 60° → 86.6°). The swing stays below θ₁ = 138.59° (cos θ₁ = −0.75,
  θ₂ = 90°), where another branch of solutions crosses the symmetric one: continuation
  through it follows either, and (3.3.3.7) holds only on the symmetric one. The run is
  made twice: in double precision by the general solver
  (:func:`eslabon.kinematics.ik.newton_gauss`, :func:`~eslabon.kinematics.ik.rates`,
  :func:`~eslabon.kinematics.ik.accelerations`), and in single precision (``float32``
  end to end, as the thesis's ``REAL`` program) by :mod:`.seven_r_single`.

What the measurement shows: in double precision both systems reach round-off (medians
~1e-15). In single precision both sit at float32 round-off — medians 5.6e-7 / 6.2e-7 rad
(θ₂), 9.6e-7 / 1.4e-6 rad/s (θ̇₂), 5.5e-6 / 6.8e-6 rad/s² (θ̈₂) for the 7 × 6 / 6 × 6
system on the 101 samples, every error below ε₃₂ κ₁ times the quantity's size — and the
7 × 6 system's errors are *not* systematically smaller: it has the smaller error at about
half the samples, and the ratio of the medians, 0.7–0.9 here, moves between 0.7 and 1.3
when the same motion is sampled 51, 201 or 401 times. The thesis's filtering of round-off
by the trace equation is not seen on this motion: there R turns by φ = 143°–150°
(tr R = cos θ₁), far from the φ = ±π/2 where the 6 × 6 system degenerates, and κ₁ ≤ 736
for both systems; the thesis's own motion is not known.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._files import atomic_file, savefig_atomic
from ..kinematics import ik
from ..zoo import rojas
from . import seven_r_single
from .seven_r_single import input_motion

#: samples over 1 s of the input's sweep of :func:`round_off` (start and amplitude:
#: :func:`eslabon.reproduce.seven_r_single.input_motion`)
ROUND_OFF_SAMPLES = 101
#: Newton–Gauss tolerance of :func:`round_off`: tighter than the solver's default 1e-12,
#: whose stopping point (not round-off) would set the errors' size
ROUND_OFF_TOL = 1e-14


def sweep(out: Path) -> tuple[dict, list, dict]:
    """θ₁ swept with continuation, both systems; ``seven_r.csv`` in ``out``."""
    chain = rojas.seven_r_chain()
    start = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:])
    rows = []
    for equations in ik.EQUATIONS:
        for leg in (np.arange(126.0, 120.0, -1.0), np.arange(127.0, 240.0, 1.0)):
            q = start
            for deg in leg:
                sol = ik.newton_gauss(
                    chain, *rojas.seven_r_loop_target(np.radians(deg)), q, equations=equations
                )
                rel = abs((2 + np.cos(sol.q[0])) * np.cos(np.radians(deg)) + 1.5)
                rows.append(
                    (
                        equations,
                        deg,
                        sol.converged,
                        sol.singularity,
                        sol.iterations,
                        rel,
                        np.degrees(sol.q[0]),
                    )
                )
                if sol.converged:
                    q = sol.q
    rows.sort(key=lambda r: (r[0], r[1]))
    with atomic_file(out / "seven_r.csv", "w") as fh:
        fh.write(
            "equations,theta1_deg,converged,singularity,iterations,relation_residual,theta2_deg\n"
        )
        for r in rows:
            fh.write(",".join(str(x) for x in r) + "\n")
    lines = [
        "7R mechanism (Fig. 3.3.2): θ₁ swept 121°–239°, continuation from θ₂ = 60°; "
        "residual of (2 + cos θ₂) cos θ₁ = −1.5"
    ]
    summary = {}
    for equations in ik.EQUATIONS:
        mine = [r for r in rows if r[0] == equations]
        ok = [r for r in mine if r[2]]
        on_branch = [r for r in ok if r[5] < 1e-9]
        failed = [
            f"{r[1]:g}° ({'no convergence' if r[3] == 'none' else r[3]})" for r in mine if not r[2]
        ]
        summary[equations] = {
            "solved": len(ok),
            "on_branch": len(on_branch),
            "failed": failed,
            "max_iterations": max(r[4] for r in ok),
        }
        lines.append(
            f"  {equations:<9} converged {len(ok)}/{len(mine)}, on the symmetric "
            f"branch {len(on_branch)}, max iterations {summary[equations]['max_iterations']}"
            f"; not solved: {', '.join(failed[:6]) or 'none'}" + (" …" if len(failed) > 6 else "")
        )
    lines.append("  (φ = π at θ₁ = 180°: the spurious singularity of §3.4, reported by the solver)")
    return summary, lines, {"seven_r_csv": out / "seven_r.csv"}


def round_off_errors(equations: str, t) -> dict:
    """Errors of θ₂, θ̇₂, θ̈₂ (rad, rad/s, rad/s²) at times ``t`` against (3.3.3.7), with
    the solver's Jacobian condition estimate and iterations, for ``equations``
    ("redundant" 7 × 6 or "square" 6 × 6). Position by Newton–Gauss with continuation
    (tolerance :data:`ROUND_OFF_TOL`), then rates and accelerations by back substitution with the
    solution's factor (§3.3.2–3.3.3)."""
    chain = rojas.seven_r_chain()
    q = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:])
    out = {k: [] for k in ("position", "rate", "acceleration", "condition", "iterations")}
    for th1, th1d, th1dd in zip(*input_motion(t), strict=True):
        R, p, w, p_dot, w_dot, p_ddot = rojas.seven_r_loop_motion(th1, th1d, th1dd)
        sol = ik.newton_gauss(chain, R, p, q, equations=equations, tol=ROUND_OFF_TOL)
        if not sol.converged:
            raise RuntimeError(f"7R {equations}: no convergence at θ₁ = {np.degrees(th1):.2f}°")
        q = sol.q
        qd = ik.rates(chain, sol, w, p_dot)
        qdd = ik.accelerations(chain, sol, qd, w_dot, p_ddot)
        exact = rojas.seven_r_exact(th1, th1d, th1dd)
        out["position"].append(sol.q[0] - exact[0])
        out["rate"].append(qd[0] - exact[1])
        out["acceleration"].append(qdd[0] - exact[2])
        out["condition"].append(sol.condition)
        out["iterations"].append(sol.iterations)
    return {k: np.array(v) for k, v in out.items()}


def _write_csv(path: Path, t, runs: dict, keys: tuple) -> Path:
    """One row per time: t, then ``{equations}_{key}`` for every system and key."""
    with atomic_file(path, "w") as fh:
        fh.write("t," + ",".join(f"{eq}_{k}" for eq in ik.EQUATIONS for k in keys) + "\n")
        for i, ti in enumerate(t):
            fh.write(
                f"{float(ti)!r},"
                + ",".join(repr(float(runs[eq][k][i])) for eq in ik.EQUATIONS for k in keys)
                + "\n"
            )
    return path


_ERRORS = ("position", "rate", "acceleration")


def _summary(runs: dict) -> dict:
    return {
        eq: {k: float(np.abs(runs[eq][k]).max()) for k in _ERRORS}
        | {f"median_{k}": float(np.median(np.abs(runs[eq][k]))) for k in _ERRORS}
        | {"max_condition": float(runs[eq]["condition"].max())}
        for eq in ik.EQUATIONS
    }


def _lines(summary: dict) -> list:
    return [
        f"  {eq:<9} ({'7 × 6' if eq == 'redundant' else '6 × 6'})"
        + "".join(
            f"  {name} {summary[eq]['median_' + k]:.1e} ({summary[eq][k]:.1e})"
            for name, k in zip(("θ₂", "θ̇₂", "θ̈₂"), _ERRORS, strict=True)
        )
        + f"  κ₁ ≤ {summary[eq]['max_condition']:.0f}"
        for eq in ik.EQUATIONS
    ]


def round_off(out: Path) -> tuple[dict, list, dict]:
    """Figs. 3.3.3–3.3.5 recomputed in double and in single precision:
    ``seven_r_round_off.csv`` (double), ``seven_r_round_off_single.csv`` (float32, with
    the Newton steps' final ‖f‖∞ as ``residual``) and, with matplotlib,
    ``seven_r_round_off.png`` (both precisions) in ``out``. The summary has one entry per
    system for double precision and, under ``"single_precision"``, one per system for
    float32 plus ``"fraction_redundant_smaller"``: per quantity, the share of samples
    where the 7 × 6 system's error is the smaller (ties at exact zeros excluded)."""
    t = np.linspace(0.0, 1.0, ROUND_OFF_SAMPLES)
    runs = {eq: round_off_errors(eq, t) for eq in ik.EQUATIONS}
    single = {eq: seven_r_single.round_off_errors(eq, t) for eq in ik.EQUATIONS}
    keys = ("position", "rate", "acceleration", "condition", "iterations")
    files = {
        "seven_r_round_off_csv": _write_csv(out / "seven_r_round_off.csv", t, runs, keys),
        "seven_r_round_off_single_csv": _write_csv(
            out / "seven_r_round_off_single.csv", t, single, keys + ("residual",)
        ),
    }
    summary = _summary(runs)
    smaller = seven_r_single.share_redundant_smaller(single)
    summary["single_precision"] = _summary(single) | {"fraction_redundant_smaller": smaller}
    lines = [
        "7R round-off (Figs. 3.3.3–3.3.5): θ₁ from 126.87° by a 10° cycloid over 1 s, "
        f"{ROUND_OFF_SAMPLES} samples; |error| of θ₂, θ̇₂, θ̈₂ against (3.3.3.7), "
        "median (max); double precision"
    ]
    lines += _lines(summary)
    lines.append("  single precision (float32 end to end, as the thesis's REAL program)")
    lines += _lines(summary["single_precision"])
    ratio = {
        k: summary["single_precision"]["redundant"][f"median_{k}"]
        / summary["single_precision"]["square"][f"median_{k}"]
        for k in _ERRORS
    }
    # a system is "the smaller" when it has the smaller error at more than 80 % of the
    # samples for each quantity (with no systematic difference the share is near one half)
    if all(f > 0.8 for f in smaller.values()):
        verdict = "the 7 × 6 system's errors are the smaller, the filtering §3.3.3 claims"
    elif all(f < 0.2 for f in smaller.values()):
        verdict = "the 6 × 6 system's errors are the smaller, contrary to §3.3.3"
    else:
        verdict = "neither system's errors are systematically smaller (§3.3.3 claims the 7 × 6's)"
    lines.append(
        "  In double precision both systems reach round-off. In single precision the 7 × 6"
        " system's median error is "
        + ", ".join(f"{ratio[k]:.2f}×" for k in _ERRORS)
        + " the 6 × 6's (θ₂, θ̇₂, θ̈₂), the smaller at "
        + ", ".join(f"{100 * smaller[k]:.0f}%" for k in _ERRORS)
        + f" of the samples: {verdict}"
    )
    study = seven_r_single.tolerance_study(t)
    summary["tolerance_study"] = study
    lines.append(
        "  The thesis's TOL = 1e-6 (NLLS stops on ‖f‖∞ < TOL or ‖Δθ‖∞ < TOL, that step not"
        " applied): share of samples with the 7 × 6 error the smaller (θ₂, θ̇₂, θ̈₂);"
        " median |θ₂ error| 7 × 6 / 6 × 6; Newton steps per sample"
    )
    for row in study:
        tol = "round-off floor" if row["tol"] is None else f"TOL {row['tol']:.0e}"
        med = row["median"]
        lines.append(
            f"    {row['dtype']:<7} {tol:<15} "
            + ", ".join(f"{100 * row['share'][k]:3.0f}%" for k in _ERRORS)
            + f";  {med['redundant']['position']:.1e} / {med['square']['position']:.1e}"
            + f";  {row['iterations']['redundant']:.2f}"
        )
    lines.append(
        "    (double precision, TOL = 1e-6: errors of a truncated Newton iteration, ~1e-9,"
        " where the 7 × 6 iterate is the closer; at TOL → 1e-14 both at round-off and"
        " neither systematically smaller: a truncation effect, not round-off filtering)"
    )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        lines.append("  (no plot: matplotlib is missing; pip install 'eslabon[viz]')")
        return summary, lines, files
    fig, axes = plt.subplots(3, 1, figsize=(7, 9), sharex=True)
    titles = ("Fig. 3.3.3: θ₂ [rad]", "Fig. 3.3.4: θ̇₂ [rad/s]", "Fig. 3.3.5: θ̈₂ [rad/s²]")
    curves = [
        (runs, "redundant", "C0", "-", "double, 7 × 6 (with the trace equation)"),
        (runs, "square", "C1", "--", "double, 6 × 6"),
        (single, "redundant", "C2", "-", "single, 7 × 6 (with the trace equation)"),
        (single, "square", "C3", "--", "single, 6 × 6"),
    ]
    for ax, key, title in zip(axes, _ERRORS, titles, strict=True):
        for data, eq, color, style, label in curves:
            ax.semilogy(t, np.abs(data[eq][key]) + 1e-18, style, color=color, label=label, lw=1)
        ax.set_title(f"|error| of {title}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    axes[-1].set_xlabel("t [s]")
    fig.tight_layout()
    files["seven_r_round_off_png"] = savefig_atomic(fig, out / "seven_r_round_off.png", dpi=90)
    plt.close(fig)
    return summary, lines, files
