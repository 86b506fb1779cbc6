"""librosa's frame-wise spectral features (C: ``sk_spectral_features_*``,
``sk_spectral_descriptors_*``, ``sk_spectral_contrast_*``, ``sk_poly_features_*``,
``sk_zero_crossing_rate_*``, ``sk_rms_frames_*``, ``sk_rms_spec_*``; Rust:
``src/kernels/feature/spectral.rs``): :func:`spectral_centroid`, :func:`spectral_bandwidth`,
:func:`spectral_rolloff`, :func:`spectral_flatness`, :func:`spectral_contrast`,
:func:`poly_features`, :func:`zero_crossing_rate`, :func:`rms`, and :func:`spectral_features`,
several of them in one pass over one STFT."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Callable, Dict, Optional, Sequence, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F32, F64, SFX
from .._errors import NonFiniteError, error
from .._lib import cfunc, ffi
from ..spectral._power import spec_power
from ..spectral._stft import _pad_code, _stft_window, stft

if TYPE_CHECKING:
    from .._typing import ArrayLike, DTypeLike, FloatArray, PadMode, WindowSpec

__all__ = [
    "spectral_centroid",
    "spectral_bandwidth",
    "spectral_rolloff",
    "spectral_flatness",
    "spectral_contrast",
    "poly_features",
    "zero_crossing_rate",
    "rms",
    "spectral_features",
]

_features = {F32: cfunc("sk_spectral_features_f32"), F64: cfunc("sk_spectral_features_f64")}
_descriptors = {F32: cfunc("sk_spectral_descriptors_f32"), F64: cfunc("sk_spectral_descriptors_f64")}
_contrast = {F32: cfunc("sk_spectral_contrast_f32"), F64: cfunc("sk_spectral_contrast_f64")}
_poly = {F32: cfunc("sk_poly_features_f32"), F64: cfunc("sk_poly_features_f64")}
_zcr = {F32: cfunc("sk_zero_crossing_rate_f32"), F64: cfunc("sk_zero_crossing_rate_f64")}
_rms_frames = {F32: cfunc("sk_rms_frames_f32"), F64: cfunc("sk_rms_frames_f64")}
_rms_spec = {F32: cfunc("sk_rms_spec_f32"), F64: cfunc("sk_rms_spec_f64")}
_frames = cfunc("sk_feature_frames")

#: the SK_FEATURE_* bits, in the order the C functions write them
_BITS = {"centroid": 1, "bandwidth": 2, "rolloff": 4, "flatness": 8, "zcr": 16, "rms": 32}
_ALL = ("centroid", "bandwidth", "rolloff", "flatness", "zcr", "rms")
_TIME_PAD = {"constant": 0, "reflect": 1, "edge": 2}


def _check(st: int, cname: str) -> None:
    if st:
        raise error(st, cname)


def _audio(y: Any, func: str) -> Tuple[Any, np.dtype[Any], Tuple[int, ...], int, int]:
    """A real C-contiguous signal batch ``(..., n)``: the array, dtype, leading shape, rows, n."""
    if y is None:
        raise ValueError(f"{func}: pass y (audio) or S (a spectrogram)")
    dt0 = A.dtype_of(y)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(f"{func}: y must be real audio (float32 or float64), got {A.describe(y)}")
    y = A.as_input(y, func, "y")
    A.cpu_tensor(y, func, "y")
    dt = A.float_dtype(y, func, "y")
    if y.ndim == 0:
        raise ValueError(f"{func}: y is zero-dimensional; pass audio of shape (..., n)")
    y = A.contig(y)
    lead = tuple(y.shape[:-1])
    return y, dt, lead, math.prod(lead), int(y.shape[-1])


def _spec(S: Any, func: str) -> Tuple[Any, np.dtype[Any], Tuple[int, ...], int, int, int, int]:
    """A real spectrogram ``(..., n_freq, frames)``: the array to pass (C-contiguous, or its
    last two axes swapped C-contiguous: frame-major), dtype, leading shape, batch, n_freq,
    frames, frame_major."""
    dt0 = A.dtype_of(S)
    if dt0 is not None and dt0.kind == "c":
        raise TypeError(
            f"{func}: S must be a real magnitude spectrogram, got {A.describe(S)}; pass "
            f"sigkern.spec_power(S, 1.0) (np.abs(S))"
        )
    S = A.as_input(S, func, "S")
    A.cpu_tensor(S, func, "S")
    dt = A.float_dtype(S, func, "S")
    if S.ndim < 2:
        raise ValueError(f"{func}: S must have shape (..., n_freq, frames), got {tuple(S.shape)}")
    shape = tuple(S.shape)
    lead = shape[:-2]
    fm = 0
    if not A.is_contig(S):
        sw = S.swapaxes(-1, -2) if isinstance(S, np.ndarray) else S.transpose(-1, -2)
        if A.is_contig(sw):
            S, fm = sw, 1
        else:
            S = A.contig(S)
    return S, dt, lead, math.prod(lead), shape[-2], shape[-1], fm


def _ptr(x: Any, dt: np.dtype[Any], func: str, name: str, writable: bool = False) -> Any:
    return B.pointer(x, dt, func, name, writable=writable)[0]


def _freq(freq: Any, n_freq: int, func: str) -> Tuple[Any, Any]:
    """(C pointer or NULL, keep-alive) of ``freq`` (None: the library's default)."""
    if freq is None:
        return ffi.NULL, None
    f = np.ascontiguousarray(np.asarray(freq, dtype=F64))
    if f.ndim != 1 or f.shape[0] != n_freq:
        raise ValueError(
            f"{func}: freq must be a 1-d array of the {n_freq} bin frequencies, got shape "
            f"{f.shape} (time-varying frequencies are not supported)"
        )
    return ffi.from_buffer("double[]", f), f


def _stft_args(func: str, n_fft: Any, hop_length: Any, win_length: Any, window: Any,
               pad_mode: Any, dt: np.dtype[Any]) -> Tuple[int, int, int, Any, int]:
    n_fft = A.index(n_fft, func, "n_fft")
    hop = A.index(hop_length, func, "hop_length") if hop_length is not None else n_fft // 4
    wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
    if n_fft < 1 or hop < 1 or not 1 <= wl <= n_fft:
        raise ValueError(
            f"{func}: need n_fft >= 1, hop_length >= 1 and 1 <= win_length <= n_fft, got "
            f"n_fft={n_fft}, hop_length={hop}, win_length={wl}"
        )
    w = _stft_window(window, wl, dt, func)
    return n_fft, hop, wl, w, _pad_code(pad_mode, func)


def _n_frames(n: int, frame_length: int, hop: int, center: bool, func: str) -> int:
    fr = ffi.new("size_t *")
    _check(_frames(n, frame_length, hop, 1 if center else 0, fr), "sk_feature_frames")
    return int(fr[0])


def _from_audio(func: str, y: Any, sr: Any, n_fft: Any, hop_length: Any, win_length: Any,
                window: Any, center: bool, pad_mode: Any, freq: Any, names: Sequence[str],
                p: float = 2.0, norm: bool = True, roll_percent: float = 0.85,
                amin: float = 1e-10, power: float = 2.0, threshold: float = 1e-10,
                zero_pos: bool = True, pad: bool = False) -> Dict[str, Any]:
    """The descriptors ``names`` from audio in one ``sk_spectral_features_*`` call; each of
    shape ``(..., 1, frames)``."""
    y, dt, lead, rows, n = _audio(y, func)
    n_fft, hop, wl, w, pc = _stft_args(func, n_fft, hop_length, win_length, window, pad_mode, dt)
    which = 0
    for nm in names:
        if nm not in _BITS:
            raise ValueError(f"{func}: unknown feature {nm!r}; choose from {_ALL}")
        which |= _BITS[nm]
    order = [nm for nm in _ALL if which & _BITS[nm]]
    fq, _keep = _freq(freq, n_fft // 2 + 1, func)
    center = bool(center)
    frames = _n_frames(n, n_fft, hop, center, func)
    out = B.new_like(y, (len(order), rows, frames), dt)
    st = _features[dt](_ptr(y, dt, func, "y"), rows, n, _ptr(w, dt, func, "window"), n_fft, hop, wl,
                       1 if center else 0, pc, A.rate(sr, func, "sr"), fq, which, float(p),
                       1 if norm else 0, float(roll_percent), float(amin), float(power),
                       float(threshold), 1 if zero_pos else 0, 1 if pad else 0,
                       _ptr(out, dt, func, "out", True), out.numel() if A.is_tensor(out) else out.size)
    _check(st, f"sk_spectral_features_{SFX[dt]}")
    return {nm: out[i].reshape(lead + (1, frames)) for i, nm in enumerate(order)}


def _magnitude(func: str, y: Any, n_fft: Any, hop_length: Any, win_length: Any, window: Any,
               center: bool, pad_mode: Any) -> Any:
    """``np.abs(librosa.stft(y, ...))`` through :func:`sigkern.stft` (frame-major memory)."""
    y, dt, _, _, _ = _audio(y, func)
    yn = y.detach().numpy() if A.is_tensor(y) else y
    if not np.isfinite(yn).all():
        raise NonFiniteError(NonFiniteError.code, "SK_ERR_NON_FINITE",
                             f"{func}: audio must be finite everywhere (as librosa's valid_audio)", func)
    n_fft, hop, wl, w, _ = _stft_args(func, n_fft, hop_length, win_length, window, pad_mode, dt)
    X = stft(y, n_fft, hop, wl, w, center=bool(center), pad_mode=pad_mode)
    return spec_power(X, 1.0)


def _descriptor(func: str, name: str, y: Any, S: Any, sr: Any, n_fft: Any, hop_length: Any,
                win_length: Any, window: Any, center: bool, pad_mode: Any, freq: Any,
                centroid: Any = None, **kw: Any) -> FloatArray:
    if S is None and centroid is None:
        ret: FloatArray = _from_audio(func, y, sr, n_fft, hop_length, win_length, window, center,
                                      pad_mode, freq, (name,), **kw)[name]
        return ret
    if S is None:
        S = _magnitude(func, y, n_fft, hop_length, win_length, window, center, pad_mode)
    S, dt, lead, batch, nf, frames, fm = _spec(S, func)
    fq, _keep = _freq(freq, nf, func)
    cp = ffi.NULL
    if centroid is not None:
        c = A.contig(A.as_input(centroid, func, "centroid"))
        if A.dtype_of(c) != dt:
            raise TypeError(f"{func}: centroid must have S's dtype {dt}, got {A.describe(c)}")
        if tuple(c.shape) != lead + (1, frames):
            raise ValueError(f"{func}: centroid must have shape {lead + (1, frames)}, got {tuple(c.shape)}")
        cp = _ptr(c, dt, func, "centroid")
    out = B.new_like(S, (batch, frames), dt)
    st = _descriptors[dt](_ptr(S, dt, func, "S"), batch, nf, frames, fm, A.rate(sr, func, "sr"), fq, cp,
                          _BITS[name], float(kw.get("p", 2.0)), 1 if kw.get("norm", True) else 0,
                          float(kw.get("roll_percent", 0.85)), float(kw.get("amin", 1e-10)),
                          float(kw.get("power", 2.0)), _ptr(out, dt, func, "out", True), batch * frames)
    _check(st, f"sk_spectral_descriptors_{SFX[dt]}")
    res: FloatArray = out.reshape(lead + (1, frames))
    return res


def spectral_centroid(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                      n_fft: int = 2048, hop_length: int = 512, freq: Optional[ArrayLike] = None,
                      win_length: Optional[int] = None, window: WindowSpec = "hann", center: bool = True,
                      pad_mode: PadMode = "constant") -> FloatArray:
    """``librosa.feature.spectral_centroid``: the magnitude-weighted mean frequency of each
    frame (``sk_spectral_features_*`` from audio, ``sk_spectral_descriptors_*`` from ``S``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
        Audio; must be finite (as librosa).
    sr : float, default 22050
    S : ndarray or Tensor, float32 or float64, shape (..., n_freq, frames), optional
        A magnitude spectrogram (non-negative; C-contiguous, or frame-major such as
        ``spec_power(stft(x), 1.0)``); used instead of ``y``.
    n_fft, hop_length, win_length, window, center, pad_mode
        librosa's STFT parameters (``pad_mode`` "constant" or "reflect").
    freq : array of n_freq bin frequencies, optional
        Default ``librosa.fft_frequencies(sr=sr, n_fft=n_fft)``.

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), the input's dtype

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 1000 * np.arange(22050) / 22050)
    >>> round(float(sigkern.feature.spectral_centroid(y=y)[0, 10]))
    1000
    """
    return _descriptor("spectral_centroid", "centroid", y, S, sr, n_fft, hop_length, win_length,
                       window, center, pad_mode, freq)


def spectral_bandwidth(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                       n_fft: int = 2048, hop_length: int = 512, win_length: Optional[int] = None,
                       window: WindowSpec = "hann", center: bool = True, pad_mode: PadMode = "constant",
                       freq: Optional[ArrayLike] = None, centroid: Optional[ArrayLike] = None,
                       norm: bool = True, p: float = 2) -> FloatArray:
    """``librosa.feature.spectral_bandwidth``: ``(Σ S·|freq − centroid|^p)^(1/p)`` per frame,
    ``S`` normalised to unit sum when ``norm`` (``sk_spectral_features_*`` /
    ``sk_spectral_descriptors_*``).

    Parameters
    ----------
    y, sr, S, n_fft, hop_length, win_length, window, center, pad_mode, freq
        As :func:`spectral_centroid`.
    centroid : array of shape (..., 1, frames), optional
        Precomputed centroids (default: computed from the same frames).
    norm : bool, default True
    p : float > 0, default 2

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), the input's dtype

    Examples
    --------
    >>> S = np.array([[1.0], [0.0], [1.0]])
    >>> sigkern.feature.spectral_bandwidth(S=S, freq=[0.0, 1.0, 2.0])
    array([[1.]])
    """
    return _descriptor("spectral_bandwidth", "bandwidth", y, S, sr, n_fft, hop_length, win_length,
                       window, center, pad_mode, freq, centroid, p=p, norm=norm)


def spectral_rolloff(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                     n_fft: int = 2048, hop_length: int = 512, win_length: Optional[int] = None,
                     window: WindowSpec = "hann", center: bool = True, pad_mode: PadMode = "constant",
                     freq: Optional[ArrayLike] = None, roll_percent: float = 0.85) -> FloatArray:
    """``librosa.feature.spectral_rolloff``: per frame the lowest bin frequency below which
    ``roll_percent`` of the magnitude lies (``sk_spectral_features_*`` /
    ``sk_spectral_descriptors_*``).

    Parameters
    ----------
    y, sr, S, n_fft, hop_length, win_length, window, center, pad_mode, freq
        As :func:`spectral_centroid`.
    roll_percent : float in (0, 1), default 0.85

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), the input's dtype

    Examples
    --------
    >>> S = np.array([[1.0], [1.0], [2.0]])
    >>> sigkern.feature.spectral_rolloff(S=S, freq=[0.0, 1.0, 2.0], roll_percent=0.5)
    array([[1.]])
    """
    return _descriptor("spectral_rolloff", "rolloff", y, S, sr, n_fft, hop_length, win_length,
                       window, center, pad_mode, freq, roll_percent=roll_percent)


def spectral_flatness(*, y: Optional[ArrayLike] = None, S: Optional[ArrayLike] = None, n_fft: int = 2048,
                      hop_length: int = 512, win_length: Optional[int] = None, window: WindowSpec = "hann",
                      center: bool = True, pad_mode: PadMode = "constant", amin: float = 1e-10,
                      power: float = 2.0) -> FloatArray:
    """``librosa.feature.spectral_flatness``: geometric over arithmetic mean of
    ``max(amin, S**power)`` per frame (``sk_spectral_features_*`` /
    ``sk_spectral_descriptors_*``).

    Parameters
    ----------
    y, S, n_fft, hop_length, win_length, window, center, pad_mode
        As :func:`spectral_centroid`.
    amin : float > 0, default 1e-10
    power : float > 0, default 2.0

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), the input's dtype

    Examples
    --------
    >>> sigkern.feature.spectral_flatness(S=np.ones((5, 2)))
    array([[1., 1.]])
    """
    return _descriptor("spectral_flatness", "flatness", y, S, 22050, n_fft, hop_length, win_length,
                       window, center, pad_mode, None, amin=amin, power=power)


def spectral_contrast(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                      n_fft: int = 2048, hop_length: int = 512, win_length: Optional[int] = None,
                      window: WindowSpec = "hann", center: bool = True, pad_mode: PadMode = "constant",
                      freq: Optional[ArrayLike] = None, fmin: float = 200.0, n_bands: int = 6,
                      quantile: float = 0.02, linear: bool = False) -> FloatArray:
    """``librosa.feature.spectral_contrast``: per octave band and frame, peak minus valley
    (in dB unless ``linear``) (``sk_spectral_contrast_*``).

    Parameters
    ----------
    y, sr, S, n_fft, hop_length, win_length, window, center, pad_mode, freq
        As :func:`spectral_centroid`.
    fmin : float > 0, default 200.0
    n_bands : int >= 1, default 6
    quantile : float in (0, 1), default 0.02
    linear : bool, default False

    Returns
    -------
    ndarray or Tensor, shape (..., n_bands + 1, frames), the input's dtype
        In dB mode the 80 dB floor is taken over the whole array, as librosa.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> sigkern.feature.spectral_contrast(y=y).shape
    (7, 44)
    """
    func = "spectral_contrast"
    if S is None:
        S = _magnitude(func, y, n_fft, hop_length, win_length, window, center, pad_mode)
    S, dt, lead, batch, nf, frames, fm = _spec(S, func)
    fq, _keep = _freq(freq, nf, func)
    nb = A.index(n_bands, func, "n_bands")
    if nb < 1:
        raise ValueError(f"{func}: n_bands must be a positive integer, got {nb}")
    out = B.new_like(S, lead + (nb + 1, frames), dt)
    st = _contrast[dt](_ptr(S, dt, func, "S"), batch, nf, frames, fm, A.rate(sr, func, "sr"), fq,
                       float(fmin), nb, float(quantile), 1 if linear else 0,
                       _ptr(out, dt, func, "out", True), batch * (nb + 1) * frames)
    _check(st, f"sk_spectral_contrast_{SFX[dt]}")
    res: FloatArray = out
    return res


def poly_features(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                  n_fft: int = 2048, hop_length: int = 512, win_length: Optional[int] = None,
                  window: WindowSpec = "hann", center: bool = True, pad_mode: PadMode = "constant",
                  order: int = 1, freq: Optional[ArrayLike] = None) -> FloatArray:
    """``librosa.feature.poly_features``: per frame the coefficients of the least-squares
    polynomial of degree ``order`` through the magnitude spectrum, highest power first
    (``sk_poly_features_*``).

    Parameters
    ----------
    y, sr, S, n_fft, hop_length, win_length, window, center, pad_mode, freq
        As :func:`spectral_centroid`.
    order : int, 0 ... 16, default 1

    Returns
    -------
    ndarray or Tensor, shape (..., order + 1, frames), the input's dtype

    Examples
    --------
    >>> S = np.array([[1.0], [3.0], [5.0]])
    >>> np.round(sigkern.feature.poly_features(S=S, freq=[0.0, 1.0, 2.0]), 12)
    array([[2.],
           [1.]])
    """
    func = "poly_features"
    if S is None:
        S = _magnitude(func, y, n_fft, hop_length, win_length, window, center, pad_mode)
    S, dt, lead, batch, nf, frames, fm = _spec(S, func)
    fq, _keep = _freq(freq, nf, func)
    order = A.index(order, func, "order")
    if order < 0:
        raise ValueError(f"{func}: order must be >= 0, got {order}")
    out = B.new_like(S, lead + (order + 1, frames), dt)
    st = _poly[dt](_ptr(S, dt, func, "S"), batch, nf, frames, fm, A.rate(sr, func, "sr"), fq, order,
                   _ptr(out, dt, func, "out", True), batch * (order + 1) * frames)
    _check(st, f"sk_poly_features_{SFX[dt]}")
    res: FloatArray = out
    return res


def zero_crossing_rate(y: ArrayLike, *, frame_length: int = 2048, hop_length: int = 512,
                       center: bool = True, **kwargs: Any) -> FloatArray:
    """``librosa.feature.zero_crossing_rate``: the fraction of neighbouring sample pairs of
    different sign in each frame (``sk_zero_crossing_rate_*``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Finite audio (as librosa).
    frame_length : int, default 2048
    hop_length : int, default 512
    center : bool, default True
        Pad ``frame_length // 2`` edge samples on each side.
    **kwargs
        ``librosa.zero_crossings``' ``threshold`` (default 1e-10; None is 0),
        ``ref_magnitude`` (a number, or a callable of ``|frames|`` such as ``np.max``),
        ``zero_pos`` (default True) and ``pad`` (default False).

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), y's dtype

    Examples
    --------
    >>> sigkern.feature.zero_crossing_rate(np.array([1.0, -1.0] * 8), frame_length=4, hop_length=4)
    array([[0.75, 0.75, 0.75, 0.75, 0.75]])
    """
    func = "zero_crossing_rate"
    unknown = set(kwargs) - {"threshold", "ref_magnitude", "zero_pos", "pad", "axis"}
    if unknown:
        raise TypeError(f"{func}: unexpected keyword arguments {sorted(unknown)}")
    ya, dt, lead, rows, n = _audio(y, func)
    fl = A.index(frame_length, func, "frame_length")
    hop = A.index(hop_length, func, "hop_length")
    thr = kwargs.get("threshold", 1e-10)
    thr = 0.0 if thr is None else float(thr)
    ref = kwargs.get("ref_magnitude")
    frames = _n_frames(n, fl, hop, bool(center), func)
    if callable(ref):
        yn = ya.detach().numpy() if A.is_tensor(ya) else ya
        if center:
            yn = np.pad(yn, [(0, 0)] * (yn.ndim - 1) + [(fl // 2, fl // 2)], mode="edge")
        view = np.lib.stride_tricks.sliding_window_view(yn, fl, axis=-1)[..., ::hop, :][..., :frames, :]
        thr = thr * float(ref(np.abs(view)))
    elif ref is not None:
        thr = thr * float(ref)
    out = B.new_like(ya, lead + (1, frames), dt)
    st = _zcr[dt](_ptr(ya, dt, func, "y"), rows, n, fl, hop, 1 if center else 0, thr,
                  1 if kwargs.get("zero_pos", True) else 0, 1 if kwargs.get("pad", False) else 0,
                  _ptr(out, dt, func, "out", True), rows * frames)
    _check(st, f"sk_zero_crossing_rate_{SFX[dt]}")
    res: FloatArray = out
    return res


def rms(*, y: Optional[ArrayLike] = None, S: Optional[ArrayLike] = None, frame_length: int = 2048,
        hop_length: int = 512, center: bool = True, pad_mode: str = "constant",
        dtype: DTypeLike = np.float32) -> FloatArray:
    """``librosa.feature.rms``: the root-mean-square of each frame of ``y``, or of the frames
    behind a spectrogram ``S`` (``sk_rms_frames_*``, ``sk_rms_spec_*``). (``sigkern.rms`` is
    the package's plain reduction; this is librosa's framed feature.)

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
    S : ndarray or Tensor, shape (..., frame_length // 2 + 1, frames), optional
        Magnitudes (real) or a complex STFT.
    frame_length : int, default 2048
    hop_length : int, default 512
    center : bool, default True
    pad_mode : "constant", "reflect" or "edge", default "constant"
    dtype : np.float32 or np.float64, default np.float32
        The result's dtype, as librosa's (computed in the input's precision with double
        accumulation, then cast).

    Returns
    -------
    ndarray or Tensor, shape (..., 1, frames), ``dtype``

    Examples
    --------
    >>> sigkern.feature.rms(y=np.ones(8), frame_length=4, hop_length=4, center=False)
    array([[1., 1.]], dtype=float32)
    """
    func = "rms"
    odt = A.float_dtype_arg(dtype, func)
    if y is not None:
        y, dt, lead, rows, n = _audio(y, func)
        fl = A.index(frame_length, func, "frame_length")
        hop = A.index(hop_length, func, "hop_length")
        pc = _TIME_PAD.get(pad_mode) if isinstance(pad_mode, str) else None
        if pc is None:
            raise ValueError(f'{func}: pad_mode must be "constant", "reflect" or "edge", got {pad_mode!r}')
        frames = _n_frames(n, fl, hop, bool(center), func)
        out = B.new_like(y, lead + (1, frames), dt)
        st = _rms_frames[dt](_ptr(y, dt, func, "y"), rows, n, fl, hop, 1 if center else 0, pc,
                             _ptr(out, dt, func, "out", True), rows * frames)
        _check(st, f"sk_rms_frames_{SFX[dt]}")
    elif S is not None:
        squared = 0
        sdt = A.dtype_of(S)
        if sdt is not None and sdt.kind == "c":
            S = spec_power(S, 2.0)
            squared = 1
        S, dt, lead, batch, nf, frames, fm = _spec(S, func)
        fl = A.index(frame_length, func, "frame_length")
        out = B.new_like(S, lead + (1, frames), dt)
        st = _rms_spec[dt](_ptr(S, dt, func, "S"), batch, nf, frames, fm, squared, fl,
                           _ptr(out, dt, func, "out", True), batch * frames)
        _check(st, f"sk_rms_spec_{SFX[dt]}")
    else:
        raise ValueError(f"{func}: either y or S must be given")
    if dt != odt:
        out = out.astype(odt) if isinstance(out, np.ndarray) else out.to(A.torch_dtype(odt))
    res: FloatArray = out
    return res


def spectral_features(y: ArrayLike, *, sr: float = 22050, n_fft: int = 2048, hop_length: int = 512,
                      win_length: Optional[int] = None, window: WindowSpec = "hann", center: bool = True,
                      pad_mode: PadMode = "constant", features: Sequence[str] = _ALL,
                      freq: Optional[ArrayLike] = None, p: float = 2, norm: bool = True,
                      roll_percent: float = 0.85, amin: float = 1e-10, power: float = 2.0,
                      threshold: float = 1e-10) -> Dict[str, FloatArray]:
    """Several librosa features in one pass over one STFT (``sk_spectral_features_*``): each
    frame is transformed once and gives every selected descriptor, without storing the
    spectrogram.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Finite audio.
    sr, n_fft, hop_length, win_length, window, center, pad_mode, freq
        librosa's STFT parameters, shared by every feature (``zcr`` and ``rms`` use
        ``frame_length = n_fft``; ``zcr`` pads with edge samples as librosa).
    features : sequence of str, default all
        Any of ``"centroid"``, ``"bandwidth"``, ``"rolloff"``, ``"flatness"``, ``"zcr"``, ``"rms"``.
    p, norm, roll_percent, amin, power, threshold
        The parameters of :func:`spectral_bandwidth`, :func:`spectral_rolloff`,
        :func:`spectral_flatness` and :func:`zero_crossing_rate`.

    Returns
    -------
    dict of str to ndarray or Tensor, each of shape (..., 1, frames), y's dtype
        Equal to librosa's ``spectral_centroid(y=y, ...)``, ``spectral_bandwidth``,
        ``spectral_rolloff``, ``spectral_flatness``, ``zero_crossing_rate(y,
        frame_length=n_fft, ...)`` and ``rms(y=y, frame_length=n_fft, ..., dtype=y.dtype)``.

    Examples
    --------
    >>> y = np.random.default_rng(0).standard_normal(22050)
    >>> f = sigkern.feature.spectral_features(y, features=("centroid", "rms"))
    >>> sorted(f), f["rms"].shape
    (['centroid', 'rms'], (1, 44))
    """
    func = "spectral_features"
    if isinstance(features, str):
        features = (features,)
    return _from_audio(func, y, sr, n_fft, hop_length, win_length, window, center, pad_mode, freq,
                       tuple(features), p=p, norm=norm, roll_percent=roll_percent, amin=amin,
                       power=power, threshold=threshold)
