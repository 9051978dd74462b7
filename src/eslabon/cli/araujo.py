"""``eslabon reproduce araujo``: the mobile manipulator of seed 003 (Araujo 2012), a PUMA
560 on a tricycle, under the thesis's two load cases for 1 s, in the thesis's one-way
coupling and fully coupled.

The thesis's figures 3.4–3.9 are lost (only captions survive) and it prints no numbers,
so the comparison is with the digest's derived values (research/seed_003_araujo.md §4.2):
thesis-mode load case 2, where the arm moves as on a fixed base. The platform's mass split,
the mount and the initial pose are not in the thesis: the documented assumed set
(``TricycleParams.seekur_jr_assumed()``), the mount at the chassis origin, and every
coordinate zero at rest are used, and said so in the output.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np

from .. import mobile as mb
from ..zoo.araujo import puma560_araujo

CASES = {1: dict(u=[150.0, 0.3], tau=[6.0, 50.0, 10.0, -0.1, -0.5, -0.1]),
         2: dict(u=[300.0, 0.0], tau=[0.0] * 6)}
FIGURES = {1: (("3.4", "accelerations"), ("3.5", "velocities"), ("3.6", "displacements")),
           2: (("3.7", "accelerations"), ("3.8", "velocities"), ("3.9", "displacements"))}
DIGEST_CASE2 = {0.5: [-0.028273, 0.79665, -0.72554, 0.028247, -0.056499, 0.000077],
                1.0: [-0.317527, 2.523064, -1.821483, 0.318069, -0.588435, 0.058022]}
SAMPLES = 201


def _coordinates(run):
    """The thesis's 8 coordinates (rear-axle distance s = ∫V dt, steering β, arm q1..q6)
    as (position, velocity, acceleration), each (K, 8)."""
    V = run.nu[:, 0]
    s = np.concatenate([[0.0], np.cumsum((V[1:] + V[:-1]) / 2 * np.diff(run.t))])
    pos = np.column_stack([s, run.config[:, 3], run.q])
    vel = np.column_stack([run.nu, run.qd])
    acc = np.column_stack([run.nu_dot, run.qdd])
    return pos, vel, acc


LABELS = ["(a) rear axle s [m]", "(b) steering β [rad]"] + \
    [f"({c}) link {i + 1} [rad]" for i, c in enumerate("cdefgh")]


def _family(out, case, runs, plt):
    """Figures 3.4–3.6 (case 1) or 3.7–3.9 (case 2): 8 panels, thesis and coupled."""
    files = []
    coords = {mode: _coordinates(run) for mode, run in runs.items()}
    for k, (number, what) in enumerate(FIGURES[case]):
        kind = 2 - k                             # accelerations, velocities, displacements
        fig, axes = plt.subplots(4, 2, figsize=(10, 11), sharex=True)
        for j, ax in enumerate(axes.T.ravel()):
            for mode, style in (("thesis", "-"), ("coupled", "--")):
                ax.plot(runs[mode].t, coords[mode][kind][:, j], style, label=mode)
            ax.set_title(LABELS[j].replace("[m]", "").replace("[rad]", ""), fontsize=9)
            ax.grid(True, alpha=0.3)
        axes[0, 0].legend(fontsize=8)
        for ax in axes[-1]:
            ax.set_xlabel("t [s]")
        fig.suptitle(f"Fig. {number} analogue, load case {case}: {what} "
                     "(units: m or rad, per s, per s²)")
        fig.tight_layout()
        path = out / f"fig{number.replace('.', '_')}_case{case}_{what}.png"
        fig.savefig(path, dpi=90)
        plt.close(fig)
        files.append(path)
    return files


def reproduce(out) -> tuple[dict, list]:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    params = mb.TricycleParams.seekur_jr_assumed()
    mm = mb.MobileManipulator(mb.Tricycle(params), puma560_araujo(), mb.Mount(), mode="thesis")
    m = mb.martinenko.mass_constants(params)
    lines = ["Seed 003, Araujo (2012): PUMA 560 on a tricycle, Gibbs–Appell, load cases of §3.3",
             "Assumed (not in the thesis): the platform mass split "
             f"({params.chassis_mass:g} kg chassis, 3 × {params.rear_wheel_mass:g} kg wheels, "
             f"{params.steering_mass:g} kg steering body; docs/mobile.md), the mount at the "
             "chassis origin, start at rest with every coordinate 0, g = 9.81.",
             "The thesis's plots are lost: compared below with the digest's derived values."]
    data = {"assumed_platform": asdict(params), "mount": {"translation": [0, 0, 0],
                                                          "rotation": np.eye(3).tolist()},
            "mass_constants": m._asdict(), "cases": {}, "files": {}}
    runs = {}
    for case, loads in CASES.items():
        runs[case] = {mode: mb.simulate(mm.with_mode(mode), 1.0, samples=SAMPLES, **loads)
                      for mode in ("thesis", "coupled")}
        for mode, run in runs[case].items():
            path = run.save(out / f"case{case}_{mode}.csv")
            data["files"][f"case{case}_{mode}_csv"] = str(path)
    # the digest's derived values (thesis mode, case 2) and the closed-form platform
    thesis2 = runs[2]["thesis"]
    check = {}
    for t, expected in DIGEST_CASE2.items():
        i = int(np.argmin(np.abs(thesis2.t - t)))
        check[f"q({t:g} s)"] = {"computed": thesis2.q[i].tolist(), "digest": expected,
                                "max_abs_diff": float(np.abs(thesis2.q[i] - expected).max())}
    check["V_dot"] = {"computed": float(thesis2.nu_dot[:, 0].mean()),
                      "closed_form_F_over_m": 300.0 / m.m,
                      "max_abs_diff": float(np.abs(thesis2.nu_dot[:, 0] - 300.0 / m.m).max())}
    data["digest_checks"] = check
    lines.append("Thesis mode, load case 2, against the digest §4.2 (the arm moves as on a "
                 "fixed base):")
    for key, row in check.items():
        lines.append(f"  {key:<10} max |diff| = {row['max_abs_diff']:.2e}")
    # thesis against coupled: how much the one-way coupling leaves out
    names = ["s", "beta"] + [f"q{j + 1}" for j in range(6)]
    table = []
    lines.append("Thesis vs coupled, max |difference| over 0–1 s (position; velocity):")
    for case in CASES:
        th, co = (_coordinates(runs[case][m_]) for m_ in ("thesis", "coupled"))
        row = {"case": case}
        for j, name in enumerate(names):
            row[name] = float(np.abs(th[0][:, j] - co[0][:, j]).max())
            row[f"d_{name}"] = float(np.abs(th[1][:, j] - co[1][:, j]).max())
        table.append(row)
        lines.append(f"  case {case}: " + ", ".join(f"{n} {row[n]:.3g}" for n in names))
        bal = runs[case]["coupled"]
        err = np.abs(bal.energy - bal.energy[0] - bal.work).max() / max(np.abs(bal.work).max(), 1e-300)
        data["cases"][case] = {"coupled_energy_balance": float(err),
                               "final": {mode: {"pose": r.config[-1, :4].tolist(),
                                                "q": r.q[-1].tolist()}
                                         for mode, r in runs[case].items()}}
        lines.append(f"          coupled work–energy balance: {err:.1e} of the work done")
    data["differences"] = table
    path = out / "differences.csv"
    keys = list(table[0])
    path.write_text(",".join(keys) + "\n" + "\n".join(",".join(repr(r[k]) for k in keys)
                                                      for r in table) + "\n")
    data["files"]["differences"] = str(path)
    # figure families, the x–y path, the difference over time
    for case in CASES:
        for k, f in enumerate(_family(out, case, runs[case], plt)):
            data["files"][f.stem] = str(f)
    fig, ax = plt.subplots(figsize=(6, 4.5))
    for case in CASES:
        for mode, style in (("thesis", "-"), ("coupled", "--")):
            r = runs[case][mode]
            ax.plot(r.config[:, 0], r.config[:, 1], style, label=f"case {case}, {mode}")
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_title("rear-axle midpoint path")
    ax.axis("equal")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    data["files"]["path"] = str(out / "platform_path.png")
    fig.savefig(data["files"]["path"], dpi=100)
    plt.close(fig)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=False)
    for ax, case in zip(axes, CASES):
        th, co = (_coordinates(runs[case][m_])[0] for m_ in ("thesis", "coupled"))
        for j, name in enumerate(names):
            ax.plot(runs[case]["thesis"].t, th[:, j] - co[:, j], label=name)
        ax.set_title(f"load case {case}: thesis − coupled (position)")
        ax.set_xlabel("t [s]")
        ax.grid(True, alpha=0.3)
    axes[0].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    data["files"]["difference_plot"] = str(out / "thesis_vs_coupled.png")
    fig.savefig(data["files"]["difference_plot"], dpi=100)
    plt.close(fig)
    (out / "summary.json").write_text(json.dumps(data, indent=2))
    lines.append(f"files: {len(data['files'])} in {out} (figures 3.4–3.9, path, differences, "
                 "CSV per run, summary.json)")
    return data, lines
