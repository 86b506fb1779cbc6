"""Per-row batches (sk_rows_*) on raw CFFI against numpy along axis 1 (float64 references),
with padded, negative and single-row strides, and the bad-input cases (row stride smaller than
cols, overlap of out with the rows, extent overflow, NaN/inf in normalisation) with nothing
written."""

import math

import numpy as np
import pytest

from audio_util import FLOATS, SFX, PTRDIFF_MAX, ptr
from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_NON_FINITE, SK_ERR_NULL_POINTER,
    SK_ERR_OVERLAP,
)

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])
SHAPES = [(1, 1), (1, 7), (3, 1000), (5, 513), (64, 480), (2, 0), (0, 5)]


def layouts(rng, rows, cols, dtype):
    """(name, array view with contiguous rows, pointer-to-row-0 offset in elements, ld)."""
    pad = 3
    base = rng.standard_normal((rows, cols + pad)).astype(dtype)
    yield "contiguous", np.ascontiguousarray(base[:, :cols])
    yield "padded", base[:, :cols]
    yield "reversed", base[::-1, :cols]


def view_args(ffi, v):
    if v.size == 0:
        return ffi.NULL, v.shape[1] if v.shape[0] <= 1 else v.strides[0] // v.itemsize
    ld = v.strides[0] // v.itemsize if v.shape[0] > 1 else v.shape[1]
    return ffi.cast(("float" if v.itemsize == 4 else "double") + " *", v.__array_interface__["data"][0]), ld


@DT
@pytest.mark.parametrize("shape", SHAPES)
def test_row_reductions(sk, ffi, dtype, shape):
    rng = np.random.default_rng(sum(shape))
    t = SFX[np.dtype(dtype)]
    eps = float(np.finfo(dtype).eps)
    rows, cols = shape
    for name, v in layouts(rng, rows, cols, dtype):
        px, ld = view_args(ffi, v)
        if v.size == 0 and rows > 1:
            ld = max(ld, cols)
        v64 = v.astype(np.float64)
        for op in ("sum", "mean", "peak", "rms"):
            out = np.full(rows + 1, -7.0, dtype)
            st = getattr(sk, f"sk_rows_{op}_{t}")(px, ld, ptr(ffi, out), rows, cols)
            if cols == 0 and rows > 0 and op != "sum":
                assert st == SK_ERR_LENGTH and np.all(out == -7.0)
                continue
            assert st == SK_OK, (op, name)
            assert out[-1] == -7.0
            got = out[:-1].astype(np.float64)
            for r in range(rows):
                row = v64[r]
                if op == "sum":
                    want = math.fsum(row)
                    assert abs(got[r] - want) <= 20 * eps * math.fsum(np.abs(row)) + eps * abs(want)
                elif op == "mean":
                    want = math.fsum(row) / cols
                    assert abs(got[r] - want) <= (20 * eps * math.fsum(np.abs(row)) / cols + eps * abs(want))
                elif op == "peak":
                    assert got[r] == np.abs(v[r]).max()
                else:
                    want = math.sqrt(math.fsum(row * row) / cols)
                    assert abs(got[r] - want) <= 4 * eps * want
                # bit-identical to the single-buffer function on that row
                one = ffi.new(("float" if t == "f32" else "double") + " *")
                rr = np.ascontiguousarray(v[r])
                assert getattr(sk, f"sk_{op}_{t}")(ptr(ffi, rr), one, cols) == SK_OK
                assert one[0] == out[r]


@DT
def test_normalize_rows(sk, ffi, dtype):
    rng = np.random.default_rng(21)
    t = SFX[np.dtype(dtype)]
    base = rng.standard_normal((6, 300)).astype(dtype)
    base[2] = 0.0
    base[4, 7] = np.finfo(dtype).smallest_subnormal
    base[4, :7] = 0.0
    base[4, 8:] = 0.0
    v = base[::-1, :250]  # reversed rows, padded
    want = v.astype(np.float64)
    pk = np.abs(want).max(axis=1, keepdims=True)
    want = np.where(pk > 0, want / np.where(pk > 0, pk, 1), want).astype(dtype)
    before = base.copy()
    px, ld = view_args(ffi, v)
    assert getattr(sk, f"sk_rows_normalize_peak_{t}")(px, ld, 6, 250) == SK_OK
    assert np.array_equal(v, want)
    assert np.array_equal(base[:, 250:], before[:, 250:])  # padding untouched
    # v[i] is base[5 - i]: base row 2 (all zero) is v[3] and stays zero; every other row,
    # including the one whose only non-zero is a denormal, peaks at exactly 1
    assert np.abs(v).max(axis=1).tolist() == [1.0, 1.0, 1.0, 0.0, 1.0, 1.0]


@DT
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_normalize_refuses_non_finite(sk, ffi, last_error, dtype, bad):
    t = SFX[np.dtype(dtype)]
    x = np.random.default_rng(22).standard_normal((4, 50)).astype(dtype)
    x[3, 49] = bad
    keep = x.copy()
    assert getattr(sk, f"sk_rows_normalize_peak_{t}")(ptr(ffi, x), 50, 4, 50) == SK_ERR_NON_FINITE
    assert np.array_equal(x, keep, equal_nan=True)
    assert "row 3, column 49" in last_error()


def test_bad_layouts_write_nothing(sk, ffi, last_error):
    x = np.arange(40, dtype=np.float32)
    out = np.full(8, 7.0, np.float32)
    po = ptr(ffi, out)
    assert sk.sk_rows_sum_f32(ptr(ffi, x), 4, po, 4, 5) == SK_ERR_BAD_ARGUMENT
    assert "row stride ld = 4 is smaller than cols = 5" in last_error()
    assert sk.sk_rows_sum_f32(ptr(ffi, x), -4, po, 4, 5) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_rows_normalize_peak_f32(ptr(ffi, x), 3, 2, 5) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_rows_rms_f32(ptr(ffi, x), PTRDIFF_MAX, po, 3, 5) == SK_ERR_LENGTH
    assert sk.sk_rows_rms_f32(ffi.NULL, 5, po, 3, 5) == SK_ERR_NULL_POINTER
    assert sk.sk_rows_rms_f32(ptr(ffi, x), 5, ffi.NULL, 3, 5) == SK_ERR_NULL_POINTER
    # out inside the rows' span
    xx = np.arange(40, dtype=np.float32)
    assert sk.sk_rows_sum_f32(ptr(ffi, xx), 10, ptr(ffi, xx, 12), 3, 5) == SK_ERR_OVERLAP
    # negative ld reaching below address 0
    assert sk.sk_rows_sum_f32(ffi.cast("float *", 64), -1000, po, 2, 5) == SK_ERR_LENGTH
    assert np.all(out == 7.0) and np.array_equal(xx, np.arange(40))
    assert sk.sk_rows_sum_f32(ffi.NULL, 5, ffi.NULL, 0, 5) == SK_OK
