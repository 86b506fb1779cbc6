"""sigkern: a small, zero-copy Python binding of the sigkern C library (numpy arrays, torch tensors).

    import numpy as np, sigkern
    x = np.random.default_rng(0).standard_normal(48000).astype(np.float32)
    y = sigkern.scale(x, 0.5)                 # allocates y (float32, like x)
    sigkern.add(x, y, out=y)                  # in place: y = x + y, no copy
    peak = sigkern.peak(x)                    # a Python float
    sigkern.add_f64(x, x)                     # TypeError: sk_add_f64 takes float64 ...

How it works
------------
* The library is found by :func:`find_library`: ``$SIGKERN_LIB`` if set, else
  ``target/release/libsigkern.so`` (``.dylib`` on macOS, ``sigkern.dll`` on Windows) under the
  repository root.
* The declarations come from the generated header ``include/sigkern_cdef.h`` through
  ``ffi.cdef()``; no C signature is retyped here. :func:`_parse_cdef` reads the same text once
  more to learn the parameter *names* and ``const``-ness that CFFI does not keep, and gives every
  parameter a role (input array, output array, scalar, length, scalar out-parameter). One
  generic caller, :func:`_invoke`, then serves every kernel ``sk_<op>_<f32|f64>``; a new kernel
  of the same shape appears here without code, and a new kind of parameter (strides, handles)
  needs one more role in :func:`_role_of` and one more branch in :func:`_invoke`. Until then
  such a kernel is listed in :data:`SKIPPED` with the reason (importing never fails on it).
* For every kernel family ``op`` there are three Python functions: ``op`` (picks ``_f32`` or
  ``_f64`` from the arrays' dtype), ``op_f32`` and ``op_f64`` (require that dtype). The Python
  signature is the C one without the length (computed) and without outputs: output arrays are
  the keyword ``out=`` (allocated like the first input when absent, and returned), scalar
  out-parameters become the return value (a Python ``float``).
* Arrays are passed zero-copy: numpy arrays through ``ffi.from_buffer("float[]", a)`` (which keeps
  the array alive during the call), torch tensors through ``tensor.data_ptr()`` as in the
  ctypes recipe. Before any call the binding refuses, with a message saying what to do:
  other types, other dtypes (``float16``, ``int``..., byte-swapped), mixed dtypes, shape
  mismatches (no broadcasting), non-contiguous data (use ``np.ascontiguousarray(a)`` /
  ``t.contiguous()``), misaligned data, read-only outputs, outputs that require grad (C code
  is invisible to autograd), sparse tensors and tensors not on the CPU (a CUDA or ``meta``
  tensor's ``data_ptr()`` is not CPU memory and is never handed to C).
* A failing C call raises :class:`SigkernError` with ``.code`` (``SK_ERR_*`` value), ``.name``
  (from ``sk_status_name``) and ``.message`` (the thread's ``sk_last_error_message``, which
  names the C function and the argument). The library writes nothing on error.
* CFFI releases the GIL during each call, so kernels run in parallel from Python threads.

Lifetime: a buffer must stay alive while C uses it; this binding holds a reference to every
array and tensor for the duration of the call, and the C functions keep no pointer after they
return.
"""

import inspect
import os
import pathlib
import re
import sys
from dataclasses import dataclass
from typing import Any, Callable, Optional

import numpy as np
from cffi import FFI

__all__ = [
    "SigkernError",
    "find_library",
    "library_filename",
    "version",
    "simd_level",
    "status_name",
    "last_error_message",
    "ffi",
    "lib",
    "KERNELS",
    "SKIPPED",
]

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
CDEF_PATH = ROOT / "include" / "sigkern_cdef.h"


# --------------------------------------------------------------------------------------------
# Finding and loading the library
# --------------------------------------------------------------------------------------------


def library_filename(platform: str = sys.platform) -> str:
    """The file name the library has on ``platform`` (a ``sys.platform`` value)."""
    if platform.startswith("win") or platform == "cygwin":
        return "sigkern.dll"
    if platform == "darwin":
        return "libsigkern.dylib"
    return "libsigkern.so"


def find_library(env: Optional[dict] = None, root: pathlib.Path = ROOT) -> pathlib.Path:
    """The path of the built library: ``$SIGKERN_LIB`` if set (it must exist), else
    ``<root>/target/release/<library_filename()>``. Raises ``FileNotFoundError`` saying how to
    build it."""
    env = os.environ if env is None else env
    override = env.get("SIGKERN_LIB")
    if override:
        p = pathlib.Path(override)
        if not p.is_file():
            raise FileNotFoundError(f"SIGKERN_LIB={override!r} does not name a file")
        return p
    p = root / "target" / "release" / library_filename()
    if not p.is_file():
        raise FileNotFoundError(
            f"{p} does not exist: build the library with `cargo build --release` in {root}, "
            "or set SIGKERN_LIB to its path"
        )
    return p


CDEF = CDEF_PATH.read_text()
ffi = FFI()
ffi.cdef(CDEF)
#: The CFFI library object. Every C call of this module goes through this name, so a test can
#: replace it with a proxy to observe calls.
lib = ffi.dlopen(str(find_library()))


# --------------------------------------------------------------------------------------------
# Errors and library-level functions
# --------------------------------------------------------------------------------------------


class SigkernError(Exception):
    """A sigkern C function returned an error status.

    Attributes: ``code`` (the negative ``SK_ERR_*`` value), ``name`` (e.g.
    ``"SK_ERR_OVERLAP"``), ``message`` (the library's message, starting with the C function's
    name, e.g. ``"sk_add_f32: output y [...] overlaps input a [...]"``), ``function`` (the C
    function called)."""

    def __init__(self, code: int, name: str, message: str, function: str = ""):
        self.code = code
        self.name = name
        self.message = message
        self.function = function
        super().__init__(f"{name} ({code}): {message}")


def status_name(code: int) -> str:
    """``sk_status_name(code)`` as ``str`` (``"SK_UNKNOWN_STATUS"`` for an unknown code)."""
    return ffi.string(lib.sk_status_name(code)).decode()


