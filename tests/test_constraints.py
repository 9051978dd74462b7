"""Closed loops and contacts (eslabon.constraints): the rows' Jacobian is φ's derivative,
the drift γ is −J̇ q̇, assembly closes the loop, redundant rows are found by name, and the
four forward-dynamics formulations agree with each other and with Lagrange's equation of
the four-bar linkage in its one coordinate, derived from energies alone."""

from __future__ import annotations

import re

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from eslabon.model import ModelBuilder


def four_bar(a=1.0, c=2.0, r=1.5, d=2.5):
    """A crank (a), coupler (c) and rocker (r) on revolute joints about z, the rocker's
    end pinned to the ground at (d, 0, 0); gravity along −y."""
    b = ModelBuilder()

    def rod(m, length):
        return dict(
            mass=m, com=(length / 2, 0, 0), inertia=np.diag([1e-3, 1, 1]) * m * length**2 / 12
        )

    crank = b.add_body(0, "R", name="crank", **rod(1.0, a))
    coupler = b.add_body(crank, "R", translation=(a, 0, 0), name="coupler", **rod(2.0, c))
    rocker = b.add_body(coupler, "R", translation=(c, 0, 0), name="rocker", **rod(1.5, r))
    b.add_frame("rocker_end", rocker, translation=(r, 0, 0))
    b.add_frame("ground_pivot", 0, translation=(d, 0, 0))
    return b.build(gravity=(0.0, -9.81, 0.0), name="four_bar")


PIN = ec.LoopClosure("loop", "ground_pivot", "rocker_end", "planar_pin")


@pytest.fixture(scope="module")
def bar():
    return four_bar()


def _assembled(model, crank):
    return ec.assemble(model, [crank, -1.0, -1.5], constraints=PIN, fixed=[0])


def test_assembly_closes_the_loop_keeping_the_fixed_coordinate(bar):
    q = _assembled(bar, 1.2)
    assert q[0] == 1.2
    assert np.abs(ec.constraint_residual(bar, q, constraints=PIN)).max() < 1e-12
    tip = es.kinematics.frame_pose(bar, q, "rocker_end")[:3, 3]
    np.testing.assert_allclose(tip, [2.5, 0.0, 0.0], atol=1e-12)
    far = ec.LoopClosure("far", "ground_pivot", "rocker_end", "planar_pin")
    with pytest.raises(ValueError, match="assemble: no configuration.*row 'far\\.x' \\(no free"):
        ec.assemble(bar, [0.0, 0.0, 0.0], constraints=far, fixed=[0, 1, 2])
    with pytest.raises(ValueError, match=re.escape("row 'far.x' (no free rate moves it)")):
        ec.assemble(bar, [0.0, 0.0, 0.0], constraints=far, fixed=[0])  # stretched: singular
    with pytest.raises(
        ValueError, match=re.escape("(the free rates that move it: joint2, joint3)")
    ):
        ec.assemble(bar, [1.2, -1.0, -1.0], constraints=PIN, fixed=[0], max_iter=1)


def test_a_point_closure_of_a_planar_linkage_reports_its_redundant_row(bar):
    q = _assembled(bar, 1.2)
    planar = ec.constraint_rank(bar, q, constraints=PIN)
    assert planar.rank == 2 and planar.redundant == () and planar.mobility == 1
    point = ec.constraint_rank(
        bar, q, constraints=ec.LoopClosure("loop", "ground_pivot", "rocker_end")
    )
    assert point.rank == 2 and point.redundant == ("loop.z",) and point.mobility == 1


def test_a_stretched_arm_is_a_singular_configuration():
    arm = es.zoo.load("planar2")
    pin = ec.Contact("pin", "ee", "planar_pin", position=[2.0, 0.0, 0.0])
    report = ec.constraint_rank(arm, [0.0, 0.0], constraints=pin)
    assert report.rank == 1 and report.redundant == ("pin.x",)


