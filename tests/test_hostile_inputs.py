"""Hostile arrays, numbers, simulations and trajectory files (issue "Nothing silently
wrong"): each case with its exact outcome — refused with a message naming the field, or
accepted with the right result. No silent conversion, no NaN result, no traceback."""

import warnings
import zipfile

import numpy as np
import pytest

import eslabon as es
from eslabon.cli.main import main
from eslabon.sim import EnergyInjectionWarning

ARM = es.zoo.load("practica_6dof")
N = ARM.nq
Z = np.zeros(N)

# (what a bad value is, the value, the words of the refusal)
BAD_VALUES = [
    ("complex", np.full(N, 1 + 2j), "complex values (the imaginary part would be dropped)"),
    ("bool", np.ones(N, dtype=bool), "booleans"),
    ("bool mixed", [0.0, True] + [0.5] * (N - 2), "booleans among the numbers"),
    ("text", ["0.1"] * N, "text"),
    (
        "masked",
        np.ma.array(Z, mask=[0, 1] + [0] * (N - 2)),
        "a masked array (the mask would be dropped",
    ),
    ("None", [None] + [0.0] * (N - 1), "None (NoneType)"),
    ("dict", {"q": 1}, "{'q': 1} (dict)"),
]

# (the call with one argument replaced, the argument's field name)
CALLS = [
    (lambda x: es.inverse_dynamics(ARM, x, Z, Z), "q"),
    (lambda x: es.inverse_dynamics(ARM, Z, x, Z), "qd"),
    (lambda x: es.inverse_dynamics(ARM, Z, Z, x), "qdd"),
    (lambda x: es.gravity_torques(ARM, x), "q"),
    (lambda x: es.bias_forces(ARM, Z, x), "qd"),
    (lambda x: es.mass_matrix(ARM, x), "q"),
    (lambda x: es.forward_dynamics(ARM, Z, Z, x), "tau"),
    (lambda x: es.coriolis_matrix(ARM, x, Z), "q"),
    (lambda x: es.kinetic_energy(ARM, Z, x), "qd"),
    (lambda x: es.potential_energy(ARM, x), "q"),
    (lambda x: es.inverse_dynamics_derivatives(ARM, Z, Z, x), "qdd"),
    (lambda x: es.forward_dynamics_derivatives(ARM, Z, x, Z), "qd"),
    (lambda x: es.jacobian(ARM, x), "q"),
    (lambda x: es.forward_kinematics(ARM, x), "q"),
    (lambda x: es.end_effector_pose(ARM, x), "q"),
    (lambda x: es.kinematics.link_velocities(ARM, Z, x), "qd"),
    (lambda x: es.simulate(ARM, x, None, 0.01, 0.01), "q0"),
    (lambda x: es.simulate(ARM, None, None, 0.01, 0.01, torque=x), "torque"),
]


@pytest.mark.parametrize("kind, value, words", BAD_VALUES, ids=[b[0] for b in BAD_VALUES])
@pytest.mark.parametrize("call, field", CALLS, ids=range(len(CALLS)))
def test_arrays_a_conversion_would_change_are_refused(call, field, kind, value, words):
    with pytest.raises(ValueError) as info:
        call(value)
    assert type(info.value) is ValueError
    assert str(info.value).startswith(f"{field}: expected numbers")
    assert words in str(info.value)


