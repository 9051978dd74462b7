"""A new joint type made of the existing row motions is one entry of the joint-kind table.

docs/architecture.md ("A new joint type") lists the files a new joint type touches: for
one made of the kernels' row motions (fixed, revolute, prismatic, helical rows), its
entry in ``_engine/layout.py``'s joint-kind table and nothing else. This test writes such
a type in a scratch module of its own, outside the package: a cylindrical joint (a slide
along an axis, then a turn about it; nq = nv = 2, Featherstone, *Rigid Body Dynamics
Algorithms*, Table 4.1), registers it, and runs the identity web on a robot that uses it:

- :func:`eslabon.crosscheck`: every formulation agrees with its reference, or refuses
  the joint with its reason (none fails);
- the robot equals, output for output, the same robot built from the existing types (a
  massless body on a prismatic joint, then the body on a revolute joint about the same
  axis): its packed rows are those, so inverse dynamics, the mass matrix, forward
  dynamics and the derivatives are equal bit for bit on this machine;
- its configuration is a vector (integrate is q + v dt) and its units are what the entry
  says.
"""

from __future__ import annotations

import importlib.util
import textwrap

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import layout
from eslabon.model import ModelBuilder

SCRATCH = '''
"""A scratch joint type: cylindrical, a slide along the axis then a turn about it."""
from eslabon._engine.layout import (
    BY_AXIS, PRISMATIC, REVOLUTE, JointKind, register_joint_kind, unregister_joint_kind,
)

CYLINDRICAL = 40

def rows(axis, axis2):
    return [(PRISMATIC, tuple(axis), BY_AXIS, 0), (REVOLUTE, tuple(axis), BY_AXIS, 1)]

KIND = JointKind(CYLINDRICAL, "cylindrical", "C", 2, 2, rows, ("m", "rad"), axes=1)

def register():
    register_joint_kind(KIND)

def unregister():
    unregister_joint_kind(CYLINDRICAL)
'''

_AXIS = np.array([0.3, -0.5, 0.8]) / np.linalg.norm([0.3, -0.5, 0.8])
_ROT = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
_INERTIA = np.diag([0.02, 0.03, 0.025])


