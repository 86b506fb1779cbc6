"""numpy arrays and torch tensors → C pointers, with the checks done before any C call.

The public functions keep their fast path inline (``type(x) is ndarray``, ``x.dtype is F32``,
``ffi.from_buffer``, which itself refuses non-contiguous and, for outputs, read-only arrays);
everything else comes here: torch tensors, strided views, conversions and the error messages.
torch is never imported by sigkern: a tensor is recognised only if the caller has imported torch.
"""

from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from ._args import (
    CARRAY,
    CPTR,
    cpu_tensor,
    describe,
    dtype_of,
    is_tensor,
    not_contiguous,
    np_dtype_of_tensor,
    read_only,
    torch_dtype,
    torch_info,
    _torch,
)
from ._lib import ffi

_fb = ffi.from_buffer

__all__ = [
    "pointer",
    "tensor_ptr",
    "new_like",
    "planar",
    "row_ptr",
    "is_block",
    "block_ptr",
    "block_io",
]


def tensor_ptr(t: Any, ti: Tuple[Any, ...], ctype: Any, writable: bool = False) -> Any:
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


def pointer(
    x: Any,
    dtype: np.dtype[Any],
    func: str,
    name: str,
    writable: bool = False,
    strided: bool = False,
) -> Any:
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
            return ffi.from_buffer(CARRAY[dtype], x), 1
    cptr = CPTR[dtype]
    where = f"{func}: {name}"
    if isinstance(x, np.ndarray):
        if x.dtype != dtype:
            raise TypeError(
                f"{where} must be {dtype}, got {describe(x)}; convert with "
                f"{name}.astype(np.{dtype})"
            )
        if writable and not x.flags.writeable:
            raise read_only(func, name)
        if x.flags.c_contiguous:
            return ffi.from_buffer(CARRAY[dtype], x, require_writable=writable), 1
        if strided and x.ndim == 1:
            step = x.strides[0]
            if step % dtype.itemsize:
                raise ValueError(
                    f"{where} has a stride of {step} bytes, not a whole number of "
                    f"{dtype.itemsize}-byte elements; pass np.ascontiguousarray({name})"
                )
            addr = x.__array_interface__["data"][0]
            return (ffi.cast(cptr, addr) if x.size else ffi.NULL), step // dtype.itemsize
        raise not_contiguous(x, func, name)
    if is_tensor(x):
        cpu_tensor(x, func, name)
        tdt = np_dtype_of_tensor(x)
        if tdt != dtype:
            raise TypeError(
                f"{where} must be {torch_dtype(dtype)}, got {describe(x)}; convert with "
                f"{name}.to({torch_dtype(dtype)})"
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
            return (ffi.cast(cptr, x.data_ptr()) if x.numel() else ffi.NULL), 1
        if strided and x.dim() == 1:
            return (ffi.cast(cptr, x.data_ptr()) if x.numel() else ffi.NULL), int(x.stride(0))
        raise not_contiguous(x, func, name)
    raise TypeError(f"{where} must be a numpy array or a torch tensor, got {describe(x)}")


def new_like(like: Any, shape: Tuple[int, ...], dtype: np.dtype[Any]) -> Any:
    """A new uninitialised C-contiguous output of the same kind as ``like`` (numpy or torch)."""
    if is_tensor(like):
        return _torch().empty(shape, dtype=torch_dtype(dtype))
    return np.empty(shape, dtype)


# ---------------------------------------------------------------------------------------------
# Planar blocks: (channels, n) data whose rows are contiguous
# ---------------------------------------------------------------------------------------------


def _estrides(x: Any) -> Tuple[int, ...]:
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize if s % x.itemsize == 0 else -(1 << 62) for s in x.strides)
    return tuple(int(s) for s in x.stride())


def planar(x: Any, dt: np.dtype[Any], func: str, name: str, writable: bool = False) -> Any:
    """(pointer, channel stride in elements) of planar data: a C-contiguous array of any ndim
    (channels = leading axes, stride = last dimension), or a 2-D (channels, n) view whose rows
    are contiguous at a positive row stride (a time slice ``x[:, t0:t1]`` of a bigger block)."""
    shape = tuple(x.shape)
    n = shape[-1] if shape else 1
    ti = torch_info()
    dense = isinstance(x, np.ndarray) or (ti is not None and x.layout is ti[3] and x.device.type == "cpu")
    if len(shape) == 2 and shape[0] > 1 and shape[1] > 0 and dense and dtype_of(x) == dt:
        s0, s1 = _estrides(x)
        if s1 == 1 and s0 > shape[1]:
            p, _ = pointer(x[0], dt, func, name, writable=writable)
            return p, s0
    p, _ = pointer(x, dt, func, name, writable=writable)
    return p, n


def row_ptr(a: np.ndarray, ct: Any, writable: bool) -> Tuple[Any, ...]:
    """Fast path of :func:`planar` for a 2-D numpy view with contiguous rows at a positive
    row stride (ValueError otherwise: the checked path then says what is wrong)."""
    s0, s1 = a.strides
    isz = a.itemsize
    if a.ndim != 2 or s1 != isz or s0 <= 0 or s0 % isz or not a.shape[1]:
        raise ValueError
    return _fb(ct, a[0], writable), s0 // isz


def is_block(shape: Tuple[Any, ...], channels: int) -> bool:
    """Whether ``shape`` is a planar block of ``channels`` rows: ``(channels, n)``, or ``(n,)``
    for one channel."""
    return (len(shape) == 2 and shape[0] == channels) or (len(shape) == 1 and channels == 1)


def block_ptr(a: np.ndarray, ct: Any, writable: bool = False) -> Tuple[Any, ...]:
    """(pointer, row stride in elements) of a numpy block that is C-contiguous or a time slice
    ``a[:, t0:t1]`` of a bigger block; ValueError otherwise (another layout, or read-only when
    ``writable``): the checked path then says what is wrong."""
    if a.flags.c_contiguous:
        return _fb(ct, a, writable), a.shape[-1]
    return row_ptr(a, ct, writable)


def block_io(x: np.ndarray, out: Any, dt: np.dtype[Any], ct: Any) -> Optional[Tuple[Any, ...]]:
    """The fast path's pointers of a planar numpy block ``x`` and of its output (``out`` of
    ``x``'s shape and dtype ``dt``, or a new array): ``(px, x_stride, y, py, y_stride)``; None
    where the checked path must decide (another layout, a read-only or mismatched ``out``)."""
    # (block_ptr written out: this runs on every block, and each call level costs)
    try:
        if x.flags.c_contiguous:
            px, sx = _fb(ct, x), x.shape[-1]
        else:
            px, sx = row_ptr(x, ct, False)
        if out is None:
            y = np.empty(x.shape, dt)
            return px, sx, y, _fb(ct, y), x.shape[-1]
        if type(out) is np.ndarray and out.dtype is dt and out.shape == x.shape:
            if out.flags.c_contiguous:
                return px, sx, out, _fb(ct, out, True), x.shape[-1]
            return (px, sx, out) + row_ptr(out, ct, True)
    except ValueError:
        pass
    return None
