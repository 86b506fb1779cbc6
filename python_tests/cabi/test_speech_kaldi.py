"""sk_kaldi_* through the C ABI: the defaults, the shape query, one batch call equal to row-by-row
calls, and the error contract (status, message naming the argument, nothing written)."""

import numpy as np
import pytest


def _opts(ffi, sk, **kw):
    o = ffi.new("SkKaldiOptions *")
    assert sk.sk_kaldi_options_init(o) == sk.SK_OK
    for k, v in kw.items():
        setattr(o, k, v)
    return o


def test_defaults_are_torchaudios(ffi, sk):
    o = _opts(ffi, sk)
    assert (o.sample_frequency, o.frame_length, o.frame_shift) == (16000.0, 25.0, 10.0)
    assert o.window_type == sk.SK_KALDI_WINDOW_POVEY
    assert (o.num_mel_bins, o.num_ceps, o.cepstral_lifter) == (23, 13, 22.0)
    assert (o.dither, o.energy_floor, o.preemphasis_coefficient) == (0.0, 1.0, 0.97)
    assert (o.snip_edges, o.raw_energy, o.use_energy, o.htk_compat) == (1, 1, 0, 0)
    assert (o.low_freq, o.high_freq, o.vtln_warp, o.vtln_low, o.vtln_high) == (20.0, 0.0, 1.0, 100.0, -500.0)


@pytest.mark.parametrize("kind,dim", [("SPECTROGRAM", 257), ("FBANK", 23), ("MFCC", 13)])
def test_shape_and_batch(ffi, sk, kind, dim):
    k = getattr(sk, f"SK_KALDI_{kind}")
    o = _opts(ffi, sk, snip_edges=0)
    fr, d = ffi.new("size_t *"), ffi.new("size_t *")
    n = 4321
    assert sk.sk_kaldi_shape(k, o, fr, d, n) == sk.SK_OK
    assert (fr[0], d[0]) == ((n + 80) // 160, dim)
    x = np.random.default_rng(0).standard_normal((3, 5000)).astype(np.float32)
    y = np.full((3, fr[0], d[0]), np.nan, np.float32)
    px = ffi.from_buffer("float[]", x)
    assert sk.sk_kaldi_f32(k, o, px, 5000, 3, ffi.from_buffer("float[]", y), y.size, n) == sk.SK_OK
    assert np.isfinite(y).all()
    for r in range(3):
        one = np.empty_like(y[r])
        row = ffi.from_buffer("float[]", x[r])
        assert sk.sk_kaldi_f32(k, o, row, 0, 1, ffi.from_buffer("float[]", one), one.size, n) == 0
        np.testing.assert_array_equal(one, y[r])


def test_errors_write_nothing(ffi, sk, last_error):
    x = np.zeros(1600)
    y = np.full(10 * 23, 7.0)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    F = sk.SK_KALDI_FBANK

    def call(o, kind=F, y_len=y.size, n=1600):
        return sk.sk_kaldi_f64(kind, o, px, 0, 1, py, y_len, n)

    assert call(ffi.NULL) == sk.SK_ERR_NULL_POINTER and "opts" in last_error()
    assert call(_opts(ffi, sk), kind=7) == sk.SK_ERR_BAD_ARGUMENT and "kind" in last_error()
    assert call(_opts(ffi, sk, use_energy=2)) == sk.SK_ERR_BAD_ARGUMENT
    assert "use_energy" in last_error()
    assert call(_opts(ffi, sk, window_type=9)) == sk.SK_ERR_BAD_ARGUMENT
    assert call(_opts(ffi, sk, num_mel_bins=2)) == sk.SK_ERR_BAD_ARGUMENT
    assert "num_mel_bins" in last_error()
    assert call(_opts(ffi, sk, sample_frequency=float("nan"))) == sk.SK_ERR_BAD_ARGUMENT
    assert call(_opts(ffi, sk, high_freq=9000.0)) == sk.SK_ERR_BAD_ARGUMENT
    assert call(_opts(ffi, sk), n=399) == sk.SK_ERR_BAD_ARGUMENT and "shorter" in last_error()
    assert call(_opts(ffi, sk), y_len=10) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert (y == 7.0).all()
    # one frame too few in y: nothing written either
    assert call(_opts(ffi, sk), y_len=8 * 23 - 1) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert (y == 7.0).all()
    assert call(_opts(ffi, sk), y_len=8 * 23) == sk.SK_OK  # 1600 samples: 8 frames
    assert not (y[:184] == 7.0).any() and (y[184:] == 7.0).all()
    # output overlapping the input
    assert sk.sk_kaldi_f64(F, _opts(ffi, sk), px, 0, 1, px, 1600, 1600) == sk.SK_ERR_OVERLAP
