"""FFT plans against numpy.fft in float64 (and float32 within a documented bound), every n from
1 to 64 plus large primes, all norms, batched/strided, in place, and every bad input (canaries
prove nothing is written)."""

import threading

import numpy as np
import pytest

NORMS = {"backward": 0, "ortho": 1, "forward": 2}
SIZES = list(range(1, 65)) + [127, 128, 1000, 1009, 4096, 7919, 65536, 65537]
# float32: error relative to max|reference| (rustfft in float32, O(log n) rounding growth)
F32_REL = 2e-6


def new_plan(sk, ffi, kind, n, dtype=np.float64):
    pp = ffi.new("SkFftPlan **")
    new = sk.sk_fft_plan_f64_new if dtype == np.float64 else sk.sk_fft_plan_f32_new
    assert new(kind, n, pp) == sk.SK_OK
    return ffi.gc(pp[0], sk.sk_fft_plan_free)


def ptr(ffi, a):
    return ffi.from_buffer("double[]" if a.dtype in (np.float64, np.complex128) else "float[]", a)


def rel(a, b):
    scale = max(np.abs(b).max(), 1e-300)
    return np.abs(a - b).max() / scale


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(5)


@pytest.mark.parametrize("n", SIZES)
def test_real_fft_f64_matches_numpy_and_round_trips(sk, ffi, rng, n):
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n)
    x = rng.standard_normal(n)
    for name, code in NORMS.items():
        y = np.full(n // 2 + 1, np.nan, complex)
        assert sk.sk_rfft_f64(plan, ptr(ffi, x), code, ptr(ffi, y), n) == sk.SK_OK
        want = np.fft.rfft(x, norm=name)
        assert rel(y, want) < 1e-13, (n, name)
        back = np.full(n, np.nan)
        assert sk.sk_irfft_f64(plan, ptr(ffi, y), code, ptr(ffi, back), n) == sk.SK_OK
        assert rel(back, x) < 1e-12, (n, name)
        assert rel(back, np.fft.irfft(want, n, norm=name)) < 1e-12


@pytest.mark.parametrize("n", SIZES)
def test_complex_fft_f64_matches_numpy_and_round_trips(sk, ffi, rng, n):
    plan = new_plan(sk, ffi, sk.SK_FFT_COMPLEX, n)
    x = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    for name, code in NORMS.items():
        y = np.full(n, np.nan, complex)
        assert sk.sk_fft_f64(plan, ptr(ffi, x), code, ptr(ffi, y), n) == sk.SK_OK
        assert rel(y, np.fft.fft(x, norm=name)) < 1e-13, (n, name)
        back = y.copy()
        # in place (y == x)
        assert sk.sk_ifft_f64(plan, ptr(ffi, back), code, ptr(ffi, back), n) == sk.SK_OK
        assert rel(back, x) < 1e-12, (n, name)
        assert rel(back, np.fft.ifft(y, norm=name)) < 1e-12


@pytest.mark.parametrize("n", [1, 2, 3, 5, 16, 17, 64, 1000, 1009, 4096, 65537])
def test_float32_within_documented_bound(sk, ffi, rng, n):
    x = rng.standard_normal(n).astype(np.float32)
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n, np.float32)
    y = np.zeros(n // 2 + 1, np.complex64)
    assert sk.sk_rfft_f32(plan, ptr(ffi, x), 0, ptr(ffi, y), n) == sk.SK_OK
    assert rel(y, np.fft.rfft(x.astype(np.float64))) < F32_REL
    back = np.zeros(n, np.float32)
    assert sk.sk_irfft_f32(plan, ptr(ffi, y), 0, ptr(ffi, back), n) == sk.SK_OK
    assert rel(back, x) < F32_REL
    cplan = new_plan(sk, ffi, sk.SK_FFT_COMPLEX, n, np.float32)
    z = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(np.complex64)
    out = np.zeros(n, np.complex64)
    assert sk.sk_fft_f32(cplan, ptr(ffi, z), 1, ptr(ffi, out), n) == sk.SK_OK
    assert rel(out, np.fft.fft(z.astype(np.complex128), norm="ortho")) < F32_REL
    assert sk.sk_ifft_f32(cplan, ptr(ffi, out), 1, ptr(ffi, out), n) == sk.SK_OK
    assert rel(out, z) < F32_REL


def test_adversarial_values(sk, ffi):
    n = 16
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n)
    for x in (np.zeros(n), np.full(n, 1e300), np.full(n, 5e-324), np.eye(1, n, 3)[0]):
        y = np.zeros(n // 2 + 1, complex)
        assert sk.sk_rfft_f64(plan, ptr(ffi, x), 0, ptr(ffi, y), n) == sk.SK_OK
        with np.errstate(all="ignore"):
            want = np.fft.rfft(x)
        np.testing.assert_allclose(y, want, rtol=1e-13, atol=1e-320)
    x = np.zeros(n)
    x[5] = np.nan
    y = np.zeros(n // 2 + 1, complex)
    assert sk.sk_rfft_f64(plan, ptr(ffi, x), 0, ptr(ffi, y), n) == sk.SK_OK
    assert np.isnan(y).all()  # NaN propagates as in numpy
    # irfft ignores the imaginary parts of DC and Nyquist, as numpy
    spec = np.array([1 + 5j, 2 - 1j, 0.5 + 0.25j, 3 + 7j] + [0] * 5, complex)
    back = np.zeros(n)
    assert sk.sk_irfft_f64(plan, ptr(ffi, spec), 0, ptr(ffi, back), n) == sk.SK_OK
    np.testing.assert_allclose(back, np.fft.irfft(spec, n), rtol=0, atol=1e-15)


def test_batched_strided_rows(sk, ffi, rng):
    n, rows = 30, 7
    big = rng.standard_normal((rows, 37))
    x = big[:, 3 : 3 + n]  # row stride 37
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n)
    ystore = np.full((rows, 20), np.nan, complex)  # row stride 20 >= 16
    xp = ffi.from_buffer("double[]", big) + 3
    assert sk.sk_rfft_batch_f64(plan, xp, 37, 1, ptr(ffi, ystore), 20, rows, n) == sk.SK_OK
    assert rel(ystore[:, :16], np.fft.rfft(x, axis=-1, norm="ortho")) < 1e-13
    assert np.isnan(ystore[:, 16:]).all()  # gaps between rows untouched
    back = np.full((rows, 33), np.nan)
    assert sk.sk_irfft_batch_f64(plan, ptr(ffi, ystore), 20, 1, ptr(ffi, back), 33, rows, n) == sk.SK_OK
    assert rel(back[:, :n], x) < 1e-12
    assert np.isnan(back[:, n:]).all()
    # stride 0 broadcasts one row
    one = np.full((3, 16), np.nan, complex)
    assert sk.sk_rfft_batch_f64(plan, ptr(ffi, x[0].copy()), 0, 0, ptr(ffi, one), 16, 3, n) == sk.SK_OK
    assert rel(one, np.tile(np.fft.rfft(x[0]), (3, 1))) < 1e-13
    # complex batch in place, both directions
    cplan = new_plan(sk, ffi, sk.SK_FFT_COMPLEX, 12)
    z = rng.standard_normal((5, 12)) + 1j * rng.standard_normal((5, 12))
    buf = z.copy()
    assert sk.sk_fft_batch_f64(cplan, ptr(ffi, buf), 12, 0, 0, ptr(ffi, buf), 12, 5, 12) == sk.SK_OK
    assert rel(buf, np.fft.fft(z, axis=-1)) < 1e-13
    assert sk.sk_fft_batch_f64(cplan, ptr(ffi, buf), 12, 1, 0, ptr(ffi, buf), 12, 5, 12) == sk.SK_OK
    assert rel(buf, z) < 1e-12
    # rows = 0 is a no-op
    assert sk.sk_rfft_batch_f64(plan, ffi.NULL, 0, 0, ffi.NULL, 0, 0, n) == sk.SK_OK


def test_one_plan_many_threads(sk, ffi):
    n = 4096
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n)
    errors = []

    def work(seed):
        r = np.random.default_rng(seed)
        for _ in range(40):
            x = r.standard_normal(n)
            y = np.zeros(n // 2 + 1, complex)
            if sk.sk_rfft_f64(plan, ptr(ffi, x), 0, ptr(ffi, y), n) != sk.SK_OK:
                errors.append("status")
            if rel(y, np.fft.rfft(x)) > 1e-13:
                errors.append("value")

    ts = [threading.Thread(target=work, args=(s,)) for s in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert errors == []


def test_plan_info(sk, ffi):
    plan = new_plan(sk, ffi, sk.SK_FFT_COMPLEX, 77, np.float32)
    k, n, d = ffi.new("int32_t *"), ffi.new("size_t *"), ffi.new("int32_t *")
    assert sk.sk_fft_plan_info(plan, k, n, d) == sk.SK_OK
    assert (k[0], n[0], d[0]) == (sk.SK_FFT_COMPLEX, 77, 0)


def test_bad_plan_creation(sk, ffi, last_error):
    pp = ffi.new("SkFftPlan **")
    pp[0] = ffi.cast("SkFftPlan *", 0x1234)  # canary
    assert sk.sk_fft_plan_f64_new(sk.SK_FFT_REAL, 0, pp) == sk.SK_ERR_LENGTH
    assert "n = 0" in last_error()
    assert sk.sk_fft_plan_f64_new(7, 8, pp) == sk.SK_ERR_BAD_ARGUMENT
    assert "kind = 7" in last_error()
    assert int(ffi.cast("uintptr_t", pp[0])) == 0x1234
    assert sk.sk_fft_plan_f32_new(0, 8, ffi.NULL) == sk.SK_ERR_NULL_POINTER


def test_bad_execution_inputs_write_nothing(sk, ffi, last_error):
    n = 16
    plan = new_plan(sk, ffi, sk.SK_FFT_REAL, n)
    cplan = new_plan(sk, ffi, sk.SK_FFT_COMPLEX, n)
    plan32 = new_plan(sk, ffi, sk.SK_FFT_REAL, n, np.float32)
    x = np.arange(n, dtype=float)
    y = np.full(n // 2 + 1, 7 + 7j)
    xp, yp = ptr(ffi, x), ptr(ffi, y)

    def check(rc, code, text):
        assert rc == code, last_error()
        assert text in last_error()
        assert (y == 7 + 7j).all()

    check(sk.sk_rfft_f64(plan, xp, 0, yp, 15), sk.SK_ERR_BAD_ARGUMENT, "n = 15 but the plan was made for n = 16")
    check(sk.sk_rfft_f64(plan, xp, 0, yp, 0), sk.SK_ERR_BAD_ARGUMENT, "n = 0")
    check(sk.sk_rfft_f64(plan, xp, 3, yp, n), sk.SK_ERR_BAD_ARGUMENT, "norm = 3")
    check(sk.sk_rfft_f64(cplan, xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE, "complex FFT plan")
    check(sk.sk_fft_f64(plan, xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE, "real FFT plan")
    check(sk.sk_rfft_f64(plan32, xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE, "float FFT plan")
    check(sk.sk_rfft_f64(ffi.NULL, xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE, "plan is NULL")
    bogus = ffi.cast("SkFftPlan *", 0xDEADBEEF0)
    check(sk.sk_rfft_f64(bogus, xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE, "not a live sigkern handle")
    check(sk.sk_rfft_f64(plan, ffi.NULL, 0, yp, n), sk.SK_ERR_NULL_POINTER, "argument x is NULL")
    check(sk.sk_rfft_f64(plan, xp + 0, 0, ffi.cast("double *", int(ffi.cast("uintptr_t", yp)) + 4), n),
          sk.SK_ERR_MISALIGNED, "argument y")
    # overlap: output on top of the input
    both = np.full(40, 7.0)
    bp = ffi.from_buffer("double[]", both)
    assert sk.sk_rfft_f64(plan, bp, 0, bp + 4, n) == sk.SK_ERR_OVERLAP
    assert (both == 7.0).all()
    # strides
    check(sk.sk_rfft_batch_f64(plan, xp, -1, 0, yp, 9, 1, n), sk.SK_ERR_BAD_ARGUMENT, "x_stride = -1")
    check(sk.sk_rfft_batch_f64(plan, xp, 0, 0, yp, 8, 2, n), sk.SK_ERR_BAD_ARGUMENT, "y_stride = 8")
    # a stream handle is not an FFT plan
    sp = ffi.new("SkStftStream **")
    w = np.ones(8)
    assert sk.sk_stft_stream_f64_new(ptr(ffi, w), 8, 2, 8, 1, 1, 1, 0, sp) == sk.SK_OK
    check(sk.sk_rfft_f64(ffi.cast("SkFftPlan *", sp[0]), xp, 0, yp, n), sk.SK_ERR_INVALID_HANDLE,
          "a double STFT stream")
    assert sk.sk_fft_plan_free(ffi.cast("SkFftPlan *", sp[0])) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_stft_stream_free(sp[0]) == sk.SK_OK


def test_freed_plan_and_double_free(sk, ffi, last_error):
    pp = ffi.new("SkFftPlan **")
    assert sk.sk_fft_plan_f64_new(sk.SK_FFT_REAL, 8, pp) == sk.SK_OK
    p = pp[0]
    assert sk.sk_fft_plan_free(p) == sk.SK_OK
    x, y = np.ones(8), np.full(5, 3 + 3j)
    assert sk.sk_rfft_f64(p, ptr(ffi, x), 0, ptr(ffi, y), 8) == sk.SK_ERR_INVALID_HANDLE
    assert "not a live sigkern handle" in last_error()
    assert (y == 3 + 3j).all()
    assert sk.sk_fft_plan_free(p) == sk.SK_ERR_INVALID_HANDLE
    assert sk.sk_fft_plan_free(ffi.NULL) == sk.SK_OK
    # a new plan never reuses the freed handle value
    assert sk.sk_fft_plan_f64_new(sk.SK_FFT_REAL, 8, pp) == sk.SK_OK
    assert pp[0] != p
    assert sk.sk_fft_plan_free(pp[0]) == sk.SK_OK


def test_free_while_other_threads_execute(sk, ffi):
    """Freeing a plan while other threads use it: every call returns SK_OK (started before the
    free, correct result) or SK_ERR_INVALID_HANDLE (after it); nothing crashes."""
    n = 2048
    pp = ffi.new("SkFftPlan **")
    assert sk.sk_fft_plan_f64_new(sk.SK_FFT_REAL, n, pp) == sk.SK_OK
    plan = pp[0]
    x = np.random.default_rng(9).standard_normal(n)
    want = np.fft.rfft(x)
    seen, bad = set(), []
    started = threading.Barrier(4)

    def work():
        y = np.zeros(n // 2 + 1, complex)
        started.wait()
        for _ in range(3000):
            rc = sk.sk_rfft_f64(plan, ptr(ffi, x), 0, ptr(ffi, y), n)
            seen.add(rc)
            if rc == sk.SK_OK and rel(y, want) > 1e-13:
                bad.append("value")
            if rc not in (sk.SK_OK, sk.SK_ERR_INVALID_HANDLE):
                bad.append(rc)
            if rc == sk.SK_ERR_INVALID_HANDLE:
                break

    ts = [threading.Thread(target=work) for _ in range(3)]
    for t in ts:
        t.start()
    started.wait()
    assert sk.sk_fft_plan_free(plan) == sk.SK_OK
    for t in ts:
        t.join()
    assert bad == []
    assert sk.SK_ERR_INVALID_HANDLE in seen


def test_absurd_sizes_are_refused_not_aborted(sk, ffi, last_error):
    """Sizes whose plans would need terabytes are SK_ERR_LENGTH (planning cannot report a failed
    allocation, so the library refuses them up front instead of aborting the process)."""
    pp = ffi.new("SkFftPlan **")
    for n in (2**28 + 1, 2**40, 2**63):
        assert sk.sk_fft_plan_f64_new(sk.SK_FFT_REAL, n, pp) == sk.SK_ERR_LENGTH
        assert "largest supported FFT length" in last_error()
    frames = ffi.new("size_t *")
    assert sk.sk_stft_frames(2**40, 1, 1, 1, 0, frames, 10) == sk.SK_ERR_LENGTH
    x, w, y = np.ones(10), np.ones(1), np.zeros(8, complex)
    assert sk.sk_stft_f64(ptr(ffi, x), ptr(ffi, w), 2**40, 1, 1, 1, 0, 1, 0, ptr(ffi, y), 4, 10) == sk.SK_ERR_LENGTH
    assert (y == 0).all()
    mp = ffi.new("SkMelPlan **")
    assert sk.sk_mel_plan_f64_new(16000, 512, 128, 512, 1, 0.0, 1, 0, 2.0, 2**40, 0.0, 0.0, 0, 1, mp) == sk.SK_ERR_LENGTH
    wb = np.zeros(4)
    assert sk.sk_mel_filterbank_f64(16000, 2**62, 4, 0.0, 0.0, 0, 1, ptr(ffi, wb), 4) == sk.SK_ERR_LENGTH
