"""Modules renamed to say what they compute keep their old names for one release: importing
an old path warns (DeprecationWarning, naming the new module) and gives the new module's
objects; eslabon itself imports none of them."""

from __future__ import annotations

import ast
import importlib
import os
import subprocess
import sys
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"

RENAMED = {
    "eslabon.dynamics.walker_orin": "eslabon.dynamics.composite_rigid_body",
    "eslabon.dynamics.cholesky_fd": "eslabon.dynamics.cholesky_forward_dynamics",
    "eslabon.dynamics.soa_body": "eslabon.dynamics.newton_euler_body_frames",
    "eslabon.dynamics._opcount_probe": "eslabon.dynamics.opcount_instrumented",
    "eslabon.mobile.martinenko": "eslabon.mobile.steered_cart",
    "eslabon.mobile.sheth_uicker": "eslabon.mobile.wheel_kinematics",
    "eslabon.mobile.thesis": "eslabon.mobile.one_way_coupling",
}


def _public(module) -> dict:
    return {k: v for k, v in vars(module).items() if not k.startswith("_")}


@pytest.mark.parametrize("old", sorted(RENAMED))
def test_the_old_path_warns_and_gives_the_new_objects(old):
    new = importlib.import_module(RENAMED[old])
    sys.modules.pop(old, None)
    with pytest.warns(DeprecationWarning, match=f"{old} is deprecated.*; use {RENAMED[old]}"):
        shim = importlib.import_module(old)
    public = _public(new)
    assert public and all(getattr(shim, k) is v for k, v in public.items())
    private = [k for k in vars(new) if k.startswith("_") and not k.startswith("__")]
    assert all(getattr(shim, k) is getattr(new, k) for k in private)


@pytest.mark.parametrize(
    "old", [k.rsplit(".", 1)[1] for k in RENAMED if k.startswith("eslabon.mobile.")]
)
def test_the_old_names_as_attributes_of_eslabon_mobile_warn(old):
    import eslabon.mobile as mb

    new = RENAMED[f"eslabon.mobile.{old}"]
    for name in RENAMED:  # an old module imported before is an attribute already
        if name.startswith("eslabon.mobile."):
            sys.modules.pop(name, None)
            mb.__dict__.pop(name.rsplit(".", 1)[1], None)
    with pytest.warns(DeprecationWarning, match=f"eslabon.mobile.{old} is deprecated.*; use {new}"):
        module = getattr(mb, old)
    assert module is importlib.import_module(new)
    assert old not in mb.__all__ and new.rsplit(".", 1)[1] in dir(mb)


def test_eslabon_imports_no_old_name():
    """No module of eslabon imports an old path (read with ast, function-level imports
    included), nor reads one from eslabon.mobile."""
    old_leaves = {name.rsplit(".", 1)[1] for name in RENAMED}
    found = []
    for path in (SRC / "eslabon").rglob("*.py"):
        module = ".".join(path.relative_to(SRC).with_suffix("").parts)
        if module in RENAMED:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.Attribute) and node.attr in ("martinenko", "sheth_uicker"):
                names = [node.attr]
            else:
                continue
            if any(part in old_leaves for n in names for part in n.split(".")):
                found.append(f"{module}: line {node.lineno}")
    assert found == []


def test_the_old_opcount_probe_still_runs_as_a_script():
    code = "import runpy, sys; sys.argv[1:] = ['rnea', '1']; "
    code += "runpy.run_module('eslabon.dynamics._opcount_probe', run_name='__main__')"
    done = subprocess.run(
        [sys.executable, "-W", "always::DeprecationWarning", "-c", code],
        env=dict(os.environ, NUMBA_DISABLE_JIT="1"),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert '"1": {"mul"' in done.stdout
    assert "use eslabon.dynamics.opcount_instrumented" in done.stderr


# the names docs/sources.md cites each document by
DOCUMENTS = ("Rojas (1987)", "Práctica 3", "Jaramillo Botero (1998)", "Araujo (2012)")


def test_the_documents_are_cited_as_docs_sources_md_cites_them():
    text = (SRC.parent / "docs" / "sources.md").read_text(encoding="utf-8")
    assert all(f'"{d}"' in text or f"*{d}*" in text for d in DOCUMENTS)


@pytest.mark.parametrize("new", sorted(RENAMED.values()))
def test_the_first_docstring_line_cites_a_document_and_where(new):
    """The first line of a renamed module says what it computes, from which document and
    where in it (section, equation, figure or table)."""
    first = importlib.import_module(new).__doc__.splitlines()[0]
    assert any(d in first for d in DOCUMENTS), first
    assert any(w in first for w in ("§", "eq", "Figure", "Table", "Steps", "(1.")), first


def test_every_source_marker_names_a_document():
    tests = Path(__file__).parent
    marked = 0
    for path in tests.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "source"
                and ast.unparse(node.func.value) == "pytest.mark"
            ):
                document, where = (ast.literal_eval(a) for a in node.args)
                assert document in DOCUMENTS and where, f"{path.name}: {document!r}"
                marked += 1
    assert marked >= 10
