"""Inverse kinematics with floating bases and several frames at once: damped least
squares steps on the configuration manifold (q ⊕ Δv, :func:`eslabon.integrate`), so a
free flyer's base pose is solved for like any joint; the thesis's solvers (Rojas 1987,
§3.3–3.5) take revolute and prismatic joints and refuse the others by name."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.kinematics import ik
from eslabon.model.configuration import check_configuration


def _pose_tasks(model, q, frames):
    tasks = []
    for f in frames:
        T = es.kinematics.frame_pose(model, q, f)
        tasks.append((f, T[:3, :3], T[:3, 3]))
    return tasks


def _assert_reached(model, q, tasks, tol):
    check_configuration(model, q)
    for f, R, p in tasks:
        T = es.kinematics.frame_pose(model, q, f)
        np.testing.assert_allclose(T[:3, 3], p, atol=tol, err_msg=f)
        if R is not None:
            np.testing.assert_allclose(T[:3, :3], R, atol=tol, err_msg=f)


def test_a_free_flying_tree_reaches_three_body_poses_from_neutral():
    """A floating base carrying branches with a spherical, a prismatic and a universal
    joint: three bodies' poses (18 equations, 16 rates) reached together."""
    model = es.zoo.random_tree(3, "BRRSRPRU")
    q_star = es.random_configuration(model, np.random.default_rng(1))
    tasks = _pose_tasks(model, q_star, ("body3", "body6", "body8"))
    sol = ik.damped_least_squares(model, tasks=tasks)
    assert sol.converged, sol.message
    assert sol.q.shape == (model.nq,)
    _assert_reached(model, sol.q, tasks, 1e-10)
    quaternions = [sol.q[3:7], sol.q[model.q_index[4] : model.q_index[4] + 4]]
    for quat in quaternions:
        assert abs(np.linalg.norm(quat) - 1.0) < 1e-12


@pytest.mark.parametrize("seed", range(5))
def test_the_space_manipulator_places_its_tool_and_its_satellite(seed):
    """End effector and satellite body both at their targets (12 equations, 12 rates),
    from the neutral configuration and from a start near the answer."""
    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(seed)
    q_star = es.random_configuration(model, rng)
    tasks = _pose_tasks(model, q_star, ("ee", "satellite"))
    for q0 in (None, es.integrate(model, q_star, rng.normal(0.0, 0.3, model.nv))):
        sol = ik.damped_least_squares(model, tasks=tasks, q0=q0)
        assert sol.converged, sol.message
        _assert_reached(model, sol.q, tasks, 1e-10)


def test_position_only_targets_with_a_free_base():
    """Points only: the base and the arm share the motion; the answer is any of many."""
    model = es.zoo.load("space_manipulator")
    q = es.neutral(model)
    p = es.end_effector_pose(model, q)[:3, 3] + [0.3, -0.2, 0.1]
    sol = ik.damped_least_squares(model, None, p)
    assert sol.converged, sol.message
    np.testing.assert_allclose(es.end_effector_pose(model, sol.q)[:3, 3], p, atol=1e-11)


def test_a_body_name_is_a_frame():
    """frame_pose and jacobian take a body's name (its own frame), as Pinocchio counts
    every body as a frame."""
    model = es.zoo.load("panda")
    q = np.linspace(-0.5, 0.5, 7)
    np.testing.assert_allclose(
        es.kinematics.frame_pose(model, q, "link4"), es.forward_kinematics(model, q)[4], atol=0
    )
    assert es.jacobian(model, q, "link4")[:, 4:].any() == False  # noqa: E712  (later joints)
    with pytest.raises(ValueError, match="unknown frame 'link9'.*bodies"):
        es.kinematics.frame_pose(model, q, "link9")


def test_the_thesis_solvers_refuse_a_floating_base_by_name():
    model = es.zoo.load("space_manipulator")
    T = es.end_effector_pose(model, es.neutral(model))
    with pytest.raises(ValueError, match=r"Rojas \(1987\).*'satellite' is free_flyer"):
        ik.newton_gauss(model, T[:3, :3], T[:3, 3], es.neutral(model))


def test_bad_tasks_are_named():
    model = es.zoo.load("space_manipulator")
    R, p = np.eye(3), np.zeros(3)
    with pytest.raises(ValueError, match="^tasks: give either"):
        ik.damped_least_squares(model, R, p, tasks=[("ee", R, p)])
    with pytest.raises(ValueError, match="^tasks: expected at least one"):
        ik.damped_least_squares(model, tasks=[])
    with pytest.raises(ValueError, match=r"^tasks\[1\]: expected \(frame, R or None, p\)"):
        ik.damped_least_squares(model, tasks=[("ee", R, p), ("ee", p)])
    with pytest.raises(ValueError, match=r"^tasks\[1\]\.p: "):
        ik.damped_least_squares(model, tasks=[("ee", R, p), ("satellite", None, [1, 2])])
    with pytest.raises(ValueError, match=r"^tasks\[0\]\.R: "):
        ik.damped_least_squares(model, tasks=[("ee", np.eye(2), p)])
    with pytest.raises(ValueError, match="^tasks: give either"):
        ik.damped_least_squares(model, frame="ee", tasks=[("ee", R, p)])
    with pytest.raises(ValueError, match="^frame: unknown frame 'hand'"):
        ik.damped_least_squares(model, tasks=[("hand", None, p)])
    with pytest.raises(ValueError, match="^q0: .*quaternion"):
        ik.damped_least_squares(model, None, p, np.zeros(model.nq))
