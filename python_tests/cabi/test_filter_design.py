"""Filter design against scipy (butter, cheby1/cheby2 zeros/poles/sections, zpk2sos, firwin)
and the RBJ cookbook's closed forms and frequency-response properties."""

import math

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import (
    SK_OK, SK_ERR_BAD_ARGUMENT, SK_ERR_BUFFER_TOO_SMALL, SK_ERR_LENGTH, SK_ERR_NULL_POINTER,
)

BANDS = {"lowpass": 0, "highpass": 1, "bandpass": 2, "bandstop": 3}
# the shared SK_WINDOW_* constants (also used by sk_window_*)
WINDOWS = {"hamming": 2, "hann": 1, "blackman": 3, "kaiser": 6}


def butter(sk, ffi, order, btype, f1, f2, fs):
    n = sk.sk_butter_sections(order, BANDS[btype])
    sos = np.zeros((n, 6))
    got = ffi.new("size_t *")
    rc = sk.sk_butter_sos(order, BANDS[btype], f1, f2, fs, ffi.from_buffer("double[]", sos), got, sos.size)
    assert rc == SK_OK
    assert got[0] == n
    return sos


def assert_sos_close(got, want, rel=1e-12):
    assert got.shape == want.shape
    for g, w in zip(got, want):
        for part in (slice(0, 3), slice(3, 6)):
            scale = np.abs(w[part]).max()
            assert np.abs(g[part] - w[part]).max() <= rel * scale, (g, w)


@pytest.mark.parametrize("order", list(range(1, 13)) + [16, 21, 32])
@pytest.mark.parametrize("btype", sorted(BANDS))
def test_butter_equals_scipy(sk, ffi, order, btype):
    for fs, f1, f2 in [(2.0, 0.2, 0.5), (48000.0, 1000.0, 3000.0), (44100.0, 30.0, 15000.0), (1.0, 0.001, 0.45)]:
        wn = f1 if btype in ("lowpass", "highpass") else [f1, f2]
        want = ss.butter(order, wn, btype, fs=fs, output="sos")
        got = butter(sk, ffi, order, btype, f1, f2, fs)
        assert_sos_close(got, want)


def test_butter_bad_arguments_leave_output_untouched(sk, ffi, last_error):
    sos = np.full(60, 7.0)
    S = ffi.from_buffer("double[]", sos)
    cases = [
        (4, 0, 0.0, 0, 2.0, "f1 = 0"),
        (4, 0, 1.0, 0, 2.0, "f1 = 1"),
        (4, 0, -0.1, 0, 2.0, "f1 = -0.1"),
        (4, 0, float("nan"), 0, 2.0, "f1 = NaN"),
        (4, 2, 0.3, 0.2, 2.0, "f2 = 0.2 must be greater"),
        (4, 3, 0.3, 1.5, 2.0, "f2 = 1.5"),
        (4, 0, 0.3, 0, 0.0, "fs = 0"),
        (4, 0, 0.3, 0, float("inf"), "fs = inf"),
        (0, 0, 1.3, 0, 2.0, "f1 = 1.3"),
        (65, 0, 0.3, 0, 2.0, "order = 65"),
        (4, 9, 0.3, 0, 2.0, "band = 9"),
    ]
    for order, band, f1, f2, fs, text in cases:
        assert sk.sk_butter_sos(order, band, f1, f2, fs, S, ffi.NULL, 60) == SK_ERR_BAD_ARGUMENT, text
        assert text in last_error(), (text, last_error())
    assert sk.sk_butter_sos(8, 0, 0.3, 0, 2.0, S, ffi.NULL, 23) == SK_ERR_BUFFER_TOO_SMALL
    assert "24 doubles needed" in last_error()
    assert sk.sk_butter_sos(8, 0, 0.3, 0, 2.0, ffi.NULL, ffi.NULL, 24) == SK_ERR_NULL_POINTER
    assert np.all(sos == 7.0)
    assert sk.sk_butter_sections(5, 0) == 3 and sk.sk_butter_sections(5, 3) == 5
    assert sk.sk_butter_sections(5, 42) == 0


