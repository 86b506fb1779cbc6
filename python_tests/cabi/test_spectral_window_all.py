"""Every window scipy.signal.get_window accepts, through sk_window_params_* (and the one-parameter
ones through sk_window_*), against scipy in float64: closed forms within 1e-12 absolute (windows
peak at 1), chebwin and dpss within 1e-10 (different DFT / eigensolver algorithms than scipy's)."""

import numpy as np
import pytest
import scipy.signal as ss

from sk_header import SK_OK, SK_ERR_BAD_ARGUMENT

KIND = {
    "boxcar": 0, "hann": 1, "hamming": 2, "blackman": 3, "blackmanharris": 4, "flattop": 5,
    "kaiser": 6, "tukey": 7, "barthann": 8, "bartlett": 9, "bohman": 10, "chebwin": 11,
    "cosine": 12, "dpss": 13, "exponential": 14, "general_cosine": 15, "general_hamming": 16,
    "kaiser_bessel_derived": 17, "lanczos": 18, "nuttall": 19, "parzen": 20, "taylor": 21,
    "triang": 22, "gaussian": 23, "general_gaussian": 24,
}

# (get_window spec, sigkern kind, params)
SPECS = [
    ("boxcar", "boxcar", []), ("hann", "hann", []), ("hamming", "hamming", []),
    ("blackman", "blackman", []), ("blackmanharris", "blackmanharris", []),
    ("flattop", "flattop", []), (("kaiser", 8.6), "kaiser", [8.6]),
    ("tukey", "tukey", []), (("tukey", 0.3), "tukey", [0.3]),
    ("barthann", "barthann", []), ("bartlett", "bartlett", []), ("bohman", "bohman", []),
    (("chebwin", 100), "chebwin", [100.0]), (("chebwin", 50), "chebwin", [50.0]),
    ("cosine", "cosine", []), (("dpss", 3.0), "dpss", [3.0]), (("dpss", 1.5), "dpss", [1.5]),
    ("exponential", "exponential", []), ("poisson", "exponential", []),
    (("exponential", None, 3.0), "exponential", [np.nan, 3.0]),
    (("general_cosine", [0.5, 0.3, 0.2]), "general_cosine", [0.5, 0.3, 0.2]),
    (("general_hamming", 0.7), "general_hamming", [0.7]),
    ("lanczos", "lanczos", []), ("sinc", "lanczos", []), ("nuttall", "nuttall", []),
    ("parzen", "parzen", []), ("taylor", "taylor", []),
    (("taylor", 6, 40, False), "taylor", [6, 40, 0]), ("triang", "triang", []),
    (("gaussian", 7.0), "gaussian", [7.0]),
    (("general_gaussian", 1.5, 5.0), "general_gaussian", [1.5, 5.0]),
]
LENGTHS = [0, 1, 2, 3, 4, 7, 8, 15, 16, 31, 64, 101, 256, 1000, 1025]


def window(sk, ffi, kind, params, n, periodic, ct="double"):
    p = np.ascontiguousarray(params, dtype=np.float64)
    w = np.full(n, 7.0, dtype=np.float64 if ct == "double" else np.float32)
    fn = sk.sk_window_params_f64 if ct == "double" else sk.sk_window_params_f32
    P = ffi.from_buffer("double[]", p) if p.size else ffi.NULL
    rc = fn(KIND[kind], P, periodic, ffi.from_buffer(ct + "[]", w) if n else ffi.NULL, p.size, n)
    return rc, w


