"""sigkern.audio against numpy arithmetic (float64 references), numpy and torch, error paths."""

import numpy as np
import pytest

import sigkern

torch = pytest.importorskip("torch")

RNG = np.random.default_rng(99)
FLOATS = [np.float32, np.float64]

# ---------------------------------------------------------------------------------------------
# References
# ---------------------------------------------------------------------------------------------

BITS = {"int16": 16, "int32": 32, "int24": 24, "uint8": 8}


def ref_from(codes, fmt, dtype):
    """codes → float by numpy arithmetic in float64, rounded once to dtype."""
    if fmt == "int24":
        b = np.asarray(codes, np.uint8).reshape(codes.shape[:-1] + (-1, 3)).astype(np.int64)
        v = b[..., 0] | (b[..., 1] << 8) | (b[..., 2] << 16)
        v = np.where(v >= 1 << 23, v - (1 << 24), v)
        return (v / 2.0**23).astype(dtype)
    if fmt == "uint8":
        return ((codes.astype(np.float64) - 128) / 128).astype(dtype)
    return (codes.astype(np.float64) / 2.0 ** (BITS[fmt] - 1)).astype(dtype)


def ref_to(x, fmt):
    """float → codes: scale, round half to even, saturate (numpy in float64)."""
    bits = BITS[fmt]
    s = 2.0 ** (bits - 1)
    c = np.clip(np.rint(np.asarray(x, np.float64) * s), -s, s - 1).astype(np.int64)
    if fmt == "uint8":
        return (c + 128).astype(np.uint8)
    if fmt == "int24":
        c = c & 0xFFFFFF
        b = np.stack([c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF], axis=-1).astype(np.uint8)
        return b.reshape(x.shape[:-1] + (-1,)) if x.ndim else b.reshape(3)
    return c.astype(np.int16 if fmt == "int16" else np.int32)


def adversarial_floats(dtype, n=2000):
    x = RNG.uniform(-1.2, 1.2, n)
    special = [0.0, -0.0, 1.0, -1.0, 0.999999, -0.999999, 2.0, -2.0, 1e-30, 0.5 / 32768, 1.5 / 32768,
               -0.5 / 32768, 2.5 / 128, -1.5 / 128, 0.5 / 2**23, 0.5 / 2**31 * 3]
    x[: len(special)] = special
    return x.astype(dtype)


# ---------------------------------------------------------------------------------------------
# pcm_to_float
# ---------------------------------------------------------------------------------------------

CODES = {
    "int16": lambda shape: RNG.integers(-32768, 32768, shape).astype(np.int16),
    "int32": lambda shape: RNG.integers(-(2**31), 2**31, shape).astype(np.int32),
    "uint8": lambda shape: RNG.integers(0, 256, shape).astype(np.uint8),
}


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fmt", ["int16", "int32", "uint8"])
@pytest.mark.parametrize("shape", [(0,), (1,), (1001,), (480, 2), (2, 3, 5)])
def test_pcm_to_float_arrays_keep_shape(fmt, dtype, shape):
    codes = CODES[fmt](shape)
    if codes.size:
        extremes = np.array([np.iinfo(codes.dtype).min, np.iinfo(codes.dtype).max, 0], codes.dtype)
        codes.reshape(-1)[: min(3, codes.size)] = extremes[: min(3, codes.size)]
    y = sigkern.pcm_to_float(codes, dtype)
    assert type(y) is np.ndarray and y.shape == shape and y.dtype == dtype
    np.testing.assert_array_equal(y, ref_from(codes, fmt, dtype))  # exact (one rounding)


def test_pcm_to_float_extremes():
    assert sigkern.pcm_to_float(np.array([-32768, 32767], np.int16), np.float64).tolist() == [-1.0, 32767 / 32768]
    assert sigkern.pcm_to_float(np.array([0, 128, 255], np.uint8)).tolist() == [-1.0, 0.0, 127 / 128]
    y = sigkern.pcm_to_float(np.array([2**31 - 1, -(2**31)], np.int32))
    assert y.tolist() == [1.0, -1.0]  # INT32_MAX rounds to 1.0f


