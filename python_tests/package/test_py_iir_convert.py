"""The representation conversions (zpk2tf, tf2zpk, tf2sos, sos2tf, sos2zpk, bilinear,
bilinear_zpk) and the order selections (buttord, cheb1ord, cheb2ord, ellipord) against
scipy.signal: equal bit for bit on random filters and specifications (the same numpy/math
operations), scipy's warnings and errors."""

import warnings

import numpy as np
import pytest

ss = pytest.importorskip("scipy.signal")

import sigkern  # noqa: E402


def _close_sos(got, want, what):
    assert got.shape == want.shape, what
    for g, w in zip(got, want):
        for part in (slice(0, 3), slice(3, 6)):
            scale = np.abs(w[part]).max()
            assert np.abs(g[part] - w[part]).max() <= 1e-11 * scale, (what, g, w)


def test_conversions_equal_scipy():
    rng = np.random.default_rng(11)
    for order in range(1, 13):
        z, p, k = ss.ellip(order, 1.0, 50.0, 0.3, output="zpk")
        b, a = ss.zpk2tf(z, p, k)
        for g, w in zip(sigkern.zpk2tf(z, p, k), (b, a)):
            np.testing.assert_array_equal(g, w)
        for g, w in zip(sigkern.tf2zpk(b, a), ss.tf2zpk(b, a)):
            np.testing.assert_array_equal(g, w)
        sos = ss.zpk2sos(z, p, k)
        for g, w in zip(sigkern.sos2zpk(sos), ss.sos2zpk(sos)):
            np.testing.assert_array_equal(g, w)
        for g, w in zip(sigkern.sos2tf(sos), ss.sos2tf(sos)):
            np.testing.assert_array_equal(g, w)
        _close_sos(sigkern.tf2sos(b, a), ss.tf2sos(b, a), "tf2sos")
        za, pa, ka = ss.cheby1(order, 1.0, float(rng.uniform(0.5, 5.0)), analog=True, output="zpk")
        fs = float(rng.uniform(1.0, 100.0))
        for g, w in zip(sigkern.bilinear_zpk(za, pa, ka, fs), ss.bilinear_zpk(za, pa, ka, fs)):
            np.testing.assert_array_equal(g, w)
        ba, aa = ss.zpk2tf(za, pa, ka)
        for g, w in zip(sigkern.bilinear(ba, aa, fs), ss.bilinear(ba, aa, fs)):
            np.testing.assert_array_equal(g, w)
    # 2-D zeros, integer input, leading-zero numerators (scipy's warning)
    zz, kk = np.array([[1, 2], [3, 4]]), np.array([1, 2])
    for g, w in zip(sigkern.zpk2tf(zz, [5, 6], kk), ss.zpk2tf(zz, [5, 6], kk)):
        np.testing.assert_array_equal(g, w)
        assert g.dtype == w.dtype
    with pytest.warns(sigkern.BadCoefficients, match="Badly conditioned"):
        got = sigkern.tf2zpk([0.0, 1e-15, 1.0], [1.0, 0.5])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ss.tf2zpk([0.0, 1e-15, 1.0], [1.0, 0.5])
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    with pytest.raises(ValueError, match="Improper transfer function"):
        sigkern.bilinear_zpk([1.0, 2.0], [3.0], 1.0, 10.0)
    with pytest.raises(ValueError, match="shape"):
        sigkern.sos2tf(np.ones((2, 5)))


def test_order_selection_equal_scipy():
    rng = np.random.default_rng(5)
    specs = []
    for _ in range(6):
        a, b, c, d = np.sort(rng.uniform(0.05, 0.9, 4))
        gp = float(rng.uniform(0.1, 3.0))
        gs = float(rng.uniform(20.0, 80.0))
        specs += [(a, b, gp, gs), (b, a, gp, gs), ([b, c], [a, d], gp, gs), ([a, d], [b, c], gp, gs)]
    for name in ("buttord", "cheb1ord", "cheb2ord", "ellipord"):
        for wp, ws, gp, gs in specs:
            for kwargs in ({}, {"analog": True}, {"fs": 3.0}):
                sc = 10.0 if kwargs.get("analog") else 1.0
                wpv, wsv = np.multiply(wp, sc), np.multiply(ws, sc)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", RuntimeWarning)
                    got = getattr(sigkern, name)(wpv, wsv, gp, gs, **kwargs)
                    want = getattr(ss, name)(wpv, wsv, gp, gs, **kwargs)
                assert got[0] == want[0], (name, wp, ws, gp, gs, kwargs)
                np.testing.assert_array_equal(got[1], want[1])
    with pytest.raises(ValueError, match="gpass should be smaller than gstop"):
        sigkern.ellipord(0.2, 0.3, 50.0, 40.0)
    with pytest.raises(ValueError, match="fs cannot be specified"):
        sigkern.buttord(0.2, 0.3, 3.0, 40.0, analog=True, fs=2.0)
