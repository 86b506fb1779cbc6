"""Filters: second-order sections (biquad cascades), transfer-function IIR filters, zero-phase
filtering, streaming FIR, filter design (C: ``sk_sosfilt_*``, ``sk_biquad_*``, ``sk_lfilter_*``,
``sk_filtfilt_*``, ``sk_sosfiltfilt_*``, ``sk_fir_*``, ``sk_butter_sos``, ``sk_firwin_bands``,
``sk_rbj_biquad``).

Names and defaults follow scipy.signal: :func:`sosfilt`, :func:`lfilter`, :func:`filtfilt`,
:func:`sosfiltfilt`, :func:`lfilter_zi`, :func:`sosfilt_zi`, :func:`butter`, :func:`firwin`.
Stateful filters are objects over a C handle: :class:`Biquad` (alias :class:`SosFilter`) for
multi-channel SOS cascades, :class:`Fir` for one FIR stream. Signals are float32 or float64
numpy arrays or CPU torch tensors; the last axis is time, leading axes are channels. Filter
coefficients are always handled in float64 (float32 filters round them once, after
normalisation). Each section of an SOS array is ``b0 b1 b2 a0 a1 a2`` (scipy's layout); it is
divided by its ``a0``, and sections with a pole outside the unit circle (poles on it are
accepted, as in scipy), NaN/inf
coefficients or ``a0 == 0`` are refused (:class:`BadArgumentError`).

The filters run in transposed direct form II, like ``scipy.signal.sosfilt``; processing a
signal in chunks of any sizes gives exactly the output of one call.
"""

from __future__ import annotations

import math
import operator
from typing import Any, Optional, Tuple, Union

import numpy as np

from . import _buffers as B
from ._buffers import F32, F64, ndarray
from ._errors import InvalidHandleError, error, status_name
from ._lib import cfunc, ffi, lib
from ._handle import Handle

__all__ = [
    "sosfilt",
    "lfilter",
    "lfilter_zi",
    "sosfilt_zi",
    "filtfilt",
    "sosfiltfilt",
    "Lfilter",
    "butter",
    "firwin",
    "rbj_biquad",
    "Biquad",
    "SosFilter",
    "Fir",
]

_fb = ffi.from_buffer

_sosfilt = {F32: cfunc("sk_sosfilt_f32"), F64: cfunc("sk_sosfilt_f64")}
_butter_sections = cfunc("sk_butter_sections")
_butter_sos = cfunc("sk_butter_sos")
_firwin_bands = cfunc("sk_firwin_bands")
_PASS_ZERO = {
    "lowpass": lib.SK_PASS_ZERO_LOWPASS,
    "highpass": lib.SK_PASS_ZERO_HIGHPASS,
    "bandpass": lib.SK_PASS_ZERO_BANDPASS,
    "bandstop": lib.SK_PASS_ZERO_BANDSTOP,
}
_rbj = cfunc("sk_rbj_biquad")

_bq_new = {F32: cfunc("sk_biquad_f32_new"), F64: cfunc("sk_biquad_f64_new")}
_bq_reset = cfunc("sk_biquad_reset")
_bq_info = cfunc("sk_biquad_info")
_bq_process = {F32: cfunc("sk_biquad_f32_process"), F64: cfunc("sk_biquad_f64_process")}
_bq_process_il = {
    F32: cfunc("sk_biquad_f32_process_interleaved"),
    F64: cfunc("sk_biquad_f64_process_interleaved"),
}
_bq_get = {F32: cfunc("sk_biquad_f32_get_state"), F64: cfunc("sk_biquad_f64_get_state")}
_bq_set = {F32: cfunc("sk_biquad_f32_set_state"), F64: cfunc("sk_biquad_f64_set_state")}

_fir_new = {F32: cfunc("sk_fir_f32_new"), F64: cfunc("sk_fir_f64_new")}
_fir_reset = cfunc("sk_fir_reset")
_fir_info = cfunc("sk_fir_info")
_fir_process = {F32: cfunc("sk_fir_f32_process"), F64: cfunc("sk_fir_f64_process")}
_fir_get = {F32: cfunc("sk_fir_f32_get_state"), F64: cfunc("sk_fir_f64_get_state")}
_fir_set = {F32: cfunc("sk_fir_f32_set_state"), F64: cfunc("sk_fir_f64_set_state")}

_SFX = {F32: "f32", F64: "f64"}
_ARR = {F32: ffi.typeof("float[]"), F64: ffi.typeof("double[]")}  # ctype objects: no parsing per call
_PTR = {F32: ffi.typeof("float *"), F64: ffi.typeof("double *")}

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def _float_dtype_arg(dtype: Any, func: str) -> np.dtype:
    """np.float32/np.float64 (or "float32", torch.float32, ...) → F32/F64, else TypeError."""
    ti = B.torch_info()
    if ti is not None and (dtype is ti[1] or dtype is ti[2]):
        return F32 if dtype is ti[1] else F64
    try:
        dt = np.dtype(dtype)
    except TypeError:
        dt = None
    if dt == F32:
        return F32
    if dt == F64:
        return F64
    raise TypeError(f"{func}: dtype must be np.float32 or np.float64, got {dtype!r}")


def _coefs(c: Any, func: str, name: str, dtype: np.dtype = F64) -> np.ndarray:
    """Filter coefficients (array-like, numpy array or tensor) as a C-contiguous numpy copy."""
    if B.is_tensor(c):
        c = c.detach().cpu().numpy()
    try:
        a = np.array(c, dtype=dtype, order="C")
    except (TypeError, ValueError) as e:
        raise TypeError(f"{func}: {name} must be an array of real numbers, got {B.describe(c)}") from e
    return a


def _sos_array(sos: Any, func: str) -> np.ndarray:
    a = _coefs(sos, func, "sos")
    if a.ndim != 2 or a.shape[1] != 6 or a.shape[0] < 1:
        raise ValueError(
            f"{func}: sos must have shape (n_sections, 6) with n_sections >= 1 "
            f"(rows b0 b1 b2 a0 a1 a2, as scipy.signal.butter(..., output='sos')), got shape {a.shape}"
        )
    return a


