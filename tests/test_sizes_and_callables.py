"""Sizes, callables and magnitudes (security issue "Unbounded sizes" and its smaller
items): a rollout whose histories exceed the memory budget of ``simulate`` is refused
before any allocation, naming N, K and the bytes; torque laws and wrench callbacks get
read-only copies of the state (a write raises instead of changing the run); a complex or
dict wrench is refused naming the field; absurd masses, inertias, lengths and gravities
are refused in the builder API, YAML and URDF files with the field and the bound; model
names printed by the CLI cannot carry terminal control sequences."""

import importlib
import json
import warnings

import numpy as np
import pytest

import eslabon as es
from eslabon import load_model
from eslabon.cli.main import main
from eslabon.model import ModelBuilder

ARM = es.zoo.load("planar2")

# ---- rollout sizes --------------------------------------------------------------------


@pytest.mark.parametrize(
    "N, t_final, dt",
    [
        (100_000, 1e5, 1e-3),  # 1e8 samples: far beyond what the machine can hold
        (20_000, 10.0, 1e-3),  # the reported case: 4 × 3.0 GiB
        (1, 1e9, 1e-3),  # one run of 1e12 samples
    ],
)
def test_rollout_over_the_budget_is_refused_naming_n_k_and_bytes(N, t_final, dt):
    q0 = np.zeros((N, 2))
    K = int(round(t_final / dt)) + 1
    for fn in (es.rollout, es.sim.rollouts.rollout_with_failures):
        with pytest.raises(ValueError) as info:
            fn(ARM, q0, q0, t_final, dt)
        text = str(info.value)
        assert f"N = {N}" in text and f"K = {K}" in text, text
        assert "bytes" in text and "8 GiB allowed" in text, text


def test_rollout_under_the_budget_runs_and_simulate_shares_the_budget():
    runs = es.rollout(ARM, np.zeros((3, 2)), np.zeros((3, 2)), 0.01, 1e-3)
    assert runs.q.shape == (3, 11, 2)
    from eslabon._args import MAX_HISTORY_BYTES

    simulate_module = importlib.import_module("eslabon.sim.simulate")

    assert simulate_module.MAX_HISTORY_BYTES == MAX_HISTORY_BYTES == 8 * 2**30


# ---- callables get read-only copies ---------------------------------------------------


@pytest.mark.parametrize("method", ["rk4", "euler", "dop853"])
def test_a_torque_law_that_writes_into_q_raises(method):
    def law(t, q, qd):
        q[0] = 5.0
        return np.zeros(2)

    with pytest.raises(ValueError, match="read-only"):
        es.simulate(ARM, None, None, 0.01, 1e-3, torque=law, integrator=method)


@pytest.mark.parametrize("method", ["rk4", "euler", "dop853"])
def test_a_wrench_callback_that_writes_into_qd_raises(method):
    def push(t, q, qd):
        qd[1] = 100.0
        return np.zeros(6)

    w = es.ExternalWrench("ee", push)
    with pytest.raises(ValueError, match="read-only"):
        es.simulate(ARM, None, None, 0.01, 1e-3, wrenches=[w], integrator=method)


def test_states_kept_by_a_callable_are_not_the_integrators():
    seen = []

    def law(t, q, qd):
        seen.append((q, qd))
        return np.array([0.3, -0.1])

    traj = es.simulate(ARM, None, None, 0.01, 1e-3, torque=law, integrator="euler")
    assert np.array_equal(seen[0][0], traj.q[0]) and np.array_equal(seen[0][1], traj.qd[0])
    assert not any(np.shares_memory(q, traj.q) or np.shares_memory(v, traj.qd) for q, v in seen)
    # and reading the state changes nothing: the same run as the table of its torques
    same = es.simulate(
        ARM, None, None, 0.01, 1e-3, torque=np.array([0.3, -0.1]), integrator="euler"
    )
    assert np.array_equal(traj.q, same.q)


# ---- what a wrench callable returns ---------------------------------------------------


@pytest.mark.parametrize(
    "value, needle",
    [
        (lambda t, q, qd: np.array([0, 0, 0, 0, 1j, 0]), "wrenches[0].value"),
        (lambda t, q, qd: {"force": [0, 0, 1]}, "wrenches[0].value"),
        (lambda t, q, qd: "6 numbers", "wrenches[0].value"),
        (lambda t, q, qd: None, "wrenches[0].value"),
        (lambda t, q, qd: np.zeros(5), "wrenches[0].value"),
        (np.array([0, 0, 0, 0, 1j, 0]), "wrenches[0].value"),
    ],
)
def test_bad_wrench_values_are_refused_naming_the_field(value, needle):
    w = es.ExternalWrench("ee", value)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # not one ComplexWarning per step
        with pytest.raises(ValueError) as info:
            es.simulate(ARM, None, None, 0.01, 1e-3, wrenches=[w])
    text = str(info.value)
    assert text.startswith(needle) and "6" in text and "\n" not in text, text


