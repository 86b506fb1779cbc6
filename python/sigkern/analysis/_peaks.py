"""Peak finding (C: ``sk_find_peaks_f64``, ``sk_local_maxima_f64``, ``sk_peak_distance_select``,
``sk_peak_prominences_f64``, ``sk_peak_widths_f64``, ``sk_relextrema_f64``; Rust:
``src/kernels/analysis/peaks.rs``): ``scipy.signal``'s :func:`find_peaks`,
:func:`peak_prominences`, :func:`peak_widths`, :func:`argrelmax`, :func:`argrelmin` and
:func:`argrelextrema` (``np.greater``/``np.less`` comparators).

As scipy, the signal is converted to float64 first; the condition filtering of
:func:`find_peaks` (heights, thresholds, the order of the conditions and the returned
properties) is scipy's, each scan runs in C: without ``distance`` and with scalar conditions
:func:`find_peaks` is one C call (``sk_find_peaks_f64``)."""

from __future__ import annotations

import math
import sys
import warnings
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple

import numpy as np

from .._lib import cfunc, ffi
from ._common import _D, _fb, _norm_axis, _raise

if TYPE_CHECKING:
    from .._typing import ArrayLike

__all__ = ["find_peaks", "peak_prominences", "peak_widths", "argrelmax", "argrelmin",
           "argrelextrema", "PeakPropertyWarning"]

_find = cfunc("sk_find_peaks_f64")
_lmax = cfunc("sk_local_maxima_f64")
_dist = cfunc("sk_peak_distance_select")
_prom = cfunc("sk_peak_prominences_f64")
_wid = cfunc("sk_peak_widths_f64")
_rel = cfunc("sk_relextrema_f64")
_Z = "size_t[]"


class PeakPropertyWarning(RuntimeWarning):
    """A peak has a prominence or width of 0 (scipy's warning of the same name)."""


_BOTH: Dict[type, type] = {}


def _warn(msg: str, stacklevel: int = 3) -> None:
    # when scipy is loaded, a subclass of both warning classes (code catching scipy's
    # PeakPropertyWarning catches sigkern's and the other way round)
    mod = sys.modules.get("scipy.signal._peak_finding_utils")
    theirs = getattr(mod, "PeakPropertyWarning", None)
    cls: type = PeakPropertyWarning
    if isinstance(theirs, type) and issubclass(theirs, Warning):
        if theirs not in _BOTH:
            _BOTH[theirs] = type("PeakPropertyWarning", (PeakPropertyWarning, theirs), {})
        cls = _BOTH[theirs]
    warnings.warn(msg, cls, stacklevel=stacklevel)


def _x(value: Any) -> np.ndarray:
    v = np.asarray(value, order="C", dtype=np.float64)
    if v.ndim != 1:
        raise ValueError("`x` must be a 1-D array")
    return v


def _peaks_arg(value: Any) -> np.ndarray:
    v = np.asarray(value)
    if v.size == 0:
        v = np.array([], dtype=np.intp)
    try:
        v = v.astype(np.intp, order="C", casting="safe", subok=False, copy=False)
    except TypeError as e:
        raise TypeError("cannot safely cast `peaks` to dtype('intp')") from e
    if v.ndim != 1:
        raise ValueError("`peaks` must be a 1-D array")
    return v


def _wlen(value: Any) -> int:
    """scipy's ``wlen``: None → 0 (whole signal), else ``ceil`` of a value > 1."""
    if value is None:
        return 0
    if 1 < value:
        if isinstance(value, float):
            value = math.ceil(value)
        return int(value)
    raise ValueError(f"`wlen` must be larger than 1, was {value}")


def _uidx(a: np.ndarray) -> np.ndarray:
    """Non-negative indices as ``size_t`` (an intp array is viewed, not copied)."""
    if a.dtype == np.intp:
        return np.ascontiguousarray(a).view(np.uintp)
    return np.ascontiguousarray(a, dtype=np.uintp)


