"""The Python binding examples/python/sigkern.py: every kernel on numpy arrays (dtype dispatch,
out=, allocation, zero copy), refusals with clear messages before any C call (dtype, mixed
dtypes, contiguity, alignment, read-only outputs, devices), SigkernError fields, library
discovery."""

import math
import pathlib

import numpy as np
import pytest

import sigkern
from sk_util import (
    DTYPES, ELEMENTWISE, EMPTY_IS_ERROR, KERNELS, SCALARS, bits_equal,
    elementwise_reference, mismatch, random_data, reduction_check,
)

torch = pytest.importorskip("torch")
DT = pytest.mark.parametrize("dtype", DTYPES, ids=["f32", "f64"])


class CallRecorder:
    """Stands in for sigkern.lib and records every C function the binding calls."""

    def __init__(self, lib):
        self._lib = lib
        self.calls = []

    def __getattr__(self, name):
        attr = getattr(self._lib, name)
        if name.startswith("sk_") and callable(attr) and name not in (
                "sk_status_name", "sk_last_error_message"):
            def wrapper(*args):
                self.calls.append(name)
                return attr(*args)
            return wrapper
        return attr


@pytest.fixture
def recorder(monkeypatch):
    rec = CallRecorder(sigkern.lib)
    monkeypatch.setattr(sigkern, "lib", rec)
    return rec


def py_args(op, ins):
    """Positional arguments of the Python form: C order, inputs and scalars, no outputs."""
    s = SCALARS.get(op, {})
    return [ins[name] if role in ("in", "inout") else s[name]
            for name, role in KERNELS[op] if role in ("in", "inout", "s")]


# ------------------------------------------------------------------------------- results ----


def test_every_kernel_family_is_exposed():
    for op in KERNELS:
        for name in (op, op + "_f32", op + "_f64"):
            assert callable(getattr(sigkern, name)), name
            assert name in sigkern.__all__
    assert set(sigkern.KERNELS) >= set(KERNELS)


@pytest.mark.parametrize("op", KERNELS)
@DT
def test_kernels_on_numpy(op, dtype):
    rng = np.random.default_rng(42)
    fn = getattr(sigkern, op)
    typed = getattr(sigkern, f"{op}_{'f32' if dtype == np.float32 else 'f64'}")
    for n in (1, 2, 17, 64, 1000, 4097):
        for adversarial in (False, True):
            ins = {name: random_data(rng, n, dtype, adversarial)
                   for name, role in KERNELS[op] if role in ("in", "inout")}
            before = {k: v.copy() for k, v in ins.items()}
            if op == "fill":
                before["y"] = np.zeros(n, dtype)
            args = py_args(op, ins)
            if op in ELEMENTWISE:
                want = elementwise_reference(op, dtype, before)
                if op == "fill":
                    y = fn(*args, out=np.zeros(n, dtype))
                elif op == "axpy":
                    y = fn(*args)
                    assert y is ins["y"]  # in/out argument, updated in place
                else:
                    y = fn(*args)
                    assert isinstance(y, np.ndarray) and y.dtype == dtype and y.shape == (n,)
                assert bits_equal(y, want), f"{op} n={n}: {mismatch(y, want)}"
                if op not in ("fill", "axpy"):
                    out = np.full(n, 5.0, dtype)
                    args2 = py_args(op, {k: v.copy() for k, v in before.items()})
                    assert typed(*args2, out=out) is out
                    assert bits_equal(out, want)
            else:
                if n == 0 and op in EMPTY_IS_ERROR:
                    continue
                v = fn(*args)
                assert isinstance(v, float)
                reduction_check(op, v, before, f"sigkern.{op} n={n}")
                assert v == typed(*args) or (math.isnan(v) and math.isnan(typed(*args)))


@DT
def test_multidimensional_contiguous_arrays_are_flat(dtype):
    a = np.arange(24, dtype=dtype).reshape(2, 3, 4)
    y = sigkern.add(a, a)
    assert y.shape == (2, 3, 4) and np.array_equal(y, 2 * a)
    assert sigkern.sum(a) == 276.0
    assert sigkern.add(np.zeros(0, dtype), np.zeros(0, dtype)).shape == (0,)
    assert sigkern.sum(np.zeros(0, dtype)) == 0.0


