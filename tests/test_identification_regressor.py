"""The joint-torque, static and energy regressors of eslabon.identification: τ = Y π
against inverse dynamics, linearity on non-physical π, and Pinocchio's regressors."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon._engine.lanes import WIDTH
from eslabon._engine.layout import COM_SLIDE, H_NB, HEADER, STRIDE
from eslabon._engine.status import WRONG_SHAPE
from eslabon.dynamics.regressor_kernel import STREAM_BYTES, pack_regressor, regressor_one
from eslabon.identification import (
    joint_torque_regressor,
    kinetic_energy_regressor,
    parameter_count,
    parameter_names,
    parameters,
    potential_energy_regressor,
    static_regressor,
    with_parameters,
)
from eslabon.identification.parameters import joint_columns
from eslabon.identification.regressor import packed_regressor, reference_regressor

TREE_MODELS = tuple(n for n in es.zoo.names() if not es.zoo.load(n).constraints)
TREES = ("RFPRRFPRR", "BRRSRPRU", "RHULSPRFR", "BSFUHLRP", "SSFRR")


def _rel(a, b):
    return float(np.max(np.abs(a - b)) / max(1.0, np.max(np.abs(b))))


def _state(model, rng, n=None):
    if n is None:
        return es.random_configuration(model, rng), *rng.uniform(-1, 1, (2, model.nv))
    q = np.stack([es.random_configuration(model, rng) for _ in range(n)])
    return q, *rng.uniform(-1, 1, (2, n, model.nv))


def _mimic_tree():
    base = es.zoo.random_tree(3, "RRRPR", friction=True)
    return base.replace(
        mimic_joint=np.array([-1, -1, -1, 1, -1, -1]),
        mimic_multiplier=np.array([1, 1, 1, -0.7, 1, 1.0]),
        mimic_offset=np.array([0, 0, 0, 0.2, 0, 0.0]),
    )


def _models():
    yield from ((n, es.zoo.load(n)) for n in TREE_MODELS)
    yield from ((f"random_tree {t}", es.zoo.random_tree(7, t)) for t in TREES)
    yield "mimic", _mimic_tree()
    try:  # a URDF robot on a free flyer, with fixed feet (example-robot-data)
        yield "solo12", es.robots.load("solo12")
    except (ImportError, FileNotFoundError, ValueError):
        pass


MODELS = dict(_models())


@pytest.mark.parametrize("name", sorted(MODELS))
def test_y_pi_is_inverse_dynamics(name):
    """Y π = τ (friction, armature, gravity, mimic joints) to 1e-12, one state and a batch."""
    model = MODELS[name]
    if model.has_moving_com:
        with pytest.raises(ValueError, match="slides"):
            joint_torque_regressor(model, *_state(model, np.random.default_rng(0)))
        return
    rng = np.random.default_rng(4)
    pi = parameters(model)
    assert pi.shape == (parameter_count(model),) == (len(parameter_names(model)),)
    for _ in range(3):
        q, qd, qdd = _state(model, rng)
        tau = es.inverse_dynamics(model, q, qd, qdd)
        assert _rel(joint_torque_regressor(model, q, qd, qdd) @ pi, tau) < 1e-12
    q, qd, qdd = _state(model, rng, 4)
    Y = joint_torque_regressor(model, q, qd, qdd)
    assert Y.shape == (4, model.nv, len(pi))
    assert _rel(Y @ pi, es.inverse_dynamics(model, q, qd, qdd)) < 1e-12
    assert _rel(Y[2], joint_torque_regressor(model, q[2], qd[2], qdd[2])) < 1e-12
    Ys = static_regressor(model, q)
    assert _rel(Ys @ pi, es.gravity_torques(model, q)) < 1e-12


@pytest.mark.parametrize("name", sorted(MODELS))
def test_compiled_regressor_equals_the_numpy_form(name):
    """The compiled kernel (outward pass; each joint's six coefficients and each body's ten
    columns taken to one frame once, a block of Y being ten dot products of six) gives the
    numpy form's Y = Σ J_iᵀ A_i, one state and a batch of 9 (more states than chunks on two
    threads), each batch row the state's own call. The batch's chunk and the single call
    are compiled apart (their flags may contract differently): 1e-12 between them."""
    model = MODELS[name]
    rng = np.random.default_rng(11)
    for _ in range(2):
        q, qd, qdd = _state(model, rng)
        qd[::2] = 0.0  # sign(0) = 0 on the Coulomb columns
        Y = joint_torque_regressor(model, q, qd, qdd)
        assert _rel(Y, reference_regressor(model, q, qd, qdd)) < 1e-12
    q, qd, qdd = _state(model, rng, 9)
    Y = joint_torque_regressor(model, q, qd, qdd)
    assert _rel(Y, reference_regressor(model, q, qd, qdd)) < 1e-12
    for k in (0, 4, 8):
        assert _rel(Y[k], joint_torque_regressor(model, q[k], qd[k], qdd[k])) < 1e-12


@pytest.mark.parametrize("tree", ["RRRPRR", "BSFUHLRP"])
def test_a_batch_beyond_the_caches_streams_the_same_bits(tree):
    """A batch whose Y is STREAM_BYTES or more is written by non-temporal stores
    (eslabon._engine.streaming), a smaller one as usual, from the same lanes kernel: the
    large batch's states equal the same states in small batches bit for bit (at its
    start, across the two threads' chunks, in a last partial block of lanes), and each its
    own call to 1e-12."""
    model = es.zoo.random_tree(5, tree, friction=True)
    per_state = model.engine_nv * parameter_count(model) * 8
    n = STREAM_BYTES // per_state + WIDTH + 3  # more than STREAM_BYTES, a partial block
    q, qd, qdd = _state(model, np.random.default_rng(13), n)
    Y = joint_torque_regressor(model, q, qd, qdd)
    assert Y.nbytes >= STREAM_BYTES
    for lo in (0, n // 2 - 5, n - 11):
        part = slice(lo, lo + 11)
        small = joint_torque_regressor(model, q[part], qd[part], qdd[part])
        assert small.nbytes < STREAM_BYTES
        assert np.array_equal(Y[part], small)
    for s in (0, n // 2, n - 1):
        assert _rel(Y[s], joint_torque_regressor(model, q[s], qd[s], qdd[s])) < 1e-12


@pytest.mark.parametrize("name", sorted(MODELS))
def test_the_c_entry_equals_the_general_path(name):
    """The lean C entry against the general path on one state (compiled apart: 1e-12)."""
    model = MODELS[name]
    fast = getattr(joint_torque_regressor, "__self__", None)  # the C entry, when built
    if fast is None:
        pytest.skip("eslabon._fastcall was not built (no C compiler)")
    if model.mimic is not None:
        pytest.skip("a mimic joint takes the general path (τ = Gᵀ τ_e)")
    q, qd, qdd = _state(model, np.random.default_rng(12))
    packed_regressor(model)  # made on first use, by the general path (this test may run first)
    lean = fast.fast(model, q, qd, qdd)
    assert lean is not None and _rel(lean, fast.general(model, q, qd, qdd)) < 1e-12


def _book_packed(book):
    """The regressor's packed model of seed 001's book mode, packed as if its bodies were
    rigid and then given back its sliding centres of mass (what a stale or forged
    ``packed_regressor`` would hand the C entry)."""
    rows = HEADER + STRIDE * np.arange(book.nb + 1)
    rigid = np.array(book.packed)
    slide = rigid[rows + COM_SLIDE].copy()
    rigid[rows + COM_SLIDE] = 0.0
    jc = joint_columns(book)
    rates = np.full(book.engine_nv, -1.0)
    rates[jc.rates] = jc.columns
    P = np.array(pack_regressor(rigid, book.body_row, rates, parameter_count(book)))
    assert np.any(slide != 0.0)
    P[rows + COM_SLIDE] = slide
    P.setflags(write=False)
    return P


def test_both_paths_refuse_a_sliding_centre_of_mass():
    """Seed 001's book mode (a COM sliding with its prismatic joint): packed_regressor
    refuses to pack it, the kernel refuses a packed model that has one (so the C entry
    hands over to the general path, which names it), one state and a batch."""
    book = es.zoo.load("practica_4dof", book_com=True)
    assert book.has_moving_com
    q, qd, qdd = _state(book, np.random.default_rng(1))
    with pytest.raises(ValueError, match="slides"):
        packed_regressor(book)
    P = _book_packed(book)
    Y = np.full((book.nv, parameter_count(book)), 7.0)
    assert regressor_one(P, q, qd, qdd, Y, None) == WRONG_SHAPE
    assert np.all(Y == 7.0)
    object.__setattr__(book, "packed_regressor", P)
    fast = getattr(joint_torque_regressor, "__self__", None)
    if fast is not None:
        assert fast.fast(book, q, qd, qdd) is None
    with pytest.raises(ValueError, match="slides"):
        joint_torque_regressor(book, q, qd, qdd)
    with pytest.raises(ValueError, match="slides"):
        joint_torque_regressor(book, *_state(book, np.random.default_rng(2), 3))


def test_packed_columns_beyond_p_are_refused():
    """pack_regressor refuses a p too small for its blocks; the kernel refuses a packed
    model whose blocks or friction columns reach past its last value p."""
    model = es.zoo.load("puma560")
    p = parameter_count(model)
    jc = joint_columns(model)
    rates = np.full(model.engine_nv, -1.0)
    rates[jc.rates] = jc.columns
    with pytest.raises(ValueError, match="p: expected at least"):
        pack_regressor(model.packed, model.body_row, rates, p - 1)
    P = np.array(packed_regressor(model))
    q, qd, qdd = _state(model, np.random.default_rng(3))
    Y = np.empty((model.nv, p))
    assert regressor_one(P, q, qd, qdd, Y, None) == 0
    P[-1] = p - 1
    assert regressor_one(P, q, qd, qdd, Y[:, : p - 1].copy(), None) == WRONG_SHAPE


def test_compiled_regressor_refuses_non_finite_states():
    """A NaN state is named, one state or in a batch, as inverse dynamics names it."""
    model = es.zoo.load("puma560")
    q, qd, qdd = _state(model, np.random.default_rng(0), 3)
    qd[1, 2] = np.nan
    with pytest.raises(ValueError, match="qd"):
        joint_torque_regressor(model, q, qd, qdd)
    with pytest.raises(ValueError, match="qd"):
        joint_torque_regressor(model, q[1], qd[1], qdd[1])


@pytest.mark.parametrize(
    "name", ["puma560", "random_tree BRRSRPRU", "random_tree RFPRRFPRR", "mimic"]
)
def test_round_trip_and_non_physical_parameters(name):
    """with_parameters ∘ parameters is the identity; Y is linear in π, so Y (π1 + π2) =
    Y π1 + Y π2 for a non-physical π2, and Y π of a random physical π is the inverse
    dynamics of with_parameters(model, π)."""
    model = MODELS[name]
    rng = np.random.default_rng(5)
    pi = parameters(model)
    again = parameters(with_parameters(model, pi))
    assert np.max(np.abs(again - pi)) <= 1e-14 * np.max(np.abs(pi))
    back = with_parameters(model, pi)
    np.testing.assert_allclose(back.mass, model.mass, rtol=1e-15)
    np.testing.assert_allclose(back.com, model.com, rtol=1e-13, atol=1e-15)
    np.testing.assert_allclose(back.inertia, model.inertia, rtol=1e-12, atol=1e-14)
    # another physical model of the same kinematics: masses, COMs, inertias, friction
    other = es.zoo.random_tree(11, "R" * model.nb)  # only its inertial data is used
    physical = model.replace(
        mass=np.concatenate([[0.0], rng.uniform(0.5, 3.0, model.nb)]),
        com=np.concatenate([np.zeros((1, 3)), rng.uniform(-0.2, 0.2, (model.nb, 3))]),
        inertia=other.inertia,
        viscous=rng.uniform(0, 0.5, model.nb + 1) * (model.joint_type != 0),
        coulomb=rng.uniform(0, 0.5, model.nb + 1) * (model.joint_type != 0),
        armature=rng.uniform(0, 0.1, model.nb + 1) * (model.joint_type != 0),
    )
    pi1 = parameters(physical)
    pi2 = rng.standard_normal(len(pi1))  # no rigid body has these
    q, qd, qdd = _state(model, rng)
    Y = joint_torque_regressor(model, q, qd, qdd)
    tau1 = es.inverse_dynamics(with_parameters(model, pi1), q, qd, qdd)
    assert _rel(Y @ pi1, tau1) < 1e-12
    assert _rel(Y @ (pi1 + pi2), Y @ pi1 + Y @ pi2) < 1e-14


def test_the_base_rows_are_the_floating_base_regressor():
    """On a free flyer, the base's six rows give the wrench the base joint exerts: zero
    for a free motion (q̈ from forward dynamics with no force on the base), for every π
    of the same kinematics only through Y π, so the rows alone identify what a floating
    robot's motion shows."""
    model = MODELS["random_tree BRRSRPRU"]
    assert model.joint_letters[0] == "B"
    rng = np.random.default_rng(9)
    q, qd, _ = _state(model, rng)
    tau = np.concatenate([np.zeros(6), rng.uniform(-1, 1, model.nv - 6)])
    qdd = es.forward_dynamics(model, q, qd, tau)
    Y = joint_torque_regressor(model, q, qd, qdd)
    pi = parameters(model)
    assert np.abs(Y[:6] @ pi).max() < 1e-9 * max(1.0, np.abs(Y[:6]).max() * np.abs(pi).max())
    assert _rel(Y[6:] @ pi, tau[6:]) < 1e-9


