"""PyTorch tensors through raw ctypes (`ctypes.CDLL`, argtypes set,
`ctypes.cast(t.data_ptr(), POINTER(c_float))`) and through the binding: float32 and float64,
non-contiguous tensors made contiguous with `.contiguous()` as the seed does."""

import ctypes

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import sigkern  # noqa: E402  (the installed package)

C = {torch.float32: (ctypes.c_float, "f32"), torch.float64: (ctypes.c_double, "f64")}
TDTYPES = pytest.mark.parametrize("tdtype", [torch.float32, torch.float64], ids=["f32", "f64"])


@pytest.fixture(scope="module")
def clib(lib_path):
    lib = ctypes.CDLL(str(lib_path))
    for suffix, ct in (("f32", ctypes.c_float), ("f64", ctypes.c_double)):
        P = ctypes.POINTER(ct)
        for op in ("add", "sub", "mul", "div"):
            f = getattr(lib, f"sk_{op}_{suffix}")
            f.argtypes, f.restype = [P, P, P, ctypes.c_size_t], ctypes.c_int32
        for op in ("scale", "axpy"):
            f = getattr(lib, f"sk_{op}_{suffix}")
            f.argtypes, f.restype = [P, ct, P, ctypes.c_size_t], ctypes.c_int32
        f = getattr(lib, f"sk_clip_{suffix}")
        f.argtypes, f.restype = [P, ct, ct, P, ctypes.c_size_t], ctypes.c_int32
        for op in ("abs", "copy"):
            f = getattr(lib, f"sk_{op}_{suffix}")
            f.argtypes, f.restype = [P, P, ctypes.c_size_t], ctypes.c_int32
        for op in ("sum", "mean", "min", "max", "peak", "rms"):
            f = getattr(lib, f"sk_{op}_{suffix}")
            f.argtypes, f.restype = [P, P, ctypes.c_size_t], ctypes.c_int32
        f = getattr(lib, f"sk_dot_{suffix}")
        f.argtypes, f.restype = [P, P, P, ctypes.c_size_t], ctypes.c_int32
    return lib


def ptr(t):
    assert t.is_contiguous() and t.device.type == "cpu"
    return ctypes.cast(t.data_ptr(), ctypes.POINTER(C[t.dtype][0]))


def noncontiguous(shape, dtype, gen):
    """A transposed (non-contiguous) tensor."""
    t = torch.randn(*reversed(shape), dtype=dtype, generator=gen).T
    assert not t.is_contiguous()
    return t


@TDTYPES
def test_ctypes_elementwise_on_tensors(clib, tdtype):
    gen = torch.Generator().manual_seed(1)
    s = C[tdtype][1]
    for shape in ((1,), (100,), (33, 17), (4097,)):
        a = torch.randn(*shape, dtype=tdtype, generator=gen)
        b = torch.randn(*shape, dtype=tdtype, generator=gen)
        if len(shape) == 2:  # the seed's step: non-contiguous → .contiguous()
            a, b = noncontiguous(shape, tdtype, gen), noncontiguous(shape, tdtype, gen)
            a, b = a.contiguous(), b.contiguous()
        n = a.numel()
        y = torch.empty_like(a)
        for op, ref in (("add", a + b), ("sub", a - b), ("mul", a * b), ("div", a / b)):
            assert getattr(clib, f"sk_{op}_{s}")(ptr(a), ptr(b), ptr(y), n) == 0
            assert torch.equal(y, ref), op
        assert getattr(clib, f"sk_scale_{s}")(ptr(a), -1.5, ptr(y), n) == 0
        assert torch.equal(y, a * -1.5)
        y2 = b.clone()
        assert getattr(clib, f"sk_axpy_{s}")(ptr(a), 0.25, ptr(y2), n) == 0
        assert torch.equal(y2, b + 0.25 * a)
        assert getattr(clib, f"sk_clip_{s}")(ptr(a), -0.5, 0.5, ptr(y), n) == 0
        assert torch.equal(y, torch.clamp(a, -0.5, 0.5))
        assert getattr(clib, f"sk_abs_{s}")(ptr(a), ptr(y), n) == 0
        assert torch.equal(y, a.abs())
        # in place on the tensor's own memory
        c = a.clone()
        assert getattr(clib, f"sk_mul_{s}")(ptr(c), ptr(c), ptr(c), n) == 0
        assert torch.equal(c, a * a)


