"""sk_delta_* through the C ABI: a strided batch equal to row calls, the error contract
(status, message naming the argument, nothing written)."""

import numpy as np


def test_rows_and_stride(ffi, sk):
    x = np.random.default_rng(0).standard_normal((3, 50))
    y = np.empty((3, 40))
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_delta_f64(px, 50, 3, py, y.size, 40, 5, 2, 2, sk.SK_DELTA_INTERP, 0.0, 1.0) == sk.SK_OK
    for r in range(3):
        one = np.empty(40)
        assert sk.sk_delta_f64(ffi.from_buffer("double[]", x[r]), 0, 1, ffi.from_buffer("double[]", one),
                               40, 40, 5, 2, 2, sk.SK_DELTA_INTERP, 0.0, 1.0) == sk.SK_OK
        np.testing.assert_array_equal(one, y[r])


def test_errors_write_nothing(ffi, sk, last_error):
    x = np.ones(16)
    y = np.full(16, 7.0)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)

    def call(width=5, order=1, poly=1, mode=0, n=16, y=py, y_len=16, x=px, cval=0.0, delta=1.0):
        return sk.sk_delta_f64(x, 16, 1, y, y_len, n, width, order, poly, mode, cval, delta)

    assert call(width=4) == sk.SK_ERR_BAD_ARGUMENT and "width" in last_error()
    assert call(width=1) == sk.SK_ERR_BAD_ARGUMENT
    assert call(order=0) == sk.SK_ERR_BAD_ARGUMENT and "order" in last_error()
    assert call(poly=5) == sk.SK_ERR_BAD_ARGUMENT and "polyorder" in last_error()
    assert call(mode=9) == sk.SK_ERR_BAD_ARGUMENT and "mode" in last_error()
    assert call(delta=0.0) == sk.SK_ERR_BAD_ARGUMENT and "delta" in last_error()
    assert call(mode=2, cval=float("nan")) == sk.SK_ERR_BAD_ARGUMENT
    assert call(width=17) == sk.SK_ERR_BAD_ARGUMENT and "interp" in last_error()
    assert call(n=0) == sk.SK_ERR_LENGTH
    assert call(y_len=15) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert call(y=ffi.NULL) == sk.SK_ERR_NULL_POINTER
    assert call(y=px) == sk.SK_ERR_OVERLAP
    np.testing.assert_array_equal(y, 7.0)
    assert call(width=17, mode=sk.SK_DELTA_NEAREST) == sk.SK_OK  # windows longer than the signal