@pytest.mark.parametrize("dtype", FLOATS)
def test_pcm_to_float_int24_arrays_and_bytes(dtype):
    codes = RNG.integers(0, 256, (100, 6)).astype(np.uint8)  # 100 frames, 2 channels
    codes[0, :3] = [0x00, 0x00, 0x80]  # -2^23
    codes[0, 3:] = [0xFF, 0xFF, 0x7F]  # 2^23 - 1
    y = sigkern.pcm_to_float(codes, dtype, format="int24")
    assert y.shape == (100, 2) and y.dtype == dtype
    np.testing.assert_array_equal(y, ref_from(codes, "int24", dtype))
    assert y[0, 0] == -1.0
    raw = codes.tobytes()
    for data in (raw, bytearray(raw), memoryview(raw)):
        yb = sigkern.pcm_to_float(data, dtype, format="int24", channels=2)
        np.testing.assert_array_equal(yb, y)
    flat = sigkern.pcm_to_float(raw, dtype, format="i24")
    assert flat.shape == (200,)
    np.testing.assert_array_equal(flat, y.reshape(-1))


@pytest.mark.parametrize("fmt", ["int16", "int32", "uint8"])
def test_pcm_to_float_raw_bytes(fmt):
    codes = CODES[fmt]((333, 3))
    raw = codes.tobytes()
    y = sigkern.pcm_to_float(raw, format=fmt, channels=3)
    assert y.shape == (333, 3) and y.dtype == np.float32
    np.testing.assert_array_equal(y, ref_from(codes, fmt, np.float32))
    flat = sigkern.pcm_to_float(bytearray(raw), np.float64, format=fmt)
    assert flat.shape == (999,)
    np.testing.assert_array_equal(flat, ref_from(codes.reshape(-1), fmt, np.float64))
    # a memoryview at an odd byte offset (misaligned for int16/int32) still decodes
    odd = memoryview(b"\x00" + raw)[1:]
    np.testing.assert_array_equal(sigkern.pcm_to_float(odd, format=fmt, channels=3), y)
    # channels= on a 1-D array
    np.testing.assert_array_equal(sigkern.pcm_to_float(codes.reshape(-1), channels=3), y)


@pytest.mark.parametrize("dtype", FLOATS)
def test_pcm_to_float_strided_views_and_out(dtype):
    frames = RNG.integers(-32768, 32768, (500, 2)).astype(np.int16)
    left = frames[:, 0]  # a column: stride 2 samples
    assert not left.flags.c_contiguous
    np.testing.assert_array_equal(sigkern.pcm_to_float(left, dtype), ref_from(left, "int16", dtype))
    rev = frames.reshape(-1)[::-1]
    np.testing.assert_array_equal(sigkern.pcm_to_float(rev, dtype), ref_from(rev, "int16", dtype))
    out = np.empty((500, 2), dtype)
    assert sigkern.pcm_to_float(frames, dtype, out=out) is out
    np.testing.assert_array_equal(out, ref_from(frames, "int16", dtype))
    planar = np.zeros((2, 500), dtype)
    r = sigkern.pcm_to_float(left, dtype, out=planar.T[:, 0])  # strided float output
    assert r.base is planar or r.base is planar.T or np.shares_memory(r, planar)
    np.testing.assert_array_equal(planar[0], ref_from(left, "int16", dtype))
    # int24 into a strided output
    b24 = RNG.integers(0, 256, 30).astype(np.uint8)
    o = np.zeros(20, dtype)
    sigkern.pcm_to_float(b24, dtype, format="int24", out=o[::2])
    np.testing.assert_array_equal(o[::2], ref_from(b24, "int24", dtype))
    assert not o[1::2].any()


