"""Spectral estimation (C: ``sk_spectral_est_*``; Rust: ``src/kernels/analysis/spectral_est.rs``):
``scipy.signal``'s :func:`periodogram`, :func:`welch`, :func:`csd`, :func:`coherence` and
:func:`spectrogram`, with scipy's signatures, defaults, warnings and errors.

One C kernel does the numerical work: every segment detrended, windowed, padded to ``nfft``,
transformed, squared or multiplied by the second signal's conjugate spectrum, scaled, and the
segments kept or averaged (mean or bias-corrected median). float32 input keeps scipy's
precision: computed in double and returned as float32 by ``welch``/``csd``/``periodogram``/
``coherence`` (as scipy's ``csd``), computed in float by ``spectrogram`` (as scipy's). Complex input is refused (``TypeError``);
a callable ``detrend`` is applied in Python to each segment before the kernel runs."""

from __future__ import annotations

import numbers
import warnings
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, Union

import numpy as np

from .._lib import cfunc
from ..spectral._window import get_window
from ._common import CT, _NULL, _single, _asarray, _refuse_complex, _fb, _fs, _norm_axis, _raise, _rows64

if TYPE_CHECKING:
    from .._typing import ArrayLike, WindowSpec

__all__ = ["periodogram", "welch", "csd", "coherence", "spectrogram"]

_est = {np.dtype(np.float64): cfunc("sk_spectral_est_f64"),
        np.dtype(np.float32): cfunc("sk_spectral_est_f32")}
_DETREND = {"constant": 1, "linear": 2}
_POWER, _CROSS, _COMPLEX = 0, 1, 2
_AVG_NONE, _AVG_MEAN, _AVG_MEDIAN = 0, 1, 2

Detrend = Union[str, bool, Callable[[np.ndarray], np.ndarray]]


def _detrend_code(detrend: Any) -> Tuple[int, Optional[Callable[[np.ndarray], np.ndarray]]]:
    """scipy's ``detrend=`` as (SK_DETREND_* code, Python callable or None)."""
    if detrend is False or detrend is None:
        return 0, None
    if isinstance(detrend, str):
        if detrend not in _DETREND:
            raise ValueError("Trend type must be 'linear' or 'constant'.")
        return _DETREND[detrend], None
    if callable(detrend):
        return 0, detrend
    if not detrend:
        return 0, None
    raise ValueError(f"Parameter detr={detrend!r} is not a str, function or None!")


def _segments(rows: np.ndarray, nperseg: int, step: int,
              func: Callable[[np.ndarray], np.ndarray], whole: bool) -> np.ndarray:
    """The segments of ``rows`` (``(r, n)``) detrended by a callable, laid end to end as
    ``(r, segs·nperseg)`` (the kernel then runs with no overlap and no detrending). scipy's
    ``csd`` calls the function segment by segment (``whole=False``), ``spectrogram`` once on
    the ``(..., segs, nperseg)`` array (``whole=True``)."""
    fr = np.lib.stride_tricks.sliding_window_view(rows, nperseg, axis=-1)[:, ::step]
    if whole:
        d = np.asarray(func(fr), dtype=np.float64)
    else:
        d = np.empty(fr.shape, np.float64)
        for p in range(fr.shape[1]):
            d[:, p] = func(fr[:, p])
    return np.ascontiguousarray(d, dtype=rows.dtype).reshape(rows.shape[0], -1)