def _estrides(x: Any) -> Tuple[int, ...]:
    if isinstance(x, np.ndarray):
        return tuple(s // x.itemsize if s % x.itemsize == 0 else -(1 << 62) for s in x.strides)
    return tuple(int(s) for s in x.stride())


def _planar(x: Any, dt: np.dtype, func: str, name: str, writable: bool = False):
    """(pointer, channel stride in elements) of planar data: a C-contiguous array of any ndim
    (channels = leading axes, stride = last dimension), or a 2-D (channels, n) view whose rows
    are contiguous at a positive row stride (a time slice ``x[:, t0:t1]`` of a bigger block)."""
    shape = tuple(x.shape)
    n = shape[-1] if shape else 1
    dense = isinstance(x, np.ndarray) or (x.layout is B.torch_info()[3] and x.device.type == "cpu")
    if len(shape) == 2 and shape[0] > 1 and shape[1] > 0 and dense and B.dtype_of(x) == dt:
        s0, s1 = _estrides(x)
        if s1 == 1 and s0 > shape[1]:
            p, _ = B.pointer(x[0], dt, func, name, writable=writable)
            return p, s0
    p, _ = B.pointer(x, dt, func, name, writable=writable)
    return p, n


def _row_ptr(a: np.ndarray, ct: Any, writable: bool) -> tuple:
    """Fast path of :func:`_planar` for a 2-D numpy view with contiguous rows at a positive
    row stride (ValueError otherwise: the checked path then says what is wrong)."""
    s0, s1 = a.strides
    isz = a.itemsize
    if a.ndim != 2 or s1 != isz or s0 <= 0 or s0 % isz or not a.shape[1]:
        raise ValueError
    return _fb(ct, a[0], writable), s0 // isz


def _is_block(shape: tuple, channels: int) -> bool:
    """Whether ``shape`` is a planar block of ``channels`` rows: ``(channels, n)``, or ``(n,)``
    for one channel."""
    return (len(shape) == 2 and shape[0] == channels) or (len(shape) == 1 and channels == 1)


def _block_ptr(a: np.ndarray, ct: Any, writable: bool = False) -> tuple:
    """(pointer, row stride in elements) of a numpy block that is C-contiguous or a time slice
    ``a[:, t0:t1]`` of a bigger block; ValueError otherwise (another layout, or read-only when
    ``writable``): the checked path then says what is wrong."""
    if a.flags.c_contiguous:
        return _fb(ct, a, writable), a.shape[-1]
    return _row_ptr(a, ct, writable)


def _block_io(x: np.ndarray, out: Any, dt: np.dtype, ct: Any) -> Optional[tuple]:
    """The fast path's pointers of a planar numpy block ``x`` and of its output (``out`` of
    ``x``'s shape and dtype ``dt``, or a new array): ``(px, x_stride, y, py, y_stride)``; None
    where the checked path must decide (another layout, a read-only or mismatched ``out``)."""
    # (_block_ptr written out: this runs on every block, and each call level costs)
    try:
        if x.flags.c_contiguous:
            px, sx = _fb(ct, x), x.shape[-1]
        else:
            px, sx = _row_ptr(x, ct, False)
        if out is None:
            y = np.empty(x.shape, dt)
            return px, sx, y, _fb(ct, y), x.shape[-1]
        if type(out) is ndarray and out.dtype is dt and out.shape == x.shape:
            if out.flags.c_contiguous:
                return px, sx, out, _fb(ct, out, True), x.shape[-1]
            return (px, sx, out) + _row_ptr(out, ct, True)
    except ValueError:
        pass
    return None


def _closed_error(code: int, cname: str, what: str) -> InvalidHandleError:
    return InvalidHandleError(
        code, status_name(code), f"{what} is closed (close() was called); create a new one", cname
    )


# ---------------------------------------------------------------------------------------------
# sosfilt
# ---------------------------------------------------------------------------------------------


def sosfilt(
    sos: Any,
    x: Any,
    axis: int = -1,
    zi: Optional[Any] = None,
    out: Optional[Any] = None,
) -> Union[Any, Tuple[Any, Any]]:
    """Filters ``x`` along an axis with a cascade of second-order sections, like
    ``scipy.signal.sosfilt(sos, x, axis, zi)`` (C: ``sk_sosfilt_f32/f64``).

    All channels (every index of the other axes) are filtered in one C call, in SIMD lanes.

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``b0 b1 b2 a0 a1 a2`` (float64; e.g. from :func:`butter` with
        ``output="sos"``). Each section is divided by its ``a0``; unstable sections raise
        :class:`BadArgumentError`.
    x : ndarray or Tensor, float32 or float64, ndim >= 1
        The signal; ``axis`` is time. C-contiguous, or a 2-D ``(channels, n)`` view with
        contiguous rows (``x[:, t0:t1]``) when ``axis=-1``.
    axis : int, default -1
        Time axis. Another axis than the last is moved last (a copy) and back.
    zi : array_like, optional
        Initial state, scipy's shape: ``(n_sections, *x.shape)`` with the length of ``axis``
        replaced by 2, i.e. ``(n_sections, ..., 2)`` for ``axis=-1`` (e.g.
        ``sosfilt_zi(sos)[:, None, :] * x[:, :1]`` for ``(channels, n)`` data); ``x``'s dtype
        (a list is converted).
    out : ndarray or Tensor, optional
        Output of ``x``'s shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

    Returns
    -------
    y : ndarray or Tensor
        Filtered signal, shape and dtype of ``x`` (``out`` if given).
    zf : ndarray or Tensor
        Final state, the shape of ``zi``; returned only when ``zi`` is given.

    Raises
    ------
    TypeError
        ``x``, ``zi`` or ``out`` of a wrong dtype or kind.
    ValueError
        Wrong shapes, non-contiguous data; :class:`BadArgumentError` for an unstable or
        non-finite ``sos``; :class:`NonFiniteError` for a NaN/inf ``zi``.

    Examples
    --------
    >>> sos = sigkern.butter(4, 1000.0, "low", fs=48000.0, output="sos")
    >>> x = np.random.default_rng(0).standard_normal((2, 4800)).astype(np.float32)
    >>> y = sigkern.sosfilt(sos, x)
    >>> y, zf = sigkern.sosfilt(sos, x, zi=np.zeros((2, 2, 2), np.float32))
    """
    func = "sosfilt"
    sos_a = _sos_array(sos, func)
    ns = sos_a.shape[0]
    x = B.as_input(x, func, "x")
    dt = B.float_dtype(x, func, "x")
    nd = len(x.shape)
    if nd == 0:
        raise ValueError(f"{func}: x must have at least one dimension (time), got a scalar")
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"{func}: axis must be an int, got {axis!r}") from None
    if not -nd <= ax < nd:
        raise ValueError(f"{func}: axis {axis} is out of range for x of shape {tuple(x.shape)}")
    ax %= nd
    if ax != nd - 1:
        is_t = B.is_tensor(x)
        xm = x.movedim(ax, -1).contiguous() if is_t else np.ascontiguousarray(np.moveaxis(x, ax, -1))
        if out is not None:
            B.check_out(out, tuple(x.shape), dt, func)
        zim = None
        if zi is not None:  # scipy's zi has its 2 where x has the time axis
            if not (isinstance(zi, np.ndarray) or B.is_tensor(zi)):
                zi = np.asarray(zi, dtype=dt)
            zshape = (sos_a.shape[0],) + tuple(x.shape[:ax]) + (2,) + tuple(x.shape[ax + 1:])
            if tuple(zi.shape) != zshape:
                raise ValueError(
                    f"{func}: zi must have shape (n_sections, *x.shape with axis {axis} -> 2) = "
                    f"{zshape}, got {tuple(zi.shape)}"
                )
            zim = zi.movedim(ax + 1, -1).contiguous() if is_t else np.ascontiguousarray(np.moveaxis(zi, ax + 1, -1))
        res = sosfilt(sos_a, xm, -1, zim, None)
        ym = res[0] if zi is not None else res
        yb = ym.movedim(-1, ax) if is_t else np.moveaxis(ym, -1, ax)
        if out is None:
            out = yb.contiguous() if is_t else np.ascontiguousarray(yb)
        else:
            out = _copy_out(out, yb, dt, func)
        if zi is None:
            return out
        zf = res[1].movedim(-1, ax + 1).contiguous() if is_t else np.ascontiguousarray(np.moveaxis(res[1], -1, ax + 1))
        return out, zf

    shape = tuple(x.shape)
    lead = shape[:-1]
    n = shape[-1]
    channels = math.prod(lead)
    zshape = (ns,) + lead + (2,)
    if out is None:
        out = B.new_like(x, shape, dt)
    else:
        B.check_out(out, shape, dt, func)
    px, sx = _planar(x, dt, func, "x")
    py, sy = _planar(out, dt, func, "out", writable=True)
    zf = None
    pzi = pzf = ffi.NULL
    if zi is not None:
        if not (isinstance(zi, np.ndarray) or B.is_tensor(zi)):
            zi = np.asarray(zi, dtype=dt)
        if tuple(zi.shape) != zshape:
            raise ValueError(
                f"{func}: zi must have shape (n_sections, *x.shape without axis, 2) = {zshape}, "
                f"got {tuple(zi.shape)}"
            )
        pzi, _ = B.pointer(zi, dt, func, "zi")
        zf = B.new_like(x, zshape, dt)
        pzf, _ = B.pointer(zf, dt, func, "zf", writable=True)
    if channels == 0:
        if zf is not None:
            zf[...] = zi
        return (out, zf) if zi is not None else out
    st = _sosfilt[dt](_fb(_ARR[F64], sos_a), px, sx, pzi, channels, py, sy, pzf, ns, n)
    if st:
        raise error(st, f"sk_sosfilt_{_SFX[dt]}")
    return (out, zf) if zi is not None else out


# ---------------------------------------------------------------------------------------------
# Design
# ---------------------------------------------------------------------------------------------

_BTYPES = {
    "lowpass": lib.SK_BAND_LOWPASS,
    "low": lib.SK_BAND_LOWPASS,
    "lp": lib.SK_BAND_LOWPASS,
    "l": lib.SK_BAND_LOWPASS,
    "highpass": lib.SK_BAND_HIGHPASS,
    "high": lib.SK_BAND_HIGHPASS,
    "hp": lib.SK_BAND_HIGHPASS,
    "h": lib.SK_BAND_HIGHPASS,
    "bandpass": lib.SK_BAND_BANDPASS,
    "band": lib.SK_BAND_BANDPASS,
    "pass": lib.SK_BAND_BANDPASS,
    "bp": lib.SK_BAND_BANDPASS,
    "bandstop": lib.SK_BAND_BANDSTOP,
    "stop": lib.SK_BAND_BANDSTOP,
    "bands": lib.SK_BAND_BANDSTOP,
    "bs": lib.SK_BAND_BANDSTOP,
}
_TWO_EDGES = (lib.SK_BAND_BANDPASS, lib.SK_BAND_BANDSTOP)


