"""PCM conversion (sk_pcm_from_*, sk_pcm_to_*, sk_convert_*) and their strided variants, on raw
CFFI against float64 numpy references: every int16/uint8 code, random int32/int24 codes, exact
ties, saturation, the non-finite refusal with nothing written, pointer/overlap/stride errors,
and round trips through libsndfile (soundfile)."""

import io

import numpy as np
import pytest

from audio_util import (
    FLOATS, PCM, SFX, PTRDIFF_MAX, adversarial_floats, pcm_ref_decode, pcm_ref_encode, ptr,
    strided_view, vptr,
)
from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_MISALIGNED, SK_ERR_NON_FINITE,
    SK_ERR_NULL_POINTER, SK_ERR_OVERLAP,
)

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])
FMT = pytest.mark.parametrize("fmt", list(PCM))
NS = [0, 1, 2, 3, 7, 15, 16, 17, 63, 64, 65, 511, 513, 4097, 100_003]


def codes_for(rng, fmt, n):
    if fmt == "i16":
        return np.concatenate([np.arange(-32768, 32768), rng.integers(-32768, 32768, n)]).astype(np.int16)[: max(n, 0) or 65536]
    if fmt == "u8":
        return np.concatenate([np.arange(256), rng.integers(0, 256, n)]).astype(np.uint8)[: n or 256]
    if fmt == "i32":
        c = rng.integers(-2**31, 2**31, n, dtype=np.int64)
        c[: min(n, 6)] = [-2**31, 2**31 - 1, 0, -1, 16777217, -16777217][: min(n, 6)]
        return c.astype(np.int32)
    return rng.integers(0, 256, 3 * n, dtype=np.uint8)


def decode(ffi, sk, fmt, codes, y):
    n = y.size
    f = getattr(sk, f"sk_pcm_from_{fmt}_{SFX[y.dtype]}")
    return f(ptr(ffi, codes), ptr(ffi, y), n)


@FMT
@DT
def test_decode_matches_reference(sk, ffi, fmt, dtype):
    rng = np.random.default_rng(1)
    for n in (1, 5, 64, 1000, 70_001):
        codes = codes_for(rng, fmt, n)
        m = codes.size // 3 if fmt == "i24" else codes.size
        y = np.full(m, 7.0, dtype)
        assert decode(ffi, sk, fmt, codes, y) == SK_OK
        want = pcm_ref_decode(codes, fmt, dtype)
        assert np.array_equal(y, want), (fmt, n)
        # the most negative code is exactly -1.0
        assert y.min() >= -1.0 and y.max() < 1.0 or (fmt == "i32" and dtype == np.float32)


def test_every_int16_and_uint8_code(sk, ffi):
    c = np.arange(-32768, 32768).astype(np.int16)
    y = np.empty(c.size, np.float32)
    assert sk.sk_pcm_from_i16_f32(ptr(ffi, c), ptr(ffi, y), c.size) == SK_OK
    assert y[0] == -1.0 and y[-1] == 32767 / 32768
    assert np.array_equal(y, c.astype(np.float64) / 32768)
    back = np.empty(c.size, np.int16)
    assert sk.sk_pcm_to_i16_f32(ptr(ffi, y), ptr(ffi, back), c.size) == SK_OK
    assert np.array_equal(back, c)
    u = np.arange(256).astype(np.uint8)
    z = np.empty(256)
    assert sk.sk_pcm_from_u8_f64(ptr(ffi, u), ptr(ffi, z), 256) == SK_OK
    assert z[0] == -1.0 and z[128] == 0.0 and np.array_equal(z, (np.arange(256) - 128) / 128)


