"""Body frames turned so that every joint axis is +z, for the per-degree-of-freedom kernels.

``Model.packed_dynamics`` turns the frame of each row placed by its own revolute,
prismatic or helical joint so that the axis is +z (``eslabon.model.reframe.axes_on_z``):
τ, M, q̈, C and the energies do not depend on where body frames point, so every kernel
must give the same numbers on the turned and the untouched array, to round-off.
"""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import layout as L
from eslabon.model.fold import fold_fixed
from eslabon.model.reframe import axes_on_z, axis_frame
from test_fixed_joints_folded import assert_same_dynamics

# no fixed joints (nothing folded: only the turning differs); H helical, U universal,
# L planar, S spherical, B free flyer, under and above revolute and prismatic joints
TREES = ["RPRRPR", "BRRPRR", "RSRURH", "RLRPRS"]


@pytest.mark.parametrize(
    "axis",
    [(1, 0, 0), (0, 1, 0), (0, 0, 1), (-1, 0, 0), (0, -1, 0), (0, 0, -1), (0.3, -0.5, 0.8)],
)
def test_axis_frame_is_a_rotation_whose_third_column_is_the_axis(axis):
    a = np.asarray(axis, dtype=float) / np.linalg.norm(axis)
    Q = axis_frame(a)
    np.testing.assert_allclose(Q.T @ Q, np.eye(3), atol=1e-15)
    assert np.linalg.det(Q) == pytest.approx(1.0, abs=1e-15)
    np.testing.assert_array_equal(Q[:, 2], a)
    if np.count_nonzero(a) == 1:  # a coordinate axis: a signed permutation, exact
        assert set(np.abs(Q).ravel()) == {0.0, 1.0}


@pytest.mark.parametrize("letters", TREES)
def test_turned_and_untouched_arrays_give_the_same_dynamics(letters):
    model = es.zoo.random_tree(3, letters, friction=True)
    P, F = fold_fixed(model.packed), model.packed_dynamics
    assert F is not P  # something was turned
    assert_same_dynamics(model, P, F, seed=4)


def test_which_rows_are_turned():
    """Rows placed by their own revolute, prismatic or helical value end on +z; rows
    placed by a quaternion and the rows inside a spherical joint keep their axes; a model
    whose axes are all +z (every DH model) keeps its array."""
    model = es.zoo.random_tree(5, "RSRPHR", friction=True)
    P, F = fold_fixed(model.packed), axes_on_z(fold_fixed(model.packed))
    for i in range(1, int(F[L.H_NB]) + 1):
        o = L.body_offset(i)
        axis = slice(o + L.AXIS, o + L.AXIS + 3)
        own = F[o + L.PLACE] == L.BY_AXIS and F[o + L.CFG] >= 0 and F[o + L.VIDX] >= 0
        if own and F[o + L.JTYPE] in (L.REVOLUTE, L.PRISMATIC, L.HELICAL):
            np.testing.assert_array_equal(F[axis], (0.0, 0.0, 1.0))
            assert F[o + L.Z_AXIS] == 1.0
        else:
            np.testing.assert_array_equal(F[axis], P[axis])
        assert F[o + L.MASS] == P[o + L.MASS]
    arm = es.zoo.load("puma560")
    assert axes_on_z(arm.packed) is arm.packed
