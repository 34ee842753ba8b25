"""Bit operations on ``uint64`` words that numba lacks, as LLVM intrinsics
(one instruction each), shared by the games' primitives.

numba types ``uint64 op int64`` arithmetic as ``int64`` or ``float64``: every
constant that meets a bitboard is a ``uint64`` (:data:`ONE` and friends)."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import types
from numba.extending import intrinsic

ZERO = np.uint64(0)
ONE = np.uint64(1)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)


def _popcount(typingctx: Any, x: Any) -> Any:
    """Number of set bits of a ``uint64`` (``llvm.ctpop``)."""
    signature = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        word = context.get_value_type(types.uint64)
        function = builder.module.declare_intrinsic("llvm.ctpop", [word])
        return builder.call(function, [args[0]])

    return signature, codegen


def _lowest_index(typingctx: Any, x: Any) -> Any:
    """Index of the lowest set bit of a nonzero ``uint64`` (``llvm.cttz``)."""
    signature = types.int64(types.uint64)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        word = context.get_value_type(types.uint64)
        flag = context.get_value_type(types.boolean)
        function = builder.module.declare_intrinsic("llvm.cttz", [word, flag])
        return builder.call(function, [args[0], context.get_constant(types.boolean, False)])

    return signature, codegen


# Typed as Any for mypy: numba's intrinsic objects take the typing context
# as a first argument that compiled callers never pass.
popcount: Any = intrinsic(_popcount)
lowest_index: Any = intrinsic(_lowest_index)
