"""The status every compiled kernel and driver returns (an int64, 0 is success).

A batch returns the worst (largest) status of its states, so the codes are ordered by
how much the caller must say: a wrong shape is a programming error of the caller, a
mass matrix that is not positive definite is a property of the model at that
configuration, a non-finite result comes from the inputs. The public functions turn each
into an error message naming the field (:func:`eslabon._args.explain_nonfinite`).
"""

from __future__ import annotations

OK = 0  #: the outputs are finite and complete
NON_FINITE = 1  #: an output is NaN or infinite
NOT_POSITIVE_DEFINITE = 2  #: a mass matrix (or an ABA pivot D_i) is not positive definite
WRONG_SHAPE = 3  #: an argument of a lean call has the wrong length
NOT_UNIT = 4  #: a quaternion of q is not of unit length (beyond 1e-6), or a lean call of a
#: function that does not take quaternion joints got one: the general path says which

NAMES = {
    OK: "ok",
    NON_FINITE: "non-finite",
    NOT_POSITIVE_DEFINITE: "not positive definite",
    WRONG_SHAPE: "wrong shape",
    NOT_UNIT: "not a unit quaternion",
}