@pytest.mark.parametrize(
    "value", [lambda t, q, qd: np.array([0, 0, 0, 0, 1j, 0]), lambda t, q, qd: {"a": 1}]
)
def test_a_bad_torque_callable_value_is_refused_naming_the_field(value):
    with pytest.raises(ValueError, match=r"^torque"):
        es.simulate(ARM, None, None, 0.01, 1e-3, torque=value)


# ---- magnitudes -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "changes, needle",
    [
        (dict(gravity=[0.0, 0.0, -1e300]), "gravity"),
        (dict(gravity=[0.0, 0.0, -2e3]), "gravity"),
        (dict(mass=np.array([0.0, 1e308, 1.0])), "mass[1]"),
        (dict(mass=np.array([0.0, 1.0, 2e9])), "mass[2]"),
        (dict(inertia=np.array([np.zeros((3, 3)), np.eye(3) * 1e300, np.eye(3)])), "inertia[1]"),
        (dict(com=np.array([[0, 0, 0], [1e300, 0, 0], [0, 0, 0]])), "com[1]"),
        (
            dict(tree_translation=np.array([[0, 0, 0], [0, 0, 0], [0, 1e200, 0]])),
            "tree_translation[2]",
        ),
        (dict(viscous=np.array([0.0, 1e300, 0.0])), "viscous[1]"),
        (dict(armature=np.array([0.0, 0.0, 1e300])), "armature[2]"),
    ],
)
def test_absurd_magnitudes_are_refused_with_field_and_bound(changes, needle):
    with pytest.raises(ValueError) as info:
        ARM.replace(**{k: np.asarray(v, dtype=float) for k, v in changes.items()})
    text = str(info.value)
    assert text.startswith(needle) and "at most" in text, text


@pytest.mark.parametrize(
    "kwargs, needle",
    [
        (dict(mass=1e300), "link.mass"),
        (dict(translation=(1e300, 0, 0)), "link.translation"),
        (dict(com=(0, 0, 1e7)), "link.com"),
        (dict(inertia=np.eye(3) * 1e30), "link.inertia"),
        (dict(coulomb=1e300), "link.coulomb"),
    ],
)
def test_the_builder_refuses_absurd_magnitudes_by_field(kwargs, needle):
    b = ModelBuilder()
    with pytest.raises(ValueError) as info:
        b.add_body(0, "R", where="link", **kwargs)
    assert str(info.value).startswith(needle) and "at most" in str(info.value)


def test_the_builder_refuses_an_absurd_gravity():
    b = ModelBuilder()
    b.add_body(0, "R", mass=1.0)
    with pytest.raises(ValueError, match=r"^gravity: .*at most"):
        b.build(gravity=(0, 0, 1e300))


def test_large_real_robots_are_accepted():
    """A 500 t crane boom on Jupiter-like gravity, 60 m long, and a millimetre part."""
    b = ModelBuilder()
    boom = b.add_body(
        0, "R", mass=5e5, com=(30.0, 0, 0), inertia=np.diag([1e5, 1.5e8, 1.5e8]), viscous=1e6
    )
    b.add_body(boom, "P", translation=(60.0, 0, 0), mass=1e-6, inertia=np.eye(3) * 1e-12)
    crane = b.build(gravity=(0, 0, -24.8), name="crane")
    assert np.all(np.isfinite(es.gravity_torques(crane, [0.3, 1.0])))


DH_YAML = """eslabon: 1
name: arm
convention: standard
gravity: [0, 0, -9.81]
rows:
  - {joint: R, theta: 0, d: 0.4, a: 0.1, alpha: 0, mass: 2, com: [0, 0, -0.1],
     inertia: [[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]}
"""
URDF = """<?xml version="1.0"?>
<robot name="r">
  <link name="base"/>
  <link name="l1">
    <inertial><mass value="1"/>
      <inertia ixx="0.1" ixy="0" ixz="0" iyy="0.1" iyz="0" izz="0.1"/></inertial>
  </link>
  <joint name="j1" type="revolute">
    <parent link="base"/><child link="l1"/>
    <origin xyz="0 0 0.2" rpy="0 0 0"/><axis xyz="0 0 1"/>
  </joint>
</robot>
"""


