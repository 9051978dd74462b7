"""Build a Pinocchio model equal to an eslabon model (an independent oracle, DESIGN §9).

Needs the ``pin`` package (``pip install eslabon[bench]`` or the ``test`` extra). It is
imported when ``to_pinocchio`` is called, not when this module is imported; without it
that call raises ImportError. ``body_order`` and ``dof_order`` need only numpy.

``to_pinocchio(model)`` walks eslabon's body tree depth-first (children in index order) and
adds one Pinocchio joint per joint (Pinocchio's nq, nv equal ``model.nq``, ``model.nv``).
Pinocchio's CRBA (and its sparse factorisations) assume that the degrees of freedom of every
subtree are contiguous, i.e. joints numbered in depth-first order; eslabon only guarantees
``parent[i] < i``. For a chain (every zoo and DH model) both orders are the index order and
the vectors coincide; for a branching tree use ``dof_order(model)``: Pinocchio's velocity
index k is eslabon's degree of freedom ``dof_order(model)[k]`` (``q_pin = q[order]``,
``tau[order] = tau_pin``, ``M[np.ix_(order, order)] = M_pin``; configurations by
``configuration_order(model)``).

Placement conventions are the same on both sides: ``tree_rotation[i]`` /
``tree_translation[i]`` place joint frame i in its parent body frame (p_parent = R p + t),
which is exactly a Pinocchio ``SE3(R, t)`` joint placement. The body frame is the joint
frame moved by the joint, as in Pinocchio, so inertial data (mass, COM in the body frame,
rotational inertia about the COM in body axes) map one-to-one onto ``pin.Inertia``.

* revolute joints: ``JointModelRX``, ``RY`` or ``RZ`` when the axis is +x, +y or +z (as
  Pinocchio's own URDF reader builds them), else ``JointModelRevoluteUnaligned``;
* prismatic joints: ``JointModelPX``, ``PY`` or ``PZ`` likewise, else
  ``JointModelPrismaticUnaligned``;
* fixed bodies are merged into the nearest moving ancestor (or the universe): their
  inertia is appended to that joint at the composed placement, and their children hang
  from that joint at the composed placement too;
* gravity: Pinocchio's ``model.gravity`` is a spatial motion; its linear part is
  ``model.gravity`` (free-fall acceleration in world coordinates), angular part zero.
  (Pinocchio orders spatial vectors [linear; angular], eslabon [angular; linear]; only the
  gravity motion crosses the boundary here and it is built with named parts.)
* armature (rotor inertia) is copied to ``pin.Model.armature`` when ``armature=True``.
  Joint friction (viscous, Coulomb) has no counterpart in ``rnea``/``crba``/``aba``:
  compare on friction-free models, e.g.
  ``model.replace(viscous=np.zeros(model.nq), coulomb=np.zeros(model.nq))``.

Book-mode models (``model.has_moving_com``: a COM sliding with its prismatic joint) are
not rigid-body trees and are refused.
"""

from __future__ import annotations

import numpy as np

from .._engine.layout import JOINT_NAMES

_MISSING_PIN = "pinocchio: install the 'bench' or 'test' extra: pip install eslabon[bench]"


def _import_pin():
    """The ``pinocchio`` module, or ImportError with the install hint."""
    try:
        import pinocchio as pin
    except ImportError as exc:
        raise ImportError(_MISSING_PIN) from exc
    return pin


# eslabon joint type -> Pinocchio joint model (about +x, +y, +z, about any other axis)
_PIN_JOINTS = {
    "revolute": ("JointModelRX", "JointModelRY", "JointModelRZ", "JointModelRevoluteUnaligned"),
    "prismatic": ("JointModelPX", "JointModelPY", "JointModelPZ", "JointModelPrismaticUnaligned"),
}


