"""What the general joints must not break elsewhere: the lean path with mimic joints,
files, the command line, sweeps, mobile arms, control and plots (each either right or a
clear refusal)."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import eslabon as es


def _mimic_model():
    base = es.zoo.random_tree(3, "RRRPR", friction=False)
    return base.replace(
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )


def test_the_lean_path_hands_mimic_models_to_the_general_one():
    """A q of the uncoupled length (every joint's own) is refused, not run uncoupled."""
    m = _mimic_model()
    with pytest.raises(ValueError, match=r"q: expected shape \(4,\)"):
        es.inverse_dynamics(m, np.zeros(5), np.zeros(5), np.zeros(5))
    assert es.inverse_dynamics.__self__.fast(m, np.zeros(4), np.zeros(4), np.zeros(4)) is None
    tau = es.inverse_dynamics(m, np.zeros(4), np.zeros(4), np.zeros(4))
    assert tau.shape == (4,)


def test_yaml_holds_mimic_joints(tmp_path):
    """A body list writes a mimic joint as ``mimic: {body, multiplier, offset}`` and
    reads it back: the same coupling, the same dynamics bit for bit."""
    model = _mimic_model()
    path = es.model.save_model(model, tmp_path / "m.yaml")
    assert "mimic:" in path.read_text()
    back = es.load_model(path)
    for key in ("mimic_joint", "mimic_multiplier", "mimic_offset"):
        np.testing.assert_array_equal(getattr(back, key), getattr(model, key))
    q = np.array([0.3, -0.2, 0.5, 0.1])
    tau = es.inverse_dynamics(model, q, q, q)
    assert es.inverse_dynamics(back, q, q, q).tobytes() == tau.tobytes()


@pytest.mark.parametrize(
    "mimic, message",
    [
        ("[1]", r"bad\.yaml: bodies\[2\]\.mimic: expected a mapping"),
        ("{multiplier: 2}", r"bad\.yaml: bodies\[2\]\.mimic\.body: missing"),
        ("{body: 9}", r"bodies\[2\]\.mimic\.body: expected a body index 1\.\.5, got 9"),
        ("{body: 1, offset: .nan}", r"bodies\[2\]\.mimic\.offset: expected a finite number"),
        ("{body: 1, gain: 2}", r"bodies\[2\]\.mimic: unknown key\(s\) \['gain'\]"),
        ("{body: 4}", r"bodies\[2\]\.mimic: the revolute joint .* mimics the prismatic"),
    ],
)
def test_bad_yaml_mimics_are_named(tmp_path, mimic, message):
    text = es.model.save_model(_mimic_model(), tmp_path / "m.yaml").read_text()
    lines = text.splitlines()
    start = next(k for k, line in enumerate(lines) if line.strip().startswith("mimic:"))
    end = start + 1
    while lines[end].startswith(" " * (len(lines[start]) - len(lines[start].lstrip()) + 2)):
        end += 1
    lines[start:end] = [lines[start].split("mimic:")[0] + "mimic: " + mimic]
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines) + "\n")
    with pytest.raises(ValueError, match=message):
        es.load_model(bad)


def test_crosscheck_takes_a_mimic_model():
    report = es.crosscheck(_mimic_model())
    assert report.ok, report.table()
    skipped = {c.name for c in report.checks if c.skipped}
    assert "ABA round trip to q̈" in skipped


def test_simulate_picks_a_method_that_takes_mimic_joints():
    run = es.simulate(_mimic_model(), None, None, 0.02, 0.01)
    assert run.q.shape == (3, 4)