def last_error_message() -> str:
    """The calling thread's message for its last failed sigkern call (``""`` if none)."""
    n = lib.sk_last_error_message(ffi.NULL, 0)
    buf = ffi.new("char[]", n + 1)
    lib.sk_last_error_message(buf, n + 1)
    return ffi.string(buf).decode("utf-8", "replace")


def version() -> str:
    """The library version, e.g. ``"0.1.0"`` (``sk_version()``)."""
    return ffi.string(lib.sk_version()).decode()


def simd_level() -> str:
    """The SIMD level the kernels use: ``"avx512"``, ``"avx2"``, ``"sse2"``, ``"neon"`` or
    ``"scalar"`` (``sk_simd_level()``; ``$SIGKERN_SIMD`` may force a lower one)."""
    return ffi.string(lib.sk_simd_level()).decode()


def _check(status: int, cname: str) -> None:
    if status != lib.SK_OK:
        raise SigkernError(status, status_name(status), last_error_message(), cname)


# --------------------------------------------------------------------------------------------
# Signatures, from the cdef text
# --------------------------------------------------------------------------------------------

#: C element type ↔ numpy dtype, and the suffix of the kernel names.
_ELEM = {"float": np.dtype(np.float32), "double": np.dtype(np.float64)}
_SUFFIX = {"f32": "float", "f64": "double"}

#: Mutable pointer parameters that the C function reads as well as writes (named in the
#: header's doc comments: "y readable and writable"). They are required positional arguments.
_INOUT = {("axpy", "y"), ("axpy_strided", "y")}

#: The name of a pointer parameter that is a single scalar out-parameter (header convention).
_SCALAR_OUT_NAME = "out"


@dataclass(frozen=True)
class Param:
    """One C parameter: ``ctype`` as written in the header (``"const float *"``), its role and,
    for pointers and scalars, the element type (``"float"``/``"double"``)."""

    name: str
    ctype: str
    role: str  # "in", "out", "inout", "scalar_out", "scalar", "len", "stride"
    elem: Optional[str]


@dataclass(frozen=True)
class Signature:
    cname: str
    restype: str
    params: tuple


_DECL = re.compile(r"^\s*([A-Za-z_][\w\s\*]*?)\s*\b([A-Za-z_]\w*)\s*\(([^()]*)\)\s*;", re.M)


def _split_param(text: str) -> tuple:
    """``"const float *in"`` → ``("const float *", "in")``."""
    m = re.fullmatch(r"\s*(.*?[\s\*])\s*([A-Za-z_]\w*)\s*", text)
    if not m:
        raise ValueError(f"cannot parse C parameter {text!r}")
    ctype = re.sub(r"\s*\*", " *", re.sub(r"\s+", " ", m.group(1))).strip()
    return ctype, m.group(2)


class _NoRole(Exception):
    """A parameter (or kernel) this module has no mapping for yet."""


def _role_of(op: str, ctype: str, name: str) -> tuple:
    """(role, element type) of a kernel parameter, from its C type and name."""
    base = ctype.replace("const", "").replace("*", "").strip()
    is_ptr = "*" in ctype
    if is_ptr and base in _ELEM:
        if ctype.startswith("const"):
            return "in", base
        if name == _SCALAR_OUT_NAME:
            return "scalar_out", base
        if (op, name) in _INOUT:
            return "inout", base
        return "out", base
    if not is_ptr and base in _ELEM:
        return "scalar", base
    if not is_ptr and base == "size_t":
        return "len", None
    if not is_ptr and base == "ptrdiff_t" and name.endswith("_stride") and op.endswith("_strided"):
        # the element stride of the array parameter named before "_stride", in a one-length
        # strided kernel sk_<op>_strided_* (other kernels' strides mean something else)
        return "stride", None
    raise _NoRole(
        f"parameter {ctype}{'' if is_ptr else ' '}{name}: no role for this kind of parameter yet "
        "(add one in _role_of and _invoke)"
    )


def _parse_cdef(text: str) -> dict:
    """Every function declared in ``text``: ``{cname: [(ctype, name), ...]}`` plus result type."""
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    out = {}
    for m in _DECL.finditer(text):
        restype, cname, params = m.group(1).strip(), m.group(2), m.group(3).strip()
        try:
            plist = [] if params in ("", "void") else [_split_param(p) for p in params.split(",")]
        except ValueError:
            plist = None  # e.g. a function-pointer parameter: not a kernel this module maps
        out[cname] = (restype, plist)
    return out


_KERNEL_NAME = re.compile(r"^sk_([a-z0-9_]+?)_(f32|f64)$")

#: Kernels whose parameters do not follow the one-length elementwise shape (integer PCM
#: buffers, channel-pointer arrays, ramp positions, (rows, cols) blocks): each has a hand-written
#: wrapper in the "Audio" section at the end of this module instead of a generated one.
_HANDWRITTEN = re.compile(
    r"^sk_(pcm_|convert_|interleave|deinterleave|gain_ramp_|crossfade_|rows_)"
)


#: Kernels declared in the header that this module does not expose yet, with the reason (a
#: parameter kind without a role, or f32/f64 variants that differ). Filled at import.
SKIPPED: dict = {}


def _kernel_signatures(decls: dict) -> dict:
    """``{op: {"f32": Signature, "f64": Signature}}`` for every ``int32_t sk_<op>_<f32|f64>``
    whose parameters all have a role, cross-checked against the types CFFI parsed. Anything
    else goes to :data:`SKIPPED` (so a new kind of kernel in the header never breaks import)."""
    fams: dict = {}
    for cname, (restype, plist) in decls.items():
        m = _KERNEL_NAME.match(cname)
        if not m or restype != "int32_t" or _HANDWRITTEN.match(cname):
            continue
        op, suffix = m.groups()
        try:
            if plist is None:
                raise _NoRole("a parameter could not be parsed")
            params = []
            for ctype, name in plist:
                role, elem = _role_of(op, ctype, name)
                if elem is not None and elem != _SUFFIX[suffix]:
                    raise _NoRole(f"parameter {name} is {ctype}, not {_SUFFIX[suffix]}")
                params.append(Param(name, ctype, role, elem))
            cffi_args = [a.cname for a in ffi.typeof(getattr(lib, cname)).args]
            if cffi_args != [p.ctype.replace("const ", "") for p in params]:
                raise _NoRole(f"CFFI parsed {cffi_args}")
        except _NoRole as e:
            SKIPPED[cname] = str(e)
            continue
        fams.setdefault(op, {})[suffix] = Signature(cname, restype, tuple(params))
    for op in list(fams):
        shapes = {tuple((p.name, p.role) for p in sig.params) for sig in fams[op].values()}
        if len(shapes) != 1:
            for sig in fams.pop(op).values():
                SKIPPED[sig.cname] = "the f32 and f64 variants differ in their parameters"
    return fams


