"""Marginally stable sections (poles on the unit circle) and Butterworth order 0, against scipy
in float64: scipy filters them, so sigkern must too, with the same output (exact for these small
integer examples, within 1e-12 of the peak for the resonators)."""

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT

MARGINAL = {
    # the issue's examples: integrator/differentiator pair (pole and zero at z = 1) and a pole at
    # z = -1 written with a0 != 1
    "integrator_pair": [[2, -2, 0, 1, -1, 0]],
    "pole_minus_one": [[1, 0, 0, 0.5, 0.5, 0]],
    "integrator": [[1, 0, 0, 1, -1, 0]],
    "double_integrator": [[1, 0, 0, 1, -2, 1]],
    "resonator": [[1, 0, 0, 1, -2 * np.cos(0.3), 1]],
    "poles_at_pm_j": [[1, 0, 0, 1, 0, 1]],
    "stable_then_marginal": [[0.5, 0.2, 0, 1, -0.3, 0.1], [1, 0, 0, 1, 1, 0]],
}


def sosfilt(sk, ffi, sos, x, dtype):
    ct = "float" if dtype == np.float32 else "double"
    fn = sk.sk_sosfilt_f32 if ct == "float" else sk.sk_sosfilt_f64
    x = np.ascontiguousarray(x, dtype=dtype)
    y = np.full_like(x, 7.0)
    sos = np.ascontiguousarray(sos, dtype=np.float64)
    n = x.shape[-1]
    rc = fn(ffi.from_buffer("double[]", sos), ffi.from_buffer(ct + "[]", x), n, ffi.NULL,
            x.shape[0], ffi.from_buffer(ct + "[]", y), n, ffi.NULL, len(sos), n)
    return rc, y


def test_issue_examples_exact(sk, ffi):
    x = np.linspace(0, 5, 6)[None, :]
    rc, y = sosfilt(sk, ffi, MARGINAL["integrator_pair"], x, np.float64)
    assert rc == SK_OK
    assert np.array_equal(y[0], [0, 2, 4, 6, 8, 10])
    assert np.array_equal(y[0], ss.sosfilt(MARGINAL["integrator_pair"], x[0]))
    rc, y = sosfilt(sk, ffi, MARGINAL["pole_minus_one"], np.ones((1, 6)), np.float64)
    assert rc == SK_OK
    # scipy's lfilter([1], [0.5, 0.5], ones(6)) (sosfilt itself wants a0 = 1)
    assert np.array_equal(y[0], ss.lfilter([1], [0.5, 0.5], np.ones(6)))
    assert np.array_equal(y[0], [2, 0, 2, 0, 2, 0])


@pytest.mark.parametrize("name", sorted(MARGINAL))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_marginal_sections_match_scipy(sk, ffi, name, dtype):
    sos = np.asarray(MARGINAL[name], dtype=np.float64)
    norm = sos / sos[:, 3:4]
    x = np.random.default_rng(3).standard_normal((3, 400))
    rc, y = sosfilt(sk, ffi, sos, x, dtype)
    assert rc == SK_OK
    want = ss.sosfilt(norm, x.astype(dtype).astype(np.float64), axis=-1)
    peak = np.abs(want).max()
    tol = 1e-12 * peak * 400 if dtype == np.float64 else 1e-4 * peak * 400
    assert np.abs(y - want).max() <= tol


@pytest.mark.parametrize("ct", ["float", "double"])
def test_biquad_handle_accepts_marginal(sk, ffi, ct):
    new = sk.sk_biquad_f32_new if ct == "float" else sk.sk_biquad_f64_new
    for name, sos in MARGINAL.items():
        sos = np.ascontiguousarray(sos, dtype=np.float64)
        out = ffi.new("SkBiquad **")
        assert new(ffi.from_buffer("double[]", sos), 2, out, len(sos)) == SK_OK, name
        assert sk.sk_biquad_free(out[0]) == SK_OK


def test_outside_message_grammar(sk, ffi, last_error):
    rc, _ = sosfilt(sk, ffi, [[1, 0, 0, 1, 0, 1.01]], np.ones((1, 4)), np.float64)
    assert rc == SK_ERR_BAD_ARGUMENT
    msg = last_error()
    assert "sos[0] is unstable: a pole lies outside the unit circle" in msg, msg


@pytest.mark.parametrize("band, wn", [(0, 0.3), (1, 0.3), (2, [0.2, 0.5]), (3, [0.2, 0.5])])
def test_butter_order_zero_is_identity(sk, ffi, band, wn):
    btype = ["lowpass", "highpass", "bandpass", "bandstop"][band]
    want = ss.butter(0, wn, btype, output="sos")
    f1, f2 = (wn, 0.0) if np.isscalar(wn) else wn
    assert sk.sk_butter_sections(0, band) == 1
    sos = np.full(12, 7.0)
    n = ffi.new("size_t *")
    rc = sk.sk_butter_sos(0, band, f1, f2, 2.0, ffi.from_buffer("double[]", sos), n, 12)
    assert rc == SK_OK and n[0] == 1
    assert np.array_equal(sos[:6].reshape(1, 6), want)
    assert np.all(sos[6:] == 7.0)
