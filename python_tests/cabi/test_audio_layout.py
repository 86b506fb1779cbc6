"""Channel layout (sk_interleave_*, sk_deinterleave_*, sk_*_block_*) on raw CFFI against numpy
reshapes, for 1 to 9 channels and frame counts around the kernels' tile size, plus the bad-input
cases (0 channels, NULL channel pointers, overlapping outputs, overflow) with nothing written."""

import numpy as np
import pytest

from audio_util import FLOATS, SFX, SIZE_MAX, ptr
from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_LENGTH, SK_ERR_MISALIGNED, SK_ERR_NULL_POINTER,
    SK_ERR_OVERLAP,
)

DT = pytest.mark.parametrize("dtype", FLOATS, ids=["f32", "f64"])
FRAMES = [0, 1, 2, 63, 64, 65, 127, 1000, 4099]


@DT
@pytest.mark.parametrize("ch", range(1, 10))
def test_planar_and_block_round_trips(sk, ffi, dtype, ch):
    rng = np.random.default_rng(ch)
    t = SFX[np.dtype(dtype)]
    ct = "float" if t == "f32" else "double"
    for frames in FRAMES:
        x = rng.standard_normal(frames * ch).astype(dtype)
        want = x.reshape(frames, ch).T.copy()  # (ch, frames)
        block = np.full(frames * ch + 1, 7.0, dtype)  # one canary element after
        assert getattr(sk, f"sk_deinterleave_block_{t}")(ptr(ffi, x), ch, ptr(ffi, block), frames) == SK_OK
        assert np.array_equal(block[:-1].reshape(ch, frames), want) and block[-1] == 7.0
        planes = [np.full(frames + 1, 5.0, dtype) for _ in range(ch)]
        arr = ffi.new(f"{ct} *[]", [ptr(ffi, p) for p in planes])
        assert getattr(sk, f"sk_deinterleave_{t}")(ptr(ffi, x), ch, arr, frames) == SK_OK
        for c in range(ch):
            assert np.array_equal(planes[c][:-1], want[c]) and planes[c][-1] == 5.0
        y = np.full(frames * ch, 3.0, dtype)
        carr = ffi.new(f"{ct} *[]", [ptr(ffi, p) for p in planes])
        assert getattr(sk, f"sk_interleave_{t}")(carr, ch, ptr(ffi, y), frames) == SK_OK
        assert np.array_equal(y, x)
        z = np.full(frames * ch, 3.0, dtype)
        assert getattr(sk, f"sk_interleave_block_{t}")(ptr(ffi, block), ch, ptr(ffi, z), frames) == SK_OK
        assert np.array_equal(z, x)


def test_interleave_inputs_may_repeat(sk, ffi):
    a = np.arange(5, dtype=np.float32)
    arr = ffi.new("float *[]", [ptr(ffi, a)] * 3)
    y = np.empty(15, np.float32)
    assert sk.sk_interleave_f32(arr, 3, ptr(ffi, y), 5) == SK_OK
    assert np.array_equal(y, np.repeat(a, 3))


def test_bad_input_writes_nothing(sk, ffi, last_error):
    x = np.arange(12, dtype=np.float32)
    out = np.full(16, 9.0, np.float32)
    po = ptr(ffi, out)
    chans = ffi.new("float *[]", [po, ptr(ffi, out, 8)])
    # zero channels, for every entry point (even with frames = 0)
    assert sk.sk_deinterleave_f32(ptr(ffi, x), 0, chans, 6) == SK_ERR_BAD_ARGUMENT
    assert "nchannels = 0" in last_error()
    assert sk.sk_interleave_f32(chans, 0, po, 0) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_deinterleave_block_f32(ptr(ffi, x), 0, po, 6) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_interleave_block_f64(ffi.NULL, 0, ffi.NULL, 0) == SK_ERR_BAD_ARGUMENT
    # a NULL channel pointer, named by index
    nul = ffi.new("float *[]", [po, ffi.NULL])
    assert sk.sk_deinterleave_f32(ptr(ffi, x), 2, nul, 6) == SK_ERR_NULL_POINTER
    assert "argument channels[1] is NULL" in last_error()
    assert sk.sk_deinterleave_f32(ptr(ffi, x), 2, ffi.NULL, 6) == SK_ERR_NULL_POINTER
    # NULL channels are fine when frames == 0
    assert sk.sk_deinterleave_f32(ffi.NULL, 2, nul, 0) == SK_OK
    # misaligned channel
    mis = ffi.new("float *[]", [po, ffi.cast("float *", out.ctypes.data + 2)])
    assert sk.sk_deinterleave_f32(ptr(ffi, x), 2, mis, 4) == SK_ERR_MISALIGNED
    assert "channels[1]" in last_error()
    # output channels overlapping each other
    ov = ffi.new("float *[]", [po, ptr(ffi, out, 3)])
    assert sk.sk_deinterleave_f32(ptr(ffi, x), 2, ov, 6) == SK_ERR_OVERLAP
    assert "channels[0]" in last_error() and "channels[1]" in last_error()
    # output channel overlapping the input
    xx = np.arange(12, dtype=np.float32)
    ovx = ffi.new("float *[]", [po, ptr(ffi, xx, 10)])
    assert sk.sk_deinterleave_f32(ptr(ffi, xx), 2, ovx, 6) == SK_ERR_OVERLAP
    # interleave output overlapping a channel
    assert sk.sk_interleave_f32(ffi.new("float *[]", [ptr(ffi, xx), ptr(ffi, xx)]), 2, ptr(ffi, xx, 3), 4) == SK_ERR_OVERLAP
    # adjacent but disjoint is fine (channels xx[0:4], output xx[4:12])
    adj = np.arange(12, dtype=np.float32)
    assert sk.sk_interleave_f32(ffi.new("float *[]", [ptr(ffi, adj)] * 2), 2, ptr(ffi, adj, 4), 4) == SK_OK
    assert np.array_equal(adj, [0, 1, 2, 3, 0, 0, 1, 1, 2, 2, 3, 3])
    # block: in place is not supported
    assert sk.sk_deinterleave_block_f32(ptr(ffi, xx), 2, ptr(ffi, xx), 6) == SK_ERR_OVERLAP
    # nchannels × frames overflows
    assert sk.sk_deinterleave_block_f32(ptr(ffi, x), SIZE_MAX // 2, po, 3) == SK_ERR_LENGTH
    assert sk.sk_interleave_f32(chans, 2, po, SIZE_MAX // 2 + 1) == SK_ERR_LENGTH
    assert np.all(out == 9.0) and np.array_equal(xx, np.arange(12))
