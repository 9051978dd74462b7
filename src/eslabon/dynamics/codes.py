"""The codes the compiled drivers take, in a module without numba: the public functions
name them (:mod:`.api`'s records) before any kernel is imported."""

# What a Newton–Euler call computes: τ = NE(q, q̇, q̈), the bias NE(q, q̇, 0) or g = NE(q, 0, 0).
MODE_ID, MODE_BIAS, MODE_GRAVITY = 0, 1, 2
# the mass matrix of forward dynamics through M
# (:func:`.cholesky_forward_dynamics.fd_into`): Walker–Orin method 3 (composite body) or 1
# (columns)
COMPOSITE, NE_COLUMNS = 3, 1
