"""Step ➊ of Jaramillo Botero (1998)'s Macro Algoritmo in O(log₂ N) depth
(eslabon.constraints.prefix_scan): scans of the world-axes recursions equal the serial
recurrences and eslabon's Newton–Euler, in 2⌈log₂ N⌉ − 1 stages per scan."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.constraints import prefix_scan as ps
from eslabon.constraints.cyclic_reduction import OperationCount
from eslabon.spatial.spatial6 import translation_operator
from eslabon.zoo.random_chain import random_chain

pytestmark = pytest.mark.source(
    "Jaramillo Botero (1998)", "El problema dinámico directo, Motivación; (1.81)–(1.83)"
)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 9, 16, 17])
def test_scans_equal_the_serial_recurrences(n):
    rng = np.random.default_rng(n)
    p, c = rng.normal(size=(n, 3)), rng.normal(size=(n, 6))
    x_motion, x_force = np.zeros((n, 6)), np.zeros((n, 6))
    for i in range(n):
        prev_m = translation_operator(p[i]).T @ x_motion[i - 1] if i else 0.0
        prev_f = translation_operator(p[i]) @ x_force[i - 1] if i else 0.0
        x_motion[i], x_force[i] = prev_m + c[i], prev_f + c[i]
    np.testing.assert_allclose(ps.scan((p, c), "motion")[1], x_motion, atol=1e-12)
    np.testing.assert_allclose(ps.scan((p, c), "force")[1], x_force, atol=1e-12)
    R = np.array([np.linalg.qr(rng.normal(size=(3, 3)))[0] for _ in range(n)])
    world_R, world_t = np.eye(3), np.zeros(3)
    scanned = ps.scan((R, p), "pose")
    for i in range(n):
        world_t, world_R = world_R @ p[i] + world_t, world_R @ R[i]
        np.testing.assert_allclose(scanned[0][i], world_R, atol=1e-12)
        np.testing.assert_allclose(scanned[1][i], world_t, atol=1e-12)


def _floating():
    from eslabon.model import ModelBuilder

    b = ModelBuilder()
    box = np.diag([0.3, 0.2, 0.1])
    i = b.add_body(0, "free_flyer", mass=5.0, inertia=box)
    i = b.add_body(i, "spherical", translation=(0.2, 0, 0), mass=1.0, inertia=box / 5)
    i = b.add_body(i, "helical", axis=(0, 0, 1), pitch=0.05, translation=(0.3, 0, 0), mass=0.5)
    b.add_body(i, "R", axis=(1, 0, 0), translation=(0.3, 0, 0), mass=0.4, com=(0, 0, 0.1))
    return b.build(name="floating")


@pytest.mark.parametrize("name", ["puma560", "panda", "random33", "floating"])
def test_newton_euler_by_scans_equals_rnea(name):
    model = {
        "random33": lambda: random_chain(33, seed=4),
        "floating": _floating,
    }.get(name, lambda: es.zoo.load(name))()
    rng = np.random.default_rng(2)
    q = es.random_configuration(model, rng)
    v, a = rng.normal(size=model.nv), rng.normal(size=model.nv)
    tau = ps.newton_euler_by_scans(model, q, v, a)
    ref = es.inverse_dynamics(model, q, v, a)
    np.testing.assert_allclose(tau, ref, atol=1e-12 * np.abs(ref).max())


def test_stages_grow_as_log2_n_and_work_as_n():
    for k in range(1, 9):
        n = 2**k
        count = OperationCount()
        ps.scan((np.zeros((n, 3)), np.zeros((n, 6))), "motion", count)
        assert count.stages == 2 * k - 1
        assert (n - 1) * ps.MAP_FLOPS <= count.work < 2 * (n - 1) * ps.MAP_FLOPS


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="kind"):
        ps.scan((np.zeros((2, 3)), np.zeros((2, 6))), "twist")
    with pytest.raises(ValueError, match="serial chain"):
        ps.newton_euler_by_scans(es.zoo.load("five_bar"), np.zeros(4), np.zeros(4), np.zeros(4))


def test_batches_are_the_single_states_stacked():
    model = es.zoo.load("puma560")
    rng = np.random.default_rng(4)
    q, v, a = (rng.normal(size=(2, 6)) for _ in range(3))
    out = ps.newton_euler_by_scans(model, q, v, a)
    for k in range(2):
        np.testing.assert_array_equal(out[k], ps.newton_euler_by_scans(model, q[k], v[k], a[k]))


@pytest.mark.parametrize("name", ["puma560", "random33", "floating"])
def test_scanned_poses_and_body_data_equal_the_serial_kinematics(name):
    """Step ➊ runs end to end on the scans: the pose scan of the joint placements gives
    the kinematics' world poses, and H_i, I_i built from them are the tree's."""
    from eslabon.constraints import operator_tree as ot
    from eslabon.kinematics.kinematic_pass import kinematic_pass

    model = random_chain(33, seed=4) if name == "random33" else None
    model = model or (_floating() if name == "floating" else es.zoo.load(name))
    rng = np.random.default_rng(5)
    q, v = es.random_configuration(model, rng), rng.normal(size=model.nv)
    kp = kinematic_pass(model, q)
    R, O = ps.scan((kp.parent_rotation[1:], kp.parent_translation[1:]), "pose")
    ref = ot.tree_data(model, q, v)
    scale = np.abs(ref.origins).max()
    np.testing.assert_allclose(O, ref.origins, atol=1e-12 * scale)
    data = ps._body_data(model, R)
    for i in range(model.nb):
        np.testing.assert_allclose(data.H[i], ref.H[i], atol=1e-12)
    inertia_scale = np.abs(ref.inertia).max()
    np.testing.assert_allclose(data.inertia, ref.inertia, atol=1e-12 * inertia_scale)
