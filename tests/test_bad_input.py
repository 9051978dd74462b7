"""Bad input gets a ValueError naming the field; the CLI prints one line and exits 2.
Zero masses and singular (rod-like) inertias are legal (issue: Core, "Bad input")."""

import re
import subprocess
import sys

import numpy as np
import pytest

import eslabon as es

ROW = {
    "joint": "R",
    "theta": 0.0,
    "d": 0.0,
    "a": 1.0,
    "alpha": 0.0,
    "mass": 1.0,
    "com": [-0.5, 0, 0],
    "inertia": np.diag([0.0, 0.1, 0.1]),
}


def row(**changes):
    r = dict(ROW)
    r.update(changes)
    return r


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"mass": -1.0}, "rows[0].mass"),
        ({"mass": float("nan")}, "rows[0].mass"),
        ({"inertia": [[1, 0.5, 0], [0, 1, 0], [0, 0, 1]]}, "rows[0].inertia"),
        ({"inertia": np.diag([1.0, -0.1, 1.0])}, "rows[0].inertia"),
        ({"inertia": np.eye(2)}, "rows[0].inertia"),
        ({"com": [0, 0]}, "rows[0].com"),
        ({"joint": "X"}, "rows[0].joint"),
        ({"viscous": -0.1}, "rows[0].viscous"),
        ({"lenght": 1.0}, "rows[0]"),
        ({"a": float("inf")}, "rows[0].a"),
        # the COM slides along a prismatic joint only (seed 001 book mode); the model check
        # names the body
        ({"com_slide": 0.5}, "com_slide[1]"),
    ],
)
def test_bad_rows_name_the_field(changes, field):
    with pytest.raises(ValueError, match="^" + re.escape(field)):
        es.from_dh([row(**changes)], "standard")


def test_missing_dh_value_and_unknown_convention():
    r = row()
    del r["alpha"]
    with pytest.raises(ValueError, match=r"rows\[0\]\.alpha: missing"):
        es.from_dh([r], "standard")
    with pytest.raises(ValueError, match="convention: expected one of"):
        es.from_dh([row()], "craig")
    with pytest.raises(ValueError, match="rows: expected a non-empty list"):
        es.from_dh([], "standard")
    with pytest.raises(ValueError, match="payload: unknown key"):
        es.from_dh([row()], "standard", payload={"mass": 1, "inertial": np.eye(3)})
    with pytest.raises(ValueError, match="gravity: expected shape"):
        es.from_dh([row()], "standard", gravity=(0, -9.81))


def test_zero_mass_and_rod_inertia_are_legal():
    m = es.from_dh(
        [row(mass=0.0, inertia=np.zeros((3, 3))), row(inertia=np.diag([0, 0, 0.1]))], "standard"
    )
    assert m.nq == 2
    es.zoo.load("cincinnati_t3")  # link 1: inertia diag(0, 62, 0)


def test_unknown_zoo_name_and_option():
    with pytest.raises(ValueError, match="name: unknown zoo model 'puma'"):
        es.zoo.load("puma")
    with pytest.raises(ValueError, match="options"):
        es.zoo.load("planar2", wheels=3)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        (dict(q=np.zeros(3)), "q"),
        (dict(qd=np.zeros((2, 2))), "qd"),
        (dict(qdd=[0.0, float("nan")]), "qdd"),
        (dict(q=[0.0, float("inf")]), "q"),
        (dict(q="abc"), "q"),
    ],
)
def test_dynamics_inputs_name_the_field(kwargs, field):
    m = es.zoo.load("planar2")
    args = dict(q=np.zeros(2), qd=np.zeros(2), qdd=np.zeros(2))
    args.update(kwargs)
    with pytest.raises(ValueError, match=rf"^{field}: expected"):
        es.inverse_dynamics(m, args["q"], args["qd"], args["qdd"])