@pytest.mark.parametrize("crank", [0.3, 1.2, 2.5])
def test_the_four_formulations_agree_with_lagranges_equation_in_one_coordinate(bar, crank):
    """θ = the crank angle. With every coordinate a function of θ on the loop, T =
    ½ m(θ) θ̇² and V(θ), so Lagrange's equation is m θ̈ + ½ m′ θ̇² + V′ = Q; m′ and V′ by
    central differences of assembled configurations: no J̇, no multiplier."""
    rng = np.random.default_rng(int(crank * 10))
    tau = rng.uniform(-2, 2, 3)

    def energies(theta):
        q = _assembled(bar, theta)
        N = ec.partition(bar, q, constraints=PIN, independent=[0]).N
        m = (N.T @ es.mass_matrix(bar, q) @ N).item()
        return q, N, m, float(es.potential_energy(bar, q))

    q, N, m, _ = energies(crank)
    h = 1e-5
    (_, _, m_plus, V_plus), (_, _, m_minus, V_minus) = energies(crank + h), energies(crank - h)
    dm, dV = (m_plus - m_minus) / (2 * h), (V_plus - V_minus) / (2 * h)
    theta_dot = 0.8
    qd = N[:, 0] * theta_dot
    theta_ddot = (float(N[:, 0] @ tau) - 0.5 * dm * theta_dot**2 - dV) / m
    results = {
        alg: ec.constrained_forward_dynamics(bar, q, qd, tau, constraints=PIN, algorithm=alg)
        for alg in ec.CONSTRAINED_ALGORITHMS
    }
    for alg, out in results.items():
        assert out.qdd[0] == pytest.approx(theta_ddot, rel=1e-7, abs=1e-7), alg
        np.testing.assert_allclose(out.qdd, results["kkt"].qdd, rtol=0, atol=1e-10)
        np.testing.assert_allclose(out.force, results["kkt"].force, rtol=0, atol=1e-9)
        assert out.names == ("loop.x", "loop.y")
    # λ is the force the ground exerts on the rocker's end: the joint torques and it
    # balance the dynamics, M q̈ + b = τ + Jᵀ λ
    out = results["kkt"]
    J = ec.constraint_jacobian(bar, q, constraints=PIN)
    lhs = es.mass_matrix(bar, q) @ out.qdd + es.bias_forces(bar, q, qd)
    np.testing.assert_allclose(lhs, tau + J.T @ out.force, atol=1e-10)


def test_redundant_rows_change_nothing_and_take_no_force(bar):
    q = _assembled(bar, 1.2)
    qd = ec.partition(bar, q, constraints=PIN).N @ [0.7]
    point = ec.LoopClosure("loop", "ground_pivot", "rocker_end", "point")
    for alg in ec.CONSTRAINED_ALGORITHMS:
        a = ec.constrained_forward_dynamics(bar, q, qd, [0.5, 0, 0], constraints=PIN, algorithm=alg)
        b = ec.constrained_forward_dynamics(
            bar, q, qd, [0.5, 0, 0], constraints=point, algorithm=alg
        )
        np.testing.assert_allclose(b.qdd, a.qdd, atol=1e-10)
        np.testing.assert_allclose(b.force, np.r_[a.force, 0.0], atol=1e-9)
        assert b.redundant == ("loop.z",)


def _tangent_difference(model, rows, q, h=1e-6):
    """Central differences of φ along each rate direction (q ⊕ h e_j)."""
    cols = []
    for j in range(model.nv):
        e = np.zeros(model.nv)
        e[j] = h
        plus = ec.constraint_residual(model, es.integrate(model, q, e), constraints=rows)
        minus = ec.constraint_residual(model, es.integrate(model, q, -e), constraints=rows)
        cols.append((plus - minus) / (2 * h))
    return np.array(cols).T


