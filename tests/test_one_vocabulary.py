"""One vocabulary across the public surface (docs/conventions.md, "Keywords"): one
argument order for the simulations, ``algorithm=`` / ``integrator=`` / ``derivatives=`` /
``profile=`` / ``backend=``, one wrench convention, one name per thing; every old spelling
works for one release, warns once, and gives the same numbers."""

from __future__ import annotations

import inspect
import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import eslabon as es
from eslabon import conventions
from eslabon import mobile as mb
from eslabon._deprecation import EslabonDeprecationWarning
from eslabon.dynamics.wrenches import ExternalWrench

ROOT = Path(__file__).resolve().parents[1]

# a script written against the old names: each old spelling twice
OLD_SCRIPT = """
import json, sys, numpy as np, eslabon as es
from eslabon import mobile as mb, control as ctl
arm, puma = es.zoo.load("planar2"), es.zoo.load("puma560")
q, qd, qdd = np.array([0.3, -0.2]), np.array([0.5, 1.0]), np.array([1.0, -2.0])
w = np.array([0.1, -0.2, 0.3, 1.0, 2.0, -3.0])
qp = np.linspace(-0.5, 0.5, 6)
out = {}
for k in range(2):
    out["sim"] = es.simulate(arm, 0.05, 0.01, q0=q, method="euler", fd_method="walker_orin_3").q
    out["sim1"] = es.simulate(arm, 0.05, q0=q).q
    out["roll"] = es.rollout(arm, q[None], qd[None], 0.05, 0.01, method="rk4", fd_method="aba").q
    out["fd"] = es.forward_dynamics(arm, q, qd, qdd, method="walker_orin_1")
    out["m_soa"] = es.mass_matrix(puma, qp, method="soa_composite")
    out["m_op"] = es.mass_matrix(puma, qp, algorithm="operator")
    out["id_tip"] = es.inverse_dynamics(puma, qp, qp, qp, tip_wrench=w)
    out["trace_tip"] = es.rnea_trace(puma, qp, qp, qp, tip_wrench=w).tau
    out["lin"] = ctl.linearize(arm, q, qd, qdd, method="central").A
    out["traj"] = es.joint_trajectory(0.0, 1.0, [0.0, 1.0, 2.0], method="trapezoidal").q
    A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    out["poles"] = ctl.place_poles(A, B, [-1.0, -2.0], method="sylvester")
    nominal = ctl.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0, 0.1, 3)))
    law = ctl.pd_gravity_law(arm, [1.0, -0.5], 100.0, 20.0)
    out["closed"] = ctl.simulate_closed_loop(arm, nominal, law, dt=0.01, dq0=[0.05, 0.0],
                                             method="rk4").error
    out["ss"] = ctl.state_space(np.eye(2), np.zeros((2, 2)), np.eye(2))[0]
    ctl.to_statespace
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    out["mobile"] = mb.simulate(mm, 0.02, 0.01, method="rk4", u=[150.0, 0.3]).config
    y = mm.state(nu=[1.0, 0.0])
    out["ke"] = mb.kinetic_energy(mm, y)
    out["pe"] = mb.potential_energy(mm, y)
    out["inv"] = mb.inverse_dynamics(mm, y, np.zeros(2), np.zeros(6))
    from eslabon.model import files
    files.load_model
np.savez(sys.argv[1], **out)
"""


def _new_names(path):
    """The same numbers by the new names."""
    from eslabon import control as ctl

    arm, puma = es.zoo.load("planar2"), es.zoo.load("puma560")
    q, qd, qdd = np.array([0.3, -0.2]), np.array([0.5, 1.0]), np.array([1.0, -2.0])
    w = np.array([0.1, -0.2, 0.3, 1.0, 2.0, -3.0])
    qp = np.linspace(-0.5, 0.5, 6)
    A, B = np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[0.0], [1.0]])
    nominal = ctl.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0, 0.1, 3)))
    law = ctl.pd_gravity_law(arm, [1.0, -0.5], 100.0, 20.0)
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    y = mm.state(nu=[1.0, 0.0])
    tip = [ExternalWrench("ee", -w, "local")]
    return {
        "sim": es.simulate(arm, q, None, 0.05, 0.01, integrator="euler", algorithm="crba").q,
        "sim1": es.simulate(arm, q, None, 0.05).q,
        "roll": es.rollout(arm, q[None], qd[None], 0.05, 0.01, integrator="rk4").q,
        "fd": es.forward_dynamics(arm, q, qd, qdd, algorithm="rnea_columns"),
        "m_soa": es.mass_matrix(puma, qp, algorithm="soa"),
        "m_op": es.mass_matrix(puma, qp, algorithm="soa_operator"),
        "id_tip": (es.inverse_dynamics(puma, qp, qp, qp, wrenches=tip), 1e-12),
        "trace_tip": (es.rnea_trace(puma, qp, qp, qp, wrenches=tip).tau, 1e-12),
        "lin": ctl.linearize(arm, q, qd, qdd, derivatives="central").A,
        "traj": es.joint_trajectory(0.0, 1.0, [0.0, 1.0, 2.0], profile="trapezoidal").q,
        "poles": ctl.place_poles(A, B, [-1.0, -2.0], backend="sylvester"),
        "closed": ctl.simulate_closed_loop(
            arm, nominal, law, nominal(0.0)[0] + [0.05, 0.0], dt=0.01
        ).error,
        "ss": ctl.state_matrices(np.eye(2), np.zeros((2, 2)), np.eye(2))[0],
        "mobile": mb.simulate(mm, None, None, 0.02, 0.01, integrator="rk4", u=[150.0, 0.3]).config,
        "ke": mb.coupled_kinetic_energy(mm, y),
        "pe": mb.arm_potential_energy(mm, y),
        "inv": mb.input_forces(mm, y, np.zeros(2), np.zeros(6)),
    }


