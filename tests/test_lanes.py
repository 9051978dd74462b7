"""Lanes: the batch paths of Newton–Euler and the articulated-body algorithm run the
one-state kernels compiled over blocks of ``WIDTH`` states (``eslabon._engine.lanes``;
issue 3, "Batches in parallel").

Each lane performs the one-state kernel's operations in the same order, so a batch must
equal the stacked single states **bit for bit**, on every zoo model, on random chains
(prismatic joints, friction, armature, payloads, tools) and on random trees (arbitrary
axes, fixed bodies with children), whatever the batch length (full blocks or a padded
last one) and the number of chunks. Also: the lane arithmetic itself against numpy, a
far angle in one lane, and a non-finite lane.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from numba import njit

import eslabon as es
from eslabon._engine.joints import extended_of
from eslabon._engine.lanes import (
    WIDTH,
    all_finite,
    all_positive,
    at,
    g1,
    g3,
    like,
    put,
    s1,
    s3,
    sign,
    zero_of,
)
from eslabon._engine.sincos import sincos_near
from eslabon._engine.slabs import store_states
from eslabon.dynamics import batch_drivers as _b
from eslabon.dynamics import drivers as _d
from eslabon.dynamics.codes import MODE_ID
from eslabon.model import ModelBuilder
from test_aba import aba_tree

MODELS = {name: (lambda name=name: es.zoo.load(name)) for name in es.zoo.names()}
MODELS.update(
    {
        "chain-RPRPR-friction": lambda: es.zoo.random_chain(
            5, 12, "modified", friction=True, joints="RPRPR", payload=True, tool=True
        ),
        "chain-8-rojas": lambda: es.zoo.random_chain(8, 3, "rojas", friction=True),
        **{f"tree-{s}": (lambda s=s: aba_tree(s)) for s in range(3)},
    }
)
_cache = {}


@pytest.fixture(params=list(MODELS), scope="module")
def model(request):
    if request.param not in _cache:
        _cache[request.param] = MODELS[request.param]()
    return _cache[request.param]


def _states(model, N, seed=0):
    rng = np.random.default_rng(seed)
    shape = (N, model.nv)
    q = rng.uniform(-4.0, 4.0, (N, model.nq))
    if model.nq != model.nv:  # unit quaternions
        q = es.normalize(model, q)
    qd = rng.uniform(-3.0, 3.0, shape)
    qd[:, 0] = 0.0  # the Coulomb sign at exactly zero rate, in some lanes
    qd[1::3, 0] = rng.uniform(-1, 1, len(qd[1::3]))
    qdd = rng.uniform(-3.0, 3.0, shape)
    return q, qd, qdd


def _same_bits(got, expected, what):
    """Equal to the last bit, signed zeros included (``==`` takes −0 for +0)."""
    assert got.shape == expected.shape, what
    np.testing.assert_array_equal(got, expected, err_msg=what)
    assert got.tobytes() == expected.tobytes(), f"{what}: equal values, different bits"


def _batch_is_singles(model, fn, *args):
    """``fn`` on the batch ``args`` equals ``fn`` on each state alone, bit for bit."""
    batch = fn(model, *args)
    single = np.stack([fn(model, *[a[s].copy() for a in args]) for s in range(len(args[0]))])
    _same_bits(batch, single, f"{model.name} {fn.__name__} N={len(args[0])}")


@pytest.mark.parametrize("N", [1, WIDTH, 2 * WIDTH + 3])
def test_batches_equal_single_states_bit_for_bit(model, N):
    q, qd, qdd = _states(model, N)
    tau = es.bias_forces(model, q, qd) + 2.0 * qdd
    _batch_is_singles(model, es.inverse_dynamics, q, qd, qdd)
    _batch_is_singles(model, es.bias_forces, q, qd)
    _batch_is_singles(model, es.gravity_torques, q)
    _batch_is_singles(model, es.forward_dynamics, q, qd, tau)


@pytest.mark.parametrize("N", [1, WIDTH + 1, 2 * WIDTH + 3])
def test_mass_matrix_and_derivative_batches_equal_single_states_bit_for_bit(model, N):
    """Composite-body M, ∂τ/∂(q, q̇) and ∂q̈/∂(q, q̇, τ) on lanes (issue 27); with
    quaternion joints the derivatives run state by state in the tangent space."""
    q, qd, qdd = _states(model, N, seed=2)
    _batch_is_singles(model, es.mass_matrix, q)
    tau = es.bias_forces(model, q, qd) + 2.0 * qdd
    for fn, args in (
        (es.inverse_dynamics_derivatives, (q, qd, qdd)),
        (es.forward_dynamics_derivatives, (q, qd, tau)),
    ):
        batch = fn(model, *args)
        singles = [fn(model, *[a[s].copy() for a in args]) for s in range(N)]
        for k, got in enumerate(batch):
            want = np.stack([one[k] for one in singles])
            _same_bits(got, want, f"{model.name} {fn.__name__}[{k}] N={N}")


def test_a_nonfinite_lane_of_a_derivative_batch_names_the_input():
    """A block with a NaN lane is run again state by state: the error names the field."""
    model = MODELS["puma560"]()
    q, qd, qdd = _states(model, 2 * WIDTH)
    qd[WIDTH + 1, 2] = np.nan
    for fn in (es.inverse_dynamics_derivatives, es.forward_dynamics_derivatives):
        with pytest.raises(ValueError, match="qd"):
            fn(model, q, qd, qdd)


@pytest.mark.parametrize("nchunks", [1, 2, 3, 7])
def test_chunking_does_not_change_a_bit(model, nchunks):
    N = 3 * WIDTH + 2
    q, qd, qdd = _states(model, N, seed=1)
    P = model.packed_dynamics
    ref = np.stack([es.inverse_dynamics(model, q[s], qd[s], qdd[s]) for s in range(N)])
    tau = np.empty_like(qd)
    assert _b.rnea_many(P, q, qd, qdd, 1.0, None, MODE_ID, tau, nchunks, extended_of(P)) == 0
    _same_bits(tau, ref, f"ID, {nchunks} chunks")
    qdd_back = np.empty_like(qd)
    assert _b.aba_many(P, q, qd, ref, qdd_back, nchunks, extended_of(P)) == 0
    ref_fd = np.stack([es.forward_dynamics(model, q[s], qd[s], ref[s]) for s in range(N)])
    _same_bits(qdd_back, ref_fd, f"FD, {nchunks} chunks")
    np.testing.assert_allclose(qdd_back, qdd, rtol=1e-9, atol=1e-9)


def test_a_far_angle_in_one_lane_leaves_the_others_alone():
    """One state's first angle is 1e7 turns out (the far path reduces it with libm in a
    copy of the block): every state still equals its own single-state call."""
    model = es.zoo.load("puma560")
    q, qd, qdd = _states(model, 2 * WIDTH)
    q[WIDTH + 1, 0] += 2 * np.pi * 1e7
    _batch_is_singles(model, es.inverse_dynamics, q, qd, qdd)
    _batch_is_singles(model, es.forward_dynamics, q, qd, qdd)


def test_far_values_in_some_lanes_of_a_chain_with_prismatic_joints():
    """A prismatic joint at 2e5 m (left alone: only revolute angles are reduced) in one
    lane, a revolute angle 1e9 turns out in another, of the same block."""
    model = MODELS["chain-RPRPR-friction"]()
    q, qd, qdd = _states(model, WIDTH + 2)
    q[1, 1] = 2e5
    q[2, 2] = -2 * np.pi * 1e9 + 0.3
    q[WIDTH + 1, 3] = 3e5
    _batch_is_singles(model, es.inverse_dynamics, q, qd, qdd)
    _batch_is_singles(model, es.forward_dynamics, q, qd, qdd)


def test_a_nonfinite_result_in_one_lane_is_reported():
    """A rate so large that q̇² overflows in one state of a block: the batch is refused
    with the message of a single state, naming the inputs."""
    model = es.zoo.load("puma560")
    q, qd, qdd = _states(model, 2 * WIDTH)
    qd[2, 1] = 1e200
    with pytest.raises(ValueError, match="inverse_dynamics: the result is not finite"):
        es.inverse_dynamics(model, q, qd, qdd)
    with pytest.raises(ValueError, match="forward_dynamics: the result is not finite"):
        es.forward_dynamics(model, q, qd, qdd)


@njit
def _lane_ops(x, y, out, ws):
    """Every lane operation the kernels use, on lanes (2-D x) or floats (1-D x)."""
    a = at(x, 0)
    b = at(x, 1)
    c = at(y, 0)
    z = zero_of(x)
    v = (a, b, z)
    w = like((1.5, -2.0, 0.25), z)
    s3(ws, 1, 2, (a * 2.0 - b, 3.0 - a / b, -c + 1.0))
    t = g3(ws, 1, 2)
    r = (v[0] + w[0]) * t[0] - t[1] / (1.0 + t[2] * t[2]) + sign(c) - w[1] * 4.0
    r -= a
    r *= 0.5
    r += b
    r /= 2.0
    s1(ws, 0, 0, r)
    put(out, 0, g1(ws, 0, 0))
    put(out, 1, sign(c))
    put(out, 2, 1.0)  # a float put into lanes fills every lane
    return all_finite(r), all_positive(c)


def test_lane_arithmetic_equals_the_float_one_in_every_lane():
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, (2, WIDTH))
    y = np.array([[-1.5, 0.0, 2.0, -0.0][j % 4] for j in range(WIDTH)])[None, :]
    out = np.zeros((3, WIDTH))
    finite, positive = _lane_ops(x, y, out, np.zeros((2, 6, WIDTH)))
    assert finite and not positive
    for j in range(WIDTH):
        o1 = np.zeros(3)
        f1, _ = _lane_ops(x[:, j].copy(), y[:, j].copy(), o1, np.zeros((2, 6)))
        assert f1
        _same_bits(out[:, j].copy(), o1, f"lane {j}")
    np.testing.assert_array_equal(out[1], np.sign(y[0]))
    np.testing.assert_array_equal(out[2], 1.0)
    assert np.signbit(out[1]).tolist() == np.signbit(np.sign(y[0]) + 0.0).tolist()
    # a NaN or inf in any one lane is seen, and a non-positive value in any one lane
    for j in range(WIDTH):
        for bad in (np.nan, np.inf, -np.inf):
            x2 = x.copy()
            x2[0, j] = bad
            finite, _ = _lane_ops(x2, np.abs(y) + 1.0, out, np.zeros((2, 6, WIDTH)))
            assert not finite, (j, bad)
        for low in (0.0, -1.0, np.nan):
            y2 = np.abs(y) + 1.0
            y2[0, j] = low
            _, positive = _lane_ops(x, y2, out, np.zeros((2, 6, WIDTH)))
            assert not positive, (j, low)
    _, positive = _lane_ops(x, np.abs(y) + 1.0, out, np.zeros((2, 6, WIDTH)))
    assert positive


@njit
def _sincos_lanes(x, s, c):
    for k in range(x.shape[0]):
        sk, ck = sincos_near(at(x, k))
        put(s, k, sk)
        put(c, k, ck)


@njit
def _sincos_floats(x, s, c):
    for k in range(x.shape[0]):
        s[k], c[k] = sincos_near(x[k])


def test_sine_cosine_of_lanes_equals_that_of_floats_bit_for_bit():
    """The quadrant is found in float arithmetic for lanes and through an integer for
    floats: every quadrant up to |x| = 1e5 (k up to 6.4e4), signed zeros, the doubles
    next to kπ/2."""
    rng = np.random.default_rng(9)
    x = np.concatenate(
        [
            rng.uniform(-1e5, 1e5, 40_000),
            rng.uniform(-8, 8, 4_000),
            [0.0, -0.0, 1e-300, -1e-300],
            np.nextafter(np.arange(-400, 400) * (np.pi / 2), np.inf),
            np.nextafter(np.arange(-400, 400) * (np.pi / 2), -np.inf),
        ]
    )
    x = np.concatenate([x, np.zeros(-len(x) % WIDTH)])
    block = np.ascontiguousarray(x.reshape(-1, WIDTH))
    s4, c4 = np.empty_like(block), np.empty_like(block)
    _sincos_lanes(block, s4, c4)
    s1, c1 = np.empty_like(x), np.empty_like(x)
    _sincos_floats(x, s1, c1)
    assert s4.ravel().tobytes() == s1.tobytes()
    assert c4.ravel().tobytes() == c1.tobytes()


def _massless_leaf_tree():
    """A tree whose first leaf (body 2) is a revolute joint carrying nothing (the mass
    matrix is singular at every state), and a branch 1–3–4 processed before it."""
    b = ModelBuilder()
    b.add_body(
        0,
        "R",
        axis=(0.0, 0.0, 1.0),
        mass=2.0,
        com=(0.1, 0.0, 0.0),
        inertia=np.diag([0.02, 0.03, 0.04]),
    )
    b.add_body(
        1,
        "R",
        axis=(1.0, 0.0, 0.0),
        translation=(0.3, 0.0, 0.0),
        mass=0.0,
        com=(0.0, 0.0, 0.0),
        inertia=np.zeros((3, 3)),
    )
    b.add_body(
        1,
        "R",
        axis=(0.0, 1.0, 0.0),
        translation=(0.0, 0.3, 0.0),
        mass=1.0,
        com=(0.0, 0.1, 0.0),
        inertia=np.diag([0.01, 0.01, 0.02]),
    )
    b.add_body(
        3,
        "R",
        axis=(1.0, 0.0, 0.0),
        translation=(0.0, 0.3, 0.1),
        mass=1.0,
        com=(0.1, 0.1, 0.0),
        inertia=np.diag([0.01, 0.02, 0.02]),
    )
    return b.build(gravity=(0.0, 0.0, -9.81), name="massless-leaf")


def test_batch_status_is_each_states_own():
    """A joint moving no mass is reported as such through a batch, also when another
    state of the same block has a NaN that would stop the block earlier: the failing
    block is run again state by state (status 2 beats 1, as over single states)."""
    model = _massless_leaf_tree()
    P = model.packed_dynamics
    N = WIDTH  # one block: its status alone is the batch's
    rng = np.random.default_rng(3)
    q, qd, tau = (rng.uniform(-1, 1, (N, model.nq)) for _ in range(3))
    out = np.empty_like(q)
    assert _b.aba_many(P, q, qd, tau, out, 1, extended_of(P)) == 2
    single = [
        _d.aba_call(P, q[s].copy(), qd[s].copy(), tau[s].copy(), np.empty(model.nq), None)
        for s in range(N)
    ]
    assert set(single) == {2}
    # a NaN angle at the last body makes body 3's D NaN, so a block stops there with 1
    # before it reaches body 2
    q[1, 3] = np.nan
    st1 = _d.aba_call(P, q[1].copy(), qd[1].copy(), tau[1].copy(), np.empty(model.nq), None)
    assert st1 == 1
    assert _b.aba_many(P, q, qd, tau, out, 1, extended_of(P)) == 2
    for s in (1, 3):  # the NaN, then no NaN, in the same block
        q[1, 3] = np.nan if s == 1 else 0.0
        with pytest.raises(ValueError, match="a joint moves no mass"):
            es.forward_dynamics(model, q, qd, tau)


def test_nan_in_one_lane_names_the_input():
    model = es.zoo.load("panda")
    q, qd, qdd = _states(model, 2 * WIDTH + 1)
    q[WIDTH + 2, 3] = np.nan
    for fn in (es.inverse_dynamics, es.forward_dynamics):
        with pytest.raises(
            ValueError,
            match=rf"q: expected finite values, got nan at index \({WIDTH + 2}, 3\)",
        ):
            fn(model, q, qd, qdd)


def test_lanes_refuse_arrays_they_cannot_read_as_vectors():
    """Only C-contiguous float64 blocks are read as vectors (a Fortran-ordered or strided
    array would be read at the wrong addresses)."""
    from numba.core.errors import TypingError

    @njit
    def first(q):
        return all_finite(at(q, 0))

    assert first(np.zeros((3, WIDTH)))
    for bad in (
        np.zeros((3, WIDTH), order="F"),
        np.zeros((3, 2 * WIDTH))[:, ::2],
        np.zeros((3, WIDTH), dtype=np.float32),
    ):
        with pytest.raises(TypingError, match="C-contiguous float64"):
            first(bad)


@pytest.mark.parametrize("N", [1, WIDTH + 1, 2 * WIDTH + 3])
def test_coriolis_and_energy_batches_equal_single_states_bit_for_bit(model, N):
    """The Coriolis matrix and the kinetic and potential energies on lanes."""
    q, qd, _ = _states(model, N, seed=4)
    _batch_is_singles(model, es.kinetic_energy, q, qd)
    _batch_is_singles(model, es.potential_energy, q)
    if not model.has_moving_com:  # (C needs rigid links)
        _batch_is_singles(model, es.coriolis_matrix, q, qd)


def test_a_nonfinite_lane_of_a_coriolis_or_energy_batch_names_the_input():
    """A block with a NaN lane is run again state by state: the error names the field and
    the state, and the other blocks are untouched."""
    model = MODELS["puma560"]()
    q, qd, _ = _states(model, 2 * WIDTH + 1)
    qd[WIDTH + 1, 2] = np.nan
    for fn in (es.coriolis_matrix, es.kinetic_energy):
        with pytest.raises(
            ValueError, match=rf"qd: expected finite values, got nan at index \({WIDTH + 1}, 2\)"
        ):
            fn(model, q, qd)
    # the status of a block with one non-finite lane is NON_FINITE, and its other states
    # are those of single calls
    P = model.packed_dynamics
    C = np.empty((len(q), model.nv, model.nv))
    assert _b.coriolis_many(P, q, qd, C, 1, extended_of(P)) == 1
    out = np.empty((len(q), 2))
    assert _b.energy_many(model.packed, q, qd, out, 1, extended_of(P)) == 1
    for s in range(len(q)):
        if s != WIDTH + 1:
            _same_bits(C[s], es.coriolis_matrix(model, q[s], qd[s]), f"C state {s}")
            _same_bits(out[s, 0], es.kinetic_energy(model, q[s], qd[s])[()], f"T state {s}")


@pytest.mark.parametrize("N", [1, WIDTH + 1, 2 * WIDTH + 3])
def test_kinematics_and_jacobian_batches_equal_single_states_bit_for_bit(model, N):
    """The kinematic pass (poses, velocities, accelerations) and the frame Jacobians, in
    world and local axes, on lanes (issue 27)."""
    q, qd, qdd = _states(model, N, seed=5)
    _batch_is_singles(model, es.forward_kinematics, q)
    _batch_is_singles(model, es.kinematics.link_velocities, q, qd)
    _batch_is_singles(model, es.kinematics.link_accelerations, q, qd, qdd)
    for frame in [f.name for f in model.frames][-2:] + [model.body_names[-1]]:
        for reference in ("world", "local"):

            def jacobian(model, q, frame=frame, reference=reference):
                return es.jacobian(model, q, frame, reference)

            _batch_is_singles(model, jacobian, q)


def test_a_jacobian_batch_equals_the_columns_of_its_definition():
    """Each column of the compiled Jacobian is [z; z × (p_f − p_j)] (revolute) or [0; z]
    (prismatic) of the world poses, as written out here with numpy, to round-off."""
    model = MODELS["chain-RPRPR-friction"]()
    q, _, _ = _states(model, 2 * WIDTH + 1, seed=6)
    T = es.forward_kinematics(model, q)
    ee = es.kinematics.frame_pose(model, q, "ee")
    J = es.jacobian(model, q, "ee")
    for k, kind in enumerate("RPRPR"):
        i = k + 1  # body i is moved by joint i, about its axis in body i's own frame
        z = T[:, i, :3, :3] @ model.axis[i]
        if kind == "R":
            want = np.concatenate([z, np.cross(z, ee[:, :3, 3] - T[:, i, :3, 3])], axis=1)
        else:
            want = np.concatenate([np.zeros_like(z), z], axis=1)
        np.testing.assert_allclose(J[:, :, k], want, atol=1e-12, err_msg=f"column {k}")


_HISTORY_SCRIPT = """
import sys
import numpy as np
from numba.core.dispatcher import Dispatcher
import eslabon as es
from eslabon.dynamics import composite_rigid_body, regressor_kernel
from eslabon.identification import joint_torque_regressor