def _kernel(xr: np.ndarray, yr: Optional[np.ndarray], win: np.ndarray, nperseg: int,
            noverlap: int, nfft: int, dcode: int, dfunc: Optional[Callable[[np.ndarray], np.ndarray]],
            whole: bool, onesided: bool, scale: float, average: int, output: int) -> np.ndarray:
    """Runs ``sk_spectral_est_f64`` over ``(rows, n)`` float64 rows: returns
    ``(rows, n_out)`` (averaged) or ``(rows, n_out, segs)``, complex when ``output`` is."""
    rows, n = xr.shape
    step = nperseg - noverlap
    segs = (n - nperseg) // step + 1 if n >= nperseg else 0
    if dfunc is not None and segs > 0:
        xr = _segments(xr, nperseg, step, dfunc, whole)
        if yr is not None:
            yr = _segments(yr, nperseg, step, dfunc, whole)
        n, noverlap = segs * nperseg, 0
    n_out = nfft // 2 + 1 if onesided else nfft
    cplx = output != _POWER
    shape: Tuple[int, ...] = (rows, n_out) if average != _AVG_NONE else (rows, n_out, segs)
    dt = xr.dtype
    ct = CT[dt]
    out = np.empty(shape, (np.complex128 if cplx else np.float64) if dt == np.float64 else
                   (np.complex64 if cplx else np.float32))
    w = np.ascontiguousarray(win, dtype=dt)
    flat = out.view(dt) if cplx else out
    st = _est[dt](_fb(ct, xr), _fb(ct, yr) if yr is not None else _NULL, _fb(ct, w), nperseg,
              noverlap, nfft, dcode, 1 if onesided else 0, scale, average, output,
              _fb(ct, flat, True), rows, n, flat.size)
    if st:
        _raise(st, f"sk_spectral_est_{'f32' if dt == np.float32 else 'f64'}")
    return out


def _window_1d(window: Any, func: str) -> np.ndarray:
    win = np.asarray(window)
    if win.ndim != 1:
        raise ValueError("window must be 1-D")
    if win.dtype.kind == "c":
        raise TypeError(f"{func}: window must be real, got dtype {win.dtype}")
    return win


def _scale(win: np.ndarray, fs: float, scaling: Any) -> float:
    w = win.astype(np.float64)
    if scaling == "density":
        return float(1.0 / (fs * (w * w).sum()))
    if scaling == "spectrum":
        return float(1.0 / w.sum() ** 2)
    raise ValueError(f"Parameter scaling={scaling!r} not in {{'spectrum': 'magnitude', "
                     f"'density': 'psd'}}!")


def _freqs(nfft: int, fs: float, onesided: bool) -> np.ndarray:
    if onesided:
        return np.fft.rfftfreq(nfft, 1 / fs)
    return np.fft.fftfreq(nfft, 1 / fs)


