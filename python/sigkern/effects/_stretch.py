"""Time-stretch and pitch-shift with ``librosa.effects``' signatures (C: ``sk_time_stretch_*``;
Rust: ``src/kernels/spectral/vocoder.rs``; the resampling of :func:`pitch_shift` is
:func:`sigkern.resample`)."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Dict, Optional

import numpy as np

from .. import _args as A
from .. import _buffers as B
from .._args import SFX
from .._lib import cfunc
from ..resample import resample as _resample
from ..spectral._common import _new, _raise, _real_input
from ..spectral._vocoder import _stretch_rate, _window64

if TYPE_CHECKING:
    from .._typing import ArrayLike, FloatArray, WindowLike

__all__ = ["time_stretch", "pitch_shift"]

_len = cfunc("sk_time_stretch_len")
_ts = {A.F32: cfunc("sk_time_stretch_f32"), A.F64: cfunc("sk_time_stretch_f64")}
_PAD = {"constant": 0, "reflect": 1}

#: librosa's ``res_type`` names mapped onto :func:`sigkern.resample`'s qualities.
RES_TYPES: Dict[str, str] = {
    "soxr_vhq": "very_high",
    "soxr_hq": "high",
    "soxr_mq": "medium",
    "soxr_lq": "low",
    "soxr_qq": "quick",
    "kaiser_best": "very_high",
    "kaiser_fast": "medium",
}


def time_stretch(y: ArrayLike, *, rate: float, n_fft: int = 2048, hop_length: Optional[int] = None,
                 win_length: Optional[int] = None, window: WindowLike = "hann", center: bool = True,
                 pad_mode: str = "constant") -> FloatArray:
    """``librosa.effects.time_stretch``: stretch by ``rate`` with a phase vocoder
    (``sk_time_stretch_*``, one C call for all channels).

    STFT (librosa's defaults), :func:`sigkern.phase_vocoder`, inverse STFT to
    ``round(len / rate)`` samples, all in float64 inside.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
        Leading axes are channels.
    rate : float
        Speed-up factor: > 1 shortens, < 1 lengthens.
    n_fft, hop_length, win_length, window, center, pad_mode
        librosa's STFT keywords (``hop_length`` defaults to ``win_length // 4``,
        ``win_length`` to ``n_fft``; ``pad_mode`` "constant" or "reflect"); the window is made
        in float64 as librosa does.

    Returns
    -------
    ndarray or Tensor, y's dtype, shape (..., round(n / rate))
        (librosa's full inverse length when ``round(n / rate)`` is 0). Within 1e-6 relative of
        librosa's float64 result; float32 results are the float64 ones rounded.

    Raises
    ------
    ValueError
        A rate that is not finite and positive, bad STFT parameters.
    BadArgumentError
        From the library for a signal too short for a frame.

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.effects.time_stretch(x, rate=1.25).shape
    (12800,)
    """
    func = "time_stretch"
    x: Any = _real_input(y, func, "y")
    A.cpu_tensor(x, func, "y")
    dt = A.float_dtype(x, func, "y")
    r = _stretch_rate(rate, func)
    n_fft = A.index(n_fft, func, "n_fft")
    wl = n_fft if win_length is None else A.index(win_length, func, "win_length")
    hop = wl // 4 if hop_length is None else A.index(hop_length, func, "hop_length")
    if n_fft < 1 or not 1 <= wl <= n_fft or hop < 1:
        raise ValueError(f"{func}: need n_fft >= 1, 1 <= win_length <= n_fft, hop_length >= 1; "
                         f"got {n_fft}, {wl}, {hop}")
    if pad_mode not in _PAD:
        raise ValueError(f'{func}: pad_mode must be "constant" or "reflect", got {pad_mode!r}')
    pad = _PAD[pad_mode]
    if x.ndim == 0:
        A.axis(-1, 0, func, "y")
    x = A.contig(x)
    w = _window64(window, wl, func)
    n = int(x.shape[-1])
    c = 1 if center else 0
    ln = _new("size_t *")
    st = _len(n, r, n_fft, hop, wl, c, pad, ln)
    if st:
        _raise(st, "sk_time_stretch_len")
    length = int(ln[0])
    lead = tuple(x.shape[:-1])
    out: FloatArray = B.new_like(x, lead + (length,), dt)
    rows = math.prod(lead)
    if rows:
        px, _ = B.pointer(x, dt, func, "y")
        pw, _ = B.pointer(w, A.F64, func, "window")
        po, _ = B.pointer(out, dt, func, "out", writable=True)
        st = _ts[dt](px, n, rows, r, pw, n_fft, hop, wl, c, pad, po, rows * length)
        if st:
            _raise(st, f"sk_time_stretch_{SFX[dt]}")
    return out


def pitch_shift(y: ArrayLike, *, sr: float, n_steps: float, bins_per_octave: float = 12,
                res_type: str = "soxr_hq", scale: bool = False, n_fft: int = 2048,
                hop_length: Optional[int] = None, win_length: Optional[int] = None,
                window: WindowLike = "hann", center: bool = True,
                pad_mode: str = "constant") -> FloatArray:
    """``librosa.effects.pitch_shift``: shift by ``n_steps`` steps of ``1/bins_per_octave``
    octave, keeping the length.

    :func:`time_stretch` by ``rate = 2 ** (-n_steps / bins_per_octave)``, then
    :func:`sigkern.resample` from ``sr / rate`` to ``sr`` and cut or zero-padded to the input
    length, as librosa does.

    Parameters
    ----------
    y : ndarray or Tensor, float32 or float64, shape (..., n)
    sr : float
        Sample rate (> 0).
    n_steps : float
        Steps to shift (may be fractional or negative).
    bins_per_octave : float, default 12
        Steps per octave (> 0).
    res_type : str, default "soxr_hq"
        librosa's resampler name mapped onto sigkern's qualities: ``"soxr_vhq"`` and
        ``"kaiser_best"`` → ``"very_high"``, ``"soxr_hq"`` → ``"high"``, ``"soxr_mq"`` and
        ``"kaiser_fast"`` → ``"medium"``, ``"soxr_lq"`` → ``"low"``, ``"soxr_qq"`` →
        ``"quick"``; sigkern's own quality names are accepted too.
    scale : bool
        Scale the resampled signal by ``1 / sqrt(rate)`` (librosa's ``scale``).
    n_fft, hop_length, win_length, window, center, pad_mode
        As :func:`time_stretch`.

    Returns
    -------
    ndarray or Tensor, y's dtype, shape (..., n)

    Raises
    ------
    ValueError
        ``bins_per_octave <= 0``, ``sr <= 0``, an unknown ``res_type`` (librosa's
        ``"fft"``, ``"scipy"``, ``"polyphase"``, ``"linear"``, ``"zero_order_hold"`` and
        ``"sinc_*"`` have no counterpart here), or a shift whose resampling ratio lies outside
        [1/256, 256].

    Examples
    --------
    >>> x = np.random.default_rng(0).standard_normal(16000)
    >>> sigkern.effects.pitch_shift(x, sr=16000, n_steps=3).shape
    (16000,)
    """
    func = "pitch_shift"
    x: Any = _real_input(y, func, "y")
    A.cpu_tensor(x, func, "y")
    dt = A.float_dtype(x, func, "y")
    bpo = float(bins_per_octave)
    if not bpo > 0:
        raise ValueError(f"{func}: bins_per_octave must be > 0, got {bins_per_octave!r}")
    sr_f = A.rate(sr, func, "sr")
    if not (math.isfinite(sr_f) and sr_f > 0):
        raise ValueError(f"{func}: sr must be finite and positive, got {sr!r}")
    if not isinstance(res_type, str):
        raise TypeError(f"{func}: res_type must be a string, got {res_type!r}")
    quality: Any = RES_TYPES.get(res_type.lower(), res_type.lower())
    if quality not in ("quick", "low", "medium", "high", "very_high", "qq", "lq", "mq", "hq",
                       "vhq"):
        raise ValueError(f"{func}: res_type {res_type!r} is not supported; use one of "
                         f"{sorted(RES_TYPES)} or a sigkern quality name")
    rate = 2.0 ** (-float(n_steps) / bpo)
    ys = time_stretch(x, rate=rate, n_fft=n_fft, hop_length=hop_length, win_length=win_length,
                      window=window, center=center, pad_mode=pad_mode)
    yr: Any = _resample(ys, sr_f / rate, sr_f, quality)
    if scale:
        yr = yr / np.sqrt(rate) if isinstance(yr, np.ndarray) else yr / math.sqrt(rate)
        yr = yr.astype(dt) if isinstance(yr, np.ndarray) else yr
    n = int(x.shape[-1])
    m = int(yr.shape[-1])
    if m == n:
        res: FloatArray = yr
        return res
    out: FloatArray = B.new_like(x, tuple(x.shape[:-1]) + (n,), dt)
    out[...] = 0
    k = min(m, n)
    out[..., :k] = yr[..., :k]
    return out
