"""STFT / ISTFT against torch.stft / torch.istft in float64, the streaming STFT against one
call, and every bad input with canaries."""

import numpy as np
import pytest
import torch

PAD = {"constant": 0, "reflect": 1}


def dptr(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)


def frames_of(sk, ffi, n_fft, hop, win, center, pad, n):
    f = ffi.new("size_t *")
    assert sk.sk_stft_frames(n_fft, hop, win, center, PAD[pad], f, n) == sk.SK_OK
    return f[0]


def sk_stft(sk, ffi, x, w, n_fft, hop, center=True, pad="reflect", onesided=True, normalized=False):
    win = len(w)
    frames = frames_of(sk, ffi, n_fft, hop, win, int(center), pad, len(x))
    nf = n_fft // 2 + 1 if onesided else n_fft
    dt = np.complex128 if x.dtype == np.float64 else np.complex64
    y = np.full((frames, nf), np.nan, dt)
    f = sk.sk_stft_f64 if x.dtype == np.float64 else sk.sk_stft_f32
    rc = f(dptr(ffi, x), dptr(ffi, w), n_fft, hop, win, int(center), PAD[pad], int(onesided),
           int(normalized), dptr(ffi, y), y.size, len(x))
    assert rc == sk.SK_OK
    return y


CASES = [
    # n, n_fft, hop, win_length, center, pad, onesided, normalized
    (4800, 512, 128, 512, True, "reflect", True, False),
    (4800, 512, 128, 400, True, "constant", True, False),
    (1000, 255, 64, 201, True, "reflect", True, True),
    (1000, 256, 100, 256, False, "reflect", True, False),
    (777, 64, 16, 64, True, "reflect", False, False),
    (777, 63, 7, 50, False, "constant", False, True),
    (33, 32, 1, 32, True, "reflect", True, False),
    (32, 32, 32, 32, False, "constant", True, False),
    (17, 1, 1, 1, True, "reflect", True, False),
    (9, 2, 1, 2, True, "reflect", True, False),
]


@pytest.mark.parametrize("case", CASES)
def test_stft_matches_torch(sk, ffi, case):
    n, n_fft, hop, win, center, pad, onesided, normalized = case
    rng = np.random.default_rng(n + n_fft)
    x = rng.standard_normal(n)
    w = np.hanning(win + 1)[:-1] if win > 1 else np.ones(1)
    w = w * 0.9 + 0.1  # non-zero ends, so win_length padding matters
    y = sk_stft(sk, ffi, x, w, n_fft, hop, center, pad, onesided, normalized)
    ref = torch.stft(torch.from_numpy(x), n_fft, hop, win, torch.from_numpy(w), center=center,
                     pad_mode=pad, normalized=normalized, onesided=onesided,
                     return_complex=True).numpy()
    assert y.T.shape == ref.shape
    scale = np.abs(x).sum()
    assert np.abs(y.T - ref).max() < 1e-13 * scale


def test_stft_memory_layout_is_torchs(sk, ffi):
    x = np.random.default_rng(1).standard_normal(2000)
    w = np.hanning(129)[:-1]
    y = sk_stft(sk, ffi, x, w, 128, 32)
    ref = torch.stft(torch.from_numpy(x), 128, 32, 128, torch.from_numpy(w), return_complex=True)
    # torch's result is (n_freq, frames) with strides (1, n_freq): the same bytes
    assert ref.stride() == (1, 65)
    flat = torch.as_strided(ref, (ref.numel(),), (1,)).numpy()
    np.testing.assert_allclose(y.ravel(), flat, rtol=0, atol=1e-12)


def test_stft_f32(sk, ffi):
    rng = np.random.default_rng(2)
    x = rng.standard_normal(48000).astype(np.float32)
    w = np.hanning(1025)[:-1].astype(np.float32)
    y = sk_stft(sk, ffi, x, w, 1024, 256)
    ref = torch.stft(torch.from_numpy(x.astype(np.float64)), 1024, 256, 1024,
                     torch.from_numpy(w.astype(np.float64)), return_complex=True).numpy()
    assert np.abs(y.T - ref).max() < 2e-6 * np.abs(ref).max()