def _csd(x: Any, y: Any, fs: Any, window: Any, nperseg: Any, noverlap: Any, nfft: Any,
         detrend: Any, return_onesided: Any, scaling: Any, axis: Any, average: Any,
         func: str) -> Tuple[np.ndarray, np.ndarray]:
    """scipy's ``csd`` (``welch`` and ``periodogram`` call it with ``y is x``)."""
    same = y is x
    x = _asarray(x, func, "x", complex_ok=True)
    ax = _norm_axis(axis, x.ndim, func)
    ax_raw = int(axis)
    if not same:
        y = _asarray(y, func, "y", complex_ok=True)
        xo, yo = list(x.shape), list(y.shape)
        xo.pop(ax_raw)
        yo.pop(ax_raw)
        try:
            outer = np.broadcast_shapes(tuple(xo), tuple(yo))
        except ValueError as e:
            raise ValueError("x and y cannot be broadcast together.") from e
        if x.size == 0 or y.size == 0:
            empty = np.moveaxis(np.empty(outer + (min(x.shape[ax_raw], y.shape[ax_raw]),)), -1,
                                ax_raw)
            return empty, empty
        out_dtype = np.result_type(x, y, np.complex64)
    else:
        if x.size == 0:
            return np.empty(x.shape), np.empty(x.shape)
        out_dtype = np.result_type(x, np.complex64)
    n = x.shape[ax] if same else max(x.shape[ax], y.shape[ax_raw])
    if isinstance(window, (str, tuple)):
        nperseg = int(nperseg) if nperseg is not None else 256
        if nperseg < 1:
            raise ValueError(f"Parameter {nperseg=} is not a positive integer!")
        if n < nperseg:
            warnings.warn(f"{nperseg=} is greater than signal length max(len(x), "
                          f"len(y)) = {n}, using nperseg = {n}", stacklevel=3)
            nperseg = n
        win = np.asarray(get_window(window, nperseg))
    else:
        win = _window_1d(window, func)
        if nperseg is None:
            nperseg = len(win)
        nperseg = int(nperseg)
    if nperseg != len(win):
        raise ValueError(f"{nperseg=} does not equal {len(win)=}")
    nfft = int(nfft) if nfft is not None else nperseg
    if nfft < nperseg:
        raise ValueError(f"{nfft=} must be greater than or equal to {nperseg=}!")
    noverlap = int(noverlap) if noverlap is not None else nperseg // 2
    if noverlap >= nperseg:
        raise ValueError(f"{noverlap=} must be less than {nperseg=}!")
    if noverlap < 0:
        raise ValueError(f"{func}: noverlap={noverlap} must not be negative")
    fsv = _fs(fs, func)
    scale = _scale(win, fsv, scaling)
    if average not in ("mean", "median"):
        raise ValueError(f"Parameter {average=} must be 'median' or 'mean'!")
    dcode, dfunc = _detrend_code(detrend)
    _refuse_complex(x, func, "x")
    if not same:
        _refuse_complex(y, func, "y")
    step = nperseg - noverlap
    segs = (n - noverlap) // step
    if segs < 1:
        raise ValueError(f"{func}: the signal of {n} samples holds no segment of "
                         f"{nperseg=} (the window is longer than the signal)")
    onesided = bool(return_onesided)
    xr, outer = _rows64(x, ax)
    yr: Optional[np.ndarray] = None
    if not same:
        xb = np.moveaxis(x, ax, -1)
        yb = np.moveaxis(y, ax_raw, -1)
        shp = np.broadcast_shapes(xb.shape[:-1], yb.shape[:-1])
        xb = np.broadcast_to(xb, shp + (xb.shape[-1],))
        yb = np.broadcast_to(yb, shp + (yb.shape[-1],))
        if xb.shape[-1] < n:
            xb = np.concatenate((xb, np.zeros(shp + (n - xb.shape[-1],))), axis=-1)
        if yb.shape[-1] < n:
            yb = np.concatenate((yb, np.zeros(shp + (n - yb.shape[-1],))), axis=-1)
        xr = np.ascontiguousarray(xb, dtype=np.float64).reshape(-1, n)
        yr = np.ascontiguousarray(yb, dtype=np.float64).reshape(-1, n)
        outer = tuple(shp)
    avg = _AVG_MEAN if average == "mean" else _AVG_MEDIAN
    res = _kernel(xr, yr, win, nperseg, noverlap, nfft, dcode, dfunc, False, onesided, scale,
                  avg, _POWER if same else _CROSS)
    res = np.moveaxis(res.reshape(outer + (res.shape[-1],)), -1, ax)
    if same:
        res = res.astype(np.empty(0, out_dtype).real.dtype, copy=False)
    else:
        res = res.astype(out_dtype, copy=False)
    return _freqs(nfft, fsv, onesided), res


