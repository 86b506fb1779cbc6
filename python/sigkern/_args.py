"""Argument checks shared by every module: one validator, and one message, per mistake.

Each concept is checked here and nowhere else, so the same mistake gets the same exception and
the same words whichever function it is made with:

- tables: the dtypes (:data:`F32` ...), the C suffix of each float dtype (:data:`SFX`), the CFFI
  array and pointer types of each dtype (:data:`CARRAY`, :data:`CPTR`);
- what an argument is: :func:`describe`, :func:`dtype_of`, :func:`is_tensor`,
  :func:`torch_info`;
- arrays: :func:`as_input` and :func:`float_dtype` (dtype of an array: ``TypeError``),
  :func:`promote` (numpy/scipy's promotion of integer, bool and float16 input to float64),
  :func:`check_out` (shape and dtype of ``out``), :func:`writable_out` (a read-only array or
  a tensor that requires grad: ``ValueError``), :func:`cpu_tensor` (a tensor on another
  device or sparse: ``ValueError``), :func:`not_contiguous`;
- arguments: :func:`index` (an integer), :func:`axis` (normalised; out of range is numpy's
  ``AxisError``, a ``ValueError``), :func:`float_dtype_arg` (a ``dtype=`` argument),
  :func:`rate` (a sample rate);
- layout: :func:`is_contig`, :func:`contig`, :func:`movelast`/:func:`moveback` (views),
  :func:`move_copy` (a contiguous copy), :func:`copy_into`.

The public functions keep their fast path inline (``type(x) is ndarray``, ``x.dtype is
F32``, ``ffi.from_buffer``) and call these only on their checked path. torch is never imported
here: a tensor is recognised only if the caller has imported torch.
"""

from __future__ import annotations

import operator
import sys
from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple, Type

import numpy as np

from ._lib import ffi

if TYPE_CHECKING:
    import torch
    from typing_extensions import TypeGuard

    from ._typing import Array

__all__ = [
    "AxisError",
    "F32",
    "F64",
    "C64",
    "C128",
    "I16",
    "I32",
    "U8",
    "ndarray",
    "SFX",
    "CTYPE",
    "CARRAY",
    "CPTR",
    "COMPLEX_OF",
    "REAL_OF",
    "torch_info",
    "is_tensor",
    "dtype_of",
    "describe",
    "as_input",
    "float_dtype",
    "promote",
    "check_out",
    "writable_out",
    "cpu_tensor",
    "not_contiguous",
    "read_only",
    "index",
    "axis",
    "float_dtype_arg",
    "rate",
    "is_contig",
    "is_strided_1d",
    "contig",
    "strides",
    "movelast",
    "moveback",
    "move_copy",
    "copy_into",
]

AxisError: Type[ValueError]
try:
    AxisError = np.exceptions.AxisError
except AttributeError:  # numpy < 1.25
    AxisError = np.AxisError  # type: ignore[attr-defined,unused-ignore]

# ---------------------------------------------------------------------------------------------
# Tables
# ---------------------------------------------------------------------------------------------

# (typed as any dtype: the tables below map between them)
F32: np.dtype[Any] = np.dtype(np.float32)
F64: np.dtype[Any] = np.dtype(np.float64)
C64: np.dtype[Any] = np.dtype(np.complex64)
C128: np.dtype[Any] = np.dtype(np.complex128)
I16: np.dtype[Any] = np.dtype(np.int16)
I32: np.dtype[Any] = np.dtype(np.int32)
U8: np.dtype[Any] = np.dtype(np.uint8)
ndarray = np.ndarray

#: float dtype → suffix of its C functions (``sk_scale_f32``)
SFX: Dict[np.dtype[Any], str] = {F32: "f32", F64: "f64"}
#: numpy dtype → C element type of its pointer (complex data is passed as interleaved re/im)
CTYPE: Dict[np.dtype[Any], str] = {F32: "float", F64: "double", C64: "float", C128: "double", I16: "int16_t",
         I32: "int32_t", U8: "uint8_t"}
#: numpy dtype → CFFI array type for ``ffi.from_buffer`` (a type object: a string would be
#: parsed on every call)
CARRAY: Dict[np.dtype[Any], Any] = {dt: ffi.typeof(c + "[]") for dt, c in CTYPE.items()}
#: numpy dtype → CFFI pointer type for ``ffi.cast`` (tensors' ``data_ptr()``)
CPTR: Dict[np.dtype[Any], Any] = {dt: ffi.typeof(c + " *") for dt, c in CTYPE.items()}
#: real ↔ complex dtype of the same precision
COMPLEX_OF: Dict[np.dtype[Any], np.dtype[Any]] = {F32: C64, F64: C128}
REAL_OF: Dict[np.dtype[Any], np.dtype[Any]] = {C64: F32, C128: F64}

