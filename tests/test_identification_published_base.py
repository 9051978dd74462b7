"""Base parameters against published lists: the Franka Emika Panda of Gaz, Cognetti,
Oliva, Robuffo Giordano & De Luca 2019, "Dynamic identification of the Franka Emika
Panda robot with retrieval of feasible parameters using penalty-based optimization",
IEEE Robotics and Automation Letters 4(4), supplementary material, Table III (the 43
dynamic coefficients, first column); and the Stäubli RX-90 (the PUMA's kinematic
class, Khalil & Dombre, "Modeling, Identification and Control of Robots", 2002) as the
authors' program SYMORO+ groups it (its public repository symoro/symoro,
``Robots/RX90/RX90_regp.txt``: "RX90 grouped inertia parameters")."""

from __future__ import annotations

import numpy as np
import pytest

import eslabon as es
from eslabon.identification import base_parameters, structural_base_parameters


def _links(field, coefficient, links):
    return {f"link{i}.{field}": coefficient for i in links}


def _published_panda():
    """Table III's first column, one dict per coefficient: J_i the inertia about the
    origin of the modified-DH frame i (our link{i}.I..), c_i m_i the first moment
    (link{i}.m{x,y,z}), m_i the mass; coefficients as printed (4 decimals; 0.09985 as
    the authors' released coefficient code writes it). The row of J2xx − J2yy + J3yy
    prints m3 both as 0.0998 m3 and inside 0.1067 (m3 + … + m7); the
    row of J3yy + J2zz, which the same transfer of link 3 builds, has 0.09985 m3 only,
    and so has this list (a misprint: 0.0998 + 0.1067 would make m3's coefficient in the
    two rows differ, while both come from d3² m3 + 2 d3 c3z m3 + J3yy)."""
    rows = [{"link1.Izz": 1, "link2.Iyy": 1}]
    rows.append({"link2.Ixx": 1, "link2.Iyy": -1, "link3.Iyy": 1, "link3.m": 0.0998,
                 "link3.mz": 0.632, **_links("m", 0.1067, range(4, 8))})  # fmt: skip
    rows += [{"link2.Ixy": 1}, {"link2.Ixz": 1}, {"link2.Iyz": 1}]
    rows.append({"link3.Iyy": 1, "link2.Izz": 1, "link3.m": 0.09985, "link3.mz": 0.632,
                 **_links("m", 0.1067, range(4, 8))})  # fmt: skip
    rows.append({"link3.Ixx": 1, "link3.Iyy": -1, "link4.Iyy": 1, "link4.m": -0.0068})
    rows += [{"link3.Ixy": 1, "link4.mz": 0.0825}, {"link3.Ixz": 1}, {"link3.Iyz": 1}]
    rows.append({"link4.Iyy": 1, "link3.Izz": 1, "link4.m": 0.0068,
                 **_links("m", 0.0136, range(5, 8))})  # fmt: skip
    rows.append({"link4.Ixx": 1, "link4.Iyy": -1, "link5.Iyy": 1, "link5.mz": 0.768,
                 **_links("m", 0.1406, range(5, 8))})  # fmt: skip
    rows.append({"link4.Ixy": 1, "link5.mz": 0.0825, **_links("m", 0.0317, range(5, 8))})
    rows += [{"link4.Ixz": 1}, {"link4.Iyz": 1}]
    rows.append({"link5.Iyy": 1, "link4.Izz": 1, "link5.mz": 0.768,
                 **_links("m", 0.1543, range(5, 8))})  # fmt: skip
    rows.append({"link5.Ixx": 1, "link5.Iyy": -1, "link6.Iyy": 1, "link7.m": 0.0077})
    rows += [{"link5.Ixy": 1}, {"link5.Ixz": 1}, {"link5.Iyz": 1}]
    rows.append({"link6.Iyy": 1, "link5.Izz": 1, "link7.m": 0.0077})
    rows.append({"link6.Ixx": 1, "link6.Iyy": -1, "link7.Iyy": 1, "link7.m": -0.0077})
    rows += [{"link6.Ixy": 1, "link7.mz": 0.088}, {"link6.Ixz": 1}, {"link6.Iyz": 1}]
    rows.append({"link7.Iyy": 1, "link6.Izz": 1, "link7.m": 0.0077})
    rows.append({"link7.Ixx": 1, "link7.Iyy": -1})
    rows += [{"link7.Ixy": 1}, {"link7.Ixz": 1}, {"link7.Iyz": 1}, {"link7.Izz": 1}]
    rows.append({"link2.mx": 1})
    rows.append({"link2.my": 1, "link3.mz": -1, **_links("m", -0.316, range(3, 8))})
    rows.append({"link3.mx": 1, **_links("m", 0.0825, range(4, 8))})
    rows.append({"link3.my": 1, "link4.mz": -1})
    rows.append({"link4.mx": 1, **_links("m", -0.0825, range(5, 8))})
    rows.append({"link4.my": 1, "link5.mz": 1, **_links("m", 0.384, range(5, 8))})
    rows += [{"link5.mx": 1}, {"link5.my": 1, "link6.mz": -1}]
    rows += [{"link6.mx": 1, "link7.m": 0.088}, {"link6.my": 1, "link7.mz": -1}]
    rows += [{"link7.mx": 1}, {"link7.my": 1}]
    return rows


