"""Parameter sweeps on Dask (eslabon.batch, `eslabon sweep`): serial = 2-worker cluster bit
for bit, a killed sweep resumed with every sample exactly once, a failing sample kept with
its error, malformed specs refused before any work, and the tasks' numbers against direct
calls (payload by the parallel-axis merge = the DH front-end's payload body)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("dask.distributed")
pytest.importorskip("pyarrow")

import eslabon as es  # noqa: E402
from eslabon import batch  # noqa: E402
from eslabon._files import TEMPORARY_MARK  # noqa: E402
from eslabon.batch.tasks import QuinticMotion, base_model, sample_model  # noqa: E402
from eslabon.cli.main import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "sweep_actuator_sizing.yaml"

BASE = {
    "eslabon_sweep": 1,
    "name": "t",
    "model": "planar2",
    "trajectory": {"start": [0.0, 0.0], "goal": [1.0, -0.5], "duration": 0.5, "samples": 51},
}


def _spec(tmp_path, **over):
    data = json.loads(json.dumps(BASE)) | over
    p = tmp_path / "spec.yaml"
    p.write_text(yaml.safe_dump(data))
    return p


def _closed_loop(tmp_path, n=12, chunk=3, kp=(100.0, 400.0)):
    return batch.load_spec(
        _spec(
            tmp_path,
            task="closed_loop",
            controller={"kp": 200.0, "kd": 30.0},
            dt=0.002,
            vary={
                "payload_mass": {"range": [0.0, 2.0]},
                "initial_error": {"range": [-0.05, 0.05]},
                "kp": {"range": list(kp)},
            },
            sampling={"kind": "random", "n": n, "seed": 4},
            chunk_size=chunk,
            metrics=[
                "peak_torque",
                "rms_torque",
                "energy",
                "tracking_error",
                "final_state",
                "stability",
            ],
        )
    )


def test_two_worker_cluster_equals_serial_bit_for_bit(tmp_path):
    """The same samples on a 2-worker local Dask cluster and serially: equal data sets."""
    spec = _closed_loop(tmp_path)
    a = batch.run_sweep(spec, tmp_path / "serial", serial=True)
    b = batch.run_sweep(spec, tmp_path / "dask", workers=2)
    assert a == b == {"chunks": 4, "skipped": 0, "ok": 12, "failed": 0, "rejected": []}
    da, db = batch.read_sweep(tmp_path / "serial"), batch.read_sweep(tmp_path / "dask")
    assert da.equals(db)
    assert list(da["sample"]) == list(range(12))
    assert (da["stability"] < 0).all()  # PD gains stabilize the frozen loop
    import pyarrow.parquet as pq

    meta = pq.read_schema(tmp_path / "dask" / "part-00002.parquet").metadata
    assert json.loads(meta[b"eslabon.spec"])["task"] == "closed_loop"
    assert "numba" in json.loads(meta[b"eslabon.versions"])


def test_a_killed_sweep_resumes_with_every_sample_once(tmp_path):
    """Terminate the `eslabon sweep` process group mid-way (workers included), resume:
    every sample is in the data set exactly once and equals an uninterrupted run."""
    spec_path = _spec(
        tmp_path,
        task="closed_loop",
        controller={"kp": 200.0, "kd": 30.0},
        dt=0.002,
        vary={"payload_mass": {"range": [0.0, 2.0], "steps": 40}},
        chunk_size=1,
        metrics=["peak_torque", "tracking_error"],
    )
    out = tmp_path / "out"
    cmd = [
        sys.executable,
        "-m",
        "eslabon.cli.main",
        "sweep",
        str(spec_path),
        "--out",
        str(out),
        "--workers",
        "1",
    ]
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(  # this checkout's eslabon
            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    )
    proc = subprocess.Popen(
        cmd, start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env
    )
    deadline = time.time() + 240
    while time.time() < deadline and len(list(out.glob("part-*.parquet"))) < 3:
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    written = len(list(out.glob("part-*.parquet")))
    assert 3 <= written < 40, "the sweep was not interrupted mid-way"
    assert main(["sweep", str(spec_path), "--out", str(out), "--resume", "--workers", "1"]) in (
        0,
        None,
    )
    df = batch.read_sweep(out)
    assert sorted(df["sample"]) == list(range(40))
    full = tmp_path / "full"
    batch.run_sweep(batch.load_spec(spec_path), full, serial=True)
    assert df.equals(batch.read_sweep(full))
    assert not [p for p in out.iterdir() if TEMPORARY_MARK in p.name]  # none left by the kill


def _interruptible_sweep(tmp_path):
    """(spec path, output folder, command) of a sweep of 40 one-sample chunks, long
    enough to be interrupted while it runs."""
    spec_path = _spec(
        tmp_path,
        task="closed_loop",
        controller={"kp": 200.0, "kd": 30.0},
        dt=0.002,
        vary={"payload_mass": {"range": [0.0, 2.0], "steps": 40}},
        chunk_size=1,
        metrics=["peak_torque"],
    )
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "eslabon.cli.main", "sweep", str(spec_path), "--out", str(out)]
    return spec_path, out, cmd


@pytest.mark.parametrize("serial, group", [(False, True), (True, True), (False, False)])
def test_ctrl_c_is_one_line_and_leaves_a_resumable_folder(tmp_path, serial, group):
    """SIGINT after the first part lands, to the whole process group (what Ctrl-C in a
    terminal sends, the Dask workers included) or to the sweep's process alone: one line
    on stderr, no traceback, exit 130, and --resume finishes the data set."""
    spec_path, out, cmd = _interruptible_sweep(tmp_path)
    cmd += ["--serial"] if serial else ["--workers", "1"]
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    )
    proc = subprocess.Popen(
        cmd,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        # as from a terminal: a test runner started in the background ignores SIGINT
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.time() + 240
        while time.time() < deadline and not list(out.glob("part-*.parquet")):
            time.sleep(0.05)
        (os.killpg if group else os.kill)(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = "\n".join(  # (a first run's notes of numba compiling on stderr aside)
        line for line in err.decode().splitlines() if not line.startswith("eslabon: compiling")
    )
    written = len(list(out.glob("part-*.parquet")))
    assert 1 <= written < 40, "the sweep was not interrupted mid-way"
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, (proc.returncode, err)
    assert "--resume" in err and proc.returncode == 130, (proc.returncode, err)
    assert main(["sweep", str(spec_path), "--out", str(out), "--resume", "--serial"]) in (0, None)
    assert sorted(batch.read_sweep(out)["sample"]) == list(range(40))


def _children(pid: int) -> list:
    """The processes whose parent is ``pid`` (Linux: read from /proc)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_ctrl_c_while_the_cluster_starts_is_not_lost(tmp_path):
    """SIGINT to the process group as soon as the local cluster spawns its worker (the
    cluster still starting, no chunk run): not lost, but one line, no traceback, exit
    130, and a folder the same command then fills."""
    spec_path, out, cmd = _interruptible_sweep(tmp_path)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(
            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]
        ),
    )
    proc = subprocess.Popen(
        cmd + ["--workers", "1"],
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.time() + 120
        while time.time() < deadline and proc.poll() is None and not _children(proc.pid):
            time.sleep(0.01)
        assert proc.poll() is None and not out.exists(), "the cluster was not starting"
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    err = "\n".join(
        line for line in err.decode().splitlines() if not line.startswith("eslabon: compiling")
    )
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1, (proc.returncode, err)
    assert proc.returncode == 130 and "interrupted with 0 of 40 chunks" in err, err
    assert not list(out.glob("part-*.parquet")) if out.exists() else True
    assert main(["sweep", str(spec_path), "--out", str(out), "--serial"]) in (0, None)
    assert sorted(batch.read_sweep(out)["sample"]) == list(range(40))


def test_a_failing_sample_is_kept_with_its_error(tmp_path):
    """kp = 1e12 makes the RK4 loop diverge: that sample carries its error, the others
    complete (on the 2-worker cluster)."""
    spec = batch.load_spec(
        _spec(
            tmp_path,
            task="closed_loop",
            controller={"kd": 10.0},
            dt=0.002,
            vary={"kp": {"values": [100.0, 1e12, 300.0]}},
            chunk_size=2,
            metrics=["peak_torque", "tracking_error"],
        )
    )
    summary = batch.run_sweep(spec, tmp_path / "o", workers=2)
    assert summary["ok"] == 2 and summary["failed"] == 1
    df = batch.read_sweep(tmp_path / "o")
    assert df["error"].isna().tolist() == [True, False, True]
    assert "diverged" in df["error"][1] or "Error" in df["error"][1]
    assert np.isnan(df["tracking_error"][1]) and np.isfinite(df["tracking_error"][0])


@pytest.mark.parametrize(
    "over, message",
    [
        ({"vary": {"payload": {"values": [1]}}}, r"vary: unknown parameter\(s\) \['payload'\]"),
        ({"vary": {"payload_mass": {"range": [2.0, 2.0], "steps": 3}}}, r"empty range"),
        ({"vary": {"payload_mass": {"values": []}}}, r"values: expected a non-empty list"),
        ({"vary": {"payload_mass": {"values": [-1.0]}}}, r"payload_mass must be >= 0"),
        ({"task": "fly"}, r"task: expected one of"),
        (
            {"metrics": ["tracking_error"]},
            r"tracking_error does not apply to task inverse_dynamics",
        ),
        ({"model": "nope.yaml"}, r"model: 'nope.yaml' is neither"),
        ({"colour": 1}, r"spec: unknown key\(s\) \['colour'\]"),
        ({"sampling": {"kind": "random"}}, r"sampling\.n: expected a finite number"),
        ({"trajectory": {"goal": [1.0]}}, r"trajectory\.goal: expected a list of 2 numbers"),
        ({"task": "closed_loop"}, r"controller\.kp: task closed_loop needs gains"),
    ],
)
def test_malformed_specs_are_refused_before_work(tmp_path, over, message):
    data = {"task": "inverse_dynamics"} | over
    with pytest.raises(ValueError, match=message):
        batch.load_spec(_spec(tmp_path, **data))


@pytest.mark.parametrize(
    "over, message",
    [
        (
            {"vary": {"payload_mass": {"range": [0.0, 1.0]}},
             "sampling": {"kind": "random", "n": 1e10}},
            r"^sampling\.n: 1e\+10 samples, more than the 10000000",
        ),
        (
            {"vary": {"payload_mass": {"range": [0.0, 1.0], "steps": 1e12}}},
            r"^vary\.payload_mass\.steps: expected at most 10000000 grid points",
        ),
        (
            {"vary": {"payload_mass": {"range": [0.0, 1.0], "steps": 10_000},
                      "kp": {"range": [1.0, 2.0], "steps": 10_000}}},
            r"^vary: 1e\+08 samples \(a grid of 10000 × 10000\)",
        ),
        (
            {"task": "simulate", "dt": 1e-9},
            r"^trajectory\.duration, dt: 0\.5 s every 1e-09 s is 5e\+08 samples.*8 GiB allowed",
        ),
        (
            {"task": "simulate", "dt": 1e-7, "chunk_size": 1000,
             "vary": {"payload_mass": {"range": [0.0, 1.0], "steps": 1000}}},
            r"^chunk_size: 1000 samples per chunk .*8 GiB allowed.*smaller chunk_size",
        ),
        (
            {"task": "closed_loop", "controller": {"kp": 1.0}, "dt": 1e-3,
             "vary": {"trajectory_duration": {"values": [0.5, 1e8]}}},
            r"^trajectory\.duration, dt: 1e\+08 s every 0\.001 s",
        ),
        (
            {"trajectory": dict(BASE["trajectory"], samples=1e10)},
            r"^trajectory\.samples: 10000000000 points along the motion",
        ),
        (
            {"time_series": True, "trajectory": dict(BASE["trajectory"], samples=100_000),
             "vary": {"payload_mass": {"range": [0.0, 1.0], "steps": 5000}}},
            r"^time_series: 5000 samples of 1e\+05 times",
        ),
    ],
)  # fmt: skip
def test_oversized_specs_are_refused_naming_the_field(tmp_path, over, message):
    """Sized before any work: samples × times × states × 8 bytes against simulate's
    budget, and a cap on the sample count (issue "Unbounded sizes")."""
    data = {"task": "inverse_dynamics"} | over
    with pytest.raises(ValueError, match=message):
        batch.load_spec(_spec(tmp_path, **data))


def test_large_specs_within_the_bounds_are_accepted(tmp_path):
    spec = batch.load_spec(
        _spec(
            tmp_path,
            task="closed_loop",
            controller={"kp": 100.0},
            dt=1e-4,
            vary={"payload_mass": {"range": [0.0, 1.0]}},
            sampling={"kind": "random", "n": 10_000_000},
        )
    )
    assert spec.sampling["n"] == 10_000_000


@pytest.mark.parametrize(
    "address, message",
    [
        ("not an address", r"--scheduler: expected an address like"),
        ("tcp://127.0.0.1:9", r"--scheduler: no Dask scheduler answers at tcp://127.0.0.1:9"),
    ],
)
def test_bad_scheduler_address_is_one_line_before_work(
    tmp_path, capsys, monkeypatch, address, message
):
    monkeypatch.setenv("ESLABON_SCHEDULER_TIMEOUT", "0.5")  # a refused port answers at once
    spec = _spec(tmp_path, task="inverse_dynamics")
    with pytest.raises(SystemExit) as exc:
        main(["sweep", str(spec), "--out", str(tmp_path / "o"), "--scheduler", address])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "\n" not in err
    import re

    assert re.search(message, err)
    assert not list((tmp_path / "o").glob("part-*"))


def test_payload_merge_equals_the_dh_payload_body():
    """The sample model's payload (merged into the end-effector body by the parallel-axis
    rule) gives the inverse dynamics of the DH front-end's separate payload body."""
    base = es.zoo.load("practica_6dof")
    rng = np.random.default_rng(0)
    q, qd, qdd = rng.normal(size=(3, 4, 6))
    merged = sample_model(
        base,
        {
            "payload_mass": 2.5,
            "payload_inertia": 0.01,
            "payload_offset": 0.08,
            "friction_scale": 1.0,
        },
    )
    rows = [dict(r) for r in base.dh.rows]
    body = es.from_dh(
        rows,
        base.dh.convention,
        gravity=base.gravity,
        payload={"mass": 2.5, "inertia": 0.01 * np.eye(3), "com": [0, 0, 0.08]},
    )
    np.testing.assert_allclose(
        es.inverse_dynamics(merged, q, qd, qdd),
        es.inverse_dynamics(body, q, qd, qdd),
        rtol=1e-12,
        atol=1e-10,
    )


def test_inverse_dynamics_task_metrics_against_direct_calls(tmp_path):
    """Peak and RMS torque of a sample equal those of one direct batch call."""
    spec = batch.load_spec(
        _spec(
            tmp_path,
            task="inverse_dynamics",
            vary={"payload_mass": {"values": [0.0, 1.5]}},
            metrics=["peak_torque", "rms_torque"],
        )
    )
    batch.run_sweep(spec, tmp_path / "o", serial=True)
    df = batch.read_sweep(tmp_path / "o")
    base = base_model(spec)
    m = sample_model(
        base,
        {"payload_mass": 1.5, "payload_inertia": 0.0, "payload_offset": 0.0, "friction_scale": 1.0},
    )
    t = np.linspace(0, 0.5, 51)
    tau = es.inverse_dynamics(m, *QuinticMotion([0, 0], [1, -0.5], 1.0, 0.5)(t))
    np.testing.assert_array_equal(
        df.loc[1, ["peak_torque_1", "peak_torque_2"]].to_numpy(float), np.abs(tau).max(axis=0)
    )
    np.testing.assert_allclose(
        df.loc[1, ["rms_torque_1", "rms_torque_2"]].to_numpy(float),
        np.sqrt((tau**2).mean(axis=0)),
        rtol=1e-15,
    )


def test_example_spec_and_report(tmp_path):
    """The shipped actuator-sizing example (payloads 0–5 kg × a family of motions) runs and
    its report shows torque envelopes that grow with the payload."""
    out = tmp_path / "sizing"
    assert main(["sweep", str(EXAMPLE), "--out", str(out), "--serial", "--json"]) in (0, None)
    data, lines = batch.report.summarize(out)
    assert data["samples"] == data["expected"] == 99 and data["failed"] == 0
    env = data["envelopes"]["payload_mass"]
    assert env["values"][0] == 0.0 and env["values"][-1] == 5.0
    assert env["peak_torque_2"][-1] > env["peak_torque_2"][0]
    assert (out / "envelope_payload_mass.png").stat().st_size > 1000


def test_an_existing_cluster_by_address_gives_the_same_data_set(tmp_path):
    """`--scheduler ADDRESS` on a running Dask cluster (started here, as a user's would
    be): the same data set as the serial run."""
    from dask.distributed import LocalCluster

    spec_path = _spec(
        tmp_path,
        task="inverse_dynamics",
        vary={
            "payload_mass": {"values": [0.0, 1.0, 2.0]},
            "trajectory_scale": {"values": [0.5, 1.0]},
        },
        chunk_size=2,
    )
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        assert main(
            [
                "sweep",
                str(spec_path),
                "--out",
                str(tmp_path / "remote"),
                "--scheduler",
                cluster.scheduler_address,
            ]
        ) in (0, None)
    batch.run_sweep(batch.load_spec(spec_path), tmp_path / "serial", serial=True)
    assert batch.read_sweep(tmp_path / "remote").equals(batch.read_sweep(tmp_path / "serial"))


# --- the simulation tasks run batched (eslabon.rollout), against the per-sample path ---

from eslabon.batch.spec import DEFAULTS  # noqa: E402
from eslabon.batch.tasks import run_chunk, run_sample, run_simulations  # noqa: E402


def _params(spec, first, end):
    table = spec.sample_table()
    fixed = {"trajectory_duration": spec.duration, "kp": spec.kp, "kd": spec.kd, **DEFAULTS}
    return [dict(fixed, **{k: float(table[k][s]) for k in spec.vary}) for s in range(first, end)]


def _per_sample(spec, first, end):
    """Each sample alone (:func:`run_sample`, the path before the batched simulations):
    its result, or its error as run_chunk words it."""
    import warnings

    base, models, out = base_model(spec), {}, []
    for p in _params(spec, first, end):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("error", RuntimeWarning)
                out.append(run_sample(spec, base, p, models))
        except Exception as exc:
            out.append(f"{type(exc).__name__}: {exc}")
    return out


def _compare(spec, n, exact):
    """run_chunk's rows against the per-sample path: errors the same; metrics and series
    array_equal (``exact``) or to 1e-12."""
    rows, alone = run_chunk(spec, 0, n), _per_sample(spec, 0, n)
    names = [c for c in rows if c not in ("sample", "error", *spec.vary)]
    for i, ref in enumerate(alone):
        if isinstance(ref, str):
            assert rows["error"][i] == ref
            continue
        assert rows["error"][i] is None
        for c in names:
            got, want = np.asarray(rows[c][i], float), np.asarray(ref[c], float)
            if exact:
                np.testing.assert_array_equal(got, want, err_msg=c)
            else:
                np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12, err_msg=c)
    return rows, alone


