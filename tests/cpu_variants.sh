#!/usr/bin/env bash
# The tests marked `numerics` (results that hang on round-off) under CPU targets other
# than this machine's own, so that a result that differs in kind between CPUs fails here
# and not on a user's machine:
#   1. numba's kernels compiled for a generic x86-64 (no FMA, no AVX): NUMBA_CPU_NAME=generic;
#   2. numpy's BLAS (OpenBLAS) on an older kernel set and numpy's own SIMD loops without
#      AVX-512: OPENBLAS_CORETYPE and NPY_DISABLE_CPU_FEATURES.
# The variants are for tests only: users keep the fastest kernels of their CPU.
# Where the machine itself sets OPENBLAS_CORETYPE (to work around a BLAS fault), it is
# kept and the second variant changes numpy's loops only.
set -euo pipefail
PYTHON=${PYTHON:-python}
cd "$(dirname "$0")/.."
arch=$(uname -m)
if [ "$arch" != "x86_64" ]; then
  echo "cpu variants: x86-64 targets only; this machine is $arch, nothing to do"
  exit 0
fi
flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
status=0
echo "==> variant 1: NUMBA_CPU_NAME=generic (kernels without FMA or AVX)"
NUMBA_CPU_NAME=generic "$PYTHON" -m pytest -n "${TEST_WORKERS:-auto}" --dist worksteal -m numerics \
  || status=$?
# another BLAS kernel set than the one OpenBLAS picks for this CPU
if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
  coretype=$OPENBLAS_CORETYPE
elif [[ $flags == *avx512f* ]]; then
  coretype=Haswell
else
  coretype=SandyBridge
fi
# numpy's own SIMD loops without their AVX-512 versions (X86_V4 and the AVX512_* groups)
disable=$("$PYTHON" -c "
from numpy._core._multiarray_umath import __cpu_dispatch__ as d, __cpu_features__ as f
print(' '.join(x for x in d if f.get(x) and (x == 'X86_V4' or x.startswith('AVX512'))))
" 2>/dev/null || true)
echo "==> variant 2: OPENBLAS_CORETYPE=$coretype, NPY_DISABLE_CPU_FEATURES=${disable:- (none)}"
OPENBLAS_CORETYPE=$coretype NPY_DISABLE_CPU_FEATURES="$disable" \
  "$PYTHON" -m pytest -n "${TEST_WORKERS:-auto}" --dist worksteal -m numerics || status=$?
exit "$status"
