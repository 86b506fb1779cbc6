"""sigkern.filters parity entries against scipy.signal (float64 references): lfilter,
lfilter_zi, sosfilt_zi, filtfilt, sosfiltfilt and their out= arguments (firwin's options and
get_window's window set are in test_py_window_names.py)."""

import numpy as np
import pytest
from scipy import signal

import sigkern

RNG = np.random.default_rng(77)


def rel_err(a, b):
    a = np.asarray(a, np.float64)
    b = np.asarray(b, np.float64)
    return np.max(np.abs(a - b), initial=0.0) / max(np.max(np.abs(b), initial=0.0), 1e-300)


@pytest.mark.parametrize("shape, axis", [((1000,), -1), ((3, 1000), -1), ((1000, 3), 0), ((2, 3, 500), 1)])
def test_lfilter(shape, axis):
    b, a = signal.butter(6, 0.2)
    x = RNG.standard_normal(shape)
    assert rel_err(sigkern.lfilter(b, a, x, axis=axis), signal.lfilter(b, a, x, axis=axis)) <= 1e-10
    zshape = list(shape)
    zshape[axis] = 6
    zi = RNG.standard_normal(zshape)
    y, zf = sigkern.lfilter(b, a, x, axis=axis, zi=zi)
    yr, zfr = signal.lfilter(b, a, x, axis=axis, zi=zi)
    assert rel_err(y, yr) <= 1e-10 and rel_err(zf, zfr) <= 1e-10
    y32 = sigkern.lfilter(b, a, x.astype(np.float32), axis=axis)
    assert y32.dtype == np.float32 and rel_err(y32, signal.lfilter(b, a, x, axis=axis)) <= 1e-4


def test_lfilter_marginal_and_errors():
    x = np.linspace(0, 5, 6)
    assert np.array_equal(sigkern.lfilter([2, -2], [1, -1], x), [0, 2, 4, 6, 8, 10])
    assert np.array_equal(sigkern.lfilter([1], [0.5, 0.5], np.ones(6)), [2, 0, 2, 0, 2, 0])
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.lfilter([1.0], [0.0, 1.0], x)
    with pytest.raises(ValueError):
        sigkern.lfilter([1.0], [1.0, 0.5], x, zi=np.zeros(3))


def test_zi_functions():
    b, a = signal.cheby1(4, 1, 0.3)
    assert rel_err(sigkern.lfilter_zi(b, a), signal.lfilter_zi(b, a)) <= 1e-12
    sos = signal.butter(6, 0.25, output="sos")
    assert rel_err(sigkern.sosfilt_zi(sos), signal.sosfilt_zi(sos)) <= 1e-12
    with pytest.raises(sigkern.BadArgumentError):
        sigkern.lfilter_zi([1, 1], [1, -1])


@pytest.mark.parametrize("padtype", ["odd", "even", "constant", None])
@pytest.mark.parametrize("padlen", [None, 0, 7])
def test_filtfilt_and_sosfiltfilt(padtype, padlen):
    x = RNG.standard_normal((4, 3000))
    b, a = signal.butter(4, 0.15)
    sos = signal.butter(8, 0.15, output="sos")
    got = sigkern.filtfilt(b, a, x, padtype=padtype, padlen=padlen)
    assert rel_err(got, signal.filtfilt(b, a, x, padtype=padtype, padlen=padlen)) <= 1e-10
    got = sigkern.sosfiltfilt(sos, x, padtype=padtype, padlen=padlen)
    assert rel_err(got, signal.sosfiltfilt(sos, x, padtype=padtype, padlen=padlen)) <= 1e-10


def test_filtfilt_axis_tensor_and_errors():
    torch = pytest.importorskip("torch")
    x = RNG.standard_normal((3000, 3))
    sos = signal.butter(4, 0.2, output="sos")
    assert rel_err(sigkern.sosfiltfilt(sos, x, axis=0), signal.sosfiltfilt(sos, x, axis=0)) <= 1e-10
    t = torch.from_numpy(np.ascontiguousarray(x.T))
    yt = sigkern.sosfiltfilt(sos, t)
    assert isinstance(yt, torch.Tensor) and rel_err(yt.numpy(), signal.sosfiltfilt(sos, x.T)) <= 1e-10
    with pytest.raises(sigkern.LengthError):
        sigkern.sosfiltfilt(sos, np.ones(10))
    with pytest.raises(ValueError, match="method"):
        sigkern.filtfilt([1.0], [1.0, -0.5], np.ones(100), method="gustafsson")
    with pytest.raises(ValueError):
        sigkern.filtfilt([1.0], [1.0, -0.5], np.ones(100), padtype="wrap")


def _calls(name):
    """The three entries with ``out=``, as (sigkern call, scipy reference) for ``name``."""
    b, a = signal.butter(4, 0.15)
    sos = signal.butter(6, 0.15, output="sos")
    return {
        "lfilter": (lambda x, **k: sigkern.lfilter(b, a, x, **k), lambda x, axis=-1: signal.lfilter(b, a, x, axis=axis)),
        "filtfilt": (lambda x, **k: sigkern.filtfilt(b, a, x, **k), lambda x, axis=-1: signal.filtfilt(b, a, x, axis=axis)),
        "sosfiltfilt": (lambda x, **k: sigkern.sosfiltfilt(sos, x, **k),
                        lambda x, axis=-1: signal.sosfiltfilt(sos, x, axis=axis)),
    }[name]


@pytest.mark.parametrize("name", ["lfilter", "filtfilt", "sosfiltfilt"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_out_argument(name, dtype):
    call, ref = _calls(name)
    tol = 1e-10 if dtype == np.float64 else 1e-4
    x = RNG.standard_normal((3, 2000)).astype(dtype)
    want = call(x)
    assert rel_err(want, ref(x.astype(np.float64))) <= tol
    out = np.full_like(x, np.nan)
    assert call(x, out=out) is out and np.array_equal(out, want)  # the same bits as without out
    xi = x.copy()
    assert call(xi, out=xi) is xi and np.array_equal(xi, want)  # in place
    # another time axis: computed moved, then copied into out
    xt = np.ascontiguousarray(x.T)
    out_t = np.full_like(xt, np.nan)
    assert call(xt, axis=0, out=out_t) is out_t and np.array_equal(out_t, want.T)
    # refused before anything is written: wrong shape, dtype, kind, read-only
    other = np.float64 if dtype == np.float32 else np.float32
    for bad, exc in ((np.zeros((3, 1999), dtype), ValueError), (np.zeros((3, 2000), other), TypeError),
                     ([[0.0] * 2000] * 3, TypeError)):
        with pytest.raises(exc, match=name):
            call(x, out=bad)
    ro = np.zeros_like(x)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=name):
        call(x, out=ro)
    assert not ro.any()
    # a partial overlap of out and x is refused by the C entry
    buf = x.copy()
    with pytest.raises(sigkern.OverlapError):
        call(buf[:, :1000], out=buf[:, 500:1500])
    assert np.array_equal(buf, x)


def test_out_argument_tensor():
    torch = pytest.importorskip("torch")
    for name in ("lfilter", "filtfilt", "sosfiltfilt"):
        call, ref = _calls(name)
        t = torch.from_numpy(RNG.standard_normal((2, 1500)))
        out = torch.empty_like(t)
        assert call(t, out=out) is out
        assert rel_err(out.numpy(), ref(t.numpy())) <= 1e-10
        out0 = torch.empty((1500, 2), dtype=torch.float64)
        assert call(t.T.contiguous(), axis=0, out=out0) is out0
        assert rel_err(out0.numpy(), ref(t.numpy()).T) <= 1e-10
