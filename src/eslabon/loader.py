"""Model files of either kind: an arm, or a mobile manipulator carrying one.

:mod:`eslabon.model.files` reads arm models (DH tables, body lists, URDF) and
:mod:`eslabon.mobile.files` the ``mobile`` section of a mobile-manipulator file, whose arm
it loads through the former. This module sits above both, so that neither package imports
the other upward (``docs/model-files.md``).
"""

from __future__ import annotations

from .model.files import read_model_file


def _mobile_section(section, path, name, *, strict):
    # imported on first use: a mobile manipulator brings in the platform and the
    # Gibbs–Appell code, which an arm file does not need
    from .mobile.files import mobile_from_mapping

    return mobile_from_mapping(section, path, name, strict=strict)


def load_model(
    path,
    *,
    gravity=None,
    strict: bool = False,
    root_joint: str | None = None,
    ee: str | None = None,
):
    """Load a model file of either kind.

    Parameters
    ----------
    path : str or path-like
        A ``.yaml`` / ``.yml`` file (a DH table, a body list, or a ``mobile`` section), a
        ``.urdf`` file, or an MJCF ``.xml`` file (compiled by MuJoCo: ``pip install
        'eslabon[mjcf]'``; :func:`eslabon.model.mjcf.read_mjcf`).
    gravity : array_like, (3,), optional
        Overrides the file's gravity [m/s²] (URDF has none: the physical default
        (0, 0, −9.81) applies). Refused for a mobile manipulator, whose gravity is set in
        its ``mobile`` section.
    strict : bool
        Refuse an inertia no rigid body can have (else a warning).
    root_joint : {None, "free_flyer", "planar"}
        URDF only: hang the root link from the world on this joint, named ``root_joint``
        (a floating or planar base, as Pinocchio's ``buildModel(urdf, root_joint)``);
        None keeps the root link as the fixed world. Refused for a YAML file.
    ee : str, optional
        URDF only: the link that is the end effector ``"ee"``; by default the URDF's tool
        frame (``tool0``, ``ee_link``, …) where it has one, else its last link
        (:func:`eslabon.model.read_urdf`; the model's ``source`` says which rule applied).

    Returns
    -------
    Model or MobileManipulator
        An :class:`eslabon.Model`, or an :class:`eslabon.mobile.MobileManipulator` for a
        file with a ``mobile`` section.

    Raises
    ------
    ValueError
        Anything wrong in the file, naming the file and the field (or the element and
        its line); see ``docs/model-files.md`` for what is checked. Also a missing file,
        an extension other than ``.yaml``, ``.yml``, ``.urdf`` or ``.xml``, and an option
        the file's kind does not take.

    Examples
    --------
    A one-joint DH table written to a temporary folder, then read:

    >>> import tempfile
    >>> from pathlib import Path
    >>> import eslabon as es
    >>> text = '''
    ... eslabon: 1
    ... name: pendulum
    ... convention: standard
    ... gravity: [0, -9.81, 0]
    ... rows:
    ...   - {joint: R, theta: 0, d: 0, a: 1.0, alpha: 0, mass: 2.0, com: [-0.5, 0, 0],
    ...      inertia: [[0, 0, 0], [0, 0.1, 0], [0, 0, 0.1]]}
    ... '''
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "pendulum.yaml"
    ...     _ = path.write_text(text, encoding="utf-8")
    ...     model = es.load_model(path)
    >>> model.name, model.nq, es.gravity_torques(model, [0.0]).round(4).tolist()
    ('pendulum', 1, [9.81])
    """
    return read_model_file(
        path,
        gravity=gravity,
        strict=strict,
        read_mobile=_mobile_section,
        root_joint=root_joint,
        ee=ee,
    )
