"""An excitation designed within position, rate, acceleration and torque limits: every limit
holds on a time grid far denser than the design's, the torques are the inverse dynamics,
the reported condition number is the one recomputed, and the exported file reads back to
the same samples (Swevers et al. 1997, §IV)."""

import dataclasses
import json

import numpy as np
import pytest

import eslabon as es
from eslabon.cli.main import main
from eslabon.identification import (
    JointLimits,
    base_parameters,
    design_excitation,
    joint_torque_regressor,
)
from eslabon.sim.trajectory import Trajectory


def _arm():
    return es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)


def _limits(arm):
    """Limits that bind: torques a little above the arm's largest gravity torque, so that
    the torque constraint is active or near it."""
    q = np.stack(np.meshgrid(np.linspace(-1, 1, 21), np.linspace(-1, 1, 21)), -1).reshape(-1, 2)
    gravity = np.max(np.abs(es.gravity_torques(arm, q)), axis=0)
    return JointLimits.of(
        arm, q_lower=[-1.0, -1.2], q_upper=[1.0, 0.8], qd_max=[1.5, 2.0], qdd_max=[3.0, 4.0],
        tau_max=1.3 * gravity,
    )  # fmt: skip


@pytest.fixture(scope="module")
def designed():
    arm = _arm()
    return arm, design_excitation(
        arm, _limits(arm), period=6.0, harmonics=3, samples=40, max_iterations=30
    )


@pytest.mark.numerics  # how much of the limits SLSQP reaches
def test_every_limit_holds_on_a_dense_grid(designed):
    arm, found = designed
    lim = found.limits
    t = np.linspace(0.0, 2.0 * found.excitation.period, 20001)  # 250 times the design's
    q, qd, qdd = found.excitation.sample(t)
    tau = es.inverse_dynamics(arm, q, qd, qdd)
    assert np.all((q >= lim.q_lower) & (q <= lim.q_upper))
    assert np.all(np.abs(qd) <= lim.qd_max)
    assert np.all(np.abs(qdd) <= lim.qdd_max)
    assert np.all(np.abs(tau) <= lim.tau_max)
    # and the limits are used: the design is not a timid motion
    assert max(float(np.max(u)) for u in found.usage.values()) > 0.8


def test_the_motion_starts_and_ends_at_rest(designed):
    _, found = designed
    _, qd, qdd = found.excitation.sample([0.0, found.excitation.period])
    scale = np.max(np.abs(found.excitation.a))
    assert np.all(np.abs(qd) <= 1e-9 * scale) and np.all(np.abs(qdd) <= 1e-9 * scale)


@pytest.mark.numerics  # that SLSQP improves on the start
def test_the_reported_condition_number_is_the_recomputed_one(designed):
    arm, found = designed
    base = base_parameters(arm)
    q, qd, qdd = found.excitation.sample(found.times)
    qd[np.abs(qd) <= 1e-6 * found.limits.qd_max] = 0.0  # rest: no Coulomb sign
    W = base.regressor(joint_torque_regressor(arm, q, qd, qdd))
    assert found.condition == pytest.approx(np.linalg.cond(W.reshape(-1, base.count)), rel=1e-9)
    assert found.condition < found.start_condition


class _OffRest(es.identification.FourierExcitation):
    """The designed motion with q̇(0) moved by ``nudge`` (round-off of the rest condition)."""

    nudge = 0.0

    def sample(self, t):
        q, qd, qdd = super().sample(t)
        qd[np.asarray(t) == 0.0] = self.nudge
        return q, qd, qdd


def test_the_rest_start_does_not_hang_on_the_round_off_of_its_rate(designed):
    from eslabon.identification.excitation_limits import _sampled

    arm, found = designed
    e = found.excitation
    base = base_parameters(arm)
    taus, conditions = [], []
    for nudge in (1e-16, -1e-16):
        moved = type("Moved", (_OffRest,), {"nudge": nudge})(e.frequency, e.q0, e.a, e.b)
        traj = dataclasses.replace(found, excitation=moved).trajectory(arm, samples=50)
        assert np.all(traj.qd[0] == 0.0)  # no Coulomb sign at rest
        taus.append(traj.tau[0])
        W = base.regressor(
            joint_torque_regressor(arm, *_sampled(moved, found.times, found.limits.qd_max))
        )
        conditions.append(np.linalg.cond(W.reshape(-1, base.count)))
    np.testing.assert_array_equal(taus[0], taus[1])
    assert conditions[0] == conditions[1]


