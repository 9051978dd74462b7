"""Two widely used published arm models: the Unimation Puma 560 and the Franka Emika Panda.

Both are rigid-body models (no motor inertia, no friction) with gravity 9.81 m/s² along
−z0 (z0 up). Units: m, rad, kg, kg·m². COMs are given in each link's DH frame and
inertias about the COM in that frame's axes, which is what :func:`~eslabon.from_dh` takes.
"""

from __future__ import annotations

import numpy as np

from ..model import from_dh
from ._published import published_inertias

# --- Puma 560 -----------------------------------------------------------------------------
# Standard DH and inertial data of Corke & Armstrong-Hélouvry (ICRA 1994), as in the
# Robotics Toolbox: MATLAB models/mdl_puma560.m, Python roboticstoolbox/models/DH/Puma560.py.
_PUMA_A = (0.0, 0.4318, 0.0203, 0.0, 0.0, 0.0)
_PUMA_D = (0.0, 0.0, 0.15005, 0.4318, 0.0, 0.0)
_PUMA_ALPHA = (np.pi / 2, 0.0, -np.pi / 2, np.pi / 2, -np.pi / 2, 0.0)
_PUMA_MASS = (0.0, 17.4, 4.8, 0.82, 0.34, 0.09)
_PUMA_COM = (
    (0.0, 0.0, 0.0),
    (-0.3638, 0.006, 0.2275),
    (-0.0203, -0.0141, 0.070),
    (0.0, 0.019, 0.0),
    (0.0, 0.0, 0.0),
    (0.0, 0.0, 0.032),
)
_PUMA_INERTIA = (
    (0.0, 0.35, 0.0),
    (0.13, 0.524, 0.539),
    (0.066, 0.086, 0.0125),
    (1.8e-3, 1.3e-3, 1.8e-3),
    (0.3e-3, 0.4e-3, 0.3e-3),
    (0.15e-3, 0.15e-3, 0.04e-3),
)


@published_inertias
def puma560(gravity=(0.0, 0.0, -9.81)):
    """Unimation Puma 560, **standard DH**, with the Armstrong/Corke inertial data of the
    Robotics Toolbox (``mdl_puma560.m``; Python ``models.DH.Puma560``).

    Source: P. Corke and B. Armstrong-Hélouvry, "A search for consensus among model
    parameters reported for the PUMA 560 robot", Proc. IEEE ICRA 1994, pp. 1608–1613, as
    tabulated in Corke's Robotics Toolbox (MATLAB ``models/mdl_puma560.m``, Python
    ``roboticstoolbox/models/DH/Puma560.py``).

    Standard DH (Rz(θ) Tz(d) Tx(a) Rx(α)), θ offsets 0: a = [0, 0.4318, 0.0203, 0, 0, 0] m,
    d = [0, 0, 0.15005, 0.4318, 0, 0] m, α = [π/2, 0, −π/2, π/2, −π/2, 0]. q = 0 is the
    toolbox's ``qz`` ("L" pose: upper arm horizontal, forearm vertical). Masses
    [0, 17.4, 4.8, 0.82, 0.34, 0.09] kg; COMs and principal inertias (about the COM, DH
    link axes, no products) as the toolbox's ``r`` and ``I``. Gravity (0, 0, −9.81).
    Rigid bodies only: the toolbox's motor inertias ``Jm``, gear ratios and friction are
    left out, so ``gravity_torques`` at q = 0 is the toolbox's ``gravload(qz)``
    [0, 37.4837, 0.2489, 0, 0, 0] N·m.

    Known properties of this data set, kept as published: link 1 is massless (Armstrong
    identified no mass for it; it does not enter τ1) but has inertia diag(0, 0.35, 0)
    kg·m², its Iyy being the inertia about the joint-1 axis; that body, and link 3
    (Ixx + Izz = 0.0785 < Iyy = 0.086 kg·m²), violate the triangle inequality of physical
    rigid bodies. The dynamics are still well defined and M(q) is positive definite, so
    the model loads without the warning a user's file with such inertias gets. The
    newer Python toolbox sets d1 = 0.672 m (mounting surface to shoulder); d1 only shifts
    the arm along the vertical joint-1 axis and changes no torque, so 0 is kept.
    """
    rows = [
        {
            "joint": "R",
            "theta": 0.0,
            "d": _PUMA_D[i],
            "a": _PUMA_A[i],
            "alpha": _PUMA_ALPHA[i],
            "mass": _PUMA_MASS[i],
            "com": _PUMA_COM[i],
            "inertia": np.diag(_PUMA_INERTIA[i]),
            "name": f"link{i + 1}",
        }
        for i in range(6)
    ]
    return from_dh(
        rows,
        "standard",
        gravity=gravity,
        name="puma560",
        source="Corke & Armstrong-Helouvry 1994 via Robotics Toolbox mdl_puma560",
    )