# ---------------------------------------------------------------------------------------------
# What an argument is
# ---------------------------------------------------------------------------------------------


def _torch() -> Any:
    return sys.modules.get("torch")


#: (torch.Tensor, torch.float32, torch.float64, torch.strided) once torch has been imported
TORCH: Optional[Tuple[Any, ...]] = None


def torch_info() -> Optional[Tuple[Any, ...]]:
    """:data:`TORCH`, filled on the first call after the caller imported torch (else None)."""
    global TORCH
    if TORCH is None:
        t = sys.modules.get("torch")
        if t is None:
            return None
        TORCH = (t.Tensor, t.float32, t.float64, t.strided)
    return TORCH


def is_tensor(x: object) -> TypeGuard[torch.Tensor]:
    """Whether ``x`` is a torch tensor (without importing torch)."""
    t = _torch()
    return t is not None and isinstance(x, t.Tensor)


def np_dtype_of_tensor(x: Any) -> Optional[np.dtype[Any]]:
    t = _torch()
    return {
        t.float32: F32,
        t.float64: F64,
        t.complex64: C64,
        t.complex128: C128,
        t.int16: I16,
        t.int32: I32,
        t.uint8: U8,
    }.get(x.dtype)


def torch_dtype(dt: np.dtype[Any]) -> Any:
    t = _torch()
    return {F32: t.float32, F64: t.float64, C64: t.complex64, C128: t.complex128,
            I16: t.int16, I32: t.int32, U8: t.uint8}[dt]


def describe(x: Any) -> str:
    """A short description of ``x`` for error messages."""
    if isinstance(x, np.ndarray):
        return f"a numpy array of dtype {x.dtype} and shape {x.shape}"
    if is_tensor(x):
        return f"a torch tensor of dtype {x.dtype} and shape {tuple(x.shape)} on {x.device}"
    return f"a {type(x).__name__}"


def dtype_of(x: Any) -> Any:
    """numpy dtype of an array or tensor (None for other objects)."""
    if isinstance(x, np.ndarray):
        return x.dtype
    if is_tensor(x):
        return np_dtype_of_tensor(x)
    return None


# ---------------------------------------------------------------------------------------------
# Arrays: dtype, out, device, writability, contiguity
# ---------------------------------------------------------------------------------------------


def as_input(x: Any, func: str, name: str, kinds: Tuple[np.dtype[Any], ...] = (F32, F64)) -> Array:
    """``x`` as an array or tensor whose dtype is one of ``kinds``.

    numpy arrays and tensors are returned as they are, after a dtype check (a wrong dtype is a
    ``TypeError`` that says how to convert: sigkern never converts an array silently). Other
    objects (lists, tuples, Python scalars) are converted with ``np.asarray``; integers and
    Python floats become the last of ``kinds`` (float64 for the float kernels)."""
    if isinstance(x, np.ndarray) or is_tensor(x):
        if dtype_of(x) not in kinds:
            want = " or ".join(str(k) for k in kinds)
            conv = (
                f"{name}.astype(np.{kinds[0]})"
                if isinstance(x, np.ndarray)
                else f"{name}.to(torch.{kinds[0]})"
            )
            raise TypeError(f"{func}: {name} must be {want}, got {describe(x)}; convert with {conv}")
        return x
    a = np.asarray(x)
    if a.dtype in kinds:
        return a
    if a.dtype.kind in "biuf" and all(k.kind in "fc" for k in kinds):
        return a.astype(kinds[-1])
    raise TypeError(
        f"{func}: {name} must be a numpy array or a torch tensor of "
        f"{' or '.join(map(str, kinds))}, got {describe(x)}"
    )


def float_dtype(x: Any, func: str, name: str) -> np.dtype[Any]:
    """F32 or F64 for a float32/float64 array or tensor, else ``TypeError``."""
    dt = dtype_of(x)
    if dt is F32 or dt == F32:
        return F32
    if dt is F64 or dt == F64:
        return F64
    raise TypeError(
        f"{func}: {name} must be float32 or float64, got {describe(x)}; convert with "
        f"{name}.astype(np.float32) (or .to(torch.float32) for a tensor)"
    )


