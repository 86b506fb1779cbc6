"""Every kernel through raw CFFI (`ffi.cdef(open("include/sigkern_cdef.h").read())`, arrays passed
as `ffi.from_buffer("float[]", arr)` / `"double[]"`), against independent numpy float64 /
math.fsum references, on random and adversarial data, plus every documented error case with
canary values proving that nothing is written on error.

Tolerances: elementwise kernels are exact (bitwise, any NaN equal to any NaN); min/max/peak
exact; sum/mean/dot within sk_util.sum_bound of the exact value (math.fsum): float32
15·ε·Σ|x| (the library documents ~14·ε·Σ|x|; numpy's pairwise float32 sum ~(19 + log2(n/128))·ε),
float64 (16 + log2(n/512))·ε·Σ|x|; a mean within that bound / n plus one rounding; finite
input gives ±inf only when the exact result is out of range (sk_util.check_sum_like); rms
within one float32 rounding / 32·ε for float64.
"""

import math
import re
import zlib

import numpy as np
import pytest

from sk_util import (
    CTYPE, DBL_MAX, DTYPES, ELEMENTWISE, EMPTY_IS_ERROR, EPS, F32, F64, FLT_MAX, ISIZE_MAX, KERNELS,
    LENGTHS, REDUCTIONS, SIZE_MAX, bits_equal, buf, call, cname, check_rms, elementwise_reference,
    mismatch, random_data, reduction_check, specials,
)
from sk_header import (
    CDEF, SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_MISALIGNED, SK_ERR_NULL_POINTER,
    SK_ERR_OVERLAP,
)

DT = pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
POINTER_ROLES = ("in", "out", "inout", "sout")


def _seed(*parts) -> int:
    """A stable per-test seed (hash() is randomised per process)."""
    return zlib.crc32("/".join(map(str, parts)).encode())


def _arrays_for(op, dtype, n, rng, adversarial=False, canary=1234.5):
    """Inputs with random data, outputs filled with a canary value."""
    arrays = {}
    for name, role in KERNELS[op]:
        if role in ("in", "inout"):
            arrays[name] = random_data(rng, n, dtype, adversarial)
        elif role == "out":
            arrays[name] = np.full(n, canary, dtype=dtype)
    return arrays


def _snapshot(arrays):
    return {k: v.copy() for k, v in arrays.items() if isinstance(v, np.ndarray)}


def _assert_untouched(arrays, snap, what):
    for k, v in snap.items():
        assert bits_equal(arrays[k], v), f"{what}: {k} was modified on error"


# ------------------------------------------------------------------------ the table itself ----


def test_table_matches_the_generated_cdef():
    """The kernel table of these tests states every parameter; it must match the header."""
    text = CDEF.read_text()
    decls = dict(re.findall(r"int32_t (sk_\w+)\(([^)]*)\);", text))
    for op, params in KERNELS.items():
        for dtype in DTYPES:
            c = CTYPE[dtype]
            want = []
            for name, role in params:
                want.append({"in": f"const {c} *{name}", "out": f"{c} *{name}",
                             "inout": f"{c} *{name}", "sout": f"{c} *{name}",
                             "s": f"{c} {name}", "n": f"size_t {name}"}[role])
            assert cname(op, dtype) in decls, cname(op, dtype)
            got = [p.strip() for p in decls[cname(op, dtype)].split(",")]
            assert got == want, cname(op, dtype)


# --------------------------------------------------------------------- elementwise results ----


