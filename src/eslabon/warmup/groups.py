"""The groups of calls ``eslabon warmup`` makes (:mod:`eslabon.warmup`): which kernels
each compiles, the groups it follows, and the calls themselves, each on a small built-in
robot of its family (the arms: revolute, prismatic, universal and planar joints, mimic
joints; the floating bases: free-flyer, spherical and helical joints)."""

from __future__ import annotations

FIRST_USE, MORE = "first use", "more"
_ARMS, _FLOATING = "arms: ", "floating bases: "
# group -> (what it compiles; the groups it runs after, whose kernels it shares: it loads
# them from the cache instead of compiling them again in another process; its CPU
# seconds from empty on the reference machine; FIRST_USE, or MORE for ``--all`` only)
GROUPS = {
    _ARMS + "first calls": (
        "ID, bias, gravity, M, FD, their derivatives and the linearization on arrays",
        (),
        21.0,
        FIRST_USE,
    ),
    _ARMS + "other one-state calls": (
        "lists, every method, crosscheck, kinematics, momentum, a mimic joint",
        (_ARMS + "first calls",),
        11.0,
        FIRST_USE,
    ),
    _ARMS + "batches": (
        "ID, bias, gravity, M, FD, energies, poses on (N, n) states",
        (_ARMS + "first calls",),
        6.5,
        FIRST_USE,
    ),
    _ARMS + "simulation": (
        "RK4 and Euler loops, Coulomb friction, a mobile manipulator",
        (_ARMS + "other one-state calls", _ARMS + "batches"),
        5.0,
        FIRST_USE,
    ),
    _ARMS + "more batches": (
        "derivatives, linearization, other methods, C, Jacobians, link motion",
        (_ARMS + "batches", _ARMS + "other one-state calls"),
        16.0,
        MORE,
    ),
    _ARMS + "trace and wrenches": (
        "the Newton–Euler trace, inverse dynamics with external wrenches",
        (_ARMS + "other one-state calls",),
        2.5,
        MORE,
    ),
    _FLOATING + "first calls": (
        "the same for free-flyer, spherical and helical joints",
        (),
        28.0,
        FIRST_USE,
    ),
    _FLOATING + "other one-state calls": (
        "the same",
        (_FLOATING + "first calls",),
        4.0,
        FIRST_USE,
    ),
    _FLOATING + "batches": (
        "energies and poses on (N, nq) states (plotting and viewing a trajectory)",
        (_FLOATING + "first calls",),
        4.0,
        FIRST_USE,
    ),
    _FLOATING + "simulation": (
        "the compiled RK4 loop on charts; a screw's loops",
        (_FLOATING + "other one-state calls", _FLOATING + "batches"),
        4.0,
        FIRST_USE,
    ),
    _FLOATING + "more batches": (
        "ID, bias, gravity, M, FD, rollouts and Coulomb friction on charts, the arms' other "
        "batches",
        (_FLOATING + "simulation",),
        31.0,
        MORE,
    ),
    _FLOATING + "trace and wrenches": (
        "the same",
        (_FLOATING + "other one-state calls",),
        3.0,
        MORE,
    ),
}


def _states(model, batch: int = 0):
    """q (a valid configuration), q̇, q̈: one state (nq,), (nv,) or a batch (batch, …)."""
    import numpy as np

    import eslabon as es

    rng = np.random.default_rng(0)
    if batch:
        q = np.stack([es.random_configuration(model, rng) for _ in range(batch)])
    else:
        q = es.random_configuration(model, rng)
    shape = (batch, model.nv) if batch else (model.nv,)
    return q, rng.uniform(-1, 1, shape), rng.uniform(-1, 1, shape)


