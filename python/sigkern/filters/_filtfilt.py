"""Zero-phase filtering (C: ``sk_filtfilt_*``, ``sk_sosfiltfilt_*``; Rust:
``src/kernels/filter/filtfilt.rs``): ``scipy.signal``'s :func:`filtfilt` and
:func:`sosfiltfilt`."""

from __future__ import annotations

import math
from typing import Literal, TYPE_CHECKING, Any, Optional, Tuple

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import CARRAY, F32, F64, SFX
from .._errors import error
from .._lib import cfunc, lib
from ._common import _complex_tensor, _copy_out, _fb, _is_complex, _planar_in, _signal, _split_complex
from ._lfilter import _ba
from ._sos import _sos_array

if TYPE_CHECKING:
    from .._typing import Array, ArrayLike, FloatArray, FiltfiltPad

__all__ = ["filtfilt", "sosfiltfilt"]

_filtfilt = {F32: cfunc("sk_filtfilt_f32"), F64: cfunc("sk_filtfilt_f64")}
_sosfiltfilt = {F32: cfunc("sk_sosfiltfilt_f32"), F64: cfunc("sk_sosfiltfilt_f64")}
_PADTYPE = {
    "odd": lib.SK_PADTYPE_ODD,
    "even": lib.SK_PADTYPE_EVEN,
    "constant": lib.SK_PADTYPE_CONSTANT,
    None: lib.SK_PADTYPE_NONE,
}


def _pad_args(padtype: Any, padlen: Any, func: str) -> Tuple[int, int]:
    if padtype not in _PADTYPE:
        raise ValueError(f"{func}: padtype must be 'odd', 'even', 'constant' or None, got {padtype!r}")
    if padlen is None:
        return _PADTYPE[padtype], -1
    p = A.index(padlen, func, "padlen")
    if p < 0:
        raise ValueError(f"{func}: padlen must be >= 0, got {p}")
    return _PADTYPE[padtype], p


def _zero_phase(func: str, cname: str, call: Any, x: Any, axis: Any, out: Any) -> Any:
    ct = _complex_tensor(lambda v: _zero_phase(func, cname, call, v, axis, out), x)
    if ct is not None:
        return ct
    x = _signal(x, func)
    ax = A.axis(axis, len(x.shape), func)
    nd = len(x.shape)
    if _is_complex(x):
        if out is not None:
            raise TypeError(f"{func}: out= is not supported with complex data")
        return _split_complex(lambda p, z: _zero_phase(func, cname, call, p, ax + 1, None), x, None)
    dt = A.float_dtype(x, func, "x")
    if out is not None:
        A.check_out(out, tuple(x.shape), dt, func)
    if ax != nd - 1:
        y = A.move_copy(_zero_phase(func, cname, call, A.move_copy(x, ax, -1), -1, None), -1, ax)
        return y if out is None else _copy_out(out, y, dt, func)
    shape = tuple(x.shape)
    channels = math.prod(shape[:-1])
    if out is None:
        out = B.new_like(x, shape, dt)
    if channels == 0:
        return out
    x, px, sx = _planar_in(x, dt, func)
    py, sy = B.planar(out, dt, func, "out", writable=True)
    st = call(dt, px, sx, channels, py, sy, shape[-1])
    if st:
        raise error(st, f"{cname}_{SFX[dt]}")
    return out


def _filtfilt_gust(b: np.ndarray, a: np.ndarray, x: np.ndarray, axis: int, irlen: Optional[int]) -> Any:
    """scipy's ``_filtfilt_gust`` (Gustafsson's method: the initial conditions of both passes
    chosen so forward-backward equals backward-forward, by least squares) over
    :func:`sigkern.lfilter`."""
    from ._lfilter import _lfilter_any as lfilter

    order = max(len(b), len(a)) - 1
    if order == 0:
        return ((b[0] / a[0]) ** 2) * x
    x = np.swapaxes(x, axis, x.ndim - 1)
    n = x.shape[-1]
    m = n if irlen is None or n <= 2 * irlen else irlen
    obs = np.zeros((m, order))
    zi = np.zeros(order)
    zi[0] = 1
    obs[:, 0] = lfilter(b, a, np.zeros(m), zi=zi)[0]
    for k in range(1, order):
        obs[k:, k] = obs[:-k, 0]
    obsr = obs[::-1]
    s = lfilter(b, a, obs[::-1], axis=0)
    sr = s[::-1]
    if m == n:
        mm = np.hstack((sr - obs, obsr - s))
    else:
        mm = np.zeros((2 * m, 2 * order))
        mm[:m, :order] = sr - obs
        mm[m:, order:] = obsr - s
    y_f = lfilter(b, a, x)
    y_fb = lfilter(b, a, y_f[..., ::-1])[..., ::-1]
    y_b = lfilter(b, a, x[..., ::-1])[..., ::-1]
    y_bf = lfilter(b, a, y_b)
    d = y_bf - y_fb
    delta = d if m == n else np.concatenate((d[..., :m], d[..., -m:]), axis=-1)
    if delta.ndim == 1:
        ic = np.linalg.lstsq(mm, delta, rcond=None)[0]
    else:
        ic = np.linalg.lstsq(mm, delta.reshape(-1, delta.shape[-1]).T, rcond=None)[0].T
        ic = ic.reshape(delta.shape[:-1] + (mm.shape[-1],))
    if m == n:
        w = np.hstack((sr, obsr))
    else:
        w = np.zeros((2 * m, 2 * order))
        w[:m, :order] = sr
        w[m:, order:] = obsr
    wic = ic.dot(w.T)
    y = np.array(y_fb)
    if m == n:
        y += wic
    else:
        y[..., :m] += wic[..., :m]
        y[..., -m:] += wic[..., -m:]
    return np.ascontiguousarray(np.swapaxes(y, axis, x.ndim - 1))