# --- Franka Emika Panda -------------------------------------------------------------------
# Modified DH of the Franka Control Interface documentation; inertial data of Gaz et al.,
# RA-L 2019, supplementary material Tables VIII and IX, as in
# github.com/marcocognetti/FrankaEmikaPandaDynModel matlab/ConvertDynPars2VREP/DynPars2VREP.m
_PANDA_A = (0.0, 0.0, 0.0, 0.0825, -0.0825, 0.0, 0.088)
_PANDA_D = (0.333, 0.0, 0.316, 0.0, 0.384, 0.0, 0.0)
_PANDA_ALPHA = (0.0, -np.pi / 2, np.pi / 2, np.pi / 2, -np.pi / 2, np.pi / 2, np.pi / 2)
_PANDA_FLANGE = 0.107
_PANDA_MASS = (4.970684, 0.646926, 3.228604, 3.587895, 1.225946, 1.666555, 0.735522)
_PANDA_COM = (
    (3.875e-03, 2.081e-03, 0.0),
    (-3.141e-03, -2.872e-02, 3.495e-03),
    (2.7518e-02, 3.9252e-02, -6.6502e-02),
    (-5.317e-02, 1.04419e-01, 2.7454e-02),
    (-1.1953e-02, 4.1065e-02, -3.8437e-02),
    (6.0149e-02, -1.4117e-02, -1.0517e-02),
    (1.0517e-02, -4.252e-03, 6.1597e-02),
)
# Inertia tensor entries about the COM, link axes: (Ixx, Ixy, Ixz, Iyy, Iyz, Izz).
_PANDA_INERTIA = (
    (7.0337e-01, -1.3900e-04, 6.7720e-03, 7.0661e-01, 1.9169e-02, 9.1170e-03),
    (7.9620e-03, -3.9250e-03, 1.0254e-02, 2.8110e-02, 7.0400e-04, 2.5995e-02),
    (3.7242e-02, -4.7610e-03, -1.1396e-02, 3.6155e-02, -1.2805e-02, 1.0830e-02),
    (2.5853e-02, 7.7960e-03, -1.3320e-03, 1.9552e-02, 8.6410e-03, 2.8323e-02),
    (3.5549e-02, -2.1170e-03, -4.0370e-03, 2.9474e-02, 2.2900e-04, 8.6270e-03),
    (1.9640e-03, 1.0900e-04, -1.1580e-03, 4.3540e-03, 3.4100e-04, 5.4330e-03),
    (1.2516e-02, -4.2800e-04, -1.1960e-03, 1.0027e-02, -7.4100e-04, 4.8150e-03),
)


def _tensor(xx, xy, xz, yy, yz, zz) -> np.ndarray:
    return np.array([[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]])


def panda(gravity=(0.0, 0.0, -9.81)):
    """Franka Emika Panda, 7R, **modified (Craig) DH**, no hand; inertial parameters of
    Gaz et al. 2019.

    Kinematics: Franka Control Interface documentation ("Robot and interface
    specifications", Denavit–Hartenberg parameters): α = [0, −π/2, π/2, π/2, −π/2, π/2,
    π/2], a = [0, 0, 0, 0.0825, −0.0825, 0, 0.088] m, d = [0.333, 0, 0.316, 0, 0.384, 0, 0]
    m, θ offsets 0. The flange (d = 0.107 m along z7) is the ``tool``, so ``ee`` is the
    flange frame and DH frame 7 stays where the inertial data of link 7 are given.

    Dynamics: C. Gaz, M. Cognetti, A. Oliva, P. Robuffo Giordano, A. De Luca, "Dynamic
    identification of the Franka Emika Panda robot with retrieval of feasible parameters
    using penalty-based optimization", IEEE RA-L 4(4):4147–4154, 2019, supplementary
    material Tables VIII–IX (also in the authors' repository
    github.com/marcocognetti/FrankaEmikaPandaDynModel, ``DynPars2VREP.m``): masses
    [4.970684, 0.646926, 3.228604, 3.587895, 1.225946, 1.666555, 0.735522] kg, COMs in
    the link frames, and full inertia tensors (products included) about the COM in link
    axes. Link 1's COM along its own joint axis cannot be identified and is 0 in that
    source (URDF/MJCF copies carry −0.04762 m; it changes no torque). Gravity (0, 0, −9.81);
    no motor inertia, no friction (the paper's sigmoid friction model is left out).

    The Robotics Toolbox's ``models.DH.Panda`` uses the same masses and inertia tensors
    but omits the COMs (r = 0) and folds the flange into d7, so its dynamics differ from
    this model's.
    """
    rows = [
        {
            "joint": "R",
            "alpha": _PANDA_ALPHA[i],
            "a": _PANDA_A[i],
            "theta": 0.0,
            "d": _PANDA_D[i],
            "mass": _PANDA_MASS[i],
            "com": _PANDA_COM[i],
            "inertia": _tensor(*_PANDA_INERTIA[i]),
            "name": f"link{i + 1}",
        }
        for i in range(7)
    ]
    flange = np.eye(4)
    flange[2, 3] = _PANDA_FLANGE
    return from_dh(
        rows,
        "modified",
        gravity=gravity,
        tool=flange,
        name="panda",
        source="Gaz et al. 2019 (RA-L) supplementary Tables VIII-IX; Franka FCI modified DH",
    )