def test_integers_and_other_real_arrays_are_accepted_exactly():
    ref = es.inverse_dynamics(ARM, np.full(N, 1.0), Z, Z)
    for q in (
        np.ones(N, dtype=np.int32),
        [1] * N,
        np.ones(N, dtype=np.float32),
        np.ones((N, 2))[:, 0],
        np.array([1] * N, dtype=object),
    ):
        np.testing.assert_array_equal(es.inverse_dynamics(ARM, q, Z, Z), ref)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize(
    "fn",
    [
        es.jacobian,
        es.forward_kinematics,
        es.end_effector_pose,
        lambda m, q: es.kinematics.frame_pose(m, q, "dh3"),
        lambda m, q: es.kinematics.frame_poses(m, q),
    ],
)
@pytest.mark.parametrize("joint", [0, N - 1])
def test_kinematics_of_a_non_finite_joint_value_is_refused(fn, bad, joint):
    """The last joint's value moves no body origin: NaN used to come back silently."""
    q = np.full(N, 0.3)
    q[joint] = bad
    with pytest.raises(
        ValueError,
        match=rf"^q: expected finite values, got {bad} at index "
        rf"{joint}$",
    ):
        fn(ARM, q)
    with pytest.raises(
        ValueError,
        match=rf"^q: expected finite values, got {bad} at index "
        rf"\(1, {joint}\)$",
    ):
        fn(ARM, np.vstack([np.full(N, 0.3), q]))


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            dict(t_final=1e9, dt=1e-3),
            "t_final, dt: 1e+09 s every 0.001 s is 1e+12 samples, whose "
            "histories (t, q, q̇, q̈, τ) would take 1.86e+05 GiB, more "
            "than the 8 GiB allowed",
        ),
        (dict(t_final=True, dt=1e-3), "t_final: expected a positive finite number, got True"),
        (dict(t_final="1", dt=1e-3), "t_final: expected a positive finite number, got '1'"),
        (dict(t_final=1.0, dt=0.0), "dt: expected a positive finite number, got 0.0"),
        (dict(t_final=1.0, dt=complex(1e-3, 0)), "dt: expected a positive finite number"),
        (dict(t_final=1.0, dt=0.3), "dt: expected a divisor of t_final = 1.0, got 0.3"),
    ],
)
def test_simulation_lengths_refused(kwargs, message):
    with pytest.raises(ValueError) as info:
        es.simulate(ARM, **kwargs)
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(
    "how, method",
    [("compiled", "rk4"), ("callable", "rk4"), ("compiled", "euler"), ("callable", "euler"),
     ("dop853", "dop853")],
)  # fmt: skip
def test_a_diverging_simulation_says_when_where_and_why(how, method):
    model = es.zoo.load("planar2")
    kw = {
        "compiled": {"integrator": method},
        "callable": {"torque": lambda t, q, qd: np.zeros(2), "integrator": method},
        # a torque of 1e300 N·m (no bound on torques): the rates overflow at once
        "dop853": {
            "torque": lambda t, q, qd: np.full(2, 1e300),
            "integrator": method,
            "rtol": 1e-3,
            "atol": 1e-3,
        },
    }[how]
    with pytest.raises(ValueError) as info:
        es.simulate(model, None, [50.0, 50.0], 5.0, 0.5, **kw)
    text = str(info.value)
    assert text.startswith("simulate: ")
    if how == "dop853":
        assert text.startswith("simulate: dop853 stopped ") or "diverged after t = " in text
    else:
        assert "the motion diverged after t = " in text and "last finite state q = [" in text
        assert f"too large for the dynamics (dt = 0.5 s with {method}): use a smaller dt" in text


def test_euler_divergence_is_the_same_compiled_or_not():
    """The compiled Euler loop reports the time and last finite state, as the Python loop
    (it used to stop at forward dynamics' bare "the result is not finite")."""
    model = es.zoo.load("planar2")
    texts = []
    for torque in (None, lambda t, q, qd: np.zeros(2)):
        with pytest.raises(ValueError) as info:
            es.simulate(model, None, [50.0, 50.0], 5.0, 0.5, torque=torque, integrator="euler")
        texts.append(str(info.value))
    assert texts[0] == texts[1]
    assert texts[0].startswith("simulate: the motion diverged after t = 4 s")


@pytest.mark.parametrize("method", ["rk4", "euler"])
def test_a_diverging_rollout_says_when_and_where(method):
    """A run whose first stage overflows (its start finite) is a divergence too."""
    model = es.zoo.load("planar2")
    qd0 = np.array([[0.0, 0.0], [50.0, 50.0]])
    with pytest.raises(ValueError) as info:
        es.rollout(model, np.zeros((2, 2)), qd0, 5.0, 0.5, integrator=method)
    text = str(info.value)
    assert text.startswith("run 0: simulate: the motion diverged after t = ")
    assert "last finite state q = [" in text and f"with {method})" in text


