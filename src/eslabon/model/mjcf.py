"""MJCF front-end: MuJoCo's own compiler reads the file, eslabon reads what it compiled.

``mujoco`` (``pip install 'eslabon[mjcf]'``) compiles the MJCF into an ``MjModel``, so
defaults, ``<compiler>`` options (angles in degrees, ``eulerseq``, ``inertiafromgeom``
with meshes, ``fusestatic``, ``balanceinertia`` …), ``ref`` and ``<include>`` mean what
MuJoCo means. This module turns the compiled bodies, joints, inertias, sites,
keyframes and equalities into one :class:`~eslabon.model.Model`
(:mod:`eslabon.model.mjcf_tree`, :mod:`eslabon.model.mjcf_extras`).

Coordinates (:class:`MjcfInfo` converts; ``docs/model-files.md``, section MJCF):

==========  ===========================  =============================================
joint       MuJoCo qpos / qvel           eslabon q / v
==========  ===========================  =============================================
hinge       angle; rate                  angle − qpos0 (``ref``); the same rate
slide       displacement; rate           displacement − qpos0 (``ref``); the same rate
ball        (w, x, y, z); ω body axes    (x, y, z, w); ω body axes
free        (p, w, x, y, z);             (p, x, y, z, w);
            (ṗ world axes, ω body axes)  (Rᵀ ṗ body axes, ω body axes)
==========  ===========================  =============================================

with R the body's rotation in the world. So v_mj = J(q) v with J = blockdiag(R, I) on a
free joint and the identity elsewhere, and by virtual work τ = Jᵀ τ_mj, M = Jᵀ M_mj J,
and the accelerations a_mj = J a + J̇ v, J̇ v = (R (ω × Rᵀṗ), 0) on a free joint. A joint
equality makes a joint a mimic joint, which has no coordinate of its own: its qpos is
filled from the coupling, and its qvel, qacc and generalized force enter through the
coupling's multiplier.
"""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .mjcf_extras import add_sites, equalities, not_represented, visuals
from .mjcf_info import MjcfInfo
from .mjcf_tree import HINGE, SLIDE, build_tree, object_name
from .urdf_end_effector import TOOL_FRAMES

if TYPE_CHECKING:
    from numpy.typing import ArrayLike

    from .model import Model

MIN_MUJOCO = (3, 2)
"""The oldest MuJoCo whose compiled model this reader knows."""


class MjcfWarning(UserWarning):
    """What an MJCF holds that the eslabon model does not represent (one warning per file,
    listing every kind of element left out)."""


def _mujoco() -> Any:
    """The ``mujoco`` module, or a ValueError naming the extra to install."""
    try:
        import mujoco
    except ImportError as exc:
        raise ValueError(
            "MJCF files are compiled by MuJoCo, which does not import here "
            f"({exc}): pip install 'eslabon[mjcf]'"
        ) from None
    version = tuple(int(x) for x in mujoco.__version__.split(".")[:2] if x.isdigit())
    if version < MIN_MUJOCO:
        raise ValueError(
            f"MJCF files need mujoco >= 3.2, found {mujoco.__version__}: "
            "pip install -U 'eslabon[mjcf]'"
        )
    return mujoco


def _one_line(message: str) -> str:
    return "; ".join(line.strip() for line in str(message).splitlines() if line.strip())


def _compile(source: str | Path, mujoco: Any) -> tuple[Any, str, Path | None]:
    """(MjModel, where, path or None) of a file path or MJCF text."""
    text = isinstance(source, str) and source.lstrip().startswith("<")
    path = None if text else Path(source)
    where = "MJCF text" if path is None else str(path)
    if path is not None and not path.is_file():
        raise ValueError(f"{where}: no such MJCF file")
    try:
        if path is None:
            m = mujoco.MjModel.from_xml_string(str(source))
        else:
            m = mujoco.MjModel.from_xml_path(str(path))
    except Exception as exc:  # MuJoCo raises ValueError with its own message
        raise ValueError(f"{where}: MuJoCo refuses it: {_one_line(str(exc))}") from None
    return m, where, path


