"""Sweeps that check what they resume (eslabon.batch, docs/sweeps.md): an edited model or
spec is refused; a flipped byte, a part copied from another chunk or forged with other
rows, and a part beyond the spec are named by `read_sweep` / `sweep report` and moved
aside and recomputed by a resume; a missing part is recomputed without notice; a user's
own files survive; a mistyped scheduler leaves nothing that blocks the corrected command;
a killed scheduler is one line and the resume equals a clean run."""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np
import pytest
import yaml

pytest.importorskip("dask.distributed")
pytest.importorskip("pyarrow")

import eslabon as es  # noqa: E402
from eslabon import (
    batch,  # noqa: E402
    load_model,  # noqa: E402
)
from eslabon.batch.models import cached_model, model_sha256  # noqa: E402
from eslabon.batch.parts import checksum_path, part_path, write_part  # noqa: E402
from eslabon.batch.report import summarize  # noqa: E402
from eslabon.batch.run import REJECTED, SPEC_FILE  # noqa: E402
from eslabon.batch.tasks import run_chunk  # noqa: E402
from eslabon.cli.main import main  # noqa: E402
from eslabon.model import save_model  # noqa: E402

SRC = Path(__file__).resolve().parents[1] / "src"
FAST = {
    "eslabon_sweep": 1,
    "name": "r",
    "model": "planar2",
    "task": "inverse_dynamics",
    "trajectory": {"start": [0.0, 0.0], "goal": [1.0, -0.5], "duration": 0.5, "samples": 41},
    "vary": {"payload_mass": {"range": [0.0, 2.0], "steps": 8}},
    "chunk_size": 2,
}


def _spec_file(folder: Path, **over) -> Path:
    path = folder / "spec.yaml"
    path.write_text(yaml.safe_dump(json.loads(json.dumps(FAST)) | over, sort_keys=False))
    return path


def _snapshot(folder: Path) -> dict:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _clean(tmp_path, spec) -> Path:
    out = tmp_path / "clean"
    batch.run_sweep(spec, out, serial=True)
    return out


def _cli(capsys, *args):
    """(exit status, non-blank stderr lines) of `eslabon sweep ARGS` in this process."""
    try:
        main(["sweep", *map(str, args)])
        code = 0
    except SystemExit as exc:
        code = exc.code
    return code, [line for line in capsys.readouterr().err.splitlines() if line.strip()]


def _model_file(folder: Path, mass_factor: float = 1.0) -> Path:
    """planar2 saved as a model file, its link masses scaled by ``mass_factor``."""
    path = folder / "arm.yaml"
    save_model(es.zoo.load("planar2"), path)
    data = yaml.safe_load(path.read_text())
    for row in data.get("rows", []) + data.get("bodies", []):
        row["mass"] = row["mass"] * mass_factor
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return path


# --- the spec and the model ------------------------------------------------------------


def test_the_model_travels_by_content_and_an_edit_is_refused_on_resume(tmp_path):
    """The spec carries the model file's text and hash; after an edit of the file, a
    resume refuses, naming the model and both hashes, and leaves the folder as it was;
    with the file restored it finishes and equals a clean run."""
    model = _model_file(tmp_path)
    spec_path = _spec_file(tmp_path, model="arm.yaml")
    spec = batch.load_spec(spec_path)
    assert spec.model_text == model.read_text()
    assert spec.model_sha256 == model_sha256(load_model(model))
    out = tmp_path / "o"
    batch.run_sweep(spec, out, serial=True)
    part_path(out, 1).unlink()  # an interrupted run
    original = model.read_text()
    _model_file(tmp_path, mass_factor=1.5)
    edited = batch.load_spec(spec_path)
    assert edited.model_sha256 != spec.model_sha256
    before = _snapshot(out)
    with pytest.raises(
        ValueError,
        match=r"--resume: the model changed since .* \(model "
        rf".*arm\.yaml: sha256 {edited.model_sha256[:12]}… now, "
        rf"{spec.model_sha256[:12]}… in _spec\.json\)",
    ):
        batch.run_sweep(edited, out, resume=True, serial=True)
    assert _snapshot(out) == before
    model.write_text(original)
    batch.run_sweep(batch.load_spec(spec_path), out, resume=True, serial=True)
    assert batch.read_sweep(out).equals(batch.read_sweep(_clean(tmp_path, spec)))


