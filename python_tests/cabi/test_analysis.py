"""The analysis C functions through CFFI: sk_spectral_est_*, sk_hilbert_*, the peak scans,
sk_find_peaks_f64, sk_medfilt*_*, sk_correlate_ext_*, sk_detrend_*, sk_freqz, sk_freqz_sos, sk_group_delay against
scipy/numpy float64 references, float32 within float rounding,
and their argument errors (status, message, output untouched)."""

import numpy as np
import pytest
import scipy.ndimage as nd
import scipy.signal as ss

RNG = np.random.default_rng(5050)


def p(ffi, a):
    c = {np.float64: "double[]", np.float32: "float[]", np.uintp: "size_t[]", np.uint8: "uint8_t[]"}
    return ffi.from_buffer(c[a.dtype.type], a)


def msg(ffi, sk):
    buf = ffi.new("char[512]")
    sk.sk_last_error_message(buf, 512)
    return ffi.string(buf).decode()


@pytest.mark.parametrize("dt, tol", [(np.float64, 1e-12), (np.float32, 2e-5)])
@pytest.mark.parametrize("avg", [1, 2])
def test_spectral_est_welch(sk, ffi, dt, tol, avg):
    x = RNG.standard_normal((3, 700))
    win = ss.get_window("hann", 64)
    scale = 1.0 / (win * win).sum()
    out = np.full(3 * 33 + 2, np.nan, dt)
    fn = sk.sk_spectral_est_f64 if dt == np.float64 else sk.sk_spectral_est_f32
    xd, wd = x.astype(dt), win.astype(dt)
    st = fn(p(ffi, xd), ffi.NULL, p(ffi, wd), 64, 32, 64, sk.SK_DETREND_CONSTANT, 1, scale, avg,
            sk.SK_SPECTRUM_POWER, p(ffi, out), 3, 700, out.size)
    assert st == sk.SK_OK
    assert np.isnan(out[-2:]).all()
    want = ss.welch(x, window=win, nperseg=64, average="mean" if avg == 1 else "median")[1]
    got = out[:-2].reshape(3, 33)
    assert np.max(np.abs(got - want)) <= tol * np.max(want)


def test_spectral_est_cross_and_spectrogram(sk, ffi):
    x, y = RNG.standard_normal((2, 500))
    win = np.ones(50)
    out = np.zeros(2 * 26, np.float64)
    assert sk.sk_spectral_est_f64(p(ffi, x), p(ffi, y), p(ffi, win), 50, 10, 50, sk.SK_DETREND_LINEAR, 1,
                                  0.02, sk.SK_AVERAGE_MEAN, sk.SK_SPECTRUM_CROSS, p(ffi, out), 1, 500,
                                  out.size) == sk.SK_OK
    want = ss.csd(x, y, window=win, noverlap=10, detrend="linear", fs=1.0)[1]
    assert np.max(np.abs(out.view(np.complex128) - want)) <= 1e-12 * np.max(np.abs(want))
    segs = (500 - 50) // 40 + 1
    sp = np.zeros(26 * segs)
    assert sk.sk_spectral_est_f64(p(ffi, x), ffi.NULL, p(ffi, win), 50, 10, 50, sk.SK_DETREND_NONE, 1,
                                  0.02, sk.SK_AVERAGE_NONE, sk.SK_SPECTRUM_POWER, p(ffi, sp), 1, 500,
                                  sp.size) == sk.SK_OK
    want = ss.spectrogram(x, window=win, noverlap=10, detrend=False)[2]
    assert np.max(np.abs(sp.reshape(26, segs) - want)) <= 1e-12 * np.max(want)


def test_spectral_est_errors_leave_output(sk, ffi):
    x = RNG.standard_normal(100)
    w = np.ones(16)
    out = np.full(9, 7.0)

    def call(**kw):
        a = dict(nperseg=16, noverlap=8, nfft=16, detrend=1, average=1, output=0, cap=out.size, y=ffi.NULL)
        a.update(kw)
        return sk.sk_spectral_est_f64(p(ffi, x), a["y"], p(ffi, w), a["nperseg"], a["noverlap"], a["nfft"],
                                      a["detrend"], 1, 1.0, a["average"], a["output"], p(ffi, out), 1,
                                      100, a["cap"])

    assert call() == sk.SK_OK
    out[:] = 7.0
    for kw, code in [({"noverlap": 16}, sk.SK_ERR_BAD_ARGUMENT), ({"nfft": 8}, sk.SK_ERR_BAD_ARGUMENT),
                     ({"detrend": 3}, sk.SK_ERR_BAD_ARGUMENT), ({"average": 3}, sk.SK_ERR_BAD_ARGUMENT),
                     ({"output": 1}, sk.SK_ERR_NULL_POINTER), ({"cap": 8}, sk.SK_ERR_BUFFER_TOO_SMALL),
                     ({"nfft": 1 << 30}, sk.SK_ERR_LENGTH), ({"nperseg": 0}, sk.SK_ERR_BAD_ARGUMENT)]:
        assert call(**kw) == code, kw
        assert msg(ffi, sk).startswith("sk_spectral_est_f64")
        assert (out == 7.0).all()
    assert "9 are needed" in (call(cap=8), msg(ffi, sk))[1]


