"""Configuration space (eslabon.model.configuration): integrate, difference and friends."""

from types import SimpleNamespace

import numpy as np
import pytest

from eslabon._engine.layout import (
    FIXED,
    FREE_FLYER,
    HELICAL,
    JOINT_NAMES,
    JOINT_NQ,
    JOINT_NV,
    PLANAR,
    PRISMATIC,
    REVOLUTE,
    SPHERICAL,
    UNIVERSAL,
)
from eslabon.model import configuration as cfg

ALL = [REVOLUTE, PRISMATIC, HELICAL, UNIVERSAL, PLANAR, SPHERICAL, FREE_FLYER, FIXED]


def make_model(types, name="stand-in"):
    """A duck-typed model with bodies 1..nb carrying ``types`` (body 0 the fixed world)."""
    jt = [FIXED] + list(types)
    qi, vi, nq, nv = [], [], 0, 0
    for t in jt:
        qi.append(nq if JOINT_NQ[t] else -1)
        vi.append(nv if JOINT_NV[t] else -1)
        nq, nv = nq + JOINT_NQ[t], nv + JOINT_NV[t]
    names = ("world",) + tuple(f"b{i}_{JOINT_NAMES[t]}" for i, t in enumerate(types, 1))
    return SimpleNamespace(
        joint_type=np.array(jt),
        q_index=np.array(qi),
        v_index=np.array(vi),
        nq=nq,
        nv=nv,
        body_names=names,
        name=name,
    )


def random_velocity(model, rng, max_angle=3.0):
    """A velocity whose rotation parts have norm below ``max_angle`` (< π)."""
    v = rng.uniform(-2.0, 2.0, model.nv)
    for i, t in enumerate(model.joint_type):
        if t in (SPHERICAL, FREE_FLYER):
            k = model.v_index[i] + (3 if t == FREE_FLYER else 0)
            w = rng.standard_normal(3)
            v[k : k + 3] = w / np.linalg.norm(w) * rng.uniform(0.0, max_angle)
    return v


def quat_slices(model):
    out = []
    for i, t in enumerate(model.joint_type):
        if t == SPHERICAL:
            out.append(slice(model.q_index[i], model.q_index[i] + 4))
        elif t == FREE_FLYER:
            out.append(slice(model.q_index[i] + 3, model.q_index[i] + 7))
    return out


def assert_same_configuration(model, a, b, tol):
    """Equal up to the sign of each quaternion."""
    a, b = np.array(a), np.array(b)
    for s in quat_slices(model):
        sign = np.sign(np.sum(a[..., s] * b[..., s], axis=-1, keepdims=True))
        b[..., s] *= sign
    np.testing.assert_allclose(a, b, rtol=0, atol=tol)


@pytest.fixture(params=range(6))
def mixed(request):
    rng = np.random.default_rng(request.param)
    types = list(rng.permutation(ALL)) + list(rng.choice(ALL, 4))
    return make_model(types), rng


# ---------------------------------------------------------------- identities
def test_difference_undoes_integrate(mixed):
    model, rng = mixed
    for _ in range(20):
        q = cfg.random_configuration(model, rng)
        v = random_velocity(model, rng)
        np.testing.assert_allclose(
            cfg.difference(model, q, cfg.integrate(model, q, v)), v, rtol=0, atol=1e-12
        )


def test_integrate_undoes_difference(mixed):
    model, rng = mixed
    for _ in range(20):
        q0 = cfg.random_configuration(model, rng)
        q1 = cfg.random_configuration(model, rng)
        back = cfg.integrate(model, q0, cfg.difference(model, q0, q1))
        assert_same_configuration(model, back, q1, 1e-12)


def test_dt_scales_the_velocity(mixed):
    model, rng = mixed
    q = cfg.random_configuration(model, rng)
    v = random_velocity(model, rng, 1.0)
    np.testing.assert_allclose(
        cfg.integrate(model, q, v, 0.3), cfg.integrate(model, q, 0.3 * v), rtol=0, atol=1e-14
    )
    np.testing.assert_allclose(cfg.integrate(model, q, v, 0.0), q, rtol=0, atol=1e-15)


def test_batches_broadcast_and_match_rows(mixed):
    model, rng = mixed
    Q = np.array([cfg.random_configuration(model, rng) for _ in range(5)])
    Q1 = np.array([cfg.random_configuration(model, rng) for _ in range(5)])
    V = np.array([random_velocity(model, rng) for _ in range(5)])
    out = cfg.integrate(model, Q, V, 0.5)
    assert out.shape == Q.shape
    for k in range(5):
        np.testing.assert_allclose(out[k], cfg.integrate(model, Q[k], V[k], 0.5), atol=1e-15)
    one_v = cfg.integrate(model, Q, V[0])
    for k in range(5):
        np.testing.assert_allclose(one_v[k], cfg.integrate(model, Q[k], V[0]), atol=1e-15)
    D = cfg.difference(model, Q, Q1)
    assert D.shape == (5, model.nv)
    for k in range(5):
        np.testing.assert_allclose(D[k], cfg.difference(model, Q[k], Q1[k]), atol=1e-15)
    assert cfg.difference(model, Q[0], Q1).shape == (5, model.nv)
    assert cfg.integrate(model, Q[0], V[0]).shape == (model.nq,)