@pytest.mark.parametrize("spec, kind, params", SPECS, ids=[str(s[0]) for s in SPECS])
@pytest.mark.parametrize("periodic", [True, False])
def test_matches_get_window(sk, ffi, spec, kind, params, periodic):
    tol = 1e-10 if kind in ("chebwin", "dpss") else 1e-12
    for n in LENGTHS:
        try:
            want = ss.get_window(spec, n, fftbins=periodic)
        except ValueError:  # scipy refuses this length (dpss NW >= n/2, some n = 0)
            rc, got = window(sk, ffi, kind, params, n, int(periodic))
            assert rc == SK_ERR_BAD_ARGUMENT or n == 0, (spec, n)
            continue
        rc, got = window(sk, ffi, kind, params, n, int(periodic))
        assert rc == SK_OK, (spec, n)
        assert got.shape == want.shape
        assert np.abs(got - want).max(initial=0.0) <= tol, (spec, n, periodic, np.abs(got - want).max())
        rc, got32 = window(sk, ffi, kind, params, n, int(periodic), "float")
        assert rc == SK_OK and np.array_equal(got32, want.astype(np.float32)) or \
            np.abs(got32 - want).max(initial=0.0) <= 1e-6


def test_kaiser_bessel_derived_symmetric_even(sk, ffi, last_error):
    for n in [0, 2, 4, 16, 64, 1000]:
        want = ss.windows.kaiser_bessel_derived(n, 5.0)
        rc, got = window(sk, ffi, "kaiser_bessel_derived", [5.0], n, 0)
        assert rc == SK_OK and np.abs(got - want).max(initial=0.0) <= 1e-12
    rc, w = window(sk, ffi, "kaiser_bessel_derived", [5.0], 16, 1)
    assert rc == SK_ERR_BAD_ARGUMENT and "symmetric" in last_error() and np.all(w == 7.0)
    rc, w = window(sk, ffi, "kaiser_bessel_derived", [5.0], 15, 0)
    assert rc == SK_ERR_BAD_ARGUMENT and "even" in last_error()


def test_exponential_center_rules(sk, ffi):
    for n in [5, 16, 33]:
        want = ss.windows.exponential(n, center=2.0, tau=2.0, sym=False)
        rc, got = window(sk, ffi, "exponential", [2.0, 2.0], n, 1)
        assert rc == SK_OK and np.abs(got - want).max() <= 1e-12
    rc, w = window(sk, ffi, "exponential", [2.0, 2.0], 16, 0)
    assert rc == SK_ERR_BAD_ARGUMENT and np.all(w == 7.0)


def test_bad_parameters(sk, ffi, last_error):
    cases = [
        ("hann", [1.0]), ("kaiser", []), ("kaiser", [1e4]), ("chebwin", []),
        ("dpss", [0.0]), ("dpss", [8.0]), ("general_cosine", []), ("taylor", [2.5]),
        ("taylor", [0]), ("general_gaussian", [1.0]), ("gaussian", [np.inf]),
        ("tukey", [0.1, 0.2]), ("exponential", [1.0, 2.0, 3.0]),
    ]
    for kind, params in cases:
        rc, w = window(sk, ffi, kind, params, 16, 1)
        assert rc == SK_ERR_BAD_ARGUMENT, (kind, params)
        assert np.all(w == 7.0)
    w = np.full(4, 7.0)
    assert sk.sk_window_params_f64(25, ffi.NULL, 1, ffi.from_buffer("double[]", w), 0, 4) == SK_ERR_BAD_ARGUMENT
    assert "0..=24" in last_error()


@pytest.mark.parametrize("kind, param, spec", [
    ("barthann", 0.0, "barthann"), ("chebwin", 80.0, ("chebwin", 80.0)),
    ("dpss", 2.0, ("dpss", 2.0)), ("gaussian", 3.0, ("gaussian", 3.0)),
    ("general_hamming", 0.6, ("general_hamming", 0.6)), ("triang", 5.0, "triang"),
])
def test_one_parameter_kinds_through_sk_window(sk, ffi, last_error, kind, param, spec):
    w = np.full(64, 7.0)
    assert sk.sk_window_f64(KIND[kind], param, 1, ffi.from_buffer("double[]", w), 64) == SK_OK
    tol = 1e-10 if kind in ("chebwin", "dpss") else 1e-12
    assert np.abs(w - ss.get_window(spec, 64)).max() <= tol
    w[:] = 7.0
    assert sk.sk_window_f64(KIND["taylor"], 4.0, 1, ffi.from_buffer("double[]", w), 64) == SK_ERR_BAD_ARGUMENT
    assert "sk_window_params_f64" in last_error() and np.all(w == 7.0)
