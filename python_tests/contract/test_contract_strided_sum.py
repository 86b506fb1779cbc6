"""The strided sums keep the header's promise: `sk_sum_strided_*` at any stride has `sk_sum_*`'s
error bound against the exact sum (math.fsum): at most 14·ε·Σ|x| plus the final rounding. The
elements are read in address order: a negative stride gives the bits of the same elements read
forwards, and strides ±1 are `sk_sum_*` of the elements in address order, bit for bit. Strides
±1, ±2, ±3, ±4, 5, −7, 0 and large ones; every length 0…100 plus block edges; data that makes
float lanes round (mixed magnitudes, cancellation, denormals, signed zeros, partial sums beyond
FLT_MAX). Includes stride −2 with n = 17, a case an earlier version summed beyond its bound."""

import math

import numpy as np
import pytest

from sk_header import SK_OK
STRIDES = [1, -1, 2, -2, 3, -3, 4, -4, 5, -7, 0, 1000, -1001]
LENGTHS = list(range(0, 101)) + [511, 512, 513, 2049, 4 * 512 + 17]


def adversarial(rng, n, dtype):
    kind = rng.integers(0, 4)
    if kind == 0:  # magnitudes 2^-20 … 2^20: float lanes round
        x = rng.standard_normal(n) * np.exp2(rng.integers(-20, 21, n))
    elif kind == 1:  # cancellation: big pairs of opposite sign around small values
        x = rng.standard_normal(n)
        x[::3] *= 1e7
        x[1::3] = -x[::3][: x[1::3].size]
    elif kind == 2:  # denormals, signed zeros, ordinary values
        x = rng.standard_normal(n)
        x[::4] = np.finfo(dtype).smallest_subnormal * rng.integers(1, 100, x[::4].size)
        x[1::4] = -0.0
    else:  # finite values whose partial sums overflow in the element type
        top = np.finfo(dtype).max
        x = np.where(rng.integers(0, 2, n) == 0, top, -top) * rng.uniform(0.5, 1.0, n)
    return x.astype(dtype)


def exact_sum(x):
    """math.fsum in double; for doubles near DBL_MAX (whose exact sum fsum cannot hold) the sum
    of the values scaled by 2^-64, an exact power-of-two scaling, scaled back (may be inf)."""
    x = x.astype(np.float64)
    try:
        return math.fsum(x)
    except OverflowError:
        return math.fsum(x * 2.0**-64) * 2.0**64


def view(rng, n, stride, dtype):
    """A strided numpy view of n elements inside a larger canary-free base array."""
    if n == 0:
        return np.zeros(0, dtype)
    span = (n - 1) * abs(stride) + 1 if stride else 1
    base = adversarial(rng, span + 4, dtype)
    if stride == 0:
        return np.lib.stride_tricks.as_strided(base[2:], (n,), (0,))
    start = 2 if stride > 0 else 2 + span - 1
    return base[start::stride][:n] if stride > 0 else base[start::stride][:n]


def within_bound(got, x, dtype):
    """`sk_sum_*`'s documented bound: |got − exact| ≤ 14·ε·Σ|x| plus the final rounding (ε·|exact|
    and the smallest denormal), compared in `dtype` by rounding the interval's ends (rounding is
    monotonic; an exact sum beyond the type's range rounds to ±inf). For doubles whose sums fsum
    cannot hold, everything is compared scaled by 2^-64 (exact)."""
    eps, tiny = float(np.finfo(dtype).eps), float(np.finfo(dtype).smallest_subnormal)
    x = x.astype(np.float64)
    try:
        exact, mag = math.fsum(x), math.fsum(np.abs(x))
        k = 1.0
    except OverflowError:
        k = 2.0**-64
        exact, mag = math.fsum(x * k), math.fsum(np.abs(x) * k)
    b = (14 * eps * mag + abs(exact) * eps) * (1 + 1e-9) + tiny
    with np.errstate(over="ignore"):
        lo, hi = dtype(np.float64(exact - b) / k), dtype(np.float64(exact + b) / k)
    return lo <= got <= hi


@pytest.mark.parametrize("sfx,dtype", [("f32", np.float32), ("f64", np.float64)])
def test_strided_sum_is_within_the_bound_of_the_exact_sum(sk, ffi, sfx, dtype):
    ctype = "float" if sfx == "f32" else "double"
    strided = getattr(sk, f"sk_sum_strided_{sfx}")
    contiguous = getattr(sk, f"sk_sum_{sfx}")
    out_s, out_c, out_r = ffi.new(f"{ctype} *"), ffi.new(f"{ctype} *"), ffi.new(f"{ctype} *")
    rng = np.random.default_rng(54)
    checked = 0
    for n in LENGTHS:
        for stride in STRIDES:
            v = view(rng, n, stride, dtype)
            assert v.size == n
            copy = np.ascontiguousarray(v)
            if n:
                p0 = ffi.cast(f"{ctype} *", v.__array_interface__["data"][0])
            else:
                p0 = ffi.NULL
            assert strided(p0, stride, out_s, n) == SK_OK
            got = out_s[0]
            assert within_bound(got, copy, dtype), (n, stride, got, exact_sum(copy))
            if stride in (1, -1) or n <= 1:  # sk_sum_* of the elements in address order
                forward = np.ascontiguousarray(copy[::-1] if stride < 0 else copy)
                assert contiguous(ffi.from_buffer(f"{ctype}[]", forward), out_c, n) == SK_OK
                assert np.array([got], dtype).tobytes() == np.array([out_c[0]], dtype).tobytes()
            if stride < 0 and n > 1:  # the same elements read forwards: the same bits
                last = ffi.cast(f"{ctype} *", v[n - 1:].__array_interface__["data"][0])
                assert strided(last, -stride, out_r, n) == SK_OK
                assert np.array([got], dtype).tobytes() == np.array([out_r[0]], dtype).tobytes()
            checked += 1
    assert checked == len(LENGTHS) * len(STRIDES)


def test_the_reported_case_stride_minus_two_n_17(sk, ffi):
    """Issue 54: at stride −2, n = 17 the strided sum was 2 ulp of float from `sk_sum_f32` on a
    contiguous copy, beyond the header's promise then. The header now promises `sk_sum_f32`'s
    bound against the exact sum, and the bits of the same elements read forwards."""
    rng = np.random.default_rng(17)
    out_s = ffi.new("float *")
    for _ in range(300):
        base = (rng.standard_normal(33) * np.exp2(rng.integers(-12, 13, 33))).astype(np.float32)
        v = base[::-2]
        assert v.size == 17
        copy = np.ascontiguousarray(v)
        p0 = ffi.cast("float *", v.__array_interface__["data"][0])
        assert sk.sk_sum_strided_f32(p0, -2, out_s, 17) == SK_OK
        assert within_bound(out_s[0], copy, np.float32), (out_s[0], math.fsum(copy.astype(float)))
        got = out_s[0]
        assert sk.sk_sum_strided_f32(ffi.cast("float *", base.ctypes.data), 2, out_s, 17) == SK_OK
        assert np.float32(got).tobytes() == np.float32(out_s[0]).tobytes()