def butter(
    N: int,
    Wn: Any,
    btype: str = "low",
    analog: bool = False,
    output: str = "ba",
    fs: Optional[float] = None,
) -> Any:
    """Digital Butterworth filter design, like ``scipy.signal.butter`` (C: ``sk_butter_sos``,
    equal to scipy's ``output='sos'`` within about 1e-12 relative).

    Parameters
    ----------
    N : int
        Order, 0 to 64 (0 is the identity filter, as in scipy).
    Wn : float or pair of floats
        Corner frequency (low/high-pass) or ``[low, high]`` edges (band-pass/stop), in the units
        of ``fs``; without ``fs``, normalised to the Nyquist frequency (strictly between 0 and 1).
    btype : {"lowpass", "highpass", "bandpass", "bandstop"}, default "low"
        scipy's aliases are accepted too ("low", "high", "band", "stop", "lp", "hp", "bp", "bs").
    analog : bool, default False
        Only digital filters: ``True`` raises ``NotImplementedError``.
    output : {"ba", "sos"}, default "ba"
        "sos": ``(n_sections, 6)`` float64 sections (the form to filter with: :func:`sosfilt`,
        :class:`Biquad`). "ba": numerator and denominator polynomials, float64 1-D, multiplied
        out from the sections (numerically poor for high orders, as in scipy). "zpk" raises
        ``NotImplementedError``.
    fs : float, optional
        Sampling frequency.

    Returns
    -------
    sos : ndarray, shape (n_sections, 6), float64 — for ``output="sos"``
    (b, a) : tuple of ndarray, float64 — for ``output="ba"`` (``a[0] == 1``)

    Raises
    ------
    ValueError
        Unknown ``btype``, a wrong number of frequencies, a bad order;
        :class:`BadArgumentError` for frequencies outside (0, fs/2) or unordered edges.
    NotImplementedError
        ``analog=True`` or ``output="zpk"``.

    Examples
    --------
    >>> sos = sigkern.butter(8, 1000.0, "low", fs=48000.0, output="sos")
    >>> sos.shape
    (4, 6)
    >>> b, a = sigkern.butter(2, [0.1, 0.4], "bandpass")
    """
    func = "butter"
    if analog:
        raise NotImplementedError(f"{func}: only digital filters (analog=False) are supported")
    if output not in ("ba", "sos"):
        if output == "zpk":
            raise NotImplementedError(
                f"{func}: output='zpk' is not supported; use output='sos' (recommended) or 'ba'"
            )
        raise ValueError(f"{func}: output must be 'ba' or 'sos', got {output!r}")
    try:
        band = _BTYPES[btype.lower()] if isinstance(btype, str) else None
    except KeyError:
        band = None
    if band is None:
        raise ValueError(
            f"{func}: unknown btype {btype!r}; use 'lowpass', 'highpass', 'bandpass' or 'bandstop'"
        )
    try:
        order = operator.index(N)
    except TypeError:
        raise TypeError(f"{func}: N must be an int, got {N!r}") from None
    if not 0 <= order <= 64:
        raise ValueError(f"{func}: N must be between 0 and 64, got {order}")
    w = np.atleast_1d(np.asarray(Wn, dtype=np.float64))
    if w.ndim != 1 or w.size != (2 if band in _TWO_EDGES else 1):
        want = "two frequencies [low, high]" if band in _TWO_EDGES else "one frequency"
        raise ValueError(f"{func}: btype {btype!r} needs {want} in Wn, got {Wn!r}")
    f1 = float(w[0])
    f2 = float(w[1]) if w.size == 2 else 0.0
    fsv = 2.0 if fs is None else float(fs)
    nsec = _butter_sections(order, band)
    sos = np.empty((nsec, 6), np.float64)
    cnt = ffi.new("size_t *")
    st = _butter_sos(order, band, f1, f2, fsv, _fb("double[]", sos, True), cnt, sos.size)
    if st:
        raise error(st, "sk_butter_sos")
    if output == "sos":
        return sos
    b = np.ones(1)
    a = np.ones(1)
    for s in sos:
        b = np.convolve(b, s[:3])
        a = np.convolve(a, s[3:])
    m = (2 * order + 1) if band in _TWO_EDGES else (order + 1)
    return b[:m], a[:m]


def _kaiser_beta_for(numtaps: int, width: float) -> float:
    """scipy.signal.kaiser_beta(kaiser_atten(numtaps, width)), ``width`` relative to Nyquist."""
    a = 2.285 * (numtaps - 1) * np.pi * width + 7.95
    if a > 50:
        return 0.1102 * (a - 8.7)
    if a > 21:
        return 0.5842 * (a - 21) ** 0.4 + 0.07886 * (a - 21)
    return 0.0


def firwin(
    numtaps: int,
    cutoff: Any,
    *,
    width: Optional[float] = None,
    window: Any = "hamming",
    pass_zero: Union[bool, str] = True,
    scale: bool = True,
    fs: Optional[float] = None,
) -> np.ndarray:
    """Windowed-sinc linear-phase FIR design, like ``scipy.signal.firwin`` with every option
    (C: ``sk_firwin_bands``, equal to scipy within about 1e-14 of the largest tap).

    Parameters
    ----------
    numtaps : int
        Number of taps (>= 1; odd when the filter passes the Nyquist frequency, as in scipy).
    cutoff : float or 1-D array_like
        Band edges in the units of ``fs`` (without ``fs``: relative to Nyquist), strictly
        increasing, strictly between 0 and Nyquist; any number of them (multi-band filters).
    width : float, optional
        Transition width: if given, a Kaiser window with scipy's
        ``kaiser_beta(kaiser_atten(numtaps, width / nyq))`` replaces ``window``.
    window : str, tuple or float, default "hamming"
        Any window of :func:`sigkern.get_window` (scipy's names and parameters; symmetric form).
    pass_zero : bool or {"lowpass", "highpass", "bandpass", "bandstop"}, default True
        True: DC is in the first pass band; the names also check the number of cutoffs.
    scale : bool, default True
        Unit gain at DC, Nyquist or the centre of the first pass band, as scipy.
    fs : float, optional
        Sampling frequency.

    Returns
    -------
    taps : ndarray, shape (numtaps,), float64

    Examples
    --------
    >>> h = sigkern.firwin(63, 1000.0, fs=48000.0)
    >>> h = sigkern.firwin(101, [300.0, 3400.0], pass_zero=False, window=("kaiser", 8.0), fs=16000.0)
    """
    func = "firwin"
    try:
        nt = operator.index(numtaps)
    except TypeError:
        raise TypeError(f"{func}: numtaps must be an int, got {numtaps!r}") from None
    if nt < 1:
        raise ValueError(f"{func}: numtaps must be at least 1, got {nt}")
    c = np.ascontiguousarray(np.atleast_1d(np.asarray(cutoff, dtype=np.float64)))
    if c.ndim != 1 or c.size == 0:
        raise ValueError(f"{func}: cutoff must be a 1-D list of at least one frequency, got {cutoff!r}")
    if isinstance(pass_zero, str):
        pz = _PASS_ZERO.get(pass_zero)
        if pz is None:
            raise ValueError(
                f"{func}: pass_zero must be True, False, 'lowpass', 'highpass', 'bandpass' or "
                f"'bandstop', got {pass_zero!r}"
            )
    elif isinstance(pass_zero, (bool, np.bool_, int, np.integer)):
        pz = lib.SK_PASS_ZERO_TRUE if bool(pass_zero) else lib.SK_PASS_ZERO_FALSE
    else:
        raise ValueError(
            f"{func}: pass_zero must be True, False, 'lowpass', 'highpass', 'bandpass' or "
            f"'bandstop', got {pass_zero!r}"
        )
    fsv = 2.0 if fs is None else float(fs)
    if width is not None:
        kind, params = lib.SK_WINDOW_KAISER, np.array([_kaiser_beta_for(nt, float(width) / (fsv / 2))])
    else:
        from .spectral import _window_params_spec

        kind, params = _window_params_spec(window, func)
    taps = np.empty(nt, np.float64)
    st = _firwin_bands(_fb("double[]", c), kind, _fb("double[]", params) if params.size else ffi.NULL,
                       pz, 1 if scale else 0, fsv, _fb("double[]", taps, True), c.size, params.size, nt)
    if st:
        raise error(st, "sk_firwin_bands")
    return taps