def test_the_jacobian_is_the_derivative_of_the_residual():
    """Translation rows at any configuration; rotation rows on the manifold (φ = 0), on a
    floating base with a weld and a tree loop."""
    model = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(3)
    q = es.random_configuration(model, rng)
    pose = es.kinematics.frame_pose(model, q, "ee")
    weld = ec.Contact("grip", "ee", "weld", position=pose[:3, 3], rotation=pose[:3, :3])
    J = ec.constraint_jacobian(model, q, constraints=weld)
    np.testing.assert_allclose(J, _tangent_difference(model, weld, q), atol=1e-8)
    panda = es.zoo.load("panda")
    qp = rng.uniform(-1, 1, panda.nv)
    loop = ec.LoopClosure("loop", "link3", "ee", "point")
    J = ec.constraint_jacobian(panda, qp, constraints=loop)
    np.testing.assert_allclose(J, _tangent_difference(panda, loop, qp), atol=1e-8)


@pytest.mark.parametrize("axes", ["weld", ("y", "rx", "rz"), "revolute"])
def test_the_drift_is_minus_the_jacobians_rate(axes):
    """γ = −J̇ q̇ against central differences of J(q(t)) q̇ along q(t) = q ⊕ t q̇ (a motion
    with q̈ = 0), for a loop whose both frames move and for a contact."""
    rng = np.random.default_rng(5)
    for model, rows in (
        (es.zoo.load("panda"), ec.LoopClosure("loop", "link3", "ee", axes)),
        (es.zoo.load("space_manipulator"), ec.Contact("c", "ee", axes, position=[0.1, 0, 0])),
    ):
        q = es.random_configuration(model, rng)
        v = rng.uniform(-1, 1, model.nv)
        h = 1e-5
        Jp = ec.constraint_jacobian(model, es.integrate(model, q, v * h), constraints=rows)
        Jm = ec.constraint_jacobian(model, es.integrate(model, q, -v * h), constraints=rows)
        np.testing.assert_allclose(
            ec.constraint_drift(model, q, v, constraints=rows), -(Jp - Jm) @ v / (2 * h), atol=1e-7
        )


def test_bad_constraints_are_named(bar):
    q = [0.0, 0.0, 0.0]
    cases = [
        (ec.LoopClosure("a", "nowhere", "rocker_end"), "constraints\\[0\\].frame_a"),
        (ec.LoopClosure("a", "rocker_end", "rocker_end"), "the same frame"),
        (ec.LoopClosure("a", "ground_pivot", "rocker_end", "hinge"), "axes: expected one of"),
        (ec.LoopClosure("a", "ground_pivot", "rocker_end", ["x", "w"]), "axes: expected 1–6"),
        (ec.Contact("c", "rocker_end", position=[0, 0]), "position: expected 3 finite"),
        (ec.Contact("c", "rocker_end", rotation=-np.eye(3)), "rotation: expected a rotation"),
        ([PIN, PIN], "constraints\\[1\\].name: expected a new"),
        ("loop", "constraints\\[0\\]: expected a LoopClosure, Contact or RollingWheel"),
    ]
    for rows, message in cases:
        with pytest.raises(ValueError, match=message):
            ec.constraint_residual(bar, q, constraints=rows)
    with pytest.raises(ValueError, match="algorithm: expected one of"):
        ec.constrained_forward_dynamics(bar, q, q, q, constraints=PIN, algorithm="lagrange")
    with pytest.raises(ValueError, match="independent: expected 1 distinct"):
        ec.partition(bar, _assembled(bar, 1.2), constraints=PIN, independent=[0, 1])


def test_a_model_carries_its_constraints(bar):
    """A model built with its loop uses it by default; a frame it names must exist."""
    closed = bar.replace(constraints=[PIN])
    assert closed.constraints == (ec.LoopClosure("loop", "ground_pivot", "rocker_end", ("x", "y")),)
    q = ec.assemble(closed, [1.2, -1.0, -1.5], fixed=[0])
    np.testing.assert_array_equal(q, _assembled(bar, 1.2))
    assert ec.constraint_names(closed) == ("loop.x", "loop.y")
    with pytest.raises(ValueError, match="the model has none"):
        ec.constraint_jacobian(bar, q)
    with pytest.raises(ValueError, match="constraints\\[0\\].frame_b: frame: unknown frame"):
        bar.replace(constraints=[ec.LoopClosure("x", "ground_pivot", "nowhere")])