def read_mjcf(
    source: str | Path,
    *,
    gravity: ArrayLike | None = None,
    name: str | None = None,
    strict: bool = False,
) -> tuple[Model, MjcfInfo]:
    """Read an MJCF (MuJoCo XML) robot through MuJoCo's compiler.

    Every MuJoCo body is a body of the model with the same frame and name; a joint with
    an anchor offset, or a body with several joints, adds bodies named after its joints
    (:mod:`eslabon.model.mjcf_tree`). Hinge, slide, ball and free joints are revolute,
    prismatic, spherical and free-flyer joints; ``damping``, ``frictionloss`` and
    ``armature`` are viscous, Coulomb friction and armature; sites are named frames;
    ``connect`` and ``weld`` equalities are loop closures (``Model.constraints``) and
    linear ``joint`` equalities mimic joints. Coordinates and their conversions: the
    module docstring and :class:`MjcfInfo`.

    Parameters
    ----------
    source : str or Path
        An MJCF file path, or MJCF text (a string starting with ``<``).
    gravity : array_like (3,), optional
        Overrides the file's ``<option gravity>`` [m/s²] (zero where the file disables
        gravity).
    name : str, optional
        The model's name (default the ``<mujoco model>`` name, else the file's stem).
    strict : bool
        Refuse an inertia no rigid body can have (otherwise a warning names the body).

    Returns
    -------
    (Model, MjcfInfo)
        The model and what it does not hold (keyframes, limits, visuals), with the maps
        between MuJoCo's qpos, qvel, forces and eslabon's q, v, τ.

    Raises
    ------
    ValueError
        ``mujoco`` not installed (naming ``pip install 'eslabon[mjcf]'``); a file MuJoCo
        refuses (its message, with the line); an element eslabon cannot represent,
        named with the reason (a nonlinear, tendon or flex equality, a free joint below
        another body, frictionloss on a free joint …).

    Warns
    -----
    MjcfWarning
        Once, listing every kind of element not represented (contacts, limits,
        actuators, tendons, sensors, springs, gravity compensation …).

    Examples
    --------
    >>> import warnings
    >>> import numpy as np
    >>> import eslabon as es
    >>> from eslabon.model.mjcf import read_mjcf
    >>> xml = '''<mujoco model="pendulum"><worldbody><body name="link" pos="0 0 1">
    ...   <joint name="hinge" axis="0 1 0" ref="90"/>
    ...   <geom type="capsule" fromto="0 0 0 0 0 -1" size="0.05" mass="2"/>
    ... </body></worldbody><keyframe><key name="out" qpos="0"/></keyframe></mujoco>'''
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     model, info = read_mjcf(xml)
    >>> model.body_names, model.q_names
    (('world', 'link'), ('hinge',))
    >>> info.keyframes["out"].round(4).tolist()  # q = qpos − ref (90° in degrees)
    [-1.5708]
    """
    mujoco = _mujoco()
    m, where, path = _compile(source, mujoco)
    try:
        return _read(mujoco, m, where, path, gravity, name, strict)
    except ValueError as exc:
        message = str(exc)
        if message.startswith(f"{where}:"):
            raise
        raise ValueError(f"{where}: {message}") from None


def _read(
    mujoco: Any,
    m: Any,
    where: str,
    path: Path | None,
    gravity: Any,
    name: str | None,
    strict: bool,
) -> tuple[Model, MjcfInfo]:
    from . import urdf
    from .urdf import UrdfInfo

    b, tree = build_tree(m)
    sites = add_sites(m, b, tree)
    mimics, loops, skipped = equalities(m, b, tree, sites, int(mujoco.mjtObj.mjOBJ_SITE))
    for loop in loops:
        b.add_constraint(loop)
    _tool_frame(b, tree)
    flags, bit = int(m.opt.disableflags), mujoco.mjtDisableBit
    if gravity is None:
        off = flags & int(bit.mjDSBL_GRAVITY)
        gravity = np.zeros(3) if off else np.array(m.opt.gravity, dtype=float)
    # MuJoCo's names buffer starts with the model's name ("MuJoCo Model" when not given)
    given = bytes(m.names).split(b"\x00", 1)[0].decode("utf-8", errors="replace")
    given = "" if given == "MuJoCo Model" else given
    model_name = name or given or (path.stem if path else "mjcf")
    model = b.build(gravity=gravity, name=model_name, source=f"MJCF {where}", strict=strict)
    changes: dict[str, Any] = {}
    if mimics:
        joint = np.full(model.nb + 1, -1, dtype=np.int64)
        mult, offset = np.ones(model.nb + 1), np.zeros(model.nb + 1)
        for body, (target, a1, a0) in mimics.items():
            joint[body], mult[body], offset[body] = target, a1, a0
        changes.update(mimic_joint=joint, mimic_multiplier=mult, mimic_offset=offset)
    # what the file's <option><flag …="disable"/> switches off, eslabon leaves out too
    if flags & int(bit.mjDSBL_DAMPER):
        changes["viscous"] = np.zeros(model.nb + 1)
    if flags & (int(bit.mjDSBL_FRICTIONLOSS) | int(bit.mjDSBL_CONSTRAINT)):
        changes["coulomb"] = np.zeros(model.nb + 1)  # MuJoCo's frictionloss: a constraint
    if changes:
        model = model.replace(**changes)
    info = _info(m, tree, model, model_name, mimics, sites)
    items = not_represented(m, tree) + skipped
    if loops or mimics:
        items.append("equality softness (solref, solimp: eslabon's equalities hold exactly)")
    shapes, colors, scales = visuals(m, tree, path.parent if path else Path.cwd())
    visual = UrdfInfo(model_name, visuals=shapes, visual_colors=colors, visual_scales=scales)
    info = _replace(info, not_represented=tuple(items), visual=visual)
    if items:
        warnings.warn(
            f"{where}: not represented in the eslabon model: {'; '.join(items)}",
            MjcfWarning,
            stacklevel=3,
        )
    if path is not None:
        urdf._READ_FROM[model] = (visual, path.resolve())  # the viewer draws the geoms
    return model, info