# --------------------------------------------------------------------------------------------
# Arrays and tensors → pointers
# --------------------------------------------------------------------------------------------


def _torch():
    """The torch module if it is already imported (this module never imports torch itself)."""
    return sys.modules.get("torch")


def _is_tensor(x: Any) -> bool:
    t = _torch()
    return t is not None and isinstance(x, t.Tensor)


def _dtype_of(x: Any) -> Optional[np.dtype]:
    """float32/float64 numpy dtype of an array or tensor, or None if it is neither."""
    if isinstance(x, np.ndarray):
        return x.dtype if x.dtype in (_ELEM["float"], _ELEM["double"]) else None
    if _is_tensor(x):
        t = _torch()
        return {t.float32: _ELEM["float"], t.float64: _ELEM["double"]}.get(x.dtype)
    return None


def _describe(x: Any) -> str:
    if isinstance(x, np.ndarray):
        return f"numpy array of dtype {x.dtype}"
    if _is_tensor(x):
        return f"torch tensor of dtype {x.dtype}"
    return type(x).__name__


class _Prepared:
    """A validated array argument: its pointer (cdata) and the object kept alive for the call."""

    __slots__ = ("ptr", "obj", "size", "shape", "stride")

    def __init__(self, ptr, obj, size, shape, stride=1):
        self.ptr, self.obj, self.size, self.shape = ptr, obj, size, shape
        self.stride = stride  # in elements (strided kernels only)


def _is_strided_1d(x: Any) -> bool:
    """Whether ``x`` is a one-dimensional view that is not contiguous (``a[::2]``, ``a[::-1]``,
    a column ``m[:, j]``): such views map onto the ``sk_<op>_strided_*`` kernels."""
    if isinstance(x, np.ndarray):
        return x.ndim == 1 and not x.flags.c_contiguous
    if _is_tensor(x):
        return x.dim() == 1 and not x.is_contiguous()
    return False


def _element_stride(x: Any, where: str, itemsize: int, name: str) -> int:
    """The element stride of a 1-D array or tensor; a byte stride that is not a whole number of
    elements (e.g. a field of a structured array) is refused: its elements are unaligned."""
    if isinstance(x, np.ndarray):
        b = x.strides[0] if x.ndim == 1 else itemsize
        if b % itemsize:
            raise ValueError(
                f"{where} has a stride of {b} bytes, not a multiple of the {itemsize}-byte "
                f"element: its elements are not aligned; pass np.ascontiguousarray({name})"
            )
        return b // itemsize
    return int(x.stride(0)) if x.dim() == 1 else 1


def _prepare(x: Any, p: Param, cname: str, writable: bool, strided: bool = False) -> _Prepared:
    """Checks ``x`` against parameter ``p`` of ``cname`` and returns its zero-copy pointer.
    Raises TypeError/ValueError (never calls C) when the buffer cannot be passed as it is.
    With ``strided`` (a ``sk_<op>_strided_*`` kernel), a one-dimensional view of any element
    stride is accepted and its stride returned with the pointer."""
    where = f"{cname}: argument {p.name}"
    one_d = strided and _is_strided_1d(x)
    want = _ELEM[p.elem]
    if isinstance(x, np.ndarray):
        if x.dtype != want:
            raise TypeError(
                f"{where} must be {want} ({p.elem}), got a numpy array of dtype {x.dtype}; "
                f"convert with {p.name}.astype(np.{want})" + _dispatch_hint(cname)
            )
        if not x.flags.c_contiguous and not one_d:
            raise ValueError(
                f"{where} is not C-contiguous (strides {x.strides}); pass "
                f"np.ascontiguousarray({p.name}) (a copy)"
            )
        addr = x.__array_interface__["data"][0]
        if x.size and addr % want.itemsize:
            raise ValueError(
                f"{where} at {addr:#x} is not aligned to {want.itemsize} bytes as {p.elem} "
                f"requires; pass an aligned copy ({p.name}.copy())"
            )
        if writable and not x.flags.writeable:
            raise ValueError(f"{where} is an output but the array is read-only (not writeable)")
        if one_d:
            stride = _element_stride(x, where, want.itemsize, p.name)
            ptr = ffi.cast(p.elem + " *", addr) if x.size else ffi.NULL
            return _Prepared(ptr, x, x.size, tuple(x.shape), stride)
        ptr = ffi.from_buffer(p.elem + "[]", x, require_writable=writable)
        return _Prepared(ptr, x, x.size, tuple(x.shape))
    if _is_tensor(x):
        torch = _torch()
        if x.device.type != "cpu":
            raise ValueError(
                f"{where} is a tensor on device '{x.device}'; sigkern works on CPU memory only "
                "(its data_ptr() is not CPU memory): move it with .cpu()"
            )
        if x.layout != torch.strided:
            raise ValueError(f"{where} is a {x.layout} tensor; pass a dense one (.to_dense())")
        if x.dtype not in (torch.float32, torch.float64) or _dtype_of(x) != want:
            raise TypeError(
                f"{where} must be {'torch.float32' if p.elem == 'float' else 'torch.float64'} "
                f"({p.elem}), got a tensor of dtype {x.dtype}; convert with .to(torch."
                f"{'float32' if p.elem == 'float' else 'float64'})" + _dispatch_hint(cname)
            )
        if x.is_conj() or x.is_neg():
            raise ValueError(f"{where} is a lazy conj/neg view; call .resolve_neg() first")
        if not x.is_contiguous() and not one_d:
            raise ValueError(
                f"{where} is not contiguous (strides {tuple(x.stride())}); pass "
                f"{p.name}.contiguous() (a copy)"
            )
        addr = x.data_ptr()
        if x.numel() and addr % want.itemsize:
            raise ValueError(
                f"{where} at {addr:#x} is not aligned to {want.itemsize} bytes as {p.elem} "
                f"requires; pass {p.name}.clone()"
            )
        if writable and x.requires_grad:
            raise ValueError(
                f"{where} is an output but the tensor requires grad: C code is invisible to "
                "autograd; write into a tensor that does not (e.g. under torch.no_grad(), or "
                "a .detach()ed one)"
            )
        ptr = ffi.cast(p.elem + " *", addr) if x.numel() else ffi.NULL
        stride = int(x.stride(0)) if one_d else 1
        return _Prepared(ptr, x, x.numel(), tuple(x.shape), stride)
    raise TypeError(
        f"{where} must be a numpy array or a torch tensor of {want}, got {type(x).__name__}; "
        f"use np.asarray(x, dtype=np.{want})"
    )