def _joint_model(pin, kind: int, axis: np.ndarray, axis2=None, pitch: float = 0.0):
    """The Pinocchio joint of an eslabon joint. Each has the same coordinates and rates:
    helical = ``JointModelHelicalUnaligned``, universal = ``JointModelUniversal``, planar
    = the composite PX, PY, RZ (eslabon's planar q is (x, y, θ), Pinocchio's own planar
    joint holds (x, y, cos θ, sin θ)), spherical = ``JointModelSpherical`` and free flyer
    = ``JointModelFreeFlyer`` (quaternion (x, y, z, w), rates in body axes)."""
    name = JOINT_NAMES.get(int(kind), "")
    if name == "helical":
        return pin.JointModelHelicalUnaligned(np.array(axis, dtype=float), float(pitch))
    if name == "universal":
        return pin.JointModelUniversal(np.array(axis, dtype=float), np.array(axis2, dtype=float))
    if name == "planar":
        composite = pin.JointModelComposite(pin.JointModelPX())
        composite.addJoint(pin.JointModelPY())
        composite.addJoint(pin.JointModelRZ())
        return composite
    if name == "spherical":
        return pin.JointModelSpherical()
    if name == "free_flyer":
        return pin.JointModelFreeFlyer()
    names = _PIN_JOINTS.get(name)
    if names is None:
        raise ValueError(f"joint type {kind}: expected a joint type of eslabon")
    for k, unit in enumerate(np.eye(3)):
        if np.array_equal(axis, unit):
            return getattr(pin, names[k])()
    return getattr(pin, names[3])(axis)


def body_order(model) -> np.ndarray:
    """eslabon's bodies 1..nb in depth-first preorder (children visited in index order).

    The order in which :func:`to_pinocchio` adds the bodies (fixed bodies included). For
    a chain it is 1, 2, …, nb. Needs only numpy.

    Parameters
    ----------
    model : Model

    Returns
    -------
    ndarray of int64 (nb,)
        Body indices (1..nb; 0 is the world).

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.interop.pinocchio import body_order
    >>> tree = es.zoo.random_tree(2, "RRRRR")  # bodies 4 and 5 hang from 0 and 1
    >>> tree.parent[1:].tolist(), body_order(tree).tolist()
    ([0, 1, 2, 0, 1], [1, 2, 3, 5, 4])
    """
    children = [[] for _ in range(model.nb + 1)]
    for i in range(1, model.nb + 1):
        children[int(model.parent[i])].append(i)
    order, stack = [], list(reversed(children[0]))
    while stack:
        i = stack.pop()
        order.append(i)
        stack.extend(reversed(children[i]))
    return np.array(order, dtype=np.int64)


def _order(model, index, size) -> np.ndarray:
    model.require_no_mimic("the Pinocchio twin (to_pinocchio, dof_order)")
    sizes = size(model.joint_type)
    return np.array(
        [int(index[i]) + d for i in body_order(model) for d in range(int(sizes[i]))],
        dtype=np.int64,
    )


def dof_order(model) -> np.ndarray:
    """(nv,) eslabon rate of each Pinocchio velocity index (identity for chains).

    Pinocchio numbers the degrees of freedom depth first; ``order = dof_order(model)``
    maps between the two: ``v_pin = v[order]``, ``tau[order] = tau_pin``,
    ``M[np.ix_(order, order)] = M_pin``. Needs only numpy.

    Parameters
    ----------
    model : Model

    Returns
    -------
    ndarray of int64 (nv,)
        For each Pinocchio velocity index k, eslabon's rate index.

    Raises
    ------
    ValueError
        A model with a mimic joint.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.interop.pinocchio import dof_order
    >>> dof_order(es.zoo.load("puma560")).tolist()  # a chain: the identity
    [0, 1, 2, 3, 4, 5]
    >>> dof_order(es.zoo.random_tree(2, "RRRRR")).tolist()  # a tree
    [0, 1, 2, 4, 3]
    """
    from .._engine.joint_types import nv_of

    return _order(model, model.v_index, nv_of)