@pytest.mark.parametrize("op", ELEMENTWISE)
@DT
def test_elementwise_matches_reference(sk, ffi, op, dtype):
    rng = np.random.default_rng(_seed("ew", op, dtype))
    for n in LENGTHS:
        for adversarial in (False, True):
            arrays = _arrays_for(op, dtype, n, rng, adversarial)
            if op == "fill":
                arrays["y"] = random_data(rng, n, dtype, adversarial)
            before = _snapshot(arrays)
            want = elementwise_reference(op, dtype, before)
            status, _, _ = call(ffi, sk, op, dtype, arrays)
            assert status == SK_OK, f"{cname(op, dtype)} n={n}"
            y = arrays["y"]
            assert bits_equal(y, want), f"{cname(op, dtype)} n={n} adv={adversarial}: {mismatch(y, want)}"
            for name, role in KERNELS[op]:
                if role == "in":
                    assert bits_equal(arrays[name], before[name]), f"input {name} modified"


SCALAR_CASES = {
    "scale": [{"a": v} for v in (0.0, -0.0, 1.0, -1.0, np.nan, np.inf, -np.inf, 3e38, 1e-45)],
    "axpy": [{"a": v} for v in (0.0, -0.0, 1.0, np.nan, np.inf, -2.0, 1e-45)],
    "clip": [{"lo": lo, "hi": hi} for lo, hi in ((-np.inf, np.inf), (0.0, 0.0), (-0.0, 0.0),
                                                 (1.0, 1.0), (-np.inf, -1.0), (2.0, np.inf),
                                                 (-1e-45, 1e-45), (-3e38, 3e38))],
    "fill": [{"value": v} for v in (0.0, -0.0, np.nan, np.inf, -np.inf, 1e-45, -3.4e38, 1.0 / 3.0)],
}


@pytest.mark.parametrize("op", list(SCALAR_CASES))
@DT
def test_elementwise_scalar_parameters(sk, ffi, op, dtype):
    """Adversarial scalar parameters (NaN, ±inf, ±0, denormal, huge) follow IEEE / numpy."""
    rng = np.random.default_rng(_seed("scalars", op, dtype))
    for scalars in SCALAR_CASES[op]:
        for n in (1, 17, 130):
            arrays = _arrays_for(op, dtype, n, rng, adversarial=True)
            if op == "fill":
                arrays["y"] = np.zeros(n, dtype)
            want = elementwise_reference(op, dtype, _snapshot(arrays), scalars)
            status, _, _ = call(ffi, sk, op, dtype, arrays, scalars)
            assert status == SK_OK
            assert bits_equal(arrays["y"], want), f"{cname(op, dtype)} {scalars}: {mismatch(arrays['y'], want)}"


@pytest.mark.parametrize("op", [op for op in ELEMENTWISE if op != "fill"])
@DT
def test_elementwise_in_place(sk, ffi, op, dtype):
    """The output may be exactly an input (same pointer): y is a, y is b, y is a is b."""
    rng = np.random.default_rng(_seed("inplace", op, dtype))
    inputs = [name for name, role in KERNELS[op] if role == "in"]
    for n in (1, 7, 63, 64, 65, 1023, 4097):
        base = _arrays_for(op, dtype, n, rng, adversarial=True)
        aliases = [[name] for name in inputs] + ([inputs] if len(inputs) == 2 else [])
        for alias in aliases:
            shared = random_data(rng, n, dtype, adversarial=True)
            ins = {k: v.copy() for k, v in base.items()}
            for name in alias:
                ins[name] = shared.copy()
            ins["y"] = shared.copy()  # what y holds before the call
            want = elementwise_reference(op, dtype, ins)
            arrays = dict(ins)
            buffer = shared.copy()
            for name in alias:
                arrays[name] = buffer
            arrays["y"] = buffer
            status, _, _ = call(ffi, sk, op, dtype, arrays)
            assert status == SK_OK, f"{cname(op, dtype)} alias {alias}"
            assert bits_equal(buffer, want), f"{cname(op, dtype)} {alias} = y, n={n}: {mismatch(buffer, want)}"


