"""Helpers shared by the Python test suites: the kernel table, a generic raw-CFFI caller,
adversarial data, independent float64 references and the accuracy bounds.

The kernel table is written out here on purpose (not derived from the header or from the
binding), so the tests are an independent statement of every kernel's parameters;
test_kernels.py checks it against include/sigkern_cdef.h.
"""

from __future__ import annotations

import math

import numpy as np

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
DTYPES = (F32, F64)
SUFFIX = {F32: "f32", F64: "f64"}
CTYPE = {F32: "float", F64: "double"}
EPS = {F32: float(np.finfo(np.float32).eps), F64: float(np.finfo(np.float64).eps)}
FLT_MAX = float(np.finfo(np.float32).max)
DBL_MAX = float(np.finfo(np.float64).max)
SIZE_MAX = 2**64 - 1
ISIZE_MAX = 2**63 - 1

# Parameter roles: "in" (const T *), "out" (T *, n elements written), "inout" (T *, read and
# written), "sout" (T *out, one scalar written), "s" (T scalar), "n" (size_t length).
ELEMENTWISE = {
    "add": [("a", "in"), ("b", "in"), ("y", "out"), ("n", "n")],
    "sub": [("a", "in"), ("b", "in"), ("y", "out"), ("n", "n")],
    "mul": [("a", "in"), ("b", "in"), ("y", "out"), ("n", "n")],
    "div": [("a", "in"), ("b", "in"), ("y", "out"), ("n", "n")],
    "scale": [("x", "in"), ("a", "s"), ("y", "out"), ("n", "n")],
    "axpy": [("x", "in"), ("a", "s"), ("y", "inout"), ("n", "n")],
    "clip": [("x", "in"), ("lo", "s"), ("hi", "s"), ("y", "out"), ("n", "n")],
    "abs": [("x", "in"), ("y", "out"), ("n", "n")],
    "copy": [("x", "in"), ("y", "out"), ("n", "n")],
    "fill": [("value", "s"), ("y", "out"), ("n", "n")],
}
REDUCTIONS = {
    "sum": [("x", "in"), ("out", "sout"), ("n", "n")],
    "mean": [("x", "in"), ("out", "sout"), ("n", "n")],
    "min": [("x", "in"), ("out", "sout"), ("n", "n")],
    "max": [("x", "in"), ("out", "sout"), ("n", "n")],
    "peak": [("x", "in"), ("out", "sout"), ("n", "n")],
    "rms": [("x", "in"), ("out", "sout"), ("n", "n")],
    "dot": [("a", "in"), ("b", "in"), ("out", "sout"), ("n", "n")],
}
KERNELS = {**ELEMENTWISE, **REDUCTIONS}
#: Reductions whose value for n = 0 is undefined (SK_ERR_LENGTH); sum and dot give 0.
EMPTY_IS_ERROR = {"mean", "min", "max", "peak", "rms"}
#: Default scalar arguments.
SCALARS = {"scale": {"a": -2.5}, "axpy": {"a": 0.75}, "clip": {"lo": -0.5, "hi": 0.625}, "fill": {"value": 3.25}}

#: n = 0, 1, every tail up to 70, block edges, and a few large odd sizes.
LENGTHS = list(range(0, 71)) + [127, 128, 129, 511, 512, 513, 1023, 1025, 4097, 100003]


def cname(op: str, dtype) -> str:
    return f"sk_{op}_{SUFFIX[np.dtype(dtype)]}"


def buf(ffi, arr: np.ndarray):
    """The typed zero-copy pointer of an array: ffi.from_buffer("float[]"/"double[]", arr)."""
    return ffi.from_buffer(CTYPE[arr.dtype] + "[]", arr)


def last_error(ffi, lib) -> str:
    n = lib.sk_last_error_message(ffi.NULL, 0)
    b = ffi.new("char[]", n + 1)
    lib.sk_last_error_message(b, n + 1)
    return ffi.string(b).decode()


