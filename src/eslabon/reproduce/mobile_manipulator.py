"""``eslabon reproduce araujo``: the mobile manipulator of seed 003 (Araujo 2012), a PUMA
560 on a tricycle, under the thesis's two load cases (Ch. III, "Ejemplo de aplicación",
Figs. 3.4–3.9) for 1 s, in the thesis's one-way coupling and fully coupled.

The thesis's figures 3.4–3.9 are lost (only captions survive) and it prints no numbers,
so the comparison is with reference values computed for eslabon by an independent
implementation of the thesis's algorithm (Steps 1–7 of "Algoritmo para resolver el
problema dinámico inverso", Tables A.4–A.7; two integrators agree to 6 digits):
thesis-mode load case 2, where the arm moves as on a fixed base, and V̇ = F/m. The
platform's mass split, the mount and the initial pose are not in the thesis: the documented
assumed set (``TricycleParams.seekur_jr_assumed()``), the assumed mount
(``Mount.araujo_assumed()``, also the demo's), and every coordinate zero at rest are used,
and said so in the output; ``sensitivity.png`` shows how much each assumption matters.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from .. import mobile as mb
from .._files import savefig_atomic, write_text_atomic
from ..kinematics.forward import forward_kinematics
from ..zoo.araujo import puma560_araujo

CASES = {
    1: {"u": [150.0, 0.3], "torque": [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]},
    2: {"u": [300.0, 0.0], "torque": [0.0] * 6},
}
FIGURES = {
    1: (("3.4", "accelerations"), ("3.5", "velocities"), ("3.6", "displacements")),
    2: (("3.7", "accelerations"), ("3.8", "velocities"), ("3.9", "displacements")),
}
REFERENCE_CASE2 = {
    0.5: [-0.028273, 0.79665, -0.72554, 0.028247, -0.056499, 0.000077],
    1.0: [-0.317527, 2.523064, -1.821483, 0.318069, -0.588435, 0.058022],
}
SAMPLES = 201  # dt = 5 ms: t = 0.5 and 1.0 are samples
MODES = ("thesis", "coupled")
NAMES = ["s", "beta"] + [f"q{j + 1}" for j in range(6)]
UNITS = ["m", "rad"] + ["rad"] * 6
LABELS = ["(a) rear axle s", "(b) steering β"] + [
    f"({c}) link {i + 1}" for i, c in enumerate("cdefgh")
]


def _coordinates(run, radius):
    """The thesis's 8 coordinates (rear-axle distance s, steering β, arm q1..q6) as
    (position, velocity, acceleration), each (K, 8).

    s = ∫V dt is not a configuration coordinate (the pose is x, y, heading); it is read
    off the rear wheel spins, s = r (φ_L + φ_R)/2, because φ̇_L,R = (V ∓ l θ̇)/r sum to
    2V/r: the integrator's own state at its tolerance, no quadrature on the samples."""
    names = list(run.config_names)
    s = (
        radius
        * (
            run.config[:, names.index("phi_rear_left")]
            + run.config[:, names.index("phi_rear_right")]
        )
        / 2
    )
    pos = np.column_stack([s, run.config[:, names.index("steering")], run.q])
    return pos, np.column_stack([run.nu, run.qd]), np.column_stack([run.nu_dot, run.qdd])


def _s_quadrature(run):
    """s by the Hermite trapezoid on the samples (V and V̇ known, exact for cubic V):
    the cross-check of the wheel-spin reading."""
    V, A, h = run.nu[:, 0], run.nu_dot[:, 0], np.diff(run.t)
    steps = h / 2 * (V[1:] + V[:-1]) + h**2 / 12 * (A[:-1] - A[1:])
    return np.concatenate([[0.0], np.cumsum(steps)])