def test_a_script_with_the_old_names_warns_once_per_name_and_gives_the_same_numbers(tmp_path):
    script, result = tmp_path / "old.py", tmp_path / "old.npz"
    script.write_text(textwrap.dedent(OLD_SCRIPT))
    run = subprocess.run(
        [sys.executable, str(script), str(result)], capture_output=True, text=True, cwd=tmp_path
    )
    assert run.returncode == 0, run.stderr
    warnings = [ln for ln in run.stderr.splitlines() if "EslabonDeprecationWarning" in ln]
    olds = [re.search(r"EslabonDeprecationWarning: (.*?) is deprecated", ln)[1] for ln in warnings]
    assert len(olds) == len(set(olds)), olds  # once per old name, though used twice
    expected = [
        "simulate(model, t_final, dt, q0=…, qd0=…)",
        "simulate(method=…)",
        "simulate(fd_method=…)",
        "rollout(method=…)",
        "rollout(fd_method=…)",
        "forward_dynamics(method=…)",
        "mass_matrix(method=…)",
        "mass_matrix(algorithm='soa_composite')",
        "mass_matrix(algorithm='operator')",
        "inverse_dynamics(tip_wrench=w)",
        "rnea_trace(tip_wrench=w)",
        "control.linearize(method=…)",
        "joint_trajectory(method=…)",
        "control.place_poles(method=…)",
        "control.simulate_closed_loop(method=…)",
        "simulate_closed_loop(dq0=e)",
        "mobile.simulate(model, t_final, dt, q0=…, qd0=…)",
        "mobile.simulate(method=…)",
        "eslabon.control.state_space",
        "eslabon.control.to_statespace",
        "eslabon.mobile.kinetic_energy",
        "eslabon.mobile.potential_energy",
        "eslabon.mobile.inverse_dynamics",
        "eslabon.model.files.load_model",
    ]
    for old in expected:
        assert any(o.startswith(old) for o in olds), (old, olds)
    assert len(olds) == len(expected), olds
    # each warning points at the user's own line, and names the new call
    assert all(str(script) in ln for ln in warnings), warnings
    assert all("; use " in ln for ln in warnings)
    old = np.load(result)
    for key, value in _new_names(tmp_path).items():
        value, tol = value if isinstance(value, tuple) else (value, 0.0)
        if tol == 0.0:  # the same computation on this machine in this run: the same bits
            assert np.asarray(value).tobytes() == old[key].tobytes(), key
        else:  # the deprecated per-body wrench pass against J_fᵀ w: rounding
            np.testing.assert_allclose(value, old[key], rtol=0, atol=tol, err_msg=key)


def _public_functions():
    import eslabon.control  # noqa: F401  (es.control, es.sim: their packages loaded)
    import eslabon.sim  # noqa: F401

    for module in (es, es.control, es.sim, mb):
        for name in module.__all__:
            obj = getattr(module, name)
            if callable(obj) and not inspect.isclass(obj):  # the compiled entries too
                yield f"{module.__name__}.{name}", obj


def test_no_public_signature_takes_method():
    """``method=`` had five meanings; each is its own keyword now (the old one still
    works, with a warning, but is not in any signature)."""
    found, read = [], set()
    for name, f in _public_functions():
        params = inspect.signature(f).parameters  # every public function has one
        read.add(name)
        found += [f"{name}({p})" for p in params if p in ("method", "fd_method")]
    assert found == []
    assert {"eslabon.forward_dynamics", "eslabon.mass_matrix", "eslabon.simulate"} <= read