def test_a_torque_callable_returning_complex_is_refused():
    with pytest.raises(
        ValueError,
        match=r"^torque \(the callable's value at t = 0.0\): "
        r"expected numbers, got complex values",
    ):
        es.simulate(ARM, None, None, 0.02, 0.01, torque=lambda t, q, qd: np.full(N, 1j))


def test_stiff_coulomb_friction_stops_the_arm_instead_of_injecting_energy():
    """sign(q̇) with a step too large pushed instead of resisting (the kinetic energy of a
    free 2-link arm grew 38-fold in 1 s). ``simulate`` now decides stick–slip per step
    (``eslabon.sim.stick_slip``): the same friction stops the arm in its first step and
    holds it, with no warning; moderate friction slows it, the energy only falling."""
    arm = es.zoo.load("planar2").replace(gravity=(0.0, 0.0, 0.0))
    stiff = arm.replace(coulomb=np.array([0.0, 5000.0, 5000.0]))
    start = ([0.3, 0.2], [1.0, -1.0])  # q0, qd0
    with warnings.catch_warnings():
        warnings.simplefilter("error", EnergyInjectionWarning)
        traj = es.simulate(stiff, *start, 1.0, 1e-3)
        assert np.all(traj.qd[2:] == 0.0) and np.all(traj.q[2:] == traj.q[2])
        mild = arm.replace(coulomb=np.array([0.0, 50.0, 50.0]))
        slow = es.simulate(mild, *start, 1.0, 1e-3)
        assert np.all(np.diff(es.kinetic_energy(mild, slow.q, slow.qd)) <= 1e-12)
        es.simulate(stiff, *start, 0.05, 1e-5)
        es.simulate(
            es.zoo.load("planar2").replace(coulomb=np.array([0.0, 5.0, 5.0])), *start, 1.0, 1e-3
        )


# ---- trajectory files -------------------------------------------------------------------


def _good():
    return es.simulate(es.zoo.load("planar2"), None, None, 0.03, 0.01)


def _npz(path, **change):
    t = _good()
    arrays = dict(t=t.t, q=t.q, qd=t.qd, qdd=t.qdd, tau=t.tau, model_name=np.array("planar2"))
    arrays.update(change)
    np.savez(path, **{k: v for k, v in arrays.items() if v is not None})


def _flip(data: bytes, at: int) -> bytes:
    return data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1 :]


def _csv(path, text):
    path.write_text(text)


