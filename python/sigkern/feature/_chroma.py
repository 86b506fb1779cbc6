"""Chroma with librosa's names (C: ``sk_chroma_filters``, ``sk_chroma_*``, ``sk_piptrack_*``,
``sk_estimate_tuning_*``; Rust: ``src/kernels/feature/chroma.rs``): :func:`chroma_stft`
(``librosa.feature.chroma_stft``), the filter bank :func:`chroma_filters`
(``librosa.filters.chroma``), and the tuning estimate behind ``tuning=None``:
:func:`piptrack`, :func:`estimate_tuning`, :func:`pitch_tuning` (``librosa``'s)."""

from __future__ import annotations

import math
import warnings
from typing import TYPE_CHECKING, Any, Callable, Optional, Tuple, Union

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import F32, F64, SFX
from .._errors import NonFiniteError, error
from .._lib import cfunc, ffi
from ..spectral._power import spec_power
from ..spectral._stft import stft
from ._spectral import _audio, _spec, _stft_args

if TYPE_CHECKING:
    from .._typing import ArrayLike, DTypeLike, FloatArray, PadMode, WindowSpec

__all__ = ["chroma_stft", "chroma_filters", "piptrack", "estimate_tuning", "pitch_tuning"]

_filters = cfunc("sk_chroma_filters")
_chroma = {F32: cfunc("sk_chroma_f32"), F64: cfunc("sk_chroma_f64")}
_pip = {F32: cfunc("sk_piptrack_f32"), F64: cfunc("sk_piptrack_f64")}
_tuning = {F32: cfunc("sk_estimate_tuning_f32"), F64: cfunc("sk_estimate_tuning_f64")}


def _norm_code(norm: Any, func: str) -> float:
    """librosa's ``norm`` as the C number: ±inf, 0, p > 0; None is NaN."""
    if norm is None:
        return math.nan
    try:
        v = float(norm)
    except (TypeError, ValueError):
        raise ValueError(f"{func}: unsupported norm {norm!r}") from None
    if math.isnan(v) or v < 0 and v != -math.inf:
        raise ValueError(f"{func}: unsupported norm {norm!r} (inf, -inf, 0, a positive number or None)")
    return v