@pytest.mark.parametrize("task", ["simulate", "closed_loop"])
@pytest.mark.parametrize("durations", [None, [0.4, 0.5]])
def test_batched_simulations_equal_the_per_sample_path(tmp_path, task, durations):
    """The simulations of a chunk run through eslabon.rollout (per-sample models, the
    closed loop's PD compiled, references at the half steps) give the per-sample path's
    numbers: the open loop bit for bit, the closed loop to 1e-12 (RK4's last stage reads
    the reference at t_k+1 where the Python law evaluated it at t_k + h). One group of
    step size, or two (two durations); every sample taken by the batched path."""
    if durations:  # a grid of 16: two step sizes
        vary = {
            "payload_mass": {"values": [0.0, 2.0]},
            "initial_error": {"values": [-0.05, 0.05]},
            "kp": {"values": [100.0, 400.0]},
            "trajectory_duration": {"values": durations},
        }
        sampling = {"kind": "grid"}
    else:  # 6 random samples of one step size
        vary = {
            "payload_mass": {"range": [0.0, 2.0]},
            "initial_error": {"range": [-0.05, 0.05]},
            "kp": {"range": [100.0, 400.0]},
        }
        sampling = {"kind": "random", "n": 6, "seed": 4}
    spec = batch.load_spec(
        _spec(
            tmp_path,
            task=task,
            controller={"kp": 200.0, "kd": 30.0},
            dt=0.002,
            vary=vary,
            sampling=sampling,
            chunk_size=16,
            time_series=True,
            metrics=["peak_torque", "rms_torque", "energy", "tracking_error", "final_state"],
        )
    )
    n = len(spec.sample_table()["kp"])
    batched = run_simulations(spec, base_model(spec), _params(spec, 0, n), {})
    assert sorted(batched) == list(range(n))
    _compare(spec, n, exact=task == "simulate")