def _dispatch_hint(cname: str) -> str:
    m = _KERNEL_NAME.match(cname)
    if not m:
        return ""
    return f" (or call sigkern.{m.group(1)}() which picks _f32/_f64 from the dtype)"


def _allocate_like(template: Any, dtype: np.dtype) -> Any:
    if _is_tensor(template):
        torch = _torch()
        tdt = torch.float32 if dtype == _ELEM["float"] else torch.float64
        return torch.empty(tuple(template.shape), dtype=tdt, device="cpu")
    return np.empty(template.shape, dtype=dtype)


def _scalar(v: Any, p: Param, cname: str) -> float:
    if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, float, np.integer, np.floating)):
        if _is_tensor(v) and v.numel() == 1 and v.device.type == "cpu":
            return float(v.item())
        raise TypeError(f"{cname}: argument {p.name} must be a real number, got {_describe(v)}")
    return float(v)


# --------------------------------------------------------------------------------------------
# The generic caller
# --------------------------------------------------------------------------------------------


def _select(fam: dict, args: tuple, out: Any, op: str) -> Signature:
    """The f32 or f64 signature, from the dtype of the array arguments (all must agree)."""
    sig0 = next(iter(fam.values()))
    arrays, k = [], 0
    for p in sig0.params:
        if p.role in ("in", "inout", "scalar"):
            if k < len(args) and p.role != "scalar":
                arrays.append((p.name, args[k]))
            k += 1
    outs = out if isinstance(out, tuple) else (out,)
    arrays += [("out", o) for o in outs if o is not None]
    if not arrays:
        raise TypeError(f"{op}() needs an array argument to choose float32 or float64")
    dtypes = {}
    for name, a in arrays:
        dt = _dtype_of(a)
        if dt is None:
            raise TypeError(
                f"{op}(): argument {name} must be a float32 or float64 numpy array or torch "
                f"tensor, got a {_describe(a)}"
            )
        dtypes.setdefault(dt, []).append(name)
    if len(dtypes) > 1:
        detail = "; ".join(f"{', '.join(n)}: {dt}" for dt, n in dtypes.items())
        raise TypeError(
            f"{op}(): mixed dtypes ({detail}); sigkern does not convert, pass arrays of one "
            "dtype (e.g. x.astype(np.float32))"
        )
    dt = next(iter(dtypes))
    return fam["f32" if dt == _ELEM["float"] else "f64"]


def _invoke(sig: Signature, op: str, args: tuple, out: Any) -> Any:
    """Calls ``sig.cname`` with Python arguments laid out as the Python signature of ``op``.

    Positional ``args`` are the C parameters with roles in/inout/scalar, in C order; ``out`` is
    one output array (or a tuple for several). Every check happens before the C call; the
    length argument is the common size of the arrays."""
    params = sig.params
    positional = [p for p in params if p.role in ("in", "inout", "scalar")]
    outs = [p for p in params if p.role == "out"]
    if len(args) != len(positional):
        raise TypeError(
            f"{op}() takes {len(positional)} positional arguments "
            f"({', '.join(p.name for p in positional)}), got {len(args)}"
        )
    if out is not None and not outs:
        raise TypeError(f"{op}() has no output array; out= is not accepted")
    out_list = list(out) if isinstance(out, tuple) else [out] * (1 if outs else 0)
    if len(outs) > 1 and out is not None and len(out_list) != len(outs):
        raise TypeError(f"{op}(): out= must be a tuple of {len(outs)} arrays")
    if len(outs) > 1 and out is None:
        out_list = [None] * len(outs)

    given = dict(zip((p.name for p in positional), args))
    dtype = _ELEM[next(p.elem for p in params if p.elem)]
    strided = any(p.role == "stride" for p in params)
    prepared: dict = {}
    template = None
    for p in params:  # inputs first, so that the shape is known before outputs are allocated
        if p.role in ("in", "inout"):
            prepared[p.name] = _prepare(
                given[p.name], p, sig.cname, writable=p.role == "inout", strided=strided
            )
            template = template if template is not None else given[p.name]
    returned = []
    for p, o in zip(outs, out_list):
        if o is None:
            if template is None:
                raise TypeError(f"{op}() needs out= (the array to write {p.name} into)")
            o = _allocate_like(template, dtype)
        prepared[p.name] = _prepare(o, p, sig.cname, writable=True, strided=strided)
        returned.append(o)
    shapes = {name: pr.shape for name, pr in prepared.items()}
    if len(set(shapes.values())) > 1:
        raise ValueError(
            f"{sig.cname}: shapes differ ({', '.join(f'{n}: {s}' for n, s in shapes.items())}); "
            "sigkern does not broadcast"
        )
    n = next(iter(prepared.values())).size if prepared else 0

    c_args = []
    scalar_outs = []
    for p in params:
        if p.role in ("in", "inout", "out"):
            c_args.append(prepared[p.name].ptr)
        elif p.role == "scalar":
            c_args.append(_scalar(given[p.name], p, sig.cname))
        elif p.role == "scalar_out":
            cell = ffi.new(p.elem + " *")
            scalar_outs.append(cell)
            c_args.append(cell)
        elif p.role == "len":
            c_args.append(n)
        elif p.role == "stride":
            c_args.append(prepared[p.name[: -len("_stride")]].stride)
        else:  # pragma: no cover - _role_of only produces the roles above
            raise NotImplementedError(p.role)
    status = getattr(lib, sig.cname)(*c_args)
    _check(status, sig.cname)
    del prepared  # the arrays are referenced until here: alive during the call
    results = list(returned)
    results += [g for p in params if p.role == "inout" for g in (given[p.name],)]
    results += [float(c[0]) for c in scalar_outs]
    if not results:
        return None
    return results[0] if len(results) == 1 else tuple(results)


