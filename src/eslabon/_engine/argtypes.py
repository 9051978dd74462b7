"""Values typed as when passed from Python, so that compiled callers agree on one
specialization of a kernel.

numba compiles a kernel once per tuple of argument types, and a constant written in a
compiled caller has a literal type of its own: ``f(x, 0)`` and ``f(x, True)`` compile ``f``
for ``Literal[int](0)`` and ``Literal[bool](True)``, where a call from Python (or with a
variable) compiles it for ``int64`` and ``bool``. Two callers that differ only so compile
the whole kernel, and everything it calls, twice. :func:`as_argument` drops the literal
type; it generates no code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from numba import types
from numba.extending import intrinsic

_T = TypeVar("_T")

if TYPE_CHECKING:  # the call compiled code makes: numba's @intrinsic supplies typingctx

    def as_argument(x: _T) -> _T: ...

else:

    @intrinsic
    def as_argument(typingctx, x):
        """``x`` with the type it has when passed from Python (in compiled code only).

        Parameters
        ----------
        x : any numba value
            A constant's literal type is made plain: ``Literal[int](0)`` -> ``int64``,
            ``Literal[bool](True)`` -> ``bool``; any other type is kept.

        Returns
        -------
        the value of ``x``, typed ``types.unliteral`` of its type
        """
        plain = types.unliteral(x)

        def codegen(context, builder, sig, args):
            return context.cast(builder, args[0], sig.args[0], sig.return_type)

        return plain(x), codegen