def test_quaternions_stay_unit_over_many_steps():
    model = make_model([SPHERICAL, FREE_FLYER, REVOLUTE])
    rng = np.random.default_rng(7)
    q = cfg.random_configuration(model, rng)
    v = random_velocity(model, rng, 2.0)
    for _ in range(1000):
        q = cfg.integrate(model, q, v, 0.37)
    for s in quat_slices(model):
        assert abs(np.linalg.norm(q[s]) - 1.0) < 1e-12


def test_euclidean_joints_do_not_wrap():
    model = make_model([REVOLUTE, PLANAR, UNIVERSAL])
    q0 = np.zeros(model.nq)
    q1 = np.array([10.0, 0.5, -0.25, 7.0, -9.0, 4.0])
    np.testing.assert_array_equal(cfg.difference(model, q0, q1), q1)
    np.testing.assert_array_equal(cfg.integrate(model, q0, q1, 2.0), 2.0 * q1)


def test_spherical_velocity_is_in_body_coordinates():
    # a body first turned 90° about z, then spun about its own x: the joint-frame axis is y
    model = make_model([SPHERICAL])
    q = np.array([0.0, 0.0, np.sin(np.pi / 4), np.cos(np.pi / 4)])
    q1 = cfg.integrate(model, q, [0.3, 0.0, 0.0])
    R0, R1 = cfg.quaternion_to_rotation(q), cfg.quaternion_to_rotation(q1)
    # angular velocity in joint coordinates of R(t) = R0 exp(t [ωb]×) is R0 ωb
    rel = R1 @ R0.T
    axis_joint = np.array([rel[2, 1] - rel[1, 2], rel[0, 2] - rel[2, 0], rel[1, 0] - rel[0, 1]])
    np.testing.assert_allclose(axis_joint / np.linalg.norm(axis_joint), [0, 1, 0], atol=1e-14)


# ---------------------------------------------------------------- against Pinocchio
def test_against_pinocchio():
    pin = pytest.importorskip("pinocchio")
    joints = [
        (REVOLUTE, pin.JointModelRX()),
        (SPHERICAL, pin.JointModelSpherical()),
        (FREE_FLYER, pin.JointModelFreeFlyer()),
        (PRISMATIC, pin.JointModelPZ()),
        (SPHERICAL, pin.JointModelSpherical()),
    ]
    pm = pin.Model()
    parent = 0
    for k, (_, jm) in enumerate(joints):
        parent = pm.addJoint(parent, jm, pin.SE3.Identity(), f"j{k}")
    ours = make_model([t for t, _ in joints])
    assert (pm.nq, pm.nv) == (ours.nq, ours.nv)
    rng = np.random.default_rng(11)
    for _ in range(50):
        q0 = cfg.random_configuration(ours, rng)
        q1 = cfg.random_configuration(ours, rng)
        v = random_velocity(ours, rng, 3.1)
        np.testing.assert_allclose(
            cfg.integrate(ours, q0, v), pin.integrate(pm, q0, v), rtol=0, atol=1e-12
        )
        np.testing.assert_allclose(
            cfg.difference(ours, q0, q1), pin.difference(pm, q0, q1), rtol=0, atol=1e-12
        )


def test_quaternion_to_rotation_matches_pinocchio():
    pin = pytest.importorskip("pinocchio")
    rng = np.random.default_rng(3)
    quats = rng.standard_normal((20, 4))
    quats /= np.linalg.norm(quats, axis=1, keepdims=True)
    R = cfg.quaternion_to_rotation(quats)
    assert R.shape == (20, 3, 3)
    for q, r in zip(quats, R, strict=True):
        x, y, z, w = q
        np.testing.assert_allclose(r, pin.Quaternion(w, x, y, z).matrix(), atol=1e-15)