@FMT
@DT
def test_encode_matches_reference_on_adversarial_data(sk, ffi, fmt, dtype):
    rng = np.random.default_rng(2)
    for n in NS:
        x = adversarial_floats(rng, n, dtype)
        cdt, bits = PCM[fmt]
        m = 3 * n if fmt == "i24" else n
        y = np.full(m, 0x5A, cdt)
        f = getattr(sk, f"sk_pcm_to_{fmt}_{SFX[np.dtype(dtype)]}")
        assert f(ptr(ffi, x), ptr(ffi, y), n) == SK_OK
        want = pcm_ref_encode(x, fmt)
        assert np.array_equal(y, want), (fmt, n, np.flatnonzero(y != want)[:5])


def test_ties_round_to_even_and_saturate(sk, ffi):
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 32766.5, 40000, -40000, -32768.5]) / 32768
    y = np.empty(x.size, np.int16)
    assert sk.sk_pcm_to_i16_f64(ptr(ffi, x), ptr(ffi, y), x.size) == SK_OK
    assert y.tolist() == [0, 2, 2, 0, -2, -2, 32766, 32767, -32768, -32768]
    x32 = np.array([1.0, -1.0, 2.5 / 2**31, 0.9999999], np.float64)
    z = np.empty(4, np.int32)
    assert sk.sk_pcm_to_i32_f64(ptr(ffi, x32), ptr(ffi, z), 4) == SK_OK
    assert z.tolist() == [2**31 - 1, -2**31, 2, round(0.9999999 * 2**31)]


@FMT
@DT
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_non_finite_is_refused_and_nothing_written(sk, ffi, last_error, fmt, dtype, bad):
    rng = np.random.default_rng(3)
    cdt, _ = PCM[fmt]
    for n, pos in ((1, 0), (17, 16), (1000, 0), (1000, 999), (70_001, 12_345)):
        x = rng.uniform(-1, 1, n).astype(dtype)
        x[pos] = bad
        m = 3 * n if fmt == "i24" else n
        y = np.full(m, 0x5A, cdt)
        f = getattr(sk, f"sk_pcm_to_{fmt}_{SFX[np.dtype(dtype)]}")
        assert f(ptr(ffi, x), ptr(ffi, y), n) == SK_ERR_NON_FINITE
        assert np.all(y == 0x5A), "output touched"
        assert f"x[{pos}]" in last_error() and "not finite" in last_error()
        # strided: the logical index is reported
        if fmt != "i24" and n > 1:
            xs = np.repeat(x, 2)
            fs = getattr(sk, f"sk_pcm_to_{fmt}_strided_{SFX[np.dtype(dtype)]}")
            assert fs(ptr(ffi, xs), 2, ptr(ffi, y), 1, n) == SK_ERR_NON_FINITE
            assert np.all(y == 0x5A) and f"x[{pos}]" in last_error()


@DT
def test_float_conversion(sk, ffi, dtype):
    rng = np.random.default_rng(4)
    x = adversarial_floats(rng, 5000, np.float64)
    x[:6] = [np.nan, np.inf, -np.inf, 1e300, -1e300, 1e-320]
    y = np.empty(x.size, np.float32)
    assert sk.sk_convert_f64_to_f32(ptr(ffi, x), ptr(ffi, y), x.size) == SK_OK
    with np.errstate(over="ignore"):
        want = x.astype(np.float32)
    assert np.array_equal(y, want, equal_nan=True)
    z = np.empty(y.size)
    assert sk.sk_convert_f32_to_f64(ptr(ffi, y), ptr(ffi, z), y.size) == SK_OK
    assert np.array_equal(z, y.astype(np.float64), equal_nan=True)