def _first_calls(model) -> None:
    """One state as float64 arrays: the lean C entries."""
    import eslabon as es
    from eslabon.control import linearize
    from eslabon.identification import joint_torque_regressor

    q, v, a = _states(model)
    es.inverse_dynamics(model, q, v, a)
    es.bias_forces(model, q, v)
    es.gravity_torques(model, q)
    es.mass_matrix(model, q)
    es.forward_dynamics(model, q, v, a)
    es.inverse_dynamics_derivatives(model, q, v, a)
    es.forward_dynamics_derivatives(model, q, v, a)
    linearize(model, q, v, a)
    es.centroidal_momentum_matrix(model, q)
    es.com_jacobian(model, q)
    joint_torque_regressor(model, q, v, a)
    frame = model.body_names[-1]
    for _ in range(2):  # a frame's first call puts it in model.frame_placements
        es.jacobian(model, q, frame)
        es.kinematics.frame_pose(model, q, frame)
        es.kinematics.bias_acceleration(model, q, v, frame)


def _other_calls(model) -> None:
    """One state through the general path: lists, every method; crosscheck (every
    formulation it compares), kinematics, momentum."""
    import eslabon as es
    from eslabon.control import linearize

    q, v, a = _states(model)
    x, y, z = (list(map(float, w)) for w in (q, v, a))
    es.inverse_dynamics(model, x, y, z)
    es.bias_forces(model, x, y)
    es.gravity_torques(model, x)
    for method in ("walker_orin_3", "walker_orin_1"):
        es.mass_matrix(model, q, algorithm=method)
    for method in ("aba", "walker_orin_3", "walker_orin_1"):
        es.forward_dynamics(model, q, v, a, algorithm=method)
    es.inverse_dynamics_derivatives(model, x, y, z)
    es.forward_dynamics_derivatives(model, x, y, z)
    linearize(model, x, y, z)
    es.crosscheck(model, q, v, a)  # every formulation, M's and FD's methods, C, energies
    es.forward_kinematics(model, q)
    es.end_effector_pose(model, q)
    es.jacobian(model, q)
    es.kinematics.link_velocities(model, q, v)
    es.kinematics.link_accelerations(model, q, v, a)
    es.momentum(model, q, v)
    es.kinetic_energy(model, q, v)
    es.potential_energy(model, q)
    es.coriolis_matrix(model, q, v)


def _mimic_calls() -> None:
    """A model with a mimic joint: the coupled system, general paths over the kernels of
    its joints (:mod:`eslabon.model.mimic`)."""
    import numpy as np

    import eslabon as es
    from eslabon.control import linearize

    tree = es.zoo.random_tree(3, "RRRPR", friction=False)
    model = tree.replace(  # body 4's joint copies body 1's
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )
    q, v, a = _states(model)
    es.inverse_dynamics(model, q, v, a)
    es.mass_matrix(model, q)
    es.forward_dynamics(model, q, v, a, algorithm="walker_orin_3")
    es.inverse_dynamics_derivatives(model, q, v, a)
    es.forward_dynamics_derivatives(model, q, v, a)
    linearize(model, q, v, a)
    es.crosscheck(model, q, v, a)
    es.momentum(model, q, v)
    es.simulate(model, q, None, 0.002, 0.001, algorithm="walker_orin_3")


def _batches(model, dynamics: bool = True) -> None:
    """The batches of the energies and the world poses, which plotting and viewing a
    trajectory make; with ``dynamics``, of Newton–Euler, the mass matrix and the
    articulated-body algorithm too."""
    import eslabon as es

    Q, V, A = _states(model, 9)
    if dynamics:
        es.inverse_dynamics(model, Q, V, A)
        es.bias_forces(model, Q, V)
        es.gravity_torques(model, Q)
        es.mass_matrix(model, Q)
        es.forward_dynamics(model, Q, V, A)
    es.kinetic_energy(model, Q, V)
    es.forward_kinematics(model, Q)


def _more_batches(model) -> None:
    """Every other batch call."""
    import eslabon as es
    from eslabon.control import linearize
    from eslabon.identification import joint_torque_regressor

    Q, V, A = _states(model, 9)
    es.mass_matrix(model, Q, algorithm="walker_orin_1")
    for method in ("walker_orin_3", "walker_orin_1"):
        es.forward_dynamics(model, Q, V, A, algorithm=method)
    es.inverse_dynamics_derivatives(model, Q, V, A)
    es.forward_dynamics_derivatives(model, Q, V, A)
    linearize(model, Q, V, A)
    es.jacobian(model, Q)
    es.centroidal_momentum_matrix(model, Q)
    es.com_jacobian(model, Q)
    es.kinematics.bias_acceleration(model, Q, V, model.body_names[-1])
    joint_torque_regressor(model, Q, V, A)
    es.kinematics.link_velocities(model, Q, V)
    es.momentum(model, Q, V)
    es.coriolis_matrix(model, Q, V)