def configuration_order(model) -> np.ndarray:
    """(nq,) eslabon coordinate of each Pinocchio configuration index (identity for
    chains): ``q_pin = q[configuration_order(model)]``.

    As :func:`dof_order` for the configuration vector (a spherical joint's quaternion
    keeps its 4 coordinates together, in eslabon's (x, y, z, w) order, which is
    Pinocchio's). Needs only numpy.

    Parameters
    ----------
    model : Model

    Returns
    -------
    ndarray of int64 (nq,)
        For each Pinocchio configuration index, eslabon's coordinate index.

    Raises
    ------
    ValueError
        A model with a mimic joint.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.interop.pinocchio import configuration_order
    >>> configuration_order(es.zoo.random_tree(2, "RRRRR")).tolist()
    [0, 1, 2, 4, 3]
    """
    from .._engine.joint_types import nq_of

    return _order(model, model.q_index, nq_of)


def urdf_order(model) -> tuple[np.ndarray, np.ndarray]:
    """Where Pinocchio's URDF reader puts eslabon's coordinates, for a model read from a
    URDF: ``(q_order, v_order)`` with ``q_pin = q[q_order]``, ``v_pin = v[v_order]``,
    ``tau[v_order] = tau_pin`` and ``M[np.ix_(v_order, v_order)] = M_pin``, for
    ``pin.buildModel(urdf)`` (``root_joint`` given alike) of the same file. Needs only
    numpy.

    Both number the joints depth first; eslabon visits a link's children in the order of
    their joints in the file (as MuJoCo does), Pinocchio in the order of their joints'
    names (its URDF parser keeps them sorted by name), so the two orders are the same
    exactly when, at every link, the joints' names are in file order. A free flyer's
    coordinates are in the same order on both sides.

    Parameters
    ----------
    model : Model
        Its joints named as in the file (:attr:`eslabon.Model.joint_names`, as
        :func:`eslabon.model.from_urdf` names them).

    Returns
    -------
    tuple of ndarray of int64
        ``q_order`` (nq,) and ``v_order`` (nv,).

    Raises
    ------
    ValueError
        A model with a mimic joint (Pinocchio's reader gives a mimic joint a coordinate of
        its own unless told otherwise): take values by name instead,
        :func:`eslabon.model.configuration_from_names`.

    Examples
    --------
    >>> import eslabon as es
    >>> from eslabon.interop.pinocchio import urdf_order
    >>> legs = es.model.ModelBuilder()
    >>> hip_b = legs.add_body(0, "R", joint_name="b_hip")
    >>> knee_b = legs.add_body(hip_b, "R", joint_name="b_knee")
    >>> hip_a = legs.add_body(0, "R", joint_name="a_hip")
    >>> q_order, v_order = urdf_order(legs.build())
    >>> q_order.tolist()  # Pinocchio visits a_hip first: its name sorts first
    [2, 0, 1]
    """
    model.require_no_mimic("urdf_order (Pinocchio's URDF order)")
    from .._engine.joint_types import nq_of, nv_of

    children: list[list[int]] = [[] for _ in range(model.nb + 1)]
    for i in range(1, model.nb + 1):
        children[int(model.parent[i])].append(i)
    bodies, stack = [], [0]
    while stack:
        i = stack.pop()
        if i:
            bodies.append(i)
        stack.extend(sorted(children[i], key=lambda c: model.joint_names[c], reverse=True))
    orders = []
    for index, size in ((model.q_index, nq_of), (model.v_index, nv_of)):
        sizes = size(model.joint_type)
        orders.append(
            np.array(
                [int(index[i]) + d for i in bodies for d in range(int(sizes[i]))],
                dtype=np.int64,
            )
        )
    return orders[0], orders[1]