HEADER = "t,q1,q2,qd1,qd2,qdd1,qdd2,tau1,tau2\n"
ROW = "0,1,2,3,4,5,6,7,8\n"
TRAJECTORY_FILES = {
    "missing_q.npz": (lambda p: _npz(p, q=None), "missing array(s) ['q']"),
    "extra.npz": (
        lambda p: _npz(p, secret=np.ones(2)),
        "unexpected array(s) ['secret'] (not a trajectory",
    ),
    "t_2d.npz": (
        lambda p: _npz(p, t=np.zeros((4, 1))),
        "t: expected a 1-D array of sample times, got shape (4, 1)",
    ),
    "q_1d.npz": (
        lambda p: _npz(p, q=np.zeros(4)),
        "q: expected shape (4, n), one row per time, got (4,)",
    ),
    "qd_shape.npz": (
        lambda p: _npz(p, qd=np.zeros((4, 3))),
        "qd: expected shape (4, nv) with nv <= nq = 2 (nq > nv when q holds quaternions), "
        "got (4, 3)",
    ),
    "tau_shape.npz": (
        lambda p: _npz(p, tau=np.zeros((4, 1))),
        "tau: expected the shape of qd, (4, 2), got (4, 1)",
    ),
    "nan_tau.npz": (
        lambda p: _npz(p, tau=np.full((4, 2), np.nan)),
        "tau: expected finite values, got nan at index (0, 0)",
    ),
    "backwards.npz": (
        lambda p: _npz(p, t=np.array([0.0, 0.02, 0.01, 0.03])),
        "t: expected increasing times, got 0.02 then 0.01",
    ),
    "complex_q.npz": (
        lambda p: _npz(p, q=np.zeros((4, 2), dtype=complex)),
        "q: expected real numbers, got dtype complex128",
    ),
    "pickled.npz": (
        lambda p: _npz(p, q=np.array([object()] * 4, dtype=object)),
        "not a trajectory .npz file (Object arrays cannot be loaded",
    ),
    "name_number.npz": (
        lambda p: _npz(p, model_name=np.array(3.0)),
        "model_name: expected one text value, got array(3.)",
    ),
    "truncated.npz": (
        lambda p: (_npz(p), p.write_bytes(p.read_bytes()[:300])),
        "not a readable .npz file (not a zip archive)",
    ),
    "flipped.npz": (
        lambda p: (_npz(p), p.write_bytes(_flip(p.read_bytes(), 200))),
        "not a readable .npz file (BadZipFile: Bad CRC-32",
    ),
    "empty.npz": (lambda p: p.write_bytes(b""), "not a readable .npz file (not a zip archive)"),
    "text.npz": (lambda p: p.write_text("hello"), "not a readable .npz file (not a zip archive)"),
    "header.csv": (lambda p: _csv(p, "time,a,b\n" + ROW), "header: expected t,q1..qn,"),
    "ragged.csv": (
        lambda p: _csv(p, HEADER + ROW + "0,1,2\n"),
        "expected rows of numbers after the header",
    ),
    "words.csv": (
        lambda p: _csv(p, HEADER + ROW.replace("5", "five")),
        "expected rows of numbers after the header",
    ),
    "only_header.csv": (lambda p: _csv(p, HEADER), "no samples after the header"),
    "nan.csv": (
        lambda p: _csv(p, HEADER + ROW.replace("7", "nan")),
        "tau: expected finite values, got nan at index (0, 0)",
    ),
    "binary.csv": (lambda p: p.write_bytes(b"\xff\xfe\x00garbage"), "not a text file"),
    "t_only.csv": (lambda p: _csv(p, "t\n0\n"), "header: expected t,q1..qn,"),
    "columns.csv": (
        lambda p: _csv(p, HEADER + "0,1,2,3,4,5,6,7,8,9\n"),
        "expected 9 columns as the header, got 10",
    ),
}


@pytest.mark.parametrize("name", list(TRAJECTORY_FILES))
def test_malformed_trajectory_files_are_refused_in_one_line(name, tmp_path, capsys):
    make, words = TRAJECTORY_FILES[name]
    path = tmp_path / name
    make(path)
    with pytest.raises(ValueError) as info:
        es.Trajectory.load(path)
    assert type(info.value) is ValueError
    assert str(info.value).startswith(f"{path}: ") and words in str(info.value), info.value
    for argv in (
        ["plot", str(path), "--out", str(tmp_path / "f.png")],
        ["view", str(path), "--model", "planar2", "--out", str(tmp_path / "v.html")],
    ):
        with pytest.raises(SystemExit) as code:
            main(argv)
        err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
        assert code.value.code == 2 and len(err) == 1 and words in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


def test_trajectory_files_round_trip(tmp_path):
    t = _good()
    for suffix in (".npz", ".csv"):
        back = es.Trajectory.load(t.save(tmp_path / f"t{suffix}"))
        for k in ("t", "q", "qd", "qdd", "tau"):
            np.testing.assert_array_equal(getattr(back, k), getattr(t, k))
    with pytest.raises(ValueError, match="path: no such file"):
        es.Trajectory.load(tmp_path / "none.npz")
    with pytest.raises(ValueError, match="path: expected a .npz or .csv file"):
        es.Trajectory.load(t.save(tmp_path / "x.npz").rename(tmp_path / "x.txt"))
    assert zipfile.is_zipfile(tmp_path / "t.npz")


