"""Elementary rotations and homogeneous transforms (numpy).

``rot_x(a) @ v`` rotates the vector ``v`` by the angle ``a`` about x (active, right-handed);
the columns of a rotation ``A_R_B`` are the axes of frame B written in frame A.
"""

from __future__ import annotations

import numpy as np


def rot_x(angle: float) -> np.ndarray:
    """Rotation about x by ``angle`` rad, shape (3, 3).

    The active, right-handed elementary rotation [[1, 0, 0], [0, c, −s], [0, s, c]],
    c = cos(angle), s = sin(angle): ``rot_x(a) @ v`` turns ``v`` by ``a`` about x, and
    ``rot_x(a)`` is also ``A_R_B`` for a frame B turned by ``a`` about A's x axis.

    Parameters
    ----------
    angle : float
        Rotation angle, rad (positive counter-clockwise seen from +x). A single number:
        for many angles use :func:`rotation_from_xyz` or :func:`rotation_from_axis_angle`,
        which broadcast. Not checked (NaN gives NaN entries).

    Returns
    -------
    ndarray (3, 3)
        The rotation matrix (dimensionless, proper orthonormal).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_x
    >>> np.round(rot_x(np.pi / 2) @ [0.0, 1.0, 0.0], 6)
    array([0., 0., 1.])
    """
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def rot_y(angle: float) -> np.ndarray:
    """Rotation about y by ``angle`` rad, shape (3, 3).

    The active, right-handed elementary rotation [[c, 0, s], [0, 1, 0], [−s, 0, c]],
    c = cos(angle), s = sin(angle): ``rot_y(a) @ v`` turns ``v`` by ``a`` about y.

    Parameters
    ----------
    angle : float
        Rotation angle, rad (positive counter-clockwise seen from +y). A single number;
        not checked (NaN gives NaN entries).

    Returns
    -------
    ndarray (3, 3)
        The rotation matrix (dimensionless, proper orthonormal).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_y
    >>> np.round(rot_y(np.pi / 2) @ [0.0, 0.0, 1.0], 6)
    array([1., 0., 0.])
    """
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])


