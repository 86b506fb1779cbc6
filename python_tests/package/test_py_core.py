"""sigkern.core through the package: every elementwise kernel and reduction against independent
references (numpy in float64, math.fsum) on random and adversarial data, numpy arrays and torch
tensors, out=, shapes, strided views, per-row reductions, and the refusals (before any C call)
and library errors (the right exception class, the library's message, nothing written)."""

import math

import numpy as np
import pytest

import sigkern
from sk_util import (
    DTYPES, ELEMENTWISE, EMPTY_IS_ERROR, KERNELS, SCALARS, bits_equal,
    elementwise_reference, mismatch, random_data, reduction_check,
)

torch = pytest.importorskip("torch")
DT = pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])
TDT = {np.dtype(np.float32): torch.float32, np.dtype(np.float64): torch.float64}


def py_call(op, ins, out=None):
    """The package's form of kernel `op` with the inputs `ins` (name → array)."""
    s = SCALARS.get(op, {})
    fn = getattr(sigkern, op)
    if op == "fill":
        return fn(ins["y"], s["value"])
    if op == "axpy":
        return fn(ins["x"], s["a"], ins["y"])
    args = [ins[n] if r == "in" else s[n] for n, r in KERNELS[op] if r in ("in", "s")]
    return fn(*args) if out is None else fn(*args, out=out)


class NoC:
    """Records every C kernel call of sigkern.core made inside the block."""

    def __init__(self, monkeypatch):
        self.calls = []
        self.mp = monkeypatch

    def __enter__(self):
        for obj in vars(sigkern.core).values():
            if isinstance(obj, (sigkern.core.Kernel, sigkern.core.RowKernel)):
                for slot in ("f32", "f64", "s32", "s64"):
                    f = getattr(obj, slot, None)
                    if f is not None:
                        self.mp.setattr(obj, slot, self._spy(obj.name, f))
        return self

    def _spy(self, name, f):
        def call(*args):
            self.calls.append(name)
            return f(*args)
        return call

    def __exit__(self, *exc):
        self.mp.undo()
        return False


# ------------------------------------------------------------------------------- results ----


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_every_kernel_on_numpy(op, dtype):
    rng = np.random.default_rng(7)
    for n in (0, 1, 2, 17, 64, 1000, 4097):
        for adversarial in (False, True):
            ins = {name: random_data(rng, n, dtype, adversarial)
                   for name, role in KERNELS[op] if role in ("in", "inout")}
            if op == "fill":
                ins["y"] = np.zeros(n, dtype)
            before = {k: v.copy() for k, v in ins.items()}
            if op in ELEMENTWISE:
                want = elementwise_reference(op, dtype, before)
                y = py_call(op, ins)
                if op in ("fill", "axpy"):
                    assert y is ins["y"]
                assert isinstance(y, np.ndarray) and y.dtype == dtype and y.shape == (n,)
                assert bits_equal(y, want), f"{op} n={n}: {mismatch(y, want)}"
                if op not in ("fill", "axpy"):
                    out = np.full(n, 5.0, dtype)
                    assert py_call(op, {k: v.copy() for k, v in before.items()}, out=out) is out
                    assert bits_equal(out, want)
            else:
                if n == 0 and op in EMPTY_IS_ERROR:
                    with pytest.raises(sigkern.LengthError, match=f"sk_{op}_"):
                        py_call(op, ins)
                    continue
                v = py_call(op, ins)
                assert isinstance(v, float)
                reduction_check(op, v, before, f"sigkern.{op} n={n}")


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_every_kernel_on_tensors_equals_numpy(op, dtype):
    rng = np.random.default_rng(3)
    n = 333
    ins = {name: random_data(rng, n, dtype, True) for name, role in KERNELS[op] if role in ("in", "inout")}
    if op == "fill":
        ins["y"] = np.zeros(n, dtype)
    tins = {k: torch.from_numpy(v.copy()) for k, v in ins.items()}
    want = py_call(op, ins)
    got = py_call(op, tins)
    if op in ELEMENTWISE:
        assert isinstance(got, torch.Tensor) and got.dtype == TDT[np.dtype(dtype)] and got.shape == (n,)
        assert bits_equal(got.numpy(), want)
        if op not in ("fill", "axpy"):
            out = torch.full((n,), 5.0, dtype=TDT[np.dtype(dtype)])
            assert py_call(op, {k: v.clone() for k, v in tins.items()}, out=out) is out
            assert bits_equal(out.numpy(), want)
    else:
        assert got == want or (math.isnan(got) and math.isnan(want))


