"""Windows against scipy.signal.get_window (float64, within 1e-12), symmetric and periodic."""

import numpy as np
import pytest
import scipy.signal as ss

KINDS = [
    ("RECT", "boxcar", None),
    ("HANN", "hann", None),
    ("HAMMING", "hamming", None),
    ("BLACKMAN", "blackman", None),
    ("BLACKMAN_HARRIS", "blackmanharris", None),
    ("FLATTOP", "flattop", None),
    ("KAISER", "kaiser", 0.0),
    ("KAISER", "kaiser", 0.5),
    ("KAISER", "kaiser", 8.6),
    ("KAISER", "kaiser", 14.0),
    ("KAISER", "kaiser", 40.0),
    ("KAISER", "kaiser", -3.0),
    ("TUKEY", "tukey", 0.0),
    ("TUKEY", "tukey", 0.25),
    ("TUKEY", "tukey", 0.5),
    ("TUKEY", "tukey", 0.999),
    ("TUKEY", "tukey", 1.0),
    ("TUKEY", "tukey", 1.7),
    ("TUKEY", "tukey", -0.2),
]
LENGTHS = list(range(0, 22)) + [63, 64, 255, 256, 1000, 1001, 4096]


@pytest.mark.parametrize("const,name,param", KINDS)
def test_matches_scipy(sk, ffi, const, name, param):
    kind = getattr(sk, "SK_WINDOW_" + const)
    for n in LENGTHS:
        for periodic in (1, 0):
            spec = name if param is None else (name, param)
            want = ss.get_window(spec, n, fftbins=bool(periodic)) if n else np.empty(0)
            w = np.full(n, np.nan)
            p = 0.0 if param is None else param
            assert sk.sk_window_f64(kind, p, periodic, ffi.from_buffer("double[]", w), n) == sk.SK_OK
            np.testing.assert_allclose(w, want, rtol=0, atol=1e-12, err_msg=f"{spec} {n} {periodic}")
            w32 = np.full(n, np.nan, np.float32)
            assert sk.sk_window_f32(kind, p, periodic, ffi.from_buffer("float[]", w32), n) == sk.SK_OK
            np.testing.assert_array_equal(w32, want.astype(np.float32) if n else w32)


def test_bad_inputs_write_nothing(sk, ffi, last_error):
    w = np.full(8, 7.0)
    wp = ffi.from_buffer("double[]", w)
    for kind, param, text in [
        (sk.SK_WINDOW_KAISER, float("nan"), "kaiser beta = NaN"),
        (sk.SK_WINDOW_KAISER, float("inf"), "kaiser beta = inf"),
        (sk.SK_WINDOW_KAISER, 1e4, "kaiser beta = 10000"),
        (sk.SK_WINDOW_TUKEY, float("nan"), "tukey alpha = NaN"),
        (sk.SK_WINDOW_TUKEY, float("-inf"), "tukey alpha = -inf"),
        (99, 0.0, "kind = 99"),
    ]:
        assert sk.sk_window_f64(kind, param, 1, wp, 8) == sk.SK_ERR_BAD_ARGUMENT
        assert text in last_error()
        assert (w == 7.0).all()
    assert sk.sk_window_f64(sk.SK_WINDOW_HANN, 0.0, 1, ffi.NULL, 8) == sk.SK_ERR_NULL_POINTER
    mis = ffi.cast("double *", int(ffi.cast("uintptr_t", wp)) + 1)
    assert sk.sk_window_f64(sk.SK_WINDOW_HANN, 0.0, 1, mis, 4) == sk.SK_ERR_MISALIGNED
    assert (w == 7.0).all()
    # a parameter is ignored by the kinds that take none (even non-finite)
    assert sk.sk_window_f64(sk.SK_WINDOW_HANN, float("nan"), 1, wp, 8) == sk.SK_OK
    np.testing.assert_allclose(w, ss.get_window("hann", 8), atol=1e-15)