def _terms(base, row):
    return {base.names[j]: float(row[j]) for j in np.flatnonzero(row)}


@pytest.mark.parametrize("method", ["structural", "numerical"])
def test_panda_base_parameters_are_gaz_et_al_table_iii(method):
    """The zoo's Panda is Gaz et al.'s model (modified DH frames of the Franka FCI, links
    1–7 without the hand, gravity along −z0), so its base parameters are written in the
    frames of their Table III: the same 43, each combining the same standard parameters
    with the printed coefficients (to their 4 decimals)."""
    model = es.zoo.load("panda")
    if method == "structural":
        base = structural_base_parameters(model)
    else:
        base = base_parameters(model, joint_terms=False)
    published = _published_panda()
    assert base.count == len(published) == 43
    _match(base, published, abs_tol=1e-4)


def _match(base, published, abs_tol):
    """Each published row (a dict of standard parameters and coefficients) is exactly one
    of ``base``'s rows: the same parameters, the same coefficients to ``abs_tol``."""
    ours = [_terms(base, row) for row in base.map]
    unmatched = list(range(len(ours)))
    for row in published:
        same = [k for k in unmatched if set(ours[k]) == set(row)]
        assert len(same) == 1, f"no base parameter combines exactly {sorted(row)}"
        k = same[0]
        unmatched.remove(k)
        for name, printed in row.items():
            assert ours[k][name] == pytest.approx(printed, abs=abs_tol), (name, row)
    assert not unmatched


def _rx90(d3, rl4):
    """The RX-90 in SYMORO's modified DH frames (α = 0, π/2, 0, −π/2, π/2, −π/2; d3 = D3,
    r4 = RL4), gravity along z0; any masses (the grouping depends on the geometry)."""
    rng = np.random.default_rng(4)
    rows = []
    for alpha, d, r in zip(
        (0, np.pi / 2, 0, -np.pi / 2, np.pi / 2, -np.pi / 2),
        (0, 0, d3, 0, 0, 0),
        (0, 0, 0, rl4, 0, 0),
        strict=True,
    ):
        rows.append({"joint": "R", "theta": 0.0, "alpha": alpha, "a": d, "d": r,
                     "mass": rng.uniform(1, 5), "com": rng.uniform(-0.1, 0.1, 3),
                     "inertia": np.diag(rng.uniform(0.01, 0.1, 3))})  # fmt: skip
    return es.from_dh(rows, "modified")


