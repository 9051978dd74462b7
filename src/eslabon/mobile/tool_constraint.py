"""A constraint on the end effector of the mobile manipulator, eliminated by independent
quasi-velocities so that the Gibbs–Appell equations hold without multipliers.

Araujo (2012), Ch. II (antecedents), cites Provenzano (2001) for Gibbs–Appell models of
fixed arms "con restricciones en el elemento terminal" and procedures for holonomic and
non-holonomic end-effector constraints; the thesis itself eliminates the tricycle's
rolling constraints that way, writing every velocity in independent quasi-velocities
(3.19). Here the same is done for a tool held on a plane fixed to the floor,

    c(y) = nᵀ (p_tool − p₀) = 0,

p_tool the origin of an arm frame (in the plane/floor frame F), n a unit normal. With the
mobile manipulator's quasi-velocities w = [ν; q̇] (k + n of them), ċ = J_c w and
c̈ = J_c ẇ + b_c. One quasi-velocity w_d (``dependent``) is given up: w_d = −J_d⁻¹ J_i w_i,
so w = B w_i and ẇ = B ẇ_i + e_d β with β = −b_c / J_d. The Gibbs function
S = ½ ẇᵀ D ẇ + φᵀ ẇ + … of the coupled model (:func:`eslabon.mobile.coupled_terms`),
written in the independent quasi-accelerations, is stationary at

    Bᵀ D B ẇ_i = Bᵀ (Q − φ − D e_d β)                       (no multiplier)

— the constraint force does no work on any motion B ẇ_i the constraint allows, so it never
appears. The multiplier forms for the check: the same D, φ with J_c in a KKT system
(:func:`multiplier_accelerations`), and independently the unconstrained tree of
:mod:`eslabon.mobile.dae` with the rolling rows and the tool's row nᵀ J_tool
(:func:`simulate_multipliers`).

J_c and b_c come from the tree's frame Jacobian and bias acceleration (the velocity
map of the tree's coordinates q̇_T = Γ w, Γ = diag(G, I)), so J_c = nᵀ J_T Γ and
b_c = nᵀ (J_T [Ġ ν; 0] + J̇_T q̇_T).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.integrate import solve_ivp

from .._args import finite_array
from ..dynamics.api import bias_forces, mass_matrix
from ..kinematics.forward import forward_kinematics, jacobian
from ..kinematics.frame_motion import bias_acceleration
from . import dae
from .gibbs import _inputs, _solve, coupled_terms

__all__ = [
    "ToolOnPlane",
    "independent_accelerations",
    "multiplier_accelerations",
    "simulate",
    "simulate_multipliers",
]


@dataclass
class ToolOnPlane:
    """The origin of the arm's frame ``frame`` held on the plane nᵀ (p − p₀) = 0.

    Parameters
    ----------
    mm : MobileManipulator
        In ``mode="coupled"``, on a platform with a tree (:func:`eslabon.mobile.dae.tree_model`).
    point : array_like (3,)
        p₀ [m], a point of the plane in the floor frame.
    normal : array_like (3,)
        n, the plane's normal in the floor frame (normalized here).
    dependent : str
        The quasi-velocity given up, one of ``mm.coordinate_names`` (default ``"q1"``).
        Its column of J_c must not vanish along the motion.
    frame : str, optional
        An arm body's name (default its last body); the tool point is its origin.

    Raises
    ------
    ValueError
        ``mm`` not coupled, ``point`` or ``normal`` not 3 finite numbers, a zero normal,
        an unknown ``dependent`` or ``frame``.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0])
    >>> con = mb.tool_constraint.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    >>> abs(float(con.value(y))) < 1e-12
    True
    """

    mm: object
    point: np.ndarray
    normal: np.ndarray
    dependent: str = "q1"
    frame: str | None = None
    tree: object = field(init=False, repr=False)

    def __post_init__(self):
        if self.mm.mode != "coupled":
            raise ValueError(f"mm.mode: expected 'coupled', got {self.mm.mode!r}")
        self.point = finite_array(self.point, "point", (3,))
        n = finite_array(self.normal, "normal", (3,))
        if not np.linalg.norm(n) > 0:
            raise ValueError("normal: expected a nonzero vector")
        self.normal = n / np.linalg.norm(n)
        names = self.mm.coordinate_names
        if self.dependent not in names:
            raise ValueError(f"dependent: expected one of {names}, got {self.dependent!r}")
        arm = self.mm.arm
        if self.frame is None:
            self.frame = arm.body_names[-1]
        if self.frame not in arm.body_names[1:]:
            raise ValueError(
                f"frame: expected one of the arm's bodies {arm.body_names[1:]}, got {self.frame!r}"
            )
        self.tree = dae.tree_model(self.mm)

    @classmethod
    def through(cls, mm, y, normal, **kw):
        """The plane with normal ``normal`` through the tool's position at the state ``y``.

        Parameters
        ----------
        mm : MobileManipulator
            In ``mode="coupled"``.
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``; only its configuration is used.
        normal : array_like (3,)
            n, the plane's normal in the floor frame (normalized).
        **kw
            ``dependent`` and ``frame``, as for the class.

        Returns
        -------
        ToolOnPlane
            With p₀ the tool's position at ``y``, so that c(y) = 0.

        Raises
        ------
        ValueError
            As for the class.
        """
        con = cls(mm, np.zeros(3), normal, **kw)
        con.point = con.tool_position(y)
        return con

    # --- kinematics -------------------------------------------------------------------
    def _tree_state(self, y):
        mm = self.mm
        config, q, nu, qd = mm.split(y)
        E = dae.expansion(mm)
        pm = mm.platform.motion(config, nu)
        k = mm.n_quasi
        Gamma = np.zeros((E.shape[0] + mm.n_arm, k + mm.n_arm))
        Gamma[: E.shape[0], :k] = E @ pm.G
        Gamma[E.shape[0] :, k:] = np.eye(mm.n_arm)
        q_T = np.concatenate([E @ config, q])
        qd_T = np.concatenate([E @ pm.rates, qd])
        drift = np.concatenate([E @ pm.accel0, np.zeros(mm.n_arm)])  # Γ̇ w = [Ġν; 0]
        return q_T, qd_T, Gamma, drift

    def tool_position(self, y) -> np.ndarray:
        """p_tool (3,) [m], the origin of the arm frame ``frame``, in the floor frame.

        Parameters
        ----------
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``.

        Returns
        -------
        ndarray (3,)
            [m].
        """
        q_T = self._tree_state(y)[0]
        return forward_kinematics(self.tree, q_T)[self.tree.body_names.index(self._name), :3, 3]

    @property
    def _name(self):
        return f"arm_{self.frame}"

    def value(self, y) -> float:
        """c(y) = nᵀ (p_tool − p₀) [m], the tool's signed distance from the plane.

        Parameters
        ----------
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``.

        Returns
        -------
        float
            [m], positive on the side ``normal`` points to.
        """
        return float(self.normal @ (self.tool_position(y) - self.point))

    def terms(self, y):
        """J_c and b_c of ċ = J_c w and c̈ = J_c ẇ + b_c, w = [ν; q̇] (module docstring).

        Parameters
        ----------
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``.

        Returns
        -------
        J_c : ndarray (1, k + n)
            [m] per unit of each quasi-velocity (k of the platform, n of the arm).
        b_c : ndarray (1,)
            [m/s²], the part of c̈ that does not depend on ẇ.
        """
        q_T, qd_T, Gamma, drift = self._tree_state(y)
        J_T = jacobian(self.tree, q_T, self._name)[3:]
        a0 = bias_acceleration(self.tree, q_T, qd_T, self._name)[3:]
        return (self.normal @ J_T @ Gamma)[None, :], np.array([self.normal @ (J_T @ drift + a0)])

    def velocity_basis(self, y):
        """B and e_d β of w = B w_i, ẇ = B ẇ_i + e_d β: the quasi-velocities in the
        independent ones w_i (all but ``dependent``), from ċ = 0 and c̈ = 0.

        Parameters
        ----------
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``.

        Returns
        -------
        B : ndarray (k + n, k + n − 1)
            The identity on w_i; the row of ``dependent`` is −J_i / J_d.
        extra : ndarray (k + n,)
            e_d β, zero but for ``dependent``'s entry β = −b_c / J_d.

        Raises
        ------
        ValueError
            ``dependent``'s column of J_c is (near) zero at ``y``: at most 1e-9 times the
            row's largest entry.
        """
        J, b = self.terms(y)
        d = self.mm.coordinate_names.index(self.dependent)
        indep = [j for j in range(J.shape[1]) if j != d]
        # relative to the row's largest entry: a column at round-off is no column
        if not abs(J[0, d]) > 1e-9 * np.abs(J[0]).max():
            raise ValueError(
                f"dependent: the constraint does not involve {self.dependent!r} here; "
                "choose another quasi-velocity"
            )
        B = np.zeros((J.shape[1], len(indep)))
        B[indep, np.arange(len(indep))] = 1.0
        B[d] = -J[0, indep] / J[0, d]
        extra = np.zeros(J.shape[1])
        extra[d] = -b[0] / J[0, d]
        return B, extra

    def consistent_state(self, y):
        """``y`` with the dependent quasi-velocity solved from the others, so that ċ = 0.

        The configuration is left as it is: start from a state on the plane
        (:meth:`through`) for c = 0 as well.

        Parameters
        ----------
        y : array_like (n_state,)
            A state [config, q, ν, q̇] of ``mm``.

        Returns
        -------
        ndarray (n_state,)
            A copy of ``y`` with ``dependent``'s entry of w replaced.

        Raises
        ------
        ValueError
            ``dependent``'s column of J_c is (near) zero at ``y``: at most 1e-9 times the
            row's largest entry.
        """
        y = np.array(y, dtype=float)
        B, _ = self.velocity_basis(y)
        mm = self.mm
        w = y[mm.n_config + mm.n_arm :]
        d = mm.coordinate_names.index(self.dependent)
        keep = [j for j in range(len(w)) if j != d]
        y[mm.n_config + mm.n_arm :] = B @ w[keep]
        return y


def independent_accelerations(con: ToolOnPlane, y, u, tau=None):
    """ẇ = [ν̇; q̈] (k + n,) by Gibbs–Appell in the independent quasi-velocities (no
    multiplier): Bᵀ D B ẇ_i = Bᵀ (Q − φ − D e_d β) (module docstring).

    Parameters
    ----------
    con : ToolOnPlane
    y : array_like (n_state,)
        The state [config, q, ν, q̇], consistent with the constraint.
    u : array_like
        Platform inputs (tricycle [F N, M N·m]).
    tau : array_like (n,), optional
        Arm torques [N·m].

    Returns
    -------
    ndarray (k + n,)

    Raises
    ------
    ValueError
        Arguments of the wrong length or not finite; a dependent quasi-velocity that the
        constraint does not involve at y.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile import tool_constraint as tc
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0], nu=[0.5, 0.05], qd=[0, 0.1, 0, 0, 0, 0])
    >>> con = tc.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    >>> y0 = con.consistent_state(y)
    >>> u, tau = [150.0, 0.0], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]
    >>> a = tc.independent_accelerations(con, y0, u, tau)
    >>> a.shape
    (8,)
    >>> J, b = con.terms(y0)
    >>> bool(abs(J[0] @ a + b[0]) < 1e-9 * np.abs(a).max())  # c̈ = 0
    True
    """
    mm = con.mm
    u, tau = _inputs(mm, u, tau)
    config, _, nu, _ = mm.split(y)
    D, phi, _ = coupled_terms(mm, y)
    Q = np.concatenate([mm.platform.generalized_forces(config, nu, u), tau])
    B, extra = con.velocity_basis(y)
    a_i = _solve(B.T @ D @ B, B.T @ (Q - phi - D @ extra), "tool constraint")
    return B @ a_i + extra


def multiplier_accelerations(con: ToolOnPlane, y, u, tau=None):
    """ẇ and λ from the same D, φ as :func:`independent_accelerations`, with the
    constraint kept by a Lagrange multiplier (module docstring), the check of the
    multiplier-free form:

        [D J_cᵀ; J_c 0] [ẇ; −λ] = [Q − φ; −b_c],

    so that D ẇ = Q − φ + J_cᵀ λ: λ n is the plane's force on the tool.

    Parameters
    ----------
    con : ToolOnPlane
    y : array_like (n_state,)
        The state [config, q, ν, q̇], consistent with the constraint.
    u : array_like
        Platform inputs (tricycle [F N, M N·m]).
    tau : array_like (n,), optional
        Arm torques [N·m].

    Returns
    -------
    accelerations : ndarray (k + n,)
        ẇ = [ν̇; q̈].
    force : ndarray (1,)
        λ [N], the plane's force on the tool along ``con.normal``.

    Raises
    ------
    ValueError
        Arguments of the wrong length or not finite.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile import tool_constraint as tc
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0], nu=[0.5, 0.05], qd=[0, 0.1, 0, 0, 0, 0])
    >>> con = tc.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    >>> y0 = con.consistent_state(y)
    >>> u, tau = [150.0, 0.0], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]
    >>> a, force = tc.multiplier_accelerations(con, y0, u, tau)
    >>> a_i = tc.independent_accelerations(con, y0, u, tau)
    >>> bool(np.allclose(a, a_i, rtol=0, atol=1e-9 * np.abs(a).max()))
    True
    >>> force.shape
    (1,)
    """
    mm = con.mm
    u, tau = _inputs(mm, u, tau)
    config, _, nu, _ = mm.split(y)
    D, phi, _ = coupled_terms(mm, y)
    Q = np.concatenate([mm.platform.generalized_forces(config, nu, u), tau])
    J, b = con.terms(y)
    K = np.block([[D, J.T], [J, np.zeros((1, 1))]])
    sol = np.linalg.solve(K, np.concatenate([Q - phi, -b]))
    return sol[:-1], -sol[-1:]


def simulate(con: ToolOnPlane, t_eval, y0, u, tau=None, *, rtol=1e-11, atol=1e-12):
    """The motion with the tool held on the plane, without multipliers: ẏ = [G ν, q̇, ẇ]
    with ẇ of :func:`independent_accelerations`, integrated by DOP853.

    The Gibbs function (2.25) of Araujo (2012), made stationary in the independent
    quasi-accelerations as Ch. III does for the rolling constraints (3.19), here for the
    end-effector constraint that Ch. II cites after Provenzano (2001). No stabilization:
    the drift from the plane is the integrator's error.

    Parameters
    ----------
    con : ToolOnPlane
    t_eval : array_like (K,)
        Increasing times [s]; the run goes from ``t_eval[0]`` to ``t_eval[-1]``.
    y0 : array_like (n_state,)
        The initial state [config, q, ν, q̇], on the plane and consistent with it
        (:meth:`ToolOnPlane.consistent_state`).
    u : array_like
        Platform inputs, constant (tricycle [F N, M N·m]).
    tau : array_like (n,), optional
        Arm torques [N·m], constant.
    rtol, atol : float, optional
        The integrator's tolerances.

    Returns
    -------
    ndarray (K, n_state)
        The states at ``t_eval``.

    Raises
    ------
    ValueError
        Arguments of the wrong length or not finite.
    RuntimeError
        The integrator fails.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile import tool_constraint as tc
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0], nu=[0.5, 0.05], qd=[0, 0.1, 0, 0, 0, 0])
    >>> con = tc.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    >>> y0 = con.consistent_state(y)
    >>> u, tau = [150.0, 0.0], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]
    >>> Y = tc.simulate(con, [0.0, 0.02, 0.05], y0, u, tau)
    >>> Y.shape
    (3, 21)
    >>> bool(max(abs(con.value(yk)) for yk in Y) < 1e-9)  # the tool stays on the plane
    True
    """
    mm = con.mm

    def f(_, y):
        config, _, nu, qd = mm.split(y)
        return np.concatenate(
            [mm.platform.motion(config, nu).rates, qd, independent_accelerations(con, y, u, tau)]
        )

    sol = solve_ivp(
        f, (t_eval[0], t_eval[-1]), y0, method="DOP853", t_eval=t_eval, rtol=rtol, atol=atol
    )
    if not sol.success:
        raise RuntimeError(f"integration failed: {sol.message}")
    return sol.y.T


def simulate_multipliers(
    con: ToolOnPlane, t_eval, y0, u, tau=None, *, rtol=1e-11, atol=1e-12, kappa=10.0
):
    """The same motion by the tree DAE of :mod:`eslabon.mobile.dae`, the independent check
    of :func:`simulate`: the unconstrained tree (``dae.tree_model``) with the tool's row
    nᵀ J_tool beside the rolling rows, all kept by Lagrange multipliers, with
    velocity-level Baumgarte stabilization A q̇ → 0 at the rate κ.

    Parameters
    ----------
    con : ToolOnPlane
    t_eval : array_like (K,)
        Increasing times [s].
    y0 : array_like (n_state,)
        The initial state [config, q, ν, q̇] of ``con.mm``, on the plane and consistent
        with it (:meth:`ToolOnPlane.consistent_state`).
    u : array_like
        Platform inputs, constant (tricycle [F N, M N·m]).
    tau : array_like (n,), optional
        Arm torques [N·m], constant.
    rtol, atol : float, optional
        The integrator's tolerances (DOP853).
    kappa : float, optional
        κ [1/s] of the velocity-level stabilization.

    Returns
    -------
    positions : ndarray (K, n_config + n)
        [config, q] at ``t_eval``, in the mobile manipulator's layout, as
        :func:`eslabon.mobile.dae.simulate`.
    rates : ndarray (K, n_config + n)
        Their time derivatives.

    Raises
    ------
    ValueError
        Arguments of the wrong length or not finite.
    RuntimeError
        The integrator fails.

    Examples
    --------
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon import mobile as mb
    >>> from eslabon.mobile import tool_constraint as tc
    >>> cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    >>> mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    >>> y = mm.state(q=[0.3, -0.6, 0.4, 0, 0.3, 0], nu=[0.5, 0.05], qd=[0, 0.1, 0, 0, 0, 0])
    >>> con = tc.ToolOnPlane.through(mm, y, normal=[0, 1, 0])
    >>> y0 = con.consistent_state(y)
    >>> u, tau = [150.0, 0.0], [6.0, 50.0, 10.0, -0.1, -0.5, -0.1]
    >>> t = [0.0, 0.02, 0.05]
    >>> positions, rates = tc.simulate_multipliers(con, t, y0, u, tau)
    >>> positions.shape
    (3, 13)
    >>> Y = tc.simulate(con, t, y0, u, tau)
    >>> bool(np.allclose(positions, Y[:, :13], rtol=0, atol=1e-9))
    True
    """
    mm, tree, name = con.mm, con.tree, con._name
    _, tau = _inputs(mm, u, tau)
    q_T, qd_T, _, _ = con._tree_state(y0)
    n = tree.nq

    def f(_, x):
        q, qd = x[:n], x[n:]
        A = np.vstack([dae.constraint_matrix(mm, q), con.normal @ jacobian(tree, q, name)[3:]])
        drift = np.concatenate(
            [dae._A_dot_qd(mm, q, qd), [con.normal @ bias_acceleration(tree, q, qd, name)[3:]]]
        )
        M, h = mass_matrix(tree, q), bias_forces(tree, q, qd)
        m = A.shape[0]
        K = np.block([[M, A.T], [A, np.zeros((m, m))]])
        rhs = np.concatenate([dae.generalized_forces(mm, q, u, tau) - h, -drift - kappa * A @ qd])
        return np.concatenate([qd, np.linalg.solve(K, rhs)[:n]])

    sol = solve_ivp(
        f,
        (t_eval[0], t_eval[-1]),
        np.concatenate([q_T, qd_T]),
        method="DOP853",
        t_eval=t_eval,
        rtol=rtol,
        atol=atol,
    )
    if not sol.success:
        raise RuntimeError(f"DAE integration failed: {sol.message}")
    keep = np.r_[dae._platform_part(mm), dae.expansion(mm).shape[0] + np.arange(mm.n_arm)]
    return sol.y[:n][keep].T, sol.y[n:][keep].T