def test_the_model_hash_is_the_one_an_earlier_release_wrote():
    """A data set started before the packed layout gained a derived field (``FORK``)
    still resumes: the hash leaves derived fields out (values written by 9420f67)."""
    assert model_sha256(es.zoo.load("puma560")).startswith("24ae077251d3d9b5")
    assert model_sha256(es.zoo.load("space_manipulator")).startswith("7eaea278ab1f60b7")


def test_a_process_that_builds_another_model_refuses_it():
    """A worker whose model (from the text or the zoo) does not hash to the spec's
    refuses to compute with it."""
    planar = es.zoo.load("planar2")
    other = planar.replace(mass=planar.mass * 2)
    with pytest.raises(
        ValueError,
        match=r"model: planar2 builds a model with sha256 "
        rf"{model_sha256(planar)[:12]}… in this process, the spec has "
        rf"{model_sha256(other)[:12]}…",
    ):
        cached_model(model_sha256(other), "planar2", None)


@pytest.mark.parametrize(
    "over, field",
    [
        ({"chunk_size": 3}, "chunk_size"),
        ({"vary": {"payload_mass": {"range": [0.0, 2.5], "steps": 8}}}, "vary"),
        ({"metrics": ["peak_torque"]}, "metrics"),
        ({"trajectory": dict(FAST["trajectory"], goal=[1.0, -0.4])}, "goal"),
        ({"model": "arm.yaml"}, "model"),
    ],
)
def test_an_edited_spec_is_refused_on_resume(tmp_path, over, field):
    spec = batch.load_spec(_spec_file(tmp_path))
    out = tmp_path / "o"
    batch.run_sweep(spec, out, serial=True)
    part_path(out, 2).unlink()
    before = _snapshot(out)
    if "model" in over:
        _model_file(tmp_path, mass_factor=1.5)
    edited = batch.load_spec(_spec_file(tmp_path, **over))
    with pytest.raises(
        ValueError,
        match=rf"--resume: the (spec differs .*\(in .*{field}|"
        rf"{field} changed)",
    ):
        batch.run_sweep(edited, out, resume=True, serial=True)
    assert _snapshot(out) == before


def test_the_order_of_vary_is_kept_and_a_reordering_is_refused(tmp_path):
    """The order of `vary` is the sample order: the folder's spec keeps it, and a spec
    listing the same parameters in another order is another sweep."""
    vary = {"payload_mass": {"values": [0.0, 1.0, 2.0]}, "trajectory_scale": {"values": [0.5, 1.0]}}
    spec = batch.load_spec(_spec_file(tmp_path, vary=vary))
    out = tmp_path / "o"
    batch.run_sweep(spec, out, serial=True)
    stored = batch.run.stored_spec(out).sample_table()
    assert all(np.array_equal(stored[k], v) for k, v in spec.sample_table().items())
    swapped = batch.load_spec(_spec_file(tmp_path, vary=dict(reversed(vary.items()))))
    with pytest.raises(ValueError, match=r"--resume: the spec differs .*\(in vary\)"):
        batch.run_sweep(swapped, out, resume=True, serial=True)


# --- parts: flipped bytes, copies, forgeries, missing -----------------------------------


def test_every_flipped_byte_is_named_and_the_part_recomputed(tmp_path):
    """A one-bit flip at each of several positions of a part (its magic numbers, column
    pages, footer metadata and length): `read_sweep` and `sweep report` refuse naming
    the part; a resume moves it aside with a notice and recomputes it."""
    spec = batch.load_spec(_spec_file(tmp_path))
    clean = _clean(tmp_path, spec)
    expected = batch.read_sweep(clean)
    size = part_path(clean, 1).stat().st_size
    positions = sorted(
        {
            0,
            3,
            4,
            size // 5,
            size // 3,
            size // 2,
            2 * size // 3,
            size - 12,
            size - 8,
            size - 5,
            size - 1,
        }
    )
    for i, pos in enumerate(positions):
        out = tmp_path / f"flip{i}"
        shutil.copytree(clean, out)
        part = part_path(out, 1)
        data = bytearray(part.read_bytes())
        data[pos] ^= 0x01
        part.write_bytes(bytes(data))
        with pytest.raises(
            ValueError,
            match=rf"{part}: (is not a readable part|fails its "
            r"checksum|was written by another spec|has other "
            r"columns|holds)",
        ):
            batch.read_sweep(out)
        if i == 0:
            with pytest.raises(ValueError, match=rf"{part}: .*--resume` moves it aside"):
                summarize(out, plots=False)
        with pytest.warns(
            batch.SweepNotice,
            match=rf"sweep: {part} .*; moved to "
            rf"{out / REJECTED / part.name}, "
            r"recomputing chunk 1",
        ):
            summary = batch.run_sweep(spec, out, resume=True, serial=True)
        assert summary["rejected"] == [part.name], pos
        assert (out / REJECTED / part.name).read_bytes() == bytes(data)
        assert batch.read_sweep(out).equals(expected), pos