_RBJ = {
    "lowpass": lib.SK_RBJ_LOWPASS,
    "highpass": lib.SK_RBJ_HIGHPASS,
    "bandpass": lib.SK_RBJ_BANDPASS,
    "notch": lib.SK_RBJ_NOTCH,
    "allpass": lib.SK_RBJ_ALLPASS,
    "peaking": lib.SK_RBJ_PEAKING,
    "lowshelf": lib.SK_RBJ_LOWSHELF,
    "highshelf": lib.SK_RBJ_HIGHSHELF,
}


def rbj_biquad(kind: str, fs: float, f0: float, q: float, gain_db: float = 0.0) -> np.ndarray:
    """One RBJ "Audio EQ Cookbook" biquad as a ``(1, 6)`` SOS array (C: ``sk_rbj_biquad``),
    normalised so ``a0 == 1``: ready for :func:`sosfilt`, :class:`Biquad` or scipy.

    Parameters
    ----------
    kind : {"lowpass", "highpass", "bandpass", "notch", "allpass", "peaking", "lowshelf", "highshelf"}
        "bandpass" has 0 dB peak gain.
    fs : float
        Sampling rate (> 0).
    f0 : float
        Centre/corner frequency, strictly between 0 and ``fs/2``.
    q : float
        Quality factor (> 0; the cookbook's shelf Q for the shelves).
    gain_db : float, default 0.0
        Gain of "peaking" and the shelves (finite, ``|gain_db| <= 600``; checked but unused by
        the other kinds).

    Returns
    -------
    sos : ndarray, shape (1, 6), float64

    Raises
    ------
    ValueError
        Unknown ``kind``; :class:`BadArgumentError` for parameters out of range.

    Examples
    --------
    >>> sos = sigkern.rbj_biquad("peaking", 48000.0, 1000.0, 0.7, gain_db=6.0)
    >>> sos.shape
    (1, 6)
    """
    k = _RBJ.get(kind.lower() if isinstance(kind, str) else None)
    if k is None:
        raise ValueError(f"rbj_biquad: unknown kind {kind!r}; use one of {', '.join(_RBJ)}")
    sos = np.empty((1, 6), np.float64)
    st = _rbj(k, float(fs), float(f0), float(q), float(gain_db), _fb("double[]", sos, True))
    if st:
        raise error(st, "sk_rbj_biquad")
    return sos


# ---------------------------------------------------------------------------------------------
# Biquad
# ---------------------------------------------------------------------------------------------


class Biquad(Handle, free="sk_biquad_free"):
    """A streaming multi-channel biquad cascade (C: ``sk_biquad_*``): scipy's ``sosfilt`` with
    its state carried from call to call.

    Processing a signal block by block gives exactly (bit for bit) the output of one call,
    and equals ``scipy.signal.sosfilt(sos, x, zi=zi)`` with the state passed along (to
    rounding: float64 to about 1e-12, float32 within the bound of ``docs/filters.md``).

    Parameters
    ----------
    sos : array_like, shape (n_sections, 6)
        Sections ``b0 b1 b2 a0 a1 a2`` (e.g. :func:`butter` with ``output="sos"``,
        :func:`rbj_biquad`); normalised by ``a0``. Unstable or non-finite sections raise
        :class:`BadArgumentError`.
    channels : int, default 1
        Number of channels filtered together (in SIMD lanes).
    dtype : np.float32 or np.float64, default np.float32
        Sample type; :meth:`process` takes only this dtype.

    Notes
    -----
    Thread safety: one object must not be used from two threads at the same time; if it is,
    the second call raises :class:`InvalidHandleError` ("in use by another thread") and
    changes nothing. Different objects run fully in parallel (the GIL is released during the
    C call). Use it as a context manager, or call :meth:`close`, to free the C handle
    promptly (it is also freed when the object is garbage-collected).

    Examples
    --------
    >>> sos = sigkern.butter(8, 2000.0, "low", fs=48000.0, output="sos")
    >>> x = np.random.default_rng(0).standard_normal((2, 4096)).astype(np.float32)
    >>> with sigkern.Biquad(sos, channels=2) as f:
    ...     y = np.concatenate([f.process(x[:, i:i + 256]) for i in range(0, 4096, 256)], axis=1)
    """

    __slots__ = ("_h", "_proc", "_proc_il", "_dt", "_ct", "_channels", "_n_sections", "_sfx", "__weakref__")

    def __init__(self, sos: Any, channels: int = 1, dtype: Any = np.float32):
        self._h = ffi.NULL
        func = "Biquad"
        dt = _float_dtype_arg(dtype, func)
        sos_a = _sos_array(sos, func)
        try:
            ch = operator.index(channels)
        except TypeError:
            raise TypeError(f"{func}: channels must be an int, got {channels!r}") from None
        if ch < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        hp = ffi.new("SkBiquad **")
        st = _bq_new[dt](_fb("double[]", sos_a), ch, hp, sos_a.shape[0])
        if st:
            raise error(st, f"sk_biquad_{_SFX[dt]}_new")
        self._h = hp[0]
        self._dt = dt
        self._ct = _ARR[dt]
        self._sfx = _SFX[dt]
        self._proc = _bq_process[dt]
        self._proc_il = _bq_process_il[dt]
        self._channels = ch
        self._n_sections = sos_a.shape[0]

    # -- properties -----------------------------------------------------------------------

    @property
    def n_sections(self) -> int:
        """Number of second-order sections."""
        return self._n_sections

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def dtype(self) -> np.dtype:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, what: str):
        cname = f"sk_biquad_{self._sfx}_{what}" if what else "sk_biquad_reset"
        if self._h == ffi.NULL:
            return _closed_error(st, cname, "this Biquad")
        return error(st, cname)

    # -- processing -----------------------------------------------------------------------

    def process(self, x: Any, out: Optional[Any] = None) -> Any:
        """Filters a block of planar samples, carrying the state to the next call.

        Parameters
        ----------
        x : ndarray or Tensor of the filter's dtype
            Shape ``(channels, n)``, or ``(n,)`` for a one-channel filter. C-contiguous, or
            rows contiguous at a row stride (a time slice ``x[:, t0:t1]`` of a bigger block).
        out : ndarray or Tensor, optional
            Same shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

        Returns
        -------
        ndarray or Tensor
            ``out``, or a new array/tensor like ``x``.

        Raises
        ------
        TypeError
            A dtype other than the filter's.
        ValueError
            A wrong shape, non-contiguous rows, a read-only ``out``;
            :class:`InvalidHandleError` when closed or in use by another thread.

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.rbj_biquad("lowpass", 48000.0, 1000.0, 0.707), channels=2)
        >>> y = f.process(np.zeros((2, 256), np.float32))
        """
        if type(x) is ndarray and x.dtype is self._dt and _is_block(x.shape, self._channels):
            io = _block_io(x, out, self._dt, self._ct)
            if io is not None:
                px, sx, y, po, so = io
                st = self._proc(self._h, px, sx, po, so, x.shape[-1])
                if st:
                    raise self._fail(st, "process")
                return y
            return self._process_checked(x, out)
        ti = B.TORCH or B.torch_info()
        if ti is not None and type(x) is ti[0]:
            return self._process_tensor(x, out, ti)
        return self._process_checked(x, out)

    def _process_tensor(self, x: Any, out: Any, ti: tuple) -> Any:
        """:meth:`process`'s fast path for contiguous CPU tensors."""
        tdt = ti[1] if self._dt is F32 else ti[2]
        shape = x.shape
        if x.dtype is not tdt or not self._shape_ok(tuple(shape), False):
            return self._process_checked(x, out)
        if out is None:
            out = x.new_empty(shape)
        elif type(out) is not ti[0] or out.dtype is not tdt or out.shape != shape:
            return self._process_checked(x, out)
        ct = _PTR[self._dt]
        px = B.tensor_ptr(x, ti, ct)
        po = B.tensor_ptr(out, ti, ct, True)
        if px is None or po is None:
            return self._process_checked(x, out)
        n = shape[-1]
        st = self._proc(self._h, px, n, po, n, n)
        if st:
            raise self._fail(st, "process")
        return out

    def _shape_ok(self, shape: tuple, interleaved: bool) -> bool:
        if len(shape) == 1:
            return self._channels == 1
        return len(shape) == 2 and shape[1 if interleaved else 0] == self._channels

    def _check_x(self, x: Any, func: str, interleaved: bool) -> Any:
        x = B.as_input(x, func, "x")
        dt = B.dtype_of(x)
        if dt != self._dt:
            conv = f"x.astype(np.{self._dt})" if isinstance(x, np.ndarray) else f"x.to(torch.{self._dt})"
            raise TypeError(
                f"{func}: this filter was made for {self._dt} (dtype=np.{self._dt}); x is "
                f"{B.describe(x)}; convert with {conv} or make a Biquad with dtype=np.{dt}"
            )
        shape = tuple(x.shape)
        if not self._shape_ok(shape, interleaved):
            want = "(frames, channels)" if interleaved else "(channels, n)"
            one = " or (n,)" if self._channels == 1 else ""
            raise ValueError(
                f"{func}: x must have shape {want} = {want.replace('channels', str(self._channels))}"
                f"{one} for this {self._channels}-channel filter, got {shape}"
            )
        return x

    def _process_checked(self, x: Any, out: Any) -> Any:
        func = "Biquad.process"
        x = self._check_x(x, func, False)
        shape = tuple(x.shape)
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            B.check_out(out, shape, self._dt, func)
        px, sx = _planar(x, self._dt, func, "x")
        py, sy = _planar(out, self._dt, func, "out", writable=True)
        st = self._proc(self._h, px, sx, py, sy, shape[-1])
        if st:
            raise self._fail(st, "process")
        return out

    def process_interleaved(self, x: Any, out: Optional[Any] = None) -> Any:
        """Filters a block of interleaved frames, carrying the state to the next call.

        Parameters
        ----------
        x : ndarray or Tensor of the filter's dtype, C-contiguous
            Shape ``(frames, channels)``, or ``(frames,)`` for a one-channel filter.
        out : ndarray or Tensor, optional
            Same shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

        Returns
        -------
        ndarray or Tensor
            ``out``, or a new array/tensor like ``x``.

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.butter(4, 0.2, output="sos"), channels=2)
        >>> y = f.process_interleaved(np.zeros((480, 2), np.float32))
        """
        func = "Biquad.process_interleaved"
        x = self._check_x(x, func, True)
        shape = tuple(x.shape)
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            B.check_out(out, shape, self._dt, func)
        px, _ = B.pointer(x, self._dt, func, "x")
        py, _ = B.pointer(out, self._dt, func, "out", writable=True)
        st = self._proc_il(self._h, px, py, shape[0])
        if st:
            raise self._fail(st, "process_interleaved")
        return out

    # -- state ----------------------------------------------------------------------------

    def reset(self) -> None:
        """Zeroes the state (the next block starts from rest).

        Examples
        --------
        >>> f = sigkern.Biquad(sigkern.butter(2, 0.1, output="sos")); f.reset()
        """
        st = _bq_reset(self._h)
        if st:
            raise self._fail(st, "")

    @property
    def state(self) -> np.ndarray:
        """The state in scipy's ``zi`` layout: ndarray ``(n_sections, channels, 2)`` of the
        filter's dtype (a copy), equal to the ``zf`` of ``scipy.signal.sosfilt`` for the same
        input. Assign an array of that shape (or ``(n_sections, 2)`` for one channel) and dtype
        to load a state, e.g. ``sosfilt_zi(sos)[:, None, :] * x0`` (NaN/inf raise
        :class:`NonFiniteError`)."""
        z = np.empty((self._n_sections, self._channels, 2), self._dt)
        st = _bq_get[self._dt](self._h, _fb(self._ct, z, True), z.size)
        if st:
            raise self._fail(st, "get_state")
        return z

    @state.setter
    def state(self, zi: Any) -> None:
        func = "Biquad.state"
        if not (isinstance(zi, np.ndarray) or B.is_tensor(zi)):
            zi = np.asarray(zi, dtype=self._dt)
        shape = tuple(zi.shape)
        full = (self._n_sections, self._channels, 2)
        if shape != full and not (self._channels == 1 and shape == (self._n_sections, 2)):
            raise ValueError(f"{func}: the state must have shape {full}, got {shape}")
        p, _ = B.pointer(zi, self._dt, func, "state")
        st = _bq_set[self._dt](self._h, p, math.prod(full))
        if st:
            raise self._fail(st, "set_state")

    # -- lifetime -------------------------------------------------------------------------

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"n_sections={self._n_sections}"
        return f"Biquad({state}, channels={self._channels}, dtype={self._dt})"


