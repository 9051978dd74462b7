"""Centre of mass and centroidal dynamics (issue 45): c, ċ, c̈ and J_c of the robot and of
subtrees; A_G, h_G, Ȧ_G, I_G and the average spatial velocity.

Identities (A_G q̇ = h_G = the total momentum moved to G; the base rows of a floating
base's M moved to G are A_G; ḣ_G = Σ external wrenches about G + m g through the forward
dynamics with an ExternalWrench, and by central differences in time; Ȧ_G against central
differences of A_G and the Newton–Euler sum at q̈ = 0), Pinocchio (``ccrba``, ``dccrba``,
``centerOfMass``, ``jacobianCenterOfMass``, subtree centres) and MuJoCo (``subtree_com``,
``mj_angmomMat``) on Solo 12, Talos and Panda, batches against single states.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from checks import check, example_robot_data
from task_space_cases import SWAP, Twin, along, general_tree, models, state

MODELS = models()
IDS = [name for name, _ in MODELS]


def _skew(a):
    return np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


@pytest.mark.parametrize("case", MODELS, ids=IDS)
def test_momentum_matrix_gives_the_momentum_about_the_centre_of_mass(case):
    """h_G = A_G q̇ equals eslabon.momentum (about the world origin) moved to G; the
    linear rows are m J_c; J_c q̇ = ċ; v_G = I_G⁻¹ h_G has ċ as its linear part and I_G is
    blockdiag(K, m 1) with K symmetric positive definite."""
    _, model = case
    q, qd, _ = state(model)
    cm = es.centroidal_momentum(model, q, qd)
    A = es.centroidal_momentum_matrix(model, q)
    check(cm.A_G, A, 1e-14)
    check(A @ qd, cm.h_G, 1e-13)
    h_O = es.momentum(model, q, qd)
    check(cm.h_G, np.concatenate([h_O[:3] - np.cross(cm.W_p_G, h_O[3:]), h_O[3:]]), 1e-12)
    com = es.center_of_mass(model, q, qd)
    m = float(model.mass.sum())
    assert cm.mass == pytest.approx(m, rel=1e-15) and com.mass == cm.mass
    check(cm.W_p_G, com.W_p_com, 1e-15)
    Jc = es.com_jacobian(model, q)
    check(A[3:], m * Jc, 1e-13)
    check(Jc @ qd, com.W_v_com, 1e-13)
    check(cm.v_G[3:], com.W_v_com, 1e-12)
    check(cm.I_G @ cm.v_G, cm.h_G, 1e-12)
    check(cm.I_G[3:, 3:], m * np.eye(3), 1e-14, scale=m)
    check(cm.I_G[:3, 3:], np.zeros((3, 3)), 1e-13, scale=m)
    K = cm.I_G[:3, :3]
    check(K, K.T, 1e-15, scale=np.abs(K).max())
    assert np.linalg.eigvalsh(K).min() > 0


@pytest.mark.parametrize("case", MODELS, ids=IDS)
def test_rates_against_central_differences(case):
    """Ȧ_G = d/dt A_G along q̇ (central differences, step 1e-5), Ȧ_G q̇ its product; c̈ =
    d/dt ċ along q(t) = q ⊕ (q̇ t + q̈ t²/2)."""
    _, model = case
    q, qd, qdd = state(model, 1)
    cm = es.centroidal_momentum(model, q, qd)
    numeric = along(model, q, qd, lambda x, _v: es.centroidal_momentum_matrix(model, x))
    check(cm.dA_G, numeric, 1e-8, scale=max(1.0, np.abs(cm.A_G).max()))
    check(cm.dA_G_qd, cm.dA_G @ qd, 1e-13)
    com = es.center_of_mass(model, q, qd, qdd)
    numeric = along(model, q, qd, lambda x, v: es.center_of_mass(model, x, v).W_v_com, qdd=qdd)
    check(com.W_a_com, numeric, 1e-8)


@pytest.mark.parametrize("case", MODELS, ids=IDS)
def test_the_rate_term_is_the_newton_euler_sum_at_rest(case):
    """Ȧ_G q̇ = Σ [Īᵢ ω̇ᵢ + ωᵢ × Īᵢ ωᵢ + (cᵢ − G) × mᵢ c̈ᵢ ; mᵢ c̈ᵢ] with the bodies'
    accelerations at q̈ = 0 (Orin, Goswami & Lee 2013 with the Newton–Euler
    equations of each body), from the kinematic pass independently of the composite
    inertias."""
    _, model = case
    q, qd, _ = state(model, 2)
    cm = es.centroidal_momentum(model, q, qd)
    motion = es.kinematics.kinematic_pass(model, q, qd)
    total = np.zeros(6)
    for i in range(1, model.nb + 1):
        R, r, m = motion.world_rotation[i], motion.com[i], model.mass[i]
        w, wd = motion.angular_velocity[i], motion.angular_acceleration[i]
        a = motion.linear_acceleration[i] + np.cross(wd, r) + np.cross(w, np.cross(w, r))
        c = motion.world_position[i] + R @ r
        I = R @ model.inertia[i] @ R.T
        ww, wdw = R @ w, R @ wd
        total[:3] += I @ wdw + np.cross(ww, I @ ww) + np.cross(c - cm.W_p_G, m * (R @ a))
        total[3:] += m * (R @ a)
    check(cm.dA_G_qd, total, 1e-12)


@pytest.mark.parametrize("name", ["quadruped", "humanoid", "general_joints"])
def test_base_rows_of_the_mass_matrix_moved_to_the_centre_of_mass_are_A_G(name):
    """A free flyer's rows of M are the momentum per unit rate in the base's axes about
    its origin, [linear; angular] (its rates are (v, ω)): turned to world axes and moved to
    G, A_G (Orin, Goswami & Lee 2013, §4)."""
    model = general_tree() if name == "general_joints" else es.zoo.load(name)
    base = list(model.floating_base_rates)
    assert len(base) == 6
    model = model.replace(armature=0.0)  # (the rotors' inertia is in M, not in A_G)
    q, _, _ = state(model, 3)
    M = es.mass_matrix(model, q)
    pose = es.forward_kinematics(model, q)[1]
    R, p = pose[:3, :3], pose[:3, 3]
    linear, angular = R @ M[base[:3]], R @ M[base[3:]]
    G = es.center_of_mass(model, q).W_p_com
    moved = np.vstack([angular + _skew(p - G) @ linear, linear])
    A = es.centroidal_momentum_matrix(model, q)
    check(moved, A, 1e-12)


@pytest.mark.parametrize("name", ["quadruped", "general_joints"])
def test_momentum_changes_by_the_external_wrenches_and_gravity(name):
    """ḣ_G = Σ (nₖ + (pₖ − G) × fₖ; fₖ) + [0; m g] (Orin, Goswami & Lee 2013):
    forward dynamics of the floating base with joint torques and an ExternalWrench, then
    A_G q̈ + Ȧ_G q̇; and h_G differentiated in time by central differences along q(t) =
    q ⊕ (q̇ t + q̈ t²/2)."""
    model = general_tree() if name == "general_joints" else es.zoo.load(name)
    model = model.replace(viscous=0.0, coulomb=0.0, armature=0.0)
    frame = model.body_names[-1]
    q, qd, _ = state(model, 4)
    rng = np.random.default_rng(8)
    wrench = rng.uniform(-10, 10, 6)
    tau = rng.uniform(-3, 3, model.nv)
    tau[list(model.floating_base_rates)] = 0.0  # nothing drives the base
    push = es.ExternalWrench(frame, wrench, axes="world")
    qdd = es.forward_dynamics(model, q, qd, tau, wrenches=[push])
    cm = es.centroidal_momentum(model, q, qd)
    at = es.kinematics.frame_pose(model, q, frame)[:3, 3]
    expected = np.concatenate(
        [wrench[:3] + np.cross(at - cm.W_p_G, wrench[3:]), wrench[3:] + cm.mass * model.gravity]
    )
    check(cm.A_G @ qdd + cm.dA_G_qd, expected, 1e-10, what="A_G q̈ + Ȧ_G q̇")
    # step 1e-6: the light legs accelerate at ~1e4 rad/s², truncation ~1e-12 |d³h/dt³|
    numeric = along(
        model, q, qd, lambda x, v: es.centroidal_momentum(model, x, v).h_G, h=1e-6, qdd=qdd
    )
    check(numeric, expected, 1e-7, what="d/dt h_G")


def test_subtrees():
    """A subtree's centre is the mass-weighted mean of its bodies'; the world's subtree
    is the whole robot; J_c of a subtree against central differences of its centre."""
    model = es.zoo.load("quadruped")
    q, qd, _ = state(model, 5)
    leg = "FR_UPPER_LEG"
    sub = es.center_of_mass(model, q, qd, subtree=leg)
    poses = es.forward_kinematics(model, q)
    first = model.body_names.index(leg)
    bodies = [first] + [i for i in range(first + 1, model.nb + 1) if _below(model, i, first)]
    c = [poses[i, :3, :3] @ model.com[i] + poses[i, :3, 3] for i in bodies]
    m = model.mass[bodies]
    assert sub.mass == pytest.approx(m.sum(), rel=1e-15) and sub.subtree == leg
    check(sub.W_p_com, (m[:, None] * np.array(c)).sum(0) / m.sum(), 1e-14)
    whole = es.center_of_mass(model, q, qd, subtree="world")
    check(whole.W_p_com, es.center_of_mass(model, q).W_p_com, 0)
    Jc = es.com_jacobian(model, q, subtree=leg)
    numeric = along(model, q, qd, lambda x, _v: es.center_of_mass(model, x, subtree=leg).W_p_com)
    check(Jc @ qd, numeric, 1e-9)
    check(Jc @ qd, sub.W_v_com, 1e-13)


def _below(model, i, ancestor):
    while i > 0:
        i = int(model.parent[i])
        if i == ancestor:
            return True
    return False


def test_batches_equal_single_states():
    model = general_tree()
    states = [state(model, s) for s in range(3)]
    Q, QD, QDD = (np.stack(x) for x in zip(*states, strict=True))
    batch = es.centroidal_momentum(model, Q, QD)
    com = es.center_of_mass(model, Q, QD, QDD, subtree=model.body_names[3])
    Jc = es.com_jacobian(model, Q)
    A = es.centroidal_momentum_matrix(model, Q)
    for k, (q, qd, qdd) in enumerate(states):
        one = es.centroidal_momentum(model, q, qd)
        for name in ("W_p_G", "A_G", "h_G", "dA_G", "dA_G_qd", "I_G", "v_G"):
            np.testing.assert_allclose(getattr(batch, name)[k], getattr(one, name), atol=1e-13)
        np.testing.assert_allclose(A[k], one.A_G, rtol=0, atol=1e-13)
        np.testing.assert_allclose(Jc[k], es.com_jacobian(model, q), rtol=0, atol=1e-13)
        c1 = es.center_of_mass(model, q, qd, qdd, subtree=model.body_names[3])
        for name in ("W_p_com", "W_v_com", "W_a_com"):
            np.testing.assert_allclose(getattr(com, name)[k], getattr(c1, name), atol=1e-13)


def test_bad_input_is_refused_by_name():
    model = es.zoo.load("quadruped")
    q = es.neutral(model)
    with pytest.raises(ValueError, match="subtree: expected the name of a body"):
        es.center_of_mass(model, q, subtree="tail")
    with pytest.raises(ValueError, match="subtree"):
        es.com_jacobian(model, q, subtree=3)
    massless = model.replace(mass=np.zeros(model.nb + 1))
    with pytest.raises(ValueError, match="no mass"):
        es.center_of_mass(massless, q)
    with pytest.raises(ValueError, match="no mass"):
        es.centroidal_momentum_matrix(massless, q)
    with pytest.raises(ValueError, match="qd"):
        es.centroidal_momentum(model, q, np.zeros(model.nq))
    book = es.zoo.load("practica_4dof", book_com=True)  # a centre of mass that slides
    for call in (es.center_of_mass, es.com_jacobian, es.centroidal_momentum_matrix):
        with pytest.raises(ValueError, match="rigid links"):
            call(book, np.zeros(4))


# --- Pinocchio and MuJoCo ---------------------------------------------------------------


@pytest.mark.parametrize("key", ["solo12", "talos", "panda", "ur5"])
def test_centroidal_quantities_equal_pinocchios(key):
    """``ccrba`` (Ag, hg, Ig), ``dccrba``, ``centerOfMass`` (c, ċ, c̈ and every subtree's
    centre, data.com[j]), ``jacobianCenterOfMass`` and ``jacobianSubtreeCenterOfMass``, rows
    swapped to [linear; angular] and columns in Pinocchio's order, to 1e-10 of the largest
    entry."""
    twin = Twin(key)
    pin, pm, data, model = twin.pin, twin.pm, twin.data, twin.model
    order = twin.v_order
    for seed in range(2):
        (q, v, a), (qp, vp, ap) = twin.states(seed)
        cm = es.centroidal_momentum(model, q, v)
        Ag = pin.ccrba(pm, data, qp, vp)
        check(cm.A_G[SWAP][:, order], Ag, 1e-10, what=f"{key} Ag")
        check(cm.h_G[SWAP], data.hg.vector, 1e-10, what="hg")
        check(cm.I_G[np.ix_(SWAP, SWAP)], data.Ig.matrix(), 1e-10, what="Ig")
        dAg = pin.dccrba(pm, data, qp, vp)
        check(cm.dA_G[SWAP][:, order], dAg, 1e-10, what="dAg")
        pin.centerOfMass(pm, data, qp, vp, ap, True)  # every subtree's, in its joint's axes
        com = es.center_of_mass(model, q, v, a)
        check(com.W_p_com, data.com[0], 1e-10, what="com")
        check(com.W_v_com, data.vcom[0], 1e-10, what="vcom")
        check(com.W_a_com, data.acom[0], 1e-10, what="acom")
        joints = range(2, pm.njoints, 3)
        subtrees = {j: model.body_names[model.joint_names.index(pm.names[j])] for j in joints}
        for j, name in subtrees.items():
            sub = es.center_of_mass(model, q, v, a, subtree=name)
            pose = data.oMi[j]
            check(sub.W_p_com, pose.act(data.com[j]), 1e-10, what=f"subtree com {name}")
            check(sub.W_v_com, pose.rotation @ data.vcom[j], 1e-10, what=f"vcom {name}")
            check(sub.W_a_com, pose.rotation @ data.acom[j], 1e-10, what=f"acom {name}")
        Jc = pin.jacobianCenterOfMass(pm, data, qp)
        check(es.com_jacobian(model, q)[:, order], Jc, 1e-10, what="Jcom")
        for j, name in subtrees.items():
            Js = pin.jacobianSubtreeCenterOfMass(pm, data, qp, j)
            ours = es.com_jacobian(model, q, subtree=name)
            check(ours[:, order], Js, 1e-10, what=f"subtree Jcom {name}")


@pytest.mark.parametrize(
    "rel", ["solo_description/robots/solo12.urdf", "talos_data/robots/talos_reduced.urdf"]
)
def test_subtree_centres_and_angular_momentum_equal_mujocos(rel):
    """MuJoCo's ``subtree_com`` of every body and ``mj_angmomMat`` (the angular momentum
    about the root subtree's centre, world axes, per unit MuJoCo rate) on the floating
    robot MuJoCo reads from eslabon's URDF: its free joint's linear rates are in world
    axes, so its matrix is A_G[:3] T⁻¹ with qvel = T v."""
    mujoco = pytest.importorskip("mujoco")
    if not hasattr(mujoco, "mj_angmomMat"):
        pytest.skip("this MuJoCo has no mj_angmomMat")
    from eslabon.bench.mujoco_twin import mujoco_ready, mujoco_twin, twin_state

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        model = es.model.from_urdf(str(example_robot_data(rel)), root_joint="free_flyer")
    model = mujoco_ready(model.replace(viscous=0.0, coulomb=0.0))
    mj = mujoco_twin(mujoco, model, floating=True)
    data = mujoco.MjData(mj)
    for seed in range(2):
        q, v, _ = state(model, seed)
        data.qpos[:], data.qvel[:] = twin_state(model, q, v)
        mujoco.mj_forward(mj, data)
        T = np.stack([twin_state(model, q, e)[1] for e in np.eye(model.nv)], axis=1)
        L = np.zeros((3, mj.nv))
        mujoco.mj_angmomMat(mj, data, L, 1)
        A = es.centroidal_momentum_matrix(model, q)
        check(L @ T, A[:3], 1e-10, what="mj_angmomMat")
        for b in range(1, mj.nbody):
            name = mujoco.mj_id2name(mj, mujoco.mjtObj.mjOBJ_BODY, b)
            ours = es.center_of_mass(model, q, subtree=name).W_p_com
            check(ours, data.subtree_com[b], 1e-10, what=f"subtree_com {name}")


def test_a_planar_arm_has_a_singular_centroidal_inertia_and_still_a_velocity():
    """K_G is singular for point masses on a line (planar2 stretched out, its masses on
    the x axis): v_G's angular part is then the minimum-norm solution of K_G ω_G = k_G,
    so I_G v_G = h_G still holds."""
    arm = es.zoo.load("planar2")
    q, qd = np.array([[0.0, 0.0], [1.0, 0.5]]), np.array([[0.5, 1.0], [-0.2, 0.3]])
    cm = es.centroidal_momentum(arm, q, qd)
    assert np.linalg.matrix_rank(cm.I_G[0, :3, :3]) < 3
    np.testing.assert_allclose(np.einsum("nij,nj->ni", cm.I_G, cm.v_G), cm.h_G, atol=1e-12)