def rot_z(angle: float) -> np.ndarray:
    """Rotation about z by ``angle`` rad, shape (3, 3).

    The active, right-handed elementary rotation [[c, −s, 0], [s, c, 0], [0, 0, 1]],
    c = cos(angle), s = sin(angle): ``rot_z(a) @ v`` turns ``v`` by ``a`` about z.

    Parameters
    ----------
    angle : float
        Rotation angle, rad (positive counter-clockwise seen from +z). A single number;
        not checked (NaN gives NaN entries).

    Returns
    -------
    ndarray (3, 3)
        The rotation matrix (dimensionless, proper orthonormal).

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_z
    >>> np.round(rot_z(np.pi / 2) @ [1.0, 0.0, 0.0], 6)
    array([0., 1., 0.])
    """
    c, s = np.cos(angle), np.sin(angle)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def skew(v) -> np.ndarray:
    """Cross-product matrix [v]×, ``skew(a) @ b == np.cross(a, b)``; (3,) -> (3, 3), or
    (..., 3) -> (..., 3, 3) for a stack of vectors.

    [v]× = [[0, −z, y], [z, 0, −x], [−y, x, 0]] for v = (x, y, z): the skew-symmetric
    matrix written ṽ in Jaramillo Botero (1998), eq. (1.4), and [λ]× in Rojas (1987) §2.4.

    Parameters
    ----------
    v : array_like (3,) or (..., 3)
        One vector or a stack of vectors, any units (the matrix has the units of ``v``).

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        [v]×, skew-symmetric, for each vector of the stack.

    Raises
    ------
    ValueError
        ``v`` not convertible to a float array, or its last axis not of length 3.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import skew
    >>> skew([1.0, 2.0, 3.0]).tolist()
    [[0.0, -3.0, 2.0], [3.0, 0.0, -1.0], [-2.0, 1.0, 0.0]]
    >>> bool(np.allclose(skew([1, 2, 3]) @ [4, 5, 6], np.cross([1, 2, 3], [4, 5, 6])))
    True
    >>> skew(np.zeros((5, 3))).shape
    (5, 3, 3)
    """
    v = np.asarray(v, dtype=float)
    if v.shape[-1:] != (3,):
        raise ValueError(f"v: expected a vector (3,) or a stack (..., 3), got shape {v.shape}")
    if v.shape == (3,):
        x, y, z = v
        return np.array([[0.0, -z, y], [z, 0.0, -x], [-y, x, 0.0]])
    out = np.zeros(v.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2] = -v[..., 2], v[..., 1]
    out[..., 1, 0], out[..., 1, 2] = v[..., 2], -v[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -v[..., 1], v[..., 0]
    return out


def rot_axis(axis, angle: float) -> np.ndarray:
    """Rodrigues' formula: rotation by ``angle`` about the unit vector ``axis``.

    R = 1 + sin(angle)·[k]× + (1 − cos(angle))·[k]×², k = ``axis``, active and
    right-handed (cf. Rojas (1987) (2.4.12)). ``axis`` must be a unit vector (to 1e-9):
    a non-unit axis would give a matrix that is not a rotation, so it is refused (the
    broadcasting form is :func:`rotation_from_axis_angle`).

    Parameters
    ----------
    axis : array_like (3,) or (..., 3)
        Unit rotation axis k (dimensionless), in the frame the result is written in; a
        stack gives a stack of rotations by the same angle.
    angle : float
        Rotation angle, rad, right-handed about ``axis``. A single number.

    Returns
    -------
    ndarray (3, 3) or (..., 3, 3)
        The rotation matrix (dimensionless).

    Raises
    ------
    ValueError
        ``axis`` not of shape (3,) or (..., 3), not of unit length, or ``angle`` not a
        single number.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import rot_axis, rot_z
    >>> bool(np.allclose(rot_axis([0.0, 0.0, 1.0], 0.3), rot_z(0.3)))
    True
    """
    k = np.asarray(axis, dtype=float)
    K = skew(k)
    miss = np.abs(np.einsum("...i,...i", k, k) - 1.0)  # |‖k‖² − 1| ≈ 2 |‖k‖ − 1|
    if not np.all(miss <= 2e-9):
        worst = np.sqrt(np.ravel(np.einsum("...i,...i", k, k))[np.argmax(np.ravel(miss))])
        raise ValueError(f"axis: expected a unit vector, got length {worst:.6g}")
    if np.ndim(angle) != 0:
        raise ValueError(f"angle: expected one number (rad), got shape {np.shape(angle)}")
    return np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * (K @ K)


def is_rotation(R, tol: float = 1e-9) -> bool:
    """True when ``R`` is a (3, 3) proper orthonormal matrix to ``tol``.

    Checks the shape, every entry of RᵀR − 1 within ``tol`` and ``|det R − 1| < tol``.
    One matrix only: a stack is not a rotation (False). The raising, stacked check is
    :func:`as_rotation`.

    Parameters
    ----------
    R : array_like (3, 3)
        Candidate rotation matrix (dimensionless).
    tol : float
        Absolute tolerance of the checks.

    Returns
    -------
    bool
        Whether ``R`` is a rotation. NaN entries give False.

    Raises
    ------
    ValueError
        ``R`` not convertible to a float array.

    Examples
    --------
    >>> import numpy as np
    >>> from eslabon.spatial import is_rotation, rot_x
    >>> is_rotation(rot_x(0.3)), is_rotation(np.diag([1.0, 1.0, -1.0]))
    (True, False)
    >>> is_rotation(np.diag([1.0 + 2e-6, 1.0 - 2e-6, 1.0]))
    False
    """
    R = np.asarray(R, dtype=float)
    return bool(
        R.shape == (3, 3)
        and np.all(np.abs(R.T @ R - np.eye(3)) <= tol)
        and abs(np.linalg.det(R) - 1.0) < tol
    )


def homogeneous(R, p) -> np.ndarray:
    """4×4 homogeneous transform from rotation ``R`` and translation ``p``.

    T = [[R, p], [0, 1]]: with ``R = A_R_B`` and ``p`` the origin of frame B in frame-A
    coordinates, ``T @ [x_B; 1] = [x_A; 1]``. Neither argument is checked to be a
    rotation or finite.

    Parameters
    ----------
    R : array_like (3, 3)
        Rotation (dimensionless), the axes of the moving frame as columns.
    p : array_like (3,)
        Translation, m (or the caller's length unit), in the frame of ``R``'s rows.

    Returns
    -------
    ndarray (4, 4)
        The homogeneous transform; last row [0, 0, 0, 1].

    Raises
    ------
    ValueError
        ``R`` not broadcastable to (3, 3) or ``p`` to (3,) (numpy's message).

    Examples
    --------
    >>> from eslabon.spatial import homogeneous, rot_z
    >>> T = homogeneous(rot_z(0.5), [1.0, 2.0, 3.0])
    >>> T.shape, T[:3, 3].tolist(), T[3].tolist()
    ((4, 4), [1.0, 2.0, 3.0], [0.0, 0.0, 0.0, 1.0])
    """
    T = np.eye(4)
    T[:3, :3] = R
    T[:3, 3] = p
    return T