def test_the_keywords_are_documented_in_conventions():
    text = (ROOT / "docs" / "conventions.md").read_text(encoding="utf-8")
    section = text.split("## Keywords", 1)[1].split("\n## ", 1)[0]
    for word in ("algorithm=", "integrator=", "derivatives=", "profile=", "backend="):
        assert f"`{word}" in section, word
    for name in list(conventions.ALGORITHMS) + list(conventions.INTEGRATORS):
        assert f"`{name}`" in section, name
    for alias in list(conventions.ALGORITHM_ALIASES) + list(conventions.DEPRECATED_ALGORITHM_NAMES):
        assert f"`{alias}`" in section, alias


def test_the_simulations_take_one_argument_order():
    for f in (es.simulate, es.rollout, mb.simulate):
        assert list(inspect.signature(f).parameters)[:5] == ["model", "q0", "qd0", "t_final", "dt"]
    closed = list(inspect.signature(es.control.simulate_closed_loop).parameters)
    assert closed[:7] == ["model", "nominal", "law", "q0", "qd0", "t_final", "dt"]
    for f in (es.simulate, es.rollout, es.control.simulate_closed_loop, mb.simulate):
        assert "integrator" in inspect.signature(f).parameters


def test_an_old_and_a_new_keyword_together_are_refused():
    arm = es.zoo.load("planar2")
    with pytest.raises(TypeError, match="give algorithm= alone"):
        es.forward_dynamics(arm, [0, 0], [0, 0], [0, 0], method="aba", algorithm="aba")
    with pytest.raises(TypeError, match="give wrenches= alone"):
        with pytest.warns(EslabonDeprecationWarning):
            es.inverse_dynamics(
                arm, [0, 0], [0, 0], [0, 0], tip_wrench=np.ones(6), wrenches=[("ee", np.ones(6))]
            )
    with pytest.raises(TypeError, match="t_final is required"):
        es.simulate(arm, [0, 0], [0, 0])


def test_an_unknown_algorithm_names_the_keyword_and_the_aliases():
    arm = es.zoo.load("planar2")
    pattern = (
        r"algorithm: expected one of \('aba', 'crba'.*"
        r"\(or the aliases 'walker_orin_3', 'walker_orin_1'\), got 'abba'"
    )
    with pytest.raises(ValueError, match=pattern):
        es.forward_dynamics(arm, [0, 0], [0, 0], [0, 0], algorithm="abba")
    with pytest.raises(ValueError, match="integrator: 'dop853' is not available here"):
        es.rollout(arm, np.zeros((1, 2)), np.zeros((1, 2)), 0.1, 0.01, integrator="dop853")


def test_a_source_alias_is_the_same_algorithm_without_a_warning():
    arm = es.zoo.load("puma560")
    q = np.linspace(-0.4, 0.6, 6)
    for alias, name in conventions.ALGORITHM_ALIASES.items():
        a = es.mass_matrix(arm, q, algorithm=alias)  # an error if it warned
        assert a.tobytes() == es.mass_matrix(arm, q, algorithm=name).tobytes()