def periodogram(x: ArrayLike, fs: float = 1.0, window: Optional[WindowSpec] = "boxcar",
                nfft: Optional[int] = None, detrend: Detrend = "constant",
                return_onesided: bool = True, scaling: str = "density",
                axis: int = -1) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.periodogram``: the power spectral density of the whole signal
    (``sk_spectral_est_f64``, one segment).

    Parameters
    ----------
    x : array_like, real
        Signal (float32 results for float32 input, float64 otherwise).
    fs : float, default 1.0
        Sampling frequency (> 0).
    window : str, tuple or array_like, default "boxcar"
        A ``get_window`` description, or the window itself (its length must be the signal's).
    nfft : int, optional
        FFT length: shorter than the signal truncates it, longer zero-pads.
    detrend : "constant", "linear", False or callable, default "constant"
    return_onesided : bool, default True
    scaling : {"density", "spectrum"}, default "density"
    axis : int, default -1

    Returns
    -------
    f : ndarray
        Frequencies.
    Pxx : ndarray
        The power spectral density (``"density"``, V²/Hz) or power spectrum (V²).

    Raises
    ------
    ValueError
        As scipy: a bad scaling, window length, fs.
    TypeError
        Complex input (sigkern takes real signals).

    Examples
    --------
    >>> f, p = sigkern.periodogram(np.array([1.0, -1.0, 1.0, -1.0]))
    >>> p
    array([0., 0., 2.])
    """
    x = _asarray(x, "periodogram", complex_ok=True)
    _fs(fs, "periodogram")
    if x.size == 0:
        return np.empty(x.shape), np.empty(x.shape)
    if window is None:
        window = "boxcar"
    ax = _norm_axis(axis, x.ndim, "periodogram")
    if nfft is None:
        nperseg = x.shape[ax]
    elif nfft == x.shape[ax]:
        nperseg = nfft
    elif nfft > x.shape[ax]:
        nperseg = x.shape[ax]
    else:
        s: list[Any] = [slice(None)] * len(x.shape)
        s[ax] = slice(None, nfft)
        x = x[tuple(s)]
        nperseg = nfft
        nfft = None
    if hasattr(window, "size") and getattr(window, "size") != nperseg:
        raise ValueError("the size of the window must be the same size of the input on the "
                         "specified axis")
    return welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=0, nfft=nfft,
                 detrend=detrend, return_onesided=return_onesided, scaling=scaling, axis=axis)


def welch(x: ArrayLike, fs: float = 1.0, window: WindowSpec = "hann_periodic",
          nperseg: Optional[int] = None, noverlap: Optional[int] = None,
          nfft: Optional[int] = None, detrend: Detrend = "constant",
          return_onesided: bool = True, scaling: str = "density", axis: int = -1,
          average: str = "mean") -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.welch``: the power spectral density by Welch's method
    (``sk_spectral_est_f64``; rows split over the library's threads).

    Parameters
    ----------
    x : array_like, real
        Signal (float32 results for float32 input, computed in double; float64 otherwise).
    fs : float, default 1.0
        Sampling frequency (> 0).
    window : str, tuple or array_like, default "hann_periodic"
        A ``get_window`` description, or the window itself (1-D).
    nperseg : int, optional
        Segment length: 256 for a named window (the signal length if shorter, with a
        warning), else the window's length.
    noverlap : int, optional
        Samples shared by consecutive segments, default ``nperseg // 2``.
    nfft : int, optional
        FFT length (≥ nperseg), default nperseg.
    detrend : "constant", "linear", False or callable, default "constant"
        What each segment is detrended by before windowing.
    return_onesided : bool, default True
    scaling : {"density", "spectrum"}, default "density"
    axis : int, default -1
    average : {"mean", "median"}, default "mean"
        The median is divided by scipy's median bias.

    Returns
    -------
    f : ndarray
        Frequencies.
    Pxx : ndarray
        Power spectral density or power spectrum, frequencies along ``axis``.

    Raises
    ------
    ValueError
        As scipy: nperseg < 1, nfft < nperseg, noverlap ≥ nperseg, a bad scaling, average,
        detrend, fs or window shape.
    TypeError
        Complex input (sigkern takes real signals).

    Examples
    --------
    >>> f, p = sigkern.welch(np.random.default_rng(0).standard_normal(4096), nperseg=256)
    >>> f.shape, p.shape
    ((129,), (129,))
    """
    f, p = _csd(x, x, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                axis, average, "welch")
    return f, p


def csd(x: ArrayLike, y: ArrayLike, fs: float = 1.0, window: WindowSpec = "hann_periodic",
        nperseg: Optional[int] = None, noverlap: Optional[int] = None,
        nfft: Optional[int] = None, detrend: Detrend = "constant",
        return_onesided: bool = True, scaling: str = "density", axis: int = -1,
        average: str = "mean") -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.csd``: the cross spectral density ``conj(X)·Y`` by Welch's method
    (``sk_spectral_est_f64``).

    Parameters
    ----------
    x, y : array_like, real
        The signals; the shorter is zero-padded, the other axes broadcast.
    fs : float, default 1.0
    window : str, tuple or array_like, default "hann_periodic"
    nperseg : int, optional
    noverlap : int, optional
    nfft : int, optional
    detrend : "constant", "linear", False or callable, default "constant"
    return_onesided : bool, default True
    scaling : {"density", "spectrum"}, default "density"
    axis : int, default -1
    average : {"mean", "median"}, default "mean"
        The median takes real and imaginary parts separately, as scipy.

    Returns
    -------
    f : ndarray
        Frequencies.
    Pxy : ndarray, complex
        Cross spectral density (real when ``y is x``, as scipy).

    Raises
    ------
    ValueError
        As :func:`welch`, and for shapes that do not broadcast.
    TypeError
        Complex input.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(1024)
    >>> f, pxy = sigkern.csd(x, 0.5 * x, nperseg=128)
    >>> bool(np.allclose(pxy.real, 0.5 * sigkern.welch(x, nperseg=128)[1]))
    True
    """
    return _csd(x, y, fs, window, nperseg, noverlap, nfft, detrend, return_onesided, scaling,
                axis, average, "csd")


def coherence(x: ArrayLike, y: ArrayLike, fs: float = 1.0, window: WindowSpec = "hann_periodic",
              nperseg: Optional[int] = None, noverlap: Optional[int] = None,
              nfft: Optional[int] = None, detrend: Detrend = "constant",
              axis: int = -1) -> Tuple[np.ndarray, np.ndarray]:
    """``scipy.signal.coherence``: the magnitude squared coherence
    ``|Pxy|² / (Pxx·Pyy)`` from Welch estimates (``sk_spectral_est_f64``).

    Parameters
    ----------
    x, y : array_like, real
    fs : float, default 1.0
    window : str, tuple or array_like, default "hann_periodic"
    nperseg : int, optional
    noverlap : int, optional
    nfft : int, optional
    detrend : "constant", "linear", False or callable, default "constant"
    axis : int, default -1

    Returns
    -------
    f : ndarray
        Frequencies.
    Cxy : ndarray
        Coherence in [0, 1].

    Raises
    ------
    ValueError
        As :func:`csd`.
    TypeError
        Complex input.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(1024)
    >>> f, c = sigkern.coherence(x, 2.0 * x, nperseg=128)
    >>> bool(np.allclose(c, 1.0))
    True
    """
    _fs(fs, "coherence")
    _norm_axis(axis, np.ndim(x), "coherence")
    f, pxx = welch(x, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                   detrend=detrend, axis=axis)
    _, pyy = welch(y, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                   detrend=detrend, axis=axis)
    _, pxy = csd(x, y, fs=fs, window=window, nperseg=nperseg, noverlap=noverlap, nfft=nfft,
                 detrend=detrend, axis=axis)
    cxy: np.ndarray = np.abs(pxy) ** 2 / pxx / pyy
    return f, cxy


_MODES = ["psd", "complex", "magnitude", "angle", "phase"]


def spectrogram(x: ArrayLike, fs: float = 1.0, window: WindowSpec = ("tukey_periodic", 0.25),
                nperseg: Optional[int] = None, noverlap: Optional[int] = None,
                nfft: Optional[int] = None, detrend: Detrend = "constant",
                return_onesided: bool = True, scaling: str = "density", axis: int = -1,
                mode: str = "psd") -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``scipy.signal.spectrogram``: the spectra of consecutive segments
    (``sk_spectral_est_f64`` with every segment kept).

    Parameters
    ----------
    x : array_like, real
        Signal (float32 computed in float with float32 results, as scipy; float64 otherwise).
    fs : float, default 1.0
    window : str, tuple or array_like, default ("tukey_periodic", 0.25)
    nperseg : int, optional
        256 for a named window (the signal length if shorter, with a warning), else the
        window's length.
    noverlap : int, optional
        Default ``nperseg // 8``.
    nfft : int, optional
    detrend : "constant", "linear", False or callable, default "constant"
    return_onesided : bool, default True
    scaling : {"density", "spectrum"}, default "density"
    axis : int, default -1
    mode : {"psd", "complex", "magnitude", "angle", "phase"}, default "psd"

    Returns
    -------
    f : ndarray
        Frequencies.
    t : ndarray
        Segment centres in seconds.
    Sxx : ndarray
        Shape ``(..., len(f), len(t))`` with frequencies at ``axis``, time last.

    Raises
    ------
    ValueError
        As scipy: an unknown mode or scaling, a window longer than the signal or not 1-D,
        nperseg < 1, nfft < nperseg, noverlap ≥ nperseg.
    TypeError
        Complex input.

    Examples
    --------
    >>> f, t, s = sigkern.spectrogram(np.random.default_rng(0).standard_normal(2048))
    >>> s.shape
    (129, 9)
    """
    func = "spectrogram"
    if mode not in _MODES:
        raise ValueError(f"unknown value for mode {mode}, must be one of {_MODES}")
    x = _asarray(x, func, complex_ok=True)
    ax = _norm_axis(axis, x.ndim, func)
    ax_in = int(axis)
    fsv = _fs(fs, func, positive=False)
    if x.size == 0:
        return np.empty(x.shape), np.empty(x.shape), np.empty(x.shape)
    n = x.shape[ax]
    if nperseg is not None:
        nperseg = int(nperseg)
        if nperseg < 1:
            raise ValueError("nperseg must be a positive integer")
    if isinstance(window, (str, tuple)):
        if nperseg is None:
            nperseg = 256
        if nperseg > n:
            warnings.warn(f"nperseg = {nperseg:d} is greater than input length  = {n:d}, "
                          f"using nperseg = {n:d}", stacklevel=2)
            nperseg = n
        win = np.asarray(get_window(window, nperseg))
    else:
        win = _window_1d(window, func)
        if n < win.shape[-1]:
            raise ValueError("window is longer than input signal")
        if nperseg is None:
            nperseg = win.shape[0]
        elif nperseg != win.shape[0]:
            raise ValueError("value specified for nperseg is different from length of window")
    if noverlap is None:
        noverlap = nperseg // 8
    if nfft is None:
        nfft = nperseg
    elif nfft < nperseg:
        raise ValueError("nfft must be greater than or equal to nperseg.")
    else:
        nfft = int(nfft)
    noverlap = int(noverlap)
    if noverlap >= nperseg:
        raise ValueError("noverlap must be less than nperseg.")
    if noverlap < 0:
        raise ValueError(f"{func}: noverlap={noverlap} must not be negative")
    out_dtype = np.result_type(x, np.complex64)
    if isinstance(detrend, str) or detrend is False or detrend is None or not callable(detrend):
        dcode, dfunc = _detrend_code(detrend if detrend else False)
    else:
        user = detrend
        if ax_in != -1 and x.ndim > 1:
            def dfunc(d: np.ndarray) -> np.ndarray:
                d = np.moveaxis(d, -1, ax_in)
                d = user(d)
                return np.moveaxis(d, ax_in, -1)
        else:
            dfunc = user
        dcode = 0
    w64 = win.astype(np.float64)
    if scaling == "density":
        scale = 1.0 / (fsv * (w64 * w64).sum())
    elif scaling == "spectrum":
        scale = 1.0 / w64.sum() ** 2
    else:
        raise ValueError(f"Unknown scaling: {scaling!r}")
    _refuse_complex(x, func, "x")
    psd = mode == "psd"
    if not psd:
        scale = float(np.sqrt(scale))
    onesided = bool(return_onesided)
    xr, outer = _rows64(x, ax, np.float32 if _single(x) else np.float64)
    step = nperseg - noverlap
    res = _kernel(xr, None, win, nperseg, noverlap, nfft, dcode, dfunc, True, onesided,
                  float(scale), _AVG_NONE, _POWER if psd else _COMPLEX)
    segs = res.shape[-1]
    freqs = _freqs(nfft, fsv, onesided)
    time = np.arange(nperseg / 2, n - nperseg / 2 + 1, step) / fsv
    sxx: Any = res.reshape(outer + res.shape[1:])
    if psd:
        sxx = sxx.astype(np.empty(0, out_dtype).real.dtype, copy=False)
    else:
        sxx = sxx.astype(out_dtype, copy=False)
        if mode == "magnitude":
            sxx = np.abs(sxx)
        elif mode in ("angle", "phase"):
            sxx = np.angle(sxx)
            if mode == "phase":
                sxx = np.unwrap(sxx, axis=-2)
    sxx = np.moveaxis(sxx, -2, ax)
    del segs
    return freqs, time, sxx