def _chunk_rows(spec, chunk):
    _, first, end = spec.chunks()[chunk]
    return run_chunk(spec, first, end)


@pytest.mark.parametrize(
    "case, problem",
    [
        ("copy over chunk 3", r"holds chunk 1, expected chunk 3"),
        ("copy with checksum to chunk 2", r"holds chunk 1, expected chunk 2"),
        (
            "chunk 1's rows labelled chunk 3",
            r"holds samples 2\.\.3 in another set or order, "
            r"expected 6\.\.7",
        ),
        ("a row dropped from chunk 2", r"holds 1 row\(s\), expected 2 \(samples 4\.\.5\)"),
        ("another spec's chunk 2", r"was written by another spec \(differs in name\)"),
        ("a part without its checksum", r"has no checksum file _part-00002\.sha256"),
        (
            "chunk 1's checksum file for chunk 2",
            r"has a checksum file _part-00002\.sha256 that "
            r"names part-00001\.parquet",
        ),
        ("a truncated part", r"is not a readable part \(ArrowInvalid: "),
    ],
)
def test_a_foreign_or_forged_part_is_named_and_redone(tmp_path, case, problem):
    """Parts whose content is not the chunk's (copied under another name, with or without
    their checksum file, or written with other rows or by another spec): refused by
    `read_sweep` naming the part and what is wrong; a resume moves them aside and
    recomputes the chunk; the result equals a clean run."""
    spec = batch.load_spec(_spec_file(tmp_path))
    clean = _clean(tmp_path, spec)
    out = tmp_path / "o"
    shutil.copytree(clean, out)
    spec_dict = spec.to_dict()
    if case == "copy over chunk 3":
        shutil.copyfile(part_path(out, 1), part_path(out, 3))
        target = part_path(out, 3)
    elif case == "copy with checksum to chunk 2":
        target = part_path(out, 2)
        shutil.copyfile(part_path(out, 1), target)
        line = checksum_path(part_path(out, 1)).read_text().replace("part-00001", "part-00002")
        checksum_path(target).write_text(line)
    elif case == "chunk 1's rows labelled chunk 3":
        target = write_part(out, 3, _chunk_rows(spec, 1), spec_dict)
    elif case == "a row dropped from chunk 2":
        rows = {k: v[:-1] for k, v in _chunk_rows(spec, 2).items()}
        target = write_part(out, 2, rows, spec_dict)
    elif case == "another spec's chunk 2":
        target = write_part(out, 2, _chunk_rows(spec, 2), dict(spec_dict, name="other"))
    elif case == "a part without its checksum":
        target = part_path(out, 2)
        checksum_path(target).unlink()
    elif case == "chunk 1's checksum file for chunk 2":
        target = part_path(out, 2)
        shutil.copyfile(checksum_path(part_path(out, 1)), checksum_path(target))
    else:
        target = part_path(out, 2)
        target.write_bytes(target.read_bytes()[: target.stat().st_size // 2])
    chunk = int(target.stem.split("-")[1])
    with pytest.raises(ValueError, match=rf"{target}: {problem}"):
        batch.read_sweep(out)
    with pytest.warns(
        batch.SweepNotice,
        match=rf"{target} {problem}.*; moved to .*{REJECTED}.*"
        rf"recomputing chunk {chunk}",
    ):
        summary = batch.run_sweep(spec, out, resume=True, serial=True)
    assert summary["rejected"] == [target.name] and summary["skipped"] == 3
    assert batch.read_sweep(out).equals(batch.read_sweep(clean))


def test_a_part_beyond_the_spec_is_refused_and_moved_aside(tmp_path):
    spec = batch.load_spec(_spec_file(tmp_path))
    out = _clean(tmp_path, spec)
    stray = part_path(out, len(spec.chunks()) + 5)
    shutil.copyfile(part_path(out, 0), stray)
    with pytest.raises(ValueError, match=rf"{stray}: is not a chunk of this sweep \(it has 4\)"):
        batch.read_sweep(out)
    with pytest.warns(
        batch.SweepNotice,
        match=rf"{stray} is not a chunk of this spec .*"
        r"not part of this sweep",
    ):
        summary = batch.run_sweep(spec, out, resume=True, serial=True)
    assert summary["skipped"] == 4 and summary["ok"] == 0 and not stray.exists()


def test_a_missing_part_is_recomputed_without_notice(tmp_path):
    spec = batch.load_spec(_spec_file(tmp_path))
    clean = _clean(tmp_path, spec)
    out = tmp_path / "o"
    shutil.copytree(clean, out)
    part_path(out, 2).unlink()
    with pytest.raises(
        ValueError,
        match=rf"DIR: {out} lacks 1 of 4 chunks \(part-00002\."
        r"parquet\); finish it with --resume",
    ):
        batch.read_sweep(out)
    data, lines = summarize(out, plots=False)
    assert data["samples"] == 6 and data["expected"] == 8
    assert data["missing_parts"] == ["part-00002.parquet"]
    assert any("missing parts 1: part-00002.parquet" in line for line in lines)
    with warnings.catch_warnings():
        warnings.simplefilter("error", batch.SweepNotice)  # a notice fails the test
        summary = batch.run_sweep(spec, out, resume=True, serial=True)
    assert summary == {"chunks": 4, "skipped": 3, "ok": 2, "failed": 0, "rejected": []}
    assert batch.read_sweep(out).equals(batch.read_sweep(clean))


def test_a_users_own_files_survive_a_sweep_and_a_resume(tmp_path):
    """Files eslabon did not write (a `.tmp-*` name, notes, a part-like name, a temporary
    of another host's writer, which may be alive) are left as they are by a sweep and by
    its resume."""
    spec = batch.load_spec(_spec_file(tmp_path))
    out = tmp_path / "o"
    out.mkdir()
    own = {
        ".tmp-mine": b"mine",
        "notes.txt": b"my notes\n",
        "part-notes.parquet": b"x",
        ".part-00001.parquet.eslabon-tmp-otherhost-1-0123456789ab": b"other host",
    }
    for name, data in own.items():
        (out / name).write_bytes(data)
    batch.run_sweep(spec, out, serial=True)
    part_path(out, 0).unlink()
    batch.run_sweep(spec, out, resume=True, serial=True)
    assert {name: (out / name).read_bytes() for name in own} == own
    assert len(batch.read_sweep(out)) == 8


# --- starting: libraries, scheduler, spec file -------------------------------------------


@pytest.mark.parametrize(
    "module, serial", [("pyarrow", True), ("pandas", True), ("dask.distributed", False)]
)
def test_a_missing_library_is_refused_before_anything_is_written(
    tmp_path, monkeypatch, module, serial
):
    spec = batch.load_spec(_spec_file(tmp_path))
    monkeypatch.setitem(sys.modules, module, None)  # import raises ImportError
    with pytest.raises(
        ValueError,
        match=rf"sweep: needs {module.split('.')[0]} \(pip install "
        r"'eslabon\[sweep\]'\); nothing was written",
    ):
        batch.run_sweep(spec, tmp_path / "o", serial=serial)
    assert not (tmp_path / "o").exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_mistyped_scheduler_leaves_nothing_that_blocks_the_corrected_command(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("ESLABON_SCHEDULER_TIMEOUT", "0.5")  # a refused port answers at once
    spec_path = _spec_file(tmp_path)
    out = tmp_path / "o"
    for address in ("tcp//127.0.0.1:8786", f"tcp://127.0.0.1:{_free_port()}"):
        code, err = _cli(capsys, spec_path, "--out", out, "--scheduler", address)
        assert code == 2 and len(err) == 1 and err[0].startswith("error: --scheduler: ")
        assert not out.exists()
    code, err = _cli(capsys, spec_path, "--out", out, "--serial")
    assert code == 0 and err == []
    assert len(batch.read_sweep(out)) == 8


def test_a_folder_with_only_the_spec_file_restarts_with_that_spec(tmp_path):
    """A start cut short after `_spec.json` (and before any part) is rerun by the same
    command; another spec is refused there, saying how to reuse the folder."""
    spec = batch.load_spec(_spec_file(tmp_path))
    out = tmp_path / "o"
    out.mkdir()
    (out / SPEC_FILE).write_text(spec.fingerprint())
    other = batch.load_spec(_spec_file(tmp_path, chunk_size=4))
    with pytest.raises(
        ValueError,
        match=rf"--out: the spec differs .*\(in chunk_size\) "
        rf"\(no part written yet: remove {out / SPEC_FILE}",
    ):
        batch.run_sweep(other, out, serial=True)
    assert batch.run_sweep(spec, out, serial=True)["ok"] == 8


# --- Dask: an external cluster after an edit; a killed scheduler --------------------------


def test_an_external_cluster_computes_with_the_edited_model(tmp_path):
    """Two sweeps of one model file on the same long-lived workers, the file edited in
    between: the second data set is the edited model's (equal to a serial run of it)."""
    from dask.distributed import Client, LocalCluster

    _model_file(tmp_path)
    spec_path = _spec_file(tmp_path, model="arm.yaml")
    first = batch.load_spec(spec_path)
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster) as client,
    ):
        batch.run_sweep(first, tmp_path / "v1", client=client)
        _model_file(tmp_path, mass_factor=1.5)
        second = batch.load_spec(spec_path)
        batch.run_sweep(second, tmp_path / "v2", client=client)
    batch.run_sweep(second, tmp_path / "serial", serial=True)
    v1, v2 = batch.read_sweep(tmp_path / "v1"), batch.read_sweep(tmp_path / "v2")
    assert v2.equals(batch.read_sweep(tmp_path / "serial"))
    assert (v2["peak_torque_1"] > v1["peak_torque_1"]).all()


def _start(args, log: Path, env) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", *args],
        env=env,
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )


def test_a_killed_scheduler_is_one_line_and_the_resume_equals_a_clean_run(tmp_path, capsys):
    """`dask scheduler` and `dask worker` as processes; SIGKILL the scheduler while the
    sweep runs: exit 2, one line naming the scheduler, no traceback; `--resume` on a
    fresh local cluster finishes, equal to a serial run."""
    spec_path = _spec_file(
        tmp_path,
        task="closed_loop",
        controller={"kp": 200.0, "kd": 30.0},
        dt=0.002,
        chunk_size=1,
        metrics=["peak_torque", "tracking_error"],
        vary={"payload_mass": {"range": [0.0, 2.0], "steps": 12}},
    )
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(SRC), *filter(None, [os.environ.get("PYTHONPATH")])]),
    )
    file = tmp_path / "scheduler.json"
    scheduler = _start(
        [
            "distributed.cli.dask_scheduler",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-dashboard",
            "--scheduler-file",
            str(file),
        ],
        tmp_path / "scheduler.log",
        env,
    )
    worker = None
    try:
        deadline = time.time() + 60
        while not (file.exists() and file.stat().st_size) and time.time() < deadline:
            time.sleep(0.1)
        address = json.loads(file.read_text())["address"]
        worker = _start(
            ["distributed.cli.dask_worker", address, "--nthreads", "1", "--no-dashboard"],
            tmp_path / "worker.log",
            env,
        )
        out = tmp_path / "o"
        sweep = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "eslabon.cli.main",
                "sweep",
                str(spec_path),
                "--out",
                str(out),
                "--scheduler",
                address,
            ],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        deadline = time.time() + 120
        while len(list(out.glob("part-*.parquet"))) < 2 and time.time() < deadline:
            time.sleep(0.05)
        # Freeze the worker first: chunks take milliseconds once compiled, so without
        # this the rest of the sweep can land between the poll and the kill.
        os.killpg(worker.pid, signal.SIGSTOP)
        os.kill(scheduler.pid, signal.SIGKILL)
        err = sweep.communicate(timeout=60)[1].decode()
    finally:
        for proc in (scheduler, worker):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
    lines = [line for line in err.splitlines() if line.strip()]
    # A worker that has not registered when the sweep starts gives one documented
    # warning line before the error; nothing else may be printed.
    no_worker = f"warning: sweep: the Dask scheduler at {address} has no workers yet"
    lines = [line for line in lines if not line.startswith(no_worker)]
    assert sweep.returncode == 2, err
    assert "Traceback" not in err and len(lines) == 1, err
    assert lines[0].startswith(f"error: sweep: the Dask scheduler at {address} went away after ")
    assert lines[0].endswith("; rerun with --resume to finish")
    written = len(list(out.glob("part-*.parquet")))
    assert 2 <= written < 12, "the sweep was not interrupted mid-way"
    code, err = _cli(capsys, spec_path, "--out", out, "--resume", "--workers", "1")
    assert code == 0, err
    full = tmp_path / "full"
    batch.run_sweep(batch.load_spec(spec_path), full, serial=True)
    assert batch.read_sweep(out).equals(batch.read_sweep(full))
    assert np.isfinite(batch.read_sweep(out)["tracking_error"]).all()