def _simulation(model, family: str) -> None:
    """The compiled RK4 (and Euler) loops with every forward-dynamics method, and with
    Coulomb friction."""
    import numpy as np

    import eslabon as es

    q, _, tau = _states(model)
    if family == "floating bases":
        es.simulate(model, q, None, 0.002, 0.001, torque=np.zeros(model.nv))  # on charts
        model = es.zoo.random_tree(0, "RHR", friction=False)  # a screw: the plain loops
        q, _, tau = _states(model)
    for method in ("aba", "walker_orin_3", "walker_orin_1"):
        es.simulate(model, q, None, 0.002, 0.001, torque=tau, algorithm=method)
        es.simulate(model, q, None, 0.002, 0.001, torque=np.tile(tau, (3, 1)), algorithm=method)
    es.simulate(model, q, None, 0.002, 0.001, torque=tau, integrator="euler")
    if family == "arms":
        # Coulomb friction (a URDF's friction="…", the tutorial's): the stick–slip loop
        es.simulate(model.replace(coulomb=0.1), q, None, 0.002, 0.001, torque=tau)
        from .. import mobile as mb

        mm = mb.MobileManipulator(
            mb.Tricycle(mb.TricycleParams.seekur_jr_assumed()),
            es.zoo.load("puma560_araujo"),
            mb.Mount.araujo_assumed(),
        )
        mb.simulate(mm, None, None, 0.02, 0.01, torque=np.zeros(6), u=[150.0, 0.3])


def run_group(name: str) -> None:
    """Make one group's calls in this process, compiling what is not in the cache.

    Parameters
    ----------
    name : str
        A group of :data:`GROUPS`.

    Raises
    ------
    ValueError
        An unknown group.
    """
    import numpy as np

    import eslabon as es

    if name not in GROUPS:
        raise ValueError(f"group: expected one of {list(GROUPS)}, got {name!r}")
    family, part = name.split(": ")
    if family == "arms":
        model = es.zoo.load("practica_4dof")  # revolute and prismatic joints
    else:
        model = es.zoo.load("space_manipulator")  # a free flyer and revolute joints
    if part == "first calls":
        _first_calls(model)
        if family == "floating bases":
            _first_calls(es.zoo.random_tree(0, "RHR"))  # a helical joint (nq = nv)
    elif part == "other one-state calls":
        _other_calls(model)
        if family == "arms":
            _mimic_calls()
    elif part == "batches":  # a floating base's first batches are those of plots
        _batches(model, dynamics=family == "arms")
    elif part == "more batches":
        if family == "floating bases":
            _batches(model)
            Q, V, _ = _states(model, 2)
            es.rollout(model, Q, V, 0.002, 0.001)  # runs on charts
            # Coulomb friction (a Go1's URDF): stick–slip on charts, about 5 CPU-s
            es.simulate(model.replace(coulomb=0.1), Q[0], None, 0.002, 0.001)
        _more_batches(model)
    elif part == "simulation":
        _simulation(model, family)
    else:  # trace and wrenches
        q, v, a = _states(model)
        es.rnea_trace(model, q, v, a, wrenches=[("ee", np.ones(6))])
        es.inverse_dynamics(model, q, v, a, wrenches=[("ee", np.ones(6))])


def selected(everything: bool = False) -> list:
    """The groups a warm-up runs.

    Parameters
    ----------
    everything : bool
        All the groups (``eslabon warmup --all``), not only those of first use.

    Returns
    -------
    list of str
        Names of :data:`GROUPS`, in their order there.
    """
    return [n for n, g in GROUPS.items() if everything or g[3] == FIRST_USE]
