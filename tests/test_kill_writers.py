"""Kill every writer mid-write (issue "Nothing silently wrong"): a process rewrites one file
over and over, each version tagged with its number, and is killed with SIGKILL at random
moments. After each kill the file is the last complete version or the one after it, never
a torn one, and nothing else is left in the folder but, at most, one named temporary of
eslabon's own form: ``atomic_path`` writes under such a name, and ``atomic_file`` shows one
for the instant between linking its complete anonymous file and renaming it over the
target (that one holds the next version, complete). A later process's first write into
the folder removes what a killed writer left."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import eslabon as es

SRC = str(Path(es.__file__).resolve().parents[1])
KILLS = 4

# name -> (file name, code writing version k to PATH, reading it back gives k)
WRITERS = {
    "trajectory_npz": (
        "traj.npz",
        """
        base = es.simulate(es.zoo.load("planar2"), 0.01, 0.01)
        K = 150_000
        def write(k):
            z = np.full((K, 2), float(k))
            es.Trajectory(np.arange(K) * 1e-3, z, z, z, z, f"v{k}").save(PATH)
        """,
    ),
    "trajectory_csv": (
        "traj.csv",
        """
        K = 8_000
        def write(k):
            z = np.full((K, 2), float(k))
            es.Trajectory(np.arange(K) * 1e-3, z, z, z, z, f"v{k}").save(PATH)
        """,
    ),
    "model_yaml": (
        "arm.yaml",
        """
        chain = es.zoo.random_chain(60, seed=1)
        def write(k):
            es.model.save_model(chain.replace(name=f"v{k}"), PATH)
        """,
    ),
    "urdf": (
        "arm.urdf",
        """
        chain = es.zoo.random_chain(60, seed=1)
        def write(k):
            es.model.to_urdf(chain.replace(name=f"v{k}"), PATH)
        """,
    ),
    "figure_png": (
        "fig.png",
        """
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from eslabon._files import savefig_atomic
        fig, ax = plt.subplots(figsize=(12, 9))
        ax.plot(np.random.default_rng(0).standard_normal((4000, 20)))
        def write(k):
            savefig_atomic(fig, PATH, dpi=150, metadata={"Title": f"v{k}"})
        """,
    ),
    "viewer_html": (
        "view.html",
        """
        model = es.zoo.load("puma560")
        traj = es.simulate(model, 0.6, 0.001)
        def write(k):
            es.viz.write_viewer(model, traj, PATH, title=f"v{k}")
        """,
    ),
    "animation_gif": (
        "robot.gif",
        """
        from eslabon._files import atomic_path
        from PIL import Image
        frames = [Image.new("L", (300, 300), c) for c in range(0, 250, 10)]
        def write(k):
            with atomic_path(PATH) as tmp:
                frames[0].save(tmp, save_all=True, append_images=frames[1:],
                               comment=f"v{k}".encode())
        """,
    ),
}


def _version(name: str, path: Path) -> int:
    """The version number a complete file holds (any torn file fails here)."""
    if name.startswith("trajectory"):
        t = es.Trajectory.load(path)
        k = t.q[0, 0]
        assert np.all(t.q == k) and np.all(t.tau == k)
        assert len(t.t) == (150_000 if name.endswith("npz") else 8_000)
        return int(k)
    if name in ("model_yaml", "urdf"):
        m = es.load_model(path)
        assert m.nq == 60
        return int(m.name[1:])
    if name == "figure_png":
        from PIL import Image

        with Image.open(path) as im:
            im.load()
            return int(im.info["Title"][1:])
    if name == "viewer_html":
        text = path.read_text()
        assert text.rstrip().endswith("</html>")
        return int(text.split("<title>", 1)[1].split("<", 1)[0].strip()[1:])
    from PIL import Image

    with Image.open(path) as im:
        assert im.n_frames == 25
        im.seek(24)
        im.load()
        return int(im.info["comment"].decode()[1:])


def _child(name: str, path: Path):
    body = textwrap.dedent(WRITERS[name][1])
    code = (
        "import itertools, sys, numpy as np, warnings\nwarnings.simplefilter('ignore')\n"
        f"import eslabon as es\nimport eslabon.viz\nPATH = {str(path)!r}\n{body}\n"
        "for k in itertools.count():\n    write(k)\n    print(k, flush=True)\n"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": SRC, "ESLABON_COMPILE_NOTICE": "0"},
        text=True,
    )


def _strays(folder: Path, path: Path) -> list:
    """What is in ``folder`` besides ``path``; each must be a temporary of eslabon's form
    for ``path`` (``_files._our_temporary``), never anything else."""
    from eslabon._files import _our_temporary

    left = sorted(p.name for p in folder.iterdir() if p.name != path.name)
    for n in left:
        m = _our_temporary(n)
        assert m is not None and m["target"] == path.name, left
    return left


@pytest.mark.parametrize("name", list(WRITERS))
def test_a_killed_writer_leaves_a_complete_file_and_nothing_else(name, tmp_path):
    rng = random.Random(name)
    path = tmp_path / WRITERS[name][0]
    for _ in range(KILLS):
        proc = _child(name, path)
        done = int(proc.stdout.readline())  # one complete version exists
        time.sleep(rng.uniform(0.0, 0.8))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        reported = [int(x) for x in proc.stdout.read().split()]
        done = max([done] + reported)
        k = _version(name, path)
        assert k in (done, done + 1), (k, done)  # the last complete one, or the next
        # at most one temporary per killed process (the next process removes it first);
        # atomic_file's is the next version, complete, killed before its rename
        strays = _strays(tmp_path, path)
        assert len(strays) <= 1, strays
        if strays and name != "animation_gif":
            assert k == done and _version(name, tmp_path / strays[0]) == done + 1, strays
    before = _strays(tmp_path, path)
    proc = _child(name, path)  # a later process's first write into the folder ...
    proc.stdout.readline()
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    _version(name, path)
    after = _strays(tmp_path, path)
    assert not set(before) & set(after), (before, after)  # ... removed what was left
    assert len(after) <= 1, after  # only what this last kill may have left