ISTFT_CASES = [
    # n, n_fft, hop, win_length, center, onesided, normalized, length
    (4800, 512, 128, 512, True, True, False, None),
    (4800, 512, 128, 512, True, True, False, 4800),
    (4800, 512, 128, 512, True, True, False, 5000),
    (4800, 512, 128, 512, True, True, False, 100),
    (1001, 256, 64, 200, True, True, True, None),
    (1001, 63, 16, 63, True, False, False, 1001),
    (500, 64, 16, 64, False, True, False, None),
]


@pytest.mark.parametrize("case", ISTFT_CASES)
def test_istft_matches_torch(sk, ffi, case):
    n, n_fft, hop, win, center, onesided, normalized, length = case
    rng = np.random.default_rng(n_fft)
    x = rng.standard_normal(n)
    # a window whose envelope never vanishes where torch checks it
    w = np.hanning(win + 1)[:-1] * 0.8 + 0.2 if not center else np.hanning(win + 1)[:-1]
    xt, wt = torch.from_numpy(x), torch.from_numpy(w)
    spec = torch.stft(xt, n_fft, hop, win, wt, center=center, normalized=normalized,
                      onesided=onesided, return_complex=True)
    ref = torch.istft(spec, n_fft, hop, win, wt, center=center, normalized=normalized,
                      onesided=onesided, length=length).numpy()
    frames = spec.shape[1]
    spec_np = np.ascontiguousarray(spec.numpy().T)  # frames x n_freq
    if length is None:
        ln = ffi.new("size_t *")
        assert sk.sk_istft_len(n_fft, hop, win, int(center), frames, ln) == sk.SK_OK
        length = ln[0]
    y = np.full(length, np.nan)
    rc = sk.sk_istft_f64(dptr(ffi, spec_np), dptr(ffi, w), frames, n_fft, hop, win, int(center),
                         int(onesided), int(normalized), dptr(ffi, y), length)
    assert rc == sk.SK_OK
    assert y.shape == ref.shape
    # past the signal the squared-window envelope gets tiny and dividing by it amplifies the
    # rounding of both implementations: absolute 1e-12, relative 1e-9 there
    np.testing.assert_allclose(y, ref, rtol=1e-9, atol=1e-12)
    m = min(n, length)
    if center:
        np.testing.assert_allclose(y[:m], x[:m], rtol=0, atol=1e-12)  # round trip


def test_istft_nola_failure_is_reported(sk, ffi, last_error):
    # hann with center=False: the envelope is 0 at the first sample (torch raises too)
    n_fft, hop = 64, 16
    w = np.hanning(n_fft + 1)[:-1]
    spec = np.ones((10, 33), complex)
    y = np.full(200, 7.0)
    rc = sk.sk_istft_f64(dptr(ffi, spec), dptr(ffi, w), 10, n_fft, hop, n_fft, 0, 1, 0, dptr(ffi, y), 200)
    assert rc == sk.SK_ERR_BAD_ARGUMENT
    assert "NOLA" in last_error()
    assert (y == 7.0).all()
    with pytest.raises(RuntimeError):
        torch.istft(torch.from_numpy(spec.T.copy()), n_fft, hop, n_fft, torch.from_numpy(w), center=False)


