"""PUMA 560 of seed 003 (Araujo 2012), Annex 3, Tables A.4–A.7, with the modified DH of
Annex 1, (A.1)–(A.2)."""

import numpy as np
import pytest

import eslabon as es

pytestmark = pytest.mark.source("Araujo (2012)", "Annex 3, Tables A.4–A.7; (A.1)–(A.2)")


def test_araujo_frames_and_coms_at_zero():
    """(A.1)–(A.2) read literally with Tables A.4 and A.7 (positions computed from them,
    not printed): at q = 0, O3 = (0.4318, 0.14909, 0), O4 = (0.41148, 0.14909, 0.4318),
    G2 = (0.1398, 0.14909, 0), G3 = (0.43148, 0.14909, 0.197): the usual PUMA "L" pose
    with every centre of mass inside its link."""
    m = es.zoo.load("puma560_araujo")
    poses = es.kinematics.frame_poses(m, np.zeros(6))
    np.testing.assert_allclose(poses["dh3"][:3, 3], [0.4318, 0.14909, 0], atol=1e-12)
    np.testing.assert_allclose(poses["dh4"][:3, 3], [0.41148, 0.14909, 0.4318], atol=1e-12)
    body = es.forward_kinematics(m, np.zeros(6))
    for i, G in ((2, [0.1398, 0.14909, 0]), (3, [0.43148, 0.14909, 0.197])):
        np.testing.assert_allclose(body[i, :3, :3] @ m.com[i] + body[i, :3, 3], G, atol=1e-12)
    assert abs(m.mass[1:].sum() - 37.524) < 1e-12  # Table A.5 total
