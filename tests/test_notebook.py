"""The example notebook runs from top to bottom in a fresh kernel (nbclient), as a user
would run it: load a URDF, simulate, plot (inline figures), view (the inline viewer)."""

import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")
pytest.importorskip("trimesh")

NOTEBOOK = Path(__file__).resolve().parents[1] / "examples" / "urdf_in_a_notebook.ipynb"


def test_the_notebook_runs_and_shows_figures_and_the_viewer(tmp_path):
    if not any(
        (Path(p) / "cmeel.prefix" / "share" / "example-robot-data").is_dir() for p in sys.path
    ):
        pytest.skip("example-robot-data is not installed")
    nb = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    ).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    images = [o for o in outputs if "image/png" in o.get("data", {})]
    assert len(images) == 2  # traj.plot() and plot_overview, drawn inline
    pages = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    assert len(pages) == 1 and "<iframe" in pages[0] and "eslabonViewer" in pages[0]