@pytest.mark.parametrize("n, N", [(1, 1), (8, 8), (9, 9), (100, 64), (100, 131)])
def test_hilbert(sk, ffi, n, N):
    x = RNG.standard_normal((2, n))
    z = np.zeros(2 * N, np.complex128)
    assert sk.sk_hilbert_f64(p(ffi, x), N, p(ffi, z.view(np.float64)), 2, n, z.size) == sk.SK_OK
    want = ss.hilbert(x, N=N)
    assert np.max(np.abs(z.reshape(2, N) - want)) <= 1e-13 * max(1.0, np.max(np.abs(want)))
    z32 = np.zeros(2 * N, np.complex64)
    assert sk.sk_hilbert_f32(p(ffi, x.astype(np.float32)), N, p(ffi, z32.view(np.float32)), 2, n,
                             z32.size) == sk.SK_OK
    assert np.max(np.abs(z32.reshape(2, N) - want)) <= 2e-5 * max(1.0, np.max(np.abs(want)))
    assert sk.sk_hilbert_f64(p(ffi, x), 0, p(ffi, z.view(np.float64)), 2, n, z.size) == sk.SK_ERR_LENGTH
    assert sk.sk_hilbert_f64(p(ffi, x), N, p(ffi, z.view(np.float64)), 2, n,
                             z.size - 1) == sk.SK_ERR_BUFFER_TOO_SMALL


def test_peak_scans(sk, ffi):
    x = np.array([0.0, 1.0, 1.0, 0.0, 2.0, 2.0, 2.0, 3.0, 1.0, 5.0, 4.0, 4.5, 0.0])
    cap = x.size // 2
    mid, left, right = (np.zeros(cap, np.uintp) for _ in range(3))
    cnt = ffi.new("size_t *")
    assert sk.sk_local_maxima_f64(p(ffi, x), p(ffi, mid), p(ffi, left), p(ffi, right), cnt, x.size,
                                  cap) == sk.SK_OK
    assert cnt[0] == 4 and list(mid[:4]) == [1, 7, 9, 11] and list(right[:4]) == [2, 7, 9, 11]
    assert sk.sk_local_maxima_f64(p(ffi, x), p(ffi, mid), p(ffi, left), p(ffi, right), cnt, x.size,
                                  cap - 1) == sk.SK_ERR_BUFFER_TOO_SMALL
    pk = mid[:4].copy()
    prom, lb, rb = np.zeros(4), np.zeros(4, np.uintp), np.zeros(4, np.uintp)
    z = ffi.new("size_t *")
    assert sk.sk_peak_prominences_f64(p(ffi, x), p(ffi, pk), 0, p(ffi, prom), p(ffi, lb), p(ffi, rb), z,
                                      x.size, 4) == sk.SK_OK
    want = ss.peak_prominences(x, pk.astype(np.intp))
    assert np.array_equal(prom, want[0]) and np.array_equal(lb, want[1]) and np.array_equal(rb, want[2])
    outs = [np.zeros(4) for _ in range(4)]
    assert sk.sk_peak_widths_f64(p(ffi, x), p(ffi, pk), 0.5, p(ffi, prom), p(ffi, lb), p(ffi, rb),
                                 *(p(ffi, o) for o in outs), z, x.size, 4) == sk.SK_OK
    for got, w in zip(outs, ss.peak_widths(x, pk.astype(np.intp))):
        assert np.array_equal(got, w)
    bad = np.array([13], np.uintp)
    assert sk.sk_peak_prominences_f64(p(ffi, x), p(ffi, bad), 0, p(ffi, prom), p(ffi, lb), p(ffi, rb), z,
                                      x.size, 1) == sk.SK_ERR_BAD_ARGUMENT
    assert "not a valid index" in msg(ffi, sk)
    keep = np.zeros(4, np.uint8)
    order = np.argsort(x[pk.astype(np.intp)]).astype(np.uintp)
    assert sk.sk_peak_distance_select(p(ffi, pk), p(ffi, order), 3.0, p(ffi, keep), 4) == sk.SK_OK
    assert list(keep) == [1, 0, 1, 0]
    assert sk.sk_peak_distance_select(p(ffi, pk), p(ffi, order), float("nan"), p(ffi, keep),
                                      4) == sk.SK_ERR_BAD_ARGUMENT