def _prominences(x: np.ndarray, peaks: np.ndarray, wlen: int, check: bool = True,
                 pick: Optional[np.ndarray] = None) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``peak_prominences`` of ``peaks``; with ``pick``, only the entries ``pick`` are returned
    (and checked for zeros). ``check=False``: the peaks are known to be indices into ``x``."""
    if check:
        bad = (peaks < 0) | (peaks >= x.size)
        if bad.any():
            raise ValueError(f"peak {peaks[bad][0]} is not a valid index for `x`")
    m = peaks.size
    prom = np.empty(m)
    lb = np.empty(m, np.uintp)
    rb = np.empty(m, np.uintp)
    zeros = ffi.new("size_t *")
    if m:
        st = _prom(_fb(_D, x), _fb(_Z, _uidx(peaks)), wlen, _fb(_D, prom, True),
                   _fb(_Z, lb, True), _fb(_Z, rb, True), zeros, x.size, m)
        if st:
            _raise(st, "sk_peak_prominences_f64")
    if pick is not None:
        prom, lb, rb = prom.take(pick), lb.take(pick), rb.take(pick)
        if zeros[0] and not (prom == 0).any():
            zeros[0] = 0
    if zeros[0]:
        _warn("some peaks have a prominence of 0")
    return prom, lb.view(np.intp), rb.view(np.intp)  # indices < x.size: the same bits


def _widths(x: np.ndarray, peaks: np.ndarray, rel_height: float, prom: Any, lb: Any,
            rb: Any, check: bool = True) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``peak_widths`` from prominence data; ``check=False``: the data come from
    :func:`_prominences` of the same ``x`` and ``peaks`` (valid by construction)."""
    if rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    if check:
        if any(d is None for d in (prom, lb, rb)):
            raise TypeError("prominence data must not hold None")
        prom = np.ascontiguousarray(prom, dtype=np.float64)
        lb = np.asarray(lb).astype(np.intp, casting="safe")
        rb = np.asarray(rb).astype(np.intp, casting="safe")
        if not (peaks.shape[0] == prom.shape[0] == lb.shape[0] == rb.shape[0]):
            raise ValueError("arrays in `prominence_data` must have the same shape as `peaks`")
        bad = ~((0 <= lb) & (lb <= peaks) & (peaks <= rb) & (rb < x.shape[0]))
        if bad.any():
            raise ValueError(f"prominence data is invalid for peak {peaks[bad][0]}")
    m = peaks.size
    outs = [np.empty(m) for _ in range(4)]
    zeros = ffi.new("size_t *")
    if m:
        st = _wid(_fb(_D, x), _fb(_Z, _uidx(peaks)), float(rel_height), _fb(_D, prom),
                  _fb(_Z, _uidx(lb)), _fb(_Z, _uidx(rb)), *(_fb(_D, o, True) for o in outs),
                  zeros, x.size, m)
        if st:
            _raise(st, "sk_peak_widths_f64")
    if zeros[0]:
        _warn("some peaks have a width of 0")
    return outs[0], outs[1], outs[2], outs[3]


def peak_prominences(x: ArrayLike, peaks: ArrayLike, wlen: Optional[float] = None
                     ) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``scipy.signal.peak_prominences`` (``sk_peak_prominences_f64``).

    Parameters
    ----------
    x : array_like, 1-D
        Signal (converted to float64).
    peaks : array_like of int
        Peak indices into ``x``.
    wlen : float, optional
        Window length in samples limiting the base search (> 1; rounded up).

    Returns
    -------
    prominences : ndarray of float64
    left_bases, right_bases : ndarray of intp

    Raises
    ------
    ValueError
        ``x`` or ``peaks`` not 1-D, an index outside ``x``, ``wlen <= 1``.
    TypeError
        Peaks that do not cast safely to intp.

    Warns
    -----
    PeakPropertyWarning
        Some prominence is 0.

    Examples
    --------
    >>> sigkern.peak_prominences([0.0, 2.0, 1.0, 3.0, 0.0], [1, 3])[0]
    array([1., 3.])
    """
    return _prominences(_x(x), _peaks_arg(peaks), _wlen(wlen))


def peak_widths(x: ArrayLike, peaks: ArrayLike, rel_height: float = 0.5,
                prominence_data: Optional[Tuple[Any, Any, Any]] = None,
                wlen: Optional[float] = None
                ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``scipy.signal.peak_widths`` (``sk_peak_widths_f64``).

    Parameters
    ----------
    x : array_like, 1-D
    peaks : array_like of int
    rel_height : float, default 0.5
        Height of the width measurement relative to the prominence (≥ 0).
    prominence_data : tuple of 3 arrays, optional
        ``peak_prominences``' output (computed when omitted, with ``wlen``).
    wlen : float, optional

    Returns
    -------
    widths, width_heights, left_ips, right_ips : ndarray of float64

    Raises
    ------
    ValueError
        As scipy: bad shapes, indices, prominence data or ``rel_height``.
    TypeError
        Peaks that do not cast safely to intp; prominence data holding None.

    Warns
    -----
    PeakPropertyWarning
        Some width is 0.

    Examples
    --------
    >>> sigkern.peak_widths([0.0, 1.0, 2.0, 3.0, 2.0, 1.0, 0.0], [3])[0]
    array([3.])
    """
    xv = _x(x)
    pk = _peaks_arg(peaks)
    if prominence_data is None:
        prominence_data = _prominences(xv, pk, _wlen(wlen))
    return _widths(xv, pk, rel_height, *prominence_data)