def test_zero_copy_and_in_place():
    x = np.linspace(-2, 2, 101).astype(np.float32)
    addr = x.ctypes.data
    y = sigkern.scale(x, 2.0, out=x)
    assert y is x and x.ctypes.data == addr and x[0] == -4.0
    view = np.zeros(10, np.float32)[2:8]  # a contiguous view into a larger buffer
    sigkern.fill(1.0, out=view)
    assert np.array_equal(view.base, [0, 0, 1, 1, 1, 1, 1, 1, 0, 0])
    ro = np.ones(4, np.float32)
    ro.flags.writeable = False  # read-only inputs are fine
    assert np.array_equal(sigkern.add(ro, ro), [2, 2, 2, 2])


def test_signatures_come_from_the_cdef_header():
    """The binding's parameter lists are those of include/sigkern_cdef.h (not retyped): they
    match the independent table of these tests, name for name."""
    assert sigkern.CDEF_PATH == pathlib.Path(sigkern.ROOT) / "include" / "sigkern_cdef.h"
    assert sigkern.CDEF == sigkern.CDEF_PATH.read_text()
    role_map = {"in": "in", "out": "out", "inout": "inout", "sout": "scalar_out", "s": "scalar", "n": "len"}
    for op, params in KERNELS.items():
        for suffix, elem in (("f32", "float"), ("f64", "double")):
            sig = sigkern.KERNELS[op][suffix]
            assert sig.cname == f"sk_{op}_{suffix}"
            assert [(p.name, p.role) for p in sig.params] == [(n, role_map[r]) for n, r in params]
            assert all(p.elem in (None, elem) for p in sig.params)


def test_signature_parsing_and_unmapped_kinds():
    """Signatures come from the cdef text; kinds without a role are skipped, not fatal."""
    decls = sigkern._parse_cdef(
        "/* c */\nint32_t sk_foo_f32(const float* x,\n    float  a,\n    float *y, size_t n);\n"
        "const char *sk_version(void);\nint32_t sk_bar_f64(double y[4], size_t n);\n")
    assert decls["sk_foo_f32"] == ("int32_t", [("const float *", "x"), ("float", "a"),
                                               ("float *", "y"), ("size_t", "n")])
    assert decls["sk_version"] == ("const char *", [])
    assert decls["sk_bar_f64"] == ("int32_t", None)
    assert sigkern._role_of("foo", "const float *", "x") == ("in", "float")
    assert sigkern._role_of("sum", "double *", "out") == ("scalar_out", "double")
    assert sigkern._role_of("axpy", "float *", "y") == ("inout", "float")
    with pytest.raises(sigkern._NoRole, match="ptrdiff_t incx"):
        sigkern._role_of("add_strided", "ptrdiff_t", "incx")
    # every kernel of the current header is exposed
    assert sigkern.SKIPPED == {}, sigkern.SKIPPED


def test_library_functions():
    assert sigkern.version() == sigkern.ffi.string(sigkern.lib.sk_version()).decode()
    assert sigkern.simd_level() in ("scalar", "sse2", "avx2", "avx512", "neon")
    assert sigkern.status_name(-4) == "SK_ERR_OVERLAP"
    assert sigkern.status_name(99) == "SK_UNKNOWN_STATUS"
    assert sigkern.add.__doc__.startswith("Calls\n    int32_t sk_add_f32(const float *a")


def test_library_discovery(tmp_path):
    assert sigkern.library_filename("linux") == "libsigkern.so"
    assert sigkern.library_filename("darwin") == "libsigkern.dylib"
    assert sigkern.library_filename("win32") == "sigkern.dll"
    fake = tmp_path / "custom.so"
    fake.write_bytes(b"")
    assert sigkern.find_library({"SIGKERN_LIB": str(fake)}) == fake
    with pytest.raises(FileNotFoundError, match="SIGKERN_LIB"):
        sigkern.find_library({"SIGKERN_LIB": str(tmp_path / "missing.so")})
    with pytest.raises(FileNotFoundError, match="cargo build --release"):
        sigkern.find_library({}, root=tmp_path)
    release = tmp_path / "target" / "release"
    release.mkdir(parents=True)
    (release / sigkern.library_filename()).write_bytes(b"")
    assert sigkern.find_library({}, root=tmp_path) == release / sigkern.library_filename()
    assert sigkern.find_library({}) == pathlib.Path(sigkern.ROOT) / "target" / "release" / sigkern.library_filename()


