"""A payload at a frame and joint friction by name (``eslabon.with_payload``,
``eslabon.with_joint_friction``), checked against the zoo's own payload rule and against
mechanics: a point payload of mass m at p changes the gravity torques by −J_pᵀ m g and the
mass matrix by m J_pᵀ J_p + J_ωᵀ I J_ω (J_p the Jacobian of the point p)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest

import eslabon as es
from eslabon.model import variants


def test_doctest():
    assert doctest.testmod(variants).failed == 0


def test_the_zoo_payload_rule():
    """Práctica 3 Ejemplo 3.4 carries 3 kg with 0.05 kg m² at the last frame: the zoo's
    ``payload_mass`` and ``with_payload`` give the same robot."""
    plain = es.zoo.practica.practica_6dof()
    ours = es.with_payload(plain, 3.0, inertia=0.05, frame="ee")
    zoo = es.zoo.practica.practica_6dof(payload_mass=3.0, payload_inertia=0.05)
    rng = np.random.default_rng(0)
    q, qd, qdd = (rng.uniform(-1, 1, plain.nq) for _ in range(3))
    np.testing.assert_allclose(
        es.inverse_dynamics(ours, q, qd, qdd),
        es.inverse_dynamics(zoo, q, qd, qdd),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_allclose(
        es.mass_matrix(ours, q), es.mass_matrix(zoo, q), rtol=1e-12, atol=1e-12
    )


def _point_jacobian(model, q, frame, offset):
    """(J_ω, J_p) at the point ``offset`` (frame axes) of ``frame``, world axes."""
    J = es.jacobian(model, q, frame)  # [angular; linear] at the frame origin
    T = es.kinematics.frame_pose(model, q, frame)
    r = T[:3, :3] @ offset
    Jw, Jv = J[:3], J[3:]
    return Jw, Jv - np.cross(r, Jw, axis=0)


@pytest.mark.parametrize(
    "name, frame", [("puma560", "ee"), ("panda", "ee"), ("practica_6dof", "dh3")]
)
def test_gravity_and_mass_matrix_change_as_mechanics_says(name, frame):
    model = es.zoo.load(name)
    m, c = 1.7, np.array([0.02, -0.01, 0.08])
    Ibar = np.array([[0.01, 0.001, 0.0], [0.001, 0.02, 0.002], [0.0, 0.002, 0.015]])
    loaded = es.with_payload(model, m, com=c, inertia=Ibar, frame=frame)
    rng = np.random.default_rng(1)
    for _ in range(3):
        q = rng.uniform(-2, 2, model.nq)
        Jw, Jp = _point_jacobian(model, q, frame, c)
        dg = es.gravity_torques(loaded, q) - es.gravity_torques(model, q)
        np.testing.assert_allclose(dg, -Jp.T @ (m * model.gravity), rtol=1e-10, atol=1e-10)
        R = es.kinematics.frame_pose(model, q, frame)[:3, :3]
        dM = es.mass_matrix(loaded, q) - es.mass_matrix(model, q)
        expected = m * Jp.T @ Jp + Jw.T @ (R @ Ibar @ R.T) @ Jw
        np.testing.assert_allclose(dM, expected, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(mass=-1.0), "mass: expected a number >= 0"),
        (dict(mass=1.0, com=(0, 0)), "com: expected shape (3,)"),
        (dict(mass=1.0, inertia=-0.1), "inertia: expected a number >= 0"),
        (
            dict(mass=1.0, inertia=np.diag([1.0, -1.0, 1.0])),
            "inertia: expected a positive semi-definite",
        ),
        (dict(mass=1.0, frame="nowhere"), "frame: unknown frame 'nowhere'"),
        (dict(mass=1.0, frame="world"), "fixed to the world"),
    ],
)
def test_a_bad_payload_is_refused_naming_the_field(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        es.with_payload(es.zoo.load("puma560"), **kwargs)


def test_friction_by_name_all_at_once_or_per_joint():
    arm = es.zoo.load("puma560")
    rng = np.random.default_rng(2)
    q, qd = rng.uniform(-1, 1, 6), rng.uniform(-1, 1, 6)
    b = np.array([0.1, 0.2, 0.3, 0.4, 0.5, 0.6])
    damped = es.with_joint_friction(arm, viscous=b, coulomb={"link2": 0.7}, armature=0.01)
    extra = es.bias_forces(damped, q, qd) - es.bias_forces(arm, q, qd)
    expected = (b - arm.viscous[1:]) * qd
    expected[1] += (0.7 - arm.coulomb[2]) * np.sign(qd[1])
    np.testing.assert_allclose(extra, expected, rtol=1e-12, atol=1e-12)
    dM = es.mass_matrix(damped, q) - es.mass_matrix(arm, q)
    np.testing.assert_allclose(np.diag(dM), 0.01 - arm.armature[1:], atol=1e-12)
    assert es.with_joint_friction(arm, viscous=0.0).viscous[1:].tolist() == [0.0] * 6


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(damping=1.0), "unknown field"),
        (dict(viscous=-1.0), "viscous: expected a number >= 0"),
        (dict(viscous={"nowhere": 1.0}), "'nowhere' is not a body moved by a joint"),
        (dict(coulomb=[1.0, 2.0]), "coulomb: expected shape"),
    ],
)
def test_bad_friction_is_refused_naming_the_field(kwargs, message):
    with pytest.raises(ValueError, match=message):
        es.with_joint_friction(es.zoo.load("puma560"), **kwargs)
