"""sk_kaldi_online_* through the C ABI: counts announced before each call, bit-for-bit equality
with sk_kaldi_f32, refused options, the error contract and handle misuse."""

import numpy as np


def _opts(ffi, sk, **kw):
    o = ffi.new("SkKaldiOptions *")
    assert sk.sk_kaldi_options_init(o) == sk.SK_OK
    for k, v in kw.items():
        setattr(o, k, v)
    return o


def test_stream_equals_offline(ffi, sk):
    o = _opts(ffi, sk, snip_edges=0, dither=1.0, seed=3)
    x = np.random.default_rng(0).standard_normal(9000).astype(np.float32)
    fr, d = ffi.new("size_t *"), ffi.new("size_t *")
    assert sk.sk_kaldi_shape(sk.SK_KALDI_MFCC, o, fr, d, x.size) == sk.SK_OK
    want = np.empty((fr[0], d[0]), np.float32)
    assert sk.sk_kaldi_f32(sk.SK_KALDI_MFCC, o, ffi.from_buffer("float[]", x), 0, 1,
                           ffi.from_buffer("float[]", want), want.size, x.size) == sk.SK_OK
    pp = ffi.new("SkKaldiOnline **")
    assert sk.sk_kaldi_online_f32_new(sk.SK_KALDI_MFCC, o, pp) == sk.SK_OK
    s = pp[0]
    got = np.empty_like(want)
    py = ffi.from_buffer("float[]", got)
    done, count = 0, ffi.new("size_t *")
    for a, b in ((0, 1), (1, 2000), (2000, 2001), (2001, 9000)):
        ann = ffi.new("size_t *")
        assert sk.sk_kaldi_online_accept_frames(s, ann, b - a) == sk.SK_OK
        assert sk.sk_kaldi_online_f32_accept(s, ffi.from_buffer("float[]", x[a:b]), b - a,
                                             py + done * d[0], got.size - done * d[0], count) == sk.SK_OK
        assert count[0] == ann[0]
        done += count[0]
    assert sk.sk_kaldi_online_f32_finish(s, py + done * d[0], got.size - done * d[0], count) == sk.SK_OK
    done += count[0]
    assert done == fr[0] and np.array_equal(got, want)
    info = [ffi.new("size_t *") for _ in range(3)] + [ffi.new("int32_t *")]
    assert sk.sk_kaldi_online_info(s, *info) == sk.SK_OK
    assert (info[0][0], info[1][0], info[2][0], info[3][0]) == (13, done, 9000, 1)
    assert sk.sk_kaldi_online_free(s) == sk.SK_OK
    assert sk.sk_kaldi_online_free(s) == sk.SK_ERR_INVALID_HANDLE


def test_errors(ffi, sk, last_error):
    pp = ffi.new("SkKaldiOnline **")
    F = sk.SK_KALDI_FBANK
    assert sk.sk_kaldi_online_f32_new(F, _opts(ffi, sk, subtract_mean=1), pp) == sk.SK_ERR_BAD_ARGUMENT
    assert "subtract_mean" in last_error()
    assert sk.sk_kaldi_online_f32_new(F, _opts(ffi, sk, min_duration=1.0), pp) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_kaldi_online_f32_new(F, _opts(ffi, sk, num_mel_bins=2), pp) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_kaldi_online_f32_new(F, ffi.NULL, pp) == sk.SK_ERR_NULL_POINTER
    assert sk.sk_kaldi_online_f64_new(F, _opts(ffi, sk), pp) == sk.SK_OK
    s = pp[0]
    x = np.zeros(1000, np.float32)
    y = np.full(23 * 10, 7.0, np.float32)
    cnt = ffi.new("size_t *")
    px, py = ffi.from_buffer("float[]", x), ffi.from_buffer("float[]", y)
    # a double stream given to the float call
    assert sk.sk_kaldi_online_f32_accept(s, px, 1000, py, y.size, cnt) == sk.SK_ERR_INVALID_HANDLE
    yd = np.full(23 * 10, 7.0)
    xd = np.zeros(1000)
    pxd, pyd = ffi.from_buffer("double[]", xd), ffi.from_buffer("double[]", yd)
    assert sk.sk_kaldi_online_f64_accept(s, pxd, 1000, pyd, 23, cnt) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert sk.sk_kaldi_online_f64_accept(s, pxd, 1000, pxd, 23 * 10, cnt) == sk.SK_ERR_OVERLAP
    assert sk.sk_kaldi_online_f64_accept(s, ffi.NULL, 1000, pyd, 230, cnt) == sk.SK_ERR_NULL_POINTER
    np.testing.assert_array_equal(yd, 7.0)
    samples = ffi.new("size_t *")
    assert sk.sk_kaldi_online_info(s, ffi.NULL, ffi.NULL, samples, ffi.NULL) == sk.SK_OK
    assert samples[0] == 0  # nothing consumed by the failed calls
    assert sk.sk_kaldi_online_f64_finish(s, pyd, 230, cnt) == sk.SK_OK and cnt[0] == 0
    assert sk.sk_kaldi_online_f64_accept(s, pxd, 10, pyd, 230, cnt) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_kaldi_online_reset(s) == sk.SK_OK
    assert sk.sk_kaldi_online_f64_accept(s, pxd, 1000, pyd, 230, cnt) == sk.SK_OK and cnt[0] == 4
    assert sk.sk_kaldi_online_free(s) == sk.SK_OK
    assert sk.sk_kaldi_online_reset(s) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_kaldi_online_free(ffi.NULL) == sk.SK_OK