def filtfilt(b: ArrayLike, a: ArrayLike, x: ArrayLike, axis: int = -1, padtype: FiltfiltPad = "odd",
             padlen: Optional[int] = None, method: Literal["pad", "gust"] = "pad", irlen: Optional[int] = None,
             out: Optional[Array] = None) -> FloatArray:
    """Zero-phase filtering (forward, then backward), like ``scipy.signal.filtfilt(b, a, x,
    axis, padtype, padlen)`` with ``method='pad'`` (C: ``sk_filtfilt_f32/f64``).

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator coefficients (handled in float64).
    x : ndarray or Tensor, float32 or float64
        The signal; time along ``axis``, any other axes are channels.
    axis : int, default -1
        The time axis.
    padtype : {"odd", "even", "constant", None}, default "odd"
        How the signal is extended at both ends (None: not extended).
    padlen : int, optional
        Samples of extension at each end; default ``3 * max(len(a), len(b))``. ``x`` must be
        longer than ``padlen``.
    method : {"pad", "gust"}
        ``"gust"``: Gustafsson's method (no padding; initial conditions chosen so that
        forward-backward and backward-forward filtering agree), computed as scipy computes it,
        over :func:`lfilter`.
    irlen : int, optional
        ``method="gust"``: the length of the impulse response considered (scipy's).
    out : ndarray or Tensor, optional
        An output of ``x``'s shape and dtype, or ``x`` itself (in place); saves allocating
        the result.

    Returns
    -------
    ndarray or Tensor of ``x``'s shape and dtype (``out`` when given)

    Raises
    ------
    LengthError
        ``x`` is not longer than ``padlen``.

    Notes
    -----
    Both passes start from ``lfilter_zi`` scaled by the first sample, as scipy.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.1)
    >>> y = sigkern.filtfilt(b, a, np.random.default_rng(0).standard_normal((2, 1000)))
    """
    func = "filtfilt"
    if method not in ("pad", "gust"):
        raise ValueError(f"{func}: method must be 'pad' or 'gust', got {method!r}")
    bb, aa = _ba(b, a, func)
    if method == "gust":
        xg = np.asarray(x.detach().cpu().numpy() if A.is_tensor(x) else _signal(x, func))
        ax = A.axis(axis, xg.ndim, func)
        y: Any = _filtfilt_gust(bb, aa, xg, ax, None if irlen is None else A.index(irlen, func, "irlen"))
        if A.is_tensor(x):
            y = A._torch().from_numpy(np.ascontiguousarray(y))
        if out is not None:
            y = _copy_out(out, y, A.float_dtype(y, func, "y"), func)
        gust: FloatArray = y
        return gust
    pt, pl = _pad_args(padtype, padlen, func)
    B_, A_ = _fb(CARRAY[F64], bb), _fb(CARRAY[F64], aa)

    def call(dt: Any, px: Any, sx: int, ch: int, py: Any, sy: int, n: int) -> int:
        ret: int = _filtfilt[dt](B_, A_, px, sx, pt, pl, ch, py, sy, bb.size, aa.size, n)
        return ret

    ret: FloatArray = _zero_phase(func, "sk_filtfilt", call, x, axis, out)
    return ret


def sosfiltfilt(sos: ArrayLike, x: ArrayLike, axis: int = -1, padtype: FiltfiltPad = "odd",
                padlen: Optional[int] = None, out: Optional[Array] = None) -> FloatArray:
    """Zero-phase filtering with second-order sections, like ``scipy.signal.sosfiltfilt(sos, x,
    axis, padtype, padlen)`` (C: ``sk_sosfiltfilt_f32/f64``): scipy's padding and
    ``sosfilt_zi`` initial conditions.

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Second-order sections ``b0 b1 b2 a0 a1 a2`` (handled in float64).
    x : ndarray or Tensor, float32 or float64
        The signal; time along ``axis``, any other axes are channels.
    axis : int, default -1
        The time axis.
    padtype : {"odd", "even", "constant", None}, default "odd"
        How the signal is extended at both ends (None: not extended).
    padlen : int, optional
        Samples of extension at each end; default from scipy's ``ntaps``.
    out : ndarray or Tensor, optional
        An output of ``x``'s shape and dtype, or ``x`` itself (in place); saves allocating
        the result.

    Returns
    -------
    ndarray or Tensor of ``x``'s shape and dtype (``out`` when given)

    Raises
    ------
    BadArgumentError
        A section with a pole outside the unit circle.

    Examples
    --------
    >>> sos = sigkern.butter(8, 0.1, output="sos")
    >>> y = sigkern.sosfiltfilt(sos, np.random.default_rng(0).standard_normal((16, 48000)))
    """
    func = "sosfiltfilt"
    s = _sos_array(sos, func)
    pt, pl = _pad_args(padtype, padlen, func)
    S = _fb(CARRAY[F64], s)

    def call(dt: Any, px: Any, sx: int, ch: int, py: Any, sy: int, n: int) -> int:
        ret: int = _sosfiltfilt[dt](S, px, sx, pt, pl, ch, py, sy, s.shape[0], n)
        return ret

    ret: FloatArray = _zero_phase(func, "sk_sosfiltfilt", call, x, axis, out)
    return ret
