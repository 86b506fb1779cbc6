"""Dithered float -> PCM: the error spectrum is flat (or shaped 1 - z^-1) and independent of the
signal, where plain rounding of a low-level sine gives harmonic distortion; chunking, seeds and
SIMD levels do not change the output; the C entry points' errors."""

import hashlib

import numpy as np
import pytest

import sigkern
from simd_levels import ORDER, run_body

N = 1 << 16


def low_sine(amp_lsb=2.5, f_bin=301):
    t = np.arange(N)
    return (amp_lsb / 32768.0) * np.sin(2 * np.pi * f_bin * t / N)


def error_spectrum(codes, x):
    e = codes.astype(np.float64) - x * 32768.0
    return e, np.abs(np.fft.rfft(e)) ** 2 / N


def test_rounding_distorts_dither_gives_a_flat_uncorrelated_error():
    x = low_sine()
    plain = sigkern.float_to_pcm(x)
    ep, sp = error_spectrum(plain, x)
    dith = sigkern.float_to_pcm_dither(x, seed=7)
    ed, sd = error_spectrum(dith, x)
    # rounding: the error is concentrated at odd harmonics of the tone (bins 3·301, 5·301, ...)
    harm = [k * 301 for k in (3, 5, 7)]
    assert sp[harm].max() > 1000 * np.median(sp)
    # dither: no harmonic stands out; the spectrum is flat (low band and high band alike) at
    # the TPDF + rounding power 1/4 LSB^2
    assert sd[harm].max() < 30 * np.median(sd)
    lo, hi = sd[1:N // 4].mean(), sd[N // 4:].mean()
    assert abs(lo / hi - 1) < 0.05
    assert abs(ed.var() - 0.25) < 0.01
    # uncorrelated with the signal
    assert abs(np.corrcoef(ed, x)[0, 1]) < 0.02
    assert abs(np.corrcoef(ep, x)[0, 1]) > 0.1


def test_noise_shaping_is_first_order_highpass():
    x = low_sine()
    y = sigkern.float_to_pcm_dither(x, seed=3, shaping=True)
    e, s = error_spectrum(y, x)
    w = np.pi * np.arange(len(s)) / (len(s) - 1)
    shape = np.abs(1 - np.exp(-1j * w)) ** 2
    # divided by |1 - z^-1|^2 the spectrum is flat: compare band averages
    flat = s[1:] / shape[1:]
    bands = [flat[a:b].mean() for a, b in ((100, 4000), (4000, 12000), (12000, 32000))]
    assert max(bands) / min(bands) < 1.15, bands
    assert s[:2000].mean() < 0.05 * s[-2000:].mean()  # little noise at low frequencies


def test_stream_in_chunks_formats_and_seeds():
    rng = np.random.default_rng(0)
    x = (rng.standard_normal((5000, 2)) * 0.3).astype(np.float32)
    for fmt in ("int16", "int24", "uint8"):
        for shaping in (False, True):
            whole = sigkern.Ditherer(2, seed=5, shaping=shaping, format=fmt).convert(x)
            d = sigkern.Ditherer(2, seed=5, shaping=shaping, format=fmt)
            parts = [d.convert(x[a:b]) for a, b in ((0, 1), (1, 1), (1, 777), (777, 5000))]
            np.testing.assert_array_equal(np.concatenate(parts), whole)
            assert d.position == x.size
    a = sigkern.float_to_pcm_dither(x, seed=1, channels=2)
    b = sigkern.float_to_pcm_dither(x, seed=2, channels=2)
    assert (a != b).any() and (np.abs(a.astype(int) - b) <= 2).all()
    # float64 input, same values: same codes
    np.testing.assert_array_equal(sigkern.float_to_pcm_dither(x.astype(np.float64), seed=1, channels=2), a)


def dither_digest(ffi, lib):
    """The body run at each SIMD level: the digest of two dithered conversions."""
    x = (np.random.default_rng(1).standard_normal(100003) * 0.5).astype(np.float32)
    codes = (sigkern.float_to_pcm_dither(x, seed=9).tobytes()
             + sigkern.float_to_pcm_dither(x, "int24", seed=9).tobytes())
    return {"digest": np.array(hashlib.sha1(codes).hexdigest())}


def test_same_output_at_every_simd_level(lib_path, tmp_path):
    outs = {str(run_body(dither_digest, lvl, lib_path, tmp_path)["digest"]) for lvl in ORDER}
    assert len(outs) == 1


def test_c_errors(ffi, sk, last_error):
    st = ffi.new("SkDither *")
    assert sk.sk_dither_init(st, 1, 0, 0) == sk.SK_ERR_LENGTH
    assert sk.sk_dither_init(st, 1, 2, 2) == sk.SK_ERR_BAD_ARGUMENT
    assert sk.sk_dither_init(st, 1, 2, 1) == 0
    x = np.zeros(6, np.float32)
    y = np.full(6, 9, np.int16)
    px, py = ffi.from_buffer("float[]", x), ffi.from_buffer("int16_t[]", y)
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 5, st) == sk.SK_ERR_LENGTH  # not whole frames
    x[3] = np.nan
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 6, st) == sk.SK_ERR_NON_FINITE
    assert "x[3]" in last_error()
    assert (y == 9).all() and st.position == 0
    x[3] = 0
    st.channels = 0
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 6, st) == sk.SK_ERR_BAD_ARGUMENT
    st.channels = 2
    st.error[1] = 5.0
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 6, st) == sk.SK_ERR_BAD_ARGUMENT
    st.error[1] = 0.0
    assert sk.sk_pcm_to_i16_dither_f32(px, ffi.NULL, 6, st) == sk.SK_ERR_NULL_POINTER
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 6, ffi.NULL) == sk.SK_ERR_NULL_POINTER
    assert (y == 9).all()
    assert sk.sk_pcm_to_i16_dither_f32(px, py, 6, st) == 0 and st.position == 6
    assert (np.abs(y) <= 3).all()
    with pytest.raises(ValueError):
        sigkern.Ditherer(format="int32")
