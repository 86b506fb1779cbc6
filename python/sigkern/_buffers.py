"""numpy arrays and torch tensors → C pointers, with the checks done before any C call.

The public functions keep their fast path inline (``type(x) is ndarray``, ``x.dtype is F32``,
``ffi.from_buffer``, which itself refuses non-contiguous and, for outputs, read-only arrays);
everything else comes here: torch tensors, strided views, conversions and the error messages.
torch is never imported by sigkern: a tensor is recognised only if the caller has imported torch.
"""

from __future__ import annotations

import sys
from typing import Any, Optional, Tuple

import numpy as np

from ._lib import ffi

__all__ = [
    "F32",
    "F64",
    "C64",
    "C128",
    "ndarray",
    "is_tensor",
    "float_dtype",
    "as_input",
    "pointer",
    "new_like",
    "check_out",
    "describe",
]

F32 = np.dtype(np.float32)
F64 = np.dtype(np.float64)
C64 = np.dtype(np.complex64)
C128 = np.dtype(np.complex128)
ndarray = np.ndarray

#: numpy dtype → C element type of its pointer (complex data is passed as interleaved re/im).
CTYPE = {
    F32: "float",
    F64: "double",
    C64: "float",
    C128: "double",
    np.dtype(np.int16): "int16_t",
    np.dtype(np.int32): "int32_t",
    np.dtype(np.uint8): "uint8_t",
}
#: the CFFI array type of each dtype's elements (``pointer``'s fast path)
_CARRAY = {dt: c + "[]" for dt, c in CTYPE.items()}
#: real ↔ complex dtype of the same precision
COMPLEX_OF = {F32: C64, F64: C128}
REAL_OF = {C64: F32, C128: F64}


def _torch():
    return sys.modules.get("torch")


#: (torch.Tensor, torch.float32, torch.float64, torch.strided) once torch has been imported
TORCH: Optional[tuple] = None


def torch_info() -> Optional[tuple]:
    """:data:`TORCH`, filled on the first call after the caller imported torch (else None)."""
    global TORCH
    if TORCH is None:
        t = sys.modules.get("torch")
        if t is None:
            return None
        TORCH = (t.Tensor, t.float32, t.float64, t.strided)
    return TORCH


def tensor_ptr(t: Any, ti: tuple, ctype: Any, writable: bool = False):
    """Fast path: the data pointer of a dense, contiguous CPU tensor (``ctype`` is a pointer
    type, ``"float *"`` or ``"double *"`` or the same as ``ffi.typeof`` object, which casts
    faster; the caller has matched the dtype), or None when any check fails (the checked path
    then says why)."""
    if (
        t.is_cpu
        and t.layout is ti[3]
        and t.is_contiguous()
        and not t.is_neg()  # e.g. the .imag of a conjugated complex tensor: a lazy negation
        and not (writable and t.requires_grad)
    ):
        return ffi.cast(ctype, t.data_ptr())
    return None


def is_tensor(x: Any) -> bool:
    """Whether ``x`` is a torch tensor (without importing torch)."""
    t = _torch()
    return t is not None and isinstance(x, t.Tensor)


def _np_dtype_of_tensor(x: Any) -> Optional[np.dtype]:
    t = _torch()
    return {
        t.float32: F32,
        t.float64: F64,
        t.complex64: C64,
        t.complex128: C128,
        t.int16: np.dtype(np.int16),
        t.int32: np.dtype(np.int32),
        t.uint8: np.dtype(np.uint8),
    }.get(x.dtype)


def _torch_dtype(dt: np.dtype):
    t = _torch()
    return {
        F32: t.float32,
        F64: t.float64,
        C64: t.complex64,
        C128: t.complex128,
        np.dtype(np.int16): t.int16,
        np.dtype(np.int32): t.int32,
        np.dtype(np.uint8): t.uint8,
    }[dt]


def describe(x: Any) -> str:
    """A short description of ``x`` for error messages."""
    if isinstance(x, np.ndarray):
        return f"a numpy array of dtype {x.dtype} and shape {x.shape}"
    if is_tensor(x):
        return f"a torch tensor of dtype {x.dtype} and shape {tuple(x.shape)} on {x.device}"
    return f"a {type(x).__name__}"


def dtype_of(x: Any) -> Optional[np.dtype]:
    """numpy dtype of an array or tensor (None for other objects)."""
    if isinstance(x, np.ndarray):
        return x.dtype
    if is_tensor(x):
        return _np_dtype_of_tensor(x)
    return None


def as_input(x: Any, func: str, name: str, kinds: Tuple[np.dtype, ...] = (F32, F64)) -> Any:
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


def float_dtype(x: Any, func: str, name: str) -> np.dtype:
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