model = es.zoo.random_tree(0, "BRUHLSPRF", friction=False)  # every joint type, quaternions
rng = np.random.default_rng(11)
N = int(sys.argv[1])
q = np.array([es.random_configuration(model, rng) for _ in range(N)])
qd, qdd = rng.normal(size=(2, N, model.nv))
es.mass_matrix(model, q[0])  # compiled first: crba_into's fastmath reached its callees
joint_torque_regressor(model, q[0], qd[0], qdd[0])  # the regressor's fused kernels too
joint_torque_regressor(model, q, qd, qdd)
tau = es.bias_forces(model, q, qd) + 2.0 * qdd

def parts(x):
    return [np.asarray(a) for a in (x if isinstance(x, tuple) else (x,))]

# the batch of M last: compiled before the others, it gave the lanes fused helpers too
for name, fn, args in (
    ("ID", es.inverse_dynamics, (q, qd, qdd)),
    ("FD", es.forward_dynamics, (q, qd, tau)),
    ("C", es.coriolis_matrix, (q, qd)),
    ("dID", es.inverse_dynamics_derivatives, (q, qd, qdd)),
    ("dFD", es.forward_dynamics_derivatives, (q, qd, tau)),
    ("M", es.mass_matrix, (q,)),
):
    batch = parts(fn(model, *args))
    singles = [parts(fn(model, *[a[s].copy() for a in args])) for s in range(N)]
    for k, got in enumerate(batch):
        want = np.stack([one[k] for one in singles])
        if got.tobytes() != want.tobytes():
            print(f"{name}[{k}]: batch != single states, max diff "
                  f"{np.abs(got - want).max():.3g}")

