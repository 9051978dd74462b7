"""A sweep folder cannot redirect eslabon's writes or make it read without end
(docs/sweeps.md, "Links and special files").

Every file eslabon reads or writes in a sweep's folder is opened without following a
symbolic link and must be a regular file no larger than its kind's cap. A planted link
(``_part-*.sha256``, ``report.json``, ``envelope_*.png``, ``_rejected``, a part, the
spec), a FIFO, a device or a huge sparse file is refused by name: the CLI prints one
line and exits 2, the file a link points to is untouched, nothing hangs. Each case runs
the CLI in a subprocess with a deadline (60 s) and a 16 GiB address-space limit, below
the 64 GiB of the sparse file (a 6 GiB limit left too little room for the threads that
numba, OpenMP and pyarrow start at exit: once, a refused run then aborted).
"""

import json
import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

pytest.importorskip("pyarrow")

from eslabon import batch  # noqa: E402
from eslabon.batch.parts import checksum_path, part_path  # noqa: E402
from eslabon.batch.run import REJECTED, SPEC_FILE  # noqa: E402

SRC = str(Path(__file__).resolve().parents[1] / "src")
SPEC = {
    "eslabon_sweep": 1,
    "name": "s",
    "model": "planar2",
    "task": "inverse_dynamics",
    "trajectory": {"start": [0.0, 0.0], "goal": [1.0, -0.5], "duration": 0.5, "samples": 21},
    "vary": {"payload_mass": {"range": [0.0, 2.0], "steps": 4}},
    "chunk_size": 2,
}
VICTIM_TEXT = "a file of the victim's, not eslabon's\n"
HUGE = 64 * 2**30  # sparse: no disk blocks


def _limit():
    resource.setrlimit(resource.RLIMIT_AS, (16 * 2**30, 16 * 2**30))


