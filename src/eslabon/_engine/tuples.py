"""3-vector and 3×3 primitives for the compiled kernels.

Vectors are 3-tuples and rotations 9-tuples (row-major): numba keeps them in registers,
so the kernels allocate nothing per body. Each helper is a plain Python function that
compiled code calls as loads and stores (:func:`._lanes.array_getter`) or as the
arithmetic its body traces (:func:`._tuple_ops.tuple_function`): no numba function is
compiled per helper and argument type.
"""

from __future__ import annotations

from .lanes import array_getter, array_setter, g3, g6, g9, s3, s6, s9, sign  # noqa: F401  (generic over lanes)
from .tracing import tuple_function


@array_getter(3)
def v3(a, o):
    """The 3-tuple a[o:o+3]."""
    return (a[o], a[o + 1], a[o + 2])


@array_getter(9)
def m9(a, o):
    """The 9-tuple a[o:o+9] (a row-major 3×3)."""
    return (a[o], a[o + 1], a[o + 2], a[o + 3], a[o + 4], a[o + 5], a[o + 6], a[o + 7], a[o + 8])


@array_setter(3)
def put3(a, o, v):
    a[o] = v[0]
    a[o + 1] = v[1]
    a[o + 2] = v[2]


@array_setter(9)
def put9(a, o, m):
    for k in range(9):
        a[o + k] = m[k]


@tuple_function
def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


@tuple_function
def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


@tuple_function
def scale(s, a):
    return (s * a[0], s * a[1], s * a[2])


@tuple_function
def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


@tuple_function
def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


@tuple_function
def mv(R, v):
    """R @ v."""
    return (
        R[0] * v[0] + R[1] * v[1] + R[2] * v[2],
        R[3] * v[0] + R[4] * v[1] + R[5] * v[2],
        R[6] * v[0] + R[7] * v[1] + R[8] * v[2],
    )


@tuple_function
def mtv(R, v):
    """R.T @ v."""
    return (
        R[0] * v[0] + R[3] * v[1] + R[6] * v[2],
        R[1] * v[0] + R[4] * v[1] + R[7] * v[2],
        R[2] * v[0] + R[5] * v[1] + R[8] * v[2],
    )


@tuple_function
def mm(A, B):
    """A @ B."""
    return (
        A[0] * B[0] + A[1] * B[3] + A[2] * B[6],
        A[0] * B[1] + A[1] * B[4] + A[2] * B[7],
        A[0] * B[2] + A[1] * B[5] + A[2] * B[8],
        A[3] * B[0] + A[4] * B[3] + A[5] * B[6],
        A[3] * B[1] + A[4] * B[4] + A[5] * B[7],
        A[3] * B[2] + A[4] * B[5] + A[5] * B[8],
        A[6] * B[0] + A[7] * B[3] + A[8] * B[6],
        A[6] * B[1] + A[7] * B[4] + A[8] * B[7],
        A[6] * B[2] + A[7] * B[5] + A[8] * B[8],
    )


@tuple_function
def rot_axis9(k, c, s):
    """Rodrigues: rotation by the angle θ (c = cos θ, s = sin θ) about the unit vector
    ``k``, as a 9-tuple."""
    t = 1.0 - c
    x, y, z = k[0], k[1], k[2]
    return (
        t * x * x + c,
        t * x * y - s * z,
        t * x * z + s * y,
        t * x * y + s * z,
        t * y * y + c,
        t * y * z - s * x,
        t * x * z - s * y,
        t * y * z + s * x,
        t * z * z + c,
    )


# Workspace row access (g3, s3, …) and sign live in ._lanes: they index the element
# directly (a row view costs a reference count round trip in compiled code) and also
# serve the lanes workspaces of the batch kernels.


@tuple_function
def mrz(R, c, s):
    """R @ Rz(θ) with c = cos θ, s = sin θ (a joint about +z: every DH joint)."""
    return (
        R[0] * c + R[1] * s,
        R[1] * c - R[0] * s,
        R[2],
        R[3] * c + R[4] * s,
        R[4] * c - R[3] * s,
        R[5],
        R[6] * c + R[7] * s,
        R[7] * c - R[6] * s,
        R[8],
    )


@tuple_function
def madd(A, B):
    return (
        A[0] + B[0],
        A[1] + B[1],
        A[2] + B[2],
        A[3] + B[3],
        A[4] + B[4],
        A[5] + B[5],
        A[6] + B[6],
        A[7] + B[7],
        A[8] + B[8],
    )


@tuple_function
def msub(A, B):
    return (
        A[0] - B[0],
        A[1] - B[1],
        A[2] - B[2],
        A[3] - B[3],
        A[4] - B[4],
        A[5] - B[5],
        A[6] - B[6],
        A[7] - B[7],
        A[8] - B[8],
    )


@tuple_function
def mt(A):
    """Aᵀ."""
    return (A[0], A[3], A[6], A[1], A[4], A[7], A[2], A[5], A[8])


@tuple_function
def outer(a, b, s):
    """s · a bᵀ."""
    return (
        s * a[0] * b[0],
        s * a[0] * b[1],
        s * a[0] * b[2],
        s * a[1] * b[0],
        s * a[1] * b[1],
        s * a[1] * b[2],
        s * a[2] * b[0],
        s * a[2] * b[1],
        s * a[2] * b[2],
    )