def _local_maxima(x: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
    cap = max(x.size // 2, 1)
    mid, left, right = (np.empty(cap, np.uintp) for _ in range(3))
    count = ffi.new("size_t *")
    st = _lmax(_fb(_D, x), _fb(_Z, mid, True), _fb(_Z, left, True), _fb(_Z, right, True),
               count, x.size, cap)
    if st:
        _raise(st, "sk_local_maxima_f64")
    c = count[0]
    # indices < x.size: viewed as intp, the same bits
    return mid[:c].view(np.intp), left[:c].view(np.intp), right[:c].view(np.intp)


def _unpack(interval: Any, x: np.ndarray, peaks: np.ndarray) -> Tuple[Any, Any]:
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    if isinstance(imin, np.ndarray):
        if imin.size != x.size:
            raise ValueError("array size of lower interval border must match x")
        imin = imin[peaks]
    if isinstance(imax, np.ndarray):
        if imax.size != x.size:
            raise ValueError("array size of upper interval border must match x")
        imax = imax[peaks]
    return imin, imax


def _by_property(values: np.ndarray, pmin: Any, pmax: Any) -> np.ndarray:
    keep = np.ones(values.size, dtype=bool)
    if pmin is not None:
        keep &= pmin <= values
    if pmax is not None:
        keep &= values <= pmax
    return keep


_SCALAR = (int, float, np.integer, np.floating)
#: find_peaks' conditions in the order of sk_find_peaks_f64's condition bits, with the
#: properties each reports (size_t outputs are intp)
_CONDS = (("plateau_size", (("plateau_sizes", True), ("left_edges", True), ("right_edges", True))),
          ("height", (("peak_heights", False),)),
          ("threshold", (("left_thresholds", False), ("right_thresholds", False))),
          ("prominence", ()),
          ("width", (("widths", False), ("width_heights", False), ("left_ips", False),
                     ("right_ips", False))))
_PROM = (("prominences", False), ("left_bases", True), ("right_bases", True))
_OUT_ORDER = ("plateau_sizes", "left_edges", "right_edges", "peak_heights", "left_thresholds",
              "right_thresholds", "prominences", "left_bases", "right_bases", "widths",
              "width_heights", "left_ips", "right_ips")


def _scalar_bounds(interval: Any) -> Optional[Tuple[Optional[float], Optional[float]]]:
    """``_unpack``'s interval when both ends are None or real scalars (as floats), else None."""
    try:
        imin, imax = interval
    except (TypeError, ValueError):
        imin, imax = (interval, None)
    ends: List[Optional[float]] = []
    for v in (imin, imax):
        if v is None:
            ends.append(None)
        elif isinstance(v, _SCALAR) and not isinstance(v, np.timedelta64):
            try:
                ends.append(float(v))
            except OverflowError:  # an int beyond double: numpy's own comparison decides
                return None
        else:
            return None
    return ends[0], ends[1]


def _find_fused(xv: np.ndarray, conds: Dict[str, Any], wlen: Optional[float],
                rel_height: float) -> Optional[Tuple[np.ndarray, Dict[str, np.ndarray]]]:
    """find_peaks in one C call (``sk_find_peaks_f64``); None when a condition is not a scalar
    interval (the caller then takes the step-by-step route)."""
    bits = 0
    bounds = np.zeros(10)
    props: Dict[str, bool] = {}  # the outputs to fill, and whether they hold indices
    for k, (name, outs) in enumerate(_CONDS):
        value = conds[name]
        if value is None:
            continue
        b = _scalar_bounds(value)
        if b is None:
            return None
        bits |= 1 << k
        for j, end in enumerate(b):
            if end is not None:
                bits |= 1 << (5 + 5 * j + k)
                bounds[2 * k + j] = end
        for key, idx in outs:
            props[key] = idx
    wl = 0
    if bits & 0b11000:
        wl = _wlen(wlen)
        for key, idx in _PROM:
            props[key] = idx
    if bits & 0b10000 and rel_height < 0:
        raise ValueError("`rel_height` must be greater or equal to 0.0")
    cap = max(xv.size // 2, 1)
    # the outputs have room for every local maximum; only the pages of the entries written are
    # ever touched, and the arrays are shrunk in place (realloc) to the peaks kept
    peaks = np.empty(cap, np.intp)
    arrs = {key: np.empty(cap, np.intp if idx else np.float64) for key, idx in props.items()}
    counts = np.empty(3, np.uintp)

    def ptr(key: str) -> Any:
        a = arrs.get(key)
        if a is None:
            return ffi.NULL
        return _fb(_Z, a.view(np.uintp), True) if a.dtype == np.intp else _fb(_D, a, True)

    st = _find(_fb(_D, xv), xv.size, bits, _fb(_D, bounds), wl, float(rel_height),
               _fb(_Z, peaks.view(np.uintp), True), *(ptr(k) for k in _OUT_ORDER),
               _fb(_Z, counts, True), cap)
    if st:
        _raise(st, "sk_find_peaks_f64")
    c = int(counts[0])
    if counts[1]:  # (the caller's caller: find_peaks' caller)
        _warn("some peaks have a prominence of 0", 4)
    if counts[2]:
        _warn("some peaks have a width of 0", 4)
    peaks.resize(c, refcheck=False)
    out: Dict[str, np.ndarray] = {}
    for key in _OUT_ORDER:  # scipy's key order
        a = arrs.get(key)
        if a is not None:
            a.resize(c, refcheck=False)
            out[key] = a
    return peaks, out


def find_peaks(x: ArrayLike, height: Any = None, threshold: Any = None,
               distance: Optional[float] = None, prominence: Any = None, width: Any = None,
               wlen: Optional[float] = None, rel_height: float = 0.5,
               plateau_size: Any = None) -> Tuple[np.ndarray, Dict[str, np.ndarray]]:
    """``scipy.signal.find_peaks``: local maxima filtered by their properties (one C call,
    ``sk_find_peaks_f64``, without ``distance`` and with scalar conditions; else C scans: local
    maxima, distance selection, prominences, widths).

    Parameters
    ----------
    x : array_like, 1-D
        Signal (converted to float64).
    height, threshold, prominence, width, plateau_size : number, array or 2-tuple, optional
        Conditions as scipy's: a minimum, or ``(min, max)`` with ``None`` for an open end;
        arrays are per sample of ``x``.
    distance : float, optional
        Minimal distance (≥ 1) between peaks; the higher peak wins.
    wlen : float, optional
        Window for the prominences.
    rel_height : float, default 0.5
        Height of the width measurement.

    Returns
    -------
    peaks : ndarray of intp
    properties : dict
        scipy's keys for the conditions given (``peak_heights``, ``left_thresholds``,
        ``right_thresholds``, ``prominences``, ``left_bases``, ``right_bases``, ``widths``,
        ``width_heights``, ``left_ips``, ``right_ips``, ``plateau_sizes``, ``left_edges``,
        ``right_edges``).

    Raises
    ------
    ValueError
        ``x`` not 1-D, ``distance < 1``, a condition array of the wrong size, ``wlen <= 1``.

    Examples
    --------
    >>> sigkern.find_peaks([0.0, 2.0, 0.0, 1.0, 0.0, 3.0, 0.0], height=1.5)[0]
    array([1, 5])
    """
    xv = _x(x)
    if distance is not None and distance < 1:
        raise ValueError("`distance` must be greater or equal to 1")
    if distance is None:
        fused = _find_fused(xv, {"plateau_size": plateau_size, "height": height,
                                 "threshold": threshold, "prominence": prominence,
                                 "width": width}, wlen, rel_height)
        if fused is not None:
            return fused
    peaks, left_edges, right_edges = _local_maxima(xv)
    maxima = peaks
    props: Dict[str, np.ndarray] = {}
    pos: Optional[np.ndarray] = None  # where `peaks` are in `maxima` (None: all of them)

    def sel(keep: np.ndarray) -> None:
        nonlocal peaks, props, pos
        if keep.all():
            return
        idx = np.flatnonzero(keep)
        peaks = peaks.take(idx)
        props = {k: a.take(idx) for k, a in props.items()}
        pos = idx if pos is None else pos.take(idx)

    if plateau_size is not None:
        sizes = right_edges - left_edges + 1
        pmin, pmax = _unpack(plateau_size, xv, peaks)
        keep = _by_property(sizes, pmin, pmax)
        props["plateau_sizes"] = sizes
        props["left_edges"] = left_edges
        props["right_edges"] = right_edges
        sel(keep)
    if height is not None:
        heights = xv[peaks]
        hmin, hmax = _unpack(height, xv, peaks)
        keep = _by_property(heights, hmin, hmax)
        props["peak_heights"] = heights
        sel(keep)
    if threshold is not None:
        tmin, tmax = _unpack(threshold, xv, peaks)
        lt = xv[peaks] - xv[peaks - 1]
        rt = xv[peaks] - xv[peaks + 1]
        keep = np.ones(peaks.size, dtype=bool)
        if tmin is not None:
            keep &= tmin <= np.minimum(lt, rt)
        if tmax is not None:
            keep &= np.maximum(lt, rt) <= tmax
        props["left_thresholds"] = lt
        props["right_thresholds"] = rt
        sel(keep)
    if distance is not None and peaks.size:
        order = np.argsort(xv[peaks])
        keep8 = np.empty(peaks.size, np.uint8)
        st = _dist(_fb(_Z, _uidx(peaks)), _fb(_Z, _uidx(order)), float(distance),
                   _fb("uint8_t[]", keep8, True), peaks.size)
        if st:
            _raise(st, "sk_peak_distance_select")
        sel(keep8.view(bool))
    if prominence is not None or width is not None:
        wl = _wlen(wlen)
        if wl == 0 and pos is not None and peaks.size:
            # over the whole signal the prominences of all the maxima take one pass (the C
            # kernel's stack over the peaks); the kept ones are picked from them
            pr, lb, rb = _prominences(xv, maxima, 0, check=False, pick=pos)
        else:
            pr, lb, rb = _prominences(xv, peaks, wl, check=False)
        props["prominences"], props["left_bases"], props["right_bases"] = pr, lb, rb
    if prominence is not None:
        pmin, pmax = _unpack(prominence, xv, peaks)
        sel(_by_property(props["prominences"], pmin, pmax))
    if width is not None:
        w = _widths(xv, peaks, rel_height, props["prominences"], props["left_bases"],
                    props["right_bases"], check=False)
        props["widths"], props["width_heights"], props["left_ips"], props["right_ips"] = w
        wmin, wmax = _unpack(width, xv, peaks)
        sel(_by_property(props["widths"], wmin, wmax))
    # an array still viewing a larger buffer (the local maxima's hold n/2 entries) is copied
    # out, so that the result does not keep the buffer alive
    return _own(peaks), {k: _own(a) for k, a in props.items()}


def _own(a: np.ndarray) -> np.ndarray:
    base = a.base
    if isinstance(base, np.ndarray) and base.nbytes > 2 * a.nbytes:
        return a.copy()
    return a


def argrelextrema(data: ArrayLike, comparator: Any, axis: int = 0, order: int = 1,
                  mode: str = "clip") -> Tuple[np.ndarray, ...]:
    """``scipy.signal.argrelextrema`` for the comparators ``np.greater`` and ``np.less``
    (``sk_relextrema_f64``; other comparators raise ``ValueError``).

    Parameters
    ----------
    data : array_like, real
    comparator : np.greater or np.less
    axis : int, default 0
    order : int, default 1
        How many samples on each side to compare with (≥ 1).
    mode : {"clip", "wrap"}, default "clip"

    Returns
    -------
    tuple of ndarray
        The indices of the extrema (``np.nonzero`` of the mask).

    Raises
    ------
    ValueError
        ``order`` not an int ≥ 1, another comparator or mode.

    Examples
    --------
    >>> sigkern.argrelextrema(np.array([1.0, 3.0, 2.0, 4.0, 1.0]), np.greater)
    (array([1, 3]),)
    """
    return _argrel(data, comparator, axis, order, mode, "argrelextrema")


def _argrel(data: Any, comparator: Any, axis: Any, order: Any, mode: Any,
            func: str) -> Tuple[np.ndarray, ...]:
    if (int(order) != order) or (order < 1):
        raise ValueError("Order must be an int >= 1")
    if comparator is np.greater:
        greater = 1
    elif comparator is np.less:
        greater = 0
    else:
        raise ValueError(f"{func}: sigkern supports the comparators np.greater and np.less")
    if mode not in ("clip", "wrap"):
        raise ValueError(f"{func}: mode must be 'clip' or 'wrap', got {mode!r}")
    a = np.asarray(data)
    if a.dtype.kind == "c":
        raise TypeError(f"{func}: data must be real")
    ax = _norm_axis(axis, a.ndim, func)
    m = np.moveaxis(a, ax, -1)
    rows = np.ascontiguousarray(m, dtype=np.float64).reshape(-1, m.shape[-1])
    mask = np.zeros(rows.shape, np.uint8)
    if rows.size:
        st = _rel(_fb(_D, rows), int(order), greater, 1 if mode == "wrap" else 0,
                  _fb("uint8_t[]", mask, True), rows.shape[0], rows.shape[1])
        if st:
            _raise(st, "sk_relextrema_f64")
    res = np.moveaxis(mask.reshape(m.shape).astype(bool), -1, ax)
    return tuple(np.nonzero(res))


def argrelmax(data: ArrayLike, axis: int = 0, order: int = 1, mode: str = "clip") -> Tuple[np.ndarray, ...]:
    """``scipy.signal.argrelmax``: indices of relative maxima (``sk_relextrema_f64``).

    Parameters
    ----------
    data : array_like, real
    axis : int, default 0
    order : int, default 1
    mode : {"clip", "wrap"}, default "clip"

    Returns
    -------
    tuple of ndarray
        One index array per axis of ``data``.

    Raises
    ------
    ValueError
        ``order`` not an int ≥ 1, a bad mode.

    Examples
    --------
    >>> sigkern.argrelmax(np.array([1.0, 3.0, 2.0, 4.0, 1.0]))
    (array([1, 3]),)
    """
    return _argrel(data, np.greater, axis, order, mode, "argrelmax")


def argrelmin(data: ArrayLike, axis: int = 0, order: int = 1, mode: str = "clip") -> Tuple[np.ndarray, ...]:
    """``scipy.signal.argrelmin``: indices of relative minima (``sk_relextrema_f64``).

    Parameters
    ----------
    data : array_like, real
    axis : int, default 0
    order : int, default 1
    mode : {"clip", "wrap"}, default "clip"

    Returns
    -------
    tuple of ndarray
        One index array per axis of ``data``.

    Raises
    ------
    ValueError
        ``order`` not an int ≥ 1, a bad mode.

    Examples
    --------
    >>> sigkern.argrelmin(np.array([1.0, 3.0, 2.0, 4.0, 1.0]))
    (array([2]),)
    """
    return _argrel(data, np.less, axis, order, mode, "argrelmin")
