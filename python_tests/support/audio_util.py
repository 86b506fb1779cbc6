"""Helpers of the audio test suites (test_audio_*.py): raw pointers of numpy arrays and views of
any dtype, canaries, the PCM reference and adversarial data."""

import numpy as np

CT = {
    np.dtype(np.float32): "float",
    np.dtype(np.float64): "double",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int32_t",
    np.dtype(np.uint8): "uint8_t",
}
SFX = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}
FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

PTRDIFF_MAX = 2**63 - 1
SIZE_MAX = 2**64 - 1

#: PCM formats: (code dtype, bits).
PCM = {"i16": (np.int16, 16), "i32": (np.int32, 32), "i24": (np.uint8, 24), "u8": (np.uint8, 8)}


def ptr(ffi, a: np.ndarray, offset_elems: int = 0):
    """Pointer to element `offset_elems` of a contiguous array (or of any array's first element)."""
    return ffi.cast(CT[a.dtype] + " *", a.ctypes.data + offset_elems * a.itemsize)


def vptr(ffi, v: np.ndarray):
    """(pointer to logical element 0, element stride) of a 1-D numpy view."""
    assert v.ndim == 1 and v.strides[0] % v.itemsize == 0
    return ffi.cast(CT[v.dtype] + " *", v.__array_interface__["data"][0]), v.strides[0] // v.itemsize


def pcm_ref_encode(x, fmt):
    """Float → code reference in float64: x·2^(b−1), round half to even (np.rint), clip."""
    dt, bits = PCM[fmt]
    fs = 2.0 ** (bits - 1)
    with np.errstate(over="ignore", invalid="ignore"):
        v = np.clip(np.rint(np.asarray(x, np.float64) * fs), -fs, fs - 1).astype(np.int64)
    if fmt == "u8":
        return (v + 128).astype(np.uint8)
    if fmt == "i24":
        b = (v & 0xFFFFFF).astype(np.uint32)
        return np.stack([b & 0xFF, (b >> 8) & 0xFF, (b >> 16) & 0xFF], axis=-1).astype(np.uint8).reshape(-1)
    return v.astype(dt)


def pcm_ref_decode(codes, fmt, dtype):
    """Code → float reference: value / 2^(b−1) in float64, rounded once to dtype."""
    dt, bits = PCM[fmt]
    if fmt == "u8":
        v = codes.astype(np.int64) - 128
    elif fmt == "i24":
        b = codes.reshape(-1, 3).astype(np.int64)
        v = b[:, 0] | (b[:, 1] << 8) | (b[:, 2] << 16)
        v = np.where(v >= 1 << 23, v - (1 << 24), v)
    else:
        v = codes.astype(np.int64)
    return (v.astype(np.float64) / 2.0 ** (bits - 1)).astype(dtype)


def adversarial_floats(rng, n, dtype):
    """Mostly in [-1.2, 1.2], with exact ties of every format, saturating and tiny values."""
    ties = []
    for bits in (8, 16, 24, 32):
        fs = 2.0 ** (bits - 1)
        ties += [0.5 / fs, 1.5 / fs, -2.5 / fs, (fs - 1.5) / fs, -(fs - 0.5) / fs]
    sp = np.array(ties + [0.0, -0.0, 1.0, -1.0, 1.0000001, -1.0000001, 1e30, -1e30,
                          np.finfo(dtype).max, -np.finfo(dtype).max, np.finfo(dtype).tiny,
                          float(np.finfo(dtype).smallest_subnormal)])
    x = rng.uniform(-1.2, 1.2, n)
    k = rng.random(n) < 0.3
    x[k] = sp[rng.integers(0, sp.size, int(k.sum()))]
    with np.errstate(over="ignore"):
        return x.astype(dtype)


def strided_view(rng, n, stride, dtype, pad=3, fill=None):
    """(base array, 1-D view of n elements with the given non-zero stride): the base is padded
    on both sides so out-of-view writes are detectable."""
    ext = (n - 1) * abs(stride) + 1 if n else 0
    base = (rng.standard_normal(ext + 2 * pad) if fill is None else np.full(ext + 2 * pad, fill)).astype(dtype)
    if n == 0:
        return base, base[pad:pad]
    if stride > 0:
        return base, base[pad:pad + ext:stride]
    start = pad + ext - 1
    stop = pad - 1 if pad >= 1 else None
    return base, base[start:stop:stride]