def _closed_bar():
    b = ModelBuilder()
    for i, (parent, x) in enumerate([(0, 0.0), (1, 1.0), (2, 2.0)]):
        b.add_body(parent, "R", translation=(x, 0, 0), mass=1.0, com=(0.5, 0, 0),
                   inertia=np.diag([1e-3, 0.1, 0.1]), name=f"link{i + 1}")  # fmt: skip
    b.add_frame("rocker_end", 3, translation=(1.5, 0, 0))
    b.add_frame("ground_pivot", 0, translation=(2.5, 0, 0))
    b.add_constraint(PIN)
    b.add_constraint(ec.Contact("rest", "link1", ["z"], position=[0.0, 0.0, 0.0]))
    return b.build(gravity=(0, -9.81, 0), name="closed_bar")


def test_constraints_go_through_the_builder_yaml_and_info(tmp_path):
    from eslabon.cli.main import main

    model = _closed_bar()
    assert [c.name for c in model.constraints] == ["loop", "rest"]
    path = es.model.save_model(model, tmp_path / "bar.yaml")
    assert "constraints:" in path.read_text()
    back = es.load_model(path)
    assert back.constraints == model.constraints
    with pytest.raises(ValueError, match="constraints: URDF describes trees only.*loop, rest"):
        es.model.to_urdf(model)
    bad = "bad.yaml: constraints\\[0\\]: unknown key\\(s\\) \\['frame_c'\\]"
    with pytest.raises(ValueError, match=bad):
        text = path.read_text().replace("frame_a: ground_pivot", "frame_c: ground_pivot")
        (tmp_path / "bad.yaml").write_text(text)
        es.load_model(tmp_path / "bad.yaml")
    assert main(["info", str(path), "--json"]) in (0, None)


def test_info_lists_the_constraints(tmp_path, capsys):
    from eslabon.cli.main import main

    path = es.model.save_model(_closed_bar(), tmp_path / "bar.yaml")
    assert main(["info", str(path)]) in (0, None)
    out = capsys.readouterr().out
    assert "loop     loop: rocker_end held in ground_pivot along x, y (2 rows)" in out
    assert "contact  rest: link1 held at [0.0, 0.0, 0.0] m along z (1 rows)" in out
    assert "3 constraint rows on 3 rates" in out


def test_the_constraints_page_runs():
    """docs/constraints.md's example runs as written."""
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[1] / "docs" / "constraints.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(page), "exec"), {})


def test_the_state_closes_from_the_crank(bar):
    s = ec.close_state(bar, [1.2, -1.0, -1.5], [0], [1.2], [0.8], [-0.3], constraints=PIN)
    assert s.q[0] == 1.2 and s.qd[0] == 0.8 and s.qdd[0] == -0.3
    J = ec.constraint_jacobian(bar, s.q, constraints=PIN)
    assert np.abs(ec.constraint_residual(bar, s.q, constraints=PIN)).max() < 1e-12
    assert np.abs(J @ s.qd).max() < 1e-12
    gamma = ec.constraint_drift(bar, s.q, s.qd, constraints=PIN)
    np.testing.assert_allclose(J @ s.qdd, gamma, atol=1e-12)


