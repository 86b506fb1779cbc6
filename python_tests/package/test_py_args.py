"""sigkern._args, the one place each argument check and its message live: every validator
once, with its exception type and words; and the package holds no second copy of its tables."""

import ast
import pathlib
import re

import numpy as np
import pytest

import sigkern
from sigkern import _args as A

torch = pytest.importorskip("torch")

PKG = pathlib.Path(sigkern.__file__).resolve().parent


def test_tables():
    assert A.SFX == {A.F32: "f32", A.F64: "f64"}
    assert A.CARRAY[A.F32] is sigkern.ffi.typeof("float[]")
    assert A.CARRAY[A.C128] is sigkern.ffi.typeof("double[]")  # complex: interleaved re/im
    assert A.CPTR[A.F64] is sigkern.ffi.typeof("double *")
    assert A.CARRAY[A.I16] is sigkern.ffi.typeof("int16_t[]")
    assert A.COMPLEX_OF[A.F32] is A.C64 and A.REAL_OF[A.C128] is A.F64


def test_no_module_redefines_the_tables_or_validators():
    """The suffix and ctype tables and the validators are defined in _args only: no other
    module of the package binds a dict of ``"f32"``/``"f64"`` strings, calls ``ffi.typeof``, or
    defines a function of a validator's old names."""
    old = {"_axis", "_time_axis", "_float_dtype_arg", "_rate", "_real_dtype", "_movelast",
           "_moveback", "_moveaxis", "_move", "_contig", "_contiguous", "_is_contig",
           "_check_writable", "_cpu_tensor", "_index", "_copy_into", "_assign"}
    files = sorted(PKG.rglob("*.py"))
    assert len(files) >= 20
    for f in files:
        if f.name in ("_args.py", "_build_ffi.py"):
            continue
        tree = ast.parse(f.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef):
                assert node.name not in old, f"{f.relative_to(PKG)} defines {node.name}"
            if isinstance(node, ast.Dict):
                vals = {v.value for v in node.values if isinstance(v, ast.Constant)}
                assert not vals & {"f32", "f64"}, f"{f.relative_to(PKG)}:{node.lineno} has a suffix table"
            if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "typeof":
                raise AssertionError(f"{f.relative_to(PKG)}:{node.lineno} makes a ctype: use _args.CARRAY/CPTR")


def test_index():
    assert A.index(np.int64(3), "f", "n") == 3
    with pytest.raises(TypeError, match=re.escape("f: n must be an integer, got 1.5")):
        A.index(1.5, "f", "n")


def test_axis():
    assert A.axis(-1, 3, "f") == 2 and A.axis(np.int32(1), 3, "f") == 1
    with pytest.raises(A.AxisError, match=re.escape("f: axis 3 is out of bounds for array of dimension 3")) as e:
        A.axis(3, 3, "f")
    assert isinstance(e.value, ValueError) and isinstance(e.value, IndexError)
    with pytest.raises(A.AxisError, match=re.escape("f: axis -4 is out of bounds")):
        A.axis(-4, 3, "f")
    with pytest.raises(TypeError, match=re.escape("f: axis must be an integer, got '0'")):
        A.axis("0", 3, "f")
    with pytest.raises(ValueError, match=re.escape("f: y is zero-dimensional; pass an array with at least one axis")):
        A.axis(-1, 0, "f", "y")


def test_float_dtype_arg():
    for d in (np.float32, "float32", np.dtype("f4"), torch.float32):
        assert A.float_dtype_arg(d, "f") is A.F32
    for d in (np.float64, "f8", torch.float64):
        assert A.float_dtype_arg(d, "f") is A.F64
    assert A.float_dtype_arg(np.complex64, "f", complex_ok=True) is A.F32
    for bad in (np.complex64, np.int16, "float16", "nonsense", torch.int32, object()):
        with pytest.raises(TypeError, match=re.escape(f"f: dtype must be np.float32 or np.float64, got {bad!r}")):
            A.float_dtype_arg(bad, "f")


def test_rate():
    assert A.rate(48000, "f") == 48000.0 and A.rate(np.float32(8000.0), "f", "sr") == 8000.0
    for bad in ("48000", b"48000", None, [1.0], object()):
        with pytest.raises(TypeError, match=re.escape(f"f: fs must be a number (Hz), got {bad!r}")):
            A.rate(bad, "f", "fs")


def test_array_dtype():
    assert A.float_dtype(np.ones(2, np.float32), "f", "x") is A.F32
    with pytest.raises(TypeError, match=r"f: x must be float32 or float64, got a numpy array of dtype int32.*astype\(np\.float32\)"):
        A.float_dtype(np.ones(2, np.int32), "f", "x")
    with pytest.raises(TypeError, match=r"f: x must be float32 or float64, got a torch tensor.*\.to\(torch\.float32\)"):
        A.as_input(torch.ones(2, dtype=torch.int32), "f", "x")
    assert A.as_input([1, 2], "f", "x").dtype == A.F64  # lists are converted; arrays never