def call(ffi, lib, op: str, dtype, arrays: dict, scalars: dict | None = None, n: int | None = None):
    """Calls sk_<op>_<dtype> with `arrays` (name → ndarray, or a ready cdata pointer such as
    ffi.NULL) and `scalars` (name → float; SCALARS by default). A scalar out-parameter is
    created (holding `arrays.get("out")` if that is a float canary) and returned.
    Returns (status, scalar out value or None, scalar out cdata or None)."""
    dtype = np.dtype(dtype)
    scalars = {**SCALARS.get(op, {}), **(scalars or {})}
    args = []
    sout = None
    for name, role in KERNELS[op]:
        if role == "n":
            if n is None:
                n = next(a.size for k, a in arrays.items() if isinstance(a, np.ndarray))
            args.append(n)
        elif role == "s":
            args.append(scalars[name])
        elif role == "sout":
            v = arrays.get(name, -777.0)
            if isinstance(v, (int, float)):
                sout = ffi.new(CTYPE[dtype] + " *", v)
                args.append(sout)
            else:
                args.append(v if not isinstance(v, np.ndarray) else buf(ffi, v))
        else:
            a = arrays[name]
            args.append(buf(ffi, a) if isinstance(a, np.ndarray) else a)
    status = getattr(lib, cname(op, dtype))(*args)
    return status, (float(sout[0]) if sout is not None else None), sout


# ----------------------------------------------------------------------------------- data ----


def specials(dtype) -> np.ndarray:
    """Adversarial values: signed zeros, NaN, infinities, the extremes, denormals."""
    fi = np.finfo(dtype)
    tiny_den = float(fi.smallest_subnormal)
    return np.array(
        [0.0, -0.0, np.nan, np.inf, -np.inf, fi.max, -fi.max, fi.tiny, -fi.tiny, tiny_den,
         -tiny_den, tiny_den * 77, 1.0, -1.0, fi.eps, 0.5],
        dtype=dtype,
    )