@pytest.mark.parametrize("stride", [2, -1, -3, 5, 0])
@pytest.mark.parametrize("ystride", [1, -2, 3])
def test_strided_conversions(sk, ffi, stride, ystride):
    rng = np.random.default_rng(5)
    for n in (0, 1, 2, 511, 513, 3000):
        # float32 → int16 from a strided (or broadcast) source into a strided destination
        if stride == 0:
            base = adversarial_floats(rng, 4, np.float32)
            base[1] = 0.3
            px, sx, xv = ptr(ffi, base, 1), 0, np.full(n, base[1], np.float32)
        else:
            base = adversarial_floats(rng, (n - 1) * abs(stride) + 1 if n else 0, np.float32)
            xv = base[::stride] if stride > 0 else base[::-1][::abs(stride)]
            px, sx = (vptr(ffi, xv) if n else (ffi.NULL, stride))
        ybase, yv = strided_view(rng, n, ystride, np.int16, fill=1234)
        py, sy = vptr(ffi, yv) if n else (ffi.NULL, ystride)
        assert sk.sk_pcm_to_i16_strided_f32(px, sx, py, sy, n) == SK_OK
        assert np.array_equal(yv, pcm_ref_encode(xv, "i16"))
        assert np.count_nonzero(ybase != 1234) <= n  # nothing outside the view
        mask = np.ones(ybase.size, bool)
        if n:
            idx = np.arange(n) * ystride + (3 if ystride > 0 else 3 + (n - 1) * abs(ystride))
            mask[idx] = False
        assert np.all(ybase[mask] == 1234)
        # int16 (strided) → float64 (strided)
        cb, cv = strided_view(rng, n, stride if stride else 1, np.int16)
        cv[:] = rng.integers(-32768, 32768, n)
        fb, fv = strided_view(rng, n, ystride, np.float64, fill=9.0)
        pc, sc = vptr(ffi, cv) if n else (ffi.NULL, 1)
        pf, sf = vptr(ffi, fv) if n else (ffi.NULL, ystride)
        assert sk.sk_pcm_from_i16_strided_f64(pc, sc, pf, sf, n) == SK_OK
        assert np.array_equal(fv, cv / 32768.0)
        # f64 → f32 strided
        gb, gv = strided_view(rng, n, -ystride, np.float32, fill=5.0)
        pg, sg = vptr(ffi, gv) if n else (ffi.NULL, -ystride)
        assert sk.sk_convert_strided_f64_to_f32(pf, sf, pg, sg, n) == SK_OK
        assert np.array_equal(gv, fv.astype(np.float32))


def test_i24_strided_counts_samples(sk, ffi):
    x = np.array([0.5, -0.25, 1.0, -1.0], np.float32)
    b = np.full(12, 0xEE, np.uint8)
    # every other sample of x, written to samples 0 and 2 of b (stride 2 samples = 6 bytes)
    assert sk.sk_pcm_to_i24_strided_f32(ptr(ffi, x), 2, ptr(ffi, b), 2, 2) == SK_OK
    assert b.tolist() == [0, 0, 0x40, 0xEE, 0xEE, 0xEE, 0xFF, 0xFF, 0x7F, 0xEE, 0xEE, 0xEE]
    y = np.zeros(2, np.float64)
    assert sk.sk_pcm_from_i24_strided_f64(ptr(ffi, b, 6), -2, ptr(ffi, y), 1, 2) == SK_OK
    assert y.tolist() == [8388607 / 8388608, 0.5]