@TDTYPES
def test_ctypes_reductions_on_tensors(clib, tdtype):
    gen = torch.Generator().manual_seed(2)
    ct, s = C[tdtype]
    eps = torch.finfo(tdtype).eps
    for n in (1, 7, 100, 65537):
        x = torch.randn(n, dtype=tdtype, generator=gen)
        x64 = x.double()
        out = ct(-1.0)
        assert getattr(clib, f"sk_sum_{s}")(ptr(x), ctypes.byref(out), n) == 0
        assert abs(out.value - float(x64.sum())) <= 16 * eps * float(x64.abs().sum())
        assert getattr(clib, f"sk_mean_{s}")(ptr(x), ctypes.byref(out), n) == 0
        assert abs(out.value - float(x64.mean())) <= 16 * eps * float(x64.abs().mean())
        for op, ref in (("min", x.min()), ("max", x.max()), ("peak", x.abs().max())):
            assert getattr(clib, f"sk_{op}_{s}")(ptr(x), ctypes.byref(out), n) == 0
            assert out.value == float(ref), op
        assert getattr(clib, f"sk_rms_{s}")(ptr(x), ctypes.byref(out), n) == 0
        assert abs(out.value - float(x64.square().mean().sqrt())) <= 4 * eps * out.value
        assert getattr(clib, f"sk_dot_{s}")(ptr(x), ptr(x), ctypes.byref(out), n) == 0
        assert abs(out.value - float(x64.dot(x64))) <= 16 * eps * float(x64.dot(x64))


def test_ctypes_status_for_a_bad_tensor_pointer(clib):
    t = torch.zeros(4)
    raw = torch.zeros(5)
    mis = ctypes.cast(raw.data_ptr() + 1, ctypes.POINTER(ctypes.c_float))
    assert clib.sk_abs_f32(ptr(t), mis, 4) == -3  # SK_ERR_MISALIGNED
    assert torch.equal(raw, torch.zeros(5))


# ------------------------------------------------------------------------ via the package ----


@TDTYPES
def test_binding_on_tensors(tdtype):
    gen = torch.Generator().manual_seed(3)
    a = noncontiguous((40, 25), tdtype, gen).contiguous()
    b = torch.randn(40, 25, dtype=tdtype, generator=gen)
    y = sigkern.add(a, b)
    assert isinstance(y, torch.Tensor) and y.dtype == tdtype and y.shape == a.shape
    assert torch.equal(y, a + b)
    out = torch.empty_like(a)
    assert sigkern.mul(a, b, out=out) is out and torch.equal(out, a * b)
    assert sigkern.scale(a, 3.0, out=a) is a  # in place, zero copy
    assert torch.equal(sigkern.clip(b, -1, 1), torch.clamp(b, -1, 1))
    assert sigkern.peak(b) == float(b.abs().max())
    ref = float(b.double().sum())
    assert abs(sigkern.sum(b) - ref) <= 16 * torch.finfo(tdtype).eps * float(b.double().abs().sum())
    c = b.clone()
    assert sigkern.axpy(b, 2.0, c) is c and torch.equal(c, b + 2.0 * b)


def test_binding_tensor_and_numpy_share_memory():
    """torch.from_numpy shares memory: writing through one is seen by the other (zero-copy)."""
    arr = np.arange(10, dtype=np.float32)
    t = torch.from_numpy(arr)
    sigkern.fill(t, 2.5)
    assert np.all(arr == 2.5)
    sigkern.abs(-arr, out=arr)
    assert torch.all(t == 2.5)