SosFilter = Biquad
"""Alias of :class:`Biquad`."""


# ---------------------------------------------------------------------------------------------
# Fir
# ---------------------------------------------------------------------------------------------


class Fir(Handle, free="sk_fir_free"):
    """A streaming single-channel FIR filter (C: ``sk_fir_*``): ``scipy.signal.lfilter(taps, 1,
    x)`` with the last ``n_taps - 1`` inputs carried from call to call.

    Up to 160 taps run in direct form (chunked calls bit-identical to one call); longer filters
    use FFT overlap-save (:attr:`uses_fft`; chunked calls equal one call to rounding).

    Parameters
    ----------
    taps : array_like, shape (n_taps,)
        Impulse response (e.g. :func:`firwin`), finite; converted to ``dtype``.
    dtype : np.float32 or np.float64, default np.float32
        Sample type; :meth:`process` takes only this dtype.

    Notes
    -----
    Thread safety: one object must not be used from two threads at the same time; if it is,
    the second call raises :class:`InvalidHandleError` ("in use by another thread") and
    changes nothing. Different objects run fully in parallel. Use it as a context manager, or
    call :meth:`close`, to free the C handle promptly.

    Examples
    --------
    >>> h = sigkern.firwin(63, 0.25)
    >>> x = np.random.default_rng(0).standard_normal(4096).astype(np.float32)
    >>> with sigkern.Fir(h) as f:
    ...     y = np.concatenate([f.process(x[i:i + 512]) for i in range(0, 4096, 512)])
    """

    __slots__ = ("_h", "_proc", "_dt", "_ct", "_sfx", "_n_taps", "_uses_fft", "__weakref__")

    def __init__(self, taps: Any, dtype: Any = np.float32):
        self._h = ffi.NULL
        func = "Fir"
        dt = _float_dtype_arg(dtype, func)
        t = _coefs(taps, func, "taps", dt)
        if t.ndim != 1 or t.size < 1:
            raise ValueError(f"{func}: taps must be 1-D with at least one tap, got shape {t.shape}")
        hp = ffi.new("SkFir **")
        st = _fir_new[dt](_fb(_ARR[dt], t), hp, t.size)
        if st:
            raise error(st, f"sk_fir_{_SFX[dt]}_new")
        self._h = hp[0]
        self._dt = dt
        self._ct = _ARR[dt]
        self._sfx = _SFX[dt]
        self._proc = _fir_process[dt]
        n = ffi.new("size_t *")
        u = ffi.new("int32_t *")
        st = _fir_info(self._h, n, u)
        if st:  # pragma: no cover - a fresh handle is valid
            raise error(st, "sk_fir_info")
        self._n_taps = int(n[0])
        self._uses_fft = bool(u[0])

    @property
    def n_taps(self) -> int:
        """Number of taps."""
        return self._n_taps

    @property
    def uses_fft(self) -> bool:
        """Whether the FFT overlap-save form is in use (more than 160 taps)."""
        return self._uses_fft

    @property
    def dtype(self) -> np.dtype:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, what: str):
        cname = f"sk_fir_{self._sfx}_{what}" if what else "sk_fir_reset"
        if self._h == ffi.NULL:
            return _closed_error(st, cname, "this Fir")
        return error(st, cname)

    def process(self, x: Any, out: Optional[Any] = None) -> Any:
        """Filters the next block of the stream.

        Parameters
        ----------
        x : ndarray or Tensor, shape (n,), the filter's dtype, contiguous
        out : ndarray or Tensor, optional
            Same shape and dtype (numpy array or CPU tensor); may be ``x`` itself (in place).

        Returns
        -------
        ndarray or Tensor
            ``out``, or a new array/tensor like ``x``.

        Raises
        ------
        TypeError
            A dtype other than the filter's.
        ValueError
            Not 1-D, not contiguous, a read-only ``out``; :class:`InvalidHandleError` when
            closed or in use by another thread.

        Examples
        --------
        >>> f = sigkern.Fir([0.25, 0.5, 0.25])
        >>> f.process(np.array([1.0, 0.0, 0.0, 0.0], np.float32))
        array([0.25, 0.5 , 0.25, 0.  ], dtype=float32)
        """
        if type(x) is ndarray and x.dtype is self._dt and x.ndim == 1:
            ct = self._ct
            try:
                if out is None:
                    out = np.empty(x.shape, self._dt)
                    po = _fb(ct, out)
                elif type(out) is ndarray and out.dtype is self._dt and out.shape == x.shape:
                    po = _fb(ct, out, True)
                else:
                    return self._process_checked(x, out)
                st = self._proc(self._h, _fb(ct, x), po, x.shape[0])
            except ValueError:
                return self._process_checked(x, out)
            if st:
                raise self._fail(st, "process")
            return out
        ti = B.TORCH or B.torch_info()
        if ti is not None and type(x) is ti[0]:
            tdt = ti[1] if self._dt is F32 else ti[2]
            if x.dtype is tdt and x.dim() == 1:
                if out is None:
                    out = x.new_empty(x.shape)
                if type(out) is ti[0] and out.dtype is tdt and out.shape == x.shape:
                    ct = _PTR[self._dt]
                    px = B.tensor_ptr(x, ti, ct)
                    po = B.tensor_ptr(out, ti, ct, True)
                    if px is not None and po is not None:
                        st = self._proc(self._h, px, po, x.shape[0])
                        if st:
                            raise self._fail(st, "process")
                        return out
        return self._process_checked(x, out)

    def _process_checked(self, x: Any, out: Any) -> Any:
        func = "Fir.process"
        x = B.as_input(x, func, "x")
        dt = B.dtype_of(x)
        if dt != self._dt:
            conv = f"x.astype(np.{self._dt})" if isinstance(x, np.ndarray) else f"x.to(torch.{self._dt})"
            raise TypeError(
                f"{func}: this filter was made for {self._dt}; x is {B.describe(x)}; convert "
                f"with {conv} or make a Fir with dtype=np.{dt}"
            )
        shape = tuple(x.shape)
        if len(shape) != 1:
            raise ValueError(
                f"{func}: x must be one channel of shape (n,), got {shape}; use one Fir per channel"
            )
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            B.check_out(out, shape, self._dt, func)
        px, _ = B.pointer(x, self._dt, func, "x")
        py, _ = B.pointer(out, self._dt, func, "out", writable=True)
        st = self._proc(self._h, px, py, shape[0])
        if st:
            raise self._fail(st, "process")
        return out

    def reset(self) -> None:
        """Zeroes the history (the next block starts from silence)."""
        st = _fir_reset(self._h)
        if st:
            raise self._fail(st, "")

    @property
    def state(self) -> np.ndarray:
        """The history: ndarray ``(n_taps - 1,)`` of the filter's dtype (a copy), the last
        inputs, oldest first. Assign an array of that shape and dtype to load one (NaN/inf
        raise :class:`NonFiniteError`)."""
        s = np.empty(self._n_taps - 1, self._dt)
        st = _fir_get[self._dt](self._h, _fb(self._ct, s, True), s.size)
        if st:
            raise self._fail(st, "get_state")
        return s

    @state.setter
    def state(self, s: Any) -> None:
        func = "Fir.state"
        if not (isinstance(s, np.ndarray) or B.is_tensor(s)):
            s = np.asarray(s, dtype=self._dt)
        if tuple(s.shape) != (self._n_taps - 1,):
            raise ValueError(f"{func}: the state must have shape ({self._n_taps - 1},), got {tuple(s.shape)}")
        p, _ = B.pointer(s, self._dt, func, "state")
        st = _fir_set[self._dt](self._h, p, self._n_taps - 1)
        if st:
            raise self._fail(st, "set_state")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"n_taps={self._n_taps}"
        return f"Fir({state}, uses_fft={self._uses_fft}, dtype={self._dt})"


