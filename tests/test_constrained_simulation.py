"""Simulation of models with constraints (eslabon.simulate and eslabon.rollout): the
constraints do no work, so an undamped chain keeps T + V to its integrator's order;
Baumgarte's stabilization and the projection hold the loop closed; the constraint forces,
residual and energy come back in the trajectory and survive a save."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon import constraints as ec
from test_constraints import PIN, four_bar


@pytest.fixture(scope="module")
def closed():
    """The four-bar with its loop closure on the model."""
    bar = four_bar()
    return bar.replace(constraints=(PIN,))


@pytest.fixture(scope="module")
def start(closed):
    return ec.close_state(closed, [1.2, -1.0, -1.5], [0], [1.2]).q


def _energy_error(traj):
    return np.abs(traj.energy - traj.energy[0]).max()


def test_the_released_linkage_keeps_its_energy_and_its_loop(closed, start):
    """From rest at crank 1.2 rad under gravity alone for 1 s: T + V constant (the loop
    does no work), the loop closed (Baumgarte), and every formulation the same motion."""
    traj = es.simulate(closed, start, None, 1.0, 1e-3)
    energy = es.kinetic_energy(closed, traj.q, traj.qd) + es.potential_energy(closed, traj.q)
    np.testing.assert_allclose(traj.energy, energy, rtol=1e-14, atol=1e-12)
    assert np.abs(traj.q[-1] - traj.q[0]).max() > 0.1  # it moved
    assert _energy_error(traj) < 1e-7 * abs(energy).max()
    assert traj.constraint_residual.max() < 1e-9
    assert traj.constraint_names == ("loop.x", "loop.y")
    assert traj.constraint_force.shape == (1001, 2)
    for algorithm in ("null_space", "udwadia_kalaba", "schur"):
        other = es.simulate(closed, start, None, 1.0, 1e-3, algorithm=algorithm)
        np.testing.assert_allclose(other.q, traj.q, atol=1e-9)


@pytest.mark.slow
def test_the_energy_error_of_rk4_falls_as_the_fourth_power_of_the_step():
    """A Grashof crank-rocker (crank 1, coupler 2.5, rocker 2, ground 2.2 m: the crank,
    the shortest link, turns fully and the loop never flattens, so J keeps its rank)
    released from rest for ten seconds, undamped, no stabilization (it would add its own
    error): halving RK4's step divides its energy error by about 2⁴ = 16 (measured 14.6
    from 0.02 to 0.01 s); the adaptive Dormand–Prince 8(5,3) at rtol 1e-10 holds it at
    2.7e-9 J, far below both, and ‖φ‖ at 8.5e-11 m (bound 1e-8). (The default four-bar
    of the tests is a change-point linkage, 1 + 2.5 = 2 + 1.5, which flattens: a poor long
    test.)"""
    rocker = four_bar(a=1.0, c=2.5, r=2.0, d=2.2).replace(constraints=(PIN,))
    start = ec.close_state(rocker, [1.2, -1.0, -1.5], [0], [1.2]).q
    errors = [
        _energy_error(es.simulate(rocker, start, None, 10.0, dt, stabilization=(0, 0)))
        for dt in (0.02, 0.01)
    ]
    assert 12 < errors[0] / errors[1] < 20, errors
    adaptive = es.simulate(rocker, start, None, 10.0, 0.02, integrator="dop853",
                           stabilization=(0, 0), rtol=1e-10, atol=1e-12)  # fmt: skip
    assert np.ptp(adaptive.q[:, 0]) > 5.0  # the crank went round
    assert _energy_error(adaptive) < 1e-3 * errors[1]
    assert adaptive.constraint_residual.max() < 1e-8


def test_baumgarte_holds_the_drift_down(closed, start):
    """A coarse step lets the loop drift open without stabilization; Baumgarte's
    default gains hold it several times closer (measured: 8.7e-7 against 2.1e-7)."""
    free = es.simulate(closed, start, None, 1.0, 0.01, stabilization=(0.0, 0.0))
    held = es.simulate(closed, start, None, 1.0, 0.01)
    assert held.constraint_residual.max() < 0.5 * free.constraint_residual.max()


def test_projection_holds_the_loop_at_any_step(closed, start):
    traj = es.simulate(closed, start, None, 1.0, 0.01, projection=True)
    assert traj.constraint_residual.max() < 1e-11
    assert _energy_error(traj) < 1e-5 * np.abs(traj.energy).max()
    J = ec.constraint_jacobian(closed, traj.q)
    assert np.abs(np.einsum("kij,kj->ki", J, traj.qd)).max() < 1e-11


def test_euler_and_rk45_follow_rk4(closed, start):
    """Semi-implicit Euler (first order) and Dormand–Prince 5(4) stay near RK4's motion
    over 0.5 s: Euler within its O(h) error at h = 1 ms, RK45 within its tolerance."""
    ref = es.simulate(closed, start, None, 0.5, 1e-3)
    euler = es.simulate(closed, start, None, 0.5, 1e-3, integrator="euler")
    rk45 = es.simulate(closed, start, None, 0.5, 1e-3, integrator="rk45", rtol=1e-9, atol=1e-11)
    assert 1e-5 < np.abs(euler.q - ref.q).max() < 5e-2
    assert np.abs(rk45.q - ref.q).max() < 1e-6


def test_a_start_of_none_is_the_neutral_configuration_assembled(closed):
    """The planar arm whose tip rides the line y = 1 m starts from its neutral pose moved
    onto the line; the four-bar's neutral pose is straight, a singular configuration
    from which no Newton step closes the loop: refused, saying so."""
    arm = es.zoo.load("planar2")
    railed = arm.replace(constraints=(ec.Contact("rail", "ee", ["y"], position=[0, 1, 0]),))
    traj = es.simulate(railed, None, None, 0.01, 0.01)
    assert np.abs(ec.constraint_residual(railed, traj.q[0])).max() < 1e-12
    with pytest.raises(ValueError, match="q0: None starts from the neutral configuration"):
        es.simulate(closed, None, None, 0.01, 0.01)


def test_an_empty_constraint_list_simulates_the_bare_tree(closed, start):
    tree = es.simulate(closed, start, None, 0.2, 0.01, constraints=[])
    bare = es.simulate(four_bar(), start, None, 0.2, 0.01)
    np.testing.assert_array_equal(tree.q, bare.q)
    assert tree.constraint_force is None and tree.constraint_names == ()


def test_a_floating_base_welded_to_the_world_stays_put():
    """The space manipulator's free-flyer base held by a 6-D contact at its start: the
    quaternion path on charts under constraints; the base does not move and T + V holds."""
    robot = es.zoo.load("space_manipulator")
    q0 = es.neutral(robot)
    pose = es.kinematics.frame_pose(robot, q0, "satellite")
    weld = ec.Contact("dock", "satellite", "weld", position=pose[:3, 3], rotation=pose[:3, :3])
    qd0 = np.zeros(robot.nv)
    qd0[6:] = 0.3
    traj = es.simulate(robot, q0, qd0, 0.5, 0.005, constraints=weld)
    assert traj.constraint_residual.max() < 1e-9
    assert np.abs(traj.qd[:, :6]).max() < 1e-9
    assert _energy_error(traj) < 1e-8 * max(1.0, np.abs(traj.energy).max())


def test_the_constrained_run_survives_a_save(closed, start, tmp_path):
    traj = es.simulate(closed, start, None, 0.05, 0.01)
    back = es.Trajectory.load(traj.save(tmp_path / "run.npz"))
    assert back.constraint_names == traj.constraint_names
    for field in ("q", "constraint_force", "constraint_residual", "energy"):
        np.testing.assert_array_equal(getattr(back, field), getattr(traj, field))
    csv = es.Trajectory.load(traj.save(tmp_path / "run.csv"))
    assert csv.constraint_force is None  # CSV holds the joint histories only


def test_rollout_runs_each_start_under_the_constraints(closed):
    starts = [ec.close_state(closed, [c, -1.0, -1.5], [0], [c]) for c in (0.9, 1.2)]
    Q0 = np.array([s.q for s in starts])
    runs = es.rollout(closed, Q0, np.zeros((2, 3)), 0.1, 0.01, torque=[0.5, 0.0, 0.0])
    one = es.simulate(closed, Q0[1], None, 0.1, 0.01, torque=[0.5, 0.0, 0.0])
    np.testing.assert_array_equal(runs.q[1], one.q)
    np.testing.assert_array_equal(runs.constraint_force[1], one.constraint_force)
    assert runs.constraint_residual.shape == (2, 11) and runs.energy.shape == (2, 11)
    heavier = closed.replace(mass=closed.mass * 2.0)  # one model per run, constraints kept
    each = es.rollout([closed, heavier], Q0, np.zeros((2, 3)), 0.1, 0.01)
    alone = es.simulate(heavier, Q0[1], None, 0.1, 0.01)
    np.testing.assert_array_equal(each.q[1], alone.q)
    np.testing.assert_array_equal(each.q[0], es.simulate(closed, Q0[0], None, 0.1, 0.01).q)


def test_bad_constrained_runs_are_refused_by_name(closed, start):
    cases = [
        (lambda: es.simulate(closed, start, None, 10.0, 0.01, stabilization=(0, 0)),
         "the constrained motion diverged.*singular configuration"),
        (lambda: es.simulate(closed, [1.2, -1.0, -1.5], None, 0.1),
         "q0, qd0: the start is off the constraints"),
        (lambda: es.simulate(closed, start, None, 0.1, algorithm="aba"),
         "algorithm: a model with constraints takes one of"),
        (lambda: es.simulate(closed, start, None, 0.1, stabilization=(-1, 0)),
         "stabilization: expected"),
        (lambda: es.simulate(es.with_joint_friction(closed, coulomb=0.1), start, None, 0.1),
         "model: Coulomb friction under constraints"),
        (lambda: es.rollout(closed, start[None], np.zeros((1, 3)), 0.1, 0.01,
                            torque=es.sim.laws.PD(1.0, 1.0, start)),
         "torque: a feedback law"),
    ]  # fmt: skip
    for call, message in cases:
        with pytest.raises(ValueError, match=message):
            call()


def test_the_command_line_fd_of_a_closed_chain_gives_its_forces(capsys):
    """`eslabon fd four_bar`: the constrained accelerations at the assembled neutral
    configuration and the loop's forces by name, equal to the library's; a --q off the
    loop is one line and a non-zero exit."""
    import json

    from eslabon.cli.main import main

    bar = es.zoo.load("four_bar")
    assert main(["fd", "four_bar", "--json"]) in (0, None)
    out = json.loads(capsys.readouterr().out)
    ref = ec.constrained_forward_dynamics(bar, es.neutral(bar), np.zeros(3), np.zeros(3))
    np.testing.assert_allclose(out["qdd"], ref.qdd, rtol=1e-12, atol=1e-12)
    forces = {name: float(f) for name, f in ref.forces().items()}
    assert out["constraint_forces"] == pytest.approx(forces, rel=1e-12)
    with pytest.raises(SystemExit) as code:
        main(["fd", "four_bar", "--q", "1 1 1"])
    assert code.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--q: the configuration is off the constraints" in err


def test_the_command_line_id_and_the_refusals_of_a_closed_chain(capsys):
    """`eslabon id quadruped`: the holding torques (base rows zero) and the feet's forces,
    summing to the weight; rates that break the constraints, and `linearize` (which takes
    trees), are one line each."""
    import json

    from eslabon.cli.main import main

    robot = es.zoo.load("quadruped")
    assert main(["id", "quadruped", "--json"]) in (0, None)
    out = json.loads(capsys.readouterr().out)
    assert out["tau"][:6] == [0.0] * 6
    up = sum(f for name, f in out["constraint_forces"].items() if name.endswith(".z"))
    assert up == pytest.approx(float(robot.mass.sum()) * 9.81, rel=1e-9)
    for argv, message in (
        (["fd", "four_bar", "--qd", "1 0 0"], "--qd: the rates break the constraints"),
        (["linearize", "four_bar", "--trajectory", "x.npz", "--t", "0"],
         "MODEL: four_bar has constraints; linearize takes trees"),
    ):  # fmt: skip
        with pytest.raises(SystemExit) as code:
            main(argv)
        assert code.value.code == 2
        assert message in capsys.readouterr().err


def test_paths_that_take_trees_only_refuse_a_closed_chain(closed, start, tmp_path):
    """The compiled batch paths would run the bare tree: they say so instead."""
    from eslabon.batch.models import read_model_source

    with pytest.raises(ValueError, match="rollout_with_failures runs the compiled loops"):
        es.sim.rollout_with_failures(closed, np.zeros((1, 3)), np.zeros((1, 3)), 0.1, 0.01)
    with pytest.raises(ValueError, match="model: 'four_bar' has constraints"):
        read_model_source("four_bar", tmp_path)
    arm = es.zoo.load("planar2")  # a generator of models is read once, as before
    runs = es.rollout((arm for _ in range(2)), np.zeros((2, 2)), np.zeros((2, 2)), 0.1, 0.01)
    assert runs.q.shape == (2, 11, 2)
    Q0 = np.tile(start, (2, 1))
    with pytest.raises(ValueError, match="run 1's constraint rows"):
        es.rollout([closed, closed.replace(constraints=())], Q0, np.zeros((2, 3)), 0.1, 0.01)