def test_bad_pointers_strides_and_overlap(sk, ffi, last_error):
    x = np.linspace(-1, 1, 64).astype(np.float32)
    y = np.full(64, 77, np.int16)
    py = ptr(ffi, y)
    assert sk.sk_pcm_to_i16_f32(ffi.NULL, py, 4) == SK_ERR_NULL_POINTER
    assert "argument x is NULL but n = 4" in last_error()
    assert sk.sk_pcm_to_i16_f32(ffi.NULL, ffi.NULL, 0) == SK_OK
    mis = ffi.cast("float *", x.ctypes.data + 2)
    assert sk.sk_pcm_to_i16_f32(mis, py, 4) == SK_ERR_MISALIGNED
    assert sk.sk_pcm_to_i16_strided_f32(ptr(ffi, x), 1, py, 0, 4) == SK_ERR_BAD_ARGUMENT
    assert "stride 0" in last_error()
    assert sk.sk_pcm_to_i16_strided_f32(ptr(ffi, x), PTRDIFF_MAX // 2, py, 1, 3) == SK_ERR_LENGTH
    assert sk.sk_pcm_from_i16_strided_f32(ptr(ffi, y), 1, ptr(ffi, x), -PTRDIFF_MAX, 2) == SK_ERR_LENGTH
    # output bytes overlapping the input's span
    xb = ffi.cast("int16_t *", x.ctypes.data)
    assert sk.sk_pcm_to_i16_f32(ptr(ffi, x), xb, 8) == SK_ERR_OVERLAP
    assert sk.sk_convert_f32_to_f64(ptr(ffi, x), ffi.cast("double *", x.ctypes.data + 8), 4) == SK_ERR_OVERLAP
    assert np.all(y == 77) and x[0] == -1.0
    c = np.zeros(3, np.uint8)
    assert sk.sk_pcm_from_i24_f32(ptr(ffi, c), ffi.NULL, 1) == SK_ERR_NULL_POINTER


@pytest.mark.parametrize("subtype,fmt", [("PCM_16", "i16"), ("PCM_24", "i24"), ("PCM_32", "i32"), ("PCM_U8", "u8")])
@DT
def test_soundfile_round_trip(sk, ffi, subtype, fmt, dtype):
    """libsndfile writes WAV from float data; its codes (the raw data chunk) decode with ours to
    exactly what soundfile reads back as float, and our encoder reproduces its codes except where
    libsndfile's float → int differs from round-half-even-and-saturate (documented)."""
    sf = pytest.importorskip("soundfile")
    rng = np.random.default_rng(6)
    n = 20_000
    x = np.concatenate([rng.uniform(-1, 1, n), [-1.0, 1.0, 0.0, 0.999, -0.999]]).astype(dtype)
    buf = io.BytesIO()
    sf.write(buf, x, 48000, subtype=subtype, format="WAV")
    raw = buf.getvalue()
    buf.seek(0)
    theirs, _ = sf.read(buf, dtype="float64" if dtype == np.float64 else "float32")
    # the data chunk: find "data" and take the following size bytes
    k = raw.index(b"data")
    size = int.from_bytes(raw[k + 4:k + 8], "little")
    data = np.frombuffer(raw[k + 8:k + 8 + size], np.uint8).copy()
    cdt, _ = PCM[fmt]
    codes = data if fmt in ("i24", "u8") else data.view(cdt).copy()
    ours = np.empty(x.size, dtype)
    assert getattr(sk, f"sk_pcm_from_{fmt}_{SFX[np.dtype(dtype)]}")(ptr(ffi, codes), ptr(ffi, ours), x.size) == SK_OK
    assert np.array_equal(ours, theirs.astype(dtype)), subtype
    # our encoder against libsndfile's codes. libsndfile (1.2.2) rounds to 32 bits and drops
    # the low bits with an arithmetic shift (floor), so for 8/16/24 bits about half of its codes
    # are one below round-half-even; 32-bit codes agree. Both models are checked exactly.
    mine = np.empty(codes.size, cdt)
    assert getattr(sk, f"sk_pcm_to_{fmt}_{SFX[np.dtype(dtype)]}")(ptr(ffi, x), ptr(ffi, mine), x.size) == SK_OK
    assert np.array_equal(mine, pcm_ref_encode(x, fmt))
    bits = PCM[fmt][1]
    v32 = np.clip(np.rint(x.astype(np.float64) * 2.0**31), -2.0**31, 2.0**31 - 1)
    lib_model = np.floor(v32 / 2.0 ** (32 - bits)) / 2.0 ** (bits - 1)
    assert np.array_equal(pcm_ref_decode(codes, fmt, np.float64), lib_model), subtype
    if fmt == "i32":
        assert np.array_equal(mine, codes)