@DT
def test_copy_has_memmove_semantics(sk, ffi, dtype):
    """sk_copy_*: any overlap is allowed and behaves as a copy through a temporary."""
    f = getattr(sk, cname("copy", dtype))
    for n in (1, 5, 64, 100):
        for shift in sorted({-n, -n + 1, -3, -1, 0, 1, 2, n - 1, n}):
            base = np.arange(3 * n + 8, dtype=dtype) + 0.5
            s0 = n + 4
            want = base.copy()
            want[s0 + shift:s0 + shift + n] = base[s0:s0 + n].copy()
            src, dst = base[s0:s0 + n], base[s0 + shift:s0 + shift + n]
            assert f(buf(ffi, src), buf(ffi, dst), n) == SK_OK
            assert bits_equal(base, want), f"n={n} shift={shift}"


@pytest.mark.parametrize("op", [op for op in ELEMENTWISE if op not in ("copy", "fill")])
@DT
def test_partial_overlap_is_an_error(sk, ffi, op, dtype, last_error):
    """An output that overlaps an input without being exactly it: SK_ERR_OVERLAP, nothing written."""
    rng = np.random.default_rng(_seed("overlap", op, dtype))
    n = 33
    inputs = [name for name, role in KERNELS[op] if role == "in"]
    out_name = next(name for name, role in KERNELS[op] if role in ("out", "inout"))
    for victim in inputs:
        for shift in (1, -1, n - 1, -(n - 1)):
            whole = random_data(rng, 2 * n + 2, dtype)
            canary = whole.copy()
            arrays = _arrays_for(op, dtype, n, rng)
            start = n if shift < 0 else 1
            arrays[victim] = whole[start:start + n]
            arrays[out_name] = whole[start + shift:start + shift + n]
            others = _snapshot({k: v for k, v in arrays.items() if k not in (victim, out_name)})
            status, _, _ = call(ffi, sk, op, dtype, arrays)
            assert status == SK_ERR_OVERLAP, f"{cname(op, dtype)} {victim} shift {shift}"
            assert bits_equal(whole, canary), "buffer modified on SK_ERR_OVERLAP"
            _assert_untouched(arrays, others, cname(op, dtype))
            msg = last_error()
            assert msg.startswith(cname(op, dtype) + ": "), msg
            assert f"output {out_name}" in msg and f"input {victim}" in msg, msg


@pytest.mark.parametrize("op", ["add", "sub", "mul", "div", "dot"])
@DT
def test_inputs_may_overlap_each_other(sk, ffi, op, dtype):
    """Two inputs may share memory in any way (only the output is restricted)."""
    rng = np.random.default_rng(_seed("inputs-overlap", op, dtype))
    for n in (1, 17, 64, 1000):
        for shift in (0, 1, 5, n - 1):
            whole = random_data(rng, n + shift, dtype)
            a, b = whole[:n], whole[shift:shift + n]
            arrays = {"a": a, "b": b}
            if op != "dot":
                arrays["y"] = np.full(n, 3.0, dtype)
            before = {"a": a.copy(), "b": b.copy()}
            status, got, _ = call(ffi, sk, op, dtype, arrays)
            assert status == SK_OK
            if op == "dot":
                reduction_check(op, got, before, f"{cname(op, dtype)} shift {shift}")
            else:
                want = elementwise_reference(op, dtype, before)
                assert bits_equal(arrays["y"], want), f"shift {shift}: {mismatch(arrays['y'], want)}"


# ---------------------------------------------------------------------- reduction results ----


@pytest.mark.parametrize("op", REDUCTIONS)
@DT
def test_reduction_matches_reference(sk, ffi, op, dtype):
    rng = np.random.default_rng(_seed("red", op, dtype))
    for n in LENGTHS:
        if n == 0 and op in EMPTY_IS_ERROR:
            continue
        for kind in ("random", "adversarial", "extreme-finite", "denormal", "one-nan-last"):
            arrays = _arrays_for(op, dtype, n, rng, adversarial=kind == "adversarial")
            if kind == "extreme-finite" and n:
                sp = specials(dtype)
                sp = sp[np.isfinite(sp)]
                for k in arrays:
                    arrays[k][::3] = sp[rng.integers(0, sp.size, size=arrays[k][::3].size)]
            if kind == "denormal":
                tiny = float(np.finfo(dtype).smallest_subnormal)
                for k in arrays:
                    arrays[k] = (rng.integers(-1000, 1000, size=n) * tiny).astype(dtype)
            if kind == "one-nan-last" and n:
                arrays[next(iter(arrays))][-1] = np.nan
            before = _snapshot(arrays)
            status, got, _ = call(ffi, sk, op, dtype, arrays)
            assert status == SK_OK, f"{cname(op, dtype)} n={n}"
            _assert_untouched(arrays, before, "reduction input")
            what = f"{cname(op, dtype)} n={n} {kind}"
            reduction_check(op, got, before, what)


