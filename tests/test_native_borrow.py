"""The borrowed arrays of ``zerosum.native.borrow``: the same memory, no
ownership taken."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

pytest.importorskip("numba")

from numba import njit

from zerosum.native.borrow import borrow


def _py_fill_rows(a: Any) -> Any:
    b = borrow(a)
    for i in range(b.shape[0]):
        row = b[i]  # a view of a borrowed array
        for j in range(row.shape[0]):
            row[j] = i * 10 + j
    return b.shape[0] * b.shape[1]


_fill_rows: Any = njit(_py_fill_rows)


def test_borrowed_views_write_the_original() -> None:
    a = np.zeros((3, 4), dtype=np.int64)
    assert _fill_rows(a) == 12
    assert a.tolist() == [[i * 10 + j for j in range(4)] for i in range(3)]


def test_borrowing_takes_no_reference() -> None:
    a = np.zeros((5, 2), dtype=np.int64)
    _fill_rows(a)
    before = sys.getrefcount(a)
    for _ in range(1000):
        _fill_rows(a)
    assert sys.getrefcount(a) == before