def test_one_set_of_integrator_names_in_sim_and_mobile():
    arm = es.zoo.load("planar2")
    q0 = [0.3, -0.2]
    ref = es.simulate(arm, q0, None, 0.2, 0.01, integrator="dop853", rtol=1e-12, atol=1e-12)
    rk45 = es.simulate(arm, q0, None, 0.2, 0.01, integrator="rk45", rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(rk45.q, ref.q, atol=1e-8)
    cart = mb.Tricycle(mb.TricycleParams.seekur_jr_assumed())
    mm = mb.MobileManipulator(cart, es.zoo.load("puma560_araujo"), mb.Mount((0.3, 0, 0.5)))
    u, tau = [150.0, 0.3], [6, 50, 10, -0.1, -0.5, -0.1]
    exact = mb.simulate(mm, None, None, 0.1, 0.01, u=u, torque=tau, integrator="dop853")
    errors = []
    for dt in (0.002, 0.001):  # semi-implicit Euler: first order
        run = mb.simulate(mm, None, None, 0.1, dt, u=u, torque=tau, integrator="euler")
        errors.append(np.abs(run.config[-1] - exact.config[-1]).max())
    assert 1.6 < errors[0] / errors[1] < 2.4, errors
    from eslabon.mobile.simulate import METHODS as MOBILE
    from eslabon.sim.simulate import METHODS as SIM

    assert set(MOBILE) == set(SIM) == set(conventions.INTEGRATORS)


@pytest.mark.parametrize("axes", ["world", "local"])
def test_inverse_dynamics_takes_the_wrenches_forward_dynamics_takes(axes):
    """One convention: the world's wrench on the robot. ID with it, then FD with it, is
    the motion back; batches equal single states; the trace's torques are the same."""
    model = es.zoo.load("panda").replace(armature=0.0)
    rng = np.random.default_rng(4)
    Q, QD, QDD = (rng.uniform(-1, 1, (3, model.nv)) for _ in range(3))
    push = [ExternalWrench("ee", [0.5, -0.2, 0.1, 3.0, -4.0, 5.0], axes), ("link4", np.ones(6))]
    tau = es.inverse_dynamics(model, Q, QD, QDD, wrenches=push)
    back = es.forward_dynamics(model, Q, QD, tau, wrenches=push)
    np.testing.assert_allclose(back, QDD, atol=1e-9)
    for k in range(3):
        one = es.inverse_dynamics(model, Q[k], QD[k], QDD[k], wrenches=push)
        np.testing.assert_allclose(one, tau[k], rtol=0, atol=1e-12)
        traced = es.rnea_trace(model, Q[k], QD[k], QDD[k], wrenches=push).tau
        np.testing.assert_allclose(traced, tau[k], rtol=0, atol=1e-11)
    # pushing on the robot lowers the torque the joints must give: τ = ID − Σ J_fᵀ w
    free = es.inverse_dynamics(model, Q, QD, QDD)
    from eslabon.dynamics.wrenches import external_wrenches, wrench_torques

    np.testing.assert_allclose(
        free - tau, wrench_torques(model, Q, external_wrenches(model, push)), atol=1e-12
    )


def test_the_deprecated_tip_wrench_states_its_sign():
    arm = es.zoo.load("puma560")
    q = np.linspace(-0.4, 0.6, 6)
    w = np.array([0.1, -0.2, 0.3, 1.0, 2.0, -3.0])
    with pytest.warns(EslabonDeprecationWarning, match=r"exerts on the world.*-w, \"local\""):
        old = es.inverse_dynamics(arm, q, q, q, tip_wrench=w)
    new = es.inverse_dynamics(arm, q, q, q, wrenches=[ExternalWrench("ee", -w, "local")])
    np.testing.assert_allclose(old, new, rtol=0, atol=1e-12)
    with pytest.raises(ValueError, match="a callable needs the time"):
        es.inverse_dynamics(arm, q, q, q, wrenches=[("ee", lambda t, q, qd: np.zeros(6))])


def test_closed_loop_starts_where_told_or_at_the_nominal():
    arm = es.zoo.load("planar2")
    ctl = es.control
    nominal = ctl.Nominal(*es.joint_trajectory([0.0, 0.0], [1.0, -0.5], np.linspace(0, 0.1, 3)))
    law = ctl.pd_gravity_law(arm, [1.0, -0.5], 100.0, 20.0)
    at_nominal = ctl.simulate_closed_loop(arm, nominal, law, dt=0.01)
    assert np.abs(at_nominal.error[0]).max() == 0.0
    off = ctl.simulate_closed_loop(arm, nominal, law, [0.05, 0.0], [0.0, 0.1], 0.1, 0.01)
    assert off.error[0].tolist() == [0.05, 0.0] and off.error_rate[0].tolist() == [0.0, 0.1]
    with pytest.warns(EslabonDeprecationWarning):
        with pytest.raises(TypeError, match="give q0= alone"):
            ctl.simulate_closed_loop(arm, nominal, law, [0.0, 0.0], dt=0.01, dq0=[0.1, 0.0])


def test_one_load_model(tmp_path):
    """One public loader: eslabon.load_model reads either kind; the arm-only loader's old
    public name warns, and is gone from the model package's names."""
    import eslabon.model

    mm = es.load_model(ROOT / "examples" / "seekur_puma.yaml")
    assert isinstance(mm, mb.MobileManipulator)
    assert "load_model" not in eslabon.model.__all__
    with pytest.warns(EslabonDeprecationWarning, match="arm files only.*use eslabon.load_model"):
        assert callable(eslabon.model.load_model)


def test_the_cli_takes_the_new_options_and_warns_on_the_old(tmp_path):
    def cli(*argv):
        return subprocess.run(
            [sys.executable, "-m", "eslabon", *argv], capture_output=True, text=True
        )

    new = cli("fd", "planar2", "--q", "0.3,-0.2", "--tau", "1,0", "--algorithm", "crba", "--json")
    old = cli("fd", "planar2", "--q", "0.3,-0.2", "--tau", "1,0", "--method", "crba", "--json")
    assert new.returncode == old.returncode == 0, (new.stderr, old.stderr)
    assert json.loads(new.stdout)["qdd"] == json.loads(old.stdout)["qdd"]
    assert old.stderr.strip() == "warning: --method is deprecated; use --algorithm"
    out = tmp_path / "run.npz"
    sim = cli("simulate", "planar2", "--t-final", "0.05", "--dt", "0.01", "--integrator",
              "euler", "--algorithm", "rnea_columns", "--out", str(out))  # fmt: skip
    assert sim.returncode == 0 and sim.stderr == "", sim.stderr
    both = cli("simulate", "planar2", "--method", "rk4", "--integrator", "rk4", "--out", str(out))
    assert both.returncode == 2 and "--method: give --integrator alone" in both.stderr