@DT
def test_reduction_out_may_point_into_the_input(sk, ffi, dtype):
    x = np.arange(1, 101, dtype=dtype)
    p = buf(ffi, x)
    assert getattr(sk, cname("sum", dtype))(p, p + 50, 100) == SK_OK
    assert x[50] == 5050.0 and x[49] == 50.0 and x[51] == 52.0


@DT
def test_sum_and_mean_known_values(sk, ffi, dtype):
    """Closed forms: Σ 1..n, cancellation, alternating signs."""
    for n in (1, 2, 3, 64, 65, 1000, 100003):
        x = np.arange(1, n + 1, dtype=dtype)
        _, s, _ = call(ffi, sk, "sum", dtype, {"x": x})
        exact = n * (n + 1) / 2
        assert abs(s - exact) <= 15 * EPS[dtype] * exact, (n, s)
        _, m, _ = call(ffi, sk, "mean", dtype, {"x": x})
        assert abs(m - (n + 1) / 2) <= 16 * EPS[dtype] * (n + 1) / 2, (n, m)
    x = np.array([1e8, 1.0, -1e8] * 21 + [0.5], dtype=dtype)
    _, s, _ = call(ffi, sk, "sum", dtype, {"x": x})
    assert abs(s - math.fsum(x.astype(F64))) <= 15 * EPS[dtype] * math.fsum(np.abs(x.astype(F64)))


def test_rms_does_not_overflow_or_underflow(sk, ffi):
    big = np.full(1000, FLT_MAX, dtype=np.float32)
    st, r, _ = call(ffi, sk, "rms", F32, {"x": big})
    assert st == SK_OK and r == FLT_MAX
    with np.errstate(over="ignore"):
        assert not np.isfinite(np.sqrt(np.mean(big * big)))  # what the naive numpy form gives
    st, r, _ = call(ffi, sk, "rms", F32, {"x": -big[:999]})
    assert st == SK_OK and r == FLT_MAX
    st, r, _ = call(ffi, sk, "rms", F32, {"x": np.full(33, 1e-45, np.float32)})
    assert st == SK_OK and r == float(np.float32(1e-45))
    st, r, _ = call(ffi, sk, "rms", F64, {"x": np.full(1000, -DBL_MAX)})
    assert st == SK_OK and abs(r - DBL_MAX) <= 4 * EPS[F64] * DBL_MAX
    st, r, _ = call(ffi, sk, "rms", F64, {"x": np.full(777, 5e-324)})
    assert st == SK_OK and r == 5e-324
    st, r, _ = call(ffi, sk, "rms", F64, {"x": np.array([3.0, 4.0])})
    assert r == math.sqrt(12.5)
    for dtype in DTYPES:
        st, r, _ = call(ffi, sk, "rms", dtype, {"x": np.array([1.0, np.inf, 2.0], dtype)})
        assert r == math.inf
        st, r, _ = call(ffi, sk, "rms", dtype, {"x": np.array([1.0, -np.inf, np.nan], dtype)})
        assert math.isnan(r)
        st, r, _ = call(ffi, sk, "rms", dtype, {"x": np.zeros(5, dtype)})
        assert r == 0.0
        x = np.array([FLT_MAX, FLT_MAX / 3, 1e-40], dtype)
        check_rms(call(ffi, sk, "rms", dtype, {"x": x})[1], x, "mixed magnitudes")