# ---------------------------------------------------------------------------------------------
# Transfer-function filters, steady states and zero-phase filtering
# ---------------------------------------------------------------------------------------------

_lfilter = {F32: cfunc("sk_lfilter_f32"), F64: cfunc("sk_lfilter_f64")}
_lfilter_zi = {F32: cfunc("sk_lfilter_zi_f32"), F64: cfunc("sk_lfilter_zi_f64")}
_sosfilt_zi = {F32: cfunc("sk_sosfilt_zi_f32"), F64: cfunc("sk_sosfilt_zi_f64")}
_filtfilt = {F32: cfunc("sk_filtfilt_f32"), F64: cfunc("sk_filtfilt_f64")}
_sosfiltfilt = {F32: cfunc("sk_sosfiltfilt_f32"), F64: cfunc("sk_sosfiltfilt_f64")}
_PADTYPE = {
    "odd": lib.SK_PADTYPE_ODD,
    "even": lib.SK_PADTYPE_EVEN,
    "constant": lib.SK_PADTYPE_CONSTANT,
    None: lib.SK_PADTYPE_NONE,
}


def _ba(b: Any, a: Any, func: str) -> Tuple[np.ndarray, np.ndarray]:
    bb = np.atleast_1d(_coefs(b, func, "b"))
    aa = np.atleast_1d(_coefs(a, func, "a"))
    for name, v in (("b", bb), ("a", aa)):
        if v.ndim != 1 or v.size == 0:
            raise ValueError(f"{func}: {name} must be a non-empty 1-D array, got shape {v.shape}")
    return bb, aa


def _time_axis(x: Any, axis: Any, func: str) -> int:
    nd = len(x.shape)
    if nd == 0:
        raise ValueError(f"{func}: x must have at least one dimension (time), got a scalar")
    try:
        ax = operator.index(axis)
    except TypeError:
        raise TypeError(f"{func}: axis must be an int, got {axis!r}") from None
    if not -nd <= ax < nd:
        raise ValueError(f"{func}: axis {axis} is out of range for x of shape {tuple(x.shape)}")
    return ax % nd


def _move(a: Any, src: int, dst: int) -> Any:
    """A C-contiguous copy of ``a`` with axis ``src`` moved to ``dst`` (numpy or tensor)."""
    if B.is_tensor(a):
        return a.movedim(src, dst).contiguous()
    return np.ascontiguousarray(np.moveaxis(a, src, dst))


def _copy_out(out: Any, y: Any, dt: np.dtype, func: str) -> Any:
    """Copies the result ``y`` (moved back from another time axis) into the caller's ``out``."""
    B.pointer(out, dt, func, "out", writable=True)
    if B.is_tensor(out):
        out.copy_(y if B.is_tensor(y) else B._torch().from_numpy(np.ascontiguousarray(y)))
    else:
        np.copyto(out, y.numpy() if B.is_tensor(y) else y)
    return out


def _state_arg(z: Any, shape: Tuple[int, ...], dt: np.dtype, func: str, name: str, what: str) -> Any:
    if not (isinstance(z, np.ndarray) or B.is_tensor(z)):
        z = np.asarray(z, dtype=dt)
    if tuple(z.shape) != shape:
        raise ValueError(f"{func}: {name} must have shape {what} = {shape}, got {tuple(z.shape)}")
    return z


