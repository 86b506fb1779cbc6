"""The analytic signal (C: ``sk_hilbert_*``; Rust: ``src/kernels/analysis/hilbert.rs``):
``scipy.signal``'s :func:`hilbert`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

import numpy as np

from .._lib import cfunc
from ._common import CT, _fb, _norm_axis, _raise, _rows64, _single

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["hilbert"]

_hil = {np.dtype(np.float64): cfunc("sk_hilbert_f64"), np.dtype(np.float32): cfunc("sk_hilbert_f32")}


def hilbert(x: ArrayLike, N: Optional[int] = None, axis: int = -1) -> np.ndarray:
    """``scipy.signal.hilbert``: the analytic signal ``x + i·H{x}`` along ``axis``
    (``sk_hilbert_f64``; rows split over the library's threads).

    Parameters
    ----------
    x : array_like, real
        Signal; float32 is computed in single precision and gives complex64 (as scipy),
        everything else complex128 (computed in double).
    N : int, optional
        Number of points: the signal is truncated or zero-padded to N (default: its length).
    axis : int, default -1

    Returns
    -------
    ndarray, complex
        The analytic signal, ``N`` points along ``axis``.

    Raises
    ------
    ValueError
        Complex input ("x must be real."), ``N <= 0``.

    Examples
    --------
    >>> z = sigkern.hilbert(np.cos(2 * np.pi * np.arange(8) / 8))
    >>> bool(np.allclose(z, np.exp(2j * np.pi * np.arange(8) / 8)))
    True
    """
    a: Any = np.asarray(x)
    if a.dtype.kind == "c":
        raise ValueError("x must be real.")
    if a.dtype.kind not in "biuf":
        raise TypeError(f"hilbert: x must hold numbers, got dtype {a.dtype}")
    if a.ndim == 0:
        raise ValueError("hilbert: x must have at least one dimension")
    ax = _norm_axis(axis, a.ndim, "hilbert")
    if N is None:
        N = a.shape[ax]
    N = int(N)
    if N <= 0:
        raise ValueError("N must be positive.")
    single = _single(a)
    dt = np.dtype(np.float32 if single else np.float64)
    rows, outer = _rows64(a, ax, dt)
    z = np.empty(outer + (N,), np.complex64 if single else np.complex128)
    nr, n = rows.shape
    if nr:
        st = _hil[dt](_fb(CT[dt], rows), N, _fb(CT[dt], z.view(dt), True), nr, n, z.size)
        if st:
            _raise(st, f"sk_hilbert_{'f32' if single else 'f64'}")
    return np.moveaxis(z, -1, ax)