@pytest.mark.parametrize("center,pad", [(1, "reflect"), (1, "constant"), (0, "reflect")])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_stream_gives_the_same_frames(sk, ffi, center, pad, dtype):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(5000).astype(dtype)
    n_fft, hop, win = 256, 64, 200
    w = np.hanning(win + 1)[:-1].astype(dtype)
    want = sk_stft(sk, ffi, x, w, n_fft, hop, bool(center), pad)
    new = sk.sk_stft_stream_f64_new if dtype == np.float64 else sk.sk_stft_stream_f32_new
    push = sk.sk_stft_stream_f64_push if dtype == np.float64 else sk.sk_stft_stream_f32_push
    finish = sk.sk_stft_stream_f64_finish if dtype == np.float64 else sk.sk_stft_stream_f32_finish
    sp = ffi.new("SkStftStream **")
    assert new(dptr(ffi, w), n_fft, hop, win, center, PAD[pad], 1, 0, sp) == sk.SK_OK
    s = ffi.gc(sp[0], sk.sk_stft_stream_free)
    cdt = np.complex128 if dtype == np.float64 else np.complex64
    got, pos, cnt, q = [], 0, ffi.new("size_t *"), ffi.new("size_t *")
    for blk in [1, 2, 100, 0, 127, 1000, 3, 2000, 1767]:
        assert sk.sk_stft_stream_push_frames(s, q, blk) == sk.SK_OK
        y = np.full((q[0] + 1, 129), np.nan, cdt)
        assert push(s, dptr(ffi, x[pos : pos + blk]), dptr(ffi, y), y.shape[0] * 129, cnt, blk) == sk.SK_OK
        assert cnt[0] == q[0]
        assert np.isnan(y[cnt[0]:]).all()
        got.append(y[: cnt[0]])
        pos += blk
    assert pos == len(x)
    assert sk.sk_stft_stream_finish_frames(s, q) == sk.SK_OK
    y = np.zeros((q[0], 129), cdt)
    assert finish(s, dptr(ffi, y), y.size, cnt) == sk.SK_OK
    got.append(y[: cnt[0]])
    got = np.concatenate(got)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)  # the same arithmetic per frame: bit-identical
    # finished: pushing fails until reset, then a new signal starts
    z = np.zeros(4, dtype)
    assert push(s, dptr(ffi, z), dptr(ffi, y), y.size, cnt, 4) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_stft_stream_reset(s) == sk.SK_OK
    assert push(s, dptr(ffi, x), dptr(ffi, want.copy()), want.size, cnt, len(x)) == sk.SK_OK


