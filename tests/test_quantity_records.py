"""Each public compiled quantity is declared once (eslabon.dynamics.quantity): its record
names its drivers, the public function comes from it, and a new quantity made of
existing drivers is one record."""

import inspect
from dataclasses import replace

import numpy as np
import pytest

import eslabon as es
from eslabon._engine import entrypoints
from eslabon.dynamics import api
from eslabon.dynamics.codes import MODE_BIAS
from eslabon.dynamics.quantity import ZERO, Quantity, _driver, run
from test_rollout_general import _mimic_tree


def _parameters(path):
    f = _driver(path)
    return list(inspect.signature(getattr(f, "py_func", f)).parameters)


RECORDS = {k: v for k, v in vars(api).items() if isinstance(v, Quantity)}


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_drivers_take_the_records_arguments(name):
    """driver(P, *kernel states, *fixed, *outputs, [chunks,] extended): as many states,
    fixed values and outputs as the record gives, in that order."""
    record = RECORDS[name]
    states = len(record.kernel_states or record.states)
    fixed_counts = (len(record.fixed_one), len(record.fixed_many))
    for path, tail, fixed in zip((record.one, record.many), (1, 2), fixed_counts, strict=True):
        names = _parameters(path)
        assert names[0] == "P" and names[-1] == "extended", path
        assert len(names) == 1 + states + fixed + len(record.outputs) + tail, path


@pytest.mark.parametrize("record", [r for r in api.QUANTITIES if r.entry], ids=lambda r: r.name)
def test_public_function_comes_from_its_record(record):
    f = getattr(api, record.name)
    assert getattr(es, record.name) is f
    if entrypoints.AVAILABLE:
        assert f.__self__.general.__name__ == record.name
        assert f.__name__ == record.name


def test_every_public_quantity_has_a_record():
    names = {r.name for r in api.QUANTITIES}
    public = {"inverse_dynamics", "gravity_torques", "bias_forces", "mass_matrix"}
    public |= {"forward_dynamics", "coriolis_matrix"}
    public |= {"inverse_dynamics_derivatives", "forward_dynamics_derivatives"}
    assert names == public | {api.ENERGIES.name}  # (kinetic_energy, potential_energy)
    assert names >= {n for n, v in vars(api).items() if inspect.isbuiltin(v)}


def test_a_record_that_does_not_take_mimic_joints_refuses_them():
    with pytest.raises(ValueError, match="forward_dynamics: this record does not take mimic"):
        run(api.FORWARD_DYNAMICS, _mimic_tree(), q=np.zeros(6), qd=np.zeros(5), tau=np.zeros(5))


def test_a_new_quantity_is_one_record():
    """A scratch record over existing drivers (Newton–Euler at q̈ = 0) runs the whole
    call sequence: one state, a batch and a mimic model. On the Puma each state equals
    the C entry of inverse dynamics at q̈ = 0 (no general path) bit for bit; on the
    mimic model, τ = M q̈ + b checks it against the mass matrix."""
    scratch = Quantity(
        "scratch_bias",
        ("q", "qd"),
        ("n",),
        "eslabon.dynamics.drivers:rnea_one",
        "eslabon.dynamics.batch_drivers:rnea_many",
        kernel_states=("q", "qd", ZERO),
        fixed_one=(1.0, None),
        fixed_many=(1.0, None, MODE_BIAS),
        mimic_out="forces",
    )
    for model in (es.zoo.load("puma560"), _mimic_tree()):
        rng = np.random.default_rng(3)
        q = rng.uniform(-1, 1, (7, model.nq))
        qd = rng.uniform(-1, 1, (7, model.nv))
        many = run(scratch, model, q=q, qd=qd)
        one = run(scratch, model, q=q[2], qd=qd[2])
        assert np.array_equal(many[2], one)
        if model.mimic is None:
            for i in range(len(q)):
                zero = np.zeros(model.nv)
                assert np.array_equal(many[i], es.inverse_dynamics(model, q[i], qd[i], zero))
        else:
            qdd = np.linspace(-1, 1, model.nv)
            tau = es.mass_matrix(model, q[2]) @ qdd + one
            np.testing.assert_allclose(es.inverse_dynamics(model, q[2], qd[2], qdd), tau,
                                       rtol=1e-12, atol=1e-12)  # fmt: skip


def test_run_names_the_field():
    arm = es.zoo.load("puma560")
    q = np.zeros(arm.nq)
    q[2] = np.nan
    with pytest.raises(ValueError, match="q: expected finite values, got nan at index 2"):
        run(api.MASS_MATRIX, arm, q=q)
    with pytest.raises(ValueError, match=r"qd: expected shape \(6,\) or \(N, 6\), got \(5,\)"):
        run(api.ENERGIES, arm, q=np.zeros(6), qd=np.zeros(5))


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("check", "sometimes", "check"),
        ("mimic_out", "twice", "mimic_out"),
        ("outputs", ("n", "nnn"), "outputs"),
        ("kernel_states", ("q", "qdd"), "kernel_states"),
    ],
)
def test_a_record_with_a_bad_field_is_refused(field, value, message):
    with pytest.raises(ValueError, match=message):
        replace(api.BIAS_FORCES, **{field: value})