@pytest.mark.parametrize(
    "name, text, needle",
    [
        ("g.yaml", DH_YAML.replace("-9.81", "-1e300"), "gravity"),
        ("m.yaml", DH_YAML.replace("mass: 2", "mass: 1e308"), "rows[0].mass"),
        ("d.yaml", DH_YAML.replace("d: 0.4", "d: 1e300"), "rows[0]"),
        (
            "i.yaml",
            DH_YAML.replace(
                "[0.1, 0, 0], [0, 0.1, 0], [0, 0, 0.1]",
                "[1e300, 0, 0], [0, 1e300, 0], [0, 0, 1e300]",
            ),
            "rows[0].inertia",
        ),  # fmt: skip
        ("m.urdf", URDF.replace('mass value="1"', 'mass value="1e308"'), "l1"),
        ("o.urdf", URDF.replace('xyz="0 0 0.2"', 'xyz="0 0 1e300"'), "'l1'.translation"),
    ],
)
def test_model_files_with_absurd_magnitudes_are_refused(tmp_path, capsys, name, text, needle):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ValueError) as info:
        load_model(path)
    assert needle in str(info.value) and "at most" in str(info.value), str(info.value)
    with pytest.raises(SystemExit) as code:
        main(["info", str(path)])
    err = capsys.readouterr().err
    assert code.value.code == 2 and err.startswith("error: ") and err.count("\n") == 1, err


def test_a_urdf_gravity_option_is_bounded(tmp_path):
    path = tmp_path / "r.urdf"
    path.write_text(URDF)
    with pytest.raises(ValueError, match=r"gravity.*at most"):
        load_model(path, gravity=(0, 0, -1e300))


# ---- names printed to a terminal ------------------------------------------------------

HOSTILE_NAMES = [
    "arm\x1b]0;owned\x07",  # OSC: sets the terminal title
    "arm\x1b[2J\x1b[H",  # CSI: clears the screen
    "arm\x9b31m",  # C1 CSI
    "arm\x7f\x08\x08\x08",  # DEL and backspaces
    "arm\rfake",  # carriage return: overwrites the line
    "arm\nerror: fake",  # a second line
]


@pytest.mark.parametrize("name", HOSTILE_NAMES)
@pytest.mark.parametrize("command", [["info"], ["id"], ["fd"]])
def test_model_names_cannot_drive_the_terminal(tmp_path, capsys, name, command):
    path = tmp_path / "evil.yaml"
    path.write_text(DH_YAML.replace("name: arm", "name: " + json.dumps(name)))
    assert load_model(path).name == name  # the model keeps its name
    main([*command, str(path)])
    out = capsys.readouterr().out
    assert not any(ord(c) < 32 and c != "\n" or 0x7F <= ord(c) < 0xA0 for c in out), repr(out)
    assert out.count("\n") == main_lines(command, tmp_path, capsys)
    assert "arm" in out
    if command != ["info"]:  # JSON keeps the name exactly (JSON escapes it itself)
        main([*command, str(path), "--json"])
        assert json.loads(capsys.readouterr().out)["model"] == name


def main_lines(command, tmp_path, capsys):
    """How many lines the command prints for a plainly named model."""
    path = tmp_path / "plain.yaml"
    path.write_text(DH_YAML)
    main([*command, str(path)])
    return capsys.readouterr().out.count("\n")


def test_unicode_names_are_kept(tmp_path, capsys):
    path = tmp_path / "u.yaml"
    path.write_text(DH_YAML.replace("name: arm", "name: brazo-ñandú-α"), encoding="utf-8")
    main(["info", str(path)])
    assert "brazo-ñandú-α" in capsys.readouterr().out


def test_a_warning_naming_a_hostile_name_is_one_clean_line(tmp_path, capsys):
    """An implausible inertia warns naming the model: the warning line is clean too."""
    path = tmp_path / "evil.yaml"
    text = DH_YAML.replace("[0.1, 0, 0], [0, 0.1, 0]", "[1.0, 0, 0], [0, 0.1, 0]")
    path.write_text(text.replace("name: arm", 'name: "arm\\e[2J\\nwarning: fake"'))
    main(["info", str(path)])
    err = capsys.readouterr().err
    assert err.startswith("warning: ") and err.count("\n") == 1, repr(err)
    assert not any(ord(c) < 32 and c != "\n" for c in err), repr(err)


def test_a_mobile_control_law_gets_a_read_only_copy_of_the_state():
    """The closed loop of a mobile manipulator hands its law the state y: a law that
    writes into it would silently change the recorded run; now the write raises."""
    from eslabon import mobile as mb

    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"))
    ref = mb.simulate(mm, None, None, 0.02, 0.01, u=[150.0, 0.3])
    law = mb.control.ComputedTorque(ref)
    seen = []

    def writer(mm_, t, y):
        seen.append(y)
        y[0] += 1.0
        return law(mm_, t, y)

    with pytest.raises(ValueError, match="read-only"):
        mb.control.closed_loop(mm, writer, ref.state(0), reference=ref)
    run = mb.control.closed_loop(
        mm, lambda m_, t, y: (seen.append(y), law(m_, t, y))[1], ref.state(0), reference=ref
    )
    assert not seen[-1].flags.writeable and len(run.t) == len(ref.t)