def test_find_peaks_fused(sk, ffi):
    """sk_find_peaks_f64 (prominence ≥ 1 and width ≤ 3: bits 3, 4, 8, 14) against scipy, and its
    argument errors leaving every output untouched."""
    x = np.round(RNG.standard_normal(301) * 3) / 3
    cap = x.size // 2
    bounds = np.zeros(10)
    bounds[6], bounds[9] = 1.0, 3.0
    u = [np.full(cap, 7, np.uintp) for _ in range(6)]
    d = [np.full(cap, 7.0) for _ in range(8)]
    counts = np.zeros(3, np.uintp)

    def call(conds, capacity=cap, rel=0.5, outs=None):
        pk, ps, le, re_, lb, rb = (p(ffi, a) for a in u)
        h, lt, rt, pr, w, wh, li, ri = (p(ffi, a) for a in d)
        args = [pk, ps, le, re_, h, lt, rt, pr, lb, rb, w, wh, li, ri]
        if outs:
            args = [outs.get(i, a) for i, a in enumerate(args)]
        return sk.sk_find_peaks_f64(p(ffi, x), x.size, conds, p(ffi, bounds), 0, rel, *args,
                                    p(ffi, counts), capacity)

    conds = (1 << 3) | (1 << 4) | (1 << 8) | (1 << 14)
    for bad, code, text in [(1 << 15, "SK_ERR_BAD_ARGUMENT", "bits above"),
                            (1 << 5, "SK_ERR_BAD_ARGUMENT", "does not give"),
                            (conds, "SK_ERR_BUFFER_TOO_SMALL", "can hold")]:
        assert call(bad, capacity=cap - 1 if code.endswith("SMALL") else cap) == getattr(sk, code)
        assert text in msg(ffi, sk)
    assert call(conds, rel=-1.0) == sk.SK_ERR_BAD_ARGUMENT and "rel_height" in msg(ffi, sk)
    assert call(conds, outs={13: ffi.NULL}) == sk.SK_ERR_NULL_POINTER
    assert call(conds, outs={13: p(ffi, x)}) == sk.SK_ERR_OVERLAP
    assert all((a == 7).all() for a in u + d) and not counts.any()
    # the outputs of conditions not given are not touched, and may be NULL
    assert call(conds, outs={1: ffi.NULL, 4: ffi.NULL}) == sk.SK_OK
    c = int(counts[0])
    want, props = ss.find_peaks(x, prominence=1.0, width=(None, 3.0))
    assert np.array_equal(u[0][:c], want)
    for arr, key in [(d[3], "prominences"), (u[4], "left_bases"), (u[5], "right_bases"),
                     (d[4], "widths"), (d[5], "width_heights"), (d[6], "left_ips"),
                     (d[7], "right_ips")]:
        assert np.array_equal(arr[:c], props[key]), key
    assert (u[1] == 7).all() and (d[0] == 7).all() and (d[1] == 7).all()


def test_relextrema(sk, ffi):
    x = RNG.standard_normal((3, 40))
    for greater, cmp in ((1, np.greater), (0, np.less)):
        for wrap, mode in ((0, "clip"), (1, "wrap")):
            m = np.zeros(x.shape, np.uint8)
            assert sk.sk_relextrema_f64(p(ffi, x), 2, greater, wrap, p(ffi, m), 3, 40) == sk.SK_OK
            want = np.zeros(x.shape, np.uint8)
            want[ss.argrelextrema(x, cmp, axis=1, order=2, mode=mode)] = 1
            assert np.array_equal(m, want)
    assert sk.sk_relextrema_f64(p(ffi, x), 0, 1, 0, p(ffi, m), 3, 40) == sk.SK_ERR_BAD_ARGUMENT