def promote(x: Any, func: str, name: str, complex_ok: bool = True) -> Any:
    """``x`` for a function named after numpy/scipy, with their dtype rules: float32/float64
    (and complex64/complex128 when ``complex_ok``) arrays and tensors as they are; integer,
    bool and float16 arrays (and lists of them) as float64 and extended precision as
    float64/complex128, as scipy promotes them; anything else (object arrays of non-numbers,
    strings) a ``TypeError``. The caller decides what a complex array means."""
    if is_tensor(x):
        dt = np_dtype_of_tensor(x)
        if dt in (F32, F64) or (complex_ok and dt in (C64, C128)):
            return x
        if x.is_floating_point() or x.dtype in (_torch().bool, _torch().uint8, _torch().int8,
                                                _torch().int16, _torch().int32, _torch().int64):
            return x.to(_torch().float64)
        raise TypeError(f"{func}: {name} must be a real{' or complex' if complex_ok else ''} "
                        f"tensor, got {describe(x)}")
    a = x if isinstance(x, np.ndarray) else np.asarray(x)
    k = a.dtype.kind
    if k == "f":
        return a if a.dtype in (F32, F64) else a.astype(F64)
    if k == "c" and complex_ok:
        return a if a.dtype in (C64, C128) else a.astype(C128)
    if k in "biu":
        return a.astype(F64)
    if k == "O" and all(isinstance(v, (int, float, complex, np.number)) and not isinstance(v, bool)
                        or isinstance(v, (bool, np.bool_)) for v in a.flat):
        return a.astype(C128 if complex_ok and any(isinstance(v, (complex, np.complexfloating))
                                                   for v in a.flat) else F64)
    raise TypeError(f"{func}: {name} must be an array of real{' or complex' if complex_ok else ''} "
                    f"numbers, got {describe(x)}")


def check_out(out: Any, shape: Tuple[int, ...], dtype: np.dtype[Any], func: str, name: str = "out") -> None:
    """``out`` must be an array or tensor of ``shape`` and ``dtype`` (``ValueError``/``TypeError``)."""
    dt = dtype_of(out)
    if dt is None:
        raise TypeError(f"{func}: {name} must be a numpy array or a torch tensor, got {describe(out)}")
    if dt != dtype:
        raise TypeError(f"{func}: {name} must have dtype {dtype}, got {describe(out)}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{func}: {name} must have shape {tuple(shape)}, got {tuple(out.shape)}")


def read_only(func: str, name: str) -> ValueError:
    """The error for a read-only numpy array passed as an output."""
    return ValueError(f"{func}: {name} is an output but the array is read-only (not writeable)")


def cpu_tensor(x: Any, func: str, name: str) -> None:
    """A tensor must be on the CPU and dense (``ValueError`` before anything reads or copies
    it); anything else passes."""
    if is_tensor(x):
        if x.device.type != "cpu":
            raise ValueError(
                f"{func}: {name} is a tensor on '{x.device}': sigkern works on CPU memory only; "
                f"move it with {name}.cpu()"
            )
        if x.layout != _torch().strided:
            raise ValueError(f"{func}: {name} is a {x.layout} tensor; pass a dense one ({name}.to_dense())")


def writable_out(out: Any, func: str, name: str = "out") -> None:
    """An output must be writeable (numpy) / CPU, dense and not requiring grad (torch)."""
    if isinstance(out, np.ndarray):
        if not out.flags.writeable:
            raise read_only(func, name)
    elif is_tensor(out):
        cpu_tensor(out, func, name)
        if out.requires_grad:
            raise ValueError(
                f"{func}: {name} is an output but requires grad: sigkern's C code is invisible to "
                f"autograd; pass a tensor made under torch.no_grad() or {name}.detach()"
            )


def not_contiguous(x: Any, func: str, name: str) -> ValueError:
    """The error for data that must be C-contiguous and is not, saying how to copy it."""
    if isinstance(x, np.ndarray):
        return ValueError(
            f"{func}: {name} is not C-contiguous (strides {x.strides}); pass "
            f"np.ascontiguousarray({name}) (a copy)"
        )
    return ValueError(
        f"{func}: {name} is not contiguous (strides {tuple(x.stride())}); pass {name}.contiguous() (a copy)"
    )


# ---------------------------------------------------------------------------------------------
# Arguments: integers, axes, dtypes, rates
# ---------------------------------------------------------------------------------------------


def index(v: Any, func: str, name: str) -> int:
    """An integer argument (anything ``operator.index`` takes), else ``TypeError``."""
    try:
        return operator.index(v)
    except TypeError:
        raise TypeError(f"{func}: {name} must be an integer, got {v!r}") from None


