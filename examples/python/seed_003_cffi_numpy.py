"""Seed 003: passing numpy arrays to a C function through CFFI without copying (verbatim).

Each block between "seed" markers is a snippet of the Q&A thread exactly as written, with two
kinds of change only: the library path (`"/path/to/copy.dll"`, `"ccode.dll"`) is `LIB_PATH`
(argv[1], else $SIGKERN_LIB, else target/release/libsigkern.{so,dylib} / sigkern.dll of this
repository), and the Python 2 statement `print b` is `print(b)`. sigkern exports
`copy(const float *in, float *out, int len)` (memmove semantics, int32 status; the seed's
`void` declaration ignores the status). Lines outside the markers set up the names a fragment
assumes and check that it did what the text says.

The one snippet that does not work is CFFI's doing, not the library's: passing
`ffi.from_buffer(arr)` (a `char *`) where `float *` is declared is refused by CFFI 2.x with
`TypeError: implicit cast from 'char *' to a different pointer type`. Use the typed
`ffi.from_buffer("float[]", arr)` (which also keeps the array alive) or
`ffi.cast("float *", ffi.from_buffer(arr))`. Section (d) shows all three.

Run: .venv/bin/python examples/python/seed_003_cffi_numpy.py [path/to/libsigkern.so]
"""

import os
import pathlib
import sys


def _default_library() -> str:
    release = pathlib.Path(__file__).resolve().parents[2] / "target" / "release"
    names = {"win32": "sigkern.dll", "cygwin": "sigkern.dll", "darwin": "libsigkern.dylib"}
    return str(release / names.get(sys.platform, "libsigkern.so"))


LIB_PATH = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("SIGKERN_LIB") or _default_library()
failures = []


def check(label, ok):
    print(f"check {label}: {'ok' if ok else 'FAILED'}")
    if not ok:
        failures.append(label)


print("== (a) question: ffi.new buffers, copy, ffi.buffer -> np.frombuffer ==")
# ---------------------------------------------------------------- seed snippet (verbatim) ----
import numpy as np
from cffi import FFI

ffi = FFI()
ffi.cdef("void copy(float *in, float *out, int len);")
C = ffi.dlopen(LIB_PATH)

float_in = ffi.new("float[16]")
float_out = ffi.new("float[16]")

arr_in = 42*np.ones(16, dtype=np.float32)

float_in[0:16] = arr_in[0:16]
C.copy(float_in, float_out, 16)
arr_out = np.frombuffer(ffi.buffer(float_out, 16*4), dtype=np.float32)
# ------------------------------------------------------------------------ end of seed snippet ----
print(arr_out)
check("(a) arr_out is sixteen 42s", arr_out.dtype == np.float32 and np.array_equal(arr_out, np.full(16, 42, np.float32)))

# Answer 1, question 3: filling an ffi array from numpy through a list.
float_in = ffi.new("float[16]")
arr_in = 7*np.arange(16, dtype=np.float32)
# ---------------------------------------------------------------- seed snippet (verbatim) ----
float_in[0:16] = list(arr_in[0:16])
# ------------------------------------------------------------------------ end of seed snippet ----
check("(a) float_in[0:16] = list(...) filled the ffi array", list(float_in) == list(arr_in))

print("== (b) answer 1: ffi.cast('float *', a.ctypes.data) ==")
# ---------------------------------------------------------------- seed snippet (verbatim) ----
import numpy as np
from cffi import FFI

ffi = FFI()
ffi.cdef("void copy(float *in, float *out, int len);")
C = ffi.dlopen(LIB_PATH)

a = 42*np.ones(16, dtype=np.float32)
b = np.zeros_like(a)
pa = ffi.cast("float *", a.ctypes.data)
pb = ffi.cast("float *", b.ctypes.data)

C.copy(pa, pb, len(a))
print(b)
# ------------------------------------------------------------------------ end of seed snippet ----
check("(b) b is sixteen 42s, written in place (no copy)", np.array_equal(b, np.full(16, 42, np.float32)))

print("== (c) answer 2: __array_interface__['data'][0] cast to double* ==")
# ---------------------------------------------------------------- seed snippet (verbatim) ----
import numpy as np
import cffi
ffi = cffi.FFI()

a = np.zeros(42)
data = a.__array_interface__['data'][0]
cptr = ffi.cast ( "double*" , data )
# ------------------------------------------------------------------------ end of seed snippet ----
# The pointer is the array's own memory: writing through it changes a.
cptr[41] = 2.5
check("(c) cptr aliases a (float64, 42 elements)", a[41] == 2.5 and a.sum() == 2.5 and int(ffi.cast("uintptr_t", cptr)) == a.ctypes.data)
# The same way to a float32 array gives a pointer the copy routine accepts.
ffi = FFI()
ffi.cdef("void copy(float *in, float *out, int len);")
C = ffi.dlopen(LIB_PATH)
src = 42*np.ones(16, dtype=np.float32)
dst = np.zeros(16, dtype=np.float32)
C.copy(ffi.cast("float*", src.__array_interface__['data'][0]), ffi.cast("float*", dst.__array_interface__['data'][0]), 16)
check("(c) copy through __array_interface__ pointers", np.array_equal(dst, src))

print("== (d) answer 3: ffi.from_buffer ==")
my_np_array = 42*np.ones(16, dtype=np.float32)
out_array = np.zeros(16, dtype=np.float32)
# ---------------------------------------------------------------- seed snippet (verbatim) ----
cptr = ffi.cast("float *", ffi.from_buffer(my_np_array))
# ------------------------------------------------------------------------ end of seed snippet ----
C.copy(cptr, ffi.cast("float *", ffi.from_buffer(out_array)), 16)
check("(d) cast(float *, from_buffer(arr)) passes the array's memory", np.array_equal(out_array, my_np_array))

arr_in = 42*np.ones(16, dtype=np.float32)
arr_out = np.zeros(16, dtype=np.float32)
# The typed form (what sigkern's README recommends): no cast, and it keeps the array alive.
C.copy(ffi.from_buffer("float[]", arr_in), ffi.from_buffer("float[]", arr_out), 16)
check("(d) typed ffi.from_buffer('float[]', arr)", np.array_equal(arr_out, arr_in))

arr_out = np.zeros(16, dtype=np.float32)
try:
    # ------------------------------------------------------------ seed snippet (verbatim) ----
    C.copy(ffi.from_buffer(arr_in), ffi.from_buffer(arr_out), 16)
    # -------------------------------------------------------------------- end of seed snippet ----
    pitfall = "no error"
except TypeError as e:
    pitfall = f"TypeError: {e}"
print(f"untyped from_buffer passed as float *: {pitfall}")
check("(d) the untyped form is refused by CFFI before calling C", pitfall.startswith("TypeError") and not arr_out.any())

print("SEED 003 OK" if not failures else f"SEED 003 FAILED: {failures}")
sys.exit(1 if failures else 0)
