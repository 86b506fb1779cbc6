"""sigkern.spectral through the package, against independent float64 references: numpy.fft
(rfft/irfft/fft/ifft), scipy.signal (get_window, convolve, correlate), torch (stft, istft) and
librosa (power_to_db, filters.mel, feature.melspectrogram). numpy and torch inputs, out=,
batched leading axes, adversarial lengths and values, and the error paths (refused before C,
or the library's error as the right SigkernError subclass naming the C function)."""

import threading
import types
import warnings

import numpy as np
import pytest
from scipy import signal

import sigkern
from sigkern import spectral

torch = pytest.importorskip("torch")
librosa = pytest.importorskip("librosa")

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)
C64, C128 = np.dtype(np.complex64), np.dtype(np.complex128)
DT = pytest.mark.parametrize("dtype", [F32, F64], ids=["f32", "f64"])
#: relative tolerance (of the reference's peak) per precision; FFT bounds of docs/spectral.md
TOL = {F32: 2e-6, F64: 1e-12}
NORMS = [None, "backward", "ortho", "forward"]


def rng(seed=0):
    return np.random.default_rng(seed)


def peak_err(got, ref):
    """max |got - ref| relative to max |ref| (in float64/complex128)."""
    got = np.asarray(got).astype(np.complex128)
    ref = np.asarray(ref).astype(np.complex128)
    assert got.shape == ref.shape, (got.shape, ref.shape)
    if ref.size == 0:
        return 0.0
    return float(np.max(np.abs(got - ref)) / max(np.max(np.abs(ref)), 1e-300))


def cplx(r, shape, dtype):
    z = r.standard_normal(shape) + 1j * r.standard_normal(shape)
    return z.astype(np.complex64 if dtype == F32 else np.complex128)


def meta_tensor():
    return torch.empty(16, device="meta")


#: the modules of the sigkern.spectral package
SPECTRAL_MODULES = [m for m in vars(spectral).values() if isinstance(m, types.ModuleType)]


class NoC:
    """Fails the test if any C function of sigkern.spectral is called inside the block."""

    def __init__(self, monkeypatch):
        self.mp = monkeypatch

    def __enter__(self):
        def boom(*a, **k):
            raise AssertionError("a C function was called")

        for mod in SPECTRAL_MODULES:
            for name, v in vars(mod).items():
                if isinstance(v, dict) and v and all(type(f).__name__ == "builtin_function_or_method"
                                                     for f in v.values()):
                    self.mp.setattr(mod, name, {k: boom for k in v})
                elif type(v).__name__ == "builtin_function_or_method" and name.startswith("_") \
                        and name not in ("_fb", "_new"):
                    self.mp.setattr(mod, name, boom)
        return self

    def __exit__(self, *exc):
        self.mp.undo()
        return False


def test_noc_helper_detects_c_calls(monkeypatch):
    """The helper the refusal tests rely on does see C calls."""
    with NoC(monkeypatch):
        with pytest.raises(AssertionError, match="C function was called"):
            sigkern.convolve(np.ones(10), np.ones(3))
        with pytest.raises(AssertionError, match="C function was called"):
            sigkern.spec_power(np.ones(4, np.complex64))
        with pytest.raises(AssertionError, match="C function was called"):
            sigkern.stft(np.ones(1000), 64)


# =============================================================================================
# rfft / irfft / fft / ifft
# =============================================================================================

SHAPES = [(1,), (2,), (7,), (64,), (1000,), (3, 17), (2, 3, 33), (5, 1)]