def test_with_parameters_refuses_bad_input():
    model = MODELS["planar2"]
    pi = parameters(model)
    with pytest.raises(ValueError, match="shape"):
        with_parameters(model, pi[:-1])
    bad = pi.copy()
    bad[0] = -1.0
    with pytest.raises(ValueError, match=r"link1\.m .* negative"):
        with_parameters(model, bad)
    bad[0] = 0.0
    with pytest.raises(ValueError, match="zero mass"):
        with_parameters(model, bad)
    bad = pi.copy()
    bad[3] = np.nan
    with pytest.raises(ValueError, match="not finite"):
        with_parameters(model, bad)


@pytest.mark.parametrize("name", sorted(MODELS))
def test_energy_regressors_give_the_energies(name):
    model = MODELS[name]
    if model.has_moving_com:
        return
    rng = np.random.default_rng(6)
    pi = parameters(model)
    q, qd, _ = _state(model, rng, 3)
    T = kinetic_energy_regressor(model, q, qd) @ pi
    V = potential_energy_regressor(model, q) @ pi
    for k in range(3):
        Tk = es.kinetic_energy(model, q[k], qd[k])
        Vk = es.potential_energy(model, q[k])
        assert abs(T[k] - Tk) <= 1e-12 * max(1.0, abs(Tk))
        assert abs(V[k] - Vk) <= 1e-12 * max(1.0, abs(Vk), float(np.sum(model.mass)))