def test_forward_dynamics_and_options():
    m = es.zoo.load("planar2")
    with pytest.raises(ValueError, match="^tau: expected finite"):
        es.forward_dynamics(m, np.zeros(2), np.zeros(2), [np.nan, 0])
    with pytest.raises(ValueError, match="^algorithm: expected one of"):
        es.mass_matrix(m, np.zeros(2), algorithm="lagrange_typo")
    with pytest.raises(ValueError, match="^reference"):
        es.jacobian(m, np.zeros(2), reference="body")
    with pytest.raises(ValueError, match="^frame: unknown frame"):
        es.kinematics.frame_pose(m, np.zeros(2), "tool0")
    massless = es.from_dh([row(mass=0.0, inertia=np.zeros((3, 3)))], "standard")
    with pytest.raises(ValueError, match="not positive definite"):
        es.forward_dynamics(massless, [0.0], [0.0], [1.0])


def test_simulate_arguments():
    m = es.zoo.load("planar2")
    with pytest.raises(ValueError, match="^dt"):
        es.simulate(m, None, None, 1.0, 0.3)
    with pytest.raises(ValueError, match="^torque"):
        es.simulate(m, None, None, 0.01, 0.001, torque=np.zeros((3, 2)))
    with pytest.raises(ValueError, match="^integrator"):
        es.simulate(m, None, None, 0.01, 0.001, integrator="midpoint")
    with pytest.raises(ValueError, match="^q0"):
        es.simulate(m, [0.0], None, 0.01, 0.001)


def test_trajectory_save_roundtrip_and_bad_suffix(tmp_path):
    m = es.zoo.load("planar2")
    traj = es.simulate(m, None, None, 0.01, 0.001, torque=lambda t, q, qd: np.array([1.0, -1.0]))
    for name in ("t.npz", "t.csv"):
        back = es.Trajectory.load(traj.save(tmp_path / name))
        np.testing.assert_array_equal(back.q, traj.q)
        np.testing.assert_array_equal(back.tau, traj.tau)
    with pytest.raises(ValueError, match="^path"):
        traj.save(tmp_path / "t.txt")
    assert not (tmp_path / "t.txt").exists()


def _cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "eslabon.cli.main", *args], capture_output=True, text=True
    )


@pytest.mark.parametrize(
    "args, needle",
    [
        (["info", "nope"], "MODEL"),
        (["id", "planar2", "--q", "1,2,3"], "--q: expected 2 numbers"),
        (["fd", "planar2", "--q", "0,nan"], "--q: 'nan' is not finite"),
        (["info", "missing.yaml"], "no such model file"),
        (["id", "planar2", "--bogus", "1"], "No such option"),
        (["simulate", "planar2", "--out", "x.txt"], "--out"),
        (["id", "practica_4dof", "--opt", "payload_mass=-3"], "mass"),
    ],
)
def test_cli_one_line_errors(args, needle):
    res = _cli(*args)
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], res.stderr
    assert "Traceback" not in res.stderr


