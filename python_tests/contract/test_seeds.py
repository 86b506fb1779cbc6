"""The two seed documents: their snippets run unmodified (except the library path, and
`print b` → `print(b)`) and do what the text says; plus the seed functions' full contract.

- examples/python/seed_000_torch_ctypes.py: ctypes.CDLL + torch `tensor.data_ptr()` +
  `process_data` declared `void`: the tensor is peak-normalised in place.
- examples/python/seed_003_cffi_numpy.py: `void copy(float *in, float *out, int len)` through
  CFFI, in the question's form and the three answers' forms.
"""

import ctypes
import pathlib
import subprocess
import sys

import numpy as np
import pytest

from sk_header import (
    ROOT, SK_ERR_LENGTH, SK_ERR_MISALIGNED, SK_ERR_NON_FINITE, SK_ERR_NULL_POINTER, SK_OK,
)
from sk_util import FLT_MAX, bits_equal

torch = pytest.importorskip("torch")

EXAMPLES = ROOT / "examples" / "python"
SEED_CDEF = "void copy(float *in, float *out, int len);"


def _run(script: str, lib_path) -> str:
    proc = subprocess.run(
        [sys.executable, str(EXAMPLES / script), str(lib_path)],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, f"{script} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


# ------------------------------------------------------------------- the scripts, verbatim ----


def _snippets(path: pathlib.Path) -> list:
    """The code between the "seed snippet (verbatim)" markers of an example script."""
    lines = path.read_text().splitlines()
    out, cur = [], None
    for line in lines:
        if "seed snippet (verbatim)" in line:
            cur = []
        elif "end of seed snippet" in line:
            out.append("\n".join(cur))
            cur = None
        elif cur is not None:
            cur.append(line)
    return out


def _seed_text(name: str) -> str:
    seeds = pathlib.Path("/work/shared/seeds")
    path = next(seeds.glob(name + "_*.txt"), None)
    if path is None:
        pytest.skip("seed documents not available")
    return path.read_text()


@pytest.mark.parametrize("script, seed", [("seed_000_torch_ctypes.py", "000"),
                                          ("seed_003_cffi_numpy.py", "003")])
def test_example_snippets_are_verbatim(script, seed):
    """Every snippet block of the example scripts appears in the seed document with only the
    allowed edits undone (library path, print b)."""
    text = _seed_text(seed)
    normalise = lambda s: "\n".join(line.strip() for line in s.splitlines() if line.strip())
    doc = normalise(text)
    snippets = _snippets(EXAMPLES / script)
    assert len(snippets) == (1 if seed == "000" else 6)
    for snip in snippets:
        original = (snip.replace("ctypes.CDLL(LIB_PATH)", "ctypes.CDLL('./mylib.so')")
                    .replace('ffi.dlopen(LIB_PATH)\n\nfloat_in', 'ffi.dlopen("/path/to/copy.dll")\n\nfloat_in')
                    .replace("ffi.dlopen(LIB_PATH)", 'ffi.dlopen("ccode.dll")')
                    .replace("print(b)", "print b"))
        assert normalise(original) in doc, f"not verbatim:\n{original}"


def test_seed_000_script(lib_path):
    out = _run("seed_000_torch_ctypes.py", lib_path)
    assert "成功调用 C 函数。" in out
    assert "max|tensor| = 1.0" in out
    assert "tensor == original / max|original|: True" in out
    assert "SEED 000 OK" in out


def test_seed_003_script(lib_path):
    out = _run("seed_003_cffi_numpy.py", lib_path)
    sections = out.split("== ")
    # (a) and (b) print the output array: sixteen 42s
    for label in ("(a)", "(b)"):
        sec = next(s for s in sections if s.startswith(label))
        printed = sec[sec.index("[") : sec.index("]") + 1]
        assert printed.count("42.") == 16, sec
    assert "FAILED" not in out
    checks = [line for line in out.splitlines() if line.startswith("check ")]
    assert len(checks) == 8 and all(line.endswith(": ok") for line in checks), out
    assert "TypeError: implicit cast from 'char *' to a different pointer type" in out
    assert out.rstrip().endswith("SEED 003 OK")


def test_seed_script_takes_the_library_from_the_environment(lib_path, tmp_path):
    """No argv: $SIGKERN_LIB names the library (here a copy under another name)."""
    import os
    import shutil

    copy = tmp_path / "renamed_sigkern.so"
    shutil.copy(lib_path, copy)
    env = dict(os.environ, SIGKERN_LIB=str(copy))
    proc = subprocess.run([sys.executable, str(EXAMPLES / "seed_003_cffi_numpy.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "SEED 003 OK" in proc.stdout, proc.stderr
    env["SIGKERN_LIB"] = str(tmp_path / "missing.so")
    proc = subprocess.run([sys.executable, str(EXAMPLES / "seed_003_cffi_numpy.py")], env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0 and "missing.so" in proc.stderr


# ----------------------------------------------------------------- the snippets in-process ----


def test_seed_000_in_process(lib_path):
    """ctypes.CDLL, argtypes [POINTER(c_float), c_int], restype None, tensor.data_ptr()."""
    lib = ctypes.CDLL(str(lib_path))
    process_data_func = lib.process_data
    process_data_func.argtypes = [ctypes.POINTER(ctypes.c_float), ctypes.c_int]
    process_data_func.restype = None
    gen = torch.Generator().manual_seed(7)
    for shape in ((100,), (1,), (7, 9), (4097,)):
        tensor = torch.randn(*shape, dtype=torch.float32, generator=gen) * 1000
        original = tensor.clone()
        storage = tensor.data_ptr()
        data_ptr_c = ctypes.cast(tensor.data_ptr(), ctypes.POINTER(ctypes.c_float))
        assert process_data_func(data_ptr_c, ctypes.c_int(tensor.numel())) is None
        assert tensor.data_ptr() == storage  # in place, same memory
        assert float(tensor.abs().max()) == 1.0
        assert torch.equal(tensor, original / original.abs().max())
    # the seed's contiguity step: a transposed tensor is made contiguous (a copy) first
    t = torch.randn(30, 20, generator=gen).T
    assert not t.is_contiguous()
    if not t.is_contiguous():
        t = t.contiguous()
    before = t.clone()
    process_data_func(ctypes.cast(t.data_ptr(), ctypes.POINTER(ctypes.c_float)), ctypes.c_int(t.numel()))
    assert torch.equal(t, before / before.abs().max())


@pytest.fixture(scope="module")
def seed_ffi(lib_path):
    from cffi import FFI

    ffi = FFI()
    ffi.cdef(SEED_CDEF)
    return ffi, ffi.dlopen(str(lib_path))


def test_seed_003_question_form(seed_ffi):
    ffi, C = seed_ffi
    float_in = ffi.new("float[16]")
    float_out = ffi.new("float[16]")
    arr_in = 42 * np.ones(16, dtype=np.float32)
    float_in[0:16] = arr_in[0:16]
    C.copy(float_in, float_out, 16)
    arr_out = np.frombuffer(ffi.buffer(float_out, 16 * 4), dtype=np.float32)
    assert np.array_equal(arr_out, np.full(16, 42, np.float32))


def test_seed_003_answer_1_ctypes_data(seed_ffi):
    ffi, C = seed_ffi
    a = 42 * np.ones(16, dtype=np.float32)
    b = np.zeros_like(a)
    pa = ffi.cast("float *", a.ctypes.data)
    pb = ffi.cast("float *", b.ctypes.data)
    C.copy(pa, pb, len(a))
    assert np.array_equal(b, a)


def test_seed_003_answer_2_array_interface(seed_ffi):
    import cffi

    ffi = cffi.FFI()
    a = np.zeros(42)
    data = a.__array_interface__['data'][0]
    cptr = ffi.cast("double*", data)
    cptr[3] = -1.25
    assert a[3] == -1.25
    # with a float32 array the same pointer form feeds copy()
    sffi, C = seed_ffi
    src = np.arange(16, dtype=np.float32)
    dst = np.zeros(16, dtype=np.float32)
    C.copy(sffi.cast("float*", src.__array_interface__['data'][0]),
           sffi.cast("float*", dst.__array_interface__['data'][0]), 16)
    assert np.array_equal(dst, src)


def test_seed_003_answer_3_from_buffer_forms(seed_ffi):
    ffi, C = seed_ffi
    arr_in = 42 * np.ones(16, dtype=np.float32)
    arr_out = np.zeros(16, dtype=np.float32)
    cptr = ffi.cast("float *", ffi.from_buffer(arr_in))
    C.copy(cptr, ffi.cast("float *", ffi.from_buffer(arr_out)), 16)
    assert np.array_equal(arr_out, arr_in)
    arr_out[:] = 0
    C.copy(ffi.from_buffer("float[]", arr_in), ffi.from_buffer("float[]", arr_out), 16)
    assert np.array_equal(arr_out, arr_in)


def test_seed_003_untyped_from_buffer_is_refused_by_cffi(seed_ffi):
    """The seed's last line relies on an implicit char * → float * conversion that CFFI 2.x
    refuses before calling C (documented pitfall; use the typed form)."""
    ffi, C = seed_ffi
    arr_in = 42 * np.ones(16, dtype=np.float32)
    arr_out = np.zeros(16, dtype=np.float32)
    with pytest.raises(TypeError, match=r"implicit cast from 'char \*' to a different pointer type"):
        C.copy(ffi.from_buffer(arr_in), ffi.from_buffer(arr_out), 16)
    assert not arr_out.any()


# ------------------------------------------------------------- the seed functions' contract ----


def test_copy_contract(sk, ffi, last_error):
    """int32_t copy(const float *in, float *out, int len): memmove semantics; negative len is
    SK_ERR_LENGTH; NULL with len > 0 is SK_ERR_NULL_POINTER; nothing written on error."""
    rng = np.random.default_rng(3)
    for n in (0, 1, 15, 16, 17, 1000):
        a = rng.standard_normal(n).astype(np.float32)
        b = np.full(n, 5.0, np.float32)
        assert sk.copy(ffi.from_buffer("float[]", a), ffi.from_buffer("float[]", b), n) == SK_OK
        assert bits_equal(b, a)
    # overlapping both ways: memmove
    for shift in (-5, -1, 1, 5):
        base = np.arange(40, dtype=np.float32)
        want = base.copy()
        want[10 + shift:30 + shift] = base[10:30].copy()
        p = ffi.from_buffer("float[]", base)
        assert sk.copy(p + 10, p + 10 + shift, 20) == SK_OK
        assert np.array_equal(base, want)
    out = np.full(8, 9.0, np.float32)
    src = np.ones(8, np.float32)
    for length in (-1, -(2**31)):
        assert sk.copy(ffi.from_buffer("float[]", src), ffi.from_buffer("float[]", out), length) == SK_ERR_LENGTH
        assert last_error() == f"copy: len = {length} is negative"
    assert sk.copy(ffi.NULL, ffi.from_buffer("float[]", out), 8) == SK_ERR_NULL_POINTER
    assert last_error().startswith("copy: argument in is NULL")
    assert sk.copy(ffi.from_buffer("float[]", src), ffi.NULL, 8) == SK_ERR_NULL_POINTER
    assert last_error().startswith("copy: argument out is NULL")
    assert sk.copy(ffi.NULL, ffi.NULL, 0) == SK_OK
    raw = np.zeros(40, np.uint8)
    mis = raw[1:33].view(np.float32)
    assert sk.copy(ffi.from_buffer("float[]", src), ffi.from_buffer("float[]", mis), 8) == SK_ERR_MISALIGNED
    assert not raw.any()
    assert np.all(out == 9.0)


def test_process_data_contract(sk, ffi, last_error):
    """int32_t process_data(float *data, int size): peak-normalise in place (max|x| == 1.0
    exactly); all zero → unchanged, SK_OK; NaN/Inf → SK_ERR_NON_FINITE, untouched; negative size
    → SK_ERR_LENGTH."""
    rng = np.random.default_rng(4)
    cases = [rng.standard_normal(n).astype(np.float32) * s
             for n in (1, 2, 15, 64, 65, 1001) for s in (1.0, 1e-3, 3e37)]
    cases.append((rng.integers(-50, 50, 77) * 1e-45).astype(np.float32))  # denormals only
    cases.append(np.array([FLT_MAX, -FLT_MAX, 1.0], np.float32))
    cases.append(np.array([-3.0, 1.5, 0.0, -0.0], np.float32))
    for x in cases:
        if not np.any(x):
            continue
        orig = x.copy()
        assert sk.process_data(ffi.from_buffer("float[]", x), x.size) == SK_OK
        peak = np.max(np.abs(orig))
        assert float(np.max(np.abs(x))) == 1.0
        with np.errstate(all="ignore"):
            assert bits_equal(x, orig / peak)
    for z in (np.zeros(9, np.float32), np.array([0.0, -0.0, -0.0], np.float32)):
        before = z.copy()
        assert sk.process_data(ffi.from_buffer("float[]", z), z.size) == SK_OK
        assert bits_equal(z, before)
    for bad in (np.nan, np.inf, -np.inf):
        for pos in (0, 40, 99):
            x = rng.standard_normal(100).astype(np.float32)
            x[pos] = bad
            before = x.copy()
            assert sk.process_data(ffi.from_buffer("float[]", x), 100) == SK_ERR_NON_FINITE
            assert bits_equal(x, before)
            msg = last_error()
            assert msg.startswith(f"process_data: data[{pos}] = ") and "not finite" in msg, msg
    x = np.ones(4, np.float32)
    assert sk.process_data(ffi.from_buffer("float[]", x), -1) == SK_ERR_LENGTH
    assert last_error() == "process_data: size = -1 is negative"
    assert sk.process_data(ffi.NULL, 4) == SK_ERR_NULL_POINTER
    assert last_error().startswith("process_data: argument data is NULL")
    assert sk.process_data(ffi.NULL, 0) == SK_OK
    raw = np.zeros(20, np.uint8)
    raw[1:17].view(np.float32)[:] = 2.0
    before = raw.copy()
    assert sk.process_data(ffi.from_buffer("float[]", raw[1:17].view(np.float32)), 4) == SK_ERR_MISALIGNED
    assert np.array_equal(raw, before)
    assert np.all(x == 1.0)
