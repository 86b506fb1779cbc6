"""The Python binding's audio side: 1-D numpy/torch views (x[::2], reversed arrays, a column of
a 2-D array, a row of a (batch, time) tensor) map onto the sk_<op>_strided_* kernels zero-copy;
mixed dtypes, unaligned strides and misaligned data are still refused before any C call; the
hand-written PCM, layout, gain and per-row wrappers."""

import numpy as np
import pytest

import sigkern

torch = pytest.importorskip("torch")


class Recorder:
    def __init__(self, lib):
        self._lib, self.calls = lib, []

    def __getattr__(self, name):
        attr = getattr(self._lib, name)
        if name.startswith("sk_") and callable(attr) and name not in ("sk_status_name", "sk_last_error_message"):
            def wrapper(*args):
                self.calls.append(name)
                return attr(*args)
            return wrapper
        return attr


@pytest.fixture
def rec(monkeypatch):
    r = Recorder(sigkern.lib)
    monkeypatch.setattr(sigkern, "lib", r)
    return r


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_numpy_views_use_strided_kernels(rec, dtype):
    rng = np.random.default_rng(0)
    base = rng.standard_normal(101).astype(dtype)
    m = rng.standard_normal((50, 7)).astype(dtype)
    t = "f32" if dtype == np.float32 else "f64"
    for v in (base[::2], base[::-1], base[90:5:-3], m[:, 3]):
        keep = base.copy(), m.copy()
        n = v.size
        y = sigkern.scale(v, 2.0)
        assert np.array_equal(y, v * dtype(2.0)) and y.flags.c_contiguous
        assert rec.calls[-1] == f"sk_scale_strided_{t}"
        assert sigkern.sum(v) == pytest.approx(float(v.astype(np.float64).sum()), rel=1e-5, abs=1e-4)
        assert rec.calls[-1] == f"sk_sum_strided_{t}"
        assert sigkern.peak(v) == np.abs(v).max() and sigkern.min(v) == v.min() and sigkern.max(v) == v.max()
        assert sigkern.rms(v) == pytest.approx(float(np.sqrt(np.mean(v.astype(np.float64) ** 2))), rel=1e-6)
        w = rng.standard_normal(n).astype(dtype)
        assert np.array_equal(sigkern.add(v, w), v + w) and np.array_equal(sigkern.mul(w, v), w * v)
        assert sigkern.dot(v, w) == pytest.approx(float(np.dot(v.astype(np.float64), w)), rel=1e-5, abs=1e-4)
        assert np.array_equal(sigkern.clip(v, -0.5, 0.5), np.clip(v, dtype(-0.5), dtype(0.5)))
        assert np.array_equal(sigkern.copy(v), v)
        assert np.array_equal(base, keep[0]) and np.array_equal(m, keep[1])
    # writing into a view: in place, and into a strided out=
    b = base.copy()
    sigkern.scale(b[::3], 0.5, out=b[::3])
    want = base.copy()
    want[::3] *= dtype(0.5)
    assert np.array_equal(b, want) and rec.calls[-1] == f"sk_scale_strided_{t}"
    y = np.zeros(40, dtype)
    sigkern.copy(base[:20], out=y[::-2])
    assert np.array_equal(y[::-2], base[:20]) and np.all(y[-2::-2] == 0)
    acc = np.zeros((20, 3), dtype)
    sigkern.axpy(base[:20], 2.0, acc[:, 1])
    assert np.array_equal(acc[:, 1], dtype(2.0) * base[:20]) and not acc[:, [0, 2]].any()
    z = np.zeros(30, dtype)
    sigkern.fill(1.5, out=z[1::3])
    assert z.tolist() == [0.0, 1.5, 0.0] * 10


def test_torch_views_use_strided_kernels(rec):
    bt = torch.randn(8, 4800)
    col = bt[:, 17]  # stride 4800
    assert col.stride() == (4800,)
    assert sigkern.sum(col) == pytest.approx(float(col.double().sum()), rel=1e-5, abs=1e-4)
    assert rec.calls[-1] == "sk_sum_strided_f32"
    rev = torch.flip(bt[2], [0])  # torch has no negative strides: flip is a (contiguous) copy
    assert sigkern.peak(rev) == float(bt[2].abs().max())
    row = bt[3]  # a row of (batch, time): contiguous, no strided call needed
    assert sigkern.rms(row) == pytest.approx(float(row.double().pow(2).mean().sqrt()), rel=1e-6)
    assert rec.calls[-1] == "sk_rms_f32"
    ev = bt[1, ::2]
    out = sigkern.scale(ev, 3.0)
    assert isinstance(out, torch.Tensor) and torch.equal(out, ev * 3.0)
    assert rec.calls[-1] == "sk_scale_strided_f32"