# ---- command-line arguments -------------------------------------------------------------

CLI_CASES = [
    (
        ["simulate", "planar2", "--dt", "-1", "--out", "{tmp}/a.npz"],
        "dt: expected a positive finite number, got -1.0",
    ),
    (
        ["simulate", "planar2", "--t-final", "nan", "--out", "{tmp}/a.npz"],
        "t_final: expected a positive finite number, got nan",
    ),
    (
        ["simulate", "planar2", "--t-final", "1e9", "--out", "{tmp}/a.npz"],
        "t_final, dt: 1e+09 s every 0.001 s is 1e+12 samples, whose histories",
    ),
    (
        ["simulate", "planar2", "--dt", "0.3", "--out", "{tmp}/a.npz"],
        "dt: expected a divisor of t_final = 1.0, got 0.3",
    ),
    (
        ["simulate", "planar2", "--integrator", "midpoint", "--out", "{tmp}/a.npz"],
        "integrator: expected one of ('rk4', 'euler', 'dop853', 'rk45'), got 'midpoint'",
    ),
    (["simulate", "planar2", "--out", "{tmp}/a.txt"], "--out: expected a .npz, .csv file name"),
    (
        ["simulate", "planar2", "--u", "1,2", "--out", "{tmp}/a.npz"],
        "--u: platform inputs apply to mobile-manipulator models only",
    ),
    (["fd", "planar2", "--algorithm", "foo"], "algorithm: expected one of ('aba'"),
    (["id", "planar2", "--q", "1e400,0"], "--q: expected finite numbers, got '1e400,0'"),
    (
        ["id", "practica_4dof", "--opt", "payload_mass=abc"],
        "options: practica_4dof payload_mass: expected a number, got 'abc'",
    ),
    (
        ["info", "practica_4dof", "--opt", "book_com=maybe"],
        "options: practica_4dof book_com: expected true or false, got 'maybe'",
    ),
    (["id", "planar2", "--opt", "nonsense"], "--opt: expected key=value, got 'nonsense'"),
    (["id", "planar2", "--opt", "color=red"], "options: planar2 does not take ['color']"),
    (["id", "nope"], "MODEL: 'nope' is neither a zoo model"),
    (["crosscheck", "planar2", "--rtol", "-1"], "rtol: expected a positive finite number"),
    (["warmup", "--jobs", "-1"], "--jobs: expected a whole number >= 1, got -1"),
    (["sweep", "examples/sweep_actuator_sizing.yaml"], "--out: required"),
    (["reproduce", "jaramillo", "--out", "{tmp}/file.txt"], "is a file, expected a folder"),
    (["bench", "--against", "foo"], "--against: expected 'pin', got 'foo'"),
    (["bench", "--only", "foo"], "--only: expected a comma-separated subset"),
    (
        ["info", "examples/seekur_puma.yaml", "--opt", "a=1"],
        "--opt: options apply to zoo models only",
    ),
    (
        ["linearize", "planar2", "--trajectory", "{tmp}/none.npz", "--t", "0.1"],
        "path: no such file",
    ),
    (["plot", "{tmp}/none.npz", "--out", "{tmp}/f.png"], "path: no such file"),
    (
        ["view", "{tmp}/t.npz", "--model", "practica_6dof", "--out", "{tmp}/v.html"],
        "--model: practica_6dof has 6 joints, the trajectory 2",
    ),
    (["id", "planar2", "--nope"], "No such option: --nope"),
]


@pytest.mark.parametrize("argv, words", CLI_CASES, ids=range(len(CLI_CASES)))
def test_bad_command_lines_are_one_line(argv, words, tmp_path, capsys):
    (tmp_path / "file.txt").write_text("x")
    _good().save(tmp_path / "t.npz")
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(SystemExit) as code:
        main([a.replace("{tmp}", str(tmp_path)) for a in argv])
    err = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert code.value.code == 2 and len(err) == 1, err
    assert err[0].startswith("error: ") and words in err[0], err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
