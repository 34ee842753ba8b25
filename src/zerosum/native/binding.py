"""How a compiled kernel is made for one game type: a copy of a template
function whose globals are the game's primitives, compiled with numba's disk
cache.

Why globals and not a closure: a compiled function held in a closure cell
pickles with a per-process id, and numba's cache index hashes the closure,
so a closure-built kernel would compile anew in every process. The copy's
name carries a digest of the primitives' source files, because numba's
cache checks only the template's own file: a changed game compiles anew
instead of running stale machine code.
"""

from __future__ import annotations

import dataclasses
import hashlib
import inspect
import sys
import types
from collections.abc import Callable
from typing import Any

from .contract import Primitives


def primitives_digest(prims: Primitives) -> str:
    """A short hash of the source files the primitives (and the shared
    ``bits`` module) come from."""
    files = set()
    for field in dataclasses.fields(prims):
        py_func = getattr(getattr(prims, field.name), "py_func", None)
        if py_func is not None:
            files.add(inspect.getsourcefile(py_func) or "")
    bits = sys.modules.get("zerosum.native.bits")
    if bits is not None:
        files.add(bits.__file__ or "")
    digest = hashlib.sha256()
    for name in sorted(files):
        if name:
            with open(name, "rb") as source:
                digest.update(source.read())
    return digest.hexdigest()[:12]


def bind(
    template: Callable[..., Any], name: str, names: dict[str, Any], inline: bool = False
) -> Callable[..., Any]:
    """A compiled copy of ``template`` named ``name`` (include
    :func:`primitives_digest` in it), whose globals are ``names``."""
    from numba import njit

    function = types.FunctionType(template.__code__, names, name)
    function.__qualname__ = name
    function.__doc__ = template.__doc__
    options: dict[str, Any] = {"cache": True, "nogil": True}
    if inline:
        options["inline"] = "always"
    compiled: Callable[..., Any] = njit(**options)(function)
    return compiled