# ------------------------------------------------------------------------------ refusals ----


def refused(recorder, exc, match, fn, *args, **kw):
    """fn(*args, **kw) raises exc matching `match` without any C call."""
    with pytest.raises(exc, match=match) as info:
        fn(*args, **kw)
    assert recorder.calls == [], f"C was called: {recorder.calls}"
    assert not isinstance(info.value, sigkern.SigkernError)
    return info.value


def test_float64_into_f32_function_is_refused(recorder):
    a64 = np.ones(8)
    out = np.full(8, 7.0, np.float32)
    e = refused(recorder, TypeError, r"sk_add_f32: argument a must be float32", sigkern.add_f32, a64,
                np.ones(8, np.float32), out=out)
    assert "float64" in str(e) and "astype(np.float32)" in str(e)
    refused(recorder, TypeError, r"argument y must be float32.*float64", sigkern.add_f32,
            np.ones(8, np.float32), np.ones(8, np.float32), out=np.zeros(8))
    refused(recorder, TypeError, r"torch.float32.*torch.float64", sigkern.abs_f32,
            torch.ones(3, dtype=torch.float64))
    assert np.all(out == 7.0)


def test_mixed_dtypes_are_refused(recorder):
    out = np.full(4, 7.0, np.float32)
    refused(recorder, TypeError, r"add\(\): mixed dtypes", sigkern.add, np.ones(4, np.float32),
            np.ones(4), out=out)
    refused(recorder, TypeError, r"mixed dtypes", sigkern.add, np.ones(4, np.float32),
            np.ones(4, np.float32), out=np.zeros(4))
    refused(recorder, TypeError, r"mixed dtypes", sigkern.dot, torch.ones(4), np.ones(4))
    assert np.all(out == 7.0)


def test_other_types_are_refused(recorder):
    refused(recorder, TypeError, r"float32 or float64", sigkern.add, np.ones(4, np.int32), np.ones(4, np.int32))
    refused(recorder, TypeError, r"float32 or float64", sigkern.sum, np.ones(4, np.float16))
    refused(recorder, TypeError, r"float32 or float64", sigkern.sum, [1.0, 2.0])
    refused(recorder, TypeError, r"float32 or float64", sigkern.sum, np.ones(4, ">f4"))  # byte-swapped
    refused(recorder, TypeError, r"argument a must be a real number", sigkern.scale, np.ones(4), np.ones(4))
    refused(recorder, TypeError, r"2 positional arguments", sigkern.add, np.ones(4))
    refused(recorder, TypeError, r"no output array", sigkern.sum, np.ones(4), out=np.ones(1))
    refused(recorder, TypeError, r"needs out=", sigkern.fill_f32, 1.0)
    refused(recorder, ValueError, r"shapes differ.*does not broadcast", sigkern.add, np.ones(4), np.ones(5))
    refused(recorder, ValueError, r"shapes differ", sigkern.add, np.ones(4), np.ones(4), out=np.ones((2, 2)))


def test_non_contiguous_numpy_array_is_refused(recorder):
    x = np.arange(20, dtype=np.float32)[::2]
    out = np.full(10, 7.0, np.float32)
    e = refused(recorder, ValueError, r"np\.ascontiguousarray\(x\)", sigkern.abs, x, out=out)
    assert "sk_abs_f32: argument x is not C-contiguous" in str(e)
    refused(recorder, ValueError, r"argument y is not C-contiguous.*np\.ascontiguousarray\(y\)",
            sigkern.abs, np.ones(10, np.float32), out=np.zeros(20, np.float32)[::2])
    refused(recorder, ValueError, r"np\.ascontiguousarray", sigkern.sum, np.ones((4, 4)).T)
    assert np.all(out == 7.0)
    # the fix the message names works
    assert np.array_equal(sigkern.abs(np.ascontiguousarray(x)), np.abs(x))


def test_non_contiguous_tensor_is_refused(recorder):
    t = torch.arange(24, dtype=torch.float32).reshape(4, 6).T
    out = torch.full((6, 4), 7.0)
    e = refused(recorder, ValueError, r"\.contiguous\(\)", sigkern.abs, t, out=out)
    assert "sk_abs_f32: argument x is not contiguous" in str(e)
    assert torch.all(out == 7.0)
    assert torch.equal(sigkern.abs(t.contiguous()), t.abs())