def to_pinocchio(model, *, armature: bool = True):
    """A ``pin.Model`` with the kinematics, inertias and gravity of an eslabon ``model``.

    Joint k of the Pinocchio model (k = 1..nq) is eslabon's degree of freedom
    ``dof_order(model)[k - 1]`` (that is k - 1 for a chain).
    Friction is dropped (Pinocchio's dynamics have none); armature is kept unless
    ``armature=False``.

    The mapping of joints, fixed bodies, placements, inertias and gravity is in this
    module's docstring. Needs the ``pin`` package (``pip install eslabon[bench]``),
    imported when called.

    Parameters
    ----------
    model : Model
        Rigid links (no COM sliding with its joint) and no mimic joint.
    armature : bool
        Copy the rotor inertias (kg·m², kg) into ``pin.Model.armature``.

    Returns
    -------
    pinocchio.Model
        With ``nq``, ``nv`` equal to ``model.nq``, ``model.nv``; joints named as
        ``model.joint_names`` and body frames ``body_{i}_{body}``; gravity
        (m/s², world axes) as ``model.gravity``'s linear part.

    Raises
    ------
    ImportError
        Pinocchio is not installed (with the install hint).
    ValueError
        A model whose COM slides with a prismatic joint (book mode), or with a mimic
        joint.

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon.interop.pinocchio import to_pinocchio
    >>> arm = es.zoo.load("planar2")
    >>> try:
    ...     pm = to_pinocchio(arm)
    ... except ImportError:  # the optional pin package is not installed
    ...     pm = None
    >>> pm is None or (pm.nq, pm.nv) == (arm.nq, arm.nv)
    True
    """
    pin = _import_pin()
    model.require_rigid_links("to_pinocchio (a Pinocchio model is a rigid-body tree)")
    model.require_no_mimic("to_pinocchio (build it from the URDF with mimic=True)")
    pm = pin.Model()
    pm.name = model.name
    names = model.body_names
    # eslabon body -> (Pinocchio joint it is rigidly attached to, body frame in that joint frame)
    attach = {0: (0, pin.SE3.Identity())}
    frame_of = {0: 0}  # eslabon body -> its Pinocchio body frame (0 = "universe")
    for i in map(int, body_order(model)):
        parent = int(model.parent[i])
        parent_joint, parent_in_joint = attach[parent]
        placement = parent_in_joint * pin.SE3(
            np.array(model.tree_rotation[i]), np.array(model.tree_translation[i])
        )
        kind = int(model.joint_type[i])
        previous_frame = frame_of[parent]
        if kind == 0:
            joint, body_in_joint = parent_joint, placement
        else:
            joint = pm.addJoint(
                parent_joint,
                _joint_model(
                    pin,
                    kind,
                    np.array(model.axis[i]),
                    np.array(model.axis2[i]),
                    float(model.pitch[i]),
                ),
                placement,
                model.joint_names[i],
            )
            previous_frame = pm.addJointFrame(joint, previous_frame)
            body_in_joint = pin.SE3.Identity()
        attach[i] = (joint, body_in_joint)
        inertia = pin.Inertia(
            float(model.mass[i]),
            np.array(model.com[i], dtype=float),
            np.array(model.inertia[i], dtype=float),
        )
        pm.appendBodyToJoint(joint, inertia, body_in_joint)
        frame_of[i] = pm.addBodyFrame(f"body_{i}_{names[i]}", joint, body_in_joint, previous_frame)
    pm.gravity = pin.Motion(np.array(model.gravity, dtype=float), np.zeros(3))
    if armature:
        dof_body = model.dof_bodies[dof_order(model)]
        pm.armature = np.array(model.armature[dof_body], dtype=float)
    if pm.nq != model.nq or pm.nv != model.nv:
        raise AssertionError(
            f"to_pinocchio: built nq={pm.nq}, nv={pm.nv}, expected {model.nq}, {model.nv}"
        )
    return pm