# --- Pinocchio as the oracle ---------------------------------------------------------

pin = pytest.importorskip("pinocchio")


def _pin_columns(model):
    """For each Pinocchio joint (1..njoints−1), the eslabon body it moves, and the
    permutation of eslabon's π_i into Pinocchio's (m, h, Ixx, Ixy, Iyy, Ixz, Iyz, Izz)."""
    from eslabon.interop.pinocchio import body_order

    return body_order(model), [0, 1, 2, 3, 4, 5, 7, 6, 8, 9]


PIN_MODELS = tuple(
    n
    for n in ("puma560", "panda", "random_tree BRRSRPRU", "random_tree RHULSPRFR", "solo12")
    if n in MODELS
)


@pytest.mark.parametrize("name", PIN_MODELS)
def test_regressors_equal_pinocchios(name):
    """Y, the static regressor and the energy regressors against Pinocchio's on the model
    :func:`eslabon.interop.pinocchio.to_pinocchio` builds (fixed bodies merged into
    their parent there, so only the bodies with a joint are compared; eslabon's rows and
    coordinates mapped through dof_order / configuration_order)."""
    from eslabon.interop.pinocchio import configuration_order, dof_order, to_pinocchio

    model = MODELS[name]
    pm = to_pinocchio(model)
    data = pm.createData()
    bodies, perm = _pin_columns(model)
    moving = [b for b in bodies if model.joint_type[b] != 0]
    assert len(moving) == pm.njoints - 1
    qi, vi = configuration_order(model), dof_order(model)
    rng = np.random.default_rng(8)
    for _ in range(2):
        q, qd, qdd = _state(model, rng)
        Y = joint_torque_regressor(model, q, qd, qdd)
        Yp = pin.computeJointTorqueRegressor(pm, data, q[qi], qd[vi], qdd[vi])
        Ys = static_regressor(model, q)
        # (pin.computeStaticRegressor is the centre of mass's, not the gravity torques')
        zero = np.zeros(model.nv)
        Ysp = pin.computeJointTorqueRegressor(pm, data, q[qi], zero, zero)
        h = kinetic_energy_regressor(model, q, qd)
        hp = pin.computeKineticEnergyRegressor(pm, data, q[qi], qd[vi])
        u = potential_energy_regressor(model, q)
        up = pin.computePotentialEnergyRegressor(pm, data, q[qi])
        for k, b in enumerate(moving):
            cols = 10 * (b - 1) + np.array(perm)
            pcols = slice(10 * k, 10 * k + 10)
            scale = max(1.0, np.abs(Yp).max())
            assert np.abs(Y[vi][:, cols] - Yp[:, pcols]).max() < 1e-10 * scale
            assert np.abs(Ys[vi][:, cols] - Ysp[:, pcols]).max() < 1e-10 * scale
            assert np.abs(h[cols] - hp[pcols]).max() < 1e-10 * max(1.0, np.abs(hp).max())
            assert np.abs(u[cols] - up[pcols]).max() < 1e-10 * max(1.0, np.abs(up).max())