def _python_signature(sig: Signature) -> inspect.Signature:
    P = inspect.Parameter
    params = [P(p.name, P.POSITIONAL_ONLY) for p in sig.params if p.role in ("in", "inout", "scalar")]
    if any(p.role == "out" for p in sig.params):
        params.append(P("out", P.KEYWORD_ONLY, default=None))
    return inspect.Signature(params)


def _c_decl(sig: Signature) -> str:
    ps = ", ".join(f"{p.ctype}{'' if p.ctype.endswith('*') else ' '}{p.name}" for p in sig.params)
    return f"{sig.restype} {sig.cname}({ps});"


def _returns_doc(sig: Signature) -> str:
    outs = [p.name for p in sig.params if p.role in ("out", "inout")]
    scal = [p.name for p in sig.params if p.role == "scalar_out"]
    parts = []
    if outs:
        parts.append(f"the output array ({', '.join(outs)})")
    if scal:
        parts.append("the result as a Python float")
    return " and ".join(parts) or "None"


def _make(op: str, fam: dict, suffix: Optional[str]) -> Callable:
    """The Python function for kernel family ``op``: dtype-dispatching when ``suffix`` is None,
    else bound to ``sk_<op>_<suffix>``."""
    fixed = fam[suffix] if suffix else None
    sig0 = fixed or fam.get("f32") or next(iter(fam.values()))
    strided_fam = KERNELS.get(op + "_strided")

    def kernel(*args, out=None):
        sig = fixed if fixed is not None else _select(fam, args, out, op)
        if strided_fam is not None:
            outs = out if isinstance(out, tuple) else (out,)
            if any(_is_strided_1d(a) for a in (*args, *outs)):
                # a 1-D view (x[::2], x[::-1], m[:, j]): the strided kernel, zero copy
                sig = strided_fam[sig.cname.rsplit("_", 1)[1]]
        return _invoke(sig, op, args, out)

    kernel.__name__ = kernel.__qualname__ = f"{op}_{suffix}" if suffix else op
    kernel.__signature__ = _python_signature(sig0)
    decls = "\n    ".join(_c_decl(s) for s in ([fixed] if fixed else fam.values()))
    kernel.__doc__ = (
        f"Calls\n    {decls}\n"
        + ("with the variant chosen from the arrays' dtype (float32 → _f32, float64 → _f64).\n"
           if not fixed else "")
        + f"Python form: {kernel.__name__}{kernel.__signature__}; returns {_returns_doc(sig0)}.\n"
        "The length argument is the common size of the arrays; see include/sigkern.h for the "
        "semantics. Raises SigkernError when the C function fails."
    )
    return kernel


_DECLS = _parse_cdef(CDEF)
#: ``{op: {"f32": Signature, "f64": Signature}}`` for every kernel the header declares.
KERNELS = _kernel_signatures(_DECLS)

for _op, _fam in sorted(KERNELS.items()):
    globals()[_op] = _make(_op, _fam, None)
    __all__.append(_op)
    for _suffix in sorted(_fam):
        globals()[f"{_op}_{_suffix}"] = _make(_op, _fam, _suffix)
        __all__.append(f"{_op}_{_suffix}")
del _op, _fam, _suffix

# Note: the kernels sum, min, max, abs shadow the built-ins inside this module; code above
# this loop runs before they exist, and nothing below uses the built-ins.


# --------------------------------------------------------------------------------------------
# Audio (hand-written wrappers: PCM, channel layout, ramps and fades, per-row batches)
# --------------------------------------------------------------------------------------------

#: PCM formats: name → (numpy dtype of the code array, C element type).
_PCM = {
    "i16": (np.dtype(np.int16), "int16_t"),
    "i32": (np.dtype(np.int32), "int32_t"),
    "i24": (np.dtype(np.uint8), "uint8_t"),  # 3 bytes a sample, little-endian (WAV)
    "u8": (np.dtype(np.uint8), "uint8_t"),  # offset binary
}
_FLOAT_SUFFIX = {np.dtype(np.float32): "f32", np.dtype(np.float64): "f64"}