def constraint_dynamics_twin(model, contacts=None):
    """Pinocchio's ``constraintDynamics`` for eslabon's contacts, as an oracle: rigid 3-D
    or 6-D contacts at the same frames of the Pinocchio twin (:func:`to_pinocchio`),
    world-aligned axes, no proximal damping.

    Parameters
    ----------
    model : Model
    contacts : Contact or a list of them, optional
        Point (3 rows) or weld (6 rows) contacts with the world's axes (no
        ``rotation``); by default the model's own constraints.

    Returns
    -------
    callable
        ``dynamics(q, qd, tau) -> (qdd, lam)``, both in eslabon's orders: q̈ (nv,) and
        the contact forces λ (the rows of :func:`eslabon.constraints.constraint_names`).
        Its attribute ``pinocchio`` holds (model, data, constraint models, constraint
        datas, proximal settings), for calling Pinocchio directly (a benchmark).

    Raises
    ------
    ValueError
        Pinocchio is not installed; a loop closure, a rolling wheel, a contact with other
        axes than point or weld, or a rotated contact (Pinocchio's world-aligned rows
        would not be eslabon's).

    Examples
    --------
    >>> import numpy as np, eslabon as es
    >>> from eslabon import constraints as ec
    >>> from eslabon.interop.pinocchio import constraint_dynamics_twin
    >>> arm = es.zoo.load("puma560")
    >>> q = np.full(6, 0.3)
    >>> weld = ec.Contact("w", "ee", "weld", position=es.kinematics.frame_pose(arm, q, "ee")[:3, 3])
    >>> qdd, lam = constraint_dynamics_twin(arm, [weld])(q, np.zeros(6), np.ones(6))
    >>> ours = ec.constrained_forward_dynamics(arm, q, np.zeros(6), np.ones(6), constraints=weld)
    >>> bool(np.allclose(lam, ours.force, atol=1e-8))
    True
    """
    from ..model.constraint_types import AXES, PRESETS, Contact

    pin = _import_pin()
    contacts = model.constraints if contacts is None else contacts
    contacts = [contacts] if isinstance(contacts, Contact) else list(contacts)
    pm = to_pinocchio(model)
    data = pm.createData()
    models, datas = pin.StdVec_RigidConstraintModel(), pin.StdVec_RigidConstraintData()
    for c in contacts:
        axes = tuple(PRESETS.get(c.axes, c.axes)) if isinstance(c, Contact) else ()
        if axes not in (PRESETS["point"], AXES) or (
            c.rotation is not None and not np.allclose(c.rotation, np.eye(3))
        ):
            raise ValueError(
                f"contacts: {getattr(c, 'name', c)!r}: the twin takes point or weld contacts "
                "in the world's axes (Pinocchio's rigid 3-D/6-D contacts)"
            )
        fr = model.frame(c.frame)
        frame = pm.frames[pm.getFrameId(f"body_{fr.body}_{model.body_names[fr.body]}")]
        kind = pin.ContactType.CONTACT_6D if axes == AXES else pin.ContactType.CONTACT_3D
        placement = frame.placement * pin.SE3(fr.rotation, fr.translation)
        models.append(pin.RigidConstraintModel(kind, pm, frame.parentJoint, placement,
                                               pin.ReferenceFrame.LOCAL_WORLD_ALIGNED))  # fmt: skip
        datas.append(models[len(models) - 1].createData())
    pin.initConstraintDynamics(pm, data, models, datas)
    settings = pin.ProximalSettings(1e-14, 0.0, 1)
    cq, cv = configuration_order(model), dof_order(model)

    def dynamics(q, qd, tau):
        q, qd, tau = (np.asarray(x, dtype=float) for x in (q, qd, tau))
        a = pin.constraintDynamics(pm, data, q[cq], qd[cv], tau[cv], models, datas, settings)
        qdd = np.empty(model.nv)
        qdd[cv] = a
        return qdd, np.array(data.lambda_c)

    dynamics.pinocchio = (pm, data, models, datas, settings)  # type: ignore[attr-defined]
    return dynamics


__all__ = [
    "to_pinocchio",
    "dof_order",
    "configuration_order",
    "body_order",
    "constraint_dynamics_twin",
]