@tuple_function
def skew9(r):
    """[r]×, the matrix of r × ·."""
    return (0.0, -r[2], r[1], r[2], 0.0, -r[0], -r[1], r[0], 0.0)


@tuple_function
def rotate_sym(E, A):
    """E A Eᵀ."""
    return mm(mm(E, A), mt(E))


@tuple_function
def diag3(s):
    """s · 1 (the 3×3 identity scaled)."""
    return (s, 0.0, 0.0, 0.0, s, 0.0, 0.0, 0.0, s)


@tuple_function
def inertia_about(I, m, c):
    """Parallel axis: the inertia I (about the COM) of mass m moved to a point at −c from
    the COM, i.e. about the origin when the COM is at c: I + m(|c|²1 − c cᵀ)."""
    return msub(madd(I, diag3(m * dot(c, c))), outer(c, c, m))


# Symmetric 3×3 matrices as 6-tuples (xx, xy, xz, yy, yz, zz): the rotational and
# translational blocks of a spatial inertia, articulated or not, are symmetric.


@tuple_function
def sym6(M):
    """The upper triangle of the symmetric 9-tuple ``M``."""
    return (M[0], M[1], M[2], M[4], M[5], M[8])


@tuple_function
def sadd(S, T):
    return (S[0] + T[0], S[1] + T[1], S[2] + T[2], S[3] + T[3], S[4] + T[4], S[5] + T[5])


@tuple_function
def smv(S, v):
    """S @ v for a symmetric 6-tuple S."""
    return (
        S[0] * v[0] + S[1] * v[1] + S[2] * v[2],
        S[1] * v[0] + S[3] * v[1] + S[4] * v[2],
        S[2] * v[0] + S[4] * v[1] + S[5] * v[2],
    )


@tuple_function
def srank1_sub(S, u, s):
    """S − s u uᵀ, symmetric."""
    x, y, z = s * u[0], s * u[1], s * u[2]
    return (
        S[0] - x * u[0],
        S[1] - x * u[1],
        S[2] - x * u[2],
        S[3] - y * u[1],
        S[4] - y * u[2],
        S[5] - z * u[2],
    )


@tuple_function
def rank1_sub(B, a, b, s):
    """B − s a bᵀ."""
    x, y, z = s * a[0], s * a[1], s * a[2]
    return (
        B[0] - x * b[0],
        B[1] - x * b[1],
        B[2] - x * b[2],
        B[3] - y * b[0],
        B[4] - y * b[1],
        B[5] - y * b[2],
        B[6] - z * b[0],
        B[7] - z * b[1],
        B[8] - z * b[2],
    )


@tuple_function
def rotate_s6(E, S):
    """E S Eᵀ for a symmetric 6-tuple S (45 multiplications instead of 54)."""
    e0 = (E[0], E[1], E[2])
    e1 = (E[3], E[4], E[5])
    e2 = (E[6], E[7], E[8])
    t0 = smv(S, e0)  # rows of E S
    t1 = smv(S, e1)
    t2 = smv(S, e2)
    return (dot(t0, e0), dot(t0, e1), dot(t0, e2), dot(t1, e1), dot(t1, e2), dot(t2, e2))


@tuple_function
def sym_cofactors(S):
    """(cofactors, (a, a d − b², det S)) of the symmetric 6-tuple S = (a, b, c, d, e, f):
    S⁻¹ is the cofactor 6-tuple over det S, and the three leading principal minors are
    all positive exactly when S is positive definite (Sylvester's criterion)."""
    c00 = S[3] * S[5] - S[4] * S[4]
    c01 = S[2] * S[4] - S[1] * S[5]
    c02 = S[1] * S[4] - S[2] * S[3]
    c11 = S[0] * S[5] - S[2] * S[2]
    c12 = S[1] * S[2] - S[0] * S[4]
    c22 = S[0] * S[3] - S[1] * S[1]
    det = S[0] * c00 + S[1] * c01 + S[2] * c02
    return (c00, c01, c02, c11, c12, c22), (S[0], c22, det)


@tuple_function
def sscale(s, S):
    """s S for a symmetric 6-tuple S."""
    return (s * S[0], s * S[1], s * S[2], s * S[3], s * S[4], s * S[5])


@tuple_function
def sym_full(S):
    """The symmetric 6-tuple S as a 9-tuple."""
    return (S[0], S[1], S[2], S[1], S[3], S[4], S[2], S[4], S[5])


@tuple_function
def sym_product(G, B):
    """G Bᵀ of two 9-tuples whose product is known to be symmetric, as a 6-tuple."""
    g0, g1, g2 = (G[0], G[1], G[2]), (G[3], G[4], G[5]), (G[6], G[7], G[8])
    b0, b1, b2 = (B[0], B[1], B[2]), (B[3], B[4], B[5]), (B[6], B[7], B[8])
    return (dot(g0, b0), dot(g0, b1), dot(g0, b2), dot(g1, b1), dot(g1, b2), dot(g2, b2))


@tuple_function
def ssub(S, T):
    return (S[0] - T[0], S[1] - T[1], S[2] - T[2], S[3] - T[3], S[4] - T[4], S[5] - T[5])
