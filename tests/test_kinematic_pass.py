"""The named kinematic pass (``eslabon.kinematics.kinematic_pass``): its arrays are the
compiled recursion's, bit for bit (the public kinematics functions read them), they fit
together as poses and rigid-body motion, and a moving base given as an argument is the
base the kernel's moving-base driver reads from a preset workspace row."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from checks import check
from eslabon.kinematics import (
    BaseMotion,
    KinematicPass,
    forward_kinematics,
    kinematic_pass,
    link_accelerations,
    link_velocities,
)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "seekur_puma.yaml"

MODELS = {
    "puma560": lambda chain: es.zoo.load("puma560"),
    "practica_4dof_book": lambda chain: es.zoo.load(
        "practica_4dof", book_com=True, payload_mass=3.0, payload_inertia=0.05
    ),
    "chain_standard_7": lambda chain: chain(11, 7, "standard"),
    "chain_modified_5": lambda chain: chain(12, 5, "modified"),
    "chain_rojas_3": lambda chain: chain(13, 3, "rojas"),
}


@pytest.fixture(params=sorted(MODELS), scope="module")
def model(request, random_chain):
    return MODELS[request.param](random_chain)


@pytest.fixture(scope="module")
def states(random_states):
    return lambda model, seed, count=1: random_states(model, seed, count)


def _same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    assert a.shape == b.shape and a.tobytes() == b.tobytes()


def _local(motion, first, second):
    return np.concatenate([getattr(motion, first), getattr(motion, second)], axis=-1)


def test_arrays_are_those_of_the_kinematics_functions(model, states):
    """Poses, [ω; v] and [ω̇; v̇] equal forward_kinematics, link_velocities and
    link_accelerations to 0 ulp, one state and a batch."""
    Q, QD, QDD = states(model, 3, 4)
    for q, qd, qdd in ((Q[0], QD[0], QDD[0]), (Q, QD, QDD)):
        motion = kinematic_pass(model, q, qd, qdd)
        T = forward_kinematics(model, q)
        _same(motion.world_rotation, T[..., :3, :3])
        _same(motion.world_position, T[..., :3, 3])
        _same(_local(motion, "angular_velocity", "linear_velocity"), link_velocities(model, q, qd))
        _same(
            _local(motion, "angular_acceleration", "linear_acceleration"),
            link_accelerations(model, q, qd, qdd),
        )
        assert motion.batched == (np.ndim(q) == 2)
        assert motion.world_position.shape == np.shape(q)[:-1] + (model.nb + 1, 3)
        assert motion.parent_rotation.shape == np.shape(q)[:-1] + (model.nb + 1, 3, 3)


def test_parent_placements_compose_to_the_world_poses(model, states):
    """W_R_i = W_R_p E_i and O_i = O_p + W_R_p r_i; the COM is the model's (sliding with a
    prismatic joint in book mode)."""
    q = states(model, 4)[0][0]
    m = kinematic_pass(model, q)
    for i in range(1, model.nb + 1):
        p = int(model.parent[i])
        check(m.world_rotation[i], m.world_rotation[p] @ m.parent_rotation[i], 1e-14)
        check(
            m.world_position[i],
            m.world_position[p] + m.world_rotation[p] @ m.parent_translation[i],
            1e-14,
        )
        k = model.q_index[i]
        slide = model.com_slide[i] * (q[k] if k >= 0 else 0.0) * model.axis[i]
        check(m.com[i], model.com[i] + slide, 1e-15)


def test_defaults_and_gravity(model, states):
    """q̇ and q̈ default to zero; the pass adds no gravity (a fixed base at rest has no
    acceleration anywhere)."""
    q = states(model, 5)[0][0]
    zero = np.zeros(model.nq)
    rest = kinematic_pass(model, q)
    _same(rest.linear_acceleration, kinematic_pass(model, q, zero, zero).linear_acceleration)
    assert not np.any(rest.linear_acceleration) and not np.any(rest.linear_velocity)
    qd = np.linspace(-1.0, 1.0, model.nq)
    _same(
        kinematic_pass(model, q, qd).angular_acceleration,
        kinematic_pass(model, q, qd, zero).angular_acceleration,
    )


def test_the_result_is_immutable():
    model = es.zoo.load("planar2")
    motion = kinematic_pass(model, [0.3, -0.2], [1.0, 2.0])
    with pytest.raises(dataclasses.FrozenInstanceError):
        motion.angular_velocity = np.zeros((3, 3))
    for f in dataclasses.fields(KinematicPass):
        with pytest.raises(ValueError, match="read-only"):
            getattr(motion, f.name)[...] = 0.0


def _base(rng):
    return BaseMotion(*(rng.normal(size=3) for _ in range(4)))


def test_a_moving_base_is_the_preset_row_of_the_kernel(model, states):
    """``base=`` gives, bit for bit, the pass the moving-base driver computes from a
    workspace whose row 0 the caller preset (the mobile manipulator's former way)."""
    from eslabon._engine.outward_pass import WS_A, WS_V, WS_W, WS_WD
    from eslabon.kinematics.drivers import kinematics_moving_base, workspace

    Q, QD, QDD = states(model, 6)
    q, qd, qdd = Q[0], QD[0], QDD[0]
    base = _base(np.random.default_rng(6))
    ws = workspace(model.packed)
    ws[0, WS_W : WS_W + 3] = base.angular_velocity
    ws[0, WS_WD : WS_WD + 3] = base.angular_acceleration
    ws[0, WS_A : WS_A + 3] = base.linear_acceleration
    ws[0, WS_V : WS_V + 3] = base.linear_velocity
    kinematics_moving_base(model.packed, q, qd, qdd, ws, None)
    preset = KinematicPass.from_workspace(ws)
    motion = kinematic_pass(model, q, qd, qdd, base=base)
    for f in dataclasses.fields(KinematicPass):
        _same(getattr(motion, f.name), getattr(preset, f.name))
    _same(motion.angular_velocity[0], base.angular_velocity)
    _same(motion.linear_acceleration[0], base.linear_acceleration)


def test_a_moving_base_carries_the_bodies_rigidly(model, states):
    """With the joints still, every body moves with the base: ω_i = ω_0 and
    v_i = v_0 + ω_0 × O_i (base axes), a_i = a_0 + ω̇_0 × O_i + ω_0 × (ω_0 × O_i); with
    a still base the fixed-base pass is recovered."""
    q = states(model, 7)[0][0]
    base = _base(np.random.default_rng(7))
    m = kinematic_pass(model, q, base=base)
    w0, wd0, v0, a0 = (np.asarray(x) for x in base)
    O = m.world_position

    def in_base(x):
        return np.einsum("bij,bj->bi", m.world_rotation, x)

    check(in_base(m.angular_velocity), np.broadcast_to(w0, O.shape), 1e-14)
    check(in_base(m.linear_velocity), v0 + np.cross(w0, O), 1e-14)
    check(in_base(m.angular_acceleration), np.broadcast_to(wd0, O.shape), 1e-14)
    check(
        in_base(m.linear_acceleration), a0 + np.cross(wd0, O) + np.cross(w0, np.cross(w0, O)), 1e-13
    )
    qd, qdd = np.linspace(-1, 1, model.nq), np.linspace(1, -2, model.nq)
    still = BaseMotion(*(np.zeros(3) for _ in range(4)))
    fixed, carried = (
        kinematic_pass(model, q, qd, qdd),
        kinematic_pass(model, q, qd, qdd, base=still),
    )
    for f in dataclasses.fields(KinematicPass):
        np.testing.assert_array_equal(getattr(carried, f.name), getattr(fixed, f.name))


def test_refusals():
    model = es.zoo.load("planar2")
    still = BaseMotion(*(np.zeros(3) for _ in range(4)))
    with pytest.raises(ValueError, match="base: a moving base takes one state"):
        kinematic_pass(model, np.zeros((3, 2)), base=still)
    with pytest.raises(ValueError, match="base: expected an eslabon.kinematics.BaseMotion"):
        kinematic_pass(model, np.zeros(2), base=(np.zeros(3),) * 4)
    with pytest.raises(ValueError, match="base.linear_velocity: expected finite values"):
        kinematic_pass(model, np.zeros(2), base=still._replace(linear_velocity=[0, np.nan, 0]))
    with pytest.raises(ValueError, match=r"base.angular_velocity: expected shape \(3,\)"):
        kinematic_pass(model, np.zeros(2), base=still._replace(angular_velocity=[0, 0]))
    with pytest.raises(ValueError, match="qd: expected finite values, got nan at index 1"):
        kinematic_pass(model, np.zeros(2), [0.0, np.nan])
    with pytest.raises(ValueError, match="qdd: expected the shape of q"):
        kinematic_pass(model, np.zeros(2), None, np.zeros((2, 2)))


def test_the_mobile_manipulator_reads_the_pass_with_its_mount_as_the_base():
    """The arm of a mobile manipulator gets its chassis's motion as a ``base`` argument:
    the coupled D and φ equal those recomputed here from a pass with that base."""
    from eslabon.dynamics.gibbs_appell import chain_terms
    from eslabon.mobile import manipulator as mm_module
    from eslabon.mobile.platforms import Z

    mm = es.load_model(EXAMPLE)
    y = np.random.default_rng(8).uniform(-1, 1, mm.n_state)
    config, q, nu, qd = mm.split(y)
    ch = mm.platform.motion(config, nu).chassis
    point = ch.point(mm.mount.translation)
    Rt = mm.mount.rotation.T
    base = BaseMotion(
        Rt @ (ch.yaw_rate * Z),
        Rt @ (ch.yaw_accel0 * Z),
        Rt @ point.velocity,
        Rt @ (point.accel0 - np.array([0.0, 0.0, -mm.gravity])),
    )
    motion = kinematic_pass(mm.arm, q, qd, np.zeros_like(q), base=base)
    partials = (Rt @ np.outer(Z, ch.d_yaw_accel), Rt @ point.d_accel)
    arm = chain_terms(mm.arm, motion, qd, np.zeros(3), partials)
    D, phi, _ = mm_module.coupled_terms(mm, y)
    k = mm.n_quasi
    _same(D[k:, k:], arm.D[k:, k:])
    _same(phi[k:], arm.phi[k:])