@pytest.mark.parametrize("actuated", [[0], [2], [0, 2]])
def test_the_actuator_torques_drive_the_linkage_through_the_motion(bar, actuated):
    """The torques of the actuated joints alone, fed to the forward dynamics, give the
    motion back; with two actuators (redundant) the share has the smaller norm."""
    s = ec.close_state(bar, [1.2, -1.0, -1.5], [0], [1.2], [0.8], [-0.3], constraints=PIN)
    out = ec.constrained_inverse_dynamics(bar, *s, actuated=actuated, constraints=PIN)
    assert np.all(out.tau[np.setdiff1d(np.arange(3), actuated)] == 0.0)
    for alg in ec.CONSTRAINED_ALGORITHMS:
        back = ec.constrained_forward_dynamics(
            bar, s.q, s.qd, out.tau, constraints=PIN, algorithm=alg
        )
        np.testing.assert_allclose(back.qdd, s.qdd, atol=1e-9)
        np.testing.assert_allclose(back.force, out.force, atol=1e-8)
    if len(actuated) == 2:
        alone = ec.constrained_inverse_dynamics(bar, *s, actuated=[0], constraints=PIN)
        assert np.linalg.norm(out.tau) < np.linalg.norm(alone.tau)


def test_a_motion_the_actuators_cannot_make_is_refused(bar):
    """One actuator for an arm with two degrees of freedom (its plane contact takes none)."""
    s = ec.close_state(bar, [1.2, -1.0, -1.5], [0], [1.2], [0.8], [-0.3], constraints=PIN)
    arm = es.zoo.load("planar2")
    plane = ec.Contact("plane", "ee", ["z"], position=[0.0, 0.0, 0.0])
    with pytest.raises(ValueError, match="actuated: the joints \\[0\\] cannot produce"):
        ec.constrained_inverse_dynamics(
            arm, [0.3, 0.6], [0, 0], [1.0, 0.0], actuated=[0], constraints=plane
        )
    with pytest.raises(ValueError, match="the state is off the constraints"):
        ec.constrained_inverse_dynamics(bar, s.q, [1.0, 0, 0], s.qdd, constraints=PIN)


def test_a_quadruped_standing_on_four_feet_carries_its_weight():
    """Solo 12 on its four feet, still: the contact forces carry the weight and the
    joint torques with them hold the posture (the base is not actuated); fed back to
    the forward dynamics they keep it still."""
    from checks import example_robot_data

    solo = es.load_model(example_robot_data("solo_description/robots/solo12.urdf"),
                         root_joint="free_flyer")  # fmt: skip
    q = es.neutral(solo)
    q[2] = 0.3
    q[7:] = np.tile([0.0, 0.8, -1.6], 4)
    feet = [
        ec.Contact(f"{leg}_foot", f"{leg}_FOOT", "point",
                   position=es.kinematics.frame_pose(solo, q, f"{leg}_FOOT")[:3, 3])
        for leg in ("FL", "FR", "HL", "HR")
    ]  # fmt: skip
    zero = np.zeros(solo.nv)
    out = ec.constrained_inverse_dynamics(solo, q, zero, zero, constraints=feet)
    assert np.all(out.tau[:6] == 0.0)
    weight = float(solo.mass.sum()) * 9.81
    vertical = sum(f for name, f in out.forces().items() if name.endswith(".z"))
    assert vertical == pytest.approx(weight, rel=1e-9)
    back = ec.constrained_forward_dynamics(solo, q, zero, out.tau, constraints=feet)
    assert np.abs(back.qdd).max() < 1e-8


def test_crosscheck_has_the_constrained_table(tmp_path, capsys):
    from eslabon.cli.main import main

    report = ec.crosscheck(_closed_bar(), seed=2)
    assert report.ok, report.table()
    assert len(report.checks) == 11
    assert np.abs(ec.constraint_residual(_closed_bar(), report.q)).max() < 1e-12
    path = es.model.save_model(_closed_bar(), tmp_path / "bar.yaml")
    assert main(["crosscheck", str(path)]) in (0, None)
    out = capsys.readouterr().out
    assert "closed loops and contacts, at an assembled state:" in out
    assert "udwadia_kalaba q̈" in out