def test_cli_id_json_matches_library():
    import json

    res = _cli("id", "practica_6dof", "--q", "0.1,0.2,0.3,0.4,0.5,0.6", "--json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    m = es.zoo.load("practica_6dof")
    q = np.arange(1, 7) * 0.1
    np.testing.assert_allclose(
        out["tau"], es.inverse_dynamics(m, q, np.zeros(6), np.zeros(6)), rtol=1e-12, atol=1e-12
    )


def test_model_file_roundtrip(tmp_path):
    import yaml

    path = tmp_path / "arm.yaml"
    path.write_text(
        yaml.safe_dump(
            {
                "eslabon": 1,
                "convention": "standard",
                "gravity": [0, -9.81, 0],
                "rows": [
                    {
                        "joint": "R",
                        "theta": 0,
                        "d": 0,
                        "a": 1.0,
                        "alpha": 0,
                        "mass": 2.0,
                        "com": [-0.5, 0, 0],
                        "inertia": [[0, 0, 0], [0, 0.1, 0], [0, 0, 0.1]],
                    }
                ],
            }
        )
    )
    m = es.load_model(path)
    assert m.nq == 1 and m.dh.convention == "standard"
    res = _cli("info", str(path), "--json")
    assert res.returncode == 0 and '"dof": 1' in res.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text("eslabon: 1\nrows: []\n")
    res = _cli("info", str(bad))
    assert res.returncode == 2 and "convention" in res.stderr


def test_functions_needing_rigid_links_refuse_a_sliding_com_by_name():
    """One check (``Model.require_rigid_links``) and one message naming what needs rigid
    links and the model; a model with rigid links passes."""
    book = es.zoo.load("practica_4dof", book_com=True)
    with pytest.raises(
        ValueError,
        match=re.escape(
            f"model: to_urdf (URDF links are rigid bodies) needs rigid links; a COM of "
            f"{book.name!r} slides with a prismatic joint (a sliding COM, seed 001 book mode)"
        ),
    ):
        es.model.to_urdf(book)
    with pytest.raises(ValueError, match=r"^model: the thing needs rigid links; "):
        book.require_rigid_links("the thing")
    es.zoo.load("practica_4dof").require_rigid_links("the thing")


def test_control_sweep_viewer_and_mobile_arguments_are_checked():
    """Arguments that used to pass unchecked and fail later (NaN torques, numpy's unnamed
    errors) or be silently ignored are refused naming the field."""
    import tempfile
    from pathlib import Path

    from eslabon import control as ctl
    from eslabon import mobile as mb
    from eslabon.batch import parse_spec
    from eslabon.viz import write_viewer

    arm = es.zoo.load("planar2")
    traj = es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0.0, 1.0, 11))
    nominal = ctl.Nominal(*traj)
    K = np.zeros((1, 2, 4))
    with pytest.raises(ValueError, match="t_gains: expected at least two"):
        ctl.gain_schedule_law(arm, nominal, [0.0], K)  # used to give NaN torques
    with pytest.raises(ValueError, match="t_gains"):
        ctl.gain_schedule_law(arm, nominal, [1.0, 0.0], np.zeros((2, 2, 4)))
    lin = ctl.linearize_along(arm, nominal)
    with pytest.raises(ValueError, match="Qf: expected"):
        ctl.tvlqr(lin, np.eye(4), np.eye(2), Qf=-np.eye(4))
    spec = {
        "eslabon_sweep": 1,
        "model": "planar2",
        "task": "inverse_dynamics",
        "trajectory": {"goal": [1.0, -0.5], "duration": 0.5, "samples": 11},
        "vary": {"payload_mass": {"range": [0.0, 1.0]}},
        "sampling": {"kind": "random", "n": 3, "seed": -1},
    }
    with pytest.raises(ValueError, match="sampling.seed: expected >= 0"):
        parse_spec(spec)
    sim = es.simulate(arm, None, None, 0.05, 0.01)
    with tempfile.TemporaryDirectory() as folder:
        with pytest.raises(ValueError, match="max_frames: expected a whole number >= 1"):
            write_viewer(arm, sim, Path(folder) / "v.html", max_frames=0)
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount())
    with pytest.raises(ValueError, match="samples: expected a whole number >= 2"):
        mb.simulate(mm, None, None, 0.02, 0.01, samples=0)
    with pytest.raises(ValueError, match="samples: the fixed-step 'rk4'"):
        mb.simulate(mm, None, None, 0.02, 0.01, integrator="rk4", samples=3)
    with pytest.raises(ValueError, match="dt: t_final = 0.02 is not a whole number"):
        mb.simulate(mm, None, None, 0.02, 0.003)


def test_thread_count_and_integration_step_are_checked():
    """set_num_threads(2.7) used to run on 2 threads silently; integrate(dt="0.1") raised
    a TypeError from numpy. Both are ValueErrors naming the argument."""
    for k in (2.7, "2", 0, True):
        with pytest.raises(ValueError, match="k: expected"):
            es.set_num_threads(k)
    arm = es.zoo.load("planar2")
    for dt in ("0.1", True, [0.1], float("nan")):
        with pytest.raises(ValueError, match="dt: expected a finite number"):
            es.integrate(arm, [0.0, 0.0], [1.0, 1.0], dt)