def _family(out, case, coords, t, plt):
    """Figures 3.4–3.6 (case 1) or 3.7–3.9 (case 2): 8 panels, thesis and coupled."""
    files = []
    for k, (number, what) in enumerate(FIGURES[case]):
        kind = 2 - k  # accelerations, velocities, displacements
        fig, axes = plt.subplots(4, 2, figsize=(10, 11), sharex=True)
        for j, ax in enumerate(axes.T.ravel()):
            for mode, style in zip(MODES, ("-", "--"), strict=True):
                ax.plot(t, coords[mode][kind][:, j], style, label=mode)
            unit = UNITS[j] + ("", "/s", "/s²")[kind]
            ax.set_title(f"{LABELS[j]} [{unit}]", fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[0, 0].legend(fontsize=8)
        for ax in axes[-1]:
            ax.set_xlabel("t [s]")
        fig.suptitle(f"Fig. {number} analogue, load case {case}: {what}")
        fig.tight_layout()
        path = out / f"fig{number.replace('.', '_')}_case{case}_{what}.png"
        savefig_atomic(fig, path, dpi=90)
        plt.close(fig)
        files.append(path)
    return files


def _arm_com(arm, q):
    """The arm's centre of mass in its base frame (axes those of the chassis: the mount
    turns nothing)."""
    T = forward_kinematics(arm, q)
    c = np.einsum("bij,bj->bi", T[:, :3, :3], arm.com) + T[:, :3, 3]
    return arm.mass[1:] @ c[1:] / arm.mass[1:].sum()


def _operation_counts(data) -> list:
    """Ch. III calls the Gibbs–Appell recursion an efficient algorithm: its multiplications
    on a 6-joint chain, counted on eslabon's code (:mod:`eslabon.dynamics.opcount`), beside
    the Lagrange model and the O(n) recursions."""
    from ..dynamics import opcount

    e = opcount.efficiency(6)
    data["operation_counts_n6"] = e
    return [
        "Operation counts, 6-joint chain, multiplications (counted on eslabon's code):",
        f"  q̈: Gibbs–Appell {e['gibbs_appell']}, Lagrange model {e['lagrange']}, "
        f"articulated body {e['aba']}; τ: Newton–Euler {e['rnea']}",
        f"  Gibbs–Appell / Lagrange = {e['gibbs_appell/lagrange']:.2f}, "
        f"Gibbs–Appell / articulated body = {e['gibbs_appell/aba']:.2f}: efficient against "
        "the Lagrange model, not against the O(n) recursions",
    ]


def reproduce(out) -> tuple[dict, list]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    params = mb.TricycleParams.seekur_jr_assumed()
    arm = puma560_araujo()
    mm = mb.MobileManipulator(mb.Tricycle(params), arm, mb.Mount.araujo_assumed(), mode="thesis")
    mc = mb.steered_cart.mass_constants(params, front_wheels=2)  # the thesis's: Martinenko's
    mc_own = mb.steered_cart.mass_constants(params)
    lines = [
        "Seed 003, Araujo (2012): PUMA 560 on a tricycle, Gibbs–Appell, load cases of Ch. III",
        (
            "  case 1: F = 150 N, M = 0.3 N·m, τ = [6, 50, 10, −0.1, −0.5, −0.1] N·m; "
            "case 2: F = 300 N, M = 0, τ = 0; 1 s from rest, DOP853 (rtol 1e-10, atol 1e-12)"
        ),
        (
            "Assumed, not in the thesis: the platform mass split (Seekur Jr. 350 kg as "
            f"{params.chassis_mass:g} kg chassis, 3 × {params.rear_wheel_mass:g} kg wheels, "
            f"{params.steering_mass:g} kg steering body; docs/mobile.md); the thesis mode "
            f"uses Martinenko's printed constants (a steered axle of two wheels, as the "
            f"thesis does): m = {mc.m:g} kg, I2 = {mc.I2:g} kg·m², m0 = {mc.m0:.6g} kg;"
        ),
        (
            f"  with the one front wheel the coupled mode has (ThesisOptions(constants="
            f"'platform')): m = {mc_own.m:g} kg, I2 = {mc_own.I2:g} kg·m², "
            f"m0 = {mc_own.m0:.6g} kg;"
        ),
        (
            "  the arm's mount Mount.araujo_assumed(): 0.30 m ahead of the rear axle, 0.50 m "
            "up, axes aligned (base z up); start at rest with every coordinate 0; "
            "g = 9.81 m/s²."
        ),
        "The thesis's plots are lost: only independently computed reference values are compared.",
    ]
    data = {
        "assumed_platform": asdict(params),
        "mount": {
            "translation": mm.mount.translation.tolist(),
            "rotation": mm.mount.rotation.tolist(),
        },
        "mass_constants": mc._asdict(),
        "mass_constants_platform": mc_own._asdict(),
        "cases": {},
        "files": {},
    }
    # the four runs: each load case in the thesis's one-way coupling and fully coupled
    runs = {
        case: {
            mode: mb.simulate(mm.with_mode(mode), None, None, 1.0, samples=SAMPLES, **loads)
            for mode in MODES
        }
        for case, loads in CASES.items()
    }
    coords = {
        case: {mode: _coordinates(r, params.rear_wheel_radius) for mode, r in rs.items()}
        for case, rs in runs.items()
    }
    for case, rs in runs.items():
        for mode, run in rs.items():
            data["files"][f"case{case}_{mode}_csv"] = str(run.save(out / f"case{case}_{mode}.csv"))
    t = runs[1]["thesis"].t

    # thesis-mode case 2 moves the arm as on a fixed base (β ≡ 0, no V̇ enters the arm),
    # V̇ = F/m: reference values of an independent implementation of Steps 1–7
    thesis2 = runs[2]["thesis"]
    check = {}
    lines.append("Thesis mode, load case 2, against reference values (arm as on a fixed base):")
    for tk, expected in REFERENCE_CASE2.items():
        i = int(np.flatnonzero(np.isclose(t, tk))[0])
        diff = float(np.abs(thesis2.q[i] - expected).max())
        check[f"q({tk:g} s)"] = {
            "computed": thesis2.q[i].tolist(),
            "reference": expected,
            "max_abs_diff": diff,
        }
        lines += [
            f"  q({tk:g} s) computed {np.round(thesis2.q[i], 6).tolist()}",
            f"  {'':>7} reference {expected}   max |diff| {diff:.1e}",
        ]
    F = CASES[2]["u"][0]
    vdot_err = float(np.abs(thesis2.nu_dot[:, 0] - F / mc.m).max())
    check["V_dot"] = {
        "computed": thesis2.nu_dot[:, 0].tolist()[::50],
        "closed_form_F_over_m": F / mc.m,
        "max_abs_diff": vdot_err,
    }
    check["steering_max_abs"] = float(np.abs(coords[2]["thesis"][0][:, 1]).max())
    s_end = coords[2]["thesis"][0][-1, 0]
    lines.append(
        f"  V̇ = F/m = {F:g}/{mc.m:g} = {F / mc.m:.9f} m/s²: max |diff| {vdot_err:.1e}; "
        f"s(1 s) = {s_end:.9f} m (F/2m = {F / 2 / mc.m:.9f}); "
        f"max |β| = {check['steering_max_abs']:g}"
    )
    sq = max(
        float(np.abs(_s_quadrature(r) - coords[c][m][0][:, 0]).max())
        for c, rs in runs.items()
        for m, r in rs.items()
    )
    check["s_wheel_spins_vs_quadrature"] = sq
    lines.append(f"  s from the rear wheel spins vs the Hermite trapezoid of V: {sq:.1e} m")
    data["reference_checks"] = check

    # the coupled runs: work–energy balance; case 2 longitudinal momentum (β ≡ 0, θ ≡ 0)
    lines.append("Coupled runs, max |E(t) − E(0) − W(t)| / max |W|:")
    for case, rs in runs.items():
        co = rs["coupled"]
        err = float(np.abs(co.energy - co.energy[0] - co.work).max() / np.abs(co.work).max())
        data["cases"][case] = {
            "coupled_energy_balance": err,
            "final": {
                mode: {
                    "pose": r.config[-1, :4].tolist(),
                    "s": float(coords[case][mode][0][-1, 0]),
                    "q": r.q[-1].tolist(),
                }
                for mode, r in rs.items()
            },
        }
        lines.append(f"  case {case}: {err:.1e}")
    co = runs[2]["coupled"]
    m_arm = float(arm.mass[1:].sum())
    dx = float(_arm_com(arm, co.q[-1])[0] - _arm_com(arm, co.q[0])[0])
    s_co = coords[2]["coupled"][0][-1, 0]
    s_mom = (F / 2 - m_arm * dx) / (mc_own.m + m_arm)  # (m + m_arm) s + m_arm Δx_G = F t²/2
    data["cases"][2]["momentum"] = {
        "arm_mass": m_arm,
        "arm_com_dx": dx,
        "s_coupled": s_co,
        "s_from_momentum": s_mom,
        "s_rigid_arm": F / 2 / (mc_own.m + m_arm),
    }
    lines.append(
        f"  case 2 coupled: s(1 s) = {s_co:.6f} m; (m + m_arm) s + m_arm Δx_G = F t²/2 "
        f"gives {s_mom:.6f} (the {m_arm:g} kg arm's centre of mass moves {dx:+.3f} m "
        f"along the chassis; a rigid arm would give {F / 2 / (mc_own.m + m_arm):.6f})"
    )

    # thesis against coupled: what the one-way coupling leaves out, per coordinate
    table = []
    for case in CASES:
        th, co_ = coords[case]["thesis"], coords[case]["coupled"]
        for j, name in enumerate(NAMES):
            d = [np.abs(th[k][:, j] - co_[k][:, j]) for k in range(3)]
            table.append(
                {
                    "case": case,
                    "coordinate": name,
                    "unit": UNITS[j],
                    "pos_at_1s": float(d[0][-1]),
                    "pos_max": float(d[0].max()),
                    "vel_at_1s": float(d[1][-1]),
                    "vel_max": float(d[1].max()),
                    "acc_at_1s": float(d[2][-1]),
                    "acc_max": float(d[2].max()),
                }
            )
    data["differences"] = table
    keys = list(table[0])
    path = out / "differences.csv"
    write_text_atomic(
        path,
        ",".join(keys)
        + "\n"
        + "\n".join(
            ",".join(str(r[k]) if k in ("case", "coordinate", "unit") else repr(r[k]) for k in keys)
            for r in table
        )
        + "\n",
    )
    data["files"]["differences"] = str(path)
    lines.append(
        "Thesis − coupled, |difference| at t = 1 s and max over 0–1 s "
        "(units m or rad, per s, per s²):"
    )
    lines.append(
        f"  {'case':>4} {'coord':<5} {'pos@1s':>9} {'pos max':>9} {'vel@1s':>9} "
        f"{'vel max':>9} {'acc@1s':>9} {'acc max':>9}"
    )
    for r in table:
        lines.append(
            f"  {r['case']:>4} {r['coordinate']:<5} " + " ".join(f"{r[k]:9.3g}" for k in keys[3:])
        )

    # figure families 3.4–3.9, the x–y path, the difference over time
    for case in CASES:
        for f in _family(out, case, coords[case], t, plt):
            data["files"][f.stem] = str(f)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for case in CASES:
        for mode, style in zip(MODES, ("-", "--"), strict=True):
            r = runs[case][mode]
            ax.plot(r.config[:, 0], r.config[:, 1], style, label=f"case {case}, {mode}")
    ax.set(xlabel="x [m]", ylabel="y [m] (scale ≠ x)", title="rear-axle midpoint path, 0–1 s")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    data["files"]["path"] = str(out / "platform_path.png")
    savefig_atomic(fig, data["files"]["path"], dpi=100)
    plt.close(fig)
    fig, axes = plt.subplots(3, 2, figsize=(11, 10), sharex=True)
    for col, case in enumerate(CASES):
        th, co_ = coords[case]["thesis"], coords[case]["coupled"]
        for row, what in enumerate(("position", "velocity", "acceleration")):
            ax = axes[row, col]
            for j, name in enumerate(NAMES):
                ax.plot(t, th[row][:, j] - co_[row][:, j], label=name)
            ax.set_title(f"load case {case}: thesis − coupled, {what}", fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[-1, col].set_xlabel("t [s]")
    axes[0, 0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    data["files"]["difference_plot"] = str(out / "thesis_vs_coupled.png")
    savefig_atomic(fig, data["files"]["difference_plot"], dpi=90)
    plt.close(fig)
    from . import araujo_claims

    data["thesis_claims"], more, files = araujo_claims.reproduce(
        mm, out, lambda run: _coordinates(run, params.rear_wheel_radius), NAMES, plt
    )
    lines += more
    data["files"].update({k: str(v) for k, v in files.items()})
    from . import araujo_sensitivity

    data["sensitivity"], more, files = araujo_sensitivity.reproduce(
        arm, out, lambda run: _coordinates(run, params.rear_wheel_radius), NAMES, plt
    )
    lines += more
    data["files"].update({k: str(v) for k, v in files.items()})
    from . import araujo_control

    data["control"], more, files = araujo_control.reproduce(mm, out, plt)
    lines += more
    data["files"].update({k: str(v) for k, v in files.items()})
    from . import araujo_extensions

    data["extensions"], more, files = araujo_extensions.reproduce(arm, out, plt)
    lines += more
    data["files"].update({k: str(v) for k, v in files.items()})
    lines += _operation_counts(data)
    write_text_atomic(out / "summary.json", json.dumps(data, indent=2))
    data["files"]["summary"] = str(out / "summary.json")
    lines.append(f"files written in {out}:")
    names = sorted(Path(f).name for f in data["files"].values())
    lines += ["  " + ", ".join(names[i : i + 4]) for i in range(0, len(names), 4)]
    return data, lines