def test_misaligned_array_is_refused(recorder):
    raw = np.zeros(4 * 8 + 4, np.uint8)
    mis = raw[1:33].view(np.float32)
    refused(recorder, ValueError, r"argument x at 0x[0-9a-f]+ is not aligned to 4 bytes", sigkern.sum, mis)
    refused(recorder, ValueError, r"argument y at .* not aligned", sigkern.abs, np.ones(8, np.float32), out=mis)
    assert not raw.any()
    # a tensor over the same misaligned memory (torch.from_numpy keeps the address)
    tmis = torch.from_numpy(mis)
    assert tmis.data_ptr() % 4 == 1
    refused(recorder, ValueError, r"argument x at 0x[0-9a-f]+ is not aligned.*\.clone\(\)", sigkern.sum, tmis)
    assert not raw.any()


def test_read_only_output_is_refused(recorder):
    out = np.full(5, 7.0, np.float32)
    out.flags.writeable = False
    refused(recorder, ValueError, r"sk_abs_f32: argument y is an output but the array is read-only",
            sigkern.abs, np.ones(5, np.float32), out=out)
    ro_y = np.full(5, 7.0)
    ro_y.flags.writeable = False
    refused(recorder, ValueError, r"argument y is an output but the array is read-only",
            sigkern.axpy, np.ones(5), 2.0, ro_y)
    assert np.all(out == 7.0) and np.all(ro_y == 7.0)


def test_output_requiring_grad_is_refused(recorder):
    out = torch.zeros(3, requires_grad=True)
    refused(recorder, ValueError, r"requires grad", sigkern.abs, torch.ones(3), out=out)
    with torch.no_grad():
        assert torch.equal(out, torch.zeros(3))


def test_meta_tensor_is_refused_and_never_passed_to_c(recorder):
    meta = torch.empty(4, device="meta")
    e = refused(recorder, ValueError, r"device 'meta'.*CPU memory.*\.cpu\(\)", sigkern.abs, meta)
    assert "sk_abs_f32: argument x" in str(e)
    refused(recorder, ValueError, r"device 'meta'", sigkern.add, torch.ones(4), torch.ones(4), out=meta)
    refused(recorder, ValueError, r"device 'meta'", sigkern.sum, meta)
    refused(recorder, ValueError, r"sparse_coo|dense", sigkern.sum, torch.ones(4).to_sparse())


# ------------------------------------------------------------------------- library errors ----


def test_sigkern_error_fields():
    x = np.arange(10, dtype=np.float32)
    before = x.copy()
    with pytest.raises(sigkern.SigkernError) as info:
        sigkern.add(x[:-1], x[:-1], out=x[1:])
    e = info.value
    assert e.code == -4 and e.name == "SK_ERR_OVERLAP" and e.function == "sk_add_f32"
    assert e.message.startswith("sk_add_f32: output y [0x") and "overlaps input a" in e.message
    assert str(e) == f"SK_ERR_OVERLAP (-4): {e.message}"
    assert np.array_equal(x, before)

    y = np.full(6, 7.0)
    with pytest.raises(sigkern.SigkernError) as info:
        sigkern.clip(np.ones(6), 1.0, -1.0, out=y)
    assert (info.value.code, info.value.name) == (-5, "SK_ERR_BAD_ARGUMENT")
    assert info.value.message == "sk_clip_f64: lo = 1.0 is greater than hi = -1.0"
    assert np.all(y == 7.0)
    with pytest.raises(sigkern.SigkernError, match="SK_ERR_BAD_ARGUMENT") as info:
        sigkern.clip(np.ones(6, np.float32), math.nan, 1.0, out=y.astype(np.float32))
    assert info.value.message.startswith("sk_clip_f32: clip bounds must not be NaN")

    for op in sorted(EMPTY_IS_ERROR):
        with pytest.raises(sigkern.SigkernError) as info:
            getattr(sigkern, op)(np.zeros(0, np.float32))
        assert info.value.code == -2 and info.value.name == "SK_ERR_LENGTH"
        assert info.value.message.startswith(f"sk_{op}_f32: n = 0")
