"""Strided kernels sk_<op>_strided_<f32|f64> on raw CFFI: numpy views with positive, negative
and (for sources) zero strides against numpy on the same view (bitwise for elementwise ops,
exact for min/max/peak, float64 references for sums), elements outside the destination view
untouched, and every bad-input case (NULL, misalignment, zero destination stride, extent
overflow, span overlap) with nothing written."""

import math

import numpy as np
import pytest

from audio_util import FLOATS, SFX, PTRDIFF_MAX, ptr, strided_view, vptr
from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_MISALIGNED, SK_ERR_NULL_POINTER,
    SK_ERR_OVERLAP,
)

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])
NS = [0, 1, 2, 3, 15, 16, 17, 64, 511, 512, 513, 1000, 4097, 20_001]
PAIRS = [(1, 1), (2, 1), (-1, -1), (1, -1), (-3, 2), (2, -2), (4, -3), (7, 1), (-2, 5)]


def adversarial(rng, n, dtype):
    x = rng.standard_normal(n).astype(dtype) * 10
    if n > 6:
        x[rng.integers(0, n, 3)] = np.array([0.0, -0.0, np.finfo(dtype).smallest_subnormal], dtype)
    return x


def bits(a):
    """The bit patterns (so -0.0 differs from 0.0)."""
    return np.ascontiguousarray(a).view(np.int32 if a.itemsize == 4 else np.int64)


