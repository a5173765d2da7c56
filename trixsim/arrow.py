"""Arrow columns straight from numpy buffers.

``pyarrow.array`` on numpy data or Python strings imports pandas (about half a second per
process, in every worker) although nothing here needs it; these build the same arrays
from raw buffers instead, checking that narrowing keeps every value.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pyarrow as pa
from numba import njit

_TYPES = {np.dtype(np.int8): pa.int8(), np.dtype(np.int16): pa.int16(),
          np.dtype(np.int32): pa.int32(), np.dtype(np.int64): pa.int64(),
          np.dtype(np.uint32): pa.uint32()}


@njit(cache=True, nogil=True)
def _narrow(v: np.ndarray, out: np.ndarray, lo: int, hi: int) -> bool:
    """Copy ``v`` into ``out`` (a narrower type) in one pass; False if a value is outside
    ``lo..hi`` (``out`` is then incomplete)."""
    for i in range(v.shape[0]):
        x = v[i]
        if x < lo or x > hi:
            return False
        out[i] = x
    return True


def ints(values: np.ndarray, dtype: type[np.integer]) -> pa.Array:
    """An integer column of numpy type ``dtype``; ValueError if a value does not fit.
    Columns of the outcome rows (int64, often strided) narrow in one compiled pass. The
    column is always a copy: the arrays it is read from are reused for later batches
    (``BatchState.release``, ``OutcomeLog.release``) while its table may wait to be
    written."""
    out = narrowed(values, dtype)
    return pa.Array.from_buffers(_TYPES[out.dtype], len(out), [None, pa.py_buffer(out)])


def narrowed(values: np.ndarray, dtype: type[np.integer]) -> np.ndarray:
    """``values`` as a fresh contiguous array of ``dtype`` (``ints``' copy, before it
    becomes a column); ValueError if a value does not fit."""
    v = np.asarray(values)
    want = np.dtype(dtype)
    if v.dtype == want:
        return np.array(v, order="C", copy=True)
    if v.dtype == np.int64 and v.ndim == 1:
        info = np.iinfo(want)
        out = np.empty(len(v), dtype=want)
        if not _narrow(v, out, int(info.min), int(info.max)):
            raise ValueError(f"values do not fit {want.name}")
        return out
    out = np.ascontiguousarray(v.astype(want))
    if not np.array_equal(out, v):
        raise ValueError(f"values do not fit {want.name}")
    return out


def split_rows(rows: np.ndarray, layout: dict[str, tuple[int, type]],
               order: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """Columns of the row-major integer ``rows``, each named in ``layout`` with its place
    in a row and its type, narrowed (ValueError if a value does not fit its type). The
    columns of one type are gathered and narrowed in one compiled pass over the rows into
    one block of that type (a strided pass per column reads a row's cache line for each
    value, several times slower; an int64 block narrowed afterwards took eight bytes a
    value where the columns take one or two), and each column is a contiguous row of its
    block. ``order``: the rows to take, in that order (the same as
    ``split_rows(rows[order], layout)`` without copying the rows first)."""
    rows = np.ascontiguousarray(rows)
    take = (np.zeros(0, dtype=np.int64) if order is None
            else np.ascontiguousarray(order, dtype=np.int64))
    n = rows.shape[0] if order is None else len(take)
    by_type: dict[np.dtype, list[str]] = {}
    for name, (_, typ) in layout.items():
        by_type.setdefault(np.dtype(typ), []).append(name)
    out: dict[str, np.ndarray] = {}
    for typ, names in by_type.items():
        idx = np.array([layout[name][0] for name in names], dtype=np.int64)
        block = np.empty((len(names), n), dtype=typ)
        info = np.iinfo(typ)
        if not _gather_narrow(rows, take, order is not None, idx, block, int(info.min),
                              int(info.max)):
            raise ValueError(f"values do not fit {typ.name}")
        out.update((name, block[k]) for k, name in enumerate(names))
    return {name: out[name] for name in layout}


@njit(cache=True, nogil=True)
def _gather_narrow(rows: np.ndarray, take: np.ndarray, ordered: bool, idx: np.ndarray,
                   out: np.ndarray, lo: int, hi: int) -> bool:
    """``out[k, j] = rows[r, idx[k]]`` for the rows ``r`` (``take[j]`` if ``ordered``,
    else ``j``): the chosen columns, narrowed to ``out``'s type, in one pass over the
    rows; False if a value is outside ``lo..hi`` (``out`` is then incomplete)."""
    for j in range(out.shape[1]):
        r = take[j] if ordered else j
        for k in range(idx.shape[0]):
            x = rows[r, idx[k]]
            if x < lo or x > hi:
                return False
            out[k, j] = x
    return True


def owned_ints(values: np.ndarray) -> pa.Array:
    """An integer column over ``values``' own memory, not copied: for an array made for
    this column alone (contiguous, of a column type) that nothing writes after."""
    v = np.ascontiguousarray(values)
    return pa.Array.from_buffers(_TYPES[v.dtype], len(v), [None, pa.py_buffer(v)])


def constant(value: int, n: int) -> pa.Array:
    """An int8 column of ``n`` times ``value`` (a lineup, a strategy's dictionary code)."""
    return owned_ints(np.full(n, value, dtype=np.int8))


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


def dictionary(codes: np.ndarray | pa.Array, words: Sequence[str]) -> pa.DictionaryArray:
    """A dictionary-encoded string column: int8 ``codes`` (or an int8 column) into
    ``words``."""
    indices = codes if isinstance(codes, pa.Array) else ints(codes, np.int8)
    return pa.DictionaryArray.from_arrays(indices, strings(words))


def table(columns: dict[str, pa.Array]) -> pa.Table:
    """A table of the columns built here, each field declared non-nullable: Parquet then
    stores them as required columns, with no definition levels to encode or decode (a
    tenth of a chunk's encoding time; README, "Chunk files"). ValueError if a column holds
    a null (the builders above never make one)."""
    for name, col in columns.items():
        if col.null_count:
            raise ValueError(f"column {name} holds {col.null_count} nulls")
    schema = pa.schema([pa.field(name, col.type, nullable=False)
                        for name, col in columns.items()])
    return pa.Table.from_arrays(list(columns.values()), schema=schema)


__all__ = ["bools", "constant", "dictionary", "ints", "narrowed", "owned_ints", "split_rows",
           "strings", "table"]