def _raw(x: Any, where: str, dtype: np.dtype, ctype: str, writable: bool, strided: bool):
    """(pointer, element stride, element count, keep-alive) of a numpy array or CPU tensor of
    exactly ``dtype``: contiguous, or (``strided``) any 1-D view whose stride is a whole number
    of elements. Refuses anything else before C is called."""
    if _is_tensor(x):
        torch = _torch()
        if x.device.type != "cpu" or x.layout != torch.strided:
            raise ValueError(f"{where} must be a dense CPU tensor, got {x.device}/{x.layout}")
        if writable and x.requires_grad:
            raise ValueError(f"{where} is an output but the tensor requires grad")
        if x.is_conj() or x.is_neg():
            raise ValueError(f"{where} is a lazy conj/neg view; call .resolve_neg() first")
        tmap = {np.dtype(k): v for k, v in (
            (np.float32, torch.float32), (np.float64, torch.float64), (np.int16, torch.int16),
            (np.int32, torch.int32), (np.uint8, torch.uint8))}
        if x.dtype != tmap[dtype]:
            raise TypeError(f"{where} must be {tmap[dtype]}, got a tensor of dtype {x.dtype}")
        one_d = strided and _is_strided_1d(x)
        if not x.is_contiguous() and not one_d:
            raise ValueError(f"{where} is not contiguous (strides {tuple(x.stride())}); pass "
                             ".contiguous() (a copy)")
        addr, n = x.data_ptr(), x.numel()
        stride = int(x.stride(0)) if one_d else 1
    elif isinstance(x, np.ndarray):
        if x.dtype != dtype:
            raise TypeError(f"{where} must be {dtype}, got a numpy array of dtype {x.dtype}; "
                            f"convert with .astype(np.{dtype})")
        one_d = strided and _is_strided_1d(x)
        if not x.flags.c_contiguous and not one_d:
            raise ValueError(f"{where} is not C-contiguous (strides {x.strides}); pass "
                             "np.ascontiguousarray(...) (a copy)")
        if writable and not x.flags.writeable:
            raise ValueError(f"{where} is an output but the array is read-only (not writeable)")
        addr, n = x.__array_interface__["data"][0], x.size
        stride = _element_stride(x, where, dtype.itemsize, "x") if one_d else 1
    else:
        raise TypeError(f"{where} must be a numpy array or a torch tensor of {dtype}, got "
                        f"{type(x).__name__}")
    if n and addr % dtype.itemsize:
        raise ValueError(f"{where} at {addr:#x} is not aligned to {dtype.itemsize} bytes as "
                         f"{ctype} requires; pass an aligned copy")
    ptr = ffi.cast(ctype + " *", addr) if n else ffi.NULL
    return ptr, stride, n, x


def _empty(template: Any, shape: tuple, dtype: np.dtype) -> Any:
    if _is_tensor(template):
        torch = _torch()
        return torch.from_numpy(np.empty(shape, dtype))
    return np.empty(shape, dtype)


def _float_suffix(x: Any, fn: str) -> str:
    dt = _dtype_of(x)
    if dt is None:
        raise TypeError(f"{fn}(): expected a float32 or float64 array or tensor, got "
                        f"{_describe(x)}")
    return _FLOAT_SUFFIX[dt]


def pcm_to_float(codes: Any, fmt: Optional[str] = None, dtype=np.float32, out: Any = None) -> Any:
    """Integer PCM codes → float in [-1, 1): ``code / 2^(bits-1)`` (``sk_pcm_from_<fmt>_*``).

    ``fmt`` is ``"i16"``, ``"i32"``, ``"u8"`` (offset binary) or ``"i24"`` (a uint8 array of
    3·n bytes, little-endian); by default it follows the dtype (int16, int32, uint8 → u8).
    A 1-D strided view of i16/i32/u8 codes (or a strided float ``out``) uses the strided kernel.
    Returns ``out`` (allocated as a 1-D array of ``dtype`` when absent)."""
    if fmt is None:
        dt = codes.dtype if isinstance(codes, np.ndarray) else np.dtype(str(codes.dtype).split(".")[-1])
        fmt = {np.dtype(np.int16): "i16", np.dtype(np.int32): "i32", np.dtype(np.uint8): "u8"}.get(dt)
        if fmt is None:
            raise TypeError(f"pcm_to_float(): cannot infer the PCM format of {_describe(codes)}; "
                            "pass fmt='i16'|'i32'|'i24'|'u8'")
    if fmt not in _PCM:
        raise ValueError(f"pcm_to_float(): unknown fmt {fmt!r}; use one of {sorted(_PCM)}")
    cdt, cty = _PCM[fmt]
    size = codes.numel() if _is_tensor(codes) else np.size(codes)
    if fmt == "i24" and size % 3:
        raise ValueError(f"pcm_to_float(): i24 data holds 3 bytes a sample, got {size} bytes")
    n = size // 3 if fmt == "i24" else size
    if out is None:
        out = _empty(codes, (n,), np.dtype(dtype))
    sfx = _float_suffix(out, "pcm_to_float")
    strided = fmt != "i24" and (_is_strided_1d(codes) or _is_strided_1d(out))
    cname = f"sk_pcm_from_{fmt}{'_strided' if strided else ''}_{sfx}"
    px, sx, nx, kx = _raw(codes, f"{cname}: argument x", cdt, cty, False, strided)
    py, sy, ny, ky = _raw(out, f"{cname}: argument y", _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx], True, strided)
    if ny != n:
        raise ValueError(f"{cname}: out holds {ny} samples, the codes {n}")
    f = getattr(lib, cname)
    _check(f(px, sx, py, sy, n) if strided else f(px, py, n), cname)
    return out


def float_to_pcm(x: Any, fmt: str = "i16", out: Any = None) -> Any:
    """Float → integer PCM codes (``sk_pcm_to_<fmt>_*``): ``x · 2^(bits-1)`` rounded half to
    even and saturated; NaN/inf raise :class:`SigkernError` (``SK_ERR_NON_FINITE``) with
    nothing written. ``fmt``: ``"i16"``, ``"i32"``, ``"u8"``, ``"i24"`` (returns 3·n bytes).
    1-D strided views use the strided kernel. Returns ``out`` (allocated when absent)."""
    if fmt not in _PCM:
        raise ValueError(f"float_to_pcm(): unknown fmt {fmt!r}; use one of {sorted(_PCM)}")
    sfx = _float_suffix(x, "float_to_pcm")
    cdt, cty = _PCM[fmt]
    n = x.numel() if _is_tensor(x) else x.size
    if out is None:
        out = _empty(x, (3 * n if fmt == "i24" else n,), cdt)
    strided = fmt != "i24" and (_is_strided_1d(x) or _is_strided_1d(out))
    cname = f"sk_pcm_to_{fmt}{'_strided' if strided else ''}_{sfx}"
    px, sx, nx, kx = _raw(x, f"{cname}: argument x", _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx], False, strided)
    py, sy, ny, ky = _raw(out, f"{cname}: argument y", cdt, cty, True, strided)
    if ny != (3 * n if fmt == "i24" else n):
        raise ValueError(f"{cname}: out holds {ny} elements for {n} samples")
    f = getattr(lib, cname)
    _check(f(px, sx, py, sy, n) if strided else f(px, py, n), cname)
    return out