def test_batched_samples_that_fail_keep_their_own_errors(tmp_path):
    """In one group: kp = 1e12 diverges: those samples are run alone and carry the
    per-sample path's error; the others come from the batch with the per-sample path's
    numbers. Coulomb friction (friction_scale > 0) made two samples inject energy while
    the batch integrated the plain sign(q̇) law; now the batch and the per-sample path
    both decide stick–slip per step (eslabon.sim.stick_slip): they agree, with no
    warning, and every friction sample comes from the batch."""
    from eslabon.model.files import save_model

    path = save_model(es.zoo.load("planar2"), tmp_path / "arm.yaml")
    data = yaml.safe_load(path.read_text())
    for row in data["rows"]:
        row["coulomb"], row["viscous"] = 2.0, 0.1
    path.write_text(yaml.safe_dump(data))
    spec = batch.load_spec(
        _spec(
            tmp_path,
            task="closed_loop",
            model="arm.yaml",
            dt=0.01,
            controller={"kp": 200.0, "kd": 30.0},
            sampling={"kind": "grid"},
            chunk_size=16,
            vary={
                "kp": {"values": [200.0, 1e12]},
                "friction_scale": {"values": [0.0, 0.5, 1.0, 2.0]},
            },
            metrics=["peak_torque", "tracking_error"],
        )
    )
    rows, alone = _compare(spec, 8, exact=False)
    errors = [e for e in rows["error"] if e]
    assert not any("EnergyInjectionWarning" in e or "FrictionStepWarning" in e for e in errors)
    assert errors and all("diverged" in e for e in errors)
    batched = run_simulations(spec, base_model(spec), _params(spec, 0, 8), {})
    assert sorted(batched) == [i for i, r in enumerate(alone) if not isinstance(r, str)]
    assert len(batched) == 4 and {rows["kp"][i] for i in batched} == {200.0}


def test_the_scheduler_timeout_can_be_set_and_ignores_nonsense(monkeypatch):
    from eslabon.batch import cluster

    for raw, expected in (("0.5", 0.5), ("12", 12.0), ("", 5.0), ("x", 5.0), ("-1", 5.0),
                          ("inf", 5.0), ("nan", 5.0)):  # fmt: skip
        monkeypatch.setenv("ESLABON_SCHEDULER_TIMEOUT", raw)
        assert cluster._scheduler_timeout() == expected, raw