def random_data(rng: np.random.Generator, n: int, dtype, adversarial: bool = False) -> np.ndarray:
    x = (rng.standard_normal(n) * 10.0).astype(dtype)
    if adversarial and n:
        sp = specials(dtype)
        k = max(1, n // 5)
        idx = rng.choice(n, size=k, replace=False)
        x[idx] = sp[rng.integers(0, sp.size, size=k)]
    return x


def bits_equal(got: np.ndarray, want: np.ndarray) -> bool:
    """Bitwise equality, except that any NaN equals any NaN."""
    got, want = np.asarray(got), np.asarray(want)
    if got.shape != want.shape or got.dtype != want.dtype:
        return False
    u = np.uint32 if got.dtype == F32 else np.uint64
    same = got.view(u) == want.view(u)
    both_nan = np.isnan(got) & np.isnan(want)
    return bool(np.all(same | both_nan))


def mismatch(got: np.ndarray, want: np.ndarray) -> str:
    u = np.uint32 if got.dtype == F32 else np.uint64
    bad = np.nonzero(~((got.view(u) == want.view(u)) | (np.isnan(got) & np.isnan(want))))[0]
    i = int(bad[0])
    return f"{bad.size} elements differ, first at [{i}]: got {got[i]!r}, want {want[i]!r}"


# ----------------------------------------------------------------------------- references ----


def elementwise_reference(op: str, dtype, ins: dict, scalars: dict | None = None) -> np.ndarray:
    """Independent numpy references. Single IEEE operations are computed in float64 and rounded
    once to the dtype (for + - * / of floats that equals the correctly rounded float result);
    axpy (a multiply then an add, both rounded) is computed in the dtype as numpy's y + a*x."""
    dtype = np.dtype(dtype)
    s = {**SCALARS.get(op, {}), **(scalars or {})}
    with np.errstate(all="ignore"):
        if op in ("add", "sub", "mul", "div"):
            a, b = ins["a"].astype(F64), ins["b"].astype(F64)
            r = {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b}[op]
            return r.astype(dtype)
        if op == "scale":
            return (np.float64(dtype.type(s["a"])) * ins["x"].astype(F64)).astype(dtype)
        if op == "axpy":
            return ins["y"] + dtype.type(s["a"]) * ins["x"]
        if op == "clip":
            return np.clip(ins["x"], dtype.type(s["lo"]), dtype.type(s["hi"]))
        if op == "abs":
            return np.abs(ins["x"])
        if op == "copy":
            return ins["x"].copy()
        if op == "fill":
            return np.full(ins["y"].shape, s["value"], dtype=dtype)
    raise KeyError(op)


def _nonfinite_class(v: float) -> str:
    return "nan" if math.isnan(v) else ("+inf" if v > 0 else "-inf")


def sum_bound(dtype, n: int, abs_sum: float) -> float:
    """Stated accuracy of sk_sum/sk_dot against the exact value (math.fsum):
    float32: 15·FLT_EPSILON·Σ|x| (the library documents about 14·ε·Σ|x| for its pairwise sum
    with f64 block accumulation, +1 ε for the final rounding; numpy's pairwise float32 sum is
    bounded by about (19 + log2(n/128))·ε·Σ|x|);
    float64: (16 + log2(max(n, 512)/512))·DBL_EPSILON·Σ|x| (documented (15 + log2(n/512))·ε,
    +1 for the rounding of the reference's products)."""
    dtype = np.dtype(dtype)
    # plus n smallest denormals: products (dot) that underflow lose up to that much in absolute
    # terms, which no relative bound covers
    slack = n * float(np.finfo(dtype).smallest_subnormal)
    if dtype == F32:
        return 15.0 * EPS[F32] * abs_sum + slack
    return (16.0 + math.log2(max(n, 512) / 512)) * EPS[F64] * abs_sum + slack


def fsum(terms: np.ndarray) -> float:
    """math.fsum; ±inf when the exact sum is beyond DBL_MAX (see fsum_scaled)."""
    v, k = fsum_scaled(terms)
    return ldexp_inf(v, k)


def fsum_scaled(terms: np.ndarray) -> tuple:
    """(v, k) with the exact sum ≈ v·2**k: math.fsum, scaled by 2**-k (2**k > 2n) when partial
    sums would overflow float64 (values near DBL_MAX); the scaling loses at most the denormal
    parts, covered by sum_bound's slack."""
    try:
        return math.fsum(terms), 0
    except OverflowError:
        k = len(terms).bit_length() + 1
        return math.fsum(np.asarray(terms) * 2.0**-k), k


def ldexp_inf(v: float, k: int) -> float:
    try:
        return math.ldexp(v, k)
    except OverflowError:
        return math.copysign(math.inf, v)


def sum_terms(op: str, ins: dict) -> tuple:
    """The exact-arithmetic view of a sum/mean/dot: (nan, pos_inf, neg_inf, finite terms, e),
    where the finite part of the exact result is Σ terms · 2**e. For dot, `nan` covers inf·0,
    the infinities are those of pairs with an infinite factor, and products of finite factors
    that overflow float64 are taken on factors scaled by powers of two (so they stay finite, as
    real numbers are)."""
    if op != "dot":
        x = ins["x"].astype(F64)
        return (bool(np.isnan(x).any()), bool(np.isposinf(x).any()), bool(np.isneginf(x).any()),
                x[np.isfinite(x)], 0)
    a, b = ins["a"].astype(F64), ins["b"].astype(F64)
    fa, fb = np.isfinite(a), np.isfinite(b)
    nan = np.isnan(a) | np.isnan(b) | (np.isinf(a) & (b == 0)) | (np.isinf(b) & (a == 0))
    inf_pair = ~(fa & fb) & ~nan
    sign = np.sign(a[inf_pair]) * np.sign(b[inf_pair])
    a2, b2 = a[fa & fb], b[fa & fb]
    with np.errstate(over="ignore"):
        terms = a2 * b2
    e = 0
    if not np.all(np.isfinite(terms)):
        ea = math.frexp(float(np.max(np.abs(a2))))[1]
        eb = math.frexp(float(np.max(np.abs(b2))))[1]
        terms = (a2 * 2.0**-ea) * (b2 * 2.0**-eb)
        e = ea + eb
    return bool(nan.any()), bool((sign > 0).any()), bool((sign < 0).any()), terms, e


def check_sum_like(got: float, op: str, ins: dict, dtype, what: str) -> None:
    """Asserts that `got` is the sum / mean / dot of `ins` within sum_bound (divided by n for the
    mean, plus one rounding of the quotient).

    Non-finite elements follow IEEE semantics: NaN (or inf·0, or both infinities) gives NaN, one
    kind of infinity gives that infinity; as in numpy, NaN instead of that infinity is accepted
    when the finite elements alone can overflow a partial sum (inf - inf). Finite elements give
    ±inf only when the exact result is beyond the type's maximum (the library detects an
    intermediate overflow and recomputes on scaled data); a mean of finite values is finite.
    """
    dtype = np.dtype(dtype)
    n = next(iter(ins.values())).size
    fmax = FLT_MAX if dtype == F32 else DBL_MAX
    nan, pos, neg, terms, e = sum_terms(op, ins)
    vs, ks = fsum_scaled(terms)
    va, ka = fsum_scaled(np.abs(terms))
    exact, abs_sum = ldexp_inf(vs, ks + e), ldexp_inf(va, ka + e)
    if nan or (pos and neg):
        assert math.isnan(got), f"{what}: got {got!r}, want NaN"
        return
    if pos or neg:
        want = math.inf if pos else -math.inf
        assert got == want or (math.isnan(got) and abs_sum >= fmax), f"{what}: got {got!r}, want {want!r}"
        return
    tiny = float(np.finfo(dtype).smallest_subnormal)
    if op == "mean":
        mean = ldexp_inf(vs / n, ks + e)
        bound = sum_bound(dtype, n, abs_sum) / n + EPS[dtype] * abs(mean) + tiny
        assert math.isfinite(got), f"{what}: the mean of finite values is {got!r}"
        assert abs(got - mean) <= bound, f"{what}: got {got!r}, exact {mean!r}, bound {bound:.3g}"
        return
    bound = sum_bound(dtype, n, abs_sum)
    if abs(exact) - bound > fmax:
        assert got == math.copysign(math.inf, exact), f"{what}: got {got!r}, exact {exact!r} is out of range"
    elif abs(exact) + bound <= fmax:
        assert math.isfinite(got) and abs(got - exact) <= bound, (
            f"{what}: got {got!r}, exact {exact!r}, bound {bound:.3g}")
    else:  # at the edge of the range: either rounding is right
        assert got == math.copysign(math.inf, exact) or abs(got - exact) <= bound, (
            f"{what}: got {got!r}, exact {exact!r}")


def rms_reference(x: np.ndarray) -> float:
    """sqrt(Σx²/n) in float64, scaled by max|x| so that it neither overflows nor underflows."""
    x64 = x.astype(F64)
    if np.isnan(x64).any():
        return math.nan
    p = float(np.max(np.abs(x64)))
    if math.isinf(p):
        return math.inf
    if p == 0.0:
        return 0.0
    y = x64 / p
    return p * math.sqrt(math.fsum(y * y) / x.size)


def check_rms(got: float, x: np.ndarray, what: str) -> None:
    want = rms_reference(x)
    if not math.isfinite(want):
        assert not math.isfinite(got) and _nonfinite_class(got) == _nonfinite_class(want), (
            f"{what}: got {got!r}, want {want!r}")
        return
    dtype = x.dtype
    # float32: squares and in-block sums in float32 (11 u on the sum of squares, half that on the
    # root, plus the roundings: within 4 ε), slack for a denormal result. float64: 32 ε relative
    # (pairwise float64 sum of rounded squares).
    if dtype == F32:
        tol = 4 * EPS[F32] * want + float(np.finfo(np.float32).smallest_subnormal)
    else:
        tol = 32 * EPS[F64] * want + float(np.finfo(np.float64).smallest_subnormal)
    assert abs(got - want) <= tol, f"{what}: got {got!r}, want {want!r}, tol {tol:.3g}"


def reduction_check(op: str, got: float, ins: dict, what: str) -> None:
    """Checks one reduction result against its independent reference."""
    if op in ("sum", "mean", "dot"):
        check_sum_like(got, op, ins, next(iter(ins.values())).dtype, what)
        return
    x = ins["x"]
    if op == "rms":
        check_rms(got, x, what)
        return
    ref = {"min": np.min, "max": np.max, "peak": lambda v: np.max(np.abs(v))}[op](x)
    ref = float(ref)
    assert (got == ref) or (math.isnan(got) and math.isnan(ref)), f"{what}: got {got!r}, want {ref!r}"