def test_batches_equal_single_states(bar):
    states = [
        ec.close_state(bar, [c, -1.0, -1.5], [0], [c], [0.5 * c], [0.1], constraints=PIN)
        for c in (0.8, 1.2, 1.6)
    ]
    Q, QD, QDD = (np.array([s[k] for s in states]) for k in range(3))
    tau = np.tile([0.5, 0.0, 0.0], (3, 1))
    fd = ec.constrained_forward_dynamics(bar, Q, QD, tau, constraints=PIN)
    inv = ec.constrained_inverse_dynamics(bar, Q, QD, QDD, actuated=[0], constraints=PIN)
    J = ec.constraint_jacobian(bar, Q, constraints=PIN)
    assert fd.qdd.shape == (3, 3) and fd.force.shape == (3, 2) and J.shape == (3, 2, 3)
    assert fd.forces()["loop.x"].shape == (3,)
    for k in range(3):
        one = ec.constrained_forward_dynamics(bar, Q[k], QD[k], tau[k], constraints=PIN)
        assert one.qdd.tobytes() == fd.qdd[k].tobytes()
        back = ec.constrained_inverse_dynamics(bar, Q[k], QD[k], QDD[k], actuated=[0],
                                               constraints=PIN)  # fmt: skip
        assert back.tau.tobytes() == inv.tau[k].tobytes()
        assert J[k].tobytes() == ec.constraint_jacobian(bar, Q[k], constraints=PIN).tobytes()
    with pytest.raises(ValueError, match="qd: a batch takes one row per state, 3 rows"):
        ec.constrained_forward_dynamics(bar, Q, QD[:2], tau, constraints=PIN)


def _hinged(theta):
    """Panda with its end effector on a hinge about a world z axis turned θ from it."""
    panda = es.zoo.load("panda")
    q = np.linspace(-0.6, 0.7, panda.nv)
    pose = es.kinematics.frame_pose(panda, q, "ee")
    c, s = np.cos(theta), np.sin(theta)
    turned = pose[:3, :3] @ np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    return panda, q, ec.Contact("h", "ee", "revolute", position=pose[:3, 3], rotation=turned)


@pytest.mark.parametrize("theta", [0.0, 1.0, 2.8, 3.1])
def test_a_hinges_rows_are_the_derivative_of_its_residual_at_any_angle(theta):
    """On a hinge turned θ, the rotation rows' J is φ's derivative (no log map), and
    assembly from a perturbed start converges."""
    panda, q, hinge = _hinged(theta)
    assert np.abs(ec.constraint_residual(panda, q, constraints=hinge)).max() < 1e-12
    J = ec.constraint_jacobian(panda, q, constraints=hinge)
    np.testing.assert_allclose(J, _tangent_difference(panda, hinge, q), atol=1e-8)
    start = q + np.random.default_rng(1).normal(0, 0.05, panda.nq)
    back = ec.assemble(panda, start, constraints=hinge)
    assert np.abs(ec.constraint_residual(panda, back, constraints=hinge)).max() < 1e-12


def test_a_weld_turned_half_a_turn_is_not_closed():
    panda = es.zoo.load("panda")
    q = np.linspace(-0.6, 0.7, panda.nv)
    pose = es.kinematics.frame_pose(panda, q, "ee")
    flipped = ec.Contact("w", "ee", "weld", position=pose[:3, 3],
                         rotation=pose[:3, :3] @ np.diag([1.0, -1.0, -1.0]))  # fmt: skip
    phi = ec.constraint_residual(panda, q, constraints=flipped)
    assert np.linalg.norm(phi[3:]) == pytest.approx(np.pi, rel=1e-12)