def _published_rx90(d3, rl4):
    """SYMORO's 36 grouped inertia parameters of the RX-90 (its rotor inertias IA left
    out: IA1 and IA2 join ZZR1 and ZZR2 there, IA3–IA6 stand alone), in eslabon's names
    (XXj → linkj.Ixx, MXj → linkj.mx, Mj → linkj.m); MRj = Mj + … + M6."""

    def mr(j, c):
        return _links("m", c, range(j, 7))

    def link(j, **terms):
        return {f"link{j}.{k}": v for k, v in terms.items()}

    rows = [
        {**link(1, Izz=1), **link(2, Iyy=1), **link(3, Iyy=1), **mr(3, d3**2)},  # ZZR1
        {**link(2, Ixx=1, Iyy=-1), **mr(3, -(d3**2))},  # XXR2 = XX2 + YY3 − YYR2
        {**link(2, Ixz=1), **link(3, mz=-d3)},  # XZR2
        {**link(2, Izz=1), **mr(3, d3**2)},  # ZZR2 (without IA2)
        {**link(2, mx=1), **mr(3, d3)},  # MXR2
        {**link(3, Ixx=1, Iyy=-1), **link(4, Iyy=1, mz=2 * rl4), **mr(4, rl4**2)},  # XXR3
        {**link(3, Izz=1), **link(4, Iyy=1, mz=2 * rl4), **mr(4, rl4**2)},  # ZZR3
        {**link(3, my=1), **link(4, mz=1), **mr(4, rl4)},  # MYR3
        {**link(4, Ixx=1, Iyy=-1), **link(5, Iyy=1)},  # XXR4
        {**link(4, Izz=1), **link(5, Iyy=1)},  # ZZR4
        {**link(4, my=1), **link(5, mz=-1)},  # MYR4
        {**link(5, Ixx=1, Iyy=-1), **link(6, Iyy=1)},  # XXR5
        {**link(5, Izz=1), **link(6, Iyy=1)},  # ZZR5
        {**link(5, my=1), **link(6, mz=1)},  # MYR5
        link(6, Ixx=1, Iyy=-1),  # XXR6
    ]
    kept = {2: ("Ixy", "Iyz", "my"), 3: ("Ixy", "Ixz", "Iyz", "mx")}
    kept |= {j: ("Ixy", "Ixz", "Iyz", "mx") for j in (4, 5)}
    kept[6] = ("Ixy", "Ixz", "Iyz", "Izz", "mx", "my")
    rows += [{f"link{j}.{name}": 1.0} for j, names in kept.items() for name in names]
    return rows


@pytest.mark.parametrize("method", ["structural", "numerical"])
@pytest.mark.parametrize("d3, rl4", [(0.45, 0.52), (0.6, 0.3)])
def test_rx90_base_parameters_are_symoros(method, d3, rl4):
    """The RX-90's 36 base parameters are SYMORO's grouped parameters: the same
    standard parameters in each, with SYMORO's symbolic coefficients (D3², D3, 2 RL4,
    RL4², RL4, ±1) evaluated at two geometries, to 1e-12."""
    model = _rx90(d3, rl4)
    if method == "structural":
        base = structural_base_parameters(model)
    else:
        base = base_parameters(model, joint_terms=False)
    published = _published_rx90(d3, rl4)
    assert base.count == len(published) == 36
    _match(base, published, abs_tol=1e-12)


def test_the_panda_coefficients_are_the_geometry():
    """The printed coefficients are DH lengths (d3 = 0.316, a4 = 0.0825, d5 = 0.384,
    a7 = 0.088): d3² + a4², 2 d5, d5² − a4², d5 a4, a7², as the transfers give them."""
    model = es.zoo.load("panda")
    base = structural_base_parameters(model)
    d3, a4, d5, a7 = 0.316, 0.0825, 0.384, 0.088
    leads = [base.names[j] for j in base.independent]
    by_lead = {lead: _terms(base, row) for lead, row in zip(leads, base.map, strict=True)}
    assert by_lead["link2.Izz"]["link4.m"] == pytest.approx(d3**2 + a4**2, rel=1e-12)
    assert by_lead["link2.Izz"]["link3.m"] == pytest.approx(d3**2, rel=1e-12)
    assert by_lead["link4.Ixx"]["link5.mz"] == pytest.approx(2 * d5, rel=1e-12)
    assert by_lead["link4.Ixx"]["link6.m"] == pytest.approx(d5**2 - a4**2, rel=1e-12)
    assert by_lead["link4.Ixy"]["link7.m"] == pytest.approx(d5 * a4, rel=1e-12)
    assert by_lead["link6.Izz"]["link7.m"] == pytest.approx(a7**2, rel=1e-12)
