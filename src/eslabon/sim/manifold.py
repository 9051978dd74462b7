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
that come out are unit to rounding (:func:`unit_quaternions` removes the last ulps).

The chart's functions are compiled (numba) and shared by the compiled RK4 loop
(:mod:`.chart_loop`) and the Python loops (:class:`Chart`), so both step alike to the bit.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..model.configuration import EXP3_SERIES, joint_places

EXP_SERIES = EXP3_SERIES  # below this |ξ| exp(ξ)'s quaternion uses its series (as integrate)
JR_SERIES = 1e-3  # below this |ξ| the coefficient of J_r(ξ)⁻¹ uses its series


@njit(cache=True, inline="always")
def _norm3(a, b, c):
    return np.sqrt(a * a + b * b + c * c)


@njit(cache=True)
def chart_start(q0, vq, vv, parts, c):
    """c ← the coordinates of ``q0`` itself (ξ = 0). ``vq``, ``vv``: the vector
    coordinates' q and v indices; ``parts`` (m, 4): each quaternion joint's (translation
    q index or −1, its v index, quaternion q index, ξ's v index)."""
    c[:] = 0.0
    for a in range(len(vq)):
        c[vv[a]] = q0[vq[a]]
    for p in range(parts.shape[0]):
        tq, tv = parts[p, 0], parts[p, 1]
        if tq >= 0:
            for a in range(3):
                c[tv + a] = q0[tq + a]


@njit(cache=True)
def chart_configuration(q0, c, vq, vv, parts, x):
    """x ← chart(q0, c) (nq,): the vector coordinates and positions from ``c``, each
    quaternion q0 ⊗ exp(ξ) (Hamilton product, scalar last)."""
    for a in range(len(q0)):
        x[a] = q0[a]
    for a in range(len(vq)):
        x[vq[a]] = c[vv[a]]
    for p in range(parts.shape[0]):
        tq, tv, rq, rv = parts[p, 0], parts[p, 1], parts[p, 2], parts[p, 3]
        if tq >= 0:
            for a in range(3):
                x[tq + a] = c[tv + a]
        u0, u1, u2 = c[rv], c[rv + 1], c[rv + 2]
        th = _norm3(u0, u1, u2)
        t2 = th * th
        if th < EXP_SERIES:
            k = 0.5 - t2 / 48.0 + t2 * t2 / 3840.0
        else:
            k = np.sin(0.5 * th) / th
        b0, b1, b2, bw = k * u0, k * u1, k * u2, np.cos(0.5 * th)
        a0, a1, a2, aw = q0[rq], q0[rq + 1], q0[rq + 2], q0[rq + 3]
        x[rq] = aw * b0 + bw * a0 + (a1 * b2 - a2 * b1)
        x[rq + 1] = aw * b1 + bw * a1 + (a2 * b0 - a0 * b2)
        x[rq + 2] = aw * b2 + bw * a2 + (a0 * b1 - a1 * b0)
        x[rq + 3] = aw * bw - (a0 * b0 + a1 * b1 + a2 * b2)