@pytest.mark.parametrize("kind", ["float32", "strided", "read-only", "misaligned", "list"])
def test_regressor_into_refuses_an_unusable_out(kind):
    """A buffer the kernel cannot write in place is refused, naming ``out``."""
    from eslabon.identification.regressor import regressor_into

    model = es.zoo.load("puma560")
    q, qd, qdd = _state(model, np.random.default_rng(6), 3)
    shape = (3, model.nv, parameter_count(model))
    out = {
        "float32": np.empty(shape, dtype=np.float32),
        "strided": np.empty((3, model.nv, 2 * shape[2]))[:, :, ::2],
        "read-only": np.empty(shape),
        "misaligned": np.zeros(8 * np.prod(shape) + 1, np.uint8)[1:].view(np.float64),
        "list": np.empty(shape).tolist(),
    }[kind]
    if kind == "misaligned":  # C-contiguous, but its doubles straddle 8-byte boundaries
        out = out.reshape(shape)
        assert out.flags.c_contiguous and not out.flags.aligned
    if kind == "read-only":
        out.setflags(write=False)
    with pytest.raises(ValueError, match="out: expected a writeable, C-contiguous, aligned"):
        regressor_into(model, q, qd, qdd, out)
    good = np.empty(shape)
    assert regressor_into(model, q, qd, qdd, good) is good