def mask_outside(base, view):
    """Boolean mask of base elements not addressed by the 1-D view."""
    m = np.ones(base.size, bool)
    if view.size:
        off = (view.__array_interface__["data"][0] - base.ctypes.data) // base.itemsize
        m[off + np.arange(view.size) * (view.strides[0] // base.itemsize)] = False
    return m


def P(ffi, v, default_stride):
    return vptr(ffi, v) if v.size else (ffi.NULL, default_stride)


@DT
@pytest.mark.parametrize("sx,sy", PAIRS)
def test_elementwise_strided_equals_numpy_on_the_views(sk, ffi, dtype, sx, sy):
    rng = np.random.default_rng(abs(sx * 10 + sy))
    t = SFX[np.dtype(dtype)]
    for n in NS:
        xb, xv = strided_view(rng, n, sx, dtype)
        bb, bv = strided_view(rng, n, -sx, dtype)
        xv[:] = adversarial(rng, n, dtype)
        px, psx = P(ffi, xv, sx)
        pb, psb = P(ffi, bv, -sx)
        cases = {
            "copy": (lambda py, psy: getattr(sk, f"sk_copy_strided_{t}")(px, psx, py, psy, n), lambda y: xv.copy()),
            "scale": (lambda py, psy: getattr(sk, f"sk_scale_strided_{t}")(px, psx, -1.75, py, psy, n),
                      lambda y: xv * dtype.type(-1.75)),
            "add": (lambda py, psy: getattr(sk, f"sk_add_strided_{t}")(px, psx, pb, psb, py, psy, n),
                    lambda y: xv + bv),
            "mul": (lambda py, psy: getattr(sk, f"sk_mul_strided_{t}")(px, psx, pb, psb, py, psy, n),
                    lambda y: xv * bv),
            "axpy": (lambda py, psy: getattr(sk, f"sk_axpy_strided_{t}")(px, psx, 0.375, py, psy, n),
                     lambda y: y + dtype.type(0.375) * xv),
            "clip": (lambda py, psy: getattr(sk, f"sk_clip_strided_{t}")(px, psx, -2.0, 3.5, py, psy, n),
                     lambda y: np.clip(xv, dtype.type(-2.0), dtype.type(3.5))),
            "fill": (lambda py, psy: getattr(sk, f"sk_fill_strided_{t}")(2.5, py, psy, n),
                     lambda y: np.full(n, 2.5, dtype)),
        }
        for name, (run, ref) in cases.items():
            yb, yv = strided_view(rng, n, sy, dtype)
            before = yb.copy()
            want = ref(yv.copy())
            py, psy = P(ffi, yv, sy)
            assert run(py, psy) == SK_OK, name
            assert np.array_equal(bits(yv), bits(want.astype(yv.dtype))), (name, n)
            m = mask_outside(yb, yv)
            assert np.array_equal(yb[m], before[m]), f"{name} wrote outside the view"


@DT
def test_in_place_on_the_same_view(sk, ffi, dtype):
    rng = np.random.default_rng(7)
    t = SFX[np.dtype(dtype)]
    for n in (1, 5, 700):
        for s in (2, -3, -1):
            base, v = strided_view(rng, n, s, dtype)
            before = base.copy()
            want_scale = v * dtype.type(3.0)
            pv, sv = vptr(ffi, v)
            assert getattr(sk, f"sk_scale_strided_{t}")(pv, sv, 3.0, pv, sv, n) == SK_OK
            assert np.array_equal(v, want_scale)
            want_add = v + v
            assert getattr(sk, f"sk_add_strided_{t}")(pv, sv, pv, sv, pv, sv, n) == SK_OK
            assert np.array_equal(v, want_add)
            want_axpy = v + dtype.type(0.5) * v
            assert getattr(sk, f"sk_axpy_strided_{t}")(pv, sv, 0.5, pv, sv, n) == SK_OK
            assert np.array_equal(v, want_axpy)
            m = mask_outside(base, v)
            assert np.array_equal(base[m], before[m])


@DT
@pytest.mark.parametrize("s", [1, -1, 2, -2, 3, -5, 0])
def test_reductions_strided(sk, ffi, dtype, s):
    rng = np.random.default_rng(8 + s)
    t = SFX[np.dtype(dtype)]
    eps = float(np.finfo(dtype).eps)
    out = ffi.new(("float" if t == "f32" else "double") + " *")
    for n in NS:
        if s == 0:
            base = np.array([rng.standard_normal()], dtype)
            v = np.broadcast_to(base, (n,))
            pv, sv = ptr(ffi, base), 0
        else:
            base, v = strided_view(rng, n, s, dtype)
            v[:] = adversarial(rng, n, dtype)
            pv, sv = P(ffi, v, s)
        w = rng.standard_normal(n).astype(dtype)
        v64 = v.astype(np.float64)
        abs_sum = math.fsum(np.abs(v64)) if n else 0.0
        # sum
        out[0] = -777.0
        assert getattr(sk, f"sk_sum_strided_{t}")(pv, sv, out, n) == SK_OK
        exact = math.fsum(v64)
        assert abs(out[0] - exact) <= 20 * eps * abs_sum + abs(exact) * eps, (n, out[0], exact)
        # dot with a contiguous operand
        out[0] = -777.0
        assert getattr(sk, f"sk_dot_strided_{t}")(pv, sv, ptr(ffi, w) if n else ffi.NULL, 1, out, n) == SK_OK
        exact = math.fsum(v64 * w.astype(np.float64))
        bound = math.fsum(np.abs(v64 * w)) if n else 0.0
        assert abs(out[0] - exact) <= 20 * eps * bound + abs(exact) * eps
        if n == 0:
            for op in ("min", "max", "peak", "rms"):
                out[0] = -777.0
                assert getattr(sk, f"sk_{op}_strided_{t}")(pv, sv, out, 0) == SK_ERR_LENGTH
                assert out[0] == -777.0
            continue
        for op, want in (("min", v.min()), ("max", v.max()), ("peak", np.abs(v).max())):
            assert getattr(sk, f"sk_{op}_strided_{t}")(pv, sv, out, n) == SK_OK
            assert out[0] == want, (op, n)
        assert getattr(sk, f"sk_rms_strided_{t}")(pv, sv, out, n) == SK_OK
        want = math.sqrt(math.fsum(v64 * v64) / n)
        assert abs(out[0] - want) <= 4 * eps * want


@DT
def test_reductions_nan_inf_and_extremes(sk, ffi, dtype):
    t = SFX[np.dtype(dtype)]
    out = ffi.new(("float" if t == "f32" else "double") + " *")
    x = np.arange(2000, dtype=dtype)
    x[1999] = np.nan  # odd position: not in x[::2], first of x[::-1]
    pv, sv = vptr(ffi, x[::2])
    assert getattr(sk, f"sk_max_strided_{t}")(pv, sv, out, 1000) == SK_OK and out[0] == 1998
    pr, sr = vptr(ffi, x[::-1])
    for op in ("min", "max", "peak", "sum", "rms"):
        assert getattr(sk, f"sk_{op}_strided_{t}")(pr, sr, out, 2000) == SK_OK
        assert math.isnan(out[0]), op
    big = np.full(3001, np.finfo(dtype).max, dtype)
    pb, sb = vptr(ffi, big[::-3])
    assert getattr(sk, f"sk_rms_strided_{t}")(pb, sb, out, 1001) == SK_OK
    assert out[0] == pytest.approx(float(np.finfo(dtype).max), rel=4 * float(np.finfo(dtype).eps))
    # lanes overflow, exact sum is representable: recomputed on scaled data
    alt = np.tile(np.array([1, 1, -1, -1], dtype) * np.finfo(dtype).max, 250)
    alt = np.append(alt, dtype.type(np.finfo(dtype).max / 2))
    pa, sa = vptr(ffi, np.repeat(alt, 2)[::2])
    rep = np.repeat(alt, 2)
    pa, sa = vptr(ffi, rep[::2])
    assert getattr(sk, f"sk_sum_strided_{t}")(pa, sa, out, alt.size) == SK_OK
    got = out[0]
    # the exact MAX/2 for float and within one ulp of it for double (recomputed on scaled data)
    if t == "f32":
        assert got == np.finfo(dtype).max / 2
    else:
        assert abs(got - np.finfo(dtype).max / 2) <= np.spacing(np.finfo(dtype).max / 2)
    tiny = np.full(999, np.finfo(dtype).smallest_subnormal, dtype)
    pt, st = vptr(ffi, tiny[::-2])
    assert getattr(sk, f"sk_rms_strided_{t}")(pt, st, out, 500) == SK_OK
    assert out[0] == np.finfo(dtype).smallest_subnormal


def test_bad_input_writes_nothing(sk, ffi, last_error):
    x = np.arange(64, dtype=np.float32)
    y = np.full(64, 7.0, np.float32)
    px, py = ptr(ffi, x), ptr(ffi, y)
    out = ffi.new("float *", -1.0)
    # destination stride 0
    assert sk.sk_scale_strided_f32(px, 1, 2.0, py, 0, 4) == SK_ERR_BAD_ARGUMENT
    assert "argument y has stride 0" in last_error()
    assert sk.sk_fill_strided_f32(1.0, py, 0, 1) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_fill_strided_f32(1.0, py, 0, 0) == SK_ERR_BAD_ARGUMENT
    # NULL with n > 0 (also with a zero source stride)
    assert sk.sk_copy_strided_f32(ffi.NULL, 0, py, 1, 3) == SK_ERR_NULL_POINTER
    assert sk.sk_sum_strided_f32(ffi.NULL, 3, out, 3) == SK_ERR_NULL_POINTER
    assert sk.sk_sum_strided_f32(px, 3, ffi.NULL, 3) == SK_ERR_NULL_POINTER
    assert sk.sk_copy_strided_f32(ffi.NULL, 5, ffi.NULL, 7, 0) == SK_OK
    # misaligned
    assert sk.sk_add_strided_f32(px, 1, ffi.cast("float *", x.ctypes.data + 1), 2, py, 1, 4) == SK_ERR_MISALIGNED
    # strided extent overflows
    assert sk.sk_copy_strided_f32(px, PTRDIFF_MAX, py, 1, 2) == SK_ERR_LENGTH
    assert sk.sk_copy_strided_f32(px, 1, py, -PTRDIFF_MAX - 1, 2) == SK_ERR_LENGTH
    assert sk.sk_dot_strided_f32(px, 2**40, px, 1, out, 2**30) == SK_ERR_LENGTH
    assert "stride" in last_error()
    # negative stride running below address 0
    low = ffi.cast("float *", 64)
    assert sk.sk_sum_strided_f32(low, -1000, out, 2) == SK_ERR_LENGTH
    # overlapping address spans, elements interleaved but distinct: refused (spans overlap)
    yy = np.full(64, 7.0, np.float32)
    pyy = ptr(ffi, yy)
    assert sk.sk_scale_strided_f32(pyy, 2, 2.0, ptr(ffi, yy, 1), 2, 10) == SK_ERR_OVERLAP
    assert "overlaps input x" in last_error()
    # same elements, opposite directions: not the same view
    assert sk.sk_copy_strided_f32(pyy, 1, ptr(ffi, yy, 9), -1, 10) == SK_ERR_OVERLAP
    # exact alias is fine where documented, and a no-op for copy
    assert sk.sk_copy_strided_f32(pyy, 3, pyy, 3, 10) == SK_OK
    assert np.all(yy == 7.0) and np.all(y == 7.0) and out[0] == -1.0
    # clip bounds
    assert sk.sk_clip_strided_f32(px, 1, 1.0, -1.0, py, 1, 4) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_clip_strided_f64(ffi.NULL, 1, math.nan, 1.0, ffi.NULL, 1, 0) == SK_ERR_BAD_ARGUMENT
    assert np.all(y == 7.0)
