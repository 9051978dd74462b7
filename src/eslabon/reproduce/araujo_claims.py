"""The thesis's claims about its one-way model, tested: part of ``eslabon reproduce araujo``.

Araujo (2012), Ch. III, after "Ejemplo de aplicación", compares the model of its
algorithm with one built in a commercial program and says: the two approximate each other
well; the difference grows as the moment applied at the front axle (the steering torque
M) grows; and the thesis's model behaves more stably, the other showing some perturbation
at the start of the motion. The commercial program is not named and the figures are lost,
so here the thesis's one-way model (the platform moves as if the arm were rigid cargo,
:class:`eslabon.mobile.MobileManipulator` ``mode="thesis"``) is compared with eslabon's
fully coupled model (``mode="coupled"``) of the same PUMA 560 on the same tricycle, over a
range of M and of the forward force F, with load case 1's arm torques.

Measured per coordinate of the thesis's figures (rear-axle distance s, steering β, arm
q1..q6): the largest |thesis − coupled| over 1 s, and the start-up transient, the largest
rate of change of each acceleration over the first 60 ms (three 20 ms samples).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import mobile as mb
from .._files import atomic_file, savefig_atomic

#: the steering torques M [N·m] (at F = 150 N) and forward forces F [N] (at M = 0.3 N·m)
#: swept; M = 3 N·m turns the front wheel across the wheelbase (β = 90°) within 1 s
M_VALUES = (0.0, 0.1, 0.3, 0.6, 1.0)
F_VALUES = (75.0, 150.0, 300.0, 600.0)
ARM_TORQUE = (6.0, 50.0, 10.0, -0.1, -0.5, -0.1)  # load case 1's, N·m
SAMPLES = 51  # every 20 ms over 1 s
START = 3  # samples of the start-up window (0–60 ms)


def compare(mm, F: float, M: float, coordinates) -> dict:
    """Thesis against coupled under platform inputs (F, M) and load case 1's arm torques
    for 1 s: per coordinate, ``difference`` max |thesis − coupled| of the position,
    ``range`` the coupled run's peak-to-peak, and ``start_jerk`` {mode: the largest
    |Δ acceleration / Δt| over the first 60 ms}. ``coordinates(run)`` gives (position,
    velocity, acceleration), each (K, 8)."""
    runs = {
        mode: coordinates(
            mb.simulate(
                mm.with_mode(mode), None, None, 1.0, samples=SAMPLES, u=[F, M], torque=ARM_TORQUE
            )
        )
        for mode in ("thesis", "coupled")
    }
    dt = 1.0 / (SAMPLES - 1)
    return {
        "difference": np.abs(runs["thesis"][0] - runs["coupled"][0]).max(0),
        "range": np.ptp(runs["coupled"][0], axis=0),
        "start_jerk": {
            mode: np.abs(np.diff(r[2][: START + 1], axis=0) / dt).max(0) for mode, r in runs.items()
        },
    }


def reproduce(mm, out: Path, coordinates, names, plt) -> tuple[dict, list, dict]:
    """The two sweeps, ``thesis_claims.csv`` and ``thesis_claims.png`` in ``out``."""
    cases = [(150.0, m) for m in M_VALUES] + [(f, 0.3) for f in F_VALUES if f != 150.0]
    results = {case: compare(mm, *case, coordinates) for case in cases}
    with atomic_file(out / "thesis_claims.csv", "w") as fh:
        fh.write(
            "F,M,coordinate,max_abs_difference,coupled_range,start_jerk_thesis,start_jerk_coupled\n"
        )
        for (F, M), r in results.items():
            for j, name in enumerate(names):
                fh.write(
                    f"{F!r},{M!r},{name},{r['difference'][j]!r},{r['range'][j]!r},"
                    f"{r['start_jerk']['thesis'][j]!r},{r['start_jerk']['coupled'][j]!r}\n"
                )
    files = {"thesis_claims_csv": out / "thesis_claims.csv"}
    by_M = np.array([results[(150.0, m)]["difference"] for m in M_VALUES])
    by_F = np.array([results[(f, 0.3)]["difference"] for f in F_VALUES])
    beta, s = names.index("beta"), names.index("s")
    arm = [names.index(f"q{j}") for j in range(1, 7)]
    jerk = {
        mode: max(float(r["start_jerk"][mode][s]) for r in results.values())
        for mode in ("thesis", "coupled")
    }
    summary = {
        "M_values": list(M_VALUES),
        "F_values": list(F_VALUES),
        "difference_by_M": by_M.tolist(),
        "difference_by_F": by_F.tolist(),
        "coordinates": list(names),
        "beta_grows_with_M": bool(np.all(np.diff(by_M[:, beta]) > 0)),
        "arm_grows_with_F": bool(np.all(np.diff(by_F[:, arm], axis=0) > 0)),
        "arm_grows_with_M": bool(np.all(np.diff(by_M[:, arm], axis=0) > 0)),
        "start_jerk_s": jerk,
    }
    lines = [
        "Thesis claims (Ch. III): one-way (thesis) against coupled, load case 1's arm "
        "torques, 1 s; max |thesis − coupled|:",
        "  " + f"{'F [N]':>6} {'M [N·m]':>7} " + " ".join(f"{n:>8}" for n in names),
    ]
    for (F, M), r in results.items():
        lines.append(f"  {F:6.0f} {M:7.2f} " + " ".join(f"{x:8.1e}" for x in r["difference"]))
    lines += [
        "  (s in m, the others in rad) What holds:",
        f"  - the steering difference grows with M: "
        f"{'yes' if summary['beta_grows_with_M'] else 'no'} (β: "
        + ", ".join(f"{x:.1e}" for x in by_M[:, beta])
        + " rad); the arm's differences "
        + ("grow with M too;" if summary["arm_grows_with_M"] else "do not (set by F, not M);"),
        f"  - the arm's differences grow with F (the platform's acceleration): "
        f"{'yes' if summary['arm_grows_with_F'] else 'no'} (q3: "
        + ", ".join(f"{x:.1e}" for x in by_F[:, arm[2]])
        + " rad); the rear axle's s does not grow steadily (s: "
        + ", ".join(f"{x:.1e}" for x in by_F[:, s])
        + " m);",
        f"  - start-up, max rate of change of s̈ over 0–60 ms: thesis {jerk['thesis']:.2g}, "
        f"coupled {jerk['coupled']:.2g} m/s³ (the thesis's V̇ = F/m starts flat; the "
        "coupled platform feels the arm start to move)",
    ]
    if plt is None:
        return summary, lines, files
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    colors = plt.get_cmap("tab10").colors
    for ax, x, table, label in (
        (axes[0], M_VALUES, by_M, "steering torque M [N·m] (F = 150 N)"),
        (axes[1], F_VALUES, by_F, "forward force F [N] (M = 0.3 N·m)"),
    ):
        for j, name in enumerate(names):
            style = "-" if j < 2 else "--"
            ax.semilogy(
                x,
                np.maximum(table[:, j], 1e-6),
                style,
                marker="o",
                ms=3,
                color=colors[j % 10],
                label=name,
            )
        ax.set(xlabel=label)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("max |thesis − coupled| over 1 s [m or rad], floor 1e-6")
    axes[1].legend(fontsize=8, ncol=2)
    fig.suptitle("Araujo (2012) Ch. III: one-way (thesis) against coupled model", fontsize=10)
    fig.tight_layout()
    files["thesis_claims_png"] = savefig_atomic(fig, out / "thesis_claims.png", dpi=90)
    plt.close(fig)
    return summary, lines, files
