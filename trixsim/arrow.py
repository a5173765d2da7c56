"""Arrow columns straight from numpy buffers.

``pyarrow.array`` on numpy data or Python strings imports pandas (about half a second per
process, in every worker) although nothing here needs it; these build the same arrays
from raw buffers instead, checking that narrowing keeps every value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa

_TYPES = {np.dtype(np.int8): pa.int8(), np.dtype(np.int16): pa.int16(),
          np.dtype(np.int32): pa.int32(), np.dtype(np.int64): pa.int64(),
          np.dtype(np.uint32): pa.uint32()}


def ints(values: np.ndarray, dtype: type[np.integer]) -> pa.Array:
    """An integer column of numpy type ``dtype``; ValueError if a value does not fit."""
    v = np.asarray(values)
    out = np.ascontiguousarray(v.astype(dtype))
    if out.dtype != v.dtype and not np.array_equal(out, v):
        raise ValueError(f"values do not fit {np.dtype(dtype).name}")
    return pa.Array.from_buffers(_TYPES[out.dtype], len(out), [None, pa.py_buffer(out)])


def bools(values: np.ndarray) -> pa.Array:
    """A boolean column (bit-packed, least significant bit first)."""
    v = np.asarray(values, dtype=bool)
    return pa.Array.from_buffers(pa.bool_(), len(v),
                                 [None, pa.py_buffer(np.packbits(v, bitorder="little"))])


def strings(words: Sequence[str]) -> pa.Array:
    """A string column."""
    enc = [w.encode() for w in words]
    offsets = np.zeros(len(enc) + 1, dtype=np.int32)
    offsets[1:] = np.cumsum([len(e) for e in enc])
    return pa.Array.from_buffers(pa.string(), len(enc),
                                 [None, pa.py_buffer(offsets), pa.py_buffer(b"".join(enc))])


def dictionary(codes: np.ndarray, words: Sequence[str]) -> pa.DictionaryArray:
    """A dictionary-encoded string column: int8 ``codes`` into ``words``."""
    return pa.DictionaryArray.from_arrays(ints(codes, np.int8), strings(words))


__all__ = ["bools", "dictionary", "ints", "strings"]