def test_bad_options_are_named(bar):
    q = _assembled(bar, 1.2)
    z = np.zeros(3)
    cases = [
        (lambda: ec.constraint_residual(bar, q, constraints=ec.LoopClosure(
            "a", "ground_pivot", "rocker_end", ("x", "rz"))),
         "one rotation row alone is not a holonomic"),
        (lambda: ec.constrained_forward_dynamics(bar, q, z, z, constraints=PIN,
                                                 stabilization=(np.nan, 0)), "stabilization"),
        (lambda: ec.constrained_forward_dynamics(bar, q, z, z, constraints=PIN,
                                                 stabilization=3.0), "stabilization: expected two"),
        (lambda: ec.constrained_inverse_dynamics(bar, q, z, z, constraints=PIN, actuated=[0.7]),
         "actuated: expected whole-number"),
        (lambda: ec.constrained_inverse_dynamics(bar, q, z, z, constraints=PIN, actuated="a"),
         "actuated: expected rate indices"),
        (lambda: ec.assemble(bar, q, constraints=PIN, fixed=[7]), "fixed: expected distinct"),
        (lambda: ec.assemble(bar, q, constraints=PIN, tol=-1.0), "tol: expected"),
        (lambda: ec.constraint_rank(bar, q, constraints=PIN, rtol=np.nan), "rtol: expected"),
        (lambda: ec.close_state(bar, q, [5], [1.0], constraints=PIN), "independent: expected"),
        (lambda: ec.constraint_residual(
            bar, q, constraints=ec.Contact("c", "rocker_end", position="abc")),
         "position: expected 3 finite"),
        (lambda: es.simulate(bar, q, [np.nan, 0, 0], 0.1, constraints=PIN),
         "q0/qd0: expected finite values"),
        (lambda: ec.crosscheck(bar, [0.0, 0.0, 0.0], constraints=PIN),
         "q: expected a configuration on the constraints"),
    ]  # fmt: skip
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


def _pinocchio_constraint_dynamics(pin, model, contacts, q, v, tau):
    """q̈ (eslabon's order) and λ of Pinocchio's ``constraintDynamics`` for eslabon's
    contacts on the Pinocchio twin (eslabon.interop.pinocchio.constraint_dynamics_twin)."""
    from eslabon.interop.pinocchio import constraint_dynamics_twin

    return constraint_dynamics_twin(model, contacts)(q, v, tau)


def test_a_welded_arm_agrees_with_pinocchios_6d_contact():
    """A PUMA 560 with its end effector welded (6-D contact, no motion left): q̈ and the
    wrench equal Pinocchio's."""
    pin = pytest.importorskip("pinocchio")
    arm = es.zoo.load("puma560")
    q = np.random.default_rng(1).uniform(-1, 1, 6)
    weld = ec.Contact("w", "ee", "weld", position=es.kinematics.frame_pose(arm, q, "ee")[:3, 3])
    tau, zero = np.random.default_rng(2).uniform(-1, 1, 6), np.zeros(6)
    ours = ec.constrained_forward_dynamics(arm, q, zero, tau, constraints=weld)
    qdd, lam = _pinocchio_constraint_dynamics(pin, arm, [weld], q, zero, tau)
    np.testing.assert_allclose(ours.qdd, qdd, rtol=0, atol=1e-9 * max(1.0, np.abs(qdd).max()))
    np.testing.assert_allclose(ours.force, lam, rtol=0, atol=1e-9 * np.abs(lam).max())


@pytest.mark.parametrize("weld_one_foot", [False, True])
def test_solo_on_its_feet_agrees_with_pinocchios_constraint_dynamics(weld_one_foot):
    """Solo 12 at a random state on four point feet, or one 6-D foot and three points:
    q̈ and the contact forces equal Pinocchio's ``constraintDynamics``; λ is what the
    ground exerts on each foot, in the same sign and order (force, then moment)."""
    pin = pytest.importorskip("pinocchio")
    from checks import example_robot_data

    solo = es.load_model(example_robot_data("solo_description/robots/solo12.urdf"),
                         root_joint="free_flyer")  # fmt: skip
    rng = np.random.default_rng(0)
    q = es.random_configuration(solo, rng)
    q[:3] = [0.0, 0.0, 0.3]
    legs = ("FL", "FR", "HL", "HR")
    feet = [
        ec.Contact(f"{leg}_foot", f"{leg}_FOOT", "weld" if weld_one_foot and k == 0 else "point",
                   position=es.kinematics.frame_pose(solo, q, f"{leg}_FOOT")[:3, 3])
        for k, leg in enumerate(legs)
    ]  # fmt: skip
    N = ec.partition(solo, q, constraints=feet).N
    v = N @ rng.uniform(-1, 1, N.shape[1])  # rates the feet allow
    tau = rng.uniform(-1, 1, solo.nv)
    ours = ec.constrained_forward_dynamics(solo, q, v, tau, constraints=feet)
    qdd, lam = _pinocchio_constraint_dynamics(pin, solo, feet, q, v, tau)
    scale = np.abs(ours.qdd).max()
    np.testing.assert_allclose(ours.qdd, qdd, rtol=0, atol=1e-9 * scale)
    np.testing.assert_allclose(ours.force, lam, rtol=0, atol=1e-9 * np.abs(ours.force).max())


