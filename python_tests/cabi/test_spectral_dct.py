"""sk_dct_* / sk_idct_* through the C ABI: equal to scipy.fft.dct/idct for every type, norm and
orthogonalize over odd, prime and power-of-two lengths 1 … 4096 (1e-12·max float64, 1e-5·max
float32); a strided batch equal to row calls; the error contract (status, message, nothing
written)."""

import numpy as np
import pytest
import scipy.fft as sf

LENGTHS = [1, 2, 3, 4, 5, 7, 8, 13, 16, 31, 64, 97, 100, 127, 128, 243, 509, 1000, 1024, 2047, 4096]
NORMS = {"backward": 0, "ortho": 1, "forward": 2}


def _call(ffi, sk, inverse, ty, norm, orth, x, dt):
    rows, n = x.shape
    y = np.full_like(x, np.nan)
    ct = "float[]" if dt == np.float32 else "double[]"
    f = getattr(sk, f"sk_{'i' if inverse else ''}dct_{'f32' if dt == np.float32 else 'f64'}")
    st = f(ty, NORMS[norm], orth, ffi.from_buffer(ct, x), n, rows, ffi.from_buffer(ct, y), y.size, n)
    assert st == sk.SK_OK
    return y


@pytest.mark.parametrize("inverse", [False, True])
@pytest.mark.parametrize("ty", [1, 2, 3, 4])
def test_equals_scipy_every_type_norm_length(ffi, sk, inverse, ty):
    rng = np.random.default_rng(ty + 10 * inverse)
    ref = sf.idct if inverse else sf.dct
    for n in LENGTHS:
        if ty == 1 and n < 2:
            continue
        x = rng.standard_normal((2, n))
        x[1, ::3] *= 1e3  # rows of different scale
        for norm in NORMS:
            for orth in (False, True):
                want = ref(x, type=ty, norm=norm, orthogonalize=orth)
                got = _call(ffi, sk, inverse, ty, norm, int(orth), x, np.float64)
                tol = 1e-12 * np.abs(want).max()
                np.testing.assert_allclose(got, want, rtol=0, atol=tol, err_msg=f"n={n} {norm} {orth}")
        if n in (7, 128, 509):
            x32 = x.astype(np.float32)
            want = ref(x32.astype(np.float64), type=ty, norm="ortho")
            got = _call(ffi, sk, inverse, ty, "ortho", 1, x32, np.float32)
            np.testing.assert_allclose(got, want, rtol=0, atol=1e-5 * np.abs(want).max())


def test_strided_rows_and_repeat(ffi, sk):
    x = np.random.default_rng(1).standard_normal((4, 40))
    y = np.empty((4, 33))
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)
    assert sk.sk_dct_f64(2, 1, 1, px, 40, 4, py, y.size, 33) == sk.SK_OK
    np.testing.assert_allclose(y, sf.dct(x[:, :33], norm="ortho"), atol=1e-12 * 40)
    assert sk.sk_dct_f64(4, 0, 0, px, 0, 4, py, y.size, 33) == sk.SK_OK  # stride 0: one row 4×
    np.testing.assert_array_equal(y, np.repeat(y[:1], 4, axis=0))
    np.testing.assert_allclose(y[0], sf.dct(x[0, :33], type=4), atol=1e-12 * 100)


def test_errors_write_nothing(ffi, sk, last_error):
    x = np.ones(16)
    y = np.full(16, 7.0)
    px, py = ffi.from_buffer("double[]", x), ffi.from_buffer("double[]", y)

    def call(ty=2, norm=0, orth=0, x=px, stride=16, rows=1, y=py, y_len=16, n=16):
        return sk.sk_dct_f64(ty, norm, orth, x, stride, rows, y, y_len, n)

    assert call(ty=0) == sk.SK_ERR_BAD_ARGUMENT and "dct_type" in last_error()
    assert call(ty=5) == sk.SK_ERR_BAD_ARGUMENT
    assert call(norm=3) == sk.SK_ERR_BAD_ARGUMENT and "norm" in last_error()
    assert call(orth=2) == sk.SK_ERR_BAD_ARGUMENT and "orthogonalize" in last_error()
    assert call(n=0) == sk.SK_ERR_LENGTH
    assert call(ty=1, n=1) == sk.SK_ERR_LENGTH
    assert call(stride=-1, rows=2) == sk.SK_ERR_BAD_ARGUMENT and "x_stride" in last_error()
    assert call(y_len=15) == sk.SK_ERR_BUFFER_TOO_SMALL
    assert call(x=ffi.NULL) == sk.SK_ERR_NULL_POINTER
    assert call(y=ffi.NULL) == sk.SK_ERR_NULL_POINTER
    assert call(y=px) == sk.SK_ERR_OVERLAP
    mis = ffi.cast("double *", ffi.cast("char *", px) + 1)
    assert call(x=mis, n=8) == sk.SK_ERR_MISALIGNED
    assert sk.sk_idct_f32(2, 0, 0, ffi.NULL, 0, 0, ffi.NULL, 0, 8) == sk.SK_OK  # zero rows
    np.testing.assert_array_equal(y, 7.0)