@DT
def test_shapes_are_kept_and_contiguous_data_is_flat(dtype):
    a = np.arange(24, dtype=dtype).reshape(2, 3, 4)
    y = sigkern.add(a, a)
    assert y.shape == (2, 3, 4) and np.array_equal(y, 2 * a)
    assert sigkern.sum(a) == 276.0
    t = torch.from_numpy(a.copy())
    assert sigkern.scale(t, 2.0).shape == (2, 3, 4)
    assert sigkern.add(np.zeros((0, 3), dtype), np.zeros((0, 3), dtype)).shape == (0, 3)


def test_zero_copy_in_place_and_lists():
    x = np.linspace(-2, 2, 101).astype(np.float32)
    addr = x.ctypes.data
    assert sigkern.scale(x, 2.0, out=x) is x and x.ctypes.data == addr and x[0] == -4.0
    view = np.zeros(10, np.float32)[2:8]
    assert sigkern.fill(view, 1.0) is view
    assert np.array_equal(view.base, [0, 0, 1, 1, 1, 1, 1, 1, 0, 0])
    ro = np.ones(4, np.float32)
    ro.flags.writeable = False  # read-only inputs are fine
    assert np.array_equal(sigkern.add(ro, ro), [2, 2, 2, 2])
    # Python lists become float64 arrays
    y = sigkern.scale([1, 2, 3], 0.5)
    assert y.dtype == np.float64 and np.array_equal(y, [0.5, 1.0, 1.5])
    assert sigkern.sum([1.0, 2.0, 3.5]) == 6.5


@DT
def test_strided_views_use_the_strided_kernels(dtype):
    rng = np.random.default_rng(1)
    base = random_data(rng, 301, dtype)
    for view in (base[::2], base[::-1], base[5::-3], base.reshape(7, 43)[:, 4]):
        want_scale = (view.astype(np.float64) * np.float64(dtype.type(-1.5))).astype(dtype)
        assert bits_equal(sigkern.scale(view, -1.5), want_scale)
        out = np.zeros(2 * view.size, dtype)[::2]
        assert sigkern.add(view, view, out=out) is out and bits_equal(out, view + view)
        assert bits_equal(sigkern.clip(view, -0.5, 0.5), np.clip(view, dtype.type(-0.5), dtype.type(0.5)))
        assert bits_equal(sigkern.copy(view), view.copy())
        reduction_check("sum", sigkern.sum(view), {"x": view.copy()}, "strided sum")
        reduction_check("rms", sigkern.rms(view), {"x": view.copy()}, "strided rms")
        assert sigkern.peak(view) == np.abs(view).max()
        assert sigkern.min(view) == view.min() and sigkern.max(view) == view.max()
        reduction_check("dot", sigkern.dot(view, view), {"a": view.copy(), "b": view.copy()}, "strided dot")
        y = view.copy()
        assert sigkern.axpy(view, 2.0, view[:].copy()) is not None
        sigkern.axpy(view, 0.5, y)
        assert bits_equal(y, view + dtype.type(0.5) * view)
    tv = torch.from_numpy(base.copy())[::3]
    assert bits_equal(sigkern.scale(tv, 2.0).numpy(), (tv * 2).numpy())
    filled = np.zeros(10, dtype)
    sigkern.fill(filled[1::2], 4.0)
    assert np.array_equal(filled, [0, 4] * 5)


