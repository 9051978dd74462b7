"""The robots and states the task-space and centroidal tests share: models of every joint
type, example-robot-data's Solo 12, Talos and Panda with their Pinocchio twins, and a
derivative by central differences along a motion."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import eslabon as es
from checks import example_robot_data
from test_rollout_general import _mimic_tree

# a floating base with every joint type on it (U universal, L planar, S spherical, H helical)
GENERAL_JOINTS = "BRULSHRPRF"


def general_tree():
    return es.zoo.random_tree(5, GENERAL_JOINTS, friction=False)


def models():
    """(name, model) of the zoo's arms and legged robots, a tree of every joint type and
    one with a mimic joint."""
    return [
        ("puma560", es.zoo.load("puma560")),
        ("panda", es.zoo.load("panda")),
        ("quadruped", es.zoo.load("quadruped")),
        ("humanoid", es.zoo.load("humanoid")),
        ("general_joints", general_tree()),
        ("mimic", _mimic_tree()),
    ]


def state(model, seed=0):
    """(q, q̇, q̈) at random."""
    rng = np.random.default_rng(seed)
    q = es.random_configuration(model, rng)
    return q, rng.uniform(-1, 1, model.nv), rng.uniform(-1, 1, model.nv)


def last_frame(model) -> str:
    """A frame at the end of the model's last limb (``ee`` when it has one)."""
    names = [f.name for f in model.frames]
    return "ee" if "ee" in names else model.body_names[-1]


def along(model, q, qd, fn, h=1e-5, qdd=None):
    """d/dt fn(q(t)) at t = 0 by central differences, q(t) = q ⊕ (q̇ t + q̈ t²/2) (the
    tangent-space motion with rates q̇ + q̈ t to first order); fn(q, qd(t))."""
    qdd = np.zeros(model.nv) if qdd is None else qdd
    plus = fn(es.integrate(model, q, qd * h + qdd * h * h / 2), qd + qdd * h)
    minus = fn(es.integrate(model, q, -qd * h + qdd * h * h / 2), qd - qdd * h)
    return (plus - minus) / (2 * h)


ROBOTS = {
    "solo12": ("solo_description/robots/solo12.urdf", True, "HR_FOOT"),
    "talos": ("talos_data/robots/talos_reduced.urdf", True, "left_sole_link"),
    "panda": ("panda_description/urdf/panda.urdf", False, "panda_hand"),
    # a 4 kg base link welded to the world: part of the world, as in Pinocchio
    "ur5": ("ur_description/urdf/ur5_robot.urdf", False, "tool0"),
}


class Twin:
    """An example-robot-data robot read by eslabon and by Pinocchio, with the maps of
    ``urdf_order`` between their vectors (Panda's mimic finger is dropped from both)."""

    def __init__(self, key):
        pin = pytest.importorskip("pinocchio")
        from eslabon.interop.pinocchio import urdf_order

        rel, floating, self.frame = ROBOTS[key]
        path = str(example_robot_data(rel))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = es.model.from_urdf(path, root_joint="free_flyer" if floating else None)
        root = pin.JointModelFreeFlyer()
        pm = pin.buildModelFromUrdf(path, root) if floating else pin.buildModelFromUrdf(path)
        if model.has_mimic:  # Panda's right finger copies the left: both without it
            mimic = [i for i in range(1, model.nb + 1) if model.mimic_joint[i] >= 0]
            fixed = np.isin(np.arange(model.nb + 1), mimic)
            model = model.replace(
                joint_type=np.where(fixed, 0, model.joint_type),
                mimic_joint=np.full(model.nb + 1, -1),
            )
            locked = [pm.getJointId(model.joint_names[i]) for i in mimic]
            pm = pin.buildReducedModel(pm, locked, pin.neutral(pm))
        self.pin, self.model, self.pm = pin, model.replace(viscous=0.0, coulomb=0.0), pm
        self.data = pm.createData()
        self.q_order, self.v_order = urdf_order(self.model)
        assert pm.nq == self.model.nq and pm.nv == self.model.nv

    def states(self, seed=0):
        """(q, v, a) for eslabon and (q, v, a) for Pinocchio, the same state."""
        rng = np.random.default_rng(seed)
        q = es.random_configuration(self.model, rng)
        v, a = rng.uniform(-1, 1, (2, self.model.nv))
        return (q, v, a), (q[self.q_order], v[self.v_order], a[self.v_order])


SWAP = [3, 4, 5, 0, 1, 2]  # eslabon's [angular; linear] rows in Pinocchio's [linear; angular]