def lfilter(b: Any, a: Any, x: Any, axis: int = -1, zi: Optional[Any] = None,
            out: Optional[Any] = None) -> Union[Any, Tuple[Any, Any]]:
    """Filters ``x`` along an axis with the IIR filter ``b/a`` (transfer-function form), like
    ``scipy.signal.lfilter(b, a, x, axis, zi)`` (C: ``sk_lfilter_f32/f64``; transposed direct
    form II in scipy's order, every channel in one call, in SIMD lanes).

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator (float64); divided by ``a[0]`` (``a[0] == 0`` raises
        :class:`BadArgumentError`). No stability check: marginal and unstable filters run, as
        in scipy.
    x : ndarray or Tensor, float32 or float64, ndim >= 1
        The signal; ``axis`` is time. Another axis than the last is moved last (a copy).
    axis : int, default -1
    zi : array_like, optional
        Initial state: ``x``'s shape with the length of ``axis`` replaced by
        ``max(len(a), len(b)) - 1`` (scipy's layout), e.g. ``lfilter_zi(b, a) * x[..., :1]``.
    out : ndarray or Tensor, optional
        Output of ``x``'s shape and dtype; may be ``x`` itself (in place). Saves allocating the
        result, which for large arrays costs as much as the filter.

    Returns
    -------
    y : ndarray or Tensor (``x``'s shape and dtype; ``out`` if given)
    zf : final state, ``zi``'s shape; only when ``zi`` is given.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.2)
    >>> y = sigkern.lfilter(b, a, np.ones(8))
    """
    func = "lfilter"
    bb, aa = _ba(b, a, func)
    x = B.as_input(x, func, "x")
    dt = B.float_dtype(x, func, "x")
    ax = _time_axis(x, axis, func)
    nd = len(x.shape)
    k = max(bb.size, aa.size) - 1
    if out is not None:
        B.check_out(out, tuple(x.shape), dt, func)
    if ax != nd - 1:
        zshape = tuple(x.shape[:ax]) + (k,) + tuple(x.shape[ax + 1:])
        zim = None
        if zi is not None:
            zim = _move(_state_arg(zi, zshape, dt, func, "zi", "x.shape with axis -> order"), ax, -1)
        res = lfilter(bb, aa, _move(x, ax, -1), -1, zim)
        y = _move(res if zi is None else res[0], -1, ax)
        if out is not None:
            y = _copy_out(out, y, dt, func)
        return y if zi is None else (y, _move(res[1], -1, ax))
    shape = tuple(x.shape)
    lead, n = shape[:-1], shape[-1]
    channels = math.prod(lead)
    if out is None:
        out = B.new_like(x, shape, dt)
    zshape = lead + (k,)
    pzi = pzf = ffi.NULL
    zf = None
    if zi is not None:
        zi = _state_arg(zi, zshape, dt, func, "zi", "(*x.shape[:-1], order)")
        pzi, _ = B.pointer(zi, dt, func, "zi")
        zf = B.new_like(x, zshape, dt)
        pzf, _ = B.pointer(zf, dt, func, "zf", writable=True)
    if channels == 0:
        if zf is not None:
            zf[...] = zi
        return (out, zf) if zi is not None else out
    px, sx = _planar(x, dt, func, "x")
    py, sy = _planar(out, dt, func, "out", writable=True)
    st = _lfilter[dt](_fb(_ARR[F64], bb), _fb(_ARR[F64], aa), px, sx, pzi, channels, py, sy, pzf,
                      bb.size, aa.size, n)
    if st:
        raise error(st, f"sk_lfilter_{_SFX[dt]}")
    return (out, zf) if zi is not None else out


def lfilter_zi(b: Any, a: Any, dtype: Any = np.float64) -> np.ndarray:
    """``scipy.signal.lfilter_zi(b, a)``: the initial state for which :func:`lfilter` of a unit
    step starts in steady state (C: ``sk_lfilter_zi_f64/f32``; ``max(len(a), len(b)) - 1``
    values, computed in float64, returned as ``dtype``). A pole at z = 1 (no steady state) or
    ``a[0] == 0`` raises :class:`BadArgumentError`.

    Examples
    --------
    >>> b, a = sigkern.butter(2, 0.3)
    >>> zi = sigkern.lfilter_zi(b, a)
    """
    func = "lfilter_zi"
    dt = _float_dtype_arg(dtype, func)
    bb, aa = _ba(b, a, func)
    zi = np.empty(max(bb.size, aa.size) - 1, dt)
    st = _lfilter_zi[dt](_fb(_ARR[F64], bb), _fb(_ARR[F64], aa),
                         _fb(_ARR[dt], zi, True) if zi.size else ffi.NULL, bb.size, aa.size, zi.size)
    if st:
        raise error(st, f"sk_lfilter_zi_{_SFX[dt]}")
    return zi


def sosfilt_zi(sos: Any, dtype: Any = np.float64) -> np.ndarray:
    """``scipy.signal.sosfilt_zi(sos)``: the ``(n_sections, 2)`` initial state for which
    :func:`sosfilt` of a unit step starts in steady state (C: ``sk_sosfilt_zi_f64/f32``;
    computed in float64, returned as ``dtype``).

    Examples
    --------
    >>> sos = sigkern.butter(4, 0.2, output="sos")
    >>> zi = sigkern.sosfilt_zi(sos)          # (2, 2)
    """
    func = "sosfilt_zi"
    dt = _float_dtype_arg(dtype, func)
    s = _sos_array(sos, func)
    zi = np.empty((s.shape[0], 2), dt)
    st = _sosfilt_zi[dt](_fb(_ARR[F64], s), _fb(_ARR[dt], zi, True), s.shape[0], zi.size)
    if st:
        raise error(st, f"sk_sosfilt_zi_{_SFX[dt]}")
    return zi


def _pad_args(padtype: Any, padlen: Any, func: str) -> Tuple[int, int]:
    if padtype not in _PADTYPE:
        raise ValueError(f"{func}: padtype must be 'odd', 'even', 'constant' or None, got {padtype!r}")
    if padlen is None:
        return _PADTYPE[padtype], -1
    try:
        p = operator.index(padlen)
    except TypeError:
        raise TypeError(f"{func}: padlen must be an int or None, got {padlen!r}") from None
    if p < 0:
        raise ValueError(f"{func}: padlen must be >= 0, got {p}")
    return _PADTYPE[padtype], p


def _zero_phase(func: str, cname: str, call: Any, x: Any, axis: Any, out: Any) -> Any:
    x = B.as_input(x, func, "x")
    dt = B.float_dtype(x, func, "x")
    ax = _time_axis(x, axis, func)
    nd = len(x.shape)
    if out is not None:
        B.check_out(out, tuple(x.shape), dt, func)
    if ax != nd - 1:
        y = _move(_zero_phase(func, cname, call, _move(x, ax, -1), -1, None), -1, ax)
        return y if out is None else _copy_out(out, y, dt, func)
    shape = tuple(x.shape)
    channels = math.prod(shape[:-1])
    if out is None:
        out = B.new_like(x, shape, dt)
    if channels == 0:
        return out
    px, sx = _planar(x, dt, func, "x")
    py, sy = _planar(out, dt, func, "out", writable=True)
    st = call(dt, px, sx, channels, py, sy, shape[-1])
    if st:
        raise error(st, f"{cname}_{_SFX[dt]}")
    return out


def filtfilt(b: Any, a: Any, x: Any, axis: int = -1, padtype: Optional[str] = "odd",
             padlen: Optional[int] = None, method: str = "pad", irlen: Optional[int] = None,
             out: Optional[Any] = None) -> Any:
    """Zero-phase filtering (forward, then backward), like ``scipy.signal.filtfilt(b, a, x,
    axis, padtype, padlen)`` with ``method='pad'`` (C: ``sk_filtfilt_f32/f64``): the signal is
    extended at both ends (``padtype`` 'odd', 'even', 'constant' or None; ``padlen`` default
    ``3 * max(len(a), len(b))``), both passes start from ``lfilter_zi`` scaled by the first
    sample, as scipy. ``x`` must be longer than ``padlen`` (:class:`LengthError`).
    ``method='gust'`` raises ``NotImplementedError``. ``out``: an output of ``x``'s shape and
    dtype, or ``x`` itself (in place); saves allocating the result.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.1)
    >>> y = sigkern.filtfilt(b, a, np.random.default_rng(0).standard_normal((2, 1000)))
    """
    func = "filtfilt"
    if method != "pad":
        raise NotImplementedError(f"{func}: only method='pad' is supported, got {method!r}")
    bb, aa = _ba(b, a, func)
    pt, pl = _pad_args(padtype, padlen, func)
    B_, A_ = _fb(_ARR[F64], bb), _fb(_ARR[F64], aa)

    def call(dt, px, sx, ch, py, sy, n):
        return _filtfilt[dt](B_, A_, px, sx, pt, pl, ch, py, sy, bb.size, aa.size, n)

    return _zero_phase(func, "sk_filtfilt", call, x, axis, out)