def test_mean_f64_near_dbl_max(sk, ffi):
    st, m, _ = call(ffi, sk, "mean", F64, {"x": np.full(10, DBL_MAX)})
    assert st == SK_OK and DBL_MAX - m <= 2 * EPS[F64] * DBL_MAX
    st, m, _ = call(ffi, sk, "mean", F32, {"x": np.full(2, FLT_MAX, np.float32)})
    assert st == SK_OK and m == FLT_MAX


def test_sum_mean_intermediate_overflow(sk, ffi):
    """Finite elements whose SIMD lanes overflow although the exact result is in range (found by
    this suite; the library now recomputes on scaled data): the exact answer, not NaN/inf."""
    for dtype, fmax, reps in ((F64, DBL_MAX, 2), (F32, FLT_MAX, 5)):
        x = np.array([fmax, -fmax] * reps, dtype=dtype)
        for op in ("mean", "sum"):
            st, v, _ = call(ffi, sk, op, dtype, {"x": x})
            assert st == SK_OK and v == 0.0, f"{cname(op, dtype)}([MAX, -MAX]*{reps}) = {v!r}"
    x = np.zeros(129, np.float32)
    x[0] = x[64] = FLT_MAX
    x[128] = -FLT_MAX
    st, s, _ = call(ffi, sk, "sum", F32, {"x": x})
    assert st == SK_OK and s == FLT_MAX, f"sk_sum_f32 = {s!r}"
    st, d, _ = call(ffi, sk, "dot", F32, {"a": x, "b": np.ones(129, np.float32)})
    assert st == SK_OK and d == FLT_MAX, f"sk_dot_f32 = {d!r}"


# ------------------------------------------------------------------------------ error cases ----