def convert(x: Any, dtype, out: Any = None) -> Any:
    """float32 ↔ float64 (``sk_convert_f32_to_f64`` / ``sk_convert_f64_to_f32``; strided for 1-D
    views). Returns ``out`` (allocated like ``x`` with ``dtype`` when absent)."""
    src = _float_suffix(x, "convert")
    dst = _FLOAT_SUFFIX.get(np.dtype(dtype))
    if dst is None or dst == src:
        raise TypeError(f"convert(): converts float32 ↔ float64, not {src} → {np.dtype(dtype)}")
    n = x.numel() if _is_tensor(x) else x.size
    if out is None:
        out = _empty(x, tuple(x.shape), np.dtype(dtype))
    strided = _is_strided_1d(x) or _is_strided_1d(out)
    cname = f"sk_convert{'_strided' if strided else ''}_{src}_to_{dst}"
    px, sx, _, kx = _raw(x, f"{cname}: argument x", _ELEM[_SUFFIX[src]], _SUFFIX[src], False, strided)
    py, sy, ny, ky = _raw(out, f"{cname}: argument y", _ELEM[_SUFFIX[dst]], _SUFFIX[dst], True, strided)
    if ny != n:
        raise ValueError(f"{cname}: out holds {ny} elements, x {n}")
    f = getattr(lib, cname)
    _check(f(px, sx, py, sy, n) if strided else f(px, py, n), cname)
    return out


def deinterleave(x: Any, nchannels: int, out: Any = None) -> Any:
    """Interleaved frames (``(frames, nchannels)`` or flat) → channel-major ``(nchannels,
    frames)`` block (``sk_deinterleave_block_*``), or, when ``out`` is a list of 1-D arrays,
    into those planar channels (``sk_deinterleave_*``). Returns ``out``."""
    sfx = _float_suffix(x, "deinterleave")
    dt, ct = _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx]
    n = x.numel() if _is_tensor(x) else x.size
    if nchannels < 1:
        # let the library report it (SK_ERR_BAD_ARGUMENT) with its message
        nchannels = 0
    frames = n // nchannels if nchannels else 0
    if nchannels and n != frames * nchannels:
        raise ValueError(f"deinterleave(): {n} samples are not a whole number of "
                         f"{nchannels}-channel frames")
    px, _, _, kx = _raw(x, f"sk_deinterleave_{sfx}: argument x", dt, ct, False, False)
    if isinstance(out, (list, tuple)):
        cname = f"sk_deinterleave_{sfx}"
        chans = [_raw(o, f"{cname}: argument channels[{i}]", dt, ct, True, False) for i, o in enumerate(out)]
        if len(chans) != nchannels or any(c[2] != frames for c in chans):
            raise ValueError(f"{cname}: out must be {nchannels} arrays of {frames} samples")
        arr = ffi.new(f"{ct} *[]", [c[0] for c in chans] or [ffi.NULL])
        _check(getattr(lib, cname)(px, nchannels, arr, frames), cname)
        return out
    cname = f"sk_deinterleave_block_{sfx}"
    if out is None:
        out = _empty(x, (nchannels if nchannels > 0 else 1, frames), dt)
    py, _, ny, ky = _raw(out, f"{cname}: argument block", dt, ct, True, False)
    if nchannels and ny != n:
        raise ValueError(f"{cname}: out holds {ny} samples, x {n}")
    _check(getattr(lib, cname)(px, nchannels, py, frames), cname)
    return out


def interleave(channels: Any, out: Any = None) -> Any:
    """Channel-major ``(nchannels, frames)`` block (``sk_interleave_block_*``) or a list of 1-D
    channel arrays (``sk_interleave_*``) → interleaved ``(frames, nchannels)``. Returns ``out``."""
    if isinstance(channels, (list, tuple)):
        if not channels:
            raise ValueError("interleave(): at least one channel is needed")
        sfx = _float_suffix(channels[0], "interleave")
        dt, ct = _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx]
        cname = f"sk_interleave_{sfx}"
        chans = [_raw(c, f"{cname}: argument channels[{i}]", dt, ct, False, False) for i, c in enumerate(channels)]
        frames = chans[0][2]
        if any(c[2] != frames for c in chans):
            raise ValueError(f"{cname}: channels differ in length")
        if out is None:
            out = _empty(channels[0], (frames, len(chans)), dt)
        py, _, ny, ky = _raw(out, f"{cname}: argument y", dt, ct, True, False)
        if ny != frames * len(chans):
            raise ValueError(f"{cname}: out holds {ny} samples, need {frames * len(chans)}")
        arr = ffi.new(f"{ct} *[]", [c[0] for c in chans])
        _check(getattr(lib, cname)(arr, len(chans), py, frames), cname)
        return out
    sfx = _float_suffix(channels, "interleave")
    dt, ct = _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx]
    cname = f"sk_interleave_block_{sfx}"
    if len(channels.shape) != 2:
        raise ValueError(f"{cname}: the block must be 2-D (nchannels, frames), got shape "
                         f"{tuple(channels.shape)}")
    nch, frames = channels.shape
    pb, _, _, kb = _raw(channels, f"{cname}: argument block", dt, ct, False, False)
    if out is None:
        out = _empty(channels, (frames, nch), dt)
    py, _, ny, ky = _raw(out, f"{cname}: argument y", dt, ct, True, False)
    if ny != nch * frames:
        raise ValueError(f"{cname}: out holds {ny} samples, need {nch * frames}")
    _check(getattr(lib, cname)(pb, nch, py, frames), cname)
    return out


def _two_float(x: Any, out: Any, fn: str, cname_fmt: str):
    sfx = _float_suffix(x, fn)
    dt, ct = _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx]
    cname = cname_fmt.format(sfx)
    if out is None:
        out = _empty(x, tuple(x.shape), dt)
    return sfx, dt, ct, cname, out