@DT
def test_per_row_reductions(dtype):
    rng = np.random.default_rng(5)
    x = random_data(rng, 6 * 501, dtype).reshape(2, 3, 501)
    for op, ref in (("sum", np.sum), ("mean", np.mean), ("peak", lambda a, axis: np.abs(a).max(axis)),
                    ("rms", lambda a, axis: np.sqrt(np.mean(a * a, axis))), ("min", np.min), ("max", np.max)):
        got = getattr(sigkern, op)(x, axis=-1)
        want = ref(x.astype(np.float64), axis=-1)
        assert got.shape == (2, 3) and got.dtype == dtype, op
        eps = np.finfo(dtype).eps
        if op in ("sum", "mean"):  # the pairwise bound: a multiple of eps * sum |x| per row
            scale = np.abs(x.astype(np.float64)).sum(axis=-1) / (1 if op == "sum" else x.shape[-1])
            assert np.all(np.abs(got - want) <= 20 * eps * scale), op
        elif op == "rms":
            np.testing.assert_allclose(got, want, rtol=8 * eps, err_msg=op)
        else:
            assert np.array_equal(got, want.astype(dtype)), op
        got2 = getattr(sigkern, op)(x, axis=2)
        assert np.array_equal(got, got2)
        tgot = getattr(sigkern, op)(torch.from_numpy(x.copy()), axis=-1)
        assert isinstance(tgot, torch.Tensor) and np.array_equal(tgot.numpy(), got)
    # rows at a stride: a slice of the columns of a C-contiguous matrix, zero-copy
    m = random_data(rng, 40 * 64, dtype).reshape(40, 64)
    np.testing.assert_allclose(sigkern.rms(m[:, 3:50], axis=-1),
                               np.sqrt(np.mean(m[:, 3:50].astype(np.float64) ** 2, axis=-1)),
                               rtol=8 * np.finfo(dtype).eps)
    with pytest.raises(ValueError, match="axis must be None .* or -1"):
        sigkern.sum(x, axis=0)


@DT
def test_normalize_peak(dtype):
    x = np.array([[0.5, -2.0, 1.0], [0.0, 0.0, 0.0], [3.0, 1.5, -0.75]], dtype)
    peaks = np.abs(x.astype(np.float64)).max(axis=-1, keepdims=True)
    want = np.divide(x, peaks, out=np.zeros(x.shape), where=peaks > 0)
    assert sigkern.normalize_peak(x) is x
    np.testing.assert_allclose(x, want, rtol=np.finfo(dtype).eps)


# ------------------------------------------------------------------------------ refusals ----


def test_refusals_happen_before_any_c_call(monkeypatch):
    out = np.full(4, 7.0, np.float32)
    cases = [
        (TypeError, r"b has dtype float64 but a has float32", sigkern.add, (np.ones(4, np.float32), np.ones(4)), {"out": out}),
        (TypeError, r"out must have dtype float32", sigkern.add, (np.ones(4, np.float32), np.ones(4, np.float32)), {"out": np.zeros(4)}),
        (TypeError, r"x must be float32 or float64.*astype\(np.float32\)", sigkern.sum, (np.ones(4, np.int32),), {}),
        (TypeError, r"float32 or float64", sigkern.sum, (np.ones(4, np.float16),), {}),
        (TypeError, r"float32 or float64", sigkern.sum, (np.ones(4, ">f4"),), {}),
        (TypeError, r"torch.float32", sigkern.abs, (torch.ones(3, dtype=torch.int32),), {}),
        (ValueError, r"does not broadcast", sigkern.add, (np.ones(4), np.ones(5)), {}),
        (ValueError, r"out must have shape \(4,\)", sigkern.add, (np.ones(4), np.ones(4)), {"out": np.ones((2, 2))}),
        (ValueError, r"not C-contiguous.*np.ascontiguousarray\(x\)", sigkern.abs, (np.ones((4, 4)).T,), {}),
        (ValueError, r"not C-contiguous", sigkern.sum, (np.ones((4, 4)).T,), {}),
        (ValueError, r"\.contiguous\(\)", sigkern.abs, (torch.ones(4, 6).T,), {}),
        (ValueError, r"read-only", sigkern.scale, (np.ones(4, np.float32), 2.0), {"out": np.ones(4, np.float32)}),
        (ValueError, r"requires grad.*detach", sigkern.abs, (torch.ones(3),), {"out": torch.zeros(3, requires_grad=True)}),
        (ValueError, r"'meta'.*CPU memory.*\.cpu\(\)", sigkern.abs, (torch.empty(4, device="meta"),), {}),
        (ValueError, r"sparse_coo.*to_dense", sigkern.sum, (torch.ones(4).to_sparse(),), {}),
    ]
    cases[11][4]["out"].flags.writeable = False
    for exc, match, fn, args, kw in cases:
        with NoC(monkeypatch) as spy:
            with pytest.raises(exc, match=match) as info:
                fn(*args, **kw)
        assert not isinstance(info.value, sigkern.SigkernError), match
        assert spy.calls == [], (match, spy.calls)
    assert np.all(out == 7.0)