@pytest.mark.parametrize("command", ["id", "fd", "simulate", "crosscheck"])
def test_the_cli_takes_a_floating_base(command, tmp_path):
    args = [sys.executable, "-m", "eslabon", command, "space_manipulator"]
    if command == "simulate":
        args += ["--t-final", "0.02", "--dt", "0.01", "--out", str(tmp_path / "t.npz")]
    r = subprocess.run(args, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr


def test_what_needs_vector_coordinates_refuses_a_quaternion_joint():
    m = es.zoo.load("space_manipulator")
    q = es.neutral(m)
    with pytest.raises(ValueError, match="'satellite' is free_flyer"):
        es.control.pd_gravity_law(m, q, 1.0, 1.0)
    with pytest.raises(ValueError, match="'satellite' is free_flyer"):
        es.mobile.MobileManipulator(
            es.mobile.Tricycle(es.mobile.TricycleParams.seekur_jr_assumed()), m
        )


def test_perturbation_check_in_the_tangent_space():
    m = es.zoo.load("space_manipulator")
    rng = np.random.default_rng(0)
    q = es.random_configuration(m, rng)
    v, a = rng.normal(size=(2, m.nv))
    dx = 1e-6 * rng.normal(size=m.nv)
    check = es.control.perturbation_check(m, (q, v, a), (es.integrate(m, q, dx), v, a))
    assert np.abs(check.predicted - check.actual).max() < 1e-9


@pytest.mark.parametrize("letters", ["H", "RHR"])
def test_a_helical_joint_far_from_zero_advances_with_its_whole_angle(letters):
    """Beyond 1e5 rad the kernels reduce an angle to [−π, π] for the sine and cosine;
    a helical joint's advance along its axis (pitch · q) must use the whole angle
    (a review found poses 1e4 m off at q = 2e5 rad). Pinocchio is the oracle."""
    pin = pytest.importorskip("pinocchio")
    from eslabon.interop.pinocchio import to_pinocchio

    model = es.zoo.random_tree(0, letters, friction=False)
    pm = to_pinocchio(model)
    pd = pm.createData()
    q = np.full(model.nq, 0.3)
    q[model.joint_types.index("helical")] = 2e5
    v, a = np.full(model.nv, 0.3), np.full(model.nv, -0.2)
    pin.forwardKinematics(pm, pd, q)
    T = es.forward_kinematics(model, q)
    for k in range(1, model.nb + 1):
        np.testing.assert_allclose(T[k][:3, 3], pd.oMi[k].translation, rtol=1e-12, atol=1e-9)
    pin.computePotentialEnergy(pm, pd, q)
    V = pd.potential_energy
    assert abs(es.potential_energy(model, q) - V) < 1e-9 * abs(V)
    tau = pin.rnea(pm, pd, q, v, a)
    np.testing.assert_allclose(es.inverse_dynamics(model, q, v, a), tau, rtol=1e-9, atol=1e-9)
    np.testing.assert_allclose(es.forward_dynamics(model, q, v, tau), a, atol=1e-6)


@pytest.mark.parametrize("child", [True, False])
def test_a_massless_floating_base_is_not_positive_definite_not_a_crash(child):
    """A floating base taken in one step (the articulated-body algorithm's 6 × 6 block)
    whose linear block is singular: a massless base with a prismatic child along one of
    its axes, or a massless free body alone. Every path says the mass matrix is not
    positive definite, as it did row by row (found in review)."""
    from eslabon.model.builder import ModelBuilder

    b = ModelBuilder()
    b.add_body(0, "free_flyer", mass=0.0, inertia=np.zeros((3, 3)))
    if child:
        b.add_body(1, "P", axis=(1, 0, 0), mass=2.0, com=(0.1, 0.2, 0), inertia=np.eye(3) * 0.02)
    m = b.build(gravity=(0, 0, -9.81))
    q, qd, tau = es.neutral(m), np.zeros(m.nv), np.ones(m.nv)
    for call in (
        lambda: es.forward_dynamics(m, q, qd, tau),
        lambda: es.forward_dynamics(m, q[None], qd[None], tau[None]),
        lambda: es.forward_dynamics(m, np.tile(q, (5, 1)), np.zeros((5, m.nv)), np.ones((5, m.nv))),
        lambda: es.simulate(m, None, None, 0.01, 0.005, torque=tau),
    ):
        with pytest.raises(ValueError, match="not positive definite"):
            call()