@pytest.mark.parametrize("suffix", [".csv", ".npz"])
def test_the_exported_file_reads_back_to_the_same_samples(designed, tmp_path, suffix):
    arm, found = designed
    traj = found.trajectory(arm, samples=300, periods=2)
    back = Trajectory.load(traj.save(tmp_path / f"x{suffix}"))
    q, qd, qdd = found.excitation.sample(back.t)
    np.testing.assert_array_equal(back.t, traj.t)
    np.testing.assert_array_equal(back.q, q)
    np.testing.assert_allclose(back.qd, qd, rtol=0, atol=1e-6 * float(np.max(found.limits.qd_max)))
    np.testing.assert_array_equal(back.qdd, qdd)
    np.testing.assert_allclose(back.tau, es.inverse_dynamics(arm, q, back.qd, qdd), atol=1e-9)
    assert back.v_names == tuple(arm.v_names)


def test_limits_from_a_urdf(tmp_path):
    arm = es.zoo.load("planar2")
    names = arm.v_names
    urdf = tmp_path / "a.urdf"
    joints = "".join(
        f'<joint name="{n}" type="revolute"><limit lower="{-k - 1}" upper="{k + 0.5}" '
        f'velocity="{k + 2}" effort="{10 * (k + 1)}"/></joint>'
        for k, n in enumerate(names)
    )
    urdf.write_text(f'<robot name="r">{joints}</robot>')
    lim = JointLimits.of(arm, urdf=urdf, qdd_max=5.0)
    k = np.arange(len(names))
    np.testing.assert_array_equal(lim.q_lower, -k - 1.0)
    np.testing.assert_array_equal(lim.q_upper, k + 0.5)
    np.testing.assert_array_equal(lim.qd_max, k + 2.0)
    np.testing.assert_array_equal(lim.tau_max, 10.0 * (k + 1))
    np.testing.assert_array_equal(lim.qdd_max, np.full(len(names), 5.0))


def test_a_torque_limit_below_gravity_is_refused():
    arm = _arm()
    lim = JointLimits.of(arm, tau_max=0.01)
    with pytest.raises(ValueError, match="limits: no excitation found within the tau"):
        design_excitation(arm, lim, period=6.0, harmonics=2, samples=20, max_iterations=5)


@pytest.mark.parametrize(
    "change, field",
    [
        ({"qd_max": [1.0, -1.0]}, "qd_max"),
        ({"q_lower": [1.0, 0.0], "q_upper": [0.0, 1.0]}, "q_lower"),
    ],
)
def test_bad_limits_are_refused(change, field):
    with pytest.raises(ValueError, match=field):
        JointLimits.of(es.zoo.load("planar2"), **change)