def rbj_reference(kind, fs, f0, q, gain_db):
    """The cookbook formulas, written out independently."""
    A = 10 ** (gain_db / 40)
    w0 = 2 * math.pi * f0 / fs
    c, s = math.cos(w0), math.sin(w0)
    al = s / (2 * q)
    sq = 2 * math.sqrt(A) * al
    if kind == "lowpass":
        b, a = [(1 - c) / 2, 1 - c, (1 - c) / 2], [1 + al, -2 * c, 1 - al]
    elif kind == "highpass":
        b, a = [(1 + c) / 2, -(1 + c), (1 + c) / 2], [1 + al, -2 * c, 1 - al]
    elif kind == "bandpass":
        b, a = [al, 0, -al], [1 + al, -2 * c, 1 - al]
    elif kind == "notch":
        b, a = [1, -2 * c, 1], [1 + al, -2 * c, 1 - al]
    elif kind == "allpass":
        b, a = [1 - al, -2 * c, 1 + al], [1 + al, -2 * c, 1 - al]
    elif kind == "peaking":
        b, a = [1 + al * A, -2 * c, 1 - al * A], [1 + al / A, -2 * c, 1 - al / A]
    elif kind == "lowshelf":
        b = [A * ((A + 1) - (A - 1) * c + sq), 2 * A * ((A - 1) - (A + 1) * c), A * ((A + 1) - (A - 1) * c - sq)]
        a = [(A + 1) + (A - 1) * c + sq, -2 * ((A - 1) + (A + 1) * c), (A + 1) + (A - 1) * c - sq]
    else:
        b = [A * ((A + 1) + (A - 1) * c + sq), -2 * A * ((A - 1) + (A + 1) * c), A * ((A + 1) + (A - 1) * c - sq)]
        a = [(A + 1) - (A - 1) * c + sq, 2 * ((A - 1) - (A + 1) * c), (A + 1) - (A - 1) * c - sq]
    return np.array(b + a) / a[0]


