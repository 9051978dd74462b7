"""The coordinates of an MJCF model read by :func:`eslabon.model.mjcf.read_mjcf`: what
it holds beyond the :class:`~eslabon.model.Model`, and the maps between MuJoCo's qpos,
qvel, qacc, qfrc and eslabon's q, v, a, τ.

MuJoCo's hinge and slide values are measured from qpos0 (``ref``), eslabon's from zero;
quaternions are (w, x, y, z) in MuJoCo and (x, y, z, w) in eslabon; a free joint's
linear rate is in world axes in MuJoCo and in body axes in eslabon. So v_mj = J(q) v
with J = blockdiag(R, I) on a free joint (R the body's rotation in the world), the
identity elsewhere and a mimic joint's multiplier in its column; by virtual work (the
power τᵀv is the same in both coordinates) τ = Jᵀ τ_mj and M = Jᵀ M_mj J; and
a_mj = J a + J̇ v with J̇ v = (R (ω × Rᵀṗ), 0) on a free joint, since Ṙ = R [ω]×
(Featherstone, *Rigid Body Dynamics Algorithms* (2008), ch. 4: joint models; the
free joint's rates in body coordinates).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .mjcf_tree import FREE, HINGE, NV, SLIDE, quat_matrix
from .validate import short_repr

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray


@dataclass(frozen=True, eq=False)
class MjcfInfo:
    """What an MJCF holds beyond the dynamics model, and its coordinate maps.

    Returned by :func:`read_mjcf` beside the :class:`Model`. The conversions take and
    give arrays of shape (…, n): one state or a batch.

    Attributes
    ----------
    name : str
        The model's name (``<mujoco model=…>``, else the file's stem).
    keyframes : dict
        ``{key name: q}`` of each ``<key>`` (unnamed: ``key<k>``), q in eslabon's
        coordinates (nq,): :meth:`q_from_qpos` of its qpos.
    limits : dict
        ``{joint name: (lower, upper)}`` of each limited hinge or slide, in eslabon's
        coordinates (the range less qpos0) [rad or m]; the dynamics keep no limits.
    site_frames : dict
        ``{site name: frame name}``: each site is a named frame of the model (renamed
        with ``_2``, … where a body or an earlier frame has its name).
    not_represented : tuple of str
        Each kind of element eslabon does not represent (listed by the one
        :class:`MjcfWarning`).
    joint_names : tuple of str
        The eslabon joint name of each MuJoCo joint, in MuJoCo's order.
    body_names : tuple of str
        The eslabon body name of each MuJoCo body, in MuJoCo's order (``"world"`` first;
        an unnamed body ``body<i>``); that body's frame is the MuJoCo body's.
    visual : UrdfInfo
        The geoms as visuals per body (what the viewer draws).
    """

    name: str
    keyframes: dict[str, Any] = field(default_factory=dict)
    limits: dict[str, tuple[float, float]] = field(default_factory=dict)
    site_frames: dict[str, str] = field(default_factory=dict)
    not_represented: tuple = ()
    joint_names: tuple = ()
    body_names: tuple = ()
    visual: Any = None
    # per MuJoCo joint: type, qpos and dof address, qpos0 (nq_mj,), and where its
    # coordinates go in eslabon's q and v (-1 for a mimic joint), and its coupling
    jnt_type: Any = field(default=None, repr=False)
    qposadr: Any = field(default=None, repr=False)
    dofadr: Any = field(default=None, repr=False)
    qpos0: Any = field(default=None, repr=False)
    q_index: Any = field(default=None, repr=False)
    v_index: Any = field(default=None, repr=False)
    mimic: dict = field(default_factory=dict, repr=False)  # joint: (copied joint, a1, a0)
    nq: int = 0
    nv: int = 0

    @property
    def nq_mujoco(self) -> int:
        """Length of MuJoCo's qpos."""
        return len(self.qpos0)

    @property
    def nv_mujoco(self) -> int:
        """Length of MuJoCo's qvel."""
        return sum(NV[int(t)] for t in self.jnt_type)

    def _rotations(self, q: Any, j: int) -> Any:
        a = int(self.q_index[j])
        x, y, z, w = np.moveaxis(np.asarray(q)[..., a + 3 : a + 7], -1, 0)
        return quat_matrix(np.stack([w, x, y, z], axis=-1))

    def q_from_qpos(self, qpos: ArrayLike) -> NDArray[np.float64]:
        """eslabon's configuration of MuJoCo's qpos (module docstring's table).

        Parameters
        ----------
        qpos : array_like (…, nq_mujoco)
            MuJoCo's qpos: one state or a batch.

        Returns
        -------
        ndarray (…, nq)
            q: hinge and slide values less qpos0, quaternions scalar last, mimic joints
            left out.
        """
        qpos = _last(qpos, self.nq_mujoco, "qpos")
        q = np.zeros(qpos.shape[:-1] + (self.nq,))
        for j, kind in enumerate(self.jnt_type):
            a, s = int(self.q_index[j]), int(self.qposadr[j])
            if a < 0:
                continue
            if kind in (HINGE, SLIDE):
                q[..., a] = qpos[..., s] - self.qpos0[s]
            else:
                k = 3 if kind == FREE else 0
                q[..., a : a + k] = qpos[..., s : s + k]
                q[..., a + k : a + k + 3] = qpos[..., s + k + 1 : s + k + 4]
                q[..., a + k + 3] = qpos[..., s + k]
        return q

    def qpos_from_q(self, q: ArrayLike) -> NDArray[np.float64]:
        """MuJoCo's qpos of eslabon's configuration (the inverse of :meth:`q_from_qpos`).

        Parameters
        ----------
        q : array_like (…, nq)
            eslabon's configuration.

        Returns
        -------
        ndarray (…, nq_mujoco)
            qpos, a mimic joint's value from its coupling (qpos0 + a0 + a1 · q2).
        """
        q = _last(q, self.nq, "q")
        qpos = np.zeros(q.shape[:-1] + (self.nq_mujoco,))
        for j, kind in enumerate(self.jnt_type):
            a, s = int(self.q_index[j]), int(self.qposadr[j])
            if a < 0:
                target, a1, a0 = self.mimic[j]
                t = int(self.q_index[target])
                qpos[..., s] = self.qpos0[s] + a0 + a1 * q[..., t]
            elif kind in (HINGE, SLIDE):
                qpos[..., s] = q[..., a] + self.qpos0[s]
            else:
                k = 3 if kind == FREE else 0
                qpos[..., s : s + k] = q[..., a : a + k]
                qpos[..., s + k] = q[..., a + k + 3]
                qpos[..., s + k + 1 : s + k + 4] = q[..., a + k : a + k + 3]
        return qpos

    def qvel_from_v(self, q: ArrayLike, v: ArrayLike) -> NDArray[np.float64]:
        """MuJoCo's qvel J(q) v of eslabon's rates.

        Parameters
        ----------
        q : array_like (…, nq)
            eslabon's configuration (a free joint's rotation R is read from it).
        v : array_like (…, nv)
            eslabon's rates.

        Returns
        -------
        ndarray (…, nv_mujoco)
            qvel: a free joint's linear rate R v turned into world axes, a mimic joint's
            a1 times its joint's.
        """
        return self._rates(q, v, None)

    def qacc_from_a(self, q: ArrayLike, v: ArrayLike, a: ArrayLike) -> NDArray[np.float64]:
        """MuJoCo's qacc J a + J̇ v of eslabon's accelerations.

        Parameters
        ----------
        q : array_like (…, nq)
            eslabon's configuration.
        v : array_like (…, nv)
            eslabon's rates (J̇ v = (R (ω × v_lin), 0) on a free joint).
        a : array_like (…, nv)
            eslabon's accelerations.

        Returns
        -------
        ndarray (…, nv_mujoco)
            qacc.
        """
        return self._rates(q, a, v)

    def _rates(self, q: Any, v: Any, v_bias: Any) -> NDArray[np.float64]:
        q, v = _last(q, self.nq, "q"), _last(v, self.nv, "v")
        lead = np.broadcast_shapes(q.shape[:-1], v.shape[:-1])
        if v_bias is not None:  # a single acceleration with a batch of rates, or the reverse
            v_bias = _last(v_bias, self.nv, "v")
            lead = np.broadcast_shapes(lead, v_bias.shape[:-1])
        q = np.broadcast_to(q, lead + q.shape[-1:])
        v = np.broadcast_to(v, lead + v.shape[-1:])
        out = np.zeros(lead + (self.nv_mujoco,))
        for j, kind in enumerate(self.jnt_type):
            d, b = int(self.dofadr[j]), int(self.v_index[j])
            if b < 0:
                target, a1, _ = self.mimic[j]
                out[..., d] = a1 * v[..., int(self.v_index[target])]
                continue
            out[..., d : d + NV[kind]] = v[..., b : b + NV[kind]]
            if kind == FREE:
                R = self._rotations(q, j)
                lin = v[..., b : b + 3]
                if v_bias is not None:  # J̇ v: R (ω × Rᵀṗ)
                    vb = v_bias
                    lin = lin + np.cross(vb[..., b + 3 : b + 6], vb[..., b : b + 3])
                out[..., d : d + 3] = np.einsum("...ij,...j->...i", R, lin)
        return out

    def v_from_qvel(self, q: ArrayLike, qvel: ArrayLike) -> NDArray[np.float64]:
        """eslabon's rates of MuJoCo's qvel (the inverse of :meth:`qvel_from_v`).

        Parameters
        ----------
        q : array_like (…, nq)
            eslabon's configuration.
        qvel : array_like (…, nv_mujoco)
            MuJoCo's qvel.

        Returns
        -------
        ndarray (…, nv)
            v: a free joint's linear rate Rᵀ ṗ in body axes; a mimic joint's qvel is
            dropped (it follows its coupling).
        """
        q, qvel = _last(q, self.nq, "q"), _last(qvel, self.nv_mujoco, "qvel")
        v = np.zeros(np.broadcast_shapes(q.shape[:-1], qvel.shape[:-1]) + (self.nv,))
        for j, kind in enumerate(self.jnt_type):
            d, b = int(self.dofadr[j]), int(self.v_index[j])
            if b < 0:
                continue
            v[..., b : b + NV[kind]] = qvel[..., d : d + NV[kind]]
            if kind == FREE:
                R = self._rotations(q, j)
                v[..., b : b + 3] = np.einsum("...ji,...j->...i", R, qvel[..., d : d + 3])
        return v

    def tau_from_qfrc(self, q: ArrayLike, qfrc: ArrayLike) -> NDArray[np.float64]:
        """eslabon's generalized forces Jᵀ qfrc of MuJoCo's (virtual work).

        Parameters
        ----------
        q : array_like (…, nq)
            eslabon's configuration.
        qfrc : array_like (…, nv_mujoco)
            A MuJoCo generalized force (``qfrc_inverse``, ``qfrc_bias``, …).

        Returns
        -------
        ndarray (…, nv)
            τ: a free joint's force turned into body axes, a mimic joint's added to the
            joint it copies times the multiplier.
        """
        q, qfrc = _last(q, self.nq, "q"), _last(qfrc, self.nv_mujoco, "qfrc")
        tau = np.zeros(np.broadcast_shapes(q.shape[:-1], qfrc.shape[:-1]) + (self.nv,))
        for j, kind in enumerate(self.jnt_type):
            d, b = int(self.dofadr[j]), int(self.v_index[j])
            if b < 0:
                target, a1, _ = self.mimic[j]
                tau[..., int(self.v_index[target])] += a1 * qfrc[..., d]
                continue
            tau[..., b : b + NV[kind]] += qfrc[..., d : d + NV[kind]]
            if kind == FREE:
                R = self._rotations(q, j)
                tau[..., b : b + 3] = np.einsum("...ji,...j->...i", R, qfrc[..., d : d + 3])
        return tau


def _last(x: Any, n: int, field_name: str) -> NDArray[np.float64]:
    out = np.asarray(x, dtype=float)
    if out.ndim == 0 or out.shape[-1] != n:
        raise ValueError(f"{field_name}: expected shape (..., {n}), got {short_repr(np.shape(x))}")
    return out


__all__ = ["MjcfInfo"]
