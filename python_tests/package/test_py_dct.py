"""sigkern.dct / sigkern.idct against scipy.fft: axes, n (padding and truncation), defaults,
dtypes (float32 kept, integers and lists promoted, complex split), torch tensors, errors."""

import numpy as np
import pytest
import scipy.fft as sf

import sigkern


@pytest.mark.parametrize("f,ref", [(sigkern.dct, sf.dct), (sigkern.idct, sf.idct)])
def test_axes_n_and_defaults(f, ref):
    x = np.random.default_rng(0).standard_normal((3, 10, 7))
    for ty in (1, 2, 3, 4):
        for axis in (0, 1, -1):
            for n in (None, 4, 12):
                for norm in (None, "ortho", "forward"):
                    want = ref(x, type=ty, n=n, axis=axis, norm=norm)
                    got = f(x, type=ty, n=n, axis=axis, norm=norm)
                    assert got.shape == want.shape and got.dtype == np.float64
                    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12 * np.abs(want).max())
    np.testing.assert_allclose(f(x[0, 0]), ref(x[0, 0]), atol=1e-12 * 100)
    got = f(x, norm="ortho", orthogonalize=False)
    np.testing.assert_allclose(got, ref(x, norm="ortho", orthogonalize=False), atol=1e-11)


def test_dtypes_and_tensors():
    x = np.random.default_rng(1).standard_normal((5, 33)).astype(np.float32)
    y = sigkern.dct(x)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y, sf.dct(x.astype(np.float64)), atol=1e-5 * 66)
    np.testing.assert_allclose(sigkern.dct([0, 1, 2, 3]), sf.dct([0, 1, 2, 3]), atol=1e-12)
    z = x.astype(np.float64) + 1j * x[::-1].astype(np.float64)
    np.testing.assert_allclose(sigkern.idct(z, type=3), sf.idct(z, type=3), atol=1e-11)
    np.testing.assert_allclose(sigkern.dct(x[:, ::2].astype(np.float64)),
                               sf.dct(x[:, ::2].astype(np.float64)), atol=1e-11)
    torch = pytest.importorskip("torch")
    t = torch.from_numpy(x.astype(np.float64))
    r = sigkern.dct(t, type=4, axis=0, norm="ortho")
    assert isinstance(r, torch.Tensor) and r.dtype == torch.float64
    np.testing.assert_allclose(r.numpy(), sf.dct(x.astype(np.float64), type=4, axis=0, norm="ortho"),
                               atol=1e-11)


def test_errors():
    x = np.ones(8)
    with pytest.raises(ValueError, match="type"):
        sigkern.dct(x, type=5)
    with pytest.raises(ValueError, match="norm"):
        sigkern.dct(x, norm="unitary")
    with pytest.raises(ValueError, match="data points"):
        sigkern.dct(x, type=1, n=1)
    with pytest.raises(ValueError, match="data points"):
        sigkern.idct(x, n=0)
    with pytest.raises(ValueError):
        sigkern.dct(x, axis=1)
    with pytest.raises(ValueError, match="scalar"):
        sigkern.dct(np.float64(1.0))