def test_pcm_to_float_torch():
    codes = CODES["int16"]((256, 2))
    t = torch.from_numpy(codes)
    y = sigkern.pcm_to_float(t)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float32 and tuple(y.shape) == (256, 2)
    np.testing.assert_array_equal(y.numpy(), ref_from(codes, "int16", np.float32))
    y64 = sigkern.pcm_to_float(torch.from_numpy(CODES["int32"]((9,))), torch.float64)
    assert y64.dtype == torch.float64
    u = torch.empty((256, 2), dtype=torch.float32)
    assert sigkern.pcm_to_float(t, out=u) is u
    np.testing.assert_array_equal(u.numpy(), y.numpy())
    col = t[:, 1]  # strided tensor view
    np.testing.assert_array_equal(sigkern.pcm_to_float(col).numpy(), ref_from(codes[:, 1], "int16", np.float32))


def test_pcm_to_float_errors():
    with pytest.raises(TypeError, match="int16, int32 or uint8"):
        sigkern.pcm_to_float(np.zeros(4, np.float32))
    with pytest.raises(TypeError, match="int16, int32 or uint8"):
        sigkern.pcm_to_float(np.zeros(4, np.int64))
    with pytest.raises(ValueError, match="format="):
        sigkern.pcm_to_float(b"\x00\x00")
    with pytest.raises(ValueError, match="not a whole number"):
        sigkern.pcm_to_float(b"\x00\x00\x00", format="int16")
    with pytest.raises(ValueError, match="not a whole number"):
        sigkern.pcm_to_float(b"\x00" * 8, format="int16", channels=3)
    with pytest.raises(ValueError, match="unknown format"):
        sigkern.pcm_to_float(b"\x00\x00", format="float32")
    with pytest.raises(TypeError, match="needs int32"):
        sigkern.pcm_to_float(np.zeros(4, np.int16), format="int32")
    with pytest.raises(ValueError, match="3 bytes"):
        sigkern.pcm_to_float(np.zeros(4, np.uint8), format="int24")
    with pytest.raises(TypeError, match="dtype"):
        sigkern.pcm_to_float(np.zeros(4, np.int16), np.int32)
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.pcm_to_float(np.zeros((4, 6), np.int16)[:, ::2])
    with pytest.raises(ValueError, match="shape"):
        sigkern.pcm_to_float(np.zeros(4, np.int16), out=np.empty(5, np.float32))
    with pytest.raises(TypeError, match="float64"):
        sigkern.pcm_to_float(np.zeros(4, np.int16), np.float64, out=np.empty(4, np.float32))
    ro = np.empty(4, np.float32)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sigkern.pcm_to_float(np.zeros(4, np.int16), out=ro)
    buf = np.zeros(8, np.float32)
    with pytest.raises(sigkern.OverlapError, match="sk_pcm_from_i16_f32"):
        sigkern.pcm_to_float(buf.view(np.int16)[:8], out=buf[:8])  # codes inside the output


# ---------------------------------------------------------------------------------------------
# float_to_pcm
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("fmt", ["int16", "int32", "int24", "uint8"])
def test_float_to_pcm_rounding_saturation(fmt, dtype):
    x = adversarial_floats(dtype)
    y = sigkern.float_to_pcm(x, fmt)
    ref = ref_to(x, fmt)
    assert y.dtype == ref.dtype and y.shape == ref.shape
    np.testing.assert_array_equal(y, ref)


@pytest.mark.parametrize("fmt", ["int16", "int32", "int24", "uint8"])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (100, 2), (2, 3, 5)])
def test_float_to_pcm_shapes(fmt, shape):
    x = RNG.uniform(-1, 1, shape).astype(np.float32)
    y = sigkern.float_to_pcm(x, fmt)
    want = shape[:-1] + (shape[-1] * 3,) if fmt == "int24" else shape
    assert y.shape == want
    np.testing.assert_array_equal(y, ref_to(x, fmt))
    back = sigkern.pcm_to_float(y, np.float64, format=fmt)
    assert back.shape == shape
    full = 2.0 ** (BITS[fmt] - 1)
    top = np.clip(x, -1.0, (full - 1) / full)  # the largest positive code is (full - 1) / full
    assert np.all(np.abs(back - top) <= 0.5 / full + 1e-12)  # half an LSB