def chroma_filters(*, sr: float, n_fft: int, n_chroma: int = 12, tuning: float = 0.0, ctroct: float = 5.0,
                   octwidth: Optional[float] = 2, norm: Optional[float] = 2, base_c: bool = True,
                   dtype: DTypeLike = np.float32) -> FloatArray:
    """``librosa.filters.chroma``: the filter bank mapping ``1 + n_fft // 2`` FFT bins onto
    ``n_chroma`` chroma bins (``sk_chroma_filters``).

    Parameters
    ----------
    sr : float > 0
    n_fft : int >= 2
    n_chroma : int, default 12
    tuning : float, default 0.0
        Deviation from A440 in fractions of a chroma bin.
    ctroct, octwidth : float, default 5.0 and 2
        Centre (in octaves above C0... as librosa) and width of the Gaussian octave weighting;
        ``octwidth=None`` turns it off.
    norm : float or None, default 2
        Column normalisation (``np.inf``, ``-np.inf``, 0, p > 0, or None).
    base_c : bool, default True
        Start the bank at C (else at A).
    dtype : np.float32 or np.float64, default np.float32

    Returns
    -------
    ndarray, shape (n_chroma, 1 + n_fft // 2)

    Examples
    --------
    >>> sigkern.chroma_filters(sr=22050, n_fft=4096).shape
    (12, 2049)
    """
    func = "chroma_filters"
    odt = A.float_dtype_arg(dtype, func)
    nfft = A.index(n_fft, func, "n_fft")
    nc = A.index(n_chroma, func, "n_chroma")
    if nfft < 2 or nc < 1:
        raise ValueError(f"{func}: need n_fft >= 2 and n_chroma >= 1, got {nfft}, {nc}")
    ow = 0.0 if octwidth is None else float(octwidth)
    if octwidth is not None and not ow > 0:
        raise ValueError(f"{func}: octwidth must be > 0 or None, got {octwidth!r}")
    out = np.empty((nc, nfft // 2 + 1), F64)
    st = _filters(A.rate(sr, func, "sr"), nfft, nc, float(tuning), float(ctroct), ow, _norm_code(norm, func),
                  1 if base_c else 0, ffi.from_buffer("double[]", out, require_writable=True), out.size)
    if st:
        raise error(st, "sk_chroma_filters")
    res: FloatArray = out.astype(odt, copy=False)
    return res


def _power_spec(func: str, y: Any, n_fft: Any, hop_length: Any, win_length: Any, window: Any, center: bool,
                pad_mode: Any, power: float) -> Any:
    """``np.abs(librosa.stft(y, ...)) ** power`` (frame-major memory)."""
    y, dt, _, _, _ = _audio(y, func)
    yn = y.detach().numpy() if A.is_tensor(y) else y
    if not np.isfinite(yn).all():
        raise NonFiniteError(NonFiniteError.code, "SK_ERR_NON_FINITE",
                             f"{func}: audio must be finite everywhere (as librosa's valid_audio)", func)
    n_fft, hop, wl, w, _ = _stft_args(func, n_fft, hop_length, win_length, window, pad_mode, dt)
    X = stft(y, n_fft, hop, wl, w, center=bool(center), pad_mode=pad_mode)
    return spec_power(X, power)


def _n_fft_of(n_fft: Any, n_freq: int) -> int:
    """librosa's ``_spectrogram``: ``n_fft`` if it matches the bins, else ``2 (n_freq - 1)``."""
    if n_fft is None or int(n_fft) // 2 + 1 != n_freq:
        return 2 * (n_freq - 1)
    return int(n_fft)


def _tuning_c(func: str, S: Any, sr: Any, n_fft: Any, resolution: float, bins_per_octave: int,
              fmin: float = 150.0, fmax: float = 4000.0, threshold: float = 0.1) -> float:
    Sa, dt, _lead, batch, nf, frames, fm = _spec(S, func)
    nfft = _n_fft_of(n_fft, nf)
    t = ffi.new("double *")
    cnt = ffi.new("size_t *")
    st = _tuning[dt](B.pointer(Sa, dt, func, "S")[0], batch, nf, frames, fm, A.rate(sr, func, "sr"), nfft,
                     float(fmin), float(fmax), float(threshold), float(resolution),
                     A.index(bins_per_octave, func, "bins_per_octave"), t, cnt)
    if st:
        raise error(st, f"sk_estimate_tuning_{SFX[dt]}")
    if cnt[0] == 0:
        warnings.warn("Trying to estimate tuning from empty frequency set.", stacklevel=3)
    return float(t[0])


def chroma_stft(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                norm: Optional[float] = np.inf, n_fft: int = 2048, hop_length: int = 512,
                win_length: Optional[int] = None, window: WindowSpec = "hann", center: bool = True,
                pad_mode: PadMode = "constant", tuning: Optional[float] = None, n_chroma: int = 12,
                **kwargs: Any) -> FloatArray:
    """``librosa.feature.chroma_stft``: the energy of each pitch class per frame, from the
    power spectrogram of ``y`` or from ``S`` (``sk_estimate_tuning_*``, ``sk_chroma_filters``,
    ``sk_chroma_*``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
        Finite audio; leading axes are a batch (one tuning estimate for all of it, as librosa).
    sr : float, default 22050
    S : ndarray or Tensor, shape (..., n_freq, frames), optional
        A power spectrogram (e.g. ``spec_power(stft(x), 2.0)``), used instead of ``y``.
    norm : float or None, default np.inf
        Per-frame normalisation over the chroma bins (``np.inf``, ``-np.inf``, 0, p > 0, None).
    n_fft, hop_length, win_length, window, center, pad_mode
        librosa's STFT parameters (``pad_mode`` "constant" or "reflect").
    tuning : float, optional
        In fractions of a chroma bin; None estimates it (:func:`estimate_tuning` of ``S`` with
        ``bins_per_octave=n_chroma``).
    n_chroma : int, default 12
    **kwargs
        :func:`chroma_filters`' ``ctroct``, ``octwidth``, ``base_c`` and ``dtype``.

    Returns
    -------
    ndarray or Tensor, shape (..., n_chroma, frames), the spectrogram's dtype

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 440 * np.arange(22050) / 22050)
    >>> int(np.argmax(sigkern.feature.chroma_stft(y=y, tuning=0.0)[:, 10]))  # A
    9
    """
    func = "chroma_stft"
    unknown = set(kwargs) - {"ctroct", "octwidth", "base_c", "dtype"}
    if unknown:
        raise TypeError(f"{func}: unexpected keyword arguments {sorted(unknown)}")
    if S is None:
        if y is None:
            raise ValueError(f"{func}: pass y (audio) or S (a power spectrogram)")
        S = _power_spec(func, y, n_fft, hop_length, win_length, window, center, pad_mode, 2.0)
    Sa, dt, lead, batch, nf, frames, fm = _spec(S, func)
    nfft = _n_fft_of(n_fft, nf)
    nc = A.index(n_chroma, func, "n_chroma")
    if tuning is None:
        tuning = _tuning_c(func, S, sr, nfft, 0.01, nc)
    fb = chroma_filters(sr=sr, n_fft=nfft, n_chroma=nc, tuning=tuning, **kwargs)
    fb64 = np.ascontiguousarray(fb, dtype=F64)
    out = B.new_like(Sa, lead + (nc, frames), dt)
    st = _chroma[dt](B.pointer(Sa, dt, func, "S")[0], batch, nf, frames, fm, ffi.from_buffer("double[]", fb64),
                     nc, _norm_code(norm, func), B.pointer(out, dt, func, "out", writable=True)[0],
                     batch * nc * frames)
    if st:
        raise error(st, f"sk_chroma_{SFX[dt]}")
    res: FloatArray = out
    return res


def piptrack(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
             n_fft: Optional[int] = 2048, hop_length: Optional[int] = None, fmin: float = 150.0,
             fmax: float = 4000.0, threshold: float = 0.1, win_length: Optional[int] = None,
             window: WindowSpec = "hann", center: bool = True, pad_mode: PadMode = "constant",
             ref: Optional[Union[float, Callable[..., Any]]] = None) -> Tuple[FloatArray, FloatArray]:
    """``librosa.piptrack``: pitch tracking by parabolically interpolated peaks of a magnitude
    spectrogram (``sk_piptrack_*``).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
        Finite audio (its STFT magnitude is used).
    sr : float, default 22050
    S : ndarray or Tensor, shape (..., n_freq, frames), optional
        A spectrogram (its absolute values are used), instead of ``y``.
    n_fft, hop_length, win_length, window, center, pad_mode
        librosa's STFT parameters (``hop_length`` default ``win_length // 4``).
    fmin, fmax : float, default 150 and 4000
        The range searched: ``max(fmin, 0) <= f < min(fmax, sr / 2)``.
    threshold : float, default 0.1
        Peaks must exceed ``threshold`` times the reference.
    ref : float or callable, optional
        The reference: default the frame's maximum; a callable ``ref(S, axis=-2)`` (times
        ``threshold``), or a number ``|ref|``.

    Returns
    -------
    pitches, magnitudes : ndarray, the shape and dtype of ``S``
        Zero away from the peaks.

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 440 * np.arange(22050) / 22050)
    >>> p, m = sigkern.piptrack(y=y)
    >>> round(float(p[:, 10][np.argmax(m[:, 10])]))
    440
    """
    func = "piptrack"
    if S is None:
        if n_fft is None:
            raise ValueError(f"{func}: n_fft is None: cannot compute a spectrogram")
        S = _power_spec(func, y, n_fft, hop_length, win_length, window, center, pad_mode, 1.0)
    Sa, dt, lead, batch, nf, frames, fm = _spec(S, func)
    nfft = _n_fft_of(n_fft, nf)
    rp: Any = ffi.NULL
    keep = None
    if ref is not None and not (ref is np.max or ref is np.amax):
        Sn = np.abs(S.detach().numpy() if A.is_tensor(S) else np.asarray(S))
        if callable(ref):
            r = threshold * np.asarray(ref(Sn, axis=-2))
        else:
            r = np.abs(ref)
        keep = np.ascontiguousarray(np.broadcast_to(r, lead + (frames,)), dtype=dt)
        rp = ffi.from_buffer(f"{'float' if dt == F32 else 'double'}[]", keep)
    pitches = np.empty(Sa.shape, dt)
    mags = np.empty(Sa.shape, dt)
    st = _pip[dt](B.pointer(Sa, dt, func, "S")[0], batch, nf, frames, fm, A.rate(sr, func, "sr"), nfft,
                  float(fmin), float(fmax), float(threshold), rp,
                  B.pointer(pitches, dt, func, "pitches", writable=True)[0],
                  B.pointer(mags, dt, func, "mags", writable=True)[0], pitches.size)
    if st:
        raise error(st, f"sk_piptrack_{SFX[dt]}")
    if fm:
        pitches, mags = pitches.swapaxes(-1, -2), mags.swapaxes(-1, -2)
    return pitches, mags


def estimate_tuning(*, y: Optional[ArrayLike] = None, sr: float = 22050, S: Optional[ArrayLike] = None,
                    n_fft: Optional[int] = 2048, resolution: float = 0.01, bins_per_octave: int = 12,
                    **kwargs: Any) -> float:
    """``librosa.estimate_tuning``: the deviation of the spectral peaks from the equal-tempered
    grid, in fractions of a bin (``sk_estimate_tuning_*``; one estimate for a whole batch).

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n), optional
    sr : float, default 22050
    S : ndarray or Tensor, shape (..., n_freq, frames), optional
        A magnitude or power spectrogram, instead of ``y``.
    n_fft : int, default 2048
    resolution : float in (0, 1], default 0.01
    bins_per_octave : int, default 12
    **kwargs
        :func:`piptrack`'s parameters (``hop_length``, ``fmin``, ``fmax``, ``threshold``,
        ``win_length``, ``window``, ``center``, ``pad_mode``, ``ref``).

    Returns
    -------
    float
        In ``[-0.5, 0.5)``; 0.0 with a warning when no peak is found, as librosa.

    Examples
    --------
    >>> y = np.sin(2 * np.pi * 440 * 2 ** (0.25 / 12) * np.arange(22050) / 22050)
    >>> sigkern.estimate_tuning(y=y)
    0.25
    """
    func = "estimate_tuning"
    allowed = {"hop_length", "fmin", "fmax", "threshold", "win_length", "window", "center", "pad_mode", "ref"}
    unknown = set(kwargs) - allowed
    if unknown:
        raise TypeError(f"{func}: unexpected keyword arguments {sorted(unknown)}")
    ref = kwargs.get("ref")
    if ref is not None and not (ref is np.max or ref is np.amax):
        pitch, mag = piptrack(y=y, sr=sr, S=S, n_fft=n_fft, **kwargs)
        pitch, mag = np.asarray(pitch), np.asarray(mag)
        mask = pitch > 0
        thr = np.median(mag[mask]) if mask.any() else 0.0
        return pitch_tuning(pitch[(mag >= thr) & mask], resolution=resolution, bins_per_octave=bins_per_octave)
    if S is None:
        if n_fft is None:
            raise ValueError(f"{func}: n_fft is None: cannot compute a spectrogram")
        S = _power_spec(func, y, n_fft, kwargs.get("hop_length"), kwargs.get("win_length"),
                        kwargs.get("window", "hann"), kwargs.get("center", True),
                        kwargs.get("pad_mode", "constant"), 1.0)
    return _tuning_c(func, S, sr, n_fft, resolution, bins_per_octave, kwargs.get("fmin", 150.0),
                     kwargs.get("fmax", 4000.0), kwargs.get("threshold", 0.1))


def pitch_tuning(frequencies: ArrayLike, *, resolution: float = 0.01, bins_per_octave: int = 12) -> float:
    """``librosa.pitch_tuning``: the histogram peak of the frequencies' deviations from the
    equal-tempered grid, in fractions of a bin (numpy, librosa's arithmetic).

    Parameters
    ----------
    frequencies : array of float
        Non-positive values are ignored.
    resolution : float in (0, 1], default 0.01
    bins_per_octave : int, default 12

    Returns
    -------
    float
        The left edge of the first fullest histogram bin; 0.0 with a warning when no
        frequency is positive, as librosa.

    Examples
    --------
    >>> sigkern.pitch_tuning([440.0 * 2 ** (-0.1 / 12)])
    -0.1
    """
    f = np.atleast_1d(np.asarray(frequencies))
    f = f[f > 0]
    if not np.any(f):
        warnings.warn("Trying to estimate tuning from empty frequency set.", stacklevel=2)
        return 0.0
    residual = np.mod(bins_per_octave * np.log2(f / (440.0 / 16)), 1.0)
    residual[residual >= 0.5] -= 1.0
    bins = np.linspace(-0.5, 0.5, int(np.ceil(1.0 / resolution)) + 1)
    counts, edges = np.histogram(residual, bins)
    return float(edges[np.argmax(counts)])
