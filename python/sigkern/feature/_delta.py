"""Delta features (C: ``sk_delta_*``; Rust: ``src/kernels/speech/delta.rs``): :func:`delta` with
``librosa.feature.delta``'s signature and :func:`compute_deltas` with
``torchaudio.functional.compute_deltas``'s."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX, F32, F64
from .._errors import error
from .._lib import cfunc

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray

__all__ = ["delta", "compute_deltas"]

_C = {F32: cfunc("sk_delta_f32"), F64: cfunc("sk_delta_f64")}
_MODES = {"interp": 0, "mirror": 1, "constant": 2, "nearest": 3, "wrap": 4}


def _delta(func: str, data: Any, width: int, order: int, polyorder: int, axis: int, mode: int,
           cval: float, delta: float) -> Any:
    x = A.promote(data, func, "data", complex_ok=False)
    A.cpu_tensor(x, func, "data")
    dt = A.float_dtype(x, func, "data")
    if x.ndim == 0:
        raise ValueError(f"{func}: data must have at least one dimension, got a scalar")
    ax = A.axis(axis, x.ndim, func, "data")
    xm = A.contig(A.movelast(x, ax))
    n = int(xm.shape[-1])
    rows = math.prod(xm.shape[:-1])
    y = B.new_like(x, tuple(xm.shape), dt)
    if rows and n:
        px, _ = B.pointer(xm, dt, func, "data")
        py, _ = B.pointer(y, dt, func, "out", writable=True)
        st = _C[dt](px, n, rows, py, rows * n, n, width, order, polyorder, mode, float(cval),
                    float(delta))
        if st:
            raise error(st, f"sk_delta_{SFX[dt]}")
    return A.moveback(y, ax)


def delta(data: ArrayLike, *, width: int = 9, order: int = 1, axis: int = -1,
          mode: str = "interp", **kwargs: Any) -> FloatArray:
    """``librosa.feature.delta``: local estimates of the derivative of ``data`` along ``axis``
    (``sk_delta_*``), the Savitzky–Golay derivative of ``scipy.signal.savgol_filter(data,
    width, polyorder=order, deriv=order, mode=mode)``.

    Parameters
    ----------
    data : ndarray or Tensor, float32 or float64 (integers become float64)
        The features, e.g. MFCCs of shape (..., n_mfcc, frames).
    width : int, default 9
        Window length, odd and ≥ 3; with ``mode="interp"`` at most ``data.shape[axis]``.
    order : int, default 1
        The derivative order (≥ 1).
    axis : int, default -1
        The axis along which to differentiate.
    mode : {"interp", "mirror", "constant", "nearest", "wrap"}, default "interp"
        The edge mode (scipy.signal.savgol_filter's).
    **kwargs
        savgol_filter's ``polyorder`` (default ``order``), ``cval`` (0, for
        ``mode="constant"``) and ``delta`` (sample spacing, 1).

    Returns
    -------
    ndarray or Tensor, data's shape and dtype

    Raises
    ------
    ValueError
        An even or small ``width``, ``width`` over the axis length with ``mode="interp"``, a
        non-positive ``order``, ``polyorder ≥ width``, an unknown ``mode``.

    Examples
    --------
    >>> sigkern.feature.delta(np.arange(10.0) ** 2, width=3)[:4]
    array([2., 2., 4., 6.])
    """
    func = "feature.delta"
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)) or order <= 0:
        raise ValueError(f"{func}: order must be a positive integer, got {order!r}")
    if isinstance(width, bool) or not isinstance(width, (int, np.integer)) or width < 3 \
            or width % 2 != 1:
        raise ValueError(f"{func}: width must be an odd integer >= 3, got {width!r}")
    if mode not in _MODES:
        raise ValueError(f"{func}: mode must be one of {', '.join(_MODES)}; got {mode!r}")
    kwargs.pop("deriv", None)
    polyorder = kwargs.pop("polyorder", order)
    cval = kwargs.pop("cval", 0.0)
    dx = kwargs.pop("delta", 1.0)
    if kwargs:
        raise TypeError(f"{func}: unexpected keyword argument(s) {', '.join(kwargs)}")
    polyorder = A.index(polyorder, func, "polyorder")
    if mode == "interp":
        shape = A.promote(data, func, "data", complex_ok=False).shape
        ax = A.axis(axis, len(shape), func, "data")
        if width > shape[ax]:
            raise ValueError(f"{func}: when mode='interp', width={width} cannot exceed "
                             f"data.shape[axis]={shape[ax]}")
    y: FloatArray = _delta(func, data, int(width), int(order), polyorder, axis, _MODES[mode],
                           cval, dx)
    return y


_TORCH_MODES = {"replicate": 3, "constant": 2, "reflect": 1, "circular": 4}


def compute_deltas(specgram: ArrayLike, win_length: int = 5,
                   mode: str = "replicate") -> FloatArray:
    """``torchaudio.functional.compute_deltas``: ``d_t = Σ_{n=1}^{N} n·(c_{t+n} − c_{t−n}) /
    (2·Σ n²)``, ``N = (win_length − 1) // 2``, along the last axis (``sk_delta_*``, the
    first-order Savitzky–Golay filter of width ``2N + 1``).

    Parameters
    ----------
    specgram : ndarray or Tensor, float32 or float64, shape (..., freq, time)
    win_length : int, default 5
        At least 3.
    mode : {"replicate", "constant", "reflect", "circular"}, default "replicate"
        The padding of ``torch.nn.functional.pad`` (zeros for ``"constant"``).

    Returns
    -------
    ndarray or Tensor, specgram's shape and dtype

    Raises
    ------
    ValueError
        ``win_length < 3``, an unknown ``mode``.

    Examples
    --------
    >>> sigkern.feature.compute_deltas(np.arange(6.0)[None])
    array([[0.5, 0.8, 1. , 1. , 0.8, 0.5]])
    """
    func = "feature.compute_deltas"
    win_length = A.index(win_length, func, "win_length")
    if win_length < 3:
        raise ValueError(f"{func}: win_length = {win_length} must be at least 3")
    if mode not in _TORCH_MODES:
        raise ValueError(f"{func}: mode must be one of {', '.join(_TORCH_MODES)}; got {mode!r}")
    width = 2 * ((win_length - 1) // 2) + 1
    y: FloatArray = _delta(func, specgram, width, 1, 1, -1, _TORCH_MODES[mode], 0.0, 1.0)
    return y
