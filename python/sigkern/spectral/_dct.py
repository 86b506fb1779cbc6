"""Discrete cosine transforms (C: ``sk_dct_*``, ``sk_idct_*``; Rust:
``src/kernels/spectral/dct.rs``): :func:`dct` and :func:`idct` with ``scipy.fft.dct`` /
``scipy.fft.idct``'s signatures, types I–IV on the library's FFT, any length."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import C64, C128, CARRAY, F32, F64, ndarray, SFX
from .._lib import cfunc
from ._common import _fb, _raise, _zeros

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, Norm

__all__ = ["dct", "idct"]

_C = {
    (False, F32): cfunc("sk_dct_f32"),
    (False, F64): cfunc("sk_dct_f64"),
    (True, F32): cfunc("sk_idct_f32"),
    (True, F64): cfunc("sk_idct_f64"),
}
_NORM = {None: 0, "backward": 0, "ortho": 1, "forward": 2}


def _codes(func: str, type: Any, norm: Any, orthogonalize: Any) -> tuple[int, int, int]:
    if type not in (1, 2, 3, 4) or isinstance(type, bool):
        raise ValueError(f"{func}: type must be 1, 2, 3 or 4, got {type!r}")
    try:
        nc = _NORM.get(norm)
    except TypeError:
        nc = None
    if nc is None:
        raise ValueError(f'{func}: norm must be None, "backward", "ortho" or "forward", got {norm!r}')
    if orthogonalize is None:
        orthogonalize = norm == "ortho"
    return int(type), nc, 1 if orthogonalize else 0


def _transform(inverse: bool, x: Any, type: Any, n: Any, axis: Any, norm: Any,
               orthogonalize: Any) -> Any:
    func = "idct" if inverse else "dct"
    ty, nc, orth = _codes(func, type, norm, orthogonalize)
    # the fast path: the last axis of a contiguous float numpy array, no padding
    # (``type`` is scipy's argument name, so the class check reads ``__class__``)
    if (x.__class__ is ndarray and axis == -1 and x.ndim and (n is None or n == x.shape[-1])
            and x.dtype in (F32, F64) and x.flags.c_contiguous):
        dt = F64 if x.dtype == F64 else F32
        m = x.shape[-1]
        y = np.empty(x.shape, dt)
        rows = x.size // m if m else 0
        if m and rows:
            st = _C[inverse, dt](ty, nc, orth, _fb(CARRAY[dt], x), m, rows,
                                 _fb(CARRAY[dt], y, True), y.size, m)
            if st:
                _raise(st, f"sk_{func}_{SFX[dt]}")
            return y
    x = A.promote(x, func, "x")
    A.cpu_tensor(x, func, "x")
    xdt = A.dtype_of(x)
    if xdt in (C64, C128):  # scipy: the real and imaginary parts transformed alike
        re = _transform(inverse, x.real, ty, n, axis, norm, orthogonalize)
        im = _transform(inverse, x.imag, ty, n, axis, norm, orthogonalize)
        return re + 1j * im
    dt = A.float_dtype(x, func, "x")
    if x.ndim == 0:
        raise ValueError(f"{func}: x must have at least one dimension, got a scalar")
    ax = A.axis(axis, x.ndim, func)
    xm = A.movelast(x, ax)
    m = int(xm.shape[-1])
    nn = m if n is None else A.index(n, func, "n")
    if nn < 1 or (ty == 1 and nn < 2):
        raise ValueError(f"{func}: invalid number of data points ({nn}) specified; a DCT of type "
                         f"{ty} needs at least {2 if ty == 1 else 1}")
    if m > nn:
        xm = xm[..., :nn]
    elif m < nn:
        z = _zeros(xm, tuple(xm.shape[:-1]) + (nn,), dt)
        z[..., :m] = xm
        xm = z
    xm = A.contig(xm)
    lead = tuple(xm.shape[:-1])
    rows = math.prod(lead)
    y = B.new_like(x, lead + (nn,), dt)
    if rows:
        px, _ = B.pointer(xm, dt, func, "x")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _C[inverse, dt](ty, nc, orth, px, nn, rows, py, rows * nn, nn)
        if st:
            _raise(st, f"sk_{func}_{SFX[dt]}")
    return A.moveback(y, ax)


def dct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1, norm: Norm = None,
        overwrite_x: bool = False, workers: Optional[int] = None, *,
        orthogonalize: Optional[bool] = None) -> FloatArray:
    """``scipy.fft.dct``: the discrete cosine transform of type I, II, III or IV along ``axis``
    (``sk_dct_*``), each row on one FFT of the library, any length.

    Parameters
    ----------
    x : ndarray or Tensor
        The input; float32 stays float32, integers become float64; complex input has its real
        and imaginary parts transformed alike (as scipy).
    type : {1, 2, 3, 4}, default 2
        The DCT type (type 1 needs at least 2 points).
    n : int, optional
        Length of the transform: the input is truncated or zero-padded along ``axis``.
    axis : int, default -1
        The axis to transform.
    norm : {None, "backward", "ortho", "forward"}
        scipy's normalisation (None = "backward": the unnormalised sums).
    overwrite_x : bool, default False
        Accepted for scipy's signature; ``x`` is never modified.
    workers : int, optional
        Accepted for scipy's signature; rows are split over the library's threads
        (``SIGKERN_THREADS``) instead.
    orthogonalize : bool, optional
        Make the ortho-scaled matrix orthogonal (types I–III; default: ``norm == "ortho"``).

    Returns
    -------
    ndarray or Tensor (x's kind), float32/float64, ``x``'s shape with ``n`` along ``axis``

    Raises
    ------
    ValueError
        A bad ``type``, ``norm``, ``axis`` or ``n`` (``n < 1``; ``n < 2`` for type 1).

    Examples
    --------
    >>> y = sigkern.dct(np.arange(4.0))
    >>> np.round(y, 6)
    array([12.      , -6.308644,  0.      , -0.448342])
    """
    return _transform(False, x, type, n, axis, norm, orthogonalize)  # type: ignore[no-any-return]


def idct(x: ArrayLike, type: int = 2, n: Optional[int] = None, axis: int = -1, norm: Norm = None,
         overwrite_x: bool = False, workers: Optional[int] = None, *,
         orthogonalize: Optional[bool] = None) -> FloatArray:
    """``scipy.fft.idct``: the inverse DCT of type I, II, III or IV along ``axis``
    (``sk_idct_*``): ``idct(dct(x, t, norm=m), t, norm=m) == x`` for every type and norm.

    Parameters
    ----------
    x : ndarray or Tensor
        The input, as :func:`dct`.
    type : {1, 2, 3, 4}, default 2
        The type of the DCT this inverts (the inverse of type 2 is a DCT-III and vice versa).
    n, axis, norm, overwrite_x, workers, orthogonalize
        As :func:`dct` (``norm="backward"`` scales the inverse by ``1/M``, ``M = 2(n−1)`` for
        type 1 and ``2n`` otherwise).

    Returns
    -------
    ndarray or Tensor (x's kind), float32/float64, ``x``'s shape with ``n`` along ``axis``

    Raises
    ------
    ValueError
        As :func:`dct`.

    Examples
    --------
    >>> x = np.arange(5.0)
    >>> np.allclose(sigkern.idct(sigkern.dct(x, type=3), type=3), x)
    True
    """
    return _transform(True, x, type, n, axis, norm, orthogonalize)  # type: ignore[no-any-return]