def test_bad_inputs_write_nothing(sk, ffi, last_error):
    x = np.random.default_rng(4).standard_normal(1000)
    w = np.hanning(64)
    y = np.full(10000, 7 + 7j)
    xp, wp, yp = dptr(ffi, x), dptr(ffi, w), dptr(ffi, y)

    def check(rc, code, text):
        assert rc == code, last_error()
        assert text in last_error(), last_error()
        assert (y == 7 + 7j).all()

    check(sk.sk_stft_f64(xp, wp, 0, 16, 0, 1, 1, 1, 0, yp, y.size, 1000), sk.SK_ERR_LENGTH, "n_fft = 0")
    check(sk.sk_stft_f64(xp, wp, 64, 0, 64, 1, 1, 1, 0, yp, y.size, 1000), sk.SK_ERR_BAD_ARGUMENT, "hop = 0")
    check(sk.sk_stft_f64(xp, wp, 64, 65, 64, 1, 1, 1, 0, yp, y.size, 1000), sk.SK_ERR_BAD_ARGUMENT,
          "hop = 65 is greater than win_length = 64")
    check(sk.sk_stft_f64(xp, wp, 64, 16, 65, 1, 1, 1, 0, yp, y.size, 1000), sk.SK_ERR_BAD_ARGUMENT,
          "win_length = 65")
    check(sk.sk_stft_f64(xp, wp, 64, 16, 64, 1, 5, 1, 0, yp, y.size, 1000), sk.SK_ERR_BAD_ARGUMENT, "pad_mode = 5")
    check(sk.sk_stft_f64(xp, wp, 64, 16, 64, 1, 1, 1, 0, yp, y.size, 32), sk.SK_ERR_BAD_ARGUMENT,
          "reflect padding")
    check(sk.sk_stft_f64(xp, wp, 64, 16, 64, 0, 1, 1, 0, yp, y.size, 63), sk.SK_ERR_BAD_ARGUMENT,
          "shorter than n_fft")
    # 1000 samples, centre: 63 frames x 33 bins = 2079 needed
    check(sk.sk_stft_f64(xp, wp, 64, 16, 64, 1, 1, 1, 0, yp, 2078, 1000), sk.SK_ERR_BUFFER_TOO_SMALL,
          "frames 63 × n_freq 33 = 2079")
    check(sk.sk_stft_f64(xp, ffi.NULL, 64, 16, 64, 1, 1, 1, 0, yp, 2079, 1000), sk.SK_ERR_NULL_POINTER,
          "argument window is NULL")
    check(sk.sk_stft_f64(dptr(ffi, y.view(float)), wp, 64, 16, 64, 1, 1, 1, 0, yp, 2079, 1000),
          sk.SK_ERR_OVERLAP, "overlaps input x")
    assert sk.sk_stft_f64(xp, wp, 64, 16, 64, 1, 1, 1, 0, yp, 2079, 1000) == sk.SK_OK
    assert (y[2079:] == 7 + 7j).all()
    y[:] = 7 + 7j
    # ISTFT
    out = np.full(100, 7.0)
    op = dptr(ffi, out)
    check(sk.sk_istft_f64(yp, wp, 0, 64, 16, 64, 1, 1, 0, op, 100), sk.SK_ERR_LENGTH, "frames = 0")
    check(sk.sk_istft_f64(yp, wp, 5, 64, 80, 64, 1, 1, 0, op, 100), sk.SK_ERR_BAD_ARGUMENT, "hop = 80")
    assert (out == 7.0).all()
    # streams: bad parameters, freed handle, too-small output (nothing consumed)
    sp = ffi.new("SkStftStream **")
    check(sk.sk_stft_stream_f64_new(wp, 64, 0, 64, 1, 1, 1, 0, sp), sk.SK_ERR_BAD_ARGUMENT, "hop = 0")
    assert sk.sk_stft_stream_f64_new(wp, 64, 16, 64, 1, 1, 1, 0, sp) == sk.SK_OK
    cnt = ffi.new("size_t *")
    cnt[0] = 12345
    check(sk.sk_stft_stream_f64_push(sp[0], xp, yp, 10, cnt, 1000), sk.SK_ERR_BUFFER_TOO_SMALL,
          "needed")
    assert cnt[0] == 12345
    check(sk.sk_stft_stream_f32_push(sp[0], ffi.cast("float *", xp), ffi.cast("float *", yp), 10000, cnt, 10),
          sk.SK_ERR_INVALID_HANDLE, "a double STFT stream, not a float STFT stream")
    # the failed push consumed nothing: the full signal still gives the one-call frames
    assert sk.sk_stft_stream_f64_push(sp[0], xp, yp, y.size, cnt, 1000) == sk.SK_OK
    assert sk.sk_stft_stream_free(sp[0]) == sk.SK_OK
    y[:] = 7 + 7j
    check(sk.sk_stft_stream_f64_push(sp[0], xp, yp, y.size, cnt, 1000), sk.SK_ERR_INVALID_HANDLE,
          "not a live sigkern handle")
    assert sk.sk_stft_stream_free(sp[0]) == sk.SK_ERR_INVALID_HANDLE
    # finish of a too-short reflect-padded signal
    assert sk.sk_stft_stream_f64_new(wp, 64, 16, 64, 1, 1, 1, 0, sp) == sk.SK_OK
    assert sk.sk_stft_stream_f64_push(sp[0], xp, yp, y.size, cnt, 10) == sk.SK_OK
    check(sk.sk_stft_stream_f64_finish(sp[0], yp, y.size, cnt), sk.SK_ERR_BAD_ARGUMENT, "reflect padding")
    assert sk.sk_stft_stream_free(sp[0]) == sk.SK_OK