def _pointer_params(op):
    return [name for name, role in KERNELS[op] if role in POINTER_ROLES]


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_null_pointers(sk, ffi, op, dtype, last_error):
    rng = np.random.default_rng(_seed("null", op, dtype))
    c = cname(op, dtype)
    n = 16
    for victim in _pointer_params(op):
        arrays = _arrays_for(op, dtype, n, rng)
        snap = _snapshot(arrays)
        arrays[victim] = ffi.NULL
        status, outv, _ = call(ffi, sk, op, dtype, arrays, n=n)
        assert status == SK_ERR_NULL_POINTER, f"{c} {victim}"
        _assert_untouched(arrays, {k: v for k, v in snap.items() if k != victim}, c)
        if outv is not None:
            assert outv == -777.0, f"{c}: out-parameter written on error"
        msg = last_error()
        assert msg.startswith(c + ": ") and f"argument {victim} is NULL" in msg, msg
    # n = 0: every array may be NULL; the scalar out-parameter may not.
    arrays = {name: ffi.NULL for name, role in KERNELS[op] if role in ("in", "out", "inout")}
    status, outv, _ = call(ffi, sk, op, dtype, arrays, n=0)
    if op in EMPTY_IS_ERROR:
        assert status == SK_ERR_LENGTH and outv == -777.0, c
        msg = last_error()
        assert msg.startswith(c + ": ") and "n = 0" in msg, msg
    else:
        assert status == SK_OK, c
        if op in REDUCTIONS:
            assert outv == 0.0, f"{c} of nothing is 0"
    if op in REDUCTIONS:
        arrays["out"] = ffi.NULL
        status, _, _ = call(ffi, sk, op, dtype, arrays, n=0)
        assert status == SK_ERR_NULL_POINTER, c
        assert "argument out is NULL" in last_error()


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_length_overflow(sk, ffi, op, dtype, last_error):
    """n = SIZE_MAX (and the first n whose byte size exceeds PTRDIFF_MAX) is SK_ERR_LENGTH,
    checked before any element is touched."""
    rng = np.random.default_rng(_seed("len", op, dtype))
    c = cname(op, dtype)
    for n in (SIZE_MAX, ISIZE_MAX // dtype.itemsize + 1, SIZE_MAX // dtype.itemsize + 1):
        arrays = _arrays_for(op, dtype, 8, rng)
        snap = _snapshot(arrays)
        status, outv, _ = call(ffi, sk, op, dtype, arrays, n=n)
        assert status == SK_ERR_LENGTH, f"{c} n={n}"
        _assert_untouched(arrays, snap, c)
        if outv is not None:
            assert outv == -777.0
        msg = last_error()
        assert msg.startswith(c + ": ") and re.search(r"argument \w+", msg), msg


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_misaligned_pointers(sk, ffi, op, dtype, last_error):
    """A pointer one byte off its element alignment (a uint8 buffer viewed at byte offset 1)."""
    rng = np.random.default_rng(_seed("mis", op, dtype))
    c = cname(op, dtype)
    n = 16
    size = dtype.itemsize
    for victim in _pointer_params(op):
        arrays = _arrays_for(op, dtype, n, rng)
        raw = np.zeros(n * size + size, dtype=np.uint8)
        if victim == "out":  # the scalar out-parameter, one element, misaligned
            raw[:] = 0xA5
            arrays["out"] = ffi.cast(CTYPE[dtype] + " *", ffi.from_buffer("char[]", raw) + 1)
        else:
            view = raw[1:1 + n * size].view(dtype)
            view[:] = random_data(rng, n, dtype)
            assert view.ctypes.data % size == 1
            arrays[victim] = view
        raw_before = raw.copy()
        snap = _snapshot(arrays)
        status, outv, _ = call(ffi, sk, op, dtype, arrays)
        assert status == SK_ERR_MISALIGNED, f"{c} {victim}"
        assert np.array_equal(raw, raw_before), "misaligned buffer written"
        _assert_untouched(arrays, snap, c)
        if outv is not None:
            assert outv == -777.0
        msg = last_error()
        assert msg.startswith(c + ": ") and f"argument {victim} = 0x" in msg and "aligned" in msg, msg
        # with n = 0 the same pointers are never dereferenced, so they are accepted (a scalar
        # out-parameter is still written and must still be aligned)
        if victim != "out" and op not in EMPTY_IS_ERROR:
            assert call(ffi, sk, op, dtype, arrays, n=0)[0] == SK_OK, c


@DT
def test_clip_bad_bounds(sk, ffi, dtype, last_error):
    c = cname("clip", dtype)
    x = np.linspace(-2, 2, 37).astype(dtype)
    for lo, hi in ((np.nan, 1.0), (-1.0, np.nan), (np.nan, np.nan), (1.0, -1.0), (np.inf, -np.inf),
                   (1e-45, 0.0)):
        y = np.full(37, 99.0, dtype)
        status, _, _ = call(ffi, sk, "clip", dtype, {"x": x, "y": y}, {"lo": lo, "hi": hi})
        assert status == SK_ERR_BAD_ARGUMENT, (lo, hi)
        assert np.all(y == 99.0)
        msg = last_error()
        assert msg.startswith(c + ": ") and "lo" in msg and "hi" in msg, msg
        # checked even with n = 0 and NULL buffers
        assert call(ffi, sk, "clip", dtype, {"x": ffi.NULL, "y": ffi.NULL}, {"lo": lo, "hi": hi}, n=0)[0] == SK_ERR_BAD_ARGUMENT


@pytest.mark.parametrize("op", sorted(EMPTY_IS_ERROR))
@DT
def test_empty_reductions_are_length_errors(sk, ffi, op, dtype, last_error):
    c = cname(op, dtype)
    empty = np.zeros(0, dtype)
    status, outv, _ = call(ffi, sk, op, dtype, {"x": empty})
    assert status == SK_ERR_LENGTH and outv == -777.0
    msg = last_error()
    assert msg.startswith(c + ": ") and "n = 0" in msg, msg