def _cli(*args, limit=True, timeout=60):
    """(exit status, non-blank stderr lines) of `eslabon ARGS` in a fresh process."""
    code = "import sys; from eslabon.cli.main import run; run(sys.argv[1:])"
    env = {**os.environ, "PYTHONPATH": SRC, "ESLABON_COMPILE_NOTICE": "0"}
    p = subprocess.run(
        [sys.executable, "-c", code, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        preexec_fn=_limit if limit else None,
    )
    return p.returncode, [x for x in p.stderr.splitlines() if x.strip()]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A finished sweep (4 samples, 2 chunks) and its spec file."""
    base = tmp_path_factory.mktemp("sweep")
    spec_path = base / "spec.yaml"
    spec_path.write_text(yaml.safe_dump(SPEC, sort_keys=False))
    out = base / "done"
    batch.run_sweep(batch.load_spec(spec_path), out, serial=True)
    return spec_path, out


def _copy(made, tmp_path):
    spec_path, out = made
    folder = tmp_path / "sweep"
    shutil.copytree(out, folder, symlinks=True)
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text(VICTIM_TEXT)
    return spec_path, folder, victim


def _link(path: Path, target):
    if path.exists() or path.is_symlink():
        path.unlink()
    path.symlink_to(target)


def _fifo(path: Path):
    if path.exists():
        path.unlink()
    os.mkfifo(path)


def _sparse(path: Path):
    with open(path, "ab") as f:
        f.truncate(HUGE)


def _victim_untouched(victim: Path):
    assert sorted(p.name for p in victim.iterdir()) == ["notes.txt"]
    assert (victim / "notes.txt").read_text() == VICTIM_TEXT


def _flip(path: Path):
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))


# each case: (command, plant(folder, victim) -> the planted name)
def _sha_link_missing_part(folder, victim):
    part_path(folder, 1).unlink()
    _link(checksum_path(part_path(folder, 1)), victim / "notes.txt")
    return checksum_path(part_path(folder, 1)).name


def _sha_link_present_part(folder, victim):
    _link(checksum_path(part_path(folder, 1)), victim / "notes.txt")
    return checksum_path(part_path(folder, 1)).name


def _rejected_link(folder, victim):
    _flip(part_path(folder, 1))  # unsound: a resume moves it aside
    _link(folder / REJECTED, victim)
    return REJECTED


def _part_link_missing_checksum(folder, victim):
    checksum_path(part_path(folder, 1)).unlink()
    _link(part_path(folder, 1), victim / "notes.txt")
    return part_path(folder, 1).name


def _report_link(folder, victim):
    _link(folder / "report.json", victim / "notes.txt")
    return "report.json"


def _envelope_link(folder, victim):
    _link(folder / "envelope_payload_mass.png", victim / "notes.txt")
    return "envelope_payload_mass.png"


def _reading(kind, how):
    def plant(folder, victim):
        path = {
            "part": part_path(folder, 1),
            "checksum": checksum_path(part_path(folder, 1)),
            "spec": folder / SPEC_FILE,
        }[kind]
        if how == "a FIFO":
            _fifo(path)
        elif how == "a link to /dev/zero":
            _link(path, "/dev/zero")
        elif how == "a huge sparse file":
            _sparse(path)
        elif how == "a link to a copy elsewhere":
            copy = victim.parent / f"copy-{path.name}"
            shutil.copyfile(path, copy)
            _link(path, copy)
        return path.name

    return plant


WRITES = {
    "resume: _part-00001.sha256 a link, part missing": ("resume", _sha_link_missing_part),
    "resume: _part-00001.sha256 a link, part present": ("resume", _sha_link_present_part),
    "resume: _rejected a link, an unsound part": ("resume", _rejected_link),
    "resume: part-00001.parquet a link, no checksum": ("resume", _part_link_missing_checksum),
    "report: report.json a link": ("report", _report_link),
    "report: envelope_payload_mass.png a link": ("report", _envelope_link),
}
READS = {
    f"{command}: {kind} {how}": (command, _reading(kind, how))
    for command in ("resume", "report")
    for kind in ("part", "checksum", "spec")
    for how in ("a FIFO", "a link to /dev/zero", "a huge sparse file", "a link to a copy elsewhere")
}


@pytest.mark.parametrize("case", list(WRITES) + list(READS))
def test_a_planted_link_or_special_file_is_refused_by_name(made, tmp_path, case):
    command, plant = {**WRITES, **READS}[case]
    spec_path, folder, victim = _copy(made, tmp_path)
    name = plant(folder, victim)
    args = (
        ("sweep", spec_path, "--out", folder, "--resume", "--serial")
        if command == "resume"
        else ("sweep", "report", folder)
    )
    code, lines = _cli(*args)
    assert code == 2 and len(lines) == 1, (code, lines)
    assert name in lines[0], lines
    assert any(
        w in lines[0] for w in ("symbolic link", "not a regular file", "bytes, more than")
    ), lines
    _victim_untouched(victim)
    assert (folder / name).is_symlink() or not (folder / name).is_file() or "sparse" in case


def test_a_sound_folder_is_still_accepted_and_a_linked_folder_is_the_users_choice(made, tmp_path):
    """The accepted cases: a report over a report of its own, a resume with nothing to
    do, a resume that recomputes a missing part, and a sweep folder that is itself a
    link (the user named it)."""
    spec_path, folder, victim = _copy(made, tmp_path)
    assert _cli("sweep", "report", folder, limit=False)[0] == 0
    before = json.loads((folder / "report.json").read_text())
    assert _cli("sweep", "report", folder, limit=False)[0] == 0  # replaces its own files
    assert json.loads((folder / "report.json").read_text())["samples"] == before["samples"]
    assert _cli("sweep", spec_path, "--out", folder, "--resume", "--serial", limit=False)[0] == 0
    part_path(folder, 1).unlink()
    checksum_path(part_path(folder, 1)).unlink()
    code, lines = _cli("sweep", spec_path, "--out", folder, "--resume", "--serial", limit=False)
    assert code == 0, lines
    linked = tmp_path / "linked"
    linked.symlink_to(folder)
    assert _cli("sweep", "report", linked, limit=False)[0] == 0
    assert batch.read_sweep(linked).equals(batch.read_sweep(made[1]))
    _victim_untouched(victim)