def test_an_impact_stops_or_reverses_the_approach_and_accounts_for_the_energy():
    arm = es.zoo.load("planar2")
    q, before = np.array([0.3, 0.6]), np.array([1.0, -2.0])
    wall = ec.Contact("wall", "ee", ["x"], position=[1.5, 0.0, 0.0])
    J = ec.constraint_jacobian(arm, q, constraints=wall)
    M = es.mass_matrix(arm, q)
    plastic = ec.impact(arm, q, before, constraints=wall)
    assert abs(J @ plastic.qd).max() < 1e-12
    np.testing.assert_allclose(M @ (plastic.qd - before), J.T @ plastic.impulse, atol=1e-12)
    approach = J @ before
    lost = 0.5 * approach @ np.linalg.solve(J @ np.linalg.solve(M, J.T), approach)
    assert plastic.energy_lost == pytest.approx(lost, rel=1e-12)
    elastic = ec.impact(arm, q, before, constraints=wall, restitution=1.0)
    np.testing.assert_allclose(J @ elastic.qd, -approach, atol=1e-12)
    assert abs(elastic.energy_lost) < 1e-12
    np.testing.assert_allclose(elastic.impulse, 2 * plastic.impulse, rtol=1e-12)
    with pytest.raises(ValueError, match="restitution: expected values in \\[0, 1\\]"):
        ec.impact(arm, q, before, constraints=wall, restitution=1.5)


def test_the_linearization_in_the_crank_angle_is_lagranges(bar):
    """A, B of the four-bar in its crank angle θ against the derivatives of Lagrange's
    θ̈ = (Nᵀτ − ½ m′ θ̇² − V′)/m built from energies: ∂θ̈/∂θ̇ = −m′θ̇/m, ∂θ̈/∂τ = Nᵀ/m,
    ∂θ̈/∂θ by a central difference of that θ̈."""
    tau = np.array([0.7, -0.2, 0.3])
    h = 1e-5

    def energy_terms(theta):
        q = _assembled(bar, theta)
        N = ec.partition(bar, q, constraints=PIN, independent=[0]).N[:, 0]
        return q, N, (N @ es.mass_matrix(bar, q) @ N).item(), float(es.potential_energy(bar, q))

    def lagrange(theta, rate):
        _, N, m, _ = energy_terms(theta)
        (_, _, mp, Vp), (_, _, mm, Vm) = energy_terms(theta + h), energy_terms(theta - h)
        return (N @ tau - 0.5 * (mp - mm) / (2 * h) * rate**2 - (Vp - Vm) / (2 * h)) / m

    theta, rate = 1.2, 0.8
    q, N, m, _ = energy_terms(theta)
    lin = ec.linearize_constrained(bar, q, N * rate, tau, independent=[0], constraints=PIN)
    dm = (energy_terms(theta + h)[2] - energy_terms(theta - h)[2]) / (2 * h)
    assert lin.A[0].tolist() == [0.0, 1.0]
    assert lin.A[1, 1] == pytest.approx(-dm * rate / m, rel=1e-6)
    np.testing.assert_allclose(lin.B[1], N / m, rtol=1e-6)
    H = 1e-4
    d_theta = (lagrange(theta + H, rate) - lagrange(theta - H, rate)) / (2 * H)
    assert lin.A[1, 0] == pytest.approx(d_theta, rel=1e-5)