def _tool_frame(b: Any, tree: Any) -> None:
    """Name ``"ee"`` the first site or body of :data:`TOOL_FRAMES` the file has (as a
    URDF's tool frame); without one, :meth:`ModelBuilder.build` puts it on the last body."""
    if "ee" in tree.taken:  # a site or body named "ee" is the end effector itself
        return
    frames = {f.name: f for f in b._frames}
    for name in TOOL_FRAMES:
        if name in frames:
            f = frames[name]
            b.add_frame("ee", f.body, f.rotation, f.translation)
            return
        if name in tree.body_names:
            b.add_frame("ee", tree.body_of[tree.body_names.index(name)])
            return


def _replace(info: MjcfInfo, **changes: Any) -> MjcfInfo:
    from dataclasses import replace

    return replace(info, **changes)


def _info(
    m: Any, tree: Any, model: Model, name: str, mimics: dict, sites: dict[str, str]
) -> MjcfInfo:
    njnt = int(m.njnt)
    q_index = np.array([model.q_index[tree.joint_body[j]] for j in range(njnt)], dtype=int)
    v_index = np.array([model.v_index[tree.joint_body[j]] for j in range(njnt)], dtype=int)
    joint_of_body = {tree.joint_body[j]: j for j in range(njnt)}
    mimic = {
        joint_of_body[body]: (joint_of_body[target], a1, a0)
        for body, (target, a1, a0) in mimics.items()
    }
    qpos0 = np.array(m.qpos0, dtype=float)
    limits = {}
    for j in range(njnt):
        if m.jnt_limited[j] and int(m.jnt_type[j]) in (HINGE, SLIDE):
            s = int(m.jnt_qposadr[j])
            lo, hi = (float(x) - qpos0[s] for x in m.jnt_range[j])
            limits[tree.joint_names[j]] = (lo, hi)
    info = MjcfInfo(
        name,
        limits=limits,
        site_frames=sites,
        joint_names=tuple(tree.joint_names),
        body_names=tuple(tree.body_names),
        jnt_type=np.array(m.jnt_type, dtype=int),
        qposadr=np.array(m.jnt_qposadr, dtype=int),
        dofadr=np.array(m.jnt_dofadr, dtype=int),
        qpos0=qpos0,
        q_index=q_index,
        v_index=v_index,
        mimic=mimic,
        nq=model.nq,
        nv=model.nv,
    )
    keys = {}
    for k in range(int(m.nkey)):
        keys[object_name(m, "key", k) or f"key{k}"] = info.q_from_qpos(m.key_qpos[k])
    return _replace(info, keyframes=keys)


def from_mjcf(
    source: str | Path,
    *,
    gravity: ArrayLike | None = None,
    name: str | None = None,
    strict: bool = False,
) -> Model:
    """A :class:`Model` from an MJCF file path or text: :func:`read_mjcf` without the
    :class:`MjcfInfo`.

    Parameters
    ----------
    source : str or Path
        An MJCF file path, or MJCF text (a string starting with ``<``).
    gravity : array_like (3,), optional
        Overrides the file's gravity [m/s²].
    name : str, optional
        The model's name.
    strict : bool
        Refuse an inertia no rigid body can have.

    Returns
    -------
    Model
        The robot's model.

    Raises
    ------
    ValueError
        As :func:`read_mjcf`.

    Warns
    -----
    MjcfWarning
        As :func:`read_mjcf`.

    Examples
    --------
    >>> import warnings
    >>> import eslabon as es
    >>> from eslabon.model import from_mjcf
    >>> xml = '''<mujoco><worldbody><body name="cart"><joint type="slide" axis="1 0 0"/>
    ...   <geom type="box" size="0.1 0.1 0.1" mass="3"/></body></worldbody></mujoco>'''
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")  # contacts are not represented
    ...     cart = from_mjcf(xml)
    >>> es.inverse_dynamics(cart, [0.0], [0.0], [2.0]).tolist()
    [6.0]
    """
    return read_mjcf(source, gravity=gravity, name=name, strict=strict)[0]


__all__ = ["read_mjcf", "from_mjcf", "MjcfInfo", "MjcfWarning"]
