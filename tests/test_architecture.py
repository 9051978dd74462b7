"""The layers of docs/architecture.md, checked on the sources (no import is run).

Every ``import`` and ``from … import`` of every module under ``src/eslabon`` (function-level
ones included) is read with :mod:`ast`. The module graph must have no circle, every import
across packages must go down the layer table below, the engine must import nothing else of
eslabon, no module outside the joint dispatcher and model building may branch on a joint
type, and none outside the kernels and their drivers may read a kernel workspace by
column.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "eslabon"

# lowest first; a package may import only from its own layer's package or lower layers
LAYERS = [
    {"_engine"},
    {"_args"},
    {"_deprecation"},
    {"conventions", "_yaml", "_files"},
    {"spatial"},
    {"model"},
    {"zoo", "kinematics"},
    {"dynamics", "trajectory"},
    {"constraints"},
    {"sim"},
    {"control", "mobile"},
    {"identification"},
    {"interop", "viz", "batch", "loader"},
    {"robots", "practica"},
    {"bench", "warmup", "reproduce"},
    {"cli"},
    {"__main__"},
]
# eslabon/__init__.py, the public face: its names load lazily from any layer, and only the
# layers above the algorithms (12 and up: interop, viz, …) use it instead of the modules
FACE = "(root)"
FACE_USERS = 12
LAYER = {pkg: k for k, layer in enumerate(LAYERS) for pkg in layer}


def _modules() -> dict:
    mods = {}
    for path in SRC.rglob("*.py"):
        parts = ("eslabon",) + path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = path
    return mods


MODULES = _modules()


def _imports(module: str) -> set:
    path = MODULES[module]
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for alias in node.names:
                name = f"{base}.{alias.name}"
                found.add(name if name in MODULES else base)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {m for m in found if m in MODULES and m != module}


GRAPH = {m: _imports(m) for m in MODULES}


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "(root)"


def _cycles(graph: dict) -> list:
    """Strongly connected components with more than one module (Tarjan)."""
    index, low, stack, on_stack, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_sources_were_read():
    assert len(MODULES) > 100
    assert "eslabon._engine.joints" in GRAPH["eslabon.dynamics.rnea"]


def test_no_import_circle():
    assert _cycles(GRAPH) == []


def test_every_package_is_in_a_layer():
    assert {_package(m) for m in MODULES} - {FACE} <= set(LAYER)


# The one allowed upward edge: Trajectory.plot() hands over to the plotting layer when
# called (a lazy import of the optional viz extra), as users of a notebook expect of a
# trajectory object (issue "See the robot").
ALLOWED_UPWARD = {("eslabon.sim.trajectory", "eslabon.viz.plots")}


def test_no_upward_import():
    upward = [
        f"{a} -> {b}"
        for a, targets in GRAPH.items()
        for b in targets
        if FACE not in (_package(a), _package(b))
        and (a, b) not in ALLOWED_UPWARD
        and (
            LAYER[_package(b)] > LAYER[_package(a)]
            or (LAYER[_package(b)] == LAYER[_package(a)] and _package(a) != _package(b))
        )
    ]
    assert upward == []


def test_only_the_top_layers_use_the_public_face():
    users = [
        a
        for a, targets in GRAPH.items()
        if "eslabon" in targets and _package(a) != FACE and LAYER[_package(a)] < FACE_USERS
    ]
    assert users == []


def test_the_engine_imports_nothing_else_of_eslabon():
    outside = [
        f"{a} -> {b}"
        for a, targets in GRAPH.items()
        if _package(a) == "_engine"
        for b in targets
        if _package(b) != "_engine"
    ]
    assert outside == []


# what the joint dispatcher alone may read: joint-type codes, placement codes, the joint
# fields of the packed layout and the joint tuple's, the size tables by type, kind
# predicates, the floating base's rows by number (`i == 6`), or a joint type compared
# with a number. Every shape the first engine step's pattern missed is in the list below.
_JOINT_BRANCH = re.compile(
    r"\b(JTYPE|Z_AXIS|PRISMATIC|REVOLUTE|FIXED|HELICAL|UNIVERSAL|PLANAR|SPHERICAL"
    r"|FREE_FLYER|PLACE|BY_AXIS|BY_QUATERNION|BY_POSE|JOINT_NV|JOINT_NQ|JOINT_CODES"
    r"|J_(TYPE|AXIS|AXIS_END|Z_AXIS|PLACE|CFG|PITCH|ROT|ROT_END|POS|POS_END))\b"
    r"|\b(by_quaternion|is_angle|floating_base|joint_rows)\(|\bJOINT_KINDS\b"
    r"|\bj\[\d+\]|\bP\[o \+ \d+\]|\brow_offset\([1-6]\)|\b[bp]\s*==\s*6\b"
    r"|\bi\s*(==|<|<=|>|>=)\s*[67]\b|\b1 < i < 7\b"
    r"|joint_type(\[[^\]]*\])?\s*[!=<>]=?\s*\d"
)
# modules that describe joints rather than run an algorithm over them: the dispatcher
# (compiled and numpy halves, the quaternion joints' tangent maps, the floating base
# taken before and after the body loop), the packed layout, the Pinocchio bridge (model
# building, the packages `model` and `conventions`, is not scanned)
_DESCRIBE_JOINTS = {
    "eslabon._engine.joints",
    "eslabon._engine.joint_types",
    "eslabon._engine.joint_tangent",
    "eslabon._engine.floating_base",
    "eslabon._engine.layout",
    "eslabon.interop.pinocchio",
}
# lines the first engine step's pattern did not see, each a joint-kind branch
_MISSED_BEFORE = [
    "if base and i == 6:",
    "if base and 1 < i < 7:",
    "elif by_quaternion(jnt):  # out of line",
    "if P[o + PLACE] != BY_AXIS:",
    "group_end = i + (2 if P[o + PLACE] == BY_QUATERNION else 5)",
    "if kind == SPHERICAL:",
    "sizes = [JOINT_NV[int(t)] for t in model.joint_type]",
    "base = floating_base(P, extended)",
    "if is_angle(joint(P, o), extended):",
    "if j[J_PLACE] != BY_AXIS:",
    "np.flatnonzero(model.joint_type == FREE_FLYER)",
    "if model.joint_type == 7:",
    "o = row_offset(6)",
    "if b == 6:",
    "kind = JOINT_KINDS[int(t)]",
    "t = j[18]",
    "x = P[o + 19]",
]
# lines that are not joint-kind branches
_NOT_BRANCHES = [
    "first = first_loop_row(P, extended)",
    "E, r = row_placement(P, o, jnt, qi, q, cq, extended, qh)",
    "axis, angle = axis_angle(R @ T[:3, :3].T)",
    "for i in range(first, nb + 1):",
    "x = q[i - 6]",
]


@pytest.mark.parametrize("line", _MISSED_BEFORE)
def test_the_joint_branch_pattern_sees_what_it_missed(line):
    assert _JOINT_BRANCH.search(line)


@pytest.mark.parametrize("line", _NOT_BRANCHES)
def test_the_joint_branch_pattern_passes_other_lines(line):
    assert not _JOINT_BRANCH.search(line)


# every package but model building's (and the describing modules above)
_SCANNED = sorted(set(LAYER) - {"model", "conventions"})


# The one question a recursion still asks of a row's kind, each in one line: whether a
# quaternion places the row, to call its placement out of line (joints.by_quaternion).
# Asked through a helper given the arrays instead, it cost a reference-count round trip
# per row; through a separately compiled call, a call per row (Newton–Euler of a Solo 12
# 14 % and 40 % slower, docs/performance.md).
_OUT_OF_LINE = "if by_quaternion(jnt):"
_ASKS_OUT_OF_LINE = {
    "eslabon._engine.outward_pass",
    "eslabon.dynamics.rnea",
    "eslabon.dynamics.aba",
    "eslabon.dynamics.composite_rigid_body",
    "eslabon.dynamics.derivatives",
    "eslabon.dynamics.regressor_kernel",
}


def _branches(package):
    return [
        (m, line.split("#")[0].strip())
        for m, path in MODULES.items()
        if _package(m) == package and m not in _DESCRIBE_JOINTS
        for line in path.read_text(encoding="utf-8").splitlines()
        if _JOINT_BRANCH.search(line.split("#")[0])
    ]


@pytest.mark.parametrize("package", _SCANNED)
def test_no_joint_type_branch_outside_the_dispatcher(package):
    hits = [
        f"{m}: {line}"
        for m, line in _branches(package)
        if not (m in _ASKS_OUT_OF_LINE and line == _OUT_OF_LINE)
    ]
    assert hits == []


def test_each_recursion_asks_the_out_of_line_question_once():
    asked = [m for p in _SCANNED for m, line in _branches(p) if line == _OUT_OF_LINE]
    assert sorted(asked) == sorted(_ASKS_OUT_OF_LINE)


# the kinematic recursion's workspace columns: read by the compiled kernels, their drivers
# and the one wrapper that names them (eslabon.kinematics.KinematicPass), by nothing else
_WORKSPACE_READERS = {
    "eslabon._engine.outward_pass",
    "eslabon.kinematics.drivers",
    "eslabon.kinematics.entries",
    "eslabon.kinematics.frame_jacobian",
    "eslabon.kinematics.kinematic_pass",
    "eslabon.kinematics.task_kernels",
    "eslabon.kinematics.task_batches",
    "eslabon.dynamics.rnea",
    "eslabon.dynamics.energy",
    "eslabon.dynamics.coriolis",
    "eslabon.dynamics.drivers",
    "eslabon.dynamics.batch_drivers",
    "eslabon.dynamics.derivative_drivers",
    "eslabon.dynamics.opcount_instrumented",
    "eslabon.dynamics.regressor_kernel",
    "eslabon.sim.rk4",
}


def test_workspace_columns_stay_with_the_kernels():
    readers = {
        m
        for m, path in MODULES.items()
        if re.search(r"\bWS_[A-Z]+", path.read_text(encoding="utf-8"))
    }
    assert readers <= _WORKSPACE_READERS


def test_interop_bridges_load_on_attribute_access():
    """``es.interop.pinocchio.to_pinocchio`` as the README writes it, after ``import
    eslabon`` alone; importing eslabon (and eslabon.interop) loads no bridge nor
    pinocchio."""
    import subprocess
    import sys

    code = (
        "import sys, eslabon as es\n"
        "es.interop\n"
        "assert 'pinocchio' not in sys.modules and 'eslabon.interop.pinocchio' not in sys.modules\n"
        "assert 'pinocchio' in dir(es.interop)\n"
        "assert callable(es.interop.pinocchio.to_pinocchio)\n"
        "assert 'pinocchio' not in sys.modules\n"
        "try:\n    es.interop.mujoco\nexcept AttributeError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "module 'eslabon.interop' has no attribute 'mujoco'"