def test_the_closed_form_body_block_is_the_wrench_matrix():
    """The kernel's straight-line 6 × 10 block of a body (``_body_block``) is
    ``body_wrench_matrix`` (A_i, built from its definition in numpy) taken to reference
    axes, n about the reference origin: [R 0; p̃ R R] A_i, the four force columns f and
    the six inertia columns, which carry no force, zero below."""
    from numba import njit

    from eslabon.dynamics.regressor_kernel import _body_block
    from eslabon.identification.regressor import body_wrench_matrix

    @njit
    def block(w, wd, a, R, pos):
        n0, n1, n2, f0, f1, f2 = _body_block(
            (w[0], w[1], w[2]),
            (wd[0], wd[1], wd[2]),
            (a[0], a[1], a[2]),
            (R[0, 0], R[0, 1], R[0, 2], R[1, 0], R[1, 1], R[1, 2], R[2, 0], R[2, 1], R[2, 2]),
            (pos[0], pos[1], pos[2]),
        )
        out = np.zeros((6, 10))
        for c in range(10):
            out[0, c], out[1, c], out[2, c] = n0[c], n1[c], n2[c]
        for c in range(4):
            out[3, c], out[4, c], out[5, c] = f0[c], f1[c], f2[c]
        return out

    rng = np.random.default_rng(3)
    for _ in range(5):
        w, wd, a, pos = rng.uniform(-2, 2, (4, 3))
        R = np.linalg.qr(rng.normal(size=(3, 3)))[0]
        R[:, 2] *= np.linalg.det(R)  # a rotation (det +1): the block assumes one
        A = body_wrench_matrix(w, wd, a)
        P = np.array([[0, -pos[2], pos[1]], [pos[2], 0, -pos[0]], [-pos[1], pos[0], 0]])
        X = np.block([[R, np.zeros((3, 3))], [np.zeros((3, 3)), R]])
        X[:3, 3:] = P @ R  # n about the origin: R n + p × R f
        expected = X @ A
        assert np.abs(expected[3:, 4:]).max() == 0.0
        assert _rel(block(w, wd, a, R, pos), expected) < 1e-14


