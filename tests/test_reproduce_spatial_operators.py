"""``eslabon reproduce jaramillo``: eslabon's reference cases P1, A, B for seeds 002/004
(Jaramillo Botero 1998, *Dinámica de Manipuladores Robóticos*), Example 1 (the cuboid,
(1.13)–(1.26)), and the errata of (1.60)/Figure 7 and Figure 8's step ➎ (the
printed-formula values are shown beside, never produced by the library).
"""

import json

import numpy as np
import pytest

import eslabon as es
from eslabon.cli.main import main
from eslabon.dynamics import soa
from eslabon.reproduce.spatial_operators import CASE_A, CASE_B

pytestmark = pytest.mark.source("Jaramillo Botero (1998)", "Example 1; Figures 7 and 8")


def figure_7_printed_sign_planar():
    """Case A (planar 2R, every axis z) with (1.60)/Figure 7's printed −I_i Ŝ̇ᵀV_i, in
    closed form: that term is the spatial force of link i's centripetal COM acceleration
    about O_i, [m s × (ω × (ω × s)); m ω × (ω × s)] = [0; −m ω_i² s_i] in the plane, so
    the printed sign takes 2 (O_i − O_j) × (−m_i ω_i² s_i) · z off τ_j for each i ≥ j."""
    model = es.zoo.load("planar2")
    q, qd, qdd = (np.asarray(CASE_A[k], float) for k in ("q", "qd", "qdd"))
    T = es.forward_kinematics(model, q)
    origin = T[1:, :3, 3]
    s = np.einsum("iab,ib->ia", T[1:, :3, :3], model.com[1:])  # O_i to the COM, world
    omega = np.cumsum(qd)  # ω_i about z
    tau = es.inverse_dynamics(model, q, qd, qdd)
    for j in range(2):
        for i in range(j, 2):
            force = -model.mass[i + 1] * omega[i] ** 2 * s[i]
            tau[j] -= 2 * np.cross(origin[i] - origin[j], force)[2]
    return tau


def figure_8_printed_step_5():
    """Case B with Figure 8's printed step ➎ Q̈₂ = −Bᵀ F_S, F_S = A⁻¹S, S = −B F_T:
    (C + BᵀA⁻¹B)(τ − ξ). The blocks are first checked against eslabon's composite-body
    mass matrix: (1.100)–(1.101) say C − BᵀA⁻¹B = M⁻¹, so the printed step gives
    2C(τ − ξ) − M⁻¹(τ − ξ)."""
    model = es.zoo.load("jaramillo_rpr")
    q, qd, tau = (np.asarray(CASE_B[k], float) for k in ("q", "qd", "tau"))
    blocks = soa.schur_blocks(model, q)
    schur = blocks.B.T @ np.linalg.solve(blocks.A, blocks.B)
    M_inv = np.linalg.inv(es.mass_matrix(model, q))
    np.testing.assert_allclose(blocks.C - schur, M_inv, atol=1e-9 * np.abs(M_inv).max())
    net = tau - es.bias_forces(model, q, qd)
    return 2 * blocks.C @ net - M_inv @ net


def test_reproduce_jaramillo(tmp_path, capsys):
    assert main(["reproduce", "jaramillo", "--out", str(tmp_path), "--json"]) in (0, None)
    data = json.loads(capsys.readouterr().out)
    np.testing.assert_allclose(data["P1"]["tau"], data["P1"]["expected"], atol=1e-9)
    assert abs(data["P1"]["M"] - 1 / 3) < 1e-12
    for case in ("A", "B"):
        for key, row in data[case].items():
            if key in ("tau", "M", "xi", "qdd"):
                assert row["max_abs_diff"] < 1e-9, (case, key)
                if "printed_formula" in row:  # the errata give other numbers
                    assert np.abs(np.subtract(row["printed_formula"], row["computed"])).max() > 1e-3
    np.testing.assert_allclose(
        data["A"]["tau"]["printed_formula"], figure_7_printed_sign_planar(), atol=1e-9
    )
    np.testing.assert_allclose(
        data["B"]["qdd"]["printed_formula"], figure_8_printed_step_5(), rtol=1e-9
    )
    assert "singular 6×6 inertia" in data["thin_rod"]
    ex = data["example_1"]  # Example 1's (1.19) at m = 6, a = 1, b = 2, c = 3
    np.testing.assert_allclose(ex["corner"], [[10, -9, -4.5], [-9, 20, -3], [-4.5, -3, 26]])
    np.testing.assert_allclose(ex["parallel_axis"], ex["corner"], atol=1e-12)
    assert np.abs(np.subtract(ex["printed_formula"], ex["corner"])).max() == 18.0
    assert json.loads((tmp_path / "summary.json").read_text())["B"]["M"]["max_abs_diff"] < 1e-9
    ext = data["extensions"]  # trees, constraints in the chain, the O(log2 N) claim
    for name, row in ext["trees"].items():
        if "skipped" in row:  # a robot of example-robot-data, when it is not installed
            continue
        assert max(row["M_vs_crba"], row["xi_vs_rnea"], row["tau_vs_rnea"]) < 1e-12, name
        assert ("qdd_vs_aba" in row) != ("constraint_force_form" in row), name
        if "qdd_vs_aba" in row:
            assert row["qdd_vs_aba"] < 1e-11 and row["fill"] == 0, name
    assert "singular 6×6 inertia" in ext["trees"]["humanoid"]["constraint_force_form"]
    for label, row in ext["constraints"].items():
        values = [x for v in row.values() for x in (v.values() if isinstance(v, dict) else [v])]
        numbers = [x for x in values if isinstance(x, float)]
        bound = 1e-8 if "rolling" in label else 1e-11  # −Ȧq̇ by central differences there
        assert max(numbers) < bound, label
    rows = ext["log2_claim"]["rows"]
    assert [r["N"] for r in rows] == [8, 16, 32, 64, 128, 256, 512, 1024]
    steps = np.diff([r["depth_cr"] for r in rows])
    np.testing.assert_allclose(steps, steps[0], rtol=1e-12)  # depth: a constant per doubling
    assert all(r["depth_thomas"] == r["work_thomas"] for r in rows)
    assert all(r["relative_difference"] < 1e-9 for r in rows)
    assert all(r["xi_vs_rnea"] < 1e-12 for r in rows)  # step 1 by scans
    assert np.ptp(np.diff([r["stages_scans"] for r in rows])) == 0
