"""Control of the mobile manipulator, platform and arm together: part of ``eslabon
reproduce araujo``.

Araujo (2012) simulates its PUMA on a tricycle in open loop and names control as further
work ("Recomendaciones"). Here the coupled model tracks a reference run — load case 1's
inputs (F = 150 N, M = 0.3 N·m, τ = [6, 50, 10, −0.1, −0.5, −0.1] N·m) for 2 s from a
rolling start at V = 1 m/s — from a perturbed start: the platform 5 cm to the side and
turned 0.05 rad, every arm joint 0.1 rad off. Three runs (:mod:`eslabon.mobile.control`):
the reference's inputs in open loop, computed torque (K_p = 100 s⁻², K_d = 20 s⁻¹,
K_ν = 10 s⁻¹) and the time-varying LQR on the linearization along the reference (control
period 0.05 s), all stepped by RK4 at 10 ms with the inputs held over each step.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import mobile as mb
from .._files import atomic_file, savefig_atomic

T_FINAL, DT, PERIOD = 2.0, 0.01, 0.05
PLATFORM_INPUT = (150.0, 0.3)
ARM_TORQUE = (6.0, 50.0, 10.0, -0.1, -0.5, -0.1)
START_SPEED = 1.0  # m/s
#: the perturbation of the start: lateral [m], heading [rad], each arm joint [rad]
OFFSET = {"y": 0.05, "heading": 0.05, "arm": 0.1}


def weights(mm):
    """The LQR's diagonal Q (pose 1e3, steering 1, arm 1e3, rates 1; wheel spins 0) and R
    (1e-3 for every input)."""
    nc, n = mm.n_config, mm.n_arm
    Q = np.zeros(mm.n_state)
    Q[:3], Q[3] = 1e3, 1.0
    Q[nc : nc + n] = 1e3
    Q[nc + n :] = 1.0
    R = np.full(len(mm.platform.input_names) + n, 1e-3)
    return Q, R


def runs(mm) -> dict:
    """The reference (a run of ``mm`` coupled) and the three closed-loop runs
    (:class:`~eslabon.mobile.control.ClosedLoopRun`)."""
    ref = mb.simulate(
        mm.with_mode("coupled"),
        None,
        None,
        T_FINAL,
        DT,
        integrator="rk4",
        u=PLATFORM_INPUT,
        torque=ARM_TORQUE,
        nu0=[START_SPEED, 0.0],
    )
    mm = mm.with_mode("coupled")
    nc = mm.n_config
    y0 = ref.state(0)
    y0[1] += OFFSET["y"]
    y0[2] += OFFSET["heading"]
    y0[nc : nc + mm.n_arm] += OFFSET["arm"]
    u, tau = np.array(PLATFORM_INPUT), np.array(ARM_TORQUE)
    Q, R = weights(mm)
    laws = {
        "open loop": lambda m, t, y: (u, tau),
        "computed torque": mb.control.ComputedTorque(ref, kp=100.0, kd=20.0, k_nu=10.0),
        "TV-LQR": mb.control.TimeVaryingLQR.design(mm, ref, PERIOD, Q, R, final_weight=10 * Q),
    }
    out = {name: mb.control.closed_loop(mm, law, y0, reference=ref) for name, law in laws.items()}
    return {"reference": ref, **out}


def reproduce(mm, out: Path, plt) -> tuple[dict, list, dict]:
    """The three runs; ``control.csv`` (errors at 2 s) and ``control.png`` in ``out``."""
    result = runs(mm)
    nc, n = mm.n_config, mm.n_arm
    table = {}
    for name in ("open loop", "computed torque", "TV-LQR"):
        e = result[name].error[-1]
        table[name] = {
            "lateral": float(abs(e[1])),
            "heading": float(abs(e[2])),
            "arm": float(np.abs(e[nc : nc + n]).max()),
            "max_platform_input": np.abs(result[name].u).max(0).tolist(),
            "max_arm_torque": float(np.abs(result[name].tau).max()),
        }
    lines = [
        "Control of platform and arm together (coupled model; eslabon's, the thesis names it "
        "as further work): track load case 1 from V = 1 m/s for 2 s, started 5 cm aside, "
        "0.05 rad turned, arm joints 0.1 rad off; errors at 2 s:",
        f"  {'law':<16} {'lateral [m]':>12} {'heading [rad]':>14} {'arm max [rad]':>14}"
        f" {'max |F|, |M|':>16}",
    ]
    for name, row in table.items():
        F, M = row["max_platform_input"]
        lines.append(
            f"  {name:<16} {row['lateral']:>12.2e} {row['heading']:>14.2e} {row['arm']:>14.2e}"
            f" {F:>8.0f}, {M:>6.1f}"
        )
    lines.append(
        "  computed torque tracks the arm and the platform's speeds, not its pose "
        "(a tricycle's pose is not fed back); the LQR on the linearization along the "
        "reference corrects the pose too"
    )
    with atomic_file(out / "control.csv", "w") as fh:
        fh.write("law,lateral_m,heading_rad,arm_max_rad\n")
        for name, row in table.items():
            fh.write(f"{name},{row['lateral']!r},{row['heading']!r},{row['arm']!r}\n")
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.4))
    for name in table:
        run = result[name]
        axes[0].plot(run.t, run.error[:, 1], label=name)
        axes[1].plot(run.t, run.error[:, 2], label=name)
        axes[2].semilogy(run.t, np.abs(run.error[:, nc : nc + n]).max(1) + 1e-12, label=name)
    for ax, title in zip(
        axes, ("lateral error [m]", "heading error [rad]", "max |arm error| [rad]"), strict=True
    ):
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("t [s]")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    savefig_atomic(fig, out / "control.png", dpi=90)
    plt.close(fig)
    return table, lines, {"control_csv": out / "control.csv", "control_plot": out / "control.png"}