def sosfiltfilt(sos: Any, x: Any, axis: int = -1, padtype: Optional[str] = "odd",
                padlen: Optional[int] = None, out: Optional[Any] = None) -> Any:
    """Zero-phase filtering with second-order sections, like ``scipy.signal.sosfiltfilt(sos, x,
    axis, padtype, padlen)`` (C: ``sk_sosfiltfilt_f32/f64``): scipy's padding (default
    ``padlen`` from scipy's ``ntaps``) and ``sosfilt_zi`` initial conditions. Sections with a
    pole outside the unit circle raise :class:`BadArgumentError`. ``out``: an output of ``x``'s
    shape and dtype, or ``x`` itself (in place); saves allocating the result.

    Examples
    --------
    >>> sos = sigkern.butter(8, 0.1, output="sos")
    >>> y = sigkern.sosfiltfilt(sos, np.random.default_rng(0).standard_normal((16, 48000)))
    """
    func = "sosfiltfilt"
    s = _sos_array(sos, func)
    pt, pl = _pad_args(padtype, padlen, func)
    S = _fb(_ARR[F64], s)

    def call(dt, px, sx, ch, py, sy, n):
        return _sosfiltfilt[dt](S, px, sx, pt, pl, ch, py, sy, s.shape[0], n)

    return _zero_phase(func, "sk_sosfiltfilt", call, x, axis, out)


_lf_new = {F32: cfunc("sk_lfilter_f32_new"), F64: cfunc("sk_lfilter_f64_new")}
_lf_reset = cfunc("sk_lfilter_reset")
_lf_info = cfunc("sk_lfilter_info")
_lf_process = {F32: cfunc("sk_lfilter_f32_process"), F64: cfunc("sk_lfilter_f64_process")}
_lf_get = {F32: cfunc("sk_lfilter_f32_get_state"), F64: cfunc("sk_lfilter_f64_get_state")}
_lf_set = {F32: cfunc("sk_lfilter_f32_set_state"), F64: cfunc("sk_lfilter_f64_set_state")}


class Lfilter(Handle, free="sk_lfilter_free"):
    """A streaming multi-channel IIR filter in transfer-function form (C: ``sk_lfilter_*``):
    ``scipy.signal.lfilter(b, a, x, zi=zi)`` with its state carried from call to call.

    Processing a signal block by block gives exactly (bit for bit) the output of one call, and
    equals :func:`lfilter` (and scipy, to rounding) with the state passed along.

    Parameters
    ----------
    b, a : array_like, 1-D
        Numerator and denominator (float64), divided by ``a[0]``; no stability check.
    channels : int, default 1
        Number of channels filtered together (in SIMD lanes).
    dtype : np.float32 or np.float64, default np.float32

    Notes
    -----
    Thread safety as :class:`Biquad`: one object must not be used from two threads at once
    (the second call raises :class:`InvalidHandleError`). Use it as a context manager or call
    :meth:`close` to free the C handle promptly.

    Examples
    --------
    >>> b, a = sigkern.butter(4, 0.1)
    >>> with sigkern.Lfilter(b, a, channels=2, dtype=np.float64) as f:
    ...     y = f.process(np.zeros((2, 256)))
    """

    __slots__ = ("_h", "_dt", "_ct", "_channels", "_order", "_sfx", "__weakref__")

    def __init__(self, b: Any, a: Any, channels: int = 1, dtype: Any = np.float32):
        self._h = ffi.NULL
        func = "Lfilter"
        dt = _float_dtype_arg(dtype, func)
        bb, aa = _ba(b, a, func)
        try:
            ch = operator.index(channels)
        except TypeError:
            raise TypeError(f"{func}: channels must be an int, got {channels!r}") from None
        if ch < 1:
            raise ValueError(f"{func}: channels must be at least 1, got {ch}")
        hp = ffi.new("SkLfilter **")
        st = _lf_new[dt](_fb(_ARR[F64], bb), _fb(_ARR[F64], aa), ch, hp, bb.size, aa.size)
        if st:
            raise error(st, f"sk_lfilter_{_SFX[dt]}_new")
        self._h = hp[0]
        order, chans = ffi.new("size_t *"), ffi.new("size_t *")
        st = _lf_info(self._h, order, chans)
        if st:
            raise error(st, "sk_lfilter_info")
        self._dt, self._ct, self._sfx = dt, _ARR[dt], _SFX[dt]
        self._channels, self._order = int(chans[0]), int(order[0])

    @property
    def order(self) -> int:
        """The filter order ``max(len(a), len(b)) - 1`` (state values per channel)."""
        return self._order

    @property
    def channels(self) -> int:
        """Number of channels."""
        return self._channels

    @property
    def dtype(self) -> np.dtype:
        """Sample dtype (float32 or float64)."""
        return self._dt

    def _fail(self, st: int, cname: str):
        if self._h == ffi.NULL:
            return _closed_error(st, cname, "this Lfilter")
        return error(st, cname)

    def process(self, x: Any, out: Optional[Any] = None) -> Any:
        """Filters a block of planar samples ``(channels, n)`` (or ``(n,)`` for one channel) of
        the filter's dtype, carrying the state; ``out`` (same shape and dtype) may be ``x``.

        Examples
        --------
        >>> f = sigkern.Lfilter([0.5, 0.5], [1.0], dtype=np.float64)
        >>> f.process(np.ones(4))
        array([0.5, 1. , 1. , 1. ])
        """
        if type(x) is ndarray and x.dtype is self._dt and _is_block(x.shape, self._channels):
            io = _block_io(x, out, self._dt, self._ct)  # as Biquad.process
            if io is not None:
                px, sx, y, po, so = io
                st = _lf_process[self._dt](self._h, px, sx, po, so, x.shape[-1])
                if st:
                    raise self._fail(st, f"sk_lfilter_{self._sfx}_process")
                return y
        return self._process_checked(x, out)

    def _process_checked(self, x: Any, out: Any) -> Any:
        """Every case of :meth:`process`, with the errors that name what is wrong."""
        func = "Lfilter.process"
        x = B.as_input(x, func, "x")
        dt = B.dtype_of(x)
        if dt != self._dt:
            raise TypeError(f"{func}: this filter was made for {self._dt}; x is {B.describe(x)}")
        shape = tuple(x.shape)
        if not ((len(shape) == 2 and shape[0] == self._channels) or (len(shape) == 1 and self._channels == 1)):
            raise ValueError(f"{func}: x must have shape ({self._channels}, n), got {shape}")
        if out is None:
            out = B.new_like(x, shape, self._dt)
        else:
            B.check_out(out, shape, self._dt, func)
        px, sx = _planar(x, self._dt, func, "x")
        py, sy = _planar(out, self._dt, func, "out", writable=True)
        st = _lf_process[self._dt](self._h, px, sx, py, sy, shape[-1])
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_process")
        return out

    def reset(self) -> None:
        """Zeroes the state."""
        st = _lf_reset(self._h)
        if st:
            raise self._fail(st, "sk_lfilter_reset")

    @property
    def state(self) -> np.ndarray:
        """The state in scipy's ``zi`` layout ``(channels, order)`` (a copy): the ``zf`` of
        ``scipy.signal.lfilter`` for the same input. Assign an array of that shape (or
        ``(order,)`` for one channel) to load one, e.g. ``lfilter_zi(b, a) * x[:, :1]``."""
        z = np.empty((self._channels, self._order), self._dt)
        st = _lf_get[self._dt](self._h, _fb(self._ct, z, True) if z.size else ffi.NULL, z.size)
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_get_state")
        return z

    @state.setter
    def state(self, zi: Any) -> None:
        func = "Lfilter.state"
        if not (isinstance(zi, np.ndarray) or B.is_tensor(zi)):
            zi = np.asarray(zi, dtype=self._dt)
        full = (self._channels, self._order)
        shape = tuple(zi.shape)
        if shape != full and not (self._channels == 1 and shape == (self._order,)):
            raise ValueError(f"{func}: the state must have shape {full}, got {shape}")
        p, _ = B.pointer(zi, self._dt, func, "state") if zi.size else (ffi.NULL, 0)
        st = _lf_set[self._dt](self._h, p, math.prod(full))
        if st:
            raise self._fail(st, f"sk_lfilter_{self._sfx}_set_state")

    def __repr__(self) -> str:
        state = "closed" if self.closed else f"order={self._order}"
        return f"Lfilter({state}, channels={self._channels}, dtype={self._dt})"