def test_float_to_pcm_strided_torch_out():
    x = RNG.uniform(-1, 1, (300, 2))
    col = x[:, 1]
    np.testing.assert_array_equal(sigkern.float_to_pcm(col), ref_to(col, "int16"))
    np.testing.assert_array_equal(sigkern.float_to_pcm(col, "int24"), ref_to(col, "int24"))
    frames = np.zeros((300, 2), np.int16)
    r = sigkern.float_to_pcm(col, out=frames[:, 0])  # strided integer output
    assert np.shares_memory(r, frames)
    np.testing.assert_array_equal(frames[:, 0], ref_to(col, "int16"))
    assert not frames[:, 1].any()
    out = np.empty((300, 2), np.int32)
    assert sigkern.float_to_pcm(x, "int32", out=out) is out
    np.testing.assert_array_equal(out, ref_to(x, "int32"))
    t = torch.from_numpy(x.astype(np.float32))
    yt = sigkern.float_to_pcm(t, "uint8")
    assert isinstance(yt, torch.Tensor) and yt.dtype == torch.uint8 and tuple(yt.shape) == (300, 2)
    np.testing.assert_array_equal(yt.numpy(), ref_to(x.astype(np.float32), "uint8"))
    y24 = sigkern.float_to_pcm(t, "i24")
    assert tuple(y24.shape) == (300, 6) and y24.dtype == torch.uint8
    assert sigkern.float_to_pcm(np.float64(0.5), "int24").shape == (3,)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_float_to_pcm_non_finite_refused_nothing_written(bad):
    x = np.linspace(-1, 1, 64, dtype=np.float32)
    x[37] = bad
    out = np.full(64, 1234, np.int16)
    with pytest.raises(sigkern.NonFiniteError) as e:
        sigkern.float_to_pcm(x, out=out)
    assert "sk_pcm_to_i16_f32" in str(e.value) and "37" in e.value.message
    assert (out == 1234).all()
    with pytest.raises(sigkern.NonFiniteError, match="sk_pcm_to_i24_strided_f64"):
        sigkern.float_to_pcm(x.astype(np.float64)[::-1], "int24")


def test_float_to_pcm_errors():
    with pytest.raises(ValueError, match="unknown format"):
        sigkern.float_to_pcm(np.zeros(4), "int8")
    with pytest.raises(TypeError, match="float32 or float64"):
        sigkern.float_to_pcm(np.zeros(4, np.int16))
    with pytest.raises(TypeError, match="int16"):
        sigkern.float_to_pcm(np.zeros(4), out=np.empty(4, np.int32))
    with pytest.raises(ValueError, match="shape"):
        sigkern.float_to_pcm(np.zeros(4), "int24", out=np.empty(4, np.uint8))
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.float_to_pcm(np.zeros((4, 4))[:, ::2])
    ro = np.empty(4, np.int16)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sigkern.float_to_pcm(np.zeros(4), out=ro)
    with pytest.raises(ValueError, match="cpu"):
        sigkern.float_to_pcm(torch.zeros(4, device="meta"))


# ---------------------------------------------------------------------------------------------
# convert
# ---------------------------------------------------------------------------------------------


def test_convert_equals_astype():
    x64 = np.concatenate([RNG.standard_normal(1001) * 1e3, [1e40, -1e40, np.nan, np.inf, 1e-46, 0.1]])
    y = sigkern.convert(x64, np.float32)
    np.testing.assert_array_equal(y, x64.astype(np.float32))  # also inf/NaN/denormal flush
    x32 = RNG.standard_normal((3, 77)).astype(np.float32)
    y = sigkern.convert(x32, np.float64)
    assert y.shape == (3, 77) and y.dtype == np.float64
    np.testing.assert_array_equal(y, x32.astype(np.float64))
    np.testing.assert_array_equal(sigkern.convert(x64[::3], "float32"), x64[::3].astype(np.float32))
    out = np.zeros(200, np.float64)
    sigkern.convert(x32[1], np.float64, out=out[::2][:77])
    np.testing.assert_array_equal(out[::2][:77], x32[1].astype(np.float64))
    out2 = np.empty((3, 77))
    assert sigkern.convert(x32, np.float64, out=out2) is out2
    same = sigkern.convert(x32, np.float32)  # same dtype: a copy
    assert same is not x32 and not np.shares_memory(same, x32)
    np.testing.assert_array_equal(same, x32)
    assert sigkern.convert(np.zeros(0, np.float32), np.float64).shape == (0,)