def test_still_refused(rec):
    x = np.arange(20, dtype=np.float32)
    # mixed dtypes
    with pytest.raises(TypeError, match="mixed dtypes"):
        sigkern.add(x[::2], np.arange(10, dtype=np.float64))
    # a stride that is not a whole number of elements (a field of a structured array)
    rec_arr = np.zeros(10, dtype=[("a", np.float32), ("b", np.int16)])
    with pytest.raises(ValueError, match="not a multiple of the 4-byte element"):
        sigkern.sum(rec_arr["a"])
    # misaligned data
    raw = np.zeros(100, np.uint8)
    mis = raw[1:81].view(np.float32)[::2]
    with pytest.raises(ValueError, match="not aligned"):
        sigkern.sum(mis)
    # non-contiguous 2-D, and kernels without a strided variant
    with pytest.raises(ValueError, match="ascontiguousarray"):
        sigkern.sum(np.ones((4, 4), np.float32).T)
    with pytest.raises(ValueError, match="ascontiguousarray"):
        sigkern.abs(x[::2])
    assert rec.calls == []


def test_overlapping_views_raise_sigkern_error():
    x = np.arange(20, dtype=np.float32)
    with pytest.raises(sigkern.SigkernError) as e:
        sigkern.scale(x[::2], 2.0, out=x[1::2])
    assert e.value.name == "SK_ERR_OVERLAP"
    assert np.array_equal(x, np.arange(20))


def test_pcm_layout_gain_rows_wrappers():
    rng = np.random.default_rng(1)
    x = rng.uniform(-1, 1, 1000).astype(np.float32)
    for fmt in ("i16", "i32", "u8", "i24"):
        codes = sigkern.float_to_pcm(x, fmt)
        back = sigkern.pcm_to_float(codes, fmt)
        bits = {"i16": 16, "i32": 32, "u8": 8, "i24": 24}[fmt]
        # half a code, or a whole one at the top where 1.0 saturates to the largest code
        assert np.max(np.abs(back - x)) <= 2.0 ** -(bits - 1) + 1e-7
        assert np.max(np.abs(back - x)[x < 0.99]) <= 2.0 ** -bits + 1e-7
    c16 = sigkern.float_to_pcm(x[::-2])
    assert np.array_equal(c16, np.clip(np.rint(x[::-2].astype(np.float64) * 32768), -32768, 32767).astype(np.int16))
    bad = x.copy()
    bad[7] = np.nan
    out = np.full(1000, 5, np.int16)
    with pytest.raises(sigkern.SigkernError, match="SK_ERR_NON_FINITE"):
        sigkern.float_to_pcm(bad, "i16", out=out)
    assert np.all(out == 5)
    assert np.array_equal(sigkern.convert(x[::3], np.float64), x[::3].astype(np.float64))
    st = rng.standard_normal((500, 6)).astype(np.float32)
    blk = sigkern.deinterleave(st, 6)
    assert np.array_equal(blk, st.T)
    assert np.array_equal(sigkern.interleave(blk), st)
    assert np.array_equal(sigkern.interleave([blk[i] for i in range(6)]), st)
    with pytest.raises(sigkern.SigkernError, match="SK_ERR_BAD_ARGUMENT"):
        sigkern.deinterleave(st, 0)
    r = sigkern.gain_ramp(x, 1.0, 0.0)
    assert np.allclose(r, x * (1 - np.arange(1000) / 1000), rtol=1e-6, atol=1e-7)
    with pytest.raises(sigkern.SigkernError, match="SK_ERR_BAD_ARGUMENT"):
        sigkern.gain_ramp(x, float("nan"), 0.0)
    xf = sigkern.crossfade(x, -x)
    assert xf[0] == x[0]
    tm = torch.randn(16, 4800)
    assert torch.allclose(sigkern.rows_rms(tm), tm.pow(2).mean(dim=1).sqrt(), rtol=1e-5)
    assert np.allclose(sigkern.rows_mean(tm.numpy()[::-1]), tm.numpy()[::-1].mean(axis=1), atol=1e-6)
    n = sigkern.rows_normalize_peak(tm[:, :100])  # padded rows (row stride 4800)
    assert torch.allclose(n.abs().max(dim=1).values, torch.ones(16))


def test_pcm_wrappers_on_torch_tensors():
    codes = torch.arange(-32768, 32768, 7, dtype=torch.int16)
    f = sigkern.pcm_to_float(codes)
    assert isinstance(f, torch.Tensor) and f.dtype == torch.float32
    assert torch.equal(f, codes.to(torch.float32) / 32768)
    back = sigkern.float_to_pcm(f, "i16")
    assert isinstance(back, torch.Tensor) and torch.equal(back, codes)
    # a strided tensor view of codes (every other one) → float64
    g = sigkern.pcm_to_float(codes[::2], dtype=np.float64)
    assert torch.equal(g, codes[::2].to(torch.float64) / 32768)
    with pytest.raises(TypeError, match="torch.int16"):
        sigkern.float_to_pcm(f, "i16", out=torch.zeros(codes.numel(), dtype=torch.int32))


def test_stride_role_only_for_strided_kernels():
    """`ptrdiff_t <name>_stride` maps to the array's element stride only in sk_<op>_strided_*;
    other kernels' strides (e.g. a channel stride) are not guessed."""
    assert sigkern._role_of("scale_strided", "ptrdiff_t", "x_stride") == ("stride", None)
    with pytest.raises(sigkern._NoRole, match="x_stride"):
        sigkern._role_of("sosfilt", "ptrdiff_t", "x_stride")