def test_library_errors_are_typed_and_write_nothing():
    x = np.arange(10, dtype=np.float32)
    before = x.copy()
    with pytest.raises(sigkern.OverlapError) as info:
        sigkern.add(x[:-1], x[:-1], out=x[1:])
    e = info.value
    assert isinstance(e, sigkern.SigkernError) and isinstance(e, ValueError)
    assert e.code == -4 and e.name == "SK_ERR_OVERLAP" and e.function == "sk_add_f32"
    assert e.message.startswith("sk_add_f32: output y [0x") and "overlaps input a" in e.message
    assert str(e) == f"SK_ERR_OVERLAP (-4): {e.message}"
    assert np.array_equal(x, before)
    y = np.full(6, 7.0)
    with pytest.raises(sigkern.BadArgumentError, match=r"sk_clip_f64: lo = 1.0 is greater than hi = -1.0"):
        sigkern.clip(np.ones(6), 1.0, -1.0, out=y)
    assert np.all(y == 7.0)
    with pytest.raises(sigkern.BadArgumentError, match="NaN"):
        sigkern.clip(torch.ones(3), math.nan, 1.0)
    # a misaligned buffer: refused by the library, not undefined behaviour
    raw = np.zeros(4 * 8 + 4, np.uint8)
    mis = raw[1:33].view(np.float32)
    with pytest.raises(sigkern.MisalignedError, match="sk_sum_f32"):
        sigkern.sum(mis)
    assert sigkern.status_name(-4) == "SK_ERR_OVERLAP" and sigkern.status_name(99) == "SK_UNKNOWN_STATUS"


def test_exception_hierarchy():
    for cls, base in ((sigkern.LengthError, ValueError), (sigkern.AllocationError, MemoryError),
                      (sigkern.InternalError, RuntimeError), (sigkern.InvalidHandleError, ValueError)):
        assert issubclass(cls, sigkern.SigkernError) and issubclass(cls, base)
    codes = {c.code for c in (sigkern.NullPointerError, sigkern.LengthError, sigkern.MisalignedError,
                              sigkern.OverlapError, sigkern.BadArgumentError, sigkern.NonFiniteError,
                              sigkern.InvalidHandleError, sigkern.AllocationError, sigkern.InternalError,
                              sigkern.BufferTooSmallError)}
    assert codes == set(range(-10, 0))
    for code in range(-10, 0):
        assert sigkern.status_name(code).startswith("SK_ERR_")


def test_threads_run_kernels_concurrently_with_their_own_errors():
    import threading

    errors, results = [], []

    def work(i):
        x = np.full(100000, float(i), np.float32)
        results.append((i, sigkern.sum(x)))
        try:
            sigkern.clip(x, float(i + 1), float(i))
        except sigkern.BadArgumentError as e:
            errors.append((i, e.message))

    ts = [threading.Thread(target=work, args=(i,)) for i in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert sorted(results) == [(i, 100000.0 * i) for i in range(8)]
    for i, msg in errors:
        assert msg.startswith(f"sk_clip_f32: lo = {float(i + 1)}"), msg
    assert len(errors) == 8


def test_float64_tensor_is_never_read_as_float32():
    """A float64 tensor goes to the f64 kernel (a raw ctypes call of sk_rms_f32 on its memory
    returns garbage with SK_OK; the package must pick the kernel from the dtype)."""
    t = torch.linspace(-3.0, 5.0, 1001, dtype=torch.float64)
    want = math.sqrt(math.fsum(v * v for v in t.tolist()) / t.numel())
    assert abs(sigkern.rms(t) - want) <= 4 * np.finfo(np.float64).eps * want
    assert sigkern.rms(t.to(torch.float32)) == pytest.approx(want, rel=1e-6)
    with pytest.raises(TypeError, match="torch.float32"):
        sigkern.scale(t, 2.0, out=torch.empty(1001, dtype=torch.float32))


def test_lazily_negated_tensor_is_read_with_its_sign():
    """``.imag`` of a conjugated complex tensor is a real tensor with torch's lazy negative bit:
    its memory holds +1 while its value is -1. The package must not read the raw memory."""
    im = torch.complex(torch.ones(5), torch.ones(5)).conj().imag
    assert im.is_neg()
    with pytest.raises(ValueError, match="resolve_neg"):
        sigkern.scale(im, 2.0)
    assert torch.equal(sigkern.scale(im.resolve_neg(), 2.0), torch.full((5,), -2.0))