@pytest.fixture
def cylindrical(tmp_path):
    """The scratch module, imported from a file of its own and registered; taken out of
    the tables afterwards."""
    path = tmp_path / "scratch_cylindrical.py"
    path.write_text(textwrap.dedent(SCRATCH), encoding="utf-8")
    spec = importlib.util.spec_from_file_location("scratch_cylindrical", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.register()
    yield module
    module.unregister()


def _arm(joint, split=False):
    """Revolute, then ``joint`` (cylindrical, or with ``split`` a massless prismatic body
    and a revolute one), then revolute, with friction and armature."""
    b = ModelBuilder()
    b.add_body(0, "R", axis=(0, 0, 1), mass=1.5, com=(0.1, 0, 0.05), inertia=_INERTIA,
               viscous=0.1, armature=0.01)  # fmt: skip
    common = dict(mass=2.0, com=(0.05, 0.1, 0.2), inertia=_INERTIA, viscous=0.2, armature=0.02)
    if split:
        b.add_body(1, "P", axis=_AXIS, rotation=_ROT, translation=(0.3, 0, 0.1), viscous=0.2,
                   armature=0.02)  # fmt: skip
        b.add_body(2, "R", axis=_AXIS, **common)
    else:
        b.add_body(1, joint, axis=_AXIS, rotation=_ROT, translation=(0.3, 0, 0.1), **common)
    b.add_body(3 if split else 2, "R", axis=(1, 0, 0),
               translation=(0, 0.4, 0), mass=0.8, com=(0, 0.2, 0), inertia=_INERTIA)  # fmt: skip
    return b.build()


def test_the_scratch_type_is_one_entry_in_every_table(cylindrical):
    code = cylindrical.CYLINDRICAL
    assert layout.JOINT_NAMES[code] == "cylindrical"
    assert layout.JOINT_CODES["cylindrical"] == code
    assert (layout.JOINT_NQ[code], layout.JOINT_NV[code]) == (2, 2)
    m = _arm("cylindrical")
    assert m.nq == m.nv == 4
    assert m.joint_letters == "RCR"
    from eslabon._engine.joint_types import coordinate_units, subspace

    assert coordinate_units(code) == ("m", "rad")
    S = subspace(code, _AXIS)
    assert np.array_equal(S, np.vstack([np.column_stack([0 * _AXIS, _AXIS]),
                                        np.column_stack([_AXIS, 0 * _AXIS])]))  # fmt: skip


def test_messages_name_the_types_from_the_table(cylindrical):
    """Which types take a pitch or a second axis is read from the table: the scratch
    type is named as the joint that has none."""
    b = ModelBuilder()
    with pytest.raises(ValueError, match=r"a cylindrical joint has no pitch \(joints with one: "
                                         r"helical\)"):  # fmt: skip
        b.add_body(0, "cylindrical", axis=_AXIS, pitch=0.1, mass=1.0, inertia=_INERTIA)
    with pytest.raises(ValueError, match=r"a cylindrical joint has no second axis \(joints "
                                         r"with one: universal\)"):  # fmt: skip
        b.add_body(0, "cylindrical", axis=_AXIS, axis2=_AXIS, mass=1.0, inertia=_INERTIA)


def test_the_identity_web_holds_on_the_scratch_type(cylindrical):
    m = _arm("cylindrical")
    report = es.crosscheck(m, seed=3)
    assert report.ok, report.failures()
    ran = {c.name for c in report.checks if not c.skipped}
    # the numpy spatial-operator forms, built from the type's S (joint_types.subspace),
    # against the compiled Newton–Euler and Walker–Orin 3; ABA; the identities
    assert {
        "operator M q̈ + ξ (seeds 002/004)",
        "operator Hᵀ ρ I ρᵀ H",
        "ABA round trip to q̈",
        "Walker-Orin 1 (NE columns)",
        "energy rate dE/dt",
        "Ṁ − 2C skew-symmetric",
    } <= ran


def _parts(x):
    return x if isinstance(x, tuple) else (x,)


def test_the_scratch_type_equals_its_rows_built_from_existing_types(cylindrical):
    m, ref = _arm("cylindrical"), _arm(None, split=True)
    assert m.nv == ref.nv == 4
    # the kernels see rows: the type's are those of the two bodies, record for record
    assert np.array_equal(m.packed_dynamics, ref.packed_dynamics)
    rng = np.random.default_rng(7)
    q, qd, qdd = rng.uniform(-1, 1, (3, 11, 4))
    for f, args in [
        (es.inverse_dynamics, (q, qd, qdd)),
        (es.mass_matrix, (q,)),
        (es.forward_dynamics, (q, qd, qdd)),
        (es.inverse_dynamics_derivatives, (q, qd, qdd)),
        (es.coriolis_matrix, (q, qd)),
    ]:
        for batch in (True, False):
            a = args if batch else tuple(x[0] for x in args)
            got, want = f(m, *a), f(ref, *a)
            for x, y in zip(_parts(got), _parts(want), strict=True):
                assert np.array_equal(x, y), f.__name__


def test_the_scratch_type_is_a_vector_configuration(cylindrical):
    m = _arm("cylindrical")
    q = np.array([0.1, 0.2, -0.3, 0.4])
    v = np.array([1.0, -2.0, 0.5, 0.25])
    assert np.array_equal(es.integrate(m, q, v, 0.1), q + v * 0.1)
    assert np.allclose(es.difference(m, q, q + v), v, rtol=0, atol=1e-15)


def test_an_unregistered_type_is_a_clear_error():
    b = ModelBuilder()
    with pytest.raises(ValueError, match=r"\.joint: expected .* got 'cylindrical'"):
        b.add_body(0, "cylindrical", axis=(0, 0, 1), mass=1.0)