def test_convert_torch_and_errors():
    t = torch.randn(5, 7)
    y = sigkern.convert(t, torch.float64)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float64 and tuple(y.shape) == (5, 7)
    assert torch.equal(y, t.double())
    with pytest.raises(TypeError, match="float32 or float64"):
        sigkern.convert(np.zeros(3, np.int16), np.float32)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.convert(np.zeros(3), np.int32)
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.convert(np.zeros((4, 4))[:, ::2], np.float32)
    with pytest.raises(ValueError, match="shape"):
        sigkern.convert(np.zeros(3), np.float32, out=np.empty(4, np.float32))


# ---------------------------------------------------------------------------------------------
# interleave / deinterleave
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("channels", [1, 2, 3, 6, 8])
@pytest.mark.parametrize("frames", [0, 1, 67, 1000])
def test_layout_equals_numpy(dtype, channels, frames):
    planar = RNG.standard_normal((channels, frames)).astype(dtype)
    inter = sigkern.interleave(planar)
    assert inter.shape == (frames, channels)
    np.testing.assert_array_equal(inter, planar.T)
    np.testing.assert_array_equal(sigkern.interleave(list(planar)), planar.T)
    back = sigkern.deinterleave(inter)
    assert back.shape == (channels, frames)
    np.testing.assert_array_equal(back, planar)
    outs = [np.empty(frames, dtype) for _ in range(channels)]
    assert sigkern.deinterleave(inter, out=outs) is outs
    for o, p in zip(outs, planar):
        np.testing.assert_array_equal(o, p)


def test_layout_views_out_torch():
    big = RNG.standard_normal((2, 500))
    sl = big[:, 100:300]  # rows contiguous, block not: channel pointers, zero-copy
    np.testing.assert_array_equal(sigkern.interleave(sl), sl.T)
    inter = np.ascontiguousarray(sl.T)
    dst = np.zeros((2, 500))
    r = sigkern.deinterleave(inter, out=dst[:, 100:300])
    np.testing.assert_array_equal(dst[:, 100:300], sl)
    assert not dst[:, :100].any() and np.shares_memory(r, dst)
    out = np.empty((200, 2))
    assert sigkern.interleave(sl, out=out) is out
    blk = np.empty((2, 200))
    assert sigkern.deinterleave(inter, out=blk) is blk
    t = torch.from_numpy(np.ascontiguousarray(sl)).float()
    ti = sigkern.interleave(t)
    assert isinstance(ti, torch.Tensor) and tuple(ti.shape) == (200, 2)
    assert torch.equal(ti, t.T)
    td = sigkern.deinterleave(ti)
    assert isinstance(td, torch.Tensor) and torch.equal(td, t)
    tl = sigkern.interleave([t[0], t[1]])
    assert isinstance(tl, torch.Tensor) and torch.equal(tl, t.T)


def test_layout_errors():
    with pytest.raises(ValueError, match=r"\(channels, frames\)"):
        sigkern.interleave(np.zeros(8))
    with pytest.raises(ValueError, match=r"\(frames, channels\)"):
        sigkern.deinterleave(np.zeros(8))
    with pytest.raises(ValueError, match="frames"):
        sigkern.interleave([np.zeros(4), np.zeros(5)])
    with pytest.raises(TypeError, match="float64"):
        sigkern.interleave([np.zeros(4), np.zeros(4, np.float32)])
    with pytest.raises(ValueError, match="at least one"):
        sigkern.interleave([])
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.interleave([np.zeros(8)[::2], np.zeros(4)])
    with pytest.raises(ValueError, match="shape"):
        sigkern.interleave(np.zeros((2, 4)), out=np.empty((2, 4)))
    with pytest.raises(ValueError, match="channels"):
        sigkern.deinterleave(np.zeros((4, 2)), out=[np.empty(4)])
    with pytest.raises(ValueError, match=r"\(4,\)"):
        sigkern.deinterleave(np.zeros((4, 2)), out=[np.empty(4), np.empty(5)])
    shared = np.empty(4)
    with pytest.raises(sigkern.OverlapError) as e:
        sigkern.deinterleave(np.zeros((4, 2)), out=[shared, shared])
    assert e.value.function == "sk_deinterleave_f64" and "sk_deinterleave_f64" in str(e.value)
    x = np.zeros(16)
    with pytest.raises(sigkern.OverlapError, match="sk_interleave_block_f64"):
        sigkern.interleave(x[:8].reshape(2, 4), out=x[4:12].reshape(4, 2))
    with pytest.raises(sigkern.BadArgumentError, match="sk_deinterleave_block_f32"):
        sigkern.deinterleave(np.zeros((4, 0), np.float32))