# ---------------------------------------------------------------- the Lie-group helpers
def test_exp3_log3_near_identity():
    phi = np.array([1e-9, -2e-9, 0.5e-9])
    q = cfg._exp3(phi)
    np.testing.assert_allclose(q[:3], phi / 2, rtol=1e-15, atol=0)
    assert abs(q[3] - 1.0) <= 1e-16
    np.testing.assert_allclose(cfg._log3(q), phi, rtol=1e-15, atol=0)
    np.testing.assert_array_equal(cfg._exp3(np.zeros(3)), [0, 0, 0, 1])
    np.testing.assert_array_equal(cfg._log3(np.array([0, 0, 0, 1.0])), np.zeros(3))
    # the series and the closed forms agree across their switch points
    for th in (0.99e-4, 1.01e-4, 0.99e-2, 1.01e-2):
        w = th * np.array([0.6, 0.0, 0.8])
        np.testing.assert_allclose(cfg._log3(cfg._exp3(w)), w, rtol=1e-15, atol=0)


def test_exp3_log3_near_pi():
    axis = np.array([1.0, 2.0, -2.0]) / 3.0
    for th in (np.pi - 1e-9, np.pi - 1e-6, np.pi):
        q = cfg._exp3(th * axis)
        assert abs(np.linalg.norm(q) - 1.0) < 1e-15
        np.testing.assert_allclose(cfg._log3(q), th * axis, rtol=0, atol=1e-14)
        # -q is the same rotation: the log is unchanged but for the exact half-turn
        if th < np.pi:
            np.testing.assert_allclose(cfg._log3(-q), th * axis, rtol=0, atol=1e-14)
    # past π the log returns the shorter rotation the other way round
    q = cfg._exp3((np.pi + 0.1) * axis)
    np.testing.assert_allclose(cfg._log3(q), -(np.pi - 0.1) * axis, rtol=0, atol=1e-14)


def test_exp6_log6_round_trip():
    rng = np.random.default_rng(5)
    for scale in (1e-9, 1e-3, 1e-2, 0.5, 3.0):
        xi = rng.standard_normal((30, 6))
        xi[:, 3:] *= scale / np.linalg.norm(xi[:, 3:], axis=1, keepdims=True)
        p, q = cfg._exp6(xi)
        np.testing.assert_allclose(cfg._log6(p, q), xi, rtol=0, atol=1e-13)
    # pure translation, and a half-turn screw
    np.testing.assert_allclose(cfg._exp6(np.array([1.0, 2, 3, 0, 0, 0]))[0], [1, 2, 3])
    p, q = cfg._exp6(np.array([0.0, 0.0, 1.0, 0.0, 0.0, np.pi]))
    np.testing.assert_allclose(p, [0, 0, 1], atol=1e-15)
    np.testing.assert_allclose(q, [0, 0, 1, 0], atol=1e-15)
    # a quarter turn about z with unit speed along body x traces a circle arc
    p, _ = cfg._exp6(np.array([1.0, 0.0, 0.0, 0.0, 0.0, np.pi / 2]))
    np.testing.assert_allclose(p, [2 / np.pi, 2 / np.pi, 0], atol=1e-15)


def test_quaternion_product_and_conjugate():
    rng = np.random.default_rng(9)
    a, b = (cfg._qunit(rng.standard_normal((10, 4))) for _ in range(2))
    Ra, Rb = cfg.quaternion_to_rotation(a), cfg.quaternion_to_rotation(b)
    np.testing.assert_allclose(cfg.quaternion_to_rotation(cfg._qmul(a, b)), Ra @ Rb, atol=1e-15)
    np.testing.assert_allclose(cfg._qmul(a, cfg._qconj(a)), np.tile([0, 0, 0, 1.0], (10, 1)))
    x = rng.standard_normal((10, 3))
    np.testing.assert_allclose(cfg._qrotate(a, x), np.einsum("nij,nj->ni", Ra, x), atol=1e-15)


# ---------------------------------------------------------------- neutral, random, normalize
def test_neutral():
    model = make_model([FREE_FLYER, REVOLUTE, SPHERICAL, FIXED, PLANAR])
    q = cfg.neutral(model)
    expected = np.zeros(model.nq)
    expected[[6, 11]] = 1.0
    np.testing.assert_array_equal(q, expected)
    np.testing.assert_array_equal(cfg.integrate(model, q, np.zeros(model.nv)), q)
    np.testing.assert_array_equal(cfg.difference(model, q, q), np.zeros(model.nv))


