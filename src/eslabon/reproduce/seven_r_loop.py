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
  in double precision: the solver has no single-precision mode, so the thesis's
  single-precision run is not repeated.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .._files import atomic_file, savefig_atomic
from ..kinematics import ik
from ..zoo import rojas

#: the input's sweep of :func:`round_off`: start (rad), amplitude (rad), samples over 1 s
ROUND_OFF_START = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[0])
ROUND_OFF_SWING = np.radians(10.0)
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


def input_motion(t):
    """θ₁, θ̇₁, θ̈₁ of the input at times ``t`` (s): a cycloid of 10° over 1 s."""
    t = np.asarray(t, dtype=float)
    a = ROUND_OFF_SWING
    return (
        ROUND_OFF_START + a * (t - np.sin(2 * np.pi * t) / (2 * np.pi)),
        a * (1.0 - np.cos(2 * np.pi * t)),
        a * 2 * np.pi * np.sin(2 * np.pi * t),
    )


def round_off_errors(equations: str, t) -> dict:
    """Errors of θ₂, θ̇₂, θ̈₂ (rad, rad/s, rad/s²) at times ``t`` against (3.3.3.7), with
    the solver's Jacobian condition estimate and iterations, for ``equations``
    ("redundant" 7 × 6 or "square" 6 × 6). Position by Newton–Gauss with continuation
    (tolerance :data:`ROUND_OFF_TOL`), then rates and accelerations by back substitution with the
    solution's factor (§3.3.2–3.3.3)."""
    chain = rojas.seven_r_chain()
    q = np.radians(rojas.SEVEN_R_SYMMETRIC_DEG[1:])
    out = {k: [] for k in ("position", "rate", "acceleration", "condition", "iterations")}
    for th1, th1d, th1dd in zip(*input_motion(t)):
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


def round_off(out: Path) -> tuple[dict, list, dict]:
    """Figs. 3.3.3–3.3.5 recomputed: ``seven_r_round_off.csv`` and, with matplotlib,
    ``seven_r_round_off.png`` in ``out``."""
    t = np.linspace(0.0, 1.0, ROUND_OFF_SAMPLES)
    runs = {eq: round_off_errors(eq, t) for eq in ik.EQUATIONS}
    keys = ("position", "rate", "acceleration", "condition", "iterations")
    with atomic_file(out / "seven_r_round_off.csv", "w") as fh:
        fh.write("t," + ",".join(f"{eq}_{k}" for eq in ik.EQUATIONS for k in keys) + "\n")
        for i, ti in enumerate(t):
            fh.write(
                f"{ti!r},"
                + ",".join(repr(float(runs[eq][k][i])) for eq in ik.EQUATIONS for k in keys)
                + "\n"
            )
    files = {"seven_r_round_off_csv": out / "seven_r_round_off.csv"}
    errors = ("position", "rate", "acceleration")
    summary = {
        eq: {k: float(np.abs(runs[eq][k]).max()) for k in errors}
        | {f"median_{k}": float(np.median(np.abs(runs[eq][k]))) for k in errors}
        | {"max_condition": float(runs[eq]["condition"].max())}
        for eq in ik.EQUATIONS
    }
    lines = [
        "7R round-off (Figs. 3.3.3–3.3.5): θ₁ from 126.87° by a 10° cycloid over 1 s, "
        f"{ROUND_OFF_SAMPLES} samples; max |error| of θ₂, θ̇₂, θ̈₂ against (3.3.3.7), "
        "double precision; median (max)"
    ]
    for eq in ik.EQUATIONS:
        s = summary[eq]
        lines.append(
            f"  {eq:<9} ({'7 × 6' if eq == 'redundant' else '6 × 6'})"
            + "".join(
                f"  {name} {s['median_' + k]:.1e} ({s[k]:.1e})"
                for name, k in zip(("θ₂", "θ̇₂", "θ̈₂"), errors)
            )
            + f"  κ₁ ≤ {s['max_condition']:.0f}"
        )
    lines.append(
        "  In double precision both systems reach round-off (medians ~1e-15); the thesis's"
        " filtering by the trace equation is a single-precision effect, not repeated here"
    )
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        lines.append("  (no plot: matplotlib is missing; pip install 'eslabon[viz]')")
        return summary, lines, files
    fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True)
    titles = ("Fig. 3.3.3: θ₂ [rad]", "Fig. 3.3.4: θ̇₂ [rad/s]", "Fig. 3.3.5: θ̈₂ [rad/s²]")
    for ax, key, title in zip(axes, ("position", "rate", "acceleration"), titles):
        for eq, style in zip(ik.EQUATIONS, ("-", "--")):
            label = "7 × 6 (with the trace equation)" if eq == "redundant" else "6 × 6"
            ax.semilogy(t, np.abs(runs[eq][key]) + 1e-18, style, label=label)
        ax.set_title(f"|error| of {title}", fontsize=9)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].legend(fontsize=8)
    axes[-1].set_xlabel("t [s]")
    fig.tight_layout()
    files["seven_r_round_off_png"] = savefig_atomic(fig, out / "seven_r_round_off.png", dpi=90)
    plt.close(fig)
    return summary, lines, files
