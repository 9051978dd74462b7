"""The straight-line task of seed 000 §4.4 on the Cincinnati T3, solved to full precision.

The thesis's tables print θ to 5 decimals of a degree and rates to 5 digits, which is not
enough to reproduce its 5-digit torques at t = 0.45 s. So the tests solve the task's
inverse kinematics here (a plain Newton iteration on the geometric Jacobian: the test's
own oracle, not library code) from the tabulated end-effector data.
"""

import numpy as np

import eslabon as es
from eslabon.zoo.rojas import INITIAL_THETA_DEG

X, Z = 1.33125, 1.79875


def cycloid(t):
    """β(t) = t − sin(2πt)/(2π): matches the printed β and β̇ of Tables 5.4.1 and 5.6.2
    (β(0.05) = 0.00082, β̇(0.05) = 0.04894, β(0.45) = 0.40082, β̇(0.45) = 1.95106)."""
    return t - np.sin(2 * np.pi * t) / (2 * np.pi), 1 - np.cos(2 * np.pi * t)


def solve_task(model, t, ydd, theta0=None):
    """(θ, θ̇, θ̈) at time t with p = (X, β(t), Z), fixed orientation, ÿ = ``ydd``."""
    q = np.radians(INITIAL_THETA_DEG) if theta0 is None else theta0.copy()
    R_goal = es.end_effector_pose(model, np.radians(INITIAL_THETA_DEG))[:3, :3]
    y, yd = cycloid(t)
    p_goal = np.array([X, y, Z])
    for _ in range(50):
        T = es.end_effector_pose(model, q)
        dR = R_goal @ T[:3, :3].T
        rot_err = 0.5 * np.array([dR[2, 1] - dR[1, 2], dR[0, 2] - dR[2, 0], dR[1, 0] - dR[0, 1]])
        err = np.concatenate([rot_err, p_goal - T[:3, 3]])
        q = q + np.linalg.solve(es.jacobian(model, q), err)
        if np.max(np.abs(err)) < 1e-14:
            break
    J = es.jacobian(model, q)
    qd = np.linalg.solve(J, np.array([0, 0, 0, 0, yd, 0.0]))
    bias = es.kinematics.link_accelerations(model, q, qd, np.zeros(6), "world")[-1]
    qdd = np.linalg.solve(J, np.array([0, 0, 0, 0, ydd, 0.0]) - bias)
    return q, qd, qdd