@pytest.mark.parametrize("k", [1, 3, 5, 7, 31])
@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_medfilt_bit_exact(sk, ffi, k, dt):
    x = RNG.standard_normal((2, 301)).astype(dt)
    x[0, 5:40] = 0.25  # ties and plateaus
    y = np.zeros_like(x)
    fn = sk.sk_medfilt_f64 if dt == np.float64 else sk.sk_medfilt_f32
    assert fn(p(ffi, x), k, p(ffi, y), 2, 301) == sk.SK_OK
    assert np.array_equal(y, ss.medfilt(x, (1, k)))
    assert fn(p(ffi, x), k, p(ffi, x), 2, 301) == sk.SK_OK  # in place
    assert np.array_equal(x, y)
    assert fn(p(ffi, x), 4, p(ffi, y), 2, 301) == sk.SK_ERR_BAD_ARGUMENT
    img = RNG.standard_normal((9, 12))
    out = np.zeros_like(img)
    assert sk.sk_medfilt2d_f64(p(ffi, img), 3, 5, p(ffi, out), 9, 12) == sk.SK_OK
    assert np.array_equal(out, ss.medfilt2d(img, (3, 5)))


@pytest.mark.parametrize("mode, code", [("mirror", 0), ("reflect", 1), ("nearest", 2), ("wrap", 3),
                                        ("constant", 4)])
@pytest.mark.parametrize("m", [1, 4, 7, 31])
def test_correlate_ext_is_ndimage(sk, ffi, mode, code, m):
    x = RNG.standard_normal((2, 20))
    w = RNG.standard_normal(m)
    y = np.zeros_like(x)
    left = m // 2
    assert sk.sk_correlate_ext_f64(p(ffi, x), p(ffi, w), m, left, code, 0.5, p(ffi, y), 2, 20) == sk.SK_OK
    want = nd.correlate1d(x, w, axis=-1, mode=mode, cval=0.5)
    assert np.max(np.abs(y - want)) <= 1e-13 * np.abs(w).sum() * np.abs(x).max()
    assert sk.sk_correlate_ext_f64(p(ffi, x), p(ffi, w), m, m, code, 0.5, p(ffi, y), 2,
                                   20) == sk.SK_ERR_BAD_ARGUMENT


def test_detrend(sk, ffi):
    x = RNG.standard_normal((2, 50))
    y = np.zeros_like(x)
    bp = np.array([10, 31], np.uintp)
    assert sk.sk_detrend_f64(p(ffi, x), 1, p(ffi, bp), 2, p(ffi, y), 2, 50) == sk.SK_OK
    assert np.max(np.abs(y - ss.detrend(x, bp=[10, 31]))) < 1e-13
    assert sk.sk_detrend_f64(p(ffi, x), 0, ffi.NULL, 0, p(ffi, y), 2, 50) == sk.SK_OK
    assert np.max(np.abs(y - ss.detrend(x, type="constant"))) < 1e-13
    bad = np.array([31, 10], np.uintp)
    y[:] = 3.0
    assert sk.sk_detrend_f64(p(ffi, x), 1, p(ffi, bad), 2, p(ffi, y), 2, 50) == sk.SK_ERR_BAD_ARGUMENT
    assert (y == 3.0).all()


def _c(a):
    return np.ascontiguousarray(a, np.complex128).view(np.float64)


def test_freqz_against_scipy(sk, ffi):
    b, a = ss.cheby1(6, 1.0, 0.3)
    w = np.concatenate([np.linspace(0, np.pi, 37), [-2.0, 7.0, 0.3]])
    h = np.full(2 * w.size, np.nan)
    assert sk.sk_freqz(p(ffi, _c(b)), b.size, 0, p(ffi, _c(a)), a.size, 0, p(ffi, w), w.size,
                       p(ffi, h)) == sk.SK_OK
    want = ss.freqz(b, a, worN=w)[1]
    assert np.max(np.abs(h.view(np.complex128) - want)) <= 1e-13 * np.max(np.abs(want))
    # a different complex filter per frequency (stride = the coefficient count)
    bs = RNG.standard_normal((w.size, 3)) + 1j * RNG.standard_normal((w.size, 3))
    as_ = np.column_stack([np.ones(w.size), 0.5 * RNG.standard_normal((w.size, 2))])
    assert sk.sk_freqz(p(ffi, _c(bs)), 3, 3, p(ffi, _c(as_)), 3, 3, p(ffi, w), w.size, p(ffi, h)) == sk.SK_OK
    want = np.array([ss.freqz(bs[i], as_[i], worN=w[i:i + 1])[1][0] for i in range(w.size)])
    np.testing.assert_allclose(h.view(np.complex128), want, rtol=1e-13, atol=0)
    # a zero of A on the unit circle: numpy's x/0
    assert sk.sk_freqz(p(ffi, _c([1.0])), 1, 0, p(ffi, _c([1.0, -1.0])), 2, 0, p(ffi, np.zeros(1)), 1,
                       p(ffi, h)) == sk.SK_OK
    assert np.isinf(h[0])


