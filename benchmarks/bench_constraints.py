#!/usr/bin/env python
"""Cost of constrained dynamics against Pinocchio and MuJoCo, in one run.

    python benchmarks/bench_constraints.py [--repeat 5]

- Solo 12 on four point feet and Talos (reduced) on two flat feet: one call of
  ``eslabon.constraints.constrained_forward_dynamics`` (KKT and Schur) against
  ``pinocchio.constraintDynamics`` with the same contacts (3-D / 6-D, world-aligned), and
  a loop over 50 random states of each.
- The four-bar (``zoo.load("four_bar")``) simulated 10 s at 1 kHz with RK4 by
  ``eslabon.simulate`` against MuJoCo's RK4 with the loop closed by an equality
  ``connect`` constraint (a soft constraint: MuJoCo's default solref).

Every eslabon figure here is the numpy reference path (a Python call per state, per
stage); the compiled constrained kernels are not written yet. Not a test: no wall-clock
bounds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import eslabon as es  # noqa: E402
from eslabon import constraints as ec  # noqa: E402


def best(fn, repeat: int, number: int) -> float:
    """Best of ``repeat`` means over ``number`` calls [s per call]."""
    fn()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - t0) / number)
    return min(times)


def _robot(relative: str):
    from checks import example_robot_data_root

    root = example_robot_data_root()
    if root is None:
        return None
    return es.load_model(root / relative, root_joint="free_flyer")


def _standing(model, feet, kind, rng):
    q = es.random_configuration(model, rng)
    q[:3] = [0.0, 0.0, 0.5]
    contacts = [
        ec.Contact(
            f,
            f,
            kind,
            position=es.kinematics.frame_pose(model, q, f)[:3, 3],
            rotation=es.kinematics.frame_pose(model, q, f)[:3, :3],
        )  # fmt: skip
        for f in feet
    ]
    N = ec.partition(model, q, constraints=contacts).N
    v = N @ rng.uniform(-1, 1, N.shape[1])
    return q, v, rng.uniform(-1, 1, model.nv), contacts


def _pinocchio(model, contacts):
    """Pinocchio's own call on its twin, the arguments in its order (no reordering timed)."""
    import pinocchio as pin

    from eslabon.interop.pinocchio import configuration_order, constraint_dynamics_twin, dof_order

    pm, data, models, datas, settings = constraint_dynamics_twin(model, contacts).pinocchio
    cq, cv = configuration_order(model), dof_order(model)

    def call(q, v, tau):
        return pin.constraintDynamics(pm, data, q[cq], v[cv], tau[cv], models, datas, settings)

    return call


def _measure(model, contacts, state, states, repeat):
    """(KKT, Schur, Pinocchio) per call, then (ours, Pinocchio) per state of a loop [s]."""
    pin_call = _pinocchio(model, contacts)

    def ours(algorithm):
        return ec.constrained_forward_dynamics(model, *state, constraints=contacts,
                                               algorithm=algorithm)  # fmt: skip

    def loop_ours():
        return [ec.constrained_forward_dynamics(model, *s, constraints=contacts) for s in states]

    def loop_pin():
        return [pin_call(*s) for s in states]

    kkt = best(lambda: ours("kkt"), repeat, 20)
    schur = best(lambda: ours("schur"), repeat, 20)
    theirs = best(lambda: pin_call(*state), repeat, 2000)
    per = len(states)
    return kkt, schur, theirs, best(loop_ours, 1, 1) / per, best(loop_pin, repeat, 20) / per


def floating(repeat: int) -> list:
    rows = []
    cases = [
        ("solo12 on 4 points", "solo_description/robots/solo12.urdf",
         [f"{leg}_FOOT" for leg in ("FL", "FR", "HL", "HR")], "point"),
        ("talos on 2 feet", "talos_data/robots/talos_reduced.urdf",
         ["left_sole_link", "right_sole_link"], "weld"),
    ]  # fmt: skip
    for label, path, feet, kind in cases:
        model = _robot(path)
        if model is None:
            print(f"{label}: example-robot-data is not installed; skipped")
            continue
        rng = np.random.default_rng(0)
        q, v, tau, contacts = _standing(model, feet, kind, rng)
        states = [_standing(model, feet, kind, rng)[:3] for _ in range(50)]
        rows.append((label, *_measure(model, contacts, (q, v, tau), states, repeat)))
    return rows


def four_bar_mjcf(model) -> str:
    """The zoo four-bar as MJCF: three hinges about z, the rocker's end held at the
    ground pivot by an equality ``connect`` (the same inertias, placements, gravity)."""
    from scipy.spatial.transform import Rotation

    end = model.frame("rocker_end")
    xml = "<mujoco><option timestep='0.001' integrator='RK4' gravity='{} {} {}'/>".format(
        *model.gravity
    )
    xml += "<worldbody>"
    close = ""
    for i in range(1, model.nb + 1):
        t, c, inertia = model.tree_translation[i], model.com[i], model.inertia[i]
        x, y, z, w = Rotation.from_matrix(model.tree_rotation[i]).as_quat()
        full = " ".join(str(v) for v in inertia[[0, 1, 2, 0, 0, 1], [0, 1, 2, 1, 2, 2]])
        axis = model.axis[i]
        xml += (
            f"<body name='b{i}' pos='{t[0]} {t[1]} {t[2]}' quat='{w} {x} {y} {z}'>"
            f"<joint type='hinge' axis='{axis[0]} {axis[1]} {axis[2]}'/>"
            f"<inertial pos='{c[0]} {c[1]} {c[2]}' mass='{model.mass[i]}' "
            f"fullinertia='{full}'/>"
        )
        close += "</body>"
    xml += close + "</worldbody>"
    a = end.translation  # in the rocker's frame; MuJoCo finds the world point at qpos0
    xml += (
        f"<equality><connect body1='b{end.body}' body2='world' anchor='{a[0]} {a[1]} "
        f"{a[2]}'/></equality></mujoco>"
    )
    return xml


def simulation(repeat: int):
    model = es.zoo.load("four_bar")
    start = es.neutral(model)
    ours = best(lambda: es.simulate(model, start, None, 10.0, 1e-3), 1, 1)
    try:
        import mujoco
    except ImportError:
        return ours, None
    m = mujoco.MjModel.from_xml_string(four_bar_mjcf(model))
    d = mujoco.MjData(m)

    def run():
        mujoco.mj_resetData(m, d)
        for _ in range(10000):
            mujoco.mj_step(m, d)

    return ours, best(run, repeat, 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}")
    for label, kkt, schur, pin_t, loop_ours, loop_pin in floating(args.repeat):
        print(f"{label}: per call KKT {kkt * 1e6:.0f} µs, Schur {schur * 1e6:.0f} µs, "
              f"pin.constraintDynamics {pin_t * 1e6:.2f} µs (ratio KKT/pin "
              f"{kkt / pin_t:.0f}); loop over states {loop_ours * 1e6:.0f} µs vs "
              f"{loop_pin * 1e6:.2f} µs per state")  # fmt: skip
    ours, theirs = simulation(args.repeat)
    line = f"four_bar 10 s at 1 kHz, RK4: eslabon.simulate {ours:.2f} s"
    if theirs is not None:
        line += f", MuJoCo (equality connect) {theirs * 1e3:.1f} ms (ratio {ours / theirs:.0f})"
    print(line)


if __name__ == "__main__":
    main()