RBJ = ["lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "lowshelf", "highshelf"]


def rbj(sk, ffi, kind, fs, f0, q, g):
    out = np.zeros(6)
    assert sk.sk_rbj_biquad(RBJ.index(kind), fs, f0, q, g, ffi.from_buffer("double[]", out)) == SK_OK
    return out


def gain_at(sos, f, fs):
    _, h = ss.sosfreqz(sos.reshape(1, 6), worN=[f], fs=fs)
    return abs(h[0])


@pytest.mark.parametrize("kind", RBJ)
def test_rbj_matches_cookbook_and_responses(sk, ffi, kind):
    fs = 48000.0
    for f0, q, g in [(1000.0, 0.7071, 6.0), (100.0, 2.0, -12.0), (15000.0, 0.5, 3.0)]:
        got = rbj(sk, ffi, kind, fs, f0, q, g)
        assert np.abs(got - rbj_reference(kind, fs, f0, q, g)).max() <= 1e-14 * np.abs(got).max()
        assert got[3] == 1.0
        lin = 10 ** (g / 20)
        checks = {
            "lowpass": [(1e-9, 1.0), (f0, q)],
            "highpass": [(fs / 2, 1.0), (f0, q)],
            "bandpass": [(f0, 1.0)],
            "notch": [(f0, 0.0), (1e-9, 1.0)],
            "allpass": [(f, 1.0) for f in (10.0, f0, 20000.0)],
            "peaking": [(f0, lin), (1e-9, 1.0)],
            "lowshelf": [(1e-9, lin), (fs / 2, 1.0)],
            "highshelf": [(fs / 2, lin), (1e-9, 1.0)],
        }[kind]
        for f, want in checks:
            assert abs(gain_at(got, f, fs) - want) <= 1e-6 * max(1.0, want), (kind, f0, f)


def test_rbj_bad_arguments(sk, ffi, last_error):
    out = np.full(6, 7.0)
    O = ffi.from_buffer("double[]", out)
    for kind, fs, f0, q, g, text in [
        (0, 48000.0, 0.0, 1.0, 0.0, "f0 = 0"),
        (0, 48000.0, 24000.0, 1.0, 0.0, "f0 = 24000"),
        (0, 48000.0, 30000.0, 1.0, 0.0, "f0 = 30000"),
        (0, 48000.0, -5.0, 1.0, 0.0, "f0 = -5"),
        (5, 48000.0, 1000.0, 0.0, 3.0, "q = 0"),
        (5, 48000.0, 1000.0, -1.0, 3.0, "q = -1"),
        (5, 48000.0, 1000.0, float("nan"), 3.0, "q = NaN"),
        (5, 48000.0, 1000.0, 1.0, float("inf"), "gain_db = inf"),
        (5, -1.0, 1000.0, 1.0, 3.0, "fs = -1"),
        (8, 48000.0, 1000.0, 1.0, 3.0, "kind = 8"),
    ]:
        assert sk.sk_rbj_biquad(kind, fs, f0, q, g, O) == SK_ERR_BAD_ARGUMENT
        assert text in last_error(), (text, last_error())
    assert sk.sk_rbj_biquad(0, 48000.0, 1000.0, 1.0, 0.0, ffi.NULL) == SK_ERR_NULL_POINTER
    assert np.all(out == 7.0)


@pytest.mark.parametrize("window", sorted(WINDOWS))
@pytest.mark.parametrize("btype", sorted(BANDS))
def test_firwin_equals_scipy(sk, ffi, window, btype):
    fs = 48000.0
    for n in [1, 3, 4, 31, 64, 101, 255]:
        if btype in ("highpass", "bandstop") and n % 2 == 0:
            continue
        if btype in ("highpass", "bandstop", "bandpass") and n == 1:
            continue
        f1, f2 = 3000.0, 9000.0
        cutoff = f1 if btype in ("lowpass", "highpass") else [f1, f2]
        win = ("kaiser", 6.5) if window == "kaiser" else window
        want = ss.firwin(n, cutoff, window=win, pass_zero=btype, fs=fs)
        got = np.zeros(n)
        rc = sk.sk_firwin(BANDS[btype], WINDOWS[window], 6.5, f1, f2, fs, ffi.from_buffer("double[]", got), n)
        assert rc == SK_OK
        assert np.abs(got - want).max() <= 1e-13 * np.abs(want).max(), (n, btype, window)


def test_firwin_bad_arguments(sk, ffi, last_error):
    taps = np.full(8, 7.0)
    T = ffi.from_buffer("double[]", taps)
    assert sk.sk_firwin(1, sk.SK_WINDOW_HAMMING, 0.0, 0.2, 0.0, 2.0, T, 8) == SK_ERR_BAD_ARGUMENT
    assert "odd number of taps" in last_error()
    assert sk.sk_firwin(0, sk.SK_WINDOW_HAMMING, 0.0, 1.0, 0.0, 2.0, T, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin(0, sk.SK_WINDOW_HAMMING, 0.0, 0.0, 0.0, 2.0, T, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin(2, sk.SK_WINDOW_HAMMING, 0.0, 0.5, 0.4, 2.0, T, 7) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin(0, sk.SK_WINDOW_KAISER, float("nan"), 0.5, 0.0, 2.0, T, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin(0, sk.SK_WINDOW_TUKEY, 0.0, 0.5, 0.0, 2.0, T, 8) == SK_ERR_BAD_ARGUMENT
    assert sk.sk_firwin(0, sk.SK_WINDOW_HAMMING, 0.0, 0.5, 0.0, 2.0, T, 0) == SK_ERR_LENGTH
    assert sk.sk_firwin(0, sk.SK_WINDOW_HAMMING, 0.0, 0.5, 0.0, 2.0, ffi.NULL, 8) == SK_ERR_NULL_POINTER
    assert np.all(taps == 7.0)


def test_designed_filters_run_in_the_cascade(sk, ffi):
    """Butterworth sections from sk_butter_sos run through sk_sosfilt_f64 equal scipy's chain."""
    sos = butter(sk, ffi, 8, "lowpass", 2000.0, 0.0, 48000.0)
    x = np.random.default_rng(0).standard_normal(10_000)
    y = np.empty_like(x)
    rc = sk.sk_sosfilt_f64(ffi.from_buffer("double[]", sos), ffi.from_buffer("double[]", x), 0, ffi.NULL, 1,
                           ffi.from_buffer("double[]", y), 0, ffi.NULL, 4, len(x))
    assert rc == SK_OK
    want = ss.sosfilt(ss.butter(8, 2000.0, fs=48000.0, output="sos"), x)
    assert np.abs(y - want).max() <= 1e-10 * np.abs(want).max()


def test_butter_symmetric_band_same_filter(sk, ffi):
    """A band symmetric about fs/4 has mirrored poles exactly as far from the unit circle; the
    pairing tie is then broken by last-bit rounding and the section order may differ from
    scipy's, but the cascade is the same filter."""
    got = butter(sk, ffi, 4, "bandpass", 0.001, 0.499, 1.0)
    want = ss.butter(4, [0.001, 0.499], "bandpass", fs=1.0, output="sos")
    _, hg = ss.sosfreqz(got, worN=4096)
    _, hw = ss.sosfreqz(want, worN=4096)
    assert np.abs(hg - hw).max() <= 1e-9 * np.abs(hw).max()


def test_iir_zpk_sos_and_zpk2sos(sk, ffi):
    fb = lambda a: ffi.from_buffer("double[]", a)  # noqa: E731
    cap = sk.sk_iir_roots(5, BANDS["bandstop"])
    assert cap == 10 and sk.sk_iir_roots(65, 0) == 65 and sk.sk_iir_roots(84, 2) == 168
    assert sk.sk_iir_roots(85, 0) == 0 and sk.sk_iir_roots(3, 9) == 0
    z, p = np.zeros(cap, complex), np.zeros(cap, complex)
    nz, np_, k = ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("double *")
    assert sk.sk_iir_zpk(sk.SK_IIR_CHEBY2, 5, 40.0, BANDS["bandstop"], 0.2, 0.5, 0, fb(z.view(float)),
                         fb(p.view(float)), cap, nz, np_, k) == SK_OK
    zr, pr, kr = ss.cheby2(5, 40.0, [0.2, 0.5], "bandstop", output="zpk")
    assert (nz[0], np_[0]) == (zr.size, pr.size)
    np.testing.assert_allclose(np.sort_complex(z[:nz[0]]), np.sort_complex(zr), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.sort_complex(p[:np_[0]]), np.sort_complex(pr), rtol=1e-12, atol=1e-14)
    assert k[0] == pytest.approx(kr, rel=1e-12)
    sos = np.full((5, 6), 7.0)
    cnt = ffi.new("size_t *")
    assert sk.sk_iir_sos(sk.SK_IIR_CHEBY1, 5, 1.0, BANDS["bandstop"], 0.2, 0.5, 0, fb(sos), cnt,
                         sos.size) == SK_OK
    assert_sos_close(sos[:cnt[0]], ss.cheby1(5, 1.0, [0.2, 0.5], "bandstop", output="sos"))
    out = np.full(6 * 4, 7.0)
    assert sk.sk_zpk2sos(fb(zr.view(float)), zr.size, fb(pr.view(float)), pr.size, kr, sk.SK_PAIRING_NEAREST,
                         0, fb(out), cnt, out.size) == SK_ERR_BUFFER_TOO_SMALL
    assert (out == 7.0).all()
    out = np.zeros(6 * 5)
    assert sk.sk_zpk2sos(fb(zr.view(float)), zr.size, fb(pr.view(float)), pr.size, kr, sk.SK_PAIRING_NEAREST,
                         0, fb(out), cnt, out.size) == SK_OK
    assert_sos_close(out.reshape(5, 6), ss.zpk2sos(zr, pr, kr))
    # errors: nothing written
    sos[:] = 7.0
    for call in (
        lambda: sk.sk_iir_sos(7, 5, 1.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),  # unknown kind
        lambda: sk.sk_iir_sos(sk.SK_IIR_CHEBY1, 5, -1.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iir_sos(sk.SK_IIR_BUTTER, 5, 0.0, 0, 1.0, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iir_sos(sk.SK_IIR_BUTTER, 5, 0.0, 2, 0.3, 0.2, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iir_sos(sk.SK_IIR_BUTTER, 5, 0.0, 0, 0.2, 0.0, 2, fb(sos), cnt, sos.size),
        lambda: sk.sk_zpk2sos(fb(np.array([0.0, 1.0])), 1, fb(np.array([0.5, 0.0])), 1, 1.0, 0, 0, fb(sos), cnt,
                              sos.size),  # a complex zero without its conjugate
        lambda: sk.sk_zpk2sos(ffi.NULL, 0, fb(np.array([0.5, 0.0])), 1, 1.0, 0, 1, fb(sos), cnt, sos.size),
        lambda: sk.sk_zpk2sos(ffi.NULL, 0, fb(np.array([0.5, 0.0])), 1, 1.0, 3, 0, fb(sos), cnt, sos.size),
    ):
        assert call() == SK_ERR_BAD_ARGUMENT
        assert (sos == 7.0).all()
    assert sk.sk_iir_zpk(sk.SK_IIR_BUTTER, 5, 0.0, 0, 0.2, 0.0, 0, fb(z.view(float)), fb(p.view(float)), 2,
                         nz, np_, k) == SK_ERR_BUFFER_TOO_SMALL
    assert sk.sk_iir_zpk(sk.SK_IIR_BUTTER, 5, 0.0, 0, 0.2, 0.0, 0, ffi.NULL, fb(p.view(float)), 5,
                         nz, np_, k) == SK_ERR_NULL_POINTER


def test_iirfilter_zpk_sos_every_prototype(sk, ffi):
    """sk_iirfilter_zpk/sos: the elliptic and Bessel prototypes (and the others through the same
    entry) against scipy; errors write nothing."""
    fb = lambda a: ffi.from_buffer("double[]", a)  # noqa: E731
    nz, np_, k = ffi.new("size_t *"), ffi.new("size_t *"), ffi.new("double *")
    cnt = ffi.new("size_t *")
    cases = [
        (sk.SK_IIR_ELLIP, lambda: ss.ellip(5, 0.5, 60.0, [0.2, 0.5], "bandstop", output="zpk"),
         lambda: ss.ellip(5, 0.5, 60.0, [0.2, 0.5], "bandstop", output="sos"), 0),
        (sk.SK_IIR_BESSEL_PHASE, lambda: ss.bessel(5, [0.2, 0.5], "bandstop", output="zpk"),
         lambda: ss.bessel(5, [0.2, 0.5], "bandstop", output="sos"), 0),
        (sk.SK_IIR_BESSEL_DELAY, lambda: ss.bessel(5, [0.2, 0.5], "bandstop", analog=True, norm="delay",
                                                   output="zpk"),
         lambda: ss.bessel(5, [0.2, 0.5], "bandstop", analog=True, norm="delay", output="sos"), 1),
        (sk.SK_IIR_BESSEL_MAG, lambda: ss.bessel(5, [0.2, 0.5], "bandstop", norm="mag", output="zpk"),
         lambda: ss.bessel(5, [0.2, 0.5], "bandstop", norm="mag", output="sos"), 0),
        (sk.SK_IIR_CHEBY2, lambda: ss.cheby2(5, 60.0, [0.2, 0.5], "bandstop", output="zpk"),
         lambda: ss.cheby2(5, 60.0, [0.2, 0.5], "bandstop", output="sos"), 0),
    ]
    for kind, zpk, sos_ref, analog in cases:
        z, p = np.zeros(10, complex), np.zeros(10, complex)
        assert sk.sk_iirfilter_zpk(kind, 5, 0.5, 60.0, BANDS["bandstop"], 0.2, 0.5, analog, fb(z.view(float)),
                                   fb(p.view(float)), 10, nz, np_, k) == SK_OK
        zr, pr, kr = zpk()
        np.testing.assert_allclose(z[:nz[0]], zr, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(p[:np_[0]], pr, rtol=1e-12, atol=1e-14)
        assert k[0] == pytest.approx(kr, rel=1e-12)
        sos = np.zeros((5, 6))
        assert sk.sk_iirfilter_sos(kind, 5, 0.5, 60.0, BANDS["bandstop"], 0.2, 0.5, analog, fb(sos), cnt,
                                   sos.size) == SK_OK
        assert_sos_close(sos[:cnt[0]], sos_ref())
    sos = np.full((5, 6), 7.0)
    for call in (
        lambda: sk.sk_iirfilter_sos(7, 5, 1.0, 40.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),  # unknown kind
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 5, -1.0, 40.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 5, 1.0, 0.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 5, 1.0, 1e4, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 5, 1.0, float("nan"), 0, 0.2, 0.0, 0, fb(sos), cnt,
                                    sos.size),
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_BESSEL_MAG, 85, 0.0, 0.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
        lambda: sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 65, 1.0, 40.0, 0, 0.2, 0.0, 0, fb(sos), cnt, sos.size),
    ):
        assert call() == SK_ERR_BAD_ARGUMENT
        assert (sos == 7.0).all()
    big = np.zeros((43, 6))  # Bessel designs go to order 84, the others to 64
    assert sk.sk_iirfilter_sos(sk.SK_IIR_BESSEL_MAG, 84, 0.0, 0.0, 0, 0.2, 0.0, 0, fb(big), cnt,
                               big.size) == SK_OK and cnt[0] == 42
    assert_sos_close(big[:42], ss.bessel(84, 0.2, norm="mag", output="sos"))
    assert sk.sk_iirfilter_sos(sk.SK_IIR_ELLIP, 5, 1.0, 40.0, 0, 0.2, 0.0, 0, fb(sos), cnt,
                               12) == SK_ERR_BUFFER_TOO_SMALL
    assert (sos == 7.0).all()
