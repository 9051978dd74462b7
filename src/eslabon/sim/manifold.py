"""Integrating q̇ on the configuration manifold: charts around a configuration.

A model with a spherical or free-flyer joint has a configuration that is not a vector
space (a unit quaternion), and its rates v are body velocities, not dq/dt. An integrator
(RK4, an adaptive one) runs on a *chart* around the configuration q₀ at the start of each
step: coordinates c (nv numbers) with q = chart(q₀, c) and c = 0 at q₀,

- a vector coordinate (revolute, prismatic, helical, universal, planar): c = q, ċ = v;
- a spherical joint: R = R₀ exp([ξ]×), c = ξ, and ξ̇ = J_r(ξ)⁻¹ ω, with J_r the right
  Jacobian of SO(3) (the body angular velocity is ω = J_r(ξ) ξ̇);
- a free flyer: c = (p, ξ), the origin's position p in the joint frame and ξ as above;
  ṗ = R u for the body-axes linear velocity u.

J_r(ξ)⁻¹ = 1 + ½[ξ]× + (1/θ² − (1 + cos θ)/(2 θ sin θ)) [ξ]×², θ = |ξ| (e.g. Chirikjian,
*Stochastic Models, Information Theory, and Lie Groups*, vol. 2 (2012), §10.2; the
bracketed coefficient tends to 1/12 as θ → 0, where its series is used). The state of
the integrator is (c, v); each step starts a fresh chart at its first configuration, so
|ξ| stays small and the chart never reaches its singularity at θ = 2π. The quaternions
that come out are unit to rounding (:func:`eslabon.model.configuration.normalize`
removes the last ulps).
"""

from __future__ import annotations

import numpy as np

from .._engine.joints import nq_of
from .._engine.layout import FREE_FLYER, SPHERICAL
from ..model.configuration import (
    normalize,
    quaternion_product,
    quaternion_to_rotation,
    rotation_vector_quaternion,
)


def _cross(a, b):
    """a × b of two 3-vectors (numpy's cross costs ~10 µs a call at this size)."""
    return np.array(
        [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    )


def _right_jacobian_inverse(xi, w):
    """J_r(ξ)⁻¹ ω (see the module docstring)."""
    theta = float(np.linalg.norm(xi))
    if theta < 1e-3:
        k = 1.0 / 12.0 + theta * theta / 720.0
    else:
        k = 1.0 / theta**2 - (1.0 + np.cos(theta)) / (2.0 * theta * np.sin(theta))
    c = _cross(xi, w)
    return w + 0.5 * c + k * _cross(xi, c)


class Chart:
    """Coordinates around ``q0`` for ``model`` (see the module docstring)."""

    def __init__(self, model, q0):
        self.model = model
        self.q0 = np.array(q0, dtype=float)
        self.parts = []  # (kind, q index, v index) of each quaternion joint
        vector_q: list[int] = []
        vector_v: list[int] = []
        for i in range(1, model.nb + 1):
            kind = int(model.joint_type[i])
            qi, vi = int(model.q_index[i]), int(model.v_index[i])
            if kind in (SPHERICAL, FREE_FLYER):
                self.parts.append((kind, qi, vi))
            elif qi >= 0:
                size = int(nq_of(kind))
                vector_q.extend(range(qi, qi + size))
                vector_v.extend(range(vi, vi + size))
        self.vector_q = np.array(vector_q, dtype=np.int64)
        self.vector_v = np.array(vector_v, dtype=np.int64)

    def configuration(self, c):
        """q at chart coordinates ``c`` (nv,)."""
        q = self.q0.copy()
        q[self.vector_q] = c[self.vector_v]
        for kind, qi, vi in self.parts:
            if kind == FREE_FLYER:
                q[qi : qi + 3] = c[vi : vi + 3]
                qi, vi = qi + 3, vi + 3
            q[qi : qi + 4] = quaternion_product(
                self.q0[qi : qi + 4], rotation_vector_quaternion(c[vi : vi + 3])
            )
        return q

    def start(self):
        """The coordinates of ``q0``."""
        c = np.zeros(self.model.nv)
        c[self.vector_v] = self.q0[self.vector_q]
        for kind, qi, vi in self.parts:
            if kind == FREE_FLYER:
                c[vi : vi + 3] = self.q0[qi : qi + 3]
        return c

    def rate(self, c, q, v):
        """ċ at coordinates ``c`` (configuration ``q``) for the rates ``v``."""
        cd = np.array(v, dtype=float)
        for kind, qi, vi in self.parts:
            if kind == FREE_FLYER:
                R = quaternion_to_rotation(q[qi + 3 : qi + 7])
                cd[vi : vi + 3] = R @ v[vi : vi + 3]
                vi += 3
            cd[vi : vi + 3] = _right_jacobian_inverse(c[vi : vi + 3], v[vi : vi + 3])
        return cd

    def finish(self, c):
        """q at ``c``, its quaternions scaled to unit length (the last ulps)."""
        return normalize(self.model, self.configuration(c))
