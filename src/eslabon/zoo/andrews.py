"""Andrews' squeezing mechanism: the seven-body planar closed-loop benchmark of
multibody dynamics, with its published data.

The mechanism was described by Giles, Manning and Andrews in W. Schiehlen (ed.),
*Multibody Systems Handbook* (Springer, 1990); E. Hairer and G. Wanner, *Solving
Ordinary Differential Equations II* (2nd ed., Springer, 1996), §VII.7, write its
equations of motion in seven angles with six constraints and use it as a test problem,
and F. Mazzia et al.'s *Test Set for IVP Solvers* (University of Bari), problem "Andrews'
squeezing mechanism", tabulates a reference solution at t = 0.03 s. The numbers below
(masses, inertias, lengths, fixed points, the spring and the motor torque) are that
problem's parameter table; :func:`andrews_squeezer` builds the mechanism as an eslabon
model whose joint angles are the benchmark's angles.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..model import ModelBuilder
from ..model.constraint_types import LoopClosure

#: The benchmark's parameters (SI units: kg, kg·m², m, N/m, N·m), named as the Test Set's
#: problem names them: masses m1..m7 and moments of inertia i1..i7 about the centres of
#: mass of bodies 1..7; the fixed points A = (xa, ya), B = (xb, yb) and the spring's
#: anchor C = (xc, yc); lengths d, da, e, ea, rr, ra, ss, sa, sb, sc, sd, ta, tb, u, ua,
#: ub, zf, zt, fa; the spring's stiffness c0 and unstretched length l0; the motor torque
#: mom on body 1.
PARAMETERS = {
    "m1": 0.04325, "m2": 0.00365, "m3": 0.02373, "m4": 0.00706,
    "m5": 0.07050, "m6": 0.00706, "m7": 0.05498,
    "i1": 2.194e-6, "i2": 4.410e-7, "i3": 5.255e-6, "i4": 5.667e-7,
    "i5": 1.169e-5, "i6": 5.667e-7, "i7": 1.912e-5,
    "xa": -0.06934, "ya": -0.00227, "xb": -0.03635, "yb": 0.03273,
    "xc": 0.014, "yc": 0.072,
    "d": 28e-3, "da": 115e-4, "e": 2e-2, "ea": 1421e-5,
    "rr": 7e-3, "ra": 92e-5, "ss": 35e-3, "sa": 1874e-5, "sb": 1043e-5,
    "sc": 18e-3, "sd": 2e-2, "ta": 2308e-5, "tb": 916e-5,
    "u": 4e-2, "ua": 1228e-5, "ub": 449e-5, "zf": 2e-2, "zt": 4e-2, "fa": 1421e-5,
    "c0": 4530.0, "l0": 7785e-5, "mom": 33e-3,
}  # fmt: skip

#: The benchmark's coordinates (β, Θ, γ, Φ, δ, Ω, ε) from the model's q and back:
#: ``y = q[BENCHMARK_ORDER]`` and ``q = y[BENCHMARK_ORDER]`` (the swap is its own
#: inverse). The model's q is (β, Θ, γ, δ, Φ, ε, Ω): a joint follows the joint of its
#: parent body, and Φ turns body 4 relative to body 5, which δ turns (Ω: body 6 on body 7,
#: which ε turns).
BENCHMARK_ORDER = (0, 1, 2, 4, 3, 6, 5)

#: The consistent initial angles of the benchmark, in its order (β, Θ, γ, Φ, δ, Ω, ε)
#: [rad], as the Test Set gives them (the velocities are zero).
BENCHMARK_Q0 = (
    -0.0617138900142764496358948458001,
    0.0,
    0.455279819163070380255912382449,
    0.222668390165885884674473185609,
    0.487364979543842550225598953530,
    -0.222668390165885884674473185609,
    1.23054744454982119249735015568,
)


def _planar_inertia(izz: float) -> np.ndarray:
    """A flat body's inertia about its COM with moment ``izz`` about z: a lamina in the
    xy plane has Ixx + Iyy = Izz (the halves: x and y moments never enter a planar
    motion about z)."""
    return np.diag([izz / 2, izz / 2, izz])


def andrews_squeezer():
    """Andrews' squeezing mechanism: seven planar bodies turning about z, three closed
    loops meeting at one point E, a motor torque on body 1 and a spring on body 3;
    no gravity (the benchmark has none).

    Source: Giles, Manning and Andrews in W. Schiehlen (ed.), *Multibody Systems
    Handbook* (Springer, 1990); the equations of E. Hairer and G. Wanner, *Solving
    Ordinary Differential Equations II*, 2nd ed. (Springer, 1996), §VII.7; the parameter
    table, initial values and reference solution of F. Mazzia et al., *Test Set for IVP
    Solvers* (University of Bari), problem "Andrews' squeezing mechanism" (the values are
    :data:`PARAMETERS`).

    Geometry (metres; O the origin; A, B, C fixed points): body 1 (β) turns about O, body
    2 (Θ relative to body 1) hangs at P = rr (cos β, sin β), and E is at distance d from P
    on body 2; body 3 (γ) turns about B and carries E at (0, −ss) and the spring's end D at
    (sd, −sc) in its axes; body 5 (δ) turns about A and carries body 4 (Φ relative to
    body 5) at zt along its x axis, E being at (0, −e) on body 4; body 7 (ε) turns about A
    and carries body 6 (Ω relative to body 7) at (0, −u), E being at zf along body 6's x
    axis. The joint angles are the benchmark's angles exactly; the model's q lists them
    as (β, Θ, γ, δ, Φ, ε, Ω), each joint after its parent's (:data:`BENCHMARK_ORDER`
    converts). The loops are three ``planar_pin`` closures of E on body 2 to E on bodies
    3, 4 and 6 (6 rows, rows in the axes of body 3, 4, 6 respectively).

    Inertia: the masses m1..m7 and moments i1..i7 about z; the COMs at ra along body 1's
    x axis, −da along body 2's, (sb, −sa) on body 3, (ta, tb) on body 5, e − ea from body
    4's joint towards E, (−ua, −ub) on body 7, zf − fa from body 6's joint towards E. The
    benchmark's mass matrix holds only the distances ra, √(sa² + sb²), √(ta² + tb²) and
    √(ua² + ub²) of the COMs of bodies 1, 3, 5, 7 from their fixed pivots, and without
    gravity the motion depends on nothing else: their directions here are a choice. Each
    body is a lamina (Ixx = Iyy = Izz/2, which a motion about z never uses).

    Bodies ``body1`` … ``body7`` carry the benchmark's numbers (the tree adds body 5
    before 4 and 7 before 6); joints are named ``beta``, ``Theta``, ``gamma``, ``delta``,
    ``Phi``, ``epsilon``, ``Omega``. Frames: ``E2``, ``E3``, ``E4``, ``E6`` (the point E on
    bodies 2, 3, 4, 6), ``D`` (the spring's end on body 3) and ``C`` (its anchor in the
    world). The applied forces (motor, spring) are :func:`applied_forces`; the initial
    state :func:`initial_state`.

    Returns
    -------
    Model
        The mechanism, its three loop closures on it, no gravity.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon import constraints as ec
    >>> from eslabon.zoo.andrews import initial_state
    >>> model = es.zoo.load("andrews_squeezer")
    >>> q0, qd0 = initial_state()
    >>> closed = abs(ec.constraint_residual(model, q0)).max() < 1e-14
    >>> model.nv, len(ec.constraint_names(model)), bool(closed)
    (7, 6, True)
    """
    p = PARAMETERS
    b = ModelBuilder()

    def body(parent, name, joint, at, mass, com, izz):
        return b.add_body(
            parent,
            "R",
            translation=(at[0], at[1], 0.0),
            mass=mass,
            com=(com[0], com[1], 0.0),
            inertia=_planar_inertia(izz),
            name=name,
            joint_name=joint,
        )

    k1 = body(0, "body1", "beta", (0, 0), p["m1"], (p["ra"], 0), p["i1"])
    k2 = body(k1, "body2", "Theta", (p["rr"], 0), p["m2"], (-p["da"], 0), p["i2"])
    k3 = body(0, "body3", "gamma", (p["xb"], p["yb"]), p["m3"], (p["sb"], -p["sa"]), p["i3"])
    k5 = body(0, "body5", "delta", (p["xa"], p["ya"]), p["m5"], (p["ta"], p["tb"]), p["i5"])
    k4 = body(k5, "body4", "Phi", (p["zt"], 0), p["m4"], (0, -(p["e"] - p["ea"])), p["i4"])
    k7 = body(0, "body7", "epsilon", (p["xa"], p["ya"]), p["m7"], (-p["ua"], -p["ub"]), p["i7"])
    k6 = body(k7, "body6", "Omega", (0, -p["u"]), p["m6"], (p["zf"] - p["fa"], 0), p["i6"])
    b.add_frame("E2", k2, translation=(-p["d"], 0.0, 0.0))
    b.add_frame("E3", k3, translation=(0.0, -p["ss"], 0.0))
    b.add_frame("E4", k4, translation=(0.0, -p["e"], 0.0))
    b.add_frame("E6", k6, translation=(p["zf"], 0.0, 0.0))
    b.add_frame("D", k3, translation=(p["sd"], -p["sc"], 0.0))
    b.add_frame("C", 0, translation=(p["xc"], p["yc"], 0.0))
    for other in ("E3", "E4", "E6"):
        b.add_constraint(LoopClosure(f"loop_{other[1]}", other, "E2", "planar_pin"))
    return b.build(
        gravity=(0.0, 0.0, 0.0),
        name="andrews_squeezer",
        source=(
            "Andrews' squeezing mechanism: Schiehlen (ed.), Multibody Systems Handbook "
            "(1990); Hairer and Wanner, Solving ODEs II (1996), VII.7; Mazzia et al., "
            "Test Set for IVP Solvers"
        ),
    )


def initial_state() -> tuple:
    """The benchmark's consistent initial state in the model's order.

    Returns
    -------
    q0 : ndarray (7,)
        The angles (β, Θ, γ, δ, Φ, ε, Ω) [rad] of the Test Set's initial values
        (:data:`BENCHMARK_Q0` reordered by :data:`BENCHMARK_ORDER`).
    qd0 : ndarray (7,)
        Zeros: the mechanism starts at rest.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon import constraints as ec
    >>> from eslabon.zoo.andrews import andrews_squeezer, initial_state
    >>> q0, qd0 = initial_state()
    >>> bool(np.abs(ec.constraint_residual(andrews_squeezer(), q0)).max() < 1e-12)
    True
    """
    q0 = np.array(BENCHMARK_Q0)[list(BENCHMARK_ORDER)]
    return q0, np.zeros(7)


def applied_forces() -> Callable:
    """The benchmark's applied generalized forces as a function of the state.

    The motor's constant torque ``mom`` turns body 1 (the β row); the spring pulls body
    3's point D = B + R(γ) (sd, −sc) towards its anchor C with the force
    F = −c0 (L − l0) (D − C)/L, L = |D − C|, whose generalized force on γ (the only joint
    that moves D) is its moment about γ's axis through B, ((D − B) × F)_z, the same as
    Jᵀ F with J the linear rows of D's frame Jacobian (the tests check both). The
    velocity terms of the benchmark's right-hand side are the Coriolis and centrifugal
    forces the dynamics compute themselves.

    Returns
    -------
    callable
        ``tau(t, q, qd)``: the generalized forces (7,) in the model's order [N·m], for
        ``q`` in the model's order (t and qd do not enter).

    Examples
    --------
    >>> from eslabon.zoo.andrews import applied_forces, initial_state
    >>> q0, qd0 = initial_state()
    >>> tau = applied_forces()(0.0, q0, qd0)
    >>> tau.round(6).tolist()  # the motor on β, the spring on γ
    [0.033, 0.0, -3.004205, 0.0, 0.0, 0.0, 0.0]
    """
    p = PARAMETERS
    anchor = np.array([p["xc"] - p["xb"], p["yc"] - p["yb"]])  # C − B
    arm = np.array([p["sd"], -p["sc"]])  # D − B in body 3's axes

    def tau(t, q, qd):
        c, s = np.cos(q[2]), np.sin(q[2])
        r = np.array([c * arm[0] - s * arm[1], s * arm[0] + c * arm[1]])  # D − B
        d = r - anchor  # D − C
        length = float(np.hypot(d[0], d[1]))
        force = -p["c0"] * (length - p["l0"]) / length * d
        out = np.zeros(7)
        out[0] = p["mom"]
        out[2] = r[0] * force[1] - r[1] * force[0]
        return out

    return tau
