"""``eslabon identify``: a simulated arm with friction, saved with Trajectory.save, identified
from the command line; each bad data file refused in one line with nothing written."""

import json

import numpy as np
import pytest

import eslabon as es
from eslabon.cli.main import main
from eslabon.identification import base_parameters, parameters, random_excitation
from eslabon.sim.trajectory import Trajectory

NOISE = 0.02  # torque noise [N·m]


def _arm():
    return es.with_joint_friction(es.zoo.load("planar2"), viscous=0.3, coulomb=0.2)


def _run(tmp_path, name="run.csv", seed=0, samples=1500):
    """A noisy excitation run of the arm with friction, saved as Trajectory.save does."""
    arm = _arm()
    excitation = random_excitation([0.0, 0.3], [1.2, 1.2], [2.0, 2.0], frequency=0.6, seed=seed)
    t = np.linspace(0.0, excitation.period, samples)
    q, qd, qdd = excitation.sample(t)
    rng = np.random.default_rng(seed)
    tau = es.inverse_dynamics(arm, q, qd, qdd) + NOISE * rng.standard_normal(q.shape)
    traj = Trajectory(t, q, qd, qdd, tau, "planar2", arm.q_names, arm.v_names)
    return traj.save(tmp_path / name), traj


def _call(args, capsys):
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code or 0
    out, err = capsys.readouterr()
    return code, out, err


def test_identify_recovers_the_base_parameters(tmp_path, capsys):
    path, _ = _run(tmp_path)
    out = tmp_path / "result"
    code, stdout, err = _call(
        ["identify", str(path), "--model", "planar2", "--out", str(out), "--json"], capsys
    )
    assert code == 0, err
    summary = json.loads(stdout)
    arm = _arm()
    base = base_parameters(arm)
    truth = base.values(parameters(arm))
    names = [p["name"] for p in summary["parameters"]]
    assert names == list(base.expressions)
    values = np.array([p["value"] for p in summary["parameters"]])
    std = np.array([p["std"] for p in summary["parameters"]])
    assert np.all(np.abs(values - truth) < 4.0 * std)
    assert np.all(np.array(summary["rms"]) < 2.0 * NOISE)
    for name in ("identified.yaml", "report.png", "summary.json"):
        assert (out / name).is_file()
    identified = es.load_model(out / "identified.yaml")
    beta = base.values(parameters(identified))
    assert np.allclose(beta, values, atol=4.0 * std.max() + 0.05 * np.abs(values).max())
    # a second run into the same folder refuses to overwrite, --force replaces
    code, _, err = _call(["identify", str(path), "--model", "planar2", "--out", str(out)], capsys)
    assert code == 2 and err.count("\n") == 1 and "exists" in err
    code, stdout, err = _call(
        ["identify", str(path), "--model", "planar2", "--out", str(out), "--force"], capsys
    )
    assert code == 0, err
    assert "base parameters" in stdout and "condition number" in stdout


def test_identify_filters_rates_and_validates(tmp_path, capsys):
    path, _ = _run(tmp_path)
    other, _ = _run(tmp_path, "other.csv", seed=1)
    out = tmp_path / "result"
    args = ["identify", str(path), "--model", "planar2", "--out", str(out)]
    args += ["--cutoff", "10", "--validate", str(other), "--no-consistent", "--json"]
    code, stdout, err = _call(args, capsys)
    assert code == 0, err
    summary = json.loads(stdout)
    assert np.all(np.array(summary["validation"]["rms"]) < 3.0 * NOISE)
    assert not (out / "identified.yaml").exists() and (out / "report.png").is_file()


def _header_and_rows(path):
    lines = path.read_text().splitlines()
    return lines[0], lines[1:]


def _bad(kind, tmp_path):
    path, traj = _run(tmp_path, samples=400)
    header, rows = _header_and_rows(path)
    if kind == "missing":
        cols = header.split(",")
        keep = [j for j, c in enumerate(cols) if c not in ("tau:joint2", "qd:joint1")]
        header = ",".join(cols[j] for j in keep)
        rows = [",".join(r.split(",")[j] for j in keep) for r in rows]
        expect = "qd:joint1, tau:joint2"
    elif kind == "ragged":
        rows[10] = rows[10].rsplit(",", 1)[0]
        expect = "row 11"
    elif kind == "nan":
        cells = rows[20].split(",")
        cells[3] = "nan"
        rows[20] = ",".join(cells)
        expect = "row 21"
    elif kind == "backwards":
        rows[5], rows[6] = rows[6], rows[5]
        expect = "row 7"
    elif kind == "uneven":
        rows = rows[:50] + rows[51:]
        expect = "evenly spaced"
    elif kind == "degrees":
        data = np.column_stack([traj.t, np.degrees(traj.q), traj.qd, traj.qdd, traj.tau])
        rows = [",".join(f"{x:.17g}" for x in r) for r in data]
        expect = "degrees"
    elif kind == "degrees_per_second":
        data = np.column_stack([traj.t, traj.q, np.degrees(traj.qd), traj.qdd, traj.tau])
        rows = [",".join(f"{x:.17g}" for x in r) for r in data]
        expect = "degrees per second"
    elif kind == "still":  # at rest: the data cannot tell the parameters apart
        arm = _arm()
        q = np.tile([0.3, -0.2], (len(traj.t), 1))
        tau = es.inverse_dynamics(arm, q, 0 * q, 0 * q)
        data = np.column_stack([traj.t, q, 0 * q, 0 * q, tau])
        rows = [",".join(f"{x:.17g}" for x in r) for r in data]
        expect = "do not determine"
    else:  # too few samples for the base parameters
        rows = rows[:4]
        expect = "base parameters"
    path.write_text("\n".join([header] + rows) + "\n")
    return path, expect


@pytest.mark.parametrize(
    "kind",
    [
        "missing",
        "ragged",
        "nan",
        "backwards",
        "uneven",
        "degrees",
        "degrees_per_second",
        "still",
        "short",
    ],
)
def test_identify_refuses_bad_data(kind, tmp_path, capsys):
    path, expect = _bad(kind, tmp_path)
    out = tmp_path / "result"
    code, stdout, err = _call(
        ["identify", str(path), "--model", "planar2", "--out", str(out)], capsys
    )
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err and str(path) in err and expect in err, err
    assert stdout == "" and not out.exists()


def test_identify_refuses_a_linked_folder(tmp_path, capsys):
    path, _ = _run(tmp_path, samples=400)
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "elsewhere")
    code, _, err = _call(
        ["identify", str(path), "--model", "planar2", "--out", str(tmp_path / "link")], capsys
    )
    assert code == 2 and "link" in err and err.count("\n") == 1
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_identify_reads_npz_and_refuses_unequal_lengths(tmp_path, capsys):
    _, traj = _run(tmp_path, samples=1500)
    path = traj.save(tmp_path / "run.npz")
    out = tmp_path / "result"
    args = ["identify", str(path), "--model", "planar2", "--out", str(out), "--no-consistent"]
    code, stdout, err = _call(args + ["--json"], capsys)
    assert code == 0, err
    assert len(json.loads(stdout)["parameters"]) == base_parameters(_arm()).count
    bad = tmp_path / "bad.npz"
    np.savez(bad, t=traj.t, q=traj.q, qd=traj.qd[:-1], tau=traj.tau)
    code, stdout, err = _call(
        ["identify", str(bad), "--model", "planar2", "--out", str(tmp_path / "x")], capsys
    )
    assert code == 2 and err.count("\n") == 1 and "unequal lengths" in err and "'qd'" in err
    assert not (tmp_path / "x").exists()