# ---------------------------------------------------------------------------------------------
# gain_ramp, crossfade, mix, dB
# ---------------------------------------------------------------------------------------------


def ref_ramp(x, g0, g1, offset, total):
    dt = x.dtype.type
    g0, g1 = float(dt(g0)), float(dt(g1))  # the C arguments have the element type
    k = offset + np.arange(x.shape[-1], dtype=np.float64)
    g = g0 + k * ((g1 - g0) / total)
    return (x.astype(np.float64) * g).astype(dt)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(0,), (1,), (1001,), (2, 333), (2, 2, 50)])
def test_gain_ramp(dtype, shape):
    x = RNG.standard_normal(shape).astype(dtype)
    y = sigkern.gain_ramp(x, 0.1, 1.7)
    assert y.shape == shape and y.dtype == dtype
    n = shape[-1]
    if n:
        np.testing.assert_allclose(y, ref_ramp(x, 0.1, 1.7, 0, n), rtol=np.finfo(dtype).eps, atol=0)
    total = 3 * n + 5
    whole = sigkern.gain_ramp(x, -0.5, 2.0, offset=5, total=total)
    parts = [sigkern.gain_ramp(x[..., a:b], -0.5, 2.0, offset=5 + a, total=total)
             for a, b in ((0, n // 3), (n // 3, n // 2), (n // 2, n))]
    np.testing.assert_array_equal(np.concatenate(parts, axis=-1), whole)  # chunks join exactly
    if len(shape) > 1:  # every channel gets the same gain per frame
        ones = np.ones(shape, dtype)
        g = sigkern.gain_ramp(ones, 0.0, 1.0)
        np.testing.assert_array_equal(g, np.broadcast_to(g.reshape(-1, n)[0], shape))


def test_gain_ramp_inplace_torch_errors():
    x = RNG.standard_normal((2, 100)).astype(np.float32)
    ref = sigkern.gain_ramp(x, 1.0, 0.0)
    xi = x.copy()
    assert sigkern.gain_ramp(xi, 1.0, 0.0, out=xi) is xi
    np.testing.assert_array_equal(xi, ref)
    t = torch.from_numpy(x)
    yt = sigkern.gain_ramp(t, 1.0, 0.0)
    assert isinstance(yt, torch.Tensor) and tuple(yt.shape) == (2, 100)
    np.testing.assert_array_equal(yt.numpy(), ref)
    with pytest.raises(sigkern.BadArgumentError, match="sk_gain_ramp_f32"):
        sigkern.gain_ramp(x[0], 0.0, 1.0, offset=50, total=100)  # 50 + 100 > 100
    with pytest.raises(sigkern.BadArgumentError, match="sk_gain_ramp_f64"):
        sigkern.gain_ramp(np.ones(4), np.nan, 1.0)
    with pytest.raises(ValueError, match=">= 0"):
        sigkern.gain_ramp(x, 0.0, 1.0, offset=-1)
    with pytest.raises(TypeError, match="float32 or float64"):
        sigkern.gain_ramp(np.ones(4, np.int16), 0.0, 1.0)
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.gain_ramp(np.ones((4, 4))[:, ::2], 0.0, 1.0)
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.gain_ramp(np.ones(8)[::2], 0.0, 1.0)
    canary = np.full((2, 8), 7.0)
    with pytest.raises(ValueError, match="contiguous"):  # refused before any row is written
        sigkern.gain_ramp(np.ones((2, 4)), 0.0, 1.0, out=canary[:, ::2])
    assert (canary == 7.0).all()
    ro = np.ones((2, 4))
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sigkern.gain_ramp(np.ones((2, 4)), 0.0, 1.0, out=ro)
    with pytest.raises(ValueError, match="shape"):
        sigkern.gain_ramp(np.ones((2, 4)), 0.0, 1.0, out=np.ones((2, 5)))
    buf = np.ones((3, 4))
    with pytest.raises(sigkern.OverlapError, match="sk_gain_ramp_f64"):  # rows shifted by one
        sigkern.gain_ramp(buf[:2], 0.0, 1.0, out=buf[1:])
    assert (buf == 1.0).all()
    tb = torch.ones((3, 4))
    with pytest.raises(sigkern.OverlapError, match="sk_gain_ramp_f32"):
        sigkern.gain_ramp(tb[:2], 0.0, 1.0, out=tb[1:])
    assert bool((tb == 1.0).all())
    with pytest.raises(ValueError, match="cpu"):
        sigkern.gain_ramp(torch.ones((2, 4), device="meta"), 0.0, 1.0)
    with pytest.raises(ValueError, match="to_dense"):
        sigkern.gain_ramp(torch.ones((2, 4)).to_sparse(), 0.0, 1.0)
    # a block of channels sliced in time: rows contiguous, the block not (the checked path)
    big = RNG.standard_normal((2, 50))
    np.testing.assert_array_equal(sigkern.gain_ramp(big[:, 10:30], 0.5, 1.5),
                                  sigkern.gain_ramp(np.ascontiguousarray(big[:, 10:30]), 0.5, 1.5))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(0,), (1,), (999,), (3, 128)])
def test_crossfade(dtype, shape):
    a = RNG.standard_normal(shape).astype(dtype)
    b = RNG.standard_normal(shape).astype(dtype)
    n = shape[-1]
    y = sigkern.crossfade(a, b)
    t = np.arange(n) / max(n, 1)
    ref = a.astype(np.float64) * np.cos(np.pi * t / 2) + b.astype(np.float64) * np.sin(np.pi * t / 2)
    assert y.shape == shape and y.dtype == dtype
    scale = np.abs(a).astype(np.float64) + np.abs(b)
    assert np.all(np.abs(y - ref) <= 4 * np.finfo(dtype).eps * scale + 1e-300)
    if n:
        np.testing.assert_array_equal(y[..., 0], a[..., 0])  # sample 0 is pure a
    total = 2 * n + 1
    whole = sigkern.crossfade(a, b, offset=1, total=total)
    parts = [sigkern.crossfade(a[..., s:e], b[..., s:e], offset=1 + s, total=total)
             for s, e in ((0, n // 2), (n // 2, n))]
    np.testing.assert_array_equal(np.concatenate(parts, axis=-1), whole)


def test_crossfade_inplace_torch_errors():
    a = RNG.standard_normal(64)
    b = RNG.standard_normal(64)
    ref = sigkern.crossfade(a, b)
    ai = a.copy()
    assert sigkern.crossfade(ai, b, out=ai) is ai
    np.testing.assert_array_equal(ai, ref)
    yt = sigkern.crossfade(torch.from_numpy(a), torch.from_numpy(b))
    assert isinstance(yt, torch.Tensor)
    np.testing.assert_array_equal(yt.numpy(), ref)
    with pytest.raises(ValueError, match="shape"):
        sigkern.crossfade(a, b[:10])
    with pytest.raises(TypeError, match="dtype"):
        sigkern.crossfade(a, b.astype(np.float32))
    with pytest.raises(sigkern.BadArgumentError, match="sk_crossfade_f64"):
        sigkern.crossfade(a, b, offset=10, total=20)


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(0,), (1,), (1001,), (2, 3, 7)])
def test_mix_equals_numpy_bitwise(dtype, shape):
    a = RNG.standard_normal(shape).astype(dtype)
    b = RNG.standard_normal(shape).astype(dtype)
    y = sigkern.mix(a, 0.3, b, -1.7)
    assert y.shape == shape and y.dtype == dtype
    np.testing.assert_array_equal(y, dtype(0.3) * a + dtype(-1.7) * b)
    out = np.empty(shape, dtype)
    assert sigkern.mix(a, 0.3, b, -1.7, out=out) is out
    assert sigkern.mix(a, 0.3, b, -1.7, out=b) is b  # in place
    np.testing.assert_array_equal(b, y)


def test_mix_torch_errors():
    a, b = torch.randn(3, 50), torch.randn(3, 50)
    y = sigkern.mix(a, 0.5, b, 0.5)
    assert isinstance(y, torch.Tensor) and torch.equal(y, 0.5 * a + 0.5 * b)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.mix(np.ones(3), 1.0, np.ones(3, np.float32), 1.0)
    with pytest.raises(ValueError, match="broadcast"):
        sigkern.mix(np.ones(3), 1.0, np.ones(4), 1.0)
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.mix(np.ones(6)[::2], 1.0, np.ones(3), 1.0)
    with pytest.raises(sigkern.BadArgumentError, match="sk_mix_f64"):
        sigkern.mix(np.ones(3), np.inf, np.ones(3), 1.0)
    x = np.ones(8)
    with pytest.raises(sigkern.OverlapError, match="sk_mix_f64"):
        sigkern.mix(x[:4], 1.0, x[:4], 1.0, out=x[2:6])


@pytest.mark.parametrize("dtype", FLOATS)
def test_amp_to_db_and_back(dtype):
    x = np.concatenate([RNG.standard_normal(997) * 10.0 ** RNG.uniform(-6, 3, 997),
                        [0.0, -0.0, 1.0, 10.0, 1e-30, np.inf, -np.inf, np.nan]]).astype(dtype)
    with np.errstate(divide="ignore"):
        ref = 20 * np.log10(np.abs(x.astype(np.float64)))
    y = sigkern.amp_to_db(x)
    assert y.shape == x.shape and y.dtype == dtype
    np.testing.assert_array_equal(np.isnan(y), np.isnan(ref))
    fin = np.isfinite(ref)
    np.testing.assert_array_equal(y[~fin & ~np.isnan(ref)], ref[~fin & ~np.isnan(ref)])  # ±inf
    assert np.all(np.abs(y[fin] - ref[fin]) <= 8 * np.finfo(dtype).eps * np.maximum(np.abs(ref[fin]), 1.0))
    floored = sigkern.amp_to_db(x, floor_db=-90.0)
    assert floored[997] == -90.0 and np.nanmin(floored) == -90.0
    a = RNG.uniform(-120, 20, (3, 41)).astype(dtype)
    g = sigkern.db_to_amp(a)
    np.testing.assert_allclose(g, 10.0 ** (a.astype(np.float64) / 20), rtol=2 * np.finfo(dtype).eps)
    assert sigkern.db_to_amp(np.array([-np.inf, np.nan], dtype))[0] == 0.0
    ai = a.copy()
    assert sigkern.db_to_amp(ai, out=ai) is ai
    assert sigkern.amp_to_db(ai, out=ai) is ai
    np.testing.assert_allclose(ai, a, atol=1e-3 if dtype == np.float32 else 1e-9)


def test_db_torch_errors():
    t = torch.rand(2, 16) + 0.1
    y = sigkern.amp_to_db(t)
    assert isinstance(y, torch.Tensor)
    np.testing.assert_allclose(y.numpy(), 20 * np.log10(t.numpy().astype(np.float64)), atol=1e-4)
    with pytest.raises(sigkern.BadArgumentError, match="sk_amp_to_db_f64"):
        sigkern.amp_to_db(np.ones(3), floor_db=np.nan)
    with pytest.raises(TypeError, match="float32 or float64"):
        sigkern.db_to_amp(np.ones(3, np.int32))
    with pytest.raises(ValueError, match="contiguous"):
        sigkern.db_to_amp(np.ones(6)[::2])