def test_random_configuration():
    model = make_model(ALL * 3)
    a = cfg.random_configuration(model, 42)
    np.testing.assert_array_equal(a, cfg.random_configuration(model, 42))
    np.testing.assert_array_equal(a, cfg.random_configuration(model, np.random.default_rng(42)))
    assert not np.array_equal(a, cfg.random_configuration(model, 43))
    assert cfg.random_configuration(model).shape == (model.nq,)
    for s in quat_slices(model):
        assert abs(np.linalg.norm(a[s]) - 1.0) < 1e-15
    cfg.check_configuration(model, a)
    # ranges: angles within ±π, lengths within ±1
    big = make_model([REVOLUTE, PRISMATIC, PLANAR, FREE_FLYER] * 50)
    qs = np.array([cfg.random_configuration(big, s) for s in range(20)])
    for i, t in enumerate(big.joint_type):
        k = big.q_index[i]
        if t == REVOLUTE:
            assert np.all(np.abs(qs[:, k]) <= np.pi)
        elif t == PRISMATIC:
            assert np.all(np.abs(qs[:, k]) <= 1.0)
        elif t == PLANAR:
            assert np.all(np.abs(qs[:, k : k + 2]) <= 1.0)
            assert np.all(np.abs(qs[:, k + 2]) <= np.pi)
        elif t == FREE_FLYER:
            assert np.all(np.abs(qs[:, k : k + 3]) <= 1.0)
    assert np.abs(qs).max() > 3.0  # angles do reach beyond the unit interval


def test_normalize():
    model = make_model([REVOLUTE, SPHERICAL, FREE_FLYER])
    q = cfg.random_configuration(model, 1)
    bad = q.copy()
    bad[1:5] *= 3.0
    bad[8:12] *= 0.5
    fixed = cfg.normalize(model, bad)
    np.testing.assert_allclose(fixed, q, atol=1e-15)
    assert bad[1] == 3.0 * q[1]  # a copy
    batch = cfg.normalize(model, np.stack([bad, 2 * bad]))
    np.testing.assert_allclose(batch[1, 1:5], q[1:5], atol=1e-15)
    bad[1:5] = 0.0
    with pytest.raises(ValueError, match="b2_spherical.*zero"):
        cfg.normalize(model, bad)


# ---------------------------------------------------------------- bad input
def test_check_configuration_names_the_joint_and_norm():
    model = make_model([REVOLUTE, FREE_FLYER], name="robot")
    q = cfg.neutral(model)
    cfg.check_configuration(model, q)
    q[7] = 1.01  # free-flyer w
    with pytest.raises(ValueError) as err:
        cfg.check_configuration(model, q, field="q_start")
    msg = str(err.value)
    assert "q_start" in msg and "b2_free_flyer" in msg and "1.01" in msg
    assert "eslabon.normalize" in msg
    cfg.check_configuration(model, q, tol=0.02)
    with pytest.raises(ValueError, match="b2_free_flyer"):
        cfg.integrate(model, q, np.zeros(model.nv))
    with pytest.raises(ValueError, match="q1.*row 1"):
        cfg.difference(model, cfg.neutral(model), np.stack([cfg.neutral(model), q]))


def test_wrong_lengths_name_both_sizes():
    model = make_model([FREE_FLYER])  # nq 7, nv 6
    with pytest.raises(ValueError, match=r"q: expected 7 numbers \(nq; .*nv = 6\), got 6"):
        cfg.integrate(model, np.zeros(6), np.zeros(6))
    with pytest.raises(ValueError, match=r"v: expected 6 numbers \(nv; .*nq = 7\), got 7"):
        cfg.integrate(model, cfg.neutral(model), np.zeros(7))
    with pytest.raises(ValueError, match=r"q1: expected 7 .*got rows of 6"):
        cfg.difference(model, cfg.neutral(model), np.zeros((3, 6)))
    with pytest.raises(ValueError, match="q: expected 7"):
        cfg.check_configuration(model, np.zeros(8))
    with pytest.raises(ValueError, match="q: expected 7"):
        cfg.normalize(model, np.zeros(3))
    with pytest.raises(ValueError, match=r"shape \(2, 2, 7\)"):
        cfg.integrate(model, np.zeros((2, 2, 7)), np.zeros(6))
    with pytest.raises(ValueError, match="batch sizes differ"):
        cfg.integrate(model, np.tile(cfg.neutral(model), (3, 1)), np.zeros((2, 6)))


def test_non_finite_refused():
    model = make_model([REVOLUTE, SPHERICAL])
    q, v = cfg.neutral(model), np.zeros(model.nv)
    nan_q = q.copy()
    nan_q[0] = np.nan
    for call, field in [
        (lambda: cfg.integrate(model, nan_q, v), "q"),
        (lambda: cfg.integrate(model, q, [0.0, np.inf, 0.0, 0.0]), "v"),
        (lambda: cfg.difference(model, q, nan_q), "q1"),
        (lambda: cfg.normalize(model, nan_q), "q"),
        (lambda: cfg.check_configuration(model, nan_q, field="qq"), "qq"),
        (lambda: cfg.integrate(model, q, v, np.nan), "dt"),
        (lambda: cfg.integrate(model, ["a"] * model.nq, v), "q"),
    ]:
        with pytest.raises(ValueError, match=f"^{field}:"):
            call()
    with pytest.raises(ValueError, match="quat"):
        cfg.quaternion_to_rotation(np.zeros(3))