def _call(args, capsys):
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_writes_a_playable_trajectory(tmp_path, capsys):
    out = tmp_path / "exc"
    code, stdout, err = _call(
        ["excitation", "--model", "planar2", "--out", str(out), "--period", "5",
         "--harmonics", "3", "--samples", "30", "--rate", "50", "--qd-max", "1.5",
         "--qdd-max", "3,4", "--tau-max", "60,25", "--iterations", "15", "--json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    summary = json.loads(stdout)
    arm = es.zoo.load("planar2")
    traj = Trajectory.load(out / "excitation.csv")
    assert len(traj.t) == 5 * 50 + 1 and traj.t[-1] == pytest.approx(5.0)
    e = es.identification.FourierExcitation(
        2 * np.pi / summary["period"], np.array(summary["q0"]), np.array(summary["a"]),
        np.array(summary["b"]),
    )  # fmt: skip
    q, qd, qdd = e.sample(traj.t)
    np.testing.assert_allclose(traj.q, q, atol=1e-12)
    np.testing.assert_allclose(traj.qdd, qdd, atol=1e-12)
    assert np.all(np.abs(traj.qd) <= 1.5) and np.all(np.abs(traj.qdd) <= [3.0, 4.0])
    assert np.all(np.abs(traj.tau) <= [60.0, 25.0])
    base = base_parameters(arm)
    times = np.arange(summary["design_times"]) * (summary["period"] / summary["design_times"])
    q, qd, qdd = e.sample(times)
    qd[np.abs(qd) <= 1e-6 * 1.5] = 0.0  # rest (within 1e-6 of --qd-max): no Coulomb sign
    W = base.regressor(joint_torque_regressor(arm, q, qd, qdd)).reshape(-1, base.count)
    assert summary["condition"] == pytest.approx(np.linalg.cond(W), rel=1e-9)


def test_the_command_refuses_bad_limits_in_one_line(tmp_path, capsys):
    code, _, err = _call(
        ["excitation", "--model", "planar2", "--out", str(tmp_path / "x"), "--qd-max", "1,2,3"],
        capsys,
    )
    assert code != 0 and "--qd-max" in err and "Traceback" not in err
    assert not (tmp_path / "x").exists()


def test_the_command_refuses_unreachable_limits_writing_nothing(tmp_path, capsys):
    out = tmp_path / "x"
    code, _, err = _call(
        ["excitation", "--model", "planar2", "--out", str(out), "--tau-max", "0.01",
         "--harmonics", "2", "--samples", "10", "--iterations", "3"],
        capsys,
    )  # fmt: skip
    assert code != 0 and "limits: no excitation found within the tau limit" in err
    assert "Traceback" not in err and not out.exists()


def test_a_urdf_limit_that_is_not_a_number_is_refused(tmp_path):
    urdf = tmp_path / "bad.urdf"
    urdf.write_text(
        '<robot name="r"><joint name="joint1" type="revolute">'
        '<limit lower="-1" upper="one" velocity="1" effort="1"/></joint></robot>'
    )
    with pytest.raises(ValueError, match="urdf: joint 'joint1': a <limit> attribute"):
        JointLimits.of(es.zoo.load("planar2"), urdf=urdf)


@pytest.mark.parametrize("text", ["nan", "inf", "-inf"])
def test_a_urdf_limit_that_is_not_finite_is_refused(tmp_path, text):
    urdf = tmp_path / "bad.urdf"
    urdf.write_text(
        '<robot name="r"><joint name="joint2" type="revolute">'
        f'<limit lower="-1" upper="1" velocity="{text}" effort="1"/></joint></robot>'
    )
    with pytest.raises(ValueError, match="urdf: joint 'joint2': <limit> velocity=.*finite"):
        JointLimits.of(es.zoo.load("planar2"), urdf=urdf)


def _strict(text):
    def refuse(token):
        raise ValueError(f"not JSON: {token}")

    return json.loads(text, parse_constant=refuse)


def test_the_written_summary_is_strict_json_with_infinite_limits(tmp_path, capsys):
    """No acceleration or torque limit (inf): excitation.json and --json stay JSON."""
    out = tmp_path / "exc"
    code, stdout, err = _call(
        ["excitation", "--model", "planar2", "--out", str(out), "--period", "5",
         "--harmonics", "3", "--samples", "30", "--rate", "20", "--iterations", "5",
         "--json"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    written = _strict((out / "excitation.json").read_text())
    assert written["limits"]["qdd_max"] == ["inf", "inf"]
    assert _strict(stdout)["limits"]["tau_max"] == ["inf", "inf"]


def test_every_non_finite_number_of_the_summary_is_a_string():
    from eslabon.cli.excitation import _json_safe

    safe = _json_safe({"a": [1.0, -np.inf, np.inf], "b": {"c": float("nan")}, "d": "x"})
    back = _strict(json.dumps(safe, allow_nan=False))
    assert back == {"a": [1.0, "-inf", "inf"], "b": {"c": "nan"}, "d": "x"}
