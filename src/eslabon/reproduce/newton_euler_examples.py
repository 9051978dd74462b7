"""``eslabon reproduce practica``: seed 001's worked examples beside the printed values.

Printed values are those of the seed: the 156 N of joint 2 in the text of Ejemplo 3.1
(exactly (5 + 5 + 3 + 3)·9.8 = 156.8 N) and the τ, acel and qpp sessions of Ejemplos 3.3
and 3.4. Their inputs q, q̇, q̈ are drawn with ``rand`` and not printed; the ones used are a
reconstruction (4-decimal draws of MATLAB's legacy ``rand`` stream that end with the
printed q̈), so agreement is to about 1e-3 (Ejemplo 3.3's printed τ is met within 5.5e-4).
The seed prints no number for the pendulum of §3.4: its q(1 s) is set beside a
reference, an independent port of the book's ``simula3``/``walkerorinrunge3`` (RK4,
dt = 1e-3), filed in ``summary.json`` under ``"reference"``, never ``"printed"``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import forward_dynamics, inverse_dynamics, zoo
from .._files import write_text_atomic
from ..sim import simulate

EJ33 = dict(
    q=[0.9355, 0.9169, 0.4103, 0.8936],
    qd=[0.0579, 0.3529, 0.8132, 0.0099],
    qdd=[0.1389, 0.2028, 0.1987, 0.6038],
    tau=[0.5229, 160.0619, 2.0591, 0.0315],
)
EJ34 = dict(
    q=[0.7095, 0.4289, 0.3046, 0.1897, 0.1934, 0.6822],
    qd=[0.3028, 0.5417, 0.1509, 0.6979, 0.3784, 0.8600],
    qdd=[0.8537, 0.5936, 0.4966, 0.8998, 0.8216, 0.6449],
)


def _row(label, computed, printed, heading="printed"):
    """A report line and its summary entry: ``computed`` beside ``printed`` (a value the
    seed prints) filed under ``heading``, "printed" or, for a value the seed does not
    print, "reference"."""
    computed = np.asarray(computed, dtype=float)
    line = f"  {label:<28} computed {np.array2string(computed, precision=5, max_line_width=200)}"
    entry = {"computed": computed.tolist()}
    if printed is not None:
        printed = np.asarray(printed, dtype=float)
        diff = float(np.max(np.abs(computed - printed)))
        line += (
            f"\n  {'':<28} {heading:<8} "
            f"{np.array2string(printed, precision=5, max_line_width=200)}"
            f"   max |diff| {diff:.2e}"
        )
        entry.update({heading: printed.tolist(), "max_abs_diff": diff})
    return line, entry


def _walker_orin_methods(lines, arm6) -> dict:
    """Práctica 3 §3.3: Walker and Orin (1982) compared four methods and found the third
    the fastest; the practice implements it. Method 3 (composite rigid bodies) against
    method 1 (column j of H(q) is the Newton–Euler torque at q̇ = 0, q̈ = e_j, no gravity):
    operation counts of eslabon's kernels on n-joint revolute chains, and the time of one
    mass matrix of the 4- and 6-DOF arms of the practice on this machine (the compiled
    kernels called alike, best of 5 × 2,000)."""
    import timeit

    from ..dynamics import opcount

    counts = {m: opcount.instrumented(m, (4, 6)) for m in ("walker_orin_3", "walker_orin_1")}
    lines.append(
        "Práctica §3.3  Walker–Orin method 3 (composite body) against method 1 (n NE columns)"
    )
    out: dict = {"counts": {}, "time_us": {}}
    for n in (4, 6):
        c3, c1 = counts["walker_orin_3"][n], counts["walker_orin_1"][n]
        out["counts"][n] = {
            "method_3": {"mul": c3["mul"], "add": c3["add"]},
            "method_1": {"mul": c1["mul"], "add": c1["add"]},
        }
        lines.append(
            f"  n = {n}: multiplications / additions  method 3 {c3['mul']} / {c3['add']},"
            f"  method 1 {c1['mul']} / {c1['add']}  ({c1['mul'] / c3['mul']:.1f}x)"
        )
    from .._engine.joints import extended_of
    from ..dynamics import drivers

    kernels = {"walker_orin_3": drivers.crba_one, "walker_orin_1": drivers.ne_columns_one}
    for name, model in (("practica_4dof", zoo.load("practica_4dof")), ("practica_6dof", arm6)):
        q, P = np.linspace(0.1, 0.6, model.nq), model.packed_dynamics
        H, ext = np.empty((model.nv, model.nv)), extended_of(P)
        t = {}
        for method, kernel in kernels.items():
            kernel(P, q, H, ext)  # compiled before it is timed
            runs = timeit.repeat(
                lambda k=kernel, P=P, q=q, H=H, ext=ext: k(P, q, H, ext), number=2000, repeat=5
            )
            t[method] = min(runs) / 2000 * 1e6
        out["time_us"][name] = t
        lines.append(
            f"  {name}: one H(q) in {t['walker_orin_3']:.2f} µs by method 3,"
            f" {t['walker_orin_1']:.2f} µs by method 1 (the compiled kernels, this machine)"
        )
    return out


def reproduce(out) -> tuple[dict, list]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data, lines = {}, ["Seed 001, Práctica 3 Dinámica de Robots (standard DH, g = 9.8 m/s²)"]

    # Ejemplo 3.1: static load of the 4-DOF arm with a 3 kg payload
    arm4 = zoo.load("practica_4dof", payload_mass=3, payload_inertia=0.05, book_com=True)
    z4 = np.zeros(4)
    lines.append("Ejemplo 3.1  4-DOF R-P-P-R, q̇ = q̈ = 0, payload 3 kg: joint 2 holds the weight")
    line, data["ejemplo_3_1"] = _row(
        "tau (q = Ejemplo 3.3 q)", inverse_dynamics(arm4, EJ33["q"], z4, z4), [0, 156.8, 0, 0]
    )
    lines.append(line)

    # Ejemplo 3.2: Newton–Euler of the 6-DOF arm (the seed prints no numbers)
    arm6 = zoo.load("practica_6dof", payload_mass=3, payload_inertia=0.05)
    tau6 = inverse_dynamics(arm6, EJ34["q"], EJ34["qd"], EJ34["qdd"])
    lines.append("Ejemplo 3.2  6-DOF newtoneuler6 at the Ejemplo 3.4 state (no printed values)")
    line, data["ejemplo_3_2"] = _row("tau", tau6, None)
    lines.append(line)

    # Ejemplo 3.3: NE then Walker–Orin on the 4-DOF (book model: sliding prismatic COM)
    tau4 = inverse_dynamics(arm4, EJ33["q"], EJ33["qd"], EJ33["qdd"])
    acc4 = forward_dynamics(arm4, EJ33["q"], EJ33["qd"], tau4)
    lines.append(
        "Ejemplo 3.3  4-DOF newtoneuler4 -> walkerorin4, payload 3 kg, 0.05·I (book COM model)"
    )
    line, tau_entry = _row("tau = newtoneuler4", tau4, EJ33["tau"])
    lines.append(line)
    line, acc_entry = _row("acel = walkerorin4", acc4, EJ33["qdd"])
    lines.append(line)
    data["ejemplo_3_3"] = {"tau": tau_entry, "acel": acc_entry}

    # Ejemplo 3.4: the 6-DOF round trip
    acc6 = forward_dynamics(arm6, EJ34["q"], EJ34["qd"], tau6)
    lines.append("Ejemplo 3.4  6-DOF newtoneuler6 -> walkerorin6, payload 3 kg, 0.05·I")
    line, data["ejemplo_3_4"] = _row("acel = walkerorin6", acc6, EJ34["qdd"])
    lines.append(line)

    # §3.3: Walker & Orin's third method, "the most efficient" of their four, against
    # the first (the mass matrix as n Newton–Euler columns)
    data["walker_orin_3_vs_1"] = _walker_orin_methods(lines, arm6)

    # §3.4: the pendulum falls from rest for 1 s, RK4 at 1 ms
    pend = zoo.load("practica_pendulum3")
    traj = simulate(pend, None, None, 1.0, 1e-3)
    lines.append("Práctica §3.4  3-link pendulum, simula3(1, 0.001): RK4, τ = 0, from rest")
    line, data["pendulum_q_1s"] = _row(
        "q(1 s)",
        traj.q[-1],
        [-1.8224856909, -0.4736453172, -0.1892204591],
        heading="reference",
    )
    lines.append(
        line + "   (reference: a port of the book's simula3/walkerorinrunge3 program, run"
        " independently; the seed prints no table)"
    )
    # the same fall by the notes' own program, by its names (eslabon.practica): simula3's
    # loop of walkerorinrunge3 steps, each rounded to 1e-13 as the listing does
    from .. import practica

    mat_q = practica.simula3(1.0, 1e-3)
    diff = float(np.max(np.abs(mat_q.T - traj.q)))
    lines.append(
        f"  eslabon.practica.simula3(1, 0.001), the notes' program by its names:"
        f" max |diff| {diff:.1e} rad from eslabon.simulate"
    )
    data["practica_simula3"] = {"q_1s": mat_q[:, -1].tolist(), "max_abs_diff": diff}
    files = {
        "trajectory_npz": traj.save(out / "pendulum.npz"),
        "trajectory_csv": traj.save(out / "pendulum.csv"),
    }
    try:
        from ..viz import animate_planar, plot_joint_history

        png, gif = out / "pendulum_q.png", out / "pendulum.gif"
        plot_joint_history(traj, path=png, title="Seed 001 pendulum: joint angles")
        files["plot_png"] = png
        animate_planar(pend, traj, path=gif)
        files["animation_gif"] = gif
    except ValueError as exc:  # matplotlib missing: numbers and data files still written
        lines.append(f"  (no plot or animation: {exc})")
    data["files"] = {k: str(v) for k, v in files.items()}
    write_text_atomic(out / "summary.json", json.dumps(data, indent=2))
    lines.append(
        "files: " + ", ".join(str(v) for v in files.values()) + f", {out / 'summary.json'}"
    )
    return data, lines