# no numba function but crba_into and the regressor's two kernels was compiled fused
fused = (
    composite_rigid_body.crba_into,
    regressor_kernel.regressor_state,
    regressor_kernel.regressor_lanes,
)
kernels = {
    id(fn): fn
    for n, module in sorted(sys.modules.items())
    if n.startswith("eslabon.")
    for fn in vars(module).values()
    if isinstance(fn, Dispatcher) and all(fn is not f for f in fused)
}
for fn in kernels.values():
    for sig, cres in fn.overloads.items():
        if cres.target_context.fastmath:
            print(f"{fn.py_func.__module__}.{fn.__name__}{sig}: fastmath "
                  f"{cres.target_context.fastmath}")
print("done")
"""


def test_lanes_equal_single_states_whatever_compiled_first(tmp_path):
    """Compile history: numba compiles a called function with the fastmath of its first
    caller, unless the function states its own, and keeps that code for later callers.
    With the mass matrix (``fastmath={"contract"}``) compiled first in a fresh cache, the
    one-state kernels of a model with a spherical joint took fused helpers and the lanes
    did not (ID, FD, C, M differed in the last bits). In a fresh process and cache, in
    that order (the regressor's kernel, fused too, right after), every batch must still
    equal its single states bit for bit, and no function but crba_into and the
    regressor's two kernels may carry fastmath."""
    env = {
        **os.environ,
        "NUMBA_CACHE_DIR": str(tmp_path / "cache"),  # everything compiles, in this order
        "ESLABON_NO_START_LIBRARY": "1",  # nor loaded ready-made
        "ESLABON_COMPILE_NOTICE": "0",
        "PYTHONPATH": str(Path(es.__file__).resolve().parents[1]),
    }
    r = subprocess.run(
        [sys.executable, "-c", _HISTORY_SCRIPT, str(WIDTH + 1)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "done\n", r.stdout


_OTHER_WIDTH_SCRIPT = """
import sys
import numpy as np
import eslabon as es
from eslabon._engine import lanes
from eslabon._engine.cachedir import _code_hash

W = int(sys.argv[1])
assert lanes.WIDTH == W, (lanes.WIDTH, W)
print("cache", _code_hash())
models = [es.zoo.load(n) for n in ("puma560", "panda", "space_manipulator")] + [
    es.zoo.random_chain(5, 12, "modified", friction=True, joints="RPRPR", payload=True, tool=True),
    es.zoo.random_tree(0, "BRUHLSPRF", friction=False),  # every joint type, quaternions
]
rng = np.random.default_rng(13)
N = 2 * W + 3  # two full blocks and a padded one
for model in models:
    q = np.array([es.random_configuration(model, rng) for _ in range(N)])
    qd, qdd = rng.uniform(-3.0, 3.0, (2, N, model.nv))
    tau = es.bias_forces(model, q, qd) + 2.0 * qdd
    calls = [
        ("ID", es.inverse_dynamics, (q, qd, qdd)),
        ("bias", es.bias_forces, (q, qd)),
        ("gravity", es.gravity_torques, (q,)),
        ("FD", es.forward_dynamics, (q, qd, tau)),
        ("M", es.mass_matrix, (q,)),
        ("dID", es.inverse_dynamics_derivatives, (q, qd, qdd)),
        ("dFD", es.forward_dynamics_derivatives, (q, qd, tau)),
        ("T", es.kinetic_energy, (q, qd)),
        ("V", es.potential_energy, (q,)),
        ("FK", es.forward_kinematics, (q,)),
        ("velocities", es.kinematics.link_velocities, (q, qd)),
        ("J", lambda m, q: es.jacobian(m, q, m.body_names[-1], "world"), (q,)),
    ]
    if not model.has_moving_com:
        calls.append(("C", es.coriolis_matrix, (q, qd)))
    for name, fn, args in calls:
        batch = fn(model, *args)
        batch = batch if isinstance(batch, tuple) else (batch,)
        singles = [fn(model, *[a[s].copy() for a in args]) for s in range(N)]
        singles = [one if isinstance(one, tuple) else (one,) for one in singles]
        for k, got in enumerate(batch):
            want = np.stack([np.asarray(one[k]) for one in singles])
            if np.asarray(got).tobytes() != want.tobytes():
                print(f"{model.name} {name}[{k}]: batch != single states")
puma = models[0]  # rollouts: lanes blocks of runs against simulate, run by run
q0, v0 = rng.uniform(-1.0, 1.0, (2, N, puma.nv))
table = rng.normal(size=(N, 11, puma.nv)) * 20.0
runs = es.rollout(puma, q0, v0, 0.01, 0.001, torque=table)
for i in range(N):
    one = es.simulate(puma, 0.01, 0.001, q0=q0[i], qd0=v0[i], torque=table[i])
    if not (np.array_equal(runs.q[i], one.q) and np.array_equal(runs.qd[i], one.qd)):
        print(f"rollout run {i} != simulate")
print("done")
"""


def test_the_other_lanes_width_equals_single_states_bit_for_bit():
    """Lanes of 4 and of 8 doubles (``ESLABON_LANES``, :mod:`eslabon._engine.lanewidth`):
    the tests above run this process's width; a process of the other width (correct on any
    CPU, fast only where it fits the vector unit) must give single states bit for bit too,
    and keep its kernels in a cache folder of its own."""
    from eslabon._engine.cachedir import _code_hash

    other = 4 if WIDTH == 8 else 8
    env = {
        **os.environ,
        "ESLABON_LANES": str(other),
        "ESLABON_COMPILE_NOTICE": "0",
        "PYTHONPATH": str(Path(es.__file__).resolve().parents[1]),
    }
    r = subprocess.run(
        [sys.executable, "-c", _OTHER_WIDTH_SCRIPT, str(other)],
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"cache {_code_hash(width=other)}\ndone\n", r.stdout
    assert _code_hash(width=other) != _code_hash()


def test_the_lanes_width_follows_what_numba_compiles_for():
    """8 lanes where numba's target has AVX-512F, 4 elsewhere (``NUMBA_CPU_NAME=generic``,
    ``NUMBA_ENABLE_AVX=0``, features without it), ``ESLABON_LANES`` first."""
    from eslabon._engine.lanewidth import choose

    def has(x):
        return lambda: x

    assert choose({}, has(True)) == 8
    assert choose({}, has(False)) == 4
    assert choose({"NUMBA_CPU_NAME": "generic"}, has(True)) == 4
    assert choose({"NUMBA_CPU_NAME": "skylake"}, has(True)) == 8  # with the host's features
    assert choose({"NUMBA_ENABLE_AVX": "0"}, has(True)) == 4
    assert choose({"NUMBA_CPU_FEATURES": "+avx2,+fma"}, has(True)) == 4
    assert choose({"NUMBA_CPU_FEATURES": "+avx2,+avx512f"}, has(False)) == 8
    assert choose({"NUMBA_CPU_FEATURES": "+avx512f,-avx512f"}, has(True)) == 4
    assert choose({"ESLABON_LANES": "4"}, has(True)) == 4
    assert choose({"ESLABON_LANES": "8", "NUMBA_CPU_NAME": "generic"}, has(False)) == 8


def test_a_lanes_width_other_than_4_or_8_is_refused_aloud(capsys):
    from eslabon._engine.lanewidth import choose

    assert choose({"ESLABON_LANES": "16"}, lambda: False) == 4
    assert "ESLABON_LANES='16' is not 4 or 8" in capsys.readouterr().err


@njit
def _rows_of_states(X, ws):
    """Rows 0 and 2 of ``ws`` from the block X (n, WIDTH) or the vector X (n,): lanes
    (each state's row to its own slab) or floats."""
    z = like(0.0, at(X, 0))
    for i in (0, 2):
        values = (at(X, 0), at(X, 1), at(X, 2), z) + (at(X, 3), at(X, 4), at(X, 5), at(X, 6))
        store_states(ws, i, values)


def test_store_states_gives_each_state_its_own_row():
    """Lanes values stored by ``store_states`` land transposed: state l's values in its
    own slab ``ws[l, i, :]``, as the same call on that state's floats writes ``ws[i, :]``
    (the regressor's per-state step reads them so)."""
    rng = np.random.default_rng(3)
    X = rng.normal(size=(7, WIDTH))
    slabs = np.full((WIDTH, 3, 8), -7.0)
    _rows_of_states(X, slabs)
    for j in range(WIDTH):
        one = np.full((3, 8), -7.0)
        _rows_of_states(X[:, j].copy(), one)
        _same_bits(slabs[j], one, f"state {j}")
        np.testing.assert_array_equal(one[0], [*X[:3, j], 0.0, *X[3:, j]])
        np.testing.assert_array_equal(one[1], -7.0)  # row 1 untouched


def test_store_states_refuses_rows_it_cannot_transpose():
    """Lanes rows must come in whole groups of WIDTH values, into a (WIDTH, rows, n)
    C-contiguous slab array."""
    from numba.core.errors import TypingError

    @njit
    def odd(X, ws):
        store_states(ws, 0, (at(X, 0), at(X, 1), at(X, 2)))

    with pytest.raises(TypingError, match="not a multiple"):
        odd(np.zeros((3, WIDTH)), np.zeros((WIDTH, 1, 3)))
    with pytest.raises(TypingError, match="C-contiguous"):
        _rows_of_states(np.zeros((7, WIDTH)), np.zeros((WIDTH, 3, 8), order="F"))
