"""Smoothing and detrending (C: ``sk_medfilt_*``, ``sk_medfilt2d_*``, ``sk_correlate_ext_*``,
``sk_detrend_*``; Rust: ``src/kernels/analysis/smooth.rs``): ``scipy.signal``'s
:func:`medfilt`, :func:`savgol_coeffs`, :func:`savgol_filter` and :func:`detrend`.

The filtering runs in C; :func:`savgol_coeffs` (a least-squares solve of at most
``window_length`` equations) and the polynomial fit of ``savgol_filter``'s ``interp`` edges are
small design steps done with numpy's ``lstsq``, as scipy does them."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

import numpy as np

from .._lib import cfunc, ffi
from ._common import CT, _D, _fb, _norm_axis, _raise, _rows64

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["medfilt", "savgol_coeffs", "savgol_filter", "detrend"]

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_med = {_F64: cfunc("sk_medfilt_f64"), _F32: cfunc("sk_medfilt_f32")}
_med2 = {_F64: cfunc("sk_medfilt2d_f64"), _F32: cfunc("sk_medfilt2d_f32")}
_corr = {_F64: cfunc("sk_correlate_ext_f64"), _F32: cfunc("sk_correlate_ext_f32")}
_detr = {_F64: cfunc("sk_detrend_f64"), _F32: cfunc("sk_detrend_f32")}


def _sfx(dt: np.dtype[Any]) -> str:
    return "f32" if dt == _F32 else "f64"
_MODES = {"mirror": 0, "nearest": 2, "wrap": 3, "constant": 4}


def medfilt(volume: ArrayLike, kernel_size: Optional[Union[int, Sequence[int]]] = None) -> np.ndarray:
    """``scipy.signal.medfilt``: the median filter with zero padding (``sk_medfilt_f64`` along
    one axis, ``sk_medfilt2d_f64`` over two), bit-exact.

    Parameters
    ----------
    volume : array_like
        Integer, float32 or float64 data (the result has its dtype). Integers are filtered
        exactly while they fit a double (|v| ≤ 2**53).
    kernel_size : int or sequence of int, optional
        Odd sizes per axis (default 3 on every axis). Sizes other than 1 on at most two axes
        (a kernel over three or more axes raises ``ValueError``).

    Returns
    -------
    ndarray
        Same shape and dtype as ``volume``.

    Raises
    ------
    ValueError
        An even size, a dtype scipy refuses, a kernel over more than two axes.

    Warns
    -----
    UserWarning
        A kernel larger than the data along an axis (as scipy).

    Examples
    --------
    >>> sigkern.medfilt(np.array([2.0, 6.0, 5.0, 4.0, 0.0, 3.0, 5.0, 7.0, 9.0, 2.0]), 3)
    array([2., 5., 5., 4., 3., 3., 5., 7., 7., 2.])
    """
    v = np.asarray(volume)
    if v.ndim == 0:
        v = v.reshape(1)
    if not (v.dtype.kind in "iu" or v.dtype in (np.float32, np.float64)):
        raise ValueError(f"dtype={v.dtype} is not supported by medfilt")
    if kernel_size is None:
        ks = [3] * v.ndim
    else:
        k = np.asarray(kernel_size)
        ks = [int(i) for i in (np.repeat(k, v.ndim) if k.shape == () else k)]
    if len(ks) != v.ndim:
        raise ValueError(f"medfilt: kernel_size has {len(ks)} sizes for {v.ndim} axes")
    for kk in ks:
        if kk % 2 != 1:
            raise ValueError("Each element of kernel_size should be odd.")
    if any(k > s for k, s in zip(ks, v.shape)):
        warnings.warn("kernel_size exceeds volume extent: the volume will be zero-padded.",
                      stacklevel=2)
    axes = [i for i, k in enumerate(ks) if k != 1]
    if len(axes) > 2:
        raise ValueError(f"medfilt: sigkern filters along at most two axes; kernel_size {ks} "
                         f"spans {len(axes)} (use scipy.signal.medfilt)")
    if v.size == 0 or not axes:
        return v.copy()
    if v.dtype.kind in "iu" and v.size and (np.abs(v.astype(np.float64)) > 2.0 ** 53).any():
        raise ValueError("medfilt: integers beyond 2**53 are not represented exactly in double")
    wt = _F32 if v.dtype == _F32 else _F64  # float32 filtered as float32: exact either way
    if len(axes) == 1:
        ax = axes[0]
        rows, outer = _rows64(v, ax, wt)
        y = np.empty_like(rows)
        st = _med[wt](_fb(CT[wt], rows), ks[ax], _fb(CT[wt], y, True), rows.shape[0], rows.shape[1])
        if st:
            _raise(st, f"sk_medfilt_{_sfx(wt)}")
        out = np.moveaxis(y.reshape(outer + (rows.shape[1],)), -1, ax)
    else:
        a0, a1 = axes
        m = np.moveaxis(v, (a0, a1), (-2, -1))
        outer = m.shape[:-2]
        h, w = m.shape[-2:]
        img = np.ascontiguousarray(m, dtype=wt).reshape(-1, h, w)
        y = np.empty_like(img)
        for i in range(img.shape[0]):
            st = _med2[wt](_fb(CT[wt], img[i]), ks[a0], ks[a1], _fb(CT[wt], y[i], True), h, w)
            if st:
                _raise(st, f"sk_medfilt2d_{_sfx(wt)}")
        out = np.moveaxis(y.reshape(outer + (h, w)), (-2, -1), (a0, a1))
    return np.ascontiguousarray(out).astype(v.dtype, copy=False)


def savgol_coeffs(window_length: int, polyorder: int, deriv: int = 0, delta: float = 1.0,
                  pos: Optional[int] = None, use: str = "conv", *, xp: Any = None,
                  device: Any = None) -> np.ndarray:
    """``scipy.signal.savgol_coeffs``: the Savitzky-Golay FIR coefficients (a least-squares
    solve, as scipy's).

    Parameters
    ----------
    window_length : int
        Number of coefficients.
    polyorder : int
        Polynomial order, less than ``window_length``.
    deriv : int, default 0
        Derivative order (coefficients are all zero above ``polyorder``).
    delta : float, default 1.0
        Sample spacing (used when ``deriv > 0``).
    pos : int, optional
        Evaluation position in the window (default the middle).
    use : {"conv", "dot"}, default "conv"
        Coefficient order: for a convolution, or reversed for a dot product.
    xp : array namespace, optional
        numpy only (scipy's array-API argument; another namespace raises ``ValueError``).
    device : optional
        None or ``"cpu"``.

    Returns
    -------
    ndarray of float64, shape (window_length,)

    Raises
    ------
    ValueError
        ``polyorder >= window_length``, ``pos`` outside the window, a bad ``use``.

    Examples
    --------
    >>> sigkern.savgol_coeffs(5, 2)
    array([-0.08571429,  0.34285714,  0.48571429,  0.34285714, -0.08571429])
    """
    if xp is not None and "numpy" not in getattr(xp, "__name__", ""):
        raise ValueError(f"savgol_coeffs: sigkern returns numpy arrays; xp={xp!r} is not numpy")
    if device not in (None, "cpu"):
        raise ValueError(f"savgol_coeffs: device={device!r} is not the CPU")
    if polyorder >= window_length:
        raise ValueError("polyorder must be less than window_length.")
    halflen, rem = divmod(window_length, 2)
    p: float
    if pos is None:
        p = halflen - 0.5 if rem == 0 else halflen
    else:
        p = pos
    if not (0 <= p < window_length):
        raise ValueError("pos must be nonnegative and less than window_length.")
    if use not in ["conv", "dot"]:
        raise ValueError("`use` must be 'conv' or 'dot'")
    if deriv > polyorder:
        return np.zeros(window_length)
    x = np.arange(-p, window_length - p, dtype=np.float64)
    if use == "conv":
        x = x[::-1]
    order = np.arange(polyorder + 1, dtype=np.float64).reshape(-1, 1)
    a = x ** order
    y = np.zeros(polyorder + 1)
    y[deriv] = math.factorial(deriv) / (delta ** deriv)
    rcond = np.finfo(np.float64).eps * max(a.shape)
    coeffs: np.ndarray = np.linalg.lstsq(a, y, rcond=rcond)[0]
    return coeffs


def _correlate_rows(rows: np.ndarray, taps: np.ndarray, left: int, mode: int, cval: float) -> np.ndarray:
    y = np.empty_like(rows)
    dt = rows.dtype
    t = np.ascontiguousarray(taps, dtype=np.float64)
    st = _corr[dt](_fb(CT[dt], rows), _fb(_D, t), t.size, left, mode, float(cval),
                   _fb(CT[dt], y, True), rows.shape[0], rows.shape[1])
    if st:
        _raise(st, f"sk_correlate_ext_{_sfx(dt)}")
    return y


def _fit_edge(rows: np.ndarray, y: np.ndarray, w0: int, w1: int, i0: int, i1: int,
              polyorder: int, deriv: int, delta: float, at: int) -> None:
    """scipy's ``_fit_edge``: a polynomial fitted to ``rows[:, w0:w1]`` (float64) evaluated (or
    its derivative) at ``i0:i1``, written into ``y[:, at + i0 : at + i1]``."""
    t = np.arange(0, w1 - w0, dtype=np.float64)
    lhs = t[:, None] ** np.arange(polyorder, -1, -1, dtype=np.float64)[None, :]
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    scale[scale == 0] = 1.0
    c = np.linalg.lstsq(lhs / scale, rows[:, w0:w1].T, rcond=(w1 - w0) * np.finfo(np.float64).eps)[0]
    c = (c.T / scale).T
    if deriv > 0:
        c = _polyder(c, deriv)
    ii = np.arange(i0 - w0, i1 - w0, dtype=np.float64)
    vals = np.zeros((ii.size, rows.shape[0]))
    for coef in c:
        vals = vals * ii[:, None] + coef
    y[:, at + i0:at + i1] = (vals / (delta ** deriv)).T


def _polyder(c: np.ndarray, m: int) -> np.ndarray:
    n = c.shape[0]
    if n <= m:
        return np.zeros((1,) + c.shape[1:])
    dp = c[:-m].copy()
    for k in range(m):
        rng = np.arange(n - k - 1, m - k - 1, -1, dtype=np.float64)
        dp *= rng.reshape((n - m,) + (1,) * (c.ndim - 1))
    return dp


def savgol_filter(x: ArrayLike, window_length: int, polyorder: int, deriv: int = 0,
                  delta: float = 1.0, axis: int = -1, mode: str = "interp",
                  cval: float = 0.0) -> np.ndarray:
    """``scipy.signal.savgol_filter``: the Savitzky-Golay filter along ``axis``
    (``sk_correlate_ext_f64`` with ``scipy.ndimage``'s boundary modes).

    Parameters
    ----------
    x : array_like
        Data; float32 stays float32 (computed in double), everything else becomes float64.
    window_length : int
        Filter length (≤ the data length for ``"interp"``).
    polyorder : int
        Polynomial order, less than ``window_length``.
    deriv : int, default 0
    delta : float, default 1.0
    axis : int, default -1
    mode : {"interp", "mirror", "constant", "nearest", "wrap"}, default "interp"
        ``interp`` fits a polynomial to the first and last ``window_length`` samples for the
        edges; the others extend the data as ``scipy.ndimage``.
    cval : float, default 0.0
        The value outside for ``"constant"``.

    Returns
    -------
    ndarray
        Same shape as ``x``.

    Raises
    ------
    ValueError
        A bad mode, ``polyorder >= window_length``, ``window_length`` longer than the data for
        ``"interp"``.

    Examples
    --------
    >>> sigkern.savgol_filter(np.array([2.0, 2.0, 5.0, 2.0, 1.0, 0.0, 1.0, 4.0, 9.0]), 5, 2)
    array([1.65714286, 3.17142857, 3.54285714, 2.85714286, 0.65714286,
           0.17142857, 1.        , 4.        , 9.        ])
    """
    if mode not in ["mirror", "constant", "nearest", "interp", "wrap"]:
        raise ValueError("mode must be 'mirror', 'constant', 'nearest' 'wrap' or 'interp'.")
    a: Any = np.asarray(x)
    if a.dtype.kind == "c":
        raise TypeError("savgol_filter: x must be real (sigkern filters real data)")
    if a.dtype != np.float64 and a.dtype != np.float32:
        a = a.astype(np.float64)
    coeffs = savgol_coeffs(window_length, polyorder, deriv=deriv, delta=delta)
    if a.ndim == 0:
        raise ValueError("savgol_filter: x must have at least one dimension")
    ax = _norm_axis(axis, a.ndim, "savgol_filter")
    n = a.shape[ax]
    # ndimage.convolve1d(x, c) is correlate1d with the reversed taps, centred at len//2 and
    # one sample further left for an even length
    taps = coeffs[::-1]
    left = window_length // 2 - (1 if window_length % 2 == 0 else 0)
    if mode == "interp" and window_length > n:
        raise ValueError("If mode is 'interp', window_length must be less than or equal to "
                         "the size of x.")
    rows, outer = _rows64(a, ax, a.dtype)  # float32 filtered by the _f32 kernel (summed in double)
    if rows.size == 0:
        return np.moveaxis(rows.reshape(outer + (n,)), -1, ax).astype(a.dtype)
    y = _correlate_rows(rows, taps, left, _MODES["constant" if mode == "interp" else mode],
                        cval if mode != "interp" else 0.0)
    if mode == "interp":
        half = window_length // 2
        head = rows[:, :window_length].astype(np.float64)
        tail = rows[:, n - window_length:].astype(np.float64)
        _fit_edge(head, y, 0, window_length, 0, half, polyorder, deriv, delta, 0)
        _fit_edge(tail, y, 0, window_length, window_length - half, window_length, polyorder,
                  deriv, delta, n - window_length)
    out = np.moveaxis(y.reshape(outer + (n,)), -1, ax)
    return out.astype(a.dtype, copy=False)


def detrend(data: ArrayLike, axis: int = -1, type: str = "linear",
            bp: Union[int, Sequence[int], np.ndarray] = 0,
            overwrite_data: bool = False) -> np.ndarray:
    """``scipy.signal.detrend``: remove the mean (``"constant"``) or the least-squares line,
    piecewise between breakpoints (``"linear"``), along ``axis`` (``sk_detrend_f64``).

    Parameters
    ----------
    data : array_like, real
        float32 stays float32 (computed in double); everything else becomes float64.
    axis : int, default -1
    type : {"linear", "constant"}, default "linear"
        Also ``"l"`` and ``"c"``.
    bp : int or sequence of int, default 0
        Breakpoints of the piecewise linear fit.
    overwrite_data : bool, default False
        Accepted for compatibility (a new array is always returned).

    Returns
    -------
    ndarray
        The detrended data.

    Raises
    ------
    ValueError
        A bad type, breakpoints beyond the data.
    TypeError
        Complex data.

    Examples
    --------
    >>> sigkern.detrend(np.array([1.0, 2.0, 3.0, 5.0]))
    array([ 0.1, -0.3, -0.1,  0.3])
    """
    if type not in ["linear", "l", "constant", "c"]:
        raise ValueError("Trend type must be 'linear' or 'constant'.")
    a: Any = np.asarray(data)
    if a.dtype.kind == "c":
        raise TypeError("detrend: data must be real (sigkern detrends real data)")
    dt = a.dtype if a.dtype in (np.float32, np.float64) else np.dtype(np.float64)
    if a.ndim == 0:
        zero: np.ndarray = a.astype(dt) - a.astype(dt)
        return zero
    ax = _norm_axis(axis, a.ndim, "detrend")
    n = a.shape[ax]
    linear = type in ("linear", "l")
    bps = np.sort(np.unique(np.concatenate(np.atleast_1d(0, bp, n)))).astype(np.int64)
    if np.any(bps > n):
        raise ValueError("Breakpoints must be less than length of data along given axis.")
    inner = np.ascontiguousarray(bps[(bps > 0) & (bps < n)], dtype=np.uintp)
    rows, outer = _rows64(a, ax, dt)  # float32 detrended by the _f32 kernel (in double)
    y = np.empty_like(rows)
    if rows.size:
        pb = _fb("size_t[]", inner) if inner.size else ffi.NULL
        st = _detr[dt](_fb(CT[dt], rows), 1 if linear else 0, pb, inner.size if linear else 0,
                       _fb(CT[dt], y, True), rows.shape[0], rows.shape[1])
        if st:
            _raise(st, f"sk_detrend_{_sfx(dt)}")
    out = np.moveaxis(y.reshape(outer + (n,)), -1, ax)
    return out.astype(dt, copy=False)

