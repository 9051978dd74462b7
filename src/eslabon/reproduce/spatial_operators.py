"""``eslabon reproduce jaramillo``: the reference cases of seeds 002/004 (Jaramillo Botero
1998), with what the document's printed formulas would give beside the corrected ones.

The document has no numeric example except the cuboid of Example 1; the cases P1 (a
pendulum), A (a planar 2R arm, the zoo's ``planar2``) and B (a spatial R-P-R chain,
``jaramillo_rpr``) are eslabon's own reference cases. Their expected values were computed
independently of eslabon with the corrected recursion of Figure 7 and checked against a
closed-form 2R model (A) and a Lagrangian built from Jacobians (B). The printed-formula
values are computed here, from the library's operators, only to show two errata of the
document; the library itself never produces them:

* (1.60) and Figure 7 print the last force term as −I_i Ŝ̇ᵀ V_i; it is +I_i Ŝ̇ᵀ V_i, as in
  (1.51) and (1.53) (the author's own note beside it reads "REVISAR SIGNO ULTIMO TÉRMINO");
* Figure 8's step ➎ prints Q̈₂ = −Bᵀ F_S; with S = −B F_T and F_S = A⁻¹ S it must be
  +Bᵀ F_S, as in (1.100)–(1.101).

It then runs :mod:`.operator_extensions`: the forms on trees, constraints inside the
chain, and the O(log₂ N) claim measured.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import zoo
from .._files import write_text_atomic
from ..dynamics import soa
from ..dynamics.api import forward_dynamics, inverse_dynamics

CASE_A = dict(
    q=[0.3, -0.5],
    qd=[0.4, 1.2],
    qdd=[-0.7, 0.9],
    tau=[10.0, 2.0],
    expected=dict(
        tau=[28.172730613335, 5.418062349474],
        M=[[3.539765740935, 0.846549537134], [0.846549537134, 0.32]],
        xi=[29.888672048569, 5.722647025468],
        qdd=[-7.722020506405, 8.795080812409],
    ),
)
CASE_B = dict(
    q=[0.5, 0.25, -0.8],
    qd=[1.0, -0.3, 2.0],
    qdd=[0.5, 1.0, -1.5],
    tau=[5.0, 30.0, -1.0],
    expected=dict(
        tau=[0.417100674858, 17.045021086453, -0.5605020317],
        M=[
            [0.914026275785, 0.606217782649, 0.001197811997],
            [0.606217782649, 3.0, -0.021933670358],
            [0.001197811997, -0.021933670358, 0.0069],
        ],
        xi=[-0.644333527688, 13.709011689591, -0.528817267341],
        qdd=[3.363500470499, 4.348180603309, -55.049277371652],
    ),
)
CASE_P1 = dict(
    states=[([0.0], [0.0], [0.0], 4.905), ([0.3], [0.4], [-0.7], 4.452592145828)], M=1.0 / 3.0
)


def printed_figure7_torques(model, q, qd, qdd):
    """τ with Figure 7's printed last force term −I Ŝ̇ᵀV instead of +I Ŝ̇ᵀV, i.e. with
    ℘ − 2 I_O [0; w × (w × s)] in the operator form (the erratum of (1.60))."""
    d = soa.chain_data(model, np.asarray(q, float), np.asarray(qd, float))
    ops = soa.global_operators(model, np.asarray(q, float), np.asarray(qd, float))
    Vd = ops.rho.T @ (ops.H @ np.asarray(qdd, float) + ops.B)
    V = ops.rho.T @ (ops.H @ np.asarray(qd, float))  # P̂ᵀ V = H q̇ (1.62), gravity-free
    G = []
    for i in range(model.nb):
        w = V[6 * i : 6 * i + 3]
        b = np.concatenate([np.zeros(3), np.cross(w, np.cross(w, d.com_offset[i]))])
        G.append(d.gyroscopic[i] - 2.0 * d.inertia[i] @ b)
    return ops.H.T @ ops.rho @ (ops.I @ Vd + np.concatenate(G))


def printed_figure8_accelerations(model, q, qd, tau):
    """q̈ with Figure 8's printed step ➎ (−Bᵀ F_S): (C + BᵀA⁻¹B)(τ − ξ), not (1.101)."""
    net = np.asarray(tau, float) - soa.operator_terms(model, q, qd)[1]
    blocks = soa.schur_blocks(model, np.asarray(q, float))
    FS = np.linalg.solve(blocks.A, -blocks.B @ net)
    return blocks.C @ net - blocks.B.T @ FS