@njit(cache=True)
def chart_rate(c, x, v, parts, cd):
    """cd ← ċ at coordinates ``c`` (configuration ``x``) for the rates ``v``: v itself,
    but ṗ = R u for a free flyer's position and ξ̇ = J_r(ξ)⁻¹ ω for each quaternion."""
    for a in range(len(v)):
        cd[a] = v[a]
    for p in range(parts.shape[0]):
        tq, tv, rq, rv = parts[p, 0], parts[p, 1], parts[p, 2], parts[p, 3]
        if tq >= 0:  # R(x's quaternion) u, R = I + 2w[u]× + 2[u]×²
            e0, e1, e2, w = x[rq], x[rq + 1], x[rq + 2], x[rq + 3]
            u0, u1, u2 = v[tv], v[tv + 1], v[tv + 2]
            cd[tv] = (
                (1 - 2 * (e1 * e1 + e2 * e2)) * u0
                + 2 * (e0 * e1 - e2 * w) * u1
                + 2 * (e0 * e2 + e1 * w) * u2
            )
            cd[tv + 1] = (
                2 * (e0 * e1 + e2 * w) * u0
                + (1 - 2 * (e0 * e0 + e2 * e2)) * u1
                + 2 * (e1 * e2 - e0 * w) * u2
            )
            cd[tv + 2] = (
                2 * (e0 * e2 - e1 * w) * u0
                + 2 * (e1 * e2 + e0 * w) * u1
                + (1 - 2 * (e0 * e0 + e1 * e1)) * u2
            )
        s0, s1, s2 = c[rv], c[rv + 1], c[rv + 2]
        w0, w1, w2 = v[rv], v[rv + 1], v[rv + 2]
        th = _norm3(s0, s1, s2)
        if th < JR_SERIES:
            k = 1.0 / 12.0 + th * th / 720.0
        else:
            k = 1.0 / th**2 - (1.0 + np.cos(th)) / (2.0 * th * np.sin(th))
        m0, m1, m2 = s1 * w2 - s2 * w1, s2 * w0 - s0 * w2, s0 * w1 - s1 * w0  # ξ × ω
        cd[rv] = w0 + 0.5 * m0 + k * (s1 * m2 - s2 * m1)
        cd[rv + 1] = w1 + 0.5 * m1 + k * (s2 * m0 - s0 * m2)
        cd[rv + 2] = w2 + 0.5 * m2 + k * (s0 * m1 - s1 * m0)


@njit(cache=True)
def unit_quaternions(x, parts):
    """Divide each quaternion of ``x`` by its norm, in place (the last ulps)."""
    for p in range(parts.shape[0]):
        rq = parts[p, 2]
        s = np.sqrt(x[rq] ** 2 + x[rq + 1] ** 2 + x[rq + 2] ** 2 + x[rq + 3] ** 2)
        for a in range(4):
            x[rq + a] /= s


def chart_layout(model):
    """(vq, vv, parts) of ``model`` for the functions above, from where each kind of joint
    sits in q and v (:func:`eslabon.model.configuration.joint_places`): the q and v
    indices of its vector coordinates, and of each spherical or free-flyer joint
    (translation q index or −1, its v index, quaternion q index, ξ's v index)."""
    p = joint_places(model)
    parts = [(-1, -1, q0, v0) for _, q0, v0 in p.sph]
    parts += [(q0, v0, q0 + 3, v0 + 3) for _, q0, v0 in p.ff]
    return p.eq, p.ev, np.array(parts, dtype=np.int64).reshape(-1, 4)


class Chart:
    """Coordinates around ``q0`` for ``model`` (see the module docstring), for the loops
    that run in Python (dop853; stick–slip friction). The compiled loop
    (:mod:`.chart_loop`) calls the same functions."""

    def __init__(self, model, q0, layout=None):
        self.model = model
        self.q0 = np.array(q0, dtype=float)
        self.layout = chart_layout(model) if layout is None else layout

    def configuration(self, c):
        """q at chart coordinates ``c`` (nv,)."""
        vq, vv, parts = self.layout
        x = np.empty(len(self.q0))
        chart_configuration(self.q0, np.asarray(c, dtype=float), vq, vv, parts, x)
        return x

    def start(self):
        """The coordinates of ``q0``."""
        vq, vv, parts = self.layout
        c = np.empty(self.model.nv)
        chart_start(self.q0, vq, vv, parts, c)
        return c

    def rate(self, c, q, v):
        """ċ at coordinates ``c`` (configuration ``q``) for the rates ``v``."""
        cd = np.empty(self.model.nv)
        chart_rate(
            np.asarray(c, dtype=float), np.asarray(q, dtype=float),
            np.asarray(v, dtype=float), self.layout[2], cd,
        )  # fmt: skip
        return cd

    def finish(self, c):
        """q at ``c``, its quaternions scaled to unit length (the last ulps)."""
        x = self.configuration(c)
        unit_quaternions(x, self.layout[2])
        return x