@pytest.mark.parametrize("name", ["random_tree BSFUHLRP", "random_tree RHULSPRFR", "solo12"])
def test_wrench_coefficients_are_the_projection_of_unit_wrenches(name):
    """Each moving row's (s_n, s_f) (``joints.wrench_coefficients``, the regressor's
    joint coefficients) are ``project_wrench`` of the six unit wrenches, on trees with
    revolute, prismatic, helical, universal, spherical and free-flyer joints."""
    from numba import njit

    from eslabon._engine.joints import extended_of, joint, project_wrench, wrench_coefficients
    from eslabon._engine.record import rate_index

    if name not in MODELS:
        pytest.skip(f"{name} is not available")

    @njit
    def both(P, o, extended):
        j = joint(P, o)
        sn, sf = wrench_coefficients(j, extended)
        z, e = (0.0, 0.0, 0.0), ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
        out = np.empty((2, 6))
        for d in range(3):
            out[0, d], out[0, 3 + d] = sn[d], sf[d]
            out[1, d] = project_wrench(j, z, e[d], extended)  # (j, f, n): n = e_d
            out[1, 3 + d] = project_wrench(j, e[d], z, extended)
        return out

    P = MODELS[name].packed
    extended = extended_of(P)
    rows = 0
    for i in range(1, int(P[H_NB]) + 1):
        o = HEADER + STRIDE * i
        if rate_index(P, o) >= 0:
            got, expected = both(P, o, extended)
            assert np.array_equal(got, expected)
            rows += 1
    assert rows == MODELS[name].engine_nv