def _row(label, computed, expected, printed=None):
    computed = np.asarray(computed, float)
    entry = {
        "computed": computed.tolist(),
        "expected": np.asarray(expected).tolist(),
        "max_abs_diff": float(np.abs(computed - np.asarray(expected)).max()),
    }
    lines = [
        f"  {label:<34} {np.array2string(computed.ravel(), precision=10, max_line_width=160)}"
        f"   |diff| {entry['max_abs_diff']:.1e}"
    ]
    if printed is not None:
        entry["printed_formula"] = np.asarray(printed, float).tolist()
        lines.append(
            f"  {'':<34} printed formula: "
            f"{np.array2string(np.asarray(printed, float), precision=10)}"
        )
    return entry, lines


def _case(name, model, case):
    q, qd, qdd, tau = (np.asarray(case[k], float) for k in ("q", "qd", "qdd", "tau"))
    data, lines = {}, [f"Case {name}: {model.name} ({model.source})"]
    M, xi = soa.operator_terms(model, q, qd)
    for key, label, value, printed in (
        (
            "tau",
            "τ, Newton–Euler (Figure 7 fixed)",
            inverse_dynamics(model, q, qd, qdd),
            printed_figure7_torques(model, q, qd, qdd),
        ),
        ("M", "M = HᵀρIρᵀH (1.71)", M, None),
        ("xi", "ξ (1.72), gravity included", xi, None),
        (
            "qdd",
            f"q̈ at τ = {tau.tolist()} (Figure 8)",
            forward_dynamics(model, q, qd, tau, algorithm="soa")
            if name == "B"
            else forward_dynamics(model, q, qd, tau),
            printed_figure8_accelerations(model, q, qd, tau) if name == "B" else None,
        ),
    ):
        data[key], more = _row(label, value, case["expected"][key], printed)
        lines += more
    return data, lines


def reproduce(out) -> tuple[dict, list]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    lines = [
        "Seeds 002/004, Jaramillo Botero (1998): spatial operators, [angular; linear], "
        "eslabon's reference cases P1, A, B (the document prints no numbers)"
    ]
    data = {}
    p1 = zoo.load("jaramillo_pendulum")
    data["P1"] = {
        "tau": [float(inverse_dynamics(p1, *s[:3])[0]) for s in CASE_P1["states"]],
        "expected": [s[3] for s in CASE_P1["states"]],
        "M": float(soa.operator_terms(p1, [0.3], [0.4])[0][0, 0]),
    }
    lines.append(
        f"Case P1: pendulum τ = {data['P1']['tau']} (expected {data['P1']['expected']}),"
        f" M = {data['P1']['M']:.12f} (expected 1/3)"
    )
    data["A"], more = _case("A", zoo.load("planar2"), CASE_A)
    lines += more
    data["B"], more = _case("B", zoo.load("jaramillo_rpr"), CASE_B)
    lines += more
    # Example 1: the cuboid about its corner, from the centroid by the parallel-axis rule
    from ..spatial.spatial6 import cuboid_inertia, parallel_axis

    corner = cuboid_inertia(6.0, 1.0, 2.0, 3.0, about="corner")
    shift = np.array([1.5, 1.0, 0.5])  # (c/2, b/2, a/2)
    shifted = parallel_axis(cuboid_inertia(6.0, 1.0, 2.0, 3.0), 6.0, shift)
    printed = shifted.copy()  # (1.26) printed: I_xy − m x y
    off = ~np.eye(3, dtype=bool)
    printed[off] = -shifted[off]
    data["example_1"] = {
        "corner": corner.tolist(),
        "parallel_axis": shifted.tolist(),
        "printed_formula": printed.tolist(),
    }
    lines.append(
        "Example 1 (m = 6, a = 1, b = 2, c = 3): corner tensor "
        f"{corner.round(6).tolist()}; by the parallel-axis rule "
        f"{shifted.round(6).tolist()}; with the printed (1.26) sign "
        f"{printed.round(6).tolist()}"
    )
    try:
        soa.forward_dynamics(p1, [0.3], [0.4], [1.0])
    except ValueError as exc:
        data["thin_rod"] = str(exc)
        lines.append(f"Constraint forces on the P1 rod: {exc}")
    from . import operator_extensions  # trees, constraints, the O(log₂ N) claim

    data["extensions"], more = operator_extensions.reproduce()
    lines += more
    from . import body_moments  # (1.11)–(1.12) point masses, (1.39) body momenta

    data["body_moments"], more = body_moments.report()
    lines += more
    write_text_atomic(out / "summary.json", json.dumps(data, indent=2))
    lines.append(f"files: {out / 'summary.json'}")
    return data, lines
