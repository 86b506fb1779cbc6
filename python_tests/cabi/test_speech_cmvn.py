"""sk_cmvn_* / sk_sliding_cmn_* through the C ABI: in place equals out of place, the error
contract (status, message naming the argument, nothing written)."""

import numpy as np


def test_in_place(ffi, sk):
    x = np.random.default_rng(0).standard_normal((2, 30, 5))
    y = np.empty_like(x)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_sliding_cmn_f64(px, py, 2, 30, 5, 10, 3, 0, 1) == sk.SK_OK
    z = x.copy()
    pz = ffi.from_buffer("double[]", z)
    assert sk.sk_sliding_cmn_f64(pz, pz, 2, 30, 5, 10, 3, 0, 1) == sk.SK_OK
    np.testing.assert_array_equal(z, y)
    assert sk.sk_cmvn_f64(px, py, 2, 30, 5, 1) == sk.SK_OK
    z = x.copy()
    pz = ffi.from_buffer("double[]", z)
    assert sk.sk_cmvn_f64(pz, pz, 2, 30, 5, 1) == sk.SK_OK
    np.testing.assert_array_equal(z, y)


def test_errors_write_nothing(ffi, sk, last_error):
    x = np.ones(20)
    y = np.full(20, 7.0)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_cmvn_f64(px, py, 1, 4, 5, 2) == sk.SK_ERR_BAD_ARGUMENT and "norm_vars" in last_error()
    assert sk.sk_sliding_cmn_f64(px, py, 1, 4, 5, 3, 1, 2, 0) == sk.SK_ERR_BAD_ARGUMENT
    assert "center" in last_error()
    assert sk.sk_cmvn_f64(ffi.NULL, py, 1, 4, 5, 0) == sk.SK_ERR_NULL_POINTER
    shifted = ffi.cast("double *", px) + 1
    assert sk.sk_cmvn_f64(px, shifted, 1, 4, 4, 0) == sk.SK_ERR_OVERLAP
    assert sk.sk_cmvn_f64(px, py, 1 << 62, 1 << 62, 5, 0) == sk.SK_ERR_LENGTH
    np.testing.assert_array_equal(y, 7.0)
    assert sk.sk_cmvn_f64(ffi.NULL, ffi.NULL, 0, 4, 5, 0) in (sk.SK_OK, sk.SK_ERR_NULL_POINTER)
