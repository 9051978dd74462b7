"""What Araujo (2012) leaves for later, computed: part of ``eslabon reproduce araujo``.

- Tables 3.3–3.4 by name: the derivative matrices of the tricycle's Sheth–Uicker
  transforms and the velocity / acceleration cascades of Table A.2
  (:mod:`eslabon.mobile.transform_derivatives`) at one state, with the chain's closure
  (3.6)–(3.11) and the lateral acceleration that (3.21) drops.
- "Recomendaciones": a floor with slope and a steering axis not perpendicular to it
  (:mod:`eslabon.mobile.terrain`, :mod:`eslabon.mobile.tilted_steering`): load case 1
  for 1 s on a level floor, on an 8° slope, with a 20° caster and both, the last against
  the Lagrange-multiplier DAE built the same way, with the work–energy balance.
- The end-effector constraint of Provenzano (2001) that Ch. II cites: the PUMA's wrist
  held on a vertical wall while the platform drives along it (F = 150 N, M = 0, load
  case 1's arm torques), by Gibbs–Appell in
  independent quasi-velocities (no multiplier; :mod:`eslabon.mobile.tool_constraint`),
  against the tree DAE with the tool's row, and the wall's normal force from the KKT form.

- The Gibbs function S itself, (2.25) (:func:`eslabon.dynamics.gibbs_function`), of the
  PUMA alone, with r̈ − g and the terms free of q̈ kept: its gradient in q̈ (central
  differences) is the torque without friction (Appell's equations) and its Hessian the
  mass matrix D (3.34).

The platform and mount are the assumed ones of the rest of ``reproduce araujo``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import mobile as mb
from .._files import savefig_atomic
from ..mobile import dae
from ..mobile import tool_constraint as tc
from ..mobile.transform_derivatives import tricycle_tables

U, TAU = (150.0, 0.3), (6.0, 50.0, 10.0, -0.1, -0.5, -0.1)  # load case 1
SLOPE = mb.Slope(np.radians(8.0), 0.4)
TILT = np.radians(20.0)
START = dict(config=[0, 0, 0.2, 0.3, 0, 0, 0], q=[0.1, -0.5, 0.3, 0, 0.2, 0], nu=[0.8, 0.1])
WALL_START = dict(q=[0.3, -0.6, 0.4, 0, 0.3, 0], nu=[0.5, 0.0], qd=[0, 0.1, 0, 0, 0, 0])
WALL_U = (150.0, 0.0)  # load case 1's F, no steering torque: the platform runs along the wall


def _tables(lines, data):
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    state = ([0.0, 0.0, 0.0, 0.3, 0, 0, 0], [1.0, 0.2], [0.5, -0.4])
    tab = tricycle_tables(cart, *state)
    Rbar_T_Cbar = tab.R_T_H @ tab.H_T_S @ tab.S_T_C
    closure = max(
        float(np.abs(tab.Rbar_Tdot_C - Rbar_T_Cbar @ tab.Cbar_Tdot_C).max()),
        float(np.abs(tab.Rbar_Tddot_C - Rbar_T_Cbar @ tab.Cbar_Tddot_C).max()),
    )
    data["tables"] = {
        "state": {"beta": 0.3, "V": 1.0, "beta_dot": 0.2, "V_dot": 0.5, "beta_ddot": -0.4},
        **{k: np.asarray(v).tolist() for k, v in tab._asdict().items()},
        "closure": closure,
    }
    lines += [
        "Tables 3.3–3.4 by name (β = 0.3 rad, V = 1 m/s, β̇ = 0.2 rad/s, V̇ = 0.5, β̈ = −0.4):",
        f"  R̄Ṫ_R: ẋ = {tab.Rbar_Tdot_R[0, 3]:.6g} m/s, θ̇ = {tab.Rbar_Tdot_R[1, 0]:.6g} rad/s; "
        f"R̄T̈_R: ẍ = {tab.Rbar_Tddot_R[0, 3]:.6g}, ÿ = {tab.Rbar_Tddot_R[1, 3]:.6g} m/s² "
        "(= V θ̇; (3.21) prints 0), "
        f"θ̈ = {tab.Rbar_Tddot_R[1, 0]:.6g} rad/s²",
        f"  C̄Ṫ_C: rolling {tab.Cbar_Tdot_C[0, 3]:.6g} m/s (V/cos β), lateral "
        f"{tab.Cbar_Tdot_C[1, 3]:.1g}; cascades R̄Ṫ_C, R̄T̈_C close the chain (3.6)–(3.11) "
        f"to {closure:.1e}",
    ]


def _ground(arm, out, plt, lines, data, files):
    mount = mb.Mount.araujo_assumed()
    variants = {
        "level": (0.0, None),
        "8° slope": (0.0, SLOPE),
        "20° caster": (TILT, None),
        "slope + caster": (TILT, SLOPE),
    }
    runs = {}
    for name, (tilt, ground) in variants.items():
        p = mb.TricycleParams.seekur_jr_assumed(steering_tilt=tilt)
        mm = mb.MobileManipulator(mb.Tricycle(p), arm, mount, ground=ground)
        config, q, nu, qd = mm.split(mm.state(**START))
        run = mb.simulate(
            mm, q, qd, 1.0, samples=11, torque=TAU, u=U, config0=config, nu0=nu, rtol=1e-11
        )
        runs[name] = (mm, run)
    mm, run = runs["slope + caster"]
    y0 = np.concatenate([run.config[0], run.q[0], run.nu[0], run.qd[0]])
    pos, _ = dae.simulate(mm, run.t, y0, U, TAU)
    gap = float(np.abs(np.hstack([run.config, run.q]) - pos).max())
    balance = {
        name: float(np.abs(r.energy - r.energy[0] - r.work).max() / np.abs(r.work).max())
        for name, (_, r) in runs.items()
    }
    data["ground"] = {
        "slope_deg": 8.0,
        "downhill": SLOPE.downhill,
        "tilt_deg": 20.0,
        "gibbs_vs_dae_max_abs": gap,
        "energy_balance": balance,
        "final_pose": {name: r.config[-1, :4].tolist() for name, (_, r) in runs.items()},
    }
    lines += [
        "Recomendaciones: 8° slope (downhill at 0.4 rad) and a 20° steering-axis tilt, load "
        "case 1 for 1 s:",
        f"  slope + caster, Gibbs–Appell vs the Lagrange-multiplier DAE: max |Δ| {gap:.1e} "
        "(m, rad)",
        "  max |E − E0 − W| / max |W|: " + ", ".join(f"{k} {v:.1e}" for k, v in balance.items()),
        "  final pose (x, y, θ, β): "
        + "; ".join(f"{k} {np.round(r.config[-1, :4], 4).tolist()}" for k, (_, r) in runs.items()),
    ]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for name, (_, r) in runs.items():
        axes[0].plot(r.config[:, 0], r.config[:, 1], label=name)
        axes[1].plot(r.t, r.config[:, 3], label=name)
    axes[0].plot(pos[:, 0], pos[:, 1], "k.", label="slope + caster, DAE")
    axes[0].set(xlabel="x [m] (in the plane)", ylabel="y [m]", title="rear-axle midpoint")
    axes[1].set(xlabel="t [s]", ylabel="β [rad]", title="steering angle")
    for ax in axes:
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    files["ground"] = out / "slope_and_caster.png"
    savefig_atomic(fig, files["ground"], dpi=90)
    plt.close(fig)


def _wall(arm, out, plt, lines, data, files):
    mm = mb.MobileManipulator(
        mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()), arm, mb.Mount.araujo_assumed()
    )
    y = mm.state(**WALL_START)
    con = tc.ToolOnPlane.through(mm, y, normal=[0.0, 1.0, 0.0], dependent="q1")
    y0 = con.consistent_state(y)
    t = np.linspace(0.0, 1.0, 21)
    Y = tc.simulate(con, t, y0, WALL_U, TAU)
    pos, _ = tc.simulate_multipliers(con, t, y0, WALL_U, TAU)
    n = mm.n_config + mm.n_arm
    gap = float(np.abs(Y[:, :n] - pos).max())
    drift = np.array([con.value(yk) for yk in Y])
    force = np.array([tc.multiplier_accelerations(con, yk, WALL_U, TAU)[1][0] for yk in Y])
    data["tool_on_wall"] = {
        "wall_point": con.point.tolist(),
        "normal": con.normal.tolist(),
        "dependent": con.dependent,
        "gibbs_vs_tree_dae_max_abs": gap,
        "max_abs_constraint": float(np.abs(drift).max()),
        "normal_force": force.tolist(),
    }
    lines += [
        "End-effector constraint (Provenzano's approach, Ch. II): the wrist held on the wall "
        f"y = {con.point[1]:.4f} m, q1 given up, F = 150 N, M = 0, case 1's τ, 1 s:",
        f"  Gibbs–Appell without multipliers vs the tree DAE with the tool's row: max |Δ| "
        f"{gap:.1e}; max |c| {np.abs(drift).max():.1e} m; wall force "
        f"{force.min():.4g} … {force.max():.4g} N",
    ]
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    axes[0].plot(t, force)
    axes[0].set(xlabel="t [s]", ylabel="λ [N]", title="the wall's normal force (KKT form)")
    axes[1].semilogy(t, np.abs(drift) + 1e-17)
    axes[1].set(xlabel="t [s]", ylabel="|c| [m]", title="distance from the wall, no multiplier")
    for ax in axes:
        ax.grid(True, alpha=0.3)
    fig.tight_layout()
    files["tool_on_wall"] = out / "tool_on_wall.png"
    savefig_atomic(fig, files["tool_on_wall"], dpi=90)
    plt.close(fig)


def _gibbs_function(arm, lines, data, h=0.5):
    """S's gradient and Hessian in q̈ by central differences (exact for a quadratic but for
    rounding) against τ − friction and D."""
    from ..dynamics.gibbs_appell import gibbs_appell_terms, gibbs_function, inverse_dynamics

    plain = arm.replace(viscous=np.zeros(arm.nv), coulomb=np.zeros(arm.nv))
    q, qd = np.array(WALL_START["q"]), np.array([0.4, -0.3, 0.5, 0.2, -0.6, 0.1])
    qdd = np.array([1.0, -0.5, 0.8, 0.3, 0.2, -0.4])
    eye = np.eye(arm.nv) * h
    grad = np.array(
        [
            (gibbs_function(plain, q, qd, qdd + e) - gibbs_function(plain, q, qd, qdd - e))
            / (2 * h)
            for e in eye
        ]
    )
    s0 = gibbs_function(plain, q, qd, qdd)
    hess = np.array(
        [
            [
                (
                    gibbs_function(plain, q, qd, qdd + a + b)
                    - gibbs_function(plain, q, qd, qdd + a - b)
                    - gibbs_function(plain, q, qd, qdd - a + b)
                    + gibbs_function(plain, q, qd, qdd - a - b)
                )
                / (4 * h * h)
                for b in eye
            ]
            for a in eye
        ]
    )
    tau = inverse_dynamics(plain, q, qd, qdd)
    D = gibbs_appell_terms(plain, q, qd).D
    g_gap = float(np.max(np.abs(grad - tau)) / np.max(np.abs(tau)))
    h_gap = float(np.max(np.abs(hess - D)) / np.max(np.abs(D)))
    data["gibbs_function"] = {"S": float(s0), "gradient": g_gap, "hessian": h_gap}
    lines.append(
        f"The Gibbs function of the PUMA alone, S (2.25) with r̈ − g, the terms free of q̈ "
        f"kept: S = {s0:.6g} W/s; ∂S/∂q̈ by central "
        f"differences vs τ without friction {g_gap:.1e}, ∂²S/∂q̈² vs D (3.34) {h_gap:.1e} "
        "(relative; a quadratic's differences are exact but for rounding)"
    )


def reproduce(arm, out, plt) -> tuple[dict, list, dict]:
    """(data, lines, files) of the three extensions (module docstring)."""
    out = Path(out)
    data, lines, files = {}, [], {}
    _tables(lines, data)
    _ground(arm, out, plt, lines, data, files)
    _wall(arm, out, plt, lines, data, files)
    _gibbs_function(arm, lines, data)
    return data, lines, files
