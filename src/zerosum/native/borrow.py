"""Borrowed arrays: a compiled kernel's view of its array arguments without
reference counting.

numba counts references to an array's memory with atomic instructions: each
row view a kernel takes (``S[p]``, ``mv[p]``) and each view it passes to a
primitive costs an increment and a decrement, a locked instruction and a
call each (the Connect Four kernel's machine code made about 200 such calls).
A view of an array whose ``meminfo`` is null skips them (numba's
``NRT_incref``/``NRT_decref`` do nothing for null).

:func:`borrow` returns the same array (same data, shape, strides) with a
null ``meminfo`` and ``parent``. Contract: the borrowed array and its views
are valid only while the original is alive, so a kernel may borrow its
arguments (the caller holds them for the whole call) but must not return a
borrowed array or store one anywhere that outlives the call.
"""

from __future__ import annotations

from typing import Any

from numba.core import cgutils, types
from numba.extending import intrinsic

# (untyped in numba)
_null_value: Any = cgutils.get_null_value
_struct_proxy: Any = cgutils.create_struct_proxy


@intrinsic
def _borrow(typingctx: Any, array: Any) -> Any:
    """``array`` without ownership (see the module docstring)."""
    if not isinstance(array, types.Array):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        # By the fields' names in numba's array model (not their positions).
        value = _struct_proxy(signature.args[0])(context, builder, value=args[0])
        value.meminfo = _null_value(value.meminfo.type)
        value.parent = _null_value(value.parent.type)
        return value._getvalue()

    return array(array), codegen


#: Typed as Any for mypy: numba's intrinsic object takes the typing context
#: itself, so its call signature is not the compiled one.
borrow: Any = _borrow