def gain_ramp(x: Any, g0: float, g1: float, offset: int = 0, total: Optional[int] = None,
              out: Any = None) -> Any:
    """``out[i] = x[i] · (g0 + (offset+i)·(g1−g0)/total)`` (``sk_gain_ramp_*``): a ramp over
    ``total`` samples (default: this buffer) of which this call does ``offset …``; chunked
    calls join exactly. ``out=x`` is in place. Returns ``out``."""
    sfx, dt, ct, cname, out = _two_float(x, out, "gain_ramp", "sk_gain_ramp_{}")
    px, _, n, kx = _raw(x, f"{cname}: argument x", dt, ct, False, False)
    py, _, ny, ky = _raw(out, f"{cname}: argument y", dt, ct, True, False)
    if ny != n:
        raise ValueError(f"{cname}: out holds {ny} samples, x {n}")
    total = n + offset if total is None else total
    _check(getattr(lib, cname)(px, float(g0), float(g1), offset, total, py, n), cname)
    return out


def crossfade(a: Any, b: Any, offset: int = 0, total: Optional[int] = None, out: Any = None) -> Any:
    """Equal-power crossfade ``a·cos(πt/2) + b·sin(πt/2)``, ``t = (offset+i)/total``
    (``sk_crossfade_*``). ``out`` may be ``a`` or ``b``. Returns ``out``."""
    sfx, dt, ct, cname, out = _two_float(a, out, "crossfade", "sk_crossfade_{}")
    pa, _, n, ka = _raw(a, f"{cname}: argument a", dt, ct, False, False)
    pb, _, nb, kb = _raw(b, f"{cname}: argument b", dt, ct, False, False)
    py, _, ny, ky = _raw(out, f"{cname}: argument y", dt, ct, True, False)
    if nb != n or ny != n:
        raise ValueError(f"{cname}: a, b, out differ in size ({n}, {nb}, {ny})")
    total = n + offset if total is None else total
    _check(getattr(lib, cname)(pa, pb, offset, total, py, n), cname)
    return out


def _rows_view(x: Any, cname: str, writable: bool):
    """(pointer, ld, rows, cols, keep-alive) of a 2-D array whose rows are contiguous."""
    sfx = _float_suffix(x, cname)
    dt, ct = _ELEM[_SUFFIX[sfx]], _SUFFIX[sfx]
    if len(x.shape) != 2:
        raise ValueError(f"{cname}: x must be 2-D (rows, cols), got shape {tuple(x.shape)}")
    rows, cols = x.shape
    if _is_tensor(x):
        st = tuple(int(s) for s in x.stride())
        ok = cols <= 1 or st[1] == 1
        ld = st[0] if rows > 1 else cols
        addr = x.data_ptr()
        flat = x
    else:
        if x.strides[0] % dt.itemsize or x.strides[1] % dt.itemsize:
            raise ValueError(f"{cname}: strides {x.strides} are not whole elements (unaligned)")
        ok = cols <= 1 or x.strides[1] == dt.itemsize
        ld = x.strides[0] // dt.itemsize if rows > 1 else cols
        addr = x.__array_interface__["data"][0]
        flat = x
    if not ok:
        raise ValueError(f"{cname}: each row of x must be contiguous (strides {x.strides if isinstance(x, np.ndarray) else tuple(x.stride())}); "
                         "pass a copy")
    if isinstance(x, np.ndarray) and writable and not x.flags.writeable:
        raise ValueError(f"{cname}: x is read-only")
    if _is_tensor(x) and writable and x.requires_grad:
        raise ValueError(f"{cname}: x requires grad")
    if rows * cols and addr % dt.itemsize:
        raise ValueError(f"{cname}: x at {addr:#x} is not aligned to {dt.itemsize} bytes")
    ptr = ffi.cast(ct + " *", addr) if rows * cols else ffi.NULL
    return sfx, dt, ct, ptr, ld, rows, cols, flat


def _rows_reduce(op: str, x: Any, out: Any) -> Any:
    sfx = _float_suffix(x, f"rows_{op}")
    cname = f"sk_rows_{op}_{sfx}"
    sfx, dt, ct, px, ld, rows, cols, keep = _rows_view(x, cname, False)
    if out is None:
        out = _empty(x, (rows,), dt)
    po, _, no, ko = _raw(out, f"{cname}: argument out", dt, ct, True, False)
    if no != rows:
        raise ValueError(f"{cname}: out holds {no} values for {rows} rows")
    _check(getattr(lib, cname)(px, ld, po, rows, cols), cname)
    return out


def rows_sum(x: Any, out: Any = None) -> Any:
    """Per-row sums of a 2-D ``(rows, cols)`` array with contiguous rows (``sk_rows_sum_*``)."""
    return _rows_reduce("sum", x, out)


def rows_mean(x: Any, out: Any = None) -> Any:
    """Per-row means (``sk_rows_mean_*``)."""
    return _rows_reduce("mean", x, out)


def rows_peak(x: Any, out: Any = None) -> Any:
    """Per-row peak magnitudes (``sk_rows_peak_*``)."""
    return _rows_reduce("peak", x, out)


def rows_rms(x: Any, out: Any = None) -> Any:
    """Per-row RMS (``sk_rows_rms_*``)."""
    return _rows_reduce("rms", x, out)


def rows_normalize_peak(x: Any) -> Any:
    """Divides every row of ``x`` in place by its peak magnitude (``sk_rows_normalize_peak_*``);
    NaN/inf anywhere raise SigkernError with nothing written. Returns ``x``."""
    sfx = _float_suffix(x, "rows_normalize_peak")
    cname = f"sk_rows_normalize_peak_{sfx}"
    sfx, dt, ct, px, ld, rows, cols, keep = _rows_view(x, cname, True)
    _check(getattr(lib, cname)(px, ld, rows, cols), cname)
    return x


__all__ += [
    "pcm_to_float", "float_to_pcm", "convert", "deinterleave", "interleave", "gain_ramp",
    "crossfade", "rows_sum", "rows_mean", "rows_peak", "rows_rms", "rows_normalize_peak",
]