@DT
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("norm", NORMS)
def test_rfft_irfft_match_numpy(dtype, shape, norm):
    x = rng(1).standard_normal(shape).astype(dtype)
    m = shape[-1]
    for n in (None, max(1, m // 2), m + 5, 2 * m):
        X = sigkern.rfft(x, n=n, norm=norm)
        ref = np.fft.rfft(x.astype(np.float64), n=n, norm=norm)
        assert type(X) is np.ndarray and X.dtype == (C64 if dtype == F32 else C128)
        assert X.shape == ref.shape
        assert peak_err(X, ref) <= TOL[dtype]
        nn = n or m
        y = sigkern.irfft(X, n=nn, norm=norm)
        yref = np.fft.irfft(ref, n=nn, norm=norm)
        assert y.dtype == dtype and y.shape == yref.shape
        assert peak_err(y, yref) <= 4 * TOL[dtype]
    # irfft's own default n = 2 (m - 1) and a truncated/padded spectrum
    Z = cplx(rng(2), shape[:-1] + (m + 1,), dtype)
    for n in (None, 3, 4 * m + 1):
        if n is None and m + 1 < 2:
            continue
        got = sigkern.irfft(Z, n=n, norm=norm)
        assert peak_err(got, np.fft.irfft(Z.astype(np.complex128), n=n, norm=norm)) <= 4 * TOL[dtype]


@DT
@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("norm", NORMS)
def test_fft_ifft_match_numpy(dtype, shape, norm):
    z = cplx(rng(3), shape, dtype)
    m = shape[-1]
    for n in (None, max(1, m // 2), m + 3):
        for ours, ref in ((sigkern.fft, np.fft.fft), (sigkern.ifft, np.fft.ifft)):
            got = ours(z, n=n, norm=norm)
            want = ref(z.astype(np.complex128), n=n, norm=norm)
            assert type(got) is np.ndarray and got.dtype == z.dtype and got.shape == want.shape
            assert peak_err(got, want) <= 2 * TOL[dtype]


@pytest.mark.parametrize("axis", [0, 1, -2, 2])
def test_fft_family_over_any_axis(axis):
    x = rng(4).standard_normal((6, 5, 9))
    z = cplx(rng(5), (6, 5, 9), F64)
    for n in (None, 4, 12):
        assert peak_err(sigkern.rfft(x, n, axis), np.fft.rfft(x, n, axis)) <= 1e-12
        assert peak_err(sigkern.fft(z, n, axis), np.fft.fft(z, n, axis)) <= 1e-12
        assert peak_err(sigkern.ifft(z, n, axis), np.fft.ifft(z, n, axis)) <= 1e-12
        assert peak_err(sigkern.irfft(z, n, axis), np.fft.irfft(z, n, axis)) <= 1e-12


def test_rfft_fast_path_batch_and_plan_cache():
    x = rng(6).standard_normal((64, 1024))
    a = sigkern.rfft(x)  # first call makes the plan
    assert (0, 1024, True) in spectral._fft._PLANS
    b = sigkern.rfft(x)  # cached plan, fast path
    assert np.array_equal(a, b)
    assert peak_err(b, np.fft.rfft(x)) <= 1e-12
    # rows are independent: each row equals its own transform
    assert np.array_equal(sigkern.rfft(x[7]), b[7])


def test_fft_nonfinite_like_numpy():
    for bad in (np.nan, np.inf):
        x = np.zeros(16)
        x[3] = bad
        assert not np.isfinite(sigkern.rfft(x)).any() and not np.isfinite(np.fft.rfft(x)).any()


def test_fft_noncontiguous_inputs_are_copied():
    x = rng(7).standard_normal((4, 40))
    assert peak_err(sigkern.rfft(x[:, ::2]), np.fft.rfft(x[:, ::2])) <= 1e-12
    assert peak_err(sigkern.rfft(x[::-1]), np.fft.rfft(x[::-1])) <= 1e-12
    assert peak_err(sigkern.rfft(x.T, axis=0), np.fft.rfft(x.T, axis=0)) <= 1e-12
    t = torch.from_numpy(x)[:, ::3]
    assert peak_err(sigkern.rfft(t).numpy(), np.fft.rfft(x[:, ::3])) <= 1e-12


@DT
def test_fft_family_torch(dtype):
    x = rng(8).standard_normal((3, 50)).astype(dtype)
    t = torch.from_numpy(x)
    X = sigkern.rfft(t, norm="ortho")
    assert isinstance(X, torch.Tensor) and X.dtype == (torch.complex64 if dtype == F32 else torch.complex128)
    assert peak_err(X.numpy(), np.fft.rfft(x.astype(np.float64), norm="ortho")) <= TOL[dtype]
    y = sigkern.irfft(X, n=50, norm="ortho")
    assert isinstance(y, torch.Tensor) and y.dtype == t.dtype
    assert peak_err(y.numpy(), x) <= 4 * TOL[dtype]
    Z = sigkern.fft(X, n=64, axis=0)
    assert isinstance(Z, torch.Tensor) and Z.shape == (64, 26)
    assert peak_err(Z.numpy(), np.fft.fft(X.numpy().astype(np.complex128), n=64, axis=0)) <= 2 * TOL[dtype]
    assert peak_err(sigkern.ifft(Z, axis=0).numpy(), np.fft.ifft(Z.numpy().astype(np.complex128), axis=0)) <= 2 * TOL[dtype]


@DT
def test_fft_family_torch_last_axis_and_empty_batches(dtype):
    z = cplx(rng(35), (4, 3, 20), dtype)
    tz = torch.from_numpy(z)
    for op in ("fft", "ifft", "irfft"):
        for n in (None, 20, 30):
            got = getattr(sigkern, op)(tz, n=n)
            want = getattr(np.fft, op)(z.astype(np.complex128), n=n)
            assert isinstance(got, torch.Tensor) and got.shape == want.shape
            assert got.dtype == (tz.dtype if op != "irfft" else torch.from_numpy(np.ones(1, dtype)).dtype)
            assert peak_err(got.numpy(), want) <= 4 * TOL[dtype]
    for op, arr in (("rfft", np.zeros((0, 8), dtype)), ("fft", np.zeros((2, 0, 8), z.dtype))):
        want = getattr(np.fft, op)(arr)
        assert getattr(sigkern, op)(arr).shape == want.shape
        assert tuple(getattr(sigkern, op)(torch.from_numpy(arr)).shape) == want.shape
    with pytest.raises(ValueError, match="conjugate"):
        sigkern.fft(tz.conj())  # a lazy conjugate view is never read as plain memory
    assert peak_err(sigkern.fft(tz.conj().resolve_conj()).numpy(),
                    np.fft.fft(np.conj(z).astype(np.complex128))) <= 2 * TOL[dtype]


def test_fft_out_identity_and_in_place():
    x = rng(9).standard_normal((3, 16))
    out = np.empty((3, 9), np.complex128)
    assert sigkern.rfft(x, out=out) is out
    assert peak_err(out, np.fft.rfft(x)) <= 1e-12
    # axis != -1 into an out whose moved view is not contiguous
    out0 = np.empty((2, 16), np.complex128)
    assert sigkern.rfft(x, axis=0, out=out0) is out0
    assert peak_err(out0, np.fft.rfft(x, axis=0)) <= 1e-12
    y = np.empty((3, 16))
    assert sigkern.irfft(out, n=16, out=y) is y and peak_err(y, x) <= 1e-12
    z = cplx(rng(10), (4, 8), F64)
    ref = np.fft.fft(z)
    assert sigkern.fft(z, out=z) is z  # in place
    assert peak_err(z, ref) <= 1e-12
    t = torch.from_numpy(x.astype(np.float32))
    tout = torch.empty((3, 9), dtype=torch.complex64)
    assert sigkern.rfft(t, out=tout) is tout
    assert peak_err(tout.numpy(), np.fft.rfft(x)) <= 2e-6
    tout64 = torch.empty((3, 9), dtype=torch.complex128)  # out of the other kind
    assert sigkern.rfft(x, out=tout64) is tout64 and peak_err(tout64.numpy(), np.fft.rfft(x)) <= 1e-12
    nout = np.empty((3, 9), np.complex64)
    assert sigkern.rfft(t, out=nout) is nout and peak_err(nout, np.fft.rfft(x)) <= 2e-6


def test_fft_errors():
    x = np.ones(8)
    z = np.ones(8, np.complex128)
    # numpy's promotion: real data of a complex transform (never reinterpreted as re/im
    # pairs), integers as float64
    assert np.allclose(sigkern.fft(x), np.fft.fft(x)) and sigkern.fft(x).dtype == np.complex128
    assert sigkern.fft(x.astype(np.float32)).dtype == np.complex64
    assert np.allclose(sigkern.irfft(np.ones(18)), np.fft.irfft(np.ones(18)))
    r = sigkern.rfft(np.arange(8, dtype=np.int16))
    assert r.dtype == np.complex128 and np.allclose(r, np.fft.rfft(np.arange(8)))
    with pytest.raises(TypeError, match="real"):
        sigkern.rfft(z)
    with pytest.raises(TypeError, match="ArrayType"):
        sigkern.fft(z, out="")
    with pytest.raises(ValueError, match="n must be at least 1"):
        sigkern.rfft(x, n=0)
    with pytest.raises(ValueError, match="at least 1"):
        sigkern.rfft(np.ones((3, 0)))
    with pytest.raises(ValueError, match="at least 1"):
        sigkern.irfft(np.ones(1, np.complex128))  # default n = 0
    with pytest.raises(ValueError, match="norm"):
        sigkern.rfft(x, norm="backwards")
    with pytest.raises(ValueError, match="norm"):
        sigkern.fft(z, norm=[1])
    with pytest.raises(ValueError, match="out of bounds"):
        sigkern.rfft(x, axis=1)
    with pytest.raises(TypeError, match="axis"):
        sigkern.rfft(x, axis=0.5)
    with pytest.raises(ValueError, match="zero-dimensional"):
        sigkern.rfft(np.float64(1.0))
    with pytest.raises(ValueError, match="shape"):
        sigkern.rfft(x, out=np.empty(4, np.complex128))
    with pytest.raises(TypeError, match="dtype"):
        sigkern.rfft(x, out=np.empty(5, np.complex64))
    ro = np.empty(5, np.complex128)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        sigkern.rfft(x, out=ro)
    with pytest.raises(ValueError, match="requires grad"):
        sigkern.rfft(torch.ones(8, dtype=torch.float64),
                     out=torch.empty(5, dtype=torch.complex128, requires_grad=True))
    with pytest.raises(ValueError, match="meta"):
        sigkern.rfft(meta_tensor())
    with pytest.raises(ValueError, match="sparse|dense"):
        sigkern.rfft(torch.ones(8).to_sparse())


def test_fft_errors_make_no_c_call(monkeypatch):
    with NoC(monkeypatch):
        for call in (lambda: sigkern.rfft(np.ones(8, np.complex128)), lambda: sigkern.rfft(np.ones(8), n=0),
                     lambda: sigkern.rfft(np.ones(8), out=np.empty(3, np.complex128))):
            with pytest.raises((TypeError, ValueError)):
                call()


def test_fft_plan_cache_shared_by_threads():
    x = rng(11).standard_normal((8, 4096))
    want = np.fft.rfft(x)
    errs = []

    def work():
        for _ in range(20):
            errs.append(peak_err(sigkern.rfft(x), want))

    ts = [threading.Thread(target=work) for _ in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(errs) == 80 and max(errs) <= 1e-12


# =============================================================================================
# FftPlan
# =============================================================================================


@DT
@pytest.mark.parametrize("n", [1, 2, 15, 256, 1009])
def test_fft_plan_real(dtype, n):
    x = rng(12).standard_normal((3, n)).astype(dtype)
    with sigkern.FftPlan(n, "real", dtype) as p:
        assert (p.n, p.kind, p.dtype) == (n, "real", dtype) and not p.closed
        for norm in NORMS:
            X = p.rfft(x, norm=norm)
            assert X.dtype == (C64 if dtype == F32 else C128) and X.shape == (3, n // 2 + 1)
            assert peak_err(X, np.fft.rfft(x.astype(np.float64), norm=norm)) <= TOL[dtype]
            X1 = p.rfft(x[1], norm=norm)  # 1-D: the single-transform kernel
            assert np.array_equal(X1, X[1])
            y = p.irfft(X, norm=norm)
            assert y.dtype == dtype and peak_err(y, x) <= 4 * TOL[dtype]
            assert np.array_equal(p.irfft(X[2], norm=norm), y[2])
        t = p.rfft(torch.from_numpy(x))
        assert isinstance(t, torch.Tensor) and peak_err(t.numpy(), X if norm is None else p.rfft(x)) <= TOL[dtype]
    assert p.closed


@DT
def test_fft_plan_complex(dtype):
    z = cplx(rng(13), (2, 3, 48), dtype)
    p = sigkern.FftPlan(48, "complex", dtype)
    for norm in NORMS:
        Z = p.fft(z, norm=norm)
        assert Z.dtype == z.dtype and peak_err(Z, np.fft.fft(z.astype(np.complex128), norm=norm)) <= 2 * TOL[dtype]
        assert np.array_equal(p.fft(z[1, 2], norm=norm), Z[1, 2])
        w = p.ifft(Z, norm=norm)
        assert peak_err(w, z) <= 4 * TOL[dtype]
        assert np.array_equal(p.ifft(Z[0, 0], norm=norm), w[0, 0])
    out = np.empty_like(z)
    assert p.fft(z, out=out) is out and peak_err(out, np.fft.fft(z.astype(np.complex128))) <= 2 * TOL[dtype]
    zz = z.copy()
    assert p.ifft(zz, out=zz) is zz and peak_err(zz, np.fft.ifft(z.astype(np.complex128))) <= 2 * TOL[dtype]
    p.close()


@DT
@pytest.mark.parametrize("lead", [(), (3,)])
def test_fft_plan_out(dtype, lead):
    """out= through a plan: written in place and returned (1-D: the single-transform kernel,
    2-D: the batch), the same bits as without out=; a strided out is filled through a copy;
    a wrong, read-only or overlapping out is refused with the output untouched."""
    n, cdt = 64, (C64 if dtype == F32 else C128)
    x = rng(15).standard_normal(lead + (n,)).astype(dtype)
    p = sigkern.FftPlan(n, "real", dtype)
    X = p.rfft(x)
    out = np.empty(lead + (n // 2 + 1,), cdt)
    for _ in range(2):  # a repeated call reuses the same out
        assert p.rfft(x, out=out) is out and np.array_equal(out, X)
    assert peak_err(out, np.fft.rfft(x.astype(np.float64))) <= TOL[dtype]
    big = np.zeros(lead + (2 * (n // 2 + 1),), cdt)
    assert p.rfft(x, out=big[..., ::2]) is not None and np.array_equal(big[..., ::2], X)
    assert not big[..., 1::2].any()
    y = np.empty(lead + (n,), dtype)
    assert p.irfft(X, out=y) is y and peak_err(y, x) <= 4 * TOL[dtype]
    canary = np.full(lead + (n // 2 + 1,), 7, cdt)
    with pytest.raises(ValueError, match="shape"):
        p.rfft(x, out=np.empty(lead + (n // 2,), cdt))
    with pytest.raises(TypeError, match="dtype"):
        p.rfft(x, out=np.empty(lead + (n // 2 + 1,), C128 if dtype == F32 else C64))
    canary.flags.writeable = False
    with pytest.raises(ValueError, match="read-only"):
        p.rfft(x, out=canary)
    assert (canary == 7).all()
    rows = x.size // n
    buf = np.zeros(rows * (n + 2), dtype)  # out's bytes overlap x's (both contiguous)
    xin = buf[: rows * n].reshape(x.shape)
    xin[...] = x
    with pytest.raises(sigkern.OverlapError):
        p.rfft(xin, out=buf.view(cdt).reshape(out.shape))
    with pytest.raises(sigkern.OverlapError):  # the module function's out= path
        sigkern.rfft(xin, out=buf.view(cdt).reshape(out.shape))
    assert np.array_equal(xin, x) and not buf[rows * n:].any()
    out2 = np.empty_like(out)
    assert sigkern.rfft(x, out=out2) is out2 and np.array_equal(out2, X)
    z = cplx(rng(16), lead + (n,), dtype)
    q = sigkern.FftPlan(n, "complex", dtype)
    Z = q.fft(z)
    zz = z.copy()
    assert q.fft(zz, out=zz) is zz and np.array_equal(zz, Z)  # in place
    o = np.empty_like(z)
    assert q.ifft(Z, out=o) is o and peak_err(o, z) <= 4 * TOL[dtype]


def test_fft_plan_errors_and_close():
    p = sigkern.FftPlan(16, "real", np.float64)
    assert "FftPlan(n=16, kind='real'" in repr(p)
    with pytest.raises(ValueError, match="needs 16"):
        p.rfft(np.ones(15))
    with pytest.raises(ValueError, match="needs 9"):
        p.irfft(np.ones(8, np.complex128))
    with pytest.raises(TypeError, match="plan is for float64"):
        p.rfft(np.ones(16, np.float32))
    with pytest.raises(ValueError, match="kind='complex'"):
        p.fft(np.ones(16, np.complex128))
    with pytest.raises(TypeError, match="complex64 or complex128"):
        p.irfft(np.ones(9))
    p.close()
    p.close()  # idempotent
    with pytest.raises(sigkern.InvalidHandleError) as e:
        p.rfft(np.ones(16))
    assert "sk_rfft_f64" in str(e.value) and e.value.function == "sk_rfft_f64"
    with pytest.raises(sigkern.InvalidHandleError, match="sk_rfft_batch_f64"):
        p.rfft(np.ones((2, 16)))
    with pytest.raises(ValueError):
        sigkern.FftPlan(0)
    with pytest.raises(ValueError, match="kind"):
        sigkern.FftPlan(8, "halfcomplex")
    with pytest.raises(TypeError, match="dtype"):
        sigkern.FftPlan(8, dtype=np.int32)
    with pytest.raises(sigkern.LengthError, match="sk_fft_plan_f32_new"):
        sigkern.FftPlan(2**28 + 1)
    q = sigkern.FftPlan(8, "complex", np.complex64)  # a complex dtype names its precision
    assert q.dtype == F32 and q.kind == "complex"
    del q  # __del__ frees


def test_fft_plan_shared_by_threads():
    p = sigkern.FftPlan(2048, "real", np.float32)
    x = rng(14).standard_normal((4, 2048)).astype(np.float32)
    want = p.rfft(x)
    res = []

    def work():
        for _ in range(50):
            res.append(np.array_equal(p.rfft(x), want))

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(res) == 150 and all(res)


# =============================================================================================
# get_window
# =============================================================================================

WINDOWS = ["hann", "han", "hamming", "ham", "blackman", "blk", "blackmanharris", "bkh", "flattop",
           "flat", "boxcar", "rect", "ones", "rectangular", ("kaiser", 8.6), ("kaiser", 0.0),
           ("ksr", 14.0), "tukey", ("tukey", 0.25), ("tukey", 1.0), ("tukey", 0.0), 5.0,
           "hann_periodic", "hamming_symmetric", ("tukey_periodic", 0.3)]


@pytest.mark.parametrize("window", WINDOWS, ids=str)
@pytest.mark.parametrize("n", [1, 2, 3, 16, 255, 1024])
def test_get_window_matches_scipy(window, n):
    for fftbins in (True, False):
        ref = signal.get_window(window, n, fftbins=fftbins)
        got = sigkern.get_window(window, n, fftbins=fftbins)
        assert got.dtype == F64 and got.shape == (n,)
        assert np.max(np.abs(got - ref)) <= 1e-12
        g32 = sigkern.get_window(window, n, fftbins=fftbins, dtype=np.float32)
        assert g32.dtype == F32 and np.max(np.abs(g32 - ref.astype(np.float32))) <= 6e-8


def test_get_window_errors():
    with pytest.raises(ValueError, match="gaussian.*takes 1 parameter"):
        sigkern.get_window("gaussian", 8)
    with pytest.raises(ValueError, match="unknown window name"):
        sigkern.get_window("Hann", 8)
    with pytest.raises(ValueError, match="kaiser.*takes 1 parameter"):
        sigkern.get_window("kaiser", 8)
    with pytest.raises(ValueError, match="takes 0 parameter"):
        sigkern.get_window(("hann", 3), 8)
    with pytest.raises(ValueError, match="positive"):
        sigkern.get_window("hann", 0)
    with pytest.raises(ValueError, match="positive"):
        sigkern.get_window("hann", 2.0)
    with pytest.raises(ValueError):
        sigkern.get_window(np.ones(4), 4)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.get_window("hann", 4, dtype=np.int16)
    with pytest.raises(sigkern.BadArgumentError, match="sk_window_params_f64"):
        sigkern.get_window(("kaiser", 1e4), 8)  # |beta| > 700


# =============================================================================================
# stft / istft
# =============================================================================================

STFT_CASES = [
    # n_fft, hop, win_length, window kind, center, pad_mode, normalized, onesided
    (512, None, None, "hann", True, "reflect", False, None),
    (512, 128, 400, "hann", True, "constant", True, None),
    (256, 64, None, None, False, "reflect", False, True),
    (255, 50, 200, "hamming", True, "reflect", False, False),
    (64, 16, 64, "hann", False, "constant", True, False),
    (1, 1, 1, None, False, "constant", False, None),
    (256, 64, 200, None, True, "reflect", False, None),  # ones of win_length, centred in n_fft
]


def torch_window(kind, wl, dtype):
    if kind is None:
        return None
    return torch.from_numpy(signal.get_window(kind, wl).astype(dtype))


@DT
@pytest.mark.parametrize("case", STFT_CASES, ids=lambda c: f"nfft{c[0]}-c{int(c[4])}-{c[5]}")
def test_stft_matches_torch(dtype, case):
    n_fft, hop, wl, kind, center, pad, normalized, onesided = case
    x = rng(15).standard_normal((2, 3, 3001)).astype(dtype)
    wt = torch_window(kind, wl or n_fft, dtype)
    w = None if wt is None else wt.numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = torch.stft(torch.from_numpy(x.astype(np.float64)).reshape(6, -1), n_fft, hop, wl,
                         None if wt is None else wt.double(), center, pad, normalized, onesided,
                         return_complex=True).numpy()
    ref = ref.reshape((2, 3) + ref.shape[1:])
    S = sigkern.stft(x, n_fft, hop, wl, w, center, pad, normalized, onesided)
    assert type(S) is np.ndarray and S.dtype == (C64 if dtype == F32 else C128)
    assert S.shape == ref.shape
    bound = 1e-13 * np.abs(x).sum(axis=-1).max() if dtype == F64 else 2e-6 * np.abs(ref).max()
    assert np.max(np.abs(S - ref)) <= bound
    # the frame-major layout of torch.stft's result
    assert S.swapaxes(-1, -2).flags.c_contiguous
    # torch in, torch out, same strides as torch.stft
    T = sigkern.stft(torch.from_numpy(x), n_fft, hop, wl, wt, center, pad, normalized, onesided)
    assert isinstance(T, torch.Tensor) and np.array_equal(T.numpy(), S)
    if dtype == F64:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tr = torch.stft(torch.from_numpy(x[0, 0]), n_fft, hop, wl, wt, center, pad, normalized,
                            onesided, return_complex=True)
        assert T[0, 0].stride() == tr.stride()
    # one row equals its slice of the batch
    assert np.array_equal(sigkern.stft(x[1, 2], n_fft, hop, wl, w, center, pad, normalized, onesided),
                          S[1, 2])


def test_stft_window_name_short_signals_and_real_view():
    x = rng(16).standard_normal(1000)
    w = signal.get_window("hann", 256)
    assert np.array_equal(sigkern.stft(x, 256, window="hann"), sigkern.stft(x, 256, window=w))
    # length 1 with zero padding (torch: one frame)
    for n in (1, 2, 7):
        xs = rng(n).standard_normal(n)
        ref = torch.stft(torch.from_numpy(xs), 4, 1, window=torch.ones(4, dtype=torch.float64),
                         pad_mode="constant", return_complex=True).numpy()
        assert peak_err(sigkern.stft(xs, 4, 1, pad_mode="constant"), ref) <= 1e-13
    r = sigkern.stft(x, 256, return_complex=False)
    ref = torch.view_as_real(torch.stft(torch.from_numpy(x), 256, window=torch.ones(256, dtype=torch.float64),
                                        return_complex=True)).numpy()
    assert r.shape == ref.shape and np.max(np.abs(r - ref)) <= 1e-12 * np.abs(x).sum()
    rt = sigkern.stft(torch.from_numpy(x), 256, return_complex=False)
    assert isinstance(rt, torch.Tensor) and np.array_equal(rt.numpy(), r)
    # NaN reaches only the frames that contain it
    xn = x.copy()
    xn[500] = np.nan
    S = sigkern.stft(xn, 256, 64, center=False)
    bad = ~np.isfinite(S).all(axis=0)
    frames_with_nan = [(f * 64 <= 500 < f * 64 + 256) for f in range(S.shape[-1])]
    assert list(bad) == frames_with_nan


def test_stft_named_window_cache():
    # a named window is computed once per (name, length, dtype) and kept read-only: repeated
    # calls, other dtypes and parameters give get_window's windows
    from sigkern.spectral import _stft as st

    x = rng(18).standard_normal(700)
    for dt in (np.float64, np.float32):
        for win in ("hann", ("kaiser", 8.0), ("tukey", 0.25)):
            w = sigkern.get_window(win, 128, dtype=dt)
            for _ in range(2):
                assert np.array_equal(sigkern.stft(x.astype(dt), 128, window=win),
                                      sigkern.stft(x.astype(dt), 128, window=w))
            cached = st._stft_window(win, 128, np.dtype(dt), "stft")
            assert cached is st._stft_window(win, 128, np.dtype(dt), "stft")
            assert not cached.flags.writeable
            assert np.array_equal(cached, w)
    # an equal parameter of another type hits the same entry; an unhashable one is refused
    # by get_window's checks
    a = sigkern.stft(x, 128, window=("kaiser", 8))
    assert np.array_equal(a, sigkern.stft(x, 128, window=("kaiser", 8.0)))
    with pytest.raises((TypeError, ValueError)):
        sigkern.stft(x, 128, window=("kaiser", [8.0]))


def test_stft_out():
    x = rng(17).standard_normal((2, 2000)).astype(np.float32)
    S = sigkern.stft(x, 128, 32)
    out = np.empty((2, S.shape[-1], 65), np.complex64).swapaxes(-1, -2)
    assert sigkern.stft(x, 128, 32, out=out) is out and np.array_equal(out, S)
    assert sigkern.stft(x, 128, 32, out=S) is S  # an earlier result
    with pytest.raises(ValueError, match="frame-major"):
        sigkern.stft(x, 128, 32, out=np.empty((2, 65, S.shape[-1]), np.complex64))
    with pytest.raises(ValueError, match="shape"):
        sigkern.stft(x, 128, 32, out=np.empty((2, 10, 65), np.complex64).swapaxes(-1, -2))
    with pytest.raises(TypeError, match="dtype"):
        sigkern.stft(x, 128, 32, out=np.empty((2, S.shape[-1], 65), np.complex128).swapaxes(-1, -2))
    with pytest.raises(ValueError, match="return_complex"):
        sigkern.stft(x, 128, 32, return_complex=False, out=out)


def test_stft_errors(monkeypatch):
    x = np.ones(1000)
    with NoC(monkeypatch):
        with pytest.raises(TypeError, match="real"):
            sigkern.stft(x.astype(np.complex128), 64)
        with pytest.raises(TypeError, match="float32 or float64"):
            sigkern.stft(x.astype(np.int16), 64)
        with pytest.raises(TypeError, match="dtype"):
            sigkern.stft(x, 64, window=np.ones(64, np.float32))
        with pytest.raises(ValueError, match=r"shape \(48,\)"):
            sigkern.stft(x, 64, win_length=48, window=np.ones(64))
        with pytest.raises(ValueError, match="C-contiguous"):
            sigkern.stft(np.ones(2000)[::2], 64)
        with pytest.raises(NotImplementedError, match="reflect"):
            sigkern.stft(x, 64, pad_mode="circular")
        with pytest.raises(ValueError, match="pad_mode"):
            sigkern.stft(x, 64, pad_mode="zeros")
        with pytest.raises(ValueError, match="win_length"):
            sigkern.stft(x, 64, win_length=65)
        with pytest.raises(ValueError, match="hop_length"):
            sigkern.stft(x, 2)  # default hop 0
        with pytest.raises(ValueError, match="meta"):
            sigkern.stft(meta_tensor(), 8)
    with pytest.raises(sigkern.BadArgumentError, match="sk_stft_frames"):
        sigkern.stft(np.ones(32), 64)  # reflect padding needs n > n_fft / 2
    with pytest.raises(sigkern.BadArgumentError, match="sk_stft_frames"):
        sigkern.stft(np.ones(32), 64, center=False)
    with pytest.raises(sigkern.BadArgumentError, match="sk_stft_frames"):
        sigkern.stft(np.ones(200), 64, hop_length=60, win_length=40)  # hop > win_length


ISTFT_CASES = [
    (512, 128, None, "hann", True, False),
    (256, 64, 200, "hann", True, True),
    (255, 60, None, "hamming", True, False),
    (128, 32, None, "hann", False, False),
]


@DT
@pytest.mark.parametrize("case", ISTFT_CASES, ids=lambda c: f"nfft{c[0]}-c{int(c[4])}")
@pytest.mark.parametrize("onesided", [None, False])
def test_istft_matches_torch(dtype, case, onesided):
    n_fft, hop, wl, kind, center, normalized = case
    # a periodic hann has w[0] = 0: without centring torch and sigkern both fail NOLA
    wnp = signal.get_window(kind, wl or n_fft, fftbins=center).astype(dtype)
    if not center:
        wnp = wnp + dtype.type(0.1)
    wt = torch.from_numpy(wnp)
    x = rng(18).standard_normal((2, 4000)).astype(dtype)
    S = sigkern.stft(x, n_fft, hop, wl, wnp, center, "reflect", normalized, onesided)
    for length in (None, 4000, 3333, 4030):  # longer than torch's default: zero tail
        y = sigkern.istft(S, n_fft, hop, wl, wnp, center, normalized, onesided, length)
        with warnings.catch_warnings():  # torch warns when length pads the tail with zeros
            warnings.simplefilter("ignore")
            ref = torch.istft(torch.from_numpy(S.astype(np.complex128)), n_fft, hop, wl, wt.double(),
                              center, normalized, onesided, length).numpy()
        assert type(y) is np.ndarray and y.dtype == dtype and y.shape == ref.shape
        tol = 1e-12 + 1e-9 * np.abs(ref).max() if dtype == F64 else 2e-5 * np.abs(ref).max()
        assert np.max(np.abs(y - ref)) <= tol
    if center:
        y = sigkern.istft(S, n_fft, hop, wl, wnp, center, normalized, onesided, length=4000)
        assert np.max(np.abs(y - x)) <= (1e-10 if dtype == F64 else 1e-4)
    T = sigkern.istft(torch.from_numpy(S), n_fft, hop, wl, wt, center, normalized, onesided, 4000)
    assert isinstance(T, torch.Tensor) and np.array_equal(T.numpy(), sigkern.istft(S, n_fft, hop, wl, wnp, center, normalized, onesided, 4000))


def test_istft_layouts_out_and_errors():
    x = rng(19).standard_normal(3000)
    w = signal.get_window("hann", 256)
    S = sigkern.stft(x, 256, 64, window=w)
    y = sigkern.istft(S, 256, 64, window=w, length=3000)
    # a C-contiguous (n_freq, frames) array is accepted (copied once)
    assert np.array_equal(sigkern.istft(np.ascontiguousarray(S), 256, 64, window=w, length=3000), y)
    out = np.empty(3000)
    assert sigkern.istft(S, 256, 64, window=w, length=3000, out=out) is out and np.array_equal(out, y)
    with pytest.raises(ValueError, match="shape"):
        sigkern.istft(S, 256, 64, window=w, length=3000, out=np.empty(2999))
    with pytest.raises(TypeError, match="complex"):
        sigkern.istft(np.abs(S), 256, 64, window=w)
    with pytest.raises(ValueError, match="frequency bins"):
        sigkern.istft(S[:-1], 256, 64, window=w)
    with pytest.raises(ValueError, match="n_freq, frames"):
        sigkern.istft(S[:, 0], 256, 64, window=w)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.istft(S, 256, 64, window=w.astype(np.float32))
    canary = np.full(3000, 7.0)
    with pytest.raises(sigkern.BadArgumentError, match="sk_istft_f64.*NOLA"):
        sigkern.istft(S, 256, 64, window=np.zeros(256), length=3000, out=canary)
    assert (canary == 7.0).all()


# =============================================================================================
# StftStream
# =============================================================================================


@DT
@pytest.mark.parametrize("center,pad_mode", [(True, "reflect"), (True, "constant"), (False, "reflect")])
def test_stft_stream_equals_one_call(dtype, center, pad_mode):
    x = rng(20).standard_normal(5003).astype(dtype)
    w = signal.get_window("hann", 400).astype(dtype)
    want = sigkern.stft(x, 512, 160, 400, w, center, pad_mode)
    for blocks in ([5003], [1] * 3 + [5000], [0, 17, 999, 1, 3986], [256] * 19 + [139]):
        with sigkern.StftStream(512, 160, 400, w, center, pad_mode, dtype=dtype) as s:
            assert (s.n_fft, s.hop_length, s.win_length, s.n_freq, s.dtype) == (512, 160, 400, 257, dtype)
            parts, i = [], 0
            for b in blocks:
                f = s.push(x[i:i + b])
                assert f.dtype == want.dtype and f.shape[0] == 257
                parts.append(f)
                i += b
            parts.append(s.finish())
        assert np.array_equal(np.concatenate(parts, axis=-1), want)


def test_stft_stream_torch_reset_and_errors():
    x = rng(21).standard_normal(3000)
    s = sigkern.StftStream(256, 64, window="hann", dtype=np.float64, onesided=False, normalized=True)
    want = sigkern.stft(x, 256, 64, window="hann", onesided=False, normalized=True)
    a = s.push(torch.from_numpy(x[:1000]))
    b = s.push(torch.from_numpy(x[1000:]))
    c = s.finish()
    assert all(isinstance(t, torch.Tensor) for t in (a, b, c))
    assert np.array_equal(torch.cat([a, b, c], dim=-1).numpy(), want)
    with pytest.raises(sigkern.BadArgumentError, match="sk_stft_stream_push_frames"):
        s.push(x[:10])  # finished
    s.reset()
    got = np.concatenate([s.push(x), s.finish()], axis=-1)
    assert np.array_equal(got, want)
    s.reset()
    s.push(x[:50])
    with pytest.raises(sigkern.BadArgumentError, match="sk_stft_stream_finish_frames"):
        s.finish()  # 50 samples: too short for reflect padding of 128
    with pytest.raises(TypeError, match="float64"):
        s.push(x.astype(np.float32))
    with pytest.raises(ValueError, match="one-dimensional"):
        s.push(np.ones((2, 10)))
    with pytest.raises(ValueError, match="C-contiguous"):
        s.push(x[::2])
    with pytest.raises(TypeError, match="dtype"):
        sigkern.StftStream(64, dtype=np.int32)
    s.close()
    s.close()
    assert s.closed
    with pytest.raises(sigkern.InvalidHandleError, match="sk_stft_stream_push_frames"):
        s.push(x[:10])
    with pytest.raises(sigkern.InvalidHandleError, match="sk_stft_stream_reset"):
        s.reset()


def test_stft_stream_in_use_by_another_thread():
    s = sigkern.StftStream(64, 16, dtype=np.float64)
    s._lock.acquire()  # as if another thread were inside push
    try:
        with pytest.raises(sigkern.InvalidHandleError, match="in use"):
            s.push(np.ones(100))
        with pytest.raises(sigkern.InvalidHandleError, match="in use"):
            s.finish()
    finally:
        s._lock.release()
    assert s.push(np.ones(100)).shape[0] == 33  # unchanged, usable


def test_stft_streams_run_in_parallel():
    xs = [rng(40 + i).standard_normal(20000) for i in range(3)]
    wants = [sigkern.stft(x, 512, 128, window="hann") for x in xs]
    got = [None] * 3

    def work(i):
        with sigkern.StftStream(512, 128, window="hann", dtype=np.float64) as s:
            parts = [s.push(b) for b in np.array_split(xs[i], 37)] + [s.finish()]
        got[i] = np.concatenate(parts, axis=-1)

    ts = [threading.Thread(target=work, args=(i,)) for i in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert all(np.array_equal(g, w) for g, w in zip(got, wants))


# =============================================================================================
# spec_power / power_to_db
# =============================================================================================


@pytest.mark.parametrize("cdt", [C64, C128], ids=["c64", "c128"])
@pytest.mark.parametrize("shape", [(0,), (1,), (7,), (3, 1001), (2, 3, 5)])
def test_spec_power_matches_numpy(cdt, shape):
    X = cplx(rng(22), shape, F32 if cdt == C64 else F64)
    for p in (2.0, 1.0, 0.5, 3):
        got = sigkern.spec_power(X, p)
        ref = np.abs(X.astype(np.complex128)) ** p
        assert got.dtype == (F32 if cdt == C64 else F64) and got.shape == shape
        assert peak_err(got, ref) <= (4e-7 if cdt == C64 else 4e-16) * 4
    t = sigkern.spec_power(torch.from_numpy(X))
    assert isinstance(t, torch.Tensor) and np.array_equal(t.numpy(), sigkern.spec_power(X))
    out = np.empty(shape, F32 if cdt == C64 else F64)
    assert sigkern.spec_power(X, out=out) is out and np.array_equal(out, sigkern.spec_power(X))


def test_spec_power_nonfinite_and_stft_layout():
    X = np.array([complex(np.nan, 1), complex(np.inf, 0), complex(1, np.inf), 3 + 4j])
    assert np.array_equal(sigkern.spec_power(X), np.abs(X) ** 2, equal_nan=True)
    S = sigkern.stft(rng(23).standard_normal((2, 3000)), 256)
    P = sigkern.spec_power(S)  # a transposed (frame-major) view: processed as one block
    assert np.array_equal(P, np.abs(S) ** 2) or peak_err(P, np.abs(S) ** 2) <= 1e-15
    assert P.strides == np.abs(S).strides  # the input's layout
    T = sigkern.spec_power(torch.from_numpy(S))
    assert np.array_equal(T.numpy(), P)


def test_spec_power_float_view_regression(monkeypatch):
    """Complex data viewed as float used to pass twice the length to C (overlap errors, and a
    segfault at 1M values): now a TypeError before any C call."""
    X = cplx(rng(24), 1_000_000, F32)
    with NoC(monkeypatch):
        with pytest.raises(TypeError, match=r"view\(np.complex64\)"):
            sigkern.spec_power(X.view(np.float32))
        with pytest.raises(TypeError, match="complex"):
            sigkern.spec_power(torch.view_as_real(torch.from_numpy(X[:16])))
        with pytest.raises(ValueError, match="dense"):
            sigkern.spec_power(X[::2].reshape(-1, 2)[:, :1])
        with pytest.raises(ValueError, match="shape"):
            sigkern.spec_power(X[:8], out=np.empty(4, np.float32))
        ro = np.empty(8, np.float32)
        ro.flags.writeable = False
        with pytest.raises(ValueError, match="read-only"):
            sigkern.spec_power(X[:8], out=ro)
    canary = np.full(8, 5.0, np.float32)
    with pytest.raises(sigkern.BadArgumentError, match="sk_spec_power_f32"):
        sigkern.spec_power(X[:8], -1.0, out=canary)
    assert (canary == 5.0).all()


@DT
@pytest.mark.parametrize("ref", [1.0, 0.25, np.max, np.median, -2.0])
@pytest.mark.parametrize("top_db", [80.0, None, 0.0, 20])
def test_power_to_db_matches_librosa(dtype, ref, top_db):
    S = (rng(25).standard_normal((3, 200)) ** 2).astype(dtype)
    S[0, :5] = 0.0
    S[1, :3] = 1e-14
    for amin in (1e-10, 1e-3):
        got = sigkern.power_to_db(S, ref=ref, amin=amin, top_db=top_db)
        want = librosa.power_to_db(S.astype(np.float64), ref=ref, amin=amin, top_db=top_db)
        assert got.dtype == dtype and got.shape == S.shape
        assert np.max(np.abs(got - want)) <= (1e-9 if dtype == F64 else 2e-5 * max(1, np.abs(want).max()))


def test_power_to_db_float32_regression_positional():
    """power_to_db(np.float32 array, 1.0, 1e-10, 80.0) used to raise a bare KeyError: 'f32'."""
    S = np.abs(rng(26).standard_normal(1000)).astype(np.float32)
    got = sigkern.power_to_db(S, 1.0, 1e-10, 80.0)
    assert got.dtype == np.float32
    assert np.max(np.abs(got - librosa.power_to_db(S.astype(np.float64)))) <= 2e-5 * 80


def test_power_to_db_torch_out_nonfinite_and_errors(monkeypatch):
    S = np.abs(rng(27).standard_normal((2, 50))) ** 2
    want = librosa.power_to_db(S, ref=np.max)
    t = sigkern.power_to_db(torch.from_numpy(S), ref=np.max)  # numpy reductions on a tensor
    assert isinstance(t, torch.Tensor) and np.max(np.abs(t.numpy() - want)) <= 1e-9
    t2 = sigkern.power_to_db(torch.from_numpy(S), ref=torch.max)
    assert np.max(np.abs(t2.numpy() - want)) <= 1e-9
    S2 = S.copy()
    assert sigkern.power_to_db(S2, ref=np.max, out=S2) is S2  # in place
    assert np.max(np.abs(S2 - want)) <= 1e-9
    # a transposed spectrogram (stft layout) keeps its layout
    P = sigkern.spec_power(sigkern.stft(rng(28).standard_normal(2000), 128))
    D = sigkern.power_to_db(P, ref=np.max)
    assert D.strides == P.strides
    assert np.max(np.abs(D - librosa.power_to_db(P, ref=np.max))) <= 1e-9
    N = np.array([1.0, np.nan, 10.0, np.inf, 0.0])
    for td in (80.0, None):
        # the same NaN/inf placement; finite values within the logarithm's few ulp
        np.testing.assert_allclose(sigkern.power_to_db(N, top_db=td), librosa.power_to_db(N, top_db=td),
                                   rtol=1e-14, atol=0, equal_nan=True)
    with NoC(monkeypatch):
        with pytest.raises(TypeError, match="spec_power"):
            sigkern.power_to_db(S.astype(np.complex128))
        with pytest.raises(TypeError, match="float32 or float64"):
            sigkern.power_to_db(S.astype(np.int32))
        with pytest.raises(ValueError, match="dense"):
            sigkern.power_to_db(S[:, ::2])
        with pytest.raises(TypeError, match="dtype"):
            sigkern.power_to_db(S, out=np.empty(S.shape, np.float32))
    canary = np.full(S.shape, 3.0)
    with pytest.raises(sigkern.BadArgumentError, match="sk_power_to_db_f64"):
        sigkern.power_to_db(S, amin=0.0, out=canary)
    with pytest.raises(sigkern.BadArgumentError, match="sk_power_to_db_f64"):
        sigkern.power_to_db(S, top_db=-1.0, out=canary)
    assert (canary == 3.0).all()


# =============================================================================================
# mel
# =============================================================================================

MEL_FB = [
    dict(sr=22050, n_fft=2048),
    dict(sr=16000, n_fft=512, n_mels=40, fmin=20.0, fmax=7600.0),
    dict(sr=44100, n_fft=1023, n_mels=64, htk=True),
    dict(sr=8000, n_fft=256, n_mels=20, norm=None),
    dict(sr=48000, n_fft=4096, n_mels=128, fmin=50.0, htk=True, norm=None),
]


@pytest.mark.parametrize("kw", MEL_FB, ids=lambda k: f"{k['sr']}-{k['n_fft']}")
def test_mel_filters_match_librosa(kw):
    ref = librosa.filters.mel(**kw, dtype=np.float64)
    got = sigkern.mel_filters(**kw, dtype=np.float64)
    assert got.dtype == F64 and got.shape == ref.shape
    assert np.max(np.abs(got - ref)) <= 1e-12 * np.abs(ref).max()
    g32 = sigkern.mel_filters(**kw)
    assert g32.dtype == F32 and np.max(np.abs(g32 - ref)) <= 1e-7 * np.abs(ref).max()


def test_mel_filters_errors():
    with pytest.raises(NotImplementedError, match="slaney"):
        sigkern.mel_filters(22050, 2048, norm=1)
    with pytest.raises(ValueError, match="norm"):
        sigkern.mel_filters(22050, 2048, norm="htk")
    with pytest.raises(ValueError, match="fmax"):
        sigkern.mel_filters(22050, 2048, fmax=0.0)
    with pytest.raises(TypeError, match="dtype"):
        sigkern.mel_filters(22050, 2048, dtype=np.float16)
    with pytest.raises(sigkern.BadArgumentError, match="sk_mel_filterbank_f32"):
        sigkern.mel_filters(22050, 2048, fmin=5000.0, fmax=4000.0)
    with pytest.raises(sigkern.BadArgumentError, match="sk_mel_filterbank_f32"):
        sigkern.mel_filters(-1.0, 2048)


MEL_CASES = [
    dict(),
    dict(n_fft=1024, hop_length=256, n_mels=64, fmin=30.0, fmax=8000.0),
    dict(n_fft=512, hop_length=128, win_length=400, window="hamming", center=False, power=1.0),
    dict(n_fft=1000, hop_length=333, window=("kaiser", 8.0), pad_mode="reflect", htk=True, norm=None),
]


def librosa_mel64(y, **kw):
    """librosa's algorithm entirely in float64 (its own melspectrogram uses a float32 bank)."""
    stft_kw = {k: kw[k] for k in ("n_fft", "hop_length", "win_length", "window", "center", "pad_mode") if k in kw}
    S = np.abs(librosa.stft(y, **{"n_fft": 2048, "hop_length": 512, **stft_kw}, dtype=np.complex128)) ** kw.get("power", 2.0)
    mel_kw = {k: kw[k] for k in ("n_mels", "fmin", "fmax", "htk", "norm") if k in kw}
    fb = librosa.filters.mel(sr=kw.get("sr", 22050), n_fft=kw.get("n_fft", 2048), **mel_kw, dtype=np.float64)
    return np.einsum("...ft,mf->...mt", S, fb)


@pytest.mark.parametrize("kw", MEL_CASES, ids=range(len(MEL_CASES)))
def test_melspectrogram_matches_librosa(kw):
    y = rng(29).standard_normal((2, 20000))
    got = sigkern.melspectrogram(y, **kw)
    ref = librosa_mel64(y, **kw)
    assert type(got) is np.ndarray and got.dtype == F64 and got.shape == ref.shape
    assert np.max(np.abs(got - ref)) <= 1e-12 * np.abs(ref).max()
    lib = librosa.feature.melspectrogram(y=y, **kw)  # librosa itself (float32 filterbank)
    assert np.max(np.abs(got - lib)) <= 1e-6 * np.abs(lib).max()
    g32 = sigkern.melspectrogram(y.astype(np.float32), **kw)
    assert g32.dtype == F32 and np.max(np.abs(g32 - ref)) <= 1e-4 * np.abs(ref).max()
    t = sigkern.melspectrogram(torch.from_numpy(y[1]), **kw)
    assert isinstance(t, torch.Tensor) and np.array_equal(t.numpy(), got[1])


def test_mel_spectrogram_class():
    y = rng(30).standard_normal((3, 11025)).astype(np.float32)
    with sigkern.MelSpectrogram(sr=16000, n_fft=512, hop_length=160, n_mels=40, dtype=np.float32) as mel:
        assert (mel.sr, mel.n_fft, mel.hop_length, mel.win_length, mel.n_mels, mel.dtype) == \
            (16000, 512, 160, 512, 40, F32)
        assert mel.frames(11025) == 1 + 11025 // 160
        M = mel(y)
        assert M.shape == (3, 40, mel.frames(11025)) and M.dtype == F32
        assert np.array_equal(mel.melspectrogram(y), M)
        ref = librosa_mel64(y.astype(np.float64), sr=16000, n_fft=512, hop_length=160, n_mels=40)
        assert np.max(np.abs(M - ref)) <= 1e-4 * np.abs(ref).max()
        out = np.empty_like(M)
        assert mel(y, out=out) is out and np.array_equal(out, M)
        # log-mel: one row through sk_logmel, the batch floored at its global maximum as librosa
        for ref_v in (1.0, np.max):
            for top_db in (80.0, None):
                L = mel.log_mel(y, ref=ref_v, top_db=top_db)
                want = librosa.power_to_db(M.astype(np.float64), ref=ref_v, top_db=top_db)
                assert np.max(np.abs(L - want)) <= 2e-3
                L0 = mel.log_mel(y[0], ref=ref_v, top_db=top_db)
                want0 = librosa.power_to_db(M[0].astype(np.float64), ref=ref_v, top_db=top_db)
                assert np.max(np.abs(L0 - want0)) <= 2e-3
        T = mel(torch.from_numpy(y))
        assert isinstance(T, torch.Tensor) and np.array_equal(T.numpy(), M)
        with pytest.raises(TypeError, match="float32"):
            mel(y.astype(np.float64))
        with pytest.raises(ValueError, match="C-contiguous"):
            mel(y[:, ::2])
        with pytest.raises(ValueError, match="shape"):
            mel(y, out=np.empty((3, 40, 2), np.float32))
        with pytest.raises(sigkern.BadArgumentError, match="sk_mel_frames"):
            sigkern.MelSpectrogram(n_fft=512, pad_mode="reflect").frames(100)
        with pytest.raises(sigkern.BadArgumentError, match="sk_logmel_f32"):
            mel.log_mel(y[0], amin=-1.0)
    assert mel.closed
    mel.close()
    with pytest.raises(sigkern.InvalidHandleError, match="sk_mel_frames"):
        mel(y)
    with pytest.raises(NotImplementedError, match="window arrays"):
        sigkern.MelSpectrogram(window=np.hanning(2048))
    with pytest.raises(NotImplementedError, match="pad_mode"):
        sigkern.melspectrogram(np.ones(5000), pad_mode="circular")
    with pytest.raises(ValueError, match="window"):
        sigkern.melspectrogram(np.ones(5000), window="triangle")
    with pytest.raises(sigkern.BadArgumentError, match="sk_mel_plan_f64_new"):
        sigkern.melspectrogram(np.ones(5000), power=0.0)


def test_melspectrogram_reuses_its_plan():
    y = rng(41).standard_normal(8000)
    a = sigkern.melspectrogram(y, sr=8000, n_fft=256, hop_length=64, n_mels=20)
    plans = [p for k, p in spectral._mel._MEL_PLANS.items() if k[1:4] == (8000, 256, 64)]
    assert len(plans) == 1
    b = sigkern.melspectrogram(y, sr=8000, n_fft=256, hop_length=64, n_mels=20)
    assert np.array_equal(a, b) and [p for k, p in spectral._mel._MEL_PLANS.items() if k[1:4] == (8000, 256, 64)] == plans


def test_mel_plan_shared_by_threads():
    mel = sigkern.MelSpectrogram(n_mels=64, dtype=np.float64)
    y = rng(31).standard_normal(30000)
    want = mel(y)
    res = []

    def work():
        for _ in range(5):
            res.append(np.array_equal(mel(y), want))

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert len(res) == 15 and all(res)


# =============================================================================================
# convolve / correlate
# =============================================================================================

CONV_SIZES = [(1, 1), (1, 7), (7, 1), (10, 3), (3, 10), (64, 64), (257, 31), (31, 257), (5000, 300), (1000, 41)]


@DT
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
def test_convolve_correlate_match_scipy(dtype, mode, method):
    r = rng(32)
    for na, nb in CONV_SIZES:
        a = r.standard_normal(na).astype(dtype)
        b = r.standard_normal(nb).astype(dtype)
        a64, b64 = a.astype(np.float64), b.astype(np.float64)
        bound = (1e-13 if dtype == F64 else 1e-6) * np.abs(a64).sum() * np.abs(b64).max() + 1e-300
        bound = max(bound, (1e-13 if dtype == F64 else 1e-6) * np.abs(b64).sum() * np.abs(a64).max())
        for ours, ref in ((sigkern.convolve, signal.convolve), (sigkern.correlate, signal.correlate)):
            got = ours(a, b, mode, method)
            want = ref(a64, b64, mode, method="direct")
            assert got.dtype == dtype and got.shape == want.shape, (ours.__name__, na, nb, mode)
            assert np.max(np.abs(got - want), initial=0.0) <= bound, (ours.__name__, na, nb, mode)


def test_convolve_torch_out_empty_and_nonfinite():
    a = rng(33).standard_normal(100)
    b = rng(34).standard_normal(9)
    y = sigkern.convolve(a, b)
    t = sigkern.convolve(torch.from_numpy(a), torch.from_numpy(b))
    assert isinstance(t, torch.Tensor) and np.array_equal(t.numpy(), y)
    out = np.empty(100)
    assert sigkern.correlate(a, b, "same", out=out) is out
    assert np.max(np.abs(out - signal.correlate(a, b, "same"))) <= 1e-13 * np.abs(a).sum() * np.abs(b).max()
    for f in (sigkern.convolve, sigkern.correlate):  # scipy raises for empty input too
        with pytest.raises(ValueError, match="empty"):
            f(np.array([]), b)
        with pytest.raises(ValueError, match="empty"):
            f(a, np.array([]), "same")
    n = np.array([1.0, np.nan, 2.0])
    assert np.array_equal(sigkern.convolve(n, np.ones(2)), signal.convolve(n, np.ones(2)), equal_nan=True)


def test_convolve_errors(monkeypatch):
    a, b = np.ones(10), np.ones(3)
    with NoC(monkeypatch):
        with pytest.raises(ValueError, match="same dimensionality"):
            sigkern.convolve(np.ones((2, 10)), b)
        with pytest.raises(ValueError, match="same dimensionality"):
            sigkern.correlate(a, np.float64(2.0))
        with pytest.raises(ValueError, match="mode"):
            sigkern.convolve(a, b, mode="circular")
        with pytest.raises(ValueError, match="mode"):
            sigkern.convolve(np.ones((2, 2)), np.ones((2, 2)), mode="circular")
        with pytest.raises(ValueError, match="method"):
            sigkern.correlate(a, b, method="overlap-add")
        with pytest.raises(ValueError, match="shape"):
            sigkern.convolve(a, b, out=np.empty(10))
        with pytest.raises(ValueError, match="meta"):
            sigkern.convolve(meta_tensor(), meta_tensor())
        with pytest.raises(ValueError, match="every dimension"):
            sigkern.convolve(np.ones((2, 3)), np.ones((3, 2)), "valid")
        with pytest.raises(TypeError, match="long|dtype"):
            sigkern.convolve(np.ones((2, 2), np.longdouble), np.ones((2, 2)))
        with pytest.raises(TypeError, match="dtype"):
            sigkern.convolve(np.array(["a", "b"]), np.array(["c"]))
        with pytest.raises(ValueError, match="2\\*\\*53"):  # not exact in float64
            sigkern.convolve(np.full(3, 2**40), np.full(3, 2**20))
        for f in (sigkern.fftconvolve, sigkern.oaconvolve):
            with pytest.raises(ValueError, match="incompatible shapes"):
                f(np.ones((2, 3)), np.ones((3, 3)), axes=1)
            with pytest.raises(ValueError, match="axes exceeds"):
                f(np.ones(3), np.ones(3), axes=1)
            with pytest.raises(ValueError, match="acceptable mode"):
                f(np.ones(3), np.ones(3), mode="nope")


# N-D: the 1-D C kernels over flattened padded rows (FFT) or pairs of rows (direct)
ND_SHAPES = [((5, 7), (3, 4)), ((3, 4), (5, 7)), ((6, 1, 9), (2, 3, 4)), ((4, 33), (4, 33)), ((1, 50), (3, 1))]


@pytest.mark.parametrize("method", ["auto", "direct", "fft"])
def test_convolve_correlate_nd_match_scipy(method):
    r = rng(35)
    for s1, s2 in ND_SHAPES:
        for dt in (F64, F32, np.complex128):
            a = r.standard_normal(s1).astype(dt)
            b = r.standard_normal(s2).astype(dt)
            if dt == np.complex128:
                a = a + 1j * r.standard_normal(s1)
                b = b - 1j * r.standard_normal(s2)
            tol = (1e-13 if dt != F32 else 1e-5) * np.abs(a).sum() * np.abs(b).max() + 1e-300
            for mode in ("full", "same", "valid"):
                if mode == "valid" and not (all(x >= y for x, y in zip(s1, s2)) or all(x <= y for x, y in zip(s1, s2))):
                    continue
                for ours, ref in ((sigkern.convolve, signal.convolve), (sigkern.correlate, signal.correlate)):
                    got = ours(a, b, mode, method)
                    want = ref(a.astype(np.complex128), b.astype(np.complex128), mode, method="direct")
                    assert got.dtype == dt and got.shape == want.shape, (ours.__name__, s1, s2, mode)
                    assert np.max(np.abs(got - want), initial=0.0) <= tol, (ours.__name__, s1, s2, mode, dt)


def test_convolve_nd_integers_exact_and_nan_local():
    r = rng(36)
    a = r.integers(-1000, 1000, (20, 30)).astype(np.int32)
    b = r.integers(-1000, 1000, (7, 5)).astype(np.int32)
    b16 = b.astype(np.int16)  # mixed integer dtypes: scipy's direct path refuses, sigkern promotes
    assert np.array_equal(sigkern.convolve(a, b16, method="direct"), signal.convolve(a, b))
    for mode in ("full", "same", "valid"):
        for method in ("auto", "direct"):
            got = sigkern.convolve(a, b, mode, method)
            want = signal.convolve(a, b, mode, method="direct")
            assert got.dtype == want.dtype and np.array_equal(got, want)
        got = sigkern.correlate(a, b, mode, "direct")
        assert np.array_equal(got, signal.correlate(a, b, mode, "direct"))
    u = r.integers(0, 2, 24).astype(bool)  # bool: scipy's N-D direct path refuses it, 1-D is numpy's
    got = sigkern.convolve(u, u[:5])
    assert got.dtype == bool and np.array_equal(got, signal.convolve(u, u[:5]))
    big = np.array([2**40], np.int64)  # one element: integer arithmetic (wraps as scipy's)
    assert np.array_equal(sigkern.convolve(big, big), signal.convolve(big, big))
    # direct: a NaN reaches only the outputs its kernel footprint covers, as in scipy
    x = r.standard_normal((9, 9))
    x[4, 4] = np.nan
    k = r.standard_normal((3, 3))
    assert np.array_equal(np.isnan(sigkern.convolve(x, k, "same", "direct")),
                          np.isnan(signal.convolve(x, k, "same", "direct")))
    with pytest.warns(RuntimeWarning, match="fft convolution"):
        sigkern.convolve(np.full(5, np.nan), np.ones(2), method="fft")


def test_fftconvolve_axes_broadcast():
    r = rng(37)
    x = r.standard_normal((3, 200, 2))
    h = r.standard_normal((1, 31, 2))
    for f, ref in ((sigkern.fftconvolve, signal.fftconvolve), (sigkern.oaconvolve, signal.oaconvolve)):
        for axes in (1, [1], [0, 1], None, -2):
            for mode in ("full", "same", "valid"):
                got = f(x, h, mode, axes=axes)
                want = ref(x, h, mode, axes=axes)
                assert got.shape == want.shape and got.dtype == want.dtype, (axes, mode)
                assert np.allclose(got, want, rtol=0, atol=1e-12 * np.abs(x).sum() * np.abs(h).max())
    x32 = x.astype(np.float32)
    got = sigkern.fftconvolve(x32, h.astype(np.complex64), axes=1)
    assert got.dtype == np.complex64
    assert np.allclose(got, signal.fftconvolve(x, h, axes=1), atol=1e-4)
    assert sigkern.fftconvolve(np.array([]), np.ones(3)).shape == (0,)
    assert sigkern.fftconvolve(np.float64(3.0), np.float64(2.0)) == 6.0
    t = sigkern.convolve(torch.ones(2, 3, dtype=torch.float64), torch.ones(1, 2, dtype=torch.float64))
    assert isinstance(t, torch.Tensor) and t.shape == (2, 4)
    out = np.empty((2, 4))
    assert sigkern.correlate(np.ones((2, 3)), np.ones((1, 2)), out=out) is out and out[0, 1] == 2.0


def test_every_spectral_c_function_is_bound():
    from sigkern._lib import USED

    import pathlib
    import re

    hdr = pathlib.Path(sigkern.include_dir(), "sigkern_cdef.h").read_text()
    names = set(re.findall(r"\b(sk_\w+)\s*\(", hdr))
    stems = ("sk_fft", "sk_rfft", "sk_irfft", "sk_ifft", "sk_window", "sk_stft", "sk_istft",
             "sk_spec_power", "sk_power_to_db", "sk_mel", "sk_logmel", "sk_convolve", "sk_correlate")
    # sk_window_* is superseded by sk_window_params_* (every window, see test_py_package)
    spectral_names = {n for n in names if n.startswith(stems)} - {"sk_window_f32", "sk_window_f64"}
    assert len(spectral_names) >= 50
    assert spectral_names <= USED, sorted(spectral_names - USED)