def axis(ax: Any, nd: int, func: str, name: str = "x") -> int:
    """``ax`` normalised to ``0 .. nd-1`` for an array ``name`` of ``nd`` dimensions.

    A zero-dimensional array is a ``ValueError``, a non-integer axis a ``TypeError``, an axis
    out of range numpy's ``AxisError`` (a ``ValueError`` and ``IndexError``) with numpy's
    words."""
    if nd == 0:
        raise ValueError(f"{func}: {name} is zero-dimensional; pass an array with at least one axis")
    a = index(ax, func, "axis")
    if not -nd <= a < nd:
        raise AxisError(a, nd, func)
    return a % nd


def float_dtype_arg(dtype: Any, func: str, complex_ok: bool = False) -> np.dtype[Any]:
    """A ``dtype=`` argument: np.float32/np.float64 (or ``"float32"``, ``torch.float32``, ...)
    → F32/F64, else ``TypeError``. ``complex_ok``: complex64/complex128 name their precision."""
    ti = torch_info()
    if ti is not None and (dtype is ti[1] or dtype is ti[2]):
        return F32 if dtype is ti[1] else F64
    try:
        dt = np.dtype(dtype)
    except TypeError:  # (None must not reach ``dt == F64``: numpy reads None as float64)
        raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}") from None
    if complex_ok and dt in REAL_OF:
        dt = REAL_OF[dt]
    if dt == F32:
        return F32
    if dt == F64:
        return F64
    raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}")


def rate(r: Any, func: str, name: str = "rate") -> float:
    """A sample rate as a float (its range is the C function's to check), else ``TypeError``."""
    if not isinstance(r, (str, bytes)):
        try:
            return float(r)
        except (TypeError, ValueError):
            pass
    raise TypeError(f"{func}: {name} must be a number (Hz), got {r!r}")


# ---------------------------------------------------------------------------------------------
# Layout: contiguity and the time axis moved last and back
# ---------------------------------------------------------------------------------------------


def is_contig(a: Any) -> bool:
    """Whether an array or tensor is C-contiguous."""
    return a.flags.c_contiguous if isinstance(a, np.ndarray) else a.is_contiguous()


def is_strided_1d(a: Any) -> bool:
    """Whether ``a`` is a one-dimensional view that is not contiguous (``x[::2]``, a column
    ``m[:, j]``): the strided kernels take it zero-copy."""
    if isinstance(a, np.ndarray):
        return a.ndim == 1 and not a.flags.c_contiguous
    if is_tensor(a):
        return a.dim() == 1 and not a.is_contiguous()
    return False


def contig(a: Any) -> Any:
    """``a`` if C-contiguous, else a C-contiguous copy (numpy or tensor)."""
    return np.ascontiguousarray(a) if isinstance(a, np.ndarray) else a.contiguous()


def strides(a: Any) -> Tuple[Any, ...]:
    """Strides of an array (bytes) or tensor (elements), for messages."""
    return tuple(a.strides) if isinstance(a, np.ndarray) else tuple(a.stride())


def movelast(a: Any, ax: int) -> Any:
    """A view with axis ``ax`` (normalised) moved last."""
    if ax == a.ndim - 1:
        return a
    return np.moveaxis(a, ax, -1) if isinstance(a, np.ndarray) else a.movedim(ax, -1)


def moveback(a: Any, ax: int) -> Any:
    """The inverse of :func:`movelast`: a view with the last axis moved to ``ax``."""
    if ax == a.ndim - 1:
        return a
    return np.moveaxis(a, -1, ax) if isinstance(a, np.ndarray) else a.movedim(-1, ax)


def move_copy(a: Any, src: int, dst: int) -> Any:
    """A C-contiguous copy of ``a`` with axis ``src`` moved to ``dst`` (numpy or tensor)."""
    if isinstance(a, np.ndarray):
        return np.ascontiguousarray(np.moveaxis(a, src, dst))
    return a.movedim(src, dst).contiguous()


def copy_into(dst: Any, src: Any) -> Any:
    """Copies ``src`` into the caller's ``dst`` (numpy or tensor, either way round) and
    returns ``dst``."""
    if isinstance(dst, np.ndarray):
        np.copyto(dst, src.numpy() if is_tensor(src) else src)
    else:
        dst.copy_(src if is_tensor(src) else _torch().from_numpy(np.ascontiguousarray(src)))
    return dst