def pointer(
    x: Any,
    dtype: np.dtype,
    func: str,
    name: str,
    writable: bool = False,
    strided: bool = False,
):
    """A checked zero-copy pointer to the data of ``x``, and its element stride.

    ``x`` must be a numpy array or CPU torch tensor of exactly ``dtype``; it must be C-contiguous
    unless ``strided`` (then a one-dimensional view of any element stride is accepted). Outputs
    (``writable``) must be writeable and, for tensors, must not require grad. Returns
    ``(ptr, stride)``; raises ``TypeError``/``ValueError`` without calling C."""
    # the common case first, checked in the fewest steps: a C-contiguous numpy array of the
    # dtype (writeable for an output); everything else takes the full checks below
    if type(x) is np.ndarray and x.dtype == dtype:
        flags = x.flags
        if flags.c_contiguous and (flags.writeable or not writable):
            return ffi.from_buffer(_CARRAY[dtype], x), 1
    ctype = CTYPE[dtype]
    where = f"{func}: {name}"
    if isinstance(x, np.ndarray):
        if x.dtype != dtype:
            raise TypeError(
                f"{where} must be {dtype}, got {describe(x)}; convert with "
                f"{name}.astype(np.{dtype})"
            )
        if writable and not x.flags.writeable:
            raise ValueError(f"{where} is an output but the array is read-only (not writeable)")
        if x.flags.c_contiguous:
            return ffi.from_buffer(ctype + "[]", x, require_writable=writable), 1
        if strided and x.ndim == 1:
            step = x.strides[0]
            if step % dtype.itemsize:
                raise ValueError(
                    f"{where} has a stride of {step} bytes, not a whole number of "
                    f"{dtype.itemsize}-byte elements; pass np.ascontiguousarray({name})"
                )
            addr = x.__array_interface__["data"][0]
            return (ffi.cast(ctype + " *", addr) if x.size else ffi.NULL), step // dtype.itemsize
        raise ValueError(
            f"{where} is not C-contiguous (strides {x.strides}); pass "
            f"np.ascontiguousarray({name}) (a copy)"
        )
    if is_tensor(x):
        torch = _torch()
        if x.device.type != "cpu":
            raise ValueError(
                f"{where} is a tensor on '{x.device}': sigkern works on CPU memory only; "
                f"move it with {name}.cpu()"
            )
        if x.layout != torch.strided:
            raise ValueError(f"{where} is a {x.layout} tensor; pass a dense one ({name}.to_dense())")
        tdt = _np_dtype_of_tensor(x)
        if tdt != dtype:
            raise TypeError(
                f"{where} must be {_torch_dtype(dtype)}, got {describe(x)}; convert with "
                f"{name}.to({_torch_dtype(dtype)})"
            )
        if x.is_conj() or x.is_neg():
            raise ValueError(
                f"{where} has a lazy conjugate/negative bit; pass {name}.resolve_conj().resolve_neg()"
            )
        if writable and x.requires_grad:
            raise ValueError(
                f"{where} is an output but requires grad: sigkern's C code is invisible to "
                f"autograd; pass a tensor made under torch.no_grad() or {name}.detach()"
            )
        if x.is_contiguous():
            return (ffi.cast(ctype + " *", x.data_ptr()) if x.numel() else ffi.NULL), 1
        if strided and x.dim() == 1:
            return (ffi.cast(ctype + " *", x.data_ptr()) if x.numel() else ffi.NULL), int(x.stride(0))
        raise ValueError(
            f"{where} is not contiguous (strides {tuple(x.stride())}); pass {name}.contiguous() (a copy)"
        )
    raise TypeError(f"{where} must be a numpy array or a torch tensor, got {describe(x)}")


def new_like(like: Any, shape: Tuple[int, ...], dtype: np.dtype) -> Any:
    """A new uninitialised C-contiguous output of the same kind as ``like`` (numpy or torch)."""
    if is_tensor(like):
        return _torch().empty(shape, dtype=_torch_dtype(dtype))
    return np.empty(shape, dtype)


def shape_of(x: Any) -> Tuple[int, ...]:
    return tuple(x.shape)


def check_out(out: Any, shape: Tuple[int, ...], dtype: np.dtype, func: str, name: str = "out") -> None:
    """``out`` must be an array or tensor of ``shape`` and ``dtype`` (``ValueError``/``TypeError``)."""
    dt = dtype_of(out)
    if dt is None:
        raise TypeError(f"{func}: {name} must be a numpy array or a torch tensor, got {describe(out)}")
    if dt != dtype:
        raise TypeError(f"{func}: {name} must have dtype {dtype}, got {describe(out)}")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"{func}: {name} must have shape {tuple(shape)}, got {tuple(out.shape)}")