def test_check_out():
    A.check_out(np.empty(3), (3,), A.F64, "f")
    with pytest.raises(TypeError, match=re.escape("f: out must have dtype float64, got a numpy array of dtype float32")):
        A.check_out(np.empty(3, np.float32), (3,), A.F64, "f")
    with pytest.raises(ValueError, match=re.escape("f: out must have shape (3,), got (4,)")):
        A.check_out(np.empty(4), (3,), A.F64, "f")
    with pytest.raises(TypeError, match=re.escape("f: out must be a numpy array or a torch tensor, got a list")):
        A.check_out([0.0] * 3, (3,), A.F64, "f")


def test_writable_out_and_cpu_tensor():
    ro = np.empty(3)
    ro.flags.writeable = False
    with pytest.raises(ValueError, match=re.escape("f: out is an output but the array is read-only (not writeable)")):
        A.writable_out(ro, "f")
    with pytest.raises(ValueError, match=r"f: out is an output but requires grad.*out\.detach\(\)"):
        A.writable_out(torch.zeros(3, requires_grad=True), "f")
    with pytest.raises(ValueError, match=re.escape("f: x is a tensor on 'meta': sigkern works on CPU memory only; move it with x.cpu()")):
        A.cpu_tensor(torch.empty(3, device="meta"), "f", "x")
    with pytest.raises(ValueError, match=r"f: x is a torch.sparse_coo tensor; pass a dense one \(x\.to_dense\(\)\)"):
        A.cpu_tensor(torch.ones(3).to_sparse(), "f", "x")
    A.writable_out(np.empty(3), "f")
    A.cpu_tensor(np.empty(3), "f", "x")  # not a tensor: nothing to check


def test_contiguity_and_moving_the_axis():
    a = np.arange(24.0).reshape(2, 3, 4)
    t = torch.from_numpy(a.copy())
    assert str(A.not_contiguous(a.T, "f", "x")) == (
        f"f: x is not C-contiguous (strides {a.T.strides}); pass np.ascontiguousarray(x) (a copy)")
    assert str(A.not_contiguous(t.mT, "f", "x")).endswith("pass x.contiguous() (a copy)")
    for arr in (a, t):
        v = A.movelast(arr, 1)
        assert tuple(v.shape) == (2, 4, 3) and not A.is_contig(v)
        assert A.moveback(v, 1).shape == arr.shape and A.movelast(arr, 2) is arr
        c = A.move_copy(arr, 1, -1)
        assert A.is_contig(c) and np.array_equal(np.asarray(c), np.moveaxis(a, 1, -1))
        assert A.is_contig(A.contig(v)) and A.contig(arr) is arr
    assert A.is_strided_1d(a[0, 0, ::2]) and not A.is_strided_1d(a[0, 0]) and A.is_strided_1d(t[0, :, 0])
    out = np.zeros(4)
    assert A.copy_into(out, torch.arange(4.0)) is out and np.array_equal(out, np.arange(4.0))
    tout = torch.zeros(4, dtype=torch.float64)
    assert A.copy_into(tout, np.arange(4.0)[::-1]) is tout and tout.tolist() == [3.0, 2.0, 1.0, 0.0]


def test_the_public_functions_use_the_shared_messages():
    """One mistake, one message, whatever the family (a sample of the walk in
    test_py_args_every_function.py, through the fast paths' fallbacks)."""
    axis_msg = "axis 2 is out of bounds for array of dimension 2"
    sos = sigkern.butter(2, 0.2, output="sos")
    x2 = np.ones((2, 8))
    for f in (lambda: sigkern.rfft(x2, axis=2), lambda: sigkern.sosfilt(sos, x2, axis=2),
              lambda: sigkern.resample(x2, 2, 1, axis=2), lambda: sigkern.decimate(x2, 2, axis=2),
              lambda: sigkern.rms(x2, axis=2)):
        with pytest.raises(A.AxisError, match=axis_msg):
            f()
    ro = np.ones(8)
    ro.flags.writeable = False
    for f in (lambda: sigkern.scale(np.ones(8), 2.0, out=ro),
              lambda: sigkern.rfft(np.ones(14), out=_ro(np.empty(8, np.complex128))),
              lambda: sigkern.sosfilt(sos, np.ones(8), out=ro),
              lambda: sigkern.spec_power(np.ones(8, np.complex128), out=ro)):
        with pytest.raises(ValueError, match=re.escape("out is an output but the array is read-only (not writeable)")):
            f()


def _ro(a):
    a.flags.writeable = False
    return a