def test_freqz_sos_against_scipy(sk, ffi):
    sos = ss.ellip(9, 0.5, 70, [0.2, 0.45], "bandpass", output="sos")
    w = np.linspace(0, np.pi, 513)
    h = np.empty(2 * w.size)
    assert sk.sk_freqz_sos(p(ffi, np.ascontiguousarray(sos)), sos.shape[0], p(ffi, w), w.size,
                           p(ffi, h)) == sk.SK_OK
    want = ss.freqz_sos(sos, worN=w)[1]
    err = np.abs(h.view(np.complex128) - want)
    assert np.all(err <= 1e-12 * np.abs(want) + 1e-15 * np.max(np.abs(want)))


def test_group_delay_against_scipy(sk, ffi):
    b, a = ss.butter(5, [0.2, 0.3], "bandpass")
    w = np.linspace(0.5, 2.6, 101)  # away from the zeros at z = ±1 (ill-conditioned near them)
    gd, den = np.empty(w.size), np.empty(w.size)
    assert sk.sk_group_delay(p(ffi, _c(b)), b.size, p(ffi, _c(a)), a.size, p(ffi, w), w.size, p(ffi, gd),
                             p(ffi, den)) == sk.SK_OK
    want = ss.group_delay((b, a), w)[1]
    assert np.max(np.abs(gd - want)) <= 1e-10 * np.max(np.abs(want))
    assert (den > 0).all()
    # NULL den_abs is allowed
    assert sk.sk_group_delay(p(ffi, _c(b)), b.size, p(ffi, _c(a)), a.size, p(ffi, w), w.size, p(ffi, gd),
                             ffi.NULL) == sk.SK_OK


def test_freqz_errors_leave_output(sk, ffi):
    b = _c([1.0, 0.5])
    w = np.linspace(0, 1, 4)
    h = np.full(8, 7.0)
    gd = np.full(4, 7.0)
    sos = np.array([1.0, 0, 0, 1, 0, 0])
    cases = [
        (lambda: sk.sk_freqz(p(ffi, b), 0, 0, p(ffi, b), 2, 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_LENGTH, "sk_freqz"),
        (lambda: sk.sk_freqz(p(ffi, b), 2, 0, p(ffi, b), 0, 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_LENGTH, "sk_freqz"),
        (lambda: sk.sk_freqz(ffi.NULL, 2, 0, p(ffi, b), 2, 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_NULL_POINTER,
         "sk_freqz"),
        (lambda: sk.sk_freqz(p(ffi, b), 2, 1 << 62, p(ffi, b), 2, 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_LENGTH,
         "sk_freqz"),
        (lambda: sk.sk_freqz(p(ffi, h), 2, 0, p(ffi, b), 2, 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_OVERLAP,
         "sk_freqz"),
        (lambda: sk.sk_freqz_sos(p(ffi, sos), 0, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_LENGTH, "sk_freqz_sos"),
        (lambda: sk.sk_freqz_sos(p(ffi, sos), 1, p(ffi, w), 4, ffi.NULL), sk.SK_ERR_NULL_POINTER, "sk_freqz_sos"),
        (lambda: sk.sk_freqz_sos(p(ffi, h[:6]), 1, p(ffi, w), 4, p(ffi, h)), sk.SK_ERR_OVERLAP, "sk_freqz_sos"),
        (lambda: sk.sk_group_delay(p(ffi, b), 2, p(ffi, b), 0, p(ffi, w), 4, p(ffi, gd), ffi.NULL),
         sk.SK_ERR_LENGTH, "sk_group_delay"),
        (lambda: sk.sk_group_delay(p(ffi, b), 2, p(ffi, b), 2, p(ffi, w), 4, p(ffi, w), ffi.NULL),
         sk.SK_ERR_OVERLAP, "sk_group_delay"),
        (lambda: sk.sk_group_delay(p(ffi, b), 2, p(ffi, b), 2, p(ffi, w), 4, p(ffi, gd), p(ffi, gd)),
         sk.SK_ERR_OVERLAP, "sk_group_delay"),
    ]
    for call, code, name in cases:
        assert call() == code, name
        assert msg(ffi, sk).startswith(name)
        assert (h == 7.0).all() and (gd == 7.0).all()
    # n = 0 reads nothing
    assert sk.sk_freqz(ffi.NULL, 2, 0, ffi.NULL, 2, 0, ffi.NULL, 0, ffi.NULL) == sk.SK_OK
